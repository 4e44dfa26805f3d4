/* Same-cycle ties: requests for one line that meet in one cycle, at a directory's home
 * (coherence/home_arbiter.c) and on a bus (coherence/bus.c), are served in rotating order --
 * first the core after the one that came first in the last contest -- whatever order the engine
 * ran their cores in.  Core 0 no longer wins every tie. */
#include <check.h>
#include "tests/coh_rig.h"

#define NCORES 3
#define ROUNDS 6
#define LINE0 0x10000

typedef struct {
    CohRig *r;
    guint core;
    uint64_t addr;
} Store;

static void store_event(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    Store *s = obj;
    MemRequest q = { .kind = MEM_STORE, .addr = s->addr, .size = 8, .value = s->core + 1, .tag = s->core };
    memsys_issue(s->r->ms, s->core, &q);
}

/* How the stores of a round are issued: 0, from the cores' engine ticks (core-id order, as the
 * cores of a run issue); 1, from memory events in core order; 2, in reverse core order. */
static void issue_round(CohRig *r, Store *st, guint how)
{
    Cycle at = engine_now(r->e) + 5;
    for (guint k = 0; k < NCORES; k++) {
        guint c = how == 2 ? NCORES - 1 - k : k;
        if (how == 0) {
            engine_ticker_set(r->e, c, store_event, &st[c]);
            engine_tick_at(r->e, c, at);
        } else {
            engine_schedule_at(r->e, at, store_event, &st[c], 0);
        }
    }
}

/* Each round, every core stores to a fresh line in one cycle (so each misses); the cores in the
 * order their stores completed, which is the order they were served, must be `want`. */
static void check_rounds(CohRig *r, guint how)
{
    static const guint want[ROUNDS][NCORES] = {
        { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 },
    };
    Store st[NCORES];
    for (guint round = 0; round < ROUNDS; round++) {
        uint64_t addr = LINE0 + round * 64;
        for (guint c = 0; c < NCORES; c++) {
            st[c] = (Store){ r, c, addr };
            r->got[c] = FALSE;
        }
        issue_round(r, st, how);
        rig_settle(r);
        guint order[NCORES];
        for (guint c = 0; c < NCORES; c++) {
            ck_assert(r->got[c]);
            guint k = 0;
            for (guint o = 0; o < NCORES; o++)
                k += r->last[o].done < r->last[c].done;
            order[k] = c;
        }
        for (guint k = 0; k < NCORES; k++)
            ck_assert_msg(order[k] == want[round][k], "round %u: served %u %u %u, want %u %u %u", round, order[0],
                          order[1], order[2], want[round][0], want[round][1], want[round][2]);
        /* the last served wrote last */
        ck_assert_uint_eq(memsys_peek(r->ms, addr, 8), want[round][NCORES - 1] + 1);
    }
    rig_assert_ok(r);
}

/* A directory (MESI, one socket, a crossbar: every route to the home takes no cycles, so each
 * store's GetM reaches the home in the cycle it was issued, before the next core's tick). */
START_TEST(test_home_ties_rotate)
{
    g_autofree char *y = rig_yaml(1, NCORES, "mesi");
    CohRig *r = rig_new(y, NULL);
    check_rounds(r, (guint)_i);
    rig_free(r);
}
END_TEST

/* The same on a bus: its arbiter grants the oldest request, and among one cycle's the next in
 * the rotation.  Only a contest moves the rotation on (the loser, granted next as the oldest,
 * does not). */
START_TEST(test_bus_ties_rotate)
{
    static const char *const sets[] = { "topology.interconnect=bus", NULL };
    g_autofree char *y = rig_yaml(1, NCORES, "msi");
    CohRig *r = rig_new(y, sets);
    check_rounds(r, (guint)_i);
    rig_free(r);
}
END_TEST

Suite *make_coh_arbiter_suite(void)
{
    Suite *s = suite_create("coh_arbiter");
    TCase *tc = tcase_create("ties");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_home_ties_rotate, 0, 3);
    tcase_add_loop_test(tc, test_bus_ties_rotate, 0, 3);
    suite_add_tcase(s, tc);
    return s;
}
