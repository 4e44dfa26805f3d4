/* The native translator: an IsaProgram becomes C that runs on the host (docs/native.md).
 *
 * Each entry point (`lock`, `unlock`, ...) becomes one C function over the whole program body:
 * labels are `goto` targets, registers are local uint64_t (loaded from and stored back to the
 * thread's QnThread.regs), memory ops are __atomic builtins with the op's ordering (every atomic
 * SEQ_CST on x86, where they are LOCK-prefixed anyway), fences/pause/wfe/sev are inline asm,
 * `call`/`ret` a return-address stack with computed goto, `ret` at depth 0 and `halt` return
 * to the runner.  Ops the host architecture lacks are refused with their source position. */
#ifndef QSIM_NATIVE_C_H
#define QSIM_NATIVE_C_H

#include "cores/isa.h"

/* A whole translation unit: the ABI declarations, the entry functions and the descriptor
 * `const QnLockDesc qsim_native_lock`, ready for `cc -shared`.  NULL with error if the program
 * uses an op `host_arch` cannot execute (`file:line:col: ...`). */
char *native_translate_c(const IsaProgram *p, Arch host_arch, GError **error);

/* Appends the entry functions (static, prefixed `ident`) and the descriptor `const QnLockDesc
 * ident` named `lock_name` to `out`, for a file that already has the ABI declarations. */
gboolean native_translate_body(GString *out, const IsaProgram *p, Arch host_arch,
                               const char *lock_name, const char *ident, GError **error);

/* `name` as a C identifier fragment: every character outside [A-Za-z0-9_] becomes '_'. */
char *native_c_ident(const char *name);
/* The lock's name from its file name: basename without ".qs". */
char *native_lock_name_from_path(const char *path);

#endif
