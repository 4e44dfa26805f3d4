/* The workload schema: every workload option, defined once (see sim/workload/workload.h).  Rows are in
 * the order reports echo them and help lists them.  Every number has a maximum, with its
 * reason beside it (shown in docs/workload.md and the man page): the limits of what runs and
 * of what finishes, so that no value a user can type makes a run wrap, hang or run for days
 * (docs/robustness.md, "Limits of workload options"). */
#include <stddef.h>
#include "sim/workload/workload.h"

#define OFF(field) offsetof(WorkloadOptions, field)

static const char *const data_choices[] = { "same-line", "separate-line", NULL }; /* HarnessPlacement order */

static const WorkloadDefault iterations_defaults[] = {
    { WL_VERIFY, "2", "every execution is explored, and the states grow about threefold with each "
                      "acquisition more; two per thread already reach every hand-off both ways (a release "
                      "and a re-acquire against the other thread's wait)" },
    { WL_NATIVE, "10000", "the host runs an acquisition in well under a microsecond; fewer make a run "
                          "too short to time against thread start-up" },
    { 0, NULL, NULL },
};

/* The maxima's reasons, shared where rows share a reason. */
#define WORK_WHY "a `work` op takes at most 1000000 cycles: cores/isa/asm_insn.c"
#define THREADS_WHY "past every shipped machine config; natively, the CPUs bound it further"
#define CYCLES_WHY "10^10 cycles, over 3 s of a 3 GHz core; the model simulates a few million a second, so more runs for hours"

const WorkloadKey workload_schema[] = {
    /* name, flag, short, axis, type, offset, default, min, max, choices, commands, mode, unit, help,
     * per-command defaults, why the maximum */
    { "threads", "threads", 't', "threads", WL_UINT, OFF(threads), "2", 1, 4096, NULL, WL_ALL, WL_ANY_MODE, NULL,
      "Threads, one per core (more than the cores share them through the OS model's run queues; "
      "natively one per CPU)", NULL, THREADS_WHY },
    { "readers", "readers", 0, "readers", WL_UINT, OFF(readers), "0", 0, 4096, NULL, WL_RUN | WL_VERIFY | WL_SWEEP,
      WL_ANY_MODE, NULL, "Reader/writer locks (qrwlock): the first N threads take the read side", NULL,
      "no more than --threads" },
    { "placement", "placement", 0, "placement", WL_PLACEMENT, OFF(placement), "fill", 0, 0, placement_choices,
      WL_RUN | WL_SWEEP, WL_ANY_MODE, NULL,
      "Thread placement on logical CPUs (numbered as Linux does: CPU c is hardware thread c / cores of "
      "core c mod cores): fill (socket by socket) or spread (round-robin over sockets), one thread "
      "per core; smt (sibling hardware threads first: threads 0 and 1 share core 0); or cpus:LIST "
      "(these CPUs in order, e.g. cpus:0,36, as `qsim native --cpus` takes them)", NULL, NULL },
    { "data", "data", 0, "data", WL_ENUM, OFF(data), "separate-line", 0, 0, data_choices, WL_ALL, WL_ANY_MODE, NULL,
      "Critical-section data in the lock's line (workload A) or in its own line (workload B)", NULL, NULL },
    { "cs_writes", "cs-writes", 0, "cs_writes", WL_UINT, OFF(cs_writes), "1", 0, 64, NULL, WL_ALL, WL_ANY_MODE,
      NULL, "Extra shared words written in each critical section", NULL,
      "8 lines of 64 bytes, past any critical section studied; same-line data fits fewer, in the lock's line" },
    { "cs_work", "cs-work", 0, "cs_work", WL_UINT, OFF(cs_work), "0", 0, 1000000, NULL,
      WL_RUN | WL_NATIVE | WL_SWEEP, WL_ANY_MODE, "cycles",
      "Compute inside the critical section, the hold time (natively work units of about a cycle)", NULL,
      WORK_WHY },
    { "think", "think", 0, "think", WL_UINT, OFF(think), "0", 0, 1000000, NULL, WL_RUN | WL_NATIVE | WL_SWEEP,
      WL_ANY_MODE, "cycles",
      "Compute between release and the next acquire (natively work units of about a cycle)", NULL, WORK_WHY },
    { "jitter", "jitter", 0, "jitter", WL_UINT, OFF(jitter), "0", 0, 1000000, NULL, WL_RUN | WL_SWEEP,
      WL_ANY_MODE, "cycles",
      "Timing noise: each thread's think time (even when --think is 0) and hold time, and its start, "
      "get a seeded draw in [0, N] cycles more", NULL,
      "as `work`: each draw lengthens one `work` op" },
    { "iterations", "iterations", 'i', "iterations", WL_UINT, OFF(iterations), "1000", 1, 100000000, NULL,
      WL_ALL, WL_FIXED_WORK, NULL, "Fixed-work mode: acquisitions per thread", iterations_defaults,
      "10^8 per thread: minutes on the host, hours on the model; longer studies run for a fixed time" },
    { "duration", "duration", 'd', "duration", WL_UINT64, OFF(duration), NULL, 1, G_GUINT64_CONSTANT(10000000000),
      NULL, WL_RUN | WL_SWEEP, WL_FIXED_TIME, "cycles",
      "Fixed-time mode: run this many cycles and count acquisitions (not given: fixed work)", NULL, CYCLES_WHY },
    { "warmup", "warmup", 0, "warmup", WL_UINT64, OFF(warmup), "0", 0, G_GUINT64_CONSTANT(10000000000), NULL,
      WL_RUN | WL_SWEEP, WL_FIXED_TIME, "cycles",
      "Fixed-time mode: run this long first and measure only the --duration window after it", NULL, CYCLES_WHY },
    { "duration_ms", "duration-ms", 0, NULL, WL_UINT, OFF(duration_ms), NULL, 1, 3600000, NULL, WL_NATIVE,
      WL_FIXED_TIME, "ms", "Fixed-time mode on the host: run this long and count acquisitions (not given: fixed work)",
      NULL, "an hour" },
};

const guint workload_schema_len = G_N_ELEMENTS(workload_schema);
