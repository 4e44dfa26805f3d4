/* The timed kernels of `qsim calibrate`: small loops whose time per iteration is the quantity
 * measured, written so that the compiler cannot shorten them (inline asm on x86-64 and arm64).
 * Each returns or consumes a value so that no loop is dead.  Timing is the caller's. */
#ifndef QSIM_CALIB_BENCH_H
#define QSIM_CALIB_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* The counter, read behind fences so that the timed code neither starts before nor ends after
 * it: x86 LFENCE; RDTSC; LFENCE, arm64 ISB; CNTVCT_EL0; ISB. */
uint64_t calib_ticks(void);

/* 16 x `iters` dependent one-cycle adds (the clock: about one add per core cycle). */
uint64_t calib_dependent_adds(uint64_t iters);

/* Follows n pointers from p (each line's first word holds the next line's address): n
 * dependent loads, one load-to-use latency each.  Returns where it stopped. */
void *calib_chase(void *p, uint64_t n);

/* Writes back and invalidates a line from every cache (x86 CLFLUSH, arm64 DC CIVAC). */
void calib_flush(const void *line);
/* A full fence (MFENCE, DMB ISH). */
void calib_full_fence(void);

/* For the core-to-core rows.  Stores: on each of the k lines, in the given order, at byte
 * `offset`, a store followed by a full fence, so that each store waits for its line (as
 * ccbench, whose figures include that fence).  CAS: follows the chain from p as calib_chase
 * does, with a compare-and-swap that expects 0 on each line's first word: it fails and
 * returns the next line's address, so each waits for the one before (independent CAS would
 * overlap their misses).  A failing LOCK CMPXCHG still takes the line and writes it (Intel SDM:
 * "the processor never produces a locked read without also producing a locked write"); on
 * arm64 the compiler's CAS is CASAL or an LDAXR/STLXR loop. */
void calib_store_lines(void *const *lines, unsigned k, size_t offset);
void *calib_cas_chain(void *p, unsigned k);
/* Loads every line (independent loads): a helper thread taking copies. */
uint64_t calib_read_lines(void *const *lines, unsigned k);

/* The instructions timed hot, one CPU, a line of its own in L1. */
typedef enum {
    CALIB_INSN_LOCK_CMPXCHG, /* x86 */
    CALIB_INSN_LOCK_XADD,
    CALIB_INSN_XCHG,
    CALIB_INSN_MFENCE,
    CALIB_INSN_LFENCE,
    CALIB_INSN_SFENCE,
    CALIB_INSN_PAUSE,
    CALIB_INSN_CASAL,        /* arm64 LSE */
    CALIB_INSN_LDADDAL,
    CALIB_INSN_SWPAL,
    CALIB_INSN_LLSC_CAS,     /* arm64 LDAXR/STLXR compare-and-swap */
    CALIB_INSN_DMB_ISH,
    CALIB_INSN_DMB_ISHLD,
    CALIB_INSN_DMB_ISHST,
    CALIB_INSN_YIELD,
    CALIB_INSN__N
} CalibInsn;

typedef struct {
    CalibInsn id;
    const char *name;            /* "lock cmpxchg" */
    /* `iters` x 16 of the instruction back to back on `hot` (throughput, or latency where the
     * instructions serialise, as locked ones do); NULL where the host cannot run it. */
    void (*back_to_back)(uint64_t iters, uint64_t *hot);
    /* `iters` calls of seed 003's loop body with the instruction as its barrier: a noinline
     * function that stores to a global, runs the barrier, and stores again
     * (x = i - *j; barrier; *j = x), so the store buffer is not empty. */
    void (*in_loop)(uint64_t iters, uint64_t *hot);
} CalibInsnKernel;

/* The kernels this host can run, in CalibInsn order (a row per instruction of the host's
 * architecture; LSE rows only where the CPU has LSE). */
const CalibInsnKernel *calib_insn_kernels(unsigned *n);
/* Seed 003's loop with an empty barrier: the baseline `in_loop` times are taken against. */
void calib_insn_loop_baseline(uint64_t iters, uint64_t *hot);
/* The instruction's name (for any CalibInsn, run here or not). */
const char *calib_insn_name(CalibInsn id);

/* arm64: whether WFE wake-up can be timed (an exclusive monitor and WFE), and one wake-up: the
 * caller arms `flag` and sleeps in WFE until it differs from `old`; returns the counter when it
 * woke.  Elsewhere 0. */
int calib_have_wfe(void);
uint64_t calib_wfe_wait(const volatile uint64_t *flag, uint64_t old);

#endif
