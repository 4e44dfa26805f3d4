/* The core's private state, shared by the files of cores/ that each hold one idea:
 *   core.c             life cycle, scheduling of ticks, the cycle (core_tick), queries
 * and the stages, included by core.c only so that they compile into core_tick as one function
 * (a call per stage per cycle would cost the simulator about 5%):
 *   core_retire.h      retirement in order, halts and faults
 *   core_execute.h     what an op does when its turn comes (ALU, branches, work, wfe), and
 *                      the ordering each op imposes (decoded once per pc)
 *   core_scan.h        the execute stage's walk over the window, and its memo
 *   core_frontend.h    fetch, and dispatch with its stall counts
 *   core_smt.h         SMT: whose turn a stage is, and how much of a shared structure a
 *                      hardware thread may use (inline for the stages)
 * and the rest:
 *   core_memops.c      starting loads, stores, atomics and fences; the memory's responses
 *   core_rollback.c    lost lines: the monitor, x86 machine clears, arm64 same-address replays
 *   core_os.c          the OS model's side: system calls and thread contexts
 *   core_smt.c         SMT: pairing the two hardware threads of a core, and telling one when
 *                      the other stops or goes idle
 *   rob.c              the ROB and renaming (its hot accessors are inline below)
 *   store_buffer.c, branch_predictor.c, core_ff.c (fast-forward), core_profile.c, core_stats.c
 * Nothing outside cores/ includes it. */
#ifndef QSIM_CORE_INTERNAL_H
#define QSIM_CORE_INTERNAL_H

#include <stddef.h>
#include "cores/core.h"
#include "cores/isa/isa_fault.h"
#include "cores/core_profile.h"
#include "sim/base/min_heap.h"

#define SEQ_NONE UINT64_MAX
#define RAS_DEPTH CORE_CALL_DEPTH

/* Where an op is in its life. */
typedef enum {
    E_WAIT,        /* dispatched, not started (operands or ordering) */
    E_EXEC,        /* started: a timer (complete_at) or a memory response will finish it */
    E_DONE,        /* result available; may retire */
} EntryState;

/* Phases of an arm64 LL/SC atomic (core.atomics: llsc). */
typedef enum { LL_IDLE, LL_LOAD, LL_LOADED, LL_STORE, LL_RETRY } LlscPhase;

/* Ordering state of the ops older than the one being looked at, built up oldest first by the
 * execute scan: a set of these flags in one byte (compared whole, kept in RobEntry's hot part). */
typedef guint8 Older;
#define OLDER_BLOCK_LOADS 1u         /* an older barrier keeps younger loads from performing */
#define OLDER_BLOCK_ALL 2u           /* x86 lfence: nothing younger starts */
#define OLDER_STORE_ADDR_UNKNOWN 4u

/* One ROB entry.  Invariant: sequence numbers in the ROB are contiguous from head_seq, which
 * lives in slot head_slot (fast-forward moves sequence numbers, not slots).  The fields the execute scan reads
 * for every entry come first and fill one 64-byte line; flags are bytes holding 0 or 1. */
typedef struct {
    /* hot: read by the scan */
    const IsaInsn *in;
    uint64_t wait_on;       /* E_WAIT: a producer it cannot start before, SEQ_NONE: unknown */
    uint64_t src[3];        /* producer seq of a, b, base/rt; SEQ_NONE: architectural */
    Cycle complete_at;      /* E_EXEC on a timer: when it completes */
    uint64_t req_id;        /* outstanding memory request, 0: none */
    guint8 state;           /* EntryState */
    guint8 ll;              /* LlscPhase */
    Older older;            /* the scan's ordering state after this op, when last scanned */
    guint8 addr_known, data_known;
    guint8 performed;       /* a load has its value */
    guint8 ordk;            /* OrderKind: what it means for the ops behind it (decoded) */
    guint8 startk;          /* StartKind: what keeps it from starting (decoded) */
    /* the rest */
    uint64_t seq;
    uint64_t last_use;      /* the youngest op reading its result (its own seq: none) */
    uint64_t value;         /* result for rd */
    Cycle done_at;          /* cycle it became E_DONE: it retires at the earliest one later */
    Cycle head_since;       /* first cycle seen at the ROB head (fences, atomics) */
    uint64_t addr, line;
    uint64_t data;          /* store data / atomic operand a */
    uint64_t data_b;        /* cas new value */
    uint64_t ll_new;        /* llsc atomic: the value the store-exclusive writes */
    int32_t pc;
    int32_t pred_next;      /* the pc fetch followed after this op */
    guint sb_slot;          /* a store's store-buffer slot */
    int ras_sp;             /* RAS state this op changed at fetch, for undo */
    int32_t ras_val;
    guint8 watched;         /* performed from the L1: line_lost of `line` may squash it */
    guint8 stale;           /* arm64: its line was lost after it performed */
    guint8 fault;           /* IsaFaultKind of its address, la's thread or its control flow:
                             * raised if it retires */
} __attribute__((aligned(64))) RobEntry;

G_STATIC_ASSERT(offsetof(RobEntry, startk) < 64);

/* An op decoded once per program counter, for the stages that look at every op. */
typedef enum {
    ORDK_NONE,               /* orders nothing */
    ORDK_LOADS_UNTIL_DONE,   /* atomics, stx, x86 mfence, arm64 dmb (not ishst) */
    ORDK_ALL_UNTIL_DONE,     /* x86 lfence, arm64 wfe */
    ORDK_LDAR,               /* arm64 ld.acq: loads wait until it performs */
    ORDK_STORE,              /* loads wait until its address is known */
} OrderKind;
typedef enum {
    STARTK_OTHER,            /* starts unless behind an lfence */
    STARTK_LOAD,             /* also waits behind barriers and unknown store addresses */
    STARTK_HEAD,             /* starts at the ROB head only */
} StartKind;
typedef struct {
    guint8 ordk, startk;
    guint8 takes_lb, has_mem;
} OpDecode;

/* A fetched op waiting for dispatch. */
typedef struct {
    int32_t pc, pred_next;
    int ras_sp;
    int32_t ras_val;
    guint8 fault;           /* IsaFaultKind: a call nested too deep, a ret with nothing to
                             * return to (fetch stopped behind it); raised if it retires */
} FetchSlot;

/* One store-buffer entry.  Entries are in program order; a store holds one from dispatch until
 * it drains.  Committed (retired) entries sit before uncommitted ones. */
typedef struct {
    uint64_t seq;
    uint64_t addr, line, data;
    uint8_t size;
    gboolean addr_known, data_known;
    gboolean committed, issued, drained;
    gboolean release;       /* arm64 st.rel */
    uint64_t epoch;         /* arm64: stores of one epoch may drain out of order (other lines) */
    uint64_t req_id;
    int32_t pc;             /* the st op, for the profile's misses and RFOs */
} SbEntry;

typedef enum { STALL_NONE, STALL_ROB, STALL_LB, STALL_SB } StallCause;

/* An entry on a timer: it completes at `at` (if still there, E_EXEC without a request). */
typedef struct {
    Cycle at;
    uint64_t seq;
} CoreTimer;

static inline gboolean timer_before(const CoreTimer *a, const CoreTimer *b) { return a->at < b->at; }
MIN_HEAP_DEFINE(TimerHeap, timer_heap, CoreTimer, timer_before)

/* Fast-forward of steady loops (cores/core_ff.c). */
#define FF_HISTORY 3
#define FF_HISTORY_SMT 8

/* The core's state at the start of a tick, made comparable across periods (times relative to
 * the tick, sequence numbers to the ROB head), with what a period adds to it. */
typedef struct {
    guint64 fingerprint;            /* a few words of it, cheap: the whole is written only
                                     * when they repeat */
    gboolean full;                  /* words hold the whole */
    guint64 *words;
    guint len, cap;
    guint64 hash;
    Cycle t;
    uint64_t head_seq, next_req, sb_epoch;
    Cycle stall_since;
    guint64 taint;
    CoreStats st;
    ProfileRow *prof;               /* the profile's rows when profiling (prof_n of them) */
    guint prof_n;
    Cycle prof_head_since;
    PortFfMark mem;
    PortFfHit *hits;                /* L1 load hits in flight, in completion order */
    guint nhits, hits_cap;
} FfSnap;

typedef struct {
    gboolean on;                    /* allowed (the machine's choice, and a memory that can) */
    const PortFastForward *mem;
    guint64 taint;                  /* bumped by whatever makes a stretch not a period */
    gboolean want_snap;             /* a loop closed since the last snapshot */
    guint inflight;                 /* requests issued and not answered */
    FfSnap snap[FF_HISTORY_SMT];    /* the last snapshots, a ring (FF_HISTORY of them used
                                     * by a core alone, core_ff.c) */
    guint nsnap, snap_next;
    /* asleep: the state is the one at the start of the tick at t0, which repeats every period */
    gboolean sleeping;
    Cycle t0, period;
    FfSnap *a, *b;                  /* the snapshots one period apart (b at t0) */
    /* a catch-up simulating the core alone (no engine events; hits from the frozen lines) */
    gboolean local;
    PortFfHit *hits;                /* loads the L1 answers from its frozen lines, in flight */
    guint nhits, hits_cap;
    guint64 cycles_skipped;         /* core-cycles added arithmetically */
} CoreFf;

struct Core {
    Engine *e;
    const QsimConfig *cfg;
    guint id, tid, nthreads;
    const IsaProgram *prog;
    const IsaInsn *code;
    guint ncode;
    const IsaLayout *lay;
    CoreIssueFn issue;
    void *ms;
    Cycle now;                      /* the cycle simulated: the engine's, or a catch-up's */
    CoreMarkFn mark_fn;
    void *mark_ctx;
    CoreSevFn sev_fn;
    void *sev_ctx;
    CoreSyscallFn syscall_fn;       /* NULL: no OS (futex_wait returns 1 at once, futex_wake 0) */
    CoreHaltFn halt_fn;
    void *os_ctx;
    CoreFaultFn fault_fn;
    void *fault_ctx;
    CoreFault fault;                /* kind ISA_FAULT_NONE until an op faults at retirement */
    int32_t halt_pc;                /* the halt that retired, -1 before */
    CoreTraceFn trace_fn;           /* NULL: no trace */
    void *trace_ctx;
    guint work_jitter;              /* `work N` takes N + uniform [0, work_jitter] */
    GRand *work_rand;
    gboolean x86;
    gboolean in_order;              /* core.issue: in-order */
    guint fetch_width, retire_width, load_buffer; /* the config's, read every cycle */
    OpDecode *dec;                  /* per pc */

    uint64_t regs[ISA_NREG_SLOTS];  /* architectural */
    uint64_t rename[ISA_NREG_SLOTS];/* youngest in-flight producer, SEQ_NONE: architectural */

    /* ROB */
    RobEntry *rob;
    guint rob_size;
    guint rob_mask;                 /* the ring's slots, a power of two at least rob_size, less 1 */
    uint64_t head_seq, next_seq;    /* entries [head_seq, next_seq) */
    guint head_slot;                /* the head's slot: seq s is in (head_slot + s - head_seq) & rob_mask */
    guint lb_used;                  /* load-buffer entries held (loads, ldx, atomics) */

    /* The execute scan's memo (core_scan.h).  Each cycle the execute stage would walk the
     * window oldest first, carrying the ordering state of the ops passed (Older) and starting
     * each waiting op whose turn has come.  Whether an op starts is a function of its sources,
     * that carried state, and, for an op at the head, of what only the head looks at (the
     * committed stores, the monitor, the event register); a load also reads the store buffer.
     * The scan skips the ops for which none of these changed since it last looked:
     *   - exec_lo: every entry older than it is E_DONE; done ops order nothing, so the walk
     *     starts there with no ordering state.
     *   - en->older (per entry): the state carried past it when last walked, so a walk can
     *     resume at any op with what was carried into it.
     *   - en->wait_on (per waiting entry): a producer whose not being done made start_op fail
     *     with no side effect; while it is not done, the op is only folded into the state.
     *   - [scan_from, scan_end): the ops whose inputs changed since the last scan (set by
     *     core_touch* on dispatch, completion (up to the result's last reader), a response, a
     *     store's address or data).  A walk from scan_from past scan_end stops at the first op
     *     whose carried state is the one memoised in it: every younger op would decide as it
     *     did (end UINT64_MAX: look to the tail).
     *   - head_dirty: what only the head looks at changed (core_touch_head): look at the head.
     *   - sb_waiter: the oldest load held back by the store buffer (a partial forward, data not
     *     known, an STLR before an LDAR): a drain, or a store learning its address or data,
     *     touches from it.
     *   - timers: the entries on a timer, a min-heap by when it runs out (timer_next: none due
     *     before), so the scan completes due ones without looking for them.  A squash does not
     *     remove its entries' timers: a timer whose entry has gone or been reused (told apart
     *     by its time) is stale and dropped when it surfaces.
     * Exact: every input of a start decision either is one of these or touches one when it
     * changes, so a skipped op is one whose start_op would have returned FALSE doing nothing;
     * the run is the one a full walk each cycle gives (the in-order policy walks in full). */
    uint64_t exec_lo;
    uint64_t scan_from;             /* oldest touched, SEQ_NONE: none */
    uint64_t scan_end;              /* one past the youngest touched; 0: none */
    uint64_t sb_waiter;             /* SEQ_NONE: none */
    gboolean head_dirty;
    TimerHeap timers;
    Cycle timer_next;

    /* store buffer ring */
    SbEntry *sb;
    guint sb_size, sb_head, sb_count, sb_ncommit;
    uint64_t sb_epoch;

    /* front end */
    FetchSlot *fq;
    guint fq_size, fq_head, fq_count;
    int32_t fetch_pc;
    gboolean fetch_stopped;         /* fetched a halt */
    Cycle fetch_resume_at;          /* after a mispredict or machine clear */
    int32_t ras[RAS_DEPTH];
    int ras_sp;
    guint8 *bp;                     /* 2-bit counter per pc */

    /* dispatch */
    Cycle dispatch_blocked_until;   /* PAUSE */
    StallCause stall_cause;
    Cycle stall_since;

    /* arm64 exclusive monitor and event register */
    gboolean mon_armed;
    uint64_t mon_line, mon_addr, mon_value;
    uint8_t mon_size;
    gboolean event_reg;
    enum { WAKE_NONE, WAKE_MONITOR, WAKE_SEV } event_cause;
    gboolean wfe_sleeping;
    Cycle wfe_since;

    /* scheduling */
    gboolean started, halted;
    gboolean parked;                /* no thread: its context was saved (core_context_save) */
    /* A fault ended the run (this core's or another's, core_stop): the core is frozen as it
     * was, and what the OS model still asks of it leaves it so. */
    gboolean stopped;
    Cycle start_cycle;
    Cycle tick_at;                  /* pending tick, CYCLE_NEVER: none */
    Cycle last_tick;
    /* A tick known to do nothing is not run: ghost_tick is its cycle, as if it had run (it
     * updates last_tick and the cycle count when something looks, core_settle). */
    Cycle ghost_tick;
    Cycle last_retire;
    uint64_t next_req;

    /* SMT (core_smt.h): the core's other hardware thread, NULL without one.  Invariant: sib's
     * sib is this core, and hw_thread differs between them (the lower ticks first in a cycle). */
    Core *sib;
    guint hw_thread;                /* this hardware thread's index in its core (config.h) */
    Cycle stage_used[3];            /* SmtStage: the last cycle this thread used the stage */
    gboolean smt_denied;            /* this tick a stage it wanted was the sibling's: tick again */
    gboolean bp_borrowed;           /* bp is the sibling's (smt.branch_predictor: shared) */

    CoreStats st;
    CoreFf ff;
    CoreProfile prof;               /* per-pc counters; off (rows NULL) unless enabled */
    GHashTable *clears_by_line;     /* line -> memory-ordering clears it caused (NULL: none yet) */
};

/* Position i of a ring of `size` entries whose oldest is at `head` (both below size, so the sum
 * is below 2 * size): a compare, not a division, on the front end's and store buffer's paths. */
static inline guint ring_at(guint head, guint i, guint size)
{
    guint j = head + i;
    return j >= size ? j - size : j;
}

/* The ROB's operations (rob.h inline, rob.c the rest). */
#include "cores/rob.h"
/* SMT's turns and limits (inline for the stages). */
#include "cores/core_smt.h"

/* ==================== the ordering rules ==================== */
/* What each op means for the ops behind it and what keeps it from starting, decoded once per
 * pc (exec_decode_op, core_execute.h) into en->ordk and en->startk. */

/* Folds `en` into the ordering state `o` carried past it. */
static inline void note_older(const RobEntry *en, Older *o)
{
    switch ((OrderKind)en->ordk) {
    case ORDK_NONE:
        break;
    case ORDK_LOADS_UNTIL_DONE:
        if (en->state != E_DONE)
            *o |= OLDER_BLOCK_LOADS;
        break;
    case ORDK_ALL_UNTIL_DONE:
        if (en->state != E_DONE)
            *o |= OLDER_BLOCK_ALL;
        break;
    case ORDK_LDAR:
        if (!en->performed)
            *o |= OLDER_BLOCK_LOADS;
        break;
    case ORDK_STORE:
        if (!en->addr_known)
            *o |= OLDER_STORE_ADDR_UNKNOWN;
        break;
    }
}

/* Whether a waiting op other than the head cannot start under ordering state `o` (start_op
 * would return FALSE at once, doing nothing): loads wait behind barriers and unknown store
 * addresses; ops that perform at the head wait for it; nothing starts behind an lfence. */
static inline gboolean cannot_start(const RobEntry *en, Older o)
{
    switch ((StartKind)en->startk) {
    case STARTK_LOAD:
        return (o & (OLDER_BLOCK_LOADS | OLDER_STORE_ADDR_UNKNOWN | OLDER_BLOCK_ALL)) != 0;
    case STARTK_HEAD:
        return TRUE;
    case STARTK_OTHER:
        break;
    }
    return (o & OLDER_BLOCK_ALL) != 0;
}

/* ==================== store buffer (store_buffer.c) ==================== */
void sb_init(Core *c);
SbEntry *sb_alloc(Core *c, uint64_t seq, guint *slot);
void sb_truncate_from(Core *c, uint64_t seq);
void sb_commit(Core *c, uint64_t seq, gboolean release);
void sb_bump_epoch(Core *c);
/* Forwarding lookup for a load of [addr, addr+size) younger than every store before `seq`:
 * returns 1 and the value when one store covers it, 0 when no older store overlaps, -1 when it
 * must wait (a partial overlap, or data not yet known). */
int sb_forward(Core *c, uint64_t seq, uint64_t addr, unsigned size, uint64_t *value);
gboolean sb_has_line(Core *c, uint64_t line);
gboolean sb_has_release(Core *c, uint64_t before_seq);
gboolean sb_drain(Core *c);
/* Whether sb_drain could issue anything (conservative). */
gboolean sb_may_drain(const Core *c);
void sb_store_done(Core *c, guint slot, uint64_t req_id);
static inline gboolean sb_empty_committed(const Core *c) { return c->sb_ncommit == 0; }

/* ==================== branch predictor (branch_predictor.c) ==================== */
void bp_init(Core *c);
gboolean bp_predict(const Core *c, int32_t pc);
void bp_update(Core *c, int32_t pc, gboolean taken);

/* ==================== fast-forward (core_ff.c) ==================== */
/* The unit that fast-forwards: a core, or (SMT) the two hardware threads of one core together,
 * led by the lower CPU id (it ticks first in a cycle, so the start of its tick is the start of
 * the pair's cycle): the leader's ticks are the pair's snapshot points. */
static inline Core *ff_lead(Core *c)
{
    return G_UNLIKELY(c->sib) && c->sib->id < c->id ? c->sib : c;
}
/* At the start of a tick that may close a period: TRUE when the core went to sleep instead. */
gboolean ff_try_sleep(Core *c);
/* A sleeping core brings itself up to position `x` (everything of its own before x done). */
void ff_catch_up(Core *c, EventPos x);
void ff_local_issue(Core *c, const MemRequest *r);
void ff_free(Core *c);

/* ==================== the ops ==================== */
static inline uint64_t core_line(const Core *c, uint64_t addr)
{
    return addr & ~(uint64_t)(c->cfg->line_size - 1);
}
static inline gboolean core_op_is_load(IsaOp op) { return op == OP_LD || op == OP_LDX; }
/* Holds a load-buffer entry from dispatch to retirement (or squash). */
static inline gboolean core_op_takes_lb(IsaOp op) { return core_op_is_load(op) || isa_op_info[op].is_atomic; }
static inline gboolean core_op_has_mem(IsaOp op)
{
    return isa_op_info[op].is_load || isa_op_info[op].is_store;
}

/* ==================== scheduling and the cycle (core.c) ==================== */
uint64_t core_new_req(Core *c);
void core_tick(Core *c);
/* A tick at `when` unless one is pending sooner (none while halted, parked or not started). */
void core_schedule_tick_at(Core *c, Cycle when);
/* The ghost tick happened: it counts as the last tick. */
void core_ghost_settle(Core *c);
/* Something changed from outside the pipeline (a response, a lost line, an event): tick this
 * cycle if the core has not ticked yet this cycle, else the next. */
void core_wake(Core *c);

/* Entry from outside the pipeline (the memory system, an SEV, the OS): a core asleep in a
 * steady loop first catches up to the engine's place; then the clock is the engine's. */
static inline void core_catch_up_now(Core *c)
{
    if (c->ff.sleeping)
        ff_catch_up(c, engine_position(c->e));
    if (!c->ff.local)
        c->now = engine_now(c->e);
}

/* Sends a request to the memory system (or, in a catch-up, to the frozen lines). */
static inline void core_issue(Core *c, const MemRequest *r)
{
    c->ff.inflight++;
    if (r->kind != MEM_LOAD)
        c->ff.taint++;
    if (G_UNLIKELY(c->ff.local))
        ff_local_issue(c, r);
    else
        c->issue(c->ms, c->id, r);
}

/* --trace: what the pipeline did, as a CoreTraceEvent (the trace writers put it in words). */
static inline void core_trace(Core *c, CoreTraceKind kind, int32_t pc, int32_t resume_pc, guint squashed,
                              gint64 penalty)
{
    if (!c->trace_fn)
        return;
    CoreTraceEvent ev = { .kind = kind, .when = c->now, .pc = pc, .resume_pc = resume_pc, .squashed = squashed,
                          .penalty = (Cycle)penalty };
    c->trace_fn(c->trace_ctx, c->id, &ev);
}

/* A memory op's progress (CORE_TRACE_LOAD_ISSUE ... CORE_TRACE_SB_DRAIN). */
static inline void core_trace_mem(Core *c, CoreTraceKind kind, uint64_t seq, int32_t pc, uint64_t addr, uint64_t value)
{
    if (!c->trace_fn)
        return;
    CoreTraceEvent ev = { .kind = kind, .when = c->now, .pc = pc, .resume_pc = pc, .seq = seq, .addr = addr,
                          .value = value };
    c->trace_fn(c->trace_ctx, c->id, &ev);
}

/* The profile's ROB-head clock: call after anything that may change which op is the head. */
static inline void core_profile_note_head(Core *c)
{
    if (c->prof.rows)
        core_profile_head(&c->prof, rob_count(c) ? rob_at(c, c->head_seq)->pc : -1, c->now);
}

/* Request tags: [req_id : 51][kind : 1][slot : 12]. */
#define TAG_SLOT_BITS 12
#define TAG_KIND_SB (1ULL << TAG_SLOT_BITS)
static inline uint64_t tag_make(uint64_t req, gboolean sb, guint slot)
{
    return (req << (TAG_SLOT_BITS + 1)) | (sb ? TAG_KIND_SB : 0) | slot;
}

/* ==================== dispatch (core_frontend.h) ==================== */
/* Counts the cycles of the stall that ends and starts counting `cause`. */
static inline void dispatch_set_stall(Core *c, StallCause cause)
{
    if (cause == c->stall_cause)
        return;
    Cycle now = c->now;
    guint64 d = now - c->stall_since;
    switch (c->stall_cause) {
    case STALL_ROB: c->st.stall_rob_full += d; break;
    case STALL_LB: c->st.stall_lb_full += d; break;
    case STALL_SB: c->st.stall_sb_full += d; break;
    case STALL_NONE: break;
    }
    c->stall_cause = cause;
    c->stall_since = now;
}

/* How many of a `work` chain's ops the window holds beside older ones: an in-order core none. */
static inline gint64 work_window(const Core *c)
{
    return c->in_order ? 0 : (gint64)core_rob_limit(c);
}

/* ==================== execute: the timers and the memo (core_scan.h) ==================== */
/* `en` runs for `cycles` (at least 1): the scan completes it then. */
static inline void exec_timer(Core *c, RobEntry *en, gint64 cycles)
{
    en->state = E_EXEC;
    en->complete_at = c->now + (Cycle)MAX(cycles, 1);
    timer_heap_push(&c->timers, (CoreTimer){ en->complete_at, en->seq });
    c->timer_next = MIN(c->timer_next, en->complete_at);
}

/* Whether `t` is still its entry's timer (the entry was not squashed, nor its seq reused). */
static inline gboolean timer_current(Core *c, const CoreTimer *t)
{
    if (t->seq < c->head_seq || t->seq >= c->next_seq)
        return FALSE;
    const RobEntry *en = rob_at(c, t->seq);
    return en->state == E_EXEC && en->req_id == 0 && en->complete_at == t->at;
}

/* Drops stale timers from the top: timer_next is then the earliest current one, or never. */
static inline void exec_timers_purge(Core *c)
{
    while (c->timers.len && !timer_current(c, &c->timers.v[0]))
        timer_heap_pop(&c->timers);
    c->timer_next = c->timers.len ? c->timers.v[0].at : CYCLE_NEVER;
}

/* The touch functions: the scan's memo (struct Core) learns what changed. */
/* Something the start of `seq` depends on changed: the next execute scan looks at it again
 * (and at younger ops while the ordering state it carries changed). */
static inline void core_touch(Core *c, uint64_t seq)
{
    c->scan_from = MIN(c->scan_from, seq);
    c->scan_end = MAX(c->scan_end, seq + 1);
}
/* Something every op from `seq` on may depend on changed. */
static inline void core_touch_from(Core *c, uint64_t seq)
{
    c->scan_from = MIN(c->scan_from, seq);
    c->scan_end = UINT64_MAX;
}
/* `en` completed: it and the ops reading its result look again. */
static inline void core_touch_done(Core *c, const RobEntry *en)
{
    c->scan_from = MIN(c->scan_from, en->seq);
    c->scan_end = MAX(c->scan_end, en->last_use + 1);
}
/* Something only an op at the ROB head looks at changed (which op is the head, the committed
 * stores, the exclusive monitor, the event register): the next scan looks at the head again. */
static inline void core_touch_head(Core *c) { c->head_dirty = TRUE; }

/* ==================== execute: the ops (core_execute.h, core_memops.c) ==================== */
static inline void exec_done(RobEntry *en, Cycle now)
{
    en->state = E_DONE;
    en->done_at = now;
}

/* The op's address from its sources (ready): en->addr and en->line, known from now on. */
void memop_resolve(Core *c, RobEntry *en);
gboolean access_faults(Core *c, RobEntry *en);
gboolean memop_start_load(Core *c, RobEntry *en, const Older *o);
gboolean memop_start_store(Core *c, RobEntry *en);
gboolean memop_start_atomic(Core *c, RobEntry *en, gboolean head);
/* The store-exclusive half of an llsc atomic, or its retry. */
gboolean memop_step_llsc(Core *c, RobEntry *en);
gboolean memop_start_fence(Core *c, RobEntry *en, gboolean head);
/* The port's `done`: a response to one of our requests. */
void memop_done(void *obj, const MemResponse *r);

/* ==================== lost lines (core_rollback.c) ==================== */
/* The port's `line_lost`. */
void rollback_line_lost(void *obj, uint64_t line_addr, LineLossCause cause);
/* arm64: `en` just performed; a younger same-address load that read older news reads again. */
void rollback_same_address(Core *c, const RobEntry *en);

/* ==================== system calls (core_os.c) ==================== */
gboolean syscall_start(Core *c, RobEntry *en, gboolean head);

/* ==================== SMT (core_smt.c) ==================== */
/* `c` halted, stopped or gave up its thread: its sibling's partitioned structures grow back. */
void smt_thread_left(Core *c);

#endif
