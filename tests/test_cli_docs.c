/* What the command line says about itself: the manual page and the bash completion (both made
 * from the commands' own option tables), --version with the commit, help texts that point at
 * docs that exist, and `verify --config`. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/cli/commands.h"
#include "sim/base/config.h"
#include "sim/workload/workload.h"
#include "tests/run_qsim.h"
#include "tests/skip.h"

/* The long options `qsim NAME --help` lists. */
static GPtrArray *help_options(const char *name)
{
    const char *args[] = { name, "--help", NULL };
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim(args, &out, NULL), 0);
    GPtrArray *opts = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GRegex) re = g_regex_new("^  (?:-., )?--([a-z0-9-]+)", G_REGEX_MULTILINE, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;
    for (g_regex_match(re, out, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
        char *o = g_match_info_fetch(m, 1);
        if (strcmp(o, "help") && strncmp(o, "help-", 5))
            g_ptr_array_add(opts, o);
        else
            g_free(o);
    }
    return opts;
}

/* Every command, every option its --help shows, every workload option and config key. */
START_TEST(test_man_page_from_the_tables)
{
    g_autofree char *page = NULL;
    ck_assert_int_eq(run_qsim_line("man", &page, NULL), 0);
    ck_assert_msg(strstr(page, "\n.TH QSIM 1 \"\" \"qsim " QSIM_VERSION "\""), "%.200s", page);
    for (const QsimCommand *c = qsim_commands; c->name; c++) {
        g_autofree char *ss = g_strdup_printf("\n.SS \"qsim %s", c->name);
        ck_assert_msg(strstr(page, ss), "no section for %s", c->name);
        g_autoptr(GPtrArray) opts = help_options(c->name);
        for (guint i = 0; i < opts->len; i++) {
            g_autofree char *escaped = g_strdup(opts->pdata[i]);
            GString *roff = g_string_new("\\fB\\-\\-");
            for (const char *p = escaped; *p; p++)
                g_string_append(roff, *p == '-' ? "\\-" : (char[]){ *p, 0 });
            ck_assert_msg(strstr(page, roff->str), "qsim %s --%s is not in the man page", c->name,
                          (char *)opts->pdata[i]);
            g_string_free(roff, TRUE);
        }
    }
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        g_autofree char *key = g_strdup_printf("\n.TP\n\\fB%s\\fR\n", qsim_config_schema[i].path);
        ck_assert_msg(strstr(page, key), "config key %s is not in the man page", qsim_config_schema[i].path);
    }
    ck_assert_msg(strstr(page, "QSIM_LOCK_PATH") && strstr(page, "QSIM_CONFIG_PATH") && strstr(page, QSIM_DOCDIR),
                  "environment and files");
    /* roff that groff reads without a warning, where groff is there */
    g_autofree char *groff = g_find_program_in_path("groff");
    if (!groff) {
        qsim_test_skip_or_fail("cli_docs/test_man_page_from_the_tables",
                               "groff is not installed: the man page's roff is not checked");
        return;
    }
    g_autofree char *dir = g_dir_make_tmp("qsim-man-XXXXXX", NULL);
    g_autofree char *file = g_build_filename(dir, "qsim.1", NULL);
    ck_assert(g_file_set_contents(file, page, -1, NULL));
    const char *argv[] = { groff, "-man", "-Tutf8", "-ww", "-z", file, NULL };
    g_autofree char *err = NULL;
    int status = -1;
    ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status,
                           NULL));
    ck_assert_msg(g_spawn_check_wait_status(status, NULL) && !*err, "groff: %s", err);
    g_unlink(file);
    g_rmdir(dir);
}
END_TEST

/* Completes `words` (the last one being completed) with the generated script; what bash offers. */
static char *complete(const char *script, const char *words)
{
    g_autofree char *cmd = g_strdup_printf(
        "source '%s'; COMP_WORDS=(%s); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _qsim; echo \"${COMPREPLY[*]}\"",
        script, words);
    const char *argv[] = { "bash", "-c", cmd, NULL };
    char *out = NULL;
    g_autofree char *err = NULL;
    int status = -1;
    ck_assert(g_spawn_sync(test_srcdir(), (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status,
                           NULL));
    ck_assert_msg(g_spawn_check_wait_status(status, NULL), "bash: %s", err);
    return g_strchomp(out);
}

START_TEST(test_bash_completion)
{
    g_autofree char *bash = g_find_program_in_path("bash");
    if (!bash) {
        qsim_test_skip_or_fail("cli_docs/test_bash_completion", "bash is not installed: the completion script is not run");
        return;
    }
    g_autofree char *script = NULL;
    ck_assert_int_eq(run_qsim_line("completion bash", &script, NULL), 0);
    g_autofree char *dir = g_dir_make_tmp("qsim-comp-XXXXXX", NULL);
    g_autofree char *file = g_build_filename(dir, "qsim.bash", NULL);
    ck_assert(g_file_set_contents(file, script, -1, NULL));
    const char *bin = g_getenv("QSIM_BIN");
    g_autofree char *qsim = bin ? g_strdup(bin) : g_build_filename(test_srcdir(), "qsim", NULL);
    static const struct {
        const char *words;      /* after the program */
        const char *offered;
    } cases[] = {
        { "ru", "run" },
        { "man", "man" },
        { "run --con", "--config" },
        { "run --config hasw", "haswell" },
        { "run --config = hasw", "haswell" },
        { "run --lock qspin-", "qspin-cmpxchg" },
        { "run --vs tt", "ttas" },
        { "run --format ''", "text json csv" },
        { "run --data s", "same-line separate-line" },
        { "run --set core.pause_c", "core.pause_cycles=" },
        { "run --threads ''", "" },
        { "--config teach", "teaching teaching-bus" },
        { "verify --conf", "--config" },
        { "verify --lock mc", "mcs" },
        { "list r", "report" },
        { "config westm", "westmere-ex" },
        { "completion ''", "bash" },
        { "protocol mo", "moesi" },
        { "protocol mesi-", "mesi-bus" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *words = g_strdup_printf("'%s' %s", qsim, cases[i].words);
        g_autofree char *got = complete(file, words);
        ck_assert_msg(!strcmp(got, cases[i].offered), "qsim %s<TAB>: got '%s', want '%s'", cases[i].words, got,
                      cases[i].offered);
    }
    /* a sweep file: *.yaml (and folders on the way to one) */
    g_autofree char *sweeps = g_build_filename(test_srcdir(), "sweeps", "pau", NULL);
    g_autofree char *want = g_build_filename(test_srcdir(), "sweeps", "pause.yaml", NULL);
    g_autofree char *sweep_words = g_strdup_printf("'%s' sweep '%s'", qsim, sweeps);
    g_autofree char *sweep_got = complete(file, sweep_words);
    ck_assert_msg(!strcmp(sweep_got, want), "qsim sweep %s<TAB>: got '%s', want '%s'", sweeps, sweep_got, want);
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line("completion tcsh", NULL, &err), 2);
    g_unlink(file);
    g_rmdir(dir);
}
END_TEST

/* "qsim 0.1.0 (commit 0123456789ab)": git's commit when built from a checkout, else unknown. */
START_TEST(test_version_has_commit)
{
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line("--version", &out, NULL), 0);
    g_autoptr(GRegex) re = g_regex_new("^qsim " QSIM_VERSION " \\(commit ([0-9a-f]{7,40}(-dirty)?|unknown)\\)\n$",
                                       0, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;
    ck_assert_msg(g_regex_match(re, out, 0, &m), "%s", out);
    g_autofree char *commit = g_match_info_fetch(m, 1);
    g_autofree char *git_dir = g_build_filename(test_srcdir(), ".git", NULL);
    if (!g_file_test(git_dir, G_FILE_TEST_EXISTS)) {
        ck_assert_msg(!strcmp(commit, "unknown"), "built from a tree without .git, but the commit is %s", commit);
        return;
    }
    g_autofree char *git = g_find_program_in_path("git");
    if (!git) {
        qsim_test_skip_or_fail("cli_docs/test_version_has_commit", "git is not installed: the commit is not compared");
        return;
    }
    const char *argv[] = { git, "rev-parse", "--short=12", "HEAD", NULL };
    g_autofree char *head = NULL;
    int status = -1;
    ck_assert(g_spawn_sync(test_srcdir(), (char **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &head, NULL,
                           &status, NULL));
    /* the binary may be a commit behind a tree committed since it was built: same length, hex */
    ck_assert_msg(strcmp(commit, "unknown"), "built from a git checkout, but the commit is unknown");
    ck_assert_uint_ge(strlen(commit), strlen(g_strchomp(head)));
}
END_TEST

/* Help texts name docs where this binary finds them: run from its source tree, that tree's
 * docs/ (a checkout has no installed copy; check-install looks at an installed one), and every
 * one they name is in docs/. */
START_TEST(test_help_points_at_installed_docs)
{
    guint named = 0;
    g_autofree char *shown = g_regex_escape_string(QSIM_SRCDIR "/docs/", -1);
    g_autofree char *pat = g_strconcat(shown, "([a-z0-9-]+\\.md)", NULL);
    g_autoptr(GRegex) re = g_regex_new(pat, 0, 0, NULL);
    for (const QsimCommand *c = qsim_commands; c->name; c++) {
        const char *args[] = { c->name, "--help", NULL };
        g_autofree char *out = NULL;
        ck_assert_int_eq(run_qsim(args, &out, NULL), 0);
        g_autoptr(GMatchInfo) m = NULL;
        for (g_regex_match(re, out, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
            g_autofree char *file = g_match_info_fetch(m, 1);
            g_autofree char *path = g_build_filename(test_srcdir(), "docs", file, NULL);
            ck_assert_msg(g_file_test(path, G_FILE_TEST_EXISTS), "qsim %s --help names %s, not in docs/", c->name,
                          file);
            named++;
        }
        ck_assert_msg(!strstr(out, QSIM_DOCDIR "/"), "qsim %s --help names the installed docs from a source tree", c->name);
        /* no relative path into a source tree (sweep's and native's are their own) */
        if (strcmp(c->name, "sweep") && strcmp(c->name, "native"))
            ck_assert_msg(!strstr(out, " docs/") && !strstr(out, "(docs/"), "qsim %s --help: %s", c->name, out);
    }
    ck_assert_uint_ge(named, 3);
}
END_TEST

/* verify --config takes the arch from a machine config (it had only --arch). */
START_TEST(test_verify_config)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("verify --lock tas --config neoverse-n1 --seeds 2", &out, &err), 0);
    ck_assert_msg(strstr(out, " on arm64") && strstr(out, ": mutual exclusion held"), "%s", out);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    ck_assert_int_eq(run_qsim_line("verify --lock tas --config haswell --seeds 2", &out, &err), 0);
    ck_assert_msg(strstr(out, " on x86: "), "%s", out);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    ck_assert_int_eq(run_qsim_line("verify --lock tas --config haswell --arch arm64", &out, &err), 2);
    ck_assert_msg(strstr(err, "not both"), "%s", err);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    ck_assert_int_eq(run_qsim_line("verify --lock tas --config haswel", &out, &err), 2);
    ck_assert_msg(strstr(err, "did you mean `haswell`?"), "%s", err);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    /* an arm64-only op is refused on an x86 config, accepted on an arm64 one */
    g_autofree char *dir = g_dir_make_tmp("qsim-verify-XXXXXX", NULL);
    g_autofree char *lock = g_build_filename(dir, "wfe.qs", NULL);
    ck_assert(g_file_set_contents(lock, ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
                                        "lock:\n    mov r1, 1\n    xchg32.acq r0, [lock_word], r1\n"
                                        "    beq r0, 0, done\n    wfe\n    jmp lock\ndone:\n    ret\n"
                                        "unlock:\n    st32.rel [lock_word], 0\n    sev\n    ret\n",
                                  -1, NULL));
    g_autofree char *x86 = g_strdup_printf("verify --lock %s --config haswell --seeds 2", lock);
    ck_assert_int_eq(run_qsim_line(x86, &out, &err), 2);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    g_autofree char *arm = g_strdup_printf("verify --lock %s --config thunderx --seeds 2", lock);
    int rc = run_qsim_line(arm, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s%s", rc, out, err);
    g_unlink(lock);
    g_rmdir(dir);
}
END_TEST

Suite *make_cli_docs_suite(void)
{
    Suite *s = suite_create("cli_docs");
    TCase *tc = tcase_create("self-description");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_man_page_from_the_tables);
    tcase_add_test(tc, test_bash_completion);
    tcase_add_test(tc, test_version_has_commit);
    tcase_add_test(tc, test_help_points_at_installed_docs);
    tcase_add_test(tc, test_verify_config);
    suite_add_tcase(s, tc);
    return s;
}
