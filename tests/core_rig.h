/* Test rig for the core suites: a config, an engine, the fake memory, a program from the
 * builder and a machine, in one struct. */
#ifndef QSIM_CORE_RIG_H
#define QSIM_CORE_RIG_H

#include "sim/machine/machine.h"
#include "tests/fake_memory.h"
#include "tests/prog_builder.h"
#include <check.h>

typedef struct {
    QsimConfig *cfg;
    Engine *e;
    FakeMemory *fm;         /* the fake memory, or NULL ... */
    struct MemSys *ms;      /* ... the real memory system (cases run "+memsys") */
    const MemSystemOps *ops;
    void *mem;              /* fm or ms */
    IsaProgram *p;
    IsaLayout *lay;
    Machine *m;
    GArray *marks;          /* RigMark, in retirement order */
    MachineOutcome outcome;
} Rig;

typedef struct {
    guint core;
    int64_t n;
    Cycle when;
} RigMark;

/* `config`: "teaching" (configs/teaching.yaml), "haswell" (a Haswell-like x86 built here) or
 * "n1" (a Neoverse-N1-like arm64 built here); `sets` are key=value overrides.  Takes `p`. */
Rig *core_rig_new(const char *config, const char *const *sets, IsaProgram *p, guint nthreads,
             guint64 seed, Cycle miss_latency);
MachineOutcome rig_run(Rig *r);
uint64_t rig_sym(Rig *r, const char *sym, guint tid, unsigned size);
uint64_t rig_reg(Rig *r, guint core, guint reg);
const CoreStats *rig_stats(Rig *r, guint core);
void core_rig_free(Rig *r);
/* What the memory side saw, whichever memory runs: snoops made to wait by a locked op's hold;
 * whether `core` holds the line of `addr` with write permission, or at all. */
guint64 rig_snoops_held(Rig *r);
gboolean rig_owns(Rig *r, guint core, uint64_t addr);
gboolean rig_holds(Rig *r, guint core, uint64_t addr);
/* Adds the cases `add` registers twice: on the fake memory (TCase `name`), and on the real
 * memory system with its invariants checked after every transition (`name`+memsys). */
void rig_add_cases(Suite *s, const char *name, void (*add)(TCase *tc));
/* The fake memory only: cases whose assertions rest on its fixed latencies (buffer-full stalls
 * need a long miss) or that tests/test_litmus_machine.c covers on real configs (SB, MP). */
void rig_add_fake_cases(Suite *s, const char *name, void (*add)(TCase *tc));
/* Repetitions: `full`, or `quick` under QSIM_TEST_SCALE=quick. */
guint rig_scale(guint full, guint quick);

#endif
