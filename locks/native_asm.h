/* The native backend's one door to the assembler.  Every path that turns a `.qs` file into an
 * IsaProgram for the native backend (the build-time generator, `qsim native --lock-file`) goes
 * through native_assemble_file, so connecting the assembler is a change in one place. */
#ifndef QSIM_NATIVE_ASM_H
#define QSIM_NATIVE_ASM_H

#include "cores/isa.h"
#include "cores/isa_exec.h"

#define NATIVE_ERROR (native_error_quark())
GQuark native_error_quark(void);
typedef enum {
    NATIVE_ERROR_NO_ASSEMBLER,   /* the assembler is not connected to this build */
    NATIVE_ERROR_UNSUPPORTED,    /* an op the host cannot execute, or an unsupported host */
    NATIVE_ERROR_INVALID,        /* a program the backend cannot run (no lock entry, bad operand) */
    NATIVE_ERROR_COMPILER,       /* no C compiler, or it failed */
    NATIVE_ERROR_LOAD,           /* dlopen/dlsym failed */
    NATIVE_ERROR_SYSTEM,         /* affinity, threads, memory */
    NATIVE_ERROR_USAGE,          /* bad options */
} NativeError;

/* Assembles `path` for `arch`; errors are the assembler's (`file:line:col: message`). */
IsaProgram *native_assemble_file(const char *path, Arch arch, GError **error);

/* The architecture this binary was compiled for, or FALSE (with error) if neither. */
gboolean native_host_arch(Arch *out, GError **error);

#endif
