/* The workload harness: generates the ISA text of `main`, the per-thread loop that wraps a lock
 * (acquire, a checked critical section, release, think).  Only ISA ops are used, so the same
 * text runs on the reference interpreter, the timing model and natively.
 *
 * Register convention: lock entry points may use r0..r11 freely and must preserve r12..r15,
 * which the harness keeps its loop state in. */
#ifndef QSIM_HARNESS_H
#define QSIM_HARNESS_H

#include <glib.h>
#include "cores/isa/isa.h"

/* Names of the harness's variables, for checkers reading memory after a run. */
#define HARNESS_COUNTER     "h_counter"      /* 8 bytes: writers' increments (plain ld/add/st) */
#define HARNESS_FLAG        "h_flag"         /* 8 bytes: nonzero while a writer is inside */
#define HARNESS_VIOLATIONS  "h_violations"   /* 8 bytes: times the critical section was shared */
#define HARNESS_DATA        "h_data"         /* cs_writes words of critical-section data */
#define HARNESS_READERS     "h_readers"      /* 8 bytes: readers inside now */
#define HARNESS_MAX_READERS "h_max_readers"  /* 8 bytes: most readers seen inside at once */
#define HARNESS_READS       "h_reads"        /* 8 bytes: read-side critical sections completed */
/* The name of the harness's text in source positions. */
#define HARNESS_SOURCE      "<harness>"
/* The lock's word, which every lock file declares (as a shared variable); same-line data is
 * placed `with` it. */
#define HARNESS_LOCK_WORD   "lock_word"

typedef enum {
    HARNESS_SAME_LINE,       /* counter, flag and data share the lock word's line */
    HARNESS_SEPARATE_LINE,   /* they get a line of their own */
} HarnessPlacement;

/* What the harness wraps: a lock (acquire, a checked critical section, release), or a
 * scenario's `body` (sim/workload/scenario.h), called once per iteration with nothing checked. */
typedef enum {
    HARNESS_LOCK,
    HARNESS_SCENARIO,
} HarnessMode;

typedef struct {
    HarnessMode mode;
    guint threads;           /* for checkers: how many run (the text itself does not depend on it) */
    guint iterations;        /* acquisitions per thread */
    guint cs_writes;         /* extra words written in each critical section */
    HarnessPlacement data;
    guint cs_work;           /* `work` cycles inside the critical section (0: none) */
    guint think;             /* `work` cycles after each release (0: none) */
    gboolean think_always;   /* emit the think `work` even when think is 0 (jitter lengthens it) */
    guint readers;           /* threads 0..readers-1 take the read side (read_lock/read_unlock) */
    gboolean release_stores; /* the section's own stores are releases (st.rel): verify under arm64 */
    /* The loop written out, a copy of its body per iteration (up to HARNESS_MAX_UNROLL): verify
     * under arm64, whose search asks which variables a thread may still read (a loop keeps
     * every one readable until its last turn). The same ops run in the same order. */
    gboolean unrolled;
} HarnessOptions;

#define HARNESS_MAX_UNROLL 16

/* Defaults: 1 thread, 3 iterations, 1 extra write, separate line, no work, no think, no readers. */
void harness_options_init(HarnessOptions *o);
/* The ISA text of the harness (its position names are "<harness>").  In HARNESS_SCENARIO,
 * per thread: `mark 1; call body; mark 2; mark 3; work think`, iterations times (the marks
 * make each call an "acquisition" to the report and the progress watchdog); cs_writes, data,
 * cs_work and readers do not apply and declare nothing. */
char *harness_source(const HarnessOptions *o);
/* The program a run executes (for a scenario, read "scenario" for "lock" and `body` for the
 * entry points): the lock (`lock_text`, named `lock_file` in positions) assembled
 * with the harness text for `o`, for `target`.  Every error says whose it is, never a position
 * in the generated harness: the lock file's own (`file:line:col: ...`); an entry point the
 * harness calls that the lock lacks (`FILE: no entry point `lock` ...`, and for --readers
 * `--readers N: FILE has no read side ...`); or an option this lock cannot take (`--cs-writes 7
 * with --data same-line: ... at most 5 fit`).  Errors are ASM_ERROR for the lock's own source,
 * G_OPTION_ERROR for the options. */
IsaProgram *harness_assemble(const char *lock_file, const char *lock_text, const HarnessOptions *o,
                             ArchTarget target, const char *const *params, GError **error);
/* A critical section of the harness's code, as the pcs inside it (inclusive): a writer's from the
 * op after its `mark 2` to its `st [h_flag], 0`; a reader's from the op after its `mark 2` to its
 * `fadd [h_readers], -1`.  A thread whose next op is one of these is inside. */
typedef struct {
    int32_t first, last;       /* -1, -1: none (no readers) */
} HarnessSection;
/* The sections of p's harness code; FALSE when p holds no harness. */
gboolean harness_sections(const IsaProgram *p, HarnessSection *writer, HarnessSection *reader);
/* Whether the op at `pc` is the lock's (from its source) rather than the harness's. */
gboolean harness_pc_in_lock(const IsaProgram *p, int32_t pc);
/* Whether `name` is a variable that supports the lock rather than being the lock's: one of the
 * harness's own (HARNESS_COUNTER ... HARNESS_READS), or one the C front end declares for a lock
 * in C (its per-thread stack; sim/cfront/cfront.h).  A run counts the others as the lock's lines. */
gboolean harness_is_support_var(const char *name);

/* Writers among `o->threads`. */
static inline guint harness_writers(const HarnessOptions *o)
{
    return o->threads > o->readers ? o->threads - o->readers : 0;
}

#endif
