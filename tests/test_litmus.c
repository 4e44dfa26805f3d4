/* Litmus tests: the parser over herd's catalogue and ours, conditions, parse errors at
 * file:line:col, and the translation checked by running it under SC (the reference interpreter, cores/isa/interp.c), which
 * must never show an outcome that any architecture forbids. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/wait.h>
#include "sim/cli/commands.h"
#include "sim/litmus/litmus.h"
#include "tests/litmus_files.h"
#include "tests/run_qsim.h"
#include "tests/skip.h"

static guint sc_runs(void)
{
    return test_scale_quick() ? 60 : 300;
}

/* ---- every catalogue file parses and translates ---- */

static const char *const herd_archs[] = { "x86", "x86_64", "aarch64" };

START_TEST(test_herd_catalogue_translates)
{
    g_autofree char *test = g_strdup_printf("litmus/test_herd_catalogue_translates (%s)", herd_archs[_i]);
    if (!herd_catalogue_or_skip(test))
        return;
    g_autofree char *dir = g_build_filename(herd_dir(), herd_archs[_i], NULL);
    g_autoptr(GPtrArray) files = litmus_files(dir);
    ck_assert_msg(files != NULL, "%s is missing", dir);
    guint ok = 0, stubs = 0;
    for (guint i = 0; i < files->len; i++) {
        const char *f = files->pdata[i];
        g_autoptr(GError) e = NULL;
        g_autoptr(LitmusTest) t = litmus_parse_file(f, &e);
        g_autoptr(LitmusProgram) p = t ? litmus_translate(t, &e) : NULL;
        if (!p && e && strstr(e->message, "symbolic-link stub")) {
            /* A file that is only the path of a missing target (a link lost in a copy): it has
             * no test in it, and saying so is the right answer. */
            stubs++;
            continue;
        }
        ck_assert_msg(p != NULL, "%s: %s", f, e ? e->message : "?");
        ck_assert_uint_ge(p->prog->insns->len, t->nthreads + 1);
        ok++;
    }
    ck_assert_uint_ge(ok, 20);
    ck_assert_uint_le(stubs, 1);
}
END_TEST

static const char *const our_archs[] = { "x86", "aarch64" };

START_TEST(test_our_catalogue)
{
    guint total = 0;
    for (guint a = 0; a < G_N_ELEMENTS(our_archs); a++) {
        g_autofree char *dir = g_build_filename(test_srcdir(), "tests", "litmus", our_archs[a], NULL);
        g_autoptr(GPtrArray) files = litmus_files(dir);
        ck_assert_msg(files != NULL, "%s is missing", dir);
        g_autofree char *kpath = g_build_filename(dir, "kinds.txt", NULL);
        GError *e = NULL;
        g_autoptr(GHashTable) kinds = litmus_kinds_load(kpath, &e);
        ck_assert_msg(kinds != NULL, "%s", e ? e->message : "");
        g_autoptr(GHashTable) names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        for (guint i = 0; i < files->len; i++) {
            g_autoptr(LitmusTest) t = litmus_parse_file(files->pdata[i], &e);
            ck_assert_msg(t != NULL, "%s", e ? e->message : "");
            g_autoptr(LitmusProgram) p = litmus_translate(t, &e);
            ck_assert_msg(p != NULL, "%s", e ? e->message : "");
            g_autofree char *base = g_path_get_basename(files->pdata[i]);
            base[strlen(base) - 7] = '\0';
            ck_assert_msg(!strcmp(base, t->name), "%s: the test is named %s", (char *)files->pdata[i], t->name);
            ck_assert_msg(g_hash_table_contains(kinds, t->name), "%s has no verdict in %s", t->name, kpath);
            g_hash_table_add(names, g_strdup(t->name));
            total++;
        }
        GHashTableIter it;
        gpointer k;
        g_hash_table_iter_init(&it, kinds);
        while (g_hash_table_iter_next(&it, &k, NULL))
            ck_assert_msg(g_hash_table_contains(names, k), "%s names %s, which has no file", kpath, (char *)k);
    }
    ck_assert_uint_ge(total, 40);
}
END_TEST

/* ---- under SC, nothing forbidden happens ---- */

/* Runs every test of `dir` with a kinds entry (or, with kinds NULL, every test, all of whose
 * conditions are non-SC cycles) and checks Forbidden -> never, Required -> always. */
static void check_sc_dir(const char *dir, const char *kinds_path, gboolean all_non_sc)
{
    g_autoptr(GPtrArray) files = litmus_files(dir);
    ck_assert_msg(files != NULL, "%s is missing", dir);
    g_autoptr(GHashTable) kinds = NULL;
    GError *e = NULL;
    if (kinds_path) {
        kinds = litmus_kinds_load(kinds_path, &e);
        ck_assert_msg(kinds != NULL, "%s", e ? e->message : "");
    }
    g_autoptr(LitmusExecutor) sc = litmus_interp_executor_new();
    LitmusRunOptions o = { sc_runs(), 7 };
    guint checked = 0;
    for (guint i = 0; i < files->len; i++) {
        g_autoptr(LitmusTest) t = litmus_parse_file(files->pdata[i], NULL);
        if (!t)
            continue;   /* the translation test reports these */
        g_autoptr(LitmusProgram) p = litmus_translate(t, &e);
        ck_assert_msg(p != NULL, "%s", e ? e->message : "");
        LitmusKind k = all_non_sc ? LK_FORBIDDEN : LK_NONE;
        gpointer v;
        if (kinds && g_hash_table_lookup_extended(kinds, t->name, NULL, &v))
            k = (LitmusKind)GPOINTER_TO_INT(v);
        gboolean is_sb = !strcmp(t->name, "SB");
        if (k != LK_FORBIDDEN && k != LK_REQUIRED && !is_sb)
            continue;
        g_autoptr(LitmusResult) r = litmus_run_test(t, p, sc, &o, &e);
        ck_assert_msg(r != NULL, "%s", e ? e->message : "");
        if (is_sb) {
            ck_assert_msg(r->positive == 0, "%s: SC showed store buffering", (char *)files->pdata[i]);
            /* ...while interleaving for real: SC's three outcomes of SB all show up. */
            ck_assert_msg(r->states->len == 3, "%s: %u states under SC", (char *)files->pdata[i], r->states->len);
        }
        if (k == LK_FORBIDDEN || k == LK_REQUIRED) {
            litmus_result_check(r, k);
            g_autofree char *txt = litmus_result_text(r);
            ck_assert_msg(r->expect_ok, "%s: %s failed under SC:\n%s", (char *)files->pdata[i],
                          litmus_kind_name(k), txt);
        }
        checked++;
    }
    ck_assert_uint_gt(checked, 0);
}

START_TEST(test_sc_herd_catalogue)
{
    if (!herd_catalogue_or_skip("litmus/test_sc_herd_catalogue"))
        return;
    /* x86 has no kinds.txt; all its tests are diy cycles that SC cannot show. */
    g_autofree char *x86 = g_build_filename(herd_dir(), "x86", NULL);
    check_sc_dir(x86, NULL, TRUE);
    for (guint a = 1; a < G_N_ELEMENTS(herd_archs); a++) {
        g_autofree char *dir = g_build_filename(herd_dir(), herd_archs[a], NULL);
        g_autofree char *k = g_build_filename(dir, "kinds.txt", NULL);
        check_sc_dir(dir, k, FALSE);
    }
}
END_TEST

START_TEST(test_sc_our_catalogue)
{
    for (guint a = 0; a < G_N_ELEMENTS(our_archs); a++) {
        g_autofree char *dir = g_build_filename(test_srcdir(), "tests", "litmus", our_archs[a], NULL);
        g_autofree char *k = g_build_filename(dir, "kinds.txt", NULL);
        check_sc_dir(dir, k, FALSE);
    }
}
END_TEST

/* ---- conditions ---- */

static const struct {
    const char *cond;
    const char *state;     /* "obs=value;..." for every observable */
    gboolean want;
} cond_cases[] = {
    { "0:X0=1 /\\ 1:X0=1", "0:X0=1;1:X0=1", TRUE },
    { "0:X0=1 /\\ 1:X0=1", "0:X0=1;1:X0=0", FALSE },
    { "0:X0=1 \\/ 1:X0=1", "0:X0=0;1:X0=1", TRUE },
    { "~(0:X0=1)", "0:X0=1", FALSE },
    { "~0:X0=1 /\\ x=2", "0:X0=0;x=2", TRUE },
    { "x=2 => y=1", "x=1;y=0", TRUE },
    { "x=2 => y=1", "x=2;y=0", FALSE },
    { "x=2 => y=1 => z=1", "x=2;y=1;z=0", FALSE },
    { "[x]=2 /\\ [y]=-1", "x=2;y=-1", TRUE },
    { "true", "", TRUE },
    { "false \\/ 0:W3=7", "0:X3=7", TRUE },
    { "0: X3 = 1 /\\ (1:X1=0 \\/ 1:X1=2)", "0:X3=1;1:X1=2", TRUE },
    { "0:X0!=1", "0:X0=1", FALSE },
    { "1:X2=0x10", "1:X2=16", TRUE },
    { "a=1 \\/ b=1 /\\ c=1", "a=1;b=0;c=0", TRUE },  /* /\ binds tighter than \/ */
    { "(a=1 \\/ b=1) /\\ c=1", "a=1;b=0;c=0", FALSE },
};

START_TEST(test_conditions)
{
    g_autoptr(GPtrArray) obs = g_ptr_array_new_with_free_func((GDestroyNotify)litmus_obs_free);
    GError *e = NULL;
    LitmusCond *c = litmus_cond_parse(cond_cases[_i].cond, LITMUS_AARCH64, obs, "c", 1, 1, &e);
    ck_assert_msg(c != NULL, "%s: %s", cond_cases[_i].cond, e ? e->message : "");
    g_autofree uint64_t *val = g_new0(uint64_t, obs->len + 1);
    g_auto(GStrv) pairs = g_strsplit(cond_cases[_i].state, ";", -1);
    for (guint k = 0; pairs[k] && *pairs[k]; k++) {
        g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func((GDestroyNotify)litmus_obs_free);
        g_autofree char *atom = g_strdup(pairs[k]);
        LitmusCond *a = litmus_cond_parse(atom, LITMUS_AARCH64, one, "s", 1, 1, &e);
        ck_assert_msg(a && a->kind == LC_ATOM, "bad state '%s'", pairs[k]);
        const LitmusObs *o = one->pdata[0];
        for (guint i = 0; i < obs->len; i++) {
            const LitmusObs *p = obs->pdata[i];
            if (p->thread == o->thread && !strcmp(p->name, o->name))
                val[i] = (uint64_t)a->value;
        }
        litmus_cond_free(a);
    }
    gboolean got = litmus_cond_eval(c, val, NULL, NULL, NULL);
    ck_assert_msg(got == cond_cases[_i].want, "%s with %s: got %d", cond_cases[_i].cond, cond_cases[_i].state, got);
    /* Printing and parsing again gives the same verdict. */
    g_autofree char *text = litmus_cond_to_string(c, obs);
    LitmusCond *again = litmus_cond_parse(text, LITMUS_AARCH64, obs, "c", 1, 1, &e);
    ck_assert_msg(again != NULL, "%s", text);
    ck_assert_int_eq(litmus_cond_eval(again, val, NULL, NULL, NULL), got);
    litmus_cond_free(again);
    litmus_cond_free(c);
}
END_TEST

/* x86 register names: Intel EAX, AT&T %eax and the conditions' rax are one register. */
START_TEST(test_register_names)
{
    int w;
    ck_assert_str_eq(litmus_reg_canonical(LITMUS_X86_64, "%eax", &w), "ax");
    ck_assert_int_eq(w, 4);
    ck_assert_str_eq(litmus_reg_canonical(LITMUS_X86_64, "rax", &w), "ax");
    ck_assert_int_eq(w, 8);
    ck_assert_str_eq(litmus_reg_canonical(LITMUS_X86, "EBX", &w), "bx");
    ck_assert_ptr_null(litmus_reg_canonical(LITMUS_X86, "RAX", &w));
    ck_assert_str_eq(litmus_reg_canonical(LITMUS_AARCH64, "W17", &w), "X17");
    ck_assert_int_eq(w, 4);
    ck_assert_ptr_null(litmus_reg_canonical(LITMUS_AARCH64, "X31", &w));
    ck_assert_ptr_null(litmus_reg_canonical(LITMUS_AARCH64, "X01", &w));
}
END_TEST

/* ---- errors at file:line:col ---- */

#define PARENS10 "(((((((((("
#define PARENS70 PARENS10 PARENS10 PARENS10 PARENS10 PARENS10 PARENS10 PARENS10
#define NOTS10 "~~~~~~~~~~"
#define NOTS70 NOTS10 NOTS10 NOTS10 NOTS10 NOTS10 NOTS10 NOTS10

static const struct {
    const char *title;
    const char *text;
    const char *want;
} error_cases[] = {
    { "unknown arch", "PPC SB\n{}\n P0 ;\n nop ;\nexists (x=0)\n", "t.litmus:1:1: unsupported architecture 'PPC'" },
    { "no name", "X86\n{}\n", "t.litmus:1:4: expected the test's name" },
    { "junk before init", "X86 T\nhello world\n{}\n", "t.litmus:2:1: expected the initial state" },
    { "bad init register", "AArch64 T\n{ 0:Q1=x; }\n P0 ;\n NOP ;\nexists (x=0)\n", "t.litmus:2:5: 'Q1' is not a AArch64 register" },
    { "init entries need ;", "AArch64 T\n{ x=1 y=2 }\n P0 ;\n NOP ;\nexists (x=0)\n", "t.litmus:2:7: expected ';'" },
    { "bad header", "X86 T\n{}\n P0 | P2 ;\nexists (x=0)\n", "t.litmus:3:7: expected 'P1' in the thread header, got 'P2'" },
    { "row without ;", "X86 T\n{}\n P0 ;\n MOV [x],$1\nexists (x=0)\n", "t.litmus:4:12: expected ';' at the end of the code row" },
    { "too many columns", "X86 T\n{}\n P0 ;\n MOV [x],$1 | MFENCE ;\nexists (x=0)\n", "t.litmus:4:15: more columns than threads" },
    { "no condition", "X86 T\n{}\n P0 ;\n MOV [x],$1 ;\n", "t.litmus:5:1: expected a final condition" },
    { "bad condition", "X86 T\n{}\n P0 ;\n MOV [x],$1 ;\nexists (x=1 /\\ )\n", "t.litmus:5:16: expected a register (P:REG) or a location" },
    { "unclosed paren", "X86 T\n{}\n P0 ;\n MOV [x],$1 ;\nexists (x=1\n", "t.litmus:6:1: expected ')'" },
    { "junk after condition", "X86 T\n{}\n P0 ;\n MOV [x],$1 ;\nexists (x=1) foo\n", "t.litmus:5:14: unexpected text after the condition" },
    { "unknown thread", "X86 T\n{}\n P0 ;\n MOV [x],$1 ;\nexists (3:EAX=1)\n", "thread 3 does not exist" },
    { "unterminated comment", "X86 T\n(* oops\n{}\n", "t.litmus:2:1: unterminated comment" },
    { "x86 unknown insn", "X86 T\n{}\n P0          ;\n MOV [x],$1  ;\n FOO EAX     ;\nexists (x=1)\n", "t.litmus:5:2: unsupported X86 instruction 'foo'" },
    { "arm unknown insn", "AArch64 T\n{ 0:X1=x; }\n P0 | P1 ;\n NOP | LDR W0,[X1] ;\n NOP | LDEOR W0,W1,[X1] ;\nexists (x=1)\n", "t.litmus:5:8: unsupported AArch64 instruction 'LDEOR'" },
    { "arm bad operand", "AArch64 T\n{ 0:X1=x; }\n P0 ;\n STR W0,[Q1] ;\nexists (x=1)\n", "t.litmus:4:10: expected an X base register" },
    { "arm bad barrier", "AArch64 T\n{}\n P0 ;\n DMB FOO ;\nexists (x=1)\n", "t.litmus:4:6: unsupported barrier option 'FOO'" },
    { "missing label", "AArch64 T\n{}\n P0 ;\n B nowhere ;\nexists (x=1)\n", "t.litmus:4:4: no label 'nowhere' in P0" },
    { "B.EQ without CMP", "AArch64 T\n{}\n P0 ;\n B.EQ L ;\n L: ;\nexists (x=1)\n", "t.litmus:4:2: B.EQ with no CMP before it" },
    { "x86 64-bit in X86", "X86 T\n{}\n P0 ;\n MOV RAX,$1 ;\nexists (x=1)\n", "t.litmus:4:6: unsupported operand 'RAX'" },
    { "AT&T bad memory", "X86_64 T\n{}\n P0 ;\n movl $1,[x] ;\nexists (x=1)\n", "t.litmus:4:10: unsupported operand '[x]'" },
    { "LOCK on a fence", "X86 T\n{}\n P0 ;\n LOCK MFENCE ;\nexists (x=1)\n", "t.litmus:4:2: LOCK cannot prefix mfence" },
    { "x86 operand count", "X86 T\n{}\n P0 ;\n INC EAX,EBX ;\nexists (x=1)\n", "t.litmus:4:2: inc takes 1 operand, got 2" },
    { "arm branch condition", "AArch64 T\n{}\n P0 ;\n CMP X0,#1 ;\n B.GT L ;\n L: ;\nexists (x=1)\n",
      "t.litmus:5:2: unsupported condition 'B.GT' (B.EQ or B.NE)" },
    { "xadd without lock", "X86 T\n{}\n P0 ;\n XADD [x],EAX ;\nexists (x=1)\n", "t.litmus:4:2: xadd without LOCK is not atomic" },
    /* found by make fuzz: XCHG of a register with an immediate read the immediate as memory (NULL base) */
    { "xchg with an immediate", "X86 T\n{}\n P0 ;\n XCHG EAX,$1 ;\nexists (x=1)\n",
      "t.litmus:4:2: XCHG needs a register or memory operand and a register" },
    { "xchg with an immediate, AT&T", "X86_64 T\n{}\n P0 ;\n xchg $1,%rcx ;\nexists (x=1)\n",
      "t.litmus:4:2: XCHG needs a register or memory operand and a register" },
    /* numbers that do not fit are refused, never cut (they used to store 4294967295, print -1) */
    { "immediate past 64 bits", "X86 T\n{}\n P0 ;\n MOV [x],$99999999999999999999999 ;\nexists (x=1)\n",
      "t.litmus:4:10: bad immediate '$99999999999999999999999'" },
    { "immediate past 32 bits", "X86 T\n{}\n P0 ;\n MOV [x],$4294967296 ;\nexists (x=1)\n",
      "t.litmus:4:10: immediate $4294967296 does not fit in 32 bits" },
    { "init value past 64 bits", "X86 T\n{ x=18446744073709551617; }\n P0 ;\n MOV EAX,[x] ;\nexists (x=1)\n",
      "t.litmus:2:5: 18446744073709551617: does not fit in 64 bits" },
    { "condition value past 64 bits", "X86 T\n{}\n P0 ;\n MOV EAX,[x] ;\nexists (x=99999999999999999999)\n",
      "t.litmus:5:11: 99999999999999999999: does not fit in 64 bits" },
    { "negative thread in the initial state", "X86 T\n{ -1:EAX=1; }\n P0 ;\n MOV EAX,[x] ;\nexists (x=1)\n",
      "t.litmus:2:3: bad thread number (0 to 63)" },
    { "negative thread in the condition", "X86 T\n{}\n P0 ;\n MOV EAX,[x] ;\nexists (-1:EAX=1)\n",
      "t.litmus:5:9: bad thread number (0 to 63)" },
    { "location initialised twice", "X86 T\n{ x=1; x=2; }\n P0 ;\n MOV EAX,[x] ;\nexists (x=1)\n",
      "t.litmus:2:8: x is initialised twice (first at 2:3)" },
    { "register initialised twice", "AArch64 T\n{ 0:X1=x; 0:X1=y; }\n P0 ;\n LDR W0,[X1] ;\nexists (x=1)\n",
      "t.litmus:2:11: 0:X1 is initialised twice (first at 2:3)" },
    { "too many registers",
      "AArch64 T\n{}\n P0 ;\n ADD X0,X1,X2 ;\n ADD X3,X4,X5 ;\n ADD X6,X7,X8 ;\n ADD X9,X10,X11 ;\n ADD X12,X13,X14 ;\n ADD X15,X16,X17 ;\nexists (x=1)\n",
      "t.litmus:9:2: P0 needs more than 16 registers" },
    /* found by fuzzing: an empty `[]` was read past its end */
    { "empty memory operand", "X86 T\n{}\n P0 ;\n MOV [],$1 ;\nexists (x=1)\n",
      "t.litmus:4:6: unsupported memory operand '[]'" },
    { "empty AT&T memory operand", "X86_64 T\n{}\n P0 ;\n movl $1,() ;\nexists (x=1)\n",
      "t.litmus:4:10: unsupported memory operand '()'" },
    /* Conditions are walked by recursion: their nesting and length are bounded (200k `(`
     * overflowed the stack). */
    { "condition nested too deep", "X86 T\n{}\n P0 ;\n MOV [x],$1 ;\nexists " PARENS70 "x=1" ")\n",
      "t.litmus:5:72: a condition nested deeper than 64 levels" },
    { "negations nested too deep", "X86 T\n{}\n P0 ;\n MOV [x],$1 ;\nexists " NOTS70 "x=1\n",
      "t.litmus:5:72: a condition nested deeper than 64 levels" },
};

/* More terms than a condition may have; tens of thousands of locations still parse at once
 * (looking each up among all the others took seconds). */
START_TEST(test_condition_and_init_sizes)
{
    GString *s = g_string_new("X86 T\n{}\n P0 ;\n MOV [x],$1 ;\nexists (x=1");
    for (guint i = 0; i < 1000; i++)
        g_string_append(s, " /\\ x=1");
    g_string_append(s, ")\n");
    g_autoptr(GError) e = NULL;
    LitmusTest *t = litmus_parse_string(s->str, "t.litmus", &e);
    ck_assert_ptr_null(t);
    ck_assert_msg(strstr(e->message, "a condition of more than 1000 terms"), "%s", e->message);
    g_string_truncate(s, 0);
    g_string_append(s, "X86 T\n{");
    for (guint i = 0; i < 50000; i++)
        g_string_append_printf(s, " x%u=%u;", i, i);
    g_string_append(s, " x7=1; }\n P0 ;\n MOV [x0],$1 ;\nexists (x0=1)\n");
    g_clear_error(&e);
    t = litmus_parse_string(s->str, "t.litmus", &e);
    ck_assert_ptr_null(t);
    ck_assert_msg(strstr(e->message, "x7 is initialised twice"), "%s", e->message);
    g_string_free(s, TRUE);
}
END_TEST

START_TEST(test_parse_errors)
{
    GError *e = NULL;
    LitmusTest *t = litmus_parse_string(error_cases[_i].text, "t.litmus", &e);
    LitmusProgram *p = t ? litmus_translate(t, &e) : NULL;
    ck_assert_msg(p == NULL, "%s: no error", error_cases[_i].title);
    ck_assert_msg(e && strstr(e->message, error_cases[_i].want), "%s: got '%s', want '%s'", error_cases[_i].title,
                  e ? e->message : "(none)", error_cases[_i].want);
    g_error_free(e);
    litmus_test_free(t);
}
END_TEST

/* A kinds file naming a test twice is refused (the second verdict used to win silently). */
START_TEST(test_kinds_listed_twice)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-kinds-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "kinds.txt", NULL);
    ck_assert(g_file_set_contents(path, "SB Allowed\nMP Forbidden\nSB.litmus Forbidden\n", -1, NULL));
    GError *e = NULL;
    ck_assert_ptr_null(litmus_kinds_load(path, &e));
    ck_assert_msg(e && g_str_has_suffix(e->message, "kinds.txt:3: SB is listed twice (first on line 1)"), "%s",
                  e ? e->message : "");
    g_error_free(e);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

START_TEST(test_unreadable_file)
{
    GError *e = NULL;
    ck_assert_ptr_null(litmus_parse_file("/nonexistent/x.litmus", &e));
    ck_assert(g_error_matches(e, LITMUS_ERROR, LITMUS_ERROR_IO));
    g_error_free(e);
}
END_TEST

/* ---- translation checked by running ---- */

/* Runs `text` under SC and returns the number of runs satisfying its condition (of `runs`). */
static guint64 run_sc_text(const char *text, guint runs, LitmusResult **keep)
{
    GError *e = NULL;
    g_autoptr(LitmusTest) t = litmus_parse_string(text, "inline.litmus", &e);
    ck_assert_msg(t != NULL, "%s", e ? e->message : "");
    g_autoptr(LitmusProgram) p = litmus_translate(t, &e);
    ck_assert_msg(p != NULL, "%s", e ? e->message : "");
    g_autoptr(LitmusExecutor) sc = litmus_interp_executor_new();
    LitmusRunOptions o = { runs, 3 };
    LitmusResult *r = litmus_run_test(t, p, sc, &o, &e);
    ck_assert_msg(r != NULL, "%s", e ? e->message : "");
    guint64 pos = r->positive;
    if (keep)
        *keep = r;
    else
        litmus_result_free(r);
    return pos;
}

/* CSEL, branch-free, for equal and unequal compares, W and X forms, EQ and NE. */
static const struct {
    const char *init;      /* P0's registers */
    const char *code;
    const char *cond;
} csel_cases[] = {
    { "0:X0=5; 0:X1=5; 0:X3=11; 0:X4=22;", "CMP X0,X1 ; CSEL X2,X3,X4,EQ", "0:X2=11" },
    { "0:X0=5; 0:X1=6; 0:X3=11; 0:X4=22;", "CMP X0,X1 ; CSEL X2,X3,X4,EQ", "0:X2=22" },
    { "0:X0=5; 0:X1=6; 0:X3=11; 0:X4=22;", "CMP X0,X1 ; CSEL X2,X3,X4,NE", "0:X2=11" },
    { "0:X0=5; 0:X1=5; 0:X3=11; 0:X4=22;", "CMP X0,X1 ; CSEL X2,X3,X4,NE", "0:X2=22" },
    { "0:X0=7; 0:X3=11;", "CMP W0,#7 ; CSEL W2,W3,WZR,EQ", "0:X2=11" },
    { "0:X0=0x100000007; 0:X3=11;", "CMP W0,#7 ; CSEL W2,W3,WZR,EQ", "0:X2=11" },  /* W compares the low half */
    { "0:X0=0x100000007; 0:X3=11;", "CMP X0,#7 ; CSEL W2,W3,WZR,EQ", "0:X2=0" },
    { "0:X0=0; 0:X1=0x8000000000000000; 0:X3=1; 0:X4=2;", "CMP X0,X1 ; CSEL X2,X3,X4,EQ", "0:X2=2" },
    { "0:X3=0x1ffffffff; 0:X4=2;", "CMP W0,#0 ; CSEL W2,W3,W4,EQ", "0:X2=0xffffffff" },
};

START_TEST(test_csel)
{
    g_autofree char *code = g_strdup(csel_cases[_i].code);
    g_auto(GStrv) insns = g_strsplit(code, ";", -1);
    GString *s = g_string_new("AArch64 csel\n{ ");
    g_string_append_printf(s, "%s }\n P0 ;\n", csel_cases[_i].init);
    for (guint k = 0; insns[k]; k++)
        g_string_append_printf(s, " %s ;\n", g_strstrip(insns[k]));
    g_string_append_printf(s, "forall (%s)\n", csel_cases[_i].cond);
    ck_assert_msg(run_sc_text(s->str, 3, NULL) == 3, "CSEL case %d:\n%s", _i, s->str);
    g_string_free(s, TRUE);
}
END_TEST

/* Values and widths through the translation: W results truncated, sign-extended indexes,
 * post-index write-back, x86 partial registers, pointers in the initial state. */
static const struct {
    const char *title;
    const char *text;
} value_cases[] = {
    { "W truncation", "AArch64 T\n{ 0:X1=0xffffffff; }\n P0 ;\n ADD W2,W1,#1 ;\n ADD X3,X1,#1 ;\nforall (0:X2=0 /\\ 0:X3=0x100000000)\n" },
    { "SXTW index", "AArch64 T\n{ int x=7; 0:X1=x; 0:X2=-8; }\n P0 ;\n ADD X5,X1,#8 ;\n LDR W3,[X5,W2,SXTW] ;\nforall (0:X3=7)\n" },
    { "post-index", "AArch64 T\n{ 0:X1=x; }\n P0 ;\n MOV W0,#3 ;\n STR W0,[X1],#4 ;\n SUB X4,X1,#4 ;\n LDR W5,[X4] ;\nforall (x=3 /\\ 0:X5=3)\n" },
    { "pointer init", "AArch64 T\n{ int x=5; int *p=&x; 0:X1=p; }\n P0 ;\n LDR X2,[X1] ;\n LDR W3,[X2] ;\nforall (0:X3=5 /\\ 0:X2=x)\n" },
    { "x86 partial register", "X86_64 T\n{ 0:rax=0x1234; }\n P0 ;\n movb $0x56,%al ;\n movw $7,%bx ;\nforall (0:rax=0x1256 /\\ 0:rbx=7)\n" },
    { "x86 32-bit zero-extends", "X86_64 T\n{ 0:rax=-1; }\n P0 ;\n movl $5,%eax ;\nforall (0:rax=5)\n" },
    { "x86 mem ALU", "X86 T\n{ x=3; }\n P0 ;\n MOV EAX,$4 ;\n ADD [x],EAX ;\n XOR EBX,EBX ;\n INC EBX ;\nforall (x=7 /\\ 0:EBX=1)\n" },
    { "x86 locked sub", "X86 T\n{ x=10; }\n P0 ;\n MOV ECX,$3 ;\n LOCK SUB [x],ECX ;\n LOCK DEC [x] ;\nforall (x=6)\n" },
    { "x86_64 cmpq sees 64 bits", "X86_64 T\n{ 0:rax=0x100000003; }\n P0 ;\n cmpq $3,%rax ;\n jz skip ;\n movl $9,%ebx ;\n skip: ;\nforall (0:rbx=9)\n" },
    { "x86_64 cmpl sees 32", "X86_64 T\n{ 0:rax=0x100000003; 0:rbx=1; }\n P0 ;\n cmpl $3,%eax ;\n jz skip ;\n movl $9,%ebx ;\n skip: ;\nforall (0:rbx=1)\n" },
    { "x86 cmp/jne", "X86 T\n{ x=2; }\n P0 ;\n MOV EAX,[x] ;\n CMP EAX,$2 ;\n JNE skip ;\n MOV EBX,$9 ;\n skip: ;\nforall (0:EBX=9)\n" },
    { "LDCLR/LDSET", "AArch64 T\n{ x=0xff; 0:X1=x; }\n P0 ;\n MOV W0,#0x0f ;\n LDCLR W0,W2,[X1] ;\n MOV W0,#0x100 ;\n STSET W0,[X1] ;\nforall (x=0x1f0 /\\ 0:X2=0xff)\n" },
    { "CAS fails", "AArch64 T\n{ x=4; 0:X1=x; }\n P0 ;\n MOV W0,#3 ;\n MOV W2,#9 ;\n CAS W0,W2,[X1] ;\nforall (x=4 /\\ 0:X0=4)\n" },
    /* a value compares in the observable's width: -1 in a 32-bit location is 0xffffffff */
    { "x=-1 on an int", "X86 T\n{ x=0; }\n P0 ;\n MOV [x],$-1 ;\n MOV EAX,[x] ;\nforall (x=-1 /\\ 0:EAX=-1 /\\ x=0xffffffff)\n" },
    { "most negative value", "X86_64 T\n{ int64_t x=-9223372036854775808; }\n P0 ;\n movq (x),%rax ;\n"
                             "forall (0:rax=-9223372036854775808 /\\ x=0x8000000000000000)\n" },
    { "filter", "AArch64 T\n{ 0:X1=x; 1:X1=x; }\n P0 | P1 ;\n MOV W0,#1 | LDR W0,[X1] ;\n STR W0,[X1] | ;\nfilter 1:X0=1\nforall (x=1)\n" },
};

START_TEST(test_values)
{
    LitmusResult *r = NULL;
    guint64 pos = run_sc_text(value_cases[_i].text, 40, &r);
    ck_assert_msg(pos == r->runs - r->filtered && pos > 0, "%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT,
                  value_cases[_i].title, pos, r->runs - r->filtered);
    litmus_result_free(r);
}
END_TEST

/* The runner: histogram keys, sorting, witnesses for forall, determinism by seed. */
START_TEST(test_runner_histogram)
{
    const char *sb = "X86 SB\n{}\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EAX,[x] ;\n"
                     "locations [x;]\nexists (0:EAX=0 /\\ 1:EAX=0)\n";
    LitmusResult *r = NULL;
    ck_assert_uint_eq(run_sc_text(sb, 200, &r), 0);
    ck_assert_uint_eq(r->states->len, 3);
    ck_assert_str_eq(((LitmusState *)r->states->pdata[0])->key, "x=1; 0:EAX=0; 1:EAX=1;");
    for (guint i = 1; i < r->states->len; i++)
        ck_assert_int_lt(strcmp(((LitmusState *)r->states->pdata[i - 1])->key, ((LitmusState *)r->states->pdata[i])->key), 0);
    ck_assert(!r->observed && !r->validated);
    g_autofree char *txt = litmus_result_text(r);
    ck_assert_msg(strstr(txt, "Observation SB Never 0 200") && strstr(txt, "\nNo\n"), "%s", txt);
    litmus_result_free(r);
    /* forall: the witnesses are the runs that break it. */
    const char *fa = "X86 F\n{}\n P0 | P1 ;\n MOV [x],$1 | MOV [x],$2 ;\nforall (x=1)\n";
    ck_assert_uint_gt(run_sc_text(fa, 200, &r), 0);
    ck_assert_uint_eq(r->witnesses, 200 - r->positive);
    ck_assert(r->observed && !r->validated);
    litmus_result_free(r);
}
END_TEST

/* ---- the job: --expect, exit codes, JSON ---- */

static char *write_tmp(const char *dir, const char *name, const char *text)
{
    char *path = g_build_filename(dir, name, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return path;
}

/* The job's notes as one text, for strstr. */
static char *notes_text(GPtrArray *notes)
{
    g_ptr_array_add(notes, NULL);
    char *s = g_strjoinv("\n", (char **)notes->pdata);
    g_ptr_array_remove_index(notes, notes->len - 1);
    return s;
}

START_TEST(test_job)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-litmus-XXXXXX", NULL);
    /* SC shows 0:EAX=1 in some runs and not in others. */
    g_autofree char *t1 = write_tmp(dir, "Seen.litmus",
        "X86 Seen\n{}\n P0 | P1 ;\n MOV EAX,[x] | MOV [x],$1 ;\nexists (0:EAX=1)\n");
    g_autofree char *t2 = write_tmp(dir, "Never.litmus",
        "X86 Never\n{}\n P0 ;\n MOV [x],$1 ;\nexists (x=2)\n");
    g_autofree char *kbad = write_tmp(dir, "bad.txt", "Seen Forbidden\nNever Forbid\n");
    g_autofree char *kok = write_tmp(dir, "ok.txt", "# ours\nSeen Allowed\nNever.litmus Forbidden\n\n");
    g_autoptr(LitmusExecutor) sc = litmus_interp_executor_new();
    const char *files[] = { t1, t2, NULL };
    GError *e = NULL;
    g_autoptr(GHashTable) bad = litmus_kinds_load(kbad, &e);
    g_autoptr(GHashTable) ok = litmus_kinds_load(kok, &e);
    ck_assert(bad && ok);
    LitmusJob job = { .run = { 100, 5 }, .kinds = bad };
    g_autoptr(GString) out = g_string_new(NULL);
    g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
    ck_assert_int_eq(litmus_job_run(files, &job, sc, out, notes), LITMUS_JOB_FAILED);
    g_autofree char *n1 = notes_text(notes);
    ck_assert_msg(strstr(n1, "Seen: Forbidden, but its condition was observed"), "%s", n1);
    ck_assert_msg(!strstr(n1, "Never:"), "%s", n1);
    /* A failed check stops nothing: the test after it ran too. */
    ck_assert_msg(strstr(out->str, "Test Seen Forbidden") && strstr(out->str, "Test Never Forbidden"), "%s", out->str);
    g_string_truncate(out, 0);
    g_ptr_array_set_size(notes, 0);
    job.kinds = ok;
    job.json = TRUE;
    ck_assert_int_eq(litmus_job_run(files, &job, sc, out, notes), LITMUS_JOB_OK);
    ck_assert_uint_eq(notes->len, 0);
    g_autoptr(JsonParser) jp = json_parser_new();
    ck_assert_msg(json_parser_load_from_data(jp, out->str, -1, NULL), "%s", out->str);
    JsonArray *arr = json_node_get_array(json_parser_get_root(jp));
    ck_assert_uint_eq(json_array_get_length(arr), 2);
    JsonObject *o = json_array_get_object_element(arr, 0);
    ck_assert_str_eq(json_object_get_string_member(o, "name"), "Seen");
    ck_assert_str_eq(json_object_get_string_member(o, "arch"), "X86");
    ck_assert_int_eq(json_object_get_int_member(o, "runs"), 100);
    ck_assert_str_eq(json_object_get_string_member(o, "condition"), "exists (0:EAX=1)");
    ck_assert(json_object_get_boolean_member(o, "observed"));
    gint64 w = json_object_get_int_member(o, "witnesses");
    JsonObject *states = json_object_get_object_member(o, "states");
    ck_assert_int_eq(json_object_get_int_member(states, "0:EAX=1;"), w);
    ck_assert_int_eq(json_object_get_int_member(states, "0:EAX=0;") + w, 100);
    ck_assert(!json_object_get_boolean_member(json_array_get_object_element(arr, 1), "observed"));
    /* Same seed, same report. */
    g_autoptr(GString) again = g_string_new(NULL);
    ck_assert_int_eq(litmus_job_run(files, &job, sc, again, notes), LITMUS_JOB_OK);
    ck_assert_str_eq(again->str, out->str);
    /* Unreadable input: named, skipped, and 2 at the end; the readable test still runs, and
     * alone it is one object, not an array. */
    const char *missing[] = { "/nonexistent.litmus", t1, NULL };
    g_string_truncate(out, 0);
    ck_assert_int_eq(litmus_job_run(missing, &job, sc, out, notes), LITMUS_JOB_BAD_INPUT);
    ck_assert_uint_eq(notes->len, 1);
    ck_assert_msg(strstr(notes->pdata[0], "/nonexistent.litmus: cannot read"), "%s", (char *)notes->pdata[0]);
    g_autoptr(JsonParser) jp1 = json_parser_new();
    ck_assert_msg(json_parser_load_from_data(jp1, out->str, -1, NULL), "%s", out->str);
    ck_assert_str_eq(json_object_get_string_member(json_node_get_object(json_parser_get_root(jp1)), "name"), "Seen");
    ck_assert_ptr_null(litmus_kinds_load(t1, &e));   /* not a kinds file */
    g_clear_error(&e);
    g_unlink(t1);
    g_unlink(t2);
    g_unlink(kbad);
    g_unlink(kok);
    g_rmdir(dir);
}
END_TEST

/* The timing model of `teaching` as an executor; *cfg keeps the config it borrows. */
static LitmusExecutor *teaching_machine(QsimConfig **cfg)
{
    g_autoptr(GError) e = NULL;
    *cfg = config_load("teaching", NULL, &e);
    ck_assert_msg(*cfg, "%s", e ? e->message : "");
    return litmus_executor_for_config(*cfg, &e);
}

/* A test of the other architecture than the machine's is named and skipped, like an unreadable
 * file; the others still run (it used to stop every test of the command from running). */
START_TEST(test_job_wrong_arch)
{
    g_autoptr(QsimConfig) cfg = NULL;
    g_autoptr(LitmusExecutor) machine = teaching_machine(&cfg);
    ck_assert_int_eq(cfg->arch, ARCH_X86);
    g_autofree char *x86 = g_build_filename(test_srcdir(), "tests", "litmus", "x86", "SB.litmus", NULL);
    g_autofree char *arm = g_build_filename(test_srcdir(), "tests", "litmus", "aarch64", "MP.litmus", NULL);
    g_autofree char *x86_mp = g_build_filename(test_srcdir(), "tests", "litmus", "x86", "MP.litmus", NULL);
    const char *files[] = { x86, arm, x86_mp, NULL };
    LitmusJob job = { .run = { 20, 1 } };
    g_autoptr(GString) out = g_string_new(NULL);
    g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
    ck_assert_int_eq(litmus_job_run(files, &job, machine, out, notes), LITMUS_JOB_BAD_INPUT);
    ck_assert_msg(strstr(out->str, "Test SB\n") && strstr(out->str, "Test MP\n"), "%s", out->str);
    ck_assert_msg(strstr(out->str, "Runs 20 on teaching"), "%s", out->str);
    ck_assert_uint_eq(notes->len, 1);
    g_autofree char *want = g_strdup_printf("%s: a AArch64 test cannot run on config teaching (arch x86)", arm);
    ck_assert_str_eq(notes->pdata[0], want);
    /* The SC interpreter runs either architecture. */
    g_autoptr(LitmusExecutor) sc = litmus_interp_executor_new();
    g_ptr_array_set_size(notes, 0);
    g_string_truncate(out, 0);
    ck_assert_int_eq(litmus_job_run(files, &job, sc, out, notes), LITMUS_JOB_OK);
    ck_assert_uint_eq(notes->len, 0);
}
END_TEST

/* A test with more threads than the machine has cores is a static mismatch, as a test of the
 * other architecture is: named, skipped, bad input (exit 2); the others still run.  It used to
 * fail the first run ("3 threads do not fit"), exit 1, and stop the job there. */
START_TEST(test_job_too_many_threads)
{
    g_autoptr(QsimConfig) cfg = NULL;
    g_autoptr(LitmusExecutor) machine = teaching_machine(&cfg);
    ck_assert_uint_eq(config_total_cores(cfg), 2);
    g_autofree char *sb = g_build_filename(test_srcdir(), "tests", "litmus", "x86", "SB.litmus", NULL);
    g_autofree char *isa2 = g_build_filename(test_srcdir(), "tests", "litmus", "x86", "ISA2.litmus", NULL);
    g_autofree char *iriw = g_build_filename(test_srcdir(), "tests", "litmus", "x86", "IRIW.litmus", NULL);
    g_autofree char *mp = g_build_filename(test_srcdir(), "tests", "litmus", "x86", "MP.litmus", NULL);
    const char *files[] = { sb, isa2, iriw, mp, NULL };
    LitmusJob job = { .run = { 20, 1 } };
    g_autoptr(GString) out = g_string_new(NULL);
    g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
    ck_assert_int_eq(litmus_job_run(files, &job, machine, out, notes), LITMUS_JOB_BAD_INPUT);
    ck_assert_msg(strstr(out->str, "Test SB\n") && strstr(out->str, "Test MP\n"), "%s", out->str);
    ck_assert_uint_eq(notes->len, 2);
    g_autofree char *want3 = g_strdup_printf("%s: a 3-thread test cannot run on config teaching (2 cores; each "
                                             "litmus thread runs on a core of its own)", isa2);
    g_autofree char *want4 = g_strdup_printf("%s: a 4-thread test cannot run on config teaching (2 cores; each "
                                             "litmus thread runs on a core of its own)", iriw);
    ck_assert_str_eq(notes->pdata[0], want3);
    ck_assert_str_eq(notes->pdata[1], want4);
    /* The SC interpreter has no cores to run out of. */
    g_autoptr(LitmusExecutor) sc = litmus_interp_executor_new();
    g_ptr_array_set_size(notes, 0);
    g_string_truncate(out, 0);
    ck_assert_int_eq(litmus_job_run(files, &job, sc, out, notes), LITMUS_JOB_OK);
    ck_assert_uint_eq(notes->len, 0);
    /* The command: exit 2, the message, and the rest of the catalogue's verdicts. */
    g_autofree char *cout = NULL, *cerr = NULL;
    ck_assert_int_eq(run_qsim_line("litmus tests/litmus/x86/ISA2.litmus tests/litmus/x86/SB.litmus --config teaching "
                                   "--runs 20", &cout, &cerr), 2);
    ck_assert_msg(strstr(cout, "Test SB\n") &&
                  strstr(cerr, "tests/litmus/x86/ISA2.litmus: a 3-thread test cannot run on config teaching (2 cores") &&
                  strstr(cerr, "exit status 2"), "%s\n%s", cout, cerr);
}
END_TEST

/* `qsim litmus` reads each file once: given a pipe (which a second read finds empty), it runs. */
START_TEST(test_command_reads_once)
{
    g_autofree char *bash = g_find_program_in_path("bash");
    if (!bash) {
        qsim_test_skip_or_fail("litmus/test_command_reads_once", "bash is not installed (needed for <(...))");
        return;
    }
    const char *bin = g_getenv("QSIM_BIN");
    g_autofree char *fallback = g_build_filename(test_srcdir(), "qsim", NULL);
    const char *argv[] = { bash, "-c", "exec \"$0\" litmus <(cat tests/litmus/x86/SB.litmus) --config teaching --runs 20",
                           bin ? bin : fallback, NULL };
    g_autofree char *out = NULL, *err = NULL;
    int status;
    GError *e = NULL;
    ck_assert_msg(g_spawn_sync(test_srcdir(), (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &e),
                  "%s", e ? e->message : "");
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d\n%s", status, err);
    ck_assert_msg(strstr(out, "Test SB\n") && strstr(out, "Runs 20 on teaching"), "%s", out);
}
END_TEST

/* The command: runs on the timing model; a failed check is 1; input errors are 2. */
START_TEST(test_command)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("litmus tests/litmus/x86/SB.litmus --config teaching --runs 50 "
                                   "--expect tests/litmus/x86/kinds.txt", &out, &err), 0);
    ck_assert_msg(strstr(out, "Histogram") && strstr(out, "Runs 50 on teaching"), "%s", out);
    g_free(out);
    g_free(err);
    out = err = NULL;
    /* A kinds file that calls SB forbidden: the relaxed outcome shows, so the check fails. */
    g_autofree char *dir = g_dir_make_tmp("qsim-litmus-XXXXXX", NULL);
    g_autofree char *kinds = g_build_filename(dir, "kinds.txt", NULL);
    ck_assert(g_file_set_contents(kinds, "SB Forbidden\n", -1, NULL));
    g_autofree char *line = g_strdup_printf("litmus tests/litmus/x86/SB.litmus --config haswell --runs 500 "
                                            "--expect %s", kinds);
    ck_assert_int_eq(run_qsim_line(line, &out, &err), 1);
    ck_assert_msg(strstr(err, "SB: Forbidden, but its condition was observed"), "%s", err);
    g_unlink(kinds);
    g_rmdir(dir);
    g_free(out);
    g_free(err);
    out = err = NULL;
    ck_assert_int_eq(run_qsim_line("litmus tests/litmus/x86/SB.litmus --config neoverse-n1", &out, &err), 2);
    ck_assert_msg(strstr(err, "a X86 test cannot run on config neoverse-n1 (arch arm64)"), "%s", err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    ck_assert_int_eq(run_qsim_line("litmus /nonexistent.litmus --config teaching", &out, &err), 2);
    ck_assert_msg(strstr(err, "/nonexistent.litmus: cannot read"), "%s", err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    /* One unreadable file among good ones: the good ones still run, the status is still 2. */
    ck_assert_int_eq(run_qsim_line("litmus tests/litmus/x86/SB.litmus /nonexistent.litmus --config teaching --runs 20",
                                   &out, &err), 2);
    ck_assert_msg(strstr(out, "Test SB") && strstr(err, "/nonexistent.litmus: cannot read"), "%s\n%s", out, err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    /* One file of the other architecture among good ones: named, skipped, the rest run, 2. */
    ck_assert_int_eq(run_qsim_line("litmus tests/litmus/x86/SB.litmus tests/litmus/aarch64/MP.litmus "
                                   "tests/litmus/x86/MP.litmus --config teaching --runs 20", &out, &err), 2);
    ck_assert_msg(strstr(out, "Test SB\n") && strstr(out, "Test MP\n"), "%s", out);
    ck_assert_msg(strstr(err, "tests/litmus/aarch64/MP.litmus: a AArch64 test cannot run on config teaching") &&
                  strstr(err, "exit status 2"), "%s", err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    ck_assert_int_eq(run_qsim_line("litmus tests/litmus/x86/SB.litmus", &out, &err), 2);
    ck_assert_msg(strstr(err, "--config CFG is required"), "%s", err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    ck_assert_int_eq(run_qsim_line("litmus --show tests/litmus/aarch64/MP+rel+acq.litmus", &out, &err), 0);
    ck_assert_msg(strstr(out, "main:") && strstr(out, "ld32.acq") && strstr(out, "st32.rel"), "%s", out);
}
END_TEST

Suite *make_litmus_suite(void)
{
    Suite *s = suite_create("litmus");
    TCase *tc = tcase_create("parse");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_herd_catalogue_translates, 0, G_N_ELEMENTS(herd_archs));
    tcase_add_test(tc, test_our_catalogue);
    tcase_add_loop_test(tc, test_conditions, 0, G_N_ELEMENTS(cond_cases));
    tcase_add_test(tc, test_register_names);
    tcase_add_loop_test(tc, test_parse_errors, 0, G_N_ELEMENTS(error_cases));
    tcase_add_test(tc, test_condition_and_init_sizes);
    tcase_add_test(tc, test_unreadable_file);
    tcase_add_test(tc, test_kinds_listed_twice);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_add_test(tc, test_sc_herd_catalogue);
    tcase_add_test(tc, test_sc_our_catalogue);
    tcase_add_loop_test(tc, test_csel, 0, G_N_ELEMENTS(csel_cases));
    tcase_add_loop_test(tc, test_values, 0, G_N_ELEMENTS(value_cases));
    tcase_add_test(tc, test_runner_histogram);
    tcase_add_test(tc, test_job);
    tcase_add_test(tc, test_job_wrong_arch);
    tcase_add_test(tc, test_job_too_many_threads);
    tcase_add_test(tc, test_command_reads_once);
    tcase_add_test(tc, test_command);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
