/* The event queue: a binary min-heap keyed by (cycle, sequence). */
#include "sim/base/engine.h"

typedef struct {
    Cycle when;
    guint64 seq;
    EventFn fn;
    void *obj;
    uint64_t arg;
} Event;

struct Engine {
    Event *heap;
    guint len, cap;
    Cycle now;
    guint64 next_seq;
    guint64 seed;
    guint64 events_run;
};

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
    g_free(e);
}

Cycle engine_now(const Engine *e) { return e->now; }
guint64 engine_seed(const Engine *e) { return e->seed; }
gboolean engine_idle(const Engine *e) { return e->len == 0; }
guint64 engine_events_run(const Engine *e) { return e->events_run; }
guint engine_pending(const Engine *e) { return e->len; }
Cycle engine_next_cycle(const Engine *e) { return e->len ? e->heap[0].when : CYCLE_NEVER; }

static inline gboolean before(const Event *a, const Event *b)
{
    return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

void engine_schedule_at(Engine *e, Cycle when, EventFn fn, void *obj, uint64_t arg)
{
    g_assert(when >= e->now);
    if (e->len == e->cap) {
        e->cap *= 2;
        e->heap = g_renew(Event, e->heap, e->cap);
    }
    Event ev = { when, e->next_seq++, fn, obj, arg };
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

void engine_schedule(Engine *e, Cycle delay, EventFn fn, void *obj, uint64_t arg)
{
    engine_schedule_at(e, e->now + delay, fn, obj, arg);
}

static Event pop(Engine *e)
{
    Event top = e->heap[0];
    Event last = e->heap[--e->len];
    guint i = 0;
    for (;;) {
        guint l = 2 * i + 1, r = l + 1, m = i;
        const Event *best = &last;
        if (l < e->len && before(&e->heap[l], best)) {
            m = l;
            best = &e->heap[l];
        }
        if (r < e->len && before(&e->heap[r], best))
            m = r;
        if (m == i)
            break;
        e->heap[i] = e->heap[m];
        i = m;
    }
    if (e->len)
        e->heap[i] = last;
    return top;
}

gboolean engine_step(Engine *e)
{
    if (!e->len)
        return FALSE;
    Event ev = pop(e);
    e->now = ev.when;
    e->events_run++;
    ev.fn(ev.obj, ev.arg);
    return TRUE;
}

guint64 engine_run_until(Engine *e, Cycle limit)
{
    guint64 n = 0;
    while (e->len && e->heap[0].when <= limit) {
        engine_step(e);
        n++;
    }
    if (e->now < limit && limit != CYCLE_NEVER && e->len)
        e->now = limit;
    return n;
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
