/* Parameter sweeps: a YAML file names axes (configs, locks, run options, config keys, seeds);
 * the points are their cross product, minus `exclude`d combinations, run in parallel, written
 * one row per point to DIR/results.jsonl and DIR/results.csv (docs/sweeps.md).
 *
 * Point order: axes in file order, the first axis varying slowest (like nested loops written
 * top to bottom).  Point indices count from 0 in that order, after exclusion. */
#ifndef QSIM_SWEEP_H
#define QSIM_SWEEP_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/base/config.h"
#include "sim/run.h"

#define QSIM_SWEEP_ERROR (qsim_sweep_error_quark())
GQuark qsim_sweep_error_quark(void);
typedef enum {
    QSIM_SWEEP_ERROR_INPUT,     /* a bad sweep file or option: exit 2 */
    QSIM_SWEEP_ERROR_IO,        /* results could not be read or written: exit 2 */
    QSIM_SWEEP_ERROR_MISMATCH,  /* results on disk come from another sweep: exit 2 */
    QSIM_SWEEP_ERROR_BUSY,      /* another sweep is writing the results folder: exit 2 */
} QsimSweepError;

typedef enum {
    AXIS_CONFIG, AXIS_LOCK, AXIS_SEED,
    AXIS_WORKLOAD,         /* a run option: a row of the workload schema (sim/workload.h) */
    AXIS_CONFIG_KEY,
    AXIS_LOCK_PARAM,       /* `lock_param.NAME`: a lock's `.param` (--lock-param NAME=VALUE) */
} SweepAxisKind;

/* The prefix of a lock parameter axis. */
#define SWEEP_LOCK_PARAM_PREFIX "lock_param."

/* One axis: its name as written in the file and its values as text (ranges expanded), each
 * checked when loaded (so a point can only fail at run time for reasons the run itself finds). */
typedef struct {
    char *name;            /* "threads", "core.pause_cycles" */
    SweepAxisKind kind;
    const WorkloadKey *key; /* AXIS_WORKLOAD: its schema row */
    GPtrArray *values;     /* of char *, at least one, no repeats */
    GPtrArray *lock_files; /* AXIS_LOCK: per value, the lock file it names (found by
                            * sweep_find_lock), or NULL for a built-in lock */
} SweepAxis;

/* Invariant: points->len == npoints * axes->len; row p holds each axis's value index. */
typedef struct {
    char *filename;
    GPtrArray *axes;       /* of SweepAxis *, in file order */
    GArray *points;        /* of guint */
    guint npoints;
    guint excluded;        /* combinations removed by `exclude` */
    char *fingerprint;     /* SHA-256 of every point's key: the identity of the sweep */
    char *plot_x, *plot_y; /* `plot_x:`/`plot_y:` in the file: --plot's defaults, or NULL */
    char *plot_scale;      /* `plot_scale:` ("shared" or "independent"), or NULL */
} Sweep;

/* What the command line adds to a sweep file. */
typedef struct {
    const char *const *lock_files; /* --lock-file PATH (NULL-terminated, or NULL): appended to the
                                    * `locks` axis (made if the file has none); paths as given */
} SweepLoadOptions;

/* `o` may be NULL.  Lock files the sweep file names are found relative to its folder. */
Sweep *sweep_load(const char *path, const SweepLoadOptions *o, GError **error);
Sweep *sweep_load_string_full(const char *text, const char *filename, const SweepLoadOptions *o, GError **error);
/* sweep_load_string_full with no options. */
Sweep *sweep_load_string(const char *text, const char *filename, GError **error);
/* The sweep file `name` names: a path as it is, else NAME or NAME.yaml in the `sweeps` folders
 * (the source tree's, or the installed data folder's: config_search_dirs("sweeps")). */
char *sweep_find_file(const char *name, GError **error);
/* Finds the lock a `locks` value names: *file is the lock file, or NULL for a built-in lock.
 * A value that holds a '/' or ends in ".qs" is a lock file, found relative to `base` (the sweep
 * file's folder; NULL: the working folder) unless absolute; a bare "NAME.qs" that is not there
 * may still be the built-in NAME.  Every other value is a built-in lock (lock_find).
 * The one place sweeps look a lock up; names go through the shared search (sim/lock_find.h). */
gboolean sweep_find_lock(const char *value, const char *base, char **file, GError **error);
void sweep_free(Sweep *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Sweep, sweep_free)

/* Value text of axis `a` at point `p`. */
const char *sweep_value(const Sweep *s, guint p, guint a);
/* "configs=teaching;locks=tas;threads=2": what resume and merge compare. */
char *sweep_point_key(const Sweep *s, guint p);
/* Fills `o` (already run_options_init'ed) for point p; `sets` receives the config-key
 * overrides, then the lock parameters (each list NULL-terminated), and must outlive `o`
 * (o->sets and o->lock_params point into it). */
void sweep_point_options(const Sweep *s, guint p, RunOptions *o, GPtrArray *sets);
/* The axis named `name`, or -1. */
int sweep_axis_find(const Sweep *s, const char *name);

/* ---- progress (sim/sweep/sweep_progress.c) ---- */
/* Where a sweep stands, as the progress callback sees it. */
typedef struct {
    guint total;           /* points this run has to run (after --shard and --resume) */
    guint done, failed;    /* finished so far, and of those failed */
    guint workers;         /* worker threads */
    double elapsed;        /* seconds since the first point started */
    double done_seconds;   /* host seconds of the finished points, summed */
    const double *running; /* seconds each point in flight has run so far */
    guint nrunning;
} SweepProgress;

/* Seconds left, or a negative number while no point has finished: the mean host time of the
 * finished points for each point not finished, less what the points in flight have already
 * run, spread over the workers (but never less than the longest point in flight still needs).
 * Points run in a shuffled order (sweep_run_order), so the finished ones are a fair sample. */
double sweep_eta(const SweepProgress *p);
/* "12/120 points (10%), 1 failed, 0:35 elapsed, about 5:15 left" */
char *sweep_progress_text(const SweepProgress *p);
/* "1:02:03" or "4:05" */
char *sweep_duration_text(double seconds);

/* Line-oriented progress (stderr not a terminal: a batch job's log): a line when a tenth more
 * of the points has finished, when SWEEP_PROGRESS_INTERVAL seconds passed since the last line,
 * and when the last point finishes. */
#define SWEEP_PROGRESS_INTERVAL 60.0
typedef struct {
    guint done;            /* points finished at the last line */
    double at;             /* elapsed seconds at the last line */
} SweepProgressMark;
gboolean sweep_progress_due(const SweepProgress *p, const SweepProgressMark *last);

/* ---- running (sim/sweep/sweep_run.c) ---- */
typedef struct {
    guint jobs;            /* worker threads, 1 to SWEEP_MAX_JOBS */
    const char *out;       /* results folder */
    guint shard, nshards;  /* run points with index % nshards == shard - 1 */
    gboolean resume;
    /* Called with the sweep's state locked: after each point and about once a second while
     * points run (finished TRUE after a point), or NULL.  It may print; it must not block. */
    void (*progress)(const SweepProgress *p, gboolean finished, gpointer user);
    gpointer progress_user;
} SweepRunOptions;

/* The order points run in: the indices `pending` (ascending) shuffled by a fixed stream, the
 * same on every run, so that the points finished early are a fair sample of cheap and dear
 * ones (a sweep's later axes values are often dearer: more threads) and the time left can be
 * told from them.  Results do not depend on it (they are sorted by point). */
void sweep_run_order(GArray *pending);
/* Host seconds each point took, beside the results (DIR/host-times.jsonl: one line per point,
 * {"point", "key", "host_seconds"}, sorted by point at the end): the results themselves leave
 * host time out so that they compare byte for byte. */
#define SWEEP_HOST_TIMES "host-times.jsonl"
/* Runs the sweep's points (those not already done, when resuming).  FALSE with an error for
 * bad input or I/O; otherwise TRUE with *failed set to the number of failed points. */
gboolean sweep_execute(const Sweep *s, const SweepRunOptions *o, guint *failed, GError **error);
/* Points run at once at most (threads of one process). */
#define SWEEP_MAX_JOBS 1024u

/* ---- one writer per results folder (sim/sweep/sweep_lock.c) ---- */
#define SWEEP_LOCK_FILE "sweep.lock"
/* Takes DIR/sweep.lock (DIR must exist), or fails at once (QSIM_SWEEP_ERROR_BUSY, naming the
 * holder's pid and host) when another process holds it.  *fd is released by sweep_out_unlock
 * (or by the process's exit). */
gboolean sweep_out_lock(const char *dir, int *fd, GError **error);
void sweep_out_unlock(int fd);

/* ---- results (sim/sweep/sweep_results.c) ---- */
/* One line of results.jsonl, kept as written so that rewriting it changes no byte. */
typedef struct {
    guint point;
    char *key;
    char *line;            /* without the newline */
    gboolean ok;
} SweepRow;

/* The JSON line for a finished point (status, failure and report; report may be NULL). */
char *sweep_row_json(const Sweep *s, guint p, const RunResult *r, const char *error_text);
/* Reads DIR/results.jsonl.  A last line cut short by a kill is dropped (with *torn set).
 * Rows are returned in file order; free with g_ptr_array_unref. */
GPtrArray *sweep_rows_read(const char *path, gboolean *torn, GError **error);
/* Sorts rows by point, writes DIR/results.jsonl and DIR/results.csv atomically (temp file,
 * fsync, rename). */
gboolean sweep_results_write(const char *dir, GPtrArray *rows, GError **error);
/* DIR/sweep.json: which sweep a folder's rows belong to, and the plot it was made for (so that
 * `--merge --plot` draws what the sweep file asked for). */
typedef struct {
    char *fingerprint;
    guint npoints;
    char *source;          /* the sweep file */
    guint shard, nshards;
    char *plot_x, *plot_y, *plot_scale; /* the sweep file's, or NULL */
} SweepMeta;
void sweep_meta_clear(SweepMeta *m);
/* The description of sweep `s` run as shard I of N. */
void sweep_meta_of(const Sweep *s, guint shard, guint nshards, SweepMeta *m);
gboolean sweep_meta_write(const char *dir, const SweepMeta *m, GError **error);
gboolean sweep_meta_read(const char *dir, SweepMeta *m, GError **error);
/* Joins shard folders into `out` (results, host times, and the sweep's description, *meta when
 * not NULL); *missing counts points no folder had.  `out` must be new or empty, or the only
 * folder merged (a replot: its rows are written back unchanged); a folder that holds something
 * else, or one of several folders merged, only with `force` (its results are then replaced). */
gboolean sweep_merge(const char *const *dirs, const char *out, gboolean force, guint *missing, SweepMeta *meta,
                     GError **error);
/* Rows of DIR/host-times.jsonl, whose `line` holds host_seconds (none when the file is missing). */
GPtrArray *sweep_host_times_read(const char *dir, GError **error);
/* Sorts the rows by point and writes DIR/host-times.jsonl atomically. */
gboolean sweep_host_times_write(const char *dir, GPtrArray *rows, GError **error);
/* The JSON line of one point's host time. */
char *sweep_host_time_json(const Sweep *s, guint p, double seconds);
/* The host seconds in a DIR/host-times.jsonl row. */
double sweep_host_time_seconds(const SweepRow *row);
/* Appends `line` and a newline to f (the file `path`, which errors name), then flushes to disk:
 * a finished point survives a kill. */
gboolean sweep_append_line(FILE *f, const char *path, const char *line, GError **error);
void sweep_row_free(gpointer row);

/* ---- aggregation (sim/sweep/sweep_aggregate.c) ---- */
/* DIR/aggregate.csv: points that differ only in their seed as one row, with the mean, sd and
 * 95% interval of every numeric report key over the seeds; *groups gets the row count. */
gboolean sweep_aggregate(const char *dir, guint *groups, GError **error);

/* ---- plots (sim/sweep/sweep_plot.c) ---- */
typedef enum {
    SWEEP_SCALE_SHARED,      /* one y range for every panel (they plot the same key) */
    SWEEP_SCALE_INDEPENDENT, /* each panel its own */
} SweepPlotScale;

typedef struct {
    const char *y;         /* a flattened report key, or KEY/KEY2 (their ratio, as
                            * coherence.lock_line.rfo/acquisitions); NULL: cycles_per_acquisition */
    const char *x;         /* an axis; NULL: threads */
    SweepPlotScale scale;
} SweepPlotOptions;

/* "shared" or "independent" (a sweep file's plot_scale, --plot-scale). */
gboolean sweep_plot_scale_parse(const char *text, SweepPlotScale *out, GError **error);

/* Plots against one axis from DIR/results.jsonl: DIR/plot.gp, DIR/plot-*.dat, DIR/plot.png and
 * DIR/plot.svg.  Works from the rows alone (each names its axes), so merged folders plot too. */
gboolean sweep_plot(const char *dir, const SweepPlotOptions *o, GError **error);

/* The style of the i-th line of a plot: a colour, a dash pattern and a point shape whose
 * combination does not repeat within SWEEP_PLOT_STYLES lines (colours alone do not repeat
 * within SWEEP_PLOT_COLOURS). */
#define SWEEP_PLOT_COLOURS 12
#define SWEEP_PLOT_STYLES (SWEEP_PLOT_COLOURS * 5)
typedef struct {
    const char *colour;    /* "#1f77b4" */
    guint dash;            /* gnuplot dashtype 1..5 */
    guint point;           /* gnuplot pointtype */
} SweepPlotStyle;
SweepPlotStyle sweep_plot_style(guint i);

#endif
