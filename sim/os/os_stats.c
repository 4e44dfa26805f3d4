/* The OS model's counters, registered by name so report writers stay generic. */
#include "sim/os/os_model.h"

#define S(f, unit, doc) COUNTER_ROW(OsStats, f, unit, doc)
static const CounterInfo os_stats_rows[] = {
    S(futex_syscalls, "calls", "futex system calls (futex_wait and futex_wake)"),
    S(futex_waits, "calls", "futex_wait calls"),
    S(futex_eagain, "calls", "futex_waits that found the word changed and returned at once"),
    S(sleeps, "events", "futex_waits that put their thread to sleep"),
    S(futex_wakes, "calls", "futex_wake calls"),
    S(futex_wakes_empty, "calls", "futex_wakes that found no waiter in the hash bucket (no lock taken)"),
    S(wakes, "threads", "threads woken by futex_wake"),
    S(context_switches, "events", "threads leaving a core (asleep, finished or preempted)"),
    S(preemptions, "events", "context switches at the end of a time slice"),
    S(migrations, "events", "threads running on another core than before"),
    S(cycles_asleep, "cycles", "threads asleep in futex_wait, summed over threads"),
    S(runqueue_wait_cycles, "cycles", "threads ready to run but waiting for their core, summed"),
    S(wake_to_run_cycles, "cycles", "from a thread's wake-up to its running again, summed"),
    S(kernel_cycles, "cycles", "cores in futex system calls (entry to return or sleep), summed"),
    S(hb_lock_wait_cycles, "cycles", "of which waiting for a futex hash-bucket lock"),
    S(switch_cycles, "cycles", "cores switching threads or waking from idle, summed"),
    S(idle_cycles, "cycles", "cores with no thread to run, summed"),
};
#undef S

const CounterRegistry os_stats_registry = {
    "OsStats", os_stats_rows, G_N_ELEMENTS(os_stats_rows), sizeof(OsStats),
};

/* Every field registered (each row is one guint64). */
G_STATIC_ASSERT(G_N_ELEMENTS(os_stats_rows) * sizeof(guint64) == sizeof(OsStats));
