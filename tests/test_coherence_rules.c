/* The home rules of the directory tables (CohDirRule, protocol.h): what the home does beside a
 * row's actions, with the LLCs and with MESIF's F copy.  Each test runs a scenario in which a
 * flagged row fires and shows what its flag does, then runs it again with the flag taken off
 * that row (memsys_override_dir_rules) and shows the difference: the flag, not the protocol's
 * name, decides.  Three sockets of two cores; line 0 is homed on socket 0 (interleaved). */
#include <check.h>
#include <string.h>
#include "coherence/protocol.h"
#include "tests/coh_rig.h"

#define LINE 0x0

static CohRig *rig(const char *proto)
{
    g_autofree char *y = rig_yaml(3, 2, proto);
    CohRig *r = rig_new(y, NULL);
    ck_assert_uint_eq(memsys_home_socket(r->ms, LINE), 0);
    return r;
}

static guint row_of(const CohProtocol *p, CohDirState s, CohDirEvent e)
{
    for (guint i = 0; i < p->n_dir; i++)
        if (p->dir[i].state == s && p->dir[i].event == e)
            return i;
    ck_abort_msg("no row %s + %s", coh_dir_state_name(s), coh_dir_event_name(e));
    return 0;
}

/* Takes `drop` off row (s, e) of r's copy of the table (which has MESIF's rules only if the rig
 * runs MESIF). */
static void take_off(CohRig *r, CohDirState s, CohDirEvent e, guint drop)
{
    guint rules = memsys_dir_rules(r->ms, s, e);
    ck_assert_msg(rules & drop, "%s + %s lacks the rule", coh_dir_state_name(s), coh_dir_event_name(e));
    memsys_override_dir_rules(r->ms, s, e, rules & ~drop);
}

static MemSource load(CohRig *r, guint core)
{
    rig_do(r, core, MEM_LOAD, LINE, 0);
    rig_settle(r);
    return r->last[core].source;
}

static void evict(CohRig *r, guint core)
{
    ck_assert(memsys_evict(r->ms, core, LINE));
    rig_settle(r);
}

/* MESIF: a reader on socket 1 takes F (I + GetS, DR_F_TO_READER) and drops its copy; a reader
 * on socket 2 then gets socket 1's LLC copy (I + GetS, DR_F_FORWARD).  Returns where the
 * second reader's data came from. */
static MemSource f_forward_scenario(const char *proto, guint take_off_rules)
{
    CohRig *r = rig(proto);
    if (take_off_rules)
        take_off(r, DS_I, DE_GETS, take_off_rules);
    ck_assert_int_eq(load(r, 2), MEM_SRC_MEMORY);
    evict(r, 2);
    ck_assert_int_eq(memsys_dir_state(r->ms, LINE), DS_I);
    MemSource src = load(r, 4);
    ck_assert_uint_eq(memsys_stats(r->ms)->f_forwards, src == MEM_SRC_REMOTE_LLC);
    rig_assert_ok(r);
    rig_free(r);
    return src;
}

START_TEST(test_f_forward)
{
    ck_assert_int_eq(f_forward_scenario("mesif", 0), MEM_SRC_REMOTE_LLC);
    ck_assert_int_eq(f_forward_scenario("mesif", DR_F_FORWARD), MEM_SRC_MEMORY);
    /* MESI runs the same table, without the MESIF rules */
    ck_assert_int_eq(f_forward_scenario("mesi", 0), MEM_SRC_MEMORY);
}
END_TEST

/* MESIF: F moves to the newest reader (socket 2, whose copy came from socket 1's F); once
 * socket 1's LLC loses the line, a reader on socket 0 still gets socket 2's copy.  Without
 * DR_F_TO_READER on I + GetS from the second read on, F stays with socket 1, whose copy is
 * gone: memory. */
static MemSource f_to_reader_scenario(guint take_off_rules)
{
    CohRig *r = rig("mesif");
    load(r, 2);
    evict(r, 2);
    if (take_off_rules)
        take_off(r, DS_I, DE_GETS, take_off_rules);
    ck_assert_int_eq(load(r, 4), MEM_SRC_REMOTE_LLC);
    evict(r, 4);
    ck_assert(memsys_llc_drop(r->ms, 1, LINE));
    MemSource src = load(r, 0);
    rig_assert_ok(r);
    rig_free(r);
    return src;
}

START_TEST(test_f_to_reader)
{
    ck_assert_int_eq(f_to_reader_scenario(0), MEM_SRC_REMOTE_LLC);
    ck_assert_int_eq(f_to_reader_scenario(DR_F_TO_READER), MEM_SRC_MEMORY);
}
END_TEST

/* MESIF: socket 1 reads (F), another core on socket 1 writes (EM + GetM: DR_STALE_LLC and
 * DR_F_DROP; EM_U + Unblock: DR_F_DROP) and writes the line back (EM + PutM: socket 1's LLC is
 * current again).  A reader on socket 2 gets memory's copy: the writer ended F.  Without the
 * stale rule on EM + GetM the LLCs stay "current" and F with them; without the drop on the
 * rows that run while no LLC is current, F outlives them; either way socket 1 forwards. */
static MemSource writer_ends_f_scenario(guint stale_off, guint drop_off)
{
    CohRig *r = rig("mesif");
    if (stale_off)
        take_off(r, DS_EM, DE_GETM, DR_STALE_LLC);
    if (drop_off) {
        take_off(r, DS_EM, DE_GETM, DR_F_DROP);
        take_off(r, DS_EM_U, DE_UNBLOCK, DR_F_DROP);
    }
    load(r, 2);
    rig_do(r, 3, MEM_STORE, LINE, 7);
    rig_settle(r);
    evict(r, 3);
    ck_assert_int_eq(memsys_dir_state(r->ms, LINE), DS_I);
    MemSource src = load(r, 4);
    ck_assert_uint_eq(r->last[4].value, 7);
    rig_assert_ok(r);
    rig_free(r);
    return src;
}

START_TEST(test_writer_ends_f)
{
    ck_assert_int_eq(writer_ends_f_scenario(FALSE, FALSE), MEM_SRC_MEMORY);
    ck_assert_int_eq(writer_ends_f_scenario(TRUE, FALSE), MEM_SRC_REMOTE_LLC);
    ck_assert_int_eq(writer_ends_f_scenario(FALSE, TRUE), MEM_SRC_REMOTE_LLC);
}
END_TEST

/* MESI: a reader on socket 2 of a line socket 1 holds in M gets it cache to cache; the owner's
 * copy-back (S_DU + CopyBack, DR_LLC_TO_READER) fills socket 2's LLC too, so once both drop
 * their copies another core on socket 2 reads it from its own LLC. */
static MemSource copyback_scenario(guint take_off_rules)
{
    CohRig *r = rig("mesi");
    if (take_off_rules)
        take_off(r, DS_S_DU, DE_COPYBACK, take_off_rules);
    rig_do(r, 2, MEM_STORE, LINE, 9);
    rig_settle(r);
    ck_assert_int_eq(load(r, 4), MEM_SRC_PEER_REMOTE_SOCKET);
    evict(r, 4);
    evict(r, 2);
    ck_assert_int_eq(memsys_dir_state(r->ms, LINE), DS_I);
    MemSource src = load(r, 5);
    ck_assert_uint_eq(r->last[5].value, 9);
    rig_assert_ok(r);
    rig_free(r);
    return src;
}

START_TEST(test_copyback_fills_reader_llc)
{
    ck_assert_int_eq(copyback_scenario(0), MEM_SRC_LLC);
    ck_assert_int_eq(copyback_scenario(DR_LLC_TO_READER), MEM_SRC_MEMORY);
}
END_TEST

/* coh_protocol_check: the rules are known bits, on directory rows that are not stalls; a table
 * with MESIF rules says of every row what becomes of F; a bus has none. */
static const char *check_with(const CohProtocol *good, guint row, gboolean cache, guint rules)
{
    static char msg[256];
    CohRow *rows = g_memdup2(cache ? good->cache : good->dir,
                             (cache ? good->n_cache : good->n_dir) * sizeof(CohRow));
    rows[row].rules = (guint8)rules;
    CohProtocol bad = *good;
    if (cache)
        bad.cache = rows;
    else
        bad.dir = rows;
    g_autoptr(GError) error = NULL;
    gboolean ok = coh_protocol_check(&bad, &error);
    g_strlcpy(msg, ok ? "ok" : error->message, sizeof msg);
    g_free(rows);
    return msg;
}

START_TEST(test_rules_checked)
{
    for (guint i = 0; i < coh_n_protocols; i++) {
        g_autoptr(GError) error = NULL;
        ck_assert_msg(coh_protocol_check(coh_protocols[i], &error), "%s", error ? error->message : "");
    }
    guint igets = row_of(&coh_mesi, DS_I, DE_GETS), stall = row_of(&coh_mesi, DS_S_U, DE_GETS);
    ck_assert_str_eq(check_with(&coh_mesi, igets, FALSE, coh_mesi.dir[igets].rules), "ok");
    ck_assert_ptr_nonnull(strstr(check_with(&coh_mesi, igets, FALSE, 1u << 7), "unknown home rules"));
    ck_assert_ptr_nonnull(strstr(check_with(&coh_mesi, 0, TRUE, DR_STALE_LLC), "unknown home rules"));
    ck_assert_ptr_nonnull(strstr(check_with(&coh_mesi, stall, FALSE, DR_F_DROP), "a stall does nothing else"));
    /* MESIF's rules are their own table (coherence/mesif.c): no protocol table carries one */
    ck_assert_ptr_nonnull(strstr(check_with(&coh_mesi, igets, FALSE, DR_F_FORWARD),
                                 "directory row 0 (I + GetS -> EM_U) has a MESIF rule"));
    ck_assert_ptr_nonnull(strstr(check_with(&coh_mesi_bus, 0, FALSE, DR_F_DROP), "has a MESIF rule"));
    ck_assert_str_eq(check_with(&coh_moesi, 0, FALSE, DR_STALE_LLC), "ok");
}
END_TEST

/* coh_mesif_check: MESIF's table says of every MESI directory row that is not a stall what
 * becomes of F, one thing, and has no rows of its own. */
static const char *mesif_check_with(CohDirState s, CohDirEvent e, guint rules)
{
    static char msg[256];
    CohFRule *rows = g_memdup2(coh_mesif_rules, coh_n_mesif_rules * sizeof(CohFRule));
    guint n = coh_n_mesif_rules;
    for (guint i = 0; i < n; i++)
        if (rows[i].state == s && rows[i].event == e)
            rows[i].rules = (guint8)rules;
    g_autoptr(GError) error = NULL;
    gboolean ok = coh_mesif_check(&coh_mesi, rows, n, &error);
    g_strlcpy(msg, ok ? "ok" : error->message, sizeof msg);
    g_free(rows);
    return msg;
}

START_TEST(test_mesif_rules_checked)
{
    g_autoptr(GError) error = NULL;
    ck_assert_msg(coh_mesif_check(&coh_mesi, coh_mesif_rules, coh_n_mesif_rules, &error), "%s",
                  error ? error->message : "");
    ck_assert_str_eq(mesif_check_with(DS_I, DE_GETS, DR_F_FORWARD | DR_F_TO_READER), "ok");
    ck_assert_ptr_nonnull(strstr(mesif_check_with(DS_I, DE_GETS, DR_F_FORWARD),
                                 "directory row 0 (I + GetS -> EM_U) does not say what becomes of F"));
    ck_assert_ptr_nonnull(strstr(mesif_check_with(DS_I, DE_GETS, DR_F_TO_READER | DR_F_DROP),
                                 "says two things of F"));
    ck_assert_ptr_nonnull(strstr(mesif_check_with(DS_I, DE_GETS, DR_F_TO_READER | DR_STALE_LLC),
                                 "rule 0 (I + GetS)"));
    /* a rule for a stall row, which no MESI row runs */
    CohFRule *rows = g_memdup2(coh_mesif_rules, coh_n_mesif_rules * sizeof(CohFRule));
    rows[0].state = DS_S_U;
    g_autoptr(GError) e2 = NULL;
    ck_assert(!coh_mesif_check(&coh_mesi, rows, coh_n_mesif_rules, &e2));
    ck_assert_ptr_nonnull(strstr(e2->message, "rule 0 (S_U + GetS)"));
    g_free(rows);
}
END_TEST

Suite *make_coh_rules_suite(void)
{
    Suite *s = suite_create("coh_rules");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_f_forward);
    tcase_add_test(tc, test_f_to_reader);
    tcase_add_test(tc, test_writer_ends_f);
    tcase_add_test(tc, test_copyback_fills_reader_llc);
    tcase_add_test(tc, test_rules_checked);
    tcase_add_test(tc, test_mesif_rules_checked);
    suite_add_tcase(s, tc);
    return s;
}
