/* One writer per results folder: DIR/sweep.lock, held with flock(2) while a sweep or a merge
 * writes DIR.  A second one on the same folder stops at once (exit 2) naming the holder, rather
 * than both running every point and interleaving their rows.  The kernel drops the lock when
 * its holder exits, however it exits, so a killed sweep leaves no stale lock; the file stays
 * (removing it could let two processes lock two different files of the same name). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include "sim/sweep/sweep.h"

gboolean sweep_out_lock(const char *dir, int *fd, GError **error)
{
    *fd = -1;
    g_autofree char *path = g_build_filename(dir, SWEEP_LOCK_FILE, NULL);
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (f < 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", path, g_strerror(errno));
        return FALSE;
    }
    if (flock(f, LOCK_EX | LOCK_NB) != 0) {
        int err = errno;
        char holder[256] = "";
        ssize_t n = pread(f, holder, sizeof holder - 1, 0);
        holder[n > 0 ? n : 0] = '\0';
        g_strstrip(holder);
        close(f);
        if (err == EWOULDBLOCK)
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_BUSY,
                        "%s: another sweep is writing this folder (%s; %s); wait for it to finish, or choose "
                        "another --out", dir, *holder ? holder : "holder unknown", path);
        else
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", path, g_strerror(err));
        return FALSE;
    }
    g_autofree char *me = g_strdup_printf("pid %d on %s\n", (int)getpid(), g_get_host_name());
    if (ftruncate(f, 0) != 0 || pwrite(f, me, strlen(me), 0) != (ssize_t)strlen(me)) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", path, g_strerror(errno));
        close(f);
        return FALSE;
    }
    *fd = f;
    return TRUE;
}

void sweep_out_unlock(int fd)
{
    if (fd >= 0)
        close(fd);   /* releases the flock */
}
