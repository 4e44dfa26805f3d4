/* `qsim calibrate`: measures the host with small pinned microbenchmarks and writes a machine
 * config of it (docs/calibrate.md).  Three separable steps:
 *
 *   calibrate_run()      the measurements (calib_measure.c, calib_c2c.c on calib_bench.c),
 *                        each repeated until stable or out of time (calib_stats.h), into a
 *                        CalibResult;
 *   calib_derive()       CalibResult -> config entries by the model's definitions of its keys,
 *                        each with where it came from (calib_derive.c);
 *   calib_write_yaml()   CalibResult -> YAML text a config loader reads (calib_writer.c).
 *
 * Only the first touches the host; the other two are pure, so tests drive them with synthetic
 * results.  All latencies in a CalibResult are core cycles (the TSC ticks converted with the
 * measured clock ratio). */
#ifndef QSIM_CALIBRATE_H
#define QSIM_CALIBRATE_H

#include <glib.h>
#include "sim/calibrate/calib_bench.h"
#include "sim/calibrate/calib_host.h"
#include "sim/calibrate/calib_stats.h"

#define CALIB_ERROR (calib_error_quark())
GQuark calib_error_quark(void);
typedef enum {
    CALIB_ERROR_UNSUPPORTED,   /* a host the measurements cannot run on */
    CALIB_ERROR_USAGE,         /* bad options (the CLI's exit 2) */
    CALIB_ERROR_SYSTEM,        /* memory, threads, affinity */
    CALIB_ERROR_INVALID,       /* a result the writer cannot turn into a valid config */
} CalibError;

/* What the pointer chase stands for: the footprint is chosen inside that level. */
typedef enum { CALIB_LEVEL_L1, CALIB_LEVEL_L2, CALIB_LEVEL_LLC, CALIB_LEVEL_MEMORY, CALIB_LEVEL__N } CalibLevel;
const char *calib_level_name(CalibLevel l);   /* "L1", "L2", "LLC", "memory" */

typedef struct {
    guint64 footprint;      /* bytes chased over; 0: not measured */
    CalibStat cycles;       /* load-to-use */
} CalibChasePoint;

/* ccbench's operations by CPU A on lines CPU B (and, for S, CPU C too) holds. */
typedef enum { CALIB_OP_LOAD, CALIB_OP_STORE, CALIB_OP_CAS, CALIB_OP__N } CalibC2cOp;
const char *calib_op_name(CalibC2cOp op);

typedef struct {
    CalibPairClass pair;
    guint cpu_a, cpu_b;
    gint cpu_c;             /* the second holder for S, -1 when none */
    CalibC2cOp op;
    char state;             /* 'M', 'E', 'S' */
    CalibStat cycles;       /* per access (stores include the full fence after each) */
} CalibC2cRow;

typedef struct {
    CalibStat back_to_back; /* cycles per instruction, 16 in a row on a hot line */
    CalibStat in_loop;      /* cycles it adds to seed 003's loop body */
} CalibInsnStat;

typedef struct {
    CalibHost host;
    gboolean quick;                       /* budgets shrunk: rough values */
    GArray *cpus;                         /* guint: the CPUs measured on, A first */
    CalibStat core_ghz;                   /* dependent adds per ns */
    CalibStat tsc_ghz;                    /* counter ticks per ns */
    CalibChasePoint level[CALIB_LEVEL__N];
    GArray *curve;                        /* CalibChasePoint, growing footprints */
    GArray *c2c;                          /* CalibC2cRow */
    guint c2c_lines;                      /* lines timed per core-to-core round */
    CalibInsnStat insn[CALIB_INSN__N];    /* back_to_back.valid where run */
    CalibStat wfe_wakeup;                 /* arm64: store to wake-up, cycles */
    GPtrArray *notes;                     /* char*: what was not measured or is doubtful, why */
} CalibResult;

CalibResult *calib_result_new(void);
void calib_result_free(CalibResult *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CalibResult, calib_result_free)
/* The row of a pair class, op and state, or NULL. */
const CalibC2cRow *calib_result_c2c(const CalibResult *r, CalibPairClass pair, CalibC2cOp op, char state);
/* Adds a note (printf format). */
void calib_result_note(CalibResult *r, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

typedef struct {
    gboolean quick;                       /* shrink every budget (tests, a first look) */
    const GArray *cpus;                   /* --cpus (guint), or NULL: the allowed CPUs */
    /* Told what is being measured next (the CLI prints it); may be NULL. */
    void (*progress)(void *user, const char *what);
    void *user;
} CalibOptions;

/* Measures this host. */
CalibResult *calibrate_run(const CalibOptions *o, GError **error);

/* ---- from the result to a config ---- */

typedef enum {
    CALIB_FROM_MEASURED,   /* timed here */
    CALIB_FROM_DERIVED,    /* computed from timed values by the model's definition of the key */
    CALIB_FROM_HOST,       /* read from the host (sysfs, cpuinfo, the binary) */
    CALIB_FROM_KNOWN,      /* the known-cores table, with its source */
    CALIB_FROM_CHOSEN,     /* no figure: chosen, and why */
} CalibFrom;

typedef struct {
    char *key;             /* config path */
    char *value;           /* YAML scalar text */
    CalibFrom from;
    char *how;             /* measured/derived: method, CPU, spread; otherwise the source or why */
} CalibEntry;

/* The config entries of a result, in no particular order (the writer orders them as the
 * schema does).  Entries for keys the schema does not have (yet) are kept: the writer writes
 * them as comments. */
GPtrArray *calib_derive(const CalibResult *r, GError **error);
/* The config file: a header (host, VM, notes, sources), every entry in schema order with how
 * it was obtained, then every measurement as a comment block. */
char *calib_write_yaml(const CalibResult *r, GError **error);

#endif
