/* The parser of model rows (the grammar is in cat_expr.h): recursive descent, one function a
 * precedence level, each node typed (set or relation) and marked dynamic and monotone as it is
 * built. */
#include <string.h>
#include "sim/memmodel/cat_expr.h"
#include "sim/memmodel/event_graph.h"
#include "sim/memmodel/memmodel.h"

typedef struct {
    const char *text, *p;
    CatLookup lookup;
    void *ctx;
    GError **error;
} CatParser;

static CatExpr *parse_expr(CatParser *ps);

static gboolean fail(CatParser *ps, const char *what)
{
    if (ps->error && !*ps->error)
        g_set_error(ps->error, MM_ERROR, MM_ERROR_MODEL, "model row \"%s\", column %u: %s", ps->text,
                    (guint)(ps->p - ps->text) + 1, what);
    return FALSE;
}

static void skip_space(CatParser *ps)
{
    while (g_ascii_isspace(*ps->p))
        ps->p++;
}

static gboolean eat(CatParser *ps, const char *tok)
{
    skip_space(ps);
    gsize n = strlen(tok);
    if (strncmp(ps->p, tok, n))
        return FALSE;
    ps->p += n;
    return TRUE;
}

static CatExpr *node(CatOp op, CatExpr *a, CatExpr *b)
{
    CatExpr *e = g_new0(CatExpr, 1);
    e->op = op;
    e->a = a;
    e->b = b;
    e->dynamic = (a && a->dynamic) || (b && b->dynamic);
    e->monotone = (!a || a->monotone) && (!b || b->monotone);
    return e;
}

/* A binary node whose operands must both be sets or both relations (CAT_SEQ: relations). */
static CatExpr *binary(CatParser *ps, CatOp op, CatExpr *a, CatExpr *b)
{
    if (!a || !b) {
        cat_expr_free(a);
        cat_expr_free(b);
        return NULL;
    }
    gboolean sets_only = op == CAT_CROSS, rels_only = op == CAT_SEQ;
    if (a->is_set != b->is_set || (sets_only && !a->is_set) || (rels_only && a->is_set)) {
        cat_expr_free(a);
        cat_expr_free(b);
        fail(ps, sets_only ? "'*' takes two sets" : rels_only ? "';' takes two relations"
                                                          : "a set and a relation combined");
        return NULL;
    }
    CatExpr *e = node(op, a, b);
    e->is_set = a->is_set && op != CAT_CROSS;
    if (op == CAT_MINUS && b->dynamic)
        e->monotone = FALSE;   /* taking away more as rf or co grow: not monotone */
    return e;
}

static char *parse_name(CatParser *ps)
{
    skip_space(ps);
    const char *s = ps->p;
    if (!g_ascii_isalpha(*s))
        return NULL;
    while (g_ascii_isalnum(*ps->p) || *ps->p == '_' || *ps->p == '.' || *ps->p == '-')
        ps->p++;
    return g_strndup(s, (gsize)(ps->p - s));
}

/* domain(r) / range(r): the set of r's sources or targets. */
static CatExpr *parse_projection(CatParser *ps, CatOp op)
{
    if (!eat(ps, "(")) {
        fail(ps, "expected '('");
        return NULL;
    }
    CatExpr *r = parse_expr(ps);
    if (!r)
        return NULL;
    if (r->is_set || !eat(ps, ")")) {
        fail(ps, r->is_set ? "domain and range take a relation" : "expected ')'");
        cat_expr_free(r);
        return NULL;
    }
    CatExpr *e = node(op, r, NULL);
    e->is_set = TRUE;
    return e;
}

static CatExpr *parse_primary(CatParser *ps)
{
    if (eat(ps, "(")) {
        CatExpr *e = parse_expr(ps);
        if (e && !eat(ps, ")")) {
            cat_expr_free(e);
            fail(ps, "expected ')'");
            return NULL;
        }
        return e;
    }
    if (eat(ps, "[")) {
        CatExpr *s = parse_expr(ps);
        if (!s)
            return NULL;
        if (!s->is_set || !eat(ps, "]")) {
            fail(ps, s->is_set ? "expected ']'" : "[...] takes a set");
            cat_expr_free(s);
            return NULL;
        }
        return node(CAT_IDENTITY, s, NULL);
    }
    const char *at = ps->p;
    g_autofree char *name = parse_name(ps);
    if (!name) {
        fail(ps, "expected a name, '(' or '['");
        return NULL;
    }
    if (!strcmp(name, "domain") || !strcmp(name, "range"))
        return parse_projection(ps, !strcmp(name, "domain") ? CAT_DOMAIN : CAT_RANGE);
    CatExpr *e = g_new0(CatExpr, 1);
    if (!ps->lookup(ps->ctx, name, e)) {
        g_free(e);
        ps->p = at;
        skip_space(ps);
        g_autofree char *msg = g_strdup_printf("unknown name '%s'", name);
        fail(ps, msg);
        return NULL;
    }
    return e;
}

static CatExpr *parse_postfix(CatParser *ps)
{
    CatExpr *e = parse_primary(ps);
    while (e) {
        CatOp op;
        if (eat(ps, "+"))
            op = CAT_PLUS;
        else if (eat(ps, "^-1"))
            op = CAT_INVERSE;
        else
            break;
        if (e->is_set) {
            cat_expr_free(e);
            fail(ps, "'+' and '^-1' take a relation");
            return NULL;
        }
        e = node(op, e, NULL);
    }
    return e;
}

static CatExpr *parse_cross(CatParser *ps)
{
    CatExpr *e = parse_postfix(ps);
    if (e && eat(ps, "*"))
        e = binary(ps, CAT_CROSS, e, parse_postfix(ps));
    return e;
}

/* One left-associative level: operands from `next`, joined by `tok` into `op` nodes. */
static CatExpr *parse_level(CatParser *ps, CatExpr *(*next)(CatParser *), const char *tok, CatOp op)
{
    CatExpr *e = next(ps);
    while (e && eat(ps, tok))
        e = binary(ps, op, e, next(ps));
    return e;
}

static CatExpr *parse_inter(CatParser *ps) { return parse_level(ps, parse_cross, "&", CAT_INTER); }
static CatExpr *parse_diff(CatParser *ps) { return parse_level(ps, parse_inter, "\\", CAT_MINUS); }
static CatExpr *parse_seq(CatParser *ps) { return parse_level(ps, parse_diff, ";", CAT_SEQ); }
static CatExpr *parse_expr(CatParser *ps) { return parse_level(ps, parse_seq, "|", CAT_UNION); }

gboolean cat_builtin_lookup(void *ctx G_GNUC_UNUSED, const char *name, CatExpr *out)
{
    gboolean is_set;
    guint index;
    if (!mm_graph_builtin(name, &is_set, &index))
        return FALSE;
    out->op = CAT_BUILTIN;
    out->index = index;
    out->is_set = is_set;
    out->dynamic = !is_set && mm_rel_is_dynamic(index);
    out->monotone = TRUE;
    return TRUE;
}

CatExpr *cat_expr_parse(const char *text, CatLookup lookup, void *ctx, GError **error)
{
    CatParser ps = { text, text, lookup, ctx, error };
    CatExpr *e = parse_expr(&ps);
    skip_space(&ps);
    if (e && *ps.p) {
        cat_expr_free(e);
        fail(&ps, "unexpected text");
        return NULL;
    }
    if (!e)
        fail(&ps, "bad expression");
    return e;
}

void cat_expr_free(CatExpr *e)
{
    if (!e)
        return;
    cat_expr_free(e->a);
    cat_expr_free(e->b);
    g_free(e);
}
