/* Concurrency Kit 0.7.1's decrement spinlock (ck_spinlock_dec, the system's <ck_spinlock.h>)
 * behind the lockhammer contract (docs/c-locks.md).  Its free state is 1, not the harness's
 * zeroed word: the lock is a global of its own line, set by ck's initialiser. */
#include "ck_wrap.h"

static ck_spinlock_dec_t dec __attribute__((aligned(64))) = CK_SPINLOCK_DEC_INITIALIZER;

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    (void)lock, (void)threadnum;
    ck_spinlock_dec_lock(&dec);
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)lock, (void)threadnum;
    ck_spinlock_dec_unlock(&dec);
}
