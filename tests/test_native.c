/* The native backend: translation (golden C, refused ops), CPU lists, real runs of small locks
 * built in C (TAS with call/ret, ticket), a broken lock caught, the report's keys, the CLI. */
#include <check.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "locks/native_c.h"
#include "locks/native_run.h"
#include "tests/isa_builder.h"
#include "tests/run_qsim.h"

/* ------------------------------------------------------------------------------------------ */
/* Programs                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Test-and-set: cas.acq until it sees 0, backing off through `call spin` (pause; ret). */
static IsaProgram *tas_lock(void)
{
    IsaProgram *p = tb_program("tas.qs");
    int l = tb_sym(p, "lockw", SYM_SHARED, 8, TRUE, -1);
    IsaInsn *in;
    tb_entry(p, "lock");
    in = tb_op(p, OP_CAS);                 /* 0 */
    in->order = ORD_ACQ, in->rd = 1, in->mem = tb_m(l, 0), in->a = tb_i(0), in->b = tb_i(1);
    in = tb_op(p, OP_BR);                  /* 1 */
    in->cond = COND_EQ, in->a = tb_r(1), in->b = tb_i(0), in->target = 4;
    tb_op(p, OP_CALL)->target = 7;         /* 2 */
    tb_op(p, OP_JMP)->target = 0;          /* 3 */
    tb_op(p, OP_RET);                      /* 4 */
    tb_entry(p, "unlock");
    in = tb_op(p, OP_ST);                  /* 5 */
    in->order = ORD_REL, in->mem = tb_m(l, 0), in->a = tb_i(0);
    tb_op(p, OP_RET);                      /* 6 */
    tb_op(p, OP_PAUSE);                    /* 7: spin */
    tb_op(p, OP_RET);                      /* 8 */
    return p;
}

/* Ticket: fadd the next ticket, spin with ld.acq + pause until owner matches; unlock bumps
 * owner with st.rel. */
static IsaProgram *ticket_lock(void)
{
    IsaProgram *p = tb_program("ticket.qs");
    int next = tb_sym(p, "next", SYM_SHARED, 8, TRUE, -1);
    int owner = tb_sym(p, "owner", SYM_SHARED, 8, FALSE, next);
    IsaInsn *in;
    tb_entry(p, "lock");
    in = tb_op(p, OP_FADD);                /* 0 */
    in->rd = 1, in->mem = tb_m(next, 0), in->a = tb_i(1);
    in = tb_op(p, OP_LD);                  /* 1 */
    in->order = ORD_ACQ, in->rd = 2, in->mem = tb_m(owner, 0);
    in = tb_op(p, OP_BR);                  /* 2 */
    in->cond = COND_EQ, in->a = tb_r(2), in->b = tb_r(1), in->target = 5;
    tb_op(p, OP_PAUSE);                    /* 3 */
    tb_op(p, OP_JMP)->target = 1;          /* 4 */
    tb_op(p, OP_RET);                      /* 5 */
    tb_entry(p, "unlock");
    in = tb_op(p, OP_LD);                  /* 6 */
    in->rd = 3, in->mem = tb_m(owner, 0);
    in = tb_op(p, OP_ADD);                 /* 7 */
    in->rd = 3, in->a = tb_r(3), in->b = tb_i(1);
    in = tb_op(p, OP_ST);                  /* 8 */
    in->order = ORD_REL, in->mem = tb_m(owner, 0), in->a = tb_r(3);
    tb_op(p, OP_RET);                      /* 9 */
    return p;
}

/* Broken on purpose: test, then set with a plain store after `work`, so two threads can both
 * see the lock free. */
static IsaProgram *broken_lock(void)
{
    IsaProgram *p = tb_program("broken.qs");
    int l = tb_sym(p, "lockw", SYM_SHARED, 8, TRUE, -1);
    IsaInsn *in;
    tb_entry(p, "lock");
    in = tb_op(p, OP_LD);                  /* 0 */
    in->rd = 1, in->mem = tb_m(l, 0);
    in = tb_op(p, OP_BR);                  /* 1 */
    in->cond = COND_NE, in->a = tb_r(1), in->b = tb_i(0), in->target = 0;
    tb_op(p, OP_WORK)->n = 300;            /* 2 */
    in = tb_op(p, OP_ST);                  /* 3 */
    in->mem = tb_m(l, 0), in->a = tb_i(1);
    tb_op(p, OP_RET);                      /* 4 */
    tb_entry(p, "unlock");
    in = tb_op(p, OP_ST);                  /* 5 */
    in->mem = tb_m(l, 0), in->a = tb_i(0);
    tb_op(p, OP_RET);                      /* 6 */
    return p;
}

/* ------------------------------------------------------------------------------------------ */
/* Translation                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* A small program touching most of the mapping; the expected C was checked by hand. */
static IsaProgram *golden_program(void)
{
    IsaProgram *p = tb_program("g.qs");
    int x = tb_sym(p, "x", SYM_SHARED, 8, TRUE, -1);
    int node = tb_sym(p, "node", SYM_PER_THREAD, 16, TRUE, -1);
    IsaInsn *in;
    tb_entry(p, "go");
    in = tb_op(p, OP_LA);                  /* 0: la r1, node, r2 */
    in->rd = 1, in->target = node, in->rt = 2;
    in = tb_op(p, OP_LD);                  /* 1: ld4.acq r3, [r1+8] */
    in->size = 4, in->order = ORD_ACQ, in->rd = 3, in->mem = (IsaMem){ -1, 1, 8 };
    in = tb_op(p, OP_CAS);                 /* 2: cas.rel r4, [x], r3, -1 */
    in->order = ORD_REL, in->rd = 4, in->mem = tb_m(x, 0), in->a = tb_r(3), in->b = tb_i(-1);
    in = tb_op(p, OP_BR);                  /* 3: blt r4, tid, 5 */
    in->cond = COND_LT, in->a = tb_r(4), in->b = tb_r(ISA_REG_TID), in->target = 5;
    in = tb_op(p, OP_FENCE);               /* 4: fence.store */
    in->fence = FENCE_STORE;
    tb_op(p, OP_WORK)->n = 7;              /* 5 */
    tb_op(p, OP_MARK)->n = 2;              /* 6 */
    in = tb_op(p, OP_SHL);                 /* 7: shl r5, r4, r3 */
    in->rd = 5, in->a = tb_r(4), in->b = tb_r(3);
    tb_op(p, OP_HALT);                     /* 8 */
    return p;
}

static const char golden_x86[] =
    "/* ---- lock `g`, from g.qs ---- */\n"
    "\n"
    "/* entry `go` */\n"
    "static void qn_g_go(QnThread *t)\n"
    "{\n"
    "    const uint64_t *const M = t->mine;\n"
    "    const uint64_t TID = t->tid, NT = t->nthreads;\n"
    "    uint64_t qn_discard;\n"
    "    uint64_t r1 = t->regs[1];\n"
    "    uint64_t r2 = t->regs[2];\n"
    "    uint64_t r3 = t->regs[3];\n"
    "    uint64_t r4 = t->regs[4];\n"
    "    uint64_t r5 = t->regs[5];\n"
    "    (void)M; (void)TID; (void)NT; (void)qn_discard;\n"
    "    goto L0;\n"
    "L0:\n"
    "    r1 = t->addr[1 * NT + r2];\n"
    "    r3 = __atomic_load_n((uint32_t *)(uintptr_t)(r1 + UINT64_C(8)), __ATOMIC_ACQUIRE);\n"
    "    { uint64_t e = (uint64_t)r3; __atomic_compare_exchange_n((uint64_t *)(uintptr_t)(M[0]), "
    "&e, (uint64_t)~UINT64_C(0), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); r4 = e; }\n"
    "    if ((int64_t)r4 < (int64_t)TID) goto L5;\n"
    "    __asm__ __volatile__(\"sfence\" ::: \"memory\");\n"
    "L5:\n"
    "    qn_work(UINT64_C(7));\n"
    "    t->mark(t, INT64_C(2));\n"
    "    r5 = r3 >= 64 ? 0 : r4 << r3;\n"
    "    goto done;\n"
    "done:\n"
    "    t->regs[1] = r1;\n"
    "    t->regs[3] = r3;\n"
    "    t->regs[4] = r4;\n"
    "    t->regs[5] = r5;\n"
    "    return;\n"
    "}\n"
    "\n"
    "static const QnEntry qn_g_entries[] = {\n"
    "    { \"go\", qn_g_go },\n"
    "};\n"
    "\n"
    "static const QnSym qn_g_syms[] = {\n"
    "    { \"x\", 0, 1, 8, 8, -1, INT64_C(0) },\n"
    "    { \"node\", 1, 1, 16, 8, -1, INT64_C(0) },\n"
    "};\n"
    "\n"
    "const QnLockDesc qn_g = {\n"
    "    1, \"g\", \"g.qs\", 1, 2, qn_g_entries, qn_g_syms,\n"
    "};\n"
    "\n";

START_TEST(test_translate_golden)
{
    IsaProgram *p = golden_program();
    g_autoptr(GString) out = g_string_new(NULL);
    g_autoptr(GError) e = NULL;
    ck_assert_msg(native_translate_body(out, p, ARCH_X86, "g", "qn_g", &e), "%s", e ? e->message : "");
    ck_assert_str_eq(out->str, golden_x86);
    isa_program_free(p);
}
END_TEST

START_TEST(test_translate_arm64_mapping)
{
    /* The arm64 text differs where the ISA says it should: orderings kept, dmb, yield. */
    IsaProgram *p = golden_program();
    g_autofree char *c = native_translate_c(p, ARCH_ARM64, NULL);
    ck_assert(c);
    ck_assert_msg(strstr(c, "__ATOMIC_RELEASE, __ATOMIC_RELAXED); r4 = e;"), "%s", c);
    ck_assert_msg(strstr(c, "\"dmb ishst\""), "%s", c);
    isa_program_free(p);
    p = ticket_lock();
    g_free(c);
    c = native_translate_c(p, ARCH_ARM64, NULL);
    ck_assert_msg(strstr(c, "\"yield\"") && strstr(c, "__atomic_fetch_add((uint64_t *)(uintptr_t)(M[0]), "
                                                     "(uint64_t)UINT64_C(1), __ATOMIC_RELAXED)"), "%s", c);
    isa_program_free(p);
}
END_TEST

START_TEST(test_x86_refuses_arm64_ops)
{
    static const IsaOp ops[] = { OP_LDX, OP_STX, OP_WFE, OP_SEV, OP_SEVL };
    IsaProgram *p = tb_program("locks/ll.qs");
    tb_sym(p, "w", SYM_SHARED, 8, TRUE, -1);
    tb_entry(p, "lock");
    tb_op(p, OP_NOP);
    tb_op(p, OP_NOP);
    IsaInsn *in = tb_op(p, ops[_i]);
    in->rd = 1, in->mem = tb_m(0, 0), in->a = tb_i(0);
    in->col = 9;
    tb_op(p, OP_RET);
    g_autoptr(GError) e = NULL;
    ck_assert(!native_translate_c(p, ARCH_X86, &e));
    g_autofree char *want = g_strdup_printf("locks/ll.qs:3:9: `%s` cannot run natively on an x86 host",
                                            isa_op_info[ops[_i]].name);
    ck_assert_msg(g_str_has_prefix(e->message, want), "%s", e->message);
    /* arm64 has them all (ldx/stx as LDXR/STXR inline asm). */
    g_autofree char *c = native_translate_c(p, ARCH_ARM64, NULL);
    ck_assert(c);
    isa_program_free(p);
}
END_TEST

START_TEST(test_arm64_exclusive_asm)
{
    IsaProgram *p = tb_program("x.qs");
    tb_sym(p, "w", SYM_SHARED, 8, TRUE, -1);
    tb_entry(p, "lock");
    IsaInsn *in = tb_op(p, OP_LDX);
    in->size = 4, in->order = ORD_ACQ, in->rd = 1, in->mem = tb_m(0, 0);
    in = tb_op(p, OP_STX);
    in->size = 1, in->rd = 2, in->mem = tb_m(0, 0), in->a = tb_r(1);
    tb_op(p, OP_RET);
    g_autofree char *c = native_translate_c(p, ARCH_ARM64, NULL);
    ck_assert_msg(strstr(c, "\"ldaxr %w0, [%1]\"") && strstr(c, "\"stxrb %w0, %w2, [%1]\""), "%s", c);
    isa_program_free(p);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* CPU lists                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static const struct {
    const char *text;
    const char *want;   /* the CPUs joined with ',', or NULL: an error */
} cpu_cases[] = {
    { "0", "0" },
    { "0,2-5", "0,2,3,4,5" },
    { "3, 1", "3,1" },
    { "7-7", "7" },
    { "", NULL },
    { "a", NULL },
    { "5-2", NULL },
    { "1,1", NULL },
    { "0-", NULL },
    { "-1", NULL },
    { "1,,2", NULL },
    { "99999", NULL },
};

START_TEST(test_parse_cpus)
{
    GArray *cpus = NULL;
    g_autoptr(GError) e = NULL;
    gboolean ok = native_parse_cpus(cpu_cases[_i].text, &cpus, &e);
    if (!cpu_cases[_i].want) {
        ck_assert_msg(!ok, "'%s' parsed", cpu_cases[_i].text);
        ck_assert(g_str_has_prefix(e->message, "--cpus"));
        return;
    }
    ck_assert_msg(ok, "'%s': %s", cpu_cases[_i].text, e ? e->message : "");
    g_autoptr(GString) got = g_string_new(NULL);
    for (guint i = 0; i < cpus->len; i++)
        g_string_append_printf(got, "%s%u", i ? "," : "", g_array_index(cpus, guint, i));
    ck_assert_str_eq(got->str, cpu_cases[_i].want);
    g_array_unref(cpus);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Runs                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static guint ncpus(void)
{
    g_autoptr(GArray) c = native_allowed_cpus();
    return c->len;
}

static guint64 scaled(guint64 n)
{
    return test_scale_quick() ? n / 10 : n;
}

static NativeLock *load(IsaProgram *p)
{
    g_autoptr(GError) e = NULL;
    NativeLock *l = native_lock_from_program(p, &e);
    ck_assert_msg(l, "%s", e ? e->message : "");
    isa_program_free(p);
    return l;
}

static JsonObject *run_ok(const NativeLock *l, const NativeOptions *o, JsonNode **root)
{
    g_autoptr(GError) e = NULL;
    *root = native_run(l, o, &e);
    ck_assert_msg(*root, "%s", e ? e->message : "");
    return json_node_get_object(*root);
}

static void check_correct_run(IsaProgram *(*make)(void), guint threads, gboolean same_line)
{
    g_autoptr(NativeLock) l = load(make());
    NativeOptions o;
    native_options_init(&o);
    o.threads = threads;
    o.iterations = scaled(20000);
    o.cs_writes = 2;
    o.data_same_line = same_line;
    JsonNode *root;
    JsonObject *r = run_ok(l, &o, &root);
    ck_assert_int_eq(json_object_get_int_member(r, "acquisitions"), (gint64)(threads * o.iterations));
    ck_assert_int_eq(json_object_get_int_member(r, "counter"), (gint64)(threads * o.iterations));
    ck_assert_int_eq(json_object_get_int_member(r, "in_cs_violations"), 0);
    ck_assert(json_object_get_boolean_member(r, "mutual_exclusion"));
    JsonArray *pt = json_object_get_array_member(r, "per_thread");
    ck_assert_int_eq(json_array_get_length(pt), threads);
    for (guint t = 0; t < threads; t++)
        ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(pt, t), "acquisitions"),
                         (gint64)o.iterations);
    json_node_unref(root);
}

START_TEST(test_tas_runs)
{
    guint n = ncpus();
    check_correct_run(tas_lock, 1, FALSE);
    if (n >= 2)
        check_correct_run(tas_lock, 2, TRUE);
    if (n >= 4)
        check_correct_run(tas_lock, MIN(n, 8u), FALSE);
}
END_TEST

START_TEST(test_ticket_runs)
{
    guint n = ncpus();
    check_correct_run(ticket_lock, 1, TRUE);
    if (n >= 2)
        check_correct_run(ticket_lock, 2, FALSE);
    if (n >= 4)
        check_correct_run(ticket_lock, MIN(n, 8u), TRUE);
}
END_TEST

START_TEST(test_broken_lock_is_caught)
{
    if (ncpus() < 2) {
        fprintf(stderr, "test_broken_lock_is_caught: skipped: needs 2 CPUs, this host has 1\n");
        return;
    }
    g_autoptr(NativeLock) l = load(broken_lock());
    NativeOptions o;
    native_options_init(&o);
    o.threads = 2;
    o.iterations = scaled(20000);
    o.cs_work = 100;
    gboolean caught = FALSE;
    for (int attempt = 0; attempt < 5 && !caught; attempt++) {
        JsonNode *root;
        JsonObject *r = run_ok(l, &o, &root);
        caught = !json_object_get_boolean_member(r, "mutual_exclusion");
        if (caught)
            ck_assert(json_object_get_int_member(r, "in_cs_violations") > 0 ||
                      json_object_get_int_member(r, "counter") < (gint64)(2 * o.iterations));
        json_node_unref(root);
    }
    ck_assert_msg(caught, "a lock with a test-then-store race passed 5 runs");
}
END_TEST

START_TEST(test_fixed_time_and_keys)
{
    g_autoptr(NativeLock) l = load(ticket_lock());
    NativeOptions o;
    native_options_init(&o);
    o.threads = MIN(ncpus(), 2u);
    o.iterations = 0;
    o.duration_ms = 50;
    o.think = 50;
    JsonNode *root;
    JsonObject *r = run_ok(l, &o, &root);
    static const char *const present[] = {
        "config", "arch", "lock", "threads", "ns", "acquisitions", "latency", "per_thread",
        "fairness", "mutual_exclusion", "host_seconds", "counters", "duration_ms",
#if defined(__x86_64__)
        "cycles", "cycles_per_acquisition",
#endif
    };
    for (guint i = 0; i < G_N_ELEMENTS(present); i++)
        ck_assert_msg(json_object_has_member(r, present[i]), "no key %s", present[i]);
    /* Keys only the model knows are absent, not zero. */
    static const char *const absent[] = {
        "seed", "machine_clears", "coherence", "coherence_messages", "l1_hit_rate",
        "instructions", "paused_cycles", "fence_cycles", "rfo", "iterations",
    };
    for (guint i = 0; i < G_N_ELEMENTS(absent); i++)
        ck_assert_msg(!json_object_has_member(r, absent[i]), "key %s present", absent[i]);
    ck_assert_str_eq(json_object_get_string_member(r, "config"), "native");
    ck_assert_str_eq(json_object_get_string_member(r, "lock"), "ticket");
    JsonObject *lat = json_object_get_object_member(r, "latency");
    ck_assert(json_object_has_member(lat, "mean") && json_object_has_member(lat, "p50") &&
              json_object_has_member(lat, "p99") && json_object_has_member(lat, "unit"));
    ck_assert(json_object_get_double_member(lat, "p50") <= json_object_get_double_member(lat, "p99"));
    JsonObject *f = json_object_get_object_member(r, "fairness");
    gint64 acq = json_object_get_int_member(r, "acquisitions");
    ck_assert(acq > 0);
    ck_assert(json_object_get_int_member(f, "min") <= json_object_get_double_member(f, "avg"));
    ck_assert(json_object_get_double_member(f, "avg") <= json_object_get_int_member(f, "max"));
    JsonObject *t0 = json_array_get_object_element(json_object_get_array_member(r, "per_thread"), 0);
    ck_assert(json_object_has_member(t0, "cpu") && json_object_has_member(t0, "cycles_waiting"));
    ck_assert(json_object_get_boolean_member(r, "mutual_exclusion"));
    /* Counters: numbers where perf works, else "unavailable (why)". */
    JsonNode *c = json_object_get_member(r, "counters");
    if (JSON_NODE_HOLDS_VALUE(c))
        ck_assert(g_str_has_prefix(json_node_get_string(c), "unavailable ("));
    else
        ck_assert(json_object_get_int_member(json_node_get_object(c), "instructions") > 0);
    json_node_unref(root);
}
END_TEST

START_TEST(test_run_errors)
{
    g_autoptr(NativeLock) l = load(tas_lock());
    NativeOptions o;
    native_options_init(&o);
    o.iterations = 10;
    g_autoptr(GError) e = NULL;
    /* The CS data (flag, counter, words) must fit beside the lock word. */
    o.threads = 1;
    o.data_same_line = TRUE;
    o.cs_writes = 7;
    ck_assert(!native_run(l, &o, &e));
    ck_assert_msg(strstr(e->message, "does not fit in lock `tas`'s"), "%s", e->message);
    g_clear_error(&e);
    o.data_same_line = FALSE;
    o.threads = ncpus() + 1;
    ck_assert(!native_run(l, &o, &e));
    ck_assert_msg(g_str_has_prefix(e->message, "--threads"), "%s", e->message);
}
END_TEST

START_TEST(test_program_fault_has_position)
{
    /* Unbounded recursion overflows the return stack: an error with the call's position. */
    IsaProgram *p = tb_program("deep.qs");
    tb_entry(p, "lock");
    tb_op(p, OP_CALL)->target = 0;
    tb_entry(p, "unlock");
    tb_op(p, OP_RET);
    g_autoptr(NativeLock) l = load(p);
    NativeOptions o;
    native_options_init(&o);
    o.threads = 1;
    o.iterations = 3;
    g_autoptr(GError) e = NULL;
    ck_assert(!native_run(l, &o, &e));
    ck_assert_str_eq(e->message, "deep.qs:1:5: call stack overflow (64 deep)");
}
END_TEST

START_TEST(test_no_compiler)
{
    g_setenv("CC", "qsim-no-such-cc", TRUE); /* each test runs in its own process */
    IsaProgram *p = tas_lock();
    g_autoptr(GError) e = NULL;
    ck_assert(!native_lock_from_program(p, &e));
    ck_assert_msg(g_str_has_prefix(e->message, "no C compiler found: `qsim-no-such-cc` is not in PATH"),
                  "%s", e->message);
    isa_program_free(p);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Command line                                                                               */
/* ------------------------------------------------------------------------------------------ */

START_TEST(test_cli_usage_errors)
{
    static const struct { const char *line, *err; } cases[] = {
        { "native", "give one of --lock NAME or --lock-file PATH" },
        { "native --lock a --lock-file b", "give one of --lock NAME or --lock-file PATH" },
        { "native --lock tas --iterations 5 --duration-ms 5", "not both" },
        { "native --lock tas --cpus 3-1", "--cpus 3-1:" },
        { "native --lock tas --data middle", "--data middle: one of same-line, separate-line" },
        { "native --lock tas --format xml", "--format xml" },
        { "native --lock tas --think -1", "--think -1: out of range [0, 1000000]" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *err = NULL;
        int rc = run_qsim_line(cases[i].line, NULL, &err);
        ck_assert_msg(rc == 2, "%s: exit %d", cases[i].line, rc);
        ck_assert_msg(strstr(err, cases[i].err), "%s: %s", cases[i].line, err);
    }
}
END_TEST

START_TEST(test_cli_lock_file_error_has_position)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-test-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "bad.qs", NULL);
    ck_assert(g_file_set_contents(path, "lock:\n    frobnicate r1\n", -1, NULL));
    const char *args[] = { "native", "--lock-file", path, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim(args, NULL, &err), 2);
    g_autofree char *prefix = g_strdup_printf("qsim: %s:", path);
    ck_assert_msg(g_str_has_prefix(err, prefix), "%s", err);
    /* Until the assembler is connected the message says so; after, it is file:line:col. */
    if (!strstr(err, "assembler is not part of this build")) {
        g_autofree char *pos = g_strdup_printf("qsim: %s:2:", path);
        ck_assert_msg(g_str_has_prefix(err, pos), "%s", err);
    }
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

START_TEST(test_cli_builtin_json)
{
    if (!qn_builtin_locks[0]) {
        /* No built-in lock yet: the message says how to proceed. */
        g_autofree char *err = NULL;
        ck_assert_int_eq(run_qsim_line("native --lock tas", NULL, &err), 2);
        ck_assert_msg(strstr(err, "use --lock-file"), "%s", err);
        return;
    }
    g_autofree char *line = g_strdup_printf("native --lock %s --threads 1 --iterations 100 --format json",
                                            qn_builtin_locks[0]->name);
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line(line, &out, NULL), 0);
    g_autoptr(JsonParser) jp = json_parser_new();
    ck_assert(json_parser_load_from_data(jp, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(jp));
    ck_assert_int_eq(json_object_get_int_member(r, "acquisitions"), 100);
    ck_assert(json_object_get_boolean_member(r, "mutual_exclusion"));
}
END_TEST

Suite *make_native_suite(void)
{
    Suite *s = suite_create("native");
    TCase *tc = tcase_create("translate");
    tcase_add_test(tc, test_translate_golden);
    tcase_add_test(tc, test_translate_arm64_mapping);
    tcase_add_loop_test(tc, test_x86_refuses_arm64_ops, 0, 5);
    tcase_add_test(tc, test_arm64_exclusive_asm);
    tcase_add_loop_test(tc, test_parse_cpus, 0, G_N_ELEMENTS(cpu_cases));
    suite_add_tcase(s, tc);

    tc = tcase_create("run");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_tas_runs);
    tcase_add_test(tc, test_ticket_runs);
    tcase_add_test(tc, test_broken_lock_is_caught);
    tcase_add_test(tc, test_fixed_time_and_keys);
    tcase_add_test(tc, test_run_errors);
    tcase_add_test(tc, test_program_fault_has_position);
    tcase_add_test(tc, test_no_compiler);
    suite_add_tcase(s, tc);

    tc = tcase_create("cli");
    tcase_add_test(tc, test_cli_usage_errors);
    tcase_add_test(tc, test_cli_lock_file_error_has_position);
    tcase_add_test(tc, test_cli_builtin_json);
    suite_add_tcase(s, tc);
    return s;
}
