/* tas: test-and-set spinlock, the simplest lock there is (Anderson, IEEE TPDS 1990, names it
 * and measures it); written here with GCC's __atomic builtins, as lockhammer's tas lock.
 * The contract (docs/c-locks.md): lock_acquire and lock_release on the harness's lock word. */
#include <stdint.h>

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE) != 0)
        __builtin_ia32_pause();
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}
