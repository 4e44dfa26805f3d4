/* The AArch64 translator, differentially: each instruction form it knows is assembled by
 * aarch64-linux-gnu-gcc into one static program that runs under qemu-aarch64 (user mode), and,
 * translated, on the reference interpreter, from the same seeded random registers and memory;
 * every register, the memory and the flags (as cset bytes: the conditions the translation keeps
 * after that form) must come out the same.  Without the cross compiler or qemu the form test is
 * skipped (counted; build-aux/deps.sh installs both).  Then the refusals: LSE code for an LL/SC
 * machine, a condition whose flags are not kept, an instruction it does not know. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"
#include "sim/cfront/cfront.h"
#include "tests/skip.h"
#include "tests/temp_files.h"

#define RUNS 200

/* 16 words: memory 0..3, registers x1..x8 in 4..11 (x0 points at the words, x9 is scratch),
 * flags as cset bytes in 12. */
#define LOAD "ldp x1, x2, [x0, 32]\n ldp x3, x4, [x0, 48]\n ldp x5, x6, [x0, 64]\n ldp x7, x8, [x0, 80]\n"
#define STORE "stp x1, x2, [x0, 32]\n stp x3, x4, [x0, 48]\n stp x5, x6, [x0, 64]\n stp x7, x8, [x0, 80]\n"
#define CS(cc, k) " cset w9, " #cc "\n strb w9, [x0, " #k "]\n"
/* Every condition kept after cmp/subs. */
#define ALL CS(lo, 96) CS(eq, 97) CS(lt, 98) CS(le, 99) CS(ls, 100) CS(hi, 101) CS(gt, 102) CS(ge, 103)
/* After tst/ands: eq, ne, mi, pl and the signed ones. */
#define LOGIC CS(eq, 96) CS(ne, 97) CS(mi, 98) CS(pl, 99) CS(lt, 100) CS(ge, 101) CS(gt, 102) CS(le, 103)
/* After cmn/adds: eq, ne, mi, pl. */
#define ZN CS(eq, 96) CS(ne, 97) CS(mi, 98) CS(pl, 99)

#define FORMS(X)                                                                                      \
    X(mov, "mov x1, x2\n mov w3, w4\n mov x5, -2\n mov w6, 65535\n movz x7, 0x1234, lsl 16\n movk x8, 0xbeef, lsl 32\n movn w2, 5\n") \
    X(add_sub, "add x1, x2, x3\n add w4, w5, w6\n add x7, x8, 4095\n add x2, x3, x4, lsl 3\n add x5, x6, w7, sxtw 2\n add w8, w1, w2, uxtb\n sub x3, x3, 1, lsl 12\n sub w6, w7, w8, lsr 3\n") \
    X(cmp64, "cmp x1, x2\n" ALL)                                                                      \
    X(cmp32, "cmp w1, w2\n" ALL)                                                                      \
    X(cmp_imm, "cmp w1, 5\n" ALL)                                                                     \
    X(subs, "subs x3, x1, x2\n" ALL)                                                                  \
    X(subs32, "subs w3, w1, w2\n" ALL)                                                                \
    X(cmn, "cmn x1, x2\n" ZN)                                                                         \
    X(adds32, "adds w3, w1, w2\n" ZN)                                                                 \
    X(tst, "tst x1, x2\n" LOGIC)                                                                      \
    X(ands32, "ands w3, w1, 255\n" LOGIC)                                                             \
    X(logic, "and x1, x2, x3\n orr w4, w5, w6, lsl 4\n eor x7, x8, 0xff00\n bic w2, w3, w4\n mvn x5, x6\n orn w3, w3, w1\n eon x8, x8, x2, asr 7\n neg x6, x1\n neg w4, w4\n") \
    X(shifts, "lsl x1, x2, 3\n lsr w3, w4, 5\n asr w5, w6, 31\n asr x7, x8, x1\n lsl w2, w3, w4\n lsr x4, x5, x6\n") \
    X(bitfield, "ubfx x1, x2, 4, 8\n sbfx w3, w4, 3, 5\n ubfiz x5, x6, 3, 10\n sbfiz x7, x8, 2, 32\n")    \
    X(extend, "uxtw x2, w3\n sxtw x4, w5\n sxtb w6, w7\n uxth w8, w1\n uxtb w1, w2\n sxth x3, w3\n")     \
    X(muldiv, "mul x1, x2, x3\n mul w4, w5, w6\n udiv w7, w8, w1\n sdiv x2, x3, x4\n msub x5, x6, x7, x8\n madd w1, w2, w3, w4\n sdiv w6, w7, w8\n udiv x3, x3, x5\n") \
    X(csel, "cmp x1, x2\n csel x3, x4, x5, lt\n cset w6, hi\n csinc x7, x8, x1, eq\n cinc w2, w2, ge\n csetm x4, ls\n cneg x5, x5, lo\n csinv w8, w1, w2, ne\n") \
    X(branches, "cmp w1, w2\n blt .Lb1\n mov x3, 1\n.Lb1:\n cbz x4, .Lb2\n mov x5, 2\n.Lb2:\n tbnz w6, 3, .Lb3\n mov x7, 3\n.Lb3:\n cbnz w8, .Lb4\n b .Lb5\n.Lb4:\n mov x2, 4\n.Lb5:\n tst x1, 1\n b.ne .Lb6\n mov x1, 9\n.Lb6:\n tbz x3, 63, .Lb7\n mov x4, 5\n.Lb7:\n") \
    X(loop, "and w1, w1, 7\n add w1, w1, 1\n mov w2, 0\n.Ll1:\n add w2, w2, w1\n subs w1, w1, 1\n bne .Ll1\n") \
    X(load_store, "ldr x1, [x0, 8]\n ldr w2, [x0, 12]\n ldrb w3, [x0, 3]\n ldrsb x4, [x0, 1]\n ldrsh w5, [x0, 2]\n ldrsw x6, [x0, 4]\n ldrh w7, [x0, 6]\n str w8, [x0, 16]\n strb w1, [x0, 25]\n strh w2, [x0, 30]\n str xzr, [x0]\n ldur w3, [x0, 4]\n") \
    X(index_writeback, "and x1, x1, 3\n ldr x2, [x0, x1, lsl 3]\n ldr w3, [x0, x1, lsl 2]\n and w5, w5, 7\n ldr w4, [x0, w5, uxtw 2]\n mov x9, x0\n ldr x6, [x9, 8]!\n ldr x7, [x9], 8\n str x8, [x9, -8]!\n sub x5, x9, x0\n") \
    X(pairs, "stp x1, x2, [x0, 16]\n ldp w3, w4, [x0]\n ldp x5, x6, [x0, 8]\n stp w7, w8, [x0, 4]\n ldpsw x7, x8, [x0, 24]\n") \
    X(narrow_chain, "mov w1, w2\n add w3, w1, 7\n ldaddal w3, w4, [x0]\n ldxr w5, [x0]\n stxr w6, w5, [x0]\n orr x7, x6, x4\n add x8, x5, x1\n cmp w4, w1\n" ALL) \
    X(exclusive, "ldxr x1, [x0]\n add x1, x1, x2\n stxr w8, x1, [x0]\n add x9, x0, 8\n ldaxrh w3, [x9]\n stlxrh w7, w4, [x9]\n add x9, x0, 16\n ldxrb w5, [x9]\n") \
    X(acquire_release, "ldar x1, [x0]\n add x9, x0, 8\n ldarb w2, [x9]\n stlr w3, [x9]\n ldarh w4, [x0]\n stlrb w5, [x0]\n stlr x6, [x9]\n") \
    X(cas_fails, "add x1, x1, 1\n ldr x9, [x0]\n cmp x1, x9\n csinc x1, x1, x1, ne\n cas x1, x2, [x0]\n") \
    X(cas_succeeds, "ldr x1, [x0]\n casal x1, x2, [x0]\n ldr w3, [x0, 8]\n add x9, x0, 8\n casa w3, w4, [x9]\n ldrh w5, [x0, 16]\n add x9, x0, 16\n casalh w5, w6, [x9]\n caslb w7, w8, [x0]\n") \
    X(swp_ldop, "swpal x1, x2, [x0]\n add x9, x0, 8\n swpb w3, w4, [x9]\n ldaddal w5, w6, [x0]\n ldseth w7, w8, [x9]\n add x9, x0, 16\n ldclral x1, x2, [x9]\n stadd x3, [x0]\n ldadda w4, w4, [x9]\n") \
    X(numeric_labels, "and w1, w1, 7\n add w1, w1, 1\n mov w2, 0\n1:\n add w2, w2, w1\n subs w1, w1, 1\n b.ne 1b\n cbz x3, 1f\n mov x4, 9\n1:\n") \
    X(adrp_over_branch, "adrp x9, cfx_buf\n cbz x1, .La1\n ldr x3, [x9, #:lo12:cfx_buf+8]\n mov x9, 0\n b .La2\n.La1:\n ldr x4, [x9, #:lo12:cfx_buf+16]\n.La2:\n") \
    X(barriers, "dmb ish\n dmb ishld\n dmb ishst\n yield\n nop\n prfm pldl1keep, [x0]\n sevl\n wfe\n")

typedef struct {
    const char *name, *body;
} Form;

#define ROW(id, body) { #id, body },
static const Form forms[] = { FORMS(ROW) };

/* The native side: each form a function on cfx_buf; main reads RUNS x 16 words per form from the
 * file argv[1] and writes the words after each run to the file argv[2]. */
static const char native_main[] =
    "typedef unsigned long u64;\n"
    "extern u64 cfx_buf[16];\n"
    "extern void (*const cfx_forms[])(void);\n"
    "static long sys(long n, long a, long b, long c, long d) {\n"
    "  register long x8 __asm__(\"x8\") = n, x0 __asm__(\"x0\") = a, x1 __asm__(\"x1\") = b, x2 __asm__(\"x2\") = c;\n"
    "  register long x3 __asm__(\"x3\") = d;\n"
    "  __asm__ volatile(\"svc 0\" : \"+r\"(x0) : \"r\"(x8), \"r\"(x1), \"r\"(x2), \"r\"(x3) : \"memory\");\n"
    "  return x0; }\n"
    "static void all(long op, int fd, char *p, long n) { while (n > 0) { long k = sys(op, fd, (long)p, n, 0);\n"
    "  if (k <= 0) sys(93, 3, 0, 0, 0); p += k; n -= k; } }\n"
    "void cstart(long *sp) {\n"
    "  int fd = (int)sys(56, -100, sp[2], 0, 0), out = (int)sys(56, -100, sp[3], 0x241, 0644);\n"
    "  if (fd < 0 || out < 0) sys(93, 2, 0, 0, 0);\n"
    "  for (int f = 0; cfx_forms[f]; f++) for (int r = 0; r < RUNS; r++) {\n"
    "    all(63, fd, (char *)cfx_buf, 128); cfx_forms[f](); all(64, out, (char *)cfx_buf, 128); }\n"
    "  sys(93, 0, 0, 0, 0); }\n"
    "__asm__(\".globl _start\\n_start:\\n mov x0, sp\\n b cstart\\n\");\n";

static char *form_function(const Form *f, const char *name)
{
    return g_strdup_printf("\t.text\n\t.globl %s\n\t.type %s, %%function\n%s:\n adrp x0, cfx_buf\n add x0, x0, "
                           ":lo12:cfx_buf\n" LOAD "%s" STORE " ret\n", name, name, name, f->body);
}

static char *form_asm(const Form *f)
{
    g_autofree char *fn = form_function(f, "lock_acquire");
    return g_strdup_printf("%s\t.globl lock_release\n\t.type lock_release, %%function\nlock_release:\n\tret\n"
                           "\t.comm cfx_buf,128,64\n", fn);
}

static uint64_t input(GRand *r, const uint64_t *others, guint n)
{
    static const uint64_t edge[] = { 0, 1, 2, 7, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
                                     0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
                                     ~(uint64_t)0 };
    switch (g_rand_int_range(r, 0, 4)) {
    case 0: return edge[g_rand_int_range(r, 0, G_N_ELEMENTS(edge))];
    case 1: return n ? others[g_rand_int_range(r, 0, (gint32)n)] : 0;
    case 2: return (uint64_t)g_rand_int_range(r, -4, 5);
    default: return (uint64_t)g_rand_int(r) << 32 | g_rand_int(r);
    }
}

/* Builds the native program in `dir`; FALSE (skipped) without the tools. */
static gboolean build_native(const char *dir, char **prog)
{
    if (!g_find_program_in_path("aarch64-linux-gnu-gcc") || !g_find_program_in_path("qemu-aarch64")) {
        qsim_test_skip_or_fail("cfront_arm64 forms", "aarch64-linux-gnu-gcc or qemu-aarch64 is not installed");
        return FALSE;
    }
    GString *s = g_string_new("\t.bss\n\t.globl cfx_buf\n\t.align 6\ncfx_buf:\n\t.zero 128\n");
    for (guint i = 0; i < G_N_ELEMENTS(forms); i++) {
        g_autofree char *name = g_strdup_printf("cfx_%s", forms[i].name);
        g_autofree char *fn = form_function(&forms[i], name);
        /* the forms' local labels, one set per function */
        g_autofree char *prefix = g_strdup_printf(".L%s_", forms[i].name);
        g_auto(GStrv) parts = g_strsplit(fn, ".L", -1);
        g_autofree char *renamed = g_strjoinv(prefix, parts);
        g_string_append(s, renamed);
    }
    g_string_append(s, "\t.section .rodata\n\t.globl cfx_forms\n\t.align 3\ncfx_forms:\n");
    for (guint i = 0; i < G_N_ELEMENTS(forms); i++)
        g_string_append_printf(s, "\t.quad cfx_%s\n", forms[i].name);
    g_string_append(s, "\t.quad 0\n");
    g_autofree char *sfile = g_build_filename(dir, "forms.s", NULL);
    g_autofree char *cfile = g_build_filename(dir, "main.c", NULL);
    *prog = g_build_filename(dir, "forms", NULL);
    ck_assert(g_file_set_contents(sfile, s->str, -1, NULL));
    g_string_free(s, TRUE);
    ck_assert(g_file_set_contents(cfile, native_main, -1, NULL));
    g_autofree char *runs = g_strdup_printf("-DRUNS=%d", RUNS);
    char *argv[] = { "aarch64-linux-gnu-gcc", "-march=armv8.1-a", "-O1", "-static", "-nostdlib", "-ffreestanding",
                     "-fno-pic", "-no-pie", runs, cfile, sfile, "-o", *prog, NULL };
    g_autofree char *err = NULL;
    int status = 0;
    ck_assert(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, &err, &status, NULL));
    ck_assert_msg(g_spawn_check_wait_status(status, NULL), "cross compile failed:\n%s", err);
    return TRUE;
}

START_TEST(test_forms)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *prog = NULL;
    if (!build_native(dir, &prog))
        return;
    /* the inputs of every run of every form, seeded */
    gsize words = G_N_ELEMENTS(forms) * RUNS * 16;
    uint64_t *in = g_new0(uint64_t, words);
    GRand *r = g_rand_new_with_seed(0x5eed);
    for (gsize i = 0; i < words; i += 16)
        for (guint k = 0; k < 12; k++)
            in[i + k] = input(r, in + i, k);
    g_rand_free(r);
    g_autofree char *infile = g_build_filename(dir, "in", NULL);
    ck_assert(g_file_set_contents(infile, (const char *)in, (gssize)(words * 8), NULL));
    g_autofree char *outfile = g_build_filename(dir, "out", NULL);
    char *argv[] = { "qemu-aarch64", prog, infile, outfile, NULL };
    g_autofree char *out = NULL, *err = NULL;
    gsize out_len = 0;
    int status = 0;
    ck_assert(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                           &status, NULL));
    ck_assert(g_file_get_contents(outfile, &out, &out_len, NULL));
    ck_assert_msg(g_spawn_check_wait_status(status, NULL) && out_len == words * 8, "qemu-aarch64 exited %d with %zu bytes: %.*s", status, out_len,
                  200, err ? err : "");
    const uint64_t *native = (const uint64_t *)out;
    ArchTarget lse = { ARCH_ARM64, ARCH_ATOMICS_LSE, 0 };
    for (guint f = 0; f < G_N_ELEMENTS(forms); f++) {
        g_autofree char *s = form_asm(&forms[f]);
        g_autoptr(GError) e = NULL;
        g_autofree char *isa = cfront_translate_asm(s, "form.s", "form.c", lse, &e);
        ck_assert_msg(isa, "%s: %s", forms[f].name, e ? e->message : "");
        AsmSource src[] = { { "form.qs", isa, TRUE },
                            { "<h>", ".entry main\nmain:\n    call lock\n    halt\n", FALSE } };
        g_autoptr(IsaProgram) p = asm_assemble_sources(src, 2, lse, &e);
        ck_assert_msg(p, "%s: %s\n%s", forms[f].name, e ? e->message : "", isa);
        int sym = isa_program_find_sym(p, "c_cfx_buf");
        ck_assert_int_ge(sym, 0);
        for (guint run = 0; run < RUNS; run++) {
            const uint64_t *i = in + (f * RUNS + run) * 16, *want = native + (f * RUNS + run) * 16;
            InterpOptions o = { .threads = 1, .seed = 1, .max_steps = 100000 };
            g_autoptr(Interp) vm = interp_new(p, &o, &e);
            ck_assert(vm);
            uint64_t base = isa_sym_addr(interp_layout(vm), (guint)sym, 0);
            for (guint k = 0; k < 16; k++)
                ck_assert(interp_write(vm, base + 8 * k, 8, i[k]));
            ck_assert_msg(interp_run(vm) == INTERP_FINISHED, "%s: the translation did not finish", forms[f].name);
            for (guint k = 0; k < 16; k++) {
                uint64_t got = 0;
                ck_assert(interp_read(vm, base + 8 * k, 8, &got));
                ck_assert_msg(got == want[k],
                              "%s, run %u: word %u (%s) is 0x%016" G_GINT64_MODIFIER "x translated, 0x%016"
                              G_GINT64_MODIFIER "x under qemu\ninputs: %016" G_GINT64_MODIFIER "x %016"
                              G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x | %016"
                              G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x %016"
                              G_GINT64_MODIFIER "x\n%s", forms[f].name, run, k,
                              k < 4 ? "memory" : k < 12 ? "a register" : "flags", got, want[k], i[0], i[1], i[2],
                              i[3], i[4], i[5], i[6], i[7], isa);
            }
        }
    }
    g_free(in);
    rm_rf(dir);
}
END_TEST

static char *translate_error(const char *body, ArchAtomics atomics)
{
    g_autofree char *s = g_strdup_printf("\t.text\n\t.file 1 \"bad.c\"\n\t.globl lock_acquire\n\t.type lock_acquire, "
                                         "%%function\nlock_acquire:\n\t.loc 1 7 3\n%s\tret\n\t.globl lock_release\n"
                                         "\t.type lock_release, %%function\nlock_release:\n\tret\n", body);
    g_autoptr(GError) err = NULL;
    ArchTarget t = { ARCH_ARM64, atomics, 0 };
    g_autofree char *isa = cfront_translate_asm(s, "bad.s", "bad.c", t, &err);
    ck_assert_msg(isa == NULL, "translated:\n%s", isa);
    ck_assert(g_error_matches(err, CFRONT_ERROR, CFRONT_ERROR_UNSUPPORTED));
    return g_strdup(err->message);
}

/* LSE code where the machine has LL/SC only would fault there: refused, with its C line. */
START_TEST(test_lse_on_llsc_refused)
{
    g_autofree char *e = translate_error("\tcasal\tw1, w2, [x0]\n", ARCH_ATOMICS_LLSC);
    ck_assert_msg(strstr(e, "bad.c:7:3: cannot translate `casal w1, w2, [x0]` (AArch64, line 7 of the compiler's "
                            "output bad.s): an LSE (ARMv8.1) atomic on a machine whose atomics are LL/SC"), "%s", e);
    g_autofree char *e2 = translate_error("\tldaddal\tx1, x2, [x0]\n", ARCH_ATOMICS_LLSC);
    ck_assert_msg(strstr(e2, "an LSE (ARMv8.1) atomic"), "%s", e2);
}
END_TEST

START_TEST(test_flags_not_kept_refused)
{
    g_autofree char *e1 = translate_error("\tadds\tw1, w1, w2\n\tblt\t.L1\n.L1:\n", ARCH_ATOMICS_LSE);
    ck_assert_msg(strstr(e1, "bad.c:7:3: cannot translate `blt .L1` (AArch64, line 8 of the compiler's output bad.s): "
                             "the condition `lt` reads flags"), "%s", e1);
    g_autofree char *e2 = translate_error("\tcmp\tx1, x2\n\tbmi\t.L1\n.L1:\n", ARCH_ATOMICS_LSE);
    ck_assert_msg(strstr(e2, "the condition `mi`"), "%s", e2);
    g_autofree char *e3 = translate_error("\tcmp\tx1, x2\n\tbvs\t.L1\n.L1:\n", ARCH_ATOMICS_LSE);
    ck_assert_msg(strstr(e3, "`bvs` is not an instruction"), "%s", e3);
}
END_TEST

START_TEST(test_unknown_refused)
{
    g_autofree char *e1 = translate_error("\tfadd\td0, d1, d2\n", ARCH_ATOMICS_LSE);
    ck_assert_msg(strstr(e1, "bad.c:7:3: cannot translate `fadd d0, d1, d2` (AArch64, line 7 of the compiler's output "
                             "bad.s): `fadd` is not an instruction the translation knows"), "%s", e1);
    g_autofree char *e2 = translate_error("\tbl\t__aarch64_cas4_acq\n", ARCH_ATOMICS_LLSC);
    ck_assert_msg(strstr(e2, "`__aarch64_cas4_acq` is not defined in this file"), "%s", e2);
    g_autofree char *e3 = translate_error("\tbr\tx3\n", ARCH_ATOMICS_LSE);
    ck_assert_msg(strstr(e3, "`br` is not an instruction"), "%s", e3);
}
END_TEST

/* No op that does nothing (cf_peephole.c): an exclusive pair and a load-acquire write their
 * registers straight, a compare masks nothing, an LSE add reads its register unmasked.  The
 * forms above check that what remains computes the same. */
START_TEST(test_no_idle_ops)
{
    const char *s = "\t.text\n\t.globl lock_acquire\n\t.type lock_acquire, %function\nlock_acquire:\n"
                    "\tldxr\tw1, [x0]\n\tadd\tw3, w1, 1\n\tstxr\tw4, w3, [x0]\n\tcbnz\tw4, lock_acquire\n"
                    "\tldar\tw0, [x2]\n\tcmp\tw0, w1\n\tbne\tlock_acquire\n\tldadd\tw1, w1, [x0]\n\tret\n"
                    "\t.globl lock_release\n\t.type lock_release, %function\nlock_release:\n\tret\n";
    g_autoptr(GError) err = NULL;
    ArchTarget t = { ARCH_ARM64, ARCH_ATOMICS_LSE, 0 };
    g_autofree char *isa = cfront_translate_asm(s, "n.s", "n.c", t, &err);
    ck_assert_msg(isa, "%s", err ? err->message : "");
    ck_assert_msg(strstr(isa, "    # ldxr w1, [x0]\n    ldx32 r17, [r16]\n    # add"), "%s", isa);
    ck_assert_msg(strstr(isa, "    # stxr w4, w3, [x0]\n    stx32 r20, [r16], r19\n    # cbnz"), "%s", isa);
    ck_assert_msg(strstr(isa, "    # ldar w0, [x2]\n    ld32.acq r16, [r18]\n    # cmp"), "%s", isa);
    ck_assert_msg(strstr(isa, "    # cmp w0, w1\n    sext r32, r16, 32\n    sext r33, r17, 32\n    # bne"), "%s", isa);
    ck_assert_msg(strstr(isa, "    # ldadd w1, w1, [x0]\n    fadd32 r17, [r16], r17\n"), "%s", isa);
}
END_TEST

Suite *make_cfront_arm64_suite(void)
{
    Suite *s = suite_create("cfront_arm64");
    TCase *tc = tcase_create("forms");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_forms);
    tcase_add_test(tc, test_lse_on_llsc_refused);
    tcase_add_test(tc, test_flags_not_kept_refused);
    tcase_add_test(tc, test_unknown_refused);
    tcase_add_test(tc, test_no_idle_ops);
    suite_add_tcase(s, tc);
    return s;
}
