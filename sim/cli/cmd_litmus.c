/* `qsim litmus FILE... --config CFG [--runs N] [--seed S] [--expect KINDS] [--format text|json]`:
 * runs herd-format litmus tests on a machine model and reports, litmus7-style, the histogram of
 * final states and whether the condition was observed; with --expect, checks herd's verdicts.
 * `--show` prints the ISA translation instead of running. */
#include <stdio.h>
#include "sim/cli/commands.h"
#include "sim/base/config.h"
#include "sim/litmus/litmus.h"
#include "sim/base/report.h"

static int show(char **files)
{
    for (guint i = 0; files[i]; i++) {
        g_autoptr(GError) e = NULL;
        g_autoptr(LitmusTest) t = litmus_parse_file(files[i], &e);
        g_autoptr(LitmusProgram) p = t ? litmus_translate(t, &e) : NULL;
        if (!p)
            return cli_fail(e);
        g_autofree char *dump = litmus_program_dump(p);
        printf("# %s (%s, %u threads)\n%s\n", t->name, litmus_arch_name(t->arch), t->nthreads, dump);
    }
    return QSIM_EXIT_OK;
}

int cmd_litmus(int argc, char **argv)
{
    g_autofree char *config = NULL, *expect = NULL, *format = NULL;
    gint runs = 1000;
    gint64 seed = 1;
    gboolean show_only = FALSE, sc = FALSE;
    GOptionEntry entries[] = {
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "Machine config to run on (required unless --sc)", "CFG" },
        { "runs", 'n', 0, G_OPTION_ARG_INT, &runs, "Runs per test (default 1000)", "N" },
        { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the perturbations (default 1)", "S" },
        { "expect", 0, 0, G_OPTION_ARG_FILENAME, &expect,
          "herd kinds.txt: fail (exit 1) when a Forbidden outcome is seen or a Required one is not", "KINDS" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: text (default) or json", "FMT" },
        { "show", 0, 0, G_OPTION_ARG_NONE, &show_only, "Print each test's ISA translation and exit", NULL },
        { "sc", 0, 0, G_OPTION_ARG_NONE, &sc, "Run on the sequentially consistent reference interpreter instead of a config", NULL },
        { NULL },
    };
    if (!cli_parse_command(&argc, &argv, "FILE...",
                           "Run litmus tests (herdtools7 format: X86, X86_64, AArch64) on a machine model and report\n"
        "the final states seen, as litmus7 does.  Exit status: 0 ok, 1 an --expect check failed\n"
        "(or a run failed), 2 unreadable input.",
                           entries))
        return QSIM_EXIT_USAGE;
    if (argc < 2) {
        fprintf(stderr, "qsim litmus: name at least one .litmus file\n");
        return QSIM_EXIT_USAGE;
    }
    char **files = argv + 1;
    if (show_only)
        return show(files);
    g_autoptr(GError) error = NULL;
    ReportFormat fmt = REPORT_TEXT;
    if (format && (!report_format_parse(format, &fmt, &error) || fmt == REPORT_CSV)) {
        fprintf(stderr, "qsim litmus: --format %s: use text or json\n", format);
        return QSIM_EXIT_USAGE;
    }
    if (runs <= 0) {
        fprintf(stderr, "qsim litmus: --runs must be at least 1\n");
        return QSIM_EXIT_USAGE;
    }
    if (!config == !sc) {
        fprintf(stderr, "qsim litmus: --config CFG is required (see `qsim list configs`), or --sc\n");
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(QsimConfig) cfg = sc ? NULL : config_load(config, NULL, &error);
    if (!sc && !cfg)
        return cli_fail(error);
    g_autoptr(GHashTable) kinds = NULL;
    if (expect && !(kinds = litmus_kinds_load(expect, &error)))
        return cli_fail(error);
    LitmusJob job = { { (guint)runs, (guint64)seed }, fmt == REPORT_JSON, kinds };
    GString *out = g_string_new(NULL), *err = g_string_new(NULL);
    /* Every readable test runs; an unreadable file is named and makes the exit status 2 at the
     * end, so that one bad file in a catalogue does not hide the verdicts of all the others. */
    g_autoptr(GPtrArray) readable = g_ptr_array_new();
    gboolean unreadable = FALSE, wrong_arch = FALSE;
    for (guint i = 0; files[i]; i++) {
        g_autoptr(GError) e = NULL;
        g_autoptr(LitmusTest) t = litmus_parse_file(files[i], &e);
        g_autoptr(LitmusProgram) p = t ? litmus_translate(t, &e) : NULL;
        if (!p) {
            g_string_append_printf(err, "qsim litmus: %s\n", e->message);
            unreadable = TRUE;
            continue;
        }
        /* An X86 test on an arm64 machine (or the reverse) would test nothing meaningful. */
        Arch want = t->arch == LITMUS_AARCH64 ? ARCH_ARM64 : ARCH_X86;
        if (cfg && want != cfg->arch) {
            g_string_append_printf(err, "qsim litmus: %s: a %s test cannot run on config %s (arch %s)\n",
                                   files[i], litmus_arch_name(t->arch), cfg->name,
                                   arch_name(cfg->arch));
            wrong_arch = TRUE;
            continue;
        }
        g_ptr_array_add(readable, files[i]);
    }
    g_ptr_array_add(readable, NULL);
    int rc = QSIM_EXIT_OK;
    if (wrong_arch) {
        rc = QSIM_EXIT_USAGE;
    } else if (readable->len > 1) {
        g_autoptr(LitmusExecutor) ex = sc ? litmus_interp_executor_new() : litmus_executor_for_config(cfg, &error);
        if (!ex)
            rc = cli_fail(error);
        else
            switch (litmus_job_run((const char *const *)readable->pdata, &job, ex, out, err)) {
            case LITMUS_JOB_OK: rc = QSIM_EXIT_OK; break;
            case LITMUS_JOB_FAILED: rc = QSIM_EXIT_FAILED; break;
            case LITMUS_JOB_BAD_INPUT: rc = QSIM_EXIT_USAGE; break;
            }
    }
    if (unreadable) {
        g_string_append(err, "qsim litmus: some files could not be read (above); exit status 2\n");
        rc = QSIM_EXIT_USAGE;
    }
    fputs(out->str, stdout);
    fputs(err->str, stderr);
    g_string_free(out, TRUE);
    g_string_free(err, TRUE);
    return rc;
}
