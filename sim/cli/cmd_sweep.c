/* `qsim sweep`: run every point of a sweep file in parallel, or merge shard folders. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sim/cli/commands.h"
#include "sim/sweep/sweep.h"

static gboolean parse_shard(const char *s, guint *i, guint *n)
{
    char *end = NULL;
    guint64 a = g_ascii_strtoull(s, &end, 10);
    if (end == s || *end != '/')
        return FALSE;
    const char *b_text = end + 1;
    guint64 b = g_ascii_strtoull(b_text, &end, 10);
    if (end == b_text || *end || b < 1 || a < 1 || a > b || b > G_MAXUINT)
        return FALSE;
    *i = (guint)a;
    *n = (guint)b;
    return TRUE;
}

/* Names the failed points on stderr (the first few; results.jsonl has every message). */
static void report_failures(const char *dir)
{
    g_autofree char *path = g_build_filename(dir, "results.jsonl", NULL);
    g_autoptr(GPtrArray) rows = sweep_rows_read(path, NULL, NULL);
    guint shown = 0, failed = 0;
    for (guint i = 0; rows && i < rows->len; i++) {
        SweepRow *r = rows->pdata[i];
        if (r->ok)
            continue;
        failed++;
        if (shown++ < 10)
            fprintf(stderr, "qsim sweep: point %u (%s) failed\n", r->point, r->key);
    }
    if (failed > shown)
        fprintf(stderr, "qsim sweep: ... and %u more failed points\n", failed - shown);
    if (failed)
        fprintf(stderr, "qsim sweep: the reasons are in %s (field `failure`)\n", path);
}

int cmd_sweep(int argc, char **argv)
{
    gint jobs = 0;
    g_autofree char *out = NULL, *shard = NULL, *plot_y = NULL, *plot_x = NULL;
    gboolean resume = FALSE, plot = FALSE, merge = FALSE;
    GOptionEntry entries[] = {
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Points run at once, one thread each (default: the host's CPUs)", "N" },
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Results folder (default: sweep-out/NAME for sweeps/NAME.yaml)", "DIR" },
        { "shard", 0, 0, G_OPTION_ARG_STRING, &shard, "Run only points whose index mod N is I-1 (for a job array)", "I/N" },
        { "resume", 0, 0, G_OPTION_ARG_NONE, &resume, "Skip points already in DIR/results.jsonl", NULL },
        { "plot", 0, 0, G_OPTION_ARG_NONE, &plot, "Also draw DIR/plot.png and DIR/plot.svg with gnuplot", NULL },
        { "plot-y", 0, 0, G_OPTION_ARG_STRING, &plot_y, "Metric to plot: any results.csv report column (default cycles_per_acquisition)", "KEY" },
        { "plot-x", 0, 0, G_OPTION_ARG_STRING, &plot_x, "Axis to plot against (default threads)", "AXIS" },
        { "merge", 0, 0, G_OPTION_ARG_NONE, &merge, "Join the shard folders given as arguments into --out", NULL },
        { NULL },
    };
    if (!cli_parse_command(&argc, &argv, "SWEEP.yaml | --merge DIR...",
                           "Run every point of a sweep file (the cross product of its axes; see docs/sweeps.md) in\n"
        "parallel and write DIR/results.csv and DIR/results.jsonl, one row per point, sorted by point.\n"
        "Exit 0 when every point succeeded, 1 when any failed (mutual exclusion, stall), 2 on bad input.",
                           entries))
        return QSIM_EXIT_USAGE;
    g_autoptr(GError) error = NULL;
    if ((plot_y || plot_x) && !plot)
        plot = TRUE;   /* asking for an axis of the plot asks for the plot */
    /* Check for gnuplot before running anything: a sweep can take hours. */
    g_autofree char *gnuplot = plot ? g_find_program_in_path("gnuplot") : NULL;
    if (plot && !gnuplot) {
        fprintf(stderr, "qsim sweep: --plot needs gnuplot, which is not installed "
                        "(Debian: apt-get install gnuplot-nox; `make` as root installs it)\n");
        return QSIM_EXIT_USAGE;
    }

    if (merge) {
        if (argc < 2 || !out) {
            fprintf(stderr, "qsim sweep --merge: give the shard folders and --out DIR\n");
            return QSIM_EXIT_USAGE;
        }
        guint missing = 0;
        if (!sweep_merge((const char *const *)argv + 1, out, &missing, &error))
            return cli_fail(error);
        printf("qsim sweep: merged %d folders into %s/results.csv\n", argc - 1, out);
        if (plot && !sweep_plot(out, plot_y, plot_x, &error))
            return cli_fail(error);
        report_failures(out);
        if (missing) {
            fprintf(stderr, "qsim sweep: %u points are in none of the folders (a shard missing or unfinished)\n",
                    missing);
            return QSIM_EXIT_FAILED;
        }
        g_autofree char *path = g_build_filename(out, "results.jsonl", NULL);
        g_autoptr(GPtrArray) rows = sweep_rows_read(path, NULL, NULL);
        for (guint i = 0; rows && i < rows->len; i++)
            if (!((SweepRow *)rows->pdata[i])->ok)
                return QSIM_EXIT_FAILED;
        return QSIM_EXIT_OK;
    }

    if (argc != 2) {
        fprintf(stderr, "qsim sweep: give one sweep file (try `qsim sweep --help`)\n");
        return QSIM_EXIT_USAGE;
    }
    SweepRunOptions o = { .jobs = jobs > 0 ? (guint)jobs : g_get_num_processors(), .shard = 1, .nshards = 1,
                          .resume = resume, .progress = isatty(STDERR_FILENO) };
    if (jobs < 0) {
        fprintf(stderr, "qsim sweep: --jobs must be at least 1\n");
        return QSIM_EXIT_USAGE;
    }
    if (shard && !parse_shard(shard, &o.shard, &o.nshards)) {
        fprintf(stderr, "qsim sweep: --shard %s: expected I/N with 1 <= I <= N, e.g. 2/8\n", shard);
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(Sweep) s = sweep_load(argv[1], &error);
    if (!s)
        return cli_fail(error);
    g_autofree char *def_out = NULL;
    if (!out) {
        g_autofree char *base = g_path_get_basename(argv[1]);
        if (g_str_has_suffix(base, ".yaml"))
            base[strlen(base) - 5] = 0;
        def_out = g_build_filename("sweep-out", base, NULL);
    }
    o.out = out ? out : def_out;
    guint failed = 0;
    if (!sweep_execute(s, &o, &failed, &error))
        return cli_fail(error);
    printf("qsim sweep: %u points%s%s, %u failed; results in %s/results.csv\n", s->npoints,
           o.nshards > 1 ? " in the sweep, this shard " : "", o.nshards > 1 ? shard : "", failed, o.out);
    if (plot && !sweep_plot(o.out, plot_y ? plot_y : s->plot_y, plot_x ? plot_x : s->plot_x, &error))
        return cli_fail(error);
    if (plot)
        printf("qsim sweep: plots in %s/plot.png and %s/plot.svg (script %s/plot.gp)\n", o.out, o.out, o.out);
    report_failures(o.out);
    return failed ? QSIM_EXIT_FAILED : QSIM_EXIT_OK;
}
