/* The core timing model: a core's life cycle, the scheduling of its ticks, the cycle itself
 * (the pipeline stages called retire-first: core_retire.h, core_scan.h, core_frontend.h), the
 * port client through which the memory system answers and tells it of lost lines, and what
 * the machine asks of it.  core_internal.h lists the files that hold the rest.
 *
 * Simplifications, each chosen to keep the model small where the locks studied do not care:
 * unlimited issue width (fetch_width bounds throughput); a load waits until every older
 * store's address is known (no memory-dependence speculation); a load forwarded from the store
 * buffer is not watched by the ordering rollback; `stx` and atomics take no store-buffer entry
 * (they perform at the ROB head); on arm64 a younger load waits for an older unfinished atomic
 * or `stx`; `stx` is performed as a compare-and-swap against the value `ldx` read (so an ABA
 * write in between is not seen as a failure). */
#include <string.h>
#include "cores/core_internal.h"
#include "cores/isa/isa_exec.h"
#include "cores/core_retire.h"
#include "cores/core_execute.h"
#include "cores/core_scan.h"
#include "cores/core_frontend.h"

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

void core_schedule_tick_at(Core *c, Cycle when)
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

void core_wake(Core *c)
{
    Cycle now = c->now;
    core_schedule_tick_at(c, c->last_tick == now || ghost_passed(c) ? now + 1 : now);
}

void core_ghost_settle(Core *c)
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
    core_schedule_tick_at(c, c->start_cycle);
}

void core_start(Core *c, Cycle delay)
{
    engine_schedule_class(c->e, engine_now(c->e) + delay, EV_START, c->id, start_event, c, 0);
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
    exec_timers_purge(c);
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
    if (!c->fetch_stopped && t >= c->fetch_resume_at && c->fq_count < core_fq_limit(c))
        return TRUE;
    StallCause cause = STALL_NONE;
    if (c->fq_count > 0 && t >= c->dispatch_blocked_until) {
        cause = dispatch_stall(c);
        if (cause == STALL_NONE)
            return TRUE; /* it dispatches */
    }
    return cause != c->stall_cause;
}

void core_tick(Core *c)
{
    if (c->ghost_tick != CYCLE_NEVER) {
        if (c->ghost_tick < c->now)
            core_ghost_settle(c);
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
    if (G_UNLIKELY(c->smt_denied)) {
        c->smt_denied = FALSE; /* a stage it had work for was the sibling's: its turn comes next */
        core_schedule_tick_at(c, now + 1);
        return;
    }
    if (did && may_act_at(c, now + 1)) {
        core_schedule_tick_at(c, now + 1);
        return;
    }
    if (did)
        c->ghost_tick = ++now; /* the next tick would do nothing: as if it had run */
    /* Nothing moves: sleep until a timer, or until memory or an event wakes us. */
    Cycle t = next_timer(c, now);
    if (t != CYCLE_NEVER)
        core_schedule_tick_at(c, MAX(t, now + 1));
}

/* ==================== the port ==================== */

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

static const PortClient core_client = { memop_done, rollback_line_lost, core_port_catch_up, core_counted };

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
    timer_heap_init(&c->timers, 2 * c->rob_size);
    sb_init(c);
    bp_init(c);
    c->fq_size = 2 * (guint)cfg->core.fetch_width;
    c->fq = g_new0(FetchSlot, c->fq_size);
    c->dec = g_new(OpDecode, c->ncode);
    for (guint pc = 0; pc < c->ncode; pc++)
        c->dec[pc] = exec_decode_op(c, &c->code[pc]);
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
    rob_free(c);
    timer_heap_free(&c->timers);
    g_free(c->sb);
    g_free(c->fq);
    g_free(c->dec);
    if (!c->bp_borrowed)
        g_free(c->bp);
    if (c->work_rand)
        g_rand_free(c->work_rand);
    core_profile_clear(&c->prof);
    if (c->clears_by_line)
        g_hash_table_destroy(c->clears_by_line);
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
    c->ff.on = ff != NULL; /* SMT: the two threads of a core go as one unit (core_ff.c) */
}

void core_catch_up(Core *c, Cycle before)
{
    if (c->ff.sleeping)
        ff_catch_up(c, (EventPos){ before, EV_MEMORY, 0 });
    if (c->ghost_tick < before)
        core_ghost_settle(c);
}

gboolean core_asleep(const Core *c) { return c->ff.sleeping; }
guint64 core_cycles_fast_forwarded(const Core *c) { return c->ff.cycles_skipped; }

gboolean core_halted(const Core *c) { return c->halted; }
const CoreFault *core_fault(const Core *c) { return c->fault.kind != ISA_FAULT_NONE ? &c->fault : NULL; }
int32_t core_halt_pc(const Core *c) { return c->halt_pc; }

void core_stop(Core *c)
{
    core_catch_up_now(c); /* it stops where the run without fast-forward would have */
    c->stopped = TRUE;    /* for good: no thread is loaded onto it any more */
    if (c->halted)
        return;
    if (!c->started) {
        c->halted = TRUE; /* its start event will find it halted */
        return;
    }
    retire_stop(c);       /* no thread ended: the OS model is not told */
}
guint core_id(const Core *c) { return c->id; }
guint core_tid(const Core *c) { return c->tid; }
Cycle core_last_retire(const Core *c) { return c->last_retire; }

guint64 core_line_clears(const Core *c, uint64_t line)
{
    uint64_t key = line;
    guint64 *n = c->clears_by_line ? g_hash_table_lookup(c->clears_by_line, &key) : NULL;
    return n ? *n : 0;
}

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
        g_string_append_printf(out, "ROB empty, fetch pc %d%s", c->fetch_pc, c->fetch_stopped ? " (fetch stopped)" : "");
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
