/* A lock for a native run (see native_lock.h). */
#include <string.h>
#include "sim/base/input_file.h"
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "locks/native/native_c.h"
#include "locks/native/native_compile.h"
#include "locks/native/native_host.h"
#include "locks/native/native_lock.h"
#include "sim/workload/lock_find.h"

struct NativeLock {
    char *name;        /* in reports */
    char *file;        /* in positions */
    char *text;
    GStrv cc;
};

/* The entry points the harness calls (writers only: native runs have no readers). */
static const char *const harness_calls[] = { "lock", "unlock" };

void native_lock_free(NativeLock *l)
{
    if (!l)
        return;
    g_free(l->name);
    g_free(l->file);
    g_free(l->text);
    g_strfreev(l->cc);
    g_free(l);
}

NativeLock *native_lock_from_source(const char *name, const char *file, const char *text, GError **error)
{
    ArchTarget target;
    if (!native_host_target(&target, error))
        return NULL;
    g_autoptr(IsaProgram) alone = asm_assemble(file, text, target, error);
    if (!alone)
        return NULL;
    for (guint i = 0; i < G_N_ELEMENTS(harness_calls); i++)
        if (isa_program_find_entry(alone, harness_calls[i]) < 0) {
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                        "%s: no entry point `%s` (the harness calls it; mark its label with `.entry %s`)",
                        file, harness_calls[i], harness_calls[i]);
            return NULL;
        }
    GStrv cc = native_find_compiler(error);
    if (!cc)
        return NULL;
    NativeLock *l = g_new0(NativeLock, 1);
    l->name = g_strdup(name);
    l->file = g_strdup(file);
    l->text = g_strdup(text);
    l->cc = cc;
    return l;
}

NativeLock *native_lock_from_file(const char *path, GError **error)
{
    g_autofree char *text = NULL;
    GError *local = NULL;
    Arch host = ARCH_X86;
    /* A C lock is translated for the host (an unknown host: the error says which). */
    if (!native_host_arch(&host, &local) || !lock_read(path, arch_target(host), &text, &local)) {
        g_set_error_literal(error, NATIVE_ERROR, NATIVE_ERROR_USAGE, local->message);
        g_error_free(local);
        return NULL;
    }
    g_autofree char *name = native_lock_name_from_path(path);
    return native_lock_from_source(name, path, text, error);
}

NativeLock *native_lock_builtin(const char *name, GError **error)
{
    g_autofree char *path = lock_find(name, error);
    if (!path)
        return NULL;
    return native_lock_from_file(path, error);
}

const char *native_lock_name(const NativeLock *l)
{
    return l->name;
}

const char *native_lock_path(const NativeLock *l)
{
    return l->file && g_file_test(l->file, G_FILE_TEST_IS_REGULAR) ? l->file : NULL;
}

const char *native_lock_text(const NativeLock *l)
{
    return l->text;
}

const char *const *native_lock_compiler(const NativeLock *l)
{
    return (const char *const *)l->cc;
}

IsaProgram *native_lock_with_harness(const NativeLock *l, const HarnessOptions *h, ArchTarget target,
                                     const char *const *params, GError **error)
{
    GError *local = NULL;
    IsaProgram *p = harness_assemble(l->file, l->text, h, target, params, &local);
    if (!p) {
        /* The lock assembled alone: what fails now comes from the workload's options. */
        g_set_error_literal(error, NATIVE_ERROR, NATIVE_ERROR_USAGE, local->message);
        g_error_free(local);
    }
    return p;
}
