/* The expressions a model's rows are written in: a small subset of herd's cat language, so
 * that a row reads like the line of the cat file it follows.
 *
 *   expr    := seq ('|' seq)*                 union
 *   seq     := diff (';' diff)*               sequence
 *   diff    := inter ('\' inter)*             difference
 *   inter   := cross ('&' cross)*             intersection
 *   cross   := postfix ('*' postfix)?         cartesian product of two sets
 *   postfix := primary ('+' | '^-1')*         transitive closure, inverse
 *   primary := NAME | '(' expr ')' | '[' expr ']' (identity on a set)
 *            | 'domain' '(' expr ')' | 'range' '(' expr ')'
 *
 * Precedence is herd's: '|' binds loosest, then ';', '\', '&', '*', and the postfix operators.
 * A NAME is a built-in set or relation (event_graph.h) or an earlier row's `let`; names may
 * hold letters, digits, '_', '-' and '.' (po-loc, DMB.FULL).  Operators on sets and on
 * relations share their symbols; each node knows which it is. */
#ifndef QSIM_MM_CAT_EXPR_H
#define QSIM_MM_CAT_EXPR_H

#include <glib.h>

typedef enum {
    CAT_BUILTIN,           /* index: MmSetName or MmRelName */
    CAT_LET,               /* index: the let's slot */
    CAT_UNION, CAT_INTER, CAT_MINUS, CAT_SEQ, CAT_CROSS,
    CAT_IDENTITY,          /* [set] */
    CAT_INVERSE, CAT_PLUS, CAT_DOMAIN, CAT_RANGE,
} CatOp;

typedef struct CatExpr {
    CatOp op;
    gboolean is_set;       /* a set of events, else a relation */
    gboolean dynamic;      /* depends on rf or co */
    gboolean monotone;     /* only grows as rf and co grow (no rf/co right of a '\') */
    guint index;
    guint node;            /* its scratch slot in an evaluation (numbered by model.c) */
    struct CatExpr *a, *b;
} CatExpr;

/* Looks a name up: a built-in or a let, with what it is; FALSE when unknown. */
typedef gboolean (*CatLookup)(void *ctx, const char *name, CatExpr *out);

/* A CatLookup of the event graph's built-in sets and relations alone (event_graph.h); ctx is
 * not used. */
gboolean cat_builtin_lookup(void *ctx, const char *name, CatExpr *out);

/* Parses `text`; errors name the text and the column. */
CatExpr *cat_expr_parse(const char *text, CatLookup lookup, void *ctx, GError **error);
void cat_expr_free(CatExpr *e);

#endif
