/* The per-instruction profile of a core: what each op of the program (by pc) did and cost,
 * counted where it happens (retirement, the ROB head, a machine clear, a failed CAS or
 * store-exclusive, a PAUSE or WFE wait, and the L1 misses and RFOs the memory system charges
 * back through the port).  `qsim run --profile` sums the rows of every core by source line
 * (sim/report/run_profile.c).
 *
 * The counters are one plain array of ProfileRow per core, indexed by pc, every field a
 * guint64 registered in profile_row_registry: whatever extends counters arithmetically (a
 * snapshot subtracted after --warmup, a fast-forward of k loop periods) treats them like any
 * other registered counters, row by row.
 *
 * Invariants over a core's rows (asserted by tests/test_profile.c against CoreStats):
 *   sum executions   == insns_retired
 *   sum clears       == machine_clears
 *   sum sibling_clears == machine_clears_sibling
 *   sum failed_cas   == cas_failed + llsc_failures
 *   sum pause_cycles == paused_cycles + wfe_sleep_cycles
 *   sum head_cycles  <= cycles
 * and over all cores, sum misses == MemStats l1_misses and sum rfos == MemStats rfos for the
 * cores' own accesses (the OS model's kernel accesses are not any op's). */
#ifndef QSIM_CORE_PROFILE_H
#define QSIM_CORE_PROFILE_H

#include <glib.h>
#include <stdint.h>
#include "sim/base/engine.h"
#include "sim/base/counters.h"

/* One op's counters. */
typedef struct {
    guint64 executions;     /* times it retired */
    guint64 head_cycles;    /* cycles it was the core's oldest op in flight (retirement waited on it) */
    guint64 clears;         /* memory-ordering machine clears that squashed from it (a load) */
    guint64 sibling_clears; /* of them, caused by the sibling hardware thread's store (SMT) */
    guint64 misses;         /* L1 misses of its accesses (a store's when it drained) */
    guint64 rfos;           /* requests for ownership (GetM, Upgrade) its accesses sent */
    guint64 failed_cas;     /* CAS that found another value, store-exclusives that failed */
    guint64 pause_cycles;   /* cycles of PAUSE/YIELD holds (each time it retired) and WFE sleeps it started */
} ProfileRow;

extern const CounterRegistry profile_row_registry;

/* A core's profile.  Invariant: rows is NULL (profiling off: nothing is counted) or holds n
 * rows, one per op of the program; head_pc is the pc of the op at the ROB head since cycle
 * head_since (-1: the ROB is empty), whose cycles are charged when the head changes. */
typedef struct {
    ProfileRow *rows;
    guint n;
    int32_t head_pc;
    Cycle head_since;
} CoreProfile;

/* Off (rows NULL) until core_profile_enable. */
void core_profile_init(CoreProfile *p);
void core_profile_enable(CoreProfile *p, guint n_insns, Cycle now);
void core_profile_clear(CoreProfile *p);

/* Counts `n` into `field` of op `pc` when profiling (pc is always one of the program's). */
#define CORE_PROFILE_ADD(p, pc, field, n) \
    do { \
        if ((p)->rows) \
            (p)->rows[(pc)].field += (n); \
    } while (0)

/* The op at the ROB head is now `pc` (-1: none): the previous head gets its cycles. */
static inline void core_profile_head(CoreProfile *p, int32_t pc, Cycle now)
{
    if (!p->rows || pc == p->head_pc)
        return;
    if (p->head_pc >= 0)
        p->rows[p->head_pc].head_cycles += now - p->head_since;
    p->head_pc = pc;
    p->head_since = now;
}
/* Charges the current head its cycles up to `now` (before the rows are read). */
void core_profile_settle(CoreProfile *p, Cycle now);

/* dst[i] += src[i] for every row; both n rows. */
void profile_rows_add(ProfileRow *dst, const ProfileRow *src, guint n);
/* dst[i] -= src[i] (what was counted since a snapshot src). */
void profile_rows_sub(ProfileRow *dst, const ProfileRow *src, guint n);

#endif
