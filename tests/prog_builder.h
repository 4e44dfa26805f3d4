/* A test-only program builder: IsaPrograms written in C, since the assembler lives elsewhere.
 * Labels are resolved when the program is finished; `main` must be declared with pb_entry. */
#ifndef QSIM_PROG_BUILDER_H
#define QSIM_PROG_BUILDER_H

#include "cores/isa/isa.h"

typedef struct ProgBuilder ProgBuilder;

static inline IsaSrc R(int r) { return (IsaSrc){ .reg = (int8_t)r, .imm = 0 }; }
static inline IsaSrc I(int64_t v) { return (IsaSrc){ .reg = ISA_NO_REG, .imm = v }; }
#define NOSRC I(0)

ProgBuilder *pb_new(void);
int pb_shared(ProgBuilder *b, const char *name, uint32_t size, gboolean own_line, int64_t init);
int pb_per_thread(ProgBuilder *b, const char *name, uint32_t size, gboolean own_line);
void pb_label(ProgBuilder *b, const char *name);
void pb_entry(ProgBuilder *b, const char *name);   /* a label that is also an entry point */
/* A raw op with every field defaulted (no registers, no symbol, size 8). */
IsaInsn *pb_op(ProgBuilder *b, IsaOp op);
IsaInsn *pb_alu(ProgBuilder *b, IsaOp op, int rd, IsaSrc a, IsaSrc bsrc);
IsaInsn *pb_ld(ProgBuilder *b, int rd, const char *sym, int64_t off);      /* ld rd, [sym+off] */
IsaInsn *pb_ldr(ProgBuilder *b, int rd, int base, int64_t off);           /* ld rd, [base+off] */
IsaInsn *pb_st(ProgBuilder *b, const char *sym, int64_t off, IsaSrc a);   /* st [sym+off], a */
IsaInsn *pb_atomic(ProgBuilder *b, IsaOp op, int rd, const char *sym, IsaSrc a, IsaSrc bsrc);
IsaInsn *pb_ldx(ProgBuilder *b, int rd, const char *sym);
IsaInsn *pb_stx(ProgBuilder *b, int rd, const char *sym, IsaSrc a);
IsaInsn *pb_br(ProgBuilder *b, IsaCond cond, IsaSrc a, IsaSrc bsrc, const char *label);
IsaInsn *pb_jmp(ProgBuilder *b, IsaOp op, const char *label);               /* jmp or call */
IsaInsn *pb_fence(ProgBuilder *b, IsaFence kind);
IsaInsn *pb_n(ProgBuilder *b, IsaOp op, int64_t n);                         /* work N, mark N */
IsaProgram *pb_finish(ProgBuilder *b);
void pb_program_free(IsaProgram *p);

#endif
