/* The C front end: a lock written in C, compiled by GCC, translated into ISA text that runs
 * everywhere an ISA lock runs (the model, verify, the native backend), each op carrying its C
 * line.  docs/c-locks.md is the user's reference.
 *
 *   cfront_compile.c   the compiler driver and its cache (C -> GNU assembler text)
 *   gas_read.c         the reader of that text (statements, data, C positions)
 *   x86_translate.c    x86-64 instructions -> ISA ops, one table row per mnemonic form
 *   arm64_translate.c  AArch64 instructions -> ISA ops, the same way
 *   cf_emit.c          what the two translators share: the emitter, the flags kept over the
 *                      jumps, the passes over the code
 *   cf_peephole.c      one instruction's ops made fewer before they are written (no op that
 *                      moves or masks what is already so)
 *   cfront.c           the glue: the lockhammer contract (lock_acquire/lock_release), the entry
 *                      points the harness calls, the stack, the data
 *
 * The contract follows ARM's lockhammer: the file defines
 *     void lock_acquire(uint64_t *lock, unsigned long threadnum);
 *     void lock_release(uint64_t *lock, unsigned long threadnum);
 * and optionally void thread_local_init(unsigned long threadnum), called once per thread before
 * its first acquire.  `lock` points at the harness's lock word; threadnum is the thread's index. */
#ifndef QSIM_CFRONT_H
#define QSIM_CFRONT_H

#include <glib.h>
#include "sim/base/arch.h"

#define CFRONT_ERROR (cfront_error_quark())
GQuark cfront_error_quark(void);
typedef enum {
    CFRONT_ERROR_COMPILER,     /* no compiler to run */
    CFRONT_ERROR_COMPILE,      /* the compiler refused the file (its messages follow) */
    CFRONT_ERROR_UNSUPPORTED,  /* an instruction or datum the translation does not know */
    CFRONT_ERROR_CONTRACT,     /* lock_acquire or lock_release is missing */
    CFRONT_ERROR_ARCH,         /* a target without a translator yet */
} CfrontError;

/* Whether `path` names a C source (it ends in ".c"). */
gboolean cfront_is_c_path(const char *path);

/* The variables the translation declares for itself, not the lock's: each thread's stack and
 * its thread_local_init flag.  A run counts them with neither the lock's lines nor the harness's. */
#define CF_STACK_VAR "cf_stack"
#define CF_READY_VAR "cf_ready"
gboolean cfront_is_glue_var(const char *name);

/* The compiler the user names for every lock in C this process compiles (`--cc`, `--cflags`):
 * `cc` a command line that replaces the target's compiler ($CC else gcc; $CC_ARM64 else
 * aarch64-linux-gnu-gcc), `cflags` shell words put after qsim's own flags, so that GCC takes them
 * over the target's (-march=..., -O1); NULL for neither.  Both are in the cache key.  Set before
 * any lock is read.  FALSE with CFRONT_ERROR_COMPILER when either is not a command line. */
gboolean cfront_set_compiler(const char *cc, const char *cflags, GError **error);

/* The ISA text of the lock in C file `path`, for `target` (arm64: compiled for its atomics, LSE
 * code refused on an LL/SC machine). */
char *cfront_translate_file(const char *path, ArchTarget target, GError **error);

/* The same from assembly text already made (`s_name` names it in messages, `c_path` is the C
 * file): the part after the compiler, for tests. */
char *cfront_translate_asm(const char *asm_text, const char *s_name, const char *c_path, ArchTarget target,
                           GError **error);

#endif
