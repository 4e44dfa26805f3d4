/* Which registers a thread may still read, per pc: a backward data-flow pass over the program
 * (live-in = used ∪ (live-out − defined)).  A register dead at a thread's pc cannot change what
 * the thread does next, so the explorer zeroes it and states that differed only there become
 * one: without it, a value left in a scratch register by one path keeps two otherwise equal
 * states apart.
 *
 * Calls are not told apart (context-insensitive): a `ret` may go to the op after any `call`, so
 * its live-out is the union of theirs.  That keeps more registers live than some paths need,
 * never fewer: zeroing stays exact. */
#ifndef QSIM_EXPLORE_LIVE_H
#define QSIM_EXPLORE_LIVE_H

#include <glib.h>
#include "cores/isa/isa.h"

/* live[pc] (newly allocated, one mask per op): bit r set when register r (0..63) may be read
 * before it is written, on some path from pc on. */
IsaRegMask *explore_live_regs(const IsaProgram *p);
/* One more than the highest register r0..r63 the program names anywhere (0: none): the
 * registers above it stay 0 for good, so a state's bytes need not look at them. */
guint explore_regs_used(const IsaProgram *p);

#endif
