/* The event engine: ordering by (cycle, class, sub, sequence), tickers, determinism, derived
 * random streams. */
#include <check.h>
#include "sim/base/engine.h"

typedef struct {
    Engine *e;
    GString *log;
} Rec;

static void record(void *obj, uint64_t arg)
{
    Rec *r = obj;
    g_string_append_printf(r->log, "%" G_GUINT64_FORMAT "@%" G_GUINT64_FORMAT " ", arg, engine_now(r->e));
}

START_TEST(test_order_cycle_then_sequence)
{
    Rec r = { engine_new(1), g_string_new("") };
    engine_schedule(r.e, 5, record, &r, 1);
    engine_schedule(r.e, 2, record, &r, 2);
    engine_schedule(r.e, 5, record, &r, 3);
    engine_schedule(r.e, 0, record, &r, 4);
    while (engine_step(r.e))
        ;
    ck_assert_str_eq(r.log->str, "4@0 2@2 1@5 3@5 ");
    ck_assert_uint_eq(engine_events_run(r.e), 4);
    ck_assert(engine_idle(r.e));
    g_string_free(r.log, TRUE);
    engine_free(r.e);
}
END_TEST

static void chain(void *obj, uint64_t arg)
{
    Rec *r = obj;
    record(obj, arg);
    if (arg < 50)
        engine_schedule(r->e, arg % 3, chain, r, arg + 1);
}

START_TEST(test_run_until_stops_at_limit)
{
    Rec r = { engine_new(1), g_string_new("") };
    engine_schedule(r.e, 0, chain, &r, 0);
    engine_run_until(r.e, 10);
    ck_assert_uint_le(engine_now(r.e), 10);
    ck_assert(!engine_idle(r.e));
    ck_assert_uint_gt(engine_next_cycle(r.e), 10);
    engine_run_until(r.e, CYCLE_NEVER);
    ck_assert(engine_idle(r.e));
    g_string_free(r.log, TRUE);
    engine_free(r.e);
}
END_TEST

static void other(void *obj, uint64_t arg) { record(obj, arg + 100); }

/* Cancelling drops one kind of event (of one obj or of any) and leaves the others in order; the
 * clock then ends with the last event kept, not at a cancelled one. */
START_TEST(test_cancel_keeps_the_rest_in_order)
{
    Rec r = { engine_new(1), g_string_new("") }, q = { r.e, r.log };
    for (uint64_t i = 0; i < 40; i++) {
        engine_schedule(r.e, (i * 7) % 13, i % 3 ? record : other, i % 2 ? &r : &q, i);
        engine_schedule(r.e, 1000 + i, other, &r, i);
    }
    ck_assert_uint_eq(engine_cancel(r.e, other, NULL), 40 + 14);
    ck_assert_uint_eq(engine_cancel(r.e, record, &q), 13);
    ck_assert_uint_eq(engine_cancel(r.e, record, &q), 0);
    engine_run_until(r.e, 5000);
    ck_assert(engine_idle(r.e));
    ck_assert_uint_eq(engine_now(r.e), 12);
    ck_assert_str_eq(r.log->str, "13@0 17@2 19@3 23@5 25@6 1@7 29@8 5@9 31@9 7@10 35@11 11@12 37@12 ");
    g_string_free(r.log, TRUE);
    engine_free(r.e);
}
END_TEST

START_TEST(test_many_events_heap_order)
{
    Engine *e = engine_new(7);
    GRand *rnd = engine_rand_new(e, "test", 0);
    Rec r = { e, g_string_new("") };
    for (int i = 0; i < 5000; i++)
        engine_schedule(e, g_rand_int_range(rnd, 0, 1000), record, &r, i);
    Cycle last = 0;
    while (!engine_idle(e)) {
        engine_step(e);
        ck_assert_uint_ge(engine_now(e), last);
        last = engine_now(e);
    }
    g_rand_free(rnd);
    g_string_free(r.log, TRUE);
    engine_free(e);
}
END_TEST

/* Classes run in their order within a cycle, whatever the order they were scheduled in; hits
 * by core, one core's in issue order; ticks by ticker id. */
static void tick_rec(void *obj, uint64_t id)
{
    Rec *r = obj;
    g_string_append_printf(r->log, "t%" G_GUINT64_FORMAT "@%" G_GUINT64_FORMAT " ", id, engine_now(r->e));
}

START_TEST(test_classes_in_order)
{
    Rec r = { engine_new(1), g_string_new("") };
    for (guint i = 0; i < 4; i++)
        engine_ticker_set(r.e, i, tick_rec, &r);
    engine_tick_at(r.e, 3, 2);
    engine_tick_at(r.e, 1, 2);
    engine_schedule_class(r.e, 2, EV_START, 0, record, &r, 10);
    engine_schedule_class(r.e, 2, EV_HIT, 2, record, &r, 20);
    engine_schedule_class(r.e, 2, EV_HIT, 1, record, &r, 21);
    engine_schedule_class(r.e, 2, EV_HIT, 2, record, &r, 22);
    engine_schedule(r.e, 2, record, &r, 30);
    engine_tick_at(r.e, 0, 7);
    engine_tick_at(r.e, 0, 1);    /* earlier: replaces the tick at 7 */
    engine_tick_at(r.e, 2, 5);
    engine_tick_at(r.e, 2, 6);    /* later: the tick at 5 stands */
    engine_tick_cancel(r.e, 2);
    while (engine_step(r.e))
        ;
    ck_assert_str_eq(r.log->str, "t0@1 30@2 21@2 20@2 22@2 10@2 t1@2 t3@2 ");
    ck_assert(engine_idle(r.e));
    g_string_free(r.log, TRUE);
    engine_free(r.e);
}
END_TEST

/* Work at a cycle that schedules more at the same cycle: it runs in its class's place, even
 * a tick of a lower id than the one running (a wake-up from a later core's tick). */
typedef struct {
    Rec r;
    gboolean once;
} Chain;

static void tick_wakes(void *obj, uint64_t id)
{
    Chain *c = obj;
    tick_rec(&c->r, id);
    if (id == 2 && !c->once) {
        c->once = TRUE;
        engine_schedule(c->r.e, 0, record, &c->r, 99);
        engine_tick_at(c->r.e, 0, engine_now(c->r.e));
        engine_tick_at(c->r.e, 1, engine_now(c->r.e) + 1);
    }
}

START_TEST(test_same_cycle_work_runs_in_place)
{
    Chain c = { { engine_new(1), g_string_new("") }, FALSE };
    for (guint i = 0; i < 4; i++)
        engine_ticker_set(c.r.e, i, tick_wakes, &c);
    engine_tick_at(c.r.e, 2, 3);
    engine_tick_at(c.r.e, 3, 3);
    engine_run_until(c.r.e, 10);
    ck_assert_str_eq(c.r.log->str, "t2@3 99@3 t0@3 t3@3 t1@4 ");
    /* The position a component reads between events: after everything up to the clock. */
    EventPos p = engine_position(c.r.e);
    ck_assert_uint_eq(p.when, engine_now(c.r.e) + 1);
    g_string_free(c.r.log, TRUE);
    engine_free(c.r.e);
}
END_TEST

/* A ticker moved earlier leaves its old heap entry behind: it never runs, and the next cycle
 * the engine reports is the real one. */
START_TEST(test_stale_ticks_invisible)
{
    Rec r = { engine_new(1), g_string_new("") };
    engine_ticker_set(r.e, 0, tick_rec, &r);
    engine_tick_at(r.e, 0, 100);
    engine_tick_at(r.e, 0, 10);
    ck_assert_uint_eq(engine_next_cycle(r.e), 10);
    engine_run_until(r.e, 50);
    ck_assert_str_eq(r.log->str, "t0@10 ");
    ck_assert(engine_idle(r.e));
    ck_assert_uint_eq(engine_next_cycle(r.e), CYCLE_NEVER);
    g_string_free(r.log, TRUE);
    engine_free(r.e);
}
END_TEST

START_TEST(test_rand_streams_deterministic_and_distinct)
{
    Engine *a = engine_new(42), *b = engine_new(42);
    GRand *ra = engine_rand_new(a, "core", 3), *rb = engine_rand_new(b, "core", 3);
    GRand *rc = engine_rand_new(a, "core", 4);
    gboolean differs = FALSE;
    for (int i = 0; i < 16; i++) {
        guint32 x = g_rand_int(ra), y = g_rand_int(rb), z = g_rand_int(rc);
        ck_assert_uint_eq(x, y);
        differs |= x != z;
    }
    ck_assert(differs);
    ck_assert_uint_eq(qsim_seed_mix(1, "x", 0), qsim_seed_mix(1, "x", 0));
    ck_assert_uint_ne(qsim_seed_mix(1, "x", 0), qsim_seed_mix(2, "x", 0));
    g_rand_free(ra);
    g_rand_free(rb);
    g_rand_free(rc);
    engine_free(a);
    engine_free(b);
}
END_TEST

Suite *make_engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("events");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_order_cycle_then_sequence);
    tcase_add_test(tc, test_run_until_stops_at_limit);
    tcase_add_test(tc, test_many_events_heap_order);
    tcase_add_test(tc, test_cancel_keeps_the_rest_in_order);
    tcase_add_test(tc, test_classes_in_order);
    tcase_add_test(tc, test_same_cycle_work_runs_in_place);
    tcase_add_test(tc, test_stale_ticks_invisible);
    tcase_add_test(tc, test_rand_streams_deterministic_and_distinct);
    suite_add_tcase(s, tc);
    return s;
}
