/* SMT: pairing the two hardware threads of a core, and what one hears when the other leaves
 * (core_smt.h holds the turns and the limits the stages apply). */
#include "cores/core_internal.h"

void core_smt_pair(Core *a, Core *b)
{
    g_assert(a != b && !a->sib && !b->sib);
    g_assert(config_cpu_core(a->cfg, a->id) == config_cpu_core(b->cfg, b->id));
    a->sib = b;
    b->sib = a;
    a->hw_thread = config_cpu_thread(a->cfg, a->id);
    b->hw_thread = config_cpu_thread(b->cfg, b->id);
    g_assert(a->hw_thread != b->hw_thread);
    for (guint s = 0; s < G_N_ELEMENTS(a->stage_used); s++)
        a->stage_used[s] = b->stage_used[s] = CYCLE_NEVER;
    if (a->cfg->smt.branch_predictor == SMT_SHARED) {
        /* One table of counters, the first thread's: the threads train each other. */
        Core *first = a->hw_thread < b->hw_thread ? a : b, *second = first == a ? b : a;
        g_free(second->bp);
        second->bp = first->bp;
        second->bp_borrowed = TRUE;
    }
}

Core *core_sibling(const Core *c) { return c->sib; }

void core_buffer_limits(const Core *c, guint *rob, guint *lb, guint *sb)
{
    *rob = core_rob_limit(c);
    *lb = c->sib ? smt_limit(c, c->cfg->smt.load_buffer, c->load_buffer, c->sib->lb_used) : c->load_buffer;
    *sb = c->sib ? smt_limit(c, c->cfg->smt.store_buffer, c->sb_size, c->sib->sb_count) : c->sb_size;
}

/* The partitioned structures are the sibling's alone now: a thread stalled on its half looks
 * again (a core_wake from outside its tick, as a memory response's). */
void smt_thread_left(Core *c)
{
    Core *o = c->sib;
    if (!o || !smt_active(o))
        return;
    if (!o->ff.local)
        o->now = engine_now(o->e);
    core_wake(o);
}
