/* The native runner: a lock's translated entry points run on the host, one pinned thread per
 * CPU, inside a harness written in C with the same meaning as the ISA workload harness
 * (acquire; critical section on a shared counter with an in-CS flag and `cs_writes` words;
 * release; think).  The result is a report tree with the keys of a simulated run where they
 * mean the same thing (docs/native.md). */
#ifndef QSIM_NATIVE_RUN_H
#define QSIM_NATIVE_RUN_H

#include <json-glib/json-glib.h>
#include "cores/isa.h"
#include "locks/native_abi.h"
#include "locks/native_asm.h"

/* A lock ready to run: a descriptor, and for one compiled at run time the dlopen handle. */
typedef struct NativeLock NativeLock;

/* A built-in lock (translated at build time), by name. */
NativeLock *native_lock_builtin(const char *name, GError **error);
/* Names of the built-in locks, in registry order (may be empty). */
GPtrArray *native_builtin_names(void);
/* Translates `p` for the host, compiles it with the system C compiler ($CC, else `cc` from
 * PATH) into a shared object in a temporary folder, and loads it. */
NativeLock *native_lock_from_program(const IsaProgram *p, GError **error);
/* Assembles `path` (native_assemble_file) and does native_lock_from_program. */
NativeLock *native_lock_from_file(const char *path, GError **error);
const QnLockDesc *native_lock_desc(const NativeLock *l);
void native_lock_free(NativeLock *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NativeLock, native_lock_free)

/* The C compiler command the runner would use ($CC split as a shell line, else `cc`), or NULL
 * with an error naming what was looked for. */
GStrv native_find_compiler(GError **error);

typedef struct {
    guint threads;             /* 0: one per CPU of `cpus`, or 2 */
    guint64 iterations;        /* acquisitions per thread (fixed work) ... */
    guint duration_ms;         /* ... or, when iterations is 0, run this long (fixed time) */
    guint cs_writes;           /* extra words written in the critical section */
    gboolean data_same_line;   /* CS data in the lock's line (else its own line) */
    guint64 cs_work, think;    /* work units inside / after the critical section */
    GArray *cpus;              /* guint CPU numbers; NULL: the first CPUs of our affinity mask */
} NativeOptions;

/* The defaults of `qsim native`: 2 threads, 10000 iterations, separate-line data. */
void native_options_init(NativeOptions *o);

/* Runs the lock; the report tree, or NULL with an error (bad options, cannot pin, program
 * fault).  A mutual exclusion failure is a result, not an error: key `mutual_exclusion`. */
JsonNode *native_run(const NativeLock *lock, const NativeOptions *o, GError **error);

/* Parses a CPU list such as "0,2-5" into guint CPU numbers (in the order written, no
 * duplicates). */
gboolean native_parse_cpus(const char *text, GArray **out, GError **error);
/* The CPUs this process may run on, ascending. */
GArray *native_allowed_cpus(void);

#endif
