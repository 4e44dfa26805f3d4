/* The ISA's growth for translated compiler output: registers r16..r63, the ops sar, sext, div,
 * divu, rem, remu and seq..sgeu, and the `.loc` directive.  Each new op's values are checked
 * against numbers worked out by hand, then one self-checking lock (it faults on a wrong value)
 * runs on every backend that runs programs: the reference interpreter, the explorer (verify),
 * the timing model (run) and natively, so that the five places an op's meaning is written
 * (isa_exec.c, thread_step.c, core_execute.h, the explorers, native_c.c) agree. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"
#include "sim/explore/explore_live.h"
#include "run_qsim.h"
#include "tests/temp_files.h"

static IsaProgram *assemble(const char *src)
{
    g_autoptr(GError) err = NULL;
    IsaProgram *p = asm_assemble("t.qs", src, arch_target(ARCH_X86), &err);
    ck_assert_msg(p != NULL, "%s", err ? err->message : "");
    return p;
}

static char *assemble_error(const char *src)
{
    g_autoptr(GError) err = NULL;
    IsaProgram *p = asm_assemble("t.qs", src, arch_target(ARCH_X86), &err);
    ck_assert(p == NULL);
    return g_strdup(err->message);
}

START_TEST(test_alu_values)
{
    const uint64_t m1 = ~(uint64_t)0, min = (uint64_t)1 << 63;
    ck_assert_uint_eq(isa_alu(OP_SAR, (uint64_t)-16, 2), (uint64_t)-4);
    ck_assert_uint_eq(isa_alu(OP_SAR, (uint64_t)-16, 64), m1);
    ck_assert_uint_eq(isa_alu(OP_SAR, 16, 200), 0);
    ck_assert_uint_eq(isa_alu(OP_SEXT, 0x80, 8), 0xffffffffffffff80ULL);
    ck_assert_uint_eq(isa_alu(OP_SEXT, 0x17f, 8), 0x7f);
    ck_assert_uint_eq(isa_alu(OP_SEXT, 0xffff8000, 16), 0xffffffffffff8000ULL);
    ck_assert_uint_eq(isa_alu(OP_SEXT, 0x1234567880000000ULL, 32), 0xffffffff80000000ULL);
    ck_assert_uint_eq(isa_alu(OP_SEXT, min, 64), min);
    ck_assert_uint_eq(isa_alu(OP_DIV, (uint64_t)-7, 2), (uint64_t)-3);   /* toward zero */
    ck_assert_uint_eq(isa_alu(OP_REM, (uint64_t)-7, 2), (uint64_t)-1);
    ck_assert_uint_eq(isa_alu(OP_DIV, min, m1), min);                      /* the one overflow */
    ck_assert_uint_eq(isa_alu(OP_REM, min, m1), 0);
    ck_assert_uint_eq(isa_alu(OP_DIV, 5, 0), 0);                           /* arm64's: 0, a */
    ck_assert_uint_eq(isa_alu(OP_REM, 5, 0), 5);
    ck_assert_uint_eq(isa_alu(OP_DIVU, m1, 2), m1 / 2);
    ck_assert_uint_eq(isa_alu(OP_REMU, m1, 10), m1 % 10);
    ck_assert_uint_eq(isa_alu(OP_DIVU, 5, 0), 0);
    ck_assert_uint_eq(isa_alu(OP_REMU, 5, 0), 5);
    ck_assert_uint_eq(isa_alu(OP_SEQ, 3, 3), 1);
    ck_assert_uint_eq(isa_alu(OP_SNE, 3, 3), 0);
    ck_assert_uint_eq(isa_alu(OP_SLT, m1, 0), 1);     /* -1 < 0 signed */
    ck_assert_uint_eq(isa_alu(OP_SLTU, m1, 0), 0);    /* not unsigned */
    ck_assert_uint_eq(isa_alu(OP_SGE, 0, m1), 1);
    ck_assert_uint_eq(isa_alu(OP_SGEU, 0, m1), 0);
}
END_TEST

/* Every new op, edge cases included, each result compared in the program itself: a wrong one
 * stores through address 0 (a fault on every backend). */
static const char selfcheck_text[] =
    ".shared lock_word 8 own_line\n"
    ".entry lock\n.entry unlock\n"
    "lock:\n"
    "    mov r40, -16\n"
    "    sar r41, r40, 2\n      bne r41, -4, bad\n"
    "    mov r42, 64\n"
    "    sar r41, r40, r42\n    bne r41, -1, bad\n"
    "    sext r41, 0x80, 8\n    bne r41, -128, bad\n"
    "    sext r41, 0x17f, 8\n   bne r41, 0x7f, bad\n"
    "    sext r41, 0xffff8000, 16\n bne r41, -32768, bad\n"
    "    mov r43, 0x80000000\n"
    "    sext r41, r43, 32\n    bne r41, -2147483648, bad\n"
    "    div r41, -7, 2\n       bne r41, -3, bad\n"
    "    rem r41, -7, 2\n       bne r41, -1, bad\n"
    "    mov r44, 0\n"
    "    div r41, 5, r44\n      bne r41, 0, bad\n"
    "    rem r41, 5, r44\n      bne r41, 5, bad\n"
    "    divu r41, r44, r44\n   bne r41, 0, bad\n"
    "    remu r41, 7, r44\n     bne r41, 7, bad\n"
    "    mov r45, -9223372036854775808\n"
    "    div r41, r45, -1\n     bne r41, r45, bad\n"
    "    rem r41, r45, -1\n     bne r41, 0, bad\n"
    "    divu r41, -1, 2\n      bne r41, 0x7fffffffffffffff, bad\n"
    "    remu r41, 23, 10\n     bne r41, 3, bad\n"
    "    seq r41, r44, 0\n      bne r41, 1, bad\n"
    "    sne r41, r44, 0\n      bne r41, 0, bad\n"
    "    slt r41, -1, 0\n       bne r41, 1, bad\n"
    "    sltu r41, -1, 0\n      bne r41, 0, bad\n"
    "    sge r41, 0, -1\n       bne r41, 1, bad\n"
    "    sgeu r41, 0, -1\n      bne r41, 0, bad\n"
    "    mov r63, 0x1234\n"     /* the top register holds a value across a spin */
    "spin:\n"
    "    xchg r0, [lock_word], 1\n"
    "    bne r0, 0, spin\n"
    "    bne r63, 0x1234, bad\n"
    "    ret\n"
    "bad:\n"
    "    mov r1, 0\n"
    "    st [r1], 1\n"
    "    ret\n"
    "unlock:\n"
    "    st [lock_word], 0\n"
    "    ret\n";

START_TEST(test_selfcheck_interp)
{
    const char *harness = ".entry main\nmain:\n    call lock\n    call unlock\n    halt\n";
    AsmSource src[] = { { "ext.qs", selfcheck_text, TRUE }, { "<h>", harness, FALSE } };
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble_sources(src, 2, arch_target(ARCH_X86), &err);
    ck_assert_msg(p, "%s", err ? err->message : "");
    InterpOptions o = { .threads = 2, .seed = 1, .max_steps = 100000 };
    g_autoptr(Interp) in = interp_new(p, &o, &err);
    ck_assert_msg(in, "%s", err ? err->message : "");
    ck_assert_int_eq(interp_run(in), INTERP_FINISHED);
}
END_TEST

static char *write_selfcheck(char **dir)
{
    *dir = tmpdir();
    return write_file(*dir, "ext.qs", selfcheck_text);
}

static void remove_selfcheck(char *dir, char *path)
{
    rm_rf(dir);
    g_free(path);
    g_free(dir);
}

START_TEST(test_selfcheck_verify_and_run)
{
    char *dir, *path = write_selfcheck(&dir);
    g_autofree char *out = NULL, *err = NULL;
    const char *verify[] = { "verify", "--lock", path, "--threads", "2", "--iterations", "1", NULL };
    int rc = run_qsim(verify, &out, &err);
    ck_assert_msg(rc == 0, "verify: rc %d\n%s%s", rc, out, err);
    ck_assert_ptr_nonnull(strstr(out, "verified under tso"));
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    const char *run[] = { "run", "--lock", path, "--threads", "2", "--iterations", "3", "--no-host-time", NULL };
    rc = run_qsim(run, &out, &err);
    ck_assert_msg(rc == 0, "run: rc %d\n%s%s", rc, out, err);
    remove_selfcheck(dir, path);
}
END_TEST

START_TEST(test_selfcheck_native)
{
    char *dir, *path = write_selfcheck(&dir);
    g_autofree char *out = NULL, *err = NULL;
    const char *native[] = { "native", "--lock", path, "--threads", "1", "--iterations", "5", NULL };
    int rc = run_qsim(native, &out, &err);
    ck_assert_msg(rc == 0, "native: rc %d\n%s%s", rc, out, err);
    remove_selfcheck(dir, path);
}
END_TEST

START_TEST(test_assembler_checks)
{
    g_autofree char *e1 = assemble_error(".entry m\nm:\n    sext r1, r2, 0\n    halt\n");
    ck_assert_ptr_nonnull(strstr(e1, "t.qs:3:18: sign-extension width 0 is out of range (1..64 bits)"));
    g_autofree char *e2 = assemble_error(".entry m\nm:\n    sar r1, r2, 64\n    halt\n");
    ck_assert_ptr_nonnull(strstr(e2, "t.qs:3:17: shift amount 64 is out of range (0..63)"));
    g_autofree char *e3 = assemble_error(".entry m\nm:\n    mov r64, 1\n    halt\n");
    ck_assert_ptr_nonnull(strstr(e3, "must be a register"));
    /* A lock may write r16..r63 (translated code's), never the harness's r12..r15. */
    AsmSource ok[] = { { "l.qs", ".entry lock\nlock:\n    mov r16, 1\n    mov r63, 2\n    ret\n", TRUE } };
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble_sources(ok, 1, arch_target(ARCH_X86), &err);
    ck_assert_msg(p, "%s", err ? err->message : "");
    AsmSource bad[] = { { "l.qs", ".entry lock\nlock:\n    mov r15, 1\n    ret\n", TRUE } };
    g_autoptr(IsaProgram) q = asm_assemble_sources(bad, 1, arch_target(ARCH_X86), &err);
    ck_assert(q == NULL);
    ck_assert_ptr_nonnull(strstr(err->message, "r12..r15 belong to the harness"));
}
END_TEST

/* `.loc FILE LINE [COL]` gives the ops after it that position; `.loc -` their own again; a
 * second `.loc` of the same file reuses its entry. */
START_TEST(test_loc_directive)
{
    g_autoptr(IsaProgram) p = assemble(".entry m\nm:\n"
                                       "    .loc \"lock.c\" 12 5\n"
                                       "    mov r1, 1\n"
                                       "    mov r2, 2\n"
                                       "    .loc lock.c 14\n"
                                       "    mov r3, 3\n"
                                       "    .loc -\n"
                                       "    halt\n");
    const IsaInsn *i = &g_array_index(p->insns, IsaInsn, 0);
    g_autofree char *pos0 = asm_format_pos(p, i);
    ck_assert_str_eq(pos0, "lock.c:12:5");
    g_autofree char *pos1 = isa_insn_pos(p, &g_array_index(p->insns, IsaInsn, 1));
    ck_assert_str_eq(pos1, "lock.c:12");
    g_autofree char *pos2 = asm_format_pos(p, &g_array_index(p->insns, IsaInsn, 2));
    ck_assert_str_eq(pos2, "lock.c:14:0");
    g_autofree char *pos3 = asm_format_pos(p, &g_array_index(p->insns, IsaInsn, 3));
    ck_assert_str_eq(pos3, "t.qs:9:5");
    ck_assert_uint_eq(p->files->len, 2);
    g_autofree char *e = assemble_error(".entry m\nm:\n    .loc\n    halt\n");
    ck_assert_ptr_nonnull(strstr(e, "t.qs:3:5: .loc takes FILE LINE [COL], or `-`"));
}
END_TEST

/* Liveness and the explorer's register count reach r63. */
START_TEST(test_high_registers_live)
{
    g_autoptr(IsaProgram) p = assemble(".shared x 8\n.entry m\nm:\n"
                                       "    mov r63, 5\n"
                                       "    st [x], r63\n"
                                       "    halt\n");
    g_autofree IsaRegMask *live = explore_live_regs(p);
    ck_assert(live[0] == 0);
    ck_assert(live[1] == (IsaRegMask)1 << 63);
    ck_assert_uint_eq(explore_regs_used(p), 64);
    g_autoptr(IsaProgram) q = assemble(".entry m\nm:\n    mov r2, tid\n    halt\n");
    ck_assert_uint_eq(explore_regs_used(q), 3);
}
END_TEST

Suite *make_isa_ext_suite(void)
{
    Suite *s = suite_create("isa_ext");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_alu_values);
    tcase_add_test(tc, test_selfcheck_interp);
    tcase_add_test(tc, test_selfcheck_verify_and_run);
    tcase_add_test(tc, test_selfcheck_native);
    tcase_add_test(tc, test_assembler_checks);
    tcase_add_test(tc, test_loc_directive);
    tcase_add_test(tc, test_high_registers_live);
    suite_add_tcase(s, tc);
    return s;
}
