/* `qsim litmus --exhaustive`: a test's exact final states under an axiomatic model.  The
 * translated program goes to the search of sim/memmodel/ with its locations (laid out as the
 * interpreter lays them out, pointer locations holding their target's address); each
 * reachable state comes back with its count of consistent executions and is tallied as a run
 * would be, so the report and the verdict are those of the runs, made exact. */
#include <string.h>
#include "sim/litmus/litmus_priv.h"
#include "sim/memmodel/memmodel.h"
#include "cores/isa/isa_exec.h"

#define LITMUS_EXPLORE_BASE 0x10000
#define LITMUS_EXPLORE_LINE 64

const char *litmus_default_model(LitmusArch arch)
{
    return arch == LITMUS_AARCH64 ? "arm64" : "tso";
}

/* The locations' addresses and first values under layout `lay`. */
static MmLocation *locations(const LitmusProgram *p, const IsaLayout *lay)
{
    MmLocation *locs = g_new0(MmLocation, p->locs->len + 1);
    for (guint l = 0; l < p->locs->len; l++) {
        const LitmusLoc *loc = p->locs->pdata[l];
        const IsaSym *sym = p->prog->syms->pdata[loc->sym];
        locs[l].addr = isa_sym_addr(lay, (guint)loc->sym, 0);
        if (loc->points_to >= 0) {
            const LitmusLoc *to = p->locs->pdata[loc->points_to];
            locs[l].init = isa_sym_addr(lay, (guint)to->sym, 0);
        } else {
            locs[l].init = isa_truncate((uint64_t)sym->init, sym->size);
        }
    }
    return locs;
}

/* Each outcome as a final state of the test, tallied with its count of executions. */
static void tally_outcomes(LitmusTally *y, const LitmusProgram *p, const MmResult *res, const MmLocation *locs)
{
    guint nt = p->nthreads, nl = p->locs->len;
    LitmusFinal fin = { nt, nl, NULL, g_new0(uint64_t, nl + 1), g_new0(uint64_t, nl + 1) };
    for (guint l = 0; l < nl; l++)
        fin.addr[l] = locs[l].addr;
    for (guint i = 0; i < res->outcomes->len; i++) {
        const MmOutcome *o = res->outcomes->pdata[i];
        fin.regs = o->regs;
        for (guint l = 0; l < nl; l++)
            fin.mem[l] = isa_truncate(o->mem[l], ((LitmusLoc *)p->locs->pdata[l])->size);
        litmus_tally_add(y, &fin, o->executions);
    }
    g_free(fin.mem);
    g_free(fin.addr);
}

LitmusResult *litmus_explore_test(const LitmusTest *t, const LitmusProgram *p, const LitmusExhaustive *o,
                                  GError **error)
{
    const char *name = o && o->model ? o->model : litmus_default_model(t->arch);
    const MmModelDef *model = mm_model_def_find(name);
    if (!model) {
        g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "no model '%s' (%s)", name, mm_model_names());
        return NULL;
    }
    IsaLayout *lay = isa_layout_new(p->prog, p->nthreads, LITMUS_EXPLORE_LINE, LITMUS_EXPLORE_BASE);
    g_autofree MmLocation *locs = locations(p, lay);
    MmProblem prob = {
        .prog = p->prog,
        .nthreads = p->nthreads,
        .layout = lay,
        .locs = locs,
        .nlocs = p->locs->len,
        .arch = t->arch == LITMUS_AARCH64 ? ARCH_ARM64 : ARCH_X86,
        .model = model,
        .unroll = o ? o->unroll : LITMUS_DEFAULT_UNROLL,
    };
    g_autoptr(GError) e = NULL;
    g_autoptr(MmResult) res = mm_explore(&prob, &e);
    isa_layout_free(lay);
    if (!res) {
        g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "%s: %s", t->filename, e->message);
        return NULL;
    }
    g_autofree char *executor = g_strdup_printf("%s (exhaustive)", model->name);
    LitmusTally *y = litmus_tally_new(t, p, executor);
    tally_outcomes(y, p, res, locs);
    LitmusResult *r = litmus_tally_result(y);
    r->model = g_strdup(model->name);
    r->candidates = res->candidates;
    r->unroll = prob.unroll;
    r->paths_cut = res->paths_cut;
    r->paths_dropped = res->paths_dropped;
    return litmus_tally_finish(y);
}
