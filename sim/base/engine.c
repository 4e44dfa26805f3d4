/* The event queue: a binary min-heap of timed events keyed by (cycle, order), where order packs
 * (class, sub, sequence), beside a timing wheel of per-cycle bitmaps of the tickers that tick. */
#include "sim/base/engine.h"
#include "sim/base/min_heap.h"

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

static inline gboolean event_before(const Event *a, const Event *b)
{
    return a->when < b->when || (a->when == b->when && a->ord < b->ord);
}

MIN_HEAP_DEFINE(EventHeap, event_heap, Event, event_before)

typedef struct {
    EventFn fn;
    void *obj;
    Cycle at;                   /* pending tick, CYCLE_NEVER: none */
} Ticker;

/* Ticks within WHEEL cycles of now sit in a timing wheel: slot t % WHEEL holds a bitmap of the
 * tickers that tick at cycle t, and `wheel_mask` bit k says slot k is not empty.  Later ticks
 * wait in the heap until their cycle comes. */
#define WHEEL 64

struct Engine {
    EngineClock clock;          /* first: engine_now() reads it inline */
    EventHeap heap;
    guint64 next_seq;
    guint64 seed;
    guint64 events_run;
    Ticker *tickers;
    guint ntickers;
    guint64 *wheel;             /* WHEEL slots of nwords words */
    guint nwords;
    guint64 wheel_mask;
    gboolean running;
    EventPos pos;               /* the running event's */
};

static inline guint cls_of(guint64 ord) { return (guint)(ord >> (ORD_SEQ_BITS + ORD_SUB_BITS)); }
static inline guint sub_of(guint64 ord) { return (guint)(ord >> ORD_SEQ_BITS) & ((1u << ORD_SUB_BITS) - 1); }

Engine *engine_new(guint64 seed)
{
    Engine *e = g_new0(Engine, 1);
    event_heap_init(&e->heap, 64);
    e->seed = seed;
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    event_heap_free(&e->heap);
    g_free(e->tickers);
    g_free(e->wheel);
    g_free(e);
}

guint64 engine_seed(const Engine *e) { return e->seed; }
guint64 engine_events_run(const Engine *e) { return e->events_run; }

guint engine_pending(const Engine *e)
{
    guint n = e->heap.len;
    for (guint i = 0; i < WHEEL * e->nwords; i++)
        n += (guint)__builtin_popcountll(e->wheel[i]);
    return n;
}

/* ==================== scheduling ==================== */

/* What engine_cancel keeps: every event but the kind it drops. */
typedef struct { EventFn fn; void *obj; } CancelKind;

static gboolean not_cancelled(const Event *ev, void *ctx)
{
    const CancelKind *k = ctx;
    return ev->fn != k->fn || (k->obj && ev->obj != k->obj);
}

guint engine_cancel(Engine *e, EventFn fn, void *obj)
{
    g_return_val_if_fail(fn, 0); /* NULL marks the heap's ticks */
    CancelKind k = { fn, obj };
    return event_heap_filter(&e->heap, not_cancelled, &k);
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
    event_heap_push(&e->heap, (Event){ when, make_ord(e, cls, sub), fn, obj, arg });
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

static inline guint64 *slot_of(Engine *e, Cycle t) { return &e->wheel[(t % WHEEL) * e->nwords]; }

static inline void wheel_set(Engine *e, Cycle t, guint id)
{
    slot_of(e, t)[id / 64] |= 1ULL << (id % 64);
    e->wheel_mask |= 1ULL << (t % WHEEL);
}

static inline void wheel_clear(Engine *e, Cycle t, guint id)
{
    guint64 *w = slot_of(e, t);
    w[id / 64] &= ~(1ULL << (id % 64));
    for (guint i = 0; i < e->nwords; i++)
        if (w[i])
            return;
    e->wheel_mask &= ~(1ULL << (t % WHEEL));
}

void engine_ticker_set(Engine *e, guint id, EventFn fn, void *obj)
{
    g_assert(id < (1u << ORD_SUB_BITS));
    if (id >= e->ntickers) {
        guint n = MAX(id + 1, e->ntickers * 2);
        guint words = (n + 63) / 64;
        e->tickers = g_renew(Ticker, e->tickers, n);
        for (guint i = e->ntickers; i < n; i++)
            e->tickers[i] = (Ticker){ NULL, NULL, CYCLE_NEVER };
        if (words != e->nwords) {
            guint64 *w = g_new0(guint64, (gsize)WHEEL * words);
            for (guint k = 0; k < WHEEL; k++)
                for (guint i = 0; i < e->nwords; i++)
                    w[k * words + i] = e->wheel[k * e->nwords + i];
            g_free(e->wheel);
            e->wheel = w;
            e->nwords = words;
        }
        e->ntickers = n;
    }
    e->tickers[id].fn = fn;
    e->tickers[id].obj = obj;
}

static inline gboolean in_wheel(const Engine *e, Cycle t) { return t - e->clock.now < WHEEL; }

/* Forgets ticker id's pending tick; a heap entry for it goes stale (dropped when it surfaces). */
static inline void tick_unset(Engine *e, guint id)
{
    Ticker *t = &e->tickers[id];
    if (t->at != CYCLE_NEVER && in_wheel(e, t->at))
        wheel_clear(e, t->at, id);
    t->at = CYCLE_NEVER;
}

void engine_tick_at(Engine *e, guint id, Cycle when)
{
    g_assert(when >= e->clock.now);
    Ticker *t = &e->tickers[id];
    if (t->at <= when)
        return;
    tick_unset(e, id);
    t->at = when;
    if (in_wheel(e, when))
        wheel_set(e, when, id);
    else
        event_heap_push(&e->heap, (Event){ when, ((guint64)EV_TICK << (ORD_SEQ_BITS + ORD_SUB_BITS)) |
                                                     ((guint64)id << ORD_SEQ_BITS), NULL, NULL, id });
}

void engine_tick_cancel(Engine *e, guint id)
{
    if (id < e->ntickers)
        tick_unset(e, id);
}

static inline gboolean heap_tick(const Event *ev) { return ev->fn == NULL; }

/* A heap tick is current while its ticker still wants that cycle. */
static inline gboolean tick_current(const Engine *e, const Event *ev)
{
    return e->tickers[ev->arg].at == ev->when;
}

/* Drops stale ticks from the top of the heap, so that its top is a real event. */
static inline void purge(Engine *e)
{
    while (e->heap.len && heap_tick(&e->heap.v[0]) && !tick_current(e, &e->heap.v[0]))
        event_heap_pop(&e->heap);
}

/* The lowest ticker id in the current slot, or -1. */
static inline gint lowest_ready(const Engine *e)
{
    if (!(e->wheel_mask & (1ULL << (e->clock.now % WHEEL))))
        return -1;
    const guint64 *w = &e->wheel[(e->clock.now % WHEEL) * e->nwords];
    for (guint i = 0; i < e->nwords; i++)
        if (w[i])
            return (gint)(i * 64 + (guint)__builtin_ctzll(w[i]));
    return -1;
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
    purge(e);
    Cycle t = e->heap.len ? e->heap.v[0].when : CYCLE_NEVER;
    if (e->wheel_mask) {
        guint k = (guint)(e->clock.now % WHEEL);
        guint64 m = (e->wheel_mask >> k) | (k ? e->wheel_mask << (WHEEL - k) : 0);
        t = MIN(t, e->clock.now + (Cycle)__builtin_ctzll(m));
    }
    return t;
}

/* Runs the least pending event if it is at or before `limit`. */
static gboolean run_next(Engine *e, Cycle limit)
{
    for (;;) {
        Cycle now = e->clock.now;
        purge(e);
        if (e->heap.len && e->heap.v[0].when == now) {
            Event ev = event_heap_pop(&e->heap);
            if (heap_tick(&ev)) {
                /* Its turn among this cycle's ticks comes by id, from the wheel. */
                wheel_set(e, now, (guint)ev.arg);
                continue;
            }
            run_event(e, now, cls_of(ev.ord), sub_of(ev.ord), ev.fn, ev.obj, ev.arg);
            return TRUE;
        }
        gint id = lowest_ready(e);
        if (id >= 0) {
            wheel_clear(e, now, (guint)id);
            Ticker *t = &e->tickers[id];
            t->at = CYCLE_NEVER;
            run_event(e, now, EV_TICK, (guint)id, t->fn, t->obj, (uint64_t)id);
            return TRUE;
        }
        Cycle next = next_cycle(e);
        if (next == CYCLE_NEVER || next > limit)
            return FALSE;
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
    g_assert(next_cycle(e) >= when); /* CYCLE_NEVER when idle; the wheel holds only later ticks */
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
