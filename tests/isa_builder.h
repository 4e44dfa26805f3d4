/* Test helper: builds small IsaPrograms in C, for tests that cannot use the assembler.
 * Each instruction gets the source position line = its pc + 1, column 5. */
#ifndef QSIM_TEST_ISA_BUILDER_H
#define QSIM_TEST_ISA_BUILDER_H

#include "cores/isa/isa.h"

IsaProgram *tb_program(const char *filename);
/* Declares a variable; returns its index. */
int tb_sym(IsaProgram *p, const char *name, IsaSymScope scope, uint32_t size, gboolean own_line,
           int32_t with);
/* Names the next instruction as an entry point. */
void tb_entry(IsaProgram *p, const char *name);
/* Appends an op with nothing set (registers ISA_NO_REG, no symbol); fill it before the next. */
IsaInsn *tb_op(IsaProgram *p, IsaOp op);
IsaSrc tb_r(int reg);
IsaSrc tb_i(int64_t imm);
IsaMem tb_m(int sym, int64_t offset);

/* Appends one random op to p; `left` is how many the body still gets, itself included (a branch
 * may jump over the next op, or to the body's halt when it is the last). */
typedef void (*TbRandomOp)(GRand *r, IsaProgram *p, guint left);
/* A random program for differential tests: shared variables a (own line), b and c (with a's
 * line), a main that dispatches on tid to one body per thread, each body between min_ops and
 * max_ops - 1 ops from random_op, then halt. */
IsaProgram *tb_random_program(GRand *r, guint nthreads, guint min_ops, guint max_ops, TbRandomOp random_op);

#endif
