/* Static properties of each ISA op, in IsaOp order (see the op list in cores/isa/isa.h). */
#include "cores/isa/isa.h"

const IsaOpInfo isa_op_info[OP__COUNT] = {
    /*            name     load    store   atomic  branch  syscall x86     arm64 */
    [OP_NOP]   = { "nop",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_MOV]   = { "mov",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_ADD]   = { "add",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_SUB]   = { "sub",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_AND]   = { "and",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_OR]    = { "or",    FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_XOR]   = { "xor",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_SHL]   = { "shl",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_SHR]   = { "shr",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_MUL]   = { "mul",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_LA]    = { "la",    FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_LD]    = { "ld",    TRUE,   FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_ST]    = { "st",    FALSE,  TRUE,   FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_CAS]   = { "cas",   TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE },
    [OP_XCHG]  = { "xchg",  TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE },
    [OP_FADD]  = { "fadd",  TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE },
    [OP_FOR]   = { "for",   TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE },
    [OP_FAND]  = { "fand",  TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE },
    /* x86 has no load/store-exclusive pair and no event register. */
    [OP_LDX]   = { "ldx",   TRUE,   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE },
    [OP_STX]   = { "stx",   FALSE,  TRUE,   FALSE,  FALSE,  FALSE,  FALSE,  TRUE },
    [OP_FENCE] = { "fence", FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_PAUSE] = { "pause", FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_WFE]   = { "wfe",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE },
    [OP_SEV]   = { "sev",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE },
    [OP_SEVL]  = { "sevl",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE },
    [OP_BR]    = { "b",     FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE },
    [OP_JMP]   = { "jmp",   FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE },
    [OP_CALL]  = { "call",  FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE },
    [OP_RET]   = { "ret",   FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE },
    [OP_WORK]  = { "work",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_MARK]  = { "mark",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    [OP_HALT]  = { "halt",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE },
    /* System calls.  Their memory operand is the futex word: futex_wait reads it, futex_wake
     * only hashes its address, as the kernel does. */
    [OP_FUTEX_WAIT] = { "futex_wait", TRUE, FALSE, FALSE, FALSE, TRUE, TRUE, TRUE },
    [OP_FUTEX_WAKE] = { "futex_wake", TRUE, FALSE, FALSE, FALSE, TRUE, TRUE, TRUE },
};
