/* The compiler driver of the C front end: `gcc -S` on a lock's C file, its assembly text kept in
 * a cache ($XDG_CACHE_HOME/qsim/cfront/, as the native backend keeps its programs) under the
 * SHA-256 of everything that decides it: the source's bytes and path, the compiler's command
 * and flags, and `CC --version`.  Headers the file includes are not in the key: editing one
 * means editing the file (or clearing the cache) to see the change. */
#ifndef QSIM_CFRONT_COMPILE_H
#define QSIM_CFRONT_COMPILE_H

#include <glib.h>

/* The flags every compile gets, by why:
 *   -S -O2            assembly, as a lock is built for real
 *   -g                `.loc` lines: each instruction's C line
 *   -fno-pic          globals RIP-relative, not through the GOT
 *   -ftls-model=local-exec   thread-locals at %fs:SYM@tpoff, not through __tls_get_addr
 *   -fno-asynchronous-unwind-tables, -fno-stack-protector, -fcf-protection=none
 *                     no unwind directives, canary or ENDBR64 to read past
 *   -mgeneral-regs-only      no SIMD or floating-point registers, which the ISA does not have
 *                     (else GCC may set a few words up with one vector store from a 16-byte
 *                     constant, as ck's Anderson lock's initialisation)
 * plus the target's own (x86-64: -m64). */
extern const char *const cfront_base_flags[];

/* The assembly GCC writes for `path` (the compiler: $cc_env, else cc_default; extra flags appended).
 * NULL with CFRONT_ERROR_COMPILE and the compiler's own messages (file:line:col) when it fails,
 * CFRONT_ERROR_COMPILER when there is none. */
char *cfront_compile(const char *path, const char *cc_env, const char *cc_default, const char *const *target_flags,
                     GError **error);

/* The compiler's name as messages give it: --cc's program (cfront_set_compiler), else
 * `cc_default`. */
const char *cfront_compiler_name(const char *cc_default);

#endif
