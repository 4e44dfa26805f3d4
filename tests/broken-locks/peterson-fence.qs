# peterson-fence: Peterson's two-thread lock (G. L. Peterson, "Myths About the Mutual Exclusion
# Problem", IPL 12(3), 1981) with the fence it needs on x86: a full fence (MFENCE, DMB ISH)
# after both of its stores, before it reads the other thread's flag.  CORRECT under x86-TSO and
# sequential consistency.  BROKEN on ARMv8: nothing orders its two stores with each other, so
# the victim store can become visible before the flag store (`qsim verify --model arm64` finds
# it at 2 x 1 in 8 steps; a DMB ST between the stores would be its fix there).  The waiting loads are load-acquires and the unlocking store a
# store-release, so that on ARMv8 the critical section stays between them too (on x86 they are
# plain MOVs).
# Why after both stores: with the fence between the flag store and the victim store only, a
# thread can read flag[other] = 0 and enter while its `victim := me` still sits in its store
# buffer; the other thread then writes victim, sees flag[me] = 1 and waits, until the first
# thread's late `victim := me` reaches memory and lets it in as well.  `qsim verify --model tso`
# finds that execution for the early placement (tests/test_explore.c tries it).
# Two threads only (thread tid's partner is 1 - tid).
.shared lock_word 4 own_line      # victim: the thread that yields when both want in
.shared flag 8 own_line           # flag[t] at flag + 4t: thread t wants in

.entry lock
.entry unlock

lock:
    mov r1, 1
    sub r1, r1, tid               # other := 1 - tid
    shl r2, tid, 2                # my flag's offset
    shl r3, r1, 2                 # the other's
    st32 [flag+r2], 1             # flag[me] := 1
    st32 [lock_word], tid         # victim := me
    fence                         # both stores reach memory before the loads below read it
peterson_wait:
    ld32.acq r4, [flag+r3]        # while (flag[other] && victim == me) wait
    beq r4, 0, peterson_in
    ld32.acq r5, [lock_word]
    bne r5, tid, peterson_in
    pause
    jmp peterson_wait
peterson_in:
    ret

unlock:
    shl r2, tid, 2
    st32.rel [flag+r2], 0         # flag[me] := 0
    ret
