# adaptive-mutex-2018: glibc's adaptive mutex with the seed's patch: spin with loads, try once, sleep.
# The seed's patch (glibc, 2018, "Mutex: Avoid useless spinning", the third of the series;
# "head" in the seed's table): spin with atomic_spin_nop and relaxed loads
# while the lock word is taken and cnt < max_cnt = MIN(spin_count, __spins * 2 + 100), then try
# the lock once; if that fails, even though the lock was just seen free, sleep at once
# (LLL_MUTEX_LOCK: lll_lock, futex-mutex's slow path) instead of spinning on.  Only the threads
# that win the try keep spinning, the rest sleep: fewer spinners take the line from one another.
# The rest (the __spins average, lll_lock, unlock) is adaptive-mutex's.
.param spin_count 100              # glibc.mutex.spin_count
.param spins_bias 100              # max_cnt = MIN (spin_count, __spins * 2 + spins_bias)

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
    pause                             # do atomic_spin_nop ();
    ld32 r0, [lock_word]              # while (atomic_load_relaxed (&lock) != 0
    beq r0, 0, spin_try
    add r3, r3, 1                     #        && ++cnt < max_cnt);
    bltu r3, r5, spin
spin_try:
    cas32.acq r0, [lock_word], 0, 1   # if (LLL_MUTEX_TRYLOCK (mutex) != 0)
    beq r0, 0, spun
    cas32.acq r0, [lock_word], 0, 1   #   LLL_MUTEX_LOCK (mutex): lll_lock
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
