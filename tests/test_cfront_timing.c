/* A lock in C times as its instructions do (docs/c-locks.md, "Timing against the same
 * instructions"): each example lock, compiled for x86-64 (haswell), AArch64 with LSE
 * (neoverse-n1) and with LL/SC (thunderx), runs on the timing model beside a .qs written by hand
 * from the same compiled instructions, one op each (tests/c-locks/same-insns/); the translation's
 * own ops (the glue that meets the harness, flags kept as data) must not move the cycles per
 * acquisition more than 3%.  Both are means over the same seeds, compared in simulated cycles.
 * When the compiler here emits other instructions than the .qs was written from, the
 * comparison means nothing: a counted skip. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "run_qsim.h"
#include "skip.h"

static const struct {
    const char *lock, *target, *config, *asm_flags;
} pairs[] = {
    { "tas", "x86", "haswell", "" },
    { "tas", "lse", "neoverse-n1", "--arch arm64 --atomics lse" },
    { "tas", "llsc", "thunderx", "--arch arm64 --atomics llsc" },
    { "ticket", "x86", "haswell", "" },
    { "ticket", "lse", "neoverse-n1", "--arch arm64 --atomics lse" },
    { "ticket", "llsc", "thunderx", "--arch arm64 --atomics llsc" },
};

/* The instruction lines ("    # insn") of a translated text or of a same-insns .qs, in order. */
static char *insn_lines(const char *text)
{
    GString *g = g_string_new(NULL);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++)
        if (g_str_has_prefix(lines[i], "    # "))
            g_string_append_printf(g, "%s\n", lines[i] + 6);
    return g_string_free(g, FALSE);
}

/* The mean cycles per acquisition of `qsim run ... --repeat` (its headline's figure). */
static double mean_cycles(const char *line)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(line, &out, &err);
    ck_assert_msg(rc == 0, "%s: rc %d\n%s%s", line, rc, out, err);
    const char *at = strstr(out, " cycles per acquisition");
    ck_assert_msg(at, "%s\n%s", line, out);
    const char *p = at;
    while (p > out && p[-1] != ' ')
        p--;
    return g_ascii_strtod(p, NULL);
}

START_TEST(test_same_instructions_same_cycles)
{
    const char *lock = pairs[_i].lock, *target = pairs[_i].target;
    g_autofree char *test = g_strdup_printf("cfront_timing/%s-%s", lock, target);
    const char *cc = strcmp(target, "x86") ? "aarch64-linux-gnu-gcc" : "gcc";
    g_autofree char *have = g_find_program_in_path(cc);
    if (!have) {
        g_autofree char *why = g_strdup_printf("no %s in PATH: the lock is compiled with it", cc);
        qsim_test_skip(test, why);
        return;
    }
    g_autofree char *c = g_strdup_printf("examples/c-locks/%s.c", lock);
    g_autofree char *qs = g_strdup_printf("tests/c-locks/same-insns/%s-%s.qs", lock, target);
    g_autofree char *qs_path = g_build_filename(test_srcdir(), qs, NULL);
    g_autofree char *qs_text = NULL;
    ck_assert_msg(g_file_get_contents(qs_path, &qs_text, NULL, NULL), "%s", qs_path);
    g_autofree char *asm_line = g_strchomp(g_strdup_printf("asm %s --translated %s", c, pairs[_i].asm_flags));
    g_autofree char *translated = NULL, *err = NULL;
    ck_assert_msg(run_qsim_line(asm_line, &translated, &err) == 0, "%s\n%s", asm_line, err);
    g_autofree char *compiled = insn_lines(translated), *written = insn_lines(qs_text);
    if (strcmp(compiled, written)) {
        g_autofree char *why = g_strdup_printf("%s compiles %s to other instructions than %s was written from", cc, c,
                                               qs);
        qsim_test_skip(test, why);
        return;
    }
    const char *run = "run --config %s --lock %s --threads 2 --iterations 500 --repeat 10";
    g_autofree char *run_c = g_strdup_printf(run, pairs[_i].config, c);
    g_autofree char *run_qs = g_strdup_printf(run, pairs[_i].config, qs);
    double tc = mean_cycles(run_c), tq = mean_cycles(run_qs);
    ck_assert_msg(tq > 0 && tc / tq >= 0.97 && tc / tq <= 1.03,
                  "%s on %s: %.1f cycles per acquisition translated, %.1f as written: %.3f", c, pairs[_i].config, tc, tq,
                  tc / tq);
}
END_TEST

Suite *make_cfront_timing_suite(void)
{
    Suite *s = suite_create("cfront_timing");
    TCase *tc = tcase_create("same_instructions");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_same_instructions_same_cycles, 0, (int)G_N_ELEMENTS(pairs));
    suite_add_tcase(s, tc);
    return s;
}
