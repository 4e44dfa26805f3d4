/* Compiling a model's rows and evaluating them on an event graph (see model.h). */
#include <string.h>
#include "sim/memmodel/model.h"
#include "sim/memmodel/cat_expr.h"
#include "sim/memmodel/memmodel.h"

/* What herd defines for every model, from rf and co (herd's built-ins and cos.cat). */
static const MmRow prelude_rows[] = {
    { MM_LET, "fr", "rf^-1; co" },
    { MM_LET, "rfe", "rf & ext" },
    { MM_LET, "rfi", "rf & int" },
    { MM_LET, "coe", "co & ext" },
    { MM_LET, "coi", "co & int" },
    { MM_LET, "fre", "fr & ext" },
    { MM_LET, "fri", "fr & int" },
    { MM_LET, "po-loc", "po & loc" },
};

static const MmModelDef *const all_models[] = { &mm_model_sc, &mm_model_tso, &mm_model_arm64 };

const MmModelDef *mm_model_def_find(const char *name)
{
    for (guint i = 0; i < G_N_ELEMENTS(all_models); i++)
        if (!strcmp(all_models[i]->name, name))
            return all_models[i];
    return NULL;
}

const char *mm_model_names(void)
{
    return "sc, tso, arm64";
}

/* A compiled row: its expression and, for a let, its slot. */
typedef struct {
    const MmRow *row;
    CatExpr *expr;
    guint slot;
} MmCompiled;

struct MmModel {
    const MmModelDef *def;
    GArray *rows;          /* MmCompiled: the prelude, then the model's */
    guint nslots;
    guint nnodes;          /* expression nodes, each numbered (CatExpr.node) */
};

/* Numbers e's nodes from m->nnodes on. */
static void number_nodes(MmModel *m, CatExpr *e)
{
    if (!e)
        return;
    e->node = m->nnodes++;
    number_nodes(m, e->a);
    number_nodes(m, e->b);
}

typedef struct {
    MmModel *m;
} CompileCtx;

static gboolean lookup(void *ctx, const char *name, CatExpr *out)
{
    MmModel *m = ((CompileCtx *)ctx)->m;
    /* the latest let of that name wins (a row may refine an earlier one) */
    for (guint i = m->rows->len; i-- > 0;) {
        const MmCompiled *c = &g_array_index(m->rows, MmCompiled, i);
        if (c->row->kind == MM_LET && !strcmp(c->row->name, name)) {
            out->op = CAT_LET;
            out->index = c->slot;
            out->is_set = c->expr->is_set;
            out->dynamic = c->expr->dynamic;
            out->monotone = c->expr->monotone;
            return TRUE;
        }
    }
    return cat_builtin_lookup(NULL, name, out);
}

static gboolean compile_row(MmModel *m, const MmRow *row, GError **error)
{
    CompileCtx ctx = { m };
    CatExpr *e = cat_expr_parse(row->expr, lookup, &ctx, error);
    if (!e) {
        g_prefix_error(error, "model %s, row %s: ", m->def->name, row->name);
        return FALSE;
    }
    if (row->kind != MM_LET && e->is_set) {
        cat_expr_free(e);
        g_set_error(error, MM_ERROR, MM_ERROR_MODEL, "model %s, axiom %s: takes a relation", m->def->name, row->name);
        return FALSE;
    }
    number_nodes(m, e);
    MmCompiled c = { row, e, row->kind == MM_LET ? m->nslots++ : 0 };
    g_array_append_val(m->rows, c);
    return TRUE;
}

MmModel *mm_model_compile(const MmModelDef *def, GError **error)
{
    MmModel *m = g_new0(MmModel, 1);
    m->def = def;
    m->rows = g_array_new(FALSE, FALSE, sizeof(MmCompiled));
    for (guint i = 0; i < G_N_ELEMENTS(prelude_rows); i++)
        if (!compile_row(m, &prelude_rows[i], error))
            goto fail;
    for (guint i = 0; i < def->nrows; i++)
        if (!compile_row(m, &def->rows[i], error))
            goto fail;
    return m;
fail:
    mm_model_free(m);
    return NULL;
}

void mm_model_free(MmModel *m)
{
    if (!m)
        return;
    for (guint i = 0; i < m->rows->len; i++)
        cat_expr_free(g_array_index(m->rows, MmCompiled, i).expr);
    g_array_free(m->rows, TRUE);
    g_free(m);
}

const MmModelDef *mm_model_def(const MmModel *m)
{
    return m->def;
}

/* ---- evaluation ---- */

/* Every operator node's value has a slot of its own in the evaluation (its scratch), so
 * evaluating a row writes each intermediate once, allocates nothing once the slots have grown
 * to the graph's size, and reads a built-in or a let where it is, without a copy. */
struct MmEval {
    const MmModel *m;
    MmRel *rel;            /* per let slot */
    MmSet *set;
    MmRel *node_rel;       /* per expression node */
    MmSet *node_set;
};

MmEval *mm_eval_new(const MmModel *m)
{
    MmEval *e = g_new0(MmEval, 1);
    e->m = m;
    e->rel = g_new0(MmRel, m->nslots + 1);
    e->set = g_new0(MmSet, m->nslots + 1);
    e->node_rel = g_new0(MmRel, m->nnodes + 1);
    e->node_set = g_new0(MmSet, m->nnodes + 1);
    return e;
}

void mm_eval_free(MmEval *e)
{
    if (!e)
        return;
    for (guint i = 0; i <= e->m->nslots; i++) {
        mm_rel_free(&e->rel[i]);
        mm_set_free(&e->set[i]);
    }
    for (guint i = 0; i <= e->m->nnodes; i++) {
        mm_rel_free(&e->node_rel[i]);
        mm_set_free(&e->node_set[i]);
    }
    g_free(e->rel);
    g_free(e->set);
    g_free(e->node_rel);
    g_free(e->node_set);
    g_free(e);
}

static const MmRel *eval_rel(MmEval *ev, const MmGraph *g, const CatExpr *x);

static const MmSet *eval_set(MmEval *ev, const MmGraph *g, const CatExpr *x)
{
    MmSet *out = &ev->node_set[x->node];
    switch (x->op) {
    case CAT_BUILTIN: return &g->sets[x->index];
    case CAT_LET: return &ev->set[x->index];
    case CAT_UNION: mm_set_union(out, eval_set(ev, g, x->a), eval_set(ev, g, x->b)); return out;
    case CAT_INTER: mm_set_inter(out, eval_set(ev, g, x->a), eval_set(ev, g, x->b)); return out;
    case CAT_MINUS: mm_set_minus(out, eval_set(ev, g, x->a), eval_set(ev, g, x->b)); return out;
    case CAT_DOMAIN: mm_rel_domain(out, eval_rel(ev, g, x->a)); return out;
    case CAT_RANGE: mm_rel_range(out, eval_rel(ev, g, x->a)); return out;
    default: break;
    }
    g_error("eval_set: op %d is not a set operator", x->op);
}

/* a ; b, without building [S] for either side that is one. */
static const MmRel *eval_seq(MmEval *ev, const MmGraph *g, const CatExpr *x)
{
    MmRel *out = &ev->node_rel[x->node];
    if (x->b->op == CAT_IDENTITY) {
        const MmRel *a = eval_rel(ev, g, x->a);
        mm_rel_restrict_range(out, a, eval_set(ev, g, x->b->a));
        return out;
    }
    if (x->a->op == CAT_IDENTITY) {
        const MmRel *b = eval_rel(ev, g, x->b);
        mm_rel_restrict_domain(out, b, eval_set(ev, g, x->a->a));
        return out;
    }
    const MmRel *a = eval_rel(ev, g, x->a);
    const MmRel *b = eval_rel(ev, g, x->b);
    mm_rel_seq(out, a, b);
    return out;
}

static const MmRel *eval_rel(MmEval *ev, const MmGraph *g, const CatExpr *x)
{
    MmRel *out = &ev->node_rel[x->node];
    switch (x->op) {
    case CAT_BUILTIN: return &g->rels[x->index];
    case CAT_LET: return &ev->rel[x->index];
    case CAT_UNION:
    case CAT_INTER:
    case CAT_MINUS: {
        const MmRel *a = eval_rel(ev, g, x->a);
        const MmRel *b = eval_rel(ev, g, x->b);
        if (x->op == CAT_UNION)
            mm_rel_union(out, a, b);
        else if (x->op == CAT_INTER)
            mm_rel_inter(out, a, b);
        else
            mm_rel_minus(out, a, b);
        return out;
    }
    case CAT_SEQ: return eval_seq(ev, g, x);
    case CAT_CROSS: mm_rel_cross(out, g->n, eval_set(ev, g, x->a), eval_set(ev, g, x->b)); return out;
    case CAT_IDENTITY: mm_rel_identity(out, g->n, eval_set(ev, g, x->a)); return out;
    case CAT_INVERSE: mm_rel_inverse(out, eval_rel(ev, g, x->a)); return out;
    case CAT_PLUS: mm_rel_copy(out, eval_rel(ev, g, x->a)); mm_rel_closure(out); return out;
    default: break;
    }
    g_error("eval_rel: op %d is not a relation operator", x->op);
}

static gboolean axiom_holds(MmEval *ev, const MmGraph *g, const MmCompiled *c)
{
    const MmRel *r = eval_rel(ev, g, c->expr);
    switch (c->row->kind) {
    case MM_ACYCLIC: return mm_rel_is_acyclic(r);
    case MM_IRREFLEXIVE: return mm_rel_is_irreflexive(r);
    case MM_EMPTY: return mm_rel_is_empty(r);
    case MM_LET: break;
    }
    return TRUE;
}

/* The rows of one kind of dependence (static for prepare, dynamic for check), in order. */
static gboolean eval_rows(MmEval *ev, const MmGraph *g, gboolean dynamic, gboolean partial, const char **failed)
{
    const MmModel *m = ev->m;
    for (guint i = 0; i < m->rows->len; i++) {
        const MmCompiled *c = &g_array_index(m->rows, MmCompiled, i);
        if (c->expr->dynamic != dynamic)
            continue;
        if (c->row->kind == MM_LET) {
            if (c->expr->is_set)
                mm_set_copy(&ev->set[c->slot], eval_set(ev, g, c->expr));
            else
                mm_rel_copy(&ev->rel[c->slot], eval_rel(ev, g, c->expr));
            continue;
        }
        if (partial && !c->expr->monotone)
            continue;
        if (!axiom_holds(ev, g, c)) {
            if (failed)
                *failed = c->row->name;
            return FALSE;
        }
    }
    return TRUE;
}

gboolean mm_eval_prepare(MmEval *e, const MmGraph *g, const char **failed)
{
    return eval_rows(e, g, FALSE, FALSE, failed);
}

gboolean mm_eval_check(MmEval *e, const MmGraph *g, gboolean partial, const char **failed)
{
    return eval_rows(e, g, TRUE, partial, failed);
}

gboolean mm_eval_relation(const MmEval *e, const char *name, MmRel *out)
{
    const MmModel *m = e->m;
    for (guint i = m->rows->len; i-- > 0;) {
        const MmCompiled *c = &g_array_index(m->rows, MmCompiled, i);
        if (c->row->kind == MM_LET && !c->expr->is_set && !strcmp(c->row->name, name)) {
            mm_rel_copy(out, &e->rel[c->slot]);
            return TRUE;
        }
    }
    return FALSE;
}
