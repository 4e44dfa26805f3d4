/* The core's own timing against what published measurements say a core does: a LOCK'd RMW
 * costs its measured latency even on a hot line, `work` is a serial hold time that a later
 * iteration cannot overlap, and an in-order core issues in program order with loads blocking. */
#include <check.h>
#include "tests/core_rig.h"

/* `iters` back-to-back `cas` on one line (a hot lock word). */
static IsaProgram *cas_loop(guint iters)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "w", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_alu(b, OP_MOV, 1, I(iters), I(0));
    pb_label(b, "loop");
    pb_atomic(b, OP_CAS, 2, "w", I(0), I(1));
    pb_alu(b, OP_SUB, 1, R(1), I(1));
    pb_br(b, COND_NE, R(1), I(0), "loop");
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

/* Agner Fog measures LOCK CMPXCHG at about 19 cycles on Haswell with the line hot; the seed
 * thread says 24.  A core that charges only the L1 hit ran this loop at 5 cycles an iteration. */
START_TEST(test_locked_rmw_costs_its_latency_when_hot)
{
    Rig *r = core_rig_new("haswell", NULL, cas_loop(400), 1, 1, 100);
    rig_run(r);
    guint64 cycles = rig_stats(r, 0)->cycles;
    double per = (double)cycles / 400;
    ck_assert_msg(per >= 19 && per < 19 + 4, "%.1f cycles per hot lock cmpxchg, want 19 to 23", per);
    ck_assert_uint_eq(rig_stats(r, 0)->atomics, 400);
    core_rig_free(r);
}
END_TEST

/* The core's latency and the line's hold are separate effects: setting the hold to zero leaves
 * the hot loop's cost alone, raising the latency raises it by as much. */
START_TEST(test_locked_rmw_latency_and_hold_are_separate)
{
    const char *no_hold[] = { "core.lock_hold_cycles=0", NULL };
    const char *slower[] = { "core.locked_rmw_cycles=29", NULL };
    Rig *a = core_rig_new("haswell", NULL, cas_loop(200), 1, 1, 100);
    Rig *b = core_rig_new("haswell", no_hold, cas_loop(200), 1, 1, 100);
    Rig *c = core_rig_new("haswell", slower, cas_loop(200), 1, 1, 100);
    rig_run(a);
    rig_run(b);
    rig_run(c);
    ck_assert_uint_eq(rig_stats(a, 0)->cycles, rig_stats(b, 0)->cycles);
    ck_assert_uint_eq(rig_stats(c, 0)->cycles, rig_stats(a, 0)->cycles + 200 * 10);
    core_rig_free(a);
    core_rig_free(b);
    core_rig_free(c);
}
END_TEST

/* `iters` iterations of `work n` with a lock-free loop around it. */
static IsaProgram *work_loop(guint iters, guint n)
{
    ProgBuilder *b = pb_new();
    pb_entry(b, "main");
    pb_alu(b, OP_MOV, 1, I(iters), I(0));
    pb_label(b, "loop");
    pb_n(b, OP_WORK, n);
    pb_alu(b, OP_SUB, 1, R(1), I(1));
    pb_br(b, COND_NE, R(1), I(0), "loop");
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

/* The issue's reproducer: 20 x `work 20000` finished in about 60,000 cycles when each `work`
 * was one independent op; a serial hold takes at least 400,000. */
START_TEST(test_work_is_serial_across_iterations)
{
    Rig *r = core_rig_new(_i ? "n1" : "haswell", NULL, work_loop(20, 20000), 1, 1, 100);
    rig_run(r);
    ck_assert_uint_ge(rig_stats(r, 0)->cycles, 20 * 20000);
    ck_assert_uint_lt(rig_stats(r, 0)->cycles, 20 * 20000 + 20 * 50);
    core_rig_free(r);
}
END_TEST

/* A chain that starts after the ops before it: a load that misses for 500 cycles, then
 * `work 100` (shorter than the window): at least 600 cycles in all. */
START_TEST(test_work_starts_after_older_ops)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_ld(b, 1, "x", 0);
    pb_n(b, OP_WORK, 100);
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new("haswell", NULL, pb_finish(b), 1, 1, 500);
    rig_run(r);
    ck_assert_uint_ge(rig_stats(r, 0)->cycles, 600);
    core_rig_free(r);
}
END_TEST

/* A short chain (within the window) lets younger independent ops run beside it: `work 100`
 * then a load that misses for 500 cycles take about 500 cycles, not 600. */
START_TEST(test_short_work_overlaps_younger_ops)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_n(b, OP_WORK, 100);
    pb_ld(b, 1, "x", 0);
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new("haswell", NULL, pb_finish(b), 1, 1, 500);
    rig_run(r);
    ck_assert_uint_lt(rig_stats(r, 0)->cycles, 550);
    core_rig_free(r);
}
END_TEST

/* Two loads to different lines, each missing for 500 cycles: an out-of-order core overlaps
 * them, an in-order one (loads block) does not. */
static IsaProgram *two_misses(void)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "a", 8, TRUE, 0);
    pb_shared(b, "b", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_ld(b, 1, "a", 0);
    pb_ld(b, 2, "b", 0);
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

START_TEST(test_in_order_loads_block)
{
    const char *in_order[] = { "core.issue=in-order", NULL };
    Rig *ooo = core_rig_new("n1", NULL, two_misses(), 1, 1, 500);
    Rig *ino = core_rig_new("n1", in_order, two_misses(), 1, 1, 500);
    rig_run(ooo);
    rig_run(ino);
    ck_assert_uint_lt(rig_stats(ooo, 0)->cycles, 600);
    ck_assert_uint_ge(rig_stats(ino, 0)->cycles, 1000);
    core_rig_free(ooo);
    core_rig_free(ino);
}
END_TEST

/* Independent one-cycle ops pair up `fetch_width` per cycle; a dependent chain goes one per
 * cycle; a multi-cycle op holds back everything younger. */
START_TEST(test_in_order_issue_width_and_order)
{
    const char *sets[] = { "core.issue=in-order", "core.fetch_width=2", "core.retire_width=2", NULL };
    ProgBuilder *b = pb_new();
    pb_entry(b, "main");
    for (int i = 0; i < 200; i++)
        pb_alu(b, OP_MOV, 1 + i % 8, I(i), I(0));
    pb_op(b, OP_HALT);
    Rig *ind = core_rig_new("n1", sets, pb_finish(b), 1, 1, 100);
    rig_run(ind);
    guint64 t_ind = rig_stats(ind, 0)->cycles;
    ck_assert_msg(t_ind >= 100 && t_ind < 100 + 20, "200 independent movs in %" G_GUINT64_FORMAT " cycles", t_ind);

    b = pb_new();
    pb_entry(b, "main");
    for (int i = 0; i < 200; i++)
        pb_alu(b, OP_ADD, 1, R(1), I(1));
    pb_op(b, OP_HALT);
    Rig *dep = core_rig_new("n1", sets, pb_finish(b), 1, 1, 100);
    rig_run(dep);
    guint64 t_dep = rig_stats(dep, 0)->cycles;
    ck_assert_msg(t_dep >= 200 && t_dep < 200 + 20, "200 dependent adds in %" G_GUINT64_FORMAT " cycles", t_dep);
    ck_assert_uint_eq(rig_reg(dep, 0, 1), 200);

    b = pb_new();
    pb_entry(b, "main");
    for (int i = 0; i < 50; i++) {
        pb_alu(b, OP_MUL, 2, I(3), I(5)); /* 3 cycles, independent of everything */
        pb_alu(b, OP_MOV, 3, I(i), I(0));
    }
    pb_op(b, OP_HALT);
    Rig *mul = core_rig_new("n1", sets, pb_finish(b), 1, 1, 100);
    rig_run(mul);
    /* each mul pairs with the mov before it at best, and nothing passes an unfinished mul */
    ck_assert_uint_ge(rig_stats(mul, 0)->cycles, 50 * 3);
    core_rig_free(ind);
    core_rig_free(dep);
    core_rig_free(mul);
}
END_TEST

static void add_timing_cases(TCase *tc)
{
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_locked_rmw_costs_its_latency_when_hot);
    tcase_add_test(tc, test_locked_rmw_latency_and_hold_are_separate);
    tcase_add_loop_test(tc, test_work_is_serial_across_iterations, 0, 2);
    tcase_add_test(tc, test_work_starts_after_older_ops);
    tcase_add_test(tc, test_short_work_overlaps_younger_ops);
    tcase_add_test(tc, test_in_order_loads_block);
    tcase_add_test(tc, test_in_order_issue_width_and_order);
}

Suite *make_core_timing_suite(void)
{
    Suite *s = suite_create("core_timing");
    rig_add_fake_cases(s, "timing", add_timing_cases);
    return s;
}
