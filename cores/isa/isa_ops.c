/* Static properties of each ISA op, in IsaOp order (see the op list in cores/isa/isa.h). */
#include "cores/isa/isa.h"

const IsaOpInfo isa_op_info[OP__COUNT] = {
    /*            name     load    store   atomic  branch  syscall x86     arm64   at head operands */
    [OP_NOP]   = { "nop",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, ""     },
    [OP_MOV]   = { "mov",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DS"   },
    [OP_ADD]   = { "add",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS"  },
    [OP_SUB]   = { "sub",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS"  },
    [OP_AND]   = { "and",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS"  },
    [OP_OR]    = { "or",    FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS"  },
    [OP_XOR]   = { "xor",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS"  },
    [OP_SHL]   = { "shl",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS"  },
    [OP_SHR]   = { "shr",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS"  },
    [OP_MUL]   = { "mul",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DSS"  },
    [OP_LA]    = { "la",    FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DYR"  },
    [OP_LD]    = { "ld",    TRUE,   FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "DM"   },
    [OP_ST]    = { "st",    FALSE,  TRUE,   FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "MS"   },
    [OP_CAS]   = { "cas",   TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMSS" },
    [OP_XCHG]  = { "xchg",  TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMS"  },
    [OP_FADD]  = { "fadd",  TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMS"  },
    [OP_FOR]   = { "for",   TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMS"  },
    [OP_FAND]  = { "fand",  TRUE,   TRUE,   TRUE,   FALSE,  FALSE,  TRUE,   TRUE,   TRUE,  "DMS"  },
    /* x86 has no load/store-exclusive pair and no event register. */
    [OP_LDX]   = { "ldx",   TRUE,   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   FALSE, "DM"   },
    [OP_STX]   = { "stx",   FALSE,  TRUE,   FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,  "DMS"  },
    [OP_FENCE] = { "fence", FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, ""     },
    [OP_PAUSE] = { "pause", FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, ""     },
    [OP_WFE]   = { "wfe",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   FALSE, ""     },
    [OP_SEV]   = { "sev",   FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   FALSE, ""     },
    [OP_SEVL]  = { "sevl",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   FALSE, ""     },
    [OP_BR]    = { "b",     FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE,   FALSE, "SSL"  },
    [OP_JMP]   = { "jmp",   FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE,   FALSE, "L"    },
    [OP_CALL]  = { "call",  FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE,   FALSE, "L"    },
    [OP_RET]   = { "ret",   FALSE,  FALSE,  FALSE,  TRUE,   FALSE,  TRUE,   TRUE,   FALSE, ""     },
    [OP_WORK]  = { "work",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "N"    },
    [OP_MARK]  = { "mark",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, "N"    },
    [OP_HALT]  = { "halt",  FALSE,  FALSE,  FALSE,  FALSE,  FALSE,  TRUE,   TRUE,   FALSE, ""     },
    /* System calls.  Their memory operand is the futex word: futex_wait reads it, futex_wake
     * only hashes its address, as the kernel does. */
    [OP_FUTEX_WAIT] = { "futex_wait", TRUE, FALSE, FALSE, FALSE, TRUE, TRUE, TRUE,   FALSE, "DMS"  },
    [OP_FUTEX_WAKE] = { "futex_wake", TRUE, FALSE, FALSE, FALSE, TRUE, TRUE, TRUE,   FALSE, "DMS"  },
};
