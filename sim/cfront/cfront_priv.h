/* The C front end's insides, shared by the glue (cfront.c) and the translators
 * (x86_translate.c; an AArch64 one goes beside it).  Not for use outside sim/cfront/. */
#ifndef QSIM_CFRONT_PRIV_H
#define QSIM_CFRONT_PRIV_H

#include <glib.h>
#include "sim/cfront/cfront.h"
#include "sim/cfront/gas_read.h"

/* How a target's calling convention meets the ISA: the glue puts the lock word's address and
 * the thread's index in the argument registers, points the stack register at the top of a
 * per-thread stack, and calls; `call_push` bytes are taken off the stack around each call (x86:
 * the return address CALL pushes, so frame offsets stay as compiled; AArch64: 0, BL uses x30). */
typedef struct {
    const char *name;            /* "x86-64" */
    const char *comment;         /* the assembler's comment string */
    const char *const *flags;    /* the target's compiler flags (cfront_compile) */
    const char *cc_env, *cc_default;   /* the compiler: $cc_env, else cc_default */
    int sp, arg0, arg1;          /* ISA registers */
    guint call_push;
    /* Translates the code (labels and instructions) of `g` into ISA text appended to `out`.
     * s_name names the assembly in messages. */
    gboolean (*translate)(const GasProgram *g, const char *s_name, GString *out, GError **error);
} CfTarget;

extern const CfTarget cfront_x86;
/* AArch64 for a machine of LL/SC atomics (ARMv8.0: LSE code is refused) and of LSE (ARMv8.1). */
extern const CfTarget cfront_arm64_llsc, cfront_arm64_lse;

/* The ISA name of an assembly symbol or label: "c_NAME" for the C program's own names, "cl_N"
 * for the compiler's local labels (".LN"); '.' (static locals: "count.0") becomes "__".  The
 * harness's names (lock, unlock, main, h_*, lock_word) and the glue's (cf_*) never collide with
 * them.  Newly allocated. */
char *cfront_isa_name(const char *name);

#endif
