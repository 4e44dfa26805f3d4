# adaptive-mutex: glibc's adaptive mutex as before the seed's series: spin with trylocks, then sleep.
# PTHREAD_MUTEX_ADAPTIVE_NP as glibc 2.27 builds it in nptl/pthread_mutex_lock.c: try the lock
# (LLL_MUTEX_TRYLOCK, a compare-and-swap 0 -> 1); when it is taken, spin up to
# max_cnt = MIN(spin_count, __spins * 2 + 10) times, each time an atomic_spin_nop (PAUSE on x86,
# YIELD on arm64) and another compare-and-swap; when the count runs out, lll_lock (futex-mutex's
# slow path: mark the word 2 and sleep in futex_wait).  Afterwards __spins, a running average kept
# in the mutex, moves an eighth of the way towards this call's count:
# __spins += (cnt - __spins) / 8.  This is the seed's "base" (spin_count 100).
#
# The seed thread (glibc, 2018, "Tunables: Add tunables of spin count for adaptive spin mutex")
# made spin_count a tunable (glibc.mutex.spin_count, default 100, as MAX_ADAPTIVE_COUNT was) and
# shows this loop's cost: every spin is a locked compare-and-swap on the lock's line.  The seed's
# own tree reads `__spins * 2 + 100`; glibc 2.27 has `+ 10` (spins_bias sets either).
# pthread_mutex_unlock is futex-mutex's.
.param spin_count 100              # glibc.mutex.spin_count
.param spins_bias 10               # max_cnt = MIN (spin_count, __spins * 2 + spins_bias)

.shared lock_word 4 own_line       # __lock: 0 free, 1 taken, 2 taken and maybe slept on
.shared m_kind 4 with lock_word    # __kind (PTHREAD_MUTEX_ADAPTIVE_NP)
.shared m_owner 4 with lock_word   # __owner
.shared m_nusers 4 with lock_word  # __nusers
.shared m_spins 2 with lock_word   # __spins (a short)

.entry lock
.entry unlock

lock:
    ld32 r2, [m_kind]                 # PTHREAD_MUTEX_TYPE (mutex)
    cas32.acq r0, [lock_word], 0, 1   # LLL_MUTEX_TRYLOCK
    beq r0, 0, lock_owned
    mov r3, 0                         # cnt
    ld16 r4, [m_spins]
    shl r5, r4, 1
    add r5, r5, spins_bias
    bltu r5, spin_count, spin         # max_cnt = MIN (spin_count, __spins * 2 + spins_bias)
    mov r5, spin_count
spin:
    bgeu r3, r5, spin_out             # if (cnt++ >= max_cnt) { LLL_MUTEX_LOCK; break; }
    add r3, r3, 1
    pause                             # atomic_spin_nop
    cas32.acq r0, [lock_word], 0, 1   # while (LLL_MUTEX_TRYLOCK (mutex) != 0)
    bne r0, 0, spin
    jmp spun
spin_out:
    add r3, r3, 1
    cas32.acq r0, [lock_word], 0, 1   # lll_lock
    beq r0, 0, spun
.if arch=x86
    beq r0, 2, lock_sleep             # x86 __lll_lock_wait: the cmpxchg saw 2 already
.else
    ld32 r0, [lock_word]              # generic __lll_lock_wait: if (*futex == 2) wait first
    beq r0, 2, lock_sleep
.endif
lock_mark:
    xchg32.acq r0, [lock_word], 2
    beq r0, 0, spun
lock_sleep:
    futex_wait r1, [lock_word], 2
    jmp lock_mark
spun:
    ld16 r4, [m_spins]                # __spins += (cnt - __spins) / 8, C's division
    sub r6, r3, r4
    blt r6, 0, spins_down
    shr r6, r6, 3
    jmp spins_add
spins_down:
    sub r6, 0, r6                     # a negative difference divides towards zero too
    shr r6, r6, 3
    sub r6, 0, r6
spins_add:
    add r4, r4, r6
    st16 [m_spins], r4
lock_owned:
    add r1, tid, 1
    st32 [m_owner], r1
    ld32 r1, [m_nusers]
    add r1, r1, 1
    st32 [m_nusers], r1
    ret

unlock:
    ld32 r2, [m_kind]
    st32 [m_owner], 0
    ld32 r1, [m_nusers]
    sub r1, r1, 1
    st32 [m_nusers], r1
.if arch=x86
    fadd32.rel r0, [lock_word], -1    # lock decl; jne __lll_unlock_wake
    beq r0, 1, unlock_done
    st32.rel [lock_word], 0
.else
    xchg32.rel r0, [lock_word], 0
    bltu r0, 2, unlock_done
.endif
    futex_wake r1, [lock_word], 1
unlock_done:
    ret
