/* The search (see memmodel.h).  The values a read may return are found first, as a fixed point:
 * start from the initial values, run every thread's paths with reads returning any value known
 * for their location, add every value written, and repeat until nothing new appears.  Then
 * every combination of one path per thread is one event graph, whose candidates
 * (candidates.c) the model judges; each allowed candidate's final state (registers from the
 * paths, memory from the last write of each location in co) is counted. */
#include <string.h>
#include "sim/memmodel/memmodel.h"
#include "sim/memmodel/candidates.h"
#include "sim/memmodel/thread_paths.h"

#define MM_MAX_VALUES 32       /* per location */
#define MM_MAX_ROUNDS 64       /* of the value fixed point */
#define MM_MAX_GRAPHS (1u << 22)

G_DEFINE_QUARK(mm-error-quark, mm_error)

static void outcome_free(MmOutcome *o)
{
    g_free(o->regs);
    g_free(o->mem);
    g_free(o);
}

void mm_result_free(MmResult *r)
{
    if (!r)
        return;
    g_ptr_array_free(r->outcomes, TRUE);
    g_free(r);
}

typedef struct {
    const MmProblem *p;
    MmResult *res;
    GHashTable *seen;          /* GBytes (registers, memory) -> MmOutcome* */
    const MmPath **chosen;     /* per thread */
} ExploreCtx;

/* An allowed candidate: its final state, counted. */
static void on_consistent(void *ctx, const MmGraph *g)
{
    ExploreCtx *x = ctx;
    const MmProblem *p = x->p;
    gsize nregs = (gsize)p->nthreads * ISA_NREG_SLOTS;
    g_autofree uint64_t *state = g_new0(uint64_t, nregs + p->nlocs);
    for (guint t = 0; t < p->nthreads; t++)
        memcpy(&state[t * ISA_NREG_SLOTS], x->chosen[t]->regs, sizeof(uint64_t) * ISA_NREG_SLOTS);
    /* a location's final value is its co-last write's: the one with no write after it */
    for (guint i = 0; i < g->n; i++)
        if (g->ev[i].kind == MM_WRITE && mm_rel_row_is_empty(&g->rels[MM_REL_CO], i))
            state[nregs + (guint)g->ev[i].loc] = g->ev[i].value;
    g_autoptr(GBytes) key = g_bytes_new(state, sizeof(uint64_t) * (nregs + p->nlocs));
    MmOutcome *o = g_hash_table_lookup(x->seen, key);
    if (!o) {
        o = g_new0(MmOutcome, 1);
        o->regs = g_memdup2(state, sizeof(uint64_t) * nregs);
        o->mem = g_memdup2(state + nregs, sizeof(uint64_t) * p->nlocs);
        g_ptr_array_add(x->res->outcomes, o);
        g_hash_table_insert(x->seen, g_bytes_ref(key), o);
    }
    o->executions++;
}

/* Adds v to a location's values; FALSE (error set) when there would be too many. */
static gboolean add_value(GArray *vs, uint64_t v, guint loc, gboolean *grew, GError **error)
{
    for (guint i = 0; i < vs->len; i++)
        if (g_array_index(vs, uint64_t, i) == v)
            return TRUE;
    if (vs->len >= MM_MAX_VALUES) {
        g_set_error(error, MM_ERROR, MM_ERROR_TOO_BIG, "location %u takes more than %d values", loc, MM_MAX_VALUES);
        return FALSE;
    }
    g_array_append_val(vs, v);
    *grew = TRUE;
    return TRUE;
}

/* The most writes an execution can have: each thread's longest path, in writes, summed. */
static guint most_writes(const MmProblem *p, GPtrArray **paths)
{
    guint total = 0;
    for (guint t = 0; t < p->nthreads; t++) {
        guint most = 0;
        for (guint k = 0; k < paths[t]->len; k++) {
            const MmPath *path = paths[t]->pdata[k];
            guint w = 0;
            for (guint i = 0; i < path->nev; i++)
                w += path->ev[i].ev.kind == MM_WRITE;
            most = MAX(most, w);
        }
        total += most;
    }
    return total;
}

/* The values reads may return, each thread's paths for them left in paths[t].  Round j runs
 * the paths with the values known, which include every value written at the end of a chain
 * of j reads-from steps (a write whose value came from a read of a write whose value came
 * ...).  An allowed execution has no cycle of such steps (every model orders a read before a
 * write its value reaches, and a write before the reads that read it), so no chain is longer
 * than its writes: rounds stop there, even where values would go on growing (two fetch-and-adds
 * feeding each other), or earlier when nothing new appears. */
static gboolean settle_values(const MmProblem *p, GArray **values, GPtrArray **paths, MmResult *res, GError **error)
{
    for (guint round = 0; round < MM_MAX_ROUNDS; round++) {
        gboolean grew = FALSE;
        res->paths_cut = res->paths_dropped = 0;
        for (guint t = 0; t < p->nthreads; t++) {
            g_ptr_array_set_size(paths[t], 0);
            if (!mm_thread_paths(p, t, values, paths[t], &res->paths_cut, &res->paths_dropped, error))
                return FALSE;
        }
        if (round >= most_writes(p, paths))
            return TRUE;
        for (guint t = 0; t < p->nthreads; t++)
            for (guint k = 0; k < paths[t]->len; k++) {
                const MmPath *path = paths[t]->pdata[k];
                for (guint i = 0; i < path->nev; i++) {
                    const MmEvent *e = &path->ev[i].ev;
                    if (e->kind == MM_WRITE && !add_value(values[e->loc], e->value, (guint)e->loc, &grew, error))
                        return FALSE;
                }
            }
        if (!grew)
            return TRUE;
    }
    g_set_error(error, MM_ERROR, MM_ERROR_TOO_BIG, "the values of the locations did not settle in %d rounds",
                MM_MAX_ROUNDS);
    return FALSE;
}

/* Mixed-size accesses are not modelled yet (rf and co are per location, a write replaces the
 * whole value): a write narrower than another access to its location would be read back as
 * if it had written every byte, a wrong state given as exact.  A narrower read of a location's
 * low bytes is fine (the value cut to its size is what it reads, little-endian).  FALSE with
 * an error naming the location when some path writes narrower than the widest access. */
static gboolean check_access_sizes(const MmProblem *p, GPtrArray **paths, GError **error)
{
    g_autofree guint *widest = g_new0(guint, p->nlocs + 1), *narrowest_write = g_new0(guint, p->nlocs + 1);
    for (guint t = 0; t < p->nthreads; t++)
        for (guint k = 0; k < paths[t]->len; k++) {
            const MmPath *path = paths[t]->pdata[k];
            for (guint i = 0; i < path->nev; i++) {
                const MmEvent *e = &path->ev[i].ev;
                if (e->kind == MM_FENCE)
                    continue;
                widest[e->loc] = MAX(widest[e->loc], e->size);
                if (e->kind == MM_WRITE && (!narrowest_write[e->loc] || e->size < narrowest_write[e->loc]))
                    narrowest_write[e->loc] = e->size;
            }
        }
    for (guint l = 0; l < p->nlocs; l++)
        if (narrowest_write[l] && narrowest_write[l] < widest[l]) {
            g_set_error(error, MM_ERROR, MM_ERROR_UNSUPPORTED, "location 0x%" G_GINT64_MODIFIER "x has a %u-byte write "
                        "and a %u-byte access: mixed-size accesses are not modelled", p->locs[l].addr,
                        narrowest_write[l], widest[l]);
            return FALSE;
        }
    return TRUE;
}

/* The dependency sets of a path's events as relations of g (the path's events from `base`). */
static void add_dependencies(MmGraph *g, const MmPath *path, guint base)
{
    static const struct { MmRelName rel; gsize off; } deps[] = {
        { MM_REL_ADDR, G_STRUCT_OFFSET(MmPathEvent, addr_t) },
        { MM_REL_DATA, G_STRUCT_OFFSET(MmPathEvent, data_t) },
        { MM_REL_CTRL, G_STRUCT_OFFSET(MmPathEvent, ctrl_t) },
        { MM_REL_PICK_ADDR, G_STRUCT_OFFSET(MmPathEvent, addr_p) },
        { MM_REL_PICK_DATA, G_STRUCT_OFFSET(MmPathEvent, data_p) },
        { MM_REL_PICK_CTRL, G_STRUCT_OFFSET(MmPathEvent, ctrl_p) },
        { MM_REL_PICK_BASIC, G_STRUCT_OFFSET(MmPathEvent, reach_p) },
    };
    for (guint i = 0; i < path->nev; i++) {
        const MmPathEvent *e = &path->ev[i];
        for (guint d = 0; d < G_N_ELEMENTS(deps); d++) {
            uint64_t from = G_STRUCT_MEMBER(uint64_t, e, deps[d].off);
            for (; from; from &= from - 1)
                mm_rel_add(&g->rels[deps[d].rel], base + (guint)__builtin_ctzll(from), base + i);
        }
        if (e->ev.kind == MM_READ && e->pair >= 0) {
            guint w = base + (guint)e->pair;
            mm_rel_add(&g->rels[MM_REL_RMW], base + i, w);
            mm_rel_add(&g->rels[e->amo ? MM_REL_AMO : MM_REL_LXSX], base + i, w);
        }
    }
}

/* The graph of one path per thread, after the initial writes. */
static void build_graph(const MmProblem *p, const MmPath *const *chosen, MmGraph *g)
{
    mm_graph_init(g);
    for (guint l = 0; l < p->nlocs; l++) {
        MmEvent iw = { MM_WRITE, -1, 0, (int)l, p->locs[l].init, 8, MM_INIT, MM_FENCE_NONE, -1 };
        mm_graph_add(g, &iw);
    }
    g_autofree guint *base = g_new0(guint, p->nthreads + 1);
    for (guint t = 0; t < p->nthreads; t++) {
        base[t] = g->n;
        for (guint i = 0; i < chosen[t]->nev; i++)
            mm_graph_add(g, &chosen[t]->ev[i].ev);
    }
    mm_graph_finish(g);
    for (guint t = 0; t < p->nthreads; t++)
        add_dependencies(g, chosen[t], base[t]);
}

/* Every combination of one path per thread, in order (the last thread's path turning fastest). */
static gboolean each_combination(ExploreCtx *x, GPtrArray **paths, MmEval *ev, GError **error)
{
    const MmProblem *p = x->p;
    guint64 graphs = 1;
    for (guint t = 0; t < p->nthreads; t++)
        graphs *= paths[t]->len;
    if (graphs > MM_MAX_GRAPHS) {
        g_set_error(error, MM_ERROR, MM_ERROR_TOO_BIG, "%" G_GUINT64_FORMAT " combinations of thread paths (the "
                    "search takes %u)", graphs, MM_MAX_GRAPHS);
        return FALSE;
    }
    g_autofree guint *idx = g_new0(guint, p->nthreads + 1);
    g_auto(MmGraph) g = MM_GRAPH_INIT;
    MmCandidateCounts counts = { 0, 0 };
    for (guint64 k = 0; k < graphs; k++) {
        for (guint t = 0; t < p->nthreads; t++)
            x->chosen[t] = paths[t]->pdata[idx[t]];
        build_graph(p, x->chosen, &g);
        mm_candidates_run(&g, ev, on_consistent, x, &counts);
        for (guint t = p->nthreads; t-- > 0;) {
            if (++idx[t] < paths[t]->len)
                break;
            idx[t] = 0;
        }
    }
    x->res->candidates = counts.candidates;
    x->res->consistent = counts.consistent;
    return TRUE;
}

MmResult *mm_explore(const MmProblem *p, GError **error)
{
    g_autoptr(MmModel) model = mm_model_compile(p->model, error);
    if (!model)
        return NULL;
    g_autoptr(MmResult) res = g_new0(MmResult, 1);
    res->outcomes = g_ptr_array_new_with_free_func((GDestroyNotify)outcome_free);
    GArray **values = g_new0(GArray *, p->nlocs + 1);
    GPtrArray **paths = g_new0(GPtrArray *, p->nthreads + 1);
    for (guint l = 0; l < p->nlocs; l++) {
        values[l] = g_array_new(FALSE, FALSE, sizeof(uint64_t));
        g_array_append_val(values[l], p->locs[l].init);
    }
    for (guint t = 0; t < p->nthreads; t++)
        paths[t] = g_ptr_array_new_with_free_func((GDestroyNotify)mm_path_free);
    gboolean ok = settle_values(p, values, paths, res, error) && check_access_sizes(p, paths, error);
    if (ok) {
        g_autoptr(MmEval) ev = mm_eval_new(model);
        g_autofree const MmPath **chosen = g_new0(const MmPath *, p->nthreads + 1);
        ExploreCtx x = { p, res, g_hash_table_new_full(g_bytes_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref,
                                                       NULL), chosen };
        ok = each_combination(&x, paths, ev, error);
        g_hash_table_destroy(x.seen);
    }
    for (guint l = 0; l < p->nlocs; l++)
        g_array_free(values[l], TRUE);
    for (guint t = 0; t < p->nthreads; t++)
        g_ptr_array_free(paths[t], TRUE);
    g_free(values);
    g_free(paths);
    return ok ? g_steal_pointer(&res) : NULL;
}
