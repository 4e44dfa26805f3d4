/* Lost lines (the port's `line_lost`): a line this core read was invalidated or evicted, or
 * (SMT) written by the other hardware thread of its core in their shared L1.  It clears the
 * arm64 exclusive monitor (setting the event register a WFE waits on); on x86 it may roll back a
 * load that performed too early, the memory-ordering machine clear (DESIGN.md, "Cores: where
 * the rollback lives"), by the same rule whoever wrote the line (Intel's MACHINE_CLEARS.
 * MEMORY_ORDERING counts "snoops from another hardware thread or core"), those of the sibling
 * counted apart; on arm64 it marks the loads that read the line stale, and a stale load
 * younger than a same-address load that performs later reads again. */
#include "cores/core_internal.h"

/* A lost line: clears the exclusive monitor, and may squash loads that already read it. */

/* Clears by line, for the report's per-variable counters: rare, so a table costs nothing. */
static void count_line_clear(Core *c, uint64_t line)
{
    if (!c->clears_by_line)
        c->clears_by_line = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    guint64 *n = g_hash_table_lookup(c->clears_by_line, &line);
    if (!n) {
        uint64_t *key = g_new(uint64_t, 1);
        *key = line;
        n = g_new0(guint64, 1);
        g_hash_table_insert(c->clears_by_line, key, n);
    }
    (*n)++;
}

/* For the trace: the loads from `seq` on whose access is on its way to the L1 (a squash leaves
 * it there: it is performed, and its answer dropped). */
static guint loads_in_flight_from(Core *c, uint64_t seq)
{
    guint n = 0;
    for (uint64_t s = seq; s < c->next_seq; s++) {
        const RobEntry *en = rob_at(c, s);
        n += core_op_is_load(en->in->op) && en->req_id != 0;
    }
    return n;
}

void rollback_line_lost(void *obj, uint64_t line_addr, LineLossCause cause)
{
    Core *c = obj;
    core_catch_up_now(c);
    c->ff.taint++;
    if (cause == LINE_DOWNGRADED)
        return; /* a downgrade leaves every value we read valid */
    gboolean sibling = cause == LINE_SIBLING_STORE;
    if (!sibling)
        c->st.lines_lost++;
    if (c->halted)
        return;
    core_touch_head(c); /* the monitor and event register; a squash redispatches */
    uint64_t line = core_line(c, line_addr);
    if (!c->x86 && c->mon_armed && c->mon_line == line) {
        c->mon_armed = FALSE;
        if (!c->event_reg) {
            c->event_reg = TRUE;
            c->event_cause = WAKE_MONITOR;
        }
    }
    if (c->x86 && c->cfg->core.rollback != ROLLBACK_NONE) {
        /* Memory-ordering machine clear: the oldest performed, unretired load of the line. */
        gboolean precise = c->cfg->core.rollback == ROLLBACK_PRECISE, older_pending = FALSE;
        for (uint64_t s = c->head_seq; s < c->next_seq; s++) {
            RobEntry *en = rob_at(c, s);
            if (!core_op_is_load(en->in->op))
                continue;
            if (en->watched && en->line == line && (!precise || older_pending)) {
                gint64 pen = c->cfg->core.machine_clear_penalty;
                int32_t pc = en->pc;
                c->st.machine_clears++;
                CORE_PROFILE_ADD(&c->prof, pc, clears, 1);
                count_line_clear(c, line);
                if (sibling) {
                    c->st.machine_clears_sibling++;
                    CORE_PROFILE_ADD(&c->prof, pc, sibling_clears, 1);
                }
                guint inflight = c->trace_fn ? loads_in_flight_from(c, s) : 0;
                guint squashed = rob_squash_refetch(c, s, pc, pen);
                c->st.mc_squashed_ops += squashed;
                c->st.mc_penalty_cycles += (guint64)pen;
                if (c->trace_fn) {
                    CoreTraceEvent ev = { .kind = CORE_TRACE_MACHINE_CLEAR, .when = c->now, .pc = pc, .resume_pc = pc,
                                          .line = line, .evicted = cause == LINE_EVICTED, .squashed = squashed,
                                          .penalty = (Cycle)pen, .sibling = sibling,
                                          .inflight = inflight };
                    c->trace_fn(c->trace_ctx, c->id, &ev);
                }
                break;
            }
            if (!en->performed)
                older_pending = TRUE;
        }
    } else if (!c->x86) {
        /* arm64: loads may reorder, but a load that read this line may now be older news
         * than what an older load to the same bytes will read: see check_same_address. */
        for (uint64_t s = c->head_seq; s < c->next_seq; s++) {
            RobEntry *en = rob_at(c, s);
            if (core_op_is_load(en->in->op) && en->watched && en->line == line)
                en->stale = TRUE;
        }
    }
    core_wake(c);
}

/* arm64 keeps same-address loads in order: when `en` performs, a younger load to the same
 * bytes that performed earlier and has since lost its line may hold an older value than `en`
 * just read, so it (and all after it) reads again. */
void rollback_same_address(Core *c, const RobEntry *en)
{
    for (uint64_t s = en->seq + 1; s < c->next_seq; s++) {
        const RobEntry *y = rob_at(c, s);
        if (core_op_is_load(y->in->op) && y->stale && y->addr < en->addr + en->in->size &&
            en->addr < y->addr + y->in->size) {
            c->st.same_addr_replays++;
            int32_t pc = y->pc;
            guint squashed = rob_squash_refetch(c, s, pc, c->cfg->core.machine_clear_penalty);
            core_trace(c, CORE_TRACE_REPLAY, pc, pc, squashed, c->cfg->core.machine_clear_penalty);
            return;
        }
    }
}
