/* Architecture names (see arch.h). */
#include <string.h>
#include "cores/arch.h"

static const char *const arch_names[ARCH__N] = { [ARCH_X86] = "x86", [ARCH_ARM64] = "arm64" };

const char *arch_name(Arch a)
{
    return (guint)a < ARCH__N ? arch_names[a] : "?";
}

gboolean arch_parse(const char *s, const char *option, Arch *out, GError **error)
{
    for (guint i = 0; i < ARCH__N; i++)
        if (!s || !strcmp(s, arch_names[i])) {
            *out = s ? (Arch)i : ARCH_X86;
            return TRUE;
        }
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s must be x86 or arm64, not `%s`", option, s);
    return FALSE;
}
