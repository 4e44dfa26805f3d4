/* The ARMv8 model's section of the state: life, canonical form, bytes (see arm64_state.h). */
#include <string.h>
#include "sim/explore/arm64_state.h"

static void *arm_make(const ExploreWorld *w)
{
    ArmState *a = g_new0(ArmState, 1);
    gsize size = w->layout->size ? w->layout->size : 8;
    a->floor = g_memdup2(w->init, size);
    a->coh = g_new0(ArmView, size * w->nthreads);
    a->th = g_new0(ArmThread, w->nthreads);
    a->appended = TRUE;
    return a;
}

static void arm_free(void *p)
{
    ArmState *a = p;
    g_free(a->floor);
    g_free(a->coh);
    g_free(a->th);
    g_free(a);
}

static void arm_copy(const ExploreWorld *w, void *to, const void *from)
{
    ArmState *d = to;
    const ArmState *f = from;
    d->n = f->n;
    d->appended = f->appended;
    memcpy(d->msg, f->msg, f->n * sizeof f->msg[0]);
    memcpy(d->floor, f->floor, w->layout->size);
    memcpy(d->coh, f->coh, w->layout->size * w->nthreads);
    memcpy(d->th, f->th, w->nthreads * sizeof f->th[0]);
}

guint8 arm_byte(const ExploreWorld *w, const ArmState *a, guint ts, uint64_t addr)
{
    if (ts == 0)
        return a->floor[addr - w->layout->base];
    const ArmMsg *m = &a->msg[ts - 1];
    return (guint8)(m->value >> (8 * (addr - m->addr)));
}

/* ======================================================================= canonical form */

/* Every view v becomes the number of messages kept at or below it, message `ts` going. */
static ArmView shift(ArmView v, guint ts) { return v >= ts ? (ArmView)(v - 1) : v; }

static void drop(const ExploreWorld *w, ArmState *a, guint ts)
{
    gsize size = w->layout->size;
    for (gsize k = 0; k < size * w->nthreads; k++)
        a->coh[k] = shift(a->coh[k], ts);
    for (guint t = 0; t < w->nthreads; t++) {
        ArmThread *th = &a->th[t];
        for (guint r = 0; r < w->nregs; r++) {
            th->reg[r] = shift(th->reg[r], ts);
            th->pick[r] = shift(th->pick[r], ts);
        }
        ArmView *v[] = { &th->vrold, &th->vrold_ret, &th->vwold, &th->vrnew, &th->vwnew, &th->vcap, &th->vrel,
                         &th->xcl_ts, &th->xcl_view };
        for (guint k = 0; k < G_N_ELEMENTS(v); k++)
            *v[k] = shift(*v[k], ts);
    }
    for (guint k = 0; k < a->n; k++)
        a->msg[k].fwd = shift(a->msg[k].fwd, ts);
    memmove(&a->msg[ts - 1], &a->msg[ts], (a->n - ts) * sizeof a->msg[0]);
    a->n--;
}

/* The least coherence view of byte addr over the threads. */
static ArmView min_coh(const ExploreWorld *w, ArmState *a, uint64_t addr)
{
    ArmView m = G_MAXUINT8;
    for (guint t = 0; t < w->nthreads; t++)
        m = MIN(m, arm_coh(w, a, t)[addr - w->layout->base]);
    return m;
}

/* Whether some thread's exclusive bank reaches back before message ts on the line of its ldx
 * (its stx checks the writes to its bytes after its ldx's read, and succeeds only on that
 * line, so those writes must stay; writes to other lines it never looks at). */
static gboolean exclusive_before(const ExploreWorld *w, const ExploreState *s, guint ts)
{
    const ArmState *a = arm_of(s);
    const ArmMsg *m = &a->msg[ts - 1];
    for (guint t = 0; t < w->nthreads; t++)
        if (a->th[t].xcl && a->th[t].xcl_ts < ts &&
            (!s->th[t].has_ldx_line || s->th[t].ldx_line == m->addr / w->line_size ||
             s->th[t].ldx_line == (m->addr + m->size - 1) / w->line_size))
            return TRUE;
    return FALSE;
}

/* Message ts can never be read again: on each of its bytes a later write that every thread's
 * coherence view has reached. */
static gboolean dead(const ExploreWorld *w, const ExploreState *s, guint ts)
{
    ArmState *a = arm_of(s);
    const ArmMsg *m = &a->msg[ts - 1];
    if (m->promised || exclusive_before(w, s, ts))
        return FALSE;
    for (uint64_t b = m->addr; b < m->addr + m->size; b++) {
        guint next = 0;
        for (guint j = ts + 1; j <= a->n && !next; j++)
            if (arm_covers(&a->msg[j - 1], b))
                next = j;
        if (!next || min_coh(w, a, b) < next)
            return FALSE;
    }
    return TRUE;
}

/* The first message, seen by every thread on each of its bytes, can be the floor. */
static gboolean foldable(const ExploreWorld *w, const ExploreState *s)
{
    ArmState *a = arm_of(s);
    const ArmMsg *m = &a->msg[0];
    if (m->promised || exclusive_before(w, s, 1))
        return FALSE;
    for (uint64_t b = m->addr; b < m->addr + m->size; b++)
        if (min_coh(w, a, b) < 1)
            return FALSE;
    return TRUE;
}

/* Messages ts - 1 and ts are one write twice: adjacent, the same thread, bytes, value, kind and
 * forward view, neither promised, and no exclusive bank reaching back before ts (a stx must
 * still see that a write came between its ldx and itself).  Reading either gives the same
 * value, and a view at one or the other differs only on the other, so the two are one. */
static gboolean repeated(const ExploreWorld *w, const ExploreState *s, guint ts)
{
    const ArmState *a = arm_of(s);
    const ArmMsg *p = &a->msg[ts - 2], *m = &a->msg[ts - 1];
    return p->addr == m->addr && p->size == m->size && p->value == m->value && p->tid == m->tid &&
           p->ex == m->ex && p->fwd == m->fwd && !p->promised && !m->promised && !exclusive_before(w, s, ts);
}

/* A floor byte no thread can read (each one's coherence view there has reached a message of
 * it) goes back to the initial image: what it held can no longer change anything. */
static void unreadable_floor(const ExploreWorld *w, ArmState *a)
{
    for (guint j = 1; j <= a->n; j++) {
        const ArmMsg *m = &a->msg[j - 1];
        for (uint64_t b = m->addr; b < m->addr + m->size; b++) {
            gsize k = b - w->layout->base;
            if (a->floor[k] != w->init[k] && min_coh(w, a, b) >= j)
                a->floor[k] = w->init[k];
        }
    }
}

void arm_compact(const ExploreWorld *w, ExploreState *s)
{
    ArmState *a = arm_of(s);
    for (guint ts = a->n; ts >= 2; ts--)
        if (repeated(w, s, ts))
            drop(w, a, ts);
    for (guint ts = a->n; ts >= 1; ts--)
        if (ts < a->n && dead(w, s, ts))
            drop(w, a, ts);
    while (a->n && foldable(w, s)) {
        const ArmMsg *m = &a->msg[0];
        for (unsigned b = 0; b < m->size; b++)
            a->floor[m->addr - w->layout->base + b] = (guint8)(m->value >> (8 * b));
        drop(w, a, 1);
    }
    unreadable_floor(w, a);
}

/* A thread's views count only the messages it could still miss.  Every comparison a rule makes
 * with a view of thread t asks whether a write of some byte b lies at or below it: for a read of
 * b (joined with t's coherence view of b there), or for the fulfilment of t's own promise.  So a
 * message that covers none of t's promises and on each of whose bytes t's coherence view
 * has reached it already decides no comparison: every view of t (and the forward views of its
 * messages) can drop to the newest message below it that is not so.  The lowering keeps joins
 * (it is the largest such message at or below the view), so the thread behaves the same, and
 * states that differ only in which of those messages a view reached are one. */
static void lower_views(const ExploreWorld *w, ArmState *a, guint t)
{
    ArmView low[ARM_MAX_MSGS + 1];
    const ArmView *coh = arm_coh(w, a, t);
    low[0] = 0;
    for (guint j = 1; j <= a->n; j++) {
        const ArmMsg *m = &a->msg[j - 1];
        gboolean missable = m->promised && m->tid == t;
        for (uint64_t b = m->addr; b < m->addr + m->size && !missable; b++)
            missable = coh[b - w->layout->base] < j;
        low[j] = missable ? (ArmView)j : low[j - 1];
    }
    ArmThread *th = &a->th[t];
    for (guint r = 0; r < w->nregs; r++) {
        th->reg[r] = low[MIN(th->reg[r], a->n)];
        th->pick[r] = low[MIN(th->pick[r], a->n)];
    }
    ArmView *v[] = { &th->vrold, &th->vrold_ret, &th->vwold, &th->vrnew, &th->vwnew, &th->vcap, &th->vrel,
                     &th->xcl_view };
    for (guint k = 0; k < G_N_ELEMENTS(v); k++)
        *v[k] = low[MIN(*v[k], a->n)];
    for (guint j = 0; j < a->n; j++)
        if (a->msg[j].tid == t)
            a->msg[j].fwd = low[MIN(a->msg[j].fwd, a->n)];
}

/* A byte thread t will never read again (explore_reads.h) takes t's coherence view there to the
 * newest message.  Only t's reads of the byte compare with that view, and its writes: a new
 * write comes after every message anyway, and a promise of the byte (whose fulfilment is the
 * one write that compares) keeps the view as it is.  So t behaves the same, and the byte's old
 * messages can go once the other threads have passed them. */
static void unread_seen(const ExploreWorld *w, ArmState *a, guint t, const ExploreThread *th)
{
    ArmView *coh = arm_coh(w, a, t);
    uint64_t may[w->reads->words];
    explore_reads_of(w->reads, t, (guint)th->pc, th->stack, MIN(th->depth, (guint)ISA_CALL_DEPTH), may);
    /* The views of t's promised bytes, put back after. */
    struct { gsize at; ArmView v; } kept[ARM_MAX_MSGS * 8];
    guint nkept = 0;
    for (guint j = 0; j < a->n; j++) {
        const ArmMsg *m = &a->msg[j];
        if (m->promised && m->tid == t)
            for (uint64_t b = m->addr; b < m->addr + m->size && nkept < G_N_ELEMENTS(kept); b++) {
                kept[nkept].at = b - w->layout->base;
                kept[nkept++].v = coh[b - w->layout->base];
            }
    }
    for (gsize k = 0; k < w->reads->words; k++)
        for (uint64_t unread = ~may[k]; unread; unread &= unread - 1) {
            gsize b = k * 64 + (gsize)__builtin_ctzll(unread);
            if (b < w->layout->size)
                coh[b] = (ArmView)a->n;
        }
    for (guint k = 0; k < nkept; k++)
        coh[kept[k].at] = kept[k].v;
}

static void arm_canonicalize(const ExploreWorld *w, ExploreState *s)
{
    ArmState *a = arm_of(s);
    guint n = w->p->insns->len;
    for (guint t = 0; t < w->nthreads; t++) {
        const ExploreThread *th = &s->th[t];
        if (th->state == THREAD_FAULT || th->pc < 0 || (guint)th->pc >= n)
            continue;
        for (guint r = 0; r < w->nregs; r++)
            if (!(w->live[th->pc] & isa_reg_bit((int)r)))
                a->th[t].reg[r] = a->th[t].pick[r] = 0;
        if (th->state == THREAD_HALTED) {
            /* It reads and writes no more: only its registers' values can matter. */
            ArmThread *at = &a->th[t];
            at->vrold = at->vrold_ret = at->vwold = at->vrnew = at->vwnew = at->vcap = at->vrel = 0;
            at->xcl = FALSE;
            at->xcl_ts = at->xcl_view = 0;
            memset(arm_coh(w, a, t), (int)a->n, w->layout->size);
        } else {
            unread_seen(w, a, t, th);
        }
    }
    arm_compact(w, s);
    for (guint t = 0; t < w->nthreads; t++)
        lower_views(w, a, t);
}

/* ======================================================================= bytes */

#define put_varint explore_put_varint
#define get_varint explore_get_varint

static void put_byte(GByteArray *out, guint8 b) { g_byte_array_append(out, &b, 1); }

static void encode_thread(const ExploreWorld *w, const ArmState *a, guint t, GByteArray *out)
{
    const ArmThread *th = &a->th[t];
    guint8 v[] = { th->vrold, th->vrold_ret, th->vwold, th->vrnew, th->vwnew, th->vcap, th->vrel };
    g_byte_array_append(out, v, sizeof v);
    put_byte(out, (guint8)th->xcl);
    if (th->xcl) {
        put_byte(out, th->xcl_ts);
        put_byte(out, th->xcl_view);
    }
    for (const ArmView *views = th->reg;; views = th->pick) {
        IsaRegMask mask = 0;
        for (guint r = 0; r < w->nregs; r++)
            if (views[r])
                mask |= isa_reg_bit((int)r);
        put_varint(out, mask);
        for (guint r = 0; r < w->nregs; r++)
            if (views[r])
                put_byte(out, views[r]);
        if (views == th->pick)
            break;
    }
    /* coh in runs of one view (a variable's bytes share theirs): gap from the last run's end, length, view. */
    const ArmView *coh = a->coh + (gsize)t * w->layout->size;
    gsize size = w->layout->size, end = 0;
    for (gsize k = 0; k < size;) {
        if (!coh[k]) {
            k++;
            continue;
        }
        gsize run = 1;
        while (k + run < size && coh[k + run] == coh[k])
            run++;
        guint8 rec[24];
        guint n = explore_varint_into(rec, k - end + 1);
        n += explore_varint_into(rec + n, run);
        rec[n++] = coh[k];
        g_byte_array_append(out, rec, n);
        k += run;
        end = k;
    }
    put_varint(out, 0);
}

static void arm_encode(const ExploreWorld *w, const ExploreState *s, GByteArray *out)
{
    const ArmState *a = arm_of(s);
    uint64_t base = w->layout->base;
    put_byte(out, (guint8)a->appended);
    put_varint(out, a->n);
    for (guint k = 0; k < a->n; k++) {
        const ArmMsg *m = &a->msg[k];
        put_varint(out, m->addr - base);
        put_byte(out, m->size);
        put_varint(out, m->value);
        put_byte(out, m->tid);
        put_byte(out, (guint8)(m->promised | m->ex << 1 | m->needed << 2));
        put_byte(out, m->fwd);
    }
    int64_t prev = -1;
    for (gsize k = 0; k < w->layout->size; k++)
        if (a->floor[k] != w->init[k]) {
            put_varint(out, (uint64_t)((int64_t)k - prev));
            put_byte(out, a->floor[k]);
            prev = (int64_t)k;
        }
    put_varint(out, 0);
    for (guint t = 0; t < w->nthreads; t++)
        encode_thread(w, a, t, out);
}

static void decode_thread(const ExploreWorld *w, ArmState *a, guint t, const guint8 **at)
{
    ArmThread *th = &a->th[t];
    memset(th, 0, sizeof *th);
    ArmView *v[] = { &th->vrold, &th->vrold_ret, &th->vwold, &th->vrnew, &th->vwnew, &th->vcap, &th->vrel };
    for (guint k = 0; k < G_N_ELEMENTS(v); k++)
        *v[k] = *(*at)++;
    th->xcl = *(*at)++;
    if (th->xcl) {
        th->xcl_ts = *(*at)++;
        th->xcl_view = *(*at)++;
    }
    for (ArmView *views = th->reg;; views = th->pick) {
        IsaRegMask mask = get_varint(at);
        for (guint r = 0; r < w->nregs; r++)
            if (mask & isa_reg_bit((int)r))
                views[r] = *(*at)++;
        if (views == th->pick)
            break;
    }
    ArmView *coh = arm_coh(w, a, t);
    memset(coh, 0, w->layout->size);
    gsize end = 0;
    for (uint64_t d; (d = get_varint(at)) != 0;) {
        gsize k = end + (gsize)d - 1, run = (gsize)get_varint(at);
        memset(coh + k, *(*at)++, run);
        end = k + run;
    }
}

static void arm_decode(const ExploreWorld *w, ExploreState *s, const guint8 **at)
{
    ArmState *a = arm_of(s);
    uint64_t base = w->layout->base;
    a->appended = *(*at)++;
    a->n = (guint)get_varint(at);
    for (guint k = 0; k < a->n; k++) {
        ArmMsg *m = &a->msg[k];
        m->addr = base + get_varint(at);
        m->size = *(*at)++;
        m->value = get_varint(at);
        m->tid = *(*at)++;
        guint8 f = *(*at)++;
        m->promised = f & 1;
        m->ex = (f >> 1) & 1;
        m->needed = (f >> 2) & 1;
        m->fwd = *(*at)++;
        m->pc = -1;
        m->step = 0;
    }
    memcpy(a->floor, w->init, w->layout->size);
    int64_t k = -1;
    for (uint64_t d; (d = get_varint(at)) != 0;) {
        k += (int64_t)d;
        a->floor[k] = *(*at)++;
    }
    for (guint t = 0; t < w->nthreads; t++)
        decode_thread(w, a, t, at);
}

extern void *explore_arm64_scratch_new(const ExploreWorld *w);
extern void explore_arm64_scratch_free(void *p);

const ExploreStateExt explore_arm64_ext = {
    .make = arm_make,
    .free = arm_free,
    .copy = arm_copy,
    .canonicalize = arm_canonicalize,
    .encode = arm_encode,
    .decode = arm_decode,
    .world_new = explore_arm64_scratch_new,
    .world_free = explore_arm64_scratch_free,
};
