/* What every part of the native backend shares: its error domain, and the host it runs on. */
#ifndef QSIM_NATIVE_HOST_H
#define QSIM_NATIVE_HOST_H

#include <glib.h>
#include "sim/base/arch.h"

#define NATIVE_ERROR (native_error_quark())
GQuark native_error_quark(void);
typedef enum {
    NATIVE_ERROR_UNSUPPORTED,    /* an op the host cannot execute, or an unsupported host */
    NATIVE_ERROR_INVALID,        /* a program the backend cannot run (no entry, bad operand, a fault) */
    NATIVE_ERROR_COMPILER,       /* no C compiler, or it failed */
    NATIVE_ERROR_LOAD,           /* dlopen/dlsym failed */
    NATIVE_ERROR_SYSTEM,         /* affinity, threads, memory */
    NATIVE_ERROR_USAGE,          /* bad options or input (the CLI's exit 2) */
    NATIVE_ERROR_NO_PROGRESS,    /* the progress watchdog ended the run */
} NativeError;

/* The architecture this binary was compiled for, or FALSE (with error) if neither. */
gboolean native_host_arch(Arch *out, GError **error);
/* What a lock is assembled for on this host: its arch, and on arm64 LSE when the CPU has the
 * ARMv8.1 atomics (HWCAP_ATOMICS), else LL/SC. */
gboolean native_host_target(ArchTarget *out, GError **error);

#endif
