/* The core's memory-ordering rollback: machine clears on x86 when a spun-on line is stolen,
 * none with rollback: none or on arm64; PAUSE bounds the loads in flight; fences and the SB
 * litmus test. */
#include <check.h>
#include <string.h>
#include "tests/core_rig.h"

/* Thread 0 spins on `flag` (optionally with a pause in the loop); thread 1 sets it after `delay`
 * cycles of work.  Thread 0 leaves the value it saw in r1. */
static IsaProgram *spin_program(gboolean with_pause, int64_t delay)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "flag", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_br(b, COND_NE, R(ISA_REG_TID), I(0), "setter");
    pb_label(b, "spin");
    pb_ld(b, 1, "flag", 0);
    if (with_pause)
        pb_op(b, OP_PAUSE);
    pb_br(b, COND_EQ, R(1), I(0), "spin");
    pb_op(b, OP_HALT);
    pb_label(b, "setter");
    pb_n(b, OP_WORK, delay);
    pb_st(b, "flag", 0, I(1));
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

static const CoreStats *run_spin(Rig **out, const char *cfg, const char *const *sets,
                                 gboolean with_pause)
{
    Rig *r = core_rig_new(cfg, sets, spin_program(with_pause, 300), 2, 1, 40);
    rig_run(r);
    ck_assert_uint_eq(rig_reg(r, 0, 1), 1);
    *out = r;
    return rig_stats(r, 0);
}

START_TEST(test_spin_store_causes_machine_clear)
{
    const char *cfgs[] = { "teaching", "haswell" };
    Rig *r;
    const CoreStats *s = run_spin(&r, cfgs[_i], NULL, FALSE);
    ck_assert_uint_ge(s->machine_clears, 1);
    ck_assert_uint_gt(s->mc_squashed_ops, 0);
    ck_assert_uint_eq(s->mc_penalty_cycles, s->machine_clears * (guint64)r->cfg->core.machine_clear_penalty);
    ck_assert_uint_eq(rig_stats(r, 1)->machine_clears, 0);
    core_rig_free(r);
}
END_TEST

START_TEST(test_no_clear_without_rollback)
{
    const char *cfgs[] = { "teaching", "haswell" };
    const char *sets[] = { "core.rollback=none", NULL };
    Rig *r;
    const CoreStats *s = run_spin(&r, cfgs[_i], sets, FALSE);
    ck_assert_uint_eq(s->machine_clears, 0);
    ck_assert_uint_eq(s->mc_squashed_ops, 0);
    core_rig_free(r);
}
END_TEST

START_TEST(test_no_clear_on_arm64)
{
    const char *sets[] = { "arch=arm64", NULL };
    Rig *r;
    const CoreStats *s = run_spin(&r, _i ? "n1" : "teaching", _i ? NULL : sets, FALSE);
    ck_assert_uint_eq(s->machine_clears, 0);
    ck_assert_uint_ge(s->lines_lost, 1);
    core_rig_free(r);
}
END_TEST

/* Precise rollback clears only when an older load was still outstanding: never more often. */
START_TEST(test_precise_clears_no_more_than_conservative)
{
    const char *sets[] = { "core.rollback=precise", NULL };
    Rig *rc, *rp;
    const CoreStats *c = run_spin(&rc, "haswell", NULL, FALSE);
    const CoreStats *p = run_spin(&rp, "haswell", sets, FALSE);
    ck_assert_uint_le(p->machine_clears, c->machine_clears);
    core_rig_free(rc);
    core_rig_free(rp);
}
END_TEST

/* Longer PAUSE: fewer loads in flight when the store lands, so fewer ops squashed.  Summed
 * over a range of store times so that the phase of the loop at the store does not decide. */
static void spin_sum(const char *cfg, const char *pause, CoreStats *sum)
{
    const char *sets[] = { pause, NULL };
    memset(sum, 0, sizeof *sum);
    for (int64_t d = 300; d < 340; d++) {
        Rig *r = core_rig_new(cfg, sets, spin_program(TRUE, d), 2, 1, 40);
        rig_run(r);
        ck_assert_uint_eq(rig_reg(r, 0, 1), 1);
        core_stats_add(sum, rig_stats(r, 0));
        core_rig_free(r);
    }
}

START_TEST(test_pause_bounds_squash)
{
    const char *cfgs[] = { "teaching", "haswell" };
    CoreStats s, l;
    spin_sum(cfgs[_i], "core.pause_cycles=0", &s);
    spin_sum(cfgs[_i], "core.pause_cycles=60", &l);
    ck_assert_uint_gt(s.pause_ops, 0);
    ck_assert_uint_eq(l.paused_cycles, l.pause_ops * 60);
    ck_assert_uint_lt(l.mc_squashed_ops, s.mc_squashed_ops);
    ck_assert_uint_lt(l.pause_ops, s.pause_ops);
}
END_TEST

/* Store buffering: each thread stores to its own flag, then loads the other's.  Without a fence
 * both loads may see 0 (TSO's store buffer); with mfence never. */
static IsaProgram *sb_program(gboolean fence)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 0);
    pb_shared(b, "y", 8, TRUE, 0);
    pb_entry(b, "main");
    /* Both lines shared in both L1s first, as in a warm litmus loop: the loads then hit while
     * the stores wait for ownership in the store buffer. */
    pb_ld(b, 2, "x", 0);
    pb_ld(b, 3, "y", 0);
    pb_fence(b, FENCE_LOAD);
    pb_br(b, COND_NE, R(ISA_REG_TID), I(0), "t1");
    pb_st(b, "x", 0, I(1));
    if (fence)
        pb_fence(b, FENCE_FULL);
    pb_ld(b, 1, "y", 0);
    pb_op(b, OP_HALT);
    pb_label(b, "t1");
    pb_st(b, "y", 0, I(1));
    if (fence)
        pb_fence(b, FENCE_FULL);
    pb_ld(b, 1, "x", 0);
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

static guint count_relaxed(const char *cfg, const char *const *sets, gboolean fence, guint runs)
{
    guint relaxed = 0;
    for (guint seed = 1; seed <= runs; seed++) {
        Rig *r = core_rig_new(cfg, sets, sb_program(fence), 2, seed, 40);
        machine_randomize_start(r->m, 60);
        rig_run(r);
        if (rig_reg(r, 0, 1) == 0 && rig_reg(r, 1, 1) == 0)
            relaxed++;
        ck_assert_uint_eq(rig_stats(r, 0)->fence_ops, fence ? 2 : 1);
        core_rig_free(r);
    }
    return relaxed;
}

START_TEST(test_sb_litmus)
{
    const char *cfgs[] = { "teaching", "haswell" };
    guint runs = rig_scale(60, 15);
    ck_assert_uint_gt(count_relaxed(cfgs[_i], NULL, FALSE, runs), 0);
    ck_assert_uint_eq(count_relaxed(cfgs[_i], NULL, TRUE, runs), 0);
}
END_TEST

START_TEST(test_sb_litmus_arm64_dmb)
{
    const char *sets[] = { "arch=arm64", NULL };
    guint runs = rig_scale(60, 15);
    ck_assert_uint_gt(count_relaxed("teaching", sets, FALSE, runs), 0);
    ck_assert_uint_eq(count_relaxed("teaching", sets, TRUE, runs), 0);
}
END_TEST

/* Message passing: the writer stores data then (release) flag; the reader loads flag then data,
 * with data already in its L1 (a hit) and the flag load's address late, so the data load runs
 * first.
 * x86: the data load is watched and the writer's store clears it, so flag=1 data=0 never shows.
 * arm64: plain loads may show it; ld.acq on flag forbids it. */
static IsaProgram *mp_program(gboolean acquire)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "data", 8, TRUE, 0);
    pb_shared(b, "flag", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_br(b, COND_NE, R(ISA_REG_TID), I(0), "writer");
    pb_ld(b, 9, "data", 0);
    pb_fence(b, FENCE_LOAD);
    /* The flag load's address waits on a slow chain (r3 = 0 after thirty multiplies), so the
     * younger data load gets ahead of it. */
    pb_alu(b, OP_MOV, 3, I(0), I(0));
    for (int i = 0; i < 30; i++)
        pb_alu(b, OP_MUL, 3, R(3), R(3));
    IsaInsn *f = pb_ld(b, 1, "flag", 0);
    f->order = acquire ? ORD_ACQ : ORD_PLAIN;
    f->mem.base = 3;
    pb_ld(b, 2, "data", 0);
    pb_op(b, OP_HALT);
    pb_label(b, "writer");
    pb_st(b, "data", 0, I(1));
    pb_st(b, "flag", 0, I(1))->order = ORD_REL;
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

static guint count_mp_relaxed(const char *cfg, const char *const *sets, gboolean acquire,
                              guint runs, guint64 *clears)
{
    guint relaxed = 0;
    *clears = 0;
    for (guint seed = 1; seed <= runs; seed++) {
        Rig *r = core_rig_new(cfg, sets, mp_program(acquire), 2, seed, 40);
        machine_randomize_start(r->m, 80);
        rig_run(r);
        if (rig_reg(r, 0, 1) == 1 && rig_reg(r, 0, 2) == 0)
            relaxed++;
        *clears += rig_stats(r, 0)->machine_clears;
        core_rig_free(r);
    }
    return relaxed;
}

START_TEST(test_mp_litmus)
{
    const char *arm[] = { "arch=arm64", NULL };
    guint runs = rig_scale(80, 20);
    guint64 clears;
    ck_assert_uint_eq(count_mp_relaxed("teaching", NULL, FALSE, runs, &clears), 0);
    ck_assert_uint_gt(clears, 0);
    ck_assert_uint_eq(count_mp_relaxed("haswell", NULL, FALSE, runs, &clears), 0);
    ck_assert_uint_gt(count_mp_relaxed("teaching", arm, FALSE, runs, &clears), 0);
    ck_assert_uint_eq(clears, 0);
    ck_assert_uint_eq(count_mp_relaxed("teaching", arm, TRUE, runs, &clears), 0);
    /* What-if: x86 without the rollback is no longer TSO. */
    const char *none[] = { "core.rollback=none", NULL };
    ck_assert_uint_gt(count_mp_relaxed("teaching", none, FALSE, runs, &clears), 0);
}
END_TEST

/* Read-read coherence: two loads of x, the older one's address late so the younger reads
 * first.  r1 = 1, r2 = 0 is forbidden everywhere: x86 repairs it with a machine clear, arm64 by
 * re-executing the younger load when the older one reads a newer value. */
static IsaProgram *corr_program(void)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_br(b, COND_NE, R(ISA_REG_TID), I(0), "writer");
    pb_ld(b, 9, "x", 0);
    pb_fence(b, FENCE_LOAD);
    pb_alu(b, OP_MOV, 3, I(0), I(0));
    for (int i = 0; i < 30; i++)
        pb_alu(b, OP_MUL, 3, R(3), R(3));
    pb_ld(b, 1, "x", 0)->mem.base = 3;
    pb_ld(b, 2, "x", 0);
    pb_op(b, OP_HALT);
    pb_label(b, "writer");
    pb_st(b, "x", 0, I(1));
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

START_TEST(test_corr_same_address_order)
{
    const char *arm[] = { "arch=arm64", NULL };
    guint runs = rig_scale(80, 20);
    guint64 squashes = 0, new_then_old = 0;
    for (guint seed = 1; seed <= runs; seed++) {
        Rig *r = core_rig_new("teaching", _i ? arm : NULL, corr_program(), 2, seed, 40);
        machine_randomize_start(r->m, 80);
        rig_run(r);
        if (rig_reg(r, 0, 1) == 1 && rig_reg(r, 0, 2) == 0)
            new_then_old++;
        squashes += rig_stats(r, 0)->same_addr_replays + rig_stats(r, 0)->machine_clears;
        if (_i)
            ck_assert_uint_eq(rig_stats(r, 0)->machine_clears, 0);
        core_rig_free(r);
    }
    ck_assert_uint_eq(new_then_old, 0);
    ck_assert_uint_gt(squashes, 0); /* the race did happen, and was repaired */
}
END_TEST

static void add_rollback_cases(TCase *tc)
{
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_spin_store_causes_machine_clear, 0, 2);
    tcase_add_loop_test(tc, test_no_clear_without_rollback, 0, 2);
    tcase_add_loop_test(tc, test_no_clear_on_arm64, 0, 2);
    tcase_add_test(tc, test_precise_clears_no_more_than_conservative);
    tcase_add_loop_test(tc, test_pause_bounds_squash, 0, 2);
}

static void add_litmus_cases(TCase *tc)
{
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_sb_litmus, 0, 2);
    tcase_add_test(tc, test_sb_litmus_arm64_dmb);
    tcase_add_test(tc, test_mp_litmus);
    tcase_add_loop_test(tc, test_corr_same_address_order, 0, 2);
}

Suite *make_core_order_suite(void)
{
    Suite *s = suite_create("core_order");
    rig_add_cases(s, "rollback", add_rollback_cases);
    rig_add_fake_cases(s, "litmus", add_litmus_cases);
    return s;
}
