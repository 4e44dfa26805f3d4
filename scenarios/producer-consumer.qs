# producer-consumer: thread 0 writes a value and raises a flag; thread 1 waits for the flag,
# reads the value and lowers the flag.  Each hand-off moves a dirty line to a reader and back to
# the writer: MESI writes it back when it is shared, MOESI keeps it dirty in O (compare
# `--set protocol=moesi`, and `--config teaching-bus` for MSI on a bus).  Two threads; others
# return at once.
#: --config teaching --threads 2 --iterations 10
.shared data 8 own_line
.shared full 8 own_line               # 1: data holds a value thread 1 has not read yet

.entry body
body:
    beq tid, 0, produce
    bne tid, 1, done
consume:
    ld r0, [full]
    bne r0, 0, take
    pause
    jmp consume
take:
    ld r1, [data]
    st [full], 0
    ret
produce:
    ld r0, [full]
    beq r0, 0, put
    pause
    jmp produce
put:
    add r11, r11, 1                   # the next value (r11 keeps it between calls)
    st [data], r11
    st [full], 1
done:
    ret
