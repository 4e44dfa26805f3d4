# futex-mutex: a normal pthread mutex on glibc's lowlevellock, which sleeps in futex_wait.
# As glibc 2.27 builds it (nptl pthread_mutex_lock.c, lowlevellock.h and x86_64
# lowlevellock.S); the algorithm is mutex 2 of Ulrich Drepper's "Futexes Are Tricky" (2011).
# The lock word's states: 0 free, 1 taken, 2 taken and someone may sleep
# on it.  A waiter marks the word 2 before it sleeps, and an unlock that saw 2 wakes one sleeper,
# so a wake-up cannot be lost between the waiter's check and its sleep (futex_wait compares the
# word again in the kernel).
#
# pthread_mutex_lock reads the mutex's kind first and records the owner and a user count after
# taking the lock; pthread_mutex_unlock clears the owner and the count before releasing.  All of
# these live in the mutex, in the lock word's cache line, as they do in glibc's pthread_mutex_t.
.shared lock_word 4 own_line       # __lock
.shared m_kind 4 with lock_word    # __kind (PTHREAD_MUTEX_NORMAL: 0)
.shared m_owner 4 with lock_word   # __owner: the holder's thread id
.shared m_nusers 4 with lock_word  # __nusers

.entry lock
.entry unlock

lock:
    ld32 r2, [m_kind]                 # PTHREAD_MUTEX_TYPE (mutex)
    cas32.acq r0, [lock_word], 0, 1   # lll_lock: 0 -> 1, else __lll_lock_wait
    bne r0, 0, lock_wait
lock_owned:
    add r1, tid, 1                    # a thread id is never 0
    st32 [m_owner], r1
    ld32 r1, [m_nusers]
    add r1, r1, 1
    st32 [m_nusers], r1
    ret
lock_wait:
.if arch=x86
    beq r0, 2, lock_sleep             # x86 __lll_lock_wait: the cmpxchg saw 2 already
.else
    ld32 r0, [lock_word]              # generic __lll_lock_wait: if (*futex == 2) wait first
    beq r0, 2, lock_sleep
.endif
lock_mark:
    xchg32.acq r0, [lock_word], 2     # taken, maybe with sleepers: the unlock must wake
    beq r0, 0, lock_owned
lock_sleep:
    futex_wait r1, [lock_word], 2     # sleep while the word is still 2
    jmp lock_mark

unlock:
    ld32 r2, [m_kind]
    st32 [m_owner], 0
    ld32 r1, [m_nusers]
    sub r1, r1, 1
    st32 [m_nusers], r1
.if arch=x86
    fadd32.rel r0, [lock_word], -1    # lock decl; jne __lll_unlock_wake
    beq r0, 1, unlock_done
    st32.rel [lock_word], 0           # __lll_unlock_wake: movl $0 and FUTEX_WAKE 1
.else
    xchg32.rel r0, [lock_word], 0     # generic __lll_unlock: atomic_exchange_rel (futex, 0)
    bltu r0, 2, unlock_done           # if (oldval > 1) lll_futex_wake (futex, 1)
.endif
    futex_wake r1, [lock_word], 1
unlock_done:
    ret
