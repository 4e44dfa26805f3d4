/* The visited set (see explore_table.h). */
#include <string.h>
#include "sim/explore/explore_table.h"
#include "sim/explore/explore_state.h"

#define EXPLORE_CHUNK (1u << 20)

void explore_table_init(ExploreTable *t)
{
    memset(t, 0, sizeof *t);
    t->chunks = g_ptr_array_new_with_free_func(g_free);
    t->recs = g_array_new(FALSE, FALSE, sizeof(ExploreRec));
    t->nslots = 1u << 16;
    t->slots = g_new0(uint64_t, t->nslots);
}

void explore_table_clear(ExploreTable *t)
{
    if (t->chunks)
        g_ptr_array_free(t->chunks, TRUE);
    if (t->recs)
        g_array_free(t->recs, TRUE);
    g_free(t->slots);
    memset(t, 0, sizeof *t);
}

static const guint8 *store_bytes(ExploreTable *t, const guint8 *bytes, uint32_t len)
{
    if (len > EXPLORE_CHUNK / 4) {
        /* A state too big to share a chunk gets its own, kept before the current one. */
        guint8 *own = g_memdup2(bytes, len);
        g_ptr_array_insert(t->chunks, t->chunks->len ? (gint)t->chunks->len - 1 : 0, own);
        t->bytes += len;
        return own;
    }
    if (!t->chunks->len || t->chunk_used + len > EXPLORE_CHUNK) {
        g_ptr_array_add(t->chunks, g_malloc(EXPLORE_CHUNK));
        t->chunk_used = 0;
        t->bytes += EXPLORE_CHUNK;
    }
    guint8 *at = (guint8 *)t->chunks->pdata[t->chunks->len - 1] + t->chunk_used;
    memcpy(at, bytes, len);
    t->chunk_used += len;
    return at;
}

static void grow(ExploreTable *t)
{
    gsize n = t->nslots * 2;
    uint64_t *slots = g_new0(uint64_t, n);
    for (guint id = 0; id < t->recs->len; id++) {
        const ExploreRec *r = explore_table_rec(t, id);
        uint64_t h = explore_hash(r->bytes, r->len);
        gsize k = (gsize)h & (n - 1);
        while (slots[k])
            k = (k + 1) & (n - 1);
        slots[k] = (h >> 32) << 32 | (uint64_t)(id + 1);
    }
    g_free(t->slots);
    t->slots = slots;
    t->nslots = n;
}

uint32_t explore_table_add(ExploreTable *t, const guint8 *bytes, uint32_t len, uint32_t parent, uint32_t move,
                           gboolean *added)
{
    uint64_t h = explore_hash(bytes, len);
    uint32_t tag = (uint32_t)(h >> 32);
    gsize mask = t->nslots - 1;
    for (gsize k = (gsize)h & mask;; k = (k + 1) & mask) {
        uint64_t slot = t->slots[k];
        if (!slot)
            break;
        if ((uint32_t)(slot >> 32) != tag)
            continue;
        uint32_t id = (uint32_t)(slot & 0xffffffffu) - 1;
        const ExploreRec *r = explore_table_rec(t, id);
        if (r->len == len && !memcmp(r->bytes, bytes, len)) {
            *added = FALSE;
            return id;
        }
    }
    uint32_t id = t->recs->len;
    ExploreRec rec = { store_bytes(t, bytes, len), len, parent, move };
    g_array_append_val(t->recs, rec);
    if ((gsize)t->recs->len * 2 > t->nslots) {
        grow(t);
    } else {
        gsize k = (gsize)h & mask;
        while (t->slots[k])
            k = (k + 1) & mask;
        t->slots[k] = (uint64_t)tag << 32 | (uint64_t)(id + 1);
    }
    *added = TRUE;
    return id;
}

guint64 explore_table_memory(const ExploreTable *t)
{
    return t->bytes + (guint64)t->recs->len * sizeof(ExploreRec) + (guint64)t->nslots * sizeof(uint64_t);
}
