/* The core timing model: pipeline stages called retire-first each cycle, and the port
 * callbacks through which the memory system answers and tells us of lost lines.
 *
 * Simplifications, each chosen to keep the model small where the locks studied do not care:
 * unlimited issue width (fetch_width bounds throughput); a load waits until every older
 * store's address is known (no memory-dependence speculation); a load forwarded from the store
 * buffer is not watched by the ordering rollback; `stx` and atomics take no store-buffer entry
 * (they perform at the ROB head); on arm64 a younger load waits for an older unfinished atomic
 * or `stx`; `stx` is performed as a compare-and-swap against the value `ldx` read (so an ABA
 * write in between is not seen as a failure). */
#include <stdarg.h>
#include <string.h>
#include "cores/core_internal.h"
#include "cores/isa/isa_exec.h"

/* ==================== scheduling ==================== */

uint64_t core_new_req(Core *c)
{
    return ++c->next_req;
}

static void tick_event(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    Core *c = obj;
    c->tick_at = CYCLE_NEVER;
    c->now = engine_now(c->e);
    core_tick(c);
}

static void schedule_tick_at(Core *c, Cycle when)
{
    if (c->halted || !c->started || c->parked)
        return;
    if (c->tick_at <= when)
        return; /* CYCLE_NEVER: none pending */
    c->tick_at = when;
    if (!c->ff.local)
        engine_tick_at(c->e, c->id, when);
}

/* Whether the ghost tick at `now` (see core_internal.h) has had its turn: the engine is past
 * this core's place among the cycle's ticks.  A catch-up runs hits before ticks. */
static inline gboolean ghost_passed(const Core *c)
{
    if (c->ghost_tick != c->now || c->ff.local)
        return FALSE;
    EventPos p = engine_position(c->e);
    return p.when > c->now || (p.cls == EV_TICK && p.sub > c->id);
}

/* Something changed from outside the pipeline (a response, a lost line, an event): tick this
 * cycle if the core has not ticked yet this cycle, else the next. */
void core_wake(Core *c)
{
    Cycle now = c->now;
    schedule_tick_at(c, c->last_tick == now || ghost_passed(c) ? now + 1 : now);
}

/* The ghost tick happened: it counts as the last tick. */
static void ghost_settle(Core *c)
{
    c->last_tick = c->ghost_tick;
    c->st.cycles = c->ghost_tick - c->start_cycle;
    c->ghost_tick = CYCLE_NEVER;
}

static void start_event(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    Core *c = obj;
    c->started = TRUE;
    c->now = c->start_cycle = engine_now(c->e);
    schedule_tick_at(c, c->start_cycle);
}

void core_start(Core *c, Cycle delay)
{
    engine_schedule_class(c->e, engine_now(c->e) + delay, EV_START, c->id, start_event, c, 0);
}

/* ==================== helpers ==================== */

static inline gboolean is_load_op(IsaOp op) { return op == OP_LD || op == OP_LDX; }
static inline gboolean takes_lb(IsaOp op) { return is_load_op(op) || isa_op_info[op].is_atomic; }
static inline gboolean has_mem(IsaOp op)
{
    return isa_op_info[op].is_load || isa_op_info[op].is_store;
}

static inline void mark_done(RobEntry *en, Cycle now)
{
    en->state = E_DONE;
    en->done_at = now;
}

/* ---- the timer heap (core_internal.h) ---- */

static inline gboolean timer_current(Core *c, const CoreTimer *t)
{
    if (t->seq < c->head_seq || t->seq >= c->next_seq)
        return FALSE;
    const RobEntry *en = rob_at(c, t->seq);
    return en->state == E_EXEC && en->req_id == 0 && en->complete_at == t->at;
}

static void timer_push(Core *c, Cycle at, uint64_t seq)
{
    if (c->ntimers == c->timers_cap) {
        c->timers_cap *= 2;
        c->timers = g_renew(CoreTimer, c->timers, c->timers_cap);
    }
    CoreTimer t = { at, seq };
    guint i = c->ntimers++;
    while (i > 0) {
        guint p = (i - 1) / 2;
        if (c->timers[p].at <= at)
            break;
        c->timers[i] = c->timers[p];
        i = p;
    }
    c->timers[i] = t;
}

static void timer_pop(Core *c)
{
    CoreTimer last = c->timers[--c->ntimers];
    guint i = 0, n = c->ntimers;
    for (;;) {
        guint l = 2 * i + 1, m = l;
        if (l >= n)
            break;
        if (l + 1 < n && c->timers[l + 1].at < c->timers[l].at)
            m = l + 1;
        if (c->timers[m].at >= last.at)
            break;
        c->timers[i] = c->timers[m];
        i = m;
    }
    if (n)
        c->timers[i] = last;
}

/* Drops stale timers from the top: the top is then the earliest current one, or none. */
static inline void timers_purge(Core *c)
{
    while (c->ntimers && !timer_current(c, &c->timers[0]))
        timer_pop(c);
    c->timer_next = c->ntimers ? c->timers[0].at : CYCLE_NEVER;
}

static void timer(Core *c, RobEntry *en, gint64 cycles)
{
    en->state = E_EXEC;
    en->complete_at = c->now + (Cycle)MAX(cycles, 1);
    timer_push(c, en->complete_at, en->seq);
    c->timer_next = MIN(c->timer_next, en->complete_at);
}

static void set_stall(Core *c, StallCause cause)
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

static uint64_t mem_address(Core *c, const RobEntry *en)
{
    /* isa_address reads regs[m->base] only: the rest need no clearing. */
    const IsaMem *m = &en->in->mem;
    uint64_t a = (uint64_t)m->offset;
    if (m->sym >= 0)
        a += isa_sym_addr(c->lay, (guint)m->sym, c->tid);
    if (m->base != ISA_NO_REG)
        a += rob_reg_value(c, m->base, en->src[2]);
    return a;
}

/* Judges an access's address (cores/isa/isa_fault.h).  A bad one is not performed: the op completes
 * with nothing done and faults only if it comes to retire, so a wrong path that computes a
 * garbage address costs nothing but its squash. */
static inline gboolean access_faults(Core *c, RobEntry *en)
{
    en->fault = (guint8)isa_access_check(c->lay, en->addr, en->in->size);
    return en->fault != ISA_FAULT_NONE;
}

static void arm_monitor(Core *c, const RobEntry *en, uint64_t value)
{
    c->mon_armed = TRUE;
    c->mon_line = en->line;
    c->mon_addr = en->addr;
    c->mon_size = en->in->size;
    c->mon_value = value;
    core_touch_head(c); /* a store-exclusive at the head checks the monitor */
}

static void issue_mem(Core *c, RobEntry *en, MemKind kind, RmwKind rmw, uint64_t value,
                      uint64_t expected, gboolean far, uint32_t hold)
{
    en->req_id = core_new_req(c);
    en->state = E_EXEC;
    en->complete_at = CYCLE_NEVER;
    MemRequest r = { .kind = kind, .rmw = rmw, .addr = en->addr, .size = en->in->size,
                     .value = value, .expected = expected, .far = far, .hold_cycles = hold,
                     .tag = tag_make(en->req_id, FALSE, (guint)(en - c->rob)), .pc = en->pc };
    if (kind == MEM_LOAD)
        c->st.loads_issued++;
    core_issue(c, &r);
}

static RmwKind rmw_kind(IsaOp op)
{
    switch (op) {
    case OP_CAS: return RMW_CAS;
    case OP_XCHG: return RMW_XCHG;
    case OP_FADD: return RMW_ADD;
    case OP_FOR: return RMW_OR;
    case OP_FAND: return RMW_AND;
    default: g_assert_not_reached();
    }
}

/* Squash from `seq` (inclusive) and refetch at `pc` after `penalty` cycles. */
static guint squash_refetch(Core *c, uint64_t seq, int32_t pc, gint64 penalty)
{
    guint n = rob_squash_from(c, seq);
    c->fetch_pc = pc;
    c->fetch_resume_at = c->now + (Cycle)penalty;
    core_profile_note_head(c);
    return n;
}

/* ==================== retire ==================== */

static void trace_event(Core *c, CoreTraceKind kind, int32_t pc, int32_t resume_pc, guint squashed, gint64 penalty);

static void halt_core(Core *c)
{
    Cycle now = c->now;
    c->halted = TRUE;
    set_stall(c, STALL_NONE);
    c->st.cycles = now - c->start_cycle;
    c->tick_at = CYCLE_NEVER;
    engine_tick_cancel(c->e, c->id);
    if (c->halt_fn)
        c->halt_fn(c->os_ctx, c);
}

/* The op at the head faulted: the core stops there and says so (the machine ends the run). */
static void raise_fault(Core *c, const RobEntry *en)
{
    c->fault = (CoreFault){ (IsaFaultKind)en->fault, en->pc, en->addr, en->in->size };
    halt_core(c);
    if (c->fault_fn)
        c->fault_fn(c->fault_ctx, c->id, &c->fault);
}

static gboolean stage_retire(Core *c)
{
    Cycle now = c->now;
    guint n = 0;
    while (n < c->retire_width && rob_count(c) > 0) {
        RobEntry *en = rob_at(c, c->head_seq);
        if (en->state != E_DONE || en->done_at >= now)
            break; /* an op retires at the earliest the cycle after it completes */
        if (en->fault != ISA_FAULT_NONE) {
            raise_fault(c, en);
            break;
        }
        const IsaInsn *in = en->in;
        if (c->trace_fn)
            trace_event(c, CORE_TRACE_RETIRE, en->pc, en->pc, 0, 0);
        if (isa_op_is_rmw(in->op))
            c->lb_used--;
        else switch (in->op) {
        case OP_LD:
        case OP_LDX:
            c->lb_used--;
            c->st.loads_retired++;
            break;
        case OP_ST:
            /* x86: st.rel is a plain store (TSO orders it already). */
            sb_commit(c, en->seq, !c->x86 && (in->order == ORD_REL || in->order == ORD_ACQREL));
            c->st.stores_retired++;
            break;
        case OP_FENCE:
            if (!c->x86 && in->fence != FENCE_LOAD)
                sb_bump_epoch(c); /* dmb ish / ishst: later stores drain after earlier ones */
            break;
        case OP_MARK:
            c->ff.taint++; /* a mark is a timestamp: no two periods record the same */
            c->st.marks++;
            if (c->mark_fn)
                c->mark_fn(c->mark_ctx, c->id, in->n, now);
            break;
        case OP_SEV:
            c->ff.taint++;
            if (c->sev_fn)
                c->sev_fn(c->sev_ctx, c->id);
            else
                core_signal_event(c);
            break;
        case OP_SEVL:
            c->event_reg = TRUE;
            c->event_cause = WAKE_SEV;
            break;
        case OP_BR:
        case OP_JMP:
            if (en->pred_next <= en->pc)
                c->ff.want_snap = TRUE; /* a loop closed: the state may repeat from here */
            break;
        default:
            break;
        }
        if (in->rd != ISA_NO_REG && in->rd < ISA_NREGS) {
            c->regs[in->rd] = en->value;
            if (c->rename[in->rd] == en->seq)
                c->rename[in->rd] = SEQ_NONE;
        }
        c->head_seq++;
        c->head_slot = (c->head_slot + 1) & c->rob_mask;
        c->st.insns_retired++;
        CORE_PROFILE_ADD(&c->prof, en->pc, executions, 1);
        c->last_retire = now;
        n++;
        if (in->op == OP_HALT) {
            c->halt_pc = en->pc;
            halt_core(c);
            break;
        }
    }
    if (n > 0)
        core_touch_head(c); /* a new head; committed stores and events changed */
    return n > 0;
}

/* ==================== execute ==================== */

/* --trace: what the pipeline did, as a CoreTraceEvent (the trace writers put it in words). */
static void trace_event(Core *c, CoreTraceKind kind, int32_t pc, int32_t resume_pc, guint squashed, gint64 penalty)
{
    if (!c->trace_fn)
        return;
    CoreTraceEvent ev = { kind, c->now, pc, resume_pc, 0, FALSE, squashed, (Cycle)penalty };
    c->trace_fn(c->trace_ctx, c->id, &ev);
}

static void mispredict(Core *c, RobEntry *en, int32_t actual)
{
    gint64 pen = c->cfg->core.branch_mispredict_penalty;
    c->st.branch_mispredicts++;
    guint squashed = squash_refetch(c, en->seq + 1, actual, pen);
    c->st.bm_squashed_ops += squashed;
    c->st.bm_penalty_cycles += (guint64)pen;
    en->pred_next = actual;
    trace_event(c, CORE_TRACE_MISPREDICT, en->pc, actual, squashed, pen);
}


/* Finishes an op whose timer ran out. */
static void complete_timer(Core *c, RobEntry *en, Cycle now)
{
    mark_done(en, now);
    if (en->in->op == OP_FENCE) {
        c->st.fence_ops++;
        c->st.fence_cycles += now - en->head_since;
    } else if (isa_op_is_rmw(en->in->op)) {
        c->st.atomic_cycles += now - en->head_since; /* an x86 locked op's tail ran out */
    }
}

static gboolean start_load(Core *c, RobEntry *en, const Older *o)
{
    const IsaInsn *in = en->in;
    if (!rob_src_ready(c, en->src[2])) {
        en->wait_on = en->src[2];
        return FALSE;
    }
    if (*o & (OLDER_BLOCK_LOADS | OLDER_STORE_ADDR_UNKNOWN))
        return FALSE;
    /* arm64 LDAR is RCsc: it does not perform before an older STLR. */
    if (!c->x86 && in->order == ORD_ACQ && sb_has_release(c, en->seq)) {
        c->sb_waiter = MIN(c->sb_waiter, en->seq);
        return FALSE;
    }
    en->addr = mem_address(c, en);
    en->line = core_line(c, en->addr);
    en->addr_known = TRUE;
    if (access_faults(c, en)) {
        timer(c, en, 1);
        return TRUE;
    }
    uint64_t v;
    int f = sb_forward(c, en->seq, en->addr, in->size, &v);
    if (f < 0) {
        c->sb_waiter = MIN(c->sb_waiter, en->seq);
        return FALSE; /* partial overlap or data not ready: wait for the store */
    }
    if (f > 0) {
        en->value = v;
        en->performed = TRUE;
        c->st.loads_forwarded++;
        if (in->op == OP_LDX)
            arm_monitor(c, en, v);
        timer(c, en, c->cfg->l1.latency);
        return TRUE;
    }
    issue_mem(c, en, MEM_LOAD, RMW_CAS, 0, 0, FALSE, 0);
    return TRUE;
}

static gboolean start_store(Core *c, RobEntry *en)
{
    const IsaInsn *in = en->in;
    gboolean did = FALSE;
    SbEntry *s = &c->sb[en->sb_slot];
    g_assert(s->seq == en->seq);
    if (!en->addr_known && rob_src_ready(c, en->src[2])) {
        en->addr = mem_address(c, en);
        en->line = core_line(c, en->addr);
        en->addr_known = s->addr_known = TRUE;
        s->addr = en->addr;
        s->line = en->line;
        access_faults(c, en); /* a bad store never commits: it faults at retirement */
        did = TRUE;
    }
    if (!en->data_known && rob_src_ready(c, en->src[0])) {
        en->data = isa_truncate(rob_src_value(c, &in->a, en->src[0]), in->size);
        en->data_known = s->data_known = TRUE;
        s->data = en->data;
        did = TRUE;
    }
    if (en->addr_known && en->data_known)
        timer(c, en, 1);
    if (!did) {
        /* What it lacks, address or data, waits for a producer that is not done. */
        en->wait_on = !en->addr_known ? en->src[2] : en->src[0];
        return FALSE;
    }
    if (c->sb_waiter != SEQ_NONE)
        c->scan_end = UINT64_MAX; /* a load held back by the buffer may go now: this scan looks */
    return TRUE;
}

/* An atomic or stx may perform once it is the oldest op and what must precede it has. */
static gboolean rmw_may_perform(Core *c, const RobEntry *en)
{
    if (c->x86)
        return sb_empty_committed(c); /* LOCK: the store buffer drains first */
    IsaOrder o = en->in->order;
    if (o == ORD_REL || o == ORD_ACQREL)
        return sb_empty_committed(c);
    return !sb_has_line(c, en->line);
}

static gboolean start_atomic(Core *c, RobEntry *en, gboolean head)
{
    const IsaInsn *in = en->in;
    if (!head || !rob_src_ready(c, en->src[0]) || !rob_src_ready(c, en->src[1]) ||
        !rob_src_ready(c, en->src[2]))
        return FALSE;
    en->addr = mem_address(c, en);
    en->line = core_line(c, en->addr);
    en->addr_known = TRUE;
    if (access_faults(c, en)) {
        timer(c, en, 1);
        return TRUE;
    }
    if (!rmw_may_perform(c, en))
        return FALSE;
    en->data = isa_truncate(rob_src_value(c, &in->a, en->src[0]), in->size);
    en->data_b = isa_truncate(rob_src_value(c, &in->b, en->src[1]), in->size);
    if (in->op == OP_STX) {
        if (!c->mon_armed || c->mon_addr != en->addr || c->mon_size != in->size) {
            c->mon_armed = FALSE;
            c->st.llsc_failures++;
            CORE_PROFILE_ADD(&c->prof, en->pc, failed_cas, 1);
            en->value = 1;
            timer(c, en, 1);
            return TRUE;
        }
        issue_mem(c, en, MEM_RMW, RMW_CAS, en->data, c->mon_value, FALSE, 0);
        return TRUE;
    }
    RmwKind k = rmw_kind(in->op);
    /* CAS: memory compares with a and writes b; the others apply a. */
    uint64_t val = in->op == OP_CAS ? en->data_b : en->data;
    uint64_t exp = en->data;
    if (c->x86) {
        issue_mem(c, en, MEM_RMW, k, val, exp, FALSE, (uint32_t)c->cfg->core.lock_hold_cycles);
    } else if (c->cfg->core.atomics == ATOMICS_LLSC) {
        en->ll = LL_LOAD;
        issue_mem(c, en, MEM_LOAD, RMW_CAS, 0, 0, FALSE, 0);
    } else {
        issue_mem(c, en, MEM_RMW, k, val, exp, c->cfg->core.atomics == ATOMICS_LSE_FAR, 0);
    }
    return TRUE;
}

/* The store-exclusive half of an llsc atomic, or its retry. */
static gboolean step_llsc(Core *c, RobEntry *en)
{
    if (en->ll == LL_RETRY) {
        en->ll = LL_LOAD;
        issue_mem(c, en, MEM_LOAD, RMW_CAS, 0, 0, FALSE, 0);
        return TRUE;
    }
    if (en->ll != LL_LOADED)
        return FALSE;
    if (!c->mon_armed || c->mon_line != en->line) {
        c->st.llsc_failures++;
        CORE_PROFILE_ADD(&c->prof, en->pc, failed_cas, 1);
        en->ll = LL_LOAD;
        issue_mem(c, en, MEM_LOAD, RMW_CAS, 0, 0, FALSE, 0);
        return TRUE;
    }
    en->ll = LL_STORE;
    issue_mem(c, en, MEM_RMW, RMW_CAS, en->ll_new, en->value, FALSE, 0);
    return TRUE;
}

static gboolean start_fence(Core *c, RobEntry *en, gboolean head)
{
    if (!head)
        return FALSE;
    const gint64 *cost;
    switch (en->in->fence) {
    case FENCE_FULL:
        /* mfence / dmb ish: every older store is visible first. */
        if (!sb_empty_committed(c))
            return FALSE;
        cost = &c->cfg->core.mfence_cycles;
        break;
    case FENCE_LOAD: cost = &c->cfg->core.lfence_cycles; break;
    default: cost = &c->cfg->core.sfence_cycles; break;
    }
    /* The published figure is the fence's throughput back to back, which includes the cycle
     * it retires in. */
    timer(c, en, *cost - 1);
    return TRUE;
}

static gboolean start_wfe(Core *c, RobEntry *en, gboolean head)
{
    Cycle now = c->now;
    if (!head)
        return FALSE;
    if (c->x86) {
        timer(c, en, 1);
        return TRUE;
    }
    gboolean timeout = c->wfe_sleeping && c->cfg->core.wfe_timeout > 0 &&
                       now >= c->wfe_since + (Cycle)c->cfg->core.wfe_timeout;
    if (c->event_reg || timeout) {
        if (c->wfe_sleeping) {
            c->wfe_sleeping = FALSE;
            c->st.wfe_sleep_cycles += now - c->wfe_since;
            CORE_PROFILE_ADD(&c->prof, en->pc, pause_cycles, now - c->wfe_since);
            if (c->event_reg && c->event_cause == WAKE_MONITOR)
                c->st.wfe_wake_monitor++;
            else if (c->event_reg)
                c->st.wfe_wake_sev++;
            else
                c->st.wfe_wake_timeout++;
        }
        c->event_reg = FALSE;
        c->event_cause = WAKE_NONE;
        timer(c, en, 1);
        return TRUE;
    }
    if (!c->wfe_sleeping) {
        c->ff.taint++;
        c->wfe_sleeping = TRUE;
        c->wfe_since = now;
        c->st.wfe_sleeps++;
        trace_event(c, CORE_TRACE_WFE_SLEEP, en->pc, en->pc, 0, 0);
        return TRUE;
    }
    return FALSE;
}

/* How many of a chain's ops the window holds beside older ones: an in-order core none. */
static inline gint64 work_window(const Core *c)
{
    return c->in_order ? 0 : (gint64)c->rob_size;
}

/* `work N` stands for a dependent chain of N one-cycle ops, far longer than the window, that
 * consumes what the ops before it produced (a critical section works on the data the lock
 * protects): it starts once every older op has completed and runs serially for N cycles.  A
 * chain longer than the window kept dispatch closed from its dispatch on (stage_dispatch);
 * younger ops enter for its last window's worth, so no two long chains run at once. */
static gboolean start_work(Core *c, RobEntry *en)
{
    if (en->seq != c->exec_lo) {
        core_touch(c, en->seq); /* look again once the older ops are done */
        return FALSE;
    }
    gint64 w = en->in->n;
    if (c->work_jitter) {
        w += g_rand_int_range(c->work_rand, 0, (gint32)c->work_jitter + 1);
        c->ff.taint++; /* the draw differs from period to period */
    }
    timer(c, en, w);
    if (en->in->n > work_window(c))
        c->dispatch_blocked_until = c->now + (Cycle)MAX(w - work_window(c), 0);
    return TRUE;
}

/* A system call runs at the ROB head once every older store has drained (the kernel entry and
 * the futex code's atomics order it like a full barrier); the OS answers through
 * core_syscall_return or core_context_save.  Nothing younger starts meanwhile (note_older). */
static gboolean start_syscall(Core *c, RobEntry *en, gboolean head)
{
    const IsaInsn *in = en->in;
    if (!head || !rob_src_ready(c, en->src[0]) || !rob_src_ready(c, en->src[2]) || !sb_empty_committed(c))
        return FALSE;
    en->addr = mem_address(c, en);
    en->line = core_line(c, en->addr);
    en->addr_known = TRUE;
    en->data = rob_src_value(c, &in->a, en->src[0]);
    /* The futex word is an access like any other: a bad one faults as the op retires, and
     * neither the OS nor the memory system sees it. */
    if (access_faults(c, en)) {
        timer(c, en, 1);
        return TRUE;
    }
    if (!c->syscall_fn) {
        en->value = in->op == OP_FUTEX_WAIT ? 1 : 0; /* no OS: nobody sleeps, nobody is woken */
        timer(c, en, 1);
        return TRUE;
    }
    en->req_id = core_new_req(c); /* never sent to memory: it marks the wait for the OS */
    en->state = E_EXEC;
    en->complete_at = CYCLE_NEVER;
    c->syscall_fn(c->os_ctx, c, in, en->addr, en->data);
    return TRUE;
}

/* Whether sources a and b are ready; if not, notes the one waited for: while it is not ready,
 * start_op of an ALU op or branch returns FALSE and does nothing. */
static inline gboolean src2_ready(Core *c, RobEntry *en)
{
    if (!rob_src_ready(c, en->src[0])) {
        en->wait_on = en->src[0];
        return FALSE;
    }
    if (!rob_src_ready(c, en->src[1])) {
        en->wait_on = en->src[1];
        return FALSE;
    }
    return TRUE;
}

/* Starts an op whose turn has come; returns whether it did anything.  It sets en->wait_on only
 * where it returns FALSE, with no side effect, because that producer is not done, whatever the
 * ordering state and wherever the op is: the scan skips such an op while the producer is not
 * done. */
static gboolean start_op(Core *c, RobEntry *en, gboolean head, const Older *o)
{
    const IsaInsn *in = en->in;
    if (isa_op_writes_at_head(in->op))
        return start_atomic(c, en, head);
    switch (in->op) {
    case OP_NOP: case OP_MARK: case OP_JMP: case OP_CALL: case OP_RET: case OP_SEV:
    case OP_SEVL:
        timer(c, en, 1);
        return TRUE;
    case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL:
    case OP_SHR: case OP_MUL:
        if (!src2_ready(c, en))
            return FALSE;
        en->value = isa_alu(in->op, rob_src_value(c, &in->a, en->src[0]),
                            rob_src_value(c, &in->b, en->src[1]));
        timer(c, en, in->op == OP_MUL ? 3 : 1);
        return TRUE;
    case OP_LA: {
        if (!rob_src_ready(c, en->src[2])) {
            en->wait_on = en->src[2];
            return FALSE;
        }
        guint t = c->tid;
        if (in->rt != ISA_NO_REG) {
            uint64_t want = rob_reg_value(c, in->rt, en->src[2]);
            t = want < c->nthreads ? (guint)want : 0;
            if (want >= c->nthreads) {
                en->fault = ISA_FAULT_NO_THREAD; /* as the interpreter: if it retires */
                en->addr = want;
            }
        }
        en->value = isa_sym_addr(c->lay, (guint)in->target, t);
        timer(c, en, 1);
        return TRUE;
    }
    case OP_WORK:
        return start_work(c, en);
    case OP_BR: {
        if (!src2_ready(c, en))
            return FALSE;
        gboolean taken = isa_cond(in->cond, rob_src_value(c, &in->a, en->src[0]),
                                  rob_src_value(c, &in->b, en->src[1]));
        int32_t actual = taken ? in->target : en->pc + 1;
        bp_update(c, en->pc, taken);
        timer(c, en, 1);
        if (actual != en->pred_next)
            mispredict(c, en, actual);
        return TRUE;
    }
    case OP_LD: case OP_LDX:
        return start_load(c, en, o);
    case OP_ST:
        return start_store(c, en);
    case OP_FENCE:
        return start_fence(c, en, head);
    case OP_WFE:
        return start_wfe(c, en, head);
    case OP_HALT:
        /* Halting leaves nothing behind: every store has drained. */
        if (!head || c->sb_count)
            return FALSE;
        timer(c, en, 1);
        return TRUE;
    case OP_FUTEX_WAIT: case OP_FUTEX_WAKE:
        return start_syscall(c, en, head);
    case OP_PAUSE: /* started at dispatch */
    case OP__COUNT:
        break;
    default: /* the ops that write at the head, started above */
        break;
    }
    return FALSE;
}

/* What this op means for the younger ones behind it. */
static inline void note_older(Core *c G_GNUC_UNUSED, const RobEntry *en, Older *o)
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

/* What each op means for the ops behind it (the ordering rules, applied by note_older), what
 * keeps it from starting, and its buffers: decided once per op of the program. */
static OpDecode decode_op(const Core *c, const IsaInsn *in)
{
    OpDecode d = { ORDK_NONE, STARTK_OTHER, takes_lb(in->op), has_mem(in->op) };
    if (isa_op_writes_at_head(in->op)) {
        /* x86: LOCK'd ops are full barriers.  arm64: see the file comment. */
        d.ordk = ORDK_LOADS_UNTIL_DONE;
        d.startk = STARTK_HEAD;
        return d;
    }
    switch (in->op) {
    case OP_FENCE:
        if (c->x86)
            d.ordk = in->fence == FENCE_FULL ? ORDK_LOADS_UNTIL_DONE : in->fence == FENCE_LOAD ? ORDK_ALL_UNTIL_DONE
                                                                                          : ORDK_NONE;
        else
            d.ordk = in->fence != FENCE_STORE ? ORDK_LOADS_UNTIL_DONE : ORDK_NONE;
        d.startk = STARTK_HEAD;
        break;
    case OP_LD: case OP_LDX:
        d.ordk = !c->x86 && in->order == ORD_ACQ ? ORDK_LDAR : ORDK_NONE;
        d.startk = STARTK_LOAD;
        break;
    case OP_ST:
        d.ordk = ORDK_STORE;
        break;
    case OP_WFE:
        /* Nothing runs ahead of a wait: a load behind it would re-arm the monitor early. */
        d.ordk = c->x86 ? ORDK_NONE : ORDK_ALL_UNTIL_DONE;
        d.startk = STARTK_HEAD;
        break;
    case OP_HALT:
        d.startk = STARTK_HEAD;
        break;
    case OP_FUTEX_WAIT: case OP_FUTEX_WAKE:
        /* Nothing runs ahead of a system call: the kernel entry serialises. */
        d.ordk = ORDK_ALL_UNTIL_DONE;
        d.startk = STARTK_HEAD;
        break;
    default:
        break;
    }
    return d;
}

/* Takes the timers due by now off the heap (the scan completes their entries); returns the
 * oldest seq among them, and widens *end past the youngest. */
static uint64_t timers_due(Core *c, Cycle now, uint64_t *end)
{
    if (now < c->timer_next)
        return SEQ_NONE;
    uint64_t due = SEQ_NONE;
    while (c->ntimers && c->timers[0].at <= now) {
        CoreTimer t = c->timers[0];
        timer_pop(c);
        if (!timer_current(c, &t))
            continue;
        due = MIN(due, t.seq);
        *end = MAX(*end, t.seq + 1);
    }
    timers_purge(c);
    return due;
}

/* One op's turn in the scan: complete its timer or start it; then fold it into `o`. */
static gboolean scan_entry(Core *c, uint64_t s, Older *o, Cycle now)
{
    RobEntry *en = rob_at(c, s);
    gboolean did = FALSE, head = s == c->head_seq;
    if (head && en->head_since == CYCLE_NEVER)
        en->head_since = now;
    if (en->state == E_EXEC && en->req_id == 0) {
        if (en->complete_at <= now) {
            complete_timer(c, en, now);
            c->scan_end = MAX(c->scan_end, en->last_use + 1); /* its readers: this scan looks */
            did = TRUE;
        } else if (en->ll == LL_LOADED || en->ll == LL_RETRY) {
            did |= step_llsc(c, en);
        }
    }
    if (en->state == E_WAIT && !(*o & OLDER_BLOCK_ALL))
        did |= start_op(c, en, head, o);
    note_older(c, en, o);
    en->older = *o;
    return did;
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

/* Looks at the window oldest first, starting ops whose turn has come and completing timers.
 * An op whose inputs did not change since the last scan would do nothing, so the scan starts
 * at the oldest that may act, resuming with the ordering state memoised behind it. */
static gboolean stage_execute(Core *c)
{
    Cycle now = c->now;
    gboolean did = FALSE;
    /* Finished ops order nothing younger: start the scan after them. */
    c->exec_lo = MAX(c->exec_lo, c->head_seq);
    while (c->exec_lo < c->next_seq && rob_at(c, c->exec_lo)->state == E_DONE)
        c->exec_lo++;
    uint64_t due_end = 0;
    uint64_t due = timers_due(c, now, &due_end);
    uint64_t from = MAX(MIN(c->scan_from, due), c->exec_lo);
    uint64_t end = MAX(c->scan_end, due_end);
    gboolean head_dirty = c->head_dirty;
    c->scan_from = SEQ_NONE;
    c->scan_end = 0;
    c->head_dirty = FALSE;
    if (c->wfe_sleeping && c->cfg->core.wfe_timeout > 0 &&
        now >= c->wfe_since + (Cycle)c->cfg->core.wfe_timeout)
        head_dirty = TRUE; /* the sleeping WFE at the head times out */
    /* Whether the ordering state carried into `from` is the one the last scan carried. */
    gboolean same = TRUE;
    if (head_dirty && c->head_seq == c->exec_lo && c->head_seq < MIN(from, c->next_seq)) {
        /* Nothing older orders the head.  Younger ops need a look only if it moved. */
        Older o = 0;
        if (scan_entry(c, c->head_seq, &o, now)) {
            did = TRUE;
            from = c->head_seq + 1;
            same = FALSE;
        }
    }
    if (from >= c->next_seq)
        goto out;
    Older o = 0;
    if (from > c->exec_lo)
        o = rob_at(c, from - 1)->older;
    /* Walk the slots directly (a squash only lowers next_seq).  A finished op other than the
     * head has nothing to start or complete, nor has a waiting one whose start_op would fail
     * for want of the producer it noted: only fold them into `o`.  Past the touched ops
     * (widened as ops complete or stores learn their address and data), once the ordering
     * state is what the last scan carried there, every younger op would decide as it did. */
    guint slot = (c->head_slot + (guint)(from - c->head_seq)) & c->rob_mask;
    for (uint64_t s = from; s < c->next_seq; s++) {
        if (same && s >= end && s >= c->scan_end)
            break;
        RobEntry *en = &c->rob[slot];
        slot = (slot + 1) & c->rob_mask;
        Older before = en->older;
        if (s != c->head_seq &&
            (en->state == E_DONE ||
             (en->state == E_WAIT && (cannot_start(en, o) ||
                                      (en->wait_on != SEQ_NONE && !rob_src_ready(c, en->wait_on)))))) {
            note_older(c, en, &o);
            en->older = o;
        } else {
            did |= scan_entry(c, s, &o, now);
        }
        same = before == o;
    }
out:
    /* What this scan widened it has looked at; touches for the next one stand. */
    if (c->scan_from == SEQ_NONE)
        c->scan_end = 0;
    return did;
}

/* The in-order policy (core.issue: in-order, e.g. ThunderX's dual-issue pipeline): ops start
 * in program order, at most fetch_width per cycle; an op starts only when every older op has
 * completed or started in this same cycle without a memory access, so ops complete in order
 * and an outstanding load blocks everything younger (stall on miss).  The window is small, so
 * each cycle looks at it whole from the oldest unfinished op. */
static gboolean stage_execute_in_order(Core *c)
{
    Cycle now = c->now;
    gboolean did = FALSE, blocked = FALSE;
    guint issued = 0, width = c->fetch_width;
    c->exec_lo = MAX(c->exec_lo, c->head_seq);
    while (c->exec_lo < c->next_seq && rob_at(c, c->exec_lo)->state == E_DONE)
        c->exec_lo++;
    uint64_t due_end = 0;
    (void)timers_due(c, now, &due_end); /* keeps the timer list pruned, as the out-of-order scan does */
    c->scan_from = SEQ_NONE;
    c->scan_end = 0;
    c->sb_waiter = SEQ_NONE;
    c->head_dirty = FALSE;
    Older o = 0;
    for (uint64_t s = c->exec_lo; s < c->next_seq; s++) {
        RobEntry *en = rob_at(c, s);
        gboolean waiting = en->state == E_WAIT;
        if (waiting && (blocked || issued == width)) {
            if (!blocked)
                did = TRUE; /* out of issue slots, not of work: look again next cycle */
            blocked = TRUE;
            continue;       /* younger ops started at dispatch (pause, work) still complete */
        }
        did |= scan_entry(c, s, &o, now);
        if (en->state == E_DONE)
            continue;
        if (waiting && en->state != E_WAIT)
            issued++;
        /* Not finished: younger ops wait, unless it started just now beside them and is not
         * a memory access (loads block; a store only writes the store buffer). */
        if (!(waiting && en->state == E_EXEC && en->req_id == 0 && !is_load_op(en->in->op)))
            blocked = TRUE;
    }
    return did;
}

/* ==================== dispatch ==================== */

static gboolean stage_dispatch(Core *c)
{
    Cycle now = c->now;
    StallCause cause = STALL_NONE;
    guint n = 0;
    while (n < c->fetch_width && c->fq_count > 0 &&
           now >= c->dispatch_blocked_until) {
        const FetchSlot *f = &c->fq[c->fq_head];
        const IsaInsn *in = &c->code[f->pc];
        const OpDecode *d = &c->dec[f->pc];
        IsaOp op = in->op;
        if (rob_count(c) == c->rob_size) {
            cause = STALL_ROB;
            break;
        }
        if (d->takes_lb && c->lb_used == c->load_buffer) {
            cause = STALL_LB;
            break;
        }
        if (op == OP_ST && c->sb_count == c->sb_size) {
            cause = STALL_SB;
            break;
        }
        RobEntry *en = rob_alloc(c);
        en->in = in;
        en->pc = f->pc;
        en->pred_next = f->pred_next;
        en->ras_sp = f->ras_sp;
        en->ras_val = f->ras_val;
        en->head_since = CYCLE_NEVER;
        en->state = E_WAIT;
        en->ordk = d->ordk;
        en->startk = d->startk;
        core_touch(c, en->seq);
        if (in->a.reg != ISA_NO_REG)
            en->src[0] = c->rename[in->a.reg];
        if (in->b.reg != ISA_NO_REG)
            en->src[1] = c->rename[in->b.reg];
        if (d->has_mem && in->mem.base != ISA_NO_REG)
            en->src[2] = c->rename[in->mem.base];
        else if (op == OP_LA && in->rt != ISA_NO_REG)
            en->src[2] = c->rename[in->rt];
        for (guint i = 0; i < 3; i++)
            if (en->src[i] != SEQ_NONE)
                rob_at(c, en->src[i])->last_use = en->seq; /* in the window: renamed to it */
        if (in->rd != ISA_NO_REG && in->rd < ISA_NREGS)
            c->rename[in->rd] = en->seq;
        if (d->takes_lb)
            c->lb_used++;
        if (op == OP_ST) {
            SbEntry *sb = sb_alloc(c, en->seq, &en->sb_slot);
            sb->size = in->size;
            sb->pc = f->pc;
            /* Known from dispatch on, so that a younger LDAR waits for an STLR that has not
             * retired yet either (RCsc: SB+dmb.sy+rel-acq is forbidden). */
            sb->release = !c->x86 && (in->order == ORD_REL || in->order == ORD_ACQREL);
        }
        c->fq_head = (c->fq_head + 1) % c->fq_size;
        c->fq_count--;
        n++;
        if (op == OP_WORK && in->n > work_window(c)) {
            /* A long chain fills the window: nothing younger enters until it has started and
             * is down to its last window's worth (start_work reopens dispatch). */
            c->dispatch_blocked_until = CYCLE_NEVER;
            break;
        }
        if (op == OP_PAUSE) {
            /* PAUSE holds back everything younger; that bounds a spin loop's loads in flight. */
            gint64 p = c->cfg->core.pause_cycles;
            c->dispatch_blocked_until = now + (Cycle)p;
            timer(c, en, p);
            c->st.pause_ops++;
            c->st.paused_cycles += (guint64)p;
            CORE_PROFILE_ADD(&c->prof, en->pc, pause_cycles, (guint64)p);
            if (p > 0)
                break;
        }
    }
    set_stall(c, cause);
    return n > 0;
}

/* ==================== fetch ==================== */

static gboolean stage_fetch(Core *c)
{
    Cycle now = c->now;
    if (c->fetch_stopped || now < c->fetch_resume_at)
        return FALSE;
    guint n = 0;
    while (n < c->fetch_width && c->fq_count < c->fq_size) {
        int32_t pc = c->fetch_pc;
        if (pc < 0 || (guint)pc >= c->ncode) {
            c->fetch_stopped = TRUE; /* ran off the program: the watchdog reports it */
            break;
        }
        const IsaInsn *in = &c->code[pc];
        FetchSlot *f = &c->fq[(c->fq_head + c->fq_count) % c->fq_size];
        f->pc = pc;
        f->ras_sp = -1;
        int32_t next = pc + 1;
        switch (in->op) {
        case OP_BR:
            if (bp_predict(c, pc))
                next = in->target;
            break;
        case OP_JMP:
            next = in->target;
            break;
        case OP_CALL:
            if (c->ras_sp >= RAS_DEPTH) {
                /* Calls nested past the return stack (as the interpreter's limit): stop, and
                 * let the watchdog report it, rather than wrap and return to the wrong place.
                 * A squash restarts fetch if this was a wrong path. */
                c->fetch_stopped = TRUE;
                return n > 0;
            }
            f->ras_sp = c->ras_sp;
            f->ras_val = c->ras[c->ras_sp % RAS_DEPTH];
            c->ras[c->ras_sp % RAS_DEPTH] = pc + 1;
            c->ras_sp++;
            next = in->target;
            break;
        case OP_RET:
            if (c->ras_sp == 0) {
                c->fetch_stopped = TRUE; /* return with an empty stack */
                return n > 0;
            }
            f->ras_sp = c->ras_sp;
            f->ras_val = c->ras[c->ras_sp % RAS_DEPTH];
            c->ras_sp--;
            next = c->ras[c->ras_sp % RAS_DEPTH];
            break;
        case OP_HALT:
            c->fetch_stopped = TRUE;
            break;
        default:
            break;
        }
        f->pred_next = next;
        c->fq_count++;
        n++;
        c->fetch_pc = next;
        if (c->fetch_stopped || next != pc + 1)
            break; /* a taken control transfer ends the fetch group */
    }
    return n > 0;
}

/* ==================== the cycle ==================== */

/* The earliest cycle after a tick at `now` that changed nothing at which the core could do
 * something by itself: a timer runs out, fetch or dispatch resumes, the head retires. */
static Cycle next_timer(Core *c, Cycle now)
{
    Cycle t = CYCLE_NEVER;
    if (!c->fetch_stopped && c->fetch_resume_at > now)
        t = MIN(t, c->fetch_resume_at);
    if (c->fq_count && c->dispatch_blocked_until > now)
        t = MIN(t, c->dispatch_blocked_until);
    timers_purge(c);
    t = MIN(t, c->timer_next);
    if (rob_count(c) && rob_at(c, c->head_seq)->state == E_DONE)
        t = MIN(t, now + 1);
    if (c->wfe_sleeping && c->cfg->core.wfe_timeout > 0)
        t = MIN(t, c->wfe_since + (Cycle)c->cfg->core.wfe_timeout);
    return t;
}

/* Whether the tick at t (the next cycle, nothing arriving before it) would do anything, or
 * change anything: retire, drain, start or complete an op, dispatch, change the stall it
 * counts, fetch, or compare its state for fast-forward.  Conservative: TRUE when unsure. */
static gboolean may_act_at(Core *c, Cycle t)
{
    if (c->in_order || (c->ff.want_snap && c->ff.on && !c->ff.local))
        return TRUE;
    if (rob_count(c) && rob_at(c, c->head_seq)->state == E_DONE)
        return TRUE;
    if (c->sb_ncommit && sb_may_drain(c))
        return TRUE;
    if (c->scan_from != SEQ_NONE || c->head_dirty || c->timer_next <= t)
        return TRUE;
    if (c->wfe_sleeping && c->cfg->core.wfe_timeout > 0 && t >= c->wfe_since + (Cycle)c->cfg->core.wfe_timeout)
        return TRUE;
    if (!c->fetch_stopped && t >= c->fetch_resume_at && c->fq_count < c->fq_size)
        return TRUE;
    StallCause cause = STALL_NONE;
    if (c->fq_count > 0 && t >= c->dispatch_blocked_until) {
        IsaOp op = c->code[c->fq[c->fq_head].pc].op;
        if (rob_count(c) == c->rob_size)
            cause = STALL_ROB;
        else if (takes_lb(op) && c->lb_used == c->load_buffer)
            cause = STALL_LB;
        else if (op == OP_ST && c->sb_count == c->sb_size)
            cause = STALL_SB;
        else
            return TRUE; /* it dispatches */
    }
    return cause != c->stall_cause;
}

void core_tick(Core *c)
{
    if (c->ghost_tick != CYCLE_NEVER) {
        if (c->ghost_tick < c->now)
            ghost_settle(c);
        c->ghost_tick = CYCLE_NEVER;
    }
    if (c->ff.want_snap && c->ff.on && !c->ff.local && ff_try_sleep(c))
        return; /* asleep in a steady loop, until something it depends on changes */
    Cycle now = c->now;
    c->last_tick = now;
    c->st.cycles = now - c->start_cycle;
    gboolean did = stage_retire(c);
    if (c->halted) {
        core_profile_note_head(c);
        return;
    }
    if (c->sb_ncommit)
        did |= sb_drain(c);
    did |= c->in_order ? stage_execute_in_order(c) : stage_execute(c);
    did |= stage_dispatch(c);
    did |= stage_fetch(c);
    core_profile_note_head(c);
    if (did && may_act_at(c, now + 1)) {
        schedule_tick_at(c, now + 1);
        return;
    }
    if (did)
        c->ghost_tick = ++now; /* the next tick would do nothing: as if it had run */
    /* Nothing moves: sleep until a timer, or until memory or an event wakes us. */
    Cycle t = next_timer(c, now);
    if (t != CYCLE_NEVER)
        schedule_tick_at(c, MAX(t, now + 1));
}

/* ==================== port callbacks ==================== */

/* Entry from outside the pipeline (the memory system, an SEV): a core asleep in a steady loop
 * first catches up to the engine's place; then the clock is the engine's. */
static void core_catch_up_now(Core *c)
{
    if (c->ff.sleeping)
        ff_catch_up(c, engine_position(c->e));
    if (!c->ff.local)
        c->now = engine_now(c->e);
}

/* An atomic has its old value.  An x86 LOCK'd op (or an arm64 LSE atomic performed in the L1)
 * is not finished then: its sequence (compare, write, unlock) still takes the part of
 * locked_rmw_cycles that follows the read, which a hot line's L1 latency stands for (Agner
 * Fog measures the whole on a hot line); younger ops that wait for it wait until then. */
static void finish_atomic(Core *c, RobEntry *en, uint64_t old)
{
    Cycle now = c->now;
    en->value = old;
    c->st.atomics++;
    if (en->in->op == OP_CAS && old != en->data) {
        c->st.cas_failed++;
        CORE_PROFILE_ADD(&c->prof, en->pc, failed_cas, 1);
    }
    /* locked_rmw_cycles is the op's throughput back to back on a hot line: its L1 access, this
     * tail, and the cycle it retires in. */
    gboolean near = c->x86 || (c->cfg->core.atomics == ATOMICS_LSE_NEAR && en->ll == LL_IDLE);
    gint64 tail = near ? c->cfg->core.locked_rmw_cycles - c->cfg->l1.latency - 1 : 0;
    if (tail > 0) {
        timer(c, en, tail);
        return;
    }
    mark_done(en, now);
    c->st.atomic_cycles += now - en->head_since;
}

/* arm64 keeps same-address loads in order: when `en` performs, a younger load to the same
 * bytes that performed earlier and has since lost its line may hold an older value than `en`
 * just read, so it (and all after it) reads again. */
static void check_same_address(Core *c, const RobEntry *en)
{
    for (uint64_t s = en->seq + 1; s < c->next_seq; s++) {
        const RobEntry *y = rob_at(c, s);
        if (is_load_op(y->in->op) && y->stale && y->addr < en->addr + en->in->size &&
            en->addr < y->addr + y->in->size) {
            c->st.same_addr_replays++;
            int32_t pc = y->pc;
            guint squashed = squash_refetch(c, s, pc, c->cfg->core.machine_clear_penalty);
            trace_event(c, CORE_TRACE_REPLAY, pc, pc, squashed, c->cfg->core.machine_clear_penalty);
            return;
        }
    }
}

static void core_done(void *obj, const MemResponse *r)
{
    Core *c = obj;
    g_assert(!c->ff.sleeping && c->ff.inflight > 0);
    c->ff.inflight--;
    if (!c->ff.local)
        c->now = engine_now(c->e);
    guint slot = (guint)(r->tag & ((1u << TAG_SLOT_BITS) - 1));
    uint64_t req = r->tag >> (TAG_SLOT_BITS + 1);
    if (r->tag & TAG_KIND_SB) {
        sb_store_done(c, slot, req);
        core_touch_head(c); /* atomics, fences, halt: the head waits for drains */
        if (c->sb_waiter != SEQ_NONE) {
            core_touch_from(c, c->sb_waiter); /* loads forwarding from the buffer or behind a release */
            c->sb_waiter = SEQ_NONE;
        }
        core_wake(c);
        return;
    }
    RobEntry *en = &c->rob[slot];
    if (en->req_id != req || en->seq < c->head_seq || en->seq >= c->next_seq)
        return; /* the op was squashed while its access was in flight */
    en->req_id = 0;
    core_touch(c, en->seq);
    const IsaInsn *in = en->in;
    uint64_t v = isa_truncate(r->value, in->size);
    switch (in->op) {
    case OP_LD:
    case OP_LDX:
        en->value = v;
        en->performed = en->watched = TRUE;
        mark_done(en, c->now);
        if (in->op == OP_LDX)
            arm_monitor(c, en, v);
        if (!c->x86)
            check_same_address(c, en);
        break;
    case OP_STX:
        en->value = v == c->mon_value ? 0 : 1;
        if (en->value) {
            c->st.llsc_failures++;
            CORE_PROFILE_ADD(&c->prof, en->pc, failed_cas, 1);
        }
        c->mon_armed = FALSE;
        mark_done(en, c->now);
        break;
    default:
        if (en->ll == LL_LOAD) {
            arm_monitor(c, en, v);
            uint64_t nv = 0;
            if (!isa_rmw(in->op, v, en->data, en->data_b, &nv)) {
                c->mon_armed = FALSE; /* failing CAS: clrex, no store */
                finish_atomic(c, en, v);
                break;
            }
            en->value = v;
            en->ll_new = isa_truncate(nv, in->size);
            en->ll = LL_LOADED;
        } else if (en->ll == LL_STORE) {
            if (v == en->value) {
                c->mon_armed = FALSE;
                en->ll = LL_IDLE;
                finish_atomic(c, en, v);
            } else {
                c->st.llsc_failures++;
                CORE_PROFILE_ADD(&c->prof, en->pc, failed_cas, 1);
                en->ll = LL_RETRY;
            }
        } else {
            finish_atomic(c, en, v);
        }
        break;
    }
    core_touch_done(c, en); /* the ops reading its result */
    core_wake(c);
}

/* A lost line: clears the exclusive monitor, and may squash loads that already read it. */
static void core_line_lost(void *obj, uint64_t line_addr, LineLossCause cause)
{
    Core *c = obj;
    core_catch_up_now(c);
    c->ff.taint++;
    if (cause == LINE_DOWNGRADED)
        return; /* a downgrade leaves every value we read valid */
    c->st.lines_lost++;
    if (c->halted)
        return;
    core_touch_head(c); /* the monitor and event register; a squash redispatches */
    uint64_t line = core_line(c, line_addr);
    if (!c->x86 && c->mon_armed && c->mon_line == line) {
        c->mon_armed = FALSE;
        if (!c->event_reg) {
            c->event_reg = TRUE;
            c->event_cause = WAKE_MONITOR;
        }
    }
    if (c->x86 && c->cfg->core.rollback != ROLLBACK_NONE) {
        /* Memory-ordering machine clear: the oldest performed, unretired load of the line. */
        gboolean precise = c->cfg->core.rollback == ROLLBACK_PRECISE, older_pending = FALSE;
        for (uint64_t s = c->head_seq; s < c->next_seq; s++) {
            RobEntry *en = rob_at(c, s);
            if (!is_load_op(en->in->op))
                continue;
            if (en->watched && en->line == line && (!precise || older_pending)) {
                gint64 pen = c->cfg->core.machine_clear_penalty;
                int32_t pc = en->pc;
                c->st.machine_clears++;
                CORE_PROFILE_ADD(&c->prof, pc, clears, 1);
                guint squashed = squash_refetch(c, s, pc, pen);
                c->st.mc_squashed_ops += squashed;
                c->st.mc_penalty_cycles += (guint64)pen;
                if (c->trace_fn) {
                    CoreTraceEvent ev = { CORE_TRACE_MACHINE_CLEAR, c->now, pc, pc, line,
                                          cause == LINE_EVICTED, squashed, (Cycle)pen };
                    c->trace_fn(c->trace_ctx, c->id, &ev);
                }
                break;
            }
            if (!en->performed)
                older_pending = TRUE;
        }
    } else if (!c->x86) {
        /* arm64: loads may reorder, but a load that read this line may now be older news
         * than what an older load to the same bytes will read: see check_same_address. */
        for (uint64_t s = c->head_seq; s < c->next_seq; s++) {
            RobEntry *en = rob_at(c, s);
            if (is_load_op(en->in->op) && en->watched && en->line == line)
                en->stale = TRUE;
        }
    }
    core_wake(c);
}

/* The memory system is about to touch this core's caches for someone else. */
static void core_port_catch_up(void *obj)
{
    Core *c = obj;
    core_catch_up_now(c);
    c->ff.taint++;
}


/* The memory system counted an L1 miss or an RFO of an access of ours: the op that issued it
 * (a store's when it drained) carries it in the profile. */
static void core_counted(void *obj, const MemRequest *r, MemCount what)
{
    Core *c = obj;
    if (!c->prof.rows || r->pc < 0 || (guint)r->pc >= c->prof.n)
        return;
    if (what == MEM_COUNT_RFO)
        c->prof.rows[r->pc].rfos++;
    else
        c->prof.rows[r->pc].misses++;
}

static const PortClient core_client = { core_done, core_line_lost, core_port_catch_up, core_counted };

const PortClient *core_port_client(void)
{
    return &core_client;
}

void core_signal_event(Core *c)
{
    core_catch_up_now(c);
    c->ff.taint++;
    c->event_reg = TRUE;
    c->event_cause = WAKE_SEV;
    core_touch_head(c); /* a WFE at the head */
    if (c->started && !c->halted)
        core_wake(c);
}

/* ==================== life cycle and queries ==================== */

Core *core_new(Engine *e, const QsimConfig *cfg, guint id, const IsaProgram *prog,
               const IsaLayout *layout, guint tid, guint nthreads, int32_t entry_pc,
               CoreIssueFn issue, void *ms)
{
    g_return_val_if_fail(cfg->core.rob <= (1 << TAG_SLOT_BITS), NULL);
    Core *c = g_new0(Core, 1);
    c->e = e;
    c->cfg = cfg;
    c->id = id;
    c->tid = tid;
    c->nthreads = nthreads;
    c->prog = prog;
    c->code = (const IsaInsn *)prog->insns->data;
    c->ncode = prog->insns->len;
    c->lay = layout;
    c->issue = issue;
    c->ms = ms;
    c->x86 = cfg->arch == ARCH_X86;
    c->in_order = cfg->core.issue == ISSUE_IN_ORDER;
    c->fetch_width = (guint)cfg->core.fetch_width;
    c->retire_width = (guint)cfg->core.retire_width;
    c->load_buffer = (guint)cfg->core.load_buffer;
    c->regs[ISA_REG_TID] = tid;
    c->regs[ISA_REG_NTHREADS] = nthreads;
    rob_init(c);
    sb_init(c);
    bp_init(c);
    c->fq_size = 2 * (guint)cfg->core.fetch_width;
    c->fq = g_new0(FetchSlot, c->fq_size);
    c->dec = g_new(OpDecode, c->ncode);
    for (guint pc = 0; pc < c->ncode; pc++)
        c->dec[pc] = decode_op(c, &c->code[pc]);
    c->fetch_pc = entry_pc;
    c->tick_at = CYCLE_NEVER;
    c->last_tick = CYCLE_NEVER;
    c->ghost_tick = CYCLE_NEVER;
    c->sb_waiter = SEQ_NONE;
    engine_ticker_set(e, id, tick_event, c);
    c->halt_pc = -1;
    core_profile_init(&c->prof);
    return c;
}

void core_free(Core *c)
{
    if (!c)
        return;
    ff_free(c);
    g_aligned_free(c->rob);
    g_free(c->timers);
    g_free(c->sb);
    g_free(c->fq);
    g_free(c->dec);
    g_free(c->bp);
    if (c->work_rand)
        g_rand_free(c->work_rand);
    core_profile_clear(&c->prof);
    g_free(c);
}

void core_set_work_jitter(Core *c, guint jitter)
{
    c->work_jitter = jitter;
    if (!c->work_rand)
        c->work_rand = engine_rand_new(c->e, "core.work", c->id);
}

void core_set_mark_hook(Core *c, CoreMarkFn fn, void *ctx)
{
    c->mark_fn = fn;
    c->mark_ctx = ctx;
}

void core_set_trace_hook(Core *c, CoreTraceFn fn, void *ctx)
{
    c->trace_fn = fn;
    c->trace_ctx = ctx;
}

void core_set_fault_hook(Core *c, CoreFaultFn fn, void *ctx)
{
    c->fault_fn = fn;
    c->fault_ctx = ctx;
}

void core_set_sev_hook(Core *c, CoreSevFn fn, void *ctx)
{
    c->sev_fn = fn;
    c->sev_ctx = ctx;
}

void core_set_fast_forward(Core *c, const PortFastForward *ff)
{
    g_assert(!c->ff.sleeping);
    c->ff.mem = ff;
    c->ff.on = ff != NULL;
}

void core_catch_up(Core *c, Cycle before)
{
    if (c->ff.sleeping)
        ff_catch_up(c, (EventPos){ before, EV_MEMORY, 0 });
    if (c->ghost_tick < before)
        ghost_settle(c);
}

gboolean core_asleep(const Core *c) { return c->ff.sleeping; }
guint64 core_cycles_fast_forwarded(const Core *c) { return c->ff.cycles_skipped; }

gboolean core_halted(const Core *c) { return c->halted; }
const CoreFault *core_fault(const Core *c) { return c->fault.kind != ISA_FAULT_NONE ? &c->fault : NULL; }
int32_t core_halt_pc(const Core *c) { return c->halt_pc; }

void core_stop(Core *c)
{
    core_catch_up_now(c); /* it stops where the run without fast-forward would have */
    if (c->halted)
        return;
    if (!c->started) {
        c->halted = TRUE; /* its start event will find it halted */
        return;
    }
    halt_core(c);
}
guint core_id(const Core *c) { return c->id; }
guint core_tid(const Core *c) { return c->tid; }

/* ==================== the OS model's side ==================== */

void core_set_os_hooks(Core *c, CoreSyscallFn syscall, CoreHaltFn halt, void *ctx)
{
    c->syscall_fn = syscall;
    c->halt_fn = halt;
    c->os_ctx = ctx;
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
    RobEntry *en = syscall_in_progress(c);
    g_assert(en && !c->parked && !c->ff.sleeping); /* a core at a system call does not repeat */
    c->now = engine_now(c->e);
    c->ff.taint++;
    en->value = result;
    en->req_id = 0;
    mark_done(en, c->now);
    core_touch(c, en->seq);
    core_wake(c);
}

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
    if (c->sb_ncommit)
        return FALSE;
    if (!rob_count(c))
        return TRUE;
    const RobEntry *en = rob_at((Core *)c, c->head_seq);
    IsaOp op = en->in->op;
    gboolean performs = isa_op_writes_at_head(op) || isa_op_info[op].is_syscall;
    return !(performs && en->state != E_WAIT);
}

void core_context_save(Core *c, CoreContext *out)
{
    core_catch_up_now(c);
    c->ff.taint++; /* another thread: no period spans the switch */
    if (c->ghost_tick != CYCLE_NEVER && c->ghost_tick < c->now)
        ghost_settle(c);
    c->ghost_tick = CYCLE_NEVER;
    Cycle now = c->now;
    RobEntry *sys = syscall_in_progress(c);
    g_assert(sys || core_can_switch(c));
    int32_t pc = rob_count(c) ? rob_at(c, c->head_seq)->pc : c->fq_count ? c->fq[c->fq_head].pc : c->fetch_pc;
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
    set_stall(c, STALL_NONE);
    out->tid = c->tid;
    out->pc = pc;
    memcpy(out->regs, c->regs, sizeof out->regs);
    memcpy(out->stack, c->ras, sizeof out->stack);
    out->depth = c->ras_sp;
    c->parked = TRUE;
    c->fetch_stopped = TRUE;
    c->dispatch_blocked_until = 0;
    c->mon_armed = FALSE;
    c->event_reg = FALSE;
    c->event_cause = WAKE_NONE;
    c->st.cycles = now - c->start_cycle;
    c->tick_at = CYCLE_NEVER;
    engine_tick_cancel(c->e, c->id);
}

void core_context_load(Core *c, const CoreContext *ctx, Cycle delay)
{
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
    schedule_tick_at(c, now + delay);
}
Cycle core_last_retire(const Core *c) { return c->last_retire; }

const CoreStats *core_stats(const Core *c)
{
    return &c->st;
}

void core_enable_profile(Core *c)
{
    core_profile_enable(&c->prof, c->ncode, engine_now(c->e));
    core_profile_note_head(c);
}

const ProfileRow *core_profile_rows(Core *c, guint *n)
{
    core_profile_settle(&c->prof, engine_now(c->e));
    *n = c->prof.n;
    return c->prof.rows;
}

uint64_t core_reg(const Core *c, guint reg)
{
    g_return_val_if_fail(reg < ISA_NREG_SLOTS, 0);
    return c->regs[reg];
}

void core_describe_wait(const Core *c, GString *out)
{
    Core *m = (Core *)c;
    g_string_append_printf(out, "core %u: ", c->id);
    if (c->fault.kind != ISA_FAULT_NONE) {
        g_autofree char *pos = c->fault.pc >= 0 && (guint)c->fault.pc < c->ncode ? isa_insn_pos(c->prog, &c->code[c->fault.pc])
                                                                                 : g_strdup("?");
        g_string_append_printf(out, "faulted at pc %d (%s)", c->fault.pc, pos);
        return;
    }
    if (c->halted) {
        g_string_append(out, "halted");
        return;
    }
    if (c->parked) {
        g_string_append(out, "no thread (its last one was switched out)");
        return;
    }
    if (!c->started) {
        g_string_append(out, "not started");
        return;
    }
    if (c->wfe_sleeping)
        g_string_append(out, "asleep in wfe; ");
    if (rob_count(c) == 0) {
        g_string_append_printf(out, "ROB empty, fetch pc %d%s", c->fetch_pc,
                               c->fetch_stopped ? " (fetch stopped: off the program, a ret with nothing to return to, or calls nested past 64)" : "");
        return;
    }
    const RobEntry *en = rob_at(m, c->head_seq);
    g_autofree char *pos = isa_insn_pos(c->prog, en->in);
    g_string_append_printf(out, "ROB head pc %d (%s at %s) %s", en->pc, isa_op_info[en->in->op].name, pos,
                           en->state == E_WAIT ? "waiting to start"
                           : en->req_id ? "waiting for memory" : "executing");
    if (en->addr_known)
        g_string_append_printf(out, " addr 0x%" G_GINT64_MODIFIER "x", en->addr);
    g_string_append_printf(out, "; %u in ROB, %u stores buffered (%u retired)", rob_count(c),
                           c->sb_count, c->sb_ncommit);
}
