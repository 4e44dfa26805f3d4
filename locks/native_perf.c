/* Hardware counters (see native_perf.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "locks/native_perf.h"

const char *const native_perf_names[NATIVE_CTR_N] = { "cycles", "instructions", "machine_clears_memory_ordering" };

/* In native_perf_names order.  Required counters make the set: without one, none is counted. */
static const struct {
    uint32_t type;
    uint64_t config;
    gboolean required, intel_only;
} counters[NATIVE_CTR_N] = {
    { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, TRUE, FALSE },
    { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, TRUE, FALSE },
    /* MACHINE_CLEARS.MEMORY_ORDERING: event 0xC3, umask 0x02 on Intel Core since Nehalem
     * (Intel SDM vol. 3B, performance-monitoring events). */
    { PERF_TYPE_RAW, 0x02C3, FALSE, TRUE },
};

gboolean native_perf_host_is_intel(void)
{
    g_autofree char *info = NULL;
    return g_file_get_contents("/proc/cpuinfo", &info, NULL, NULL) && strstr(info, "GenuineIntel");
}

static int perf_open(uint32_t type, uint64_t config)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.disabled = 1;
    a.exclude_kernel = 1;   /* user space only: allowed at perf_event_paranoid 2 */
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

void native_perf_open(NativePerf *p, gboolean intel)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < NATIVE_CTR_N; i++)
        p->fd[i] = -1;
    for (int i = 0; i < NATIVE_CTR_N; i++) {
        if (counters[i].intel_only && !intel)
            continue;
        p->fd[i] = perf_open(counters[i].type, counters[i].config);
        if (p->fd[i] >= 0) {
            p->counted[i] = TRUE;
        } else if (counters[i].required) {
            p->err = errno;
            for (int k = 0; k < NATIVE_CTR_N; k++) {
                if (p->fd[k] >= 0)
                    close(p->fd[k]);
                p->fd[k] = -1;
                p->counted[k] = FALSE;
            }
            return;
        }
    }
}

void native_perf_start(NativePerf *p)
{
    for (int i = 0; i < NATIVE_CTR_N; i++)
        if (p->fd[i] >= 0)
            ioctl(p->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

void native_perf_stop(NativePerf *p)
{
    for (int i = 0; i < NATIVE_CTR_N; i++) {
        if (p->fd[i] < 0)
            continue;
        ioctl(p->fd[i], PERF_EVENT_IOC_DISABLE, 0);
        uint64_t v = 0;
        if (read(p->fd[i], &v, sizeof v) == sizeof v)
            p->value[i] = v;
        close(p->fd[i]);
        p->fd[i] = -1;
    }
}

char *native_perf_unavailable(const NativePerf *p)
{
    if (p->counted[NATIVE_CTR_CYCLES])
        return NULL;
    g_autofree char *paranoid = NULL;
    g_file_get_contents("/proc/sys/kernel/perf_event_paranoid", &paranoid, NULL, NULL);
    return g_strdup_printf("unavailable (perf_event_open: %s%s%s)", p->err ? g_strerror(p->err) : "not opened",
                           paranoid ? "; kernel.perf_event_paranoid=" : "", paranoid ? g_strstrip(paranoid) : "");
}
