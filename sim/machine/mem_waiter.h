/* One access at a time on a memory system with no cores: the latency probe (`qsim latency`) and
 * scripted accesses (`qsim run --script`) issue an access, run the engine until the memory
 * system answers it, then let everything it set off finish before the next. */
#ifndef QSIM_MEM_WAITER_H
#define QSIM_MEM_WAITER_H

#include "coherence/memsys.h"
#include "sim/base/engine.h"

/* A core's port client that keeps the response to the one access it waits for. */
typedef struct {
    gboolean got;
    MemResponse resp;
} MemWaiter;

/* The port's `done` callback (obj: the MemWaiter). */
void mem_waiter_done(void *obj, const MemResponse *r);
/* Issues `q` from `core` and runs `e` until it is answered (the memory system answers every
 * access it takes); the response, owned by `w`. */
const MemResponse *mem_waiter_access(MemWaiter *w, MemSys *ms, Engine *e, guint core, const MemRequest *q);
/* The same for a memory system that may not answer (a protocol with a fault planted,
 * coherence/protocol_fault.h): NULL when the engine ran out of events first. */
const MemResponse *mem_waiter_try_access(MemWaiter *w, MemSys *ms, Engine *e, guint core, const MemRequest *q);
/* Runs `e` until nothing is left: the messages an access set off (write-backs, acks) end. */
void mem_waiter_settle(Engine *e);

#endif
