/* What each ISA op computes, as pure functions shared by the reference interpreter, the core
 * timing model and the tests, so that the ISA's meaning is written exactly once.  Timing and
 * memory ordering live elsewhere: here are values only. */
#ifndef QSIM_ISA_EXEC_H
#define QSIM_ISA_EXEC_H

#include "cores/isa/isa.h"
#include "cores/isa/isa_fault.h"

/* The value of a source operand given the register file (66 slots: r0..r63, tid, nthreads). */
static inline uint64_t isa_src(const IsaSrc *s, const uint64_t *regs)
{
    return s->reg == ISA_NO_REG ? (uint64_t)s->imm : regs[s->reg];
}

/* rd := a OP b for the ALU ops (OP_MOV ignores b). */
uint64_t isa_alu(IsaOp op, uint64_t a, uint64_t b);
/* Whether `a CC b` holds. */
gboolean isa_cond(IsaCond cond, uint64_t a, uint64_t b);
/* The value an atomic writes, given the old value; *result is what rd receives (the old value).
 * Returns whether memory is written (a failing CAS writes nothing functionally). */
gboolean isa_rmw(IsaOp op, uint64_t old, uint64_t a, uint64_t b, uint64_t *new_value);
/* Where control goes after op `i` at `pc`, with source values a and b: a branch's target when
 * `a CC b` holds, jmp's and call's target, ret's return address, else pc + 1.  call pushes pc + 1
 * on the return stack (`stack`, `*depth` entries, ISA_CALL_DEPTH at most), ret pops it.  Returns
 * ISA_FAULT_NONE, or (nothing changed) ISA_FAULT_CALL_DEPTH or ISA_FAULT_EMPTY_RET. */
IsaFaultKind isa_next_pc(const IsaInsn *i, int32_t pc, uint64_t a, uint64_t b, int32_t *stack, guint *depth, int32_t *next);
/* Truncates a value to `size` bytes. */
static inline uint64_t isa_truncate(uint64_t v, unsigned size)
{
    return size >= 8 ? v : v & ((1ULL << (8 * size)) - 1);
}

/* The address of memory operand `m` for thread `tid`. */
uint64_t isa_address(const IsaMem *m, const IsaLayout *lay, guint tid, const uint64_t *regs);

/* Lays the program's symbols out for `nthreads` threads from address `base`, honouring size,
 * alignment, own_line and `with` (same line as another symbol).  Per-thread symbols get one
 * copy per thread, each in its own line when own_line is set. */
IsaLayout *isa_layout_new(const IsaProgram *p, guint nthreads, uint32_t line_size, uint64_t base);
void isa_layout_free(IsaLayout *l);
static inline uint64_t isa_sym_addr(const IsaLayout *l, guint sym, guint tid)
{
    return l->addr[sym * l->nthreads + tid];
}
/* Writes every symbol's initial value through `poke` (called once per symbol copy). */
void isa_layout_init_memory(const IsaLayout *l, const IsaProgram *p,
                            void (*poke)(void *ctx, uint64_t addr, unsigned size, uint64_t value),
                            void *ctx);

/* An empty program whose arrays own their contents (symbols, entry and label names, file
 * names); isa_program_free releases all of it.  Every producer of programs (the assembler,
 * the litmus translator, test builders) starts here. */
IsaProgram *isa_program_new(const char *filename);
void isa_program_free(IsaProgram *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IsaProgram, isa_program_free)

/* Looks a symbol or entry point up by name: index, or -1. */
int isa_program_find_sym(const IsaProgram *p, const char *name);
int isa_program_find_entry(const IsaProgram *p, const char *name);
/* The source file an instruction came from (its program's name when the program keeps no
 * file list), and "FILE:LINE" of it (newly allocated). */
const char *isa_insn_file(const IsaProgram *p, const IsaInsn *in);
char *isa_insn_pos(const IsaProgram *p, const IsaInsn *in);

#endif
