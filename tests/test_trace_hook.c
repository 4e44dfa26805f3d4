/* The memory system's trace hook (memsys_set_trace): each row that fires is reported once,
 * with the messages it sent (types, destinations, ack counts as they left), rows name the
 * message that caused them, and tracing changes nothing in the model. */
#include <check.h>
#include "tests/coh_rig.h"

typedef struct {
    GArray *rows;         /* MemTraceRow */
    GArray *row_msgs;     /* guint: messages of row i */
    GArray *msgs;         /* MemTraceMsg, every one reported, in order */
    guint orphans;        /* messages reported without a row */
} Tape;

static void on_trace(void *user, const MemTraceRow *row, const MemTraceMsg *msgs, guint n)
{
    Tape *t = user;
    if (row) {
        g_array_append_val(t->rows, *row);
        g_array_append_val(t->row_msgs, n);
    } else
        t->orphans += n;
    g_array_append_vals(t->msgs, msgs, n);
}

static Tape *tape_new(void)
{
    Tape *t = g_new0(Tape, 1);
    t->rows = g_array_new(FALSE, FALSE, sizeof(MemTraceRow));
    t->row_msgs = g_array_new(FALSE, FALSE, sizeof(guint));
    t->msgs = g_array_new(FALSE, FALSE, sizeof(MemTraceMsg));
    return t;
}

static void tape_free(Tape *t)
{
    g_array_free(t->rows, TRUE);
    g_array_free(t->row_msgs, TRUE);
    g_array_free(t->msgs, TRUE);
    g_free(t);
}

static CohRig *rig(guint cores, const char *proto)
{
    g_autofree char *y = rig_yaml(1, cores, proto);
    return rig_new(y, NULL);
}

/* The index in t->msgs of the first message of row i. */
static guint first_msg(const Tape *t, guint i)
{
    guint k = 0;
    for (guint j = 0; j < i; j++)
        k += g_array_index(t->row_msgs, guint, j);
    return k;
}

static gint find_row(const Tape *t, gint core, gboolean dir, guint st, guint ev, guint from)
{
    for (guint i = from; i < t->rows->len; i++) {
        const MemTraceRow *r = &g_array_index(t->rows, MemTraceRow, i);
        if (r->core == core && r->dir == dir && r->row->state == st && r->row->event == ev)
            return (gint)i;
    }
    return -1;
}

/* A store to a line three cores share: the home's row sends Inv to each and Data with the ack
 * count to the writer; each sharer's Inv row names its Inv; the acks name their row. */
START_TEST(test_rows_carry_their_messages)
{
    CohRig *r = rig(4, "mesi");
    Tape *t = tape_new();
    memsys_set_trace(r->ms, on_trace, t);
    for (guint c = 1; c <= 3; c++) {
        rig_do(r, c, MEM_LOAD, 0x800, 0);
        rig_settle(r);
    }
    guint before = t->rows->len;
    rig_do(r, 0, MEM_STORE, 0x808, 5);
    rig_settle(r);

    gint store = find_row(t, 0, FALSE, CS_I, CE_STORE, before);
    ck_assert_int_ge(store, 0);
    const MemTraceRow *sr = &g_array_index(t->rows, MemTraceRow, store);
    ck_assert_uint_eq(sr->addr, 0x808);
    ck_assert_int_eq(sr->access, MEM_STORE);
    ck_assert_uint_eq(sr->line, 0x800);
    ck_assert_uint_eq(sr->cause, 0);
    ck_assert_uint_eq(g_array_index(t->row_msgs, guint, store), 1);
    const MemTraceMsg *getm = &g_array_index(t->msgs, MemTraceMsg, first_msg(t, (guint)store));
    ck_assert_int_eq(getm->type, MSG_GETM);
    ck_assert_int_eq(getm->dst, MEMSYS_HOME);

    gint home = find_row(t, MEMSYS_HOME, TRUE, DS_S, DE_GETM, before);
    ck_assert_int_ge(home, 0);
    const MemTraceRow *hr = &g_array_index(t->rows, MemTraceRow, home);
    ck_assert_uint_eq(hr->cause, getm->id);
    ck_assert_int_eq(hr->dir_owner, 0);
    ck_assert_uint_eq(hr->dir_sharers, 0);
    ck_assert_uint_eq(g_array_index(t->row_msgs, guint, home), 4);
    guint invs = 0, k0 = first_msg(t, (guint)home);
    guint64 inv_id[4] = { 0 };
    for (guint k = k0; k < k0 + 4; k++) {
        const MemTraceMsg *m = &g_array_index(t->msgs, MemTraceMsg, k);
        ck_assert_int_eq(m->src, MEMSYS_HOME);
        ck_assert_uint_eq(m->sent, hr->cycle);
        ck_assert_uint_ge(m->arrives, m->sent);
        if (m->type == MSG_INV) {
            ck_assert_int_eq(m->req, 0); /* acks go to the writer */
            ck_assert(m->dst >= 1 && m->dst <= 3);
            inv_id[m->dst] = m->id;
            invs++;
        } else {
            ck_assert(m->type == MSG_DATA_LLC || m->type == MSG_DATA_MEM);
            ck_assert_int_eq(m->dst, 0);
            ck_assert_int_eq(m->acks, 3);
            ck_assert(m->data);
        }
    }
    ck_assert_uint_eq(invs, 3);
    for (guint c = 1; c <= 3; c++) {
        gint inv = find_row(t, (gint)c, FALSE, CS_S, CE_INV, before);
        ck_assert_int_ge(inv, 0);
        const MemTraceRow *ir = &g_array_index(t->rows, MemTraceRow, inv);
        ck_assert_uint_eq(ir->cause, inv_id[c]);
        ck_assert_uint_eq(g_array_index(t->row_msgs, guint, inv), 1);
        const MemTraceMsg *ack = &g_array_index(t->msgs, MemTraceMsg, first_msg(t, (guint)inv));
        ck_assert_int_eq(ack->type, MSG_INV_ACK);
        ck_assert_int_eq(ack->dst, 0);
    }
    memsys_set_trace(r->ms, NULL, NULL);
    rig_assert_ok(r);
    tape_free(t);
    rig_free(r);
}
END_TEST

/* Every message is reported once, ids count up from 1, and every row that fired is reported
 * (the stats count each row; the trace must agree). */
START_TEST(test_every_row_and_message_reported)
{
    CohRig *r = rig(4, _i ? "moesi" : "mesi");
    Tape *t = tape_new();
    memsys_set_trace(r->ms, on_trace, t);
    for (guint k = 0; k < 40; k++) {
        guint core = (k * 7) % 4;
        uint64_t addr = 0x1000 + ((k * 5) % 3) * 64 + (k % 2) * 8;
        rig_do(r, core, (k % 3) ? MEM_LOAD : MEM_STORE, addr, k);
    }
    rig_rmw(r, 1, RMW_ADD, 0x1000, 1, 0, FALSE, 0);
    rig_settle(r);
    const MemStats *st = memsys_stats(r->ms);
    guint64 sent = 0;
    for (guint m = 0; m < MSG__N; m++)
        sent += st->msgs[m];
    ck_assert_uint_eq(t->msgs->len, sent);
    for (guint k = 0; k < t->msgs->len; k++)
        ck_assert_uint_eq(g_array_index(t->msgs, MemTraceMsg, k).id, k + 1);
    guint64 fired = 0;
    const CohProtocol *p = memsys_protocol(r->ms);
    for (guint i = 0; i < p->n_cache; i++)
        fired += memsys_cache_rows_fired(r->ms)[i];
    for (guint i = 0; i < p->n_dir; i++)
        fired += memsys_dir_rows_fired(r->ms)[i];
    ck_assert_uint_eq(t->rows->len, fired);
    ck_assert_uint_eq(t->orphans, 0);
    /* rows report the table cell they applied */
    for (guint k = 0; k < t->rows->len; k++) {
        const MemTraceRow *row = &g_array_index(t->rows, MemTraceRow, k);
        const CohRow *tab = row->dir ? &p->dir[row->index] : &p->cache[row->index];
        ck_assert_int_eq(tab->state, row->row->state);
        ck_assert_int_eq(tab->event, row->row->event);
    }
    memsys_set_trace(r->ms, NULL, NULL);
    tape_free(t);
    rig_free(r);
}
END_TEST

/* Requests that queue behind others at a busy home: each one's stall row is traced and
 * counted (the count missed a request that found others already queued). */
START_TEST(test_queued_requests_counted_as_traced)
{
    CohRig *r = rig(4, "mesi");
    Tape *t = tape_new();
    rig_do(r, 0, MEM_STORE, 0x40, 1);
    rig_settle(r);
    memsys_set_trace(r->ms, on_trace, t);
    MemRequest q = { .kind = MEM_LOAD, .addr = 0x40, .size = 8 };
    for (guint c = 1; c < 4; c++) {
        r->got[c] = FALSE;
        memsys_issue(r->ms, c, &q);
    }
    rig_settle(r);
    for (guint c = 1; c < 4; c++)
        ck_assert(r->got[c]);
    ck_assert_uint_ge(memsys_stats(r->ms)->home_queued, 2);
    guint64 fired = 0, stalls_fired = 0, stalls_traced = 0;
    const CohProtocol *p = memsys_protocol(r->ms);
    for (guint i = 0; i < p->n_cache; i++)
        fired += memsys_cache_rows_fired(r->ms)[i];
    for (guint i = 0; i < p->n_dir; i++) {
        fired += memsys_dir_rows_fired(r->ms)[i];
        if (p->dir[i].actions & DA_STALL)
            stalls_fired += memsys_dir_rows_fired(r->ms)[i];
    }
    for (guint k = 0; k < t->rows->len; k++) {
        const MemTraceRow *row = &g_array_index(t->rows, MemTraceRow, k);
        stalls_traced += row->dir && (row->row->actions & DA_STALL);
    }
    ck_assert_uint_eq(stalls_traced, memsys_stats(r->ms)->home_queued);
    ck_assert_uint_eq(stalls_fired, stalls_traced);
    /* the store's rows came before the trace was on */
    memsys_set_trace(r->ms, NULL, NULL);
    rig_assert_ok(r);
    tape_free(t);
    rig_free(r);
}
END_TEST

/* A far atomic's request is sent outside any row: it comes alone. */
START_TEST(test_far_atomic_request_alone)
{
    CohRig *r = rig(2, "mesi");
    Tape *t = tape_new();
    memsys_set_trace(r->ms, on_trace, t);
    rig_rmw(r, 0, RMW_ADD, 0x40, 1, 0, TRUE, 0);
    rig_settle(r);
    ck_assert_uint_eq(t->orphans, 1);
    ck_assert_int_eq(g_array_index(t->msgs, MemTraceMsg, 0).type, MSG_FAR_ATOMIC);
    memsys_set_trace(r->ms, NULL, NULL);
    tape_free(t);
    rig_free(r);
}
END_TEST

/* Tracing observes: the same accesses with and without it give the same cycles and counters. */
START_TEST(test_tracing_changes_nothing)
{
    Cycle end[2];
    guint64 msgs[2], rfos[2];
    for (guint traced = 0; traced < 2; traced++) {
        CohRig *r = rig(4, "moesi");
        Tape *t = tape_new();
        if (traced)
            memsys_set_trace(r->ms, on_trace, t);
        for (guint k = 0; k < 30; k++)
            rig_do(r, k % 4, (k % 2) ? MEM_LOAD : MEM_STORE, 0x2000 + (k % 3) * 64, k);
        rig_settle(r);
        end[traced] = engine_now(r->e);
        msgs[traced] = memsys_stats(r->ms)->msgs[MSG_INV] + memsys_stats(r->ms)->msgs[MSG_DATA_C2C];
        rfos[traced] = memsys_stats(r->ms)->rfos;
        if (traced)
            ck_assert_uint_gt(t->rows->len, 30);
        memsys_set_trace(r->ms, NULL, NULL);
        tape_free(t);
        rig_free(r);
    }
    ck_assert_uint_eq(end[0], end[1]);
    ck_assert_uint_eq(msgs[0], msgs[1]);
    ck_assert_uint_eq(rfos[0], rfos[1]);
}
END_TEST

Suite *make_trace_hook_suite(void)
{
    Suite *s = suite_create("trace_hook");
    TCase *tc = tcase_create("hook");
    tcase_add_test(tc, test_rows_carry_their_messages);
    tcase_add_loop_test(tc, test_every_row_and_message_reported, 0, 2);
    tcase_add_test(tc, test_far_atomic_request_alone);
    tcase_add_test(tc, test_queued_requests_counted_as_traced);
    tcase_add_test(tc, test_tracing_changes_nothing);
    suite_add_tcase(s, tc);
    return s;
}
