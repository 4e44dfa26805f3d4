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
#include "sim/base/json_depth.h"
#include "sim/run/run.h"

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
    AXIS_WORKLOAD,         /* a run option: a row of the workload schema (sim/workload/workload.h) */
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

/* More points than this is almost surely a mistake (and would not finish anyway); an axis, ranges
 * included, has at most as many values. */
#define SWEEP_MAX_POINTS 1000000u
/* Every point is checked against every exclude entry: a few dozen is what sweeps use. */
#define SWEEP_MAX_EXCLUDES 100u

/* One condition of an `exclude` entry: the values of one axis it names. */
typedef struct {
    guint axis;
    guint8 *hit;           /* per value index of the axis: whether the entry names it */
} SweepExcludeTerm;

/* Invariant: points->len == npoints * axes->len; row p holds each axis's value index. */
typedef struct {
    char *filename;
    GPtrArray *axes;       /* of SweepAxis *, in file order */
    GPtrArray *excludes;   /* of GArray of SweepExcludeTerm: the `exclude` entries (a point is left
                            * out when it meets every term of one), kept for sweep.json */
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
 * The one place sweeps look a lock up; names go through the shared search (sim/workload/lock_find.h). */
gboolean sweep_find_lock(const char *value, const char *base, char **file, GError **error);
void sweep_free(Sweep *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Sweep, sweep_free)
/* The kind of axis `name` names (and, for a run option, its schema row); FALSE for no axis. */
gboolean sweep_axis_kind(const char *name, SweepAxisKind *kind, const WorkloadKey **key);
SweepAxis *sweep_axis_new(const char *name, SweepAxisKind kind, const WorkloadKey *key);
void sweep_axis_free(gpointer axis);

/* ---- points (sim/sweep/sweep_points.c) ---- */
/* A sweep with no axes yet, named `filename` (which its errors name). */
Sweep *sweep_new(const char *filename);
/* The points of s's axes less its excludes, first axis slowest, and their fingerprint; FALSE
 * (FILE:1:1) for more than SWEEP_MAX_POINTS or none left. */
gboolean sweep_enumerate(Sweep *s, GError **error);
/* The axes, values, excludes and points of `s` (what names and counts its points), as a new
 * sweep of their own: what a results folder's sweep.json records. */
Sweep *sweep_layout_copy(const Sweep *s);

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

/* ---- points that cannot run (sim/sweep/sweep_check.c) ---- */
/* Whether every point can run as a whole: its config with the point's config keys set passes
 * the checks of keys against each other (config_validate), and its run options go together
 * (workload_validate: readers <= threads...).  Else FALSE with the first point that cannot,
 * the axis whose value to blame and why.  (Whether a lock declares a lock_param axis stays
 * the run's to find: the cross product cannot leave a parameter out for one lock.) */
gboolean sweep_points_check(const Sweep *s, guint *point, int *axis, char **why);

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
    guint lineno;          /* its line in the file, from 1 */
    char *key;
    char *line;            /* without the newline */
    gboolean ok;
} SweepRow;

/* The JSON line for a finished point (status, failure and report; report may be NULL). */
char *sweep_row_json(const Sweep *s, guint p, const RunResult *r, const char *error_text);
/* Reads DIR/results.jsonl, each row checked as sweep_row_json writes it (its point, key, axes,
 * status, failure and report: their types, the point below SWEEP_MAX_POINTS, the key spelt
 * from the axes) with PATH:LINE:COL for the first that is not; a last line cut short by a kill
 * is dropped (with *torn set).  Rows are returned in file order; free with g_ptr_array_unref. */
GPtrArray *sweep_rows_read(const char *path, gboolean *torn, GError **error);
/* Whether row r (of the file `path`) has the key of its point in sweep `s`; else PATH:L:C. */
gboolean sweep_row_key_check(const Sweep *s, const SweepRow *r, const char *path, GError **error);
/* Sorts rows by point, writes DIR/results.jsonl and DIR/results.csv atomically (temp file,
 * fsync, rename). */
gboolean sweep_results_write(const char *dir, GPtrArray *rows, GError **error);
/* ---- which sweep a folder holds (sim/sweep/sweep_meta.c) ---- */
/* DIR/sweep.json: which sweep a folder's rows belong to (its fingerprint, and its axes and
 * excludes, from which each point's key follows), and the plot it was made for (so that
 * `--merge --plot` draws what the sweep file asked for). */
typedef struct {
    char *fingerprint;
    guint npoints;
    char *source;          /* the sweep file */
    guint shard, nshards;
    char *plot_x, *plot_y, *plot_scale; /* the sweep file's, or NULL */
    Sweep *layout;         /* its axes, excludes and points (sweep_layout_copy): each point's key */
} SweepMeta;
void sweep_meta_clear(SweepMeta *m);
/* The description of sweep `s` run as shard I of N. */
void sweep_meta_of(const Sweep *s, guint shard, guint nshards, SweepMeta *m);
gboolean sweep_meta_write(const char *dir, const SweepMeta *m, GError **error);
/* Reads DIR/sweep.json with every member checked (types, ranges; the axes and excludes make
 * the points and fingerprint it states), the first wrong one named as PATH:LINE:COL. */
gboolean sweep_meta_read(const char *dir, SweepMeta *m, GError **error);
/* Writes `text` to DIR/NAME through a temporary file, so that a kill leaves the old or the new
 * file, never half of one. */
gboolean sweep_write_atomic(const char *dir, const char *name, const char *text, GError **error);
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

/* ---- JSON read back from a results folder (sim/sweep/sweep_json.c) ---- */
/* json-glib's parser recurses once per level (a line of 100k `[` overflowed the stack), so the
 * nesting of every JSON text the sweep reads is counted first; the rows nest 4 deep. */
#define SWEEP_JSON_MAX_DEPTH JSON_MAX_DEPTH
/* Refuses `text` (of `len` bytes, from `path`, its first line numbered `line`) nested deeper
 * than SWEEP_JSON_MAX_DEPTH, or holding a NUL byte: PATH:L:C. */
gboolean sweep_json_check(const char *text, gsize len, const char *path, guint line, GError **error);
/* sweep_json_check, then the parse: the root (owned by `parser`), or NULL with PATH:L:C. */
JsonNode *sweep_json_parse(JsonParser *parser, const char *text, gsize len, const char *path, guint line,
                           GError **error);
/* json-glib's "<data>:L:C: Parse error: ..." as "PATH:L':C: JSON syntax: ...", lines counted
 * from `line`. */
char *sweep_json_syntax_message(const GError *e, const char *path, guint line);
/* Sets "PATH:L:C: MEMBER: message", where L:C is where the top-level member `member` of the
 * object `text` is written (else the text's start), and returns FALSE. */
gboolean sweep_json_bad(GError **error, const char *text, const char *path, guint line, const char *member,
                        const char *fmt, ...) G_GNUC_PRINTF(6, 7);
/* Member `name` of `o` when it is a string (an integer), else NULL (FALSE). */
const char *sweep_json_string(JsonObject *o, const char *name);
gboolean sweep_json_int(JsonObject *o, const char *name, gint64 *out);
/* `root` as one line of JSON. */
char *sweep_json_text(JsonNode *root);

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
    gboolean ns;           /* y in nanoseconds at each point's config clock (y must be in cycles) */
} SweepPlotOptions;

/* Whether `yspec` is in cycles, so that --plot-unit ns can turn it into time. */
gboolean sweep_plot_unit_ok(const char *yspec, GError **error);

/* "shared" or "independent" (a sweep file's plot_scale, --plot-scale). */
gboolean sweep_plot_scale_parse(const char *text, SweepPlotScale *out, GError **error);

/* Before any point runs: the plot's x is an axis of `s` and its y (each key of a ratio) a
 * numeric key of a report of the sweep's first point (run for a moment to see its keys). */
gboolean sweep_plot_check(const Sweep *s, const SweepPlotOptions *o, GError **error);
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
