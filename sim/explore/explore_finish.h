/* Whether every state of a complete search can still finish: from each state some path must
 * reach a state with no moves (where every thread halted: a complete search that passed has no
 * other such state).  A state from which none does is where a thread can never finish: a
 * livelock with no way out, or a thread asleep for ever while others spin.
 *
 * The states that cannot finish are closed under moves; among them the explorer reports one in
 * a bottom strongly connected component (a set of states the execution can never leave, found
 * with Tarjan's algorithm, written iteratively), the first in breadth-first order: there the
 * threads are in the loop they can never leave, which says more than the first state from which
 * the loop is unavoidable. */
#ifndef QSIM_EXPLORE_FINISH_H
#define QSIM_EXPLORE_FINISH_H

#include <glib.h>
#include <stdint.h>

/* The graph: n states, the moves of state s are edges[edge_at[s] .. edge_at[s + 1]).  Returns
 * the first state in a bottom component of the states that cannot finish, or G_MAXUINT32 when
 * every state can; *loop: how many states that component has.  `exempt` (NULL: none) marks
 * states the search holds in a reduced form (arm64: a thread holds a promise, and the search
 * fulfils only those it needs, model_arm64.c): with no move they are no end of an execution, and
 * they are never reported; a state not exempt that can reach only them and loops is (when no
 * bottom component holds a state not exempt, the first such state is returned). */
uint32_t explore_first_stuck(guint n, const uint32_t *edge_at, const uint32_t *edges, const guint8 *exempt,
                             guint *loop);

#endif
