/* ARMv8 (AArch64), operationally: Promising-ARM (Pulte, Pichon-Pharabod, Kang, Lee, Hur,
 * "Promising-ARM/RISC-V: a simpler and faster operational concurrency model", PLDI 2019), which
 * its authors prove equal to the official axiomatic model (herd's aarch64.cat, the one
 * sim/memmodel/model_arm64.c runs).  Memory is a list of write messages and each thread has
 * views (arm64_state.h); a thread runs its ops in order, and:
 *
 *   read (ld, ldx, the read of an atomic)   may read any message of its bytes no newer write of
 *       which lies at or below pre = vaddr | vrNew | (LDAR: vRel) joined with the byte's
 *       coherence view; post = pre | the message's timestamp (or, reading its own last write to
 *       the byte, that write's address and data views, unless the write was exclusive and the
 *       read an acquire); coh, vrOld |= post; an acquire (LDAR, LDAPR) also vrNew, vwNew |= post;
 *       the register gets post; vCAP |= vaddr
 *   write (st, stx, the write of an atomic) takes a new timestamp after every message, or
 *       fulfils the thread's promise of the same write, at ts > pre = vaddr | vdata | vCAP |
 *       vwNew | (release: vrOld | vwOld) | (exclusive/atomic: the read's post) and > coh; an
 *       exclusive or atomic write also needs no other thread's write to its bytes between its
 *       read and ts; coh := ts, vwOld |= ts, vCAP |= vaddr, release: vRel |= ts; an atomic
 *       with both acquire and release orders everything after it (vrNew, vwNew |= ts)
 *   promise   a thread may add a message for a write it will make later, if it can still make
 *       every write it promised running alone from there (certification); a state is final
 *       only with no promise left
 *   DMB SY (fence): vrNew, vwNew |= vrOld | vwOld;  DMB LD (fence.load): |= vrOld (not the
 *       reads of no-return atomics);  DMB ST (fence.store): vwNew |= vwOld;  ISB: vrNew |= vCAP
 *   registers   an ALU result's view is its operands' join (address and data dependencies);
 *       a branch joins its operands' views into vCAP (control dependencies)
 *   stx   may always fail (as herd lets it); succeeds only after this thread's ldx of the line
 *   futex_wait, futex_wake   system calls, fully ordered: a DMB SY before and after, and
 *       futex_wait reads the word's last write (the kernel reads it under the bucket lock
 *       futex_wake takes), then acts as in the interpreter; wfe, sev, sevl as the interpreter
 *       defines them, a message clearing other threads' monitors on its line when it appears.
 *
 * Bounds: memory holds at most ARM_MAX_MSGS messages, and a certification run (the thread
 * alone, cert_states states) is bounded; when a bound leaves a move out the search says it
 * was cut short.  Mixed sizes: coherence is per byte; a read takes each byte from a write, never
 * some bytes of a write and others older than it (single-copy atomicity). */
#include <string.h>
#include "sim/explore/explore_exec.h"
#include "sim/explore/arm64_state.h"
#include "sim/explore/arm64_ops.h"

static gboolean arm_local(const ExploreWorld *w, const ExploreState *s, guint t, const IsaInsn *i)
{
    (void)w, (void)s, (void)t;
    return explore_op_is_private(i) || i->op == OP_FENCE;
}

static void arm_moves(const ExploreWorld *w, const ExploreState *s, GArray *moves, gboolean *bounded)
{
    for (guint t = 0; t < w->nthreads; t++) {
        if (s->th[t].state != THREAD_RUNNABLE)
            continue;
        guint n = arm_step_count(w, s, t, bounded, NULL);
        for (guint k = 0; k < n; k++)
            if (arm_step_ok(w, s, t, k, bounded))
                g_array_append_val(moves, ((ExploreMove){ t, EXPLORE_MOVE_STEP, k }));
        /* Promise-first: a promise is offered only right after a move that added a message. */
        guint np = arm_of(s)->appended && !w->first_pass ? arm_promise_count(w, s, t, bounded) : 0;
        for (guint k = 0; k < np; k++)
            g_array_append_val(moves, ((ExploreMove){ t, EXPLORE_MOVE_PROMISE, k }));
    }
}

static void arm_apply(const ExploreWorld *w, ExploreState *s, ExploreMove m, ExploreNote *note)
{
    ArmState *a = arm_of(s);
    guint before = a->n;
    if (m.kind == EXPLORE_MOVE_PROMISE)
        arm_promise(w, s, m.thread, m.arg, note);
    else
        arm_step(w, s, m.thread, m.arg, note);
    a->appended = a->n > before;
}

static uint64_t arm_load(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size,
                         ExploreNote *note)
{
    /* Plain loads are arm_step's own; the interpreter path never reaches here. */
    (void)t;
    return explore_mem_read(w, s, addr, size, note);
}

static void arm_store(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size, uint64_t value,
                      int32_t pc, ExploreNote *note)
{
    (void)pc;
    explore_mem_store(w, s, t, addr, size, value, note);
}

/* A thread holding a promise has made writes visible that its position has not reached. */
static gboolean arm_position_settled(const ExploreState *s, guint t) { return !arm_has_promise(s, t); }

const ExploreModel explore_model_arm64 = {
    .name = "arm64",
    .title = "ARMv8 (Promising-ARM)",
    .reference = "Pulte, Pichon-Pharabod, Kang, Lee, Hur, \"Promising-ARM/RISC-V: a simpler and faster operational "
                 "concurrency model\", PLDI 2019 (equal to herd's aarch64.cat)",
    .has_buffers = FALSE,
    .local = arm_local,
    .moves = arm_moves,
    .apply = arm_apply,
    .load = arm_load,
    .store = arm_store,
    .exec = arm_exec_local,
    .ext = &explore_arm64_ext,
    .position_settled = arm_position_settled,
    .has_promises = TRUE,
    .bound_message = "a bound of the ARMv8 model left moves out: memory reached its most messages, or a promise's "
                     "certification run (the thread alone) was cut short; executions beyond it were not explored",
};
