/* The executors litmus tests run on: the timing model (cores + memory system) of a config, one
 * fresh machine per run (`qsim litmus --config CFG`), and the sequentially consistent reference
 * interpreter (`qsim litmus --sc`), which no outcome forbidden by any weaker model may escape.
 *
 * Per run: lay the program out, write each location's initial value (pointer locations get
 * their target's address), put each location's line in the caches the perturbation names (the
 * owner's in M by a store of the same value, sharers' in S by loads), then start thread t on core
 * t after start_skew[t] cycles and run to every halt.  `think` becomes the machine's work jitter
 * bound, the one per-run delay the model has. */
#include <string.h>
#include "sim/litmus/litmus.h"
#include "sim/machine/machine.h"
#include "cores/isa/isa_exec.h"
#include "coherence/memsys.h"
#include "cores/isa/interp.h"

#define LITMUS_MEMORY_BASE 0x10000
/* A litmus thread is a handful of ops: a run this long has hung (a spin that never ends). */
#define LITMUS_CYCLE_LIMIT 2000000

static void ignore_done(void *core G_GNUC_UNUSED, const MemResponse *r G_GNUC_UNUSED) {}
static const PortClient placing_client = { ignore_done, NULL, NULL, NULL };

static void place(MemSys *ms, Engine *e, guint core, MemKind kind, uint64_t addr, unsigned size)
{
    MemRequest r = { .kind = kind, .addr = addr, .size = (uint8_t)size };
    if (kind == MEM_STORE)
        r.value = memsys_peek(ms, addr, size);
    memsys_issue(ms, core, &r);
    while (engine_step(e))
        ;
}

/* The machine executor's context: the command's config (borrowed) and whether cores spinning
 * in steady loops fast-forward (the same outcomes either way). */
typedef struct {
    const QsimConfig *cfg;
    gboolean fast_forward;
} MachineExecCtx;

static gboolean machine_exec(void *ctx, const LitmusProgram *p, guint64 seed, const LitmusPerturb *pt,
                             LitmusFinal *out, GError **error)
{
    const MachineExecCtx *mx = ctx;
    const QsimConfig *cfg = mx->cfg;
    /* litmus_executor_accepts turns this away before any run; a caller that skips it gets it here. */
    if (p->nthreads > config_total_cores(cfg)) {
        g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "%u threads do not fit config %s (%u cores)",
                    p->nthreads, cfg->name, config_total_cores(cfg));
        return FALSE;
    }
    IsaLayout *lay = isa_layout_new(p->prog, p->nthreads, (uint32_t)cfg->line_size, LITMUS_MEMORY_BASE);
    Engine *e = engine_new(seed);
    MemSys *ms = memsys_new(cfg, e, error);
    if (!ms) {
        engine_free(e);
        isa_layout_free(lay);
        return FALSE;
    }
    memsys_set_check(ms, TRUE);
    isa_layout_init_memory(lay, p->prog, machine_memsys_ops.poke, ms);
    for (guint l = 0; l < p->locs->len; l++) {
        const LitmusLoc *loc = p->locs->pdata[l];
        if (loc->points_to >= 0) {
            const LitmusLoc *to = p->locs->pdata[loc->points_to];
            memsys_poke(ms, isa_sym_addr(lay, (guint)loc->sym, 0), loc->size,
                        isa_sym_addr(lay, (guint)to->sym, 0));
        }
    }
    for (guint t = 0; t < p->nthreads; t++)
        memsys_attach(ms, t, &placing_client, NULL);
    for (guint l = 0; l < p->locs->len && l < pt->nlocs; l++) {
        const LitmusLoc *loc = p->locs->pdata[l];
        uint64_t a = isa_sym_addr(lay, (guint)loc->sym, 0);
        if (pt->owner[l] >= 0 && (guint)pt->owner[l] < p->nthreads)
            place(ms, e, (guint)pt->owner[l], MEM_STORE, a, loc->size);
        else
            for (guint t = 0; t < p->nthreads; t++)
                if (pt->sharers[l] >> t & 1)
                    place(ms, e, t, MEM_LOAD, a, loc->size);
    }
    Machine *m = machine_new(cfg, e, &machine_memsys_ops, ms, p->prog, lay, p->nthreads, NULL, error);
    gboolean ok = m != NULL;
    if (ok) {
        guint64 think = 0;
        for (guint t = 0; t < p->nthreads; t++) {
            machine_set_start_delay(m, t, pt->start_skew[t]);
            think = MAX(think, pt->think[t]);
        }
        if (think)
            machine_set_work_jitter(m, (guint)think);
        machine_set_fast_forward(m, mx->fast_forward);
        MachineOutcome o = machine_run(m, engine_now(e) + LITMUS_CYCLE_LIMIT);
        if (o == MACHINE_FAULT) {
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "the run faulted: %s", machine_stall_report(m));
            ok = FALSE;
        } else if (o != MACHINE_DONE) {
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "the run did not finish (%s):\n%s",
                        o == MACHINE_STALLED ? "stalled" : "cycle limit", machine_stall_report(m));
            ok = FALSE;
        }
    }
    if (ok) {
        for (guint t = 0; t < p->nthreads; t++)
            for (guint r = 0; r < ISA_NREG_SLOTS; r++)
                out->regs[t * ISA_NREG_SLOTS + r] = core_reg(machine_core(m, t), r);
        for (guint l = 0; l < p->locs->len && l < out->nlocs; l++) {
            const LitmusLoc *loc = p->locs->pdata[l];
            out->addr[l] = isa_sym_addr(lay, (guint)loc->sym, 0);
            out->mem[l] = memsys_peek(ms, out->addr[l], loc->size);
        }
        ok = memsys_check_invariants(ms, error);
    }
    machine_free(m);
    memsys_free(ms);
    engine_free(e);
    isa_layout_free(lay);
    return ok;
}

LitmusExecutor *litmus_executor_for_config(const QsimConfig *cfg, GError **error G_GNUC_UNUSED)
{
    LitmusExecutor *ex = g_new0(LitmusExecutor, 1);
    ex->name = cfg->name;
    ex->run = machine_exec;
    MachineExecCtx *mx = g_new0(MachineExecCtx, 1);
    mx->cfg = cfg; /* borrowed: the command's config outlives the executor */
    mx->fast_forward = TRUE;
    ex->ctx = mx;
    ex->ctx_free = g_free;
    ex->arch_bound = TRUE;
    ex->arch = cfg->arch;
    ex->cores = config_total_cores(cfg);
    return ex;
}

/* ---- the SC reference interpreter ---- */

/* Per run: the interpreter interleaves the threads one op at a time, the next thread drawn
 * from the run's seed; caches, skew and think delays do not exist there. */
static gboolean interp_exec(void *ctx G_GNUC_UNUSED, const LitmusProgram *p, guint64 seed, const LitmusPerturb *pt G_GNUC_UNUSED,
                            LitmusFinal *out, GError **error)
{
    InterpOptions o = { .threads = p->nthreads, .seed = seed, .max_steps = LITMUS_CYCLE_LIMIT };
    g_autoptr(Interp) in = interp_new(p->prog, &o, error);
    if (!in)
        return FALSE;
    const IsaLayout *lay = interp_layout(in);
    for (guint l = 0; l < p->locs->len; l++) {
        const LitmusLoc *loc = p->locs->pdata[l];
        if (loc->points_to >= 0) {
            const LitmusLoc *to = p->locs->pdata[loc->points_to];
            interp_write(in, isa_sym_addr(lay, (guint)loc->sym, 0), loc->size, isa_sym_addr(lay, (guint)to->sym, 0));
        }
    }
    InterpOutcome r = interp_run(in);
    if (r != INTERP_FINISHED) {
        g_autofree char *why = interp_describe(in);
        g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "the run did not finish (%s):\n%s",
                    interp_outcome_name(r), why);
        return FALSE;
    }
    for (guint t = 0; t < p->nthreads; t++)
        memcpy(&out->regs[t * ISA_NREG_SLOTS], interp_thread(in, t)->regs, sizeof(uint64_t) * ISA_NREG_SLOTS);
    for (guint l = 0; l < p->locs->len && l < out->nlocs; l++) {
        const LitmusLoc *loc = p->locs->pdata[l];
        out->addr[l] = isa_sym_addr(lay, (guint)loc->sym, 0);
        interp_read(in, out->addr[l], loc->size, &out->mem[l]);
    }
    return TRUE;
}

LitmusExecutor *litmus_interp_executor_new(void)
{
    LitmusExecutor *ex = g_new0(LitmusExecutor, 1);
    ex->name = "sc";
    ex->run = interp_exec;
    return ex;
}

void litmus_executor_set_fast_forward(LitmusExecutor *ex, gboolean on)
{
    g_return_if_fail(ex->run == machine_exec);
    ((MachineExecCtx *)ex->ctx)->fast_forward = on;
}
