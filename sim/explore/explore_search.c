/* The breadth-first search (see explore.h).  States get ids in the order they are found and
 * are expanded in id order, so ids are breadth-first and the first state that fails a check is
 * one of the nearest to the start; its path (parent links) is a shortest counterexample. */
#include <string.h>
#include "sim/explore/explore.h"
#include "sim/explore/explore_exec.h"
#include "sim/explore/explore_table.h"
#include "sim/explore/explore_finish.h"
#include "cores/isa/asm.h"

/* A move in 32 bits: outcome (16) | thread (12) | kind (4). */
static uint32_t move_pack(ExploreMove m) { return (uint32_t)m.arg << 16 | (uint32_t)m.thread << 4 | (uint32_t)m.kind; }
static ExploreMove move_unpack(uint32_t v)
{
    return (ExploreMove){ (v >> 4) & 0xfff, (ExploreMoveKind)(v & 15), v >> 16 };
}

/* A search's working set. */
typedef struct {
    const ExploreOptions *o;
    ExploreWorld *w;
    ExploreTable table;
    guint8 *region_of;         /* per pc: 0 outside, 1 exclusive, 2 shared */
    GArray *edges;             /* uint32 successor ids, state by state */
    GArray *edge_at;           /* uint32 per expanded state: its first edge; one more at the end */
    GByteArray *unsettled;     /* per expanded state: 1 when a thread's position is not settled (arm64: it
                                * holds a promise; the search fulfils only needed ones, model_arm64.c) */
    guint64 max_states, max_memory;
} Search;

const char *explore_property_name(ExploreProperty p)
{
    switch (p) {
    case EXPLORE_PROP_NONE: return "none";
    case EXPLORE_PROP_EXCLUSION: return "mutual-exclusion";
    case EXPLORE_PROP_FAULT: return "fault";
    case EXPLORE_PROP_DEADLOCK: return "deadlock";
    case EXPLORE_PROP_END: return "end-state";
    case EXPLORE_PROP_NO_FINISH: return "no-finish";
    }
    return "?";
}

const char *explore_cut_option(ExploreCut c)
{
    switch (c) {
    case EXPLORE_CUT_NONE: return "";
    case EXPLORE_CUT_STATES: return "--max-states";
    case EXPLORE_CUT_MEMORY: return "--max-memory";
    case EXPLORE_CUT_BUFFER: return "--store-buffer";
    case EXPLORE_CUT_MODEL: return "arm64";
    }
    return "?";
}

void explore_result_clear(ExploreResult *r)
{
    g_clear_pointer(&r->message, g_free);
    g_clear_pointer(&r->trace, explore_trace_free);
}

/* ======================================================================= checks */

static char *thread_at(const ExploreWorld *w, const ExploreState *s, guint t)
{
    const IsaInsn *i = explore_insn(w, s, t);
    if (!i)
        return g_strdup_printf("T%u at pc %d", t, s->th[t].pc);
    g_autofree char *pos = isa_insn_pos(w->p, i);
    g_autofree char *txt = asm_format_insn(w->p, i);
    return g_strdup_printf("T%u at %s `%s`", t, pos, txt);
}

/* Two threads inside exclusive regions, or one inside an exclusive and one in a shared: what,
 * or NULL.  *shared: how many are inside shared regions. */
static char *check_regions(const Search *x, const ExploreState *s, guint64 *shared)
{
    const ExploreWorld *w = x->w;
    guint n = w->p->insns->len, writer = G_MAXUINT, other = G_MAXUINT;
    *shared = 0;
    for (guint t = 0; t < w->nthreads; t++) {
        int32_t pc = s->th[t].pc;
        if (s->th[t].state == THREAD_HALTED || pc < 0 || (guint)pc >= n || !x->region_of[pc])
            continue;
        if (x->o->model->position_settled && !x->o->model->position_settled(s, t))
            continue;
        if (x->region_of[pc] == 2) {
            (*shared)++;
            if (other == G_MAXUINT)
                other = t;
        } else if (writer == G_MAXUINT) {
            writer = t;
        } else {
            other = t;
        }
    }
    if (writer == G_MAXUINT || other == G_MAXUINT)
        return NULL;
    g_autofree char *a = thread_at(w, s, writer), *b = thread_at(w, s, other);
    gboolean reader = x->region_of[s->th[other].pc] == 2;
    return g_strdup_printf("%s: T%u and T%u are inside at once (%s; %s)",
                           reader ? "a writer and a reader are inside together" : "two writers are inside the critical section",
                           MIN(writer, other), MAX(writer, other), a, b);
}

static char *check_fault(const ExploreWorld *w, const ExploreState *s)
{
    for (guint t = 0; t < w->nthreads; t++) {
        const ExploreThread *th = &s->th[t];
        if (th->state != THREAD_FAULT)
            continue;
        if (th->fault_kind == EXPLORE_FAULT_RUNAWAY) {
            g_autofree char *at = thread_at(w, s, t);
            return g_strdup_printf("%s ran %d ops without a memory access, fence or system call: a loop that no "
                                   "other thread can end", at, EXPLORE_RUNAWAY_OPS);
        }
        return isa_fault_report(w->p, w->layout, t, th->pc, (IsaFaultKind)th->fault_kind, th->fault_addr,
                                th->fault_size);
    }
    return NULL;
}

static char *describe_blocked(const ExploreWorld *w, const ExploreState *s)
{
    GString *g = g_string_new("no thread can move and not every thread finished:");
    for (guint t = 0; t < w->nthreads; t++) {
        const ExploreThread *th = &s->th[t];
        if (th->state == THREAD_HALTED)
            continue;
        g_autofree char *at = thread_at(w, s, t);
        if (th->state == THREAD_WFE)
            g_string_append_printf(g, " %s waits in wfe with no event to come;", at);
        else if (th->state == THREAD_FUTEX) {
            g_autofree char *sym = isa_layout_symbolize(w->p, w->layout, th->futex_addr);
            g_string_append_printf(g, " %s sleeps in futex_wait on %s with no futex_wake to come (a lost wake-up);", at,
                                   sym ? sym : "its word");
        } else {
            g_string_append_printf(g, " %s cannot run;", at);
        }
    }
    g->str[g->len - 1] = '\0';
    return g_string_free(g, FALSE);
}

/* ======================================================================= the search */

static void fail(Search *x, ExploreResult *r, ExploreProperty p, char *message, uint32_t id)
{
    r->verdict = EXPLORE_FAILED;
    r->property = p;
    r->message = message;
    GArray *path = g_array_new(FALSE, FALSE, sizeof(ExploreMove));
    for (uint32_t at = id; explore_table_rec(&x->table, at)->parent != EXPLORE_NO_PARENT;
         at = explore_table_rec(&x->table, at)->parent) {
        ExploreMove m = move_unpack(explore_table_rec(&x->table, at)->move);
        g_array_prepend_val(path, m);
    }
    r->trace = explore_trace_build(x->w, x->o->model, (const ExploreMove *)path->data, path->len);
    r->trace->without_promises = x->w->first_pass;
    g_array_free(path, TRUE);
}

static guint64 search_memory(const Search *x)
{
    return explore_table_memory(&x->table) + (guint64)(x->edges->len + x->edge_at->len) * sizeof(uint32_t);
}

/* The checks of one state being expanded; FALSE when one failed (recorded in r). */
static gboolean check_state(Search *x, const ExploreState *s, uint32_t id, guint nmoves, ExploreResult *r)
{
    char *why = check_fault(x->w, s);
    if (why) {
        fail(x, r, EXPLORE_PROP_FAULT, why, id);
        return FALSE;
    }
    guint64 shared = 0;
    why = check_regions(x, s, &shared);
    r->max_shared = MAX(r->max_shared, shared);
    if (why) {
        fail(x, r, EXPLORE_PROP_EXCLUSION, why, id);
        return FALSE;
    }
    guint8 unsettled = 0;
    for (guint t = 0; t < x->w->nthreads && x->o->model->position_settled; t++)
        unsettled |= !x->o->model->position_settled(s, t);
    g_byte_array_append(x->unsettled, &unsettled, 1);
    /* With a promise outstanding and no move, it is no end of an execution: the search left
     * out a fulfilment it has in another form. */
    if (nmoves || unsettled)
        return TRUE;
    if (explore_count_in(x->w, s, THREAD_HALTED) != x->w->nthreads) {
        fail(x, r, EXPLORE_PROP_DEADLOCK, describe_blocked(x->w, s), id);
        return FALSE;
    }
    r->finished++;
    why = x->o->end_check ? x->o->end_check(x->w, s, x->o->ctx) : NULL;
    if (why) {
        fail(x, r, EXPLORE_PROP_END, why, id);
        return FALSE;
    }
    return TRUE;
}

/* Expands every state in id order until all are done, one fails, or a bound is hit. */
static void search(Search *x, ExploreResult *r)
{
    const ExploreModel *m = x->o->model;
    ExploreWorld *w = x->w;
    g_autoptr(GByteArray) bytes = g_byte_array_new();
    g_autoptr(GArray) moves = g_array_new(FALSE, FALSE, sizeof(ExploreMove));
    g_autoptr(GArray) depth = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    ExploreState *cur = explore_state_new(w), *next = explore_state_new(w);
    explore_settle(w, m, cur);
    explore_state_encode(w, cur, bytes);
    gboolean added;
    explore_table_add(&x->table, bytes->data, bytes->len, EXPLORE_NO_PARENT, 0, &added);
    uint32_t zero = 0;
    g_array_append_val(depth, zero);
    for (uint32_t id = 0; id < explore_table_len(&x->table); id++) {
        const ExploreRec *rec = explore_table_rec(&x->table, id);
        explore_state_decode(w, cur, rec->bytes, rec->len);
        g_array_set_size(moves, 0);
        m->moves(w, cur, moves, &r->buffer_full);
        if (!check_state(x, cur, id, moves->len, r))
            break;
        uint32_t d = g_array_index(depth, uint32_t, id) + 1, at = x->edges->len;
        g_array_append_val(x->edge_at, at);
        for (guint k = 0; k < moves->len; k++) {
            ExploreMove mv = g_array_index(moves, ExploreMove, k);
            explore_state_copy(w, next, cur);
            m->apply(w, next, mv, NULL);
            explore_settle(w, m, next);
            g_byte_array_set_size(bytes, 0);
            explore_state_encode(w, next, bytes);
            uint32_t to = explore_table_add(&x->table, bytes->data, bytes->len, id, move_pack(mv), &added);
            g_array_append_val(x->edges, to);
            if (added) {
                g_array_append_val(depth, d);
                r->depth = MAX(r->depth, d);
            }
            /* at the first state past the bound, so the count is the bound exactly (the one
             * past it is held but not counted: explore_run) */
            if (added && explore_table_len(&x->table) > x->max_states) {
                r->transitions += k + 1;
                r->verdict = EXPLORE_INCOMPLETE;
                r->cut = EXPLORE_CUT_STATES;
                break;
            }
        }
        if (r->cut == EXPLORE_CUT_STATES)
            break;
        r->transitions += moves->len;
        if (x->o->progress && (id + 1) % EXPLORE_PROGRESS_EVERY == 0)
            x->o->progress(explore_table_len(&x->table), r->transitions, x->o->progress_ctx);
        if ((id & 1023) == 0 && search_memory(x) > x->max_memory) {
            r->verdict = EXPLORE_INCOMPLETE;
            r->cut = EXPLORE_CUT_MEMORY;
            break;
        }
    }
    uint32_t end = x->edges->len;
    g_array_append_val(x->edge_at, end);
    explore_state_free(cur);
    explore_state_free(next);
}

static void check_finish(Search *x, ExploreResult *r)
{
    guint loop = 0;
    uint32_t stuck = explore_first_stuck(explore_table_len(&x->table), (const uint32_t *)x->edge_at->data,
                                         (const uint32_t *)x->edges->data, x->unsettled->data, &loop);
    if (stuck == EXPLORE_NO_PARENT)
        return;
    const ExploreRec *rec = explore_table_rec(&x->table, stuck);
    ExploreState *s = explore_state_new(x->w);
    explore_state_decode(x->w, s, rec->bytes, rec->len);
    GString *g = g_string_new(NULL);
    g_autofree char *among = loop == 1 ? g_strdup("stays in this state") : g_strdup_printf("loops among %u states", loop);
    g_string_append_printf(g, "no execution from here lets every thread finish: every one %s for ever (a livelock, "
                           "or a thread that sleeps for ever while others spin):", among);
    for (guint t = 0; t < x->w->nthreads; t++) {
        static const char *const how[] = { "runs", "waits in wfe", "sleeps in futex_wait", "halted", "faulted" };
        g_autofree char *where = thread_at(x->w, s, t);
        g_string_append_printf(g, " %s %s;", where, how[s->th[t].state]);
    }
    g->str[g->len - 1] = '\0';
    explore_state_free(s);
    fail(x, r, EXPLORE_PROP_NO_FINISH, g_string_free(g, FALSE), stuck);
}

static guint8 *regions_by_pc(const ExploreOptions *o, guint n)
{
    guint8 *of = g_new0(guint8, n + 1);
    for (guint k = 0; k < o->nregions; k++)
        for (int32_t pc = MAX(o->regions[k].first, 0); pc <= o->regions[k].last && (guint)pc < n; pc++)
            of[pc] = o->regions[k].shared ? 2 : 1;
    return of;
}

/* Forgets a search's states and results, to search again. */
static void restart(Search *x, ExploreResult *r)
{
    explore_table_clear(&x->table);
    explore_table_init(&x->table);
    g_array_set_size(x->edges, 0);
    g_array_set_size(x->edge_at, 0);
    g_byte_array_set_size(x->unsettled, 0);
    memset(r, 0, sizeof *r);
    r->verdict = EXPLORE_VERIFIED;
}

/* States found, up to --max-states: the one past it, found when the search stopped, is not. */
static guint counted_states(const Search *x)
{
    return (guint)MIN((guint64)explore_table_len(&x->table), x->max_states);
}

gboolean explore_run(const IsaProgram *p, const ExploreOptions *o, ExploreResult *r, GError **error)
{
    memset(r, 0, sizeof *r);
    gint64 t0 = g_get_monotonic_time();
    Search x = { .o = o };
    x.w = explore_world_new(p, o->threads, o->line_size, o->entry, o->sb_size ? o->sb_size : EXPLORE_DEFAULT_SB,
                            error);
    if (!x.w)
        return FALSE;
    if (o->prepare)
        o->prepare(x.w, o->ctx);
    x.w->model = o->model;
    x.w->ext = o->model->ext;
    if (x.w->ext && x.w->ext->world_new)
        x.w->scratch = x.w->ext->world_new(x.w);
    for (guint pc = 0; o->keep_regs && pc < p->insns->len; pc++)
        x.w->live[pc] |= o->keep_regs;
    explore_table_init(&x.table);
    x.region_of = regions_by_pc(o, p->insns->len);
    x.edges = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    x.edge_at = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    x.unsettled = g_byte_array_new();
    x.max_states = o->max_states ? o->max_states : EXPLORE_DEFAULT_MAX_STATES;
    x.max_memory = o->max_memory ? o->max_memory : EXPLORE_DEFAULT_MAX_MEMORY;
    r->verdict = EXPLORE_VERIFIED;
    if (o->model->has_promises) {
        /* Without promises first: a subset of the executions, so a failure there is real (the
         * "can finish" check is left to the whole search: a state may finish only by promising). */
        x.w->first_pass = TRUE;
        search(&x, r);
        x.w->first_pass = FALSE;
        if (r->verdict == EXPLORE_FAILED)
            goto done;
        restart(&x, r);
    }
    search(&x, r);
    if (r->verdict == EXPLORE_VERIFIED && r->buffer_full) {
        r->verdict = EXPLORE_INCOMPLETE;
        r->cut = o->model->bound_message ? EXPLORE_CUT_MODEL : EXPLORE_CUT_BUFFER;
    }
    if (r->verdict == EXPLORE_VERIFIED)
        check_finish(&x, r);
    if (r->verdict == EXPLORE_INCOMPLETE)
        r->message = r->cut == EXPLORE_CUT_MODEL
                         ? g_strdup(o->model->bound_message)
                     : r->cut == EXPLORE_CUT_BUFFER
                         ? g_strdup_printf("a store waited on a full store buffer (%u entries): executions with "
                                           "deeper buffers were not explored", x.w->sb_size)
                         : g_strdup_printf("search cut short at %u states (%s)", counted_states(&x),
                                           explore_cut_option(r->cut));
done:
    r->states = counted_states(&x);
    r->bytes = search_memory(&x);
    explore_table_clear(&x.table);
    g_array_free(x.edges, TRUE);
    g_array_free(x.edge_at, TRUE);
    g_byte_array_free(x.unsettled, TRUE);
    g_free(x.region_of);
    explore_world_free(x.w);
    r->seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
    return TRUE;
}
