/* Golden outputs: tests/golden/NAME holds what a command must print, byte for byte.  With
 * QSIM_UPDATE_GOLDEN=1 (`make golden`) the check writes the file instead, after a change that
 * is meant to change the output (then read the diff before committing it). */
#ifndef QSIM_TEST_GOLDEN_H
#define QSIM_TEST_GOLDEN_H

/* Fails the test, naming the first differing line, unless `actual` is tests/golden/NAME. */
void golden_check(const char *name, const char *actual);

#endif
