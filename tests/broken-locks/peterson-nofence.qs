# peterson-nofence: Peterson's two-thread lock (G. L. Peterson, "Myths About the Mutual Exclusion
# Problem", IPL 12(3), 1981) written with plain loads and stores and no fence.
# BROKEN under x86-TSO (and weaker models); correct under sequential consistency.
# Where it breaks: each thread's `st32 [flag+r2], 1` (line 21) and `st32 [lock_word], tid`
# (line 22) wait in its store buffer while its load of the other's flag (line 24) reads memory,
# which still holds 0: both threads see the other not interested and both enter.  x86 lets a load
# pass an older store to another address (Intel SDM Vol. 3A, 8.2.3.4, "Loads May Be Reordered with
# Earlier Stores to Different Locations"); peterson-fence.qs puts the MFENCE in.
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
peterson_wait:
    ld32 r4, [flag+r3]            # while (flag[other] && victim == me) wait
    beq r4, 0, peterson_in
    ld32 r5, [lock_word]
    bne r5, tid, peterson_in
    pause
    jmp peterson_wait
peterson_in:
    ret

unlock:
    shl r2, tid, 2
    st32 [flag+r2], 0             # flag[me] := 0
    ret
