/* The futex ops and lock parameters in the ISA: the assembler's forms and errors for
 * futex_wait/futex_wake and `.param`, the interpreter's exact futex semantics (compare and
 * sleep in one step, wake in sleep order, the woken count, a lost wake-up as a deadlock), and
 * verify calling a sleeper nobody wakes a lost wake-up. */
#include <check.h>
#include <string.h>
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"
#include "sim/validation/verify.h"
#include "tests/planted_locks.h"

static IsaProgram *assemble_params(const char *src, const char *const *params)
{
    g_autoptr(GError) err = NULL;
    AsmSource s = { "t.qs", src, FALSE };
    IsaProgram *p = asm_assemble_with_params(&s, 1, arch_target(ARCH_X86), params, &err);
    ck_assert_msg(p != NULL, "%s", err ? err->message : "");
    return p;
}

static IsaProgram *assemble(const char *src)
{
    return assemble_params(src, NULL);
}

static char *asm_error(const char *src, const char *const *params)
{
    GError *err = NULL;
    AsmSource s = { "t.qs", src, FALSE };
    IsaProgram *p = asm_assemble_with_params(&s, 1, arch_target(ARCH_X86), params, &err);
    ck_assert_msg(p == NULL, "assembled: %s", src);
    char *msg = g_strdup(err->message);
    g_error_free(err);
    return msg;
}

static Interp *start(const IsaProgram *p, guint threads, guint64 seed)
{
    InterpOptions o = { .threads = threads, .seed = seed, .max_steps = 200000 };
    g_autoptr(GError) err = NULL;
    Interp *in = interp_new(p, &o, &err);
    ck_assert_msg(in != NULL, "%s", err ? err->message : "");
    return in;
}

static uint64_t var(const Interp *in, const char *name, guint t)
{
    uint64_t v = 0;
    ck_assert(interp_read_sym(in, name, t, 8, &v));
    return v;
}

/* ---------------------------------------------------------------- assembler */

START_TEST(test_futex_ops_assemble)
{
    g_autoptr(IsaProgram) p = assemble(".shared w 4\n.entry main\nmain:\n"
                                       "    futex_wait r1, [w], 2\n    futex_wake r2, [w], r3\n    halt\n");
    const IsaInsn *wait = &g_array_index(p->insns, IsaInsn, 0), *wake = &g_array_index(p->insns, IsaInsn, 1);
    ck_assert_int_eq(wait->op, OP_FUTEX_WAIT);
    ck_assert_uint_eq(wait->size, 4); /* a futex is a 32-bit word */
    ck_assert_int_eq(wait->rd, 1);
    ck_assert_int_eq(wait->a.imm, 2);
    ck_assert_int_eq(wake->op, OP_FUTEX_WAKE);
    ck_assert_int_eq(wake->a.reg, 3);
    ck_assert(isa_op_info[OP_FUTEX_WAIT].is_syscall && isa_op_info[OP_FUTEX_WAKE].is_syscall);
    ck_assert(!isa_op_info[OP_CAS].is_syscall);
    g_autofree char *t0 = asm_format_insn(p, wait), *t1 = asm_format_insn(p, wake);
    ck_assert_str_eq(t0, "futex_wait r1, [w], 2");
    ck_assert_str_eq(t1, "futex_wake r2, [w], r3");
}
END_TEST

static const struct {
    const char *title, *input, *expected;
} futex_error_rows[] = {
    { "a futex word is 32 bits", ".shared w 2\n    futex_wait r1, [w], 1\n",
      "t.qs:2:20: 4-byte access at w+0 runs outside `w` (2 bytes)" },
    { "futex ops take no size", ".shared w 4\n    futex_wait32 r1, [w], 1\n",
      "t.qs:2:5: unknown op `futex_wait32`; did you mean `futex_wait`?" },
    { "futex ops take no ordering", ".shared w 4\n    futex_wake.rel r1, [w], 1\n",
      "t.qs:2:15: `futex_wake` takes no suffix" },
    { "the value fits 32 bits", ".shared w 4\n    futex_wait r1, [w], 0x100000000\n",
      "t.qs:2:25: immediate 0x100000000 is out of range for a 32-bit operand" },
    { "three operands", ".shared w 4\n    futex_wake [w], 1\n", "t.qs:2:5: `futex_wake` takes 3 operands, not 2" },
    { ".param needs a default", ".param spin_count\n",
      "t.qs:1:1: .param takes a name and a default value: `.param spin_count 100`" },
    { ".param twice", ".param n 1\n.param n 2\n", "t.qs:2:8: duplicate constant `n`" },
    { ".param beside an .equ", ".equ n 1\n.param n 2\n", "t.qs:2:8: duplicate constant `n`" },
};

START_TEST(test_futex_errors)
{
    g_autofree char *msg = asm_error(futex_error_rows[_i].input, NULL);
    ck_assert_msg(!strcmp(msg, futex_error_rows[_i].expected), "%s: got\n%s\nwant\n%s", futex_error_rows[_i].title,
                  msg, futex_error_rows[_i].expected);
}
END_TEST

#define PARAMS_SRC ".param spin_count 100\n.param bias 10\n.shared w 8\n.entry main\n" \
                   "main:\n    mov r1, spin_count\n    add r1, r1, bias\n    st [w], r1\n    halt\n"

START_TEST(test_param_defaults_and_overrides)
{
    g_autoptr(IsaProgram) d = assemble(PARAMS_SRC);
    ck_assert_uint_eq(d->params->len, 2);
    ck_assert_str_eq(g_array_index(d->params, IsaParam, 0).name, "spin_count");
    ck_assert_int_eq(g_array_index(d->params, IsaParam, 0).value, 100);
    ck_assert_int_eq(g_array_index(d->insns, IsaInsn, 0).a.imm, 100);
    const char *const set[] = { "spin_count=1000", "bias=3", NULL };
    g_autoptr(IsaProgram) o = assemble_params(PARAMS_SRC, set);
    ck_assert_int_eq(g_array_index(o->params, IsaParam, 0).value, 1000);
    ck_assert_int_eq(g_array_index(o->params, IsaParam, 0).def, 100);
    ck_assert_int_eq(g_array_index(o->params, IsaParam, 1).value, 3);
    ck_assert_int_eq(g_array_index(o->insns, IsaInsn, 0).a.imm, 1000);
    ck_assert_int_eq(g_array_index(o->insns, IsaInsn, 1).b.imm, 3);
    /* The listing says what each parameter was. */
    g_autofree char *list = asm_listing(o, arch_target(ARCH_X86), 1);
    ck_assert_msg(strstr(list, "# param spin_count = 1000\n"), "%s", list);
    g_autofree char *dlist = asm_listing(d, arch_target(ARCH_X86), 1);
    ck_assert_msg(strstr(dlist, "# param bias = 10 (default)\n"), "%s", dlist);
}
END_TEST

START_TEST(test_param_override_errors)
{
    const char *const typo[] = { "spin_cont=5", NULL };
    g_autofree char *m1 = asm_error(PARAMS_SRC, typo);
    ck_assert_str_eq(m1, "lock parameter `spin_cont`: t.qs declares no `.param spin_cont`; did you mean "
                         "`spin_count`? (its parameters: spin_count, bias)");
    const char *const bad[] = { "spin_count=lots", NULL };
    g_autofree char *m2 = asm_error(PARAMS_SRC, bad);
    ck_assert_str_eq(m2, "lock parameter `spin_count=lots`: expected NAME=VALUE with a whole number (decimal, 0 "
                         "or more), e.g. spin_count=1000");
    /* -1 ran as 2^64 - 1 where a lock compares a count unsigned (issue 45): no sign. */
    const char *const negative[] = { "bias=-3", NULL };
    g_autofree char *neg = asm_error(PARAMS_SRC, negative);
    ck_assert_str_eq(neg, "lock parameter `bias=-3`: expected NAME=VALUE with a whole number (decimal, 0 "
                         "or more), e.g. spin_count=1000");
    const char *const twice[] = { "bias=1", "bias=2", NULL };
    g_autofree char *m3 = asm_error(PARAMS_SRC, twice);
    ck_assert_str_eq(m3, "lock parameter `bias` given twice");
    const char *const none[] = { "x=1", NULL };
    g_autofree char *m4 = asm_error(".entry main\nmain:\n    halt\n", none);
    ck_assert_str_eq(m4, "lock parameter `x`: t.qs declares no `.param x` (it has no parameters)");
    /* A source error and a parameter: the source's error, with its position. */
    g_autofree char *m5 = asm_error(".param n x\n", none);
    ck_assert_str_eq(m5, "t.qs:1:10: `x` is not a 64-bit number");
}
END_TEST

/* ---------------------------------------------------------------- interpreter */

START_TEST(test_wait_returns_at_once_when_the_word_differs)
{
    g_autoptr(IsaProgram) p = assemble(".shared w 4 init 5\n.shared r 8\n.entry main\nmain:\n"
                                       "    futex_wait r1, [w], 4\n    st [r], r1\n    halt\n");
    g_autoptr(Interp) in = start(p, 1, 1);
    ck_assert_int_eq(interp_run(in), INTERP_FINISHED);
    ck_assert_uint_eq(var(in, "r", 0), 1); /* EAGAIN */
    ck_assert_uint_eq(interp_thread(in, 0)->futex_sleeps, 0);
}
END_TEST

/* Thread 0 sleeps on w == 0 (it can only be woken); the others wake it after setting w, and the
 * woken count goes to `woke`. */
START_TEST(test_wait_sleeps_and_wake_wakes)
{
    g_autoptr(IsaProgram) p = assemble(".shared w 4\n.shared woke 8\n.shared r 8\n.entry main\nmain:\n"
                                       "    bne tid, 0, waker\n"
                                       "again:\n    ld32 r2, [w]\n    bne r2, 0, out\n"
                                       "    futex_wait r1, [w], 0\n    st [r], r1\n    jmp again\n"
                                       "out:\n    halt\n"
                                       "waker:\n    st32 [w], 1\n    futex_wake r1, [w], 5\n    fadd r2, [woke], r1\n    halt\n");
    guint slept = 0;
    for (guint64 seed = 1; seed <= 100; seed++) {
        g_autoptr(Interp) in = start(p, 2, seed);
        ck_assert_int_eq(interp_run(in), INTERP_FINISHED);
        guint64 sleeps = interp_thread(in, 0)->futex_sleeps;
        /* Woken exactly as often as it slept; woken threads return 0 from futex_wait. */
        ck_assert_uint_eq(var(in, "woke", 0), sleeps);
        if (sleeps)
            ck_assert_uint_eq(var(in, "r", 0), 0);
        slept += sleeps > 0;
    }
    ck_assert_msg(slept > 10 && slept < 100, "thread 0 slept in %u of 100 interleavings", slept);
}
END_TEST

/* Three sleepers, a waker that wakes one at a time until it has woken two: whatever the
 * interleaving, the one left asleep is the one that went to sleep last (each wake takes the
 * earliest sleeper), and being left asleep for ever is a deadlock. */
START_TEST(test_wake_order_and_lost_wakeup)
{
    g_autoptr(IsaProgram) p = assemble(".shared w 4\n.entry main\nmain:\n"
                                       "    beq tid, 3, waker\n"
                                       "    futex_wait r1, [w], 0\n"
                                       "    halt\n"
                                       "waker:\n    futex_wake r1, [w], 1\n    add r5, r5, r1\n"
                                       "    bltu r5, 2, waker\n    halt\n");
    for (guint64 seed = 1; seed <= 50; seed++) {
        g_autoptr(Interp) in = start(p, 4, seed);
        InterpOutcome oc = interp_run(in);
        ck_assert_msg(oc == INTERP_DEADLOCK, "seed %" G_GUINT64_FORMAT ": %s", seed, interp_outcome_name(oc));
        ck_assert_uint_eq(interp_futex_sleepers(in), 1);
        guint64 left_seq = 0, woken_max = 0;
        for (guint t = 0; t < 3; t++) {
            const InterpThread *th = interp_thread(in, t);
            ck_assert_uint_eq(th->futex_sleeps, 1);
            if (th->state == THREAD_FUTEX)
                left_seq = th->futex_seq;
            else
                woken_max = MAX(woken_max, th->futex_seq);
        }
        ck_assert_msg(left_seq > woken_max, "seed %" G_GUINT64_FORMAT ": an earlier sleeper was left asleep", seed);
        g_autofree char *d = interp_describe(in);
        ck_assert_msg(strstr(d, "asleep in futex_wait") && strstr(d, "(on the word at 0x"), "%s", d);
    }
}
END_TEST

START_TEST(test_verify_calls_it_a_lost_wakeup)
{
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = 2;
    o.seeds = 50;
    VerifyResult r;
    g_autoptr(GError) err = NULL;
    ck_assert(verify_lock("never-marked.qs", planted_never_marked, &o, &r, &err));
    ck_assert(!r.ok);
    ck_assert_msg(g_str_has_prefix(r.failure, "lost wake-up: 1 thread asleep in futex_wait with no futex_wake to come "
                                              "(the run ended in deadlock)"), "%s", r.failure);
    verify_result_clear(&r);
}
END_TEST

Suite *make_futex_suite(void)
{
    Suite *s = suite_create("futex");
    TCase *tc = tcase_create("assembler");
    tcase_add_test(tc, test_futex_ops_assemble);
    tcase_add_loop_test(tc, test_futex_errors, 0, G_N_ELEMENTS(futex_error_rows));
    tcase_add_test(tc, test_param_defaults_and_overrides);
    tcase_add_test(tc, test_param_override_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("interpreter");
    tcase_add_test(tc, test_wait_returns_at_once_when_the_word_differs);
    tcase_add_test(tc, test_wait_sleeps_and_wake_wakes);
    tcase_add_test(tc, test_wake_order_and_lost_wakeup);
    tcase_add_test(tc, test_verify_calls_it_a_lost_wakeup);
    suite_add_tcase(s, tc);
    return s;
}
