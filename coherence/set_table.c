/* Cache sets made when first touched (see SetTable in memsys_internal.h). */
#include "coherence/memsys_internal.h"

void set_table_init(SetTable *t, uint64_t nsets, gsize set_bytes, void (*init)(void *set, gsize set_bytes))
{
    g_assert(nsets > 0 && set_bytes > 0);
    t->nsets = nsets;
    t->set_bytes = set_bytes;
    t->init = init;
    /* The slot holds its own key (its index), so the table needs no second allocation. */
    t->sets = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
    t->direct = nsets <= SET_TABLE_DIRECT_MAX ? g_new0(SetSlot *, nsets) : NULL;
}

void set_table_clear(SetTable *t, void (*free_set)(void *set))
{
    if (!t->sets)
        return;
    if (free_set) {
        GHashTableIter it;
        gpointer v;
        g_hash_table_iter_init(&it, t->sets);
        while (g_hash_table_iter_next(&it, NULL, &v))
            free_set(((SetSlot *)v)->data);
    }
    g_hash_table_destroy(t->sets);
    t->sets = NULL;
    g_free(t->direct);
    t->direct = NULL;
}

void *set_table_get(SetTable *t, uint64_t index)
{
    SetSlot *s = t->direct ? t->direct[index] : g_hash_table_lookup(t->sets, &index);
    if (!s) {
        s = g_malloc0(sizeof(SetSlot) + t->set_bytes);
        s->index = index;
        if (t->init)
            t->init(s->data, t->set_bytes);
        g_hash_table_insert(t->sets, &s->index, s);
        if (t->direct)
            t->direct[index] = s;
    }
    return s->data;
}
