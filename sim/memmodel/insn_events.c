/* An ISA instruction's events as herd annotates them (see insn_events.h). */
#include "sim/memmodel/insn_events.h"
#include "cores/isa/isa_exec.h"

guint32 mm_insn_read_flags(const IsaInsn *in)
{
    guint32 f = 0;
    if (in->order == ORD_ACQ || in->order == ORD_ACQREL)
        f |= (in->mm & ISA_MM_ACQ_PC) ? MM_ACQ_PC : MM_ACQ;
    if (in->mm & ISA_MM_NORET)
        f |= MM_NORET;
    if (isa_op_is_rmw(in->op) || in->op == OP_LDX)
        f |= MM_ATOMIC;
    if (in->op == OP_LDX)
        f |= MM_EXCL;
    return f;
}

guint32 mm_insn_write_flags(const IsaInsn *in)
{
    guint32 f = 0;
    if (in->order == ORD_REL || in->order == ORD_ACQREL)
        f |= MM_REL;
    if (isa_op_is_rmw(in->op) || in->op == OP_STX)
        f |= MM_ATOMIC;
    if (in->op == OP_STX)
        f |= MM_EXCL;
    return f;
}

MmFenceKind mm_insn_fence_kind(const IsaInsn *in)
{
    if (in->mm & ISA_MM_ISB)
        return MM_FENCE_ISB;
    return in->fence == FENCE_LOAD ? MM_FENCE_LOAD : in->fence == FENCE_STORE ? MM_FENCE_STORE : MM_FENCE_FULL;
}
