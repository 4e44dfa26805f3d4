/* The native translator: an IsaProgram becomes C that runs on the host (docs/native.md).
 *
 * Each entry point becomes one C function over the whole program body: labels are `goto`
 * targets, registers are local uint64_t (loaded from and stored back to the thread's
 * QnThread.regs), memory ops are __atomic builtins with the op's ordering (every atomic
 * SEQ_CST on x86, where they are LOCK-prefixed anyway), fences/pause/wfe/sev are inline asm,
 * `call`/`ret` a return-address stack with computed goto, `mark N` a call of the runner's hook,
 * `ret` at depth 0 and `halt` return to the runner.  Ops the host architecture lacks are
 * refused with their source position.  The runner translates a lock assembled with the
 * workload harness, entry `main`, so that the host runs the instructions the model runs. */
#ifndef QSIM_NATIVE_C_H
#define QSIM_NATIVE_C_H

#include "cores/isa/isa.h"

/* A whole translation unit: the ABI declarations, the entry functions and the descriptor
 * `const QnProgram qsim_native_program`, ready for `cc -shared`.  `entry` names the one entry
 * point to emit, or NULL for all.  NULL with error if the program uses an op `host_arch` cannot
 * execute (`file:line:col: ...`) or lacks the entry. */
char *native_translate_c(const IsaProgram *p, Arch host_arch, const char *entry, GError **error);

/* The unit without its header (ABI declarations): the entry functions and the descriptor,
 * appended to `out`. */
gboolean native_translate_body(GString *out, const IsaProgram *p, Arch host_arch, const char *entry,
                               GError **error);

/* `name` as a C identifier fragment: every character outside [A-Za-z0-9_] becomes '_'. */
char *native_c_ident(const char *name);
/* The lock's name from its file name: basename without ".qs". */
char *native_lock_name_from_path(const char *path);

#endif
