# ping-pong: two threads hand one word back and forth: each waits until `turn` names it, then
# gives the turn to the other.  The line moves from core to core on every hand-off: each one is
# a read miss that finds the line modified in the other cache, then an upgrade to write it.
# Two threads; others return at once.
#: --config teaching --threads 2 --iterations 10
.shared turn 8 own_line               # whose turn: 0 or 1

.entry body
body:
    bgeu tid, 2, done
wait:
    ld r0, [turn]
    beq r0, tid, mine
    pause
    jmp wait
mine:
    sub r1, 1, tid                    # the other thread
    st [turn], r1
done:
    ret
