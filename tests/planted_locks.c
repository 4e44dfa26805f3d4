/* Locks with planted bugs (see planted_locks.h). */
#include "tests/planted_locks.h"

const char planted_test_then_set[] =
    "# broken: test, then set, not atomic\n.shared lock_word 4 own_line\n"
    ".entry lock\n.entry unlock\n"
    "lock:\n    ld32 r0, [lock_word]\n    bne r0, 0, lock\n    st32 [lock_word], 1\n    ret\n"
    "unlock:\n    st32.rel [lock_word], 0\n    ret\n";

const char planted_never_released[] =
    ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
    "lock:\n    xchg32 r0, [lock_word], 1\n    bne r0, 0, lock\n    ret\n"
    "unlock:\n    ret\n";

const char planted_never_marked[] =
    ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
    "lock:\n    cas32.acq r0, [lock_word], 0, 1\n    beq r0, 0, done\n"
    "again:\n    futex_wait r1, [lock_word], 1\n    cas32.acq r0, [lock_word], 0, 1\n    bne r0, 0, again\n"
    "done:\n    ret\n"
    "unlock:\n    xchg32.rel r0, [lock_word], 0\n    bne r0, 2, out\n    futex_wake r1, [lock_word], 1\nout:\n    ret\n";

const char planted_check_then_release[] =
    ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
    "lock:\n    cas32.acq r0, [lock_word], 0, 1\n    beq r0, 0, done\n"
    "again:\n    xchg32.acq r0, [lock_word], 2\n    beq r0, 0, done\n"
    "    futex_wait r1, [lock_word], 2\n    jmp again\n"
    "done:\n    ret\n"
    "unlock:\n    ld32 r0, [lock_word]\n    st32.rel [lock_word], 0\n    bne r0, 2, out\n"
    "    futex_wake r1, [lock_word], 1\nout:\n    ret\n";

const char planted_lost_wfe[] =
    ".shared lock_word 4 own_line\n.equ TICKET_INC 0x10000\n.entry lock\n.entry unlock\n"
    "lock:\n"
    "    fadd32.acq r0, [lock_word], TICKET_INC\n"
    "    shr r1, r0, 16\n"
    "    and r0, r0, 0xffff\n"
    "    beq r0, r1, got\n"
    ".if arch=arm64\n"
    "spin:\n"
    "    ld16.acq r0, [lock_word]\n"
    "    beq r0, r1, got\n"
    "    ldx16 r2, [lock_word]\n"         /* bug: armed after the check, r2 not compared */
    "    wfe\n"
    "    jmp spin\n"
    ".else\n"
    "spin:\n"
    "    pause\n"
    "    ld16.acq r0, [lock_word]\n"
    "    bne r0, r1, spin\n"
    ".endif\n"
    "got:\n"
    "    ret\n"
    "unlock:\n"
    "    ld16 r0, [lock_word]\n"
    "    add r0, r0, 1\n"
    "    st16.rel [lock_word], r0\n"
    "    ret\n";
