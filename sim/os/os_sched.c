/* The OS model's scheduler (see os_model.h): threads, per-core run queues, context switches,
 * time slices, migration, and the counters of time spent off a core. */
#include <string.h>
#include "sim/os/os_internal.h"
#include "cores/isa/isa_exec.h"

static Cycle now_of(const OsModel *os) { return engine_now(os->e); }

/* ==================== life cycle ==================== */

gboolean os_model_needed(const IsaProgram *p, guint nthreads, guint ncores)
{
    if (nthreads > ncores)
        return TRUE;
    for (guint pc = 0; pc < p->insns->len; pc++)
        if (isa_op_info[g_array_index(p->insns, IsaInsn, pc).op].is_syscall)
            return TRUE;
    return FALSE;
}

OsModel *os_model_new(const QsimConfig *cfg, Engine *e, const IsaProgram *prog, const IsaLayout *layout,
                      CoreIssueFn issue, void *ms, guint nthreads)
{
    OsModel *os = g_new0(OsModel, 1);
    os->cfg = cfg;
    os->e = e;
    os->prog = prog;
    os->layout = layout;
    os->issue = issue;
    os->ms = ms;
    os->nthreads = nthreads;
    os->threads = g_new0(OsThread, nthreads);
    for (guint t = 0; t < nthreads; t++)
        os->threads[t].tid = t;
    os->cores = g_ptr_array_new();
    os->ncore_ids = config_total_cpus(cfg); /* the OS schedules on logical CPUs (hardware threads) */
    os->by_id = g_new0(OsCore *, os->ncore_ids);
    /* Linux: futex_hashsize = roundup_pow_of_two(256 * num_possible_cpus()).  Counted here over
     * cores, not logical CPUs: a config's SMT then moves no bucket (so no result) of a run
     * that uses one thread per core; on an SMT machine Linux has twice as many buckets. */
    os->nbuckets = 1;
    while (os->nbuckets < 256 * config_total_cores(cfg))
        os->nbuckets *= 2;
    os->buckets = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, os_bucket_free);
    g_queue_init(&os->sleepers);
    return os;
}

void os_model_free(OsModel *os)
{
    if (!os)
        return;
    for (guint i = 0; i < os->cores->len; i++) {
        OsCore *oc = os->cores->pdata[i];
        g_queue_clear(&oc->runq);
        g_free(oc->call.to_wake);
        g_free(oc);
    }
    g_ptr_array_free(os->cores, TRUE);
    g_queue_clear(&os->sleepers);
    g_hash_table_destroy(os->buckets);
    g_free(os->by_id);
    g_free(os->threads);
    g_free(os);
}

static void slice_event(void *obj, uint64_t gen);

/* The last thread's halt ends the work: the time slices still pending would only keep the
 * engine's clock going (to the stall window: issue 29 item 6), so they go.  Nothing else of
 * the model can be pending then (a switch, a wake-up or a system call is some thread's). */
static void on_halt(void *ctx, Core *c G_GNUC_UNUSED)
{
    OsCore *oc = ctx;
    OsModel *os = oc->os;
    OsThread *t = oc->cur;
    g_assert(t && oc->state == OC_RUNNING);
    t->state = OT_DONE;
    os->done++;
    os_sched_switch_away(oc);
    if (os->done == os->nthreads)
        engine_cancel(os->e, slice_event, NULL);
}

void os_model_add_core(OsModel *os, Core *c)
{
    guint id = core_id(c);
    g_assert(id < os->ncore_ids && !os->by_id[id]);
    OsCore *oc = g_new0(OsCore, 1);
    oc->os = os;
    oc->core = c;
    oc->id = id;
    oc->socket = config_cpu_core(os->cfg, id) / (guint)os->cfg->topology.cores_per_socket;
    oc->state = OC_RUNNING;
    g_queue_init(&oc->runq);
    g_ptr_array_add(os->cores, oc);
    os->by_id[id] = oc;
    core_set_os_hooks(c, os_futex_syscall, on_halt, oc);
}

void os_model_add_thread(OsModel *os, guint tid, guint core_id, const CoreContext *initial)
{
    g_assert(tid < os->nthreads && core_id < os->ncore_ids && os->by_id[core_id]);
    OsCore *oc = os->by_id[core_id];
    OsThread *t = &os->threads[tid];
    t->core = oc;
    t->wait_rd = ISA_NO_REG;
    if (!oc->cur) {
        oc->cur = t;
        t->state = OT_RUNNING;
        t->ran = TRUE;
    } else {
        t->ctx = *initial;
        t->state = OT_READY;
        g_queue_push_tail(&oc->runq, t);
    }
}

/* ==================== time slices ==================== */

/* CFS: the period shared by `n` runnable threads, never below the minimum granularity. */
static Cycle slice_for(const QsimConfig *cfg, Cycle n)
{
    return MAX((Cycle)cfg->os.sched_latency_cycles / n, (Cycle)cfg->os.min_granularity_cycles);
}

static Cycle slice_of(const OsCore *oc)
{
    return slice_for(oc->os->cfg, 1 + g_queue_get_length((GQueue *)&oc->runq));
}

static void arm_slice(OsCore *oc)
{
    if (oc->slice_armed || oc->state != OC_RUNNING || !oc->cur || g_queue_is_empty(&oc->runq))
        return;
    Cycle now = now_of(oc->os);
    oc->slice_armed = TRUE;
    engine_schedule_at(oc->os->e, MAX(now + 1, oc->cur->run_start + slice_of(oc)), slice_event, oc, oc->slice_gen);
}

/* The slice is over: the thread goes to the back of the queue, unless it is in a system call
 * or at an op that cannot be undone, or has retired nothing since it came on the core (then a
 * little later).  The last keeps a slice shorter than the pipeline's depth or a miss's
 * latency (os.min_granularity_cycles=1) from preempting every thread before it retires
 * anything, for ever: each turn on a core moves its thread on. */
static void slice_event(void *obj, uint64_t gen)
{
    OsCore *oc = obj;
    OsModel *os = oc->os;
    if (gen != oc->slice_gen)
        return;
    oc->slice_armed = FALSE;
    if (oc->state != OC_RUNNING || g_queue_is_empty(&oc->runq))
        return;
    if (oc->call.active || !core_can_switch(oc->core) || core_last_retire(oc->core) <= oc->cur->run_start) {
        oc->slice_armed = TRUE;
        engine_schedule(os->e, 50, slice_event, oc, gen);
        return;
    }
    OsThread *t = oc->cur;
    core_context_save(oc->core, &t->ctx);
    t->state = OT_READY;
    t->since = now_of(os);
    g_queue_push_tail(&oc->runq, t);
    os->st.preemptions++;
    os_sched_switch_away(oc);
}

void os_model_start(OsModel *os)
{
    for (guint i = 0; i < os->cores->len; i++)
        arm_slice(os->cores->pdata[i]);
}


/* ==================== switching ==================== */

void os_sched_after(OsCore *oc, Cycle delay, EventFn fn, uint64_t arg)
{
    engine_schedule(oc->os->e, delay, fn, oc, arg);
}

/* Thread `t` starts (or resumes) on `oc`. */
static void run_thread(OsCore *oc, OsThread *t)
{
    OsModel *os = oc->os;
    Cycle now = now_of(os);
    if (t->counted_wake) {
        os->st.wake_to_run_cycles += now - t->woken_at;
        t->counted_wake = FALSE;
    }
    if (t->ran && t->core != oc)
        os->st.migrations++;
    t->core = oc;
    t->state = OT_RUNNING;
    t->loading = FALSE;
    t->run_start = now;
    t->ran = TRUE;
    oc->cur = t;
    oc->state = OC_RUNNING;
    oc->slice_gen++;
    oc->slice_armed = FALSE;
    Cycle delay = 0;
    if (t->resume_syscall) {
        /* Back from schedule() in futex_wait: the rest of the system call, then user code. */
        t->resume_syscall = FALSE;
        delay = (Cycle)(os->cfg->os.syscall_cycles - os->cfg->os.syscall_cycles / 2);
        os->st.kernel_cycles += delay;
    }
    core_context_load(oc->core, &t->ctx, delay);
    arm_slice(oc);
}

static void load_event(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    OsCore *oc = obj;
    OsModel *os = oc->os;
    OsThread *t = oc->next;
    g_assert(oc->state == OC_SWITCHING && t);
    oc->next = NULL;
    os->st.switch_cycles += now_of(os) - oc->state_since;
    run_thread(oc, t);
}

/* `oc` (idle or just left by its thread) switches to `t`, taken off a run queue, in `delay`
 * cycles: the config key `key` (a context switch, or an idle core's wake-up). */
static void begin_switch(OsCore *oc, OsThread *t, Cycle delay, const char *key)
{
    OsModel *os = oc->os;
    Cycle now = now_of(os);
    if (oc->state == OC_IDLE)
        os->st.idle_cycles += now - oc->state_since;
    /* Its wait in a run queue ends here; the switch (or the wake-up of an idle core) is the
     * core's time, counted in switch_cycles and, after a wake-up, in wake_to_run_cycles. */
    os->st.runqueue_wait_cycles += now - t->since;
    t->since = now;
    t->loading = TRUE;
    oc->state = OC_SWITCHING;
    oc->state_since = now;
    oc->next = t;
    oc->switch_key = key;
    oc->switch_cost = delay;
    os_sched_after(oc, delay, load_event, 0);
}

/* The next thread for `oc`: its own queue's first, else (with migration) the first of the
 * longest other queue, its own socket's before the others. */
static OsThread *pick_next(OsCore *oc)
{
    OsModel *os = oc->os;
    if (!g_queue_is_empty(&oc->runq))
        return g_queue_pop_head(&oc->runq);
    if (!os->cfg->os.migration)
        return NULL;
    for (guint pass = 0; pass < 2; pass++) {
        OsCore *best = NULL;
        guint best_len = 0;
        for (guint i = 0; i < os->cores->len; i++) {
            OsCore *o = os->cores->pdata[i];
            guint len = g_queue_get_length(&o->runq);
            if (o != oc && (pass == 1 || o->socket == oc->socket) && len > best_len) {
                best = o;
                best_len = len;
            }
        }
        if (best)
            return g_queue_pop_head(&best->runq);
    }
    return NULL;
}

void os_sched_switch_away(OsCore *oc)
{
    OsModel *os = oc->os;
    g_assert(oc->state == OC_RUNNING && oc->cur && oc->cur->state != OT_RUNNING);
    oc->cur = NULL;
    oc->slice_gen++;
    oc->slice_armed = FALSE;
    os->st.context_switches++;
    OsThread *t = pick_next(oc);
    if (t) {
        oc->state = OC_RUNNING; /* leaving it: begin_switch counts no idle time */
        begin_switch(oc, t, (Cycle)os->cfg->os.context_switch_cycles, "os.context_switch_cycles");
    } else {
        oc->state = OC_IDLE;
        oc->state_since = now_of(os);
    }
}

/* The first idle core of `socket`, or NULL. */
static OsCore *idle_core_of(OsModel *os, guint socket)
{
    for (guint i = 0; i < os->cores->len; i++) {
        OsCore *o = os->cores->pdata[i];
        if (o->state == OC_IDLE && o->socket == socket)
            return o;
    }
    return NULL;
}

void os_sched_make_ready(OsModel *os, OsThread *t, OsCore *waker)
{
    Cycle now = now_of(os);
    t->state = OT_READY;
    t->since = now;
    t->woken_at = now;
    t->counted_wake = TRUE;
    OsCore *target = t->core;
    if (os->cfg->os.migration && target->state != OC_IDLE) {
        OsCore *idle = idle_core_of(os, target->socket);
        if (!idle && waker)
            idle = idle_core_of(os, waker->socket);
        if (idle)
            target = idle;
    }
    if (target->state == OC_IDLE) {
        begin_switch(target, t, (Cycle)os->cfg->os.wakeup_cycles, "os.wakeup_cycles");
        return;
    }
    g_queue_push_tail(&target->runq, t);
    arm_slice(target);
}

void os_model_mem_done(OsModel *os, guint core_id, const MemResponse *r)
{
    g_assert(core_id < os->ncore_ids && os->by_id[core_id]);
    if (!os->stopped)
        os_futex_mem_done(os->by_id[core_id], r);
}

void os_model_stop(OsModel *os)
{
    os->stopped = TRUE;
    engine_cancel(os->e, slice_event, NULL);
    engine_cancel(os->e, load_event, NULL);
    os_futex_stop(os);
}

/* ==================== queries ==================== */

OsQuiet os_model_quiet(const OsModel *os)
{
    const QsimConfig *cfg = os->cfg;
    Cycle n = os->nthreads;
    Cycle retire = (Cycle)cfg->os.syscall_cycles + (Cycle)cfg->os.futex_key_cycles +
                   n * ((Cycle)cfg->os.futex_hold_cycles + (Cycle)cfg->os.futex_wake_cycles) +
                   (Cycle)cfg->os.wakeup_cycles + (Cycle)cfg->os.context_switch_cycles;
    /* the longest run queue at the start (threads move only to idle cores after) */
    Cycle per_core = 1;
    for (guint i = 0; i < os->cores->len; i++)
        per_core = MAX(per_core, 1 + (Cycle)g_queue_get_length(&((OsCore *)os->cores->pdata[i])->runq));
    Cycle wait = (per_core - 1) * (slice_for(cfg, per_core) + (Cycle)cfg->os.context_switch_cycles);
    return (OsQuiet){ retire, retire + wait };
}

gboolean os_model_all_done(const OsModel *os)
{
    return os->done == os->nthreads;
}

OsThreadWhere os_model_thread_where(const OsModel *os, guint tid, guint *core)
{
    g_assert(tid < os->nthreads);
    const OsThread *t = &os->threads[tid];
    *core = t->core ? t->core->id : 0;
    switch (t->state) {
    case OT_RUNNING: return OS_THREAD_RUNNING;
    case OT_READY: return t->loading ? OS_THREAD_LOADING : OS_THREAD_READY;
    case OT_SLEEPING: case OT_WOKEN: return OS_THREAD_ASLEEP;
    case OT_DONE: break;
    }
    return OS_THREAD_DONE;
}

void os_model_stats(const OsModel *os, OsStats *out)
{
    Cycle now = now_of(os);
    *out = os->st;
    for (guint t = 0; t < os->nthreads; t++) {
        const OsThread *th = &os->threads[t];
        if (th->state == OT_SLEEPING)
            out->cycles_asleep += now - th->since;
        else if (th->state == OT_READY && !th->loading)
            out->runqueue_wait_cycles += now - th->since;
    }
    for (guint i = 0; i < os->cores->len; i++) {
        const OsCore *oc = os->cores->pdata[i];
        if (oc->state == OC_IDLE)
            out->idle_cycles += now - oc->state_since;
        else if (oc->state == OC_SWITCHING)
            out->switch_cycles += now - oc->state_since;
        if (oc->call.active)
            out->kernel_cycles += now - oc->call.entered;
    }
}

void os_model_describe(const OsModel *os, GString *out)
{
    /* the settings that decide how long the model's own steps take, by their keys */
    const QsimConfig *cfg = os->cfg;
    g_string_append_printf(out, "the OS model: os.context_switch_cycles %" G_GINT64_FORMAT ", os.wakeup_cycles %"
                           G_GINT64_FORMAT ", os.syscall_cycles %" G_GINT64_FORMAT ", time slices of at least "
                           "os.min_granularity_cycles %" G_GINT64_FORMAT " (os.sched_latency_cycles %" G_GINT64_FORMAT
                           "); %" G_GUINT64_FORMAT " preemptions and %" G_GUINT64_FORMAT " context switches so far\n",
                           cfg->os.context_switch_cycles, cfg->os.wakeup_cycles, cfg->os.syscall_cycles,
                           cfg->os.min_granularity_cycles, cfg->os.sched_latency_cycles, os->st.preemptions,
                           os->st.context_switches);
    for (guint i = 0; i < os->cores->len; i++) {
        const OsCore *oc = os->cores->pdata[i];
        if (oc->state == OC_SWITCHING)
            g_string_append_printf(out, "core %u: loading thread %u since cycle %" G_GUINT64_FORMAT " (%s: %" G_GUINT64_FORMAT
                                   ")\n", oc->id, oc->next->tid, oc->state_since, oc->switch_key, oc->switch_cost);
    }
    for (guint t = 0; t < os->nthreads; t++) {
        const OsThread *th = &os->threads[t];
        switch (th->state) {
        case OT_DONE:
            continue;
        case OT_RUNNING:
            g_string_append_printf(out, "thread %u: on core %u%s\n", t, th->core->id,
                                   th->core->call.active ? ", in a futex system call" : "");
            break;
        case OT_READY:
            g_string_append_printf(out, "thread %u: ready, waiting for core %u\n", t, th->core->id);
            break;
        case OT_SLEEPING:
            g_string_append_printf(out, "thread %u: asleep in futex_wait on the word at 0x%" G_GINT64_MODIFIER
                                   "x since cycle %" G_GUINT64_FORMAT "%s\n", t, th->futex_addr, th->since,
                                   " (a lost wake-up if nobody will call futex_wake on it)");
            break;
        case OT_WOKEN:
            g_string_append_printf(out, "thread %u: being woken\n", t);
            break;
        }
    }
}
