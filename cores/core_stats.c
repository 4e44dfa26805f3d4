/* The core's counters, registered by name so report writers stay generic (sim/base/counters.h). */
#include "cores/core.h"

#define S(f, unit, doc) COUNTER_ROW(CoreStats, f, unit, doc)
static const CounterInfo core_stats_rows[] = {
    S(cycles, "cycles", "cycles from start to halt"),
    S(insns_retired, "ops", "instructions retired"),
    S(loads_retired, "ops", "loads retired (ld, ldx)"),
    S(stores_retired, "ops", "stores retired (st)"),
    S(loads_forwarded, "ops", "loads served by store-to-load forwarding"),
    S(loads_issued, "requests", "loads sent to the L1"),
    S(stores_drained, "requests", "stores drained from the store buffer to the L1"),
    S(machine_clears, "events", "memory-ordering machine clears (a watched load's line was lost, or written by the "
                                "sibling hardware thread)"),
    S(machine_clears_sibling, "events", "of them, machine clears caused by a store of the core's other hardware thread "
                                        "(SMT) to a line a load had read"),
    S(mc_squashed_ops, "ops", "ops squashed by memory-ordering machine clears"),
    S(mc_penalty_cycles, "cycles", "refill cycles paid for memory-ordering machine clears"),
    S(same_addr_replays, "events", "arm64: younger same-address loads re-executed to keep order"),
    S(branch_mispredicts, "events", "mispredicted branches"),
    S(bm_squashed_ops, "ops", "ops squashed by mispredicted branches"),
    S(bm_penalty_cycles, "cycles", "refill cycles paid for mispredicted branches"),
    S(pause_ops, "ops", "pause (x86 PAUSE, arm64 YIELD) retired"),
    S(paused_cycles, "cycles", "core.pause_cycles for each pause retired: the dispatch holds of the pauses the program ran "
                               "(a wrong-path pause's hold is not counted)"),
    S(fence_ops, "ops", "fences completed"),
    S(fence_cycles, "cycles", "cycles fences spent at the ROB head"),
    S(atomics, "ops", "atomic read-modify-writes completed"),
    S(cas_failed, "ops", "compare-and-swaps that found another value"),
    S(atomic_cycles, "cycles", "cycles atomics spent at the ROB head"),
    S(llsc_failures, "events", "store-exclusive failures (monitor cleared or value changed)"),
    S(wfe_sleeps, "events", "times WFE went to sleep"),
    S(wfe_wake_monitor, "events", "WFE wake-ups by the exclusive monitor being cleared"),
    S(wfe_wake_sev, "events", "WFE wake-ups by an event (sev, sevl)"),
    S(wfe_wake_timeout, "events", "WFE wake-ups by core.wfe_timeout"),
    S(wfe_sleep_cycles, "cycles", "cycles asleep in WFE"),
    S(stall_rob_full, "cycles", "dispatch stall cycles: ROB full"),
    S(stall_lb_full, "cycles", "dispatch stall cycles: load buffer full"),
    S(stall_sb_full, "cycles", "dispatch stall cycles: store buffer full"),
    S(smt_stage_waits, "cycles", "SMT: cycles fetch, dispatch or retirement had work but it was the sibling hardware "
                                 "thread's turn (each stage counted: up to 3 a cycle)"),
    S(lines_lost, "events", "lines this core lost to invalidation or eviction"),
    S(marks, "ops", "mark ops retired"),
};
#undef S

const CounterRegistry core_stats_registry = {
    "CoreStats", core_stats_rows, G_N_ELEMENTS(core_stats_rows), sizeof(CoreStats),
};

void core_stats_add(CoreStats *dst, const CoreStats *src) { counters_add(&core_stats_registry, dst, src); }

gboolean core_stats_equal(const CoreStats *a, const CoreStats *b)
{
    return counters_equal(&core_stats_registry, a, b);
}
/* Every field registered (each row is one guint64). */
G_STATIC_ASSERT(G_N_ELEMENTS(core_stats_rows) * sizeof(guint64) == sizeof(CoreStats));
