/* The executor `qsim litmus --config CFG` runs tests on.
 *
 * FOR THE LEAD: this is the one place to plug the timing model in.  Return a LitmusExecutor
 * whose `run` lays p->prog out (isa_layout_new with cfg->line_size), stores each location's
 * initial value (isa_layout_init_memory, then the address of locs[l]->points_to for pointer
 * locations), places lines in caches as perturb->owner/sharers say, starts thread t after
 * perturb->start_skew[t] cycles at entry "main" with tid = t, runs to every thread's halt, and
 * fills out->regs, out->mem (locs[l]->size bytes) and out->addr.  Until the machine exists this
 * refuses, so that the command never reports results it did not simulate. */
#include "sim/litmus.h"

LitmusExecutor *litmus_executor_for_config(const QsimConfig *cfg, GError **error)
{
    g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC,
                "config %s: timing model not yet integrated: litmus tests cannot run on a machine yet",
                cfg && cfg->name ? cfg->name : "?");
    return NULL;
}
