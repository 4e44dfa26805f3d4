/* A relation algebra over the events of a graph of any size, for the axiomatic memory models:
 * a set of events is a bitset of n bits (64 to a word), a relation is one such row per event
 * (row i bit j: i -> j).  These are the operators herd's cat language is built from (union,
 * sequence, inverse, restriction to a set, transitive closure) and the three checks its axioms
 * make (acyclic, irreflexive, empty).  Every set and relation carries n, the number of events
 * of its graph; bits at n and above are always clear.
 *
 * Storage: a zeroed MmSet or MmRel (MM_SET_INIT, MM_REL_INIT) is empty with no storage; the
 * operators that take an n (clear, fill, identity, cross) or write `out` grow it as needed and
 * keep it, so a value reused across graphs allocates only when a graph is larger than any
 * before; mm_set_free and mm_rel_free release it.  Graphs of up to 64 events (one word a row)
 * take the single-word paths, as fast as a plain uint64_t matrix. */
#ifndef QSIM_MM_RELATION_H
#define QSIM_MM_RELATION_H

#include <glib.h>
#include <stdint.h>

typedef struct {
    guint n;
    guint words;           /* (n + 63) / 64, at least 1 */
    guint cap;             /* words allocated */
    uint64_t *w;
} MmSet;

typedef struct {
    guint n;
    guint words;           /* per row */
    gsize cap;             /* words allocated */
    uint64_t *w;           /* row i at w + i * words */
} MmRel;

#define MM_SET_INIT { 0, 0, 0, NULL }
#define MM_REL_INIT { 0, 0, 0, NULL }

static inline guint mm_words_for(guint n) { return n > 64 ? (n + 63) / 64 : 1; }

/* ---- sets ---- */

void mm_set_free(MmSet *s);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MmSet, mm_set_free)
/* The empty set of a graph of n events. */
void mm_set_clear(MmSet *s, guint n);
/* Every event of a graph of n. */
void mm_set_fill(MmSet *s, guint n);
void mm_set_copy(MmSet *out, const MmSet *s);

static inline gboolean mm_set_has(const MmSet *s, guint i) { return (s->w[i >> 6] >> (i & 63)) & 1; }
static inline void mm_set_add(MmSet *s, guint i) { s->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void mm_set_del(MmSet *s, guint i) { s->w[i >> 6] &= ~((uint64_t)1 << (i & 63)); }

/* out may be either operand. */
void mm_set_union(MmSet *out, const MmSet *a, const MmSet *b);
void mm_set_inter(MmSet *out, const MmSet *a, const MmSet *b);
void mm_set_minus(MmSet *out, const MmSet *a, const MmSet *b);
gboolean mm_set_is_empty(const MmSet *s);
guint mm_set_count(const MmSet *s);
/* The first member at or after i, or -1: `for (int i = mm_set_next(s, 0); i >= 0; i = mm_set_next(s, i + 1))`. */
int mm_set_next(const MmSet *s, guint i);

/* ---- relations ---- */

void mm_rel_free(MmRel *r);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(MmRel, mm_rel_free)
/* The empty relation of a graph of n events. */
void mm_rel_clear(MmRel *r, guint n);
void mm_rel_copy(MmRel *out, const MmRel *r);

static inline uint64_t *mm_rel_row(MmRel *r, guint i) { return r->w + (gsize)i * r->words; }
static inline const uint64_t *mm_rel_crow(const MmRel *r, guint i) { return r->w + (gsize)i * r->words; }
static inline gboolean mm_rel_has(const MmRel *r, guint i, guint j)
{
    return (mm_rel_crow(r, i)[j >> 6] >> (j & 63)) & 1;
}
static inline void mm_rel_add(MmRel *r, guint i, guint j) { mm_rel_row(r, i)[j >> 6] |= (uint64_t)1 << (j & 63); }
static inline void mm_rel_del(MmRel *r, guint i, guint j) { mm_rel_row(r, i)[j >> 6] &= ~((uint64_t)1 << (j & 63)); }
/* Row i := s (i's successors are exactly s), or nothing. */
void mm_rel_set_row(MmRel *r, guint i, const MmSet *s);
void mm_rel_clear_row(MmRel *r, guint i);
gboolean mm_rel_row_is_empty(const MmRel *r, guint i);

/* [s]: the identity restricted to s. */
void mm_rel_identity(MmRel *r, guint n, const MmSet *s);
/* a * b: every pair from a to b. */
void mm_rel_cross(MmRel *r, guint n, const MmSet *a, const MmSet *b);

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
/* [s]; r and r; [s] (out may be r). */
void mm_rel_restrict_domain(MmRel *out, const MmRel *r, const MmSet *s);
void mm_rel_restrict_range(MmRel *out, const MmRel *r, const MmSet *s);

void mm_rel_domain(MmSet *out, const MmRel *r);
void mm_rel_range(MmSet *out, const MmRel *r);

gboolean mm_rel_is_empty(const MmRel *r);
gboolean mm_rel_is_irreflexive(const MmRel *r);
/* Whether r+ is irreflexive (r is not changed). */
gboolean mm_rel_is_acyclic(const MmRel *r);

#endif
