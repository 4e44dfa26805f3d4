/* Run-time faults of a program: what makes a memory access (or `la` of another thread's copy)
 * wrong, and the control flow that cannot go on (calls nested too deep, a `ret` with nothing to
 * return to, running off the program), defined once and judged the same by the reference
 * interpreter, the core model and the native runner, and said in the same words by all three
 * (docs/robustness.md).
 *
 * A program may touch only its own memory, the layout's [base, base + size), with accesses
 * aligned to their size; address 0 is never inside (layouts start above it), so a NULL pointer
 * is outside.  The core model judges an access when it computes the address and faults only
 * when the op retires, so a wrong-path access through a garbage register is no fault. */
#ifndef QSIM_ISA_FAULT_H
#define QSIM_ISA_FAULT_H

#include "cores/isa/isa.h"

typedef enum {
    ISA_FAULT_NONE,
    ISA_FAULT_OUTSIDE,     /* some byte of the access is outside the program's memory */
    ISA_FAULT_UNALIGNED,   /* the address is not a multiple of the access size */
    ISA_FAULT_NO_THREAD,   /* `la rd, sym, rT` with rT >= the thread count ("addr" holds rT) */
    ISA_FAULT_CALL_DEPTH,  /* a `call` with ISA_CALL_DEPTH calls unreturned */
    ISA_FAULT_EMPTY_RET,   /* a `ret` with no call to return from */
    ISA_FAULT_OFF_PROGRAM, /* the next pc is outside the program ("addr" holds it) */
} IsaFaultKind;

/* Calls nest at most this deep (a return stack outside memory, docs/isa.md). */
#define ISA_CALL_DEPTH 64

/* What is wrong with a `size`-byte access at `addr`, or ISA_FAULT_NONE. */
IsaFaultKind isa_access_check(const IsaLayout *l, uint64_t addr, unsigned size);

/* "8-byte access at 0x10003 (lock_word+3) is not 8-byte aligned", "8-byte access at 0x0 (NULL)
 * is outside the program's memory", "la: thread 5 does not exist (2 threads)", "call stack
 * overflow (more than 64 nested calls)".  The symbol part is there when the address lies in a
 * variable (p may be NULL: then it is left out). */
char *isa_fault_describe(const IsaProgram *p, const IsaLayout *l, IsaFaultKind kind, uint64_t addr,
                         unsigned size);
/* "thread 1 faulted at lock.qs:6:5 `ld r0, [r1+3]`: " + isa_fault_describe(...). */
char *isa_fault_report(const IsaProgram *p, const IsaLayout *l, guint tid, int32_t pc, IsaFaultKind kind,
                       uint64_t addr, unsigned size);
/* "lock_word+3", "node[thread 1]+8": the variable holding `addr`, or NULL when none does. */
char *isa_layout_symbolize(const IsaProgram *p, const IsaLayout *l, uint64_t addr);

#endif
