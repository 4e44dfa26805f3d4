/* Counter registries: every field of CoreStats, MemStats and LineStats registered exactly once,
 * the generic walkers (totals, sums, JSON) on hand-made structs, and a run's report carrying
 * every registered counter with the values the headline figures are made of. */
#include <check.h>
#include <string.h>
#include "sim/base/counters.h"
#include "sim/base/report.h"
#include "cores/core.h"
#include "coherence/memsys.h"
#include "sim/run/run.h"

static const CounterRegistry *const registries[] = { &core_stats_registry, &mem_stats_registry,
                                                     &line_stats_registry };

/* Byte ranges a row owns: the field, and a vector's length field. */
static void mark_bytes(guint8 *owner, gsize size, gsize from, gsize n, guint row)
{
    for (gsize b = from; b < from + n; b++) {
        ck_assert_msg(b < size, "row %u runs past the struct", row);
        ck_assert_msg(owner[b] == 0, "rows %u and %u share byte %zu", owner[b] - 1, row, b);
        owner[b] = (guint8)(row + 1);
    }
}

/* _i walks the registries: the rows tile the struct exactly (every field registered once), and
 * every row has a unique name, a unit and a description. */
START_TEST(test_registry_covers_struct)
{
    const CounterRegistry *reg = registries[_i];
    ck_assert_uint_eq(counters_bytes(reg), reg->struct_size);
    g_autofree guint8 *owner = g_new0(guint8, reg->struct_size);
    for (guint i = 0; i < reg->n; i++) {
        const CounterInfo *c = &reg->rows[i];
        gsize field = c->shape == COUNTER_VECTOR ? sizeof(guint64 *) : counter_bytes(c);
        mark_bytes(owner, reg->struct_size, c->offset, field, i);
        if (c->shape == COUNTER_VECTOR)
            mark_bytes(owner, reg->struct_size, c->len_offset, sizeof(gsize), i);
        ck_assert_msg(c->doc && *c->doc && c->unit && *c->unit, "%s.%s: doc and unit", reg->name, c->name);
        if (c->shape == COUNTER_ARRAY)
            for (guint k = 0; k < c->len; k++)
                ck_assert(c->elem_name(k) && *c->elem_name(k));
        for (guint j = i + 1; j < reg->n; j++)
            ck_assert_str_ne(c->name, reg->rows[j].name);
        ck_assert_ptr_eq(counters_find(reg, c->name), c);
    }
    for (gsize b = 0; b < reg->struct_size; b++)
        ck_assert_msg(owner[b], "%s: byte %zu belongs to no row (an unregistered field)", reg->name, b);
    ck_assert_ptr_null(counters_find(reg, "no_such_counter"));
}
END_TEST

START_TEST(test_mem_stats_walkers)
{
    MemStats a = { 0 }, b = { 0 };
    mem_stats_init(&a, 4, 10, 7);
    mem_stats_init(&b, 4, 10, 7);
    ck_assert_uint_eq(a.n_inval_received, 4);
    ck_assert_uint_eq(a.n_dir_rows_fired, 7);
    a.msgs[MSG_GETM] = 3;
    a.msgs[MSG_INV] = 2;
    a.llc_hits = 11;
    a.inval_received[0] = 1;
    a.inval_received[3] = 5;
    a.cache_rows_fired[9] = 8;
    const CounterRegistry *reg = &mem_stats_registry;
    ck_assert_uint_eq(counter_total(counters_find(reg, "msgs"), &a), 5);
    ck_assert_uint_eq(counter_elem(counters_find(reg, "msgs"), &a, MSG_GETM), 3);
    ck_assert_uint_eq(counter_get(counters_find(reg, "llc_hits"), &a), 11);
    ck_assert_uint_eq(counter_len(counters_find(reg, "inval_received"), &a), 4);
    ck_assert_uint_eq(counter_total(counters_find(reg, "inval_received"), &a), 6);
    ck_assert(!counters_equal(reg, &a, &b));
    counters_add(reg, &b, &a);
    counters_add(reg, &b, &a);
    ck_assert_uint_eq(b.inval_received[3], 10);
    ck_assert_uint_eq(b.msgs[MSG_GETM], 6);
    ck_assert_uint_eq(b.llc_hits, 22);
    ck_assert_uint_eq(b.cache_rows_fired[9], 16);

    g_autoptr(JsonBuilder) jb = json_builder_new();
    json_builder_begin_object(jb);
    counters_add_json(reg, &a, jb);
    json_builder_end_object(jb);
    g_autoptr(JsonNode) root = json_builder_get_root(jb);
    JsonObject *o = json_node_get_object(root);
    ck_assert_uint_eq(json_object_get_size(o), reg->n);
    ck_assert_int_eq(json_object_get_int_member(json_object_get_object_member(o, "msgs"), "GetM"), 3);
    ck_assert_int_eq(json_object_get_int_member(o, "inval_received"), 6);
    ck_assert_int_eq(json_object_get_int_member(o, "cache_rows_fired"), 8);
    ck_assert_int_eq(json_object_get_int_member(o, "llc_hits"), 11);

    g_autofree char *md = counters_markdown(reg);
    ck_assert_msg(strstr(md, "| `back_invalidations` | lines |") && strstr(md, "| `msgs`.* |"), "%s", md);
    mem_stats_clear(&a);
    mem_stats_clear(&b);
    ck_assert_ptr_null(a.inval_received);
    ck_assert_uint_eq(a.n_cache_rows_fired, 0);
}
END_TEST

START_TEST(test_core_stats_add)
{
    CoreStats a = { 0 }, b = { 0 };
    a.paused_cycles = 7;
    a.machine_clears = 2;
    core_stats_add(&b, &a);
    core_stats_add(&b, &a);
    ck_assert_uint_eq(b.paused_cycles, 14);
    ck_assert_uint_eq(b.machine_clears, 4);
    ck_assert(!core_stats_equal(&a, &b));
    core_stats_add(&a, &a);
    ck_assert(core_stats_equal(&a, &b));
}
END_TEST

static gboolean has_key(GArray *f, const char *key, double *value)
{
    for (guint i = 0; i < f->len; i++) {
        ReportField *r = &g_array_index(f, ReportField, i);
        if (!strcmp(r->key, key)) {
            if (value)
                *value = r->number;
            return TRUE;
        }
    }
    return FALSE;
}

static double value_of(GArray *f, const char *key)
{
    double v = 0;
    ck_assert_msg(has_key(f, key, &v), "no key %s", key);
    return v;
}

/* A run's report has every registered counter, under cores_summed.*, memory_system.* and
 * coherence.lock_line.*, and the headline figures agree with them. */
START_TEST(test_report_has_every_counter)
{
    RunOptions o;
    run_options_init(&o);
    o.config = "haswell";
    o.lock = "qspin";
    o.workload.threads = 2;
    o.workload.iterations = 20;
    o.host_time = FALSE;
    RunResult r;
    GError *error = NULL;
    ck_assert_msg(run_simulation(&o, &r, &error), "%s", error ? error->message : "");
    GArray *f = report_flatten(r.report);
    for (guint i = 0; i < core_stats_registry.n; i++) {
        g_autofree char *k = g_strconcat("cores_summed.", core_stats_registry.rows[i].name, NULL);
        ck_assert_msg(has_key(f, k, NULL), "no %s", k);
    }
    for (guint i = 0; i < mem_stats_registry.n; i++) {
        const CounterInfo *c = &mem_stats_registry.rows[i];
        for (guint e = 0; e < (c->shape == COUNTER_ARRAY ? c->len : 1u); e++) {
            g_autofree char *k = c->shape == COUNTER_ARRAY
                                     ? g_strconcat("memory_system.", c->name, ".", c->elem_name(e), NULL)
                                     : g_strconcat("memory_system.", c->name, NULL);
            ck_assert_msg(has_key(f, k, NULL), "no %s", k);
        }
    }
    guint lock_line_keys = 0;
    for (guint i = 0; i < f->len; i++)
        lock_line_keys += g_str_has_prefix(g_array_index(f, ReportField, i).key, "coherence.lock_line.");
    ck_assert_uint_eq(lock_line_keys, line_stats_registry.n);
    /* the headline figures are the registered counters */
    ck_assert(value_of(f, "paused_cycles") > 0);
    ck_assert(!has_key(f, "pause_cycles", NULL));
    ck_assert_double_eq(value_of(f, "paused_cycles"), value_of(f, "cores_summed.paused_cycles"));
    ck_assert_double_eq(value_of(f, "coherence.rfo"), value_of(f, "memory_system.rfos"));
    ck_assert_double_eq(value_of(f, "coherence.invalidations"), value_of(f, "memory_system.inval_received"));
    ck_assert_double_eq(value_of(f, "coherence.messages.GetM"), value_of(f, "memory_system.msgs.GetM"));
    /* machine clears and branch mispredicts apart (they were once summed under machine_clears) */
    ck_assert_double_eq(value_of(f, "machine_clears.memory_ordering"), value_of(f, "cores_summed.machine_clears"));
    ck_assert_double_eq(value_of(f, "machine_clears.penalty_cycles"), value_of(f, "cores_summed.mc_penalty_cycles"));
    ck_assert_double_eq(value_of(f, "machine_clears.squashed_ops"), value_of(f, "cores_summed.mc_squashed_ops"));
    ck_assert(value_of(f, "branch_mispredicts.count") > 0);
    ck_assert_double_eq(value_of(f, "branch_mispredicts.count"), value_of(f, "cores_summed.branch_mispredicts"));
    ck_assert_double_eq(value_of(f, "branch_mispredicts.penalty_cycles"),
                        value_of(f, "cores_summed.bm_penalty_cycles"));
    ck_assert_double_eq(value_of(f, "branch_mispredicts.squashed_ops"), value_of(f, "cores_summed.bm_squashed_ops"));
    ck_assert(!has_key(f, "machine_clears.branch", NULL) && !has_key(f, "machine_clears.cycles_lost", NULL));
    /* cores_summed is the sum over the cores: two cores each ran the whole run's length, about */
    ck_assert(value_of(f, "cores_summed.cycles") > value_of(f, "cycles"));
    double hits = value_of(f, "memory_system.l1_hits"), misses = value_of(f, "memory_system.l1_misses");
    ck_assert(hits > 0);
    ck_assert_double_eq_tol(value_of(f, "l1_hit_rate"), hits / (hits + misses), 1e-9);
    ck_assert_double_eq(value_of(f, "sim_instructions"), value_of(f, "cores_summed.insns_retired"));
    ck_assert(value_of(f, "memory_system.cache_rows_fired") > 0);
    report_fields_free(f);
    run_result_clear(&r);
}
END_TEST

Suite *make_counters_suite(void)
{
    Suite *s = suite_create("counters");
    TCase *tc = tcase_create("registries");
    tcase_add_loop_test(tc, test_registry_covers_struct, 0, G_N_ELEMENTS(registries));
    tcase_add_test(tc, test_mem_stats_walkers);
    tcase_add_test(tc, test_core_stats_add);
    tcase_add_test(tc, test_report_has_every_counter);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
