/* A binary min-heap in a growable array: the engine's event queue and a core's timers.
 *
 *     MIN_HEAP_DEFINE(Name, prefix, T, before)
 *
 * declares the heap type Name { T *v; guint len, cap; } (v[0] is the least element while len
 * > 0) and static inline functions over it, ordered by `before(const T *a, const T *b)`, TRUE
 * when a must leave strictly before b:
 *     prefix_init(Name *h, guint cap)    an empty heap with room for cap (> 0) elements
 *     prefix_free(Name *h)
 *     prefix_push(Name *h, T x)          grows the array (doubling) when full
 *     prefix_pop(Name *h) -> T           removes and returns v[0]; len > 0
 *     prefix_filter(Name *h, keep, ctx) -> guint  drops every element keep(x, ctx) refuses,
 *                                        keeps the others' relative order of leaving, and
 *                                        returns how many it dropped
 *
 * Elements that are not before one another leave in an order that depends only on the
 * sequence of pushes and pops (the two sifts below are the whole of it), so a run is the same
 * on every host.  Both users are on the hot path: the functions are generated per element type
 * so that `before` and the element copies are inlined. */
#ifndef QSIM_MIN_HEAP_H
#define QSIM_MIN_HEAP_H

#include <glib.h>

#define MIN_HEAP_DEFINE(Name, prefix, T, before)                                                   \
    typedef struct {                                                                               \
        T *v;                                                                                      \
        guint len, cap;                                                                            \
    } Name;                                                                                        \
                                                                                                   \
    static inline void prefix##_init(Name *h, guint cap)                                           \
    {                                                                                              \
        h->v = g_new(T, cap);                                                                      \
        h->len = 0;                                                                                \
        h->cap = cap;                                                                              \
    }                                                                                              \
                                                                                                   \
    static inline void prefix##_free(Name *h)                                                      \
    {                                                                                              \
        g_free(h->v);                                                                              \
        h->v = NULL;                                                                               \
        h->len = h->cap = 0;                                                                       \
    }                                                                                              \
                                                                                                   \
    /* Sift up: x rises past every parent it is before. */                                         \
    static inline void prefix##_push(Name *h, T x)                                                 \
    {                                                                                              \
        if (G_UNLIKELY(h->len == h->cap)) {                                                        \
            h->cap *= 2;                                                                           \
            h->v = g_renew(T, h->v, h->cap);                                                       \
        }                                                                                          \
        guint i = h->len++;                                                                        \
        while (i > 0) {                                                                            \
            guint p = (i - 1) / 2;                                                                 \
            if (!before(&x, &h->v[p]))                                                             \
                break;                                                                             \
            h->v[i] = h->v[p];                                                                     \
            i = p;                                                                                 \
        }                                                                                          \
        h->v[i] = x;                                                                               \
    }                                                                                              \
                                                                                                   \
    /* Sift down: the last element takes the top's place and sinks below every child that is   \
     * before it (the left one when neither child is before the other). */                       \
    static inline T prefix##_pop(Name *h)                                                          \
    {                                                                                              \
        T top = h->v[0];                                                                           \
        T last = h->v[--h->len];                                                                   \
        guint i = 0, n = h->len;                                                                   \
        for (;;) {                                                                                 \
            guint l = 2 * i + 1, m = l;                                                            \
            if (l >= n)                                                                            \
                break;                                                                             \
            if (l + 1 < n && before(&h->v[l + 1], &h->v[l]))                                       \
                m = l + 1;                                                                         \
            if (!before(&h->v[m], &last))                                                          \
                break;                                                                             \
            h->v[i] = h->v[m];                                                                     \
            i = m;                                                                                 \
        }                                                                                          \
        if (n)                                                                                     \
            h->v[i] = last;                                                                        \
        return top;                                                                                \
    }                                                                                              \
                                                                                                   \
    /* Sift down from i: Floyd's rebuild after a filter. */                                        \
    static inline void prefix##_sift_down(Name *h, guint i)                                        \
    {                                                                                              \
        T x = h->v[i];                                                                             \
        for (;;) {                                                                                 \
            guint l = 2 * i + 1, m = l;                                                            \
            if (l >= h->len)                                                                       \
                break;                                                                             \
            if (l + 1 < h->len && before(&h->v[l + 1], &h->v[l]))                                  \
                m = l + 1;                                                                         \
            if (!before(&h->v[m], &x))                                                             \
                break;                                                                             \
            h->v[i] = h->v[m];                                                                     \
            i = m;                                                                                 \
        }                                                                                          \
        h->v[i] = x;                                                                               \
    }                                                                                              \
                                                                                                   \
    static inline guint prefix##_filter(Name *h, gboolean (*keep)(const T *, void *), void *ctx)   \
    {                                                                                              \
        guint kept = 0;                                                                            \
        for (guint i = 0; i < h->len; i++)                                                         \
            if (keep(&h->v[i], ctx))                                                               \
                h->v[kept++] = h->v[i];                                                            \
        guint dropped = h->len - kept;                                                             \
        h->len = kept;                                                                             \
        for (guint i = kept / 2; dropped && i-- > 0;)                                              \
            prefix##_sift_down(h, i);                                                              \
        return dropped;                                                                            \
    }

#endif
