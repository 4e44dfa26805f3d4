/* Shared between the litmus parser, condition parser and translators: a text cursor that
 * knows its file position, and errors at that position. */
#ifndef QSIM_LITMUS_PRIV_H
#define QSIM_LITMUS_PRIV_H

#include "sim/litmus/litmus.h"

typedef struct {
    const char *p, *end;
    const char *file;
    guint line, col;
} LitCursor;

static inline void lit_advance(LitCursor *c)
{
    if (c->p >= c->end)
        return;
    if (*c->p == '\n') {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
    c->p++;
}

static inline void lit_skip_space(LitCursor *c)
{
    while (c->p < c->end && g_ascii_isspace(*c->p))
        lit_advance(c);
}

/* Sets "file:line:col: message". */
void lit_error_at(GError **error, int code, const char *file, guint line, guint col,
                  const char *fmt, ...) G_GNUC_PRINTF(6, 7);

/* Parses a decimal or 0x integer, optionally negative; advances over it. */
/* An integer: decimal or 0x hex, optionally signed, as 64 bits (negatives down to -2^63,
 * positives up to 2^64 - 1 as their bit pattern).  LIT_NO_NUMBER leaves the cursor; LIT_TOO_BIG
 * moves past the digits. */
typedef enum { LIT_NO_NUMBER, LIT_NUMBER, LIT_TOO_BIG } LitNumber;
LitNumber lit_parse_int(LitCursor *c, int64_t *out);
/* A value: an integer into *value, or a location (`x` or `&x`, its address) into *loc (newly
 * allocated); FALSE, positioned where the location should be, when neither is there. */
/* An integer, a location or &location; FALSE with an error for a number out of range. */
gboolean lit_parse_value(LitCursor *c, int64_t *value, char **loc, GError **error);
/* An identifier of letters, digits, '_', '.', '$' (herd names such as `x`, `X3`, `%eax`). */
char *lit_parse_ident(LitCursor *c);
/* The same, or NULL with "file:line:col: expected WHAT" where it should be. */
char *lit_expect_ident(LitCursor *c, const char *what, GError **error);

/* Condition-parser pieces the file parser reuses (sim/litmus/litmus_cond.c). */
guint lit_obs_intern(GPtrArray *obs, int thread, const char *name, const char *display);
gboolean lit_parse_obs(LitCursor *c, LitmusArch arch, GPtrArray *obs, guint *index, GError **error);
LitmusCond *lit_cond_parse_cursor(LitCursor *c, LitmusArch arch, GPtrArray *obs, GError **error);

/* ---- translation state (sim/litmus/litmus_translate.c) ---- */

typedef struct {
    const LitmusTest *t;
    LitmusProgram *lp;
    GHashTable *loc_index;     /* name -> index + 1 into lp->locs */
} Xl;

/* One thread being translated.  The body is built on its own, with branch targets as body
 * pcs, and placed after the dispatch and the thread's prologue at the end. */
typedef struct {
    Xl *x;
    guint thread;
    GArray *body;              /* IsaInsn */
    GHashTable *regs;          /* canonical litmus register -> ISA register + 1 */
    char *litreg[ISA_NREGS];   /* ISA register -> the litmus register it holds, or NULL */
    int nregs;
    /* Scratch registers, allocated on first use (-1 until then). */
    int fa, fb;                /* the last CMP's operands: the ISA has no flags */
    int t1, t2, t3, sink;
    gboolean flags_set;        /* a CMP (or CMPXCHG) has been translated */
    gboolean uses_flags;       /* some conditional branch / CSEL reads the flags */
    GHashTable *labels;        /* label -> body pc + 1 */
    GArray *fixups;            /* XlFixup */
    const char *file;
    guint line, col;           /* the cell being translated */
    GError **error;
} XlThread;

typedef struct {
    guint insn;
    char *label;
    guint line, col;
} XlFixup;

static inline IsaSrc xl_imm(int64_t v) { return (IsaSrc){ ISA_NO_REG, v }; }
static inline IsaSrc xl_r(int r) { return (IsaSrc){ (int8_t)r, 0 }; }

/* The ISA register holding litmus register `canon` (allocated on first use), or -1 (error set). */
int xl_reg(XlThread *th, const char *canon);
/* A scratch register kept in *slot, or -1 (error set). */
int xl_scratch(XlThread *th, int *slot);
/* The location `name`, created (as a symbol in its own line) on first use. */
int xl_loc(Xl *x, const char *name);
/* Appends an instruction at the current cell's position; valid until the next append. */
IsaInsn *xl_emit(XlThread *th, IsaOp op);
void xl_alu(XlThread *th, IsaOp op, int rd, IsaSrc a, IsaSrc b);
/* CMP a, b: the flags as two scratch registers, fa := a and fb := b, both cut to `size` bytes
 * (the ISA has no flags; B.cond, Jcc and CSEL compare fa with fb). */
gboolean xl_set_flags(XlThread *th, IsaSrc a, IsaSrc b, int size);
/* A branch (OP_BR or OP_JMP already filled) to `label`, resolved at the end of the thread. */
void xl_target(XlThread *th, const char *label, guint col_off);
/* Error at the current cell, `col_off` characters into it. */
gboolean xl_fail(XlThread *th, guint col_off, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* Splits an instruction's operands at top-level commas (not inside [] or ()); offsets[i] is
 * where operand i starts in `s`. */
GPtrArray *xl_split_operands(const char *s, GArray *offsets);

gboolean xl_x86_insn(XlThread *th, const char *mnemonic_and_operands, guint col_off);
gboolean xl_arm_insn(XlThread *th, const char *insn, guint col_off);
/* Whether an instruction reads the flags (conditional branch, CSEL), for the pre-scan. */
gboolean xl_x86_reads_flags(const char *insn);
gboolean xl_arm_reads_flags(const char *insn);

/* ---- tallying final states (sim/litmus/litmus_run.c) ---- */

/* The histogram of final states a result is built from, for runs on an executor (one state a
 * run) and for the exhaustive search (each reachable state with its count of executions). */
typedef struct LitmusTally LitmusTally;
LitmusTally *litmus_tally_new(const LitmusTest *t, const LitmusProgram *p, const char *executor);
/* Counts `count` runs (or executions) ending in `fin`. */
void litmus_tally_add(LitmusTally *y, const LitmusFinal *fin, guint64 count);
/* The result being built, for fields the tally does not fill. */
LitmusResult *litmus_tally_result(LitmusTally *y);
/* The verdict from the counts; frees the tally. */
LitmusResult *litmus_tally_finish(LitmusTally *y);
void litmus_tally_free(LitmusTally *y);

#endif
