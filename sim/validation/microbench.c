/* Microbenchmarks on the model (see microbench.h). */
#include <string.h>
#include "sim/validation/microbench.h"
#include "sim/machine/machine.h"
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "coherence/memsys.h"

#define MICROBENCH_BASE 0x10000

typedef struct {
    guint core0;
    Cycle start, end;
    gboolean started, ended;
} Region;

static void on_mark(void *ctx, guint core, int64_t n, Cycle when)
{
    Region *r = ctx;
    if (core != r->core0)
        return;
    if (n == 1 && !r->started) {
        r->start = when;
        r->started = TRUE;
    } else if (n == 2 && r->started && !r->ended) {
        r->end = when;
        r->ended = TRUE;
    }
}

gboolean microbench_run(const QsimConfig *cfg, const char *name, const char *source, guint threads,
                        const guint *cores, MicrobenchResult *out, GError **error)
{
    memset(out, 0, sizeof *out);
    g_autoptr(IsaProgram) prog = asm_assemble(name, source, asm_target_for_config(cfg), error);
    if (!prog)
        return FALSE;
    IsaLayout *layout = isa_layout_new(prog, threads, (uint32_t)cfg->line_size, MICROBENCH_BASE);
    Engine *e = engine_new(1);
    MemSys *ms = memsys_new(cfg, e, error);
    Machine *m = ms ? machine_new(cfg, e, &machine_memsys_ops, ms, prog, layout, threads, cores, error) : NULL;
    gboolean ok = m != NULL;
    if (ok) {
        Region region = { cores ? cores[0] : 0, 0, 0, FALSE, FALSE };
        machine_set_mark_hook(m, on_mark, &region);
        MachineOutcome outcome = machine_run(m, CYCLE_NEVER);
        if (outcome != MACHINE_DONE) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, "%s: the microbenchmark stalled\n%s", name,
                        machine_stall_report(m));
            ok = FALSE;
        } else if (!region.ended) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                        "%s: thread 0 never marked its region (mark 1 ... mark 2)", name);
            ok = FALSE;
        } else {
            out->region = region.end - region.start;
            out->cycles = machine_cycles(m);
            out->thread0 = *machine_core_stats(m, 0);
        }
    }
    machine_free(m);
    if (ms)
        memsys_free(ms);
    engine_free(e);
    isa_layout_free(layout);
    return ok;
}
