/* Fuzz target: the SMT and placement grid.  The input bytes are choices, not a file: a shipped
 * config with two hardware threads per core (haswell, skylake-sp, westmere-ex), a shipped lock,
 * 1-4 threads placed by smt, fill, spread or a CPU list (siblings of one core, or any logical
 * CPUs, one thread each), think 0-400, jitter 0-200, cs-work 0-200, 1-3 iterations, fast-forward
 * on or off, and the seed; the whole run goes through the library as `qsim run` makes it.
 * Every such run must finish: a correct lock on a machine with a CPU for each thread never
 * stalls, violates mutual exclusion or faults (issue 45: sibling threads stalled on SMT
 * configs).  tests/test_smt.c runs a seeded grid of the same space in `make check`. */
#include "tests/fuzz/fuzz.h"
#include "sim/base/config.h"
#include "sim/run/run.h"
#include "sim/workload/placement.h"


/* A choice among up to 65536, from two bytes. */
static guint pick16(FuzzBytes *in, guint n)
{
    guint hi = fuzz_pick(in, 256);
    return (hi << 8 | fuzz_pick(in, 256)) % n;
}

static const char *const configs[] = { "haswell", "skylake-sp", "westmere-ex" };
static const char *const locks[] = {
    "tas", "ttas", "ticket", "mcs", "clh", "qspin", "qspin-cmpxchg", "futex-mutex", "adaptive-mutex",
    "adaptive-mutex-2018", "adaptive-mutex-readspin", "qrwlock", "qrwlock-4.15", "arm64-rwlock",
};

/* A CPU list of `threads` distinct logical CPUs of `cfg`: each either the sibling of the one
 * before it (so pairs share a core) or any CPU; a CPU already taken moves on to the next free. */
static void pick_cpus(FuzzBytes *in, const QsimConfig *cfg, guint threads, Placement *p)
{
    guint cores = (guint)(cfg->topology.sockets * cfg->topology.cores_per_socket);
    guint total = cores * (guint)cfg->topology.threads_per_core;
    p->policy = PLACE_CPUS;
    p->ncpus = threads;
    for (guint t = 0; t < threads; t++) {
        guint cpu = t > 0 && fuzz_pick(in, 2) ? (p->cpus[t - 1] + cores) % total : pick16(in, total);
        for (gboolean taken = TRUE; taken;) {
            taken = FALSE;
            for (guint k = 0; k < t; k++)
                if (p->cpus[k] == cpu) {
                    taken = TRUE;
                    cpu = (cpu + 1) % total;
                }
        }
        p->cpus[t] = (guint16)cpu;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static QsimConfig *loaded[G_N_ELEMENTS(configs)];
    if (!loaded[0])
        for (guint i = 0; i < G_N_ELEMENTS(configs); i++) {
            g_autoptr(GError) error = NULL;
            loaded[i] = config_load(configs[i], NULL, &error);
            FUZZ_ASSERT(loaded[i], "%s", error->message);
            FUZZ_ASSERT(loaded[i]->topology.threads_per_core > 1, "%s has one thread per core", configs[i]);
        }
    FuzzBytes in = { data, size };
    RunOptions o;
    run_options_init(&o);
    guint c = fuzz_pick(&in, G_N_ELEMENTS(configs));
    o.config = configs[c];
    o.lock = locks[fuzz_pick(&in, G_N_ELEMENTS(locks))];
    o.workload.threads = 1 + fuzz_pick(&in, 4);
    guint policy = fuzz_pick(&in, 4);
    static const PlacementPolicy policies[] = { PLACE_SMT, PLACE_FILL, PLACE_SPREAD };
    if (policy < G_N_ELEMENTS(policies))
        o.workload.placement = (Placement){ .policy = policies[policy] };
    else
        pick_cpus(&in, loaded[c], o.workload.threads, &o.workload.placement);
    o.workload.think = pick16(&in, 401);
    o.workload.jitter = fuzz_pick(&in, 201);
    o.workload.cs_work = fuzz_pick(&in, 201);
    o.workload.iterations = 1 + fuzz_pick(&in, 3);
    o.fast_forward = fuzz_pick(&in, 2) == 0;
    o.seed = 1 + fuzz_pick(&in, 256);
    o.host_time = FALSE;

    g_autofree char *placement = placement_text(&o.workload.placement);
    g_autofree char *command = g_strdup_printf(
        "qsim run --config %s --lock %s -t %u --placement %s --think %u --jitter %u --cs-work %u -i %u --seed %"
        G_GUINT64_FORMAT "%s", o.config, o.lock, o.workload.threads, placement, o.workload.think, o.workload.jitter,
        o.workload.cs_work, o.workload.iterations, o.seed, o.fast_forward ? "" : " --no-fast-forward");
    RunResult r;
    g_autoptr(GError) error = NULL;
    /* every choice is one `qsim run` takes: an error is a refusal of good input */
    FUZZ_ASSERT(run_simulation(&o, &r, &error), "%s: %s", command, error->message);
    FUZZ_ASSERT(r.ok, "%s:\n%s", command, r.failure);
    run_result_clear(&r);
    return 0;
}
