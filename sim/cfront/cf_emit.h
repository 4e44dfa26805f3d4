/* What the two translators (x86_translate.c, arm64_translate.c) share: writing ISA text for
 * one instruction at a time, its temporaries and labels, refusing an instruction with its C and
 * assembly lines, the flags kept as data (which conditions hold where, worked out over the
 * jumps), and the passes over the code that end in the one that writes.  Each translator embeds
 * a CfEmit first in its own state and gives a CfArch: its name, its temporaries and its hooks. */
#ifndef QSIM_CF_EMIT_H
#define QSIM_CF_EMIT_H

#include <glib.h>
#include "sim/cfront/gas_read.h"

/* The two numbers the flags are kept as (docs/c-locks.md: "Flags stay data"). */
#define CF_FA "r32"
#define CF_FB "r33"
/* The sets of flags kept: a translator's own bits, none, or none yet (after an unconditional
 * jump: the next label decides). */
#define CF_FL_NONE 0
#define CF_FL_UNREACHED 0xff

typedef struct CfEmit CfEmit;

typedef struct {
    const char *name;          /* in messages: "x86-64", "AArch64" */
    guint t_first, t_count;    /* the temporaries: r<t_first> ... */
    /* Translates one instruction (after its .loc and its text as a comment are written). */
    gboolean (*insn)(CfEmit *e, const GasStmt *s);
    /* Optional hooks: at the start of each pass, at a function's label, at a label some jump
     * names (before the flags are met there), after each instruction. */
    void (*pass_start)(CfEmit *e);
    void (*function_start)(CfEmit *e);
    void (*jump_target)(CfEmit *e, const char *label);
    void (*after_insn)(CfEmit *e);
    /* Optional: at each jump, before the flags are noted. */
    void (*note_jump)(CfEmit *e, const char *label);
} CfArch;

struct CfEmit {
    const CfArch *arch;
    const GasProgram *g;
    const char *s_name;
    GString *out;              /* NULL on the passes that only work out the flags */
    const GasStmt *st;         /* the instruction being translated */
    guint ntemp, nlabel;
    guint fl;                  /* the flags kept here */
    GHashTable *label_fl;      /* label -> flags kept on every jump into it (GUINT_TO_POINTER + 1) */
    GHashTable *targets;       /* the labels some instruction names (the others are debug info's) */
    gboolean changed;          /* a pass changed what holds at some label */
    GPtrArray *pool;           /* strings made for the current instruction */
    GPtrArray *ops;            /* the current instruction's ops, written when it ends */
    guint64 zext32;            /* registers known zero-extended from 32 bits here (cf_peephole.h) */
    GError **error;
    gboolean failed;
};

/* One op of ISA text, indented (nothing on the passes that do not write). */
void cf_em(CfEmit *e, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* A label among the current instruction's ops (a loop or a skip inside it). */
void cf_label(CfEmit *e, const char *label);
/* `s`, kept until the next instruction. */
const char *cf_keep(CfEmit *e, char *s);
/* A fresh temporary register, a fresh label. */
const char *cf_tmp(CfEmit *e);
const char *cf_new_label(CfEmit *e);
/* Refuses the current instruction (on the writing pass): "FILE.c:LINE:COL: cannot translate
 * `TEXT` (ARCH, line N of the compiler's output S): WHY".  Always FALSE. */
gboolean cf_vfail(CfEmit *e, const char *fmt, va_list ap) G_GNUC_PRINTF(2, 0);
/* The ISA name of a symbol or label, kept. */
const char *cf_isa_name(CfEmit *e, const char *sym);
/* Whether `name` is a label of the code. */
gboolean cf_is_code_label(CfEmit *e, const char *name);
/* A jump to `label` from here: the flags kept here met with the label's. */
void cf_note_jump(CfEmit *e, const char *label);
/* FA, FB := a, b (b NULL: 0), each sign-extended from `bits` (64: as they are); `kept` the
 * flags that then hold. */
void cf_set_flags(CfEmit *e, const char *a, const char *b, guint bits, guint kept);

/* Translates the code of `g` into ISA text appended to `out`: passes that work out the flags at
 * each label until none changes, then the pass that writes.  `e` is the translator's, its
 * other fields set by the caller; FALSE with the error of the instruction refused. */
gboolean cf_translate(CfEmit *e, const CfArch *arch, const GasProgram *g, const char *s_name, GString *out,
                      GError **error);

#endif
