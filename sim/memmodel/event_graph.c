/* The event graph of a candidate execution (see event_graph.h). */
#include <string.h>
#include "sim/memmodel/event_graph.h"

void mm_graph_init(MmGraph *g)
{
    g->n = 0;
}

void mm_graph_clear(MmGraph *g)
{
    g_free(g->ev);
    for (guint s = 0; s < MM_SET__COUNT; s++)
        mm_set_free(&g->sets[s]);
    for (guint r = 0; r < MM_REL__COUNT; r++)
        mm_rel_free(&g->rels[r]);
    memset(g, 0, sizeof *g);
}

guint mm_graph_add(MmGraph *g, const MmEvent *e)
{
    if (g->n >= g->cap) {
        g->cap = MAX(64, g->cap * 2);
        g->ev = g_renew(MmEvent, g->ev, g->cap);
    }
    g->ev[g->n] = *e;
    return g->n++;
}

static void set_of(const MmGraph *g, gboolean (*is)(const MmEvent *e), MmSet *out)
{
    mm_set_clear(out, g->n);
    for (guint i = 0; i < g->n; i++)
        if (is(&g->ev[i]))
            mm_set_add(out, i);
}

static gboolean is_r(const MmEvent *e) { return e->kind == MM_READ; }
static gboolean is_w(const MmEvent *e) { return e->kind == MM_WRITE; }
static gboolean is_m(const MmEvent *e) { return e->kind != MM_FENCE; }
static gboolean is_f(const MmEvent *e) { return e->kind == MM_FENCE; }
static gboolean is_iw(const MmEvent *e) { return (e->flags & MM_INIT) != 0; }
static gboolean is_a(const MmEvent *e) { return (e->flags & MM_ACQ) != 0; }
static gboolean is_q(const MmEvent *e) { return (e->flags & MM_ACQ_PC) != 0; }
static gboolean is_l(const MmEvent *e) { return (e->flags & MM_REL) != 0; }
static gboolean is_noret(const MmEvent *e) { return (e->flags & MM_NORET) != 0; }
static gboolean is_x(const MmEvent *e) { return (e->flags & MM_ATOMIC) != 0; }
static gboolean is_full(const MmEvent *e) { return e->kind == MM_FENCE && e->fence == MM_FENCE_FULL; }
static gboolean is_ld(const MmEvent *e) { return e->kind == MM_FENCE && e->fence == MM_FENCE_LOAD; }
static gboolean is_st(const MmEvent *e) { return e->kind == MM_FENCE && e->fence == MM_FENCE_STORE; }
static gboolean is_isb(const MmEvent *e) { return e->kind == MM_FENCE && e->fence == MM_FENCE_ISB; }

/* The sets, in MmSetName order, with the names models use for them. */
static const struct {
    const char *name, *alias;
    gboolean (*is)(const MmEvent *e);
} set_table[MM_SET__COUNT] = {
    [MM_SET_R] = { "R", NULL, is_r },
    [MM_SET_W] = { "W", NULL, is_w },
    [MM_SET_M] = { "M", NULL, is_m },
    [MM_SET_F] = { "F", NULL, is_f },
    [MM_SET_IW] = { "IW", NULL, is_iw },
    [MM_SET_A] = { "A", NULL, is_a },
    [MM_SET_Q] = { "Q", NULL, is_q },
    [MM_SET_L] = { "L", NULL, is_l },
    [MM_SET_NORET] = { "NoRet", NULL, is_noret },
    [MM_SET_X] = { "X", NULL, is_x },
    [MM_SET_FENCE_FULL] = { "DMB.FULL", "MFENCE", is_full },
    [MM_SET_FENCE_LOAD] = { "DMB.LD", "LFENCE", is_ld },
    [MM_SET_FENCE_STORE] = { "DMB.ST", "SFENCE", is_st },
    [MM_SET_ISB] = { "ISB", NULL, is_isb },
};

static const char *const rel_names[MM_REL__COUNT] = {
    [MM_REL_ID] = "id",
    [MM_REL_PO] = "po",
    [MM_REL_LOC] = "loc",
    [MM_REL_EXT] = "ext",
    [MM_REL_INT] = "int",
    [MM_REL_SAME_INSTANCE] = "same-instance",
    [MM_REL_SCA_CLASS] = "sca-class",
    [MM_REL_RMW] = "rmw",
    [MM_REL_AMO] = "amo",
    [MM_REL_LXSX] = "lxsx",
    [MM_REL_ADDR] = "addr",
    [MM_REL_DATA] = "data",
    [MM_REL_CTRL] = "ctrl",
    [MM_REL_PICK_ADDR] = "pick-addr-dep",
    [MM_REL_PICK_DATA] = "pick-data-dep",
    [MM_REL_PICK_CTRL] = "pick-ctrl-dep",
    [MM_REL_PICK_BASIC] = "pick-basic-dep",
    [MM_REL_RF] = "rf",
    [MM_REL_CO] = "co",
};

gboolean mm_graph_builtin(const char *name, gboolean *is_set, guint *index)
{
    for (guint i = 0; i < MM_SET__COUNT; i++)
        if (!strcmp(name, set_table[i].name) || (set_table[i].alias && !strcmp(name, set_table[i].alias))) {
            *is_set = TRUE;
            *index = i;
            return TRUE;
        }
    for (guint i = 0; i < MM_REL__COUNT; i++)
        if (!strcmp(name, rel_names[i])) {
            *is_set = FALSE;
            *index = i;
            return TRUE;
        }
    return FALSE;
}

/* The static relations by comparing every pair: for graphs whose threads' events are not each
 * in one run of indices in program order (none of qsim's builders make those). */
static void finish_pairwise(MmGraph *g)
{
    guint n = g->n;
    for (guint i = 0; i < n; i++) {
        const MmEvent *a = &g->ev[i];
        for (guint j = 0; j < n; j++) {
            const MmEvent *b = &g->ev[j];
            /* An initial write is on no thread: external to every event, even another one. */
            gboolean same_thread = a->thread >= 0 && a->thread == b->thread;
            if (same_thread && a->instance < b->instance)
                mm_rel_add(&g->rels[MM_REL_PO], i, j);
            if (same_thread && a->instance == b->instance)
                mm_rel_add(&g->rels[MM_REL_SAME_INSTANCE], i, j);
            /* the bytes of one access (an initial write is its own class) */
            if (a->kind != MM_FENCE && a->kind == b->kind && (i == j || (same_thread && a->instance == b->instance)))
                mm_rel_add(&g->rels[MM_REL_SCA_CLASS], i, j);
            if (same_thread)
                mm_rel_add(&g->rels[MM_REL_INT], i, j);
            else
                mm_rel_add(&g->rels[MM_REL_EXT], i, j);
            if (a->loc >= 0 && a->loc == b->loc)
                mm_rel_add(&g->rels[MM_REL_LOC], i, j);
        }
    }
}

/* Row i of r gains the events [lo, hi). */
static void row_range(MmRel *r, guint i, guint lo, guint hi)
{
    uint64_t *row = mm_rel_row(r, i);
    for (guint j = lo; j < hi;) {
        guint w = j >> 6, b = j & 63, k = MIN(64 - b, hi - j);
        row[w] |= (k == 64 ? ~(uint64_t)0 : (((uint64_t)1 << k) - 1)) << b;
        j += k;
    }
}

/* Whether each thread's events are one run of indices, instances never going down in it (the
 * order mm_graph_add's callers keep). */
static gboolean threads_in_runs(const MmGraph *g)
{
    GHashTable *done = g_hash_table_new(NULL, NULL);
    gboolean ok = TRUE;
    for (guint i = 0; i < g->n && ok; i++) {
        const MmEvent *a = &g->ev[i];
        if (a->thread < 0)
            continue;
        gboolean cont = i > 0 && g->ev[i - 1].thread == a->thread;
        if (cont)
            ok = g->ev[i - 1].instance <= a->instance;
        else
            ok = g_hash_table_add(done, GINT_TO_POINTER(a->thread + 1));
    }
    g_hash_table_destroy(done);
    return ok;
}

/* The same relations row by row, from each thread's run and each instance's run within it; loc
 * from each location's events in a chain.  Linear in the rows' words, where the pairwise
 * comparison is quadratic in the events (it was a fifth of a graph search's time). */
static void finish_runs(MmGraph *g)
{
    guint n = g->n;
    for (guint ts = 0, te; ts < n; ts = te) {
        te = ts + 1;
        const MmEvent *a = &g->ev[ts];
        if (a->thread < 0) {
            row_range(&g->rels[MM_REL_EXT], ts, 0, n);
            if (a->kind != MM_FENCE)
                mm_rel_add(&g->rels[MM_REL_SCA_CLASS], ts, ts);
            continue;
        }
        while (te < n && g->ev[te].thread == a->thread)
            te++;
        for (guint gs = ts, ge; gs < te; gs = ge) {
            ge = gs + 1;
            while (ge < te && g->ev[ge].instance == g->ev[gs].instance)
                ge++;
            for (guint i = gs; i < ge; i++) {
                row_range(&g->rels[MM_REL_INT], i, ts, te);
                row_range(&g->rels[MM_REL_EXT], i, 0, ts);
                row_range(&g->rels[MM_REL_EXT], i, te, n);
                row_range(&g->rels[MM_REL_PO], i, ge, te);
                row_range(&g->rels[MM_REL_SAME_INSTANCE], i, gs, ge);
                /* the bytes of one access */
                for (guint j = gs; j < ge; j++)
                    if (g->ev[i].kind != MM_FENCE && g->ev[i].kind == g->ev[j].kind)
                        mm_rel_add(&g->rels[MM_REL_SCA_CLASS], i, j);
            }
        }
    }
    int maxloc = -1;
    for (guint i = 0; i < n; i++)
        maxloc = MAX(maxloc, g->ev[i].loc);
    g_autofree int *head = g_new(int, maxloc + 2), *next = g_new(int, n + 1);
    for (int l = 0; l <= maxloc; l++)
        head[l] = -1;
    for (guint i = n; i-- > 0;)
        if (g->ev[i].loc >= 0) {
            next[i] = head[g->ev[i].loc];
            head[g->ev[i].loc] = (int)i;
        }
    for (int l = 0; l <= maxloc; l++)
        for (int i = head[l]; i >= 0; i = next[i])
            for (int j = head[l]; j >= 0; j = next[j])
                mm_rel_add(&g->rels[MM_REL_LOC], (guint)i, (guint)j);
}

void mm_graph_finish(MmGraph *g)
{
    guint n = g->n;
    for (guint s = 0; s < MM_SET__COUNT; s++)
        set_of(g, set_table[s].is, &g->sets[s]);
    for (guint r = 0; r < MM_REL__COUNT; r++)
        mm_rel_clear(&g->rels[r], n);
    for (guint i = 0; i < n; i++)
        mm_rel_add(&g->rels[MM_REL_ID], i, i);
    if (threads_in_runs(g))
        finish_runs(g);
    else
        finish_pairwise(g);
}
