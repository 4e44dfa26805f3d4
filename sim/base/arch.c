/* Architecture and atomics names (see arch.h). */
#include <string.h>
#include "sim/base/arch.h"

static const char *const arch_names[ARCH__N] = { [ARCH_X86] = "x86", [ARCH_ARM64] = "arm64" };
static const char *const atomics_names[ARCH_ATOMICS__N] = {
    [ARCH_ATOMICS_LOCKED] = "locked", [ARCH_ATOMICS_LLSC] = "llsc", [ARCH_ATOMICS_LSE] = "lse",
};

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

const char *arch_atomics_name(ArchAtomics k)
{
    return (guint)k < ARCH_ATOMICS__N ? atomics_names[k] : "?";
}

gboolean arch_atomics_on(Arch a, ArchAtomics k)
{
    return a == ARCH_X86 ? k == ARCH_ATOMICS_LOCKED : k == ARCH_ATOMICS_LLSC || k == ARCH_ATOMICS_LSE;
}

ArchTarget arch_target(Arch a)
{
    return (ArchTarget){ a, a == ARCH_X86 ? ARCH_ATOMICS_LOCKED : ARCH_ATOMICS_LLSC, 0 };
}

char *arch_target_describe(ArchTarget t)
{
    if (t.arch == ARCH_X86)
        return g_strdup(arch_name(t.arch));
    return g_strdup_printf("%s (%s)", arch_name(t.arch), arch_atomics_name(t.atomics));
}

gboolean arch_target_parse(const char *arch_s, const char *atomics_s, ArchTarget *out, GError **error)
{
    Arch a;
    if (!arch_parse(arch_s, "--arch", &a, error))
        return FALSE;
    *out = arch_target(a);
    if (!atomics_s)
        return TRUE;
    for (guint k = 0; k < ARCH_ATOMICS__N; k++)
        if (!strcmp(atomics_s, atomics_names[k])) {
            if (!arch_atomics_on(a, (ArchAtomics)k)) {
                g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                            "--atomics %s: %s atomics are %s", atomics_s, arch_name(a),
                            a == ARCH_X86 ? "always LOCK-prefixed (locked)" : "llsc or lse");
                return FALSE;
            }
            out->atomics = (ArchAtomics)k;
            return TRUE;
        }
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--atomics must be llsc or lse (arm64) or locked (x86), not `%s`", atomics_s);
    return FALSE;
}
