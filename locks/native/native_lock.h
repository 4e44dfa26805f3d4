/* A lock for a native run: its ISA source, found and checked when it is named, and the C
 * compiler that will build it.  A run then assembles it with the workload harness for its
 * options (native_lock_with_harness), exactly as the simulator does, and translates the whole
 * program. */
#ifndef QSIM_NATIVE_LOCK_H
#define QSIM_NATIVE_LOCK_H

#include "cores/isa/isa.h"
#include "sim/workload/harness.h"

typedef struct NativeLock NativeLock;

/* A built-in lock: NAME.qs in the `locks` search folders (as `qsim run --lock NAME`). */
NativeLock *native_lock_builtin(const char *name, GError **error);
/* Any ISA file. */
NativeLock *native_lock_from_file(const char *path, GError **error);
/* Source text; `file` names it in positions, `name` in the report.  Each of these assembles the
 * lock alone (errors `file:line:col: message`), checks it has the `lock` and `unlock` entry
 * points the harness calls, and finds the C compiler (native_find_compiler): an error for any
 * of them. */
NativeLock *native_lock_from_source(const char *name, const char *file, const char *text, GError **error);
void native_lock_free(NativeLock *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NativeLock, native_lock_free)

/* The name reports use: the built-in's name, or the file's without folder and ".qs". */
const char *native_lock_name(const NativeLock *l);
/* The file its source was read from (NULL for a source given as text), and the source. */
const char *native_lock_path(const NativeLock *l);
const char *native_lock_text(const NativeLock *l);
/* The compiler found for it (argv, NULL-terminated). */
const char *const *native_lock_compiler(const NativeLock *l);
/* The lock assembled with the harness text for `h` (harness_source), for `target` (the host's:
 * native_host_target), with the lock's `.param` values `params` ("NAME=VALUE"; NULL: defaults).  An error
 * (NATIVE_ERROR_USAGE) when they do not assemble together, e.g. same-line data that does not
 * fit in the lock word's line. */
IsaProgram *native_lock_with_harness(const NativeLock *l, const HarnessOptions *h, ArchTarget target,
                                     const char *const *params, GError **error);

#endif
