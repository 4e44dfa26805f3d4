/* The machine: N cores running one program's threads, wired to a memory system through the
 * port, run on the engine to completion with a stall watchdog (and, when asked, a progress
 * watchdog); an op that faults stops every core.
 *
 * The memory system is reached through MemSystemOps, which mirrors coherence/port.h: the real
 * one plugs in with a one-line adapter, tests plug in tests/fake_memory. */
#ifndef QSIM_MACHINE_H
#define QSIM_MACHINE_H

#include <glib.h>
#include "sim/base/engine.h"
#include "sim/base/config.h"
#include "coherence/port.h"
#include "cores/isa/isa.h"
#include "cores/core.h"

typedef struct {
    /* Send request `r` from `core`; the answer comes through that core's PortClient.done,
     * always from an engine event. */
    void (*issue)(void *ms, guint core, const MemRequest *r);
    /* Register core `core`'s callbacks; `core_obj` is passed back as their first argument. */
    void (*attach)(void *ms, guint core, const PortClient *client, void *core_obj);
    /* Coherent value of memory now, and initial writes; no timing, no messages. */
    uint64_t (*peek)(void *ms, uint64_t addr, unsigned size);
    void (*poke)(void *ms, uint64_t addr, unsigned size, uint64_t value);
    /* What cores need to fast-forward steady loops (port.h), or NULL: they never do. */
    const PortFastForward *ff;
    /* At most how long one access may take with nothing else in flight, or NULL: short enough
     * that run.stall_cycles covers any wait for memory. */
    Cycle (*longest_access)(void *ms);
} MemSystemOps;

/* The real memory system (coherence/memsys.h), for machine_new(..., &machine_memsys_ops, ms, ...). */
extern const MemSystemOps machine_memsys_ops;

typedef enum {
    MACHINE_DONE,        /* every core halted */
    MACHINE_STALLED,     /* no retirement anywhere for machine_stall_window (run.stall_cycles or the
                          * memory's quiet, plus the longest `work` and the OS's costs), or nothing
                          * left to run */
    MACHINE_LIMIT,       /* the cycle limit passed to machine_run came first */
    MACHINE_FAULT,       /* an op faulted (cores/isa/isa_fault.h); every core stopped there */
    MACHINE_NO_PROGRESS, /* cores retire, but no `mark` for the progress window */
} MachineOutcome;

typedef struct Machine Machine;

/* One core per thread; thread i runs on core cores[i] (NULL: core i), and every thread starts at
 * entry `main`.  Threads placed on the same core (more threads than cores), or a program with
 * system calls (the futex ops), bring in the OS model (sim/os/os_model.h): it schedules the
 * threads over the cores and runs the system calls.  Without it the machine is exactly one
 * core per thread, as before the OS model existed.
 * The layout is the caller's (the memory system is sized from it); memory is initialised from
 * the program's symbols through ops->poke.  Borrowed: cfg, e, ms, prog, layout. */
Machine *machine_new(const QsimConfig *cfg, Engine *e, const MemSystemOps *ops, void *ms,
                     const IsaProgram *prog, const IsaLayout *layout, guint nthreads,
                     const guint *cores, GError **error);
void machine_free(Machine *m);

/* Start delays: core i starts `delay` cycles after machine_run begins (default 0). */
void machine_set_start_delay(Machine *m, guint core, Cycle delay);
/* Draws every core's start delay uniformly in [0, max_skew] from the "machine.skew" stream. */
void machine_randomize_start(Machine *m, Cycle max_skew);
void machine_set_mark_hook(Machine *m, CoreMarkFn fn, void *ctx);
/* Every `work N` takes N plus a seeded uniform draw in [0, jitter] cycles (think-time jitter). */
void machine_set_work_jitter(Machine *m, guint jitter);
/* Fast-forward of steady loops (cores/core_ff.c), on by default where the memory system can:
 * the same run, cheaper.  Off: every cycle simulated. */
void machine_set_fast_forward(Machine *m, gboolean on);
/* From a memory-system event (engine.h's first class) at cycle T that reads the cores' or the
 * memory system's counters (the warm-up snapshot): every core asleep in a steady loop does
 * everything it would have done before cycle T's hits and ticks. */
void machine_catch_up(Machine *m);
/* The progress watchdog: the run ends as MACHINE_NO_PROGRESS when no core retires an
 * acquisition's or a release's `mark` (mark_is_progress, sim/machine/mark_log.h) for `cycles` (0, the
 * default: off).  A lock that never hands over retires all the while, so the stall watchdog
 * cannot see it; any other mark may sit in its spin loop. */
void machine_set_progress_window(Machine *m, Cycle cycles);
/* Every core's pipeline events (machine clears, mispredicts, replays, WFE sleeps), in words. */
void machine_set_trace_hook(Machine *m, CoreTraceFn fn, void *ctx);

/* How long no core may retire anything before the run has stalled: run.stall_cycles, or the
 * memory system's quiet (machine_memory_quiet) where that is longer, plus the program's longest
 * `work` with its jitter, plus what the OS model's costs may take (os_model_quiet's `retire`)
 * when the run has one. */
Cycle machine_stall_window(const Machine *m);
/* How long the memory system may legally keep every core from retiring: each core's access
 * queued at one home behind every other's, each the longest access (MemSystemOps); 0 without
 * that bound. */
Cycle machine_memory_quiet(const Machine *m);
/* The cycle from which no core has retired anything (after a stall: since when it stalled). */
Cycle machine_last_retire(const Machine *m);
/* Whether the stall watchdog ended the run because nothing was left to happen (no core or
 * memory event pending, or none before the window closes), rather than at the window's end. */
gboolean machine_stalled_idle(const Machine *m);
/* Runs until every core halts, the watchdog fires, or `max_cycles` (CYCLE_NEVER: no limit). */
MachineOutcome machine_run(Machine *m, Cycle max_cycles);
/* After a stall or lack of progress: one line per core saying what it waits for; after a
 * fault: the fault (isa_fault_report). */
const char *machine_stall_report(const Machine *m);

/* The cores made (one per thread, or one per core used with the OS model). */
guint machine_ncores(const Machine *m);
/* The thread on (or last on) core `core_id` (a hardware id). */
guint machine_thread_on_core(const Machine *m, guint core_id);
/* The OS model, or NULL when the run has none. */
typedef struct OsModel OsModel;
const OsModel *machine_os(const Machine *m);
Core *machine_core(const Machine *m, guint i);
const CoreStats *machine_core_stats(const Machine *m, guint i);
void machine_total_stats(const Machine *m, CoreStats *out);
Cycle machine_cycles(const Machine *m);   /* cycle the run ended at */
/* Core-cycles that fast-forward added arithmetically instead of simulating. */
guint64 machine_cycles_fast_forwarded(const Machine *m);

#endif
