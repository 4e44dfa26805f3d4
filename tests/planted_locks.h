/* Test helper: small locks with a bug planted in them, shared by the suites that check that verify
 * (sampled or explored) catches each. */
#ifndef QSIM_TEST_PLANTED_LOCKS_H
#define QSIM_TEST_PLANTED_LOCKS_H

/* Test, then set, not atomic: two threads both see the word free (mutual exclusion). */
extern const char planted_test_then_set[];
/* A lock that never releases: the second acquisition never gets in (no execution finishes). */
extern const char planted_never_released[];
/* A waiter that never marks the lock contended (sleeps on 1): unlock never wakes it. */
extern const char planted_never_marked[];
/* futex-mutex's lock, but an unlock that checks for sleepers before it releases (load, store,
 * then decide): a waiter that marks the word 2 and sleeps between the load and the store is never
 * woken.  A narrow window: sampling needs thousands of interleavings to find it. */
extern const char planted_check_then_release[];
/* A ticket lock whose arm64 wait checks the head before arming the monitor: an unlock between the
 * check and the ldx is missed, and the waiter sleeps in wfe until some other store to the line,
 * for ever when the holder was on its last iteration.  Its x86 code is correct. */
extern const char planted_lost_wfe[];

#endif
