/* The native backend's error domain and host architecture (see native_host.h). */
#include "locks/native/native_host.h"
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <asm/hwcap.h>
#endif

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

gboolean native_host_target(ArchTarget *out, GError **error)
{
    Arch a;
    if (!native_host_arch(&a, error))
        return FALSE;
    *out = arch_target(a);
#if defined(__aarch64__) && defined(__linux__) && defined(HWCAP_ATOMICS)
    if (getauxval(AT_HWCAP) & HWCAP_ATOMICS)
        out->atomics = ARCH_ATOMICS_LSE;
#endif
    return TRUE;
}
