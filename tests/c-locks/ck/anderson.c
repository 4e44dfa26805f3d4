/* Concurrency Kit 0.7.1's Anderson array lock (ck_spinlock_anderson, the system's
 * <ck_spinlock.h>) behind the lockhammer contract (docs/c-locks.md): a slot per thread, up to
 * ANDERSON_SLOTS threads (a power of two; default 64, -DANDERSON_SLOTS=N to change).  The lock
 * points at its slots, an address ck sets at run time: it is a global of its own, set up once
 * by thread 0.  Each thread keeps the slot it got for its unlock. */
#include "ck_wrap.h"

#ifndef ANDERSON_SLOTS
#define ANDERSON_SLOTS CK_WRAP_THREADS
#endif
static ck_spinlock_anderson_t anderson __attribute__((aligned(64)));
static ck_spinlock_anderson_thread_t slots[ANDERSON_SLOTS] __attribute__((aligned(64)));
static ck_spinlock_anderson_thread_t *held[CK_WRAP_THREADS];

void thread_local_init(unsigned long threadnum)
{
    CK_WRAP_CHECK(threadnum);
    CK_WRAP_ONCE(threadnum, ck_spinlock_anderson_init(&anderson, slots, ANDERSON_SLOTS));
}

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    (void)lock;
    ck_spinlock_anderson_lock(&anderson, &held[threadnum]);
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)lock;
    ck_spinlock_anderson_unlock(&anderson, held[threadnum]);
}
