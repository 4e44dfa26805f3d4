/* The OS model's side of a core (sim/os/os_model.h): system calls at the ROB head handed to
 * the OS and answered by it, and threads' contexts saved off and loaded onto the core at a
 * switch. */
#include <string.h>
#include "cores/core_internal.h"

/* ==================== system calls ==================== */

void core_set_os_hooks(Core *c, CoreSyscallFn syscall, CoreHaltFn halt, void *ctx)
{
    c->syscall_fn = syscall;
    c->halt_fn = halt;
    c->os_ctx = ctx;
}

/* A system call runs at the ROB head once every older store has drained (the kernel entry and
 * the futex code's atomics order it like a full barrier); the OS answers through
 * core_syscall_return or core_context_save.  Nothing younger starts meanwhile (note_older). */
gboolean syscall_start(Core *c, RobEntry *en, gboolean head)
{
    const IsaInsn *in = en->in;
    if (!head || !rob_src_ready(c, en->src[0]) || !rob_src_ready(c, en->src[2]) || !sb_empty_committed(c))
        return FALSE;
    memop_resolve(c, en);
    en->data = rob_src_value(c, &in->a, en->src[0]);
    /* The futex word is an access like any other: a bad one faults as the op retires, and
     * neither the OS nor the memory system sees it. */
    if (access_faults(c, en)) {
        exec_timer(c, en, 1);
        return TRUE;
    }
    if (!c->syscall_fn) {
        en->value = in->op == OP_FUTEX_WAIT ? 1 : 0; /* no OS: nobody sleeps, nobody is woken */
        exec_timer(c, en, 1);
        return TRUE;
    }
    en->req_id = core_new_req(c); /* never sent to memory: it marks the wait for the OS */
    en->state = E_EXEC;
    en->complete_at = CYCLE_NEVER;
    c->syscall_fn(c->os_ctx, c, in, en->addr, en->data);
    return TRUE;
}

static RobEntry *syscall_in_progress(Core *c)
{
    if (!rob_count(c))
        return NULL;
    RobEntry *en = rob_at(c, c->head_seq);
    return isa_op_info[en->in->op].is_syscall && en->state == E_EXEC && en->req_id ? en : NULL;
}

void core_syscall_return(Core *c, uint64_t result)
{
    if (c->stopped)
        return; /* the run ended meanwhile */
    RobEntry *en = syscall_in_progress(c);
    g_assert(en && !c->parked && !c->ff.sleeping); /* a core at a system call does not repeat */
    c->now = engine_now(c->e);
    c->ff.taint++;
    en->value = result;
    en->req_id = 0;
    exec_done(en, c->now);
    core_touch(c, en->seq);
    core_wake(c);
}

/* ==================== thread contexts ==================== */

void core_context_init(CoreContext *ctx, guint tid, guint nthreads, int32_t entry_pc)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->tid = tid;
    ctx->pc = entry_pc;
    ctx->regs[ISA_REG_TID] = tid;
    ctx->regs[ISA_REG_NTHREADS] = nthreads;
}

gboolean core_can_switch(const Core *c)
{
    /* The OS asks at a time slice's end: a core asleep in a steady loop catches up first (the
     * answer, and the switch that may follow, are then those of the run without it). */
    core_catch_up_now((Core *)c);
    if (c->sb_ncommit || c->stopped)
        return FALSE; /* a stopped core keeps its thread */
    if (!rob_count(c))
        return TRUE;
    const RobEntry *en = rob_at((Core *)c, c->head_seq);
    IsaOp op = en->in->op;
    gboolean performs = isa_op_writes_at_head(op) || isa_op_info[op].is_syscall;
    return !(performs && en->state != E_WAIT);
}

/* The thread's architectural state, resuming at `pc`. */
static void context_fill(const Core *c, CoreContext *out, int32_t pc)
{
    out->tid = c->tid;
    out->pc = pc;
    memcpy(out->regs, c->regs, sizeof out->regs);
    memcpy(out->stack, c->ras, sizeof out->stack);
    out->depth = c->ras_sp;
}

void core_context_save(Core *c, CoreContext *out)
{
    core_catch_up_now(c);
    int32_t pc = rob_count(c) ? rob_at(c, c->head_seq)->pc : c->fq_count ? c->fq[c->fq_head].pc : c->fetch_pc;
    if (c->stopped) {
        context_fill(c, out, pc); /* the run ended: the core stays as it was */
        return;
    }
    c->ff.taint++; /* another thread: no period spans the switch */
    if (c->ghost_tick != CYCLE_NEVER && c->ghost_tick < c->now)
        core_ghost_settle(c);
    c->ghost_tick = CYCLE_NEVER;
    Cycle now = c->now;
    RobEntry *sys = syscall_in_progress(c);
    g_assert(sys || core_can_switch(c));
    if (sys) {
        /* The system call is what the thread did last: it resumes after it. */
        pc = sys->pc + 1;
        c->st.insns_retired++;
        CORE_PROFILE_ADD(&c->prof, sys->pc, executions, 1);
        c->last_retire = now;
    }
    /* The squash undoes the return-address stack to what retired: the thread's call stack. */
    rob_squash_from(c, c->head_seq);
    core_profile_note_head(c);
    dispatch_set_stall(c, STALL_NONE);
    context_fill(c, out, pc);
    c->parked = TRUE;
    c->fetch_stopped = TRUE;
    c->dispatch_blocked_until = 0;
    c->mon_armed = FALSE;
    c->event_reg = FALSE;
    c->event_cause = WAKE_NONE;
    c->st.cycles = now - c->start_cycle;
    c->tick_at = CYCLE_NEVER;
    engine_tick_cancel(c->e, c->id);
    if (c->sib)
        smt_thread_left(c);
}

void core_context_load(Core *c, const CoreContext *ctx, Cycle delay)
{
    if (c->stopped)
        return; /* a fault ended the run: nothing runs here any more */
    g_assert(c->parked || c->halted || !c->started);
    g_assert(rob_count(c) == 0 && c->sb_ncommit == 0 && !c->ff.sleeping);
    Cycle now = c->now = engine_now(c->e);
    c->ff.taint++;
    c->tid = ctx->tid;
    memcpy(c->regs, ctx->regs, sizeof c->regs);
    memcpy(c->ras, ctx->stack, sizeof c->ras);
    c->ras_sp = ctx->depth;
    rob_rename_rebuild(c);
    c->fq_count = 0;
    c->fetch_pc = ctx->pc;
    c->fetch_stopped = FALSE;
    c->fetch_resume_at = now + delay;
    c->dispatch_blocked_until = 0;
    c->mon_armed = FALSE;
    /* arm64: an exception return sets the event register (a WFE after it falls through). */
    c->event_reg = !c->x86;
    c->event_cause = c->x86 ? WAKE_NONE : WAKE_SEV;
    c->wfe_sleeping = FALSE;
    c->halted = FALSE;
    c->parked = FALSE;
    if (!c->started) {
        c->started = TRUE;
        c->start_cycle = now;
    }
    core_touch_head(c);
    core_schedule_tick_at(c, now + delay);
}
