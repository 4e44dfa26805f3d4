/* topology.interconnect bus (coherence/bus.c): the arbiter's order, every cache snooping every
 * request in one bus transaction, the timing of the phases, write-backs, held lines, the
 * configs a bus refuses, MESI's E on a bus, and the trace and `qsim latency` of the
 * teaching-bus machine. */
#include <check.h>
#include <string.h>
#include "tests/coh_script.h"
#include <glib/gstdio.h>
#include "tests/run_qsim.h"

/* Odd numbers, so that each part of a latency shows in the sum. */
#define A 7     /* bus.address_cycles */
#define D 5     /* bus.data_cycles */
#define R 20    /* topology.snoop_response_cycles (rig_yaml) */
#define DIRTY 3 /* topology.snoop_data_cycles */
#define LLC 30  /* llc.latency (rig_yaml) */
#define MEM 150 /* memory.latency (rig_yaml) */

static CohRig *bus_rig(const char *proto, guint cores)
{
    static const char *const sets[] = { "topology.interconnect=bus", "bus.address_cycles=7", "bus.data_cycles=5",
                                        "topology.snoop_data_cycles=3", NULL };
    g_autofree char *y = rig_yaml(1, cores, proto);
    return rig_new(y, sets);
}

/* ======================================================================================
 * Order
 * ====================================================================================== */

typedef struct {
    CohRig *r;
    guint core;
    uint64_t value;
} Issue;

static void issue_store(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    Issue *i = obj;
    MemRequest q = { .kind = MEM_STORE, .addr = SCRIPT_ADDR, .size = 8, .value = i->value, .tag = i->core };
    memsys_issue(i->r->ms, i->core, &q);
}

/* Two stores to one line asked for in the same cycle: the bus orders them, core 0 first (round
 * robin from the start) whichever the engine ran first, and the second transaction waits for
 * the whole first one: its GetM finds core 0 in M, which hands the line over. */
START_TEST(test_same_cycle_requests_serialized_in_bus_order)
{
    CohRig *r = bus_rig("msi", 2);
    Issue is[2] = { { r, 0, 100 }, { r, 1, 200 } };
    /* _i: which of the two the engine runs first in that cycle */
    engine_schedule(r->e, 5, issue_store, &is[_i], 0);
    engine_schedule(r->e, 5, issue_store, &is[1 - _i], 0);
    rig_settle(r);
    ck_assert(r->got[0] && r->got[1]);
    Cycle first = A + MEM + D;                      /* memory answers core 0's GetM */
    ck_assert_uint_eq(r->last[0].done - r->last[0].issued, first);
    ck_assert_uint_eq(r->last[1].done - r->last[1].issued, first + A + R + DIRTY + D); /* then core 0 */
    ck_assert_int_eq(r->last[1].source, MEM_SRC_PEER_SAME_SOCKET);
    /* in bus order: core 1's store is the last, and core 0's copy went to core 1 */
    ck_assert_uint_eq(memsys_peek(r->ms, SCRIPT_ADDR, 8), 200);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, SCRIPT_ADDR), CS_I);
    ck_assert_int_eq(memsys_cache_state(r->ms, 1, SCRIPT_ADDR), CS_M);
    const MemStats *st = memsys_stats(r->ms);
    ck_assert_uint_eq(st->bus_transactions, 2);
    ck_assert_uint_eq(st->bus_wait_cycles, first); /* core 1 waited for the whole first transaction */
    ck_assert_uint_eq(st->c2c_transfers, 1);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* ======================================================================================
 * One transaction, every cache
 * ====================================================================================== */

typedef struct {
    GArray *rows;   /* MemTraceRow */
    guint64 getm_id;
} Seen;

static void on_row(void *user, const MemTraceRow *row, const MemTraceMsg *msgs, guint n)
{
    Seen *s = user;
    if (row)
        g_array_append_val(s->rows, *row);
    for (guint i = 0; i < n; i++)
        if (msgs[i].type == MSG_GETM)
            s->getm_id = msgs[i].id;
}

/* Three sharers; core 0 writes.  Its GetM is seen by every cache in the same cycle: each S copy
 * goes then (S + Other-GetM -> I, caused by that GetM), with no Inv and no ack messages. */
START_TEST(test_snooped_getm_invalidates_every_sharer_at_once)
{
    CohRig *r = bus_rig("msi", 4);
    for (guint c = 1; c <= 3; c++)
        rig_do(r, c, MEM_LOAD, SCRIPT_ADDR, 0);
    rig_settle(r);
    guint64 before = memsys_stats(r->ms)->bus_transactions;
    Seen s = { g_array_new(FALSE, FALSE, sizeof(MemTraceRow)), 0 };
    memsys_set_trace(r->ms, on_row, &s);
    Cycle t0 = engine_now(r->e);
    Cycle lat = rig_do(r, 0, MEM_STORE, SCRIPT_ADDR, 9);
    rig_settle(r);
    ck_assert_uint_eq(lat, A + LLC + D); /* the memory (its LLC) answers; nobody acks */
    guint invalidated = 0;
    for (guint i = 0; i < s.rows->len; i++) {
        const MemTraceRow *row = &g_array_index(s.rows, MemTraceRow, i);
        if (row->dir || row->row->event != CE_OTHER_GETM)
            continue;
        ck_assert_uint_eq(row->cycle, t0 + A);    /* all when the address phase ends */
        ck_assert_uint_eq(row->cause, s.getm_id); /* all by the one GetM */
        if (row->row->state == CS_S) {
            ck_assert_int_eq(row->row->next, CS_I);
            invalidated++;
        }
    }
    ck_assert_uint_eq(invalidated, 3);
    const MemStats *st = memsys_stats(r->ms);
    ck_assert_uint_eq(st->bus_transactions - before, 1);
    ck_assert_uint_eq(st->msgs[MSG_INV] + st->msgs[MSG_INV_ACK] + st->msgs[MSG_ACK_COUNT], 0);
    for (guint c = 1; c <= 3; c++) {
        ck_assert_int_eq(memsys_cache_state(r->ms, c, SCRIPT_ADDR), CS_I);
        ck_assert_uint_eq(r->lost[c][LINE_INVALIDATED], 1);
    }
    /* every other cache looked the GetM up, those in I too: 3 snoops for each of the 4 requests */
    ck_assert_uint_eq(st->bus_snoops, 4 * 3);
    memsys_set_trace(r->ms, NULL, NULL);
    g_array_free(s.rows, TRUE);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* ======================================================================================
 * Timing
 * ====================================================================================== */

/* A miss costs the address phase, the responder's time and the data phase. */
START_TEST(test_latency_is_the_sum_of_the_phases)
{
    CohRig *r = bus_rig("msi", 2);
    const uint64_t a = 0x1000, b = 0x2000, c = 0x3000;
    ck_assert_uint_eq(rig_do(r, 0, MEM_LOAD, a, 0), A + MEM + D);  /* memory */
    rig_settle(r);
    ck_assert_uint_eq(rig_do(r, 1, MEM_LOAD, a, 0), A + LLC + D);  /* the LLC has it now */
    rig_settle(r);
    ck_assert_uint_eq(rig_do(r, 0, MEM_LOAD, a, 0), 3);            /* an L1 hit: l1.latency */
    rig_do(r, 0, MEM_STORE, b, 1);
    rig_settle(r);
    ck_assert_uint_eq(rig_do(r, 1, MEM_LOAD, b, 0), A + R + DIRTY + D); /* a dirty owner */
    rig_settle(r);
    ck_assert_uint_eq(rig_do(r, 1, MEM_STORE, a, 2), A + LLC + D); /* S + Store: GetM, with data */
    rig_settle(r);
    /* arbitration: a request on a free bus is granted the next cycle, inside the address phase */
    ck_assert_uint_eq(rig_do(r, 0, MEM_STORE, c, 3), A + MEM + D);
    ck_assert_uint_eq(memsys_stats(r->ms)->bus_wait_cycles, 0);
    rig_settle(r);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* A replacement of an M line: PutM on the bus, its data to memory, the memory owner again. */
START_TEST(test_writeback)
{
    CohRig *r = bus_rig("msi", 2);
    rig_do(r, 0, MEM_STORE, SCRIPT_ADDR, 77);
    rig_settle(r);
    const MemStats *st = memsys_stats(r->ms);
    guint64 tr = st->bus_transactions, writes = st->mem_writes;
    ck_assert_int_eq(memsys_dir_state(r->ms, SCRIPT_ADDR), DS_M);
    Cycle t0 = engine_now(r->e);
    ck_assert(memsys_evict(r->ms, 0, SCRIPT_ADDR));
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, SCRIPT_ADDR), CS_I);
    rig_settle(r);
    ck_assert_uint_eq(engine_now(r->e), t0 + A + D); /* the write-back's two phases */
    ck_assert_uint_eq(st->bus_transactions, tr + 1);
    ck_assert_uint_eq(st->mem_writes, writes + 1);
    ck_assert_uint_eq(st->msgs[MSG_PUTM], 1);
    ck_assert_int_eq(memsys_dir_state(r->ms, SCRIPT_ADDR), DS_IORS);
    ck_assert_uint_eq(rig_do(r, 1, MEM_LOAD, SCRIPT_ADDR, 0), A + LLC + D);
    ck_assert_uint_eq(r->last[1].value, 77);
    rig_settle(r);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* A locked RMW keeps its line for hold_cycles: the snoop, and with it the bus, waits. */
START_TEST(test_held_line_holds_the_snoop)
{
    CohRig *r = bus_rig("msi", 2);
    rig_do(r, 0, MEM_STORE, SCRIPT_ADDR, 1);
    rig_settle(r);
    rig_rmw(r, 0, RMW_XCHG, SCRIPT_ADDR, 2, 0, FALSE, 15); /* an L1 hit: held 15 cycles from now */
    Cycle lat = rig_do(r, 1, MEM_LOAD, SCRIPT_ADDR, 0);
    ck_assert_uint_eq(memsys_stats(r->ms)->hold_wait_cycles, 15 - A);
    ck_assert_uint_eq(lat, 15 + R + DIRTY + D);
    ck_assert_uint_eq(r->last[1].value, 2);
    rig_settle(r);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* ======================================================================================
 * MESI on a bus
 * ====================================================================================== */

START_TEST(test_mesi_bus)
{
    CohRig *r = bus_rig("mesi", 3);
    ck_assert_str_eq(memsys_protocol(r->ms)->name, "mesi-bus");
    /* a lone reader gets E; its store is a silent hit; a reader then gets the owner's copy */
    script_run(r, "c0.ld");
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, SCRIPT_ADDR), CS_E);
    ck_assert_int_eq(memsys_dir_state(r->ms, SCRIPT_ADDR), DS_EM);
    script_run(r, "c0.st");
    ck_assert_uint_eq(memsys_stats(r->ms)->bus_transactions, 1);
    ck_assert_uint_eq(script_row_fired(r, FALSE, "E + Store -> M"), 1);
    script_run(r, "c1.ld");
    ck_assert_uint_eq(script_row_fired(r, FALSE, "M + Other-GetS -> S"), 1);
    ck_assert_uint_eq(script_row_fired(r, TRUE, "S_D + Data -> S"), 1);
    ck_assert_int_eq(memsys_dir_state(r->ms, SCRIPT_ADDR), DS_S);
    /* S is conservative: both copies leave silently, and the next reader still gets S */
    script_run(r, "c0.evict c1.evict c2.ld");
    ck_assert_int_eq(memsys_cache_state(r->ms, 2, SCRIPT_ADDR), CS_S);
    /* an E owner's write-back: the memory is I again, and the next reader gets E */
    script_run(r, "c2.st c2.evict c0.ld");
    ck_assert_uint_eq(script_row_fired(r, TRUE, "EM + PutM -> I_D"), 1);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, SCRIPT_ADDR), CS_E);
    rig_free(r);
}
END_TEST

/* ======================================================================================
 * Configs
 * ====================================================================================== */

START_TEST(test_bus_configs_refused)
{
    static const struct {
        const char *set1, *set2, *says;
    } bad[] = {
        { "topology.sockets=2", NULL, "topology.interconnect: bus joins the cores of one socket" },
        { "protocol=moesi", NULL, "protocol: the bus runs msi or mesi" },
        { "protocol=mesif", NULL, "protocol: the bus runs msi or mesi" },
        { "arch=arm64", "core.atomics=lse-far", "core.atomics: lse-far performs atomics at the line's home" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        const char *sets[] = { "topology.interconnect=bus", bad[i].set1, bad[i].set2, NULL };
        g_autoptr(GError) error = NULL;
        g_autoptr(QsimConfig) c = config_load("teaching", sets, &error);
        ck_assert_msg(!c, "%s: accepted", bad[i].set1);
        ck_assert_msg(strstr(error->message, bad[i].says), "%s: %s", bad[i].set1, error->message);
    }
    /* the same keys on a directory are fine, and arm64 with llsc on a bus too */
    const char *ok[] = { "topology.interconnect=bus", "arch=arm64", "core.atomics=llsc", NULL };
    g_autoptr(GError) error = NULL;
    g_autoptr(QsimConfig) c = config_load("teaching", ok, &error);
    ck_assert_msg(c, "%s", error ? error->message : "");
}
END_TEST

/* ======================================================================================
 * The teaching-bus machine from the command line
 * ====================================================================================== */

static char *qsim_ok(const char *args, char **err_out)
{
    char *out = NULL, *err = NULL;
    int rc = run_qsim_line(args, &out, &err);
    ck_assert_msg(rc == 0, "qsim %s: exit %d: %s", args, rc, err);
    if (err_out)
        *err_out = err;
    else
        g_free(err);
    return out;
}

START_TEST(test_teaching_bus_trace)
{
    g_autofree char *err = NULL;
    g_autofree char *out = qsim_ok("run --config teaching-bus --lock ttas --iterations 3 --no-host-time --trace", &err);
    ck_assert_ptr_nonnull(strstr(err, "# qsim trace: ttas on teaching-bus (msi-bus), 2 threads"));
    static const char *const words[] = {
        "I + Load -> IS_D            load lock_word: sends GetS to bus",
        "IS_D + Own-GetS -> IS_D     nothing to do",
        "M + Other-GetS -> S         sends Data(c2c) to core ",
        "S + Other-GetM -> I         core told: invalidated; drops the line",
        "home    lock_word     IorS + GetS -> IorS         sends Data(mem) to core ",
        "IorS_D + Data -> IorS       writes memory",
        " cycles for other transactions): sends Get",
    };
    for (guint i = 0; i < G_N_ELEMENTS(words); i++)
        ck_assert_msg(strstr(err, words[i]), "the trace has no '%s'", words[i]);
    ck_assert_ptr_null(strstr(err, "dir:")); /* no directory on a bus */
    ck_assert_ptr_nonnull(strstr(out, "mutual_exclusion:                  true"));
    ck_assert_ptr_nonnull(strstr(out, "bus_transactions:"));
    /* Perfetto and the step-through page take the bus's messages */
    g_autofree char *dir = g_dir_make_tmp("qsim-bus-XXXXXX", NULL);
    g_autofree char *json = g_build_filename(dir, "t.json", NULL);
    g_autofree char *html = g_build_filename(dir, "t.html", NULL);
    g_autofree char *args = g_strdup_printf("run --config teaching-bus --lock ttas --iterations 3 --no-host-time "
                                            "--trace-out %s --trace-html %s", json, html);
    g_autofree char *o2 = qsim_ok(args, NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(json, &text, NULL, NULL));
    ck_assert_ptr_nonnull(strstr(text, "\"name\":\"bus\""));
    ck_assert_ptr_nonnull(strstr(text, "GetS lock_word to bus"));
    ck_assert_ptr_nonnull(strstr(text, "\"protocol\":\"msi-bus\""));
    g_autofree char *page = NULL;
    ck_assert(g_file_get_contents(html, &page, NULL, NULL));
    ck_assert_ptr_nonnull(strstr(page, "Other-GetM"));
    g_unlink(json);
    g_unlink(html);
    g_rmdir(dir);
}
END_TEST

START_TEST(test_teaching_bus_latency)
{
    g_autofree char *out = qsim_ok("latency --config teaching-bus", NULL);
    /* address 10 + the responder + data 10: a dirty owner 20, the LLC 20, memory 100 */
    static const char *const rows[] = {
        "load   M                  40", "load   S                  40", "store  S                  40",
        "load   I                 120", "load   l1-hit              2", "load   llc-hit            40",
        "load   memory            120", "no E row at any: the protocol has no E state (MSI: a lone reader gets S)",
    };
    for (guint i = 0; i < G_N_ELEMENTS(rows); i++)
        ck_assert_msg(strstr(out, rows[i]), "no '%s' in:\n%s", rows[i], out);
    g_autofree char *p = qsim_ok("protocol --config teaching-bus", NULL);
    ck_assert_ptr_nonnull(strstr(p, "The msi-bus protocol, after Sorin, Hill, Wood"));
    ck_assert_ptr_nonnull(strstr(p, "Tables 7.5-7.6"));
    g_autofree char *m = qsim_ok("protocol msi", NULL);
    ck_assert_ptr_nonnull(strstr(m, "Tables 8.1-8.2"));
    ck_assert_ptr_nonnull(strstr(m, "I + GetS -> S_U"));
}
END_TEST

Suite *make_coh_bus_suite(void)
{
    Suite *s = suite_create("coh_bus");
    TCase *tc = tcase_create("bus");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_same_cycle_requests_serialized_in_bus_order, 0, 2);
    tcase_add_test(tc, test_snooped_getm_invalidates_every_sharer_at_once);
    tcase_add_test(tc, test_latency_is_the_sum_of_the_phases);
    tcase_add_test(tc, test_writeback);
    tcase_add_test(tc, test_held_line_holds_the_snoop);
    tcase_add_test(tc, test_mesi_bus);
    tcase_add_test(tc, test_bus_configs_refused);
    tcase_add_test(tc, test_teaching_bus_trace);
    tcase_add_test(tc, test_teaching_bus_latency);
    suite_add_tcase(s, tc);
    return s;
}
