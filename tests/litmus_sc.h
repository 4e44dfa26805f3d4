/* Test-only litmus executor: runs a translated test under sequential consistency, one ISA
 * instruction of a randomly chosen thread at a time.  Fences are no-ops (SC needs none);
 * ldx arms a per-thread monitor on the line, which another thread's write disarms, and stx
 * stores only while armed (so LL/SC loops keep their atomicity).  It validates translations: an SC
 * run must never show an outcome any weaker model forbids. */
#ifndef QSIM_TEST_LITMUS_SC_H
#define QSIM_TEST_LITMUS_SC_H

#include "sim/litmus.h"

LitmusExecutor *litmus_sc_executor_new(void);

#endif
