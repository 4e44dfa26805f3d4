/* Reading the files a user hands qsim: configs, lock sources, litmus tests, herd kinds files,
 * sweep files and validation tables.  Every one is read here, so every one gets the same guards (docs/robustness.md):
 *   - a regular file, or a pipe (`qsim litmus <(generate)`): a device (/dev/zero, a terminal),
 *     a socket or a folder is refused before a byte is read (a FIFO is opened without waiting
 *     for a writer, then read until its writer closes it);
 *   - at most its kind's size limit (input_limits), checked while reading, so an endless or
 *     huge file costs no more than the limit;
 *   - no NUL byte: each is a text format, and a NUL would cut the text short silently.
 * Errors are G_FILE_ERROR and begin with the file's name (and a position for a NUL). */
#ifndef QSIM_INPUT_FILE_H
#define QSIM_INPUT_FILE_H

#include <glib.h>

typedef enum {
    INPUT_CONFIG,
    INPUT_LOCK,
    INPUT_LITMUS,
    INPUT_KINDS,
    INPUT_SWEEP,
    INPUT_TABLE,           /* a validation table (`qsim validate --table`) */
    INPUT_SCRIPT,          /* scripted accesses (`qsim run --script FILE`) */
    INPUT__N
} InputKind;

typedef struct {
    const char *what;      /* "config", "lock source": how messages name the file */
    gsize max_bytes;
} InputLimit;

/* Indexed by InputKind. */
extern const InputLimit input_limits[INPUT__N];

/* Reads PATH whole into *text (NUL-terminated; *len without the terminator, `len` may be NULL). */
gboolean input_file_read(const char *path, InputKind kind, char **text, gsize *len, GError **error);
/* The same refusals from the file's metadata alone (not a regular file, over the limit), for a
 * path looked up now and read later by another reader: a pipe is refused too (the later read
 * would have no limit, and a pipe cannot be read twice). */
gboolean input_file_check(const char *path, InputKind kind, GError **error);
/* The checks on text already in memory (the size limit and NUL bytes), `name` as the file. */
gboolean input_text_check(const char *text, gsize len, const char *name, InputKind kind, GError **error);

#endif
