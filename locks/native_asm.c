/* The assembler hook of the native backend (see native_asm.h). */
#include "locks/native_asm.h"
#include "cores/asm.h"

G_DEFINE_QUARK(qsim-native-error-quark, native_error)

IsaProgram *native_assemble_file(const char *path, Arch arch, GError **error)
{
    g_autofree char *text = NULL;
    GError *local = NULL;
    if (!g_file_get_contents(path, &text, NULL, &local)) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_NO_ASSEMBLER, "%s: %s", path, local->message);
        g_error_free(local);
        return NULL;
    }
    return asm_assemble(path, text, arch, error);
}

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
