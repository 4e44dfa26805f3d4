# The ticket lock as GCC compiles examples/c-locks/ticket.c for x86-64 (docs/c-locks.md, "Timing against the same
# instructions"), written by hand: each instruction (the `# ` line, as `qsim asm --translated`
# prints it) is one ISA op, in the registers the translation gives it, with no glue, no flags
# kept as data, no masks; a conditional branch reads the result of the instruction that set
# its flags.  tests/test_cfront_timing.c runs it beside the C file: their cycles
# per acquisition must agree within 3%; it skips (counted) when the compiler's instructions are
# no longer these.
.shared lock_word 8 own_line

.entry lock
.entry unlock

lock:
    # leaq 4(%rdi), %rcx
    la r17, lock_word
    # movl $1, %edx
    mov r18, 1
    # lock xaddl %edx, (%rdi)
    fadd32 r18, [lock_word], r18
    # jmp .L2
    jmp l2
l3:
    # rep nop
    pause
l2:
    # movl (%rcx), %eax
    ld32 r16, [r17+4]
    # cmpl %edx, %eax
    sub r40, r16, r18
    # jne .L3
    bne r40, 0, l3
    # ret
    ret
unlock:
    # movl 4(%rdi), %eax
    ld32 r16, [lock_word+4]
    # addl $1, %eax
    add r16, r16, 1
    # movl %eax, 4(%rdi)
    st32 [lock_word+4], r16
    # ret
    ret
