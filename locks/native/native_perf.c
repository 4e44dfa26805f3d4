/* Hardware counters (see native_perf.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "locks/native/native_perf.h"

static const CounterInfo native_perf_rows[] = {
    COUNTER_ROW(NativePerfStats, cycles, "cycles", "core cycles in user space, all threads (PERF_COUNT_HW_CPU_CYCLES)"),
    COUNTER_ROW(NativePerfStats, instructions, "ops",
                "instructions retired in user space, all threads (PERF_COUNT_HW_INSTRUCTIONS)"),
    COUNTER_ROW(NativePerfStats, machine_clears_memory_ordering, "events",
                "memory-ordering machine clears, Intel cores only (MACHINE_CLEARS.MEMORY_ORDERING)"),
};
const CounterRegistry native_perf_registry = { "NativePerfStats", native_perf_rows, G_N_ELEMENTS(native_perf_rows),
                                               sizeof(NativePerfStats) };
G_STATIC_ASSERT(G_N_ELEMENTS(native_perf_rows) == NATIVE_CTR_N);

/* In the registry's row order.  Required events make the set: without one, none is counted. */
static const struct {
    uint32_t type;
    uint64_t config;
    gboolean required, intel_only;
} events[NATIVE_CTR_N] = {
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
        if (events[i].intel_only && !intel)
            continue;
        p->fd[i] = perf_open(events[i].type, events[i].config);
        if (p->fd[i] >= 0) {
            p->counted[i] = TRUE;
        } else if (events[i].required) {
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
            *(guint64 *)((char *)&p->stats + native_perf_rows[i].offset) = v;
        close(p->fd[i]);
        p->fd[i] = -1;
    }
}

static char *why_unavailable(const NativePerf *p)
{
    g_autofree char *paranoid = NULL;
    g_file_get_contents("/proc/sys/kernel/perf_event_paranoid", &paranoid, NULL, NULL);
    return g_strdup_printf("perf_event_open: %s%s%s", p->err ? g_strerror(p->err) : "not opened",
                           paranoid ? "; kernel.perf_event_paranoid=" : "", paranoid ? g_strstrip(paranoid) : "");
}

char *native_perf_total(NativePerf *const *threads, guint n, NativePerfStats *total,
                        CounterInfo rows[NATIVE_CTR_N], CounterRegistry *counted)
{
    memset(total, 0, sizeof *total);
    gboolean all[NATIVE_CTR_N];
    for (int i = 0; i < NATIVE_CTR_N; i++)
        all[i] = n > 0;
    for (guint t = 0; t < n; t++) {
        /* The required events open together or not at all (native_perf_open). */
        if (!threads[t]->counted[NATIVE_CTR_CYCLES])
            return why_unavailable(threads[t]);
        counters_add(&native_perf_registry, total, &threads[t]->stats);
        for (int i = 0; i < NATIVE_CTR_N; i++)
            all[i] = all[i] && threads[t]->counted[i];
    }
    guint k = 0;
    for (int i = 0; i < NATIVE_CTR_N; i++)
        if (all[i])
            rows[k++] = native_perf_rows[i];
    *counted = (CounterRegistry){ native_perf_registry.name, rows, k, sizeof(NativePerfStats) };
    return NULL;
}
