/* The discrete-event engine: one clock in core cycles.
 *
 * Every event has a place in one total order, its key (cycle, class, sub, sequence):
 *   - classes run in a fixed order within a cycle: memory-system events (message deliveries
 *     and the like), then L1/L2 hit completions, then core starts, then core ticks;
 *   - `sub` orders events of one class by component: hits and starts by core id, ticks by
 *     ticker id (a core's id); memory events all have sub 0;
 *   - the sequence number (the order of scheduling) breaks the remaining ties: memory events
 *     by when they were sent, one core's hits in issue order.
 * The engine always runs the least key pending, so work that schedules more at the current
 * cycle runs it this cycle in its place (a response at T wakes a core that still ticks at T).
 * The order does not depend on how the sequence numbers of different cores' hits interleave,
 * so a component may recreate its own events (fast-forward) without changing what happens.
 *
 * Ticks are cheap: a ticker (a core) has at most one pending tick; ticks at this cycle and the
 * next live in bitmaps (no heap operation per core per cycle), later ones in the heap.
 * Randomness comes from per-component GRand streams derived from the run's seed and the
 * component's name, never from the host. */
#ifndef QSIM_ENGINE_H
#define QSIM_ENGINE_H

#include <glib.h>
#include <stdint.h>

typedef uint64_t Cycle;
#define CYCLE_NEVER UINT64_MAX

typedef void (*EventFn)(void *obj, uint64_t arg);

typedef struct Engine Engine;

/* Event classes, in their order within a cycle. */
typedef enum {
    EV_MEMORY,      /* message deliveries and other memory-system events (sub 0) */
    EV_HIT,         /* cache hit completions (sub: core id) */
    EV_START,       /* a core starts (sub: core id) */
    EV_TICK,        /* a core's pipeline cycle (sub: ticker id) */
} EventClass;

/* Where an event stands in the run's order (the sequence number left out: a component asks
 * whether its own class-and-sub events come before or after the running one). */
typedef struct {
    Cycle when;
    guint cls;
    guint sub;
} EventPos;

/* The clock is the first member of the engine, so that reading it is inline. */
typedef struct {
    Cycle now;
} EngineClock;

Engine *engine_new(guint64 seed);
void engine_free(Engine *e);

static inline Cycle engine_now(const Engine *e) { return ((const EngineClock *)(const void *)e)->now; }
guint64 engine_seed(const Engine *e);
/* Runs fn(obj, arg) `delay` cycles from now as a memory-system event (0: later this cycle,
 * after what is queued). */
void engine_schedule(Engine *e, Cycle delay, EventFn fn, void *obj, uint64_t arg);
void engine_schedule_at(Engine *e, Cycle when, EventFn fn, void *obj, uint64_t arg);
/* The same for an event of class `cls` (not EV_TICK) and sub-order `sub`. */
void engine_schedule_class(Engine *e, Cycle when, EventClass cls, guint sub, EventFn fn, void *obj,
                           uint64_t arg);

/* Drops every pending event fn(obj, ...) (obj NULL: whatever its obj); returns how many.  The
 * others keep their keys, so they run in the same order as before. */
guint engine_cancel(Engine *e, EventFn fn, void *obj);

/* Tickers: ticker `id` runs fn(obj, id) at the cycles asked for, in id order among ticks of a
 * cycle, at most once per cycle.  engine_tick_at asks for a tick at `when` (>= now); an
 * earlier pending tick stands, a later one is replaced.  Cancelling drops the pending tick. */
void engine_ticker_set(Engine *e, guint id, EventFn fn, void *obj);
void engine_tick_at(Engine *e, guint id, Cycle when);
void engine_tick_cancel(Engine *e, guint id);

/* Runs the next event; FALSE when none is queued. */
gboolean engine_step(Engine *e);
/* Runs events up to and including cycle `limit`; returns the number run. The clock ends at the
 * last event's cycle (or `limit` if the queue ran past it). */
guint64 engine_run_until(Engine *e, Cycle limit);
/* Moves the clock forward to `when` with nothing run (nothing may be pending before it). */
void engine_advance(Engine *e, Cycle when);
gboolean engine_idle(const Engine *e);
Cycle engine_next_cycle(const Engine *e); /* CYCLE_NEVER when idle */
guint64 engine_events_run(const Engine *e);
guint engine_pending(const Engine *e);
/* The running event's place; between events, the start of the next cycle's order. */
EventPos engine_position(const Engine *e);
/* Whether an event of (cls, sub) at `when` comes before position `p`. */
static inline gboolean event_pos_before(Cycle when, guint cls, guint sub, EventPos p)
{
    if (when != p.when)
        return when < p.when;
    if (cls != p.cls)
        return cls < p.cls;
    return sub < p.sub;
}

/* A new GRand stream for one component, seeded from (run seed, component, index). */
GRand *engine_rand_new(const Engine *e, const char *component, guint index);
guint32 qsim_seed_mix(guint64 seed, const char *component, guint index);

#endif
