/* `qsim validate --host`: every built-in lock run natively on this machine and on the model of
 * this machine (a config `qsim calibrate` wrote), side by side in nanoseconds per acquisition
 * with their intervals over repeated runs, and for the whole table the median absolute error
 * and the rank correlation (Spearman) of the locks' costs.  A disagreement is a finding about
 * the model (or the host), never a parameter to tune away. */
#ifndef QSIM_VALIDATE_HOST_H
#define QSIM_VALIDATE_HOST_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/base/sample_stats.h"
#include "sim/workload/harness.h"

typedef struct {
    const char *config;      /* the host's config, a path or name */
    guint repeat;            /* runs per lock and side (>= 2) */
    guint max_threads;       /* 0: as many as CPUs this process may use */
    guint model_iterations;  /* acquisitions per thread in the model */
    guint host_iterations;   /* and on the host */
    const char *const *locks;   /* the locks (names or paths, .qs or .c), NULL-terminated; NULL:
                                 * every built-in lock */
} HostValidateOptions;

void host_validate_options_init(HostValidateOptions *o);

typedef struct {
    char *lock;
    guint threads;
    HarnessPlacement data;
    SampleStats host_ns, model_ns;   /* ns per acquisition over the runs */
    gboolean ok;                     /* mutual exclusion held on both sides, every run */
    guint disturbed;                 /* host runs the scheduler disturbed (native_report_warnings) */
} HostRow;

typedef struct {
    GArray *rows;                    /* HostRow, by threads, data, then lock */
    char *config_name;
    double frequency_ghz;            /* the model's clock, which turns its cycles into ns */
    double median_abs_error;         /* median over rows of |model - host| / host */
    double spearman;                 /* rank correlation of the rows' host and model means */
    char *first_disturbance;         /* the first host run's warning, or NULL when none was disturbed */
    char *placement;                 /* where both sides ran their threads (host_placement.h), or NULL */
} HostTable;

/* Runs the table; FALSE with an error for bad input (config, no compiler, ...). */
HostTable *validate_host_run(const HostValidateOptions *o, GError **error);
void host_table_free(HostTable *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HostTable, host_table_free)

/* Sets median_abs_error and spearman from the rows (rows that broke mutual exclusion or have
 * no host time are left out). */
void host_table_summarise(HostTable *t);
/* Spearman's rank correlation of x and y (average ranks for ties); 0 when n < 2. */
double spearman_rho(const double *x, const double *y, guint n);

char *validate_host_text(const HostTable *t);
JsonNode *validate_host_json(const HostTable *t);

#endif
