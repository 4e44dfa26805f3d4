/* `qsim litmus FILE... --config CFG [--runs N] [--seed S] [--expect KINDS] [--format text|json]`:
 * runs herd-format litmus tests on a machine model and reports, litmus7-style, the histogram of
 * final states and whether the condition was observed; with --expect, checks herd's verdicts.
 * `--exhaustive [--model sc|tso|arm64] [--unroll N]` gives instead every final state the
 * model allows, herd7-style (sim/memmodel/).  `--show` prints the ISA translation. */
#include <stdio.h>
#include "sim/cli/commands.h"
#include "sim/base/config.h"
#include "sim/litmus/litmus.h"
#include "sim/base/report.h"
#include "sim/memmodel/model.h"

static int show(char **files)
{
    for (guint i = 0; files[i]; i++) {
        g_autoptr(GError) e = NULL;
        g_autoptr(LitmusTest) t = NULL;
        g_autoptr(LitmusProgram) p = NULL;
        if (!litmus_load_file(files[i], &t, &p, &e))
            return cli_fail(e);
        g_autofree char *dump = litmus_program_dump(p);
        printf("# %s (%s, %u threads)\n%s\n", t->name, litmus_arch_name(t->arch), t->nthreads, dump);
    }
    return QSIM_EXIT_OK;
}

int cmd_litmus(int argc, char **argv)
{
    g_autofree char *config = NULL, *expect = NULL, *format = NULL;
    g_autofree char *model = NULL;
    gint runs = 1000, unroll = -1;
    gint64 seed = 1;
    gboolean show_only = FALSE, sc = FALSE, no_ff = FALSE, exhaustive = FALSE;
    GOptionEntry entries[] = {
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "Machine config to run on (required unless --sc or --exhaustive)", "CFG" },
        { "runs", 'n', 0, G_OPTION_ARG_INT, &runs, "Runs per test (default 1000)", "N" },
        { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the perturbations (default 1)", "S" },
        { "expect", 0, 0, G_OPTION_ARG_FILENAME, &expect,
          "herd kinds.txt: fail (exit 1) when a Forbidden outcome is seen or a Required one is not (with "
          "--exhaustive, also when an Allowed one is unreachable)", "KINDS" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: text (default) or json", "FMT" },
        { "show", 0, 0, G_OPTION_ARG_NONE, &show_only, "Print each test's ISA translation and exit", NULL },
        { "sc", 0, 0, G_OPTION_ARG_NONE, &sc, "Run on the sequentially consistent reference interpreter instead of a config", NULL },
        { "no-fast-forward", 0, 0, G_OPTION_ARG_NONE, &no_ff, "Simulate every cycle of cores spinning in steady loops (the outcomes are the same)", NULL },
        { "exhaustive", 0, 0, G_OPTION_ARG_NONE, &exhaustive,
          "Every final state the memory model allows, exactly, as herd7 finds them (no config needed)", NULL },
        { "model", 0, 0, G_OPTION_ARG_STRING, &model,
          "With --exhaustive: the memory model (default: tso for X86/X86_64, arm64 for AArch64)", "sc|tso|arm64" },
        { "unroll", 0, 0, G_OPTION_ARG_INT, &unroll,
          "With --exhaustive: backward branches a thread may take (default 2, as herd7)", "N" },
        { NULL },
    };
    if (!cli_parse_command(&argc, &argv, "FILE...",
                           "Run litmus tests (herdtools7 format: X86, X86_64, AArch64) on a machine model and report\n"
        "the final states seen, as litmus7 does; or, with --exhaustive, every final state the\n"
        "architecture's memory model allows and how many executions reach each, as herd7 does.\n"
        "Exit status: 0 ok, 1 an --expect check failed (or a run failed), 2 unreadable input.",
                           entries,
                           (const CliIntRange[]){ { "runs", 1, G_MAXINT }, { "seed", 0, G_MAXINT64 },
                                                  { "unroll", 0, 64 }, { NULL } }))
        return QSIM_EXIT_USAGE;
    if (argc < 2) {
        cli_eprintf("qsim litmus: name at least one .litmus file\n");
        return QSIM_EXIT_USAGE;
    }
    char **files = argv + 1;
    if (show_only)
        return show(files);
    g_autoptr(GError) error = NULL;
    ReportFormat fmt = REPORT_TEXT;
    if (format && (!report_format_parse(format, &fmt, &error) || fmt == REPORT_CSV)) {
        cli_eprintf("qsim litmus: --format %s: use text or json\n", format);
        return QSIM_EXIT_USAGE;
    }
    if ((model || unroll >= 0) && !exhaustive) {
        cli_eprintf("qsim litmus: --%s goes with --exhaustive\n", model ? "model" : "unroll");
        return QSIM_EXIT_USAGE;
    }
    if (exhaustive && sc) {
        cli_eprintf("qsim litmus: --exhaustive or --sc, not both (--exhaustive --model sc is the exact SC verdict)\n");
        return QSIM_EXIT_USAGE;
    }
    if (model && !mm_model_def_find(model)) {
        cli_eprintf("qsim litmus: --model %s: use one of %s\n", model, mm_model_names());
        return QSIM_EXIT_USAGE;
    }
    if (!exhaustive && !config == !sc) {
        cli_eprintf("qsim litmus: --config CFG is required (see `qsim list configs`), or --sc, or --exhaustive\n");
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(QsimConfig) cfg = config ? config_load(config, NULL, &error) : NULL;
    if (config && !cfg)
        return cli_fail(error);
    g_autoptr(GHashTable) kinds = NULL;
    if (expect && !(kinds = litmus_kinds_load(expect, &error)))
        return cli_fail(error);
    /* --exhaustive runs nothing; a config there only says which tests fit */
    g_autoptr(LitmusExecutor) ex = sc ? litmus_interp_executor_new() : cfg ? litmus_executor_for_config(cfg, &error)
                                                                          : NULL;
    if (!ex && !exhaustive)
        return cli_fail(error);
    if (cfg)
        litmus_executor_set_fast_forward(ex, !no_ff);
    LitmusJob job = { { (guint)runs, (guint64)seed }, fmt == REPORT_JSON, kinds, exhaustive,
                      { model, unroll >= 0 ? (guint)unroll : LITMUS_DEFAULT_UNROLL } };
    g_autoptr(GString) out = g_string_new(NULL);
    g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
    LitmusJobOutcome outcome = litmus_job_run((const char *const *)files, &job, ex, out, notes);
    fputs(out->str, stdout);
    for (guint i = 0; i < notes->len; i++)
        cli_eprintf("qsim litmus: %s\n", (char *)notes->pdata[i]);
    switch (outcome) {
    case LITMUS_JOB_OK: return QSIM_EXIT_OK;
    case LITMUS_JOB_FAILED: return QSIM_EXIT_FAILED;
    case LITMUS_JOB_BAD_INPUT: break;
    }
    cli_eprintf("qsim litmus: some tests did not run (above); exit status 2\n");
    return QSIM_EXIT_USAGE;
}
