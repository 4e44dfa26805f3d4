/* The timed kernels of `qsim calibrate` (see calib_bench.h).  Inline asm keeps each loop the
 * shape it is meant to have: 16 copies of the instruction per iteration, the loop counter off
 * the measured dependence chain. */
#include <stdint.h>
#include <time.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif
#include "sim/calibrate/calib_bench.h"

/* GCC may clone or inline-analyse a noinline function; seed 003's body must stay a real call. */
#if defined(__clang__)
#define CALIB_REAL_CALL __attribute__((noinline))
#else
#define CALIB_REAL_CALL __attribute__((noipa))
#endif

uint64_t calib_ticks(void)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory");
    return v;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

uint64_t calib_dependent_adds(uint64_t iters)
{
    uint64_t acc = 0;
    if (!iters)
        return 0;
#if defined(__x86_64__)
    __asm__ __volatile__("1:\n\t.rept 16\n\tadd $1, %0\n\t.endr\n\tdec %1\n\tjnz 1b"
                         : "+r"(acc), "+r"(iters) : : "cc");
#elif defined(__aarch64__)
    __asm__ __volatile__("1:\n\t.rept 16\n\tadd %0, %0, #1\n\t.endr\n\tsubs %1, %1, #1\n\tb.ne 1b"
                         : "+r"(acc), "+r"(iters) : : "cc");
#else
    for (uint64_t i = 0; i < iters; i++)
        for (int k = 0; k < 16; k++)
            __asm__ __volatile__("" : "+r"(acc));
#endif
    return acc;
}

void *calib_chase(void *p, uint64_t n)
{
    void **q = p;
    for (uint64_t i = n / 8; i; i--) {
        q = *q; q = *q; q = *q; q = *q;
        q = *q; q = *q; q = *q; q = *q;
    }
    for (uint64_t i = n % 8; i; i--)
        q = *q;
    return q;
}

void calib_flush(const void *line)
{
#if defined(__x86_64__)
    __asm__ __volatile__("clflush (%0)" : : "r"(line) : "memory");
#elif defined(__aarch64__)
    /* Linux sets SCTLR_EL1.UCI, so EL0 may clean and invalidate by address. */
    __asm__ __volatile__("dc civac, %0\n\tdsb ish" : : "r"(line) : "memory");
#else
    (void)line;
#endif
}

void calib_full_fence(void)
{
#if defined(__x86_64__)
    __asm__ __volatile__("mfence" : : : "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("dmb ish" : : : "memory");
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

void calib_store_lines(void *const *lines, unsigned k, size_t offset)
{
    for (unsigned i = 0; i < k; i++) {
        __atomic_store_n((uint64_t *)((char *)lines[i] + offset), 0, __ATOMIC_RELAXED);
        calib_full_fence();
    }
}

void *calib_cas_chain(void *p, unsigned k)
{
    for (unsigned i = 0; i < k; i++) {
        void *expected = NULL;
        __atomic_compare_exchange_n((void **)p, &expected, NULL, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        p = expected;
    }
    return p;
}

uint64_t calib_read_lines(void *const *lines, unsigned k)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < k; i++)
        sum += __atomic_load_n((const uint64_t *)lines[i], __ATOMIC_RELAXED);
    return sum;
}

/* ======================================================================================
 * Instructions, hot
 * ====================================================================================== */

static volatile int calib_seed_x;

/* Seed 003's body with `barrier` (a statement using `hot`), and the loop that calls it. */
#define CALIB_SEED_LOOP(fn, barrier)                                                        \
    static CALIB_REAL_CALL void fn##_body(int i, int *j, uint64_t *hot)                     \
    {                                                                                       \
        (void)hot;                                                                          \
        calib_seed_x = i - *j;                                                              \
        barrier;                                                                            \
        *j = calib_seed_x;                                                                  \
    }                                                                                       \
    static void fn(uint64_t iters, uint64_t *hot)                                           \
    {                                                                                       \
        int j = 1234;                                                                       \
        for (uint64_t i = 0; i < iters; i++)                                                \
            fn##_body((int)i, &j, hot);                                                     \
    }

CALIB_SEED_LOOP(seed_none, __asm__ __volatile__("" : : : "memory"))

void calib_insn_loop_baseline(uint64_t iters, uint64_t *hot)
{
    seed_none(iters, hot);
}

#if defined(__x86_64__)

/* 16 copies of `insn` per iteration; %[m] is the hot line, %[v] a register, rax `expected`. */
#define CALIB_B2B(fn, insn)                                                                 \
    static void fn(uint64_t iters, uint64_t *hot)                                           \
    {                                                                                       \
        uint64_t v = 0, expected = 0;                                                       \
        *hot = 0;                                                                           \
        if (!iters)                                                                         \
            return;                                                                         \
        __asm__ __volatile__("1:\n\t.rept 16\n\t" insn "\n\t.endr\n\tdec %[n]\n\tjnz 1b"    \
                             : [n] "+r"(iters), [v] "+r"(v), "+a"(expected)                 \
                             : [m] "r"(hot)                                                 \
                             : "memory", "cc");                                             \
    }

CALIB_B2B(b2b_lock_cmpxchg, "lock cmpxchg %[v], (%[m])")
CALIB_B2B(b2b_lock_xadd, "lock xadd %[v], (%[m])")
CALIB_B2B(b2b_xchg, "xchg %[v], (%[m])")
CALIB_B2B(b2b_mfence, "mfence")
CALIB_B2B(b2b_lfence, "lfence")
CALIB_B2B(b2b_sfence, "sfence")
CALIB_B2B(b2b_pause, "pause")

#define CALIB_X86_BARRIER(insn)                                                             \
    do {                                                                                    \
        uint64_t v_ = 0, e_ = 0;                                                            \
        __asm__ __volatile__(insn : [v] "+r"(v_), "+a"(e_) : [m] "r"(hot) : "memory", "cc"); \
    } while (0)

CALIB_SEED_LOOP(loop_lock_cmpxchg, CALIB_X86_BARRIER("lock cmpxchg %[v], (%[m])"))
CALIB_SEED_LOOP(loop_lock_xadd, CALIB_X86_BARRIER("lock xadd %[v], (%[m])"))
CALIB_SEED_LOOP(loop_xchg, CALIB_X86_BARRIER("xchg %[v], (%[m])"))
CALIB_SEED_LOOP(loop_mfence, CALIB_X86_BARRIER("mfence"))
CALIB_SEED_LOOP(loop_lfence, CALIB_X86_BARRIER("lfence"))
CALIB_SEED_LOOP(loop_sfence, CALIB_X86_BARRIER("sfence"))
CALIB_SEED_LOOP(loop_pause, CALIB_X86_BARRIER("pause"))

static const CalibInsnKernel calib_kernels[] = {
    { CALIB_INSN_LOCK_CMPXCHG, "lock cmpxchg", b2b_lock_cmpxchg, loop_lock_cmpxchg },
    { CALIB_INSN_LOCK_XADD, "lock xadd", b2b_lock_xadd, loop_lock_xadd },
    { CALIB_INSN_XCHG, "xchg", b2b_xchg, loop_xchg },
    { CALIB_INSN_MFENCE, "mfence", b2b_mfence, loop_mfence },
    { CALIB_INSN_LFENCE, "lfence", b2b_lfence, loop_lfence },
    { CALIB_INSN_SFENCE, "sfence", b2b_sfence, loop_sfence },
    { CALIB_INSN_PAUSE, "pause", b2b_pause, loop_pause },
};

#elif defined(__aarch64__)

/* 16 copies per iteration; %[m] the hot line, %[v] the value (0), %[e] expected (0), %[o] and
 * %w[s] scratch.  LSE mnemonics need the extension named to the assembler. */
#define CALIB_B2B(fn, insn)                                                                 \
    static void fn(uint64_t iters, uint64_t *hot)                                           \
    {                                                                                       \
        uint64_t v = 0, e = 0, o = 0, s = 0;                                                \
        *hot = 0;                                                                           \
        if (!iters)                                                                         \
            return;                                                                         \
        __asm__ __volatile__(".arch_extension lse\n\t"                                      \
                             "1:\n\t.rept 16\n\t" insn "\n\t.endr\n\tsubs %[n], %[n], #1\n\tb.ne 1b" \
                             : [n] "+r"(iters), [e] "+r"(e), [o] "=&r"(o), [s] "=&r"(s)     \
                             : [m] "r"(hot), [v] "r"(v)                                     \
                             : "memory", "cc");                                             \
    }

#define CALIB_LLSC_CAS                                                                      \
    "10: ldaxr %[o], [%[m]]\n\tcmp %[o], %[e]\n\tb.ne 11f\n\t"                              \
    "stlxr %w[s], %[v], [%[m]]\n\tcbnz %w[s], 10b\n11:"

CALIB_B2B(b2b_casal, "casal %[e], %[v], [%[m]]")
CALIB_B2B(b2b_ldaddal, "ldaddal %[v], %[o], [%[m]]")
CALIB_B2B(b2b_swpal, "swpal %[v], %[o], [%[m]]")
CALIB_B2B(b2b_llsc_cas, CALIB_LLSC_CAS)
CALIB_B2B(b2b_dmb_ish, "dmb ish")
CALIB_B2B(b2b_dmb_ishld, "dmb ishld")
CALIB_B2B(b2b_dmb_ishst, "dmb ishst")
CALIB_B2B(b2b_yield, "yield")

#define CALIB_ARM_BARRIER(insn)                                                             \
    do {                                                                                    \
        uint64_t v_ = 0, e_ = 0, o_, s_;                                                    \
        __asm__ __volatile__(".arch_extension lse\n\t" insn                                 \
                             : [e] "+r"(e_), [o] "=&r"(o_), [s] "=&r"(s_)                   \
                             : [m] "r"(hot), [v] "r"(v_)                                    \
                             : "memory", "cc");                                             \
    } while (0)

CALIB_SEED_LOOP(loop_casal, CALIB_ARM_BARRIER("casal %[e], %[v], [%[m]]"))
CALIB_SEED_LOOP(loop_ldaddal, CALIB_ARM_BARRIER("ldaddal %[v], %[o], [%[m]]"))
CALIB_SEED_LOOP(loop_swpal, CALIB_ARM_BARRIER("swpal %[v], %[o], [%[m]]"))
CALIB_SEED_LOOP(loop_llsc_cas, CALIB_ARM_BARRIER(CALIB_LLSC_CAS))
CALIB_SEED_LOOP(loop_dmb_ish, CALIB_ARM_BARRIER("dmb ish"))
CALIB_SEED_LOOP(loop_dmb_ishld, CALIB_ARM_BARRIER("dmb ishld"))
CALIB_SEED_LOOP(loop_dmb_ishst, CALIB_ARM_BARRIER("dmb ishst"))
CALIB_SEED_LOOP(loop_yield, CALIB_ARM_BARRIER("yield"))

#ifndef HWCAP_ATOMICS
#define HWCAP_ATOMICS (1 << 8)
#endif
static int have_lse(void)
{
    return (getauxval(AT_HWCAP) & HWCAP_ATOMICS) != 0;
}

static const CalibInsnKernel calib_kernels[] = {
    { CALIB_INSN_CASAL, "casal (LSE)", b2b_casal, loop_casal },
    { CALIB_INSN_LDADDAL, "ldaddal (LSE)", b2b_ldaddal, loop_ldaddal },
    { CALIB_INSN_SWPAL, "swpal (LSE)", b2b_swpal, loop_swpal },
    { CALIB_INSN_LLSC_CAS, "ldaxr/stlxr cas (LL/SC)", b2b_llsc_cas, loop_llsc_cas },
    { CALIB_INSN_DMB_ISH, "dmb ish", b2b_dmb_ish, loop_dmb_ish },
    { CALIB_INSN_DMB_ISHLD, "dmb ishld", b2b_dmb_ishld, loop_dmb_ishld },
    { CALIB_INSN_DMB_ISHST, "dmb ishst", b2b_dmb_ishst, loop_dmb_ishst },
    { CALIB_INSN_YIELD, "yield", b2b_yield, loop_yield },
};

#endif

static const char *const calib_insn_names[CALIB_INSN__N] = {
    [CALIB_INSN_LOCK_CMPXCHG] = "lock cmpxchg", [CALIB_INSN_LOCK_XADD] = "lock xadd",
    [CALIB_INSN_XCHG] = "xchg", [CALIB_INSN_MFENCE] = "mfence", [CALIB_INSN_LFENCE] = "lfence",
    [CALIB_INSN_SFENCE] = "sfence", [CALIB_INSN_PAUSE] = "pause",
    [CALIB_INSN_CASAL] = "casal (LSE)", [CALIB_INSN_LDADDAL] = "ldaddal (LSE)",
    [CALIB_INSN_SWPAL] = "swpal (LSE)", [CALIB_INSN_LLSC_CAS] = "ldaxr/stlxr cas (LL/SC)",
    [CALIB_INSN_DMB_ISH] = "dmb ish", [CALIB_INSN_DMB_ISHLD] = "dmb ishld",
    [CALIB_INSN_DMB_ISHST] = "dmb ishst", [CALIB_INSN_YIELD] = "yield",
};

const char *calib_insn_name(CalibInsn id)
{
    return id < CALIB_INSN__N ? calib_insn_names[id] : "?";
}

const CalibInsnKernel *calib_insn_kernels(unsigned *n)
{
#if defined(__x86_64__)
    *n = sizeof calib_kernels / sizeof calib_kernels[0];
    return calib_kernels;
#elif defined(__aarch64__)
    /* The LSE rows come first: without LSE only the rest run. */
    if (have_lse()) {
        *n = sizeof calib_kernels / sizeof calib_kernels[0];
        return calib_kernels;
    }
    *n = sizeof calib_kernels / sizeof calib_kernels[0] - 3;
    return calib_kernels + 3;
#else
    *n = 0;
    return NULL;
#endif
}

int calib_have_wfe(void)
{
#if defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}

uint64_t calib_wfe_wait(const volatile uint64_t *flag, uint64_t old)
{
#if defined(__aarch64__)
    /* SEVL makes the first WFE fall through; LDAXR arms the monitor, and a store by another
     * CPU to the line clears it, which is a wake-up event. */
    uint64_t v;
    __asm__ __volatile__("sevl\n"
                         "1:\twfe\n\t"
                         "ldaxr %0, [%1]\n\t"
                         "cmp %0, %2\n\t"
                         "b.eq 1b\n\t"
                         "clrex"
                         : "=&r"(v) : "r"(flag), "r"(old) : "memory", "cc");
    return calib_ticks();
#else
    (void)flag;
    (void)old;
    return 0;
#endif
}
