/* The memory system's counters (MemStats, LineStats) registered by name, unit and meaning, so
 * that reports list every one of them without naming fields (sim/base/counters.h). */
#include "coherence/memsys.h"

static const char *msg_elem_name(guint i) { return memsys_msg_name((MsgType)i); }

#define S(f, unit, doc) COUNTER_ROW(MemStats, f, unit, doc)
static const CounterInfo mem_stats_rows[] = {
    COUNTER_ARRAY_ROW(MemStats, msgs, msg_elem_name, "messages", "messages sent, by type"),
    S(mem_reads, "accesses", "DRAM reads at the homes (LLC misses, far atomics on uncached lines)"),
    S(mem_writes, "accesses", "writes of home memory (dirty data written back, far atomics)"),
    S(l1_hits, "accesses", "core loads and stores that hit in the L1"),
    S(l1_misses, "accesses", "core loads and stores that missed in the L1 (or needed an upgrade)"),
    S(l2_hits, "accesses", "L1 misses served by the private L2"),
    S(l2_misses, "accesses", "L1 misses that also missed the private L2 (0 without one)"),
    S(llc_hits, "requests", "data requests the home served from its LLC"),
    S(llc_misses, "requests", "data requests the home served from memory"),
    S(c2c_transfers, "transfers", "cache-to-cache data transfers (a private cache forwarded the line)"),
    S(rfos, "requests", "requests for ownership: GetM and Upgrade"),
    S(home_queue_cycles, "cycles", "cycles requests waited at their home for a busy line"),
    S(home_queued, "requests", "requests that had to wait at their home for a busy line"),
    S(hold_wait_cycles, "cycles", "cycles snoops waited for an atomic's hold on its line"),
    S(back_invalidations, "lines", "private copies removed by an LLC eviction (inclusion)"),
    S(evictions, "lines", "lines leaving a private hierarchy by replacement"),
    S(far_atomics, "ops", "atomics performed at the home (core.atomics: lse-far)"),
    S(f_forwards, "lines", "MESIF: clean shared lines another socket's LLC (the F copy) forwarded instead of memory"),
    COUNTER_VECTOR_ROW(MemStats, inval_received, n_inval_received, "invalidations",
                       "invalidations (Inv, Fwd-GetM) the cores received, summed over cores"),
    COUNTER_VECTOR_ROW(MemStats, cache_rows_fired, n_cache_rows_fired, "transitions",
                       "cache-controller table rows fired, summed over rows"),
    COUNTER_VECTOR_ROW(MemStats, dir_rows_fired, n_dir_rows_fired, "transitions",
                       "directory-controller table rows fired, summed over rows (on a bus: the memory controller's)"),
    S(bus_transactions, "transactions", "topology.interconnect bus: requests ordered on the bus (GetS, GetM, PutM)"),
    S(bus_wait_cycles, "cycles", "topology.interconnect bus: cycles requests waited for the bus while other transactions held it"),
    S(bus_snoops, "lookups", "topology.interconnect bus: snoops, a cache looking up another cache's request"),
    S(sibling_hold_wait_cycles, "cycles",
      "SMT: cycles accesses of one hardware thread waited for the other's atomic's hold on a line of their L1"),
};
#undef S

const CounterRegistry mem_stats_registry = {
    "MemStats", mem_stats_rows, G_N_ELEMENTS(mem_stats_rows), sizeof(MemStats),
};

#define L(f, unit, doc) COUNTER_ROW(LineStats, f, unit, doc)
static const CounterInfo line_stats_rows[] = {
    L(msgs, "messages", "messages about this line"),
    L(invalidations, "copies", "copies of this line invalidated"),
    L(rfos, "requests", "requests for ownership of this line: GetM and Upgrade"),
    L(home_queue_cycles, "cycles", "cycles requests for this line waited at its home"),
    L(c2c_transfers, "transfers", "cache-to-cache transfers of this line"),
    L(mem_writes, "accesses", "DRAM writes of this line"),
    L(l1_misses, "accesses", "accesses to this line that missed in their L1 (or needed an upgrade)"),
};
#undef L

const CounterRegistry line_stats_registry = {
    "LineStats", line_stats_rows, G_N_ELEMENTS(line_stats_rows), sizeof(LineStats),
};

void mem_stats_init(MemStats *st, gsize ncores, gsize cache_rows, gsize dir_rows)
{
    st->inval_received = g_new0(guint64, ncores);
    st->n_inval_received = ncores;
    st->cache_rows_fired = g_new0(guint64, cache_rows);
    st->n_cache_rows_fired = cache_rows;
    st->dir_rows_fired = g_new0(guint64, dir_rows);
    st->n_dir_rows_fired = dir_rows;
}

void mem_stats_clear(MemStats *st)
{
    g_clear_pointer(&st->inval_received, g_free);
    g_clear_pointer(&st->cache_rows_fired, g_free);
    g_clear_pointer(&st->dir_rows_fired, g_free);
    st->n_inval_received = st->n_cache_rows_fired = st->n_dir_rows_fired = 0;
}
