/* Sequential consistency (Lamport 1979): one memory, every op acts on it at once, in some
 * interleaving of the threads' program orders.  This is the reference interpreter's memory
 * (cores/isa/interp.h): the only moves are "thread t runs its next op", and `fence` in every
 * form orders nothing that is not already ordered, so it is a local op. */
#include "sim/explore/explore_exec.h"

static gboolean sc_local(const ExploreWorld *w, const ExploreState *s, guint t, const IsaInsn *i)
{
    (void)w, (void)s, (void)t;
    return explore_op_is_private(i) || i->op == OP_FENCE;
}

static void sc_moves(const ExploreWorld *w, const ExploreState *s, GArray *moves, gboolean *bounded)
{
    (void)bounded;
    for (guint t = 0; t < w->nthreads; t++)
        if (s->th[t].state == THREAD_RUNNABLE)
            g_array_append_val(moves, ((ExploreMove){ t, EXPLORE_MOVE_STEP, 0 }));
}

static void sc_apply(const ExploreWorld *w, ExploreState *s, ExploreMove m, ExploreNote *note)
{
    explore_exec_op(w, &explore_model_sc, s, m.thread, note);
}

static uint64_t sc_load(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size,
                        ExploreNote *note)
{
    (void)t;
    return explore_mem_read(w, s, addr, size, note);
}

static void sc_store(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size, uint64_t value,
                     int32_t pc, ExploreNote *note)
{
    (void)pc;
    explore_mem_store(w, s, t, addr, size, value, note);
}

const ExploreModel explore_model_sc = {
    .name = "sc",
    .title = "sequential consistency",
    .reference = "Lamport, \"How to Make a Multiprocessor Computer That Correctly Executes Multiprocess "
                 "Programs\", IEEE TC 1979; the reference interpreter, cores/isa/interp.h",
    .has_buffers = FALSE,
    .local = sc_local,
    .moves = sc_moves,
    .apply = sc_apply,
    .load = sc_load,
    .store = sc_store,
};
