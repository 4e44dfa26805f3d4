/* An axiomatic memory model as a table: one row per line of the cat file it follows, each a
 * `let` (a derived set or relation) or an axiom (acyclic, irreflexive, empty) over the
 * built-in sets and relations of the event graph and earlier lets.  Every model starts from
 * the same prelude (model.c: fr, and the internal/external halves of rf, co and fr, as herd
 * builds them in and cos.cat).
 *
 * Compiled once, a model is evaluated in two steps per graph: mm_eval_prepare computes what
 * does not depend on the candidate's rf and co (for ARMv8 nearly everything: dob, bob, aob,
 * lob), once per combination of thread paths; mm_eval_check the rest, per candidate.  A
 * partial candidate (rf or co not yet complete) can be checked too: every axiom over a
 * monotone expression that fails on a part fails on the whole, so the search prunes there. */
#ifndef QSIM_MM_MODEL_H
#define QSIM_MM_MODEL_H

#include "sim/memmodel/event_graph.h"

typedef enum { MM_LET, MM_ACYCLIC, MM_IRREFLEXIVE, MM_EMPTY } MmRowKind;

typedef struct {
    MmRowKind kind;
    const char *name;      /* the let's name, or the axiom's (herd's `as NAME`) */
    const char *expr;      /* cat_expr.h */
} MmRow;

typedef struct {
    const char *name;      /* "sc", "tso", "arm64": what --model takes */
    const char *title;     /* one line */
    const char *source;    /* the cat file and the paper the rows follow */
    const MmRow *rows;
    guint nrows;
} MmModelDef;

extern const MmModelDef mm_model_sc, mm_model_tso, mm_model_arm64;
/* The model called `name`, or NULL. */
const MmModelDef *mm_model_def_find(const char *name);
/* "sc, tso, arm64", for messages. */
const char *mm_model_names(void);

typedef struct MmModel MmModel;
MmModel *mm_model_compile(const MmModelDef *def, GError **error);
void mm_model_free(MmModel *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MmModel, mm_model_free)
const MmModelDef *mm_model_def(const MmModel *m);

typedef struct MmEval MmEval;
MmEval *mm_eval_new(const MmModel *m);
void mm_eval_free(MmEval *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MmEval, mm_eval_free)
/* The static lets of graph g (its sets and static relations complete); FALSE when an axiom
 * that depends on neither rf nor co already fails, naming it in *failed. */
gboolean mm_eval_prepare(MmEval *e, const MmGraph *g, const char **failed);
/* The axioms with g's rf and co (after mm_eval_prepare on g): FALSE naming the first that
 * fails.  `partial`: rf or co is incomplete, so only the monotone axioms are judged. */
gboolean mm_eval_check(MmEval *e, const MmGraph *g, gboolean partial, const char **failed);
/* The value of let `name` after the last prepare or check, into *out (a relation, zeroed or
 * used before); FALSE when there is no such relation let.  For tests and explanations. */
gboolean mm_eval_relation(const MmEval *e, const char *name, MmRel *out);

#endif
