/* Coherence scenarios as short scripts, for directed tests that name a table row and the steps
 * that make it fire:
 *
 *   "c0.ld c1.st c0.ld,c1.st@3"
 *
 * Steps run one after the other, each when the previous has finished and the memory system is
 * quiet.  A step is one or more operations joined by ',', each `cN.OP` on core N, started at the
 * step's first cycle or `@K` cycles later (so that two cores race).  OP is ld, st (a store of a
 * value unique to the operation), xchg (an atomic exchange, x86 locked: it holds the line for
 * 15 cycles), far (an arm64 LSE far fetch-add, performed at the home), or evict (the core
 * replaces the line; nothing when it holds no stable copy).  Every operation is on the same
 * word, on one line. */
#ifndef QSIM_TEST_COH_SCRIPT_H
#define QSIM_TEST_COH_SCRIPT_H

#include "tests/coh_rig.h"

#define SCRIPT_ADDR 0x1000

/* Runs `script` on r; the test fails on a malformed script or an access that never ends. */
void script_run(CohRig *r, const char *script);
/* How often the row written as a trace prints it ("S + Store -> SM_AD") has fired; the
 * directory's (or a bus's memory's) table when dir.  The test fails if the table has no such row. */
guint64 script_row_fired(CohRig *r, gboolean dir, const char *row);

#endif
