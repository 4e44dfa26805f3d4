/* MSI, row by row: for each row of the MSI tables (the directory's, coherence/msi.c, Primer
 * Tables 8.1-8.2; and the bus's, coherence/msi_bus.c, Tables 7.5-7.6) a directed scenario that
 * makes it fire, with the states it leaves.  A coverage check holds the list to the tables:
 * every row has a scenario, or is named in `random_only` with the reason a script cannot time
 * it (the random tester, tests/test_coherence_random.c, fires those).  Then the lesson MSI is
 * kept for: a lone reader's line arrives in S, so its first store costs a second transaction. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "tests/coh_script.h"

typedef struct {
    gboolean bus;           /* msi-bus: topology.interconnect bus */
    gboolean dir;           /* a row of the directory (or the bus memory's) table */
    const char *row;        /* as a trace prints it */
    const char *script;     /* tests/coh_script.h */
    const char *states;     /* after it: "c0=S c1=I home=S" (NULL: not checked) */
    gboolean far;           /* arm64 with LSE far atomics */
} RowCase;

static const RowCase row_cases[] = {
    /* ---- the directory: Table 8.1, the cache controller ---- */
    { FALSE, FALSE, "I + Load -> IS_D",          "c0.ld",                 "c0=S home=S", FALSE },
    { FALSE, FALSE, "IS_D + Data -> S",          "c0.ld",                 "c0=S", FALSE },
    { FALSE, FALSE, "IS_D + Load -> IS_D",       "c0.ld,c0.ld@1",         "c0=S", FALSE },
    { FALSE, FALSE, "IS_D + Store -> IS_D",      "c0.ld,c0.st@1",         "c0=M", FALSE },
    { FALSE, FALSE, "I + Store -> IM_AD",        "c0.st",                 "c0=M home=M", FALSE },
    { FALSE, FALSE, "IM_AD + Data -> M",         "c0.st",                 "c0=M", FALSE },
    { FALSE, FALSE, "IM_AD + Load -> IM_AD",     "c0.st,c0.ld@1",         "c0=M", FALSE },
    { FALSE, FALSE, "IM_AD + Store -> IM_AD",    "c0.st,c0.st@1",         "c0=M", FALSE },
    { FALSE, FALSE, "S + Load -> S",             "c0.ld c0.ld",           "c0=S", FALSE },
    { FALSE, FALSE, "S + Store -> SM_AD",        "c0.ld c0.st",           "c0=M home=M", FALSE },
    { FALSE, FALSE, "SM_AD + Data -> M",         "c0.ld c0.st",           "c0=M", FALSE },
    { FALSE, FALSE, "SM_AD + Load -> SM_AD",     "c0.ld c0.st,c0.ld@1",   "c0=M", FALSE },
    { FALSE, FALSE, "SM_AD + Store -> SM_AD",    "c0.ld c0.st,c0.st@1",   "c0=M", FALSE },
    { FALSE, FALSE, "S + Inv -> I",              "c0.ld c1.ld c1.st",     "c0=I c1=M home=M", FALSE },
    { FALSE, FALSE, "SM_AD + Data_Acks -> SM_A", "c0.ld c1.ld c1.st",     "c1=M", FALSE },
    { FALSE, FALSE, "SM_A + Last-Inv-Ack -> M",  "c0.ld c1.ld c1.st",     "c1=M", FALSE },
    { FALSE, FALSE, "SM_A + Load -> SM_A",       "c0.ld c1.ld c1.st,c1.ld@40", "c1=M", FALSE },
    { FALSE, FALSE, "SM_A + Store -> SM_A",      "c0.ld c1.ld c1.st,c1.st@40", "c1=M", FALSE },
    { FALSE, FALSE, "SM_A + Inv-Ack -> SM_A",    "c0.ld c1.ld c2.ld c2.st", "c0=I c1=I c2=M", FALSE },
    { FALSE, FALSE, "SM_AD + Inv -> IM_AD",      "c0.ld c1.ld c0.st,c1.st", "home=M", FALSE },
    { FALSE, FALSE, "IM_AD + Data_Acks -> IM_A", "c0.ld c1.st",           "c0=I c1=M", FALSE },
    { FALSE, FALSE, "IM_A + Last-Inv-Ack -> M",  "c0.ld c1.st",           "c1=M", FALSE },
    { FALSE, FALSE, "IM_A + Inv-Ack -> IM_A",    "c0.ld c1.ld c2.st",     "c2=M", FALSE },
    { FALSE, FALSE, "IM_A + Load -> IM_A",       "c0.ld c1.st,c1.ld@40",  "c1=M", FALSE },
    { FALSE, FALSE, "IM_A + Store -> IM_A",      "c0.ld c1.st,c1.st@40",  "c1=M", FALSE },
    { FALSE, FALSE, "M + Load -> M",             "c0.st c0.ld",           "c0=M", FALSE },
    { FALSE, FALSE, "M + Store -> M",            "c0.st c0.st",           "c0=M", FALSE },
    { FALSE, FALSE, "M + Fwd-GetS -> S",         "c0.st c1.ld",           "c0=S c1=S home=S", FALSE },
    { FALSE, FALSE, "M + Fwd-GetM -> I",         "c0.st c1.st",           "c0=I c1=M home=M", FALSE },
    { FALSE, FALSE, "M + Replacement -> MI_A",   "c0.st c0.evict",        "c0=I home=I", FALSE },
    { FALSE, FALSE, "MI_A + Put-Ack -> I",       "c0.st c0.evict",        "c0=I home=I", FALSE },
    { FALSE, FALSE, "MI_A + Load -> MI_A",       "c0.st c0.evict,c0.ld",  "c0=S", FALSE },
    { FALSE, FALSE, "MI_A + Store -> MI_A",      "c0.st c0.evict,c0.st",  "c0=M", FALSE },
    { FALSE, FALSE, "MI_A + Fwd-GetS -> SI_A",   "c0.st c1.ld,c0.evict@1", "c0=I c1=S home=S", FALSE },
    { FALSE, FALSE, "MI_A + Fwd-GetM -> II_A",   "c0.st c1.st,c0.evict@1", "c0=I c1=M home=M", FALSE },
    { FALSE, FALSE, "II_A + Put-Ack -> I",       "c0.st c1.st,c0.evict@1", "c0=I", FALSE },
    { FALSE, FALSE, "II_A + Load -> II_A",       "c0.st c1.st,c0.evict@1,c0.ld@35", "c0=S c1=S", FALSE },
    { FALSE, FALSE, "II_A + Store -> II_A",      "c0.st c1.st,c0.evict@1,c0.st@35", "c0=M c1=I", FALSE },
    { FALSE, FALSE, "S + Replacement -> SI_A",   "c0.ld c0.evict",        "c0=I home=I", FALSE },
    { FALSE, FALSE, "SI_A + Put-Ack -> I",       "c0.ld c0.evict",        "c0=I", FALSE },
    { FALSE, FALSE, "SI_A + Load -> SI_A",       "c0.ld c0.evict,c0.ld",  "c0=S", FALSE },
    { FALSE, FALSE, "SI_A + Store -> SI_A",      "c0.ld c0.evict,c0.st",  "c0=M", FALSE },
    { FALSE, FALSE, "SI_A + Inv -> II_A",        "c0.ld c1.st,c0.evict@1", "c0=I c1=M", FALSE },
    /* ---- the directory: Table 8.2, the directory controller ---- */
    { FALSE, TRUE,  "I + GetS -> S_U",           "c0.ld",                 "home=S", FALSE },
    { FALSE, TRUE,  "S_U + Unblock -> S",        "c0.ld",                 "home=S", FALSE },
    { FALSE, TRUE,  "I + GetM -> M_U",           "c0.st",                 "home=M", FALSE },
    { FALSE, TRUE,  "M_U + Unblock -> M",        "c0.st",                 "home=M", FALSE },
    { FALSE, TRUE,  "S + GetS -> S_U",           "c0.ld c1.ld",           "c0=S c1=S home=S", FALSE },
    { FALSE, TRUE,  "S + GetM -> M_U",           "c0.ld c1.st",           "home=M", FALSE },
    { FALSE, TRUE,  "S + Upgrade -> M_U",        "c0.ld c0.st",           "home=M", FALSE },
    { FALSE, TRUE,  "S + PutS -> S",             "c0.ld c1.ld c0.evict",  "c0=I c1=S home=S", FALSE },
    { FALSE, TRUE,  "S + PutS-Last -> I",        "c0.ld c0.evict",        "home=I", FALSE },
    { FALSE, TRUE,  "M + GetS -> S_DU",          "c0.st c1.ld",           "home=S", FALSE },
    { FALSE, TRUE,  "S_DU + CopyBack -> S_U",    "c0.st c1.ld",           "home=S", FALSE },
    { FALSE, TRUE,  "M + GetM -> M_U",           "c0.st c1.st",           "home=M", FALSE },
    { FALSE, TRUE,  "M + PutM -> I",             "c0.st c0.evict",        "home=I", FALSE },
    { FALSE, TRUE,  "M_U + GetS -> M_U",         "c0.st,c1.ld@1",         "home=S", FALSE },
    { FALSE, TRUE,  "S + Put-Stale -> S",        "c0.ld c1.st,c2.ld@1,c0.evict@2", "c0=I c1=S c2=S home=S", FALSE },
    { FALSE, TRUE,  "M + Put-Stale -> M",        "c0.st c1.st,c0.evict@1", "home=M", FALSE },
    { FALSE, TRUE,  "I + FarAtomic -> I",        "c0.far",                "home=I", TRUE },
    { FALSE, TRUE,  "S + FarAtomic -> AT_A",     "c0.ld c0.far",          "c0=I home=I", TRUE },
    { FALSE, TRUE,  "AT_A + Last-Inv-Ack -> I",  "c0.ld c0.far",          "home=I", TRUE },
    { FALSE, TRUE,  "AT_A + Inv-Ack -> AT_A",    "c0.ld c1.ld c2.far",    "c0=I c1=I home=I", TRUE },
    { FALSE, TRUE,  "M + FarAtomic -> AT_AD",    "c0.st c1.far",          "c0=I home=I", TRUE },
    { FALSE, TRUE,  "AT_AD + Data -> I",         "c0.st c1.far",          "home=I", TRUE },
    /* ---- the bus: Table 7.5, the cache controller ---- */
    { TRUE,  FALSE, "I + Load -> IS_D",          "c0.ld",                 "c0=S home=IorS", FALSE },
    { TRUE,  FALSE, "IS_D + Own-GetS -> IS_D",   "c0.ld",                 "c0=S", FALSE },
    { TRUE,  FALSE, "IS_D + Data -> S",          "c0.ld",                 "c0=S", FALSE },
    { TRUE,  FALSE, "IS_D + Load -> IS_D",       "c0.ld c1.ld,c1.ld@12",  "c1=S", FALSE },
    { TRUE,  FALSE, "IS_D + Store -> IS_D",      "c0.ld c1.ld,c1.st@12",  "c0=I c1=M", FALSE },
    { TRUE,  FALSE, "I + Store -> IM_D",         "c0.st",                 "c0=M home=M", FALSE },
    { TRUE,  FALSE, "IM_D + Own-GetM -> IM_D",   "c0.st",                 "c0=M", FALSE },
    { TRUE,  FALSE, "IM_D + Data -> M",          "c0.st",                 "c0=M", FALSE },
    { TRUE,  FALSE, "IM_D + Load -> IM_D",       "c0.st,c0.ld@12",        "c0=M", FALSE },
    { TRUE,  FALSE, "IM_D + Store -> IM_D",      "c0.st,c0.st@12",        "c0=M", FALSE },
    { TRUE,  FALSE, "I + Other-GetS -> I",       "c0.ld",                 "c1=I", FALSE },
    { TRUE,  FALSE, "I + Other-GetM -> I",       "c0.st",                 "c1=I", FALSE },
    { TRUE,  FALSE, "I + Own-PutM -> I",         "c0.st c0.evict",        "c0=I home=IorS", FALSE },
    { TRUE,  FALSE, "I + Other-PutM -> I",       "c0.st c0.evict",        "c1=I home=IorS", FALSE },
    { TRUE,  FALSE, "S + Load -> S",             "c0.ld c0.ld",           "c0=S", FALSE },
    { TRUE,  FALSE, "S + Store -> SM_D",         "c0.ld c0.st",           "c0=M home=M", FALSE },
    { TRUE,  FALSE, "SM_D + Own-GetM -> SM_D",   "c0.ld c0.st",           "c0=M", FALSE },
    { TRUE,  FALSE, "SM_D + Data -> M",          "c0.ld c0.st",           "c0=M", FALSE },
    { TRUE,  FALSE, "SM_D + Load -> SM_D",       "c0.ld c0.st,c0.ld@12",  "c0=M", FALSE },
    { TRUE,  FALSE, "SM_D + Store -> SM_D",      "c0.ld c0.st,c0.st@12",  "c0=M", FALSE },
    { TRUE,  FALSE, "S + Replacement -> I",      "c0.ld c0.evict",        "c0=I home=IorS", FALSE },
    { TRUE,  FALSE, "S + Other-GetS -> S",       "c0.ld c1.ld",           "c0=S c1=S home=IorS", FALSE },
    { TRUE,  FALSE, "S + Other-GetM -> I",       "c0.ld c1.st",           "c0=I c1=M home=M", FALSE },
    { TRUE,  FALSE, "M + Load -> M",             "c0.st c0.ld",           "c0=M", FALSE },
    { TRUE,  FALSE, "M + Store -> M",            "c0.st c0.st",           "c0=M", FALSE },
    { TRUE,  FALSE, "M + Replacement -> I",      "c0.st c0.evict",        "c0=I home=IorS", FALSE },
    { TRUE,  FALSE, "M + Other-GetS -> S",       "c0.st c1.ld",           "c0=S c1=S home=IorS", FALSE },
    { TRUE,  FALSE, "M + Other-GetM -> I",       "c0.st c1.st",           "c0=I c1=M home=M", FALSE },
    /* ---- the bus: Table 7.6, the memory controller ---- */
    { TRUE,  TRUE,  "IorS + GetS -> IorS",       "c0.ld",                 "home=IorS", FALSE },
    { TRUE,  TRUE,  "IorS + GetM -> M",          "c0.st",                 "home=M", FALSE },
    { TRUE,  TRUE,  "M + GetS -> IorS_D",        "c0.st c1.ld",           "home=IorS", FALSE },
    { TRUE,  TRUE,  "IorS_D + Data -> IorS",     "c0.st c1.ld",           "home=IorS", FALSE },
    { TRUE,  TRUE,  "M + GetM -> M",             "c0.st c1.st",           "home=M", FALSE },
    { TRUE,  TRUE,  "M + PutM -> IorS_D",        "c0.st c0.evict",        "home=IorS", FALSE },
};

/* Rows no script here times, each with the reason; the random tester fires them. */
static const struct {
    gboolean bus, dir;
    const char *row, *why;
} random_only[] = {
    { FALSE, FALSE, "IM_AD + Inv-Ack -> IM_AD",
      "an ack that overtakes the home's data: the data must come from memory while the sharer's "
      "answer is short, a mix these scripts' single line does not give" },
    { FALSE, FALSE, "SM_AD + Inv-Ack -> SM_AD",
      "an ack that overtakes the home's AckCount, which leaves no later than the Inv" },
    { FALSE, TRUE,  "I + Put-Stale -> I",
      "a Put overtaken by two transactions, the second of which leaves the line in I" },
    { FALSE, TRUE,  "S_DU + Unblock -> S_D", "never fires (coherence/msi.c): the copy-back is always first" },
    { FALSE, TRUE,  "S_D + CopyBack -> S", "never fires: only S_DU + Unblock leads to S_D" },
};

static CohRig *case_rig(gboolean bus, gboolean far)
{
    static const char *const bus_sets[] = { "topology.interconnect=bus", "bus.address_cycles=10",
                                            "bus.data_cycles=10", NULL };
    static const char *const far_sets[] = { "arch=arm64", "core.atomics=lse-far", NULL };
    g_autofree char *y = rig_yaml(1, 4, "msi");
    return rig_new(y, bus ? bus_sets : far ? far_sets : NULL);
}

static void check_states(CohRig *r, const char *states, const char *what)
{
    g_auto(GStrv) parts = g_strsplit(states, " ", -1);
    for (guint i = 0; parts[i]; i++) {
        guint c;
        char want[16];
        if (sscanf(parts[i], "home=%15s", want) == 1) {
            const char *got = coh_dir_state_name(memsys_dir_state(r->ms, SCRIPT_ADDR));
            ck_assert_msg(!strcmp(got, want), "%s: home in %s, not %s", what, got, want);
        } else {
            ck_assert_msg(sscanf(parts[i], "c%u=%15s", &c, want) == 2, "bad state '%s'", parts[i]);
            const char *got = coh_cache_state_name(memsys_cache_state(r->ms, c, SCRIPT_ADDR));
            ck_assert_msg(!strcmp(got, want), "%s: core %u in %s, not %s", what, c, got, want);
        }
    }
}

/* Case _i: its script fires its row and leaves the states it says. */
START_TEST(test_row)
{
    const RowCase *k = &row_cases[_i];
    CohRig *r = case_rig(k->bus, k->far);
    ck_assert_str_eq(memsys_protocol(r->ms)->name, k->bus ? "msi-bus" : "msi");
    ck_assert_uint_eq(script_row_fired(r, k->dir, k->row), 0);
    script_run(r, k->script);
    g_autofree char *what = g_strdup_printf("%s (%s): '%s'", k->row, k->bus ? "bus" : "directory", k->script);
    ck_assert_msg(script_row_fired(r, k->dir, k->row) > 0, "%s: the row never fired", what);
    if (k->states)
        check_states(r, k->states, what);
    rig_free(r);
}
END_TEST

/* Every row of both MSI table sets has a case, or a reason in random_only (and not both). */
START_TEST(test_every_row_has_a_case)
{
    GString *missing = g_string_new(NULL);
    for (guint b = 0; b < 2; b++) {
        const CohProtocol *p = b ? &coh_msi_bus : &coh_msi;
        for (guint d = 0; d < 2; d++) {
            const CohRow *rows = d ? p->dir : p->cache;
            guint n = d ? p->n_dir : p->n_cache;
            for (guint i = 0; i < n; i++) {
                if (d && rows[i].actions == DA_STALL)
                    continue; /* a request queued behind a busy line: the random tester's */
                g_autofree char *t = coh_row_text(&rows[i], d);
                guint cases = 0, excused = 0;
                for (guint k = 0; k < G_N_ELEMENTS(row_cases); k++)
                    cases += row_cases[k].bus == (gboolean)b && row_cases[k].dir == (gboolean)d &&
                             !strcmp(row_cases[k].row, t);
                for (guint k = 0; k < G_N_ELEMENTS(random_only); k++)
                    excused += random_only[k].bus == (gboolean)b && random_only[k].dir == (gboolean)d &&
                               !strcmp(random_only[k].row, t);
                if (cases + excused != 1)
                    g_string_append_printf(missing, "\n  %s %s %s: %u cases, %u reasons", p->name,
                                           d ? "directory" : "cache", t, cases, excused);
            }
        }
    }
    ck_assert_msg(missing->len == 0, "rows without exactly one case or reason:%s", missing->str);
    g_string_free(missing, TRUE);
}
END_TEST

/* The lesson: one core reads a line nobody else holds, then writes it.  MESI's E makes the
 * store a silent hit; MSI's S needs a second transaction: an Upgrade (with its AckCount and
 * Unblock) at the directory, a second bus transaction (GetM, with the data) on the bus. */
START_TEST(test_msi_needs_an_upgrade)
{
    static const struct {
        const char *proto;
        gboolean bus;
        guint64 getm, upgrades, transactions;
        CohCacheState after_load;
    } runs[] = {
        { "mesi", FALSE, 0, 0, 0, CS_E },
        { "msi", FALSE, 0, 1, 0, CS_S },
        { "mesi", TRUE, 0, 0, 1, CS_E },
        { "msi", TRUE, 1, 0, 2, CS_S },
    };
    static const char *const bus_sets[] = { "topology.interconnect=bus", NULL };
    for (guint i = 0; i < G_N_ELEMENTS(runs); i++) {
        g_autofree char *y = rig_yaml(1, 2, runs[i].proto);
        CohRig *r = rig_new(y, runs[i].bus ? bus_sets : NULL);
        rig_do(r, 0, MEM_LOAD, SCRIPT_ADDR, 0);
        rig_settle(r);
        ck_assert_int_eq(memsys_cache_state(r->ms, 0, SCRIPT_ADDR), runs[i].after_load);
        Cycle store = rig_do(r, 0, MEM_STORE, SCRIPT_ADDR, 7);
        rig_settle(r);
        const MemStats *st = memsys_stats(r->ms);
        ck_assert_int_eq(memsys_cache_state(r->ms, 0, SCRIPT_ADDR), CS_M);
        ck_assert_uint_eq(st->msgs[MSG_GETM], runs[i].getm);
        ck_assert_uint_eq(st->msgs[MSG_UPGRADE], runs[i].upgrades);
        ck_assert_uint_eq(st->bus_transactions, runs[i].transactions);
        ck_assert_uint_eq(st->rfos, runs[i].getm + runs[i].upgrades);
        /* the silent E + Store -> M commits like any L1 store hit */
        if (runs[i].after_load == CS_E)
            ck_assert_uint_eq(store, (Cycle)r->cfg->l1.store_cycles);
        else /* at least the home's lookup: an AckCount, or the data on the bus */
            ck_assert_uint_ge(store, (Cycle)r->cfg->llc.latency);
        rig_assert_ok(r);
        rig_free(r);
    }
}
END_TEST

Suite *make_coh_msi_suite(void)
{
    Suite *s = suite_create("coh_msi");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_row, 0, G_N_ELEMENTS(row_cases));
    tcase_add_test(tc, test_every_row_has_a_case);
    tcase_add_test(tc, test_msi_needs_an_upgrade);
    suite_add_tcase(s, tc);
    return s;
}
