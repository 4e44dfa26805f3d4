/* The one writer of qsim's output files (see output_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include "sim/base/output_file.h"
#include "sim/base/input_file.h"

/* The links a path may pass through before it is called a loop (the kernel's own limit). */
#define OUTPUT_MAX_LINKS 40

static gboolean fail_errno(GError **error, const char *path, int err)
{
    if (err == ELOOP)
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_LOOP, "%s: a loop of symbolic links", path);
    else
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err), "%s: cannot write: %s", path,
                    g_strerror(err));
    return FALSE;
}

static gboolean not_regular(GError **error, const char *path, mode_t mode)
{
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "%s: not a regular file (%s); qsim writes regular files only, and does not replace anything else",
                path, input_file_type_name(mode));
    return FALSE;
}

gboolean output_file_check(const char *path, GError **error)
{
    if (!*path) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "'': an empty path (name a file)");
        return FALSE;
    }
    struct stat st;
    if (stat(path, &st) == 0)
        return S_ISREG(st.st_mode) ? TRUE : not_regular(error, path, st.st_mode);
    /* not there (or a dangling link): opening makes it; a missing folder fails there */
    return errno == ENOENT ? TRUE : fail_errno(error, path, errno);
}

/* An open descriptor on a regular file at `path`, by `mode`; -1 with the error. */
static int open_regular(const char *path, OutputMode mode, GError **error)
{
    /* Looked at first, so that a FIFO or a device is never opened: opening one for writing
     * waits for a reader, or reaches the device. */
    if (mode != OUTPUT_NEW && !output_file_check(path, error))
        return -1;
    int flags = O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
    flags |= mode == OUTPUT_APPEND ? O_APPEND : mode == OUTPUT_NEW ? O_EXCL : 0;
    int fd = open(path, flags, 0666);
    if (fd < 0) {
        if (errno == EEXIST)
            g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST, "%s: exists already (qsim makes it new)", path);
        else
            fail_errno(error, path, errno);
        return -1;
    }
    /* And again on what was opened: the path may have changed between the two. */
    struct stat st;
    if (fstat(fd, &st) != 0) {
        fail_errno(error, path, errno);
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        not_regular(error, path, st.st_mode);
        close(fd);
        return -1;
    }
    /* Truncated only now, once it is known to be a regular file. */
    if (mode == OUTPUT_TRUNCATE && ftruncate(fd, 0) != 0) {
        fail_errno(error, path, errno);
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

FILE *output_file_open(const char *path, OutputMode mode, GError **error)
{
    int fd = open_regular(path, mode, error);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, mode == OUTPUT_APPEND ? "a" : "w");
    if (!f) {
        fail_errno(error, path, errno);
        close(fd);
    }
    return f;
}

gboolean output_file_close(FILE *f, const char *path, GError **error)
{
    errno = 0;
    gboolean failed = fflush(f) != 0 || ferror(f);
    int err = errno;
    if (fclose(f) != 0 && !failed) {
        failed = TRUE;
        err = errno;
    }
    return failed ? fail_errno(error, path, err ? err : EIO) : TRUE;
}

gboolean output_file_write(const char *path, OutputMode mode, const void *data, gsize len, GError **error)
{
    FILE *f = output_file_open(path, mode, error);
    if (!f)
        return FALSE;
    if (len && fwrite(data, 1, len, f) != len) {
        int err = errno;
        fclose(f);
        return fail_errno(error, path, err ? err : EIO);
    }
    return output_file_close(f, path, error);
}

/* The file `path` names at the end of its links (itself when it is none); NULL with the error
 * for a loop. */
static char *link_target(const char *path, GError **error)
{
    char *cur = g_strdup(path);
    for (guint steps = 0; steps < OUTPUT_MAX_LINKS; steps++) {
        g_autofree char *target = g_file_read_link(cur, NULL);
        if (!target)
            return cur;
        g_autofree char *dir = g_path_get_dirname(cur);
        g_free(cur);
        cur = g_canonicalize_filename(target, dir);
    }
    g_free(cur);
    fail_errno(error, path, ELOOP);
    return NULL;
}

gboolean output_file_replace(const char *path, const void *data, gsize len, GError **error)
{
    g_autofree char *file = link_target(path, error);
    if (!file || !output_file_check(file, error))
        return FALSE;
    g_autofree char *tmp = g_strconcat(file, ".tmp", NULL);
    g_unlink(tmp);   /* one a killed writer left */
    int fd = open_regular(tmp, OUTPUT_NEW, error);
    if (fd < 0)
        return FALSE;
    struct stat old;
    if (stat(file, &old) == 0)
        fchmod(fd, old.st_mode & 07777);   /* the file keeps its mode */
    const char *p = data;
    gsize left = len;
    while (left) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int err = n < 0 ? errno : EIO;
            close(fd);
            g_unlink(tmp);
            return fail_errno(error, tmp, err);
        }
        p += n;
        left -= (gsize)n;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        int err = errno;
        g_unlink(tmp);
        return fail_errno(error, tmp, err);
    }
    if (g_rename(tmp, file) != 0) {
        int err = errno;
        g_unlink(tmp);
        return fail_errno(error, file, err);
    }
    return TRUE;
}
