/* The assembler: ISA text (docs/isa.md) to an IsaProgram.
 *
 * Grammar, one statement per line ('#' or ';' starts a comment):
 *   line      := [label ':']* [statement]
 *   statement := directive | op operand (',' operand)*
 *   directive := '.shared' NAME SIZE decl-opt*        shared variable, one copy
 *              | '.thread' NAME SIZE decl-opt*        per-thread variable, one copy per thread
 *              | '.equ' NAME VALUE                     named constant, usable as an immediate
 *              | '.param' NAME DEFAULT                 a constant the caller may override (a lock's
 *                                                      tunable: `--lock-param NAME=VALUE`)
 *              | '.entry' LABEL                        marks LABEL as a named entry point
 *              | '.loc' FILE LINE [COL] | '.loc' '-'   the source position of the ops that follow
 *                                                      (a translation's C line; '-': their own)
 *              | '.if' COND | '.elif' COND | '.else' | '.endif'   conditional assembly
 *   decl-opt  := 'align' N | 'own_line' | 'with' SYM | 'init' VALUE
 *   COND      := 'arch' '=' ('x86' | 'arm64') | 'atomics' '=' ('locked' | 'llsc' | 'lse')
 *   operand   := REG | IMM | LABEL | SYM | '[' term (('+'|'-') term)* ']'
 *   REG       := r0..r63 | tid | nthreads;  IMM := decimal | 0x.. | -N | .equ name
 *
 * Several sources (a lock file and the harness) assemble into one program: declarations,
 * constants and labels are shared across them, positions keep their own file name.  Every
 * error of every source is collected and reported as "file:line:col: message", one a line.
 *
 * Conditional assembly is resolved here, against the ArchTarget the caller names (the model:
 * the config's arch and core.atomics; native: the host's; verify: its --arch/--atomics/--config):
 * lines of a branch not taken are skipped whole (not even declarations or labels are read), so
 * the interpreter, the timing model and the native translator only ever see the selected code.
 * `.if` blocks nest and must close in the source that opened them; conditions and directive
 * names are checked in every branch, taken or not, so a misspelt one fails on every target. */
#ifndef QSIM_ASM_H
#define QSIM_ASM_H

#include "cores/isa/isa.h"
#include "cores/isa/isa_exec.h"
#include "sim/base/config.h"

#define ASM_ERROR (asm_error_quark())
GQuark asm_error_quark(void);
typedef enum {
    ASM_ERROR_INVALID,   /* the source has errors (the message lists them all) */
    ASM_ERROR_PARAM,     /* a `.param` override is malformed or names no `.param` of the program */
} AsmError;

/* The cache line size the assembler checks `with` placement against when the target names none
 * (a host's; a config's target has the config's line_size). */
#define ASM_LINE_SIZE 64
static inline guint asm_line_size(ArchTarget t) { return t.line_size ? t.line_size : ASM_LINE_SIZE; }

typedef struct {
    const char *name;    /* shown in positions, e.g. "locks/tas.qs" or "<harness>" */
    const char *text;
    gboolean lock;       /* lock code: writing a harness register (r12..r15) is an error */
} AsmSource;

/* Assembles `n` sources, in order, for `target`.  NULL with every error in `error`. */
IsaProgram *asm_assemble_sources(const AsmSource *sources, guint n, ArchTarget target, GError **error);
/* The same, with `.param` values ("NAME=VALUE", NULL-terminated; NULL: every default).  An
 * override must name a `.param` the assembled code declares (ASM_ERROR_PARAM otherwise, with a
 * "did you mean"); the program's `params` record the value each took. */
IsaProgram *asm_assemble_with_params(const AsmSource *sources, guint n, ArchTarget target,
                                     const char *const *params, GError **error);
/* One source. */
IsaProgram *asm_assemble(const char *name, const char *text, ArchTarget target, GError **error);
/* What a machine config assembles for: its arch and, on arm64, core.atomics (lse-near and
 * lse-far are both LSE to a program). */
ArchTarget asm_target_for_config(const QsimConfig *cfg);
void asm_program_free(IsaProgram *p);

/* The decoded instruction as text ("cas32.acqrel r2, [lock_word], r0, 1"); branch targets
 * print as the label at that pc when the program has one, else "@pc". */
char *asm_format_insn(const IsaProgram *p, const IsaInsn *in);
/* "file:line:col" of an instruction. */
char *asm_format_pos(const IsaProgram *p, const IsaInsn *in);
/* A full listing: entry points, labels, each pc with its position and decoded op, and the
 * memory layout for `nthreads` threads. */
char *asm_listing(const IsaProgram *p, ArchTarget target, guint nthreads);

#endif
