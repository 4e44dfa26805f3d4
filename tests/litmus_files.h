/* Test helpers: where the litmus catalogues are, and their files. */
#ifndef QSIM_TEST_LITMUS_FILES_H
#define QSIM_TEST_LITMUS_FILES_H

#include <glib.h>

/* herdtools7's catalogue: $QSIM_HERD_CATALOGUE, else shared/ beside the checkout (as CI lays
 * it out). */
const char *herd_dir(void);
/* Whether herd's catalogue is there; when it is not, `test` is skipped (tests/skip.h: it fails
 * under CI=true) and the caller returns.  Absent folders inside a catalogue that is there are
 * failures of the test itself. */
gboolean herd_catalogue_or_skip(const char *test);
/* Our own catalogue, tests/litmus. */
char *own_litmus_dir(const char *arch);
/* The *.litmus files of a folder, sorted by name; NULL when the folder is absent. */
GPtrArray *litmus_files(const char *dir);

#endif
