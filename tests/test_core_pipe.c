/* The core's pipeline: full buffers stall dispatch by cause, a mispredicted branch costs its
 * penalty, runs are deterministic, and control flow that cannot go on faults. */
#include <check.h>
#include <string.h>
#include "cores/isa/interp.h"
#include "tests/core_rig.h"

static const char *const cfgs[] = { "teaching", "haswell" };

/* A load that misses for a long time at the head, then `n` independent nops: the ROB fills. */
START_TEST(test_rob_full_stalls_dispatch)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_ld(b, 1, "x", 0);
    for (int i = 0; i < 400; i++)
        pb_op(b, OP_NOP);
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new(cfgs[_i], NULL, pb_finish(b), 1, 1, 500);
    rig_run(r);
    const CoreStats *s = rig_stats(r, 0);
    ck_assert_uint_gt(s->stall_rob_full, 300);
    ck_assert_uint_eq(s->stall_lb_full, 0);
    ck_assert_uint_eq(s->stall_sb_full, 0);
    ck_assert_uint_eq(s->insns_retired, 402);
    core_rig_free(r);
}
END_TEST

/* More missing loads (each to its own line) than load-buffer entries. */
START_TEST(test_lb_full_stalls_dispatch)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "a", 64 * 100, TRUE, 0);
    pb_entry(b, "main");
    for (int i = 0; i < 100; i++)
        pb_ld(b, 1 + i % 8, "a", 64 * i);
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new(cfgs[_i], NULL, pb_finish(b), 1, 1, 500);
    rig_run(r);
    const CoreStats *s = rig_stats(r, 0);
    ck_assert_uint_gt(s->stall_lb_full, 100);
    ck_assert_uint_eq(s->stall_sb_full, 0);
    ck_assert_uint_eq(s->loads_retired, 100);
    core_rig_free(r);
}
END_TEST

/* More stores (each to its own line, draining one at a time) than store-buffer entries. */
START_TEST(test_sb_full_stalls_dispatch)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "a", 64 * 100, TRUE, 0);
    pb_entry(b, "main");
    for (int i = 0; i < 100; i++)
        pb_st(b, "a", 64 * i, I(i + 1));
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new(cfgs[_i], NULL, pb_finish(b), 1, 1, 100);
    rig_run(r);
    const CoreStats *s = rig_stats(r, 0);
    ck_assert_uint_gt(s->stall_sb_full, 1000);
    ck_assert_uint_eq(s->stall_lb_full, 0);
    ck_assert_uint_eq(s->stores_drained, 100);
    ck_assert_uint_eq(rig_sym(r, "a", 0, 8), 1);
    core_rig_free(r);
}
END_TEST

/* A counted loop: the 2-bit counter starts weakly not-taken, so the first and the last branch
 * mispredict.  Raising the penalty by d adds exactly 2 d cycles. */
static IsaProgram *loop_program(void)
{
    ProgBuilder *b = pb_new();
    pb_entry(b, "main");
    pb_alu(b, OP_MOV, 1, I(0), I(0));
    pb_label(b, "loop");
    pb_alu(b, OP_ADD, 1, R(1), I(1));
    pb_br(b, COND_LT, R(1), I(20), "loop");
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

START_TEST(test_mispredict_costs_penalty)
{
    const char *p10[] = { "core.branch_mispredict_penalty=10", NULL };
    const char *p30[] = { "core.branch_mispredict_penalty=30", NULL };
    Rig *a = core_rig_new(cfgs[_i], p10, loop_program(), 1, 1, 40);
    Rig *b = core_rig_new(cfgs[_i], p30, loop_program(), 1, 1, 40);
    rig_run(a);
    rig_run(b);
    ck_assert_uint_eq(rig_reg(a, 0, 1), 20);
    ck_assert_uint_eq(rig_stats(a, 0)->branch_mispredicts, 2);
    ck_assert_uint_eq(rig_stats(a, 0)->bm_penalty_cycles, 20);
    ck_assert_uint_gt(rig_stats(a, 0)->bm_squashed_ops, 0);
    ck_assert_uint_eq(rig_stats(b, 0)->cycles, rig_stats(a, 0)->cycles + 40);
    core_rig_free(a);
    core_rig_free(b);
}
END_TEST

/* call/ret through the core's return-address stack, nested. */
START_TEST(test_call_ret)
{
    ProgBuilder *b = pb_new();
    pb_entry(b, "main");
    pb_jmp(b, OP_CALL, "f");
    pb_jmp(b, OP_CALL, "f");
    pb_op(b, OP_HALT);
    pb_label(b, "f");
    pb_alu(b, OP_ADD, 1, R(1), I(1));
    pb_jmp(b, OP_CALL, "g");
    pb_op(b, OP_RET);
    pb_label(b, "g");
    pb_alu(b, OP_ADD, 2, R(2), I(10));
    pb_op(b, OP_RET);
    Rig *r = core_rig_new(cfgs[_i], NULL, pb_finish(b), 1, 1, 40);
    rig_run(r);
    ck_assert_uint_eq(rig_reg(r, 0, 1), 2);
    ck_assert_uint_eq(rig_reg(r, 0, 2), 20);
    core_rig_free(r);
}
END_TEST

/* The spin-and-set program twice with the same seed: identical counters everywhere. */
static IsaProgram *contended_program(void)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_alu(b, OP_MOV, 2, I(0), I(0));
    pb_label(b, "loop");
    pb_ld(b, 1, "x", 0);
    pb_op(b, OP_PAUSE);
    pb_atomic(b, OP_FADD, 3, "x", I(1), I(0));
    pb_alu(b, OP_ADD, 2, R(2), I(1));
    pb_br(b, COND_LT, R(2), I(50), "loop");
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

START_TEST(test_deterministic)
{
    guint n = _i ? 3 : 2;
    CoreStats s[2][3];
    Cycle end[2];
    for (int k = 0; k < 2; k++) {
        Rig *r = core_rig_new(cfgs[_i], NULL, contended_program(), n, 42, 40);
        machine_randomize_start(r->m, 30);
        rig_run(r);
        for (guint c = 0; c < n; c++)
            s[k][c] = *rig_stats(r, c);
        end[k] = machine_cycles(r->m);
        ck_assert_uint_eq(rig_sym(r, "x", 0, 8), 50 * n);
        ck_assert_uint_eq(s[k][0].atomics, 50);
        ck_assert_uint_gt(s[k][0].lines_lost, 0);
        core_rig_free(r);
    }
    ck_assert_uint_eq(end[0], end[1]);
    for (guint c = 0; c < n; c++)
        ck_assert(core_stats_equal(&s[0][c], &s[1][c]));
}
END_TEST

/* A thread that spins forever retires all the time: the cycle limit ends it.  One that waits
 * forever (wfe, no timeout, nobody signals) trips the watchdog, which says why. */
START_TEST(test_watchdog_reports_stall)
{
    const char *sets[] = { "arch=arm64", "run.stall_cycles=1000", NULL };
    ProgBuilder *b = pb_new();
    pb_shared(b, "flag", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_label(b, "spin");
    pb_ld(b, 1, "flag", 0);
    pb_br(b, COND_EQ, R(1), I(0), "spin");
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new("teaching", sets, pb_finish(b), 1, 1, 40);
    ck_assert_int_eq(machine_run(r->m, 20000), MACHINE_LIMIT);
    core_rig_free(r);
    b = pb_new();
    pb_entry(b, "main");
    pb_op(b, OP_WFE);
    pb_op(b, OP_HALT);
    r = core_rig_new("teaching", sets, pb_finish(b), 1, 1, 40);
    ck_assert_int_eq(machine_run(r->m, CYCLE_NEVER), MACHINE_STALLED);
    ck_assert(strstr(machine_stall_report(r->m), "asleep in wfe"));
    core_rig_free(r);
}
END_TEST

/* Control flow that cannot go on faults as the op comes to retire, in the interpreter's words:
 * a `ret` with nothing to return to, and running off the end of the program (both stopped
 * fetch silently and were reported as a stall).  On a mispredicted path neither is a fault. */
static IsaProgram *control_program(int which)
{
    ProgBuilder *b = pb_new();
    pb_entry(b, "main");
    switch (which) {
    case 0: /* an empty return stack */
        pb_op(b, OP_RET);
        break;
    case 1: /* no halt: the thread runs off the end */
        pb_op(b, OP_NOP);
        break;
    default: /* the branch goes to `done`, predicted not taken the first time: behind it on
              * the wrong path, the ret (2) or the last op, the nop (3) */
        pb_jmp(b, OP_JMP, "start");
        pb_label(b, "done");
        pb_op(b, OP_HALT);
        pb_label(b, "start");
        pb_alu(b, OP_MOV, 1, I(1), I(0));
        pb_br(b, COND_EQ, R(1), I(1), "done");
        pb_op(b, which == 2 ? OP_RET : OP_NOP);
        break;
    }
    return pb_finish(b);
}

START_TEST(test_control_faults)
{
    static const char *const words[] = { "`ret`: ret with an empty call stack",
                                         "faulted at pc 1: pc 1 is outside the program" };
    for (int which = 0; which < 4; which++) {
        Rig *r = core_rig_new(cfgs[_i], NULL, control_program(which), 1, 1, 40);
        if (which >= 2) {
            rig_run(r); /* it finishes */
        } else {
            ck_assert_int_eq(machine_run(r->m, CYCLE_NEVER), MACHINE_FAULT);
            ck_assert_msg(strstr(machine_stall_report(r->m), words[which]), "%s", machine_stall_report(r->m));
            /* the interpreter's words */
            InterpOptions io = { .threads = 1, .seed = 1 };
            g_autoptr(Interp) in = interp_new(r->p, &io, NULL);
            ck_assert_int_eq(interp_run(in), INTERP_FAULT);
            ck_assert_msg(strstr(machine_stall_report(r->m), interp_thread(in, 0)->fault), "%s",
                          interp_thread(in, 0)->fault);
        }
        core_rig_free(r);
    }
}
END_TEST

static void add_pipeline_cases(TCase *tc)
{
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_rob_full_stalls_dispatch, 0, 2);
    tcase_add_loop_test(tc, test_lb_full_stalls_dispatch, 0, 2);
    tcase_add_loop_test(tc, test_sb_full_stalls_dispatch, 0, 2);
    tcase_add_loop_test(tc, test_mispredict_costs_penalty, 0, 2);
    tcase_add_loop_test(tc, test_call_ret, 0, 2);
    tcase_add_loop_test(tc, test_deterministic, 0, 2);
    tcase_add_test(tc, test_watchdog_reports_stall);
    tcase_add_loop_test(tc, test_control_faults, 0, 2);
}

Suite *make_core_pipe_suite(void)
{
    Suite *s = suite_create("core_pipe");
    rig_add_fake_cases(s, "pipeline", add_pipeline_cases);
    return s;
}
