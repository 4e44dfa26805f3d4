/* Thread placement and latency statistics. */
#include <check.h>
#include "sim/workload/placement.h"
#include "sim/base/latency_stats.h"

static QsimConfig *two_by_four(void)
{
    return config_load_string("name: p\narch: x86\ntopology:\n  sockets: 2\n  cores_per_socket: 4\n", "p.yaml",
                              NULL, NULL);
}

START_TEST(test_fill_and_spread)
{
    g_autoptr(QsimConfig) c = two_by_four();
    guint cores[8];
    ck_assert(placement_assign_policy(c, PLACE_FILL, 5, cores, NULL));
    ck_assert_uint_eq(cores[3], 3);
    ck_assert_uint_eq(cores[4], 4);
    ck_assert(placement_assign_policy(c, PLACE_SPREAD, 8, cores, NULL));
    guint want[] = { 0, 4, 1, 5, 2, 6, 3, 7 };
    for (guint i = 0; i < 8; i++)
        ck_assert_uint_eq(cores[i], want[i]);
}
END_TEST

/* Past the last core the placement starts over: the OS model shares those cores. */
START_TEST(test_too_many_threads)
{
    g_autoptr(QsimConfig) c = two_by_four();
    guint cores[11];
    GError *e = NULL;
    ck_assert(placement_assign_policy(c, PLACE_FILL, 11, cores, &e));
    ck_assert_uint_eq(cores[7], 7);
    ck_assert_uint_eq(cores[8], 0);
    ck_assert_uint_eq(cores[10], 2);
    ck_assert(placement_assign_policy(c, PLACE_SPREAD, 11, cores, &e));
    ck_assert_uint_eq(cores[7], 7);
    ck_assert_uint_eq(cores[8], 0);
    ck_assert_uint_eq(cores[9], 4);
    ck_assert(!placement_assign_policy(c, PLACE_FILL, 0, cores, &e));
    ck_assert_str_eq(e->message, "--threads 0: a run needs a thread");
    g_error_free(e);
}
END_TEST

START_TEST(test_percentiles)
{
    LatencySamples s;
    latency_init(&s);
    ck_assert_uint_eq(latency_percentile(&s, 50), 0);
    for (uint64_t v = 100; v >= 1; v--)
        latency_add(&s, v);
    ck_assert_uint_eq(latency_percentile(&s, 50), 50);
    ck_assert_uint_eq(latency_percentile(&s, 99), 99);
    ck_assert_uint_eq(latency_percentile(&s, 100), 100);
    ck_assert(latency_mean(&s) == 50.5);
    latency_clear(&s);
}
END_TEST

Suite *make_placement_suite(void)
{
    Suite *s = suite_create("placement");
    TCase *tc = tcase_create("policy");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_fill_and_spread);
    tcase_add_test(tc, test_too_many_threads);
    tcase_add_test(tc, test_percentiles);
    suite_add_tcase(s, tc);
    return s;
}
