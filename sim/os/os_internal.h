/* The OS model's private state, shared by its scheduler (sim/os/os_sched.c) and its futex system
 * calls (sim/os/os_futex.c).  Nothing outside those files includes it. */
#ifndef QSIM_OS_INTERNAL_H
#define QSIM_OS_INTERNAL_H

#include "sim/os/os_model.h"

typedef enum {
    OT_RUNNING,      /* on its core (in user code or in a system call) */
    OT_READY,        /* in a run queue */
    OT_SLEEPING,     /* asleep in futex_wait */
    OT_WOKEN,        /* dequeued by a futex_wake, its try_to_wake_up still to come */
    OT_DONE,         /* retired `halt` */
} OsThreadState;

typedef struct OsCore OsCore;

/* Invariants: a RUNNING thread is its core's `cur`; a READY one is in exactly one run queue (of
 * the core `core`); SLEEPING and WOKEN ones are in no queue but their futex's; `ctx` is valid
 * while the thread is off its core. */
typedef struct {
    guint tid;
    OsThreadState state;
    OsCore *core;               /* where it runs, waits, or last ran */
    CoreContext ctx;
    gboolean resume_syscall;    /* woken in futex_wait: finishes it before its user code */
    int wait_rd;                /* futex_wait's destination register (ISA_NO_REG: none) */
    uint64_t futex_addr;        /* SLEEPING: its word */
    uint64_t sleep_seq;         /* SLEEPING: the order threads went to sleep (wake order) */
    Cycle since;                /* when it entered its state */
    Cycle woken_at;             /* its last wake-up (for wake_to_run_cycles) */
    gboolean counted_wake;      /* a wake-up whose run is still to be counted */
    Cycle run_start;            /* when it last started running (time slices) */
    gboolean ran;               /* has run on a core */
    gboolean loading;           /* READY, taken by a core that is switching to it */
} OsThread;

typedef enum {
    OC_RUNNING,      /* cur runs (user code, or a system call: see `call`) */
    OC_SWITCHING,    /* loading `next` after a context switch or a wake-up from idle */
    OC_IDLE,         /* no thread */
} OsCoreState;

/* A futex system call in progress on a core: a chain of steps, one memory access or timer at a
 * time (os_futex.c). */
typedef struct {
    gboolean active;
    const IsaInsn *in;
    uint64_t addr, arg;
    guint bucket;               /* hash bucket index */
    uint64_t line;              /* the bucket's line address */
    int step;                   /* os_futex.c's step enum */
    uint64_t req;               /* the outstanding request's number, 0: none */
    uint64_t value;             /* what the last access returned */
    Cycle entered;              /* system call entry */
    Cycle hb_since;             /* began waiting for the bucket lock */
    guint woken;                /* futex_wake: threads dequeued */
    OsThread **to_wake;         /* futex_wake: them, in order */
} OsCall;

struct OsCore {
    OsModel *os;
    Core *core;
    guint id;                   /* hardware core id */
    guint socket;
    OsCoreState state;
    OsThread *cur;              /* OC_RUNNING: the thread on the core */
    OsThread *next;             /* OC_SWITCHING: the thread to load */
    const char *switch_key;     /* OC_SWITCHING: the cost it pays ("os.context_switch_cycles") */
    Cycle switch_cost;          /* OC_SWITCHING: and how much */
    GQueue runq;                /* OsThread*, READY */
    OsCall call;
    uint64_t slice_gen;         /* bumped when `cur` changes: stale slice events do nothing */
    gboolean slice_armed;
    Cycle state_since;          /* entered OC_IDLE or OC_SWITCHING */
    uint64_t next_req;
};

/* A hash bucket's lock queue: cores waiting for it, the first polling the line. */
typedef struct {
    GQueue waiters;             /* OsCore* */
} OsBucket;

struct OsModel {
    const QsimConfig *cfg;
    Engine *e;
    const IsaProgram *prog;
    const IsaLayout *layout;
    gboolean stopped;           /* os_model_stop: nothing more happens */
    CoreIssueFn issue;
    void *ms;
    guint nthreads;
    OsThread *threads;
    GPtrArray *cores;           /* OsCore*, in the order added */
    OsCore **by_id;             /* hardware id -> OsCore (NULL: not a core of the run) */
    guint ncore_ids;
    guint nbuckets;             /* a power of two */
    GHashTable *buckets;        /* bucket index -> OsBucket*, looked up only */
    GQueue sleepers;            /* OsThread* asleep, in the order they slept */
    uint64_t sleep_seq;
    guint done;                 /* threads finished */
    OsStats st;                 /* closed intervals; open ones are added by os_model_stats */
};

/* os_sched.c */
/* The thread on `oc` leaves it (asleep, finished, or preempted: its state is already set); the
 * core runs the next one. */
void os_sched_switch_away(OsCore *oc);
/* A woken thread becomes ready: on its core's run queue, or an idle core's. */
void os_sched_make_ready(OsModel *os, OsThread *t, OsCore *waker);
/* Starts the next step of a core in `delay` cycles: fn(oc, arg). */
void os_sched_after(OsCore *oc, Cycle delay, EventFn fn, uint64_t arg);

/* os_futex.c */
void os_futex_syscall(void *ctx, Core *c, const IsaInsn *in, uint64_t addr, uint64_t arg);
void os_futex_mem_done(OsCore *oc, const MemResponse *r);
void os_bucket_free(gpointer b);
/* Drops the futex calls' pending events (os_model_stop). */
void os_futex_stop(OsModel *os);

#endif
