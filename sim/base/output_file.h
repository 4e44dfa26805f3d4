/* Writing every file qsim writes: reports kept by `run --out`, traces (`--trace-out`,
 * `--trace-html`), `qsim protocol -o`, configs from calibrate and validate, and a sweep's results,
 * tables and plots.  Every one is written here, so every one gets the same rules
 * (docs/robustness.md):
 *   - a symbolic link is written through: its target gets the bytes and the link stays a link
 *     (a dangling link's target is made);
 *   - a path that exists and is not a regular file (a FIFO, a device, a socket, a folder) is
 *     refused before it is opened for writing, never written into and never replaced;
 *   - a regular file is written in place (same inode: its hard links, owner and mode stay),
 *     except by output_file_replace, which swaps a whole new file in for a reader that must
 *     never see half of one;
 *   - every failure (a read-only folder, a full disk, a close that fails) is an error naming
 *     the path.
 * Errors are G_FILE_ERROR, "PATH: what is wrong"; callers put the option in front. */
#ifndef QSIM_OUTPUT_FILE_H
#define QSIM_OUTPUT_FILE_H

#include <stdio.h>
#include <glib.h>

typedef enum {
    OUTPUT_TRUNCATE,    /* the file's old bytes go; made when it is not there */
    OUTPUT_APPEND,      /* after the file's old bytes; made when it is not there */
    OUTPUT_NEW,         /* made; a path that exists (a link too) is refused */
} OutputMode;

/* Whether `path` can be written by these rules, before work is spent on what goes there: when
 * it exists (through links), it is a regular file.  Not there at all is fine. */
gboolean output_file_check(const char *path, GError **error);
/* `path` opened for writing by these rules (stdio, fully buffered); close it with
 * output_file_close, which says whether every byte reached the file. */
FILE *output_file_open(const char *path, OutputMode mode, GError **error);
/* Flushes and closes `f` (always), FALSE with the path and the reason when a write failed. */
gboolean output_file_close(FILE *f, const char *path, GError **error);
/* `len` bytes of `data` into `path` (open, write, close). */
gboolean output_file_write(const char *path, OutputMode mode, const void *data, gsize len, GError **error);
/* `len` bytes of `data` as the new whole of `path`: written to PATH.tmp beside the file a link
 * leads to, synced, and renamed over it, so a reader (or a kill) sees the old file or the new,
 * never part of one.  The link stays a link. */
gboolean output_file_replace(const char *path, const void *data, gsize len, GError **error);

#endif
