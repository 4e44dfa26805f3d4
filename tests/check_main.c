/* The test runner: every make_*_suite() under tests/ (collected at build time into suites.h).
 *
 *   check_qsim              every suite
 *   check_qsim NAME...      only the suites named (the Makefile's ASAN_SUITES)
 *   check_qsim --list       the suite names, one a line
 *
 * Timeouts: every TCase sets its own (tcase_set_timeout); one that does not gets
 * RUNNER_DEFAULT_TIMEOUT instead of Check's 4 s, unless CK_DEFAULT_TIMEOUT says otherwise.
 * CK_TIMEOUT_MULTIPLIER (set by `make check`) scales them all for slow or busy machines.
 *
 * Skips (tests/skip.h): each is a line in $QSIM_TEST_SKIPS (a file of the runner's own when that
 * is unset); the runner prints how many its run added. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "suites.h"
#include "tests/skip.h"

#define RUNNER_DEFAULT_TIMEOUT "60"

static int usage(void)
{
    fprintf(stderr, "usage: check_qsim [--list | SUITE...]\n");
    return 2;
}

int main(int argc, char **argv)
{
    /* Check reads it when each TCase is created: before the suites are made. */
    g_setenv("CK_DEFAULT_TIMEOUT", RUNNER_DEFAULT_TIMEOUT, FALSE);
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (guint i = 0; qsim_suites[i].name; i++)
            printf("%s\n", qsim_suites[i].name);
        return EXIT_SUCCESS;
    }
    for (int a = 1; a < argc; a++) {
        gboolean known = FALSE;
        for (guint i = 0; qsim_suites[i].name && !known; i++)
            known = !strcmp(argv[a], qsim_suites[i].name);
        if (!known) {
            fprintf(stderr, "check_qsim: no suite `%s` (`check_qsim --list` names them)\n", argv[a]);
            return usage();
        }
    }
    /* The tests run in forked children: they count their skips in a file, which outlives them. */
    g_autofree char *own_skips = NULL;
    if (!g_getenv("QSIM_TEST_SKIPS")) {
        /* Without the file a skip could not be counted: no run then. */
        g_autoptr(GError) error = NULL;
        int fd = g_file_open_tmp("qsim-skips-XXXXXX", &own_skips, &error);
        if (fd < 0) {
            fprintf(stderr, "check_qsim: cannot make the file that counts skipped tests: %s\n", error->message);
            return EXIT_FAILURE;
        }
        close(fd);
        g_setenv("QSIM_TEST_SKIPS", own_skips, TRUE);
    }
    unsigned skips_before = qsim_test_skips_counted(g_getenv("QSIM_TEST_SKIPS"));
    SRunner *sr = srunner_create(NULL);
    for (guint i = 0; qsim_suites[i].name; i++) {
        gboolean wanted = argc == 1;
        for (int a = 1; a < argc && !wanted; a++)
            wanted = !strcmp(argv[a], qsim_suites[i].name);
        if (!wanted)
            continue;
        srunner_add_suite(sr, qsim_suites[i].make());
    }
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("check_qsim: %u skipped\n", qsim_test_skips_counted(g_getenv("QSIM_TEST_SKIPS")) - skips_before);
    if (own_skips)
        g_unlink(own_skips);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
