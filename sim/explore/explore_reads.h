/* Which bytes a thread may still read, per pc: a backward pass over the program (may-read-in =
 * read here ∪ may-read-out), after a forward pass that finds which registers hold a variable's
 * address (`la`, and moves and constant offsets of it).  A read through a register whose value
 * the forward pass cannot name may read any byte.  Reads are every op that takes a value from
 * memory: loads, load-exclusives, the atomics, the store-exclusive (it checks its load's
 * write), and the futex ops.
 *
 * Calls are not told apart (context-insensitive), as in explore_live.h: a `ret` may go to the
 * op after any `call`.  That only adds bytes, never drops one, so what the ARMv8 model does with
 * it (arm64_state.c: a thread's coherence view of a byte it will never read again cannot
 * matter) stays exact. */
#ifndef QSIM_EXPLORE_READS_H
#define QSIM_EXPLORE_READS_H

#include <glib.h>
#include "cores/isa/isa.h"

typedef struct {
    guint npcs, words;         /* words: 64-bit words per pc's byte set */
    /* bits[(t * npcs + pc) * words ...]: bit k set when thread t at pc may read byte
     * layout->base + k before it halts. */
    uint64_t *bits;
} ExploreReads;

/* From a thread's start at `entry` (or at any `.entry`), registers unknown there. */
ExploreReads *explore_reads_new(const IsaProgram *p, const IsaLayout *l, int32_t entry);
void explore_reads_free(ExploreReads *r);

/* Thread t's byte set at pc (`words` words). */
static inline const uint64_t *explore_reads_at(const ExploreReads *r, guint t, guint pc)
{
    return r->bits + ((gsize)t * r->npcs + pc) * r->words;
}

static inline gboolean explore_may_read(const ExploreReads *r, guint t, guint pc, guint64 byte)
{
    return (explore_reads_at(r, t, pc)[byte / 64] >> (byte % 64)) & 1;
}

#endif
