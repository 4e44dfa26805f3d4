/* The core test rig (see core_rig.h). */
#include <check.h>
#include <string.h>
#include "tests/core_rig.h"
#include "cores/isa/isa_exec.h"
#include "coherence/memsys.h"

/* Haswell-like x86, values from PARAMETERS.md (buffers [TD], costs [AF-T], mispredict [LLVM]). */
static const char haswell_yaml[] =
    "name: haswell-test\n"
    "arch: x86\n"
    "topology: { sockets: 1, cores_per_socket: 4 }\n"
    "core: { fetch_width: 4, retire_width: 4, rob: 192, load_buffer: 72, store_buffer: 42,\n"
    "        branch_mispredict_penalty: 16, machine_clear_penalty: 16, pause_cycles: 9,\n"
    "        locked_rmw_cycles: 19, mfence_cycles: 33, lfence_cycles: 4, sfence_cycles: 5 }\n"
    "l1: { latency: 4 }\n";

/* Neoverse-N1-like arm64 (ROB/LB/SB [TD], mispredict [LLVM], L1 [AT]); YIELD chosen small. */
static const char n1_yaml[] =
    "name: n1-test\n"
    "arch: arm64\n"
    "topology: { sockets: 1, cores_per_socket: 4 }\n"
    "core: { fetch_width: 4, retire_width: 4, rob: 128, load_buffer: 62, store_buffer: 40,\n"
    "        branch_mispredict_penalty: 11, machine_clear_penalty: 11, pause_cycles: 1,\n"
    "        atomics: llsc }\n"
    "l1: { latency: 4 }\n";

/* Set (in the forked test process) by the fixture of a suite's "+memsys" cases. */
static gboolean use_memsys;

void rig_use_memsys(void) { use_memsys = TRUE; }

/* A case's timeout unless `add` sets its own. */
#define RIG_TIMEOUT 60

void rig_add_fake_cases(Suite *s, const char *name, void (*add)(TCase *tc))
{
    TCase *fake = tcase_create(name);
    tcase_set_timeout(fake, RIG_TIMEOUT);
    add(fake);
    suite_add_tcase(s, fake);
}

void rig_add_cases(Suite *s, const char *name, void (*add)(TCase *tc))
{
    TCase *fake = tcase_create(name);
    tcase_set_timeout(fake, RIG_TIMEOUT);
    add(fake);
    suite_add_tcase(s, fake);
    /* Check keeps the name pointer: an interned string lives as long as the process. */
    g_autofree char *real_name = g_strconcat(name, "+memsys", NULL);
    TCase *real = tcase_create(g_intern_string(real_name));
    tcase_add_checked_fixture(real, rig_use_memsys, NULL);
    tcase_set_timeout(real, RIG_TIMEOUT);
    add(real);
    suite_add_tcase(s, real);
}

static void on_mark(void *ctx, guint core, int64_t n, Cycle when)
{
    Rig *r = ctx;
    RigMark m = { core, n, when };
    g_array_append_val(r->marks, m);
}

Rig *core_rig_new(const char *config, const char *const *sets, IsaProgram *p, guint nthreads,
             guint64 seed, Cycle miss_latency)
{
    g_autoptr(GError) err = NULL;
    Rig *r = g_new0(Rig, 1);
    if (!strcmp(config, "haswell"))
        r->cfg = config_load_string(haswell_yaml, "haswell-test", sets, &err);
    else if (!strcmp(config, "n1"))
        r->cfg = config_load_string(n1_yaml, "n1-test", sets, &err);
    else
        r->cfg = config_load(config, sets, &err);
    if (!r->cfg)
        ck_abort_msg("config %s: %s", config, err->message);
    r->e = engine_new(seed);
    r->p = p;
    r->lay = isa_layout_new(p, nthreads, (uint32_t)r->cfg->line_size, 0x10000);
    if (use_memsys) {
        r->ms = memsys_new(r->cfg, r->e, &err);
        if (!r->ms)
            ck_abort_msg("memsys: %s", err->message);
        memsys_set_check(r->ms, TRUE);
        r->ops = &machine_memsys_ops;
        r->mem = r->ms;
    } else {
        r->fm = fake_memory_new(r->e, r->cfg, r->lay->base, MAX(r->lay->size, 64), nthreads, miss_latency);
        r->ops = &fake_memory_ops;
        r->mem = r->fm;
    }
    r->m = machine_new(r->cfg, r->e, r->ops, r->mem, p, r->lay, nthreads, NULL, &err);
    if (!r->m)
        ck_abort_msg("machine: %s", err->message);
    r->marks = g_array_new(FALSE, FALSE, sizeof(RigMark));
    machine_set_mark_hook(r->m, on_mark, r);
    return r;
}

MachineOutcome rig_run(Rig *r)
{
    r->outcome = machine_run(r->m, CYCLE_NEVER);
    if (r->outcome != MACHINE_DONE)
        ck_abort_msg("run did not finish: %s", machine_stall_report(r->m));
    return r->outcome;
}

uint64_t rig_sym(Rig *r, const char *sym, guint tid, unsigned size)
{
    int s = isa_program_find_sym(r->p, sym);
    ck_assert_int_ge(s, 0);
    return r->ops->peek(r->mem, isa_sym_addr(r->lay, (guint)s, tid), size);
}

uint64_t rig_reg(Rig *r, guint core, guint reg) { return core_reg(machine_core(r->m, core), reg); }
const CoreStats *rig_stats(Rig *r, guint core) { return machine_core_stats(r->m, core); }

void core_rig_free(Rig *r)
{
    machine_free(r->m);
    if (r->fm)
        fake_memory_free(r->fm);
    if (r->ms)
        memsys_free(r->ms);
    isa_layout_free(r->lay);
    pb_program_free(r->p);
    engine_free(r->e);
    config_free(r->cfg);
    g_array_free(r->marks, TRUE);
    g_free(r);
}

guint rig_scale(guint full, guint quick)
{
    const char *s = g_getenv("QSIM_TEST_SCALE");
    return s && !strcmp(s, "quick") ? quick : full;
}

guint64 rig_snoops_held(Rig *r)
{
    return r->fm ? fake_memory_snoops_held(r->fm) : memsys_stats(r->ms)->hold_wait_cycles;
}

gboolean rig_owns(Rig *r, guint core, uint64_t addr)
{
    if (r->fm)
        return fake_memory_owns(r->fm, core, addr);
    CohCacheState st = memsys_cache_state(r->ms, core, addr);
    return st == CS_M || st == CS_E;
}

gboolean rig_holds(Rig *r, guint core, uint64_t addr)
{
    if (r->fm)
        return fake_memory_holds(r->fm, core, addr);
    return memsys_cache_state(r->ms, core, addr) != CS_I;
}
