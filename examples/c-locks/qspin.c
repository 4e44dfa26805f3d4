/* qspin: the Linux generic queued spinlock's slow path, v4.3 without paravirt
 * (kernel/locking/qspinlock.c, Waiman Long and Peter Zijlstra, 2015), as qsim's locks/qspin.qs
 * follows it, in C.  One 32-bit lock word: bits 0-7 the locked byte, bit 8 the pending bit, bits
 * 16-31 the tail: the queue's last waiter as (thread + 1); each thread's MCS node is its slot of
 * `nodes` (Linux has four per CPU for nesting; a lock taken by threads needs one).
 *
 * Lock: the fast path is cmpxchg(0 -> LOCKED).  Else, with the value seen: a pending hand-over
 * in flight is waited out; while only the locked byte is set, cmpxchg to set pending (or the
 * lock, if it came free); the pending owner waits for the locked byte to clear and takes the
 * lock with one 16-bit store (clear_pending_set_locked).  Otherwise queue: swap our tail into
 * the word's upper half, link behind the previous tail and wait for our node's hand-off, wait
 * for locked and pending to clear, then claim (cmpxchg from our tail alone, or set the locked
 * byte when others queued behind us) and pass the head of the queue to the next node. */
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
    /* We own pending: wait for the owner to leave, then take the lock. */
    while (__atomic_load_n(w, __ATOMIC_ACQUIRE) & LOCKED_MASK)
        __builtin_ia32_pause();
    __atomic_store_n(locked_pending(lock), (uint16_t)LOCKED, __ATOMIC_RELAXED);
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
    /* Head of the queue: wait until neither an owner nor a pending waiter is left. */
    while ((val = __atomic_load_n(w, __ATOMIC_ACQUIRE)) & LOCKED_PENDING_MASK)
        __builtin_ia32_pause();
    for (;;) {
        if (val != tail) {          /* others queued behind us: keep the tail, set locked */
            __atomic_store_n(locked_byte(lock), (uint8_t)LOCKED, __ATOMIC_RELAXED);
            break;
        }
        uint32_t old = cmpxchg(w, val, LOCKED);
        if (old == val)
            return;                 /* nobody behind us: the queue is empty again */
        val = old;
    }
    struct node *next;
    while (!(next = __atomic_load_n(&node->next, __ATOMIC_RELAXED)))
        __builtin_ia32_pause();
    __atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);
}

void lock_release(uint64_t *lock, unsigned long threadnum)
{
    (void)threadnum;
    __atomic_store_n(locked_byte(lock), (uint8_t)0, __ATOMIC_RELEASE);
}
