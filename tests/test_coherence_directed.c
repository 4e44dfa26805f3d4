/* Directed coherence scenarios: the textbook cases, each with its states, messages and values. */
#include <check.h>
#include "tests/coh_rig.h"

static CohRig *rig(guint sockets, guint cps, const char *proto)
{
    g_autofree char *y = rig_yaml(sockets, cps, proto);
    return rig_new(y, NULL);
}

START_TEST(test_load_store_values)
{
    CohRig *r = rig(1, 2, "mesi");
    memsys_poke(r->ms, 0x1000, 8, 7);
    rig_do(r, 0, MEM_LOAD, 0x1000, 0);
    ck_assert_uint_eq(r->last[0].value, 7);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, 0x1000), CS_E);
    rig_settle(r);
    rig_do(r, 1, MEM_STORE, 0x1008, 99);
    rig_settle(r);
    ck_assert_int_eq(memsys_cache_state(r->ms, 1, 0x1000), CS_M);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, 0x1000), CS_I);
    rig_do(r, 0, MEM_LOAD, 0x1008, 0);
    ck_assert_uint_eq(r->last[0].value, 99);
    ck_assert_uint_eq(memsys_peek(r->ms, 0x1008, 8), 99);
    rig_settle(r);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST


static guint64 row_fired(CohRig *r, CohCacheState st, CohCacheEvent ev)
{
    const CohProtocol *p = memsys_protocol(r->ms);
    for (guint i = 0; i < p->n_cache; i++)
        if (p->cache[i].state == st && p->cache[i].event == ev)
            return memsys_cache_rows_fired(r->ms)[i];
    return 0;
}

/* Read miss to a line a core on the other socket holds in M: Fwd-GetS, c2c data, copy-back. */
START_TEST(test_read_miss_remote_owner)
{
    CohRig *r = rig(2, 2, "mesi");
    rig_do(r, 2, MEM_STORE, 0x400, 1234);
    rig_settle(r);
    ck_assert_int_eq(memsys_cache_state(r->ms, 2, 0x400), CS_M);
    Cycle t = rig_do(r, 0, MEM_LOAD, 0x400, 0);
    ck_assert_uint_eq(r->last[0].value, 1234);
    ck_assert_int_eq(r->last[0].source, MEM_SRC_PEER_REMOTE_SOCKET);
    ck_assert_uint_eq(t, 30 + 100 + 20 + 100); /* llc, hop to owner, c2c, hop back */
    rig_settle(r);
    ck_assert_int_eq(memsys_cache_state(r->ms, 2, 0x400), CS_S);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, 0x400), CS_S);
    ck_assert_int_eq(memsys_dir_state(r->ms, 0x400), DS_S);
    ck_assert_uint_eq(memsys_stats(r->ms)->msgs[MSG_FWD_GETS], 1);
    ck_assert_uint_eq(memsys_stats(r->ms)->msgs[MSG_COPYBACK], 1);
    ck_assert_uint_eq(r->lost[2][LINE_DOWNGRADED], 1);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* RFO to a line three cores share: three invalidations, three acks, one writer. */
START_TEST(test_rfo_three_sharers)
{
    CohRig *r = rig(1, 4, _i ? "moesi" : "mesi");
    for (guint c = 1; c <= 3; c++) {
        rig_do(r, c, MEM_LOAD, 0x800, 0);
        rig_settle(r);
    }
    guint64 inv0 = memsys_stats(r->ms)->msgs[MSG_INV];
    rig_do(r, 0, MEM_STORE, 0x800, 5);
    rig_settle(r);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, 0x800), CS_M);
    for (guint c = 1; c <= 3; c++) {
        ck_assert_int_eq(memsys_cache_state(r->ms, c, 0x800), CS_I);
        ck_assert_uint_eq(r->lost[c][LINE_INVALIDATED], 1);
    }
    const MemStats *st = memsys_stats(r->ms);
    /* MESI: three S copies; MOESI: core 1 became O, so it gets the Fwd-GetM, two Invs */
    ck_assert_uint_eq(st->msgs[MSG_INV] - inv0, _i ? 2 : 3);
    ck_assert_uint_eq(st->msgs[MSG_INV_ACK], _i ? 2 : 3);
    ck_assert_uint_eq(st->inval_received[1] + st->inval_received[2] + st->inval_received[3], 3);
    ck_assert_uint_eq(memsys_line_stats(r->ms, 0x800).rfos, 1);
    ck_assert_uint_eq(memsys_line_stats(r->ms, 0x800).invalidations, 3);
    rig_do(r, 2, MEM_LOAD, 0x800, 0);
    ck_assert_uint_eq(r->last[2].value, 5);
    rig_settle(r);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* Write-back race: core 2's PutM for A is on its way to the home when core 0's GetS, which
 * the home serves first, is forwarded to it: MI_A + Fwd-GetS -> SI_A, then the PutM arrives
 * from a sharer and is treated as a PutS. */
START_TEST(test_writeback_race_with_forward)
{
    g_autofree char *y = rig_yaml(2, 2, "mesi");
    const char *sets[] = { "l1.ways=1", NULL };
    CohRig *r = rig_new(y, sets);
    const uint64_t A = 16 * 64, C = 80 * 64; /* same L1 set (64 sets, 1 way), home socket 0 */
    rig_do(r, 2, MEM_STORE, A, 77);
    rig_settle(r);
    MemRequest q = { .kind = MEM_STORE, .addr = C, .size = 8, .value = 1 };
    memsys_issue(r->ms, 2, &q);
    while (memsys_cache_state(r->ms, 2, A) != CS_MI_A)
        ck_assert(engine_step(r->e));
    /* the PutM needs a socket hop to reach the home; core 0's GetS needs none */
    rig_do(r, 0, MEM_LOAD, A, 0);
    ck_assert_uint_eq(r->last[0].value, 77);
    rig_settle(r);
    ck_assert_uint_eq(row_fired(r, CS_MI_A, CE_FWD_GETS), 1);
    ck_assert_uint_eq(row_fired(r, CS_SI_A, CE_PUT_ACK), 1);
    ck_assert_int_eq(memsys_cache_state(r->ms, 2, A), CS_I);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, A), CS_S);
    ck_assert_int_eq(memsys_dir_state(r->ms, A), DS_S);
    ck_assert_uint_gt(memsys_stats(r->ms)->home_queue_cycles, 0);
    ck_assert_uint_eq(r->lost[2][LINE_EVICTED], 1);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* Regression: serving a Put, the home sent the Put-Ack and then read the Put through a
 * pointer into the message pool, which the send may have moved (found by the random tester
 * with several accesses in flight, under the sanitizer pass; only that pass sees the stale
 * read).  Here the Put-Ack is the message that makes the pool grow: core 0's PutE for X0
 * travels four ring stops while cores 2.. queue GetS requests for B, busy with core 1's
 * miss, so the home holds the PutE, core 1's data and the queue when it sends the Put-Ack.
 * _i + 1 requests queue, so one of the runs meets the pool's growth whatever its size. */
START_TEST(test_put_ack_while_message_pool_grows)
{
    g_autofree char *y = rig_yaml(1, 8, "mesi");
    const char *sets[] = { "topology.ondie=ring", "topology.ondie_hop_cycles=10", "l1.size=1KiB",
                           NULL };
    CohRig *r = rig_new(y, sets);
    /* L1 set 0 (4 sets of 4 ways): X0 (slice 4, four stops from core 0), the fillers, then X4
     * (slice 0, core 0's own stop) whose fill evicts X0; B: slice 5, at most three stops from
     * cores 2..7, L1 set 1. */
    const uint64_t X0 = 4 * 64, fill[] = { 8 * 64, 12 * 64, 16 * 64 }, X4 = 0, B = 5 * 64;
    guint queued = _i + 1;
    rig_do(r, 0, MEM_LOAD, X0, 0);
    for (guint i = 0; i < G_N_ELEMENTS(fill); i++)
        rig_do(r, 0, MEM_LOAD, fill[i], 0);
    rig_settle(r);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, X0), CS_E);
    MemRequest q = { .kind = MEM_LOAD, .addr = X4, .size = 8 };
    r->got[0] = FALSE;
    memsys_issue(r->ms, 0, &q);
    engine_run_until(r->e, engine_now(r->e) + 50);
    q.addr = B;
    memsys_issue(r->ms, 1, &q);
    while (!r->got[0])
        ck_assert(engine_step(r->e));
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, X0), CS_EI_A); /* the PutE has just left */
    while (memsys_dir_state(r->ms, X4) != DS_EM) /* the Unblock, at the next stop, is in */
        ck_assert(engine_step(r->e));
    ck_assert_int_eq(memsys_dir_state(r->ms, B), DS_EM_U);       /* core 1's miss is on */
    for (guint c = 2; c < 2 + queued; c++) {
        r->got[c] = FALSE;
        memsys_issue(r->ms, c, &q);
    }
    rig_settle(r);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, X0), CS_I);
    ck_assert_int_eq(memsys_dir_state(r->ms, X0), DS_I);
    for (guint c = 1; c < 2 + queued; c++)
        ck_assert(r->got[c]);
    ck_assert_uint_eq(memsys_stats(r->ms)->home_queued, queued);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* MOESI: the O owner serves later readers itself; memory is never written. */
START_TEST(test_moesi_owner_serves_reads)
{
    CohRig *r = rig(1, 4, "moesi");
    rig_do(r, 0, MEM_STORE, 0xc00, 42);
    rig_settle(r);
    for (guint c = 1; c <= 3; c++) {
        rig_do(r, c, MEM_LOAD, 0xc00, 0);
        ck_assert_uint_eq(r->last[c].value, 42);
        ck_assert_int_eq(r->last[c].source, MEM_SRC_PEER_SAME_SOCKET);
        rig_settle(r);
    }
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, 0xc00), CS_O);
    ck_assert_int_eq(memsys_dir_state(r->ms, 0xc00), DS_O);
    const MemStats *st = memsys_stats(r->ms);
    ck_assert_uint_eq(st->msgs[MSG_COPYBACK], 0);
    ck_assert_uint_eq(st->mem_writes, 0);
    ck_assert_uint_eq(memsys_line_stats(r->ms, 0xc00).mem_writes, 0);
    ck_assert_uint_eq(st->c2c_transfers, 3);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* hold_cycles: a snoop waits for the atomic's hold; the wait is counted. */
START_TEST(test_hold_cycles_delay_snoop)
{
    CohRig *r = rig(1, 2, "mesi");
    rig_rmw(r, 0, RMW_ADD, 0x40, 1, 0, FALSE, 0);
    rig_settle(r);
    Cycle plain = rig_do(r, 1, MEM_LOAD, 0x40, 0);
    rig_settle(r);
    rig_rmw(r, 0, RMW_ADD, 0x40, 1, 0, FALSE, 100);
    Cycle held = rig_do(r, 1, MEM_LOAD, 0x40, 0);
    ck_assert_uint_eq(r->last[1].value, 2);
    ck_assert_uint_gt(held, plain);
    ck_assert_uint_gt(memsys_stats(r->ms)->hold_wait_cycles, 0);
    rig_settle(r);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* Far atomics: performed at the home after every copy is invalidated. */
START_TEST(test_far_atomic)
{
    CohRig *r = rig(1, 4, _i ? "moesi" : "mesi");
    memsys_poke(r->ms, 0x80, 8, 10);
    rig_do(r, 1, MEM_LOAD, 0x80, 0);
    rig_settle(r);
    rig_do(r, 2, MEM_LOAD, 0x80, 0);
    rig_settle(r);
    rig_rmw(r, 0, RMW_ADD, 0x80, 5, 0, TRUE, 0);
    ck_assert_uint_eq(r->last[0].value, 10);
    ck_assert_int_eq(r->last[0].source, MEM_SRC_HOME_ATOMIC);
    rig_settle(r);
    ck_assert_int_eq(memsys_cache_state(r->ms, 1, 0x80), CS_I);
    ck_assert_int_eq(memsys_cache_state(r->ms, 2, 0x80), CS_I);
    ck_assert_uint_eq(memsys_peek(r->ms, 0x80, 8), 15);
    rig_do(r, 3, MEM_LOAD, 0x80, 0);
    ck_assert_uint_eq(r->last[3].value, 15);
    rig_settle(r);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

/* An LLC of 2^32 + 1 sets (one way of 16-byte lines, 64 GiB): neighbouring lines sit in sets
 * of their own, as in any cache of more than one set.  The set count was cut to 32 bits, which
 * made it one set: the second line evicted the first and back-invalidated its private copy. */
START_TEST(test_llc_set_count_beyond_32_bits)
{
    g_autofree char *y = rig_yaml(1, 2, "mesi");
    const char *sets[] = { "line_size=16", "llc.ways=1", "llc.size=68719476752", NULL };
    CohRig *r = rig_new(y, sets);
    rig_do(r, 0, MEM_LOAD, 0x1000, 0);
    rig_settle(r);
    rig_do(r, 1, MEM_LOAD, 0x1010, 0);
    rig_settle(r);
    ck_assert_uint_eq(memsys_stats(r->ms)->back_invalidations, 0);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, 0x1000), CS_E);
    ck_assert_int_eq(memsys_cache_state(r->ms, 1, 0x1010), CS_E);
    /* Lines 2^32 + 1 apart share a set: the one way holds one of them. */
    uint64_t far = 0x1000 + (((uint64_t)1 << 32) + 1) * 16;
    rig_do(r, 1, MEM_LOAD, far, 0);
    rig_settle(r);
    ck_assert_uint_eq(memsys_stats(r->ms)->back_invalidations, 1);
    ck_assert_int_eq(memsys_cache_state(r->ms, 0, 0x1000), CS_I);
    rig_assert_ok(r);
    rig_free(r);
}
END_TEST

Suite *make_coh_directed_suite(void)
{
    Suite *s = suite_create("coh_directed");
    TCase *tc = tcase_create("scenarios");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_load_store_values);
    tcase_add_test(tc, test_read_miss_remote_owner);
    tcase_add_loop_test(tc, test_rfo_three_sharers, 0, 2);
    tcase_add_test(tc, test_writeback_race_with_forward);
    tcase_add_loop_test(tc, test_put_ack_while_message_pool_grows, 0, 6);
    tcase_add_test(tc, test_moesi_owner_serves_reads);
    tcase_add_test(tc, test_hold_cycles_delay_snoop);
    tcase_add_loop_test(tc, test_far_atomic, 0, 2);
    tcase_add_test(tc, test_llc_set_count_beyond_32_bits);
    suite_add_tcase(s, tc);
    return s;
}
