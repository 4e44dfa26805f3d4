/* Concurrency Kit 0.7.1's MCS queue lock (ck_spinlock_mcs, the system's <ck_spinlock.h>) behind
 * the lockhammer contract (docs/c-locks.md): the harness's lock word is the queue's tail (NULL:
 * free), each thread queues its own node. */
#include "ck_wrap.h"

static ck_spinlock_mcs_context_t node[CK_WRAP_THREADS] __attribute__((aligned(64)));

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    CK_WRAP_CHECK(threadnum);
    ck_spinlock_mcs_lock((ck_spinlock_mcs_t *)lock, &node[threadnum]);
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    ck_spinlock_mcs_unlock((ck_spinlock_mcs_t *)lock, &node[threadnum]);
}
