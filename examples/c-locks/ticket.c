/* ticket: the ticket lock (Reed and Kanodia, CACM 1979; Mellor-Crummey and Scott, ACM TOCS 1991,
 * section 2.2): a thread takes the next ticket with one fetch-and-add and waits until the
 * serving counter shows it.  The lock word's low 32 bits are the next ticket, the high 32 bits
 * the one being served, as in lockhammer's ticket_spinlock. */
#include <stdint.h>

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    uint32_t *next = (uint32_t *)lock, *serving = next + 1;
    uint32_t mine = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
    while (__atomic_load_n(serving, __ATOMIC_ACQUIRE) != mine)
        __builtin_ia32_pause();
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    uint32_t *serving = (uint32_t *)lock + 1;
    __atomic_store_n(serving, *serving + 1, __ATOMIC_RELEASE);
}
