/* Concurrency Kit 0.7.1's fetch-and-store spinlock (ck_spinlock_fas, the system's
 * <ck_spinlock.h>) behind the lockhammer contract (docs/c-locks.md). */
#include "ck_wrap.h"

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    ck_spinlock_fas_lock((ck_spinlock_fas_t *)lock);
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    ck_spinlock_fas_unlock((ck_spinlock_fas_t *)lock);
}
