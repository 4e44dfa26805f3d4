/* A small relation algebra over at most 64 events, for the axiomatic memory models: a set of
 * events is one 64-bit word, a relation is one word per event (row[i] bit j: i -> j).  These
 * are the operators herd's cat language is built from (union, sequence, inverse, restriction
 * to a set, transitive closure) and the three checks its axioms make (acyclic, irreflexive,
 * empty).  Every relation carries n, the number of events of its graph; bits at n and above
 * are always clear. */
#ifndef QSIM_MM_RELATION_H
#define QSIM_MM_RELATION_H

#include <glib.h>
#include <stdint.h>

#define MM_MAX_EVENTS 64

typedef uint64_t MmSet;

typedef struct {
    guint n;
    uint64_t row[MM_MAX_EVENTS];
} MmRel;

static inline MmSet mm_set_bit(guint i) { return (MmSet)1 << i; }
static inline gboolean mm_set_has(MmSet s, guint i) { return (s >> i) & 1; }
/* Every event of a graph of n. */
static inline MmSet mm_set_all(guint n) { return n >= 64 ? ~(MmSet)0 : mm_set_bit(n) - 1; }

static inline gboolean mm_rel_has(const MmRel *r, guint i, guint j) { return mm_set_has(r->row[i], j); }
static inline void mm_rel_add(MmRel *r, guint i, guint j) { r->row[i] |= mm_set_bit(j); }

void mm_rel_clear(MmRel *r, guint n);
/* [s]: the identity restricted to s. */
void mm_rel_identity(MmRel *r, guint n, MmSet s);
/* a * b: every pair from a to b. */
void mm_rel_cross(MmRel *r, guint n, MmSet a, MmSet b);

/* out may be either operand. */
void mm_rel_union(MmRel *out, const MmRel *a, const MmRel *b);
void mm_rel_inter(MmRel *out, const MmRel *a, const MmRel *b);
void mm_rel_minus(MmRel *out, const MmRel *a, const MmRel *b);
/* a ; b (out must be neither operand). */
void mm_rel_seq(MmRel *out, const MmRel *a, const MmRel *b);
/* r^-1 (out must not be r). */
void mm_rel_inverse(MmRel *out, const MmRel *r);
/* r+ in place. */
void mm_rel_closure(MmRel *r);
/* [s]; r and r; [s], in place. */
void mm_rel_restrict_domain(MmRel *r, MmSet s);
void mm_rel_restrict_range(MmRel *r, MmSet s);

MmSet mm_rel_domain(const MmRel *r);
MmSet mm_rel_range(const MmRel *r);

gboolean mm_rel_is_empty(const MmRel *r);
gboolean mm_rel_is_irreflexive(const MmRel *r);
/* Whether r+ is irreflexive (r is not changed). */
gboolean mm_rel_is_acyclic(const MmRel *r);

#endif
