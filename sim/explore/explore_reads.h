/* Which bytes a thread may still read, per pc: a backward pass over the program (may-read-in =
 * read here ∪ may-read-out), after a forward pass that finds which registers hold a variable's
 * address (`la`, and moves and constant offsets of it).  A read through a register whose value
 * the forward pass cannot name may read any byte.  Reads are every op that takes a value from
 * memory: loads, load-exclusives, the atomics, the store-exclusive (it checks its load's
 * write), and the futex ops.
 *
 * The backward pass stops at a function's `ret`, and a `call` goes on both into the callee and
 * to the op after it: bits[pc] are the bytes read from pc up to the end of its function.  A
 * thread's set is the union of its pc's and those of the return addresses on its call stack
 * (explore_reads_of), so a lock's `unlock` does not inherit what the harness reads after `lock`
 * returns.  (The forward pass, which only names addresses, is context-insensitive: a `ret`
 * may go to the op after any `call`; that only loses names.)  The sets only add bytes, never
 * drop one, so what the ARMv8 model does with them (arm64_state.c: a thread's coherence view
 * of a byte it will never read again cannot matter) stays exact. */
#ifndef QSIM_EXPLORE_READS_H
#define QSIM_EXPLORE_READS_H

#include <glib.h>
#include <string.h>
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

/* The bytes read from pc up to the end of its function, for thread t (`words` words). */
static inline const uint64_t *explore_reads_at(const ExploreReads *r, guint t, guint pc)
{
    return r->bits + ((gsize)t * r->npcs + pc) * r->words;
}

/* Thread t's set at pc with the call stack `stack` (depth return addresses), into out. */
static inline void explore_reads_of(const ExploreReads *r, guint t, guint pc, const int32_t *stack, guint depth,
                                    uint64_t *out)
{
    memcpy(out, explore_reads_at(r, t, pc), r->words * sizeof out[0]);
    for (guint d = 0; d < depth; d++)
        if (stack[d] >= 0 && (guint)stack[d] < r->npcs) {
            const uint64_t *more = explore_reads_at(r, t, (guint)stack[d]);
            for (guint k = 0; k < r->words; k++)
                out[k] |= more[k];
        } else {
            memset(out, 0xff, r->words * sizeof out[0]);
        }
}

static inline gboolean explore_may_read(const ExploreReads *r, guint t, guint pc, guint64 byte)
{
    return (explore_reads_at(r, t, pc)[byte / 64] >> (byte % 64)) & 1;
}

#endif
