/* One access at a time (see mem_waiter.h). */
#include "sim/machine/mem_waiter.h"

void mem_waiter_done(void *obj, const MemResponse *r)
{
    MemWaiter *w = obj;
    w->got = TRUE;
    w->resp = *r;
}

const MemResponse *mem_waiter_access(MemWaiter *w, MemSys *ms, Engine *e, guint core, const MemRequest *q)
{
    w->got = FALSE;
    memsys_issue(ms, core, q);
    while (!w->got && engine_step(e))
        ;
    g_assert(w->got);
    return &w->resp;
}

void mem_waiter_settle(Engine *e)
{
    while (engine_step(e))
        ;
}

const MemResponse *mem_waiter_try_access(MemWaiter *w, MemSys *ms, Engine *e, guint core, const MemRequest *q)
{
    w->got = FALSE;
    memsys_issue(ms, core, q);
    while (!w->got && engine_step(e))
        ;
    return w->got ? &w->resp : NULL;
}
