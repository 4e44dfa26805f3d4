/* The native backend's error domain and host architecture (see native_host.h). */
#include "locks/native_host.h"

G_DEFINE_QUARK(qsim-native-error-quark, native_error)

gboolean native_host_arch(Arch *out, GError **error G_GNUC_UNUSED)
{
#if defined(__x86_64__)
    *out = ARCH_X86;
    return TRUE;
#elif defined(__aarch64__)
    *out = ARCH_ARM64;
    return TRUE;
#else
    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_UNSUPPORTED,
                "the native backend runs on x86-64 and arm64 hosts only");
    return FALSE;
#endif
}
