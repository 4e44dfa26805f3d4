/* Fuzz target: a lock source assembled with the workload harness and run, two threads, for a
 * few hundred cycles on the timing model (x86 teaching, arm64 neoverse-n1) with the coherence
 * invariants checked, and a few thousand steps on the reference interpreter. */
#include "tests/fuzz/fuzz.h"
#include "coherence/memsys.h"
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "sim/workload/harness.h"
#include "sim/machine/machine.h"

#define FUZZ_THREADS 2
#define FUZZ_CYCLES 300
#define FUZZ_STEPS 3000

static void run_model(const QsimConfig *cfg, const IsaProgram *prog)
{
    IsaLayout *layout = isa_layout_new(prog, FUZZ_THREADS, (uint32_t)cfg->line_size, 0x10000);
    Engine *e = engine_new(1);
    g_autoptr(GError) error = NULL;
    MemSys *ms = memsys_new(cfg, e, &error);
    FUZZ_ASSERT(ms, "%s", error->message);
    memsys_set_check(ms, TRUE);
    Machine *m = machine_new(cfg, e, &machine_memsys_ops, ms, prog, layout, FUZZ_THREADS, NULL, &error);
    if (m) {
        machine_randomize_start(m, 20);
        machine_run(m, FUZZ_CYCLES);
        /* Whatever the program does, the memory system keeps coherence. */
        FUZZ_ASSERT(memsys_check_invariants(ms, &error), "%s", error->message);
        machine_free(m);
    }
    memsys_free(ms);
    engine_free(e);
    isa_layout_free(layout);
}

static void run_interp(const IsaProgram *prog)
{
    InterpOptions o = { .threads = FUZZ_THREADS, .seed = 1, .max_steps = FUZZ_STEPS };
    g_autoptr(GError) error = NULL;
    g_autoptr(Interp) in = interp_new(prog, &o, &error);
    if (in)
        interp_run(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *text = fuzz_text(data, size, INPUT_LOCK);
    if (!text)
        return 0;
    static QsimConfig *configs[2];
    static char *harness;
    if (!harness) {
        static const char *const names[] = { "teaching", "neoverse-n1" };
        for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
            g_autoptr(GError) error = NULL;
            configs[i] = config_load(names[i], NULL, &error);
            FUZZ_ASSERT(configs[i], "%s", error->message);
        }
        HarnessOptions h;
        harness_options_init(&h);
        h.threads = FUZZ_THREADS;
        harness = harness_source(&h);
    }
    for (guint i = 0; i < G_N_ELEMENTS(configs); i++) {
        AsmSource src[] = { { "fuzz.qs", text, TRUE }, { "<harness>", harness, FALSE } };
        g_autoptr(GError) error = NULL;
        g_autoptr(IsaProgram) prog = asm_assemble_sources(src, 2, asm_target_for_config(configs[i]), &error);
        if (!prog)
            continue;
        run_model(configs[i], prog);
        if (i == 0)
            run_interp(prog);
    }
    return 0;
}
