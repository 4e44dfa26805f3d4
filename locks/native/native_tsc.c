/* The clocks of a native run (see native_tsc.h). */
#include "locks/native/native_abi.h"
#include "locks/native/native_tsc.h"

gboolean native_tsc_is_cycles(void)
{
#if defined(__x86_64__)
    return TRUE;
#else
    return FALSE;
#endif
}

const char *native_tsc_unit(void)
{
    return native_tsc_is_cycles() ? "tsc_cycles" : "ns";
}

double native_tsc_unit_per_tick(void)
{
#if defined(__aarch64__)
    uint64_t freq;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(freq));
    return freq ? 1e9 / (double)freq : 1.0;
#else
    return 1.0;
#endif
}

double native_work_unit_ns(void)
{
    /* Long enough to swamp the clock's own cost. */
    const uint64_t n = 1000000;
    uint64_t t0 = native_now_ns();
    qn_work(n);
    return (double)(native_now_ns() - t0) / (double)n;
}
