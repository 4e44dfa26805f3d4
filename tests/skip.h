/* Test helper: a test that cannot check what it is for (a tool or herd's catalogue missing, a
 * host too small) says so in a counted line instead of passing silently.
 *
 *   skipped: TEST: WHY            on stderr, and one line appended to $QSIM_TEST_SKIPS
 *
 * check_main.c names that file when nobody else has and prints how many of its run skipped;
 * `make check` names one for all its runs (the unit run and the sanitizer run) and prints the
 * total at its end. */
#ifndef QSIM_TEST_SKIP_H
#define QSIM_TEST_SKIP_H

/* A thing the test needs is missing, one that build-aux/deps.sh installs (or, for herd's
 * catalogue, CI lays out): under CI=true the test fails (ck_abort, no return); otherwise it
 * is skipped and the caller returns. */
void qsim_test_skip_or_fail(const char *test, const char *why);
/* The host cannot give what the test needs (two CPUs): skipped, under CI=true too, since
 * nothing an install does would change it. */
void qsim_test_skip(const char *test, const char *why);
/* The skip lines in `path` (0 when it is absent). */
unsigned qsim_test_skips_counted(const char *path);

#endif
