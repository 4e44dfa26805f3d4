/* HACKING.md says what works: every command of its ```sh blocks names make targets that
 * `make help` lists (and `make help` lists exactly the Makefile's .PHONY targets), suites the
 * runner has and test cases those suites make, and scripts that exist; and every path it names
 * is in the tree.  A target renamed, a suite split or a file moved without the page fails here.
 * And build-aux/run-suites.sh, by which its make check-asan ASAN_SUITES=asm runs, runs the
 * suites it is given. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "suites.h"
#include "tests/run_qsim.h"
#include "tests/temp_files.h"
#include "tests/doc_commands.h"

static char *tree_text(const char *rel)
{
    g_autofree char *path = g_build_filename(test_srcdir(), rel, NULL);
    char *text = NULL;
    ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "%s: cannot read", path);
    return text;
}

/* The lines of HACKING.md's ```sh blocks, each without its `  # comment`. */
static GPtrArray *shell_lines(void)
{
    g_autofree char *text = tree_text("HACKING.md");
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    gboolean in_sh = FALSE;
    for (guint i = 0; lines[i]; i++) {
        if (g_str_has_prefix(lines[i], "```")) {
            in_sh = !in_sh && !strcmp(lines[i], "```sh");
            continue;
        }
        if (!in_sh)
            continue;
        doc_command_add(out, lines[i]);
    }
    return out;
}

/* Runs `make help` in the tree (outside any make that runs this test) and returns its targets. */
static GPtrArray *help_targets(void)
{
    const char *argv[] = { "make", "-s", "--no-print-directory", "help", NULL };
    g_auto(GStrv) env = g_get_environ();
    static const char *const drop[] = { "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES" };
    for (guint i = 0; i < G_N_ELEMENTS(drop); i++)
        env = g_environ_unsetenv(env, drop[i]);
    g_autofree char *out = NULL, *err = NULL;
    int status = -1;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(g_spawn_sync(test_srcdir(), (char **)argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                               &status, &e), "make: %s", e ? e->message : "");
    ck_assert_msg(g_spawn_check_wait_status(status, NULL), "make help failed:\n%s", err);
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    GPtrArray *targets = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; lines[i]; i++) {
        /* "  NAME   what it does": one line per target, indented by two. */
        if (!g_str_has_prefix(lines[i], "  ") || lines[i][2] == ' ')
            continue;
        g_ptr_array_add(targets, g_strndup(lines[i] + 2, strcspn(lines[i] + 2, " ")));
    }
    return targets;
}

static gboolean has(GPtrArray *a, const char *s)
{
    for (guint i = 0; i < a->len; i++)
        if (!strcmp(a->pdata[i], s))
            return TRUE;
    return FALSE;
}

static gboolean is_suite(const char *name)
{
    for (guint i = 0; qsim_suites[i].name; i++)
        if (!strcmp(qsim_suites[i].name, name))
            return TRUE;
    return FALSE;
}

/* Whether the test file that creates suite `suite` creates a test case `tcase`. */
static gboolean suite_has_case(const char *suite, const char *tcase)
{
    g_autofree char *dir = g_build_filename(test_srcdir(), "tests", NULL);
    GDir *d = g_dir_open(dir, 0, NULL);
    ck_assert_msg(d, "%s: cannot open", dir);
    g_autofree char *want_suite = g_strdup_printf("suite_create(\"%s\")", suite);
    g_autofree char *want_case = g_strdup_printf("tcase_create(\"%s\")", tcase);
    gboolean found = FALSE;
    const char *name;
    while (!found && (name = g_dir_read_name(d)))
        if (g_str_has_suffix(name, ".c")) {
            g_autofree char *rel = g_build_filename("tests", name, NULL);
            g_autofree char *text = tree_text(rel);
            found = strstr(text, want_suite) && strstr(text, want_case);
        }
    g_dir_close(d);
    return found;
}

/* Suites named by SUITE=, ASAN_SUITES= or the runner's arguments, each one checked. */
static void check_suites(const char *line, const char *list, GPtrArray *named)
{
    g_auto(GStrv) names = g_strsplit_set(list, " ", -1);
    for (guint i = 0; names[i]; i++) {
        if (!*names[i])
            continue;
        ck_assert_msg(is_suite(names[i]), "HACKING.md: `%s`: no suite `%s` (build/check_qsim --list)", line, names[i]);
        g_ptr_array_add(named, g_strdup(names[i]));
    }
}

START_TEST(test_commands_name_what_exists)
{
    g_autoptr(GPtrArray) lines = shell_lines();
    g_autoptr(GPtrArray) targets = help_targets();
    g_autofree char *makefile = tree_text("Makefile");
    guint makes = 0, runners = 0;
    for (guint l = 0; l < lines->len; l++) {
        const char *line = lines->pdata[l];
        g_auto(GStrv) argv = NULL;
        g_autoptr(GError) e = NULL;
        ck_assert_msg(g_shell_parse_argv(line, NULL, &argv, &e), "HACKING.md: `%s`: %s", line, e ? e->message : "");
        /* VAR=value before the command is its environment. */
        guint c = 0;
        const char *run_case = NULL;
        for (; argv[c] && strchr(argv[c], '=') && argv[c][0] != '-'; c++)
            if (g_str_has_prefix(argv[c], "CK_RUN_CASE="))
                run_case = argv[c] + strlen("CK_RUN_CASE=");
        ck_assert_msg(argv[c], "HACKING.md: `%s` runs nothing", line);
        const char *cmd = argv[c];
        g_autoptr(GPtrArray) suites = g_ptr_array_new_with_free_func(g_free);
        if (!strcmp(cmd, "make")) {
            makes++;
            for (guint a = c + 1; argv[a]; a++) {
                const char *arg = argv[a];
                const char *eq = strchr(arg, '=');
                if (arg[0] == '-')
                    continue;
                if (g_str_has_prefix(arg, "SUITE=") || g_str_has_prefix(arg, "ASAN_SUITES="))
                    check_suites(line, eq + 1, suites);
                else if (g_str_has_prefix(arg, "CASE="))
                    run_case = eq + 1;
                else if (eq) {
                    g_autofree char *var = g_strndup(arg, eq - arg);
                    g_autofree char *use = g_strdup_printf("$(%s)", var);
                    ck_assert_msg(strstr(makefile, use), "HACKING.md: `%s`: the Makefile reads no %s", line, var);
                } else if (g_str_has_prefix(arg, "build/")) {
                    /* A file the build makes: a rule for $(B)/REST. */
                    g_autofree char *rule = g_strdup_printf("\n$(B)/%s:", arg + strlen("build/"));
                    ck_assert_msg(strstr(makefile, rule), "HACKING.md: `%s`: no rule makes %s", line, arg);
                } else
                    ck_assert_msg(has(targets, arg), "HACKING.md: `%s`: `make help` lists no target %s", line, arg);
            }
        } else if (!strcmp(cmd, "build/check_qsim") || (!strcmp(cmd, "gdb") && strstr(line, "build/check_qsim"))) {
            runners++;
            guint a = c + 1;
            while (argv[a] && strcmp(argv[a - 1], "build/check_qsim"))
                a++;
            for (; argv[a]; a++)
                if (strcmp(argv[a], "--list"))
                    check_suites(line, argv[a], suites);
        } else if (!strcmp(cmd, "sh")) {
            ck_assert_msg(argv[c + 1], "HACKING.md: `%s`: sh with no script", line);
            g_autofree char *script = g_build_filename(test_srcdir(), argv[c + 1], NULL);
            ck_assert_msg(g_file_test(script, G_FILE_TEST_IS_REGULAR), "HACKING.md: `%s`: no such script", line);
        } else
            ck_assert_msg(!strcmp(cmd, "git"), "HACKING.md: `%s`: a command this test does not know (%s): teach it",
                          line, cmd);
        if (run_case) {
            ck_assert_msg(suites->len, "HACKING.md: `%s`: a case with no suite", line);
            for (guint i = 0; i < suites->len; i++)
                ck_assert_msg(suite_has_case(suites->pdata[i], run_case),
                              "HACKING.md: `%s`: suite %s makes no test case \"%s\"", line,
                              (char *)suites->pdata[i], run_case);
        }
    }
    ck_assert_uint_ge(makes, 8);
    ck_assert_uint_ge(runners, 2);
}
END_TEST

/* `make help` lists every target the Makefile declares phony (but FORCE), and no other. */
START_TEST(test_help_lists_every_target)
{
    g_autoptr(GPtrArray) targets = help_targets();
    g_autofree char *makefile = tree_text("Makefile");
    const char *p = strstr(makefile, "\n.PHONY:");
    ck_assert_ptr_nonnull(p);
    p += strlen("\n.PHONY:");
    /* The list, continued over lines ending in a backslash. */
    GString *list = g_string_new(NULL);
    for (;;) {
        gsize n = strcspn(p, "\n");
        gboolean more = n && p[n - 1] == '\\';
        g_string_append_len(list, p, more ? n - 1 : n);
        g_string_append_c(list, ' ');
        if (!more)
            break;
        p += n + 1;
    }
    g_auto(GStrv) phony = g_strsplit_set(list->str, " \t", -1);
    g_string_free(list, TRUE);
    g_autoptr(GPtrArray) declared = g_ptr_array_new();
    for (guint i = 0; phony[i]; i++) {
        if (!*phony[i] || !strcmp(phony[i], "FORCE"))
            continue;
        g_ptr_array_add(declared, phony[i]);
        ck_assert_msg(has(targets, phony[i]), "`make help` does not list %s", phony[i]);
    }
    for (guint i = 0; i < targets->len; i++)
        ck_assert_msg(has(declared, targets->pdata[i]) || !strcmp(targets->pdata[i], "qsim"),
                      "`make help` lists %s, which the Makefile does not declare .PHONY", (char *)targets->pdata[i]);
    ck_assert_uint_ge(declared->len, 20);
}
END_TEST

/* A word of a path that stands for a name (locks/NAME.qs, tests/fuzz/corpus/TARGET). */
static gboolean is_placeholder(const char *path)
{
    static const char *const words[] = { "NAME", "TARGET", "K", "FOLDER", "HEADER", "REST", NULL };
    g_auto(GStrv) parts = g_strsplit_set(path, "/._-", -1);
    for (guint i = 0; parts[i]; i++)
        if (g_strv_contains(words, parts[i]))
            return TRUE;
    return FALSE;
}

/* Every path HACKING.md names (a word with a `/` in it) is in the tree, but for build outputs
 * and placeholders; a glob's folder is. */
START_TEST(test_named_paths_exist)
{
    g_autofree char *text = tree_text("HACKING.md");
    g_autoptr(GRegex) re = g_regex_new("(?<![\\w$/.-])([a-z][\\w.-]*(/[\\w.*-]+)+/?)", 0, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;
    g_autoptr(GString) missing = g_string_new(NULL);
    guint seen = 0;
    for (g_regex_match(re, text, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
        g_autofree char *path = g_match_info_fetch(m, 1);
        while (g_str_has_suffix(path, ".") || g_str_has_suffix(path, ","))
            path[strlen(path) - 1] = 0;
        if (g_str_has_prefix(path, "build/") || is_placeholder(path))
            continue;
        char *star = strchr(path, '*');
        if (star)
            *strrchr(path, '/') = 0;  /* a glob: its folder */
        g_autofree char *full = g_build_filename(test_srcdir(), path, NULL);
        if (!g_file_test(full, G_FILE_TEST_EXISTS))
            g_string_append_printf(missing, "  %s\n", path);
        seen++;
    }
    ck_assert_msg(!missing->len, "HACKING.md names paths that are not in the tree:\n%s", missing->str);
    ck_assert_uint_ge(seen, 30);
}
END_TEST

/* build-aux/run-suites.sh, which check-unit and check-asan run the suites through, with a
 * stand-in runner that logs its arguments: each run names the suites it was dealt, and every
 * suite runs once.  `make check-asan ASAN_SUITES=asm` (HACKING.md) dealt asm to one of two
 * processes and none to the other, which then ran every suite. */
static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *deal(const char *dir, const char *jobs, const char *const *suites)
{
    g_autofree char *runner = write_file(dir, "runner.sh",
                                         "#!/bin/sh\n"
                                         "if [ \"$1\" = --list ]; then printf 'a\\nb\\nc\\n'; exit 0; fi\n"
                                         "echo \"ran:$*\" >> \"$RUNS\"\n");
    ck_assert(g_chmod(runner, 0755) == 0);
    g_autofree char *runs = g_build_filename(dir, "runs", NULL);
    g_unlink(runs);
    g_autofree char *log = g_build_filename(dir, "log", NULL);
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, "sh");
    g_ptr_array_add(argv, "build-aux/run-suites.sh");
    g_ptr_array_add(argv, (char *)jobs);
    g_ptr_array_add(argv, log);
    g_ptr_array_add(argv, runner);
    for (guint i = 0; suites[i]; i++)
        g_ptr_array_add(argv, (char *)suites[i]);
    g_ptr_array_add(argv, NULL);
    g_auto(GStrv) env = g_environ_setenv(g_get_environ(), "RUNS", runs, TRUE);
    int status = -1;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(g_spawn_sync(test_srcdir(), (char **)argv->pdata, env, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &e), "%s", e ? e->message : "");
    ck_assert_msg(g_spawn_check_wait_status(status, NULL), "run-suites.sh %s failed", jobs);
    char *text = NULL;
    ck_assert(g_file_get_contents(runs, &text, NULL, NULL));
    /* The processes finish in any order: the lines sorted. */
    g_auto(GStrv) lines = g_strsplit(g_strchomp(text), "\n", -1);
    g_free(text);
    qsort(lines, g_strv_length(lines), sizeof *lines, by_text);
    return g_strjoinv("|", lines);
}

START_TEST(test_run_suites_deals_only_the_named)
{
    g_autofree char *dir = tmpdir();
    static const char *const one[] = { "a", NULL }, *const two[] = { "a", "b", NULL }, *const none[] = { NULL };
    g_autofree char *r1 = deal(dir, "2", one), *r2 = deal(dir, "3", two), *r3 = deal(dir, "2", none),
                    *r4 = deal(dir, "1", two);
    ck_assert_str_eq(r1, "ran:a");
    ck_assert_str_eq(r2, "ran:a|ran:b");
    ck_assert_str_eq(r3, "ran:a c|ran:b");
    ck_assert_str_eq(r4, "ran:a b");
    rm_rf(dir);
}
END_TEST

Suite *make_hacking_suite(void)
{
    Suite *s = suite_create("hacking");
    TCase *tc = tcase_create("page");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_commands_name_what_exists);
    tcase_add_test(tc, test_help_lists_every_target);
    tcase_add_test(tc, test_named_paths_exist);
    suite_add_tcase(s, tc);
    tc = tcase_create("run-suites");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_run_suites_deals_only_the_named);
    suite_add_tcase(s, tc);
    return s;
}
