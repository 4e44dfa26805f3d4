/* The tiny ISA: the shim every lock is written against, once, for the reference interpreter,
 * the timing model and the native backend alike.  docs/isa.md is the user's reference.
 *
 * Registers r0..r63 are 64-bit; `tid` (this thread's index) and `nthreads` read as registers and
 * cannot be written.  r16..r63 exist for translated code (sim/cfront/: a compiler's registers,
 * its flags, its temporaries); hand-written locks keep to r0..r11.  Memory is byte-addressed; programs declare shared and per-thread variables.
 * Memory operands: [sym], [sym+imm], [rN], [rN+imm], [sym+rN] (sym resolves to this thread's
 * copy of a per-thread variable; `la rd, sym, rT` gives thread rT's copy). */
#ifndef QSIM_ISA_H
#define QSIM_ISA_H

#include <glib.h>
#include <stdint.h>
#include <string.h>
#include "sim/base/arch.h"

#define ISA_NREGS 64
#define ISA_REG_TID 64
#define ISA_REG_NTHREADS 65
#define ISA_NREG_SLOTS 66
#define ISA_NO_REG (-1)
/* r12..r15 are the workload harness's (its loop counter lives there): lock code may read them
 * but never write them, and the assembler refuses a lock source that does (AsmSource.lock). */
#define ISA_HARNESS_REG_FIRST 12
#define ISA_HARNESS_REG_END 16     /* one past the last */
/* A set of registers r0..r63, bit r for register r (liveness, the registers a search keeps). */
typedef uint64_t IsaRegMask;
static inline IsaRegMask isa_reg_bit(int r) { return r >= 0 && r < ISA_NREGS ? (IsaRegMask)1 << r : 0; }

typedef enum {
    /* op            operands                      meaning */
    OP_NOP,       /* nop                           nothing */
    OP_MOV,       /* mov rd, a                     rd := a */
    OP_ADD,       /* add rd, a, b                  rd := a + b */
    OP_SUB,       /* sub rd, a, b                  rd := a - b */
    OP_AND,       /* and rd, a, b                  rd := a & b */
    OP_OR,        /* or  rd, a, b                  rd := a | b */
    OP_XOR,       /* xor rd, a, b                  rd := a ^ b */
    OP_SHL,       /* shl rd, a, b                  rd := a << b */
    OP_SHR,       /* shr rd, a, b                  rd := a >> b (logical) */
    OP_MUL,       /* mul rd, a, b                  rd := a * b */
    OP_LA,        /* la rd, sym[, rT]              rd := address of sym (thread rT's copy) */
    OP_LD,        /* ldN[.acq] rd, [m]             rd := zero-extended mem[m] */
    OP_ST,        /* stN[.rel] [m], a              mem[m] := a */
    OP_CAS,       /* casN[.o] rd, [m], a, b        rd := old; if old == a: mem[m] := b */
    OP_XCHG,      /* xchgN[.o] rd, [m], a          rd := old; mem[m] := a */
    OP_FADD,      /* faddN[.o] rd, [m], a          rd := old; mem[m] := old + a */
    OP_FOR,       /* forN[.o] rd, [m], a           rd := old; mem[m] := old | a */
    OP_FAND,      /* fandN[.o] rd, [m], a          rd := old; mem[m] := old & a */
    OP_LDX,       /* ldxN[.acq] rd, [m]            load-exclusive: rd := mem[m], arm monitor */
    OP_STX,       /* stxN[.rel] rd, [m], a         store-exclusive: rd := 0 stored, 1 failed */
    OP_FENCE,     /* fence[.full|.load|.store]     ordering barrier */
    OP_PAUSE,     /* pause                         spin-loop hint (x86 PAUSE, arm64 YIELD) */
    OP_WFE,       /* wfe                           wait for event (arm64) */
    OP_SEV,       /* sev                           send event (arm64) */
    OP_SEVL,      /* sevl                          send event locally (arm64) */
    OP_BR,        /* bCC a, b, label               if a CC b goto label */
    OP_JMP,       /* jmp label                     goto label */
    OP_CALL,      /* call label                    push return; goto label */
    OP_RET,       /* ret                           return */
    OP_WORK,      /* work N                        N cycles of serial compute (a dependent chain) */
    OP_MARK,      /* mark N                        timestamp event N for the harness */
    OP_HALT,      /* halt                          this thread is finished */
    OP_FUTEX_WAIT,/* futex_wait rd, [m], a         if mem32[m] == a: sleep until a futex_wake of m,
                   *                               rd := 0; else rd := 1 at once (EAGAIN) */
    OP_FUTEX_WAKE,/* futex_wake rd, [m], a         wake up to a sleepers on m, oldest first;
                   *                               rd := how many woke */
    /* Added for translated compiler output (sim/cfront/); plain ALU ops like add. */
    OP_SAR,       /* sar rd, a, b                  rd := a >> b (arithmetic; b >= 64: all sign) */
    OP_SEXT,      /* sext rd, a, b                 rd := a sign-extended from its low b bits (1..64) */
    OP_DIV,       /* div rd, a, b                  rd := a / b signed (b = 0: 0; MIN / -1: MIN) */
    OP_DIVU,      /* divu rd, a, b                 rd := a / b unsigned (b = 0: 0) */
    OP_REM,       /* rem rd, a, b                  rd := a - (a div b) * b signed (b = 0: a) */
    OP_REMU,      /* remu rd, a, b                 rd := a - (a divu b) * b unsigned (b = 0: a) */
    OP_SEQ,       /* seq rd, a, b                  rd := a == b ? 1 : 0 (and sne, slt, sge, sltu, */
    OP_SNE,       /*                                  sgeu: the branches' conditions as values) */
    OP_SLT,
    OP_SGE,
    OP_SLTU,
    OP_SGEU,
    OP__COUNT
} IsaOp;

typedef enum { ORD_PLAIN, ORD_ACQ, ORD_REL, ORD_ACQREL } IsaOrder;
typedef enum { FENCE_FULL, FENCE_LOAD, FENCE_STORE } IsaFence;
typedef enum { COND_EQ, COND_NE, COND_LT, COND_GE, COND_LTU, COND_GEU } IsaCond;

/* A source operand: a register or an immediate. */
typedef struct {
    int8_t reg;            /* ISA_NO_REG when an immediate (or unused) */
    int64_t imm;
} IsaSrc;

/* A memory operand: address = sym's address (this thread's copy) + base register + offset. */
typedef struct {
    int32_t sym;           /* index into IsaProgram.syms, or -1 */
    int8_t base;           /* register, or ISA_NO_REG */
    int64_t offset;
} IsaMem;

typedef struct {
    IsaOp op;
    uint8_t size;          /* memory ops: 1, 2, 4, 8 */
    IsaOrder order;
    IsaFence fence;
    IsaCond cond;
    int8_t rd;             /* destination, or ISA_NO_REG */
    int8_t rt;             /* la: thread register, or ISA_NO_REG */
    IsaSrc a, b;
    IsaMem mem;
    int32_t target;        /* branch/jump/call target pc; la: symbol index */
    int64_t n;             /* work/mark count */
    uint32_t line, col;    /* source position */
    uint16_t file;         /* index into IsaProgram.files (added by the assembler issue) */
    uint8_t mm;            /* ISA_MM_* annotations, 0 unless a litmus translation sets them */
} IsaInsn;

/* IsaInsn.mm: what an axiomatic memory model (sim/memmodel/) must know beyond the op, which the
 * interpreter and the timing model ignore (they run the op as it is). */
enum {
    ISA_MM_ACQ_PC = 1 << 0,    /* ld.acq: an RCpc acquire (AArch64 LDAPR), weaker than LDAR */
    ISA_MM_NORET = 1 << 1,     /* an atomic whose result is discarded (AArch64 destination ZR) */
    ISA_MM_ISB = 1 << 2,       /* fence: an instruction barrier (ISB), run as the full fence */
    ISA_MM_SELECT = 1 << 3,    /* and rd, a, mask: half of a CSEL, a selected when mask != 0 */
};

/* Static properties of each op, in IsaOp order (cores/isa/isa_ops.c). */
typedef struct {
    const char *name;
    gboolean is_load, is_store;
    gboolean is_atomic;    /* a read-modify-write (cas, xchg, fadd, for, fand): one atomic access */
    gboolean is_branch;
    gboolean is_syscall;   /* a system call (the futex ops): the OS model performs it */
    gboolean x86, arm64;   /* available on the architecture */
    gboolean writes_at_head; /* writes memory at the ROB head and returns a result in rd: the
                              * read-modify-writes and the store-exclusive */
    const char *operands;  /* the operands in source order, a letter each: D destination
                            * register (rd), S source (a, then b), M memory operand, L label
                            * (target pc), Y variable (target: la's symbol), R optional thread
                            * register (rt), N count (n) */
    gboolean is_private;   /* touches nothing another thread sees or changes: ALU, la, branches,
                            * calls, mark, work, pause, nop, sevl, halt (a model may run it at
                            * once, with no scheduling point) */
    gboolean is_atomic_step; /* acts on memory or on other threads as one atomic step, which a
                              * store-buffer model runs only with an empty buffer: the
                              * read-modify-writes, ldx, stx and the futex ops */
    gboolean falls_through;  /* may go on to pc + 1 (all but jmp, call, ret, halt; a call comes
                              * back there, but only after the callee) */
} IsaOpInfo;
extern const IsaOpInfo isa_op_info[OP__COUNT];
static inline gboolean isa_op_is_rmw(IsaOp op) { return isa_op_info[op].is_atomic; }
static inline gboolean isa_op_writes_at_head(IsaOp op) { return isa_op_info[op].writes_at_head; }
static inline gboolean isa_op_is_private(IsaOp op) { return isa_op_info[op].is_private; }
static inline gboolean isa_op_is_atomic_step(IsaOp op) { return isa_op_info[op].is_atomic_step; }
static inline gboolean isa_op_falls_through(IsaOp op) { return isa_op_info[op].falls_through; }
/* Whether the op's `target` is a pc (it takes a label). */
static inline gboolean isa_op_has_label(IsaOp op) { return strchr(isa_op_info[op].operands, 'L') != NULL; }
static inline gboolean isa_op_on_arch(IsaOp op, Arch a)
{
    return a == ARCH_X86 ? isa_op_info[op].x86 : isa_op_info[op].arm64;
}

typedef enum { SYM_SHARED, SYM_PER_THREAD } IsaSymScope;

typedef struct {
    char *name;
    IsaSymScope scope;
    uint32_t size, align;
    gboolean own_line;     /* starts its own cache line (nothing else shares it) */
    int32_t with;          /* placed in the same line as this symbol, or -1 */
    int64_t init;          /* initial value of the first word */
    uint32_t line, col;
} IsaSym;

typedef struct {
    char *name;
    int32_t pc;
} IsaEntry;

/* A lock's tunable (`.param NAME DEFAULT`): a named constant a run may override
 * (`--lock-param NAME=VALUE`), recorded so reports can say what ran. */
typedef struct {
    char *name;
    int64_t value;         /* as assembled: the override, else the default */
    int64_t def;
} IsaParam;

typedef struct {
    char *filename;
    GArray *insns;         /* IsaInsn */
    GPtrArray *syms;       /* IsaSym* */
    GArray *entries;       /* IsaEntry: named entry points (labels marked `.entry`) */
    /* Added by the assembler issue; either may be NULL in hand-built programs. */
    GPtrArray *files;      /* char*: source names, indexed by IsaInsn.file */
    GArray *labels;        /* IsaEntry: every label with its pc, in source order (listings) */
    GArray *params;        /* IsaParam, in declaration order; may be NULL in hand-built programs */
} IsaProgram;

/* Where each symbol lives for a run of `nthreads` threads. */
typedef struct {
    uint64_t base, size;       /* the program's memory: [base, base + size) */
    uint32_t line_size;
    guint nthreads, nsyms;
    uint64_t *addr;            /* addr[sym * nthreads + thread] */
} IsaLayout;

#endif
