/* Can every state still finish? (see explore_finish.h) */
#include "sim/explore/explore_finish.h"

#define NONE G_MAXUINT32

/* can[s] := 1 for every state from which a state without moves is reachable: backwards from
 * those over the reversed edges. */
static guint8 *can_finish(guint n, const uint32_t *at, const uint32_t *to, const guint8 *exempt)
{
    guint ne = at[n];
    g_autofree uint32_t *in_at = g_new0(uint32_t, n + 1);
    for (guint e = 0; e < ne; e++)
        in_at[to[e] + 1]++;
    for (guint k = 0; k < n; k++)
        in_at[k + 1] += in_at[k];
    g_autofree uint32_t *fill = g_memdup2(in_at, (n + 1) * sizeof *in_at);
    g_autofree uint32_t *from = g_new(uint32_t, ne + 1);
    for (guint s = 0; s < n; s++)
        for (uint32_t e = at[s]; e < at[s + 1]; e++)
            from[fill[to[e]]++] = s;
    guint8 *can = g_new0(guint8, n);
    g_autofree uint32_t *queue = g_new(uint32_t, n);
    guint head = 0, tail = 0;
    for (guint s = 0; s < n; s++)
        if (at[s] == at[s + 1] && !(exempt && exempt[s])) {
            can[s] = 1;
            queue[tail++] = s;
        }
    while (head < tail) {
        uint32_t s = queue[head++];
        for (uint32_t e = in_at[s]; e < in_at[s + 1]; e++)
            if (!can[from[e]]) {
                can[from[e]] = 1;
                queue[tail++] = from[e];
            }
    }
    return can;
}

typedef struct {
    const uint32_t *at, *to;
    uint32_t *index, *low, *comp;
    guint8 *on_stack;
    GArray *stack;             /* Tarjan's stack of states */
    GArray *calls;             /* the depth-first path: (state, next edge) pairs */
    uint32_t next_index, ncomp;
} Tarjan;

/* Tarjan's strongconnect from v, with an explicit call stack. */
static void strongconnect(Tarjan *t, uint32_t v)
{
    uint32_t frame[2] = { v, t->at[v] };
    t->index[v] = t->low[v] = t->next_index++;
    g_array_append_val(t->stack, v);
    t->on_stack[v] = 1;
    g_array_append_vals(t->calls, frame, 2);
    while (t->calls->len) {
        uint32_t *top = &g_array_index(t->calls, uint32_t, t->calls->len - 2);
        uint32_t u = top[0];
        if (top[1] < t->at[u + 1]) {
            uint32_t w = t->to[top[1]++];
            if (t->index[w] == NONE) {
                uint32_t f[2] = { w, t->at[w] };
                t->index[w] = t->low[w] = t->next_index++;
                g_array_append_val(t->stack, w);
                t->on_stack[w] = 1;
                g_array_append_vals(t->calls, f, 2);
            } else if (t->on_stack[w]) {
                t->low[u] = MIN(t->low[u], t->index[w]);
            }
            continue;
        }
        g_array_set_size(t->calls, t->calls->len - 2);
        if (t->calls->len) {
            uint32_t parent = g_array_index(t->calls, uint32_t, t->calls->len - 2);
            t->low[parent] = MIN(t->low[parent], t->low[u]);
        }
        if (t->low[u] != t->index[u])
            continue;
        uint32_t w;
        do {
            w = g_array_index(t->stack, uint32_t, t->stack->len - 1);
            g_array_set_size(t->stack, t->stack->len - 1);
            t->on_stack[w] = 0;
            t->comp[w] = t->ncomp;
        } while (w != u);
        t->ncomp++;
    }
}

uint32_t explore_first_stuck(guint n, const uint32_t *edge_at, const uint32_t *edges, const guint8 *exempt,
                             guint *loop)
{
    g_autofree guint8 *can = can_finish(n, edge_at, edges, exempt);
    guint stuck = 0;
    for (guint s = 0; s < n; s++)
        stuck += !can[s] && !(exempt && exempt[s]);
    *loop = 0;
    if (!stuck)
        return NONE;
    Tarjan t = { .at = edge_at, .to = edges };
    t.index = g_new(uint32_t, n);
    t.low = g_new(uint32_t, n);
    t.comp = g_new(uint32_t, n);
    t.on_stack = g_new0(guint8, n);
    t.stack = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    t.calls = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (guint s = 0; s < n; s++)
        t.index[s] = can[s] ? 0 : NONE; /* the states that can finish take no part */
    for (guint s = 0; s < n; s++)
        if (t.index[s] == NONE)
            strongconnect(&t, s);
    /* A component is bottom when no edge leaves it (none leaves the stuck states at all). */
    g_autofree guint8 *leaves = g_new0(guint8, t.ncomp + 1);
    for (guint s = 0; s < n; s++)
        for (uint32_t e = edge_at[s]; e < edge_at[s + 1] && !can[s]; e++)
            if (t.comp[edges[e]] != t.comp[s])
                leaves[t.comp[s]] = 1;
    uint32_t first = NONE;
    for (guint s = 0; s < n && first == NONE; s++)
        if (!can[s] && !leaves[t.comp[s]] && !(exempt && exempt[s]))
            first = s;
    for (guint s = 0; s < n && first == NONE; s++)
        if (!can[s] && !(exempt && exempt[s]))
            first = s;
    for (guint s = 0; s < n; s++)
        *loop += !can[s] && t.comp[s] == t.comp[first];
    g_free(t.index);
    g_free(t.low);
    g_free(t.comp);
    g_free(t.on_stack);
    g_array_free(t.stack, TRUE);
    g_array_free(t.calls, TRUE);
    return first;
}
