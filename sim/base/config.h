/* The machine configuration: one struct, filled from YAML through the schema table
 * (sim/base/config_schema.c), which is the single definition of every key, its type, range, default
 * and meaning.  Sizes are bytes, latencies core cycles. */
#ifndef QSIM_CONFIG_H
#define QSIM_CONFIG_H

#include <glib.h>
#include <stdint.h>
#include "sim/base/arch.h"

typedef enum { PROTO_MESI, PROTO_MOESI, PROTO_MESIF, PROTO_MSI } ProtocolKind;
typedef enum { ROLLBACK_CONSERVATIVE, ROLLBACK_PRECISE, ROLLBACK_NONE } RollbackPolicy;
typedef enum { ISSUE_OUT_OF_ORDER, ISSUE_IN_ORDER } IssuePolicy;
typedef enum { ATOMICS_LLSC, ATOMICS_LSE_NEAR, ATOMICS_LSE_FAR } AtomicsKind;
typedef enum { SOCKETS_FULL, SOCKETS_RING, SOCKETS_TWISTED_HYPERCUBE, SOCKETS_MCM_PAIRS } SocketTopology;
typedef enum { ONDIE_RING, ONDIE_MESH, ONDIE_CROSSBAR } OnDieTopology;
typedef enum { XSOCKET_BROADCAST, XSOCKET_DIRECTORY, XSOCKET_PROBE_FILTER } CrossSocketCoherence;
/* When a snoop changes the line in the private caches it reaches (topology.snoop_acts). */
typedef enum { SNOOP_ACTS_ARRIVAL, SNOOP_ACTS_LOOKUP } SnoopActs;
typedef enum { HOME_INTERLEAVE, HOME_FIRST_TOUCH } HomePolicy;
/* How coherence requests travel: to the line's home directory over the on-die network and the
 * socket links, or broadcast on one atomic snooping bus (coherence/bus.c). */
typedef enum { INTERCONNECT_DIRECTORY, INTERCONNECT_BUS } InterconnectKind;
/* How a structure of a core is shared between its hardware threads (topology.threads_per_core
 * above 1): statically partitioned (each active thread gets an equal part; a thread alone on
 * the core, its sibling halted or idle, gets all of it), competitively shared (the threads
 * together use at most its size), or replicated (each thread has one of the full size). */
typedef enum { SMT_PARTITIONED, SMT_SHARED, SMT_REPLICATED } SmtSharing;

typedef struct {
    gint64 size;      /* bytes */
    gint64 ways;
    gint64 latency;   /* cycles, load-to-use on a hit */
    gint64 store_cycles; /* L1 only: a store committing on a hit */
} CacheConfig;

typedef struct {
    char *name;
    char *description;
    Arch arch;
    ProtocolKind protocol;
    gint64 line_size;
    double frequency_ghz;

    struct {
        gint64 sockets;
        gint64 cores_per_socket;
        gint64 threads_per_core;       /* hardware threads (SMT) per core: they share its caches */
        SocketTopology socket_links;
        gint64 socket_hop_cycles;      /* one inter-socket hop, one way */
        gint64 package_hop_cycles;     /* between dies of one package (mcm-pairs) */
        OnDieTopology ondie;
        gint64 ondie_hop_cycles;       /* one ring stop / mesh hop, one way */
        gint64 snoop_response_cycles;  /* a private hierarchy answering a snoop (ack or data) */
        gint64 snoop_data_cycles;      /* more when the answer reads a dirty line out of it */
        SnoopActs snoop_acts;          /* on arrival, or once the lookup (snoop_response_cycles) is done */
        CrossSocketCoherence cross_socket;
        InterconnectKind interconnect;
    } topology;

    struct {
        gint64 address_cycles;         /* arbitration and address phase of one bus transaction */
        gint64 data_cycles;            /* its data phase, once the responder has the data */
    } bus;

    struct {
        IssuePolicy issue;
        gint64 fetch_width;
        gint64 retire_width;
        gint64 rob;
        gint64 load_buffer;
        gint64 store_buffer;
        gint64 branch_mispredict_penalty;
        gint64 machine_clear_penalty;
        RollbackPolicy rollback;
        gint64 pause_cycles;
        gint64 locked_rmw_cycles;      /* the core's own latency of a LOCK'd RMW on a hot line */
        gint64 lock_hold_cycles;       /* the line held against snoops once the RMW has read it */
        gint64 mfence_cycles;
        gint64 lfence_cycles;
        gint64 sfence_cycles;
        AtomicsKind atomics;
        gint64 wfe_timeout;
    } core;

    struct {                           /* hardware threads of one core (topology.threads_per_core) */
        SmtSharing rob;
        SmtSharing load_buffer;
        SmtSharing store_buffer;
        SmtSharing fetch_queue;
        SmtSharing branch_predictor;   /* shared or replicated (a per-pc table has no parts) */
    } smt;

    CacheConfig l1;
    gboolean l2_enabled;
    CacheConfig l2;
    CacheConfig llc;                   /* per socket */
    gint64 llc_slices;                 /* per socket; 0 = one per core */

    struct {
        gint64 latency;                /* cycles from the home to DRAM and back */
        HomePolicy home;               /* which socket is a line's home */
    } memory;

    struct {                           /* the OS model (sim/os/os_model.h): futexes, scheduling */
        gint64 syscall_cycles;         /* kernel entry + exit of a system call */
        gint64 futex_key_cycles;       /* futex: find the key and hash bucket, before its lock */
        gint64 futex_hold_cycles;      /* futex: work done holding the hash-bucket lock */
        gint64 futex_wake_cycles;      /* futex_wake: try_to_wake_up, per thread woken */
        gint64 wakeup_cycles;          /* an idle core: IPI + idle exit + schedule, until it runs */
        gint64 context_switch_cycles;  /* a core switching from one thread to another */
        gint64 sched_latency_cycles;   /* CFS: the period shared by a core's runnable threads */
        gint64 min_granularity_cycles; /* CFS: the shortest slice */
        gboolean migration;            /* a woken or waiting thread may move to an idle core */
    } os;

    struct {
        gint64 stall_cycles;           /* no retirement anywhere this long: the run stalled */
        gint64 trace_limit;            /* bytes a trace may write (sim/trace/trace_limit.h) */
    } run;
} QsimConfig;

/* ---- schema ---- */
typedef enum { CFG_INT, CFG_SIZE, CFG_DOUBLE, CFG_BOOL, CFG_ENUM, CFG_STRING } CfgType;

typedef struct {
    const char *path;               /* "core.pause_cycles" */
    CfgType type;
    gsize offset;                   /* into QsimConfig */
    const char *def;                /* default as YAML text; NULL: required */
    double min, max;                /* for INT, SIZE, DOUBLE */
    const char *const *choices;     /* for ENUM: NULL-terminated, index = C enum value */
    const char *unit;               /* "cycles", "bytes", ... */
    const char *doc;
    guint archs;                    /* the machines it means something on: CFG_ARCH(a) bits;
                                     * 0: every arch */
} CfgKey;
#define CFG_ARCH(a) (1u << (a))

/* Whether key `k` means something on a machine of `arch` (others are ignored there). */
static inline gboolean config_key_applies(const CfgKey *k, Arch arch)
{
    return !k->archs || (k->archs & CFG_ARCH(arch));
}

extern const CfgKey qsim_config_schema[];
extern const guint qsim_config_schema_len;
const CfgKey *config_schema_find(const char *path);

/* ---- errors ---- */
#define QSIM_CONFIG_ERROR (qsim_config_error_quark())
GQuark qsim_config_error_quark(void);
typedef enum {
    QSIM_CONFIG_ERROR_NOT_FOUND,
    QSIM_CONFIG_ERROR_SYNTAX,
    QSIM_CONFIG_ERROR_UNKNOWN_KEY,
    QSIM_CONFIG_ERROR_TYPE,
    QSIM_CONFIG_ERROR_RANGE,
    QSIM_CONFIG_ERROR_MISSING,
    QSIM_CONFIG_ERROR_INVALID,
} QsimConfigError;

/* ---- loading ---- */
QsimConfig *config_new_defaults(void);       /* every default; required keys zero/NULL */
void config_free(QsimConfig *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(QsimConfig, config_free)

/* Finds NAME as a path, else in the config folders, with or without ".yaml". */
char *config_resolve_path(const char *name, GError **error);
/* Loads a file, applies `sets` ("key.path=value", NULL-terminated, may be NULL), validates. */
QsimConfig *config_load(const char *name, const char *const *sets, GError **error);
QsimConfig *config_load_string(const char *text, const char *filename, const char *const *sets,
                               GError **error);
/* The checks of keys against each other that config_load makes (without positions), for a
 * config made in code (config_new_defaults and config_set). */
gboolean config_validate(const QsimConfig *c, GError **error);
/* Applies one "key.path=value" override. */
gboolean config_set(QsimConfig *c, const char *assignment, GError **error);
/* The effective config as YAML that config_load can read back; keys that do not apply to its
 * arch are printed as comments.  Doubles print in the fewest digits that read back exactly. */
char *config_to_yaml(const QsimConfig *c);
/* A key's type ("integer", "size", ...), its range or choices ("0 to 1000 cycles", "mesi,
 * moesi, mesif"; "" for none), and its archs ("x86" + " " + only; "every arch"). */
const char *config_key_type_name(const CfgKey *k);
char *config_key_range(const CfgKey *k);
char *config_key_archs_text(const CfgKey *k, const char *only);
/* Markdown reference of every key, generated from the schema. */
char *config_reference_markdown(void);
/* Every key that applies to the configs' arch holds the same value in both. */
gboolean config_equal(const QsimConfig *a, const QsimConfig *b);
/* The folders qsim's data files of one kind are looked up in, in order: for "configs" the
 * entries of $QSIM_CONFIG_PATH, for "locks" those of $QSIM_LOCK_PATH, for "scenarios" those of
 * $QSIM_SCENARIO_PATH (colon-separated); then
 * the source tree (for a binary run from it) and the installed data folder. */
GPtrArray *config_search_dirs(const char *subdir);
/* The names (file names less `ext`) in those folders, sorted, the first folder winning a name;
 * with `paths` (may be NULL) a table name -> path of the file that won. */
GPtrArray *config_search_names(const char *subdir, const char *ext, GHashTable **paths);
/* The path of NAME (with `ext` added unless it ends in it) in the first of those folders that
 * holds it, or NULL. */
char *config_search_file(const char *subdir, const char *name, const char *ext);
/* "; did you mean `x`?" for a name close to one in those folders, else "". */
char *config_not_found_hint(const char *name, const char *subdir, const char *ext);

static inline guint config_total_cores(const QsimConfig *c)
{
    return (guint)(c->topology.sockets * c->topology.cores_per_socket);
}

/* Logical CPUs (hardware threads) are numbered as Linux numbers them on x86: CPU c is hardware
 * thread c / cores of core c mod cores, so CPUs 0 .. cores-1 are every core's first thread and
 * the next `cores` their siblings.  With one thread per core a CPU is its core. */
static inline guint config_total_cpus(const QsimConfig *c)
{
    return config_total_cores(c) * (guint)c->topology.threads_per_core;
}
static inline guint config_cpu_core(const QsimConfig *c, guint cpu) { return cpu % config_total_cores(c); }
static inline guint config_cpu_thread(const QsimConfig *c, guint cpu) { return cpu / config_total_cores(c); }

#endif
