/* Running a translated litmus test many times through an executor, with seeded perturbations,
 * and judging the histogram of final states: the verdict, herd's kinds, text and JSON.  The
 * histogram (LitmusTally) also takes the exhaustive search's states (litmus_exhaustive.c). */
#include <string.h>
#include "sim/litmus/litmus_priv.h"
#include "sim/base/echo.h"
#include "sim/base/input_file.h"

void litmus_executor_free(LitmusExecutor *e)
{
    if (!e)
        return;
    if (e->ctx_free)
        e->ctx_free(e->ctx);
    g_free(e);
}

gboolean litmus_executor_accepts(const LitmusExecutor *ex, const LitmusTest *t, GError **error)
{
    /* An X86 test on an arm64 machine (or the reverse) would test nothing meaningful. */
    Arch want = t->arch == LITMUS_AARCH64 ? ARCH_ARM64 : ARCH_X86;
    if (ex->arch_bound && ex->arch != want) {
        g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_ARCH, "%s: a %s test cannot run on config %s (arch %s)",
                    t->filename, litmus_arch_name(t->arch), ex->name, arch_name(ex->arch));
        return FALSE;
    }
    if (ex->cores && t->nthreads > ex->cores) {
        g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_THREADS,
                    "%s: a %u-thread test cannot run on config %s (%u cores; each litmus thread runs on a core of "
                    "its own)", t->filename, t->nthreads, ex->name, ex->cores);
        return FALSE;
    }
    return TRUE;
}

/* ---- kinds.txt ---- */

const char *litmus_kind_name(LitmusKind k)
{
    switch (k) {
    case LK_ALLOWED: return "Allowed";
    case LK_FORBIDDEN: return "Forbidden";
    case LK_REQUIRED: return "Required";
    case LK_NONE: break;
    }
    return "none";
}

GHashTable *litmus_kinds_load(const char *path, GError **error)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) e = NULL;
    if (!input_file_read(path, INPUT_KINDS, &text, NULL, &e)) {
        g_set_error_literal(error, LITMUS_ERROR, LITMUS_ERROR_IO, e->message);
        return NULL;
    }
    return litmus_kinds_parse(text, path, error);
}

GHashTable *litmus_kinds_parse(const char *text, const char *path, GError **error)
{
    GHashTable *kinds = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    /* the line each name is on, for a name listed twice */
    g_autoptr(GHashTable) line_of = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        char *hash = strchr(lines[i], '#');
        if (hash)
            *hash = '\0';
        g_auto(GStrv) w = g_strsplit_set(g_strstrip(lines[i]), " \t", -1);
        GPtrArray *words = g_ptr_array_new();
        for (guint k = 0; w[k]; k++)
            if (*w[k])
                g_ptr_array_add(words, w[k]);
        guint n = words->len;
        const char *name = n ? words->pdata[0] : NULL, *kind = n > 1 ? words->pdata[1] : NULL;
        g_ptr_array_free(words, TRUE);
        if (n == 0)
            continue;
        LitmusKind k = LK_NONE;
        if (kind && (!g_ascii_strcasecmp(kind, "Allowed") || !g_ascii_strcasecmp(kind, "Allow")))
            k = LK_ALLOWED;
        else if (kind && (!g_ascii_strcasecmp(kind, "Forbidden") || !g_ascii_strcasecmp(kind, "Forbid")))
            k = LK_FORBIDDEN;
        else if (kind && (!g_ascii_strcasecmp(kind, "Required") || !g_ascii_strcasecmp(kind, "Require")))
            k = LK_REQUIRED;
        if (n != 2 || k == LK_NONE) {
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_SYNTAX,
                        "%s:%u: expected 'NAME Allowed|Forbidden|Required'", path, i + 1);
            g_hash_table_destroy(kinds);
            return NULL;
        }
        char *key = g_str_has_suffix(name, ".litmus") ? g_strndup(name, strlen(name) - 7) : g_strdup(name);
        if (g_hash_table_contains(kinds, key)) {
            g_autofree char *shown = echo_clip(key);
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_SYNTAX, "%s:%u: %s is listed twice (first on line %u)", path,
                        i + 1, shown, GPOINTER_TO_UINT(g_hash_table_lookup(line_of, key)));
            g_free(key);
            g_hash_table_destroy(kinds);
            return NULL;
        }
        g_hash_table_insert(line_of, g_strdup(key), GUINT_TO_POINTER(i + 1));
        g_hash_table_insert(kinds, key, GINT_TO_POINTER(k));
    }
    return kinds;
}

/* ---- running ---- */

void litmus_result_free(LitmusResult *r)
{
    if (!r)
        return;
    g_free(r->name);
    g_free(r->filename);
    g_free(r->condition);
    g_free(r->executor);
    g_free(r->model);
    if (r->states)
        g_ptr_array_free(r->states, TRUE);
    g_free(r);
}

static void state_free(LitmusState *s)
{
    g_free(s->key);
    g_free(s);
}

typedef struct {
    const LitmusProgram *p;
    const LitmusFinal *f;
} AddrCtx;

static uint64_t final_loc_addr(void *ctx, const char *name)
{
    AddrCtx *a = ctx;
    for (guint l = 0; l < a->p->locs->len; l++)
        if (!strcmp(((LitmusLoc *)a->p->locs->pdata[l])->name, name))
            return a->f->addr[l];
    return 0;
}

static int state_cmp(gconstpointer a, gconstpointer b)
{
    const LitmusState *x = *(LitmusState *const *)a, *y = *(LitmusState *const *)b;
    return strcmp(x->key, y->key);
}

static const char *quant_name(LitmusQuant q)
{
    return q == LQ_EXISTS ? "exists" : q == LQ_NOT_EXISTS ? "~exists" : "forall";
}

/* ---- tallying final states ---- */

struct LitmusTally {
    const LitmusTest *t;
    const LitmusProgram *p;
    LitmusResult *r;
    GHashTable *seen;          /* key -> LitmusState* (owned by r->states) */
    GArray *shown;             /* the observables of a state's key, in order */
    uint64_t *val;
    GString *key;
};

LitmusTally *litmus_tally_new(const LitmusTest *t, const LitmusProgram *p, const char *executor)
{
    LitmusTally *y = g_new0(LitmusTally, 1);
    y->t = t;
    y->p = p;
    y->seen = g_hash_table_new(g_str_hash, g_str_equal);
    y->val = g_new0(uint64_t, t->obs->len + 1);
    y->key = g_string_new(NULL);
    /* The histogram shows `locations [...]` first, then the condition's observables. */
    y->shown = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint i = 0; i < t->locations->len; i++)
        g_array_append_val(y->shown, g_array_index(t->locations, guint, i));
    for (guint i = 0; i < t->obs->len; i++) {
        gboolean listed = FALSE;
        for (guint k = 0; k < t->locations->len; k++)
            listed |= g_array_index(t->locations, guint, k) == i;
        if (!listed)
            g_array_append_val(y->shown, i);
    }
    LitmusResult *r = y->r = g_new0(LitmusResult, 1);
    r->name = g_strdup(t->name);
    r->filename = g_strdup(t->filename);
    r->arch = t->arch;
    r->quant = t->quant;
    g_autofree char *c = litmus_cond_to_string(t->cond, t->obs);
    r->condition = g_strdup_printf("%s (%s)", quant_name(t->quant), c);
    r->executor = g_strdup(executor);
    r->states = g_ptr_array_new_with_free_func((GDestroyNotify)state_free);
    return y;
}

LitmusResult *litmus_tally_result(LitmusTally *y)
{
    return y->r;
}

void litmus_tally_add(LitmusTally *y, const LitmusFinal *fin, guint64 count)
{
    const LitmusTest *t = y->t;
    const LitmusProgram *p = y->p;
    LitmusResult *r = y->r;
    AddrCtx actx = { p, fin };
    r->runs += count;
    for (guint i = 0; i < t->obs->len; i++) {
        const LitmusObs *ob = t->obs->pdata[i];
        y->val[i] = p->obs_reg[i] >= 0 ? fin->regs[(gsize)ob->thread * ISA_NREG_SLOTS + (guint)p->obs_reg[i]]
                                       : fin->mem[p->obs_loc[i]];
    }
    if (t->filter && !litmus_cond_eval(t->filter, y->val, p->obs_bytes, final_loc_addr, &actx)) {
        r->filtered += count;
        return;
    }
    gboolean sat = litmus_cond_eval(t->cond, y->val, p->obs_bytes, final_loc_addr, &actx);
    if (sat)
        r->positive += count;
    GString *key = y->key;
    g_string_truncate(key, 0);
    for (guint k = 0; k < y->shown->len; k++) {
        guint i = g_array_index(y->shown, guint, k);
        const LitmusObs *ob = t->obs->pdata[i];
        const char *as_loc = NULL;
        if (ob->thread >= 0)
            for (guint l = 0; l < fin->nlocs && !as_loc; l++)
                if (fin->addr[l] && fin->addr[l] == y->val[i])
                    as_loc = ((LitmusLoc *)p->locs->pdata[l])->name;
        if (as_loc)
            g_string_append_printf(key, "%s=%s; ", ob->display, as_loc);
        else
            g_string_append_printf(key, "%s=%" G_GINT64_FORMAT "; ", ob->display, (int64_t)y->val[i]);
    }
    if (key->len)
        g_string_truncate(key, key->len - 1);
    LitmusState *st = g_hash_table_lookup(y->seen, key->str);
    if (!st) {
        st = g_new0(LitmusState, 1);
        st->key = g_strdup(key->str);
        st->satisfies = sat;
        g_ptr_array_add(r->states, st);
        g_hash_table_insert(y->seen, st->key, st);
    }
    st->count += count;
}

LitmusResult *litmus_tally_finish(LitmusTally *y)
{
    LitmusResult *r = g_steal_pointer(&y->r);
    litmus_tally_free(y);
    g_ptr_array_sort(r->states, state_cmp);
    guint64 judged = r->runs - r->filtered;
    r->witnesses = r->quant == LQ_FORALL ? judged - r->positive : r->positive;
    r->observed = r->witnesses > 0;
    r->validated = r->quant == LQ_EXISTS ? r->positive > 0
                 : r->quant == LQ_NOT_EXISTS ? r->positive == 0 : r->positive == judged;
    return r;
}

void litmus_tally_free(LitmusTally *y)
{
    if (!y)
        return;
    litmus_result_free(y->r);
    g_hash_table_destroy(y->seen);
    g_array_free(y->shown, TRUE);
    g_free(y->val);
    g_string_free(y->key, TRUE);
    g_free(y);
}

/* ---- running on an executor ---- */

LitmusResult *litmus_run_test(const LitmusTest *t, const LitmusProgram *p, const LitmusExecutor *ex,
                              const LitmusRunOptions *o, GError **error)
{
    guint runs = o && o->runs ? o->runs : 1000;
    guint64 seed = o ? o->seed : 0;
    guint nt = p->nthreads, nl = p->locs->len;
    guint32 seeds[2] = { (guint32)seed, (guint32)(seed >> 32) };
    g_autoptr(GRand) rng = g_rand_new_with_seed_array(seeds, 2);

    LitmusPerturb pert = { nt, nl, g_new0(guint64, nt), g_new0(guint64, nt), g_new0(int, nl + 1),
                           g_new0(guint64, nl + 1) };
    LitmusFinal fin = { nt, nl, g_new0(uint64_t, (gsize)nt * ISA_NREG_SLOTS), g_new0(uint64_t, nl + 1),
                        g_new0(uint64_t, nl + 1) };
    LitmusTally *y = litmus_tally_new(t, p, ex->name);
    gboolean ok = TRUE;
    for (guint run = 0; run < runs && ok; run++) {
        for (guint k = 0; k < nt; k++) {
            pert.start_skew[k] = (guint64)g_rand_int_range(rng, 0, 200);
            pert.think[k] = (guint64)g_rand_int_range(rng, 0, 16);
        }
        for (guint l = 0; l < nl; l++) {
            pert.owner[l] = g_rand_int_range(rng, -1, (gint32)nt);
            pert.sharers[l] = pert.owner[l] < 0 ? (g_rand_int(rng) & ((nt >= 64 ? 0 : 1ULL << nt) - 1)) : 0;
        }
        guint64 run_seed = ((guint64)g_rand_int(rng) << 32) | g_rand_int(rng);
        memset(fin.regs, 0, sizeof(uint64_t) * nt * ISA_NREG_SLOTS);
        memset(fin.mem, 0, sizeof(uint64_t) * nl);
        memset(fin.addr, 0, sizeof(uint64_t) * nl);
        g_autoptr(GError) e = NULL;
        if (!ex->run(ex->ctx, p, run_seed, &pert, &fin, &e)) {
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "%s: run %u (seed %" G_GUINT64_FORMAT "): %s",
                        t->name, run, run_seed, e ? e->message : "the executor failed");
            ok = FALSE;
            break;
        }
        litmus_tally_add(y, &fin, 1);
    }
    g_free(pert.start_skew);
    g_free(pert.think);
    g_free(pert.owner);
    g_free(pert.sharers);
    g_free(fin.regs);
    g_free(fin.mem);
    g_free(fin.addr);
    if (!ok) {
        litmus_tally_free(y);
        return NULL;
    }
    return litmus_tally_finish(y);
}

void litmus_result_check(LitmusResult *r, LitmusKind expect)
{
    guint64 judged = r->runs - r->filtered;
    r->expect = expect;
    switch (expect) {
    case LK_FORBIDDEN: r->expect_ok = r->positive == 0; break;
    case LK_REQUIRED: r->expect_ok = r->positive == judged; break;
    case LK_ALLOWED: r->expect_ok = !r->model || r->positive > 0; break;
    default: r->expect_ok = TRUE; break;
    }
}

/* ---- reports ---- */

char *litmus_result_text(const LitmusResult *r)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "Test %s%s%s\n", r->name, r->expect != LK_NONE ? " " : "",
                           r->expect != LK_NONE ? litmus_kind_name(r->expect) : "");
    if (r->model)
        g_string_append_printf(s, "States %u (every final state under %s)\n", r->states->len, r->model);
    else
        g_string_append_printf(s, "Histogram (%u states)\n", r->states->len);
    for (guint i = 0; i < r->states->len; i++) {
        const LitmusState *st = r->states->pdata[i];
        /* litmus7 marks the states that satisfy the proposition with '*'. */
        g_string_append_printf(s, "%-8" G_GUINT64_FORMAT "%s>%s\n", st->count, st->satisfies ? "*" : ":", st->key);
    }
    g_string_append_printf(s, "%s\n\nWitnesses\n", r->validated ? "Ok" : "No");
    guint64 judged = r->runs - r->filtered;
    g_string_append_printf(s, "Positive: %" G_GUINT64_FORMAT ", Negative: %" G_GUINT64_FORMAT "\n", r->positive,
                           judged - r->positive);
    g_string_append_printf(s, "Condition %s is %svalidated\n", r->condition, r->validated ? "" : "NOT ");
    const char *obs = r->positive == 0 ? "Never" : r->positive == judged ? "Always" : "Sometimes";
    g_string_append_printf(s, "Observation %s %s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", r->name, obs,
                           r->positive, judged - r->positive);
    if (r->filtered)
        g_string_append_printf(s, "Filtered out: %" G_GUINT64_FORMAT "\n", r->filtered);
    if (r->model) {
        g_string_append_printf(s, "Executions %" G_GUINT64_FORMAT " allowed of %" G_GUINT64_FORMAT
                               " candidates under %s (exhaustive), witnesses %" G_GUINT64_FORMAT "\n",
                               r->runs, r->candidates, r->model, r->witnesses);
        if (r->paths_cut)
            g_string_append_printf(s, "Bound: a thread takes a backward branch at most %u times; %" G_GUINT64_FORMAT
                                   " paths went further and are left out\n", r->unroll, r->paths_cut);
        if (r->paths_dropped)
            g_string_append_printf(s, "Left out: %" G_GUINT64_FORMAT " paths that access memory outside the test's "
                                   "locations\n", r->paths_dropped);
    } else {
        g_string_append_printf(s, "Runs %" G_GUINT64_FORMAT " on %s, witnesses %" G_GUINT64_FORMAT "\n", r->runs,
                               r->executor, r->witnesses);
    }
    if (r->expect != LK_NONE)
        g_string_append_printf(s, "Expected %s: %s\n", litmus_kind_name(r->expect),
                               r->expect == LK_ALLOWED && !r->model ? "not checked" : r->expect_ok ? "ok" : "FAILED");
    g_string_append_c(s, '\n');
    return g_string_free(s, FALSE);
}

JsonNode *litmus_result_json(const LitmusResult *r)
{
    JsonObject *o = json_object_new();
    json_object_set_string_member(o, "name", r->name);
    json_object_set_string_member(o, "file", r->filename);
    json_object_set_string_member(o, "arch", litmus_arch_name(r->arch));
    json_object_set_string_member(o, "executor", r->executor);
    json_object_set_int_member(o, "runs", (gint64)r->runs);
    json_object_set_int_member(o, "filtered", (gint64)r->filtered);
    json_object_set_string_member(o, "condition", r->condition);
    json_object_set_int_member(o, "positive", (gint64)r->positive);
    json_object_set_int_member(o, "witnesses", (gint64)r->witnesses);
    json_object_set_boolean_member(o, "observed", r->observed);
    json_object_set_boolean_member(o, "validated", r->validated);
    JsonObject *states = json_object_new();
    for (guint i = 0; i < r->states->len; i++) {
        const LitmusState *st = r->states->pdata[i];
        json_object_set_int_member(states, st->key, (gint64)st->count);
    }
    json_object_set_object_member(o, "states", states);
    if (r->model) {
        json_object_set_boolean_member(o, "exhaustive", TRUE);
        json_object_set_string_member(o, "model", r->model);
        json_object_set_int_member(o, "executions", (gint64)r->runs);
        json_object_set_int_member(o, "candidates", (gint64)r->candidates);
        json_object_set_int_member(o, "unroll", r->unroll);
        json_object_set_int_member(o, "paths_cut", (gint64)r->paths_cut);
        json_object_set_int_member(o, "paths_dropped", (gint64)r->paths_dropped);
        json_object_set_string_member(o, "observation", r->positive == 0 ? "Never"
                                      : r->positive == r->runs - r->filtered ? "Always" : "Sometimes");
    }
    if (r->expect == LK_NONE) {
        json_object_set_null_member(o, "expect");
    } else {
        json_object_set_string_member(o, "expect", litmus_kind_name(r->expect));
        json_object_set_boolean_member(o, "expect_ok", r->expect_ok);
    }
    JsonNode *n = json_node_new(JSON_NODE_OBJECT);
    json_node_take_object(n, o);
    return n;
}
