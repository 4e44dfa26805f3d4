/* qspin-cmpxchg: the qspin example (qspin.c: Linux v4.3's queued spinlock) with the seed patch
 * (seed 000 of this project) applied, as qsim's locks/qspin-cmpxchg.qs has it.  Two places
 * change, everything else is qspin.c's:
 *   - the pending owner, instead of waiting for the locked byte to clear and then storing
 *     locked=1 pending=0, spins on cmpxchg16(locked_pending, PENDING -> LOCKED) until it returns
 *     PENDING: the one atomic both waits for the owner and takes the lock;
 *   - the queue head reads node->next once, then spins on cmpxchg16(locked_pending, 0 -> LOCKED)
 *     re-reading node->next each time round; holding the lock, it hands off at once when a next
 *     node was seen, else clears the tail with cmpxchg(tail|LOCKED -> LOCKED) if it is still
 *     ours alone (set_locked is dropped: locked is already set).
 * On x86 each failing LOCK CMPXCHG still takes the line exclusive: the cost the patch's
 * reviewers pointed to.  The 16-bit locked_pending field needs fewer than 16K CPUs. */
#include <stdint.h>

#define LOCKED 1u
#define PENDING (1u << 8)
#define LOCKED_MASK 0xffu
#define LOCKED_PENDING_MASK 0xffffu
#define TAIL_SHIFT 16
#define MAX_THREADS 64

struct node {
    struct node *next;
    uint32_t locked;
};

static struct node nodes[MAX_THREADS];

/* The word's parts, little-endian: the locked byte, locked+pending, the tail. */
static inline uint32_t *word(uint64_t *lock) { return (uint32_t *)lock; }
static inline uint8_t *locked_byte(uint64_t *lock) { return (uint8_t *)lock; }
static inline uint16_t *locked_pending(uint64_t *lock) { return (uint16_t *)lock; }
static inline uint16_t *tail_half(uint64_t *lock) { return (uint16_t *)lock + 1; }

static inline uint32_t cmpxchg(uint32_t *p, uint32_t old, uint32_t new_value)
{
    __atomic_compare_exchange_n(p, &old, new_value, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
    return old;
}

static inline uint16_t cmpxchg16(uint16_t *p, uint16_t old, uint16_t new_value)
{
    __atomic_compare_exchange_n(p, &old, new_value, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
    return old;
}

void lock_acquire(uint64_t *lock, unsigned long threadnum)
{
    uint32_t *w = word(lock);
    uint32_t val = cmpxchg(w, 0, LOCKED);
    if (val == 0)
        return;
    if (val == PENDING)             /* a hand-over in flight: wait for it */
        while ((val = __atomic_load_n(w, __ATOMIC_RELAXED)) == PENDING)
            __builtin_ia32_pause();
    uint32_t new_value;
    for (;;) {
        if (val & ~LOCKED_MASK)
            goto queue;             /* pending or a tail: get in line */
        new_value = val ? (LOCKED | PENDING) : LOCKED;
        uint32_t old = cmpxchg(w, val, new_value);
        if (old == val)
            break;
        val = old;
    }
    if (new_value == LOCKED)
        return;                     /* it came free: ours */
    /* We own pending: one cmpxchg both waits for the owner and takes the lock. */
    while (cmpxchg16(locked_pending(lock), (uint16_t)PENDING, (uint16_t)LOCKED) != PENDING)
        __builtin_ia32_pause();
    return;

queue:;
    struct node *node = &nodes[threadnum];
    node->locked = 0;
    node->next = 0;
    uint32_t tail = (uint32_t)(threadnum + 1) << TAIL_SHIFT;
    uint32_t prev_tail = (uint32_t)__atomic_exchange_n(tail_half(lock), (uint16_t)(tail >> TAIL_SHIFT),
                                                       __ATOMIC_RELEASE) << TAIL_SHIFT;
    if (prev_tail) {
        struct node *prev = &nodes[(prev_tail >> TAIL_SHIFT) - 1];
        __atomic_store_n(&prev->next, node, __ATOMIC_RELAXED);
        while (!__atomic_load_n(&node->locked, __ATOMIC_ACQUIRE))
            __builtin_ia32_pause();
    }
    /* Head of the queue: take locked+pending from 0 with cmpxchg, watching node->next. */
    struct node *next = __atomic_load_n(&node->next, __ATOMIC_RELAXED);
    while (cmpxchg16(locked_pending(lock), 0, (uint16_t)LOCKED) != 0) {
        __builtin_ia32_pause();
        next = __atomic_load_n(&node->next, __ATOMIC_RELAXED);
    }
    if (!next) {
        val = __atomic_load_n(w, __ATOMIC_ACQUIRE);
        if (val == (tail | LOCKED) && cmpxchg(w, tail | LOCKED, LOCKED) == (tail | LOCKED))
            return;                 /* nobody behind us: the queue is empty again */
        while (!(next = __atomic_load_n(&node->next, __ATOMIC_RELAXED)))
            __builtin_ia32_pause();
    }
    __atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    __atomic_store_n(locked_byte(lock), (uint8_t)0, __ATOMIC_RELEASE);
}
