/* The relation algebra: bit-matrix operators (see relation.h). */
#include <string.h>
#include "sim/memmodel/relation.h"

void mm_rel_clear(MmRel *r, guint n)
{
    g_assert(n <= MM_MAX_EVENTS);
    r->n = n;
    memset(r->row, 0, sizeof r->row);
}

void mm_rel_identity(MmRel *r, guint n, MmSet s)
{
    mm_rel_clear(r, n);
    s &= mm_set_all(n);
    for (guint i = 0; i < n; i++)
        if (mm_set_has(s, i))
            r->row[i] = mm_set_bit(i);
}

void mm_rel_cross(MmRel *r, guint n, MmSet a, MmSet b)
{
    mm_rel_clear(r, n);
    b &= mm_set_all(n);
    for (guint i = 0; i < n; i++)
        if (mm_set_has(a, i))
            r->row[i] = b;
}

void mm_rel_union(MmRel *out, const MmRel *a, const MmRel *b)
{
    g_assert(a->n == b->n);
    out->n = a->n;
    for (guint i = 0; i < a->n; i++)
        out->row[i] = a->row[i] | b->row[i];
}

void mm_rel_inter(MmRel *out, const MmRel *a, const MmRel *b)
{
    g_assert(a->n == b->n);
    out->n = a->n;
    for (guint i = 0; i < a->n; i++)
        out->row[i] = a->row[i] & b->row[i];
}

void mm_rel_minus(MmRel *out, const MmRel *a, const MmRel *b)
{
    g_assert(a->n == b->n);
    out->n = a->n;
    for (guint i = 0; i < a->n; i++)
        out->row[i] = a->row[i] & ~b->row[i];
}

void mm_rel_seq(MmRel *out, const MmRel *a, const MmRel *b)
{
    g_assert(a->n == b->n && out != a && out != b);
    mm_rel_clear(out, a->n);
    for (guint i = 0; i < a->n; i++) {
        uint64_t acc = 0;
        for (uint64_t mid = a->row[i]; mid; mid &= mid - 1)
            acc |= b->row[__builtin_ctzll(mid)];
        out->row[i] = acc;
    }
}

void mm_rel_inverse(MmRel *out, const MmRel *r)
{
    g_assert(out != r);
    mm_rel_clear(out, r->n);
    for (guint i = 0; i < r->n; i++)
        for (uint64_t js = r->row[i]; js; js &= js - 1)
            out->row[__builtin_ctzll(js)] |= mm_set_bit(i);
}

/* Warshall: after step k, row[i] holds every j reachable through intermediates <= k. */
void mm_rel_closure(MmRel *r)
{
    for (guint k = 0; k < r->n; k++) {
        uint64_t via = r->row[k];
        if (!via)
            continue;
        for (guint i = 0; i < r->n; i++)
            if (mm_set_has(r->row[i], k))
                r->row[i] |= via;
    }
}

void mm_rel_restrict_domain(MmRel *r, MmSet s)
{
    for (guint i = 0; i < r->n; i++)
        if (!mm_set_has(s, i))
            r->row[i] = 0;
}

void mm_rel_restrict_range(MmRel *r, MmSet s)
{
    for (guint i = 0; i < r->n; i++)
        r->row[i] &= s;
}

MmSet mm_rel_domain(const MmRel *r)
{
    MmSet s = 0;
    for (guint i = 0; i < r->n; i++)
        if (r->row[i])
            s |= mm_set_bit(i);
    return s;
}

MmSet mm_rel_range(const MmRel *r)
{
    MmSet s = 0;
    for (guint i = 0; i < r->n; i++)
        s |= r->row[i];
    return s;
}

gboolean mm_rel_is_empty(const MmRel *r)
{
    for (guint i = 0; i < r->n; i++)
        if (r->row[i])
            return FALSE;
    return TRUE;
}

gboolean mm_rel_is_irreflexive(const MmRel *r)
{
    for (guint i = 0; i < r->n; i++)
        if (mm_set_has(r->row[i], i))
            return FALSE;
    return TRUE;
}

gboolean mm_rel_is_acyclic(const MmRel *r)
{
    MmRel c = *r;
    mm_rel_closure(&c);
    return mm_rel_is_irreflexive(&c);
}
