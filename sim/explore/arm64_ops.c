/* The ARMv8 model's steps: each op's reads, writes and views, by the rules written at the top
 * of model_arm64.c.  An op with several outcomes (which message a read takes, a new write or
 * the fulfilment of a promise, a stx that fails) has them in a fixed order, listed by
 * `outcomes`, so a move names one by its index. */
#include <string.h>
#include "sim/explore/arm64_ops.h"
#include "sim/explore/arm64_state.h"
#include "sim/explore/explore_exec.h"
#include "cores/isa/isa_exec.h"
#include "cores/isa/isa_fault.h"

#define ARM_MAX_PICKS 512
#define WRITE_NONE G_MAXUINT     /* the op writes nothing (a read; a failed cas or stx) */
#define WRITE_NEW 0u             /* a new message after every other */

/* Which message each byte of a read takes (0: the floor). */
typedef struct {
    ArmView ts[8];
} Pick;

typedef struct {
    guint pick;                /* index into the read's picks */
    guint write;               /* WRITE_NONE, WRITE_NEW, or k: fulfils message k (its promise) */
} ArmOutcome;

static inline ArmView vmax(ArmView a, ArmView b) { return a > b ? a : b; }
static ArmView reg_view(const ArmThread *th, int reg) { return reg == ISA_NO_REG ? 0 : th->reg[reg]; }
static ArmView src_view(const ArmThread *th, const IsaSrc *s) { return reg_view(th, s->reg); }
static ArmView reg_pick(const ArmThread *th, int reg) { return reg == ISA_NO_REG ? 0 : th->pick[reg]; }
/* What a register orders before a later write: its dependencies, picked ones included. */
static ArmView reg_all(const ArmThread *th, int reg) { return vmax(reg_view(th, reg), reg_pick(th, reg)); }

/* ======================================================================= reads */

static gboolean acquire(const IsaInsn *i) { return i->order == ORD_ACQ || i->order == ORD_ACQREL; }
static gboolean release(const IsaInsn *i) { return i->order == ORD_REL || i->order == ORD_ACQREL; }

static ArmView read_pre(const ArmThread *th, const IsaInsn *i)
{
    ArmView pre = vmax(reg_view(th, i->mem.base), th->vrnew);
    /* LDAR (not LDAPR) waits for the thread's release writes: [L]; po; [A]. */
    if (acquire(i) && !(i->mm & ISA_MM_ACQ_PC))
        pre = vmax(pre, th->vrel);
    return pre;
}

/* Whether byte b may read message ts: no write of b newer than ts at or below `upto`. */
static gboolean readable(const ArmState *a, guint t, uint64_t b, guint ts, ArmView upto)
{
    if (ts && (!arm_covers(&a->msg[ts - 1], b) || (a->msg[ts - 1].promised && a->msg[ts - 1].tid == t)))
        return FALSE;
    for (guint j = ts + 1; j <= upto && j <= a->n; j++)
        if (arm_covers(&a->msg[j - 1], b))
            return FALSE;
    return TRUE;
}

/* Single-copy atomicity: no write whose bytes the read takes in part and in part older ones. */
static gboolean atomic_pick(const ArmState *a, uint64_t addr, unsigned size, const Pick *p)
{
    for (guint j = 1; j <= a->n; j++) {
        const ArmMsg *m = &a->msg[j - 1];
        int seen = -1;
        for (unsigned b = 0; b < size; b++) {
            if (!arm_covers(m, addr + b))
                continue;
            int after = p->ts[b] >= j;
            if (seen >= 0 && seen != after)
                return FALSE;
            seen = after;
        }
    }
    return TRUE;
}

/* atomic_pick on bytes 0..b, given it holds on 0..b - 1: the choices are pruned as they are
 * made (an 8-byte read with a few messages per byte has thousands of byte-wise choices and only
 * a few atomic ones). */
static gboolean atomic_so_far(const ArmState *a, uint64_t addr, unsigned b, const Pick *p)
{
    for (guint j = 1; j <= a->n; j++) {
        const ArmMsg *m = &a->msg[j - 1];
        if (!arm_covers(m, addr + b))
            continue;
        int after = p->ts[b] >= j;
        for (unsigned c = 0; c < b; c++)
            if (arm_covers(m, addr + c) && (p->ts[c] >= j) != after)
                return FALSE;
    }
    return TRUE;
}

static void picks_from(const ExploreWorld *w, const ArmState *a, guint t, uint64_t addr, unsigned size,
                       ArmView pre, unsigned b, Pick *cur, GArray *out, gboolean *bounded)
{
    if (b == size) {
        if (!atomic_pick(a, addr, size, cur))
            return;
        if (out->len >= ARM_MAX_PICKS) {
            *bounded = TRUE;
            return;
        }
        g_array_append_val(out, *cur);
        return;
    }
    const ArmView *coh = arm_coh(w, (ArmState *)a, t);
    ArmView upto = vmax(pre, coh[addr + b - w->layout->base]);
    for (guint ts = 0; ts <= a->n; ts++)
        if (readable(a, t, addr + b, ts, upto)) {
            cur->ts[b] = (ArmView)ts;
            if (atomic_so_far(a, addr, b, cur))
                picks_from(w, a, t, addr, size, pre, b + 1, cur, out, bounded);
        }
}

/* The thread's own last write to byte b that it has made (the forward bank), or 0. */
static guint own_last(const ArmState *a, guint t, uint64_t b)
{
    for (guint j = a->n; j >= 1; j--) {
        const ArmMsg *m = &a->msg[j - 1];
        if (m->tid == t && !m->promised && arm_covers(m, b))
            return j;
    }
    return 0;
}

/* A pick's value and post view. */
static uint64_t pick_value(const ExploreWorld *w, const ArmState *a, guint t, const IsaInsn *i, uint64_t addr,
                           const Pick *p, ArmView pre, ArmView *post)
{
    uint64_t v = 0;
    ArmView view = pre;
    for (unsigned b = 0; b < i->size; b++) {
        guint ts = p->ts[b];
        v |= (uint64_t)arm_byte(w, a, ts, addr + b) << (8 * b);
        const ArmMsg *m = ts ? &a->msg[ts - 1] : NULL;
        /* Forwarded from its own last write: that write's address and data views, unless an
         * acquire reads an exclusive write ([M]; rmw; lmrs; [A | Q]). */
        if (m && own_last(a, t, addr + b) == ts && !(m->ex && acquire(i)))
            view = vmax(view, m->fwd);
        else
            view = vmax(view, (ArmView)ts);
    }
    *post = view;
    return v;
}

static void read_effects(const ExploreWorld *w, ArmState *a, guint t, const IsaInsn *i, uint64_t addr, ArmView post)
{
    ArmThread *th = &a->th[t];
    ArmView *coh = arm_coh(w, a, t);
    for (unsigned b = 0; b < i->size; b++)
        coh[addr + b - w->layout->base] = vmax(coh[addr + b - w->layout->base], post);
    th->vrold = vmax(th->vrold, post);
    if (!(i->mm & ISA_MM_NORET))
        th->vrold_ret = vmax(th->vrold_ret, post);
    if (acquire(i)) {
        th->vrnew = vmax(th->vrnew, post);
        th->vwnew = vmax(th->vwnew, post);
    }
    th->vcap = vmax(th->vcap, reg_all(th, i->mem.base));
}

/* ======================================================================= writes */

typedef struct {
    uint64_t addr, value;
    unsigned size;
    ArmView vaddr, vdata, vread;   /* vread: an exclusive's or atomic's read post view */
    ArmView vpick;                 /* orders the write and later writes, not forwarded (pick dependencies) */
    ArmView vcmp;                  /* a cas's compare value: orders its write only */
    ArmView fwd;                   /* what a read forwarded from it gets (its real address and data dependencies) */
    gboolean rel, excl;
    const ArmView *rts;            /* per byte: the timestamp its read took (exclusive/atomic), or NULL */
} WriteReq;

static ArmView write_pre(const ArmThread *th, const WriteReq *q)
{
    ArmView pre = vmax(vmax(q->vaddr, q->vdata), vmax(th->vcap, th->vwnew));
    pre = vmax(pre, vmax(q->vpick, q->vcmp));
    if (q->rel)
        pre = vmax(pre, vmax(th->vrold, th->vwold));
    return vmax(pre, q->vread);
}

/* Whether the write may take timestamp ts. */
static gboolean write_ok(const ExploreWorld *w, const ArmState *a, guint t, const WriteReq *q, guint ts)
{
    const ArmThread *th = &a->th[t];
    if (write_pre(th, q) >= ts)
        return FALSE;
    const ArmView *coh = arm_coh(w, (ArmState *)a, t);
    for (unsigned b = 0; b < q->size; b++) {
        uint64_t at = q->addr + b;
        if (coh[at - w->layout->base] >= ts)
            return FALSE;
        if (!q->rts)
            continue;
        if (q->rts[b] >= ts)
            return FALSE;
        for (guint j = q->rts[b] + 1; j < ts; j++)
            if (a->msg[j - 1].tid != t && arm_covers(&a->msg[j - 1], at))
                return FALSE;
    }
    return TRUE;
}

/* Appends the ways the write can be made: a new message, or the fulfilment of a promise. */
static void write_outcomes(const ExploreWorld *w, const ArmState *a, guint t, const WriteReq *q, guint pick,
                           GArray *out, gboolean *bounded)
{
    if (a->n >= ARM_MAX_MSGS)
        *bounded = TRUE;
    else if (write_ok(w, a, t, q, a->n + 1))
        g_array_append_val(out, ((ArmOutcome){ pick, WRITE_NEW }));
    for (guint j = 1; j <= a->n; j++) {
        const ArmMsg *m = &a->msg[j - 1];
        if (m->promised && m->needed && m->tid == t && m->addr == q->addr && m->size == q->size &&
            m->value == q->value && write_ok(w, a, t, q, j))
            g_array_append_val(out, ((ArmOutcome){ pick, j }));
    }
}

static void note_why(ExploreNote *note, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void note_why(ExploreNote *note, const char *fmt, ...)
{
    if (!note || note->terse)
        return;
    gsize len = strlen(note->why);
    va_list ap;
    va_start(ap, fmt);
    g_vsnprintf(note->why + len, sizeof note->why - len, fmt, ap);
    va_end(ap);
}

static const char *sep(const ExploreNote *note) { return note && note->why[0] ? "; " : ""; }

static guint write_make(const ExploreWorld *w, ExploreState *s, guint t, const WriteReq *q, guint how, int32_t pc,
                        ExploreNote *note)
{
    ArmState *a = arm_of(s);
    ArmThread *th = &a->th[t];
    guint ts = how;
    if (how == WRITE_NEW) {
        ts = a->n + 1;
        a->msg[a->n++] = (ArmMsg){ .addr = q->addr, .value = q->value, .size = (uint8_t)q->size, .tid = (uint8_t)t,
                                   .pc = pc };
        explore_mem_store(w, s, t, q->addr, q->size, q->value, note);
        note_why(note, "%sa new write, after every write in memory now", sep(note));
    } else {
        a->msg[ts - 1].promised = a->msg[ts - 1].needed = FALSE;
        a->msg[ts - 1].pc = pc;
        if (note) {
            note->wrote = TRUE;
            note->waddr = q->addr;
            note->wsize = q->size;
            note->wvalue = q->value;
        }
        note_why(note, "%sfulfils T%u's promise of it (%u write%s in memory now after it)", sep(note), t, a->n - ts,
                 a->n - ts == 1 ? "" : "s");
    }
    ArmMsg *m = &a->msg[ts - 1];
    m->ex = q->excl;
    m->fwd = q->fwd;
    ArmView *coh = arm_coh(w, a, t);
    for (unsigned b = 0; b < q->size; b++)
        coh[q->addr + b - w->layout->base] = (ArmView)ts;
    th->vwold = vmax(th->vwold, (ArmView)ts);
    th->vcap = vmax(th->vcap, vmax(q->vaddr, q->vpick));
    if (q->rel)
        th->vrel = vmax(th->vrel, (ArmView)ts);
    return ts;
}

/* ======================================================================= outcomes */

static gboolean address_of(const ExploreWorld *w, const ExploreState *s, guint t, const IsaInsn *i, uint64_t *addr)
{
    if (!isa_op_info[i->op].is_load && !isa_op_info[i->op].is_store)
        return FALSE;
    *addr = isa_address(&i->mem, w->layout, t, s->th[t].regs);
    return isa_access_check(w->layout, *addr, i->size) == ISA_FAULT_NONE;
}

static gboolean stx_may_succeed(const ExploreWorld *w, const ExploreState *s, guint t, uint64_t addr)
{
    const ExploreThread *th = &s->th[t];
    return arm_of(s)->th[t].xcl && th->has_ldx_line && th->ldx_line == addr / w->line_size;
}

/* What an atomic writes after reading `old`, and whether it writes. */
static gboolean rmw_write(const ExploreState *s, guint t, const IsaInsn *i, uint64_t old, uint64_t *nv)
{
    const uint64_t *r = s->th[t].regs;
    uint64_t a = isa_src(&i->a, r), b = isa_src(&i->b, r);
    if (!isa_rmw(i->op, old, i->op == OP_CAS ? isa_truncate(a, i->size) : a, b, nv))
        return FALSE;
    *nv = isa_truncate(*nv, i->size);
    return TRUE;
}

static WriteReq write_req(const ExploreState *s, guint t, const IsaInsn *i, uint64_t addr, uint64_t value)
{
    const ArmThread *th = &arm_of(s)->th[t];
    /* A cas writes b, compared with a (the compare orders the write but is no data dependency:
     * herd's CAS+data2); the others write a, or a combined with the old value. */
    const IsaSrc *data = i->op == OP_CAS ? &i->b : &i->a;
    int base = i->mem.base;
    WriteReq q = { .addr = addr, .value = value, .size = i->size, .vaddr = reg_view(th, base),
                   .vdata = src_view(th, data), .rel = release(i), .excl = i->op == OP_STX || isa_op_is_rmw(i->op) };
    q.vpick = vmax(reg_pick(th, base), reg_pick(th, data->reg));
    if (i->op == OP_CAS)
        q.vcmp = reg_all(th, i->a.reg);
    q.fwd = vmax(q.vaddr, q.vdata);
    return q;
}

/* An atomic's write after its read (post view): ordered after it (aob), and, but for a swap,
 * data-dependent on it (the new value comes from the old; herd's cas too). */
static void rmw_read_into(WriteReq *q, const IsaInsn *i, ArmView post)
{
    q->vread = post;
    if (i->op != OP_XCHG)
        q->fwd = vmax(q->fwd, post);
}

static void rmw_outcomes(const ExploreWorld *w, const ExploreState *s, guint t, const IsaInsn *i, uint64_t addr,
                         GArray *picks, GArray *out, gboolean *bounded)
{
    const ArmState *a = arm_of(s);
    ArmView pre = read_pre(&a->th[t], i);
    for (guint k = 0; k < picks->len; k++) {
        const Pick *p = &g_array_index(picks, Pick, k);
        ArmView post;
        uint64_t old = pick_value(w, a, t, i, addr, p, pre, &post), nv;
        if (!rmw_write(s, t, i, old, &nv)) {
            g_array_append_val(out, ((ArmOutcome){ k, WRITE_NONE }));
            continue;
        }
        WriteReq q = write_req(s, t, i, addr, nv);
        rmw_read_into(&q, i, post);
        q.rts = p->ts;
        /* The read's view is the thread's after it: join it in, as the read's effects will. */
        write_outcomes(w, a, t, &q, k, out, bounded);
    }
}

static void outcomes(const ExploreWorld *w, const ExploreState *s, guint t, GArray *picks, GArray *out,
                     gboolean *bounded)
{
    const ArmState *a = arm_of(s);
    const IsaInsn *i = explore_insn(w, s, t);
    uint64_t addr = 0;
    g_array_set_size(picks, 0);
    if (!i || !address_of(w, s, t, i, &addr) || i->op == OP_FUTEX_WAIT || i->op == OP_FUTEX_WAKE) {
        g_array_append_val(out, ((ArmOutcome){ 0, WRITE_NONE }));
        return;
    }
    if (isa_op_info[i->op].is_load) {
        Pick cur = { { 0 } };
        picks_from(w, a, t, addr, i->size, read_pre(&a->th[t], i), 0, &cur, picks, bounded);
    }
    switch (i->op) {
    case OP_LD: case OP_LDX:
        for (guint k = 0; k < picks->len; k++)
            g_array_append_val(out, ((ArmOutcome){ k, WRITE_NONE }));
        break;
    case OP_ST: {
        WriteReq q = write_req(s, t, i, addr, isa_truncate(isa_src(&i->a, s->th[t].regs), i->size));
        write_outcomes(w, a, t, &q, 0, out, bounded);
        break;
    }
    case OP_STX: {
        g_array_append_val(out, ((ArmOutcome){ 0, WRITE_NONE }));
        if (!stx_may_succeed(w, s, t, addr))
            break;
        const ArmThread *th = &a->th[t];
        WriteReq q = write_req(s, t, i, addr, isa_truncate(isa_src(&i->a, s->th[t].regs), i->size));
        ArmView rts[8];
        memset(rts, th->xcl_ts, sizeof rts);
        q.vread = th->xcl_view;
        q.rts = rts;
        write_outcomes(w, a, t, &q, 0, out, bounded);
        break;
    }
    default:
        g_assert(isa_op_is_rmw(i->op));
        rmw_outcomes(w, s, t, i, addr, picks, out, bounded);
        break;
    }
}

/* The scratch arrays of one listing (a fresh pair each time: certification nests). */
static guint list(const ExploreWorld *w, const ExploreState *s, guint t, gboolean *bounded, GArray **picks,
                  GArray **outs)
{
    *picks = g_array_new(FALSE, FALSE, sizeof(Pick));
    *outs = g_array_new(FALSE, FALSE, sizeof(ArmOutcome));
    outcomes(w, s, t, *picks, *outs, bounded);
    return (*outs)->len;
}

guint arm_step_count(const ExploreWorld *w, const ExploreState *s, guint t, gboolean *bounded, GArray *unused)
{
    (void)unused;
    GArray *picks, *outs;
    guint n = list(w, s, t, bounded, &picks, &outs);
    g_array_free(picks, TRUE);
    g_array_free(outs, TRUE);
    return n;
}

/* ======================================================================= performing one */

static void full_fence(ArmThread *th)
{
    ArmView v = vmax(th->vrold, th->vwold);
    th->vrnew = vmax(th->vrnew, v);
    th->vwnew = vmax(th->vwnew, v);
}

/* A read's account: which message, and a newer write it did not see (what the model let it miss). */
static void tell_read(const ExploreWorld *w, const ArmState *a, guint t, uint64_t addr, unsigned size, const Pick *p,
                      ExploreNote *note)
{
    if (!note || note->terse)
        return;
    guint ts = p->ts[0];
    if (ts)
        note_why(note, "%sread T%u's %swrite", sep(note), a->msg[ts - 1].tid, a->msg[ts - 1].promised ? "promised " : "");
    else
        note_why(note, "%sread the value before any write in memory now", sep(note));
    for (guint j = a->n; j > ts; j--) {
        const ArmMsg *m = &a->msg[j - 1];
        if (m->addr >= addr + size || addr >= m->addr + m->size || (m->promised && m->tid == t))
            continue;
        g_autofree char *sym = isa_layout_symbolize(w->p, w->layout, m->addr);
        note_why(note, "; T%u's newer write %s = %" G_GUINT64_FORMAT " (%s) was in memory but not visible to T%u: "
                 "nothing (an acquire, a DMB, a dependency) ordered this read after it", m->tid, sym ? sym : "?",
                 m->value, m->promised ? "promised" : "made", t);
        break;
    }
}

static void do_read(const ExploreWorld *w, ExploreState *s, guint t, const IsaInsn *i, uint64_t addr, const Pick *p,
                    uint64_t *value, ArmView *post, ExploreNote *note)
{
    ArmState *a = arm_of(s);
    ArmView pre = read_pre(&a->th[t], i);
    *value = pick_value(w, a, t, i, addr, p, pre, post);
    if (note) {
        note->read = TRUE;
        note->raddr = addr;
        note->rsize = i->size;
        note->rvalue = *value;
        memset(note->from_buffer, -1, sizeof note->from_buffer);
    }
    tell_read(w, a, t, addr, i->size, p, note);
    read_effects(w, a, t, i, addr, *post);
}

/* After a step of thread t that touched messages up to `hi` (G_MAXUINT: a futex op), the
 * promises of t older than it become needed: the step cannot move ahead of them. */
static void mark_needed(ArmState *a, guint t, guint hi)
{
    for (guint j = 1; j <= a->n && j < hi; j++)
        if (a->msg[j - 1].promised && a->msg[j - 1].tid == t)
            a->msg[j - 1].needed = TRUE;
}

/* A system call: fully ordered (DMB SY before and after), the futex word read at its last write. */
static void do_syscall(const ExploreWorld *w, ExploreState *s, guint t, const IsaInsn *i, ExploreNote *note)
{
    ArmState *a = arm_of(s);
    ArmThread *th = &a->th[t];
    full_fence(th);
    uint64_t addr = 0;
    if (i->op == OP_FUTEX_WAIT && address_of(w, s, t, i, &addr)) {
        ArmView *coh = arm_coh(w, a, t), last = 0;
        for (unsigned b = 0; b < 4; b++)
            for (guint j = a->n; j >= 1 && !last; j--)
                if (arm_covers(&a->msg[j - 1], addr + b))
                    last = vmax(last, (ArmView)j);
        for (unsigned b = 0; b < 4; b++)
            coh[addr + b - w->layout->base] = vmax(coh[addr + b - w->layout->base], last);
        th->vrold = vmax(th->vrold, last);
        th->vrold_ret = vmax(th->vrold_ret, last);
    }
    explore_exec_op(w, w->model, s, t, note);
    if (i->rd != ISA_NO_REG)
        th->reg[i->rd] = th->pick[i->rd] = 0;
    full_fence(th);
    mark_needed(a, t, G_MAXUINT);
}

/* An ldx that read a message older than another thread's write to its line, already in memory:
 * that write is coherence-after the ldx's read, so it clears the monitor the ldx armed and
 * sends the event, as it would had it appeared after (a wfe must not wait for it for ever). */
static void monitor_seen_cleared(const ExploreWorld *w, ExploreState *s, guint t)
{
    const ArmState *a = arm_of(s);
    ExploreThread *et = &s->th[t];
    for (guint j = (guint)a->th[t].xcl_ts + 1; j <= a->n; j++) {
        const ArmMsg *m = &a->msg[j - 1];
        if (m->tid != t && m->addr / w->line_size == et->ldx_line) {
            et->monitor = FALSE;
            et->event = TRUE;
            return;
        }
    }
}

static void do_memory_op(const ExploreWorld *w, ExploreState *s, guint t, const IsaInsn *i, uint64_t addr,
                         const Pick *p, ArmOutcome o, ExploreNote *note)
{
    ExploreThread *et = &s->th[t];
    ArmState *a = arm_of(s);
    ArmThread *th = &a->th[t];
    uint64_t *r = et->regs, value = 0;
    ArmView post = 0;
    if (isa_op_info[i->op].is_load)
        do_read(w, s, t, i, addr, p, &value, &post, note);
    if (i->op == OP_LD || i->op == OP_LDX) {
        r[i->rd] = value;
        th->reg[i->rd] = post;
        th->pick[i->rd] = 0;
    }
    if (i->op == OP_LDX) {
        th->xcl = TRUE;
        th->xcl_ts = 0;
        for (unsigned b = 0; b < i->size; b++)
            th->xcl_ts = vmax(th->xcl_ts, p->ts[b]);
        th->xcl_view = post;
        et->monitor = et->has_ldx_line = TRUE;
        et->ldx_line = addr / w->line_size;
        monitor_seen_cleared(w, s, t);
    }
    if (isa_op_is_rmw(i->op)) {
        uint64_t nv = 0;
        if (o.write != WRITE_NONE && rmw_write(s, t, i, value, &nv)) {
            WriteReq q = write_req(s, t, i, addr, nv);
            rmw_read_into(&q, i, post);
            guint ts = write_make(w, s, t, &q, o.write, et->pc, note);
            /* An acquire-release atomic orders everything after its write. */
            if (acquire(i) && release(i)) {
                th->vrnew = vmax(th->vrnew, (ArmView)ts);
                th->vwnew = vmax(th->vwnew, (ArmView)ts);
            }
        }
        /* A cas that succeeds leaves Rs with the value it had: herd gives it only a picked
         * dependency on the read, none on Rs's own (MP+rel+CAS-ok-MRs-addr, LB+rel+CAS-ok-RsRs-addr). */
        if (i->op == OP_CAS && value == isa_truncate(isa_src(&i->a, r), i->size)) {
            th->reg[i->rd] = 0;
            th->pick[i->rd] = post;
        } else {
            th->reg[i->rd] = post;
            th->pick[i->rd] = 0;
        }
        r[i->rd] = value;
    }
    if (i->op == OP_ST) {
        WriteReq q = write_req(s, t, i, addr, isa_truncate(isa_src(&i->a, r), i->size));
        write_make(w, s, t, &q, o.write, et->pc, note);
    }
    if (i->op == OP_STX) {
        if (o.write != WRITE_NONE) {
            WriteReq q = write_req(s, t, i, addr, isa_truncate(isa_src(&i->a, r), i->size));
            q.vread = th->xcl_view;
            write_make(w, s, t, &q, o.write, et->pc, note);
        } else {
            note_why(note, "%sthe store-exclusive fails", sep(note));
        }
        r[i->rd] = o.write == WRITE_NONE;
        th->reg[i->rd] = th->pick[i->rd] = 0;
        th->xcl = FALSE;
        th->xcl_ts = th->xcl_view = 0;
        et->monitor = FALSE;
    }
    et->pc++;
}

void arm_step(const ExploreWorld *w, ExploreState *s, guint t, guint k, ExploreNote *note)
{
    const IsaInsn *i = explore_insn(w, s, t);
    uint64_t addr = 0;
    if (note)
        note->pc = s->th[t].pc;
    if (!i || !address_of(w, s, t, i, &addr)) {
        if (i && isa_op_info[i->op].is_syscall)
            do_syscall(w, s, t, i, note);
        else if (i && !isa_op_info[i->op].is_load && !isa_op_info[i->op].is_store)
            arm_exec_local(w, s, t, note);
        else
            explore_exec_op(w, w->model, s, t, note); /* faults */
        return;
    }
    if (isa_op_info[i->op].is_syscall) {
        do_syscall(w, s, t, i, note);
        return;
    }
    gboolean bounded = FALSE;
    GArray *picks, *outs;
    list(w, s, t, &bounded, &picks, &outs);
    g_assert(k < outs->len);
    ArmOutcome o = g_array_index(outs, ArmOutcome, k);
    Pick p = picks->len ? g_array_index(picks, Pick, o.pick) : (Pick){ { 0 } };
    guint before = arm_of(s)->n, hi = 0;
    if (picks->len)
        for (unsigned b = 0; b < i->size; b++)
            hi = MAX(hi, p.ts[b]);
    if (o.write != WRITE_NONE && o.write != WRITE_NEW)
        hi = MAX(hi, o.write);
    do_memory_op(w, s, t, i, addr, &p, o, note);
    if (arm_of(s)->n > before || arm_alone(w))
        hi = G_MAXUINT;
    mark_needed(arm_of(s), t, hi);
    g_array_free(picks, TRUE);
    g_array_free(outs, TRUE);
}

gboolean arm_step_ok(const ExploreWorld *w, const ExploreState *s, guint t, guint k, gboolean *bounded)
{
    if (!arm_has_promise(s, t))
        return TRUE;
    ExploreState *n = explore_state_new(w);
    explore_state_copy(w, n, s);
    arm_step(w, n, t, k, NULL);
    explore_settle(w, w->model, n);
    gboolean ok = arm_certify(w, n, t, bounded);
    explore_state_free(n);
    return ok;
}

/* ======================================================================= local ops */

void arm_exec_local(const ExploreWorld *w, ExploreState *s, guint t, ExploreNote *note)
{
    const IsaInsn *i = explore_insn(w, s, t);
    ArmThread *th = &arm_of(s)->th[t];
    if (i) {
        ArmView ab = vmax(src_view(th, &i->a), src_view(th, &i->b));
        ArmView pab = vmax(reg_pick(th, i->a.reg), reg_pick(th, i->b.reg));
        switch (i->op) {
        case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL:
        case OP_SHR: case OP_MUL:
        case OP_SAR: case OP_SEXT: case OP_DIV: case OP_DIVU: case OP_REM: case OP_REMU: case OP_SEQ: case OP_SNE:
        case OP_SLT: case OP_SGE: case OP_SLTU: case OP_SGEU:
            if (i->op == OP_AND && (i->mm & ISA_MM_SELECT)) {
                /* Half of a CSEL: a, selected when the mask b (from the condition) is not 0:
                 * the selected operand is a real dependency, the condition a picked one. */
                gboolean chosen = isa_src(&i->b, s->th[t].regs) != 0;
                th->reg[i->rd] = chosen ? src_view(th, &i->a) : 0;
                th->pick[i->rd] = vmax(chosen ? reg_pick(th, i->a.reg) : 0, vmax(src_view(th, &i->b),
                                                                                  reg_pick(th, i->b.reg)));
            } else {
                th->reg[i->rd] = ab;
                th->pick[i->rd] = pab;
            }
            break;
        case OP_LA:
            th->reg[i->rd] = reg_view(th, i->rt);
            th->pick[i->rd] = reg_pick(th, i->rt);
            break;
        case OP_BR:
            th->vcap = vmax(th->vcap, vmax(ab, pab));
            break;
        case OP_FENCE:
            if (i->mm & ISA_MM_ISB) {
                th->vrnew = vmax(th->vrnew, th->vcap);
            } else if (i->fence == FENCE_FULL) {
                full_fence(th);
            } else if (i->fence == FENCE_LOAD) {
                th->vrnew = vmax(th->vrnew, th->vrold_ret);
                th->vwnew = vmax(th->vwnew, th->vrold_ret);
            } else {
                th->vwnew = vmax(th->vwnew, th->vwold);
            }
            break;
        default:
            break;
        }
    }
    explore_exec_op(w, w->model, s, t, note);
}
