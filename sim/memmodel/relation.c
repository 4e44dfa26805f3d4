/* The relation algebra: bit-matrix operators (see relation.h).  Each operator that walks rows
 * has a one-word branch for graphs of up to 64 events, the size of every litmus test, so those
 * run as they did when a row was a uint64_t; the general branch loops over a row's words. */
#include <string.h>
#include "sim/memmodel/relation.h"

/* The mask of the valid bits of a row's last word. */
static inline uint64_t last_mask(guint n)
{
    guint r = n & 63;
    return r ? ((uint64_t)1 << r) - 1 : ~(uint64_t)0;
}

/* ---- sets ---- */

static void set_resize(MmSet *s, guint n)
{
    guint words = mm_words_for(n);
    if (words > s->cap) {
        s->w = g_renew(uint64_t, s->w, words);
        s->cap = words;
    }
    s->n = n;
    s->words = words;
}

void mm_set_free(MmSet *s)
{
    g_free(s->w);
    memset(s, 0, sizeof *s);
}

void mm_set_clear(MmSet *s, guint n)
{
    set_resize(s, n);
    memset(s->w, 0, sizeof(uint64_t) * s->words);
}

void mm_set_fill(MmSet *s, guint n)
{
    set_resize(s, n);
    if (!n) {
        s->w[0] = 0;
        return;
    }
    memset(s->w, 0xff, sizeof(uint64_t) * s->words);
    s->w[s->words - 1] = last_mask(n);
}

void mm_set_copy(MmSet *out, const MmSet *s)
{
    if (out == s)
        return;
    set_resize(out, s->n);
    memcpy(out->w, s->w, sizeof(uint64_t) * s->words);
}

void mm_set_union(MmSet *out, const MmSet *a, const MmSet *b)
{
    g_assert(a->n == b->n);
    set_resize(out, a->n);
    for (guint k = 0; k < a->words; k++)
        out->w[k] = a->w[k] | b->w[k];
}

void mm_set_inter(MmSet *out, const MmSet *a, const MmSet *b)
{
    g_assert(a->n == b->n);
    set_resize(out, a->n);
    for (guint k = 0; k < a->words; k++)
        out->w[k] = a->w[k] & b->w[k];
}

void mm_set_minus(MmSet *out, const MmSet *a, const MmSet *b)
{
    g_assert(a->n == b->n);
    set_resize(out, a->n);
    for (guint k = 0; k < a->words; k++)
        out->w[k] = a->w[k] & ~b->w[k];
}

gboolean mm_set_is_empty(const MmSet *s)
{
    for (guint k = 0; k < s->words; k++)
        if (s->w[k])
            return FALSE;
    return TRUE;
}

guint mm_set_count(const MmSet *s)
{
    guint c = 0;
    for (guint k = 0; k < s->words; k++)
        c += (guint)__builtin_popcountll(s->w[k]);
    return c;
}

int mm_set_next(const MmSet *s, guint i)
{
    if (i >= s->n)
        return -1;
    guint k = i >> 6;
    uint64_t w = s->w[k] & (~(uint64_t)0 << (i & 63));
    for (;;) {
        if (w)
            return (int)(k * 64 + (guint)__builtin_ctzll(w));
        if (++k >= s->words)
            return -1;
        w = s->w[k];
    }
}

/* ---- relations ---- */

static void rel_resize(MmRel *r, guint n)
{
    guint words = mm_words_for(n);
    gsize need = (gsize)MAX(n, 1) * words;
    if (need > r->cap) {
        r->w = g_renew(uint64_t, r->w, need);
        r->cap = need;
    }
    r->n = n;
    r->words = words;
}

/* The words of r's rows, as one array. */
static inline gsize rel_size(const MmRel *r)
{
    return (gsize)r->n * r->words;
}

void mm_rel_free(MmRel *r)
{
    g_free(r->w);
    memset(r, 0, sizeof *r);
}

void mm_rel_clear(MmRel *r, guint n)
{
    rel_resize(r, n);
    memset(r->w, 0, sizeof(uint64_t) * rel_size(r));
}

void mm_rel_copy(MmRel *out, const MmRel *r)
{
    if (out == r)
        return;
    rel_resize(out, r->n);
    memcpy(out->w, r->w, sizeof(uint64_t) * rel_size(r));
}

void mm_rel_set_row(MmRel *r, guint i, const MmSet *s)
{
    g_assert(s->n == r->n);
    memcpy(mm_rel_row(r, i), s->w, sizeof(uint64_t) * r->words);
}

void mm_rel_clear_row(MmRel *r, guint i)
{
    memset(mm_rel_row(r, i), 0, sizeof(uint64_t) * r->words);
}

gboolean mm_rel_row_is_empty(const MmRel *r, guint i)
{
    const uint64_t *row = mm_rel_crow(r, i);
    for (guint k = 0; k < r->words; k++)
        if (row[k])
            return FALSE;
    return TRUE;
}

void mm_rel_identity(MmRel *r, guint n, const MmSet *s)
{
    g_assert(s->n == n);
    mm_rel_clear(r, n);
    for (int i = mm_set_next(s, 0); i >= 0; i = mm_set_next(s, (guint)i + 1))
        mm_rel_add(r, (guint)i, (guint)i);
}

void mm_rel_cross(MmRel *r, guint n, const MmSet *a, const MmSet *b)
{
    g_assert(a->n == n && b->n == n);
    mm_rel_clear(r, n);
    for (int i = mm_set_next(a, 0); i >= 0; i = mm_set_next(a, (guint)i + 1))
        mm_rel_set_row(r, (guint)i, b);
}

void mm_rel_union(MmRel *out, const MmRel *a, const MmRel *b)
{
    g_assert(a->n == b->n);
    rel_resize(out, a->n);
    for (gsize k = 0, z = rel_size(a); k < z; k++)
        out->w[k] = a->w[k] | b->w[k];
}

void mm_rel_inter(MmRel *out, const MmRel *a, const MmRel *b)
{
    g_assert(a->n == b->n);
    rel_resize(out, a->n);
    for (gsize k = 0, z = rel_size(a); k < z; k++)
        out->w[k] = a->w[k] & b->w[k];
}

void mm_rel_minus(MmRel *out, const MmRel *a, const MmRel *b)
{
    g_assert(a->n == b->n);
    rel_resize(out, a->n);
    for (gsize k = 0, z = rel_size(a); k < z; k++)
        out->w[k] = a->w[k] & ~b->w[k];
}

void mm_rel_seq(MmRel *out, const MmRel *a, const MmRel *b)
{
    g_assert(a->n == b->n && out != a && out != b);
    guint n = a->n, words = a->words;
    rel_resize(out, n);
    if (words == 1) {
        for (guint i = 0; i < n; i++) {
            uint64_t acc = 0;
            for (uint64_t mid = a->w[i]; mid; mid &= mid - 1)
                acc |= b->w[__builtin_ctzll(mid)];
            out->w[i] = acc;
        }
        return;
    }
    memset(out->w, 0, sizeof(uint64_t) * rel_size(out));
    for (guint i = 0; i < n; i++) {
        const uint64_t *ar = mm_rel_crow(a, i);
        uint64_t *acc = mm_rel_row(out, i);
        for (guint k = 0; k < words; k++)
            for (uint64_t mid = ar[k]; mid; mid &= mid - 1) {
                const uint64_t *br = mm_rel_crow(b, k * 64 + (guint)__builtin_ctzll(mid));
                for (guint m = 0; m < words; m++)
                    acc[m] |= br[m];
            }
    }
}

void mm_rel_inverse(MmRel *out, const MmRel *r)
{
    g_assert(out != r);
    mm_rel_clear(out, r->n);
    for (guint i = 0; i < r->n; i++) {
        const uint64_t *row = mm_rel_crow(r, i);
        for (guint k = 0; k < r->words; k++)
            for (uint64_t js = row[k]; js; js &= js - 1)
                mm_rel_add(out, k * 64 + (guint)__builtin_ctzll(js), i);
    }
}

/* Warshall: after step k, row i holds every j reachable through intermediates <= k. */
void mm_rel_closure(MmRel *r)
{
    guint n = r->n, words = r->words;
    if (words == 1) {
        for (guint k = 0; k < n; k++) {
            uint64_t via = r->w[k], bit = (uint64_t)1 << k;
            if (!via)
                continue;
            for (guint i = 0; i < n; i++)
                if (r->w[i] & bit)
                    r->w[i] |= via;
        }
        return;
    }
    for (guint k = 0; k < n; k++) {
        const uint64_t *via = mm_rel_crow(r, k);
        if (mm_rel_row_is_empty(r, k))
            continue;
        guint kw = k >> 6;
        uint64_t bit = (uint64_t)1 << (k & 63);
        for (guint i = 0; i < n; i++) {
            uint64_t *row = mm_rel_row(r, i);
            if (row[kw] & bit)
                for (guint m = 0; m < words; m++)
                    row[m] |= via[m];
        }
    }
}

void mm_rel_restrict_domain(MmRel *out, const MmRel *r, const MmSet *s)
{
    g_assert(s->n == r->n);
    rel_resize(out, r->n);
    for (guint i = 0; i < r->n; i++) {
        if (mm_set_has(s, i)) {
            if (out != r)
                memcpy(mm_rel_row(out, i), mm_rel_crow(r, i), sizeof(uint64_t) * r->words);
        } else {
            mm_rel_clear_row(out, i);
        }
    }
}

void mm_rel_restrict_range(MmRel *out, const MmRel *r, const MmSet *s)
{
    g_assert(s->n == r->n);
    rel_resize(out, r->n);
    guint words = r->words;
    if (words == 1) {
        uint64_t m = s->w[0];
        for (guint i = 0; i < r->n; i++)
            out->w[i] = r->w[i] & m;
        return;
    }
    for (guint i = 0; i < r->n; i++) {
        const uint64_t *row = mm_rel_crow(r, i);
        uint64_t *o = mm_rel_row(out, i);
        for (guint k = 0; k < words; k++)
            o[k] = row[k] & s->w[k];
    }
}

void mm_rel_domain(MmSet *out, const MmRel *r)
{
    mm_set_clear(out, r->n);
    for (guint i = 0; i < r->n; i++)
        if (!mm_rel_row_is_empty(r, i))
            mm_set_add(out, i);
}

void mm_rel_range(MmSet *out, const MmRel *r)
{
    mm_set_clear(out, r->n);
    for (guint i = 0; i < r->n; i++) {
        const uint64_t *row = mm_rel_crow(r, i);
        for (guint k = 0; k < r->words; k++)
            out->w[k] |= row[k];
    }
}

gboolean mm_rel_is_empty(const MmRel *r)
{
    for (gsize k = 0, z = rel_size(r); k < z; k++)
        if (r->w[k])
            return FALSE;
    return TRUE;
}

gboolean mm_rel_is_irreflexive(const MmRel *r)
{
    for (guint i = 0; i < r->n; i++)
        if (mm_rel_has(r, i, i))
            return FALSE;
    return TRUE;
}

/* Acyclicity of a graph of more than 64 events by peeling sinks: an event with no edge to a
 * live event is on no cycle; take all of them away, round after round; a cycle is what is
 * left when a round takes nothing.  Each round is one pass over the live rows, and no
 * closure (n^3 / 64) is built. */
static gboolean acyclic_by_peeling(const MmRel *r)
{
    guint n = r->n, words = r->words;
    g_autofree uint64_t *live = g_new(uint64_t, words);
    memset(live, 0xff, sizeof(uint64_t) * words);
    live[words - 1] = last_mask(n);
    guint left = n;
    while (left) {
        guint taken = 0;
        for (guint i = 0; i < n; i++) {
            if (!((live[i >> 6] >> (i & 63)) & 1))
                continue;
            const uint64_t *row = mm_rel_crow(r, i);
            gboolean sink = TRUE;
            for (guint k = 0; k < words && sink; k++)
                sink = !(row[k] & live[k]);
            if (sink) {
                live[i >> 6] &= ~((uint64_t)1 << (i & 63));
                taken++;
            }
        }
        if (!taken)
            return FALSE;
        left -= taken;
    }
    return TRUE;
}

gboolean mm_rel_is_acyclic(const MmRel *r)
{
    if (r->words > 1)
        return acyclic_by_peeling(r);
    uint64_t c[64];
    memcpy(c, r->w, sizeof(uint64_t) * r->n);
    for (guint k = 0; k < r->n; k++) {
        uint64_t via = c[k], bit = (uint64_t)1 << k;
        if (!via)
            continue;
        for (guint i = 0; i < r->n; i++)
            if (c[i] & bit)
                c[i] |= via;
    }
    for (guint i = 0; i < r->n; i++)
        if ((c[i] >> i) & 1)
            return FALSE;
    return TRUE;
}
