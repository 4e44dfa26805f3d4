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
} QsimSweepError;

typedef enum {
    AXIS_CONFIG, AXIS_LOCK, AXIS_SEED,
    AXIS_WORKLOAD,         /* a run option: a row of the workload schema (sim/workload.h) */
    AXIS_CONFIG_KEY,
    AXIS_LOCK_PARAM,       /* `lock_param.NAME`: a lock's `.param` (--lock-param NAME=VALUE) */
} SweepAxisKind;

/* The prefix of a lock parameter axis. */
#define SWEEP_LOCK_PARAM_PREFIX "lock_param."

/* One axis: its name as written in the file and its values as text, each checked when loaded
 * (so a point can only fail at run time for reasons the run itself finds). */
typedef struct {
    char *name;            /* "threads", "core.pause_cycles" */
    SweepAxisKind kind;
    const WorkloadKey *key; /* AXIS_WORKLOAD: its schema row */
    GPtrArray *values;     /* of char *, at least one, no repeats */
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
} Sweep;

Sweep *sweep_load(const char *path, GError **error);
Sweep *sweep_load_string(const char *text, const char *filename, GError **error);
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

/* ---- running (sim/sweep/sweep_run.c) ---- */
typedef struct {
    guint jobs;            /* worker threads, >= 1 */
    const char *out;       /* results folder */
    guint shard, nshards;  /* run points with index % nshards == shard - 1 */
    gboolean resume;
    gboolean progress;     /* a progress line on stderr */
} SweepRunOptions;

/* Runs the sweep's points (those not already done, when resuming).  FALSE with an error for
 * bad input or I/O; otherwise TRUE with *failed set to the number of failed points. */
gboolean sweep_execute(const Sweep *s, const SweepRunOptions *o, guint *failed, GError **error);

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
/* DIR/sweep.json: which sweep a folder's rows belong to. */
gboolean sweep_meta_write(const char *dir, const char *fingerprint, guint npoints, const char *source,
                          guint shard, guint nshards, GError **error);
gboolean sweep_meta_read(const char *dir, char **fingerprint, guint *npoints, char **source, GError **error);
/* Joins shard folders into `out`; *missing counts points no folder had. */
gboolean sweep_merge(const char *const *dirs, const char *out, guint *missing, GError **error);
/* Appends `line` and a newline, then flushes to disk: a finished point survives a kill. */
gboolean sweep_append_line(FILE *f, const char *line, GError **error);
void sweep_row_free(gpointer row);

/* ---- plots (sim/sweep/sweep_plot.c) ---- */
/* Plots `ykey` (a flattened report key; NULL: cycles_per_acquisition) against axis `xaxis`
 * (NULL: threads) from DIR/results.jsonl: DIR/plot.gp, DIR/plot-*.dat, DIR/plot.png and
 * DIR/plot.svg.  Works from the rows alone (each names its axes), so merged folders plot too. */
gboolean sweep_plot(const char *dir, const char *ykey, const char *xaxis, GError **error);

#endif
