/* The protocol tables: every cell well-formed, rows print as a trace quotes them, and an
 * uncovered (state, event) pair is a loud internal error. */
#include <check.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/coh_rig.h"
#include "coherence/protocol_words.h"

/* Walks every cell of both tables of protocol _i (coh_protocols: every table set). */
START_TEST(test_every_cell_well_formed)
{
    const CohProtocol *p = coh_protocols[_i];
    g_autoptr(GError) error = NULL;
    ck_assert_msg(coh_protocol_check(p, &error), "%s", error ? error->message : "");
    for (guint i = 0; i < p->n_cache; i++) {
        const CohRow *r = &p->cache[i];
        ck_assert_uint_lt(r->next, CS__N);
        ck_assert_uint_eq(r->actions & ~CA__ALL, 0);
        /* leaving for I frees the line; a stable next state with a request is impossible */
        if (r->next == CS_I && r->state != CS_I)
            ck_assert(r->actions & CA_FREE);
        if (r->actions & (CA_SEND_GETS | CA_SEND_GETM | CA_SEND_UPGRADE | CA_ISSUE_GETS | CA_ISSUE_GETM))
            ck_assert(!coh_cache_state_stable(r->next));
        /* each family keeps to its actions: a bus has no home, a directory no bus */
        ck_assert_uint_eq(r->actions & (p->bus ? CA_DIRECTORY_ONLY : CA_BUS_ONLY), 0);
        /* without E no row enters E */
        if (!p->has_e)
            ck_assert(r->next != CS_E && r->event != CE_DATA_E);
        if (r->actions & CA_UNBLOCK)
            ck_assert(coh_cache_state_stable(r->next));
        g_autofree char *t = coh_row_text(r, FALSE);
        ck_assert_ptr_nonnull(strstr(t, " -> "));
    }
    for (guint i = 0; i < p->n_dir; i++) {
        const CohRow *r = &p->dir[i];
        ck_assert_uint_lt(r->next, DS__N);
        ck_assert_uint_eq(r->actions & ~DA__ALL, 0);
        /* every transient directory state has a way out */
        if (!coh_dir_state_stable(r->next)) {
            gboolean out = FALSE;
            for (guint j = 0; j < p->n_dir; j++)
                out |= p->dir[j].state == r->next && p->dir[j].next != r->next;
            ck_assert_msg(out, "%s: directory state %s has no exit", p->name, coh_dir_state_name(r->next));
        }
    }
}
END_TEST

/* A table's columns are the events its side sees: a request a directory serves in no stable
 * state is one no cache of the protocol sends (a PutO under MESI, which has no O), and rows
 * that only queue it would give the printed table a column of stalls for it. */
START_TEST(test_columns_are_events_that_happen)
{
    const CohProtocol *p = coh_protocols[_i];
    for (guint i = 0; i < p->n_dir; i++) {
        const CohRow *r = &p->dir[i];
        if (coh_dir_event_group(r->event) != 0)
            continue;
        gboolean served = FALSE;
        for (guint j = 0; j < p->n_dir && !served; j++)
            served = p->dir[j].event == r->event && coh_dir_state_stable(p->dir[j].state) &&
                     !(p->dir[j].actions & DA_STALL);
        ck_assert_msg(served, "%s: %s + %s: no stable state serves %s, yet the table has a row for it", p->name,
                      coh_dir_state_name(r->state), coh_dir_event_name(r->event), coh_dir_event_name(r->event));
    }
    /* the events that need a state the protocol lacks */
    for (guint i = 0; i < p->n_dir && !p->bus; i++) {
        if (!p->has_o)
            ck_assert_msg(p->dir[i].event != DE_PUTO, "%s has no O, yet a row for PutO", p->name);
        if (!p->has_e)
            ck_assert_msg(p->dir[i].event != DE_PUTE, "%s has no E, yet a row for PutE", p->name);
    }
}
END_TEST

START_TEST(test_row_text)
{
    const CohRow r = { .state = CS_IS_D, .event = CE_DATA, .next = CS_S, COH_DO(CA_SAVE_DATA) };
    g_autofree char *t = coh_row_text(&r, FALSE);
    ck_assert_str_eq(t, "IS_D + Data -> S");
    g_autofree char *a = coh_actions_text(CA_SEND_GETM | CA_LOST_INV, FALSE);
    ck_assert_str_eq(a, "send GetM, lost-inv");
}
END_TEST

/* A bus table may not send to a home, nor a directory table issue on a bus. */
START_TEST(test_family_actions_checked)
{
    for (guint b = 0; b < 2; b++) {
        const CohProtocol *good = b ? &coh_msi_bus : &coh_msi;
        g_autofree CohRow *rows = g_memdup2(good->cache, good->n_cache * sizeof(CohRow));
        rows[0].actions |= b ? CA_SEND_GETS : CA_ISSUE_GETS; /* row 0 is I + Load in both */
        CohProtocol bad = *good;
        bad.cache = rows;
        g_autoptr(GError) error = NULL;
        ck_assert(!coh_protocol_check(&bad, &error));
        ck_assert_msg(strstr(error->message, b ? "uses a directory action" : "uses a bus action"), "%s",
                      error->message);
    }
}
END_TEST

/* A row runs its list, and is printed and asked through its set: the two must be one list.  A
 * list that names another action than the set, or one twice, is refused. */
START_TEST(test_run_list_checked)
{
    for (guint k = 0; k < 2; k++) {
        g_autofree CohRow *rows = g_memdup2(coh_mesi.cache, coh_mesi.n_cache * sizeof(CohRow));
        guint i = 0;
        while (rows[i].state != CS_S || rows[i].event != CE_INV) /* ack, lost-inv, free */
            i++;
        ck_assert_uint_eq(rows[i].n_run, 3);
        rows[i].run[1] = k ? rows[i].run[0] : CA_LOST_DOWN;
        CohProtocol bad = coh_mesi;
        bad.cache = rows;
        g_autoptr(GError) error = NULL;
        ck_assert(!coh_protocol_check(&bad, &error));
        ck_assert_msg(strstr(error->message, "cache row") && strstr(error->message, "(S + Inv -> I): its run list is "
                                                                                   "not its action set"),
                      "%s", error->message);
    }
}
END_TEST

/* Each state is declared once, with its words and permissions, and the predicates read them. */
START_TEST(test_states_declared)
{
    for (guint s = 0; s < CS__N; s++) {
        const CohCacheStateInfo *i = &coh_cache_states[s];
        ck_assert_msg(i->name && i->doc && *i->doc, "cache state %u", s);
        ck_assert_str_eq(coh_cache_state_name(s), i->name);
        /* a writable state is readable and stable; a dirty one is its line's owner */
        ck_assert(!i->writable || (i->readable && i->stable));
        ck_assert(!i->dirty || i->owner);
    }
    for (guint s = 0; s < DS__N; s++) {
        const CohDirStateInfo *i = &coh_dir_states[s];
        ck_assert_msg(i->name && i->doc && *i->doc, "directory state %u", s);
        ck_assert_msg(!i->stable == (i->wait != NULL), "%s: a busy state says what it waits for", i->name);
    }
    ck_assert(coh_cache_state_writable(CS_E) && coh_cache_state_writable(CS_M) && !coh_cache_state_writable(CS_O));
    ck_assert(coh_cache_state_readable(CS_SM_AD) && !coh_cache_state_readable(CS_IM_AD));
    ck_assert(coh_cache_state_owner(CS_MI_A) && !coh_cache_state_dirty(CS_EI_A));
    ck_assert(coh_dir_state_stable(DS_IORS) && !coh_dir_state_stable(DS_IORS_D) && !coh_cache_state_stable(CS__N));
}
END_TEST

/* A table with a hole: the first event hitting it must stop the run, naming state and event. */
START_TEST(test_missing_cell_is_fatal)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 2); /* the parent reads what the error says */
        close(fds[0]);
        g_autofree char *y = rig_yaml(1, 2, "mesi");
        CohRig *r = rig_new(y, NULL);
        /* I + Load now waits in IM_A, which has no Data row */
        memsys_override_cache_row(r->ms, CS_I, CE_LOAD, CA_SEND_GETS, CS_IM_A);
        rig_do(r, 0, MEM_LOAD, 0, 0);
        _exit(0);
    }
    close(fds[1]);
    GString *msg = g_string_new(NULL);
    char buf[256];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0)
        g_string_append_len(msg, buf, n);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    ck_assert(!(WIFEXITED(status) && WEXITSTATUS(status) == 0));
    ck_assert_msg(strstr(msg->str, "no cache-table row for state IM_A and event Data_E"), "%s", msg->str);
    g_string_free(msg, TRUE);
}
END_TEST

Suite *make_coh_table_suite(void)
{
    Suite *s = suite_create("coh_table");
    TCase *tc = tcase_create("cells");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_every_cell_well_formed, 0, coh_n_protocols);
    tcase_add_loop_test(tc, test_columns_are_events_that_happen, 0, coh_n_protocols);
    tcase_add_test(tc, test_row_text);
    tcase_add_test(tc, test_family_actions_checked);
    tcase_add_test(tc, test_run_list_checked);
    tcase_add_test(tc, test_states_declared);
    tcase_add_test(tc, test_missing_cell_is_fatal);
    suite_add_tcase(s, tc);
    return s;
}
