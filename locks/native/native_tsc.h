/* The clocks of a native run: the time-stamp counter that marks read (per-acquisition
 * timestamps), CLOCK_MONOTONIC for spans, and what a work unit costs on this host. */
#ifndef QSIM_NATIVE_TSC_H
#define QSIM_NATIVE_TSC_H

#include <stdint.h>
#include <time.h>
#include <glib.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* Nanoseconds of CLOCK_MONOTONIC. */
static inline uint64_t native_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The cheapest clock the host has, for per-acquisition timestamps: the TSC (RDTSCP waits for
 * older instructions, so it is read after the lock's acquiring load), or CNTVCT_EL0 behind an
 * ISB on arm64, or CLOCK_MONOTONIC. */
static inline uint64_t native_tsc_read(void)
{
#if defined(__x86_64__)
    unsigned aux;
    return __rdtscp(&aux);
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
#else
    return native_now_ns();
#endif
}

/* Whether the counter's span is reported as `cycles` (x86: TSC cycles). */
gboolean native_tsc_is_cycles(void);
/* What reported latencies count: "tsc_cycles" on x86, else "ns" (arm64's generic timer runs at
 * tens of MHz, so its ticks are converted). */
const char *native_tsc_unit(void);
/* How many of that unit one tick of the counter is (1 on x86). */
double native_tsc_unit_per_tick(void);

/* ns per work unit (`work 1`: one iteration of qn_work), measured over about a millisecond. */
double native_work_unit_ns(void);

#endif
