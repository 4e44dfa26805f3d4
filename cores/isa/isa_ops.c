/* Static properties of each ISA op, in IsaOp order (see the op list in cores/isa/isa.h). */
#include "cores/isa/isa.h"

const IsaOpInfo isa_op_info[OP__COUNT] = {
    /*            name     load    store   atomic  branch  syscall x86     arm64   at head operands private atomic falls */
    [OP_NOP]   = { "nop",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "",     TRUE,  FALSE, TRUE   },
    [OP_MOV]   = { "mov",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DS",   TRUE,  FALSE, TRUE   },
    [OP_ADD]   = { "add",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS",  TRUE,  FALSE, TRUE   },
    [OP_SUB]   = { "sub",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS",  TRUE,  FALSE, TRUE   },
    [OP_AND]   = { "and",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS",  TRUE,  FALSE, TRUE   },
    [OP_OR]    = { "or",    FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS",  TRUE,  FALSE, TRUE   },
    [OP_XOR]   = { "xor",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS",  TRUE,  FALSE, TRUE   },
    [OP_SHL]   = { "shl",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS",  TRUE,  FALSE, TRUE   },
    [OP_SHR]   = { "shr",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS",  TRUE,  FALSE, TRUE   },
    [OP_MUL]   = { "mul",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS",  TRUE,  FALSE, TRUE   },
    [OP_LA]    = { "la",    FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DYR",  TRUE,  FALSE, TRUE   },
    [OP_LD]    = { "ld",    TRUE,   FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DM",   FALSE, FALSE, TRUE   },
    [OP_ST]    = { "st",    FALSE,  TRUE,   FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "MS",   FALSE, FALSE, TRUE   },
    [OP_CAS]   = { "cas",   TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMSS", FALSE, TRUE,  TRUE   },
    [OP_XCHG]  = { "xchg",  TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMS",  FALSE, TRUE,  TRUE   },
    [OP_FADD]  = { "fadd",  TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMS",  FALSE, TRUE,  TRUE   },
    [OP_FOR]   = { "for",   TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMS",  FALSE, TRUE,  TRUE   },
    [OP_FAND]  = { "fand",  TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMS",  FALSE, TRUE,  TRUE   },
    /* x86 has no load/store-exclusive pair and no event register. */
    [OP_LDX]   = { "ldx",   TRUE,   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   FALSE, "DM",   FALSE, TRUE,  TRUE   },
    [OP_STX]   = { "stx",   FALSE,  TRUE,   FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,  "DMS",  FALSE, TRUE,  TRUE   },
    [OP_FENCE] = { "fence", FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "",     FALSE, FALSE, TRUE   },
    [OP_PAUSE] = { "pause", FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "",     TRUE,  FALSE, TRUE   },
    [OP_WFE]   = { "wfe",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   FALSE, "",     FALSE, FALSE, TRUE   },
    [OP_SEV]   = { "sev",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   FALSE, "",     FALSE, FALSE, TRUE   },
    [OP_SEVL]  = { "sevl",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   FALSE, "",     TRUE,  FALSE, TRUE   },
    [OP_BR]    = { "b",     FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE,   FALSE, "SSL",  TRUE,  FALSE, TRUE   },
    [OP_JMP]   = { "jmp",   FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE,   FALSE, "L",    TRUE,  FALSE, FALSE  },
    [OP_CALL]  = { "call",  FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE,   FALSE, "L",    TRUE,  FALSE, FALSE  },
    [OP_RET]   = { "ret",   FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE,   FALSE, "",     TRUE,  FALSE, FALSE  },
    [OP_WORK]  = { "work",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "N",    TRUE,  FALSE, TRUE   },
    [OP_MARK]  = { "mark",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "N",    TRUE,  FALSE, TRUE   },
    [OP_HALT]  = { "halt",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "",     TRUE,  FALSE, FALSE  },
    /* System calls.  Their memory operand is the futex word: futex_wait reads it, futex_wake
     * only hashes its address, as the kernel does. */
    [OP_FUTEX_WAIT] = { "futex_wait", TRUE, FALSE, FALSE, FALSE, TRUE, TRUE, TRUE,   FALSE, "DMS",  FALSE, TRUE,  TRUE   },
    [OP_FUTEX_WAKE] = { "futex_wake", TRUE, FALSE, FALSE, FALSE, TRUE, TRUE, TRUE,   FALSE, "DMS",  FALSE, TRUE,  TRUE   },
};
