/* Test helper: a temporary folder, files written into it and read back, and its removal.  Every
 * suite that writes inputs to disk uses these (each fails its test when the file system does). */
#ifndef QSIM_TEST_TEMP_FILES_H
#define QSIM_TEST_TEMP_FILES_H

#include <glib.h>

/* A new, empty folder under the system's temporary folder; free it with g_free after rm_rf. */
char *tmpdir(void);
/* DIR/NAME holding `text` (NUL-terminated), or `len` bytes of `data`; the path. */
char *write_file(const char *dir, const char *name, const char *text);
char *write_bytes(const char *dir, const char *name, const char *data, gsize len);
/* The whole of DIR/NAME. */
char *slurp(const char *dir, const char *name);
/* Removes DIR and everything in it. */
void rm_rf(const char *dir);

#endif
