/* The event queue: a binary min-heap of timed events keyed by (cycle, order), where order packs
 * (class, sub, sequence), beside per-cycle bitmaps of the tickers that tick now and next. */
#include "sim/base/engine.h"

/* order = class : 2 | sub : 22 | sequence : 40 */
#define ORD_SEQ_BITS 40
#define ORD_SUB_BITS 22
#define ORD_SEQ_MASK ((1ULL << ORD_SEQ_BITS) - 1)

typedef struct {
    Cycle when;
    guint64 ord;
    EventFn fn;
    void *obj;
    uint64_t arg;
} Event;

typedef struct {
    EventFn fn;
    void *obj;
    Cycle at;                   /* pending tick, CYCLE_NEVER: none */
} Ticker;

struct Engine {
    EngineClock clock;          /* first: engine_now() reads it inline */
    Event *heap;
    guint len, cap;
    guint64 next_seq;
    guint64 seed;
    guint64 events_run;
    Ticker *tickers;
    guint ntickers;
    guint64 *ready_now, *ready_next; /* tickers with a tick at now, at now + 1 */
    guint nwords;
    guint nready_now, nready_next;
    gboolean running;
    EventPos pos;               /* the running event's */
};

static inline guint cls_of(guint64 ord) { return (guint)(ord >> (ORD_SEQ_BITS + ORD_SUB_BITS)); }
static inline guint sub_of(guint64 ord) { return (guint)(ord >> ORD_SEQ_BITS) & ((1u << ORD_SUB_BITS) - 1); }

Engine *engine_new(guint64 seed)
{
    Engine *e = g_new0(Engine, 1);
    e->cap = 64;
    e->heap = g_new(Event, e->cap);
    e->seed = seed;
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    g_free(e->heap);
    g_free(e->tickers);
    g_free(e->ready_now);
    g_free(e->ready_next);
    g_free(e);
}

guint64 engine_seed(const Engine *e) { return e->seed; }
guint64 engine_events_run(const Engine *e) { return e->events_run; }
guint engine_pending(const Engine *e) { return e->len + e->nready_now + e->nready_next; }

/* ==================== the heap ==================== */

static inline gboolean before(const Event *a, const Event *b)
{
    return a->when < b->when || (a->when == b->when && a->ord < b->ord);
}

static void push(Engine *e, Cycle when, guint64 ord, EventFn fn, void *obj, uint64_t arg)
{
    if (e->len == e->cap) {
        e->cap *= 2;
        e->heap = g_renew(Event, e->heap, e->cap);
    }
    Event ev = { when, ord, fn, obj, arg };
    guint i = e->len++;
    while (i > 0) {
        guint parent = (i - 1) / 2;
        if (!before(&ev, &e->heap[parent]))
            break;
        e->heap[i] = e->heap[parent];
        i = parent;
    }
    e->heap[i] = ev;
}

static Event pop(Engine *e)
{
    Event top = e->heap[0];
    Event last = e->heap[--e->len];
    guint i = 0, n = e->len;
    for (;;) {
        guint l = 2 * i + 1, m = l;
        if (l >= n)
            break;
        if (l + 1 < n && before(&e->heap[l + 1], &e->heap[l]))
            m = l + 1;
        if (!before(&e->heap[m], &last))
            break;
        e->heap[i] = e->heap[m];
        i = m;
    }
    if (n)
        e->heap[i] = last;
    return top;
}

static inline guint64 make_ord(Engine *e, guint cls, guint sub)
{
    g_assert(sub < (1u << ORD_SUB_BITS));
    guint64 seq = e->next_seq++;
    g_assert(seq <= ORD_SEQ_MASK);
    return ((guint64)cls << (ORD_SEQ_BITS + ORD_SUB_BITS)) | ((guint64)sub << ORD_SEQ_BITS) | seq;
}

void engine_schedule_class(Engine *e, Cycle when, EventClass cls, guint sub, EventFn fn, void *obj,
                           uint64_t arg)
{
    g_assert(when >= e->clock.now && cls != EV_TICK);
    push(e, when, make_ord(e, cls, sub), fn, obj, arg);
}

void engine_schedule_at(Engine *e, Cycle when, EventFn fn, void *obj, uint64_t arg)
{
    engine_schedule_class(e, when, EV_MEMORY, 0, fn, obj, arg);
}

void engine_schedule(Engine *e, Cycle delay, EventFn fn, void *obj, uint64_t arg)
{
    engine_schedule_class(e, e->clock.now + delay, EV_MEMORY, 0, fn, obj, arg);
}

/* ==================== tickers ==================== */

static inline void bit_set(guint64 *w, guint i) { w[i / 64] |= 1ULL << (i % 64); }
static inline void bit_clear(guint64 *w, guint i) { w[i / 64] &= ~(1ULL << (i % 64)); }
static inline gboolean bit_get(const guint64 *w, guint i) { return (w[i / 64] >> (i % 64)) & 1; }

void engine_ticker_set(Engine *e, guint id, EventFn fn, void *obj)
{
    if (id >= e->ntickers) {
        guint n = MAX(id + 1, e->ntickers * 2);
        guint words = (n + 63) / 64;
        e->tickers = g_renew(Ticker, e->tickers, n);
        for (guint i = e->ntickers; i < n; i++)
            e->tickers[i] = (Ticker){ NULL, NULL, CYCLE_NEVER };
        e->ready_now = g_renew(guint64, e->ready_now, words);
        e->ready_next = g_renew(guint64, e->ready_next, words);
        for (guint w = e->nwords; w < words; w++)
            e->ready_now[w] = e->ready_next[w] = 0;
        e->ntickers = n;
        e->nwords = words;
    }
    g_assert(id < (1u << ORD_SUB_BITS));
    e->tickers[id].fn = fn;
    e->tickers[id].obj = obj;
}

/* Forgets ticker t's pending tick; a heap entry for it goes stale (dropped when it surfaces). */
static void tick_unset(Engine *e, guint id)
{
    Ticker *t = &e->tickers[id];
    if (t->at == e->clock.now && bit_get(e->ready_now, id)) {
        bit_clear(e->ready_now, id);
        e->nready_now--;
    } else if (t->at == e->clock.now + 1 && bit_get(e->ready_next, id)) {
        bit_clear(e->ready_next, id);
        e->nready_next--;
    }
    t->at = CYCLE_NEVER;
}

void engine_tick_at(Engine *e, guint id, Cycle when)
{
    g_assert(id < e->ntickers && when >= e->clock.now);
    Ticker *t = &e->tickers[id];
    if (t->at <= when)
        return;
    tick_unset(e, id);
    t->at = when;
    if (when == e->clock.now) {
        bit_set(e->ready_now, id);
        e->nready_now++;
    } else if (when == e->clock.now + 1) {
        bit_set(e->ready_next, id);
        e->nready_next++;
    } else {
        push(e, when, ((guint64)EV_TICK << (ORD_SEQ_BITS + ORD_SUB_BITS)) | ((guint64)id << ORD_SEQ_BITS), NULL,
             NULL, id);
    }
}

void engine_tick_cancel(Engine *e, guint id)
{
    if (id < e->ntickers)
        tick_unset(e, id);
}

static inline gboolean heap_tick(const Event *ev) { return ev->fn == NULL; }

/* A heap tick is current while its ticker still wants that cycle and holds no bit for it. */
static inline gboolean tick_current(const Engine *e, const Event *ev)
{
    return e->tickers[ev->arg].at == ev->when;
}

/* Drops stale ticks from the top of the heap, so that its top is a real event. */
static void purge(Engine *e)
{
    while (e->len && heap_tick(&e->heap[0]) && !tick_current(e, &e->heap[0]))
        pop(e);
}

static guint lowest_ready(const Engine *e)
{
    for (guint w = 0; w < e->nwords; w++)
        if (e->ready_now[w])
            return w * 64 + (guint)__builtin_ctzll(e->ready_now[w]);
    g_assert_not_reached();
}

/* ==================== running ==================== */

static inline void run_event(Engine *e, Cycle when, guint cls, guint sub, EventFn fn, void *obj, uint64_t arg)
{
    e->pos = (EventPos){ when, cls, sub };
    e->running = TRUE;
    e->events_run++;
    fn(obj, arg);
    e->running = FALSE;
}

/* The cycle of the next event, CYCLE_NEVER when none. */
static Cycle next_cycle(Engine *e)
{
    if (e->nready_now)
        return e->clock.now;
    purge(e);
    Cycle t = e->len ? e->heap[0].when : CYCLE_NEVER;
    if (e->nready_next)
        t = MIN(t, e->clock.now + 1);
    return t;
}

/* Runs the least pending event if it is at or before `limit`. */
static gboolean run_next(Engine *e, Cycle limit)
{
    for (;;) {
        Cycle now = e->clock.now;
        purge(e);
        if (e->len && e->heap[0].when == now) {
            Event ev = pop(e);
            if (heap_tick(&ev)) {
                /* Its turn among this cycle's ticks comes by id, from the bitmap. */
                if (!bit_get(e->ready_now, (guint)ev.arg)) {
                    bit_set(e->ready_now, (guint)ev.arg);
                    e->nready_now++;
                }
                continue;
            }
            run_event(e, now, cls_of(ev.ord), sub_of(ev.ord), ev.fn, ev.obj, ev.arg);
            return TRUE;
        }
        if (e->nready_now) {
            guint id = lowest_ready(e);
            bit_clear(e->ready_now, id);
            e->nready_now--;
            Ticker *t = &e->tickers[id];
            t->at = CYCLE_NEVER;
            run_event(e, now, EV_TICK, id, t->fn, t->obj, id);
            return TRUE;
        }
        Cycle next = next_cycle(e);
        if (next == CYCLE_NEVER || next > limit)
            return FALSE;
        if (next == now + 1) {
            guint64 *w = e->ready_now;
            e->ready_now = e->ready_next;
            e->ready_next = w;
            e->nready_now = e->nready_next;
            e->nready_next = 0;
        }
        g_assert(e->nready_next == 0);
        e->clock.now = next;
    }
}

gboolean engine_step(Engine *e)
{
    return run_next(e, CYCLE_NEVER);
}

guint64 engine_run_until(Engine *e, Cycle limit)
{
    guint64 n = 0;
    while (run_next(e, limit))
        n++;
    if (e->clock.now < limit && limit != CYCLE_NEVER && !engine_idle(e))
        engine_advance(e, limit);
    return n;
}

void engine_advance(Engine *e, Cycle when)
{
    if (when <= e->clock.now)
        return;
    g_assert(next_cycle(e) >= when); /* CYCLE_NEVER when idle */
    if (when == e->clock.now + 1) {
        guint64 *w = e->ready_now;
        e->ready_now = e->ready_next;
        e->ready_next = w;
        e->nready_now = e->nready_next;
        e->nready_next = 0;
    } else {
        /* Ticks wanted at now + 1 < when would have run first. */
        g_assert(e->nready_next == 0);
    }
    e->clock.now = when;
}

gboolean engine_idle(const Engine *e)
{
    return next_cycle((Engine *)e) == CYCLE_NEVER;
}

Cycle engine_next_cycle(const Engine *e)
{
    return next_cycle((Engine *)e);
}

EventPos engine_position(const Engine *e)
{
    if (e->running)
        return e->pos;
    return (EventPos){ e->clock.now + 1, EV_MEMORY, 0 };
}

/* splitmix64 over an FNV-1a hash of the component name: stable across hosts and GLib versions. */
guint32 qsim_seed_mix(guint64 seed, const char *component, guint index)
{
    guint64 h = 1469598103934665603ULL;
    for (const char *p = component; p && *p; p++) {
        h ^= (guchar)*p;
        h *= 1099511628211ULL;
    }
    guint64 z = seed ^ h ^ ((guint64)index * 0x9E3779B97F4A7C15ULL);
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (guint32)(z ^ (z >> 32));
}

GRand *engine_rand_new(const Engine *e, const char *component, guint index)
{
    return g_rand_new_with_seed(qsim_seed_mix(e->seed, component, index));
}
