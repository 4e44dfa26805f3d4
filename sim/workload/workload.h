/* The workload options (threads, iterations, critical-section shape, ...): one schema table
 * (sim/workload/workload_schema.c), like the config's, that every front end reads.  From it come the
 * options of `qsim run`, `qsim native` and `qsim verify` (sim/cli/cli_workload.c), their
 * defaults and checks, the run-option axes of sweeps, the workload echoed in reports, and the
 * reference text for the docs.  A command's own options that are not part of the workload
 * (--format, --vs, --seeds, --cpus) stay in the command. */
#ifndef QSIM_WORKLOAD_H
#define QSIM_WORKLOAD_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/workload/harness.h"
#include "sim/workload/placement.h"

/* The commands a row belongs to (bit mask). */
typedef enum {
    WL_RUN = 1u << 0,      /* qsim run: the timing model */
    WL_NATIVE = 1u << 1,   /* qsim native: the host */
    WL_VERIFY = 1u << 2,   /* qsim verify: the reference interpreter */
    WL_SWEEP = 1u << 3,    /* sweep axes (points run as `qsim run` does) */
} WorkloadCommand;
#define WL_ALL (WL_RUN | WL_NATIVE | WL_VERIFY | WL_SWEEP)

typedef enum {
    WL_UINT,               /* guint field */
    WL_UINT64,             /* guint64 field */
    WL_ENUM,               /* an enum field (int-sized), value = index into choices */
    WL_PLACEMENT,          /* a Placement (sim/workload/placement.h): a policy of `choices` or a CPU list */
} WorkloadType;

/* Which kind of run a row describes: the echo shows fixed-work rows only in fixed-work runs
 * and fixed-time rows only in fixed-time runs, so a report never shows a setting that did
 * not apply. */
typedef enum { WL_ANY_MODE, WL_FIXED_WORK, WL_FIXED_TIME } WorkloadMode;

/* A default that differs for some commands, with the reason (shown in the docs). */
typedef struct {
    guint commands;        /* WorkloadCommand bits it applies to */
    const char *value;
    const char *why;
} WorkloadDefault;

typedef struct {
    const char *name;      /* field and report key: "cs_writes" */
    const char *flag;      /* long option without the dashes: "cs-writes" */
    char short_flag;       /* or 0 */
    const char *axis;      /* sweep axis name, NULL for rows sweeps cannot vary (WL_SWEEP unset) */
    WorkloadType type;
    gsize offset;          /* into WorkloadOptions */
    const char *def;       /* default as text, parsed like a command-line value; NULL: not set
                            * (the field is 0, which is below `min`: an option of fixed time,
                            * whose absence means fixed work) */
    guint64 min, max;      /* WL_UINT, WL_UINT64: allowed range, inclusive */
    const char *const *choices; /* WL_ENUM: names in enum order, NULL-terminated */
    guint commands;        /* WorkloadCommand bits: which commands take it */
    WorkloadMode mode;
    const char *unit;      /* "cycles", "ms", or NULL for a count */
    const char *help;      /* one sentence, no default (that is added from `def`) */
    const WorkloadDefault *defaults; /* per-command defaults, ending in {0}, or NULL */
    const char *max_why;   /* WL_UINT, WL_UINT64: why the maximum is what it is (docs/workload.md) */
} WorkloadKey;

extern const WorkloadKey workload_schema[];
extern const guint workload_schema_len;

/* Invariant: every field is a row of workload_schema (a test walks the offsets). */
typedef struct {
    guint threads;              /* one per core (natively: per CPU) */
    guint readers;              /* threads 0..readers-1 take the read side */
    Placement placement;        /* thread to logical CPU (the model only) */
    HarnessPlacement data;      /* critical-section data in the lock's line or its own */
    guint cs_writes;            /* extra shared words written per critical section */
    guint cs_work;              /* work inside the critical section (cycles; natively work units) */
    guint think;                /* work between release and the next acquire */
    guint jitter;               /* each `work` (think, hold) and the start skew get [0, jitter] more */
    guint iterations;           /* fixed work: acquisitions per thread */
    guint64 duration;           /* fixed time on the model: cycles (0: fixed work) */
    guint64 warmup;             /* fixed time on the model: cycles run before the measured window */
    guint duration_ms;          /* fixed time natively: milliseconds (0: fixed work) */
} WorkloadOptions;

/* The row named `name` (the field name, or the long flag), or NULL. */
const WorkloadKey *workload_key_find(const char *name);
/* The row whose sweep axis is `axis`, or NULL. */
const WorkloadKey *workload_axis_find(const char *axis);
/* The default of `k` for `command` (one WorkloadCommand bit); NULL: not set (WorkloadKey.def). */
const char *workload_key_default(const WorkloadKey *k, WorkloadCommand command);
/* Every field at its default for `command`. */
void workload_init(WorkloadOptions *w, WorkloadCommand command);

/* Parses `text` into k's field of `w`; errors begin with `who` and the text, e.g.
 * "--cs-writes 7000: out of range [0, 64]" (who = "--cs-writes") or "threads two: expected
 * a whole number" (who = "threads"). */
gboolean workload_parse(const WorkloadKey *k, const char *text, const char *who, WorkloadOptions *w,
                        GError **error);
/* k's field as text ("4", "same-line"): what `workload_parse` reads back. */
char *workload_value_text(const WorkloadKey *k, const WorkloadOptions *w);
/* Every row of `command` in range (a row not set is fine), and the rows agree (readers <=
 * threads).  Errors name the option as a flag: "--threads 0: out of range [1, 4096]". */
gboolean workload_validate(const WorkloadOptions *w, WorkloadCommand command, GError **error);

/* A fixed-time run (duration or duration_ms set) rather than a fixed number of iterations. */
gboolean workload_fixed_time(const WorkloadOptions *w);
/* The harness's options for this workload (fixed-time runs loop "forever": the caller ends them). */
void workload_harness(const WorkloadOptions *w, HarnessOptions *h);
/* Adds the workload of `command` to the open JSON object: one member per row (integers, enum
 * names), in table order, skipping rows of the other mode. */
void workload_add_json(const WorkloadOptions *w, WorkloadCommand command, JsonBuilder *b);
/* What an option takes, for help and the man page: "N", "CYCLES", or its choices "a|b". */
char *workload_key_arg_text(const WorkloadKey *k);
/* A row's commands ("run, native, verify, sweep"), its default with the per-command ones
 * ("1000; verify: 3 (why)"), and its values ("fill, spread", "0 to 64"). */
char *workload_key_commands_text(const WorkloadKey *k);
char *workload_key_defaults_text(const WorkloadKey *k);
char *workload_key_values_text(const WorkloadKey *k);
/* The table as Markdown, for docs: option, commands, default, range, meaning. */
char *workload_reference_markdown(void);

#endif
