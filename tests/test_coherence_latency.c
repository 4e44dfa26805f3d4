/* Latencies: each path's measured figure equals the sum of its configured parts (memsys.h's
 * table), snoops cost the owner's or sharer's answer, MESIF forwards a clean line from the F
 * socket, a probe filter broadcasts a write to a shared line, and `qsim latency` says why a
 * row is missing. */
#include <check.h>
#include <string.h>
#include "sim/validation/latency_probe.h"
#include "tests/coh_rig.h"
#include "tests/run_qsim.h"

/* 4 sockets on a ring (1 and 2 hops), 4 cores each; R = 25, D = 7. */
static const char *lat_yaml =
    "name: lat\narch: x86\nprotocol: %s\nline_size: 64\n"
    "topology:\n  sockets: 4\n  cores_per_socket: 4\n  socket_links: ring\n  ondie: %s\n"
    "  ondie_hop_cycles: 3\n  snoop_response_cycles: 25\n  snoop_data_cycles: 7\n  socket_hop_cycles: 70\n"
    "  cross_socket: %s\n"
    "l1:\n  size: 4KiB\n  ways: 4\n  latency: 4\n"
    "l2:\n  enabled: true\n  size: 8KiB\n  ways: 4\n  latency: 11\n"
    "llc:\n  size: 64KiB\n  ways: 8\n  latency: 40\n"
    "memory:\n  latency: 180\n";
static const guint64 llc = 40, R = 25, D = 7, mem = 180, hopc = 70;

static LatencyTable *measure(const char *proto, const char *ondie, const char *xsock)
{
    g_autofree char *y = g_strdup_printf(lat_yaml, proto, ondie, xsock);
    g_autoptr(GError) error = NULL;
    g_autoptr(QsimConfig) cfg = config_load_string(y, "lat.yaml", NULL, &error);
    ck_assert_msg(cfg, "%s", error ? error->message : "");
    LatencyTable *t = latency_measure(cfg, &error);
    ck_assert_msg(t, "%s", error ? error->message : "");
    return t;
}

static guint64 find(const LatencyTable *t, const char *op, const char *state, const char *dist)
{
    const LatencyRow *r = latency_find(t, op, state, dist);
    ck_assert_msg(r, "no row %s %s %s", op, state, dist);
    return r->cycles;
}

START_TEST(test_latency_sums)
{
    gboolean moesi = _i;
    g_autoptr(LatencyTable) t = measure(moesi ? "moesi" : "mesi", "crossbar", "directory");
    /* crossbar: no on-die hops; the line is homed at socket 0 (the requester's); a dirty
     * owner's answer carries D more than a clean one */
    ck_assert_uint_eq(find(t, "load", "M", "same-die"), llc + R + D);
    ck_assert_uint_eq(find(t, "load", "E", "same-die"), llc + R);
    ck_assert_uint_eq(find(t, "load", "M", "1-hop"), llc + hopc + R + D + hopc);
    ck_assert_uint_eq(find(t, "load", "M", "2-hops"), llc + 2 * hopc + R + D + 2 * hopc);
    ck_assert_uint_eq(find(t, "load", "I", "same-die"), mem);
    ck_assert_uint_eq(find(t, "load", "I", "1-hop"), hopc + mem + hopc);
    ck_assert_uint_eq(find(t, "load", "I", "2-hops"), 2 * hopc + mem + 2 * hopc);
    ck_assert_uint_eq(find(t, "store", "M", "1-hop"), llc + hopc + R + D + hopc);
    ck_assert_uint_eq(find(t, "cas", "E", "same-die"), llc + R);
    ck_assert_uint_eq(find(t, "swap", "M", "same-die"), llc + R + D);
    ck_assert_uint_eq(find(t, "fai", "I", "same-die"), mem);
    /* two sharers on this socket: a load is an LLC hit; a store must hear both sharers' acks,
     * each answering R after the invalidation reaches it (it used to cost an LLC hit) */
    ck_assert_uint_eq(find(t, "load", "S", "same-die"), llc);
    ck_assert_uint_eq(find(t, "store", "S", "same-die"), llc + R);
    ck_assert_uint_eq(find(t, "cas", "S", "same-die"), llc + R);
    /* S two hops away: memory data, the invalidations' round trip and the sharers' answer */
    ck_assert_uint_eq(find(t, "store", "S", "2-hops"), MAX(mem, llc + 4 * hopc + R));
    if (moesi)
        ck_assert_uint_eq(find(t, "load", "O", "1-hop"), llc + hopc + R + D + hopc);
    /* physics: L1 hit < same-die transfer < cross-socket transfer */
    ck_assert_uint_lt(find(t, "load", "l1-hit", "same-core"), find(t, "load", "M", "same-die"));
    ck_assert_uint_lt(find(t, "load", "M", "same-die"), find(t, "load", "M", "1-hop"));
    ck_assert_uint_lt(find(t, "load", "M", "1-hop"), find(t, "load", "M", "2-hops"));
    /* local rows */
    ck_assert_uint_eq(find(t, "load", "l1-hit", "same-core"), 4);
    ck_assert_uint_eq(find(t, "load", "l2-hit", "same-core"), 11);
    ck_assert_uint_eq(find(t, "load", "llc-hit", "same-core"), llc);
    ck_assert_uint_eq(find(t, "load", "memory", "same-core"), mem);
    ck_assert_uint_eq(find(t, "load", "memory", "2-hops"), 2 * hopc + mem + 2 * hopc);
}
END_TEST

/* MESIF: a clean line shared on another socket comes from that socket's LLC (its F copy), not
 * from memory; once the F copy is gone, from memory again. */
START_TEST(test_latency_mesif_forward)
{
    g_autoptr(LatencyTable) t = measure("mesif", "crossbar", "directory");
    /* home lookup, to the F socket, its LLC, back */
    ck_assert_uint_eq(find(t, "load", "F", "1-hop"), llc + hopc + llc + hopc);
    ck_assert_uint_eq(find(t, "load", "F", "2-hops"), llc + 2 * hopc + llc + 2 * hopc);
    /* no F anywhere: memory (the line is homed on core 0's socket) */
    ck_assert_uint_eq(find(t, "load", "S", "1-hop"), mem);
    /* and where MESI has no F, the same line comes from memory */
    g_autoptr(LatencyTable) m = measure("mesi", "crossbar", "directory");
    ck_assert_ptr_null(latency_find(m, "load", "F", "1-hop"));
    ck_assert_uint_eq(find(m, "load", "S", "1-hop"), mem);
    /* no F row on core 0's own socket, and the table says why */
    gboolean said = FALSE;
    for (guint i = 0; i < t->absent->len; i++) {
        const LatencyAbsent *a = &g_array_index(t->absent, LatencyAbsent, i);
        said |= !strcmp(a->state, "F") && !strcmp(a->distance, "same-die") && strstr(a->why, "LLC");
    }
    ck_assert(said);
}
END_TEST

/* Probe filter (HT Assist): a write to a line with several sharers, or an owner and sharers,
 * waits for every socket's answer; a write to a line with one owner is directed. */
START_TEST(test_latency_probe_filter_broadcasts_writes_to_shared)
{
    g_autoptr(LatencyTable) pf = measure("moesi", "crossbar", "probe-filter");
    g_autoptr(LatencyTable) dir = measure("moesi", "crossbar", "directory");
    /* the farthest answer: socket 2, two hops out and back */
    guint64 bcast = llc + 2 * hopc + 2 * hopc + R;
    ck_assert_uint_eq(find(pf, "store", "S", "same-die"), bcast);
    ck_assert_uint_eq(find(pf, "store", "O", "same-die"), bcast);
    ck_assert_uint_eq(find(pf, "cas", "O", "1-hop"), MAX(bcast, llc + hopc + R + D + hopc));
    ck_assert_uint_eq(find(dir, "store", "S", "same-die"), llc + R);
    /* directed: a single owner; and reads are never broadcast */
    ck_assert_uint_eq(find(pf, "store", "M", "same-die"), llc + R + D);
    ck_assert_uint_eq(find(pf, "load", "O", "same-die"), find(dir, "load", "O", "same-die"));
    ck_assert_uint_eq(find(pf, "load", "S", "1-hop"), find(dir, "load", "S", "1-hop"));
}
END_TEST

/* On-die ring distance: core 1 to the slice holding the line and back, per stop. */
START_TEST(test_latency_ring_hops_and_levels)
{
    g_autofree char *y = g_strdup_printf(lat_yaml, "mesi", "ring", "directory");
    CohRig *r = rig_new(y, NULL);
    uint64_t a = 4 * 64 * 7; /* line index 28: home socket 0, slice 28 % 4 = 0 */
    guint d = memsys_ondie_distance(r->ms, 1, a);
    ck_assert_uint_eq(d, 1);
    ck_assert_uint_eq(rig_do(r, 1, MEM_LOAD, a, 0), 180 + 2 * 3 * d);      /* memory */
    rig_settle(r);
    ck_assert_uint_eq(rig_do(r, 1, MEM_LOAD, a, 0), 4);                     /* L1 */
    ck_assert_int_eq(r->last[1].source, MEM_SRC_L1);
    /* core 2 reads: Fwd-GetS to core 1 (E: a clean answer), c2c over the ring */
    guint d2 = memsys_ondie_distance(r->ms, 2, a);
    Cycle t = rig_do(r, 2, MEM_LOAD, a, 0);
    ck_assert_uint_eq(t, d2 * 3 + 40 + d * 3 + 25 + memsys_core_distance(r->ms, 1, 2) * 3);
    ck_assert_int_eq(r->last[2].source, MEM_SRC_PEER_SAME_SOCKET);
    rig_settle(r);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

START_TEST(test_latency_command_json)
{
    const char *argv[] = { "latency", "--config", "configs/teaching.yaml", "--format", "json",
                           "--set", "topology.sockets=2", NULL };
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_msg(run_qsim(argv, &out, &err) == 0, "stderr: %s", err);
    ck_assert_ptr_nonnull(strstr(out, "\"config\" : \"teaching\""));
    ck_assert_ptr_nonnull(strstr(out, "\"distance\" : \"1-hop\""));
    /* teaching: llc 20 + a snoop answer of 20 on one socket */
    ck_assert_ptr_nonnull(strstr(out, "\"cycles\" : 40"));
    /* teaching is MESI with two cores: no O, no F, and no shared state beside core 0 */
    ck_assert_ptr_nonnull(strstr(out, "\"why\" : \"the protocol has no O state (MOESI only)\""));
}
END_TEST

Suite *make_coh_latency_suite(void)
{
    Suite *s = suite_create("coh_latency");
    TCase *tc = tcase_create("paths");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_latency_sums, 0, 2);
    tcase_add_test(tc, test_latency_mesif_forward);
    tcase_add_test(tc, test_latency_probe_filter_broadcasts_writes_to_shared);
    tcase_add_test(tc, test_latency_ring_hops_and_levels);
    tcase_add_test(tc, test_latency_command_json);
    suite_add_tcase(s, tc);
    return s;
}
