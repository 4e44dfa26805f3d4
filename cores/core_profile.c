/* The per-instruction profile's counters (see core_profile.h). */
#include <string.h>
#include "cores/core_profile.h"

#define S(f, unit, doc) COUNTER_ROW(ProfileRow, f, unit, doc)
static const CounterInfo profile_rows_info[] = {
    S(executions, "ops", "times the op retired"),
    S(head_cycles, "cycles", "cycles the op was its core's oldest op in flight (retirement waited on it)"),
    S(clears, "events", "memory-ordering machine clears that squashed from this load"),
    S(sibling_clears, "events", "of them, caused by a store of the sibling hardware thread (SMT)"),
    S(misses, "accesses", "L1 misses of its accesses (a store's when it drained from the store buffer)"),
    S(rfos, "requests", "requests for ownership (GetM, Upgrade) its accesses sent"),
    S(failed_cas, "events", "compare-and-swaps that found another value and store-exclusives that failed"),
    S(pause_cycles, "cycles", "cycles of PAUSE/YIELD holds (core.pause_cycles each time it retired) and WFE sleeps it started"),
};
#undef S

const CounterRegistry profile_row_registry = {
    "ProfileRow", profile_rows_info, G_N_ELEMENTS(profile_rows_info), sizeof(ProfileRow),
};
G_STATIC_ASSERT(G_N_ELEMENTS(profile_rows_info) * sizeof(guint64) == sizeof(ProfileRow));

void core_profile_init(CoreProfile *p)
{
    memset(p, 0, sizeof *p);
    p->head_pc = -1;
}

void core_profile_enable(CoreProfile *p, guint n_insns, Cycle now)
{
    g_free(p->rows);
    p->rows = g_new0(ProfileRow, MAX(n_insns, 1));
    p->n = n_insns;
    p->head_pc = -1;
    p->head_since = now;
}

void core_profile_clear(CoreProfile *p)
{
    g_free(p->rows);
    core_profile_init(p);
}

void core_profile_settle(CoreProfile *p, Cycle now)
{
    if (!p->rows)
        return;
    if (p->head_pc >= 0 && now > p->head_since)
        p->rows[p->head_pc].head_cycles += now - p->head_since;
    p->head_since = MAX(p->head_since, now);
}

void profile_rows_add(ProfileRow *dst, const ProfileRow *src, guint n)
{
    for (guint i = 0; i < n; i++)
        counters_add(&profile_row_registry, &dst[i], &src[i]);
}

void profile_rows_sub(ProfileRow *dst, const ProfileRow *src, guint n)
{
    for (guint i = 0; i < n; i++)
        counters_sub(&profile_row_registry, &dst[i], &src[i]);
}
