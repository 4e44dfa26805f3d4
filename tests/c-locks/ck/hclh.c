/* Concurrency Kit 0.7.1's hierarchical CLH lock (ck_spinlock_hclh, the system's
 * <ck_spinlock.h>) behind the lockhammer contract (docs/c-locks.md): threads 2k and 2k+1 are a
 * cluster with a local queue, spliced into the global one.  The queues start at unowned nodes,
 * addresses ck sets at run time: they are globals of their own, set up once by thread 0.  A
 * thread's node is the one unlock last gave it back. */
#include "ck_wrap.h"

#define CLUSTERS (CK_WRAP_THREADS / 2)
static ck_spinlock_hclh_t *global __attribute__((aligned(64)));
static ck_spinlock_hclh_t *local[CLUSTERS] __attribute__((aligned(64)));
static ck_spinlock_hclh_t unowned[1 + CLUSTERS] __attribute__((aligned(64)));
static ck_spinlock_hclh_t nodes[CK_WRAP_THREADS] __attribute__((aligned(64)));
static ck_spinlock_hclh_t *mine[CK_WRAP_THREADS];

static void setup(void)
{
    ck_spinlock_hclh_init(&global, &unowned[0], -1);
    for (int c = 0; c < CLUSTERS; c++)
        ck_spinlock_hclh_init(&local[c], &unowned[1 + c], c);
}

void thread_local_init(unsigned long threadnum)
{
    CK_WRAP_CHECK(threadnum);
    mine[threadnum] = &nodes[threadnum];
    CK_WRAP_ONCE(threadnum, setup());
}

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    (void)lock;
    ck_spinlock_hclh_lock(&global, &local[threadnum / 2], mine[threadnum]);
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)lock;
    ck_spinlock_hclh_unlock(&mine[threadnum]);
}
