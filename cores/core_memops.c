/* Memory ops in the execute stage: starting loads (forwarded from the store buffer or sent to
 * the L1), stores (into their store-buffer entry), atomics and `stx` at the ROB head (x86
 * LOCK'd ops, arm64 LSE near or far, or an LL/SC pair), and fences; and the memory system's
 * responses, which finish them (the port's `done`).  A bad address is not performed: the op
 * completes with nothing done and faults only if it comes to retire (core_retire.h). */
#include "cores/core_internal.h"
#include "cores/isa/isa_exec.h"

/* ==================== helpers ==================== */

static uint64_t address_of(Core *c, const RobEntry *en)
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

void memop_resolve(Core *c, RobEntry *en)
{
    en->addr = address_of(c, en);
    en->line = core_line(c, en->addr);
    en->addr_known = TRUE;
}

/* Judges an access's address (cores/isa/isa_fault.h).  A bad one is not performed: the op completes
 * with nothing done and faults only if it comes to retire, so a wrong path that computes a
 * garbage address costs nothing but its squash. */
gboolean access_faults(Core *c, RobEntry *en)
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
    if (kind == MEM_LOAD) {
        c->st.loads_issued++;
        core_trace_mem(c, CORE_TRACE_LOAD_ISSUE, en->seq, en->pc, en->addr, 0);
    }
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

/* ==================== starting ==================== */

gboolean memop_start_load(Core *c, RobEntry *en, const Older *o)
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
    memop_resolve(c, en);
    if (access_faults(c, en)) {
        exec_timer(c, en, 1);
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
        core_trace_mem(c, CORE_TRACE_LOAD_PERFORM, en->seq, en->pc, en->addr, v);
        if (in->op == OP_LDX)
            arm_monitor(c, en, v);
        exec_timer(c, en, c->cfg->l1.latency);
        return TRUE;
    }
    issue_mem(c, en, MEM_LOAD, RMW_CAS, 0, 0, FALSE, 0);
    return TRUE;
}

gboolean memop_start_store(Core *c, RobEntry *en)
{
    const IsaInsn *in = en->in;
    gboolean did = FALSE;
    SbEntry *s = &c->sb[en->sb_slot];
    g_assert(s->seq == en->seq);
    if (!en->addr_known && rob_src_ready(c, en->src[2])) {
        memop_resolve(c, en);
        s->addr_known = TRUE;
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
        exec_timer(c, en, 1);
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

gboolean memop_start_atomic(Core *c, RobEntry *en, gboolean head)
{
    const IsaInsn *in = en->in;
    if (!head || !rob_src_ready(c, en->src[0]) || !rob_src_ready(c, en->src[1]) ||
        !rob_src_ready(c, en->src[2]))
        return FALSE;
    memop_resolve(c, en);
    if (access_faults(c, en)) {
        exec_timer(c, en, 1);
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
            exec_timer(c, en, 1);
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

gboolean memop_step_llsc(Core *c, RobEntry *en)
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

gboolean memop_start_fence(Core *c, RobEntry *en, gboolean head)
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
    exec_timer(c, en, *cost - 1);
    return TRUE;
}

/* ==================== responses ==================== */

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
        exec_timer(c, en, tail);
        return;
    }
    exec_done(en, now);
    c->st.atomic_cycles += now - en->head_since;
}

void memop_done(void *obj, const MemResponse *r)
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
        core_trace_mem(c, CORE_TRACE_LOAD_PERFORM, en->seq, en->pc, en->addr, v);
        exec_done(en, c->now);
        if (in->op == OP_LDX)
            arm_monitor(c, en, v);
        if (!c->x86)
            rollback_same_address(c, en);
        break;
    case OP_STX:
        en->value = v == c->mon_value ? 0 : 1;
        if (en->value) {
            c->st.llsc_failures++;
            CORE_PROFILE_ADD(&c->prof, en->pc, failed_cas, 1);
        }
        c->mon_armed = FALSE;
        exec_done(en, c->now);
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
