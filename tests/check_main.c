/* The test runner: every make_*_suite() under tests/ (collected at build time into suites.h). */
#include <check.h>
#include <stdlib.h>
#include <glib.h>
#include "suites.h"

int main(void)
{
    SRunner *sr = srunner_create(NULL);
    for (guint i = 0; qsim_suites[i]; i++)
        srunner_add_suite(sr, qsim_suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
