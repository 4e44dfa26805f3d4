/* Latencies: each path's measured figure equals the sum of its configured parts, and
 * `qsim latency` orders them as physics demands. */
#include <check.h>
#include <string.h>
#include "sim/latency_probe.h"
#include "tests/coh_rig.h"

/* 4 sockets on a ring (1 and 2 hops), 4 cores each, ring on die with 3 cycles per stop. */
static const char *lat_yaml =
    "name: lat\narch: x86\nprotocol: %s\nline_size: 64\n"
    "topology:\n  sockets: 4\n  cores_per_socket: 4\n  socket_links: ring\n  ondie: %s\n"
    "  ondie_hop_cycles: 3\n  c2c_cycles: 25\n  socket_hop_cycles: 70\n"
    "l1:\n  size: 4KiB\n  ways: 4\n  latency: 4\n"
    "l2:\n  enabled: true\n  size: 8KiB\n  ways: 4\n  latency: 11\n"
    "llc:\n  size: 64KiB\n  ways: 8\n  latency: 40\n"
    "memory:\n  latency: 180\n";

static guint64 find(GArray *rows, const char *op, const char *state, const char *dist)
{
    for (guint i = 0; i < rows->len; i++) {
        const LatencyRow *r = &g_array_index(rows, LatencyRow, i);
        if (!strcmp(r->op, op) && !strcmp(r->state, state) && !strcmp(r->distance, dist))
            return r->cycles;
    }
    ck_abort_msg("no row %s %s %s", op, state, dist);
    return 0;
}

START_TEST(test_latency_sums)
{
    const char *proto = _i ? "moesi" : "mesi";
    g_autofree char *y = g_strdup_printf(lat_yaml, proto, "crossbar");
    g_autoptr(GError) error = NULL;
    g_autoptr(QsimConfig) cfg = config_load_string(y, "lat.yaml", NULL, &error);
    ck_assert(cfg);
    GArray *rows = latency_measure(cfg, &error);
    ck_assert_msg(rows, "%s", error ? error->message : "");
    const guint64 llc = 40, c2c = 25, mem = 180, hopc = 70;
    /* crossbar: no on-die hops; the line is homed at socket 0 (the requester's) */
    ck_assert_uint_eq(find(rows, "load", "M", "same-socket"), llc + c2c);
    ck_assert_uint_eq(find(rows, "load", "E", "same-socket"), llc + c2c);
    ck_assert_uint_eq(find(rows, "load", "M", "1-hop"), llc + hopc + c2c + hopc);
    ck_assert_uint_eq(find(rows, "load", "M", "2-hop"), llc + 2 * hopc + c2c + 2 * hopc);
    ck_assert_uint_eq(find(rows, "load", "I", "same-socket"), mem);
    ck_assert_uint_eq(find(rows, "load", "I", "1-hop"), hopc + mem + hopc);
    ck_assert_uint_eq(find(rows, "load", "I", "2-hop"), 2 * hopc + mem + 2 * hopc);
    ck_assert_uint_eq(find(rows, "store", "M", "1-hop"), llc + hopc + c2c + hopc);
    ck_assert_uint_eq(find(rows, "cas", "E", "same-socket"), llc + c2c);
    if (!_i) {
        /* MESI S on this socket: data from the LLC, invalidations at LLC time, acks 0 hops */
        ck_assert_uint_eq(find(rows, "load", "S", "same-socket"), llc);
        ck_assert_uint_eq(find(rows, "store", "S", "same-socket"), llc);
        /* S two hops away: memory data, invalidation round trip to the sharers */
        ck_assert_uint_eq(find(rows, "store", "S", "2-hop"), MAX(mem, llc + 4 * hopc));
    } else {
        ck_assert_uint_eq(find(rows, "load", "O", "1-hop"), llc + hopc + c2c + hopc);
    }
    /* physics: L1 hit < same-socket transfer < cross-socket transfer */
    ck_assert_uint_lt((guint64)cfg->l1.latency, find(rows, "load", "M", "same-socket"));
    ck_assert_uint_lt(find(rows, "load", "M", "same-socket"), find(rows, "load", "M", "1-hop"));
    ck_assert_uint_lt(find(rows, "load", "M", "1-hop"), find(rows, "load", "M", "2-hop"));
    g_array_free(rows, TRUE);
}
END_TEST

/* On-die ring distance: core 1 to the slice holding the line and back, per stop. */
START_TEST(test_latency_ring_hops_and_levels)
{
    g_autofree char *y = g_strdup_printf(lat_yaml, "mesi", "ring");
    CohRig *r = rig_new(y, NULL);
    uint64_t a = 4 * 64 * 7; /* line index 28: home socket 0, slice 28 % 4 = 0 */
    guint d = memsys_ondie_distance(r->ms, 1, a);
    ck_assert_uint_eq(d, 1);
    ck_assert_uint_eq(rig_do(r, 1, MEM_LOAD, a, 0), 180 + 2 * 3 * d);      /* memory */
    rig_settle(r);
    ck_assert_uint_eq(rig_do(r, 1, MEM_LOAD, a, 0), 4);                     /* L1 */
    ck_assert_int_eq(r->last[1].source, MEM_SRC_L1);
    /* core 2 reads: Fwd-GetS to core 1 (E), c2c over the ring */
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
    const char *bin = g_getenv("QSIM_BIN");
    if (!bin)
        return; /* run outside `make check-unit` */
    g_autofree char *cfgpath = g_build_filename(g_getenv("QSIM_SRCDIR") ? g_getenv("QSIM_SRCDIR") : ".",
                                                "configs", "teaching.yaml", NULL);
    const char *argv[] = { bin, "latency", "--config", cfgpath, "--format", "json",
                           "--set", "topology.sockets=2", NULL };
    g_autofree char *out = NULL, *err = NULL;
    gint status = 0;
    g_autoptr(GError) error = NULL;
    ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
    ck_assert_msg(g_spawn_check_wait_status(status, NULL), "stderr: %s", err);
    ck_assert_ptr_nonnull(strstr(out, "\"config\" : \"teaching\""));
    ck_assert_ptr_nonnull(strstr(out, "\"distance\" : \"1-hop\""));
    /* teaching: llc 20 + c2c 20 on one socket */
    ck_assert_ptr_nonnull(strstr(out, "\"cycles\" : 40"));
}
END_TEST

/* The two machines SOSP 2013 measured: the model's load-from-M figures, which come from the
 * configured parts (no per-cell constant), land within 15% of Table 2. */
typedef struct { const char *config, *distance; guint64 published; } Published;
static const Published sosp13[] = {
    { "westmere-ex", "same-socket", 109 }, { "westmere-ex", "1-hop", 289 }, { "westmere-ex", "2-hop", 400 },
    { "magny-cours", "same-socket", 81 }, { "magny-cours", "same-package", 161 },
    { "magny-cours", "1-hop", 172 }, { "magny-cours", "2-hop", 252 },
};

START_TEST(test_latency_near_sosp13)
{
    const Published *p = &sosp13[_i];
    GError *error = NULL;
    g_autoptr(QsimConfig) cfg = config_load(p->config, NULL, &error);
    ck_assert_msg(cfg, "%s", error ? error->message : "");
    GArray *rows = latency_measure(cfg, &error);
    ck_assert_msg(rows, "%s", error ? error->message : "");
    gboolean found = FALSE;
    for (guint i = 0; i < rows->len; i++) {
        const LatencyRow *r = &g_array_index(rows, LatencyRow, i);
        if (strcmp(r->op, "load") || strcmp(r->state, "M") || strcmp(r->distance, p->distance))
            continue;
        found = TRUE;
        double err = ((double)r->cycles - (double)p->published) / (double)p->published;
        ck_assert_msg(err < 0.15 && err > -0.15, "%s load from M at %s: %" G_GUINT64_FORMAT " cycles, SOSP 2013: %"
                      G_GUINT64_FORMAT, p->config, p->distance, r->cycles, p->published);
    }
    ck_assert_msg(found, "%s: no %s row", p->config, p->distance);
    g_array_free(rows, TRUE);
}
END_TEST

Suite *make_coh_latency_suite(void)
{
    Suite *s = suite_create("coh_latency");
    TCase *tc = tcase_create("paths");
    tcase_add_loop_test(tc, test_latency_sums, 0, 2);
    tcase_add_test(tc, test_latency_ring_hops_and_levels);
    tcase_add_test(tc, test_latency_command_json);
    tcase_add_loop_test(tc, test_latency_near_sosp13, 0, G_N_ELEMENTS(sosp13));
    suite_add_tcase(s, tc);
    return s;
}
