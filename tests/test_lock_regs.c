/* Lock code and the harness's registers (r12..r15, its loop counter): the assembler refuses any
 * op of lock code that writes one, at the operand's position, whatever the op (every op the op
 * table gives a destination); the harness's own source may write them; every shipped lock
 * assembles as lock code on every target; and run, verify, native and asm all exit 2 on such a
 * lock instead of running it (it ran forever, or got a different verdict from each). */
#include <check.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "tests/run_qsim.h"
#include "cores/isa/asm.h"
#include "sim/workload/harness.h"

/* Line 1 declares the variables; the op under test is on line 2. */
#define DECLS ".shared w 8 own_line\n"

/* `mnemonic operands` for `op` writing register `rd`, by the op table's signature; *col is the
 * destination's column on its line. */
static char *insn_writing(IsaOp op, int rd, guint *col)
{
    GString *g = g_string_new("    ");
    g_string_append(g, isa_op_info[op].name);
    const char *sig = isa_op_info[op].operands;
    for (guint k = 0; sig[k]; k++) {
        g_string_append(g, k ? ", " : " ");
        switch (sig[k]) {
        case 'D':
            *col = (guint)g->len + 1;
            g_string_append_printf(g, "r%d", rd);
            break;
        case 'S': case 'N': g_string_append(g, "1"); break;
        case 'M': g_string_append(g, "[w]"); break;
        case 'Y': g_string_append(g, "w"); break;
        case 'R': g_string_append(g, "r1"); break;
        default: ck_abort_msg("%s: an operand kind this test does not write", isa_op_info[op].name);
        }
    }
    g_string_append_c(g, '\n');
    return g_string_free(g, FALSE);
}

static ArchTarget target_for(IsaOp op)
{
    return arch_target(isa_op_on_arch(op, ARCH_X86) ? ARCH_X86 : ARCH_ARM64);
}

/* The ops that write a destination (a `D` in their signature), in table order: only they can
 * write a harness register, so only they are walked (an op without one has nothing to refuse,
 * and an iteration that returned early for it would pass having asserted nothing). */
static guint ops_with_destination(IsaOp *out)
{
    guint n = 0;
    for (int op = 0; op < OP__COUNT; op++)
        if (strchr(isa_op_info[op].operands, 'D')) {
            if (out)
                out[n] = (IsaOp)op;
            n++;
        }
    return n;
}

#define HARNESS_REGS (ISA_HARNESS_REG_END - ISA_HARNESS_REG_FIRST)

/* _i walks (ops with a destination) x r12..r15; every iteration asserts. */
START_TEST(test_lock_may_not_write_harness_registers)
{
    IsaOp ops[OP__COUNT];
    ck_assert_uint_lt(_i, ops_with_destination(ops) * HARNESS_REGS);
    IsaOp op = ops[_i / HARNESS_REGS];
    int rd = ISA_HARNESS_REG_FIRST + (int)(_i % HARNESS_REGS);
    guint col = 0;
    g_autofree char *insn = insn_writing(op, rd, &col);
    g_autofree char *text = g_strconcat(DECLS, insn, NULL);
    AsmSource lock = { "lock.qs", text, TRUE }, harness = { "<harness>", text, FALSE };
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) refused = asm_assemble_sources(&lock, 1, target_for(op), &err);
    ck_assert_msg(!refused, "lock code assembled `%s`", insn);
    g_autofree char *want = g_strdup_printf("lock.qs:2:%u: `%s` writes r%d: r12..r15 belong to the harness (its "
                                            "loop counter), so lock code must not write them (use r0..r11)",
                                            col, isa_op_info[op].name, rd);
    ck_assert_str_eq(err->message, want);
    g_clear_error(&err);
    g_autoptr(IsaProgram) allowed = asm_assemble_sources(&harness, 1, target_for(op), &err);
    ck_assert_msg(allowed, "the harness may write r%d: %s", rd, err ? err->message : "");
}
END_TEST

/* Reading them stays allowed: they hold the harness's values, and nothing of the harness changes. */
START_TEST(test_lock_may_read_harness_registers)
{
    AsmSource lock = { "lock.qs", DECLS "    add r1, r12, r15\n    st [w+r13], r14\n    la r2, w\n", TRUE };
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble_sources(&lock, 1, arch_target(ARCH_X86), &err);
    ck_assert_msg(p, "%s", err ? err->message : "");
}
END_TEST

/* The lock of issue 29 item 4: an unlock that ends by zeroing the loop register made `run` loop
 * on, `native` never end and `verify` call it a livelock; setting it to 1 got three verdicts. */
static const char *const clobbering_unlock[] = {
    ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\nlock:\n    xchg32.acq r0, [lock_word], 1\n"
    "    bne r0, 0, lock\n    ret\nunlock:\n    st32.rel [lock_word], 0\n    mov r12, 0\n    ret\n",
    ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\nlock:\n    xchg32.acq r0, [lock_word], 1\n"
    "    bne r0, 0, lock\n    ret\nunlock:\n    st32.rel [lock_word], 0\n    mov r12, 1\n    ret\n",
};

static const ArchTarget targets[] = {
    { ARCH_X86, ARCH_ATOMICS_LOCKED, 0 },
    { ARCH_ARM64, ARCH_ATOMICS_LLSC, 0 },
    { ARCH_ARM64, ARCH_ATOMICS_LSE, 0 },
};

START_TEST(test_harness_refuses_clobbering_lock)
{
    for (guint i = 0; i < G_N_ELEMENTS(clobbering_unlock); i++)
        for (guint t = 0; t < G_N_ELEMENTS(targets); t++) {
            HarnessOptions h;
            harness_options_init(&h);
            h.threads = 2;
            g_autoptr(GError) err = NULL;
            g_autoptr(IsaProgram) p = harness_assemble("bad.qs", clobbering_unlock[i], &h, targets[t], NULL, &err);
            ck_assert_ptr_null(p);
            ck_assert_msg(g_str_has_prefix(err->message, "bad.qs:10:9: `mov` writes r12: "), "%s", err->message);
        }
}
END_TEST

/* Every shipped lock keeps to r0..r11: it assembles as lock code with the harness everywhere. */
START_TEST(test_shipped_locks_assemble_as_lock_code)
{
    g_autofree char *dir = g_build_filename(test_srcdir(), "locks", NULL);
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    ck_assert_ptr_nonnull(d);
    guint n = 0;
    for (const char *f; (f = g_dir_read_name(d));) {
        if (!g_str_has_suffix(f, ".qs"))
            continue;
        g_autofree char *path = g_build_filename(dir, f, NULL);
        g_autofree char *text = NULL;
        ck_assert(g_file_get_contents(path, &text, NULL, NULL));
        for (guint t = 0; t < G_N_ELEMENTS(targets); t++) {
            HarnessOptions h;
            harness_options_init(&h);
            g_autoptr(GError) err = NULL;
            g_autoptr(IsaProgram) p = harness_assemble(path, text, &h, targets[t], NULL, &err);
            ck_assert_msg(p, "%s", err ? err->message : "");
        }
        n++;
    }
    ck_assert_uint_ge(n, 10);
}
END_TEST

/* Each command that takes a lock file refuses it as bad input (exit 2) with the position. */
START_TEST(test_commands_exit_2)
{
    g_autofree char *path = NULL;
    int fd = g_file_open_tmp("qsim-lock-regs-XXXXXX.qs", &path, NULL);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert(g_file_set_contents(path, clobbering_unlock[0], -1, NULL));
    const char *const commands[][12] = {
        { "run", "--config", "teaching", "--lock-file", path, "--threads", "2", "--iterations", "3", NULL },
        { "verify", "--lock-file", path, "--threads", "2", "--seeds", "2", NULL },
        { "native", "--lock-file", path, "--threads", "2", "--iterations", "3", NULL },
        { "asm", path, NULL },
        { "asm", "--harness", path, NULL },
    };
    g_autofree char *want = g_strdup_printf("%s:10:9: `mov` writes r12", path);
    for (guint i = 0; i < G_N_ELEMENTS(commands); i++) {
        g_autofree char *err = NULL;
        int rc = run_qsim_with(commands[i], RUN_QSIM_LIMITED, NULL, &err);
        ck_assert_msg(rc == 2 && strstr(err, want), "qsim %s: exit %d: %s", commands[i][0], rc, err);
    }
    g_unlink(path);
}
END_TEST

Suite *make_lock_regs_suite(void)
{
    Suite *s = suite_create("lock_regs");
    TCase *tc = tcase_create("assembler");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_lock_may_not_write_harness_registers, 0, ops_with_destination(NULL) * HARNESS_REGS);
    tcase_add_test(tc, test_lock_may_read_harness_registers);
    tcase_add_test(tc, test_harness_refuses_clobbering_lock);
    tcase_add_test(tc, test_shipped_locks_assemble_as_lock_code);
    suite_add_tcase(s, tc);
    tc = tcase_create("commands");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_commands_exit_2);
    suite_add_tcase(s, tc);
    return s;
}
