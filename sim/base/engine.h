/* The discrete-event engine: one clock in core cycles.
 *
 * Events are ordered by (cycle, sequence number): two events at the same cycle run in the order
 * they were scheduled, so a run is a pure function of its inputs.  Components schedule only
 * when they have work; an idle component costs nothing.  Randomness comes from per-component
 * GRand streams derived from the run's seed and the component's name, never from the host. */
#ifndef QSIM_ENGINE_H
#define QSIM_ENGINE_H

#include <glib.h>
#include <stdint.h>

typedef uint64_t Cycle;
#define CYCLE_NEVER UINT64_MAX

typedef void (*EventFn)(void *obj, uint64_t arg);

typedef struct Engine Engine;

Engine *engine_new(guint64 seed);
void engine_free(Engine *e);

Cycle engine_now(const Engine *e);
guint64 engine_seed(const Engine *e);
/* Runs fn(obj, arg) `delay` cycles from now (0: later this cycle, after what is queued). */
void engine_schedule(Engine *e, Cycle delay, EventFn fn, void *obj, uint64_t arg);
void engine_schedule_at(Engine *e, Cycle when, EventFn fn, void *obj, uint64_t arg);
/* Runs the next event; FALSE when none is queued. */
gboolean engine_step(Engine *e);
/* Runs events up to and including cycle `limit`; returns the number run. The clock ends at the
 * last event's cycle (or `limit` if the queue ran past it). */
guint64 engine_run_until(Engine *e, Cycle limit);
gboolean engine_idle(const Engine *e);
Cycle engine_next_cycle(const Engine *e); /* CYCLE_NEVER when idle */
guint64 engine_events_run(const Engine *e);
guint engine_pending(const Engine *e);

/* A new GRand stream for one component, seeded from (run seed, component, index). */
GRand *engine_rand_new(const Engine *e, const char *component, guint index);
guint32 qsim_seed_mix(guint64 seed, const char *component, guint index);

#endif
