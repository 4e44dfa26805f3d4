/* Run-time compilation: translated C text becomes a loaded shared object, built by the system C
 * compiler and kept in a cache so that the same text is compiled once.
 *
 * The cache is a folder, $XDG_CACHE_HOME/qsim/native (else ~/.cache/qsim/native), holding
 * HASH.so and the HASH.c it came from, HASH being the SHA-256 of the ABI version, the compiler
 * command, its flags and the C text.  Each compilation happens in a private folder inside the
 * cache and its results are renamed into place, so concurrent processes never see a partial
 * file; a cached object that does not load is compiled again.  Where no cache folder can be
 * made or written, the object is built in a private temporary folder, loaded and removed. */
#ifndef QSIM_NATIVE_COMPILE_H
#define QSIM_NATIVE_COMPILE_H

#include <glib.h>

/* The C compiler command ($CC split as a shell line, else `cc`; the program resolved through
 * PATH), or NULL with an error naming what was looked for. */
GStrv native_find_compiler(GError **error);

/* The cache folder (created if need be), or NULL when there is none usable. */
char *native_cache_dir(void);

/* A loaded shared object. */
typedef struct NativeModule NativeModule;

/* Loads the object compiled from `csrc` by `cc` (from the cache, or compiled now).  `what`
 * names the source in messages. */
NativeModule *native_module_load(const char *csrc, const char *const *cc, const char *what,
                                 GError **error);
/* The address of `name` in the object, or NULL. */
void *native_module_symbol(const NativeModule *m, const char *name);
void native_module_free(NativeModule *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(NativeModule, native_module_free)

#endif
