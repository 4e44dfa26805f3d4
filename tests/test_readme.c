/* The README's examples work when pasted, and print what the README says they print.
 *
 * Every `./qsim ...` line of its "Using qsim" block runs as written (from a folder holding the
 * tree's tests/, locks/, sweeps/, configs/ and scenarios/, so files it writes land there) and
 * exits 0, except the few that take minutes, which are named below with the suite that runs
 * them.  Exit 0 is not enough (a run that printed "** MUTUAL EXCLUSION VIOLATED **" could exit
 * 0): each must print its key lines (the table `keys`, one row per example: a new example
 * without one fails here), and nothing on stdout or stderr may be a GLib CRITICAL or WARNING or
 * a mutual-exclusion verdict against the lock.
 *
 * Where the README shows what a command prints (a ``` block that starts `$ qsim ...`), the run's
 * output must hold the block's lines, in order (output lines between them allowed: the README
 * shows excerpts), each as the start of an output line, `...` inside a line matching any text,
 * and a line that is only `...` or blank matching nothing.  In a `--native` block the host's
 * columns differ from host to host: those lines are compared up to the model's column.  An
 * example that drifts from the options or from its output fails here. */
#include <check.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "tests/run_qsim.h"
#include "tests/skip.h"
#include "tests/temp_files.h"
#include "tests/doc_commands.h"

/* Examples too long for make check, each run by its own suite (the prefix identifies the line). */
static const struct {
    const char *prefix, *where;
} elsewhere[] = {
    { "./qsim compare", "compare (a small table), and `make run` itself" },
    { "./qsim calibrate", "calibrate (a quick calibration)" },
    { "./qsim validate --host", "validate_host (a small run)" },
    { "./qsim litmus tests/litmus/x86/*.litmus", "litmus_machine (the same catalogue, fewer runs)" },
    { "./qsim sweep sweeps/pause.yaml", "sweep (a small sweep with --plot)" },
    { "./qsim man | man", "cli_docs (the page itself; `man` may not be installed)" },
    { "source <(", "cli_docs (the completion script run by bash)" },
};

/* The README's "Using qsim" block, a line per example without its comment. */
static GPtrArray *examples(void)
{
    g_autofree char *path = g_build_filename(test_srcdir(), "README.md", NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    const char *start = strstr(text, "## Using qsim");
    ck_assert_ptr_nonnull(start);
    const char *block = strstr(start, "```sh\n");
    ck_assert_ptr_nonnull(block);
    block += strlen("```sh\n");
    const char *end = strstr(block, "```");
    ck_assert_ptr_nonnull(end);
    g_autofree char *body = g_strndup(block, end - block);
    g_auto(GStrv) lines = g_strsplit(body, "\n", -1);
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; lines[i]; i++) {
        doc_command_add(out, lines[i]);
    }
    return out;
}

/* What each example of the "Using qsim" block must print: text on stdout, and for one that
 * writes a file, text in that file.  Keyed by the example's line as the README writes it. */
static const struct {
    const char *line;
    const char *out[5];
    const char *file, *in_file[3];
} keys[] = {
    { .line = "./qsim --config haswell.yaml --lock qspin-cmpxchg",
      .out = { "qspin-cmpxchg on haswell (x86), 2 threads, separate-line data: ",
               "\nmutual_exclusion:                  true\n" } },
    { .line = "./qsim run --config haswell --lock qspin --vs qspin-cmpxchg --data same-line",
      .out = { "qspin on haswell (x86), 2 threads, same-line data: ",
        "\nqspin-cmpxchg on haswell (x86), 2 threads, same-line data: ",
        "\nmutual_exclusion                                         true             true" } },
    { .line = "./qsim run --config haswell --lock qspin --native",
      .out = { "qspin on haswell (x86), 2 threads, separate-line data: ", "a: model          b: host      b/a\n",
        "\nacquisitions                                             2000             2000",
        "\nmutual_exclusion                                         true             true" } },
    { .line = "./qsim verify --lock qspin",
      .out = { "qspin: verified under tso on x86: ", "2 threads x 2 acquisitions" } },
    { .line = "./qsim latency --config westmere-ex",
      .out = { "westmere-ex: cycles for core 0 to access a line another core holds in a state, by distance\n",
        "\nload   M " } },
    { .line = "./qsim validate", .out = { "machine      what ", " checked, 0 failed; " } },
    { .line = "./qsim run --config haswell --lock qspin --vs qspin-cmpxchg --repeat 10",
      .out = { "qspin on haswell (x86), 2 threads, separate-line data, 10 seeds from 1 (jitter 50 cycles): ",
        "\nqspin-cmpxchg on haswell (x86), 2 threads, separate-line data, 10 seeds from 1 (jitter 50 cycles): ",
        "\n95% intervals of the mean, n = 10" } },
    { .line = "./qsim run --config skylake-sp --lock adaptive-mutex --lock-param spin_count=1000 --threads 14",
      .out = { "adaptive-mutex on skylake-sp (x86), 14 threads, separate-line data: ",
        "\nmutual_exclusion:                  true\n" } },
    { .line = "./qsim protocol mesi --format dot -o mesi.svg",
      .file = "mesi.svg", .in_file = { "<svg ", "<!-- Title: mesi " } },
    { .line = "./qsim protocol moesi --state O --format svg -o o.svg",
      .file = "o.svg", .in_file = { "<svg ", "<!-- Title: moesi_cache_O " } },
    { .line = "./qsim run --scenario false-sharing --trace-html fs.html",
      .out = { "scenario false-sharing on teaching (x86), 2 threads, no lock: " },
      .file = "fs.html", .in_file = { "<title>qsim step-through</title>" } },
    { .line = "./qsim run --config teaching --script '0:ld x, 1:st x=5, 0:ld x'",
      .out = { "script on teaching (mesi): 3 accesses, each once the one before it completed\n",
        "\n    1  0:ld x       100  memory                     0         E       I       EM\n" } },
    { .line = "./qsim native --lock qspin-cmpxchg --threads 2",
      .out = { "\nlock:                              qspin-cmpxchg\n", "\nthreads:                           2\n",
        "\nacquisitions:                      20000\n", "\nmutual_exclusion:                  true\n",
        "\nin_cs_violations:                  0\n" } },
    { .line = "./qsim asm locks/ticket.qs --arch arm64",
      .out = { "# locks/ticket.qs, assembled for arm64 (llsc): 13 instructions" } },
    { .line = "./qsim list configs", .out = { "haswell          2 x Xeon E5-2699 v3", "\nteaching " } },
    { .line = "./qsim list counters", .out = { "# Counters\n" } },
    { .line = "./qsim config haswell --set core.pause_cycles=140",
      .out = { "name: \"haswell\"\n", "\n  pause_cycles: 140\n" } },
    { .line = "./qsim config --reference", .out = { "# Config reference\n" } },
};

/* A ``` block of the README that shows a command's output, run elsewhere. */
static const struct {
    const char *command, *where;
} output_elsewhere[] = {
    { "make run", "compare (a small table): the full one takes about 65 s" },
};

/* A folder laid out as the README's examples expect, with ./qsim in it. */
static char *example_dir(void)
{
    char *dir = tmpdir();
    static const char *const links[] = { "tests", "locks", "sweeps", "configs", "scenarios" };
    for (guint i = 0; i < G_N_ELEMENTS(links); i++) {
        g_autofree char *to = g_build_filename(test_srcdir(), links[i], NULL);
        g_autofree char *at = g_build_filename(dir, links[i], NULL);
        ck_assert(symlink(to, at) == 0);
    }
    const char *bin = g_getenv("QSIM_BIN");
    g_autofree char *qsim = bin ? g_strdup(bin) : g_build_filename(test_srcdir(), "qsim", NULL);
    g_autofree char *here = g_build_filename(dir, "qsim", NULL);
    ck_assert(symlink(qsim, here) == 0);
    return dir;
}

/* The head of `text`, short enough for a Check message (which has a limit): its first lines. */
static char *head_of(const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", 21);
    if (g_strv_length(lines) == 21)
        g_free(lines[20]), lines[20] = g_strdup("...");
    GString *g = g_string_new(NULL);
    for (guint i = 0; lines[i]; i++)
        g_string_append_printf(g, "%s%.120s", i ? "\n" : "", lines[i]);
    return g_string_free(g, FALSE);
}

/* Runs `line` with sh in `dir`; fails the test unless it exits 0 and prints nothing that says
 * something went wrong: a GLib CRITICAL or WARNING, or a verdict that the lock failed. */
static void run_example(const char *dir, const char *line, char **out, char **err)
{
    const char *argv[] = { "sh", "-c", line, NULL };
    int status = -1;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, err, &status, &e),
                  "%s", e ? e->message : "");
    g_autofree char *err_head = head_of(*err);
    ck_assert_msg(g_spawn_check_wait_status(status, NULL), "README example `%s` failed:\n%s", line, err_head);
    static const char *const alarms[] = { "CRITICAL", "WARNING **", "GLib", "MUTUAL EXCLUSION" };
    for (guint i = 0; i < G_N_ELEMENTS(alarms); i++) {
        ck_assert_msg(!strstr(*err, alarms[i]), "README example `%s` said `%s` on stderr:\n%s", line, alarms[i],
                      err_head);
        ck_assert_msg(!strstr(*out, alarms[i]), "README example `%s` printed `%s`", line, alarms[i]);
    }
}

/* Whether the host can run `line`: a native run pins one thread per CPU, and every native
 * example has two threads.  Where it cannot, a counted skip says so. */
static gboolean host_runs(const char *line)
{
    if (!strstr(line, "native") || g_get_num_processors() >= 2)
        return TRUE;
    g_autofree char *test = g_strdup_printf("readme/%s", line);
    qsim_test_skip(test, "one CPU: a native run of two threads cannot run");
    return FALSE;
}

START_TEST(test_examples_run)
{
    g_autoptr(GPtrArray) ex = examples();
    ck_assert_uint_ge(ex->len, 15);
    g_autofree char *dir = example_dir();
    guint ran = 0;
    for (guint i = 0; i < ex->len; i++) {
        const char *line = ex->pdata[i];
        gboolean skip = FALSE;
        for (guint k = 0; k < G_N_ELEMENTS(elsewhere) && !skip; k++)
            skip = g_str_has_prefix(line, elsewhere[k].prefix);
        if (skip)
            continue;
        ck_assert_msg(g_str_has_prefix(line, "./qsim "), "README example '%s' is not a ./qsim line", line);
        guint k = 0;
        while (k < G_N_ELEMENTS(keys) && strcmp(keys[k].line, line))
            k++;
        ck_assert_msg(k < G_N_ELEMENTS(keys), "README example `%s` has no key lines in tests/test_readme.c", line);
        if (!host_runs(line))
            continue;
        g_autofree char *out = NULL, *err = NULL;
        run_example(dir, line, &out, &err);
        g_autofree char *out_head = head_of(out);
        for (guint j = 0; j < G_N_ELEMENTS(keys[k].out) && keys[k].out[j]; j++)
            ck_assert_msg(strstr(out, keys[k].out[j]), "README example `%s` did not print `%s`; it printed:\n%s",
                          line, keys[k].out[j], out_head);
        if (keys[k].file) {
            g_autofree char *path = g_build_filename(dir, keys[k].file, NULL);
            g_autofree char *text = NULL;
            ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "README example `%s` wrote no %s", line,
                          keys[k].file);
            for (guint j = 0; j < G_N_ELEMENTS(keys[k].in_file) && keys[k].in_file[j]; j++)
                ck_assert_msg(strstr(text, keys[k].in_file[j]), "README example `%s`: %s has no `%s`", line,
                              keys[k].file, keys[k].in_file[j]);
        }
        ran++;
    }
    ck_assert_uint_ge(ran, 12);
    rm_rf(dir);
}
END_TEST

/* Whether `got` starts as `want` (its trailing blanks dropped) says: `...` in it matches any text. */
static gboolean shows(const char *want, const char *got)
{
    g_auto(GStrv) parts = g_strsplit(want, "...", -1);
    if (!g_str_has_prefix(got, parts[0]))
        return FALSE;
    const char *at = got + strlen(parts[0]);
    for (guint i = 1; parts[i]; i++) {
        at = strstr(at, parts[i]);
        if (!at)
            return FALSE;
        at += strlen(parts[i]);
    }
    return TRUE;
}

/* The output `out` holds the README block's lines `want` in order (the rules at the top). */
static void check_shown_output(const char *command, char **want, const char *out)
{
    g_autofree char *out_head = head_of(out);
    g_auto(GStrv) got = g_strsplit(out, "\n", -1);
    guint at = 0;
    glong model_end = -1; /* in a --native table: where the model's column ends */
    for (guint i = 0; want[i]; i++) {
        g_autofree char *w = g_strdup(want[i]);
        g_strchomp(w);
        if (model_end >= 0 && (glong)strlen(w) > model_end)
            w[model_end] = 0, g_strchomp(w);
        const char *header = strstr(w, "a: model");
        if (header && strstr(command, "--native"))
            model_end = (glong)(header - w) + (glong)strlen("a: model");
        g_autofree char *stripped = g_strstrip(g_strdup(w));
        if (!*stripped || !strcmp(stripped, "..."))
            continue;
        while (got[at] && !shows(w, got[at]))
            at++;
        ck_assert_msg(got[at], "README shows, for `%s`:\n  %s\nwhich its output does not have (after the lines "
                      "before it); the output:\n%s", command, w, out_head);
        at++;
    }
}

/* Every ``` block of the README that starts `$ qsim ...` (or `$ ./qsim ...`): the command, run as
 * the README's examples are, prints what the block shows. */
START_TEST(test_shown_output)
{
    g_autofree char *path = g_build_filename(test_srcdir(), "README.md", NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autofree char *dir = example_dir();
    guint checked = 0;
    for (guint i = 0; lines[i]; i++) {
        if (strcmp(lines[i], "```") || !lines[i + 1] || !g_str_has_prefix(lines[i + 1], "$ "))
            continue;
        const char *command = lines[i + 1] + 2;
        guint end = i + 2;
        while (lines[end] && strcmp(lines[end], "```"))
            end++;
        ck_assert_msg(lines[end], "README: a ``` block from line %u does not end", i + 1);
        g_autofree char **want = g_new0(char *, end - i - 1);
        for (guint k = i + 2; k < end; k++)
            want[k - i - 2] = lines[k];
        i = end;
        gboolean elsewhere_run = FALSE;
        for (guint k = 0; k < G_N_ELEMENTS(output_elsewhere); k++)
            elsewhere_run |= !strcmp(command, output_elsewhere[k].command);
        if (elsewhere_run)
            continue;
        ck_assert_msg(g_str_has_prefix(command, "qsim ") || g_str_has_prefix(command, "./qsim "),
                      "README shows the output of `%s`, which this test does not run", command);
        g_autofree char *line = g_strconcat("./qsim ", strchr(command, ' ') + 1, NULL);
        if (!host_runs(line))
            continue;
        g_autofree char *out = NULL, *err = NULL;
        run_example(dir, line, &out, &err);
        check_shown_output(command, want, out);
        checked++;
    }
    ck_assert_uint_ge(checked, 2);
    rm_rf(dir);
}
END_TEST

Suite *make_readme_suite(void)
{
    Suite *s = suite_create("readme");
    TCase *tc = tcase_create("examples");
    tcase_add_test(tc, test_examples_run);
    tcase_add_test(tc, test_shown_output);
    tcase_set_timeout(tc, 240);
    suite_add_tcase(s, tc);
    return s;
}
