/* `qsim sweep`: run every point of a sweep file in parallel, or merge shard folders. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sim/cli/commands.h"
#include "sim/sweep/sweep.h"
#include "sim/base/whole_number.h"

/* --shard I/N: two whole numbers read as every integer option is, 1 <= I <= N. */
static gboolean parse_shard(const char *s, guint *i, guint *n)
{
    const char *slash = strchr(s, '/');
    if (!slash)
        return FALSE;
    g_autofree char *a_text = g_strndup(s, (gsize)(slash - s));
    guint64 a, b;
    if (!whole_number_parse("I", a_text, 1, G_MAXUINT, &a, NULL) ||
        !whole_number_parse("N", slash + 1, 1, G_MAXUINT, &b, NULL) || a > b)
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
            cli_eprintf("qsim sweep: point %u (%s) failed\n", r->point, r->key);
    }
    if (failed > shown)
        cli_eprintf("qsim sweep: ... and %u more failed points\n", failed - shown);
    if (failed)
        cli_eprintf("qsim sweep: the reasons are in %s (field `failure`)\n", path);
}

/* ---- progress on stderr ---- */

/* A terminal gets one line redrawn in place; anything else (a batch job's log, nohup.out) a
 * line now and then (sweep_progress_due). */
typedef struct {
    gboolean live;
    gboolean drawn;            /* live: a line is on the screen */
    gboolean started;          /* lines: the first line is written */
    SweepProgressMark mark;
} ProgressPrinter;

static void on_progress(const SweepProgress *p, gboolean finished, gpointer user)
{
    (void)finished;
    ProgressPrinter *pp = user;
    g_autofree char *text = sweep_progress_text(p);
    if (pp->live) {
        fprintf(stderr, "\r\033[Kqsim sweep: %s", text);   /* \033[K: clear the rest of the line */
        pp->drawn = TRUE;
    } else if (!pp->started || sweep_progress_due(p, &pp->mark)) {
        if (!pp->started)
            fprintf(stderr, "qsim sweep: %u points to run on %u worker%s\n", p->total, p->workers,
                    p->workers == 1 ? "" : "s");
        else
            fprintf(stderr, "qsim sweep: %s\n", text);
        pp->started = TRUE;
        pp->mark = (SweepProgressMark){ p->done, p->elapsed };
    }
    fflush(stderr);
}

/* "host time 1:02:03 in all, the dearest point 17 (41.2 s)" from DIR/host-times.jsonl. */
static char *host_time_summary(const char *dir)
{
    g_autoptr(GPtrArray) times = sweep_host_times_read(dir, NULL);
    if (!times || !times->len)
        return NULL;
    double total = 0, most = -1;
    guint dearest = 0;
    for (guint i = 0; i < times->len; i++) {
        double t = sweep_host_time_seconds(times->pdata[i]);
        total += t;
        if (t > most) {
            most = t;
            dearest = ((SweepRow *)times->pdata[i])->point;
        }
    }
    g_autofree char *all = sweep_duration_text(total);
    return g_strdup_printf("host time %s in all, the dearest point %u (%.3g s); per point in %s/%s", all, dearest,
                           most, dir, SWEEP_HOST_TIMES);
}

static void print_plot_paths(const char *dir)
{
    printf("qsim sweep: plots in %s/plot.png and %s/plot.svg (script %s/plot.gp)\n", dir, dir, dir);
}

/* The plot: the command line's choices, else the sweep's (its file, or a merged folder's
 * sweep.json). */
static gboolean plot_options(const char *y, const char *x, const char *scale, const char *sweep_y,
                             const char *sweep_x, const char *sweep_scale, SweepPlotOptions *o, GError **error)
{
    o->y = y ? y : sweep_y;
    o->x = x ? x : sweep_x;
    o->ns = FALSE;
    o->scale = SWEEP_SCALE_SHARED;
    const char *sc = scale ? scale : sweep_scale;
    if (sc && !sweep_plot_scale_parse(sc, &o->scale, error)) {
        g_prefix_error(error, "--plot-scale: ");
        return FALSE;
    }
    return TRUE;
}

static gboolean print_aggregate(const char *dir, GError **error)
{
    guint groups = 0;
    if (!sweep_aggregate(dir, &groups, error))
        return FALSE;
    printf("qsim sweep: %u rows over the seeds in %s/aggregate.csv\n", groups, dir);
    return TRUE;
}

/* What `qsim sweep` parses. */
typedef struct {
    gint jobs;                 /* 0 (below its range): not given, the host's CPUs */
    char *out, *shard, *plot_y, *plot_x, *plot_scale, *plot_unit;
    CcFlags cc;                /* the compiler of the locks in C */
    char **lock_files;
    gboolean resume, plot, merge, quiet, aggregate, force;
} SweepFlags;

/* --plot-unit ns: y (which must be in cycles) in time. */
static gboolean plot_unit(const SweepFlags *f, SweepPlotOptions *o, GError **error)
{
    o->ns = f->plot_unit && !strcmp(f->plot_unit, "ns");
    return !o->ns || sweep_plot_unit_ok(o->y ? o->y : "cycles_per_acquisition", error);
}

static void sweep_flags_clear(SweepFlags *f)
{
    g_free(f->out);
    g_free(f->shard);
    g_free(f->plot_y);
    g_free(f->plot_x);
    g_free(f->plot_scale);
    g_free(f->plot_unit);
    g_strfreev(f->lock_files);
    cc_flags_clear(&f->cc);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SweepFlags, sweep_flags_clear)

static gboolean sweep_parse(int *argc, char ***argv, SweepFlags *f)
{
    GOptionEntry entries[] = {
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &f->jobs, "Points run at once, one thread each (default: the host's CPUs)", "N" },
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &f->out, "Results folder (default: sweep-out/NAME for sweeps/NAME.yaml)", "DIR" },
        { "lock-file", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &f->lock_files,
          "Add a lock of your own to the sweep's locks (repeatable)", "PATH" },
        CC_FLAGS_ENTRIES(&f->cc),
        { "shard", 0, 0, G_OPTION_ARG_STRING, &f->shard, "Run only points whose index mod N is I-1 (for a job array)", "I/N" },
        { "resume", 0, 0, G_OPTION_ARG_NONE, &f->resume, "Skip points already in DIR/results.jsonl", NULL },
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &f->quiet, "No progress on stderr", NULL },
        { "plot", 0, 0, G_OPTION_ARG_NONE, &f->plot, "Also draw DIR/plot.png and DIR/plot.svg with gnuplot", NULL },
        { "plot-y", 0, 0, G_OPTION_ARG_STRING, &f->plot_y,
          "Metric to plot: a results.csv report column, or KEY/KEY2 for a ratio such as "
          "coherence.lock_line.rfo/acquisitions (default: the sweep's plot_y, else cycles_per_acquisition)", "KEY" },
        { "plot-x", 0, 0, G_OPTION_ARG_STRING, &f->plot_x, "Axis to plot against (default: the sweep's plot_x, else threads)", "AXIS" },
        { "plot-scale", 0, 0, G_OPTION_ARG_STRING, &f->plot_scale,
          "Panels' y ranges: shared (default) or independent", "shared|independent" },
        { "plot-unit", 0, 0, G_OPTION_ARG_STRING, &f->plot_unit,
          "y in cycles as reported (default) or in ns at each config's clock (frequency_ghz), so that machines with "
          "different clocks compare", "cycles|ns" },
        { "merge", 0, 0, G_OPTION_ARG_NONE, &f->merge,
          "Join the shard folders given as arguments into --out, a new or empty folder", NULL },
        { "force", 0, 0, G_OPTION_ARG_NONE, &f->force,
          "--merge: replace the results in an --out folder that already holds something", NULL },
        { "aggregate", 0, 0, G_OPTION_ARG_NONE, &f->aggregate,
          "Also write DIR/aggregate.csv: the seeds axis collapsed, every number as mean, sd and 95% interval "
          "over the seeds (give the sweep a jitter so that seeds differ)", NULL },
        { NULL },
    };
    return cli_parse_command(argc, argv, "SWEEP | --merge DIR...",
                             "Run every point of a sweep file (the cross product of its axes; see " QSIM_DOC("sweeps.md") ") in\n"
        "parallel and write DIR/results.csv and DIR/results.jsonl, one row per point, sorted by point.\n"
        "SWEEP is a path, or the name of an example sweep (pause, rob, protocol, seed-study).\n"
        "Exit 0 when every point succeeded, 1 when any failed (mutual exclusion, stall), 2 on bad input.",
                             entries, (const CliIntRange[]){ { "jobs", 1, SWEEP_MAX_JOBS }, { NULL } });
}

/* The options both kinds of sweep command share; FALSE after printing the problem. */
static gboolean check_common(SweepFlags *f)
{
    g_autoptr(GError) error = NULL;
    if (f->out && !cli_output_path_ok("--out", f->out))
        return FALSE;
    if (f->force && !f->merge) {
        cli_eprintf("qsim sweep: --force belongs to --merge (a sweep never overwrites results: see --resume)\n");
        return FALSE;
    }
    if (f->plot_y || f->plot_x || f->plot_scale || f->plot_unit)
        f->plot = TRUE;   /* asking for an axis of the plot asks for the plot */
    if (f->plot_unit && strcmp(f->plot_unit, "cycles") && strcmp(f->plot_unit, "ns")) {
        cli_eprintf("qsim sweep: --plot-unit %s: one of cycles, ns\n", f->plot_unit);
        return FALSE;
    }
    SweepPlotScale scale_check;
    if (f->plot_scale && !sweep_plot_scale_parse(f->plot_scale, &scale_check, &error)) {
        g_prefix_error(&error, "--plot-scale: ");
        cli_fail(error);
        return FALSE;
    }
    /* Check for gnuplot before running anything: a sweep can take hours. */
    g_autofree char *gnuplot = f->plot ? g_find_program_in_path("gnuplot") : NULL;
    if (f->plot && !gnuplot) {
        cli_eprintf("qsim sweep: --plot needs gnuplot, which is not installed "
                    "(Debian: apt-get install gnuplot-nox; `make` as root installs it)\n");
        return FALSE;
    }
    return TRUE;
}

/* The plot and the aggregate of the results in `dir`, as asked; FALSE with the error. */
static gboolean sweep_outputs(const SweepFlags *f, const char *dir, const SweepPlotOptions *po, GError **error)
{
    if (f->plot && !sweep_plot(dir, po, error))
        return FALSE;
    if (f->plot)
        print_plot_paths(dir);
    return !f->aggregate || print_aggregate(dir, error);
}

/* --merge DIR...: the shard folders joined into --out. */
static int merge_command(const SweepFlags *f, int argc, char **argv)
{
    g_autoptr(GError) error = NULL;
    if (argc < 2 || !f->out) {
        cli_eprintf("qsim sweep --merge: give the shard folders and --out DIR\n");
        return QSIM_EXIT_USAGE;
    }
    if (f->lock_files) {
        cli_eprintf("qsim sweep --merge: --lock-file belongs to the runs of the shards, not to the merge\n");
        return QSIM_EXIT_USAGE;
    }
    guint missing = 0;
    SweepMeta meta = { 0 };
    if (!sweep_merge((const char *const *)argv + 1, f->out, f->force, &missing, &meta, &error))
        return cli_fail(error);
    printf("qsim sweep: merged %d folders into %s/results.csv\n", argc - 1, f->out);
    SweepPlotOptions po;
    gboolean po_ok = plot_options(f->plot_y, f->plot_x, f->plot_scale, meta.plot_y, meta.plot_x, meta.plot_scale, &po,
                                  &error) && plot_unit(f, &po, &error);
    gboolean done = po_ok && sweep_outputs(f, f->out, &po, &error); /* po points into meta */
    sweep_meta_clear(&meta);
    if (!done)
        return cli_fail(error);
    report_failures(f->out);
    if (missing) {
        cli_eprintf("qsim sweep: %u points are in none of the folders (a shard missing or unfinished)\n", missing);
        return QSIM_EXIT_FAILED;
    }
    g_autofree char *path = g_build_filename(f->out, "results.jsonl", NULL);
    g_autoptr(GPtrArray) rows = sweep_rows_read(path, NULL, NULL);
    for (guint i = 0; rows && i < rows->len; i++)
        if (!((SweepRow *)rows->pdata[i])->ok)
            return QSIM_EXIT_FAILED;
    return QSIM_EXIT_OK;
}

/* SWEEP: every point of the file (or of this shard) run into --out. */
static int run_command(const SweepFlags *f, int argc, char **argv)
{
    g_autoptr(GError) error = NULL;
    if (argc != 2) {
        cli_eprintf("qsim sweep: give one sweep file (try `qsim sweep --help`)\n");
        return QSIM_EXIT_USAGE;
    }
    ProgressPrinter printer = { .live = isatty(STDERR_FILENO) };
    SweepRunOptions o = { .jobs = f->jobs > 0 ? (guint)f->jobs : MIN(g_get_num_processors(), SWEEP_MAX_JOBS),
                          .shard = 1, .nshards = 1, .resume = f->resume, .progress = f->quiet ? NULL : on_progress,
                          .progress_user = &printer };
    if (f->shard && !parse_shard(f->shard, &o.shard, &o.nshards)) {
        cli_eprintf("qsim sweep: --shard %s: expected I/N with 1 <= I <= N, e.g. 2/8\n", f->shard);
        return QSIM_EXIT_USAGE;
    }
    g_autofree char *file = sweep_find_file(argv[1], &error);
    if (!file || !cc_flags_apply(&f->cc, NULL, 0, &error))
        return cli_fail(error);
    SweepLoadOptions lo = { .lock_files = (const char *const *)f->lock_files };
    g_autoptr(Sweep) s = sweep_load(file, &lo, &error);
    if (!s)
        return cli_fail(error);
    SweepPlotOptions po;
    if (!plot_options(f->plot_y, f->plot_x, f->plot_scale, s->plot_y, s->plot_x, s->plot_scale, &po, &error) ||
        !plot_unit(f, &po, &error) ||
        ((f->plot || s->plot_y || s->plot_x) && !sweep_plot_check(s, &po, &error)))
        return cli_fail(error);
    g_autofree char *def_out = NULL;
    if (!f->out) {
        g_autofree char *base = g_path_get_basename(file);
        if (g_str_has_suffix(base, ".yaml"))
            base[strlen(base) - 5] = 0;
        def_out = g_build_filename("sweep-out", base, NULL);
    }
    o.out = f->out ? f->out : def_out;
    guint failed = 0;
    gboolean ran = sweep_execute(s, &o, &failed, &error);
    if (printer.drawn)
        fputc('\n', stderr);
    if (!ran)
        return cli_fail(error);
    printf("qsim sweep: %u points%s%s, %u failed; results in %s/results.csv\n", s->npoints,
           o.nshards > 1 ? " in the sweep, this shard " : "", o.nshards > 1 ? f->shard : "", failed, o.out);
    g_autofree char *times = host_time_summary(o.out);
    if (times)
        printf("qsim sweep: %s\n", times);
    if (!sweep_outputs(f, o.out, &po, &error))
        return cli_fail(error);
    report_failures(o.out);
    return failed ? QSIM_EXIT_FAILED : QSIM_EXIT_OK;
}

int cmd_sweep(int argc, char **argv)
{
    g_auto(SweepFlags) f = { 0 };
    if (!sweep_parse(&argc, &argv, &f))
        return QSIM_EXIT_USAGE;
    if (!check_common(&f))
        return QSIM_EXIT_USAGE;
    return f.merge ? merge_command(&f, argc, argv) : run_command(&f, argc, argv);
}
