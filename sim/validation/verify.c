/* Lock verification (see verify.h). */
#include <string.h>
#include "sim/validation/verify.h"
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"
#include "cores/isa/isa_fault.h"
#include "cores/isa/asm.h"
#include "sim/memmodel/graph_explore.h"
#include "sim/validation/verify_reach.h"

void verify_options_init(VerifyOptions *o)
{
    memset(o, 0, sizeof *o);
    workload_init(&o->workload, WL_VERIFY);
    o->target = arch_target(ARCH_X86);
    o->seeds = 100;
    o->first_seed = 1;
}

void verify_result_clear(VerifyResult *r)
{
    g_clear_pointer(&r->failure, g_free);
    g_clear_pointer(&r->graphs_refused, g_free);
    explore_result_clear(&r->explore);
}

/* A run's end as the checks read it, from the interpreter or from an explored state. */
typedef struct {
    const IsaProgram *p;
    const HarnessOptions *h;
    uint64_t (*read_var)(const void *ctx, const char *name);
    InterpThreadState (*state)(const void *ctx, guint t);
    int32_t (*pc)(const void *ctx, guint t);
    uint64_t (*acquired)(const void *ctx, guint t);   /* `mark 2`s run */
    const void *ctx;
} RunEnd;

/* The harness's counts at the end, appended to g ("what; what; "): a `halt` inside the lock, the
 * counter (lost updates), sections entered while shared, read sections, acquisitions.  The counts
 * say something only of a run that finished its loops (`finished`). */
static void check_counts(const RunEnd *e, gboolean finished, GString *g)
{
    const HarnessOptions *h = e->h;
    /* A `halt` in the lock's code ends its thread early: say so, rather than count what it left
     * undone as lost updates. */
    gboolean halted_in_lock = FALSE;
    for (guint t = 0; t < h->threads; t++) {
        int32_t pc = e->pc(e->ctx, t);
        if (e->state(e->ctx, t) != THREAD_HALTED || !harness_pc_in_lock(e->p, pc))
            continue;
        const IsaInsn *i = &g_array_index(e->p->insns, IsaInsn, pc);
        g_autofree char *pos = asm_format_pos(e->p, i);
        g_string_append_printf(g, "thread %u halted inside the lock at %s (`halt`) after %" G_GUINT64_FORMAT
                               " acquisitions; ", t, pos, e->acquired(e->ctx, t));
        halted_in_lock = TRUE;
    }
    finished = finished && !halted_in_lock;
    uint64_t want = (uint64_t)harness_writers(h) * h->iterations;
    uint64_t counter = e->read_var(e->ctx, HARNESS_COUNTER), viol = e->read_var(e->ctx, HARNESS_VIOLATIONS);
    if (finished && counter != want)
        g_string_append_printf(g, "counter is %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT
                               " (lost updates: mutual exclusion failed); ", counter, want);
    if (viol)
        g_string_append_printf(g, "%" G_GUINT64_FORMAT " critical sections were entered while another "
                               "thread was inside; ", viol);
    if (finished && h->readers) {
        uint64_t reads = e->read_var(e->ctx, HARNESS_READS), rwant = (uint64_t)MIN(h->readers, h->threads) * h->iterations;
        if (reads != rwant)
            g_string_append_printf(g, "%" G_GUINT64_FORMAT " read sections completed, expected %"
                                   G_GUINT64_FORMAT "; ", reads, rwant);
    }
    for (guint t = 0; t < h->threads && finished; t++)
        if (e->acquired(e->ctx, t) != h->iterations)
            g_string_append_printf(g, "thread %u acquired %" G_GUINT64_FORMAT " times, expected %u; ", t,
                                   e->acquired(e->ctx, t), h->iterations);
}

/* "what; what; " as one message, or NULL when empty. */
static char *problems(GString *g)
{
    if (!g->len) {
        g_string_free(g, TRUE);
        return NULL;
    }
    g_string_truncate(g, g->len - 2);
    return g_string_free(g, FALSE);
}

/* ======================================================================= sampled */

static uint64_t interp_var(const void *ctx, const char *name)
{
    uint64_t v = 0;
    interp_read_sym(ctx, name, 0, 8, &v);
    return v;
}
static InterpThreadState interp_state(const void *ctx, guint t) { return interp_thread(ctx, t)->state; }
static int32_t interp_pc(const void *ctx, guint t) { return interp_thread(ctx, t)->pc; }
static uint64_t interp_acquired(const void *ctx, guint t) { return interp_thread(ctx, t)->marks[2]; }

/* Checks one finished run; NULL when everything held, else what did not. */
static char *check_run(const Interp *in, const IsaProgram *p, const HarnessOptions *h)
{
    GString *g = g_string_new(NULL);
    InterpOutcome oc = interp_outcome(in);
    guint sleepers = interp_futex_sleepers(in);
    if (oc != INTERP_FINISHED && sleepers)
        g_string_append_printf(g, "lost wake-up: %u thread%s asleep in futex_wait with no futex_wake to come "
                               "(the run ended in %s); ", sleepers, sleepers == 1 ? "" : "s", interp_outcome_name(oc));
    else if (oc != INTERP_FINISHED)
        g_string_append_printf(g, "the run ended in %s; ", interp_outcome_name(oc));
    RunEnd e = { p, h, interp_var, interp_state, interp_pc, interp_acquired, in };
    check_counts(&e, oc == INTERP_FINISHED, g);
    char *why = problems(g);
    if (!why)
        return NULL;
    g_autofree char *states = interp_describe(in);
    char *all = g_strdup_printf("%s\n%s", why, states);
    g_free(why);
    return all;
}

static gboolean verify_sampled(const IsaProgram *p, const HarnessOptions *h, const VerifyOptions *o,
                               VerifyResult *r, GError **error)
{
    /* Generous: a fair schedule needs about threads x ops-per-acquisition steps per acquisition.
     * Saturating: at the workload table's maxima the product passes 64 bits. */
    guint64 bound = o->max_steps;
    if (!bound) {
        guint64 per = (guint64)h->threads * h->threads * (2000 + (guint64)h->cs_work + h->think);
        bound = per && h->iterations > (G_MAXUINT64 - 2000000) / per ? G_MAXUINT64
                                                                     : 2000000 + per * h->iterations;
    }
    r->ok = TRUE;
    for (guint k = 0; k < o->seeds; k++) {
        guint64 seed = o->first_seed + k;
        InterpOptions io = { .threads = h->threads, .seed = seed, .max_steps = bound, .line_size = o->line_size };
        g_autoptr(Interp) in = interp_new(p, &io, error);
        if (!in)
            return FALSE;
        interp_run(in);
        r->runs++;
        r->steps += interp_steps(in);
        r->max_readers = MAX(r->max_readers, interp_var(in, HARNESS_MAX_READERS));
        char *why = check_run(in, p, h);
        if (why) {
            r->ok = FALSE;
            r->failed_seed = seed;
            r->failure = why;
            break;
        }
    }
    return TRUE;
}

/* ======================================================================= explored */

typedef struct {
    const ExploreWorld *w;
    const ExploreState *s;
} Explored;

static uint64_t explored_var(const void *ctx, const char *name)
{
    const Explored *x = ctx;
    int sym = isa_program_find_sym(x->w->p, name);
    return sym < 0 ? 0 : explore_mem_load(x->w, x->s, isa_sym_addr(x->w->layout, (guint)sym, 0), 8);
}
static InterpThreadState explored_state(const void *ctx, guint t) { return ((const Explored *)ctx)->s->th[t].state; }
static int32_t explored_pc(const void *ctx, guint t) { return ((const Explored *)ctx)->s->th[t].pc; }
static uint64_t explored_acquired(const void *ctx, guint t) { return ((const Explored *)ctx)->s->th[t].marks[2]; }

/* The end check of a state where every thread halted. */
static char *explored_end(const ExploreWorld *w, const ExploreState *s, void *ctx)
{
    Explored x = { w, s };
    RunEnd e = { w->p, ctx, explored_var, explored_state, explored_pc, explored_acquired, &x };
    GString *g = g_string_new(NULL);
    check_counts(&e, TRUE, g);
    return problems(g);
}

/* The state search's progress line on stderr, for people waiting on a long search: every 3 s
 * after the first 3 (host time: never part of a result). */
typedef struct {
    gint64 started, printed;
} Progress;

static void explored_progress(guint64 states, guint64 transitions, void *ctx)
{
    Progress *pr = ctx;
    gint64 now = g_get_monotonic_time();
    if (now - pr->printed < 3 * G_USEC_PER_SEC)
        return;
    pr->printed = now;
    double secs = (double)(now - pr->started) / G_USEC_PER_SEC;
    g_printerr("qsim verify: %" G_GUINT64_FORMAT " states, %" G_GUINT64_FORMAT " transitions, %.0f states/s\n",
               states, transitions, states / secs);
}

static gboolean verify_explored(const IsaProgram *p, const HarnessOptions *h, const VerifyOptions *o,
                                VerifyResult *r, GError **error)
{
    HarnessSection ws, rs;
    harness_sections(p, &ws, &rs);
    ExploreRegion regions[2];
    guint n = 0;
    if (ws.first >= 0)
        regions[n++] = (ExploreRegion){ ws.first, ws.last, FALSE };
    if (rs.first >= 0)
        regions[n++] = (ExploreRegion){ rs.first, rs.last, TRUE };
    ExploreOptions eo = {
        .model = o->model, .threads = h->threads, .line_size = o->line_size, .sb_size = o->store_buffer,
        .max_states = o->max_states, .max_memory = o->max_memory, .regions = regions, .nregions = n,
        .end_check = explored_end, .ctx = (void *)h, .progress = explored_progress,
    };
    Progress pr = { g_get_monotonic_time(), g_get_monotonic_time() };
    eo.progress_ctx = &pr;
    if (!explore_run(p, &eo, &r->explore, error))
        return FALSE;
    r->ok = r->explore.verdict == EXPLORE_VERIFIED;
    r->max_readers = r->explore.max_shared;
    return TRUE;
}

/* ======================================================================= graphs */

typedef struct {
    const MmGraphEnd *e;
    const IsaProgram *p;
    const IsaLayout *layout;
} Graphed;

static uint64_t graphed_var(const void *ctx, const char *name)
{
    const Graphed *x = ctx;
    int sym = isa_program_find_sym(x->p, name);
    return sym < 0 ? 0 : mm_graph_end_load(x->e, isa_sym_addr(x->layout, (guint)sym, 0), 8);
}
static InterpThreadState graphed_state(const void *ctx, guint t) { return mm_graph_end_thread(((const Graphed *)ctx)->e, t)->state; }
static int32_t graphed_pc(const void *ctx, guint t) { return mm_graph_end_thread(((const Graphed *)ctx)->e, t)->pc; }
static uint64_t graphed_acquired(const void *ctx, guint t) { return mm_graph_end_thread(((const Graphed *)ctx)->e, t)->marks[2]; }

typedef struct {
    const IsaProgram *p;
    const HarnessOptions *h;
    IsaLayout *layout;
    guint64 max_readers;       /* the most readers inside at once, over the executions */
} GraphCtx;

static char *graphed_end(const MmGraphEnd *end, void *ctx)
{
    GraphCtx *c = ctx;
    Graphed x = { end, c->p, c->layout };
    c->max_readers = MAX(c->max_readers, graphed_var(&x, HARNESS_MAX_READERS));
    RunEnd e = { c->p, c->h, graphed_var, graphed_state, graphed_pc, graphed_acquired, &x };
    GString *g = g_string_new(NULL);
    check_counts(&e, TRUE, g);
    return problems(g);
}

/* A futex wait queue's value as its sleepers, oldest first: "[T1 T0]". */
static char *queue_text(uint64_t q)
{
    GString *g = g_string_new("[");
    for (; q; q >>= 4)
        g_string_append_printf(g, "%sT%u", g->len > 1 ? " " : "", (guint)(q & 15) - 1);
    g_string_append(g, "]");
    return g_string_free(g, FALSE);
}

/* A read step in words: the value at the access's size and the write(s) its bytes read. */
static char *graph_read_text(const ExploreTrace *tr, const MmGraphStep *x, const char *addr, const char *val)
{
    (void)tr;
    if (x->nsources <= 1)
        return x->source_step ? g_strdup_printf("read %s = %s (written by T%u at step %u)", addr, val,
                                                x->source_thread, x->source_step)
                              : g_strdup_printf("read %s = %s (the initial value)", addr, val);
    GString *g = g_string_new(NULL);
    g_string_append_printf(g, "read %s = %s (its bytes from ", addr, val);
    for (guint j = 0; j < x->nsources; j++) {
        const MmGraphLink *l = &x->sources[j];
        g_string_append(g, j == 0 ? "" : j + 1 == x->nsources ? " and " : ", ");
        if (l->step)
            g_string_append_printf(g, "T%u at step %u", l->thread, l->step);
        else
            g_string_append(g, "the initial value");
    }
    g_string_append(g, ")");
    return g_string_free(g, FALSE);
}

/* The newer writes a read step did not see, in words: the newest (with its op and place: an
 * earlier step, already in tr) and how many older ones; NULL when it saw the newest. */
static char *graph_not_seen_text(const ExploreTrace *tr, const MmGraphStep *x)
{
    if (!x->nunseen)
        return NULL;
    const MmGraphLink *l = &x->unseen[0];
    const ExploreStep *w = tr->steps->pdata[l->step - 1];
    guint older = x->unseen_total - 1;
    g_autofree char *more = older == 0   ? g_strdup("")
                            : older == 1 ? g_strdup(", nor an older write there")
                                         : g_strdup_printf(", nor %u older writes there", older);
    return g_strdup_printf("did not see T%u's %s at %s (step %u)%s", l->thread, w->op, w->at, l->step, more);
}

/* The failing graph's accesses as the counterexample steps verify prints. */
static ExploreTrace *graph_trace(const IsaProgram *p, const IsaLayout *layout, const GArray *steps)
{
    ExploreTrace *tr = explore_trace_new();
    tr->from_graph = TRUE;
    g_autofree guint *per_thread = g_new0(guint, layout->nthreads + 1);
    for (guint k = 0; k < steps->len; k++) {
        const MmGraphStep *x = &g_array_index(steps, MmGraphStep, k);
        ExploreStep *st = g_new0(ExploreStep, 1);
        st->step = k + 1;
        st->note.thread = x->thread;
        st->note.kind = EXPLORE_MOVE_STEP;
        st->note.pc = x->pc;
        st->thread_step = ++per_thread[MIN(x->thread, layout->nthreads)];
        const IsaInsn *in = x->pc >= 0 && (guint)x->pc < p->insns->len ? &g_array_index(p->insns, IsaInsn, x->pc) : NULL;
        st->op = in ? asm_format_insn(p, in) : g_strdup("?");
        st->at = in ? isa_insn_pos(p, in) : g_strdup("?");
        gboolean queue = x->kind != MM_FENCE && (x->addr & MM_GRAPH_QUEUE_ADDR);
        if (x->kind != MM_FENCE) {
            uint64_t a = x->addr & ~MM_GRAPH_QUEUE_ADDR;
            g_autofree char *sym = isa_layout_symbolize(p, layout, a);
            g_autofree char *name = sym ? g_strdup(sym) : g_strdup_printf("0x%" G_GINT64_MODIFIER "x", a);
            st->addr = queue ? g_strdup_printf("the futex queue of %s", name) : g_strdup(name);
        }
        g_autofree char *val = queue ? queue_text(x->value) : g_strdup_printf("%" G_GUINT64_FORMAT, x->value);
        if (x->kind == MM_READ) {
            st->note.read = TRUE;
            st->note.raddr = x->addr;
            st->note.rvalue = x->value;
            st->note.rsize = x->size;
            st->source = x->source_step ? "memory" : "initial";
            st->source_step = x->source_step;
            st->source_thread = x->source_thread;
            st->what = graph_read_text(tr, x, st->addr, val);
            st->nsources = MIN(x->nsources, EXPLORE_STEP_LINKS);
            for (guint j = 0; j < st->nsources; j++)
                st->sources[j] = (ExploreLink){ x->sources[j].step, x->sources[j].thread };
            st->nunseen = MIN(x->nunseen, EXPLORE_STEP_LINKS);
            for (guint j = 0; j < st->nunseen; j++)
                st->unseen[j] = (ExploreLink){ x->unseen[j].step, x->unseen[j].thread };
            st->not_seen = graph_not_seen_text(tr, x);
            if (x->wrote) {
                g_autofree char *wval = queue ? queue_text(x->wvalue) : g_strdup_printf("%" G_GUINT64_FORMAT, x->wvalue);
                g_autofree char *read = st->what;
                st->note.wrote = TRUE;
                st->note.waddr = x->addr;
                st->note.wvalue = x->wvalue;
                st->note.wsize = x->wsize;
                st->what = g_strdup_printf("%s, wrote %s", read, wval);
            }
        } else if (x->kind == MM_WRITE) {
            st->note.wrote = TRUE;
            st->note.waddr = x->addr;
            st->note.wvalue = x->value;
            st->note.wsize = x->size;
            st->what = g_strdup_printf("wrote %s = %s", st->addr, val);
        } else {
            st->what = g_strdup("fence");
        }
        g_ptr_array_add(tr->steps, st);
    }
    tr->end = g_strdup("(every event of the graph is above)\n");
    return tr;
}

static gboolean verify_graphs(const IsaProgram *p, const HarnessOptions *h, const VerifyOptions *o,
                              VerifyResult *r, GError **error)
{
    const MmModelDef *def = mm_model_def_find(o->model->name);
    if (!def) {
        g_set_error(error, MM_ERROR, MM_ERROR_UNSUPPORTED, "no axiomatic model %s for the graph explorer", o->model->name);
        return FALSE;
    }
    GraphCtx c = { p, h, isa_layout_new(p, h->threads, o->line_size ? o->line_size : 64, INTERP_BASE), 0 };
    MmGraphOptions go = {
        .prog = p, .nthreads = h->threads, .line_size = o->line_size, .model = def, .arch = o->target.arch,
        .unroll = o->unroll, .max_graphs = o->max_states, .end_check = graphed_end, .ctx = &c,
    };
    MmGraphResult gr;
    gboolean ok = mm_graph_explore(&go, &gr, error);
    if (ok) {
        ExploreResult *x = &r->explore;
        x->verdict = gr.verdict == MM_GRAPH_VERIFIED ? EXPLORE_VERIFIED
                     : gr.verdict == MM_GRAPH_FAILED ? EXPLORE_FAILED : EXPLORE_INCOMPLETE;
        x->property = gr.failure == MM_GRAPH_FAIL_END ? EXPLORE_PROP_END
                      : gr.failure == MM_GRAPH_FAIL_FAULT ? EXPLORE_PROP_FAULT
                      : gr.failure == MM_GRAPH_FAIL_LIVENESS ? EXPLORE_PROP_NO_FINISH : EXPLORE_PROP_NONE;
        x->cut = gr.verdict == MM_GRAPH_BOUND ? EXPLORE_CUT_MODEL : EXPLORE_CUT_NONE;
        x->message = g_steal_pointer(&gr.message);
        x->states = gr.graphs;
        x->transitions = gr.executions;
        x->finished = gr.executions;
        x->seconds = gr.seconds;
        x->graphs = TRUE;
        x->blocked = gr.blocked;
        x->max_shared = c.max_readers;
        r->max_readers = c.max_readers;
        if (gr.verdict == MM_GRAPH_FAILED)
            x->trace = graph_trace(p, c.layout, gr.steps);
        r->ok = x->verdict == EXPLORE_VERIFIED;
    }
    mm_graph_result_clear(&gr);
    isa_layout_free(c.layout);
    return ok;
}

gboolean verify_lock(const char *lock_name, const char *lock_text, const VerifyOptions *o,
                     VerifyResult *r, GError **error)
{
    memset(r, 0, sizeof *r);
    HarnessOptions h;
    workload_harness(&o->workload, &h);
    h.release_stores = o->model && o->model->has_promises && !o->graphs;
    h.unrolled = h.release_stores;
    if (!verify_reach_check(&h, o, error))
        return FALSE;
    g_autoptr(IsaProgram) p = harness_assemble(lock_name, lock_text, &h, o->target, o->lock_params, error);
    if (!p)
        return FALSE;
    if (o->model && o->graphs) {
        GError *refused = NULL;
        if (verify_graphs(p, &h, o, r, &refused))
            return TRUE;
        if (!g_error_matches(refused, MM_ERROR, MM_ERROR_UNSUPPORTED)) {
            g_propagate_error(error, refused);
            return FALSE;
        }
        /* what the graph engine refuses (futex ops with more than 15 threads): the state search
         * explores it (the verdict says so) */
        r->graphs_refused = g_strdup(refused->message);
        g_error_free(refused);
        if (o->model->has_promises) {
            h.release_stores = h.unrolled = TRUE;
            g_autoptr(IsaProgram) q = harness_assemble(lock_name, lock_text, &h, o->target, o->lock_params, error);
            return q && verify_explored(q, &h, o, r, error);
        }
        return verify_explored(p, &h, o, r, error);
    }
    return o->model ? verify_explored(p, &h, o, r, error) : verify_sampled(p, &h, o, r, error);
}
