/* The native backend: translation (golden C, refused ops, one entry), the program a run
 * compiles (lock + the ISA harness), CPU lists, the sample limit and the hardware counters'
 * registry, real runs of small locks (TAS with call/ret, ticket), a broken lock caught,
 * fixed-time runs, the model's options handed over, the compile cache, a missing compiler, the
 * report (the shared builder's keys and types, beside the model's), the scheduler's warnings
 * (judged from injected numbers), repeated runs summarised, the CLI. */
#include <check.h>
#include <malloc.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "cores/isa/asm.h"
#include "locks/native/native_c.h"
#include "locks/native/native_compile.h"
#include "locks/native/native_perf.h"
#include "locks/native/native_repeat.h"
#include "locks/native/native_run.h"
#include "locks/native/native_sched.h"
#include "sim/base/report.h"
#include "sim/run/run.h"
#include "tests/isa_builder.h"
#include "tests/run_qsim.h"
#include "tests/skip.h"

/* ------------------------------------------------------------------------------------------ */
/* Locks                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Test-and-set: cas.acq until it sees 0, backing off through `call spin` (pause; ret). */
static const char tas_text[] =
    ".shared lock_word 8 own_line\n"
    ".entry lock\n"
    ".entry unlock\n"
    "lock:\n"
    "    cas.acq r1, [lock_word], 0, 1\n"
    "    beq r1, 0, tas_got\n"
    "    call tas_spin\n"
    "    jmp lock\n"
    "tas_got:\n"
    "    ret\n"
    "unlock:\n"
    "    st.rel [lock_word], 0\n"
    "    ret\n"
    "tas_spin:\n"
    "    pause\n"
    "    ret\n";

/* Ticket: fadd the next ticket, spin with ld.acq + pause until owner matches; unlock bumps
 * owner with st.rel.  The ticket lives in r1 from `lock` to `unlock`'s caller. */
static const char ticket_text[] =
    ".shared lock_word 8 own_line\n"
    ".shared owner 8 with lock_word\n"
    ".entry lock\n"
    ".entry unlock\n"
    "lock:\n"
    "    fadd r1, [lock_word], 1\n"
    "ticket_spin:\n"
    "    ld.acq r2, [owner]\n"
    "    beq r2, r1, ticket_got\n"
    "    pause\n"
    "    jmp ticket_spin\n"
    "ticket_got:\n"
    "    ret\n"
    "unlock:\n"
    "    ld r3, [owner]\n"
    "    add r3, r3, 1\n"
    "    st.rel [owner], r3\n"
    "    ret\n";

/* Unbounded recursion: overflows the translated return stack. */
static const char deep_text[] =
    ".shared lock_word 8 own_line\n"
    ".entry lock\n"
    ".entry unlock\n"
    "lock:\n"
    "    call lock\n"
    "unlock:\n"
    "    ret\n";

static NativeLock *load(const char *name, const char *text)
{
    g_autoptr(GError) e = NULL;
    g_autofree char *file = g_strconcat(name, ".qs", NULL);
    NativeLock *l = native_lock_from_source(name, file, text, &e);
    ck_assert_msg(l, "%s", e ? e->message : "");
    return l;
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
    "/* ---- g.qs ---- */\n"
    "\n"
    "/* entry `go` */\n"
    "static void qn_entry_go(QnThread *t)\n"
    "{\n"
    "    const uint64_t *const M = t->mine;\n"
    "    const uint64_t TID = t->tid, NT = t->nthreads;\n"
    "    uint64_t qn_discard, qa;\n"
    "    uint64_t r1 = t->regs[1];\n"
    "    uint64_t r2 = t->regs[2];\n"
    "    uint64_t r3 = t->regs[3];\n"
    "    uint64_t r4 = t->regs[4];\n"
    "    uint64_t r5 = t->regs[5];\n"
    "    (void)M; (void)TID; (void)NT; (void)qn_discard; (void)qa;\n"
    "    goto L0;\n"
    "L0:\n"
    "    if (qn_no_thread(t, r2, 0)) goto done;\n"
    "    r1 = t->addr[1 * NT + r2];\n"
    "    qa = r1 + UINT64_C(8);\n"
    "    if (qn_bad(t, qa, 4, 1)) goto done;\n"
    "    r3 = __atomic_load_n((uint32_t *)(uintptr_t)(qa), __ATOMIC_ACQUIRE);\n"
    "    { uint64_t e = (uint64_t)r3; __atomic_compare_exchange_n((uint64_t *)(uintptr_t)(M[0]), "
    "&e, (uint64_t)~UINT64_C(0), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); r4 = e; }\n"
    "    if ((int64_t)r4 < (int64_t)TID) goto L5;\n"
    "    __asm__ __volatile__(\"sfence\" ::: \"memory\");\n"
    "L5:\n"
    "    qn_work(UINT64_C(7));\n"
    "    if (t->mark(t, INT64_C(2))) goto done;\n"
    "    r5 = r3 >= 64 ? 0 : r4 << r3;\n"
    "    t->halt_pc = 8;\n"
    "    goto done;\n"
    "done:\n"
    "    t->regs[1] = r1;\n"
    "    t->regs[3] = r3;\n"
    "    t->regs[4] = r4;\n"
    "    t->regs[5] = r5;\n"
    "    return;\n"
    "}\n"
    "\n"
    "static const QnEntry qn_entries[] = {\n"
    "    { \"go\", qn_entry_go },\n"
    "};\n"
    "\n"
    "const QnProgram qsim_native_program = {\n"
    "    4, \"g.qs\", 1, qn_entries,\n"
    "};\n";

START_TEST(test_translate_golden)
{
    IsaProgram *p = golden_program();
    g_autoptr(GString) out = g_string_new(NULL);
    g_autoptr(GError) e = NULL;
    ck_assert_msg(native_translate_body(out, p, ARCH_X86, NULL, &e), "%s", e ? e->message : "");
    ck_assert_str_eq(out->str, golden_x86);
    isa_program_free(p);
}
END_TEST

START_TEST(test_translate_arm64_mapping)
{
    /* The arm64 text differs where the ISA says it should: orderings kept, dmb, yield. */
    IsaProgram *p = golden_program();
    g_autofree char *c = native_translate_c(p, ARCH_ARM64, NULL, NULL);
    ck_assert(c);
    ck_assert_msg(strstr(c, "__ATOMIC_RELEASE, __ATOMIC_RELAXED); r4 = e;"), "%s", c);
    ck_assert_msg(strstr(c, "\"dmb ishst\""), "%s", c);
    isa_program_free(p);
    p = asm_assemble("ticket.qs", ticket_text, arch_target(ARCH_ARM64), NULL);
    ck_assert(p);
    g_free(c);
    c = native_translate_c(p, ARCH_ARM64, NULL, NULL);
    ck_assert_msg(strstr(c, "\"yield\"") && strstr(c, "__atomic_fetch_add((uint64_t *)(uintptr_t)(M[0]), "
                                                     "(uint64_t)UINT64_C(1), __ATOMIC_RELAXED)"), "%s", c);
    isa_program_free(p);
}
END_TEST

START_TEST(test_translate_one_entry)
{
    /* Asked for one entry, the unit has that function only, and the descriptor lists it. */
    g_autoptr(IsaProgram) p = asm_assemble("ticket.qs", ticket_text, arch_target(ARCH_X86), NULL);
    ck_assert(p);
    g_autofree char *all = native_translate_c(p, ARCH_X86, NULL, NULL);
    ck_assert(strstr(all, "qn_entry_lock(") && strstr(all, "qn_entry_unlock("));
    g_autofree char *one = native_translate_c(p, ARCH_X86, "unlock", NULL);
    ck_assert_msg(strstr(one, "qn_entry_unlock(") && !strstr(one, "qn_entry_lock("), "%s", one);
    ck_assert_msg(strstr(one, "1, qn_entries,"), "%s", one);
    g_autoptr(GError) e = NULL;
    ck_assert(!native_translate_c(p, ARCH_X86, "main", &e));
    ck_assert_str_eq(e->message, "ticket.qs: the program has no entry `main`");
}
END_TEST

/* A lock with per-arch code translates to each host's branch: the built-in ticket lock on x86
 * keeps its PAUSE loop; on arm64 it waits with sevl/wfe and LDAXRH, and its release is a 16-bit
 * fetch-add (STADDLH) with LSE, a 16-bit store-release (STLRH) with LL/SC. */
START_TEST(test_translate_per_arch_lock)
{
    g_autofree char *path = g_build_filename(test_srcdir(), "locks", "ticket.qs", NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    static const ArchTarget targets[] = {
        { ARCH_X86, ARCH_ATOMICS_LOCKED, 0 }, { ARCH_ARM64, ARCH_ATOMICS_LLSC, 0 }, { ARCH_ARM64, ARCH_ATOMICS_LSE, 0 },
    };
    char *c[G_N_ELEMENTS(targets)];
    for (guint k = 0; k < G_N_ELEMENTS(targets); k++) {
        g_autoptr(GError) e = NULL;
        g_autoptr(IsaProgram) p = asm_assemble("ticket.qs", text, targets[k], &e);
        ck_assert_msg(p, "%s", e ? e->message : "");
        c[k] = native_translate_c(p, targets[k].arch, NULL, &e);
        ck_assert_msg(c[k], "%s", e ? e->message : "");
    }
    ck_assert_msg(strstr(c[0], "\"pause\"") && !strstr(c[0], "wfe") && !strstr(c[0], "ldaxr"), "%s", c[0]);
    ck_assert_msg(strstr(c[0], "__atomic_store_n((uint16_t *)"), "%s", c[0]);
    for (guint k = 1; k < G_N_ELEMENTS(targets); k++)
        ck_assert_msg(strstr(c[k], "\"sevl\"") && strstr(c[k], "\"wfe\"") && strstr(c[k], "\"ldaxrh %w0, [%1]\"") &&
                      !strstr(c[k], "\"yield\""), "%s", c[k]);
    ck_assert_msg(strstr(c[1], "__atomic_store_n((uint16_t *)") && !strstr(c[1], "__atomic_fetch_add((uint16_t *)"),
                  "%s", c[1]);
    ck_assert_msg(strstr(c[2], "__atomic_fetch_add((uint16_t *)(uintptr_t)(M[0]), (uint16_t)UINT64_C(1), "
                               "__ATOMIC_RELEASE)"), "%s", c[2]);
    for (guint k = 0; k < G_N_ELEMENTS(targets); k++)
        g_free(c[k]);
    /* This host assembles for itself: its arch, and on arm64 its atomics. */
    ArchTarget host;
    ck_assert(native_host_target(&host, NULL));
#if defined(__x86_64__)
    ck_assert(host.arch == ARCH_X86 && host.atomics == ARCH_ATOMICS_LOCKED);
#elif defined(__aarch64__)
    ck_assert(host.arch == ARCH_ARM64 && host.atomics != ARCH_ATOMICS_LOCKED);
#endif
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
    ck_assert(!native_translate_c(p, ARCH_X86, NULL, &e));
    g_autofree char *want = g_strdup_printf("locks/ll.qs:3:9: `%s` cannot run natively on an x86 host",
                                            isa_op_info[ops[_i]].name);
    ck_assert_msg(g_str_has_prefix(e->message, want), "%s", e->message);
    /* arm64 has them all (ldx/stx as LDXR/STXR inline asm). */
    g_autofree char *c = native_translate_c(p, ARCH_ARM64, NULL, NULL);
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
    g_autofree char *c = native_translate_c(p, ARCH_ARM64, NULL, NULL);
    ck_assert_msg(strstr(c, "\"ldaxr %w0, [%1]\"") && strstr(c, "\"stxrb %w0, %w2, [%1]\""), "%s", c);
    isa_program_free(p);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The program a run compiles                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Where `needle` first occurs in `hay`, as an offset; fails the test when absent. */
static gsize at(const char *hay, const char *needle)
{
    const char *p = strstr(hay, needle);
    ck_assert_msg(p, "no `%s` in:\n%s", needle, hay);
    return (gsize)(p - hay);
}

START_TEST(test_program_is_lock_with_harness)
{
    /* One function, `main`: the harness's loop around calls into the lock, in the harness's
     * order, with the workload's numbers. */
    g_autoptr(NativeLock) l = load("tas", tas_text);
    NativeRunOptions o;
    native_run_options_init(&o);
    o.workload.iterations = 123;
    o.workload.cs_writes = 2;
    o.workload.cs_work = 7;
    o.workload.think = 9;
    g_autoptr(GError) e = NULL;
    g_autofree char *c = native_program_c(l, &o, &e);
    ck_assert_msg(c, "%s", e ? e->message : "");
    ck_assert_msg(strstr(c, "static void qn_entry_main(") && !strstr(c, "qn_entry_lock("), "%s", c);
    gsize count = at(c, "r12 = UINT64_C(123);");
    gsize m1 = at(c, "if (t->mark(t, INT64_C(1))) goto done;");
    gsize cas = at(c, "__atomic_compare_exchange_n(");       /* the lock's own code */
    gsize m2 = at(c, "if (t->mark(t, INT64_C(2))) goto done;");
    gsize cs_work = at(c, "qn_work(UINT64_C(7));");
    gsize m3 = at(c, "if (t->mark(t, INT64_C(3))) goto done;");
    gsize think = at(c, "qn_work(UINT64_C(9));");
    gsize loop = at(c, "r12 = r12 - UINT64_C(1);");
    ck_assert(count < m1 && m1 < m2 && m2 < cs_work && cs_work < m3 && m3 < think && think < loop);
    ck_assert(cas < count); /* the lock's text comes first, as in the simulator */
    /* The counter's plain increment and the cs_writes stores (h_data+0, h_data+8). */
    ck_assert_msg(strstr(c, "r0 = r0 + UINT64_C(1);"), "%s", c);
    ck_assert_msg(strstr(c, " + UINT64_C(8)), (uint64_t)r0, __ATOMIC_RELAXED);"), "%s", c);
}
END_TEST

START_TEST(test_program_fixed_time_count)
{
    /* Fixed time: the simulator's loop count, ended by the mark hook. */
    g_autoptr(NativeLock) l = load("tas", tas_text);
    NativeRunOptions o;
    native_run_options_init(&o);
    o.workload.duration_ms = 5;
    g_autofree char *c = native_program_c(l, &o, NULL);
    g_autofree char *want = g_strdup_printf("r12 = UINT64_C(%d);", G_MAXINT32);
    ck_assert_msg(strstr(c, want), "%s", c);
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
/* Samples and counters                                                                       */
/* ------------------------------------------------------------------------------------------ */

START_TEST(test_options_are_the_tables)
{
    /* `qsim native`'s defaults are the workload table's (cs_writes was 0 natively once). */
    NativeRunOptions o;
    native_run_options_init(&o);
    WorkloadOptions w;
    workload_init(&w, WL_NATIVE);
    ck_assert(!memcmp(&o.workload, &w, sizeof w));
    ck_assert_uint_eq(o.workload.cs_writes, 1);
    ck_assert_uint_eq(o.workload.iterations, 10000);
    ck_assert_uint_eq(o.workload.threads, 2);
    ck_assert_ptr_null(o.cpus);
}
END_TEST

START_TEST(test_sample_limit)
{
    /* Every sample of a fixed-work run; 2^20 a thread in a fixed-time one; at most 32 Mi in
     * all, but never fewer than 4096 a thread. */
    WorkloadOptions w;
    workload_init(&w, WL_NATIVE);
    ck_assert_uint_eq(native_run_sample_limit(&w, 2), 10000);
    w.iterations = G_MAXINT32;
    ck_assert_uint_eq(native_run_sample_limit(&w, 2), (guint64)16 << 20);
    ck_assert_uint_eq(native_run_sample_limit(&w, 4096), 8192);
    ck_assert_uint_eq(native_run_sample_limit(&w, 65536), 4096);
    w.duration_ms = 10;
    ck_assert_uint_eq(native_run_sample_limit(&w, 2), (guint64)1 << 20);
    ck_assert_uint_eq(native_run_sample_limit(&w, 64), (guint64)512 << 10);
    /* The model's fixed time (cycles) is not the host's. */
    w.duration_ms = 0;
    w.duration = 5000;
    w.iterations = 7;
    ck_assert_uint_eq(native_run_sample_limit(&w, 2), 7);
}
END_TEST

START_TEST(test_perf_registry_covers_struct)
{
    ck_assert_uint_eq(counters_bytes(&native_perf_registry), native_perf_registry.struct_size);
    ck_assert_uint_eq(native_perf_registry.n, NATIVE_CTR_N);
    ck_assert_ptr_nonnull(counters_find(&native_perf_registry, "machine_clears_memory_ordering"));
}
END_TEST

START_TEST(test_perf_total)
{
    /* Two threads that counted: the sum, and only the events both counted (an event the host
     * lacks is absent, not zero). */
    NativePerf a = { 0 }, b = { 0 };
    a.counted[NATIVE_CTR_CYCLES] = a.counted[NATIVE_CTR_INSNS] = a.counted[NATIVE_CTR_CLEARS] = TRUE;
    b.counted[NATIVE_CTR_CYCLES] = b.counted[NATIVE_CTR_INSNS] = TRUE;
    a.stats = (NativePerfStats){ 100, 50, 3 };
    b.stats = (NativePerfStats){ 10, 5, 0 };
    NativePerf *both[] = { &a, &b };
    NativePerfStats total;
    CounterInfo rows[NATIVE_CTR_N];
    CounterRegistry counted;
    g_autofree char *why = native_perf_total(both, 2, &total, rows, &counted);
    ck_assert_ptr_null(why);
    ck_assert_uint_eq(total.cycles, 110);
    ck_assert_uint_eq(total.instructions, 55);
    ck_assert_uint_eq(counted.n, 2);
    ck_assert_str_eq(counted.rows[0].name, "cycles");
    ck_assert_str_eq(counted.rows[1].name, "instructions");
    /* One thread whose set did not open: unavailable, saying why. */
    b.counted[NATIVE_CTR_CYCLES] = b.counted[NATIVE_CTR_INSNS] = FALSE;
    b.err = EACCES;
    g_autofree char *why2 = native_perf_total(both, 2, &total, rows, &counted);
    ck_assert_msg(why2 && g_str_has_prefix(why2, "perf_event_open: "), "%s", why2 ? why2 : "(null)");
    ck_assert_msg(strstr(why2, g_strerror(EACCES)), "%s", why2);
}
END_TEST


/* ------------------------------------------------------------------------------------------ */
/* The scheduler's warnings                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* A quiet run of two threads on CPUs 4 and 5 of 8, 1 ms long, with a tame latency. */
static NativeSchedInput quiet_input(NativeThreadSched *threads)
{
    static const guint cpus[] = { 4, 5 };
    threads[0] = (NativeThreadSched){ 0, 0 };
    threads[1] = (NativeThreadSched){ 0, 2000 };
    return (NativeSchedInput){ .nthreads = 2, .threads = threads, .cpus = cpus, .span_ns = 1000000,
                               .others_runnable = 1, .online_cpus = 8, .latency_mean = 300, .latency_p99 = 900,
                               .latency_samples = 20000, .latency_unit = "tsc_cycles" };
}

static guint count_warnings(const NativeSchedInput *in, const char *want)
{
    g_autoptr(GPtrArray) w = native_sched_warnings(in);
    if (want) {
        gboolean found = FALSE;
        for (guint i = 0; i < w->len; i++)
            found |= strstr(w->pdata[i], want) != NULL;
        ck_assert_msg(found, "no warning with '%s' (%u warnings%s%s)", want, w->len, w->len ? ": " : "",
                      w->len ? (char *)w->pdata[0] : "");
    }
    return w->len;
}

START_TEST(test_sched_warnings)
{
    NativeThreadSched t[2];
    NativeSchedInput in = quiet_input(t);
    ck_assert_uint_eq(count_warnings(&in, NULL), 0);
    /* Waiting for a CPU for 1% of the run is a thread descheduled; just under it is not. */
    t[1] = (NativeThreadSched){ 1, 9999 };
    ck_assert_uint_eq(count_warnings(&in, NULL), 0);
    t[1] = (NativeThreadSched){ 3, 10000 };
    ck_assert_uint_eq(count_warnings(&in, "thread 1 (CPU 5) was descheduled: 3 involuntary context switches, "
                                          "0.010 ms (1.0% of the run) waiting for its CPU"), 1);
    /* Where the host does not say how long, a preemption is enough. */
    t[1] = (NativeThreadSched){ 1, -1 };
    ck_assert_uint_eq(count_warnings(&in, "thread 1 (CPU 5) was descheduled: 1 involuntary context switch;"), 1);
    t[1] = (NativeThreadSched){ 0, -1 };
    ck_assert_uint_eq(count_warnings(&in, NULL), 0);
    /* A busy host: more others runnable than the CPUs the run left free (8 - 2). */
    in = quiet_input(t);
    in.others_runnable = 6;
    ck_assert_uint_eq(count_warnings(&in, NULL), 0);
    in.others_runnable = 7;
    ck_assert_uint_eq(count_warnings(&in, "the host was busy: 7 other tasks were runnable when the run started, "
                                          "with 2 of its 8 CPUs taken"), 1);
    in.others_runnable = -1;   /* unknown */
    ck_assert_uint_eq(count_warnings(&in, NULL), 0);
    /* The run: mean 67,083 against p99 1,743. */
    in = quiet_input(t);
    in.latency_mean = 67083;
    in.latency_p99 = 1743;
    ck_assert_uint_eq(count_warnings(&in, "latency.mean (67083 tsc_cycles) is above latency.p99 (1743)"), 1);
    in.latency_samples = NATIVE_TAIL_MIN_SAMPLES - 1;   /* too few to speak of a tail */
    ck_assert_uint_eq(count_warnings(&in, NULL), 0);
    /* All at once. */
    in = quiet_input(t);
    t[0] = (NativeThreadSched){ 2, 500000 };
    in.others_runnable = 9;
    in.latency_mean = 5000;
    ck_assert_uint_eq(count_warnings(&in, "thread 0 (CPU 4)"), 3);
}
END_TEST

START_TEST(test_sched_in_the_report)
{
    /* The report keeps the numbers; the warnings are read back from them. */
    NativeThreadSched t[2];
    NativeSchedInput in = quiet_input(t);
    t[1] = (NativeThreadSched){ 4, 50000 };
    in.others_runnable = 2;
    JsonObject *sched = native_sched_report(&in);
    ck_assert(json_object_get_boolean_member(sched, "disturbed"));
    ck_assert_int_eq(json_array_get_int_element(json_object_get_array_member(sched, "involuntary_switches"), 1), 4);
    ck_assert_int_eq(json_array_get_int_element(json_object_get_array_member(sched, "run_delay_ns"), 1), 50000);
    ck_assert_int_eq(json_object_get_int_member(sched, "others_runnable"), 2);
    ck_assert_int_eq(json_object_get_int_member(sched, "online_cpus"), 8);
    JsonObject *r = json_object_new();
    JsonArray *cpus = json_array_new();
    json_array_add_int_element(cpus, 4);
    json_array_add_int_element(cpus, 5);
    json_object_set_array_member(r, "cpus", cpus);
    json_object_set_int_member(r, "ns", 1000000);
    JsonObject *lat = json_object_new();
    json_object_set_double_member(lat, "mean", 300.5);
    json_object_set_int_member(lat, "p99", 900);
    json_object_set_int_member(lat, "samples", 20000);
    json_object_set_object_member(r, "latency", lat);
    json_object_set_object_member(r, "scheduling", sched);
    JsonNode *root = json_node_init_object(json_node_alloc(), r);
    g_autoptr(GPtrArray) w = native_report_warnings(root);
    ck_assert_uint_eq(w->len, 1);
    ck_assert_msg(g_str_has_prefix(w->pdata[0], "thread 1 (CPU 5) was descheduled: 4 involuntary"), "%s",
                  (char *)w->pdata[0]);
    /* Unknown waiting times are left out, and the preemptions judged alone. */
    t[1] = (NativeThreadSched){ 0, -1 };
    JsonObject *s2 = native_sched_report(&in);
    ck_assert(!json_object_has_member(s2, "run_delay_ns"));
    ck_assert(!json_object_get_boolean_member(s2, "disturbed"));
    json_object_set_object_member(r, "scheduling", s2);
    g_autoptr(GPtrArray) w2 = native_report_warnings(root);
    ck_assert_uint_eq(w2->len, 0);
    json_node_unref(root);
    json_object_unref(r);
}
END_TEST

START_TEST(test_sched_delta)
{
    NativeThreadSched a = { 3, 1000 }, b = { 5, 4500 }, unknown = { 5, -1 };
    NativeThreadSched d = native_sched_delta(&a, &b);
    ck_assert_uint_eq(d.involuntary, 2);
    ck_assert_int_eq(d.run_delay_ns, 3500);
    ck_assert_int_eq(native_sched_delta(&a, &unknown).run_delay_ns, -1);
    /* This thread's own totals only grow. */
    NativeThreadSched s0, s1;
    native_sched_sample(&s0);
    native_sched_sample(&s1);
    ck_assert_uint_ge(s1.involuntary, s0.involuntary);
    ck_assert(s1.run_delay_ns < 0 || s1.run_delay_ns >= s0.run_delay_ns);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Repeated runs                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* A native report's shape, with the numbers given. */
static JsonNode *fake_report(gint64 cycles, double cpa, gboolean mutex, gboolean disturbed)
{
    JsonObject *r = json_object_new();
    json_object_set_string_member(r, "config", "native");
    json_object_set_int_member(r, "threads", 2);
    json_object_set_int_member(r, "iterations", 100);
    json_object_set_string_member(r, "mode", "fixed-work");
    JsonArray *cpus = json_array_new();
    json_array_add_int_element(cpus, 0);
    json_array_add_int_element(cpus, 3);
    json_object_set_array_member(r, "cpus", cpus);
    json_object_set_int_member(r, "cycles", cycles);
    json_object_set_int_member(r, "acquisitions", 200);
    json_object_set_double_member(r, "cycles_per_acquisition", cpa);
    JsonArray *pt = json_array_new();
    for (guint t = 0; t < 2; t++) {
        JsonObject *o = json_object_new();
        json_object_set_int_member(o, "cpu", t * 3);
        json_object_set_int_member(o, "cycles_waiting", cycles / 2 + t);
        json_array_add_object_element(pt, o);
    }
    json_object_set_array_member(r, "per_thread", pt);
    json_object_set_boolean_member(r, "mutual_exclusion", mutex);
    json_object_set_int_member(r, "line_size", 64);
    JsonObject *s = json_object_new();
    json_object_set_boolean_member(s, "disturbed", disturbed);
    json_object_set_object_member(r, "scheduling", s);
    json_object_set_string_member(r, "counters", "unavailable (no perf)");
    JsonNode *n = json_node_init_object(json_node_alloc(), r);
    json_object_unref(r);
    return n;
}

static JsonObject *stats(JsonObject *o, const char *key, double med, double lo, double hi)
{
    JsonObject *s = json_object_get_object_member(o, key);
    ck_assert_msg(s, "%s is not summarised", key);
    ck_assert_double_eq_tol(json_object_get_double_member(s, "median"), med, 1e-9);
    ck_assert_double_eq_tol(json_object_get_double_member(s, "min"), lo, 1e-9);
    ck_assert_double_eq_tol(json_object_get_double_member(s, "max"), hi, 1e-9);
    /* and the mean's interval, never below 0 for what cannot be (issue 27 item 6) */
    double mean = json_object_get_double_member(s, "mean"), cl = json_object_get_double_member(s, "ci95_low"),
           ch = json_object_get_double_member(s, "ci95_high");
    ck_assert_msg(cl >= 0 && cl <= mean && mean <= ch, "%s: mean %g [%g, %g]", key, mean, cl, ch);
    return s;
}

START_TEST(test_repeat_summary)
{
    /* The three runs: 3259, 3743 and 913 cycles per acquisition. */
    JsonNode *runs[] = { fake_report(651800, 3259, TRUE, FALSE), fake_report(748600, 3743, TRUE, TRUE),
                         fake_report(182600, 913, TRUE, FALSE) };
    JsonNode *data = native_repeat_summary(runs, 3, NATIVE_SUMMARY_DATA, TRUE);
    JsonObject *d = json_node_get_object(data);
    stats(d, "cycles_per_acquisition", 3259, 913, 3743);
    stats(d, "cycles", 651800, 182600, 748600);
    stats(d, "acquisitions", 200, 200, 200);   /* measured: summarised even when it agrees */
    /* What was asked for stays as it is. */
    ck_assert_int_eq(json_object_get_int_member(d, "threads"), 2);
    ck_assert_int_eq(json_object_get_int_member(d, "line_size"), 64);
    ck_assert_int_eq(json_array_get_int_element(json_object_get_array_member(d, "cpus"), 1), 3);
    JsonObject *t1 = json_array_get_object_element(json_object_get_array_member(d, "per_thread"), 1);
    ck_assert_int_eq(json_object_get_int_member(t1, "cpu"), 3);
    stats(t1, "cycles_waiting", 325901, 91301, 374301);
    ck_assert(json_object_get_boolean_member(d, "mutual_exclusion"));
    ck_assert_str_eq(json_object_get_string_member(d, "counters"), "unavailable (no perf)");
    /* repeat after mode; disturbed runs where scheduling was; the runs at the end. */
    g_autoptr(GList) names = json_object_get_members(d);
    GString *order = g_string_new(NULL);
    for (GList *l = names; l; l = l->next)
        g_string_append_printf(order, "%s,", (char *)l->data);
    ck_assert_str_eq(order->str, "config,threads,iterations,mode,repeat,cpus,cycles,acquisitions,"
                                 "cycles_per_acquisition,per_thread,mutual_exclusion,line_size,disturbed_runs,"
                                 "counters,runs,");
    g_string_free(order, TRUE);
    ck_assert_int_eq(json_object_get_int_member(d, "repeat"), 3);
    ck_assert_int_eq(json_object_get_int_member(d, "disturbed_runs"), 1);
    ck_assert_uint_eq(json_array_get_length(json_object_get_array_member(d, "runs")), 3);
    json_node_unref(data);

    /* Text: the median and the spread; a figure every run agreed on alone. */
    JsonNode *text = native_repeat_summary(runs, 3, NATIVE_SUMMARY_TEXT, FALSE);
    JsonObject *t = json_node_get_object(text);
    ck_assert_str_eq(json_object_get_string_member(t, "cycles_per_acquisition"),
                     "3259 (913 .. 3743, spread 87%; mean 2638.3333 [634.3489, 10973.1456])");
    ck_assert_int_eq(json_object_get_int_member(t, "acquisitions"), 200);
    ck_assert(!json_object_has_member(t, "runs"));
    g_autofree char *shown = report_to_text(text);
    ck_assert_msg(strstr(shown, "cycles_per_acquisition:            3259 (913 .. 3743, spread 87%; mean 2638.3333 "
                                "[634.3489, 10973.1456])\n"), "%s", shown);
    json_node_unref(text);

    /* A verdict holds only if it held every time. */
    JsonNode *broken[] = { runs[0], fake_report(1, 1, FALSE, FALSE) };
    JsonNode *b = native_repeat_summary(broken, 2, NATIVE_SUMMARY_DATA, FALSE);
    ck_assert(!json_object_get_boolean_member(json_node_get_object(b), "mutual_exclusion"));
    stats(json_node_get_object(b), "cycles_per_acquisition", 1630, 1, 3259);   /* even: the middle two's mean */
    json_node_unref(b);
    json_node_unref(broken[1]);
    for (guint i = 0; i < 3; i++)
        json_node_unref(runs[i]);
}
END_TEST

/* `--repeat 4096` kept every run's report until the end (500 MB on a large host): the
 * summary now takes from each report what it needs as it comes, and the report goes.  Memory
 * in use grows by a small fraction of a report's tree per run (its numbers), not by the tree. */
START_TEST(test_repeat_keeps_only_the_summary)
{
    size_t base = mallinfo2().uordblks;
    JsonNode *one = fake_report(1000, 5, TRUE, FALSE);
    size_t tree = mallinfo2().uordblks - base;
    json_node_unref(one);
    NativeRepeat *acc = native_repeat_new(FALSE);
    one = fake_report(1000, 5, TRUE, FALSE);
    native_repeat_add(acc, one); /* the first: the layout, kept */
    json_node_unref(one);
    size_t before = mallinfo2().uordblks;
    const guint n = 4096;
    for (guint i = 1; i < n; i++) {
        JsonNode *r = fake_report(1000 + i, 5 + i, TRUE, i % 2);
        native_repeat_add(acc, r);
        json_node_unref(r);
    }
    size_t grown = mallinfo2().uordblks - before;
    ck_assert_msg(grown < (n - 1) * tree / 4, "%zu bytes for %u runs of %zu-byte reports", grown, n - 1, tree);
    ck_assert_uint_eq(native_repeat_count(acc), n);
    JsonNode *sum = native_repeat_finish(acc, NATIVE_SUMMARY_DATA);
    JsonObject *d = json_node_get_object(sum);
    stats(d, "cycles", 1000 + (n - 1) / 2.0, 1000, 1000 + n - 1);
    ck_assert_int_eq(json_object_get_int_member(d, "disturbed_runs"), n / 2);
    ck_assert_int_eq(json_object_get_int_member(d, "repeat"), n);
    json_node_unref(sum);
}
END_TEST

START_TEST(test_median)
{
    double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
    ck_assert_double_eq(native_median(odd, 3), 3);
    ck_assert_double_eq(native_median(even, 4), 2.5);
    ck_assert_double_eq(native_median(one, 1), 7);
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

/* A native run pins one thread per CPU and refuses more threads than CPUs (spinning threads
 * sharing a CPU would measure the scheduler), so a check wanting `threads` contending threads
 * runs only on a host with that many.  Where it cannot, it says so in a counted skip line
 * (tests/skip.h); a host-size skip, so CI=true, whose machine has 2 CPUs, counts it too and
 * does not fail on it. */
static gboolean have_cpus(const char *test, const char *check, guint threads)
{
    guint n = ncpus();
    if (n >= threads)
        return TRUE;
    g_autofree char *why = g_strdup_printf("%u CPU%s: %s needs %u (one thread per CPU)", n, n == 1 ? "" : "s", check,
                                           threads);
    qsim_test_skip(test, why);
    return FALSE;
}

/* Two threads where the host has two CPUs; on one, a single thread (what the check can still
 * run), with a skip line for the contention it cannot. */
static guint two_threads_or_one(const char *test)
{
    return have_cpus(test, "two threads contending", 2) ? 2 : 1;
}

/* More than two threads contending: one per CPU, at most 8. */
#define MANY_THREADS_MIN 3u
#define MANY_THREADS_MAX 8u

static guint64 scaled(guint64 n)
{
    return test_scale_quick() ? n / 10 : n;
}

static JsonObject *run_ok(const NativeLock *l, const NativeRunOptions *o, JsonNode **root)
{
    g_autoptr(GError) e = NULL;
    *root = native_run(l, o, &e);
    ck_assert_msg(*root, "%s", e ? e->message : "");
    return json_node_get_object(*root);
}

static void check_correct_run(const NativeLock *l, guint threads, gboolean same_line)
{
    NativeRunOptions o;
    native_run_options_init(&o);
    o.workload.threads = threads;
    o.workload.iterations = (guint)scaled(20000);
    o.workload.cs_writes = 2;
    o.workload.data = same_line ? HARNESS_SAME_LINE : HARNESS_SEPARATE_LINE;
    guint64 iterations = o.workload.iterations;
    JsonNode *root;
    JsonObject *r = run_ok(l, &o, &root);
    /* `counter` is the harness's h_counter, read from the run's memory. */
    ck_assert_int_eq(json_object_get_int_member(r, "acquisitions"), (gint64)(threads * iterations));
    ck_assert_int_eq(json_object_get_int_member(r, "counter"), (gint64)(threads * iterations));
    ck_assert_int_eq(json_object_get_int_member(r, "in_cs_violations"), 0);
    ck_assert(json_object_get_boolean_member(r, "mutual_exclusion"));
    JsonArray *pt = json_object_get_array_member(r, "per_thread");
    ck_assert_int_eq(json_array_get_length(pt), threads);
    for (guint t = 0; t < threads; t++)
        ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(pt, t), "acquisitions"),
                         (gint64)iterations);
    /* A fixed-work run keeps every latency sample. */
    ck_assert_int_eq(json_object_get_int_member(json_object_get_object_member(r, "latency"), "samples"),
                     (gint64)(threads * iterations));
    /* How the scheduler treated each thread (what it says depends on the host; its shape does not). */
    JsonObject *sched = json_object_get_object_member(r, "scheduling");
    ck_assert_ptr_nonnull(sched);
    ck_assert_int_eq(json_array_get_length(json_object_get_array_member(sched, "involuntary_switches")), threads);
    if (json_object_has_member(sched, "run_delay_ns"))
        ck_assert_int_eq(json_array_get_length(json_object_get_array_member(sched, "run_delay_ns")), threads);
    ck_assert_int_ge(json_object_get_int_member(sched, "online_cpus"), threads);
    ck_assert(json_object_has_member(sched, "disturbed"));
    json_node_unref(root);
}

/* A lock on one thread, on two, and on as many as the host has up to 8; `same_line` first. */
static void check_runs(const char *test, const NativeLock *l, gboolean same_line)
{
    check_correct_run(l, 1, same_line);
    if (have_cpus(test, "the two-thread run", 2))
        check_correct_run(l, 2, !same_line);
    if (have_cpus(test, "the many-thread run (3 to 8 threads)", MANY_THREADS_MIN))
        check_correct_run(l, MIN(ncpus(), MANY_THREADS_MAX), same_line);
}

START_TEST(test_tas_runs)
{
    g_autoptr(NativeLock) l = load("tas", tas_text);
    check_runs("native/test_tas_runs", l, FALSE);
}
END_TEST

START_TEST(test_ticket_runs)
{
    g_autoptr(NativeLock) l = load("ticket", ticket_text);
    check_runs("native/test_ticket_runs", l, TRUE);
}
END_TEST

/* Every built-in lock, found by name as the simulator finds it, keeps mutual exclusion. */
static const char *const builtin_locks[] = { "tas", "ttas", "ticket", "mcs", "clh", "qspin", "qspin-cmpxchg", "qrwlock",
                                             "qrwlock-4.15", "arm64-rwlock", "futex-mutex", "adaptive-mutex",
                                             "adaptive-mutex-readspin", "adaptive-mutex-2018" };

START_TEST(test_builtin_locks_run)
{
    g_autoptr(GError) e = NULL;
    g_autoptr(NativeLock) l = native_lock_builtin(builtin_locks[_i], &e);
    ck_assert_msg(l, "%s", e ? e->message : "");
    ck_assert_str_eq(native_lock_name(l), builtin_locks[_i]);
    g_autofree char *test = g_strdup_printf("native/test_builtin_locks_run/%s", builtin_locks[_i]);
    check_correct_run(l, two_threads_or_one(test), FALSE);
}
END_TEST

/* The futex ops become futex(2) calls, only in programs that make them; a lock parameter is
 * a constant of the C; the adaptive mutex with a tiny spin count, whose waiters sleep at once,
 * still keeps mutual exclusion with a long critical section. */
START_TEST(test_futex_lock_params_natively)
{
    g_autoptr(GError) e = NULL;
    g_autoptr(NativeLock) l = native_lock_builtin("adaptive-mutex-2018", &e);
    ck_assert_msg(l, "%s", e ? e->message : "");
    const char *const params[] = { "spin_count=7", NULL };
    NativeRunOptions o;
    native_run_options_init(&o);
    o.lock_params = params;
    g_autofree char *c = native_program_c(l, &o, &e);
    ck_assert_msg(c, "%s", e ? e->message : "");
    ck_assert(strstr(c, "syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE"));
    ck_assert(strstr(c, "= qn_futex_wait((uint32_t *)(uintptr_t)(M["));
    ck_assert(strstr(c, "= qn_futex_wake((uint32_t *)(uintptr_t)(M["));
    ck_assert(strstr(c, "UINT64_C(7)"));
    g_autoptr(NativeLock) t = native_lock_builtin("ttas", &e);
    NativeRunOptions plain;
    native_run_options_init(&plain);
    g_autofree char *tc = native_program_c(t, &plain, &e);
    ck_assert(tc && !strstr(tc, "SYS_futex") && !strstr(tc, "qn_futex"));
    /* An unknown parameter is refused before anything runs. */
    const char *const typo[] = { "spin_cont=7", NULL };
    o.lock_params = typo;
    g_autofree char *none = native_program_c(l, &o, &e);
    ck_assert(!none);
    ck_assert_msg(strstr(e->message, "did you mean `spin_count`?"), "%s", e->message);
    g_clear_error(&e);
    if (!have_cpus("native/test_futex_lock_params_natively", "spin_count=1 on two threads", 2))
        return;
    const char *const one[] = { "spin_count=1", NULL };
    o.lock_params = one;
    o.workload.threads = 2;
    o.workload.iterations = (guint)scaled(5000);
    o.workload.cs_work = 2000;
    JsonNode *root;
    JsonObject *r = run_ok(l, &o, &root);
    ck_assert(json_object_get_boolean_member(r, "mutual_exclusion"));
    ck_assert_int_eq(json_object_get_int_member(r, "counter"), 2 * (gint64)o.workload.iterations);
    json_node_unref(root);
}
END_TEST

START_TEST(test_lock_file_runs)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-test-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "myticket.qs", NULL);
    ck_assert(g_file_set_contents(path, ticket_text, -1, NULL));
    g_autoptr(GError) e = NULL;
    g_autoptr(NativeLock) l = native_lock_from_file(path, &e);
    ck_assert_msg(l, "%s", e ? e->message : "");
    ck_assert_str_eq(native_lock_name(l), "myticket");
    check_correct_run(l, two_threads_or_one("native/test_lock_file_runs"), TRUE);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* A lock that locks nothing: whenever two threads' critical sections overlap in time (on two
 * CPUs, or on one when a thread is preempted inside its long critical section), the harness's
 * in-CS flag shows it.  Fixed-time runs long enough to span many scheduler ticks make that
 * certain on a busy machine too, where a racy test-then-store lock could run its whole loop in
 * one time slice and never race. */
static const char nolock_text[] =
    ".shared lock_word 8 own_line\n"
    ".entry lock\n"
    ".entry unlock\n"
    "lock:\n"
    "    ret\n"
    "unlock:\n"
    "    ret\n";

START_TEST(test_broken_lock_is_caught)
{
    if (!have_cpus("native/test_broken_lock_is_caught", "a race of two threads", 2))
        return;
    g_autoptr(NativeLock) l = load("nolock", nolock_text);
    NativeRunOptions o;
    native_run_options_init(&o);
    o.workload.threads = 2;
    o.workload.duration_ms = 100;
    o.workload.cs_work = 20000;
    gboolean caught = FALSE;
    for (int attempt = 0; attempt < 10 && !caught; attempt++) {
        JsonNode *root;
        JsonObject *r = run_ok(l, &o, &root);
        caught = !json_object_get_boolean_member(r, "mutual_exclusion");
        if (caught)
            ck_assert(json_object_get_int_member(r, "in_cs_violations") > 0 ||
                      json_object_get_int_member(r, "counter") != json_object_get_int_member(r, "acquisitions"));
        json_node_unref(root);
    }
    ck_assert_msg(caught, "a lock that locks nothing passed 10 runs of 100 ms");
}
END_TEST

START_TEST(test_fixed_time_and_keys)
{
    g_autoptr(NativeLock) l = load("ticket", ticket_text);
    NativeRunOptions o;
    native_run_options_init(&o);
    o.workload.threads = two_threads_or_one("native/test_fixed_time_and_keys");
    o.workload.duration_ms = 50;
    o.workload.think = 50;
    JsonNode *root;
    JsonObject *r = run_ok(l, &o, &root);
    static const char *const present[] = {
        "config", "arch", "lock", "threads", "ns", "acquisitions", "latency", "per_thread",
        "fairness", "mutual_exclusion", "host_seconds", "counters", "duration_ms", "mode", "cpus",
        "ns_per_acquisition", "counter", "in_cs_violations", "line_size", "work_unit_ns", "host_peak_rss_kib",
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
    ck_assert_int_eq(json_object_get_int_member(r, "duration_ms"), 50);
    ck_assert_str_eq(json_object_get_string_member(r, "mode"), "fixed-time");
    JsonObject *lat = json_object_get_object_member(r, "latency");
    ck_assert(json_object_has_member(lat, "mean") && json_object_has_member(lat, "p50") &&
              json_object_has_member(lat, "p99") && json_object_has_member(lat, "unit"));
    ck_assert(json_object_get_double_member(lat, "p50") <= json_object_get_double_member(lat, "p99"));
    JsonObject *f = json_object_get_object_member(r, "fairness");
    gint64 acq = json_object_get_int_member(r, "acquisitions");
    ck_assert(acq > 0);
    ck_assert(json_object_get_int_member(f, "min") <= json_object_get_double_member(f, "avg"));
    ck_assert(json_object_get_double_member(f, "avg") <= json_object_get_int_member(f, "max"));
    /* The threads stopped between iterations: every acquisition is in the counter. */
    ck_assert_int_eq(json_object_get_int_member(r, "counter"), acq);
    ck_assert(json_object_get_boolean_member(r, "mutual_exclusion"));
    JsonArray *pt = json_object_get_array_member(r, "per_thread");
    JsonObject *t0 = json_array_get_object_element(pt, 0);
    ck_assert(json_object_has_member(t0, "cpu") && json_object_has_member(t0, "cycles_waiting"));
    /* Samples: each thread's first 2^20 at most (a fixed-time run's count is not known ahead). */
    gint64 kept = 0;
    for (guint t = 0; t < json_array_get_length(pt); t++)
        kept += MIN(json_object_get_int_member(json_array_get_object_element(pt, t), "acquisitions"),
                    (gint64)native_run_sample_limit(&o.workload, o.workload.threads));
    ck_assert_int_eq(json_object_get_int_member(lat, "samples"), kept);
    /* Counters: numbers where perf works, else "unavailable (why)". */
    JsonNode *c = json_object_get_member(r, "counters");
    if (JSON_NODE_HOLDS_VALUE(c))
        ck_assert(g_str_has_prefix(json_node_get_string(c), "unavailable ("));
    else
        ck_assert(json_object_get_int_member(json_node_get_object(c), "instructions") > 0);
    json_node_unref(root);
}
END_TEST

/* The keys of `json` (an object) joined with ',' in order, each with its JSON type. */
static GHashTable *member_types(JsonObject *o)
{
    GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
    g_autoptr(GList) m = json_object_get_members(o);
    for (GList *l = m; l; l = l->next) {
        JsonNode *n = json_object_get_member(o, l->data);
        g_hash_table_insert(h, l->data, (gpointer)(JSON_NODE_HOLDS_VALUE(n) ? g_type_name(json_node_get_value_type(n))
                                                   : JSON_NODE_HOLDS_OBJECT(n) ? "object" : "array"));
    }
    return h;
}

static gboolean listed(const char *const *list, const char *key)
{
    for (guint i = 0; list[i]; i++)
        if (!strcmp(list[i], key))
            return TRUE;
    return FALSE;
}

/* Every key of `a` is in `b` with the same JSON type, unless listed in `only_a`, which `b` must
 * then lack (`may_lack`: keys `b` may lack even so, e.g. the TSC's cycles off x86). */
static void check_keys_within(JsonObject *a, JsonObject *b, const char *const *only_a, const char *const *may_lack,
                              const char *where)
{
    g_autoptr(GHashTable) ta = member_types(a), tb = member_types(b);
    GHashTableIter it;
    gpointer key, type;
    g_hash_table_iter_init(&it, ta);
    while (g_hash_table_iter_next(&it, &key, &type)) {
        const char *tb_type = g_hash_table_lookup(tb, key);
        if (listed(only_a, key)) {
            ck_assert_msg(!tb_type, "%s: %s is listed as one side's, but both have it", where, (char *)key);
            continue;
        }
        if (!tb_type && listed(may_lack, key))
            continue;
        ck_assert_msg(tb_type, "%s: %s only on one side", where, (char *)key);
        ck_assert_msg(!strcmp(type, tb_type), "%s: %s is %s on one side, %s on the other", where, (char *)key,
                      (char *)type, tb_type);
    }
}

START_TEST(test_report_is_the_models)
{
    /* The same builder wrote both: the keys they share have one meaning and one JSON type;
     * each side's own keys are exactly those docs/native.md lists. */
    RunOptions mo;
    run_options_init(&mo);
    mo.lock = "ticket";
    mo.host_time = TRUE;
    mo.workload.threads = 1;
    mo.workload.iterations = 20;
    RunResult mr;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(run_simulation(&mo, &mr, &e), "%s", e ? e->message : "");
    g_autoptr(GError) ne = NULL;
    g_autoptr(NativeLock) l = native_lock_builtin("ticket", &ne);
    ck_assert_msg(l, "%s", ne ? ne->message : "");
    NativeRunOptions no;
    native_run_options_init(&no);
    no.workload = mo.workload;
    JsonNode *root;
    JsonObject *n = run_ok(l, &no, &root);
    JsonObject *m = json_node_get_object(mr.report);
    static const char *const model_only[] = {
        "readers", "placement", "jitter", "seed", "stalled", "faulted", "halted_in_lock", "machine_clears",
        "paused_cycles", "atomics",
        "coherence", "l1_hit_rate", "sim_instructions", "cores_summed", "memory_system", "branch_mispredicts",
        "host_cpu_seconds", "host_fast_forward_share", "smt_siblings", "lock_lines", "variables", NULL,
    };
    static const char *const native_only[] = {
        "cpus", "ns", "ns_per_acquisition", "counter", "in_cs_violations", "line_size", "work_unit_ns", "scheduling",
        "counters", NULL,
    };
    /* The TSC counts cycles on x86 only. */
    static const char *const tsc[] = { "cycles", "cycles_per_acquisition", NULL };
    static const char *const none[] = { NULL };
    check_keys_within(m, n, model_only, tsc, "model vs native");
    check_keys_within(n, m, native_only, none, "native vs model");
    static const char *const latency_native[] = { "unit", "samples", NULL };
    check_keys_within(json_object_get_object_member(m, "latency"), json_object_get_object_member(n, "latency"),
                      none, none, "latency");
    check_keys_within(json_object_get_object_member(n, "latency"), json_object_get_object_member(m, "latency"),
                      latency_native, none, "latency");
    JsonObject *mt = json_array_get_object_element(json_object_get_array_member(m, "per_thread"), 0);
    JsonObject *nt = json_array_get_object_element(json_object_get_array_member(n, "per_thread"), 0);
    static const char *const core[] = { "core", NULL }, *const cpu[] = { "cpu", NULL };
    check_keys_within(mt, nt, core, none, "per_thread");
    check_keys_within(nt, mt, cpu, none, "per_thread");
    /* The same workload, echoed the same way. */
    ck_assert_str_eq(json_object_get_string_member(n, "mode"), "fixed-work");
    ck_assert_int_eq(json_object_get_int_member(n, "acquisitions"), json_object_get_int_member(m, "acquisitions"));
    json_node_unref(root);
    run_result_clear(&mr);
}
END_TEST

START_TEST(test_model_options_handed_over)
{
    /* A model run's options as they are (`qsim run --native`): the rows the host does not take
     * are run at their defaults and not echoed; the model's fixed time (cycles) becomes the
     * iterations. */
    g_autoptr(NativeLock) l = load("ticket", ticket_text);
    NativeRunOptions o;
    native_run_options_init(&o);
    workload_init(&o.workload, WL_RUN);
    o.workload.threads = 1;
    o.workload.iterations = 12;
    o.workload.duration = 5000;
    o.workload.jitter = 7;
    o.workload.placement.policy = PLACE_SPREAD;
    o.workload.readers = 1;
    JsonNode *root;
    JsonObject *r = run_ok(l, &o, &root);
    ck_assert_str_eq(json_object_get_string_member(r, "mode"), "fixed-work");
    ck_assert_int_eq(json_object_get_int_member(r, "iterations"), 12);
    ck_assert_int_eq(json_object_get_int_member(r, "acquisitions"), 12);
    ck_assert_int_eq(json_object_get_int_member(r, "counter"), 12);
    static const char *const absent[] = { "duration", "jitter", "placement", "readers" };
    for (guint i = 0; i < G_N_ELEMENTS(absent); i++)
        ck_assert_msg(!json_object_has_member(r, absent[i]), "%s echoed", absent[i]);
    /* Every thread wrote (no reader side natively). */
    JsonObject *t0 = json_array_get_object_element(json_object_get_array_member(r, "per_thread"), 0);
    ck_assert_str_eq(json_object_get_string_member(t0, "role"), "writer");
    json_node_unref(root);
}
END_TEST

START_TEST(test_run_errors)
{
    g_autoptr(NativeLock) l = load("tas", tas_text);
    NativeRunOptions o;
    native_run_options_init(&o);
    o.workload.iterations = 10;
    g_autoptr(GError) e = NULL;
    /* The harness's CS data must fit beside the lock word: the assembler says where not. */
    o.workload.threads = 1;
    o.workload.data = HARNESS_SAME_LINE;
    o.workload.cs_writes = 7;
    ck_assert(!native_run(l, &o, &e));
    ck_assert_int_eq(e->code, NATIVE_ERROR_USAGE);
    ck_assert_msg(g_str_has_prefix(e->message, "--cs-writes 7 with --data same-line: ") &&
                  strstr(e->message, "at most 5 fit"), "%s", e->message);
    g_clear_error(&e);
    o.workload.data = HARNESS_SEPARATE_LINE;
    o.workload.threads = ncpus() + 1;
    ck_assert(!native_run(l, &o, &e));
    ck_assert_msg(g_str_has_prefix(e->message, "--threads"), "%s", e->message);
    g_clear_error(&e);
    /* The workload table's ranges (the harness holds counts as 32-bit immediates), in the
     * backend's own error domain. */
    o.workload.threads = 1;
    o.workload.iterations = (guint)G_MAXINT32 + 1;
    ck_assert(!native_run(l, &o, &e));
    ck_assert_int_eq(e->code, NATIVE_ERROR_USAGE);
    ck_assert_str_eq(e->message, "--iterations 2147483648: out of range [1, 100000000]");
    g_clear_error(&e);
    o.workload.iterations = 10;
    o.workload.think = 1000001;
    ck_assert(!native_run(l, &o, &e));
    ck_assert_msg(g_str_has_prefix(e->message, "--think 1000001"), "%s", e->message);
}
END_TEST

START_TEST(test_lock_errors)
{
    static const struct { const char *text, *err; } cases[] = {
        { "lock:\n    frobnicate r1\n", "bad.qs:2:5: " },
        { ".shared lock_word 8\n.entry lock\nlock:\n    ret\n",
          "bad.qs: no entry point `unlock` (the harness calls it; mark its label with `.entry unlock`)" },
    };
    g_autoptr(GError) e = NULL;
    ck_assert(!native_lock_from_source("bad", "bad.qs", cases[_i].text, &e));
    ck_assert_msg(g_str_has_prefix(e->message, cases[_i].err), "%s", e->message);
}
END_TEST

START_TEST(test_program_fault_has_position)
{
    /* Unbounded recursion overflows the return stack: an error with the call's position. */
    g_autoptr(NativeLock) l = load("deep", deep_text);
    NativeRunOptions o;
    native_run_options_init(&o);
    o.workload.threads = 1;
    o.workload.iterations = 3;
    g_autoptr(GError) e = NULL;
    ck_assert(!native_run(l, &o, &e));
    ck_assert_str_eq(e->message, "thread 0 faulted at deep.qs:5:5: call stack overflow (more than 64 nested calls)");
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Compiling                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* A $CC that counts its runs in `count` beside it, then runs the real compiler. */
static char *counting_cc(const char *dir)
{
    g_auto(GStrv) real = native_find_compiler(NULL);
    ck_assert(real);
    g_autoptr(GString) cmd = g_string_new(NULL);
    for (guint i = 0; real[i]; i++) {
        g_autofree char *q = g_shell_quote(real[i]);
        g_string_append_printf(cmd, "%s ", q);
    }
    char *path = g_build_filename(dir, "counting-cc", NULL);
    g_autofree char *script = g_strdup_printf("#!/bin/sh\necho run >> \"$(dirname \"$0\")/count\"\nexec %s\"$@\"\n",
                                              cmd->str);
    ck_assert(g_file_set_contents(path, script, -1, NULL));
    ck_assert(g_chmod(path, 0755) == 0);
    return path;
}

static guint compiles(const char *dir)
{
    g_autofree char *count = g_build_filename(dir, "count", NULL);
    g_autofree char *text = NULL;
    if (!g_file_get_contents(count, &text, NULL, NULL))
        return 0;
    g_auto(GStrv) lines = g_strsplit(g_strstrip(text), "\n", -1);
    return g_strv_length(lines);
}

static void run_small(const NativeLock *l, guint64 iterations)
{
    NativeRunOptions o;
    native_run_options_init(&o);
    o.workload.threads = 1;
    o.workload.iterations = (guint)iterations;
    JsonNode *root;
    JsonObject *r = run_ok(l, &o, &root);
    ck_assert_int_eq(json_object_get_int_member(r, "counter"), (gint64)iterations);
    json_node_unref(root);
}

static void remove_tree(const char *path)
{
    GDir *d = g_dir_open(path, 0, NULL);
    const char *f;
    while (d && (f = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(path, f, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
            remove_tree(p);
        else
            g_unlink(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(path);
}

START_TEST(test_cache_is_reused)
{
    /* Each test runs in its own process: the environment is ours to set. */
    g_autofree char *dir = g_dir_make_tmp("qsim-test-XXXXXX", NULL);
    g_autofree char *cache = g_build_filename(dir, "cache", NULL);
    g_setenv("XDG_CACHE_HOME", cache, TRUE);
    g_autofree char *cc = counting_cc(dir);
    g_setenv("CC", cc, TRUE);
    {
        g_autoptr(NativeLock) l = load("tas", tas_text);
        run_small(l, 5);
        ck_assert_uint_eq(compiles(dir), 1);
        run_small(l, 5);
        ck_assert_uint_eq(compiles(dir), 1);
    }
    /* Another lock object, the same program: still cached.  Another program: compiled. */
    g_autoptr(NativeLock) again = load("tas", tas_text);
    run_small(again, 5);
    ck_assert_uint_eq(compiles(dir), 1);
    run_small(again, 6);
    ck_assert_uint_eq(compiles(dir), 2);
    /* The cache holds each program's object and C text, and no build leftovers. */
    g_autofree char *native = g_build_filename(cache, "qsim", "native", NULL);
    GDir *d = g_dir_open(native, 0, NULL);
    ck_assert(d);
    guint so = 0, c = 0, other = 0;
    const char *f;
    while ((f = g_dir_read_name(d)))
        so += g_str_has_suffix(f, ".so"), c += g_str_has_suffix(f, ".c"),
            other += !g_str_has_suffix(f, ".so") && !g_str_has_suffix(f, ".c");
    g_dir_close(d);
    ck_assert_uint_eq(so, 2);
    ck_assert_uint_eq(c, 2);
    ck_assert_uint_eq(other, 0);
    remove_tree(dir);
}
END_TEST

START_TEST(test_no_cache_dir_still_runs)
{
    /* A cache folder that cannot be made: each run compiles in a private temporary folder. */
    g_autofree char *dir = g_dir_make_tmp("qsim-test-XXXXXX", NULL);
    g_autofree char *file = g_build_filename(dir, "not-a-folder", NULL);
    ck_assert(g_file_set_contents(file, "", -1, NULL));
    g_setenv("XDG_CACHE_HOME", file, TRUE);
    g_autofree char *cc = counting_cc(dir);
    g_setenv("CC", cc, TRUE);
    ck_assert(!native_cache_dir());
    g_autoptr(NativeLock) l = load("tas", tas_text);
    run_small(l, 4);
    run_small(l, 4);
    ck_assert_uint_eq(compiles(dir), 2);
    remove_tree(dir);
}
END_TEST

START_TEST(test_no_compiler)
{
    g_setenv("CC", "qsim-no-such-cc", TRUE); /* each test runs in its own process */
    g_autoptr(GError) e = NULL;
    ck_assert(!native_lock_from_source("tas", "tas.qs", tas_text, &e));
    ck_assert_int_eq(e->code, NATIVE_ERROR_COMPILER);
    ck_assert_msg(g_str_has_prefix(e->message, "no C compiler found: `qsim-no-such-cc` is not in PATH"),
                  "%s", e->message);
    /* The command line: exit 2, the same words. */
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line("native --lock tas --threads 1 --iterations 5", NULL, &err), 2);
    ck_assert_msg(strstr(err, "no C compiler found: `qsim-no-such-cc` is not in PATH"), "%s", err);
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
        { "native --lock tsa", "no built-in lock `tsa`; did you mean `tas`?" },
        { "native --lock tas --threads 1 --iterations 5 --data same-line --cs-writes 7",
          "--cs-writes 7 with --data same-line: " },
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
    g_autofree char *pos = g_strdup_printf("qsim: %s:2:", path);
    ck_assert_msg(g_str_has_prefix(err, pos), "%s", err);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

START_TEST(test_cli_builtin_json)
{
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line("native --lock tas --threads 1 --iterations 100 --format json", &out, NULL), 0);
    g_autoptr(JsonParser) jp = json_parser_new();
    ck_assert(json_parser_load_from_data(jp, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(jp));
    ck_assert_int_eq(json_object_get_int_member(r, "acquisitions"), 100);
    ck_assert_int_eq(json_object_get_int_member(r, "counter"), 100);
    ck_assert(json_object_get_boolean_member(r, "mutual_exclusion"));
}
END_TEST

START_TEST(test_cli_threads_from_cpus)
{
    /* --cpus without --threads: one thread per CPU listed. */
    g_autoptr(GArray) allowed = native_allowed_cpus();
    guint cpu = g_array_index(allowed, guint, allowed->len - 1);
    g_autofree char *line = g_strdup_printf("native --lock tas --cpus %u --iterations 30 --format json", cpu);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(line, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    g_autoptr(JsonParser) jp = json_parser_new();
    ck_assert(json_parser_load_from_data(jp, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(jp));
    ck_assert_int_eq(json_object_get_int_member(r, "threads"), 1);
    ck_assert_int_eq(json_array_get_int_element(json_object_get_array_member(r, "cpus"), 0), cpu);
    ck_assert_int_eq(json_object_get_int_member(r, "acquisitions"), 30);
}
END_TEST

START_TEST(test_cli_duration)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("native --lock ticket --threads 1 --duration-ms 20 --format json", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    g_autoptr(JsonParser) jp = json_parser_new();
    ck_assert(json_parser_load_from_data(jp, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(jp));
    ck_assert_int_eq(json_object_get_int_member(r, "duration_ms"), 20);
    ck_assert(!json_object_has_member(r, "iterations"));
    gint64 acq = json_object_get_int_member(r, "acquisitions");
    ck_assert(acq > 0);
    ck_assert_int_eq(json_object_get_int_member(r, "counter"), acq);
    /* The run lasted at least the duration (a lower bound only: no host-speed assertion). */
    ck_assert(json_object_get_int_member(r, "ns") >= 20 * 1000000);
}
END_TEST


START_TEST(test_cli_short_options)
{
    /* -l, -t, -i, -f as `qsim run` spells them. */
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("native -l tas -t 1 -i 40 -f json", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    g_autoptr(JsonParser) jp = json_parser_new();
    ck_assert(json_parser_load_from_data(jp, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(jp));
    ck_assert_int_eq(json_object_get_int_member(r, "threads"), 1);
    ck_assert_int_eq(json_object_get_int_member(r, "acquisitions"), 40);
    /* The defaults are `qsim run`'s, but for the documented iterations. */
    ck_assert_int_eq(json_object_get_int_member(r, "cs_writes"), 1);
    ck_assert_str_eq(json_object_get_string_member(r, "data"), "separate-line");
}
END_TEST

START_TEST(test_cli_repeat)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("native --lock ticket -t 1 -i 30 --repeat 3 --format json", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    g_autoptr(JsonParser) jp = json_parser_new();
    ck_assert(json_parser_load_from_data(jp, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(jp));
    ck_assert_int_eq(json_object_get_int_member(r, "repeat"), 3);
    JsonObject *acq = json_object_get_object_member(r, "acquisitions");
    ck_assert_int_eq(json_object_get_int_member(acq, "median"), 30);
    ck_assert_int_eq(json_object_get_int_member(acq, "min"), 30);
    ck_assert_int_eq(json_object_get_int_member(acq, "max"), 30);
    JsonObject *cpa = json_object_get_object_member(r, "cycles_per_acquisition");
    if (cpa) {   /* x86: the TSC */
        ck_assert(json_object_get_double_member(cpa, "min") <= json_object_get_double_member(cpa, "median"));
        ck_assert(json_object_get_double_member(cpa, "median") <= json_object_get_double_member(cpa, "max"));
    }
    JsonArray *runs = json_object_get_array_member(r, "runs");
    ck_assert_int_eq(json_array_get_length(runs), 3);
    ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(runs, 2), "acquisitions"), 30);
    /* Text: the summary's layout; CSV: median, min and max columns. */
    g_free(out);
    out = NULL;
    ck_assert_int_eq(run_qsim_line("native --lock ticket -t 1 -i 30 --repeat 2", &out, NULL), 0);
    ck_assert_msg(strstr(out, "\nrepeat:                            2\n"), "%s", out);
    ck_assert_msg(strstr(out, "\ndisturbed_runs:"), "%s", out);
    g_free(out);
    out = NULL;
    ck_assert_int_eq(run_qsim_line("native --lock ticket -t 1 -i 30 --repeat 2 --format csv", &out, NULL), 0);
    ck_assert_msg(strstr(out, ",repeat,") && strstr(out, ",ns.median,ns.min,ns.max,"), "%s", out);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("native --lock ticket --repeat 0", NULL, &err), 2);
    ck_assert_msg(strstr(err, "--repeat 0: out of range [1, 10000]"), "%s", err);
}
END_TEST

START_TEST(test_cli_warns_when_descheduled)
{
    /* Forced: thread 0 waited 50 ms for its CPU (QSIM_TEST_NATIVE_RUN_DELAY_NS), far past 1% of a
     * short run; the warning comes per run and in the summary. */
    g_setenv("QSIM_TEST_NATIVE_RUN_DELAY_NS", "50000000", TRUE);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("native --lock tas -t 1 -i 50 --format json", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(strstr(err, "qsim native: warning: thread 0 (CPU "), "%s", err);
    ck_assert_msg(strstr(err, "was descheduled: "), "%s", err);
    g_autoptr(JsonParser) jp = json_parser_new();
    ck_assert(json_parser_load_from_data(jp, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(jp));
    ck_assert(json_object_get_boolean_member(json_object_get_object_member(r, "scheduling"), "disturbed"));
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("native --lock tas -t 1 -i 50 --repeat 2", NULL, &err), 0);
    ck_assert_msg(strstr(err, "qsim native: warning: run 1 of 2: thread 0 (CPU "), "%s", err);
    ck_assert_msg(strstr(err, "qsim native: warning: run 2 of 2: thread 0 (CPU "), "%s", err);
    ck_assert_msg(strstr(err, "qsim native: warning: 2 of 2 runs were disturbed"), "%s", err);
    g_unsetenv("QSIM_TEST_NATIVE_RUN_DELAY_NS");
}
END_TEST

Suite *make_native_suite(void)
{
    Suite *s = suite_create("native");
    TCase *tc = tcase_create("translate");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_translate_golden);
    tcase_add_test(tc, test_translate_arm64_mapping);
    tcase_add_test(tc, test_translate_one_entry);
    tcase_add_test(tc, test_translate_per_arch_lock);
    tcase_add_loop_test(tc, test_x86_refuses_arm64_ops, 0, 5);
    tcase_add_test(tc, test_arm64_exclusive_asm);
    tcase_add_test(tc, test_program_is_lock_with_harness);
    tcase_add_test(tc, test_program_fixed_time_count);
    tcase_add_loop_test(tc, test_parse_cpus, 0, G_N_ELEMENTS(cpu_cases));
    tcase_add_test(tc, test_options_are_the_tables);
    tcase_add_test(tc, test_sample_limit);
    tcase_add_test(tc, test_perf_registry_covers_struct);
    tcase_add_test(tc, test_perf_total);
    tcase_add_test(tc, test_sched_warnings);
    tcase_add_test(tc, test_sched_in_the_report);
    tcase_add_test(tc, test_sched_delta);
    tcase_add_test(tc, test_repeat_summary);
    tcase_add_test(tc, test_repeat_keeps_only_the_summary);
    tcase_add_test(tc, test_median);
    suite_add_tcase(s, tc);

    tc = tcase_create("run");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_tas_runs);
    tcase_add_test(tc, test_ticket_runs);
    tcase_add_loop_test(tc, test_builtin_locks_run, 0, G_N_ELEMENTS(builtin_locks));
    tcase_add_test(tc, test_futex_lock_params_natively);
    tcase_add_test(tc, test_lock_file_runs);
    tcase_add_test(tc, test_broken_lock_is_caught);
    tcase_add_test(tc, test_fixed_time_and_keys);
    tcase_add_test(tc, test_report_is_the_models);
    tcase_add_test(tc, test_model_options_handed_over);
    tcase_add_test(tc, test_run_errors);
    tcase_add_loop_test(tc, test_lock_errors, 0, 2);
    tcase_add_test(tc, test_program_fault_has_position);
    suite_add_tcase(s, tc);

    tc = tcase_create("compile");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cache_is_reused);
    tcase_add_test(tc, test_no_cache_dir_still_runs);
    tcase_add_test(tc, test_no_compiler);
    suite_add_tcase(s, tc);

    tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cli_usage_errors);
    tcase_add_test(tc, test_cli_lock_file_error_has_position);
    tcase_add_test(tc, test_cli_builtin_json);
    tcase_add_test(tc, test_cli_threads_from_cpus);
    tcase_add_test(tc, test_cli_duration);
    tcase_add_test(tc, test_cli_short_options);
    tcase_add_test(tc, test_cli_repeat);
    tcase_add_test(tc, test_cli_warns_when_descheduled);
    suite_add_tcase(s, tc);
    return s;
}
