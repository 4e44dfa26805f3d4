/* The core's memory side: store-to-load forwarding, atomics taking the line, the exclusive
 * monitor (stx failure, WFE wake-up). */
#include <check.h>
#include "tests/core_rig.h"
#include "cores/isa/isa_exec.h"

static const char *const cfgs[] = { "teaching", "haswell" };

START_TEST(test_load_forwards_from_store_buffer)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_st(b, "x", 0, I(42));
    pb_ld(b, 1, "x", 0);
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new(cfgs[_i], NULL, pb_finish(b), 1, 1, 40);
    rig_run(r);
    ck_assert_uint_eq(rig_reg(r, 0, 1), 42);
    ck_assert_uint_eq(rig_stats(r, 0)->loads_forwarded, 1);
    ck_assert_uint_eq(rig_stats(r, 0)->loads_issued, 0);
    ck_assert_uint_eq(rig_sym(r, "x", 0, 8), 42);
    core_rig_free(r);
}
END_TEST

/* A load only partly covered by a buffered store waits for the store to drain, then reads the
 * L1; a load of bytes inside the store forwards them. */
START_TEST(test_partial_overlap_waits_for_drain)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 0x1111111111111111);
    pb_entry(b, "main");
    pb_st(b, "x", 2, I(0xABCD))->size = 2;
    pb_ld(b, 1, "x", 0);                    /* 8 bytes over a 2-byte store: wait */
    pb_ld(b, 2, "x", 3)->size = 1;          /* inside the store: forward 0xAB */
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new(cfgs[_i], NULL, pb_finish(b), 1, 1, 40);
    rig_run(r);
    ck_assert_uint_eq(rig_reg(r, 0, 1), 0x11111111ABCD1111ULL);
    ck_assert_uint_eq(rig_reg(r, 0, 2), 0xAB);
    ck_assert_uint_eq(rig_stats(r, 0)->loads_forwarded, 1);
    ck_assert_uint_eq(rig_stats(r, 0)->loads_issued, 1);
    core_rig_free(r);
}
END_TEST

/* Thread 1 reads x (a shared copy); later thread 0's failing cas takes the line in M anyway. */
START_TEST(test_failing_cas_invalidates_sharer)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 3);
    pb_entry(b, "main");
    pb_br(b, COND_NE, R(ISA_REG_TID), I(0), "reader");
    pb_n(b, OP_WORK, 200);
    pb_atomic(b, OP_CAS, 1, "x", I(5), I(7));
    pb_op(b, OP_HALT);
    pb_label(b, "reader");
    pb_ld(b, 1, "x", 0);
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new(cfgs[_i], NULL, pb_finish(b), 2, 1, 40);
    rig_run(r);
    ck_assert_uint_eq(rig_reg(r, 0, 1), 3);       /* the old value */
    ck_assert_uint_eq(rig_sym(r, "x", 0, 8), 3);  /* unchanged */
    ck_assert_uint_eq(rig_stats(r, 0)->atomics, 1);
    ck_assert_uint_eq(rig_stats(r, 0)->cas_failed, 1);
    ck_assert_uint_eq(rig_stats(r, 1)->lines_lost, 1);
    uint64_t x = isa_sym_addr(r->lay, 0, 0);
    ck_assert(rig_owns(r, 0, x));
    ck_assert(!rig_holds(r, 1, x));
    /* The locked op waited for the line (and for the drain) at the ROB head. */
    ck_assert_uint_ge(rig_stats(r, 0)->atomic_cycles, 40);
    core_rig_free(r);
}
END_TEST

/* arm64: ldx; (long work); stx.  A remote store in between clears the monitor: stx fails. */
static IsaProgram *llsc_program(gboolean remote_store)
{
    ProgBuilder *b = pb_new();
    pb_shared(b, "x", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_br(b, COND_NE, R(ISA_REG_TID), I(0), "other");
    pb_ldx(b, 1, "x");
    pb_n(b, OP_WORK, 300);
    pb_stx(b, 2, "x", I(5));
    pb_op(b, OP_HALT);
    pb_label(b, "other");
    pb_n(b, OP_WORK, 60);
    if (remote_store)
        pb_st(b, "x", 0, I(9));
    pb_op(b, OP_HALT);
    return pb_finish(b);
}

START_TEST(test_stx_fails_after_remote_store)
{
    const char *sets[] = { "arch=arm64", NULL };
    const char *cfg = _i ? "n1" : "teaching";
    const char *const *s = _i ? NULL : sets;
    Rig *r = core_rig_new(cfg, s, llsc_program(TRUE), 2, 1, 40);
    rig_run(r);
    ck_assert_uint_eq(rig_reg(r, 0, 2), 1);
    ck_assert_uint_eq(rig_stats(r, 0)->llsc_failures, 1);
    ck_assert_uint_eq(rig_sym(r, "x", 0, 8), 9);
    core_rig_free(r);
    r = core_rig_new(cfg, s, llsc_program(FALSE), 2, 1, 40);
    rig_run(r);
    ck_assert_uint_eq(rig_reg(r, 0, 2), 0);
    ck_assert_uint_eq(rig_stats(r, 0)->llsc_failures, 0);
    ck_assert_uint_eq(rig_sym(r, "x", 0, 8), 5);
    core_rig_free(r);
}
END_TEST

/* arm64 smp_cond_load: ldx flag; cbnz; wfe; loop.  The remote store clears the monitor, which
 * wakes the sleeper; while asleep the core runs no events. */
START_TEST(test_wfe_wakes_on_invalidation)
{
    const char *sets[] = { "arch=arm64", NULL };
    ProgBuilder *b = pb_new();
    pb_shared(b, "flag", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_br(b, COND_NE, R(ISA_REG_TID), I(0), "setter");
    pb_label(b, "wait");
    pb_ldx(b, 1, "flag");
    pb_br(b, COND_NE, R(1), I(0), "out");
    pb_op(b, OP_WFE);
    pb_jmp(b, OP_JMP, "wait");
    pb_label(b, "out");
    pb_op(b, OP_HALT);
    pb_label(b, "setter");
    pb_n(b, OP_WORK, 2000);
    pb_st(b, "flag", 0, I(1));
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new(_i ? "n1" : "teaching", _i ? NULL : sets, pb_finish(b), 2, 1, 40);
    rig_run(r);
    const CoreStats *s = rig_stats(r, 0);
    ck_assert_uint_eq(rig_reg(r, 0, 1), 1);
    ck_assert_uint_eq(s->wfe_sleeps, 1);
    ck_assert_uint_eq(s->wfe_wake_monitor, 1);
    ck_assert_uint_eq(s->wfe_wake_timeout, 0);
    /* It slept until the store after `work 2000`, less its own first miss (longer on the real
     * memory system than on the fake one). */
    ck_assert_uint_ge(s->wfe_sleep_cycles, 1500);
    /* Asleep means no events: the whole run took far fewer events than cycles. */
    ck_assert_uint_lt(engine_events_run(r->e), 500);
    core_rig_free(r);
}
END_TEST

/* wfe_timeout wakes a sleeper nobody signals; sevl makes the next wfe fall through. */
START_TEST(test_wfe_timeout_and_sevl)
{
    const char *sets[] = { "arch=arm64", "core.wfe_timeout=100", NULL };
    ProgBuilder *b = pb_new();
    pb_shared(b, "flag", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_op(b, OP_SEVL);
    pb_op(b, OP_WFE);          /* consumes the local event */
    pb_op(b, OP_WFE);          /* sleeps until the timeout */
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new("teaching", sets, pb_finish(b), 1, 1, 40);
    rig_run(r);
    const CoreStats *s = rig_stats(r, 0);
    ck_assert_uint_eq(s->wfe_sleeps, 1);
    ck_assert_uint_eq(s->wfe_wake_timeout, 1);
    ck_assert_uint_ge(s->wfe_sleep_cycles, 100);
    ck_assert_uint_lt(s->cycles, 130);
    core_rig_free(r);
}
END_TEST

/* sev from one core wakes another's wfe. */
START_TEST(test_sev_wakes_other_core)
{
    const char *sets[] = { "arch=arm64", NULL };
    ProgBuilder *b = pb_new();
    pb_shared(b, "flag", 8, TRUE, 0);
    pb_entry(b, "main");
    pb_br(b, COND_NE, R(ISA_REG_TID), I(0), "sender");
    pb_op(b, OP_WFE);
    pb_op(b, OP_HALT);
    pb_label(b, "sender");
    pb_n(b, OP_WORK, 500);
    pb_op(b, OP_SEV);
    pb_op(b, OP_HALT);
    Rig *r = core_rig_new("teaching", sets, pb_finish(b), 2, 1, 40);
    rig_run(r);
    ck_assert_uint_eq(rig_stats(r, 0)->wfe_wake_sev, 1);
    ck_assert_uint_ge(rig_stats(r, 0)->wfe_sleep_cycles, 400);
    core_rig_free(r);
}
END_TEST

static void add_memory_cases(TCase *tc)
{
    tcase_add_loop_test(tc, test_load_forwards_from_store_buffer, 0, 2);
    tcase_add_loop_test(tc, test_partial_overlap_waits_for_drain, 0, 2);
    tcase_add_loop_test(tc, test_failing_cas_invalidates_sharer, 0, 2);
}

static void add_exclusive_cases(TCase *tc)
{
    tcase_add_loop_test(tc, test_stx_fails_after_remote_store, 0, 2);
    tcase_add_loop_test(tc, test_wfe_wakes_on_invalidation, 0, 2);
    tcase_add_test(tc, test_wfe_timeout_and_sevl);
    tcase_add_test(tc, test_sev_wakes_other_core);
}

Suite *make_core_mem_suite(void)
{
    Suite *s = suite_create("core_mem");
    rig_add_cases(s, "memory", add_memory_cases);
    rig_add_cases(s, "exclusive", add_exclusive_cases);
    return s;
}
