/* Concurrency Kit 0.7.1's CLH queue lock (ck_spinlock_clh, the system's <ck_spinlock.h>) behind
 * the lockhammer contract (docs/c-locks.md).  The queue's tail starts at an unowned node, an
 * address, which ck sets at run time: the tail is a global of its own, set up once by thread 0.
 * A thread's node is the one unlock last gave it back, as CLH recycles them. */
#include "ck_wrap.h"

static ck_spinlock_clh_t *tail __attribute__((aligned(64)));
static ck_spinlock_clh_t nodes[CK_WRAP_THREADS + 1] __attribute__((aligned(64)));
static ck_spinlock_clh_t *mine[CK_WRAP_THREADS];

void thread_local_init(unsigned long threadnum)
{
    CK_WRAP_CHECK(threadnum);
    mine[threadnum] = &nodes[threadnum + 1];
    CK_WRAP_ONCE(threadnum, ck_spinlock_clh_init(&tail, &nodes[0]));
}

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    (void)lock;
    ck_spinlock_clh_lock(&tail, mine[threadnum]);
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)lock;
    ck_spinlock_clh_unlock(&mine[threadnum]);
}
