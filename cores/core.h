/* The core timing model: an out-of-order window in front of in-order retirement, with the x86
 * and arm64 memory-ordering rules (DESIGN.md, "Cores: where the rollback lives").
 *
 * A core runs one thread of an IsaProgram.  It is ticked by engine events only while it has
 * work; halted, sleeping in WFE, or waiting on nothing but memory it schedules nothing and is
 * woken by the memory system's callbacks (the PortClient returned by core_port_client()).
 * Models count, never print: every squash, stall and wait lands in CoreStats by cause. */
#ifndef QSIM_CORE_H
#define QSIM_CORE_H

#include <glib.h>
#include <stdint.h>
#include "sim/base/engine.h"
#include "sim/base/config.h"
#include "sim/base/counters.h"
#include "coherence/port.h"
#include "cores/isa/isa.h"
#include "cores/isa/isa_fault.h"
#include "cores/core_profile.h"

/* ---- counters ---- */
/* Every field is a guint64 counter registered in core_stats_registry (cores/core_stats.c) with a
 * name, unit and description, so report writers never hand-list fields. */
typedef struct {
    guint64 cycles;                 /* cycles from start until halt (or until now) */
    guint64 insns_retired;
    guint64 loads_retired;
    guint64 stores_retired;
    guint64 loads_forwarded;        /* served from the store buffer */
    guint64 loads_issued;           /* MEM_LOAD requests sent to the L1 */
    guint64 stores_drained;         /* MEM_STORE requests performed */
    guint64 machine_clears;         /* memory-ordering machine clears (x86 load rollback) */
    guint64 machine_clears_sibling; /* of them, caused by the core's other hardware thread's store */
    guint64 mc_squashed_ops;
    guint64 mc_penalty_cycles;
    guint64 same_addr_replays;      /* arm64: younger same-address load re-executed */
    guint64 branch_mispredicts;
    guint64 bm_squashed_ops;
    guint64 bm_penalty_cycles;
    guint64 pause_ops;
    guint64 paused_cycles;          /* core.pause_cycles per retired PAUSE/YIELD (wrong-path ones not counted) */
    guint64 fence_ops;
    guint64 fence_cycles;           /* from reaching the ROB head to completion */
    guint64 atomics;
    guint64 cas_failed;
    guint64 atomic_cycles;          /* from reaching the ROB head to completion */
    guint64 llsc_failures;          /* store-exclusive failures (ISA stx and llsc atomics) */
    guint64 wfe_sleeps;
    guint64 wfe_wake_monitor;
    guint64 wfe_wake_sev;
    guint64 wfe_wake_timeout;
    guint64 wfe_sleep_cycles;
    guint64 stall_rob_full;         /* dispatch stall cycles by cause */
    guint64 stall_lb_full;
    guint64 stall_sb_full;
    guint64 smt_stage_waits;        /* stage-cycles fetch, dispatch or retirement had work but was
                                     * the sibling hardware thread's turn (SMT) */
    guint64 lines_lost;             /* line_lost callbacks received (invalidation or eviction) */
    guint64 marks;
} CoreStats;

extern const CounterRegistry core_stats_registry;
void core_stats_add(CoreStats *dst, const CoreStats *src);
gboolean core_stats_equal(const CoreStats *a, const CoreStats *b);

/* ---- hooks ---- */
/* How the core reaches the memory system (the port's request side). */
typedef void (*CoreIssueFn)(void *ms, guint core, const MemRequest *r);
/* `mark N` retired on `core` at cycle `when` (1: lock call begins, 2: acquired, 3: released). */
typedef void (*CoreMarkFn)(void *ctx, guint core, int64_t n, Cycle when);
/* What the pipeline did, for traces (sim/trace/trace_events.h puts it in words). */
typedef enum {
    CORE_TRACE_RETIRE,         /* an op retired (in program order) */
    CORE_TRACE_MACHINE_CLEAR,  /* x86 memory-ordering machine clear: a performed, unretired load's
                                * line was invalidated or evicted; squash from it and refetch */
    CORE_TRACE_MISPREDICT,     /* a branch resolved against its prediction: squash younger ops */
    CORE_TRACE_REPLAY,         /* arm64: a younger same-address load read older data: re-execute */
    CORE_TRACE_WFE_SLEEP,      /* wfe: asleep until an event */
    /* The memory ops' progress, for the step-through page's pipeline panel (never in words): */
    CORE_TRACE_LOAD_ISSUE,     /* a load went to the memory system (seq, pc, addr) */
    CORE_TRACE_LOAD_PERFORM,   /* a load has its value (seq, pc, addr, value; forwarded or not) */
    CORE_TRACE_SQUASH,         /* every op from seq on is squashed */
    CORE_TRACE_SB_COMMIT,      /* a store retired into the store buffer (seq, pc, addr, value) */
    CORE_TRACE_SB_DRAIN,       /* a store wrote its cache line and left the store buffer (seq) */
} CoreTraceKind;

typedef struct {
    CoreTraceKind kind;
    Cycle when;
    int32_t pc;             /* the op: retired, squashed load, branch, wfe */
    int32_t resume_pc;      /* squashes: where fetch resumes */
    uint64_t line;          /* machine clear: the line lost */
    gboolean evicted;       /* machine clear: lost to an eviction (else an invalidation) */
    guint squashed;         /* squashes: ops squashed */
    Cycle penalty;          /* squashes: cycles before fetch resumes */
    gboolean sibling;       /* machine clear: the line was written by the core's other hardware
                             * thread (SMT), not lost */
    guint inflight;         /* machine clear: squashed loads whose access had already left for the
                             * L1; the memory system still performs it (a miss asks for the line) */
    uint64_t seq;           /* retire and the memory ops' kinds: the op's sequence number */
    uint64_t addr, value;   /* loads and the store buffer: the access's address and value */
} CoreTraceEvent;
typedef void (*CoreTraceFn)(void *ctx, guint core, const CoreTraceEvent *ev);
/* `sev` retired on `core`: the receiver signals every core (core_signal_event), itself too. */
typedef void (*CoreSevFn)(void *ctx, guint core);

/* A run-time fault (cores/isa/isa_fault.h): the op at `pc` reached retirement with a bad access
 * or control flow that cannot go on (ISA_FAULT_OFF_PROGRAM: `pc` is the one outside). */
typedef struct {
    IsaFaultKind kind;
    int32_t pc;
    uint64_t addr;                  /* ISA_FAULT_NO_THREAD: the thread asked for; OFF_PROGRAM: pc */
    unsigned size;
} CoreFault;
/* An op of `core` faulted as it came to retire; the core has stopped. */
typedef void (*CoreFaultFn)(void *ctx, guint core, const CoreFault *f);

typedef struct Core Core;

/* ---- the OS model's side of a core (sim/os/os_model.h) ---- */
/* A system call (a futex op) is at the ROB head with every older store drained and nothing
 * younger started: the core hands it to the OS and waits.  The OS answers later, from an engine
 * event, never from inside this hook: core_syscall_return, or core_context_save when the thread
 * sleeps.  `arg` is the op's operand `a` (futex_wait's value, futex_wake's count). */
typedef void (*CoreSyscallFn)(void *ctx, Core *c, const IsaInsn *in, uint64_t addr, uint64_t arg);
/* The thread on `c` retired `halt` (the core is halted until a context is loaded). */
typedef void (*CoreHaltFn)(void *ctx, Core *c);

/* Depth of the call stack (the return-address stack, exact after squashes): the ISA's. */
#define CORE_CALL_DEPTH ISA_CALL_DEPTH

/* A thread's architectural state while it is off its core. */
typedef struct {
    guint tid;
    int32_t pc;                         /* the next op to run */
    uint64_t regs[ISA_NREG_SLOTS];      /* r0..r63, tid, nthreads */
    int32_t stack[CORE_CALL_DEPTH];     /* return addresses, as the core keeps them */
    int depth;
} CoreContext;

/* `tid`/`nthreads` fill slots 16/17; `entry_pc` is where the thread starts (its `main`). */
Core *core_new(Engine *e, const QsimConfig *cfg, guint id, const IsaProgram *prog,
               const IsaLayout *layout, guint tid, guint nthreads, int32_t entry_pc,
               CoreIssueFn issue, void *ms);
void core_free(Core *c);
void core_set_mark_hook(Core *c, CoreMarkFn fn, void *ctx);
void core_set_sev_hook(Core *c, CoreSevFn fn, void *ctx);
void core_set_trace_hook(Core *c, CoreTraceFn fn, void *ctx);
void core_set_fault_hook(Core *c, CoreFaultFn fn, void *ctx);
/* `work N` then takes N plus a draw in [0, jitter] from this core's "core.work" stream. */
void core_set_work_jitter(Core *c, guint jitter);
/* The callbacks the memory system calls; its `core` argument is the Core*. */
const PortClient *core_port_client(void);
/* Starts fetching `delay` cycles from now. */
void core_start(Core *c, Cycle delay);
/* An SEV from some core: sets the event register and wakes a WFE sleeper. */
void core_signal_event(Core *c);

/* Fast-forward of steady loops (cores/core_ff.c) through the memory system's `ff` (NULL: off).
 * A core asleep in one holds no events; it catches up by itself when the memory system or an
 * SEV reaches it, and whoever reads its state otherwise (the machine) calls core_catch_up
 * first: everything it would have done at cycles before `before` is then done (a tick skipped
 * as one that would do nothing counted too). */
void core_set_fast_forward(Core *c, const PortFastForward *ff);
/* SMT (cores/core_smt.c): `a` and `b` are the two hardware threads of one core (logical CPUs of
 * one core, config.h).  They take fetch, dispatch and retirement in turn, cycle by cycle (a
 * thread that has nothing for a stage leaves it to the other), split the structures the config's
 * smt.* keys partition while both are active (neither halted nor without a thread: the OS
 * model's idle), and share the branch predictor when smt.branch_predictor says so.  Their store
 * buffers stay their own.  Neither fast-forwards (their loops are not their own). */
void core_smt_pair(Core *a, Core *b);
/* The core's other hardware thread, or NULL. */
Core *core_sibling(const Core *c);
/* The ROB, load-buffer and store-buffer entries this hardware thread may hold now: the config's
 * sizes, or (SMT) its part of them while its sibling runs (cores/core_smt.h). */
void core_buffer_limits(const Core *c, guint *rob, guint *lb, guint *sb);
void core_catch_up(Core *c, Cycle before);
gboolean core_asleep(const Core *c);
guint64 core_cycles_fast_forwarded(const Core *c); /* core-cycles added arithmetically */
void core_set_os_hooks(Core *c, CoreSyscallFn syscall, CoreHaltFn halt, void *ctx);
/* The OS finished the system call at the ROB head: rd := result, and it retires. */
void core_syscall_return(Core *c, uint64_t result);
/* A thread that has not run yet: at `entry_pc`, registers 0. */
void core_context_init(CoreContext *ctx, guint tid, guint nthreads, int32_t entry_pc);
/* Whether the thread can leave the core now: no atomic or system call at the ROB head has
 * started (its memory effect cannot be undone by a squash) and no retired store waits in the
 * store buffer (another core must see them before the thread runs there).  A core asleep in a
 * steady loop catches up first (so does core_context_save, and core_stop). */
gboolean core_can_switch(const Core *c);
/* The thread leaves the core: every op not retired is squashed and its state saved in *out; a
 * system call the OS was running counts as retired (the thread resumes after it; the OS
 * writes its result into out->regs).  The core then runs nothing until core_context_load.
 * Requires core_can_switch, or the system call at the head in progress. */
void core_context_save(Core *c, CoreContext *out);
/* Thread `ctx` runs on this idle core, fetching from `delay` cycles from now. */
void core_context_load(Core *c, const CoreContext *ctx, Cycle delay);

gboolean core_halted(const Core *c);
/* Ends the core where it is (another core's fault ended the run): it does nothing more.  A
 * stopped core (so is one whose op faulted) is no thread's exit: the OS model is not told, and
 * what it still asks is answered leaving the core frozen (core_can_switch says no,
 * core_context_load and core_syscall_return do nothing, core_context_save only reads). */
void core_stop(Core *c);
/* The fault that stopped the core, or NULL. */
const CoreFault *core_fault(const Core *c);
/* The pc of the `halt` the core retired, or -1 (not halted, or stopped otherwise). */
int32_t core_halt_pc(const Core *c);
guint core_id(const Core *c);
/* The thread on the core (or the last one it ran). */
guint core_tid(const Core *c);
const CoreStats *core_stats(const Core *c);
/* The memory-ordering machine clears that losing `line` (a line address) caused on this core:
 * the per-variable counters of a report add these up. */
guint64 core_line_clears(const Core *c, uint64_t line);
/* The per-instruction profile (cores/core_profile.h): off until enabled, which changes no
 * timing; enable it before the core starts.  core_profile_rows charges the op at the ROB head
 * its cycles up to now and returns the rows (one per pc, *n of them), or NULL when off. */
void core_enable_profile(Core *c);
const ProfileRow *core_profile_rows(Core *c, guint *n);
Cycle core_last_retire(const Core *c);     /* 0 before the first retirement */
/* Architectural register (0..17), valid once the core has halted or between retirements. */
uint64_t core_reg(const Core *c, guint reg);
/* One line saying what the core is waiting for (for the stall report). */
void core_describe_wait(const Core *c, GString *out);

#endif
