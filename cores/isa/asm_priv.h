/* The assembler's insides, shared by its parts: the driver and lexing (asm.c), declarations
 * (asm_decl.c), instructions (asm_insn.c), conditional assembly (asm_cond.c).  The listing
 * (asm_list.c) needs only the program.  Not for use outside cores/isa/asm*.c. */
#ifndef QSIM_ASM_PRIV_H
#define QSIM_ASM_PRIV_H

#include "cores/isa/asm.h"

typedef struct {
    guint file, line, col;
    char *msg;
} AsmDiag;

typedef struct {
    guint insn;
    char *label;
    guint file, line, col;
} AsmFixup;

typedef struct {
    guint file, line, col;
} AsmPos;

/* One open `.if` block.  Invariant: `active` implies `parent_active`, and at most one branch
 * of a block is active (`taken` says whether one already was). */
typedef struct {
    guint line, col;          /* of the `.if` */
    gboolean parent_active;   /* lines around the block are assembled */
    gboolean taken;           /* a branch so far had a true condition (or was the `.else`) */
    gboolean active;          /* lines of the current branch are assembled */
    gboolean seen_else;
} AsmCond;

typedef struct {
    ArchTarget target;
    IsaProgram *p;
    GArray *diags;            /* AsmDiag: the first ASM_DIAGS_KEPT found */
    guint ndiags;             /* errors found in all */
    GHashTable *labels;       /* name -> AsmPos* ; pc kept in p->labels */
    GHashTable *consts;       /* name -> gint64* */
    GHashTable *sym_index;    /* name (the sym's own) -> index in p->syms + 1: lookups at once */
    GArray *fixups;           /* AsmFixup */
    GPtrArray *entry_names;   /* char* with positions in entry_pos */
    GArray *entry_pos;        /* AsmPos */
    guint file;               /* current source */
    GArray *conds;            /* AsmCond: the open `.if` blocks of the current source */
    GArray *overrides;        /* AsmOverride: the caller's `.param` values */
    const AsmSource *sources; /* the sources, indexed by `file` */
    /* `.loc FILE LINE [COL]`: the position the ops that follow report (a translation's source
     * line), until the next `.loc` or the end of the source; loc_file -1: their own. */
    int loc_file;
    guint loc_line, loc_col;
} Asm;

/* A `.param` value given by the caller ("NAME=VALUE"); `used` once a `.param NAME` took it. */
typedef struct {
    char *name;
    int64_t value;
    gboolean used;
} AsmOverride;


/* A source of garbage has an error a line: the message shows the first ASM_DIAGS_SHOWN (by
 * position) of the first ASM_DIAGS_KEPT found, and how many there were. */
#define ASM_DIAGS_KEPT 1000u
#define ASM_DIAGS_SHOWN 20u

/* A piece of a line: its text (trimmed) and 1-based column. */
typedef struct {
    char *text;
    guint col;
} Tok;

/* Records an error at line:col of the current source (a->file). */
void asm_diag(Asm *a, guint line, guint col, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

/* ---- lexing and values (asm.c) ---- */
gboolean asm_is_ident(const char *s);
/* Trims `s[0..len)` and returns it as a Tok whose column counts from `base_col`. */
Tok asm_tok_make(const char *s, gsize len, guint base_col);
/* Splits on commas outside brackets: a GArray of Tok, freed by asm_toks_free. */
GArray *asm_split_operands(const char *s, guint base_col);
void asm_toks_free(GArray *t);
/* An integer literal or .equ name; FALSE if neither.  *overflow when a literal is too big. */
gboolean asm_parse_int(Asm *a, const char *s, int64_t *v, gboolean *overflow);
/* Does v fit in `size` bytes, read either as signed or unsigned? */
gboolean asm_fits_bytes(int64_t v, unsigned size);
/* A register name's slot (r0..r63, tid, nthreads), or -1. */
int asm_parse_reg(const char *s);

/* ---- declarations, pass 1 (asm_decl.c) ---- */
/* The variable of that name (its index in *index when not NULL), or NULL. */
IsaSym *asm_find_sym(Asm *a, const char *name, int *index);
/* "; did you mean `x`?" naming the declared variable closest to `name`, or "" (newly allocated). */
char *asm_var_hint(Asm *a, const char *name);
/* `.shared` and `.thread`, `.equ`, `.param`: `dir` is the directive, `rest` what follows it
 * from column rest_col. */
void asm_parse_decl(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col);
void asm_parse_equ(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col);
void asm_parse_param(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col);

/* `.loc FILE LINE [COL]` or `.loc -` (pass 2; asm_decl.c). */
void asm_parse_loc(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col);

/* ---- instructions, pass 2 (asm_insn.c) ---- */
/* One instruction: mnemonic `mn`, operands `rest` from column rest_col. */
void asm_parse_insn(Asm *a, guint line, const Tok *mn, const char *rest, guint rest_col);

/* ---- conditional assembly (asm_cond.c) ---- */
gboolean asm_is_cond_directive(const char *w);
/* Whether the current line is assembled: every open block's current branch is taken. */
gboolean asm_cond_active(const Asm *a);
/* `.if`, `.elif`, `.else`, `.endif` (errors reported in pass 1 only). */
void asm_do_cond(Asm *a, guint pass, guint line, const Tok *dir, const char *rest, guint rest_col);
/* At the end of a source: blocks still open are errors (a block never spans two sources). */
void asm_cond_end_of_source(Asm *a, guint pass);

#endif
