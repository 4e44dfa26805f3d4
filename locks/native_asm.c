/* The assembler hook of the native backend (see native_asm.h). */
#include "locks/native_asm.h"

G_DEFINE_QUARK(qsim-native-error-quark, native_error)

IsaProgram *native_assemble_file(const char *path, Arch arch, GError **error)
{
    /* TODO(lead): return asm_assemble_file(path, arch, error) once cores/asm.h lands. */
    (void)arch;
    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_NO_ASSEMBLER,
                "%s: cannot assemble: the ISA assembler is not part of this build yet", path);
    return NULL;
}

void native_program_free(IsaProgram *p)
{
    if (!p)
        return;
    g_free(p->filename);
    if (p->insns)
        g_array_unref(p->insns);
    if (p->syms) {
        for (guint i = 0; i < p->syms->len; i++) {
            IsaSym *s = p->syms->pdata[i];
            g_free(s->name);
            g_free(s);
        }
        g_ptr_array_unref(p->syms);
    }
    if (p->entries) {
        for (guint i = 0; i < p->entries->len; i++)
            g_free(g_array_index(p->entries, IsaEntry, i).name);
        g_array_unref(p->entries);
    }
    g_free(p);
}

gboolean native_host_arch(Arch *out, GError **error)
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
