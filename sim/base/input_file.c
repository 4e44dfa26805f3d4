/* The one reader of user input files (see input_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "sim/base/input_file.h"
#include "sim/base/json_depth.h"

#define MiB ((gsize)1 << 20)
#define GiB ((gsize)1 << 30)

/* Far above any real file of each kind (the shipped configs are a few KiB, herd's whole kinds
 * file some hundred KiB), and low enough that reading and parsing one takes well under a second.
 * A run folder's copies were read under their own kinds' limits when they were kept; a kept
 * report with a profile is some tens of KiB.  A results file holds up to SWEEP_MAX_POINTS rows
 * (1,000,000) of a few KiB each: its limit is the largest such sweep's, and it is the one read
 * that can take seconds. */
const InputLimit input_limits[INPUT__N] = {
    [INPUT_CONFIG] = { "config", 1 * MiB, FALSE, INPUT_TEXT },
    [INPUT_LOCK] = { "lock source", 1 * MiB, FALSE, INPUT_TEXT },
    [INPUT_LITMUS] = { "litmus test", 1 * MiB, FALSE, INPUT_TEXT },
    [INPUT_KINDS] = { "kinds file", 16 * MiB, FALSE, INPUT_TEXT },
    [INPUT_SWEEP] = { "sweep file", 1 * MiB, FALSE, INPUT_TEXT },
    [INPUT_TABLE] = { "validation table", 1 * MiB, FALSE, INPUT_TEXT },
    [INPUT_SCRIPT] = { "script", 1 * MiB, FALSE, INPUT_TEXT },
    [INPUT_RUN_RECORD] = { "run folder's record", 1 * MiB, TRUE, INPUT_JSON },
    [INPUT_RUN_REPORT] = { "kept report", 16 * MiB, TRUE, INPUT_TEXT },
    [INPUT_RUN_CONFIG] = { "kept config", 1 * MiB, TRUE, INPUT_TEXT },
    [INPUT_RUN_LOCK] = { "kept lock source", 1 * MiB, TRUE, INPUT_TEXT },
    [INPUT_SWEEP_META] = { "sweep.json", 16 * MiB, TRUE, INPUT_JSON },
    [INPUT_SWEEP_ROWS] = { "results file", 8 * GiB, TRUE, INPUT_JSON_LINES },
};

const char *input_file_type_name(unsigned m)
{
    if (S_ISDIR(m))
        return "a folder";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a plain file";
}

static char *limit_text(gsize bytes)
{
    return bytes % MiB == 0 ? g_strdup_printf("%" G_GSIZE_FORMAT " MiB", bytes / MiB)
                            : g_strdup_printf("%" G_GSIZE_FORMAT " bytes", bytes);
}

/* `pipes`: a FIFO is allowed (when the caller reads it at once, through the limit). */
static gboolean check_stat(const char *path, const struct stat *st, InputKind kind, gboolean pipes, GError **error)
{
    const InputLimit *l = &input_limits[kind];
    if (!S_ISREG(st->st_mode) && !(pipes && !l->files_only && S_ISFIFO(st->st_mode))) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a regular file (%s); a %s must be a file",
                    path, input_file_type_name(st->st_mode), l->what);
        return FALSE;
    }
    if ((guint64)st->st_size > l->max_bytes) {
        g_autofree char *lim = limit_text(l->max_bytes);
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: larger than the %s limit for a %s",
                    path, lim, l->what);
        return FALSE;
    }
    return TRUE;
}

static void set_errno_error(GError **error, const char *path, int err)
{
    g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err), "%s: cannot read: %s", path, g_strerror(err));
}

gboolean input_file_check(const char *path, InputKind kind, GError **error)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        set_errno_error(error, path, errno);
        return FALSE;
    }
    return check_stat(path, &st, kind, FALSE, error);
}

gboolean input_text_check(const char *text, gsize len, const char *name, InputKind kind, GError **error)
{
    const InputLimit *l = &input_limits[kind];
    if (len > l->max_bytes) {
        g_autofree char *lim = limit_text(l->max_bytes);
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: larger than the %s limit for a %s", name, lim,
                    l->what);
        return FALSE;
    }
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        gsize line = 1, col = 1;
        for (const char *p = text; p < nul; p++) {
            if (*p == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%" G_GSIZE_FORMAT ":%" G_GSIZE_FORMAT
                    ": a NUL byte; a %s is text", name, line, col, l->what);
        return FALSE;
    }
    if (l->format != INPUT_TEXT)
        return json_depth_check(text, len, name, 1, l->format == INPUT_JSON_LINES, error);
    return TRUE;
}

gboolean input_file_read(const char *path, InputKind kind, char **text, gsize *len, GError **error)
{
    *text = NULL;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        set_errno_error(error, path, errno);
        return FALSE;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        set_errno_error(error, path, errno);
        close(fd);
        return FALSE;
    }
    if (!check_stat(path, &st, kind, TRUE, error)) {
        close(fd);
        return FALSE;
    }
    /* A pipe is read until its writer closes it (one with no writer reads as empty). */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    /* The size may change under us (or be 0 for a /proc file): read to the end, but never past
     * the limit. */
    gsize max = input_limits[kind].max_bytes;
    gsize cap = MIN((gsize)st.st_size, max) + 1, n = 0;
    char *buf = g_malloc(cap + 1);
    for (;;) {
        if (n == cap) {
            if (cap > max)
                break;
            cap = MIN(cap * 2, max + 1);
            buf = g_realloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            set_errno_error(error, path, errno);
            g_free(buf);
            close(fd);
            return FALSE;
        }
        if (r == 0)
            break;
        n += (gsize)r;
    }
    close(fd);
    buf[n] = '\0';
    if (!input_text_check(buf, n, path, kind, error)) {
        g_free(buf);
        return FALSE;
    }
    *text = buf;
    if (len)
        *len = n;
    return TRUE;
}
