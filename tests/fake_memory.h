/* A small but coherent memory system for core tests: one byte array, and per line the set of
 * L1 holders and the owner (the one holder with write permission).  Fixed latencies: a hit
 * (the core holds the line with the permission it needs) costs l1.latency, anything else
 * `miss_latency`.  An access is performed when its `done` runs, from an engine event; a store or
 * atomic invalidates every other holder (line_lost) at that moment, a load downgrades a remote
 * owner.  A locked atomic's hold_cycles delays other cores' accesses to the line. */
#ifndef QSIM_FAKE_MEMORY_H
#define QSIM_FAKE_MEMORY_H

#include "sim/machine/machine.h"

typedef struct FakeMemory FakeMemory;

FakeMemory *fake_memory_new(Engine *e, const QsimConfig *cfg, uint64_t base, uint64_t size,
                            guint ncores, Cycle miss_latency);
void fake_memory_free(FakeMemory *fm);
extern const MemSystemOps fake_memory_ops;

guint64 fake_memory_invalidations(const FakeMemory *fm); /* line_lost(INVALIDATED) sent */
guint64 fake_memory_snoops_held(const FakeMemory *fm);   /* accesses delayed by hold_cycles */
guint64 fake_memory_requests(const FakeMemory *fm, MemKind kind);
/* Whether `core` holds the line of `addr`, and whether it owns it (M). */
gboolean fake_memory_holds(const FakeMemory *fm, guint core, uint64_t addr);
gboolean fake_memory_owns(const FakeMemory *fm, guint core, uint64_t addr);

#endif
