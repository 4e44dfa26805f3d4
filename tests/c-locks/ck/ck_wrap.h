/* What the wrappers of Concurrency Kit 0.7.1's spinlocks (tests/c-locks/ck/NAME.c) share: the
 * machine description ck is built with, and a setup made once for the locks whose state ck
 * builds at run time (pointers, slots).  The spinlocks themselves are the system's headers
 * (Debian libck-dev), included as a user of ck includes them.
 *
 * Debian packages one ck_md.h, amd64's: it says CK_MD_TSO, and on AArch64 that compiles every
 * ck_pr_fence_* away.  For an AArch64 target the wrappers give ck the description ck's own
 * configure writes for aarch64 instead (weakly ordered: CK_MD_RMO; the guard CK_MD_H defined
 * keeps the packaged file out), unless QSIM_CK_PACKAGED_MD is defined: then the packaged one is
 * used, as a Debian user cross-compiling gets it.
 *
 * Built for AArch64 with the cross compiler, the system's headers are reached with
 * --cflags "-idirafter /usr/include" (docs/c-locks.md). */
#ifndef QSIM_CK_WRAP_H
#define QSIM_CK_WRAP_H

#include <stdint.h>

#if defined(__aarch64__) && !defined(QSIM_CK_PACKAGED_MD)
#define CK_MD_H
#define CK_MD_CACHELINE (64)
#define CK_MD_PAGESIZE (4096)
#define CK_MD_RMO
#define CK_MD_VMA_BITS 48ULL
#define CK_MD_POINTER_PACK_DISABLE
#define CK_MD_RTM_DISABLE
#define CK_MD_LSE_DISABLE
#define CK_VERSION "0.7.1"
#endif
/* ck 0.7.1's LSE primitives (gcc/aarch64/ck_pr_lse.h) stop the build; built for ARMv8.1 its
 * primitives are GCC's builtins, which the compiler makes LSE instructions. */
#if defined(__aarch64__) && defined(__ARM_FEATURE_ATOMICS) && !defined(CK_USE_CC_BUILTINS)
#define CK_USE_CC_BUILTINS 1
#endif

#include <ck_spinlock.h>

/* The most threads a wrapper keeps a node or slot for (-DCK_WRAP_THREADS=N to change: a
 * smaller setup is a smaller search for `qsim verify`); a thread beyond them traps. */
#ifndef CK_WRAP_THREADS
#define CK_WRAP_THREADS 64
#endif
#define CK_WRAP_CHECK(threadnum)                                                                   \
    do {                                                                                           \
        if ((threadnum) >= CK_WRAP_THREADS)                                                        \
            __builtin_trap();                                                                      \
    } while (0)

/* Runs `setup` once, in thread 0's thread_local_init, before any thread takes the lock: the
 * others wait for it there (release and acquire, so they see what it wrote). */
static unsigned int ck_wrap_ready;
#define CK_WRAP_ONCE(threadnum, setup)                                                             \
    do {                                                                                           \
        if ((threadnum) == 0) {                                                                    \
            setup;                                                                                 \
            __atomic_store_n(&ck_wrap_ready, 1, __ATOMIC_RELEASE);                                 \
        } else {                                                                                   \
            while (!__atomic_load_n(&ck_wrap_ready, __ATOMIC_ACQUIRE))                              \
                ck_pr_stall();                                                                     \
        }                                                                                          \
    } while (0)

#endif
