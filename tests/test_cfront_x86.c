/* The x86-64 translator, differentially: each instruction form it knows runs for real in this
 * test binary (a top-level asm function per form) and, translated, on the reference
 * interpreter, from the same seeded random registers and memory; every register, the memory
 * and the flags (as setcc bytes: the conditions the translation keeps after that form) must
 * come out the same.  Then the refusals: a condition whose flags are not kept, an instruction
 * it does not know, a lock without lock_acquire. */
#include <check.h>
#include <string.h>
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"
#include "sim/cfront/cfront.h"

#define RUNS 300

/* 16 words: memory 0..3 (the forms' memory operands), registers rax rcx rdx rsi r8 r9 r10 r11
 * in 4..11 (loaded before the form, stored after), flags as setcc bytes in 12. */
#define LOAD                                                                                          \
    "movq 32(%rdi), %rax\n movq 40(%rdi), %rcx\n movq 48(%rdi), %rdx\n movq 56(%rdi), %rsi\n"        \
    "movq 64(%rdi), %r8\n movq 72(%rdi), %r9\n movq 80(%rdi), %r10\n movq 88(%rdi), %r11\n"
#define STORE                                                                                         \
    "movq %rax, 32(%rdi)\n movq %rcx, 40(%rdi)\n movq %rdx, 48(%rdi)\n movq %rsi, 56(%rdi)\n"        \
    "movq %r8, 64(%rdi)\n movq %r9, 72(%rdi)\n movq %r10, 80(%rdi)\n movq %r11, 88(%rdi)\n"
/* Every condition (kept exact after cmp, sub, test and the logic ops). */
#define ALL                                                                                           \
    "setb 96(%rdi)\n sete 97(%rdi)\n setl 98(%rdi)\n setle 99(%rdi)\n setbe 100(%rdi)\n"              \
    "seta 101(%rdi)\n setg 102(%rdi)\n setge 103(%rdi)\n"
/* ZF and SF (all that is kept after add, inc, dec, neg, shifts). */
#define ZS "sete 96(%rdi)\n sets 97(%rdi)\n setne 98(%rdi)\n setns 99(%rdi)\n"

/* name, then the form (with whatever keeps it from trapping natively) */
#define FORMS(X)                                                                                      \
    X(mov64, "movq %rcx, %rax\n")                                                                     \
    X(mov32_zero_extends, "movl %ecx, %eax\n")                                                        \
    X(mov16_merges, "movw %cx, %ax\n")                                                                \
    X(mov8_merges, "movb %cl, %al\n")                                                                 \
    X(mov_high8, "movb %cl, %ah\n movb %dh, %cl\n")                                                  \
    X(mov_imm, "movl $-1, %eax\n movq $-2, %rcx\n movb $200, %dl\n movabsq $0x123456789abcdef0, %rsi\n") \
    X(load_store, "movq 8(%rdi), %rax\n movl 12(%rdi), %ecx\n movb 3(%rdi), %dl\n movw %si, 6(%rdi)\n movq %r8, 16(%rdi)\n movl $7, 24(%rdi)\n") \
    X(index_scale, "andq $3, %rcx\n movq (%rdi,%rcx,8), %rax\n movl 4(%rdi,%rcx,4), %edx\n")            \
    X(movz_movs, "movzbl %cl, %eax\n movsbq %dl, %rsi\n movswl 2(%rdi), %r8d\n movslq %r9d, %r10\n movzwq %r11w, %r11\n movsbw %cl, %dx\n") \
    X(conversions, "cltq\n cwtl\n cltd\n")                                                           \
    X(cqto, "cqto\n")                                                                                 \
    X(lea, "leaq 8(%rcx,%rdx,4), %rax\n leal -3(%rcx,%rdx), %esi\n leaq (,%r8,2), %r9\n")             \
    X(add32, "addl %ecx, %eax\n" ZS)                                                                  \
    X(add_mem, "addq %rcx, 8(%rdi)\n" ZS)                                                             \
    X(sub64, "subq %rcx, %rax\n" ALL)                                                                 \
    X(sub_imm, "subl $5, %eax\n" ALL)                                                                 \
    X(sub_mem16, "subw %cx, 2(%rdi)\n" ALL)                                                           \
    X(and32, "andl %ecx, %eax\n" ALL)                                                                 \
    X(or_mem, "orq 8(%rdi), %rax\n" ALL)                                                              \
    X(xor8, "xorb %cl, %al\n" ALL)                                                                    \
    X(xor_zero, "xorl %eax, %eax\n" ALL)                                                              \
    X(cmp32, "cmpl %ecx, %eax\n" ALL)                                                                 \
    X(cmp64, "cmpq %rcx, %rax\n" ALL)                                                                 \
    X(cmp8_imm, "cmpb $7, %al\n" ALL)                                                                 \
    X(cmp16_mem, "cmpw %cx, 2(%rdi)\n" ALL)                                                           \
    X(cmp_minus1, "cmpq $-1, %rax\n" ALL)                                                             \
    X(test32, "testl %ecx, %eax\n" ALL)                                                               \
    X(test8_imm, "testb $1, %al\n" ALL)                                                               \
    X(test_self, "testq %rax, %rax\n" ALL ZS)                                                         \
    X(inc_dec, "incl %eax\n" ZS "decq %rcx\n sete 104(%rdi)\n sets 105(%rdi)\n")                     \
    X(neg_not, "negl %eax\n" ZS "notq %rcx\n")                                                        \
    X(inc_mem8, "incb 1(%rdi)\n" ZS)                                                                  \
    X(shifts_imm, "shll $3, %eax\n" ZS "shrq $7, %rcx\n sarl $31, %edx\n sarb $2, %sil\n salq $1, %r8\n shrl %r9d\n") \
    X(shifts_cl, "shlq %cl, %rax\n sarl %cl, %edx\n shrw %cl, %si\n")                                 \
    X(sbb_adc, "cmpl %ecx, %eax\n sbbl %edx, %edx\n cmpq %rcx, %rsi\n adcq $5, %r8\n testl %eax, %eax\n sbbq %r9, %r10\n") \
    X(imul, "imull %ecx, %eax\n imulq $37, %rdx, %rsi\n imulq 8(%rdi), %r8\n")                        \
    X(setcc_reg, "cmpl %ecx, %eax\n setl %dl\n setae %sil\n")                                         \
    X(cmov, "cmpl %ecx, %eax\n cmovl %edx, %eax\n testq %rcx, %rcx\n cmove %rsi, %r8\n cmpq %rcx, %rdx\n cmovbe 8(%rdi), %r9\n") \
    X(jcc, "cmpl %ecx, %eax\n jl .Lj1\n movl $1, %edx\n.Lj1:\n cmpq %rcx, %rax\n jbe .Lj2\n movl $2, %esi\n.Lj2:\n testl %eax, %eax\n js .Lj3\n movl $3, %r8d\n.Lj3:\n cmpb %cl, %al\n ja .Lj4\n jmp .Lj5\n.Lj4:\n movl $4, %r9d\n.Lj5:\n") \
    X(loop, "andl $7, %ecx\n addl $1, %ecx\n xorl %eax, %eax\n.Ll1:\n addl %ecx, %eax\n subl $1, %ecx\n jne .Ll1\n") \
    X(xchg_reg, "xchgq %rcx, %rax\n xchgl %edx, %esi\n")                                              \
    X(xchg_mem, "xchgl 4(%rdi), %eax\n xchgb %cl, 1(%rdi)\n xchgq %rdx, 16(%rdi)\n")                  \
    X(cmpxchg_fails, "lock cmpxchgl %ecx, 4(%rdi)\n" ALL)                                             \
    X(cmpxchg_succeeds, "movq 8(%rdi), %rax\n lock cmpxchgq %rcx, 8(%rdi)\n" ALL)                     \
    X(cmpxchg8, "movb 3(%rdi), %al\n andb $1, %dl\n subb %dl, %al\n lock cmpxchgb %cl, 3(%rdi)\n" ALL) \
    X(cmpxchg16, "lock cmpxchgw %cx, 2(%rdi)\n" ALL)                                                 \
    X(xadd, "lock xaddl %ecx, 4(%rdi)\n" ZS)                                                          \
    X(narrow_chain, "movl %ecx, %eax\n movl %eax, %edx\n addl %edx, %esi\n lock xaddl %eax, 4(%rdi)\n xchgl %edx, (%rdi)\n movq %rdx, %r8\n movzbl %sil, %r9d\n orq %rax, %r9\n cmpl %esi, %eax\n" ALL) \
    X(lock_add_sub, "lock addq %rcx, 8(%rdi)\n" ZS "lock subl %edx, 4(%rdi)\n setb 104(%rdi)\n setle 105(%rdi)\n") \
    X(lock_logic, "lock andl %ecx, (%rdi)\n" ALL "lock orq %rdx, 8(%rdi)\n setg 104(%rdi)\n lock xorw %si, 18(%rdi)\n sete 105(%rdi)\n") \
    X(lock_inc_dec, "lock incl (%rdi)\n" ZS "lock decq 8(%rdi)\n sete 104(%rdi)\n")                   \
    X(divl, "xorl %edx, %edx\n orl $1, %ecx\n divl %ecx\n")                                           \
    X(divq, "xorl %edx, %edx\n orq $1, %rcx\n divq %rcx\n")                                           \
    X(idivl, "andl $0x7fffffff, %ecx\n orl $1, %ecx\n cltd\n idivl %ecx\n")                          \
    X(idivq, "shrq $1, %rcx\n orq $1, %rcx\n cqto\n idivq %rcx\n")                                    \
    X(push_pop, "pushq %rcx\n pushq 8(%rdi)\n popq %rax\n popq %rdx\n")                               \
    X(high8_arith, "addb %ch, %ah\n" ZS "movb %ah, %cl\n")                                            \
    X(numeric_labels, "andl $7, %ecx\n addl $1, %ecx\n xorl %eax, %eax\n1:\n addl %ecx, %eax\n subl $1, %ecx\n jne 1b\n testq %rdx, %rdx\n je 1f\n movl $9, %esi\n1:\n") \
    X(pause_fence, "pause\n rep; nop\n mfence\n")

#if defined(__x86_64__) && defined(__GNUC__)

uint64_t cfx_buf[16] __attribute__((aligned(64)));

#define NATIVE(id, body)                                                                              \
    __asm__(".pushsection .text\n.globl cfx_" #id "\n.type cfx_" #id ", @function\ncfx_" #id ":\n"   \
            "leaq cfx_buf(%rip), %rdi\n" LOAD body STORE "ret\n.popsection\n");                       \
    extern void cfx_##id(void);
FORMS(NATIVE)

typedef struct {
    const char *name, *body;
    void (*native)(void);
} Form;

#define ROW(id, body) { #id, body, cfx_##id },
static const Form forms[] = { FORMS(ROW) };

/* An input: random bits, or a value a form's edge cases hide behind. */
static uint64_t input(GRand *r, const uint64_t *others, guint n)
{
    static const uint64_t edge[] = { 0, 1, 2, 7, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
                                     0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
                                     ~(uint64_t)0 };
    switch (g_rand_int_range(r, 0, 4)) {
    case 0: return edge[g_rand_int_range(r, 0, G_N_ELEMENTS(edge))];
    case 1: return n ? others[g_rand_int_range(r, 0, (gint32)n)] : 0;      /* equal operands */
    case 2: return (uint64_t)g_rand_int_range(r, -4, 5);
    default: return (uint64_t)g_rand_int(r) << 32 | g_rand_int(r);
    }
}

static char *form_asm(const Form *f)
{
    return g_strdup_printf("\t.text\n\t.globl lock_acquire\n\t.type lock_acquire, @function\nlock_acquire:\n"
                           "leaq cfx_buf(%%rip), %%rdi\n%s%s%sret\n"
                           "\t.globl lock_release\n\t.type lock_release, @function\nlock_release:\n\tret\n"
                           "\t.comm cfx_buf,128,64\n", LOAD, f->body, STORE);
}

START_TEST(test_form)
{
    const Form *f = &forms[_i];
    g_autofree char *s = form_asm(f);
    g_autoptr(GError) err = NULL;
    g_autofree char *isa = cfront_translate_asm(s, "form.s", "form.c", arch_target(ARCH_X86), &err);
    ck_assert_msg(isa, "%s: %s", f->name, err ? err->message : "");
    AsmSource src[] = { { "form.qs", isa, TRUE }, { "<h>", ".entry main\nmain:\n    call lock\n    halt\n", FALSE } };
    g_autoptr(IsaProgram) p = asm_assemble_sources(src, 2, arch_target(ARCH_X86), &err);
    ck_assert_msg(p, "%s: %s\n%s", f->name, err ? err->message : "", isa);
    int sym = isa_program_find_sym(p, "c_cfx_buf");
    ck_assert_int_ge(sym, 0);
    GRand *r = g_rand_new_with_seed(0x5eed + _i);
    for (guint run = 0; run < RUNS; run++) {
        uint64_t in[16] = { 0 };
        for (guint k = 0; k < 12; k++)
            in[k] = input(r, in, k);
        memcpy(cfx_buf, in, sizeof in);
        f->native();
        InterpOptions o = { .threads = 1, .seed = 1, .max_steps = 100000 };
        g_autoptr(Interp) vm = interp_new(p, &o, &err);
        ck_assert(vm);
        uint64_t base = isa_sym_addr(interp_layout(vm), (guint)sym, 0);
        for (guint k = 0; k < 16; k++)
            ck_assert(interp_write(vm, base + 8 * k, 8, in[k]));
        ck_assert_msg(interp_run(vm) == INTERP_FINISHED, "%s: the translation did not finish", f->name);
        for (guint k = 0; k < 16; k++) {
            uint64_t got = 0;
            ck_assert(interp_read(vm, base + 8 * k, 8, &got));
            ck_assert_msg(got == cfx_buf[k],
                          "%s, run %u: word %u (%s) is 0x%016" G_GINT64_MODIFIER "x translated, 0x%016" G_GINT64_MODIFIER
                          "x natively\ninputs: %016" G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x %016"
                          G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x | %016" G_GINT64_MODIFIER "x %016"
                          G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x\n%s",
                          f->name, run, k, k < 4 ? "memory" : k < 12 ? "a register" : "flags", got, cfx_buf[k], in[0],
                          in[1], in[2], in[3], in[4], in[5], in[6], in[7], isa);
        }
    }
    g_rand_free(r);
}
END_TEST

#define NFORMS 1
#else
#define NFORMS 0
#endif

static char *translate_error(const char *body)
{
    g_autofree char *s = g_strdup_printf("\t.text\n\t.file 1 \"bad.c\"\n\t.globl lock_acquire\n\t.type lock_acquire, "
                                         "@function\nlock_acquire:\n\t.loc 1 7 3\n%s\tret\n\t.globl lock_release\n"
                                         "\t.type lock_release, @function\nlock_release:\n\tret\n", body);
    g_autoptr(GError) err = NULL;
    g_autofree char *isa = cfront_translate_asm(s, "bad.s", "bad.c", arch_target(ARCH_X86), &err);
    ck_assert_msg(isa == NULL, "translated:\n%s", isa);
    ck_assert(err->domain == CFRONT_ERROR);
    return g_strdup(err->message);
}

/* A condition reading a flag the translation does not keep is refused, not guessed: after
 * add only ZF and SF are kept; after a label reached from an add, too. */
START_TEST(test_flags_not_kept_refused)
{
    g_autofree char *e1 = translate_error("\taddl %ecx, %eax\n\tjl .L1\n.L1:\n");
    ck_assert_msg(strstr(e1, "bad.c:7:3: cannot translate `jl .L1` (x86-64, line 8 of the compiler's output bad.s): "
                             "the condition `l` reads flags"), "%s", e1);
    g_autofree char *e2 = translate_error("\tcmpl %ecx, %eax\n\tjne .L2\n\taddl $1, %eax\n.L2:\n\tsetb %dl\n");
    ck_assert_msg(strstr(e2, "`setb %dl`"), "%s", e2);
    g_autofree char *e3 = translate_error("\tcmpl %ecx, %eax\n\tjs .L1\n.L1:\n");
    ck_assert_msg(strstr(e3, "the condition `s`"), "%s", e3);
}
END_TEST

START_TEST(test_unknown_refused)
{
    g_autofree char *e1 = translate_error("\tbsfl %eax, %edx\n");
    ck_assert_msg(strstr(e1, "bad.c:7:3: cannot translate `bsfl %eax, %edx` (x86-64, line 7 of the compiler's output "
                             "bad.s): `bsfl` is not an instruction the translation knows"), "%s", e1);
    g_autofree char *e2 = translate_error("\tcall pthread_yield\n");
    ck_assert_msg(strstr(e2, "`pthread_yield` is not defined in this file"), "%s", e2);
    g_autofree char *e3 = translate_error("\tcmpxchgl %ecx, (%rdi)\n");
    ck_assert_msg(strstr(e3, "cmpxchg without `lock` is not atomic"), "%s", e3);
    g_autofree char *e4 = translate_error("\tmovq %fs:0, %rax\n");
    ck_assert_msg(strstr(e4, "%fs:"), "%s", e4);
}
END_TEST

START_TEST(test_contract)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *isa = cfront_translate_asm("\t.text\n\t.globl lock_acquire\n\t.type lock_acquire, @function\n"
                                                "lock_acquire:\n\tret\n", "x.s", "x.c", arch_target(ARCH_X86), &err);
    ck_assert(isa == NULL);
    ck_assert(g_error_matches(err, CFRONT_ERROR, CFRONT_ERROR_CONTRACT));
    ck_assert_msg(strstr(err->message, "x.c: no function `lock_release`"), "%s", err->message);
    g_clear_error(&err);
    /* the same contract for AArch64 (which once was refused whole) */
    g_autofree char *arm = cfront_translate_asm("", "x.s", "x.c", arch_target(ARCH_ARM64), &err);
    ck_assert(arm == NULL);
    ck_assert(g_error_matches(err, CFRONT_ERROR, CFRONT_ERROR_CONTRACT));
    ck_assert_msg(strstr(err->message, "x.c: no function `lock_acquire`"), "%s", err->message);
}
END_TEST

/* Data: initialised and zeroed variables, thread-locals, a static local's dotted name. */
START_TEST(test_data)
{
    const char *s = "\t.text\n\t.globl lock_acquire\n\t.type lock_acquire, @function\nlock_acquire:\n"
                    "\tmovl count.0(%rip), %eax\n\tmovq %fs:mine@tpoff, %rdx\n\tmovq $table+8, %rcx\n\tret\n"
                    "\t.globl lock_release\n\t.type lock_release, @function\nlock_release:\n\tret\n"
                    "\t.data\n\t.align 4\n\t.type count.0, @object\n\t.size count.0, 4\ncount.0:\n\t.long -3\n"
                    "\t.section .tbss,\"awT\",@nobits\n\t.align 8\nmine:\n\t.zero 8\n"
                    "\t.local table\n\t.comm table,64,32\n";
    g_autoptr(GError) err = NULL;
    g_autofree char *isa = cfront_translate_asm(s, "d.s", "d.c", arch_target(ARCH_X86), &err);
    ck_assert_msg(isa, "%s", err ? err->message : "");
    ck_assert_msg(strstr(isa, ".shared c_count__0 4 align 4 init 4294967293\n"), "%s", isa);
    ck_assert_msg(strstr(isa, ".thread c_mine 8 align 8\n"), "%s", isa);
    ck_assert_msg(strstr(isa, ".shared c_table 64 align 32\n"), "%s", isa);
    ck_assert_msg(strstr(isa, "ld64 r18, [c_mine]"), "%s", isa);   /* %fs:mine@tpoff into %rdx */
    g_autoptr(IsaProgram) p = asm_assemble("d.qs", isa, arch_target(ARCH_X86), &err);
    ck_assert_msg(p, "%s", err ? err->message : "");
    const char *bad = "\t.text\n\t.globl lock_acquire\n\t.type lock_acquire, @function\nlock_acquire:\n\tret\n"
                      "\t.globl lock_release\n\t.type lock_release, @function\nlock_release:\n\tret\n"
                      "\t.data\n\t.align 8\nptr:\n\t.quad lock_acquire\n";
    g_autofree char *no = cfront_translate_asm(bad, "d.s", "d.c", arch_target(ARCH_X86), &err);
    ck_assert(no == NULL);
    ck_assert_msg(strstr(err->message, "`ptr` is initialised with the address of `lock_acquire`"), "%s", err->message);
}
END_TEST

/* No op that does nothing: a 32-bit load is already zero-extended, so it loads straight into
 * the register; a 32-bit compare reads only the low halves, so it masks nothing; an exchange's
 * old value goes straight into its register.  (Each such op took a pipeline slot of the timing
 * model and a simulator step: the ticket lock's wait loop was 8 ops, now 5.)  The forms above
 * check that what remains computes the same. */
START_TEST(test_no_idle_ops)
{
    const char *s = "\t.text\n\t.globl lock_acquire\n\t.type lock_acquire, @function\nlock_acquire:\n"
                    "\tmovl (%rdi), %eax\n\tcmpl %edx, %eax\n\tjne lock_acquire\n"
                    "\tmovq %rdx, %rax\n\txchgq (%rdi), %rax\n\tmovl %eax, 4(%rdi)\n\tret\n"
                    "\t.globl lock_release\n\t.type lock_release, @function\nlock_release:\n\tret\n";
    g_autoptr(GError) err = NULL;
    g_autofree char *isa = cfront_translate_asm(s, "n.s", "n.c", arch_target(ARCH_X86), &err);
    ck_assert_msg(isa, "%s", err ? err->message : "");
    ck_assert_msg(strstr(isa, "    # movl (%rdi), %eax\n    ld32 r16, [r23]\n    # cmpl"), "%s", isa);
    ck_assert_msg(strstr(isa, "    # cmpl %edx, %eax\n    sext r32, r16, 32\n    sext r33, r18, 32\n    # jne"), "%s",
                  isa);
    ck_assert_msg(strstr(isa, "    # xchgq (%rdi), %rax\n    xchg64 r16, [r23], r16\n    # movl"), "%s", isa);
    ck_assert_msg(strstr(isa, "    # movl %eax, 4(%rdi)\n    st32 [r23+4], r16\n"), "%s", isa);
}
END_TEST

Suite *make_cfront_x86_suite(void)
{
    Suite *s = suite_create("cfront_x86");
    TCase *tc = tcase_create("forms");
    tcase_set_timeout(tc, 120);
#if NFORMS
    tcase_add_loop_test(tc, test_form, 0, (int)G_N_ELEMENTS(forms));
#endif
    tcase_add_test(tc, test_flags_not_kept_refused);
    tcase_add_test(tc, test_unknown_refused);
    tcase_add_test(tc, test_contract);
    tcase_add_test(tc, test_data);
    tcase_add_test(tc, test_no_idle_ops);
    suite_add_tcase(s, tc);
    return s;
}
