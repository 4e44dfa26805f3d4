/* The visited set of a search: every state's canonical bytes, once, with its id (the order it
 * was found in), the state it was first reached from and by which move.  An open-addressing
 * hash table of ids keyed by explore_hash, over byte chunks that are never moved.
 *
 * Invariants: ids are 0..n-1 in the order found; a slot holds (hash high 32 bits, id + 1), 0
 * when empty; the table is at most half full. */
#ifndef QSIM_EXPLORE_TABLE_H
#define QSIM_EXPLORE_TABLE_H

#include <glib.h>
#include <stdint.h>

#define EXPLORE_NO_PARENT G_MAXUINT32

typedef struct {
    const guint8 *bytes;
    uint32_t len;
    uint32_t parent;           /* EXPLORE_NO_PARENT for the initial state */
    uint32_t move;             /* explore_move_pack */
} ExploreRec;

typedef struct {
    GPtrArray *chunks;         /* guint8 blocks of EXPLORE_CHUNK bytes (or one state's, when larger) */
    gsize chunk_used;
    GArray *recs;              /* ExploreRec, by id */
    uint64_t *slots;
    gsize nslots;
    gsize bytes;               /* held in chunks */
} ExploreTable;

void explore_table_init(ExploreTable *t);
void explore_table_clear(ExploreTable *t);
/* The id of the state with these bytes, adding it (with parent and move) when new: *added says. */
uint32_t explore_table_add(ExploreTable *t, const guint8 *bytes, uint32_t len, uint32_t parent, uint32_t move,
                           gboolean *added);
static inline guint explore_table_len(const ExploreTable *t) { return t->recs->len; }
static inline const ExploreRec *explore_table_rec(const ExploreTable *t, uint32_t id)
{
    return &g_array_index(t->recs, ExploreRec, id);
}
/* Bytes the table holds (states, records, slots). */
guint64 explore_table_memory(const ExploreTable *t);

#endif
