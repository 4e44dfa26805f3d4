/* The core's counters, registered by name so report writers stay generic. */
#include <stddef.h>
#include "cores/core.h"

#define S(f, doc) { #f, offsetof(CoreStats, f), doc }
const CoreStatInfo core_stats_table[] = {
    S(cycles, "cycles from start to halt"),
    S(insns_retired, "instructions retired"),
    S(loads_retired, "loads retired (ld, ldx)"),
    S(stores_retired, "stores retired (st)"),
    S(loads_forwarded, "loads served by store-to-load forwarding"),
    S(loads_issued, "loads sent to the L1"),
    S(stores_drained, "stores drained from the store buffer to the L1"),
    S(machine_clears, "memory-ordering machine clears (a watched load's line was lost)"),
    S(mc_squashed_ops, "ops squashed by memory-ordering machine clears"),
    S(mc_penalty_cycles, "refill cycles paid for memory-ordering machine clears"),
    S(same_addr_replays, "arm64: younger same-address loads re-executed to keep order"),
    S(branch_mispredicts, "mispredicted branches"),
    S(bm_squashed_ops, "ops squashed by mispredicted branches"),
    S(bm_penalty_cycles, "refill cycles paid for mispredicted branches"),
    S(pause_ops, "pause (x86 PAUSE, arm64 YIELD) dispatched"),
    S(pause_cycles, "cycles dispatch was held back by pause"),
    S(fence_ops, "fences completed"),
    S(fence_cycles, "cycles fences spent at the ROB head"),
    S(atomics, "atomic read-modify-writes completed"),
    S(cas_failed, "compare-and-swaps that found another value"),
    S(atomic_cycles, "cycles atomics spent at the ROB head"),
    S(llsc_failures, "store-exclusive failures (monitor cleared or value changed)"),
    S(wfe_sleeps, "times WFE went to sleep"),
    S(wfe_wake_monitor, "WFE wake-ups by the exclusive monitor being cleared"),
    S(wfe_wake_sev, "WFE wake-ups by an event (sev, sevl)"),
    S(wfe_wake_timeout, "WFE wake-ups by core.wfe_timeout"),
    S(wfe_sleep_cycles, "cycles asleep in WFE"),
    S(stall_rob_full, "dispatch stall cycles: ROB full"),
    S(stall_lb_full, "dispatch stall cycles: load buffer full"),
    S(stall_sb_full, "dispatch stall cycles: store buffer full"),
    S(lines_lost, "lines this core lost to invalidation or eviction"),
    S(marks, "mark ops retired"),
};
#undef S
const guint core_stats_count = G_N_ELEMENTS(core_stats_table);

void core_stats_add(CoreStats *dst, const CoreStats *src)
{
    for (guint i = 0; i < core_stats_count; i++)
        *(guint64 *)((char *)dst + core_stats_table[i].offset) += core_stats_get(src, i);
}

gboolean core_stats_equal(const CoreStats *a, const CoreStats *b)
{
    for (guint i = 0; i < core_stats_count; i++)
        if (core_stats_get(a, i) != core_stats_get(b, i))
            return FALSE;
    return TRUE;
}
G_STATIC_ASSERT(G_N_ELEMENTS(core_stats_table) * sizeof(guint64) == sizeof(CoreStats));
