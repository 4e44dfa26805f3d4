/* A broken test-and-set for the C front end's tests: the test and the set are two plain
 * accesses, not one atomic exchange, so two threads can both see the word free and both take
 * the lock.  `qsim verify` must fail it, quoting this file's lines. */
#include <stdint.h>

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    while (__atomic_load_n(lock, __ATOMIC_ACQUIRE) != 0)
        __builtin_ia32_pause();
    __atomic_store_n(lock, 1, __ATOMIC_RELAXED);
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}
