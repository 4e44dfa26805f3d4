/* A thread's replay (graph_priv.h): the thread run from its start through the shared thread step
 * (cores/isa/thread_step.h), each read answered with the value of the write the graph says it
 * reads, until it needs an event the graph does not have yet.  Beside the step it carries
 * register taint, the dependencies arm64 orders by, with thread_paths.c's rules (herd's
 * AArch64 semantics): a read is reached by its address and by what reached the last po-earlier
 * write to its location (lmrs); a write by its address and data; a branch's inputs reach every
 * later event (ctrl).  A CAS takes the dependencies both of herd's candidates have (rd from the
 * register and from memory), so the graph allows whatever either allows. */
#include <string.h>
#include "sim/memmodel/graph_priv.h"
#include "cores/isa/isa_exec.h"
#include "sim/memmodel/insn_events.h"

/* A loop head seen since the thread's last write: spin-assume compares the thread there. */
typedef struct {
    IsaThread th;
    guint k;
} GSnap;

typedef struct {
    GWorld *w;
    const GGraph *g;
    guint t;
    IsaThread th;
    IsaThread other;           /* what the step sees of every other thread (sev: nothing to wake) */
    guint k;                   /* the next recorded event */
    guint instance;
    GNext *out;
    gboolean pending_write;    /* the step wanted a write the graph does not have: out->ev */
    gboolean wrote;
    int last_ldx;
    guint last_ldx_n;          /* its byte events (1: a whole access) */
    /* the current memory op: its locations, one event per location, each esize bytes */
    int locs[8];
    guint nb;
    unsigned esize;
    uint64_t op_addr;
    uint64_t read_val, write_val, ldx_val;
    /* the event of the current op being built (its address, control) */
    GEv cur;
    GTaint t_reg[ISA_NREG_SLOTS], p_reg[ISA_NREG_SLOTS];
    GTaint ctrl_t, ctrl_p;
    GTaint reach_t[MM_GRAPH_MAX_THREAD_EVENTS];
    GTaint reach_p[MM_GRAPH_MAX_THREAD_EVENTS];
    int read_k, write_k;       /* the events the op read and wrote, or -1 */
} Replay;

static IsaThread *cb_thread(void *ctx, guint t)
{
    Replay *r = ctx;
    return t == r->t ? &r->th : &r->other;
}

static guint nrecorded(const Replay *r) { return r->g->ev[r->t]->len; }

static uint64_t rf_value(const Replay *r, const GEv *e)
{
    guint32 ref = e->rf;
    if (gref_thread(ref) == GREF_INIT)
        return isa_truncate(g_array_index(r->w->locs, GLoc, gref_index(ref)).init, e->ev.size);
    return ggraph_ev(r->g, gref_thread(ref), gref_index(ref))->ev.value;
}

/* A read's value, from its events: one, or one per byte (little-endian). */
static uint64_t cb_read(void *ctx, guint t, uint64_t addr, unsigned size)
{
    (void)t; (void)addr; (void)size;
    Replay *r = ctx;
    /* the caller made sure the read is recorded */
    g_assert(r->k + r->nb <= nrecorded(r));
    uint64_t v = 0;
    for (guint i = 0; i < r->nb; i++) {
        const GEv *e = ggraph_ev(r->g, r->t, r->k + i);
        g_assert(e->ev.kind == MM_READ);
        v |= rf_value(r, e) << (8 * r->esize * i);
    }
    r->read_k = (int)r->k;
    r->k += r->nb;
    r->read_val = v;
    return v;
}

/* Byte i of a write of `value` (all of it for a whole access). */
static uint64_t part_value(const Replay *r, uint64_t value, unsigned size, guint i)
{
    return r->nb > 1 ? (value >> (8 * i)) & 0xff : isa_truncate(value, size);
}

/* The other event of byte i's atomic or exclusive pair: the read event of the same location. */
static int pair_of(const Replay *r, int first, guint n, int loc)
{
    for (guint j = 0; first >= 0 && j < n; j++)
        if (ggraph_ev(r->g, r->t, (guint)first + j)->ev.loc == loc)
            return first + (int)j;
    return -1;
}

static void cb_write(void *ctx, guint t, uint64_t addr, unsigned size, uint64_t value)
{
    (void)t; (void)addr; (void)size;
    Replay *r = ctx;
    r->wrote = TRUE;
    r->write_val = isa_truncate(value, size);
    r->write_k = (int)r->k;
    guint j = 0;
    while (j < r->nb && r->k + j < nrecorded(r)) {
        g_assert(ggraph_ev(r->g, r->t, r->k + j)->ev.kind == MM_WRITE);
        j++;
    }
    if (j == r->nb) {
        r->k += r->nb;
        return;
    }
    /* byte j is the next event; the ones before it are recorded */
    r->pending_write = TRUE;
    r->k += j;
    r->cur.ev.kind = MM_WRITE;
    r->cur.ev.loc = r->locs[j];
    r->cur.ev.size = (guint8)r->esize;
    r->cur.addr = r->op_addr + j;
    r->cur.ev.value = part_value(r, value, size, j);
}

static uint64_t cb_load(void *ctx, guint t, uint64_t addr, unsigned size) { return cb_read(ctx, t, addr, size); }
static void cb_store(void *ctx, guint t, uint64_t addr, unsigned size, uint64_t value, int32_t pc)
{
    (void)pc;
    cb_write(ctx, t, addr, size, value);
}

static const IsaStepOps replay_ops = {
    .thread = cb_thread, .load = cb_load, .store = cb_store, .read = cb_read, .write = cb_write,
};

static const GTaint *src_t(const Replay *r, IsaSrc a)
{
    static const GTaint none;
    return a.reg == ISA_NO_REG ? &none : &r->t_reg[a.reg];
}
static const GTaint *src_p(const Replay *r, IsaSrc a)
{
    static const GTaint none;
    return a.reg == ISA_NO_REG ? &none : &r->p_reg[a.reg];
}

static void set_reg(Replay *r, int rd, const GTaint *t, const GTaint *p)
{
    if (rd < 0 || rd >= ISA_NREGS)
        return;
    r->t_reg[rd] = *t;
    r->p_reg[rd] = *p;
}

/* The event template of the current op: thread, pc, instance, address and control taint. */
static void begin_event(Replay *r, const IsaInsn *in, MmKind kind, int loc, uint64_t addr)
{
    GEv *e = &r->cur;
    memset(e, 0, sizeof *e);
    e->ev.kind = kind;
    e->ev.thread = (int)r->t;
    e->ev.instance = r->instance;
    e->ev.loc = loc;
    e->ev.size = kind == MM_FENCE ? 0 : in->size;
    e->ev.pc = r->th.pc;
    e->pair = -1;
    e->addr = addr;
    e->ctrl_t = r->ctrl_t;
    e->ctrl_p = r->ctrl_p;
    if (kind != MM_FENCE && in->mem.base != ISA_NO_REG) {
        e->addr_t = r->t_reg[in->mem.base];
        e->addr_p = r->p_reg[in->mem.base];
    }
}

/* What reaches read k: its address, and what reached the last po-earlier write to its location
 * from another instruction (lmrs). */
static void reach_read(Replay *r, guint k, GEv *e)
{
    r->reach_t[k] = e->addr_t;
    r->reach_p[k] = e->addr_p;
    for (guint j = k; j-- > 0;) {
        const GEv *x = ggraph_ev(r->g, r->t, j);
        if (!x->marker && x->ev.kind == MM_WRITE && x->ev.loc == e->ev.loc && x->ev.instance != e->ev.instance) {
            gt_or(&r->reach_t[k], &r->reach_t[j]);
            gt_or(&r->reach_p[k], &r->reach_p[j]);
            break;
        }
    }
    e->reach_p = r->reach_p[k];
}

/* A write k's data inputs (dt, dp), and what else reaches it (rt, rp). */
static void reach_write(Replay *r, guint k, GEv *e, const GTaint *dt, const GTaint *dp, const GTaint *rt,
                        const GTaint *rp)
{
    e->data_t = *dt;
    e->data_p = *dp;
    r->reach_t[k] = e->addr_t;
    gt_or(&r->reach_t[k], dt);
    gt_or(&r->reach_t[k], rt);
    r->reach_p[k] = e->addr_p;
    gt_or(&r->reach_p[k], dp);
    gt_or(&r->reach_p[k], rp);
    e->reach_p = r->reach_p[k];
}

/* The taint of a memory op after its step: the registers it set and the events' sets. */
static void taint_memory(Replay *r, const IsaInsn *in)
{
    static const GTaint none;
    GTaint rt = none, rp = none;
    for (guint i = 0; r->read_k >= 0 && i < r->nb; i++) {
        guint k = (guint)r->read_k + i;
        gt_or(&rt, &r->reach_t[k]);
        gt_or(&rp, &r->reach_p[k]);
        gt_add(&rt, k);
        gt_add(&rp, k);
    }
    GEv *w = NULL;
    if (r->write_k >= 0)
        w = r->pending_write ? &r->cur : ggraph_ev(r->g, r->t, (guint)r->write_k);
    GEv wcopy;
    if (w && !r->pending_write) {
        wcopy = *w;            /* recorded: recompute into a copy, for reach only */
        w = &wcopy;
    }
    switch (in->op) {
    case OP_LD:
    case OP_LDX:
        set_reg(r, in->rd, &rt, &rp);
        break;
    case OP_ST:
        reach_write(r, (guint)r->write_k, w, src_t(r, in->a), src_p(r, in->a), &none, &none);
        break;
    case OP_STX:
        if (w)
            reach_write(r, (guint)r->write_k, w, src_t(r, in->a), src_p(r, in->a), &none, &none);
        set_reg(r, in->rd, &none, &none);
        break;
    case OP_CAS: {
        GTaint br_p = *src_p(r, in->a);
        gt_or(&br_p, &rp);
        if (w) {
            GTaint dp = *src_p(r, in->b);
            gt_or(&dp, src_p(r, in->a));
            reach_write(r, (guint)r->write_k, w, src_t(r, in->b), &dp, &none, &br_p);
            /* herd's two candidates: rd from Rs (the compare's inputs) or from memory; both */
            GTaint t = *src_t(r, in->a), p = *src_p(r, in->a);
            gt_or(&p, &br_p);
            gt_and(&t, &rt);
            gt_and(&p, &rp);
            set_reg(r, in->rd, &t, &p);
        } else {
            set_reg(r, in->rd, &rt, &rp);
        }
        break;
    }
    default: {
        /* xchg, fadd, for, fand: SWP's write takes the register only, LDADD's the value read too */
        gboolean from_mem = in->op != OP_XCHG;
        if (w)
            reach_write(r, (guint)r->write_k, w, src_t(r, in->a), src_p(r, in->a), from_mem ? &rt : &none,
                        from_mem ? &rp : &none);
        set_reg(r, in->rd, &rt, &rp);
        break;
    }
    }
    /* a write's bytes are reached alike */
    for (guint j = 1; r->write_k >= 0 && j < r->nb; j++) {
        r->reach_t[r->write_k + j] = r->reach_t[r->write_k];
        r->reach_p[r->write_k + j] = r->reach_p[r->write_k];
    }
}

/* rd := a OP b; a CSEL's masking AND passes a's data only when it selects it. */
static void taint_alu(Replay *r, const IsaInsn *in)
{
    GTaint t = *src_t(r, in->a), p = *src_p(r, in->a);
    gt_or(&t, src_t(r, in->b));
    gt_or(&p, src_p(r, in->b));
    if (in->op == OP_AND && (in->mm & ISA_MM_SELECT)) {
        uint64_t b = isa_src(&in->b, r->th.regs);
        static const GTaint none;
        t = b ? *src_t(r, in->a) : none;
        p = b ? p : *src_p(r, in->b);
    }
    set_reg(r, in->rd, &t, &p);
}

/* What may wake thread r->t from wfe in r->g (*src): another thread's sev anywhere (an event
 * sent before the wfe waits latched in the event register), or, while its monitor is armed, a
 * write by another thread to the monitored line: coherence-after what its last ldx read, for the
 * ldx's own location.  This lets a wfe wake more often than hardware may (one sev can wake every
 * later wfe), so a lost wake-up found here is one on hardware. */
static gboolean wake_source(const Replay *r, guint32 *src)
{
    const GGraph *g = r->g;
    for (guint u = 0; u < g->nthreads; u++)
        for (guint i = 0; u != r->t && i < g->ev[u]->len; i++)
            if (ggraph_ev(g, u, i)->marker == GEV_SEV) {
                *src = gref(u, i);
                return TRUE;
            }
    if (!r->th.monitor || !r->th.has_ldx_line || r->last_ldx < 0)
        return FALSE;
    const GEv *ldx = ggraph_ev(g, r->t, (guint)r->last_ldx);
    for (guint l = 0; l < g->nlocs && l < r->w->locs->len; l++) {
        const GLoc *x = &g_array_index(r->w->locs, GLoc, l);
        if (x->addr / r->w->line_size != r->th.ldx_line)
            continue;
        GArray *co = g->co[l];
        guint from = 0;
        for (guint b = 0; b < r->last_ldx_n; b++) {
            const GEv *x = ldx + b;
            if ((int)l == x->ev.loc && gref_thread(x->rf) != GREF_INIT)
                for (guint j = 0; j < co->len; j++)
                    if (g_array_index(co, guint32, j) == x->rf)
                        from = j + 1;
        }
        for (guint j = from; j < co->len; j++) {
            guint32 ref = g_array_index(co, guint32, j);
            if (gref_thread(ref) != r->t) {
                *src = ref;
                return TRUE;
            }
        }
    }
    return FALSE;
}

static gboolean is_alu(IsaOp op)
{
    switch (op) {
    case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR:
    case OP_MUL: case OP_SAR: case OP_SEXT: case OP_DIV: case OP_DIVU: case OP_REM: case OP_REMU: case OP_SEQ:
    case OP_SNE: case OP_SLT: case OP_SGE: case OP_SLTU: case OP_SGEU:
        return TRUE;
    default:
        return FALSE;
    }
}

static void finish(Replay *r, GNextKind kind)
{
    r->out->kind = kind;
    r->out->th = r->th;
}

/* ---- futex ops ----
 * The kernel runs a futex op under its hash bucket's lock, with full barriers (Linux
 * kernel/futex/waitwake.c, the ordering comment at its top: smp_mb (A) and (B)).  Here each
 * word's wait queue is a location of its own outside memory (GQUEUE_ADDR), and a futex op an
 * atomic read-modify-write of it between full fences: futex ops on one word are then in one
 * total order (the queue's coherence order), each seeing the queue the one before left, and
 * the search explores every such order as it does for any atomic.  The queue's value is its
 * sleepers oldest first, a thread id + 1 per 4 bits (so at most 15 threads).
 *
 *   futex_wait rd, [m], a:  F; R queue (acquire); R m (4 bytes); W queue (release), with the
 *                           thread appended if m held a; F; then, asleep, it waits for the
 *                           queue to lose it: R queue (acquire), a spin loop (spin-assume:
 *                           blocked while it reads itself queued; if that read is the latest,
 *                           nobody will wake it: a lost wake-up); F
 *   futex_wake rd, [m], n:  F; R queue (acquire); W queue less its n oldest (release); F
 */
#define GQUEUE_ADDR MM_GRAPH_QUEUE_ADDR

static gboolean queue_has(uint64_t q, guint t)
{
    for (; q; q >>= 4)
        if ((q & 15) == t + 1)
            return TRUE;
    return FALSE;
}

static uint64_t queue_push(uint64_t q, guint t)
{
    guint n = 0;
    while (n < 16 && (q >> (4 * n)))
        n++;
    return q | (uint64_t)(t + 1) << (4 * n);
}

/* The next event of the op: TRUE when it is not recorded yet (out->ev set, kind `kind`). */
static gboolean futex_event(Replay *r, GNextKind kind)
{
    r->cur.ev.thread = (int)r->t;
    if (r->k == nrecorded(r)) {
        r->out->ev = r->cur;
        finish(r, kind);
        return TRUE;
    }
    g_assert(ggraph_ev(r->g, r->t, r->k)->ev.kind == r->cur.ev.kind);
    r->k++;
    r->instance++;
    return FALSE;
}

static gboolean futex_fence(Replay *r, const IsaInsn *in)
{
    begin_event(r, in, MM_FENCE, -1, 0);
    r->cur.ev.fence = MM_FENCE_FULL;
    return futex_event(r, GNEXT_FENCE);
}

/* A queue read: TRUE when it is the next event; else *value, and its index added to *rt. */
static gboolean futex_queue_read(Replay *r, const IsaInsn *in, int q, uint64_t m, guint32 flags, uint64_t *value,
                                 guint *idx)
{
    begin_event(r, in, MM_READ, q, GQUEUE_ADDR | m);
    r->cur.ev.size = 8;
    r->cur.ev.flags = flags;
    reach_read(r, r->k, &r->cur);
    if (r->k == nrecorded(r))
        return futex_event(r, GNEXT_READ);
    *idx = r->k;
    *value = rf_value(r, ggraph_ev(r->g, r->t, r->k));
    return futex_event(r, GNEXT_READ);
}

/* Thread r->t's futex op at `m`: TRUE when the replay stops in it (out set), FALSE when it is
 * done (pc moved on; *changed: it changed the queue). */
static gboolean futex_op(Replay *r, const IsaInsn *in, uint64_t m, gboolean *changed)
{
    GWorld *w = r->w;
    int q = gworld_queue(w, m);
    GTaint rt = { { 0 } };
    uint64_t queue = 0, word = 0, nq, ret;
    guint qr = 0;
    if (futex_fence(r, in) || futex_queue_read(r, in, q, m, MM_ATOMIC | MM_ACQ, &queue, &qr))
        return TRUE;
    gt_add(&rt, qr);
    gboolean sleeps = FALSE;
    if (in->op == OP_FUTEX_WAIT) {
        if (!gworld_access(w, m, 4, r->locs, &r->nb)) {
            g_snprintf(r->out->why, sizeof r->out->why, "restart");
            finish(r, GNEXT_REFUSED);
            return TRUE;
        }
        for (guint i = 0; i < r->nb; i++) {
            begin_event(r, in, MM_READ, r->locs[i], m + i);
            r->cur.ev.size = r->nb > 1 ? 1 : 4;
            reach_read(r, r->k, &r->cur);
            if (r->k < nrecorded(r)) {
                word |= rf_value(r, ggraph_ev(r->g, r->t, r->k)) << (8 * r->cur.ev.size * i);
                gt_add(&rt, r->k);
            }
            if (futex_event(r, GNEXT_READ))
                return TRUE;
        }
        sleeps = word == isa_truncate(isa_src(&in->a, r->th.regs), 4);
        if (sleeps && r->w->o->nthreads > 15) {
            g_snprintf(r->out->why, sizeof r->out->why, "futex ops with more than 15 threads");
            finish(r, GNEXT_REFUSED);
            return TRUE;
        }
        nq = sleeps ? queue_push(queue, r->t) : queue;
        ret = sleeps ? 0 : 1;
    } else {
        uint64_t n = isa_src(&in->a, r->th.regs);
        for (ret = 0, nq = queue; nq && ret < n; ret++)
            nq >>= 4;
    }
    begin_event(r, in, MM_WRITE, q, GQUEUE_ADDR | m);
    r->cur.ev.size = 8;
    r->cur.ev.flags = MM_ATOMIC | MM_REL;
    r->cur.ev.value = nq;
    r->cur.pair = (int)qr;
    r->cur.amo = TRUE;
    if (futex_event(r, GNEXT_WRITE) || futex_fence(r, in))
        return TRUE;
    if (sleeps) {
        uint64_t now = 0;
        guint wr = 0;
        if (futex_queue_read(r, in, q, m, MM_ACQ, &now, &wr))
            return TRUE;
        if (queue_has(now, r->t)) {
            /* still queued: asleep; blocked unless a later op dequeues it */
            r->out->block_from = wr;
            finish(r, GNEXT_BLOCKED);
            return TRUE;
        }
        if (futex_fence(r, in))
            return TRUE;
    }
    *changed = nq != queue;
    if (in->rd >= 0 && in->rd < ISA_NREGS) {
        r->th.regs[in->rd] = ret;
        set_reg(r, in->rd, &rt, &rt);
    }
    r->th.pc++;
    return FALSE;
}

static gboolean same_spot(const IsaThread *a, const IsaThread *b)
{
    return a->pc == b->pc && a->event == b->event && a->depth == b->depth && a->monitor == b->monitor && a->has_ldx_line == b->has_ldx_line &&
           a->ldx_line == b->ldx_line && !memcmp(a->regs, b->regs, sizeof a->regs) &&
           !memcmp(a->stack, b->stack, sizeof(a->stack[0]) * a->depth);
}

void greplay(GWorld *w, const GGraph *g, guint t, GNext *out)
{
    Replay *r = g_new0(Replay, 1);
    r->w = w;
    r->g = g;
    r->t = t;
    r->out = out;
    r->last_ldx = -1;
    memset(out, 0, sizeof *out);
    r->th.state = THREAD_RUNNABLE;
    r->th.pc = w->entry;
    r->th.regs[ISA_REG_TID] = t;
    r->th.regs[ISA_REG_NTHREADS] = w->o->nthreads;
    r->other.state = THREAD_HALTED;
    IsaStepWorld sw = { &replay_ops, r, w->o->prog, w->layout, w->o->nthreads, w->line_size };
    GArray *snaps = g_array_new(FALSE, FALSE, sizeof(GSnap));
    guint back_jumps = 0;
    for (;;) {
        if (r->th.state == THREAD_HALTED) {
            finish(r, GNEXT_HALTED);
            break;
        }
        if (r->th.state != THREAD_RUNNABLE) {
            finish(r, GNEXT_FAULT);
            break;
        }
        if (r->k >= MM_GRAPH_MAX_THREAD_EVENTS - 10) {
            g_snprintf(out->why, sizeof out->why, "thread %u has more than %d events", t, MM_GRAPH_MAX_THREAD_EVENTS - 10);
            finish(r, GNEXT_BOUND);
            break;
        }
        const IsaInsn *in = isa_thread_insn(w->o->prog, &r->th);
        if (!in) {
            isa_thread_step(&sw, t);     /* faults it */
            finish(r, GNEXT_FAULT);
            break;
        }
        const IsaOpInfo *info = &isa_op_info[in->op];
        if (info->is_syscall) {
            uint64_t addr = isa_address(&in->mem, w->layout, t, r->th.regs);
            if (isa_access_check(w->layout, addr, 4) != ISA_FAULT_NONE) {
                isa_thread_step(&sw, t);
                finish(r, GNEXT_FAULT);
                break;
            }
            gboolean changed = FALSE;
            if (futex_op(r, in, addr, &changed))
                break;
            if (changed)
                g_array_set_size(snaps, 0);
            continue;
        }
        if (in->op == OP_SEV || (in->op == OP_WFE && !r->th.event)) {
            if (r->k == nrecorded(r)) {
                GEv *m = &out->ev;
                memset(m, 0, sizeof *m);
                m->ev.thread = (int)t;
                m->ev.pc = r->th.pc;
                m->ev.loc = -1;
                m->pair = -1;
                if (in->op == OP_SEV) {
                    m->marker = GEV_SEV;
                    finish(r, GNEXT_SEV);
                } else if (wake_source(r, &m->rf)) {
                    m->marker = GEV_WAKE;
                    finish(r, GNEXT_WAKE);
                } else {
                    finish(r, GNEXT_WFE);
                }
                break;
            }
            g_assert(ggraph_ev(g, t, r->k)->marker == (in->op == OP_SEV ? GEV_SEV : GEV_WAKE));
            r->k++;
            if (in->op == OP_WFE)
                r->th.event = TRUE;      /* the event that woke it, consumed by the step */
        }
        int32_t pc0 = r->th.pc;
        r->read_k = r->write_k = -1;
        r->pending_write = r->wrote = FALSE;
        r->nb = 1;
        gboolean mem = info->is_load || info->is_store;
        if (mem) {
            uint64_t addr = isa_address(&in->mem, w->layout, t, r->th.regs);
            if (isa_access_check(w->layout, addr, in->size) != ISA_FAULT_NONE) {
                isa_thread_step(&sw, t);
                finish(r, GNEXT_FAULT);
                break;
            }
            if (!gworld_access(w, addr, in->size, r->locs, &r->nb)) {
                /* a block turned mixed: the search starts again (w->restart) */
                g_snprintf(out->why, sizeof out->why, "restart");
                finish(r, GNEXT_REFUSED);
                break;
            }
            r->esize = r->nb > 1 ? 1 : in->size;
            r->op_addr = addr;
            gboolean reads = in->op == OP_LD || in->op == OP_LDX || isa_op_is_rmw(in->op);
            gboolean wanted = FALSE;
            for (guint i = 0; reads && i < r->nb && !wanted; i++) {
                begin_event(r, in, MM_READ, r->locs[i], addr + i);
                r->cur.ev.size = (guint8)r->esize;
                r->cur.ev.flags = mm_insn_read_flags(in);
                reach_read(r, r->k + i, &r->cur);
                wanted = r->k + i == nrecorded(r);
            }
            if (wanted) {
                out->ev = r->cur;
                finish(r, GNEXT_READ);
                break;
            }
            if (reads && in->op == OP_LDX) {
                r->last_ldx = (int)r->k;
                r->last_ldx_n = r->nb;
            }
            if (in->op == OP_STX) {
                gboolean can = r->th.monitor && r->th.has_ldx_line && r->th.ldx_line == addr / w->line_size &&
                               r->last_ldx >= 0;
                if (can && r->k == nrecorded(r)) {
                    /* the first byte decides: it succeeds, or the store-exclusive fails */
                    begin_event(r, in, MM_WRITE, r->locs[0], addr);
                    r->cur.ev.size = (guint8)r->esize;
                    r->cur.ev.flags = mm_insn_write_flags(in);
                    r->cur.ev.value = part_value(r, isa_src(&in->a, r->th.regs), in->size, 0);
                    r->cur.pair = pair_of(r, r->last_ldx, r->last_ldx_n, r->locs[0]);
                    GTaint none = { { 0 } };
                    reach_write(r, r->k, &r->cur, src_t(r, in->a), src_p(r, in->a), &none, &none);
                    out->ev = r->cur;
                    finish(r, GNEXT_STX);
                    break;
                }
                if (can && ggraph_ev(g, t, r->k)->marker == GEV_STX_FAIL) {
                    r->th.monitor = FALSE;
                    r->k++;
                }
            }
            begin_event(r, in, MM_WRITE, r->locs[0], addr);
            r->cur.ev.flags = mm_insn_write_flags(in);
            isa_thread_step(&sw, t);
            r->instance++;
            if (r->pending_write) {
                if (r->read_k >= 0) {
                    r->cur.pair = pair_of(r, r->read_k, r->nb, r->cur.ev.loc);
                    r->cur.amo = TRUE;
                } else if (in->op == OP_STX) {
                    r->cur.pair = pair_of(r, r->last_ldx, r->last_ldx_n, r->cur.ev.loc);
                }
            }
            if (in->op == OP_LDX)
                r->ldx_val = r->read_val;
            taint_memory(r, in);
            if (r->pending_write) {
                out->ev = r->cur;
                finish(r, GNEXT_WRITE);
                break;
            }
        } else if (in->op == OP_FENCE) {
            begin_event(r, in, MM_FENCE, -1, 0);
            r->cur.ev.fence = mm_insn_fence_kind(in);
            if (r->k == nrecorded(r)) {
                out->ev = r->cur;
                finish(r, GNEXT_FENCE);
                break;
            }
            r->k++;
            isa_thread_step(&sw, t);
            r->instance++;
        } else {
            GTaint ct = r->ctrl_t, cp = r->ctrl_p;
            if (in->op == OP_BR) {
                gt_or(&ct, src_t(r, in->a));
                gt_or(&ct, src_t(r, in->b));
                gt_or(&cp, src_p(r, in->a));
                gt_or(&cp, src_p(r, in->b));
            } else if (in->op == OP_LA) {
                GTaint none = { { 0 } };
                set_reg(r, in->rd, &none, &none);
            } else if (is_alu(in->op)) {
                taint_alu(r, in);
            }
            isa_thread_step(&sw, t);
            r->instance++;
            r->ctrl_t = ct;
            r->ctrl_p = cp;
        }
        /* a read-modify-write, or a store-exclusive, that wrote back what it (its ldx) read (a
         * test-and-set that found the lock taken) changes no value: spin-assume treats it as
         * writing nothing */
        gboolean paired = mem && ((isa_op_is_rmw(in->op) && r->read_k >= 0) || (in->op == OP_STX && r->last_ldx >= 0));
        uint64_t paired_val = isa_op_is_rmw(in->op) ? r->read_val : r->ldx_val;
        if (r->wrote && !(paired && r->write_val == paired_val))
            g_array_set_size(snaps, 0);
        if (r->th.state == THREAD_RUNNABLE && r->th.pc <= pc0 &&
            (in->op == OP_BR || in->op == OP_JMP)) {
            gboolean blocked = FALSE;
            for (guint s = 0; s < snaps->len && !blocked; s++) {
                const GSnap *sn = &g_array_index(snaps, GSnap, s);
                if (same_spot(&sn->th, &r->th)) {
                    out->block_from = sn->k;
                    blocked = TRUE;
                }
            }
            if (blocked) {
                finish(r, GNEXT_BLOCKED);
                break;
            }
            if (++back_jumps > w->unroll) {
                g_snprintf(out->why, sizeof out->why, "thread %u took %u backward jumps (--unroll %u)", t, back_jumps,
                           w->unroll);
                finish(r, GNEXT_BOUND);
                break;
            }
            GSnap sn = { r->th, r->k };
            g_array_append_val(snaps, sn);
        }
    }
    g_array_free(snaps, TRUE);
    g_free(r);
}
