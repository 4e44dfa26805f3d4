# arm64-rwlock: arm64's own reader/writer lock of Linux v4.14, readers ahead of waiting writers.
# It is the "w/o qrwlock patch" column of seed 002 (Waiman Long's measurements on a Cavium
# ThunderX, LKML, October 2017).
# Source: Linux v4.14 arch/arm64/include/asm/spinlock.h (arch_read_lock, arch_read_unlock,
# arch_write_lock, arch_write_unlock) and spinlock_types.h (arch_rwlock_t); v4.15 replaced it
# with qrwlock (qrwlock-4.15.qs).
#
# The lock word (32 bits): bit 31 WRITER (a writer holds the lock), bits 0-30 the reader count.
# Nothing records a waiting writer: a reader enters whenever bit 31 is clear, so while readers
# keep overlapping the count never drops to 0 and a writer can wait for ever (the starvation
# seed 002 shows: 1/1/1 acquisitions per writer with 12 readers and 4 writers).
#
# write_lock:
#   LL/SC: 1. sevl (the first wfe falls through).  2. wfe.  3. ldaxr the word (acquire; arms the
#          exclusive monitor on its line).  4. Not 0 (readers or a writer inside): back to 2, to
#          sleep until the line is written.  5. stxr WRITER; if it failed (the line was written
#          since 3), back to 3.
#   LSE:   1. casa 0 -> WRITER; it returned 0: done.  2. ldxr the word (arms the monitor); 0 (freed
#          since 1): back to 1 at once.  3. wfe, then back to 1.
# write_unlock: stlr wzr (store-release 0), both forms.
# read_lock (both forms start with sevl, then):
#   LL/SC: 1. wfe.  2. ldaxr the word; add 1.  3. Bit 31 of the sum set (a writer holds): back
#          to 1.  4. stxr the sum; failed: back to 2.
#   LSE:   as Linux v4.14 wrote it: 1. wfe.  2. ldxr the word (plain, arms the monitor); add 1.
#          3. Bit 31 set: back to 1.  4. casa old -> sum (the acquire is here); it did not return
#          the old value (the word changed since 2): back to 2.
# read_unlock:
#   LL/SC: ldxr; sub 1; stlxr; retry while the stlxr fails.
#   LSE:   staddl of -1.
#
# Unlike the other built-ins, the LL/SC form writes the exclusive pair out (`ldx`/`stx`), as
# Linux open-coded it: the test between the load and the store (is the word 0? is bit 31 clear?)
# and the monitor the load arms for the wfe are the algorithm, so no single ISA atomic stands
# for them.  Everything else stays ISA atomics that the config maps (cas.acq is CASA on LSE).
#
# x86: not a Linux x86 lock (x86 used its own rwlock, then qrwlock from v3.16): the arm64
# algorithm on x86 for comparison.  write_lock: lock cmpxchg 0 -> WRITER, and while it fails
# spin with PAUSE reading the word until it is 0; read_lock: read the word, and while bit 31 of
# word + 1 is clear try lock cmpxchg word -> word + 1 (retrying with the value it returns),
# else spin with PAUSE re-reading; read_unlock: lock xadd -1; write_unlock: a plain store of 0.
# `lock`/`unlock` are the write side, so the generic harness can drive this lock too.
.shared lock_word 4 own_line
.equ WRITER 0x80000000

.entry read_lock
.entry read_unlock
.entry write_lock
.entry write_unlock
.entry lock
.entry unlock

# r0 the word, r1 the new word or the stx status, r2 scratch.
lock:
write_lock:
.if atomics=llsc
    sevl
a64rw_write_wait:
    wfe
a64rw_write_try:
    ldx32.acq r0, [lock_word]                   # ldaxr
    bne r0, 0, a64rw_write_wait
    stx32 r1, [lock_word], WRITER               # stxr
    bne r1, 0, a64rw_write_try
.elif atomics=lse
a64rw_write_try:
    cas32.acq r0, [lock_word], 0, WRITER        # casa
    beq r0, 0, a64rw_write_done
    ldx32 r0, [lock_word]                       # ldxr: arms the monitor
    beq r0, 0, a64rw_write_try
    wfe
    jmp a64rw_write_try
a64rw_write_done:
.else
a64rw_write_try:
    cas32.acq r0, [lock_word], 0, WRITER        # lock cmpxchg
    beq r0, 0, a64rw_write_done
a64rw_write_spin:
    pause
    ld32 r0, [lock_word]
    bne r0, 0, a64rw_write_spin
    jmp a64rw_write_try
a64rw_write_done:
.endif
    ret

unlock:
write_unlock:
    st32.rel [lock_word], 0                     # stlr wzr
    ret

read_lock:
.if arch=arm64
    sevl
a64rw_read_wait:
    wfe
a64rw_read_try:
.if atomics=llsc
    ldx32.acq r0, [lock_word]                   # ldaxr
.else
    ldx32 r0, [lock_word]                       # ldxr
.endif
    add r1, r0, 1
    and r2, r1, WRITER                          # tbnz #31: a writer holds the lock
    bne r2, 0, a64rw_read_wait
.if atomics=llsc
    stx32 r2, [lock_word], r1                   # stxr
    bne r2, 0, a64rw_read_try
.else
    cas32.acq r2, [lock_word], r0, r1           # casa
    bne r2, r0, a64rw_read_try
.endif
.else
a64rw_read_load:
    ld32 r0, [lock_word]
a64rw_read_try:
    add r1, r0, 1
    and r2, r1, WRITER
    bne r2, 0, a64rw_read_spin
    cas32.acq r2, [lock_word], r0, r1           # lock cmpxchg
    beq r2, r0, a64rw_read_done
    mov r0, r2
    jmp a64rw_read_try
a64rw_read_spin:
    pause
    jmp a64rw_read_load
a64rw_read_done:
.endif
    ret

read_unlock:
.if atomics=llsc
a64rw_read_unlock_try:
    ldx32 r0, [lock_word]                       # ldxr
    sub r0, r0, 1
    stx32.rel r1, [lock_word], r0               # stlxr
    bne r1, 0, a64rw_read_unlock_try
.else
    fadd32.rel r0, [lock_word], -1              # staddl (arm64 LSE), lock xadd (x86)
.endif
    ret
