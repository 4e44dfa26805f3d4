/* Every built-in lock passes verify on every target (x86, arm64 with LL/SC, arm64 with LSE);
 * a broken lock fails it, a lost arm64 wake-up included; the arm64 waits are WFE waits; every
 * built-in and a lock with per-arch code run on the timing model with each target's code;
 * qspin-cmpxchg differs from qspin only where the seed patch does; arm64-rwlock starves its
 * writers where qrwlock-4.15 does not; and the `qsim verify` / `qsim asm` command lines. */
#include <check.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include "tests/run_qsim.h"
#include "sim/validation/verify.h"
#include "tests/planted_locks.h"
#include "sim/run/run.h"
#include "cores/isa/asm.h"

static const char *const lock_names[] = { "tas", "ttas", "ticket", "mcs", "clh", "qspin", "qspin-cmpxchg", "qrwlock",
                                          "qrwlock-4.15", "arm64-rwlock" };
static const char *const rw_lock_names[] = { "qrwlock", "qrwlock-4.15", "arm64-rwlock" };
/* Every target a lock's `.if` may select. */
static const ArchTarget targets[] = {
    { ARCH_X86, ARCH_ATOMICS_LOCKED, 0 },
    { ARCH_ARM64, ARCH_ATOMICS_LLSC, 0 },
    { ARCH_ARM64, ARCH_ATOMICS_LSE, 0 },
};
static const guint thread_counts[] = { 1, 2, 3, 4, 8, 16 };

static const char *srcdir(void)
{
    const char *d = g_getenv("QSIM_SRCDIR");
    return d ? d : QSIM_SRCDIR;
}

static guint scaled_seeds(void)
{
    return g_strcmp0(g_getenv("QSIM_TEST_SCALE"), "quick") ? 200 : 20;
}

static char *read_lock(const char *name)
{
    g_autofree char *path = g_strdup_printf("%s/locks/%s.qs", srcdir(), name);
    char *text = NULL;
    g_autoptr(GError) err = NULL;
    ck_assert_msg(g_file_get_contents(path, &text, NULL, &err), "%s", err ? err->message : "");
    return text;
}

static void verify_ok(const char *name, const VerifyOptions *o, VerifyResult *r)
{
    g_autofree char *text = read_lock(name);
    g_autoptr(GError) err = NULL;
    ck_assert_msg(verify_lock(name, text, o, r, &err), "%s: %s", name, err ? err->message : "");
    g_autofree char *on = arch_target_describe(o->target);
    ck_assert_msg(r->ok, "%s on %s, %u threads: seed %" G_GUINT64_FORMAT ": %s", name, on, o->workload.threads,
                  r->failed_seed, r->failure);
    ck_assert_uint_eq(r->runs, o->seeds);
}

/* _i walks locks x thread counts. */
START_TEST(test_lock_verifies)
{
    const char *name = lock_names[_i / G_N_ELEMENTS(thread_counts)];
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = thread_counts[_i % G_N_ELEMENTS(thread_counts)];
    o.workload.iterations = 3;
    o.seeds = scaled_seeds();
    VerifyResult r;
    verify_ok(name, &o, &r);
    verify_result_clear(&r);
}
END_TEST

/* Same-line data and the arm64 op set, at 4 threads. */
START_TEST(test_lock_verifies_same_line_arm64)
{
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = 4;
    o.workload.iterations = 3;
    o.workload.data = HARNESS_SAME_LINE;
    o.target = arch_target(ARCH_ARM64);
    o.seeds = scaled_seeds() / 4;
    VerifyResult r;
    verify_ok(lock_names[_i], &o, &r);
    verify_result_clear(&r);
}
END_TEST

/* Both arm64 code paths (LL/SC and LSE), at 2, 4 and 8 threads: _i walks locks x targets x
 * thread counts. */
static const guint arm64_thread_counts[] = { 2, 4, 8 };

START_TEST(test_lock_verifies_arm64)
{
    guint n = _i;
    guint threads = arm64_thread_counts[n % G_N_ELEMENTS(arm64_thread_counts)];
    n /= G_N_ELEMENTS(arm64_thread_counts);
    const ArchTarget *t = &targets[1 + n % 2];
    const char *name = lock_names[n / 2];
    VerifyOptions o;
    verify_options_init(&o);
    o.target = *t;
    o.workload.threads = threads;
    o.workload.iterations = 3;
    o.seeds = scaled_seeds() / 2;
    VerifyResult r;
    verify_ok(name, &o, &r);
    verify_result_clear(&r);
}
END_TEST

/* _i walks the reader/writer locks x targets. */
START_TEST(test_qrwlock_readers_overlap)
{
    static const guint mixes[][2] = { { 4, 2 }, { 8, 5 }, { 3, 3 } };
    const char *name = rw_lock_names[_i / G_N_ELEMENTS(targets)];
    for (guint m = 0; m < G_N_ELEMENTS(mixes); m++) {
        VerifyOptions o;
        verify_options_init(&o);
        o.target = targets[_i % G_N_ELEMENTS(targets)];
        o.workload.threads = mixes[m][0];
        o.workload.readers = mixes[m][1];
        o.workload.iterations = 3;
        o.seeds = scaled_seeds() / 2;
        VerifyResult r;
        verify_ok(name, &o, &r);
        ck_assert_msg(r.max_readers > 1, "%s: readers never overlapped (%u threads, %u readers)", name, mixes[m][0],
                      mixes[m][1]);
        verify_result_clear(&r);
    }
}
END_TEST

/* Each built-in assembles for every target; on arm64 its waits are exclusive-load + WFE waits
 * (tas has no read-only wait; it keeps YIELD), and the locks whose release Linux writes per
 * atomics kind (STADDLH or LDRH/ADD/STLRH) differ between LL/SC and LSE.  Atomics stay ISA
 * atomics that the config maps, except arm64-rwlock's LL/SC form, which writes out the
 * exclusive pair as Linux v4.14 did (a test between the LDAXR and the STXR). */
START_TEST(test_builtin_arm64_waits)
{
    const char *name = lock_names[_i];
    g_autofree char *text = read_lock(name);
    IsaProgram *p[G_N_ELEMENTS(targets)];
    for (guint k = 0; k < G_N_ELEMENTS(targets); k++) {
        g_autoptr(GError) err = NULL;
        p[k] = asm_assemble(name, text, targets[k], &err);
        ck_assert_msg(p[k], "%s: %s", name, err ? err->message : "");
    }
    guint count[G_N_ELEMENTS(targets)][OP__COUNT] = { { 0 } };
    for (guint k = 0; k < G_N_ELEMENTS(targets); k++)
        for (guint i = 0; i < p[k]->insns->len; i++)
            count[k][g_array_index(p[k]->insns, IsaInsn, i).op]++;
    gboolean waits = strcmp(name, "tas") != 0;
    ck_assert_uint_gt(count[0][OP_PAUSE], 0);
    for (guint k = 1; k < G_N_ELEMENTS(targets); k++) {
        ck_assert_msg((count[k][OP_WFE] > 0) == waits, "%s: %u wfe on arm64", name, count[k][OP_WFE]);
        ck_assert_msg((count[k][OP_LDX] > 0) == waits, "%s: %u ldx on arm64", name, count[k][OP_LDX]);
        gboolean open_coded = k == 1 && !strcmp(name, "arm64-rwlock");
        ck_assert_msg((count[k][OP_STX] > 0) == open_coded, "%s: %u stx", name, count[k][OP_STX]);
    }
    gboolean per_atomics = !strcmp(name, "ticket") || g_str_has_prefix(name, "qrwlock") || !strcmp(name, "arm64-rwlock");
    ck_assert_msg((p[1]->insns->len != p[2]->insns->len) == per_atomics, "%s: llsc %u ops, lse %u ops", name,
                  p[1]->insns->len, p[2]->insns->len);
    for (guint k = 0; k < G_N_ELEMENTS(targets); k++)
        isa_program_free(p[k]);
}
END_TEST

/* qspin's wait for a pending hand-over reads the word before its first PAUSE on x86, as v4.3
 * does (`while ((val = atomic_read(&lock->val)) == _Q_PENDING_VAL) cpu_relax();`): the op at
 * qs_wait_handover is the load, and the PAUSE comes only after a read saw PENDING. */
START_TEST(test_qspin_handover_reads_first)
{
    static const char *const qspins[] = { "qspin", "qspin-cmpxchg" };
    for (guint q = 0; q < G_N_ELEMENTS(qspins); q++) {
        g_autofree char *text = read_lock(qspins[q]);
        g_autoptr(GError) err = NULL;
        IsaProgram *p = asm_assemble(qspins[q], text, targets[0], &err);
        ck_assert_msg(p, "%s: %s", qspins[q], err ? err->message : "");
        gint32 pc = -1;
        for (guint i = 0; p->labels && i < p->labels->len; i++)
            if (!strcmp(g_array_index(p->labels, IsaEntry, i).name, "qs_wait_handover"))
                pc = g_array_index(p->labels, IsaEntry, i).pc;
        ck_assert_msg(pc >= 0, "%s has no qs_wait_handover", qspins[q]);
        const IsaInsn *first = &g_array_index(p->insns, IsaInsn, pc);
        ck_assert_msg(first->op == OP_LD, "%s: qs_wait_handover starts with %s, not the read", qspins[q],
                      isa_op_info[first->op].name);
        const IsaInsn *next = &g_array_index(p->insns, IsaInsn, pc + 1);
        ck_assert_int_eq(next->op, OP_BR);
        ck_assert_int_eq(g_array_index(p->insns, IsaInsn, pc + 2).op, OP_PAUSE);
        isa_program_free(p);
    }
}
END_TEST

/* TAS whose acquire is a plain load then a store: the checker must catch it within a few seeds. */
START_TEST(test_broken_lock_fails)
{
    const char *broken = planted_test_then_set;
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = 2;
    o.seeds = 10;
    VerifyResult r;
    g_autoptr(GError) err = NULL;
    ck_assert(verify_lock("broken.qs", broken, &o, &r, &err));
    ck_assert(!r.ok);
    ck_assert_uint_le(r.runs, 10);
    ck_assert_uint_eq(r.failed_seed, o.first_seed + r.runs - 1);
    ck_assert_ptr_nonnull(strstr(r.failure, "mutual exclusion"));
    /* The reported seed replays the failure alone. */
    o.first_seed = r.failed_seed;
    o.seeds = 1;
    verify_result_clear(&r);
    ck_assert(verify_lock("broken.qs", broken, &o, &r, &err));
    ck_assert(!r.ok);
    verify_result_clear(&r);
}
END_TEST

/* A lock that never releases: the second thread can never get in (livelock bound). */
START_TEST(test_stuck_lock_fails)
{
    const char *stuck = planted_never_released;
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = 2;
    o.seeds = 1;
    o.max_steps = 20000;
    VerifyResult r;
    g_autoptr(GError) err = NULL;
    ck_assert(verify_lock("stuck.qs", stuck, &o, &r, &err));
    ck_assert(!r.ok);
    ck_assert_ptr_nonnull(strstr(r.failure, "livelock"));
    verify_result_clear(&r);
}
END_TEST

/* planted_lost_wfe: verify catches it on arm64 (a deadlock, with the thread asleep in wfe); the
 * same file's x86 code is correct and passes. */
START_TEST(test_lost_wakeup_caught_on_arm64)
{
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = 2;
    o.workload.iterations = 3;
    o.seeds = 200;
    VerifyResult r;
    g_autoptr(GError) err = NULL;
    ck_assert(verify_lock("lost.qs", planted_lost_wfe, &o, &r, &err));
    ck_assert_msg(r.ok, "x86: %s", r.failure);
    verify_result_clear(&r);
    o.target = arch_target(ARCH_ARM64);
    ck_assert(verify_lock("lost.qs", planted_lost_wfe, &o, &r, &err));
    ck_assert(!r.ok);
    ck_assert_msg(strstr(r.failure, "the run ended in deadlock") && strstr(r.failure, "waiting in wfe"), "%s",
                  r.failure);
    verify_result_clear(&r);
}
END_TEST

/* ---- the timing model ---- */

/* A lock with per-arch code whose effect is a number: each `lock` call runs one extra mark on
 * arm64 and two with LSE, and arm64 waits with WFE where x86 pauses.  Run on one machine per
 * target, the marks retired say which code ran. */
static const char per_arch_lock[] =
    ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
    "lock:\n"
    ".if arch=arm64\n"
    "    mark 9\n"
    ".if atomics=lse\n"
    "    mark 9\n"
    ".endif\n"
    ".endif\n"
    "try:\n"
    "    ld32 r0, [lock_word]\n"
    "    beq r0, 0, take\n"
    ".if arch=arm64\n"
    "    sevl\n    wfe\n    ldx32 r1, [lock_word]\n    bne r1, r0, try\n    wfe\n"
    ".else\n"
    "    pause\n"
    ".endif\n"
    "    jmp try\n"
    "take:\n"
    "    xchg32.acq r0, [lock_word], 1\n"
    "    bne r0, 0, try\n"
    "    ret\n"
    "unlock:\n"
    "    st32.rel [lock_word], 0\n"
    "    ret\n";

static JsonObject *report_member(JsonNode *report, const char *name)
{
    return json_object_get_object_member(json_node_get_object(report), name);
}

START_TEST(test_model_runs_each_targets_code)
{
    static const struct { const char *config; guint extra_marks; gboolean wfe; } rows[] = {
        { "haswell", 0, FALSE },       /* x86 */
        { "thunderx", 1, TRUE },       /* arm64, core.atomics: llsc */
        { "neoverse-n1", 2, TRUE },    /* arm64, core.atomics: lse-near */
    };
    g_autofree char *dir = g_dir_make_tmp("qsim-test-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "per_arch.qs", NULL);
    ck_assert(g_file_set_contents(path, per_arch_lock, -1, NULL));
    for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
        RunOptions o;
        run_options_init(&o);
        o.config = rows[i].config;
        o.lock_file = path;
        o.workload.threads = 4;
        o.workload.iterations = 10;
        RunResult r;
        g_autoptr(GError) err = NULL;
        ck_assert_msg(run_simulation(&o, &r, &err), "%s", err ? err->message : "");
        ck_assert_msg(r.ok, "%s: %s", rows[i].config, r.failure);
        JsonObject *c = report_member(r.report, "cores_summed");
        /* The harness marks 3 times per iteration; the lock adds its own. */
        ck_assert_int_eq(json_object_get_int_member(c, "marks"), 4 * 10 * (3 + rows[i].extra_marks));
        ck_assert_msg((json_object_get_int_member(c, "wfe_sleeps") > 0) == rows[i].wfe, "%s: %" G_GINT64_FORMAT
                      " wfe sleeps", rows[i].config, json_object_get_int_member(c, "wfe_sleeps"));
        ck_assert_msg((json_object_get_int_member(c, "pause_ops") > 0) == !rows[i].wfe, "%s", rows[i].config);
        run_result_clear(&r);
    }
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* Every built-in on an LL/SC arm64 machine (the seed-002 family) completes with mutual
 * exclusion, its waits sleeping in WFE.  _i walks the locks. */
START_TEST(test_builtin_runs_on_llsc_machine)
{
    RunOptions o;
    run_options_init(&o);
    o.config = "thunderx";
    o.lock = lock_names[_i];
    o.workload.threads = 4;
    o.workload.iterations = 10;
    RunResult r;
    g_autoptr(GError) err = NULL;
    ck_assert_msg(run_simulation(&o, &r, &err), "%s", err ? err->message : "");
    ck_assert_msg(r.ok, "%s: %s", o.lock, r.failure);
    JsonObject *rep = json_node_get_object(r.report);
    ck_assert_int_eq(json_object_get_int_member(rep, "acquisitions"), 40);
    ck_assert(json_object_get_boolean_member(rep, "mutual_exclusion"));
    gint64 sleeps = json_object_get_int_member(report_member(r.report, "cores_summed"), "wfe_sleeps");
    ck_assert_msg((sleeps > 0) == (strcmp(o.lock, "tas") != 0), "%s: %" G_GINT64_FORMAT " wfe sleeps", o.lock, sleeps);
    run_result_clear(&r);
}
END_TEST

/* Seed 002's starvation, by its mechanism: arm64-rwlock's readers enter whenever no writer
 * holds the lock, and nothing marks a waiting writer, so with 12 readers at zero think time the
 * reader count never drops to 0 and every writer acquires far less than any reader (in practice
 * not at all); qrwlock-4.15's WAITING bit turns new readers away and every writer gets in.
 * Seeds 1-3, the report's per-thread acquisitions over a fixed-time window. */
static void rw_role_acquisitions(const char *lock, guint64 seed, gint64 *reader_min, gint64 *writer_min,
                                 gint64 *writer_max)
{
    RunOptions o;
    run_options_init(&o);
    o.config = "thunderx";
    o.lock = lock;
    o.workload.threads = 16;
    o.workload.readers = 12;
    o.workload.duration = 400000;
    o.workload.warmup = 20000;
    o.workload.jitter = 50;
    o.seed = seed;
    RunResult r;
    g_autoptr(GError) err = NULL;
    ck_assert_msg(run_simulation(&o, &r, &err), "%s", err ? err->message : "");
    ck_assert_msg(r.ok, "%s seed %" G_GUINT64_FORMAT ": %s", lock, seed, r.failure);
    JsonObject *rep = json_node_get_object(r.report);
    ck_assert(json_object_get_boolean_member(rep, "mutual_exclusion"));
    JsonArray *per = json_object_get_array_member(rep, "per_thread");
    ck_assert_uint_eq(json_array_get_length(per), 16);
    *reader_min = *writer_min = G_MAXINT64;
    *writer_max = 0;
    for (guint i = 0; i < 16; i++) {
        JsonObject *t = json_array_get_object_element(per, i);
        gint64 n = json_object_get_int_member(t, "acquisitions");
        gboolean reader = !strcmp(json_object_get_string_member(t, "role"), "reader");
        ck_assert_msg(reader == (i < 12), "%s: thread %u", lock, i);
        if (reader) {
            *reader_min = MIN(*reader_min, n);
        } else {
            *writer_min = MIN(*writer_min, n);
            *writer_max = MAX(*writer_max, n);
        }
    }
    run_result_clear(&r);
}

START_TEST(test_arm64_rwlock_starves_writers)
{
    for (guint64 seed = 1; seed <= 3; seed++) {
        gint64 reader_min, writer_min, writer_max;
        rw_role_acquisitions("arm64-rwlock", seed, &reader_min, &writer_min, &writer_max);
        ck_assert_int_gt(reader_min, 0);
        ck_assert_msg(writer_max * 4 < reader_min, "arm64-rwlock seed %" G_GUINT64_FORMAT ": writers up to %"
                      G_GINT64_FORMAT ", readers from %" G_GINT64_FORMAT, seed, writer_max, reader_min);
        rw_role_acquisitions("qrwlock-4.15", seed, &reader_min, &writer_min, &writer_max);
        ck_assert_msg(writer_min > 0, "qrwlock-4.15 seed %" G_GUINT64_FORMAT ": a writer starved", seed);
    }
}
END_TEST

/* Drops the header comment and the inside of each "seed patch region"; what is left must match. */
static char *outside_patch(const char *text, guint *regions)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GString *g = g_string_new(NULL);
    gboolean header = TRUE, inside = FALSE;
    *regions = 0;
    for (guint i = 0; lines[i]; i++) {
        if (header && lines[i][0] == '#')
            continue;
        header = FALSE;
        if (strstr(lines[i], "seed patch region") && strstr(lines[i], "begin")) {
            inside = TRUE;
            (*regions)++;
        } else if (strstr(lines[i], "seed patch region") && strstr(lines[i], "end")) {
            inside = FALSE;
        } else if (inside) {
            continue;
        }
        g_string_append_printf(g, "%s\n", lines[i]);
    }
    return g_string_free(g, FALSE);
}

START_TEST(test_qspin_cmpxchg_differs_only_in_patch)
{
    g_autofree char *a = read_lock("qspin");
    g_autofree char *b = read_lock("qspin-cmpxchg");
    guint ra, rb;
    g_autofree char *oa = outside_patch(a, &ra);
    g_autofree char *ob = outside_patch(b, &rb);
    ck_assert_uint_eq(ra, 2);
    ck_assert_uint_eq(rb, 2);
    ck_assert_str_eq(oa, ob);
    ck_assert_str_ne(a, b);
    /* The patched regions spin with cmpxchg16, the stock ones with load-acquire. */
    ck_assert_ptr_nonnull(strstr(b, "cas16.acqrel r0, [lock_word], PENDING, LOCKED"));
    ck_assert_ptr_nonnull(strstr(b, "cas16.acqrel r0, [lock_word], 0, LOCKED"));
    ck_assert_ptr_null(strstr(a, "cas16"));
}
END_TEST

/* ---- the command line ---- */

START_TEST(test_cli_verify_exit_codes)
{
    g_autofree char *out = NULL, *err = NULL;
    const char *good[] = { "verify", "--lock", "mcs", "--threads", "3", "--seeds", "20", NULL };
    ck_assert_int_eq(run_qsim(good, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "mutual exclusion held"));
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);

    const char *typo[] = { "verify", "--lock", "qspn", NULL };
    ck_assert_int_eq(run_qsim(typo, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "did you mean `qspin`?"));
    ck_assert_ptr_nonnull(strstr(err, "qsim list locks"));
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);

    g_autofree char *dir = g_dir_make_tmp("qsim-test-XXXXXX", NULL);
    g_autofree char *broken = g_build_filename(dir, "broken.qs", NULL);
    ck_assert(g_file_set_contents(broken, ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
                                  "lock:\n    ld32 r0, [lock_word]\n    bne r0, 0, lock\n    st32 [lock_word], 1\n    ret\n"
                                  "unlock:\n    st32 [lock_word], 0\n    ret\n", -1, NULL));
    const char *bad[] = { "verify", "--lock-file", broken, "--threads", "2", "--seeds", "20", NULL };
    ck_assert_int_eq(run_qsim(bad, &out, &err), 1);
    ck_assert_ptr_nonnull(strstr(out, "FAILED with seed"));
    ck_assert_ptr_nonnull(strstr(out, "--seed "));
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);

    const char *rw[] = { "verify", "--lock", "tas", "--threads", "2", "--readers", "1", NULL };
    ck_assert_int_eq(run_qsim(rw, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "no entry point `read_lock`"));
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);

    g_autofree char *syntax = g_build_filename(dir, "syntax.qs", NULL);
    ck_assert(g_file_set_contents(syntax, ".shared lock_word 4\n.entry lock\nlock:\n    xchg32 r0, [lock_word]\n"
                                  "    bnee r0, 0, lock\n    ret\n", -1, NULL));
    const char *as[] = { "asm", syntax, NULL };
    ck_assert_int_eq(run_qsim(as, &out, &err), 2);
    g_autofree char *e1 = g_strdup_printf("%s:4:5: `xchg32` takes 3 operands, not 2", syntax);
    g_autofree char *e2 = g_strdup_printf("%s:5:5: unknown op `bnee`; did you mean `bne`?", syntax);
    ck_assert_msg(strstr(err, e1) && strstr(err, e2), "%s", err);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);

    const char *x86[] = { "asm", "locks/qspin.qs", "--arch", "arm64", NULL };
    ck_assert_int_eq(run_qsim(x86, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "xchg16.acqrel r2, [lock_word+2], r6"));
    ck_assert_ptr_nonnull(strstr(out, "memory layout for 2 threads"));
    g_unlink(broken);
    g_unlink(syntax);
    g_rmdir(dir);
}
END_TEST

/* The target options of verify and asm: --arch, --atomics, --config; the replay line. */
START_TEST(test_cli_targets)
{
    static const struct { const char *line; int status; const char *out, *err; } rows[] = {
        { "verify --lock ticket --arch arm64 --atomics lse --threads 3 --seeds 10", 0, "on arm64 (lse):", NULL },
        { "verify --lock ticket --arch arm64 --threads 3 --seeds 10", 0, "on arm64 (llsc):", NULL },
        { "verify --lock qrwlock-4.15 --config thunderx --threads 4 --readers 2 --seeds 10", 0, "on arm64 (llsc):", NULL },
        { "verify --lock qrwlock-4.15 --config neoverse-n1 --threads 4 --seeds 10", 0, "on arm64 (lse):", NULL },
        { "verify --lock arm64-rwlock --config thunderx --threads 4 --readers 2 --seeds 10", 0, "on arm64 (llsc):", NULL },
        { "verify --lock arm64-rwlock --config neoverse-n1 --threads 4 --readers 2 --seeds 10", 0, "on arm64 (lse):", NULL },
        { "verify --lock arm64-rwlock --config haswell --threads 4 --readers 2 --seeds 10", 0, "on x86:", NULL },
        { "verify --lock ticket --config haswell --threads 2 --seeds 5", 0, "on x86:", NULL },
        { "verify --lock ticket --config thunderx --arch arm64", 2, NULL, "--config gives the arch and atomics" },
        { "verify --lock ticket --atomics lse", 2, NULL, "--atomics lse: x86 atomics are always LOCK-prefixed" },
        { "verify --lock ticket --config nosuch", 2, NULL, "nosuch" },
        { "asm locks/ticket.qs --arch arm64 --atomics lse", 0, "fadd16.rel r0, [lock_word], 1", NULL },
        { "asm locks/ticket.qs --arch arm64 --atomics llsc", 0, "st16.rel [lock_word], r0", NULL },
        { "asm locks/ticket.qs --arch arm64", 0, "assembled for arm64 (llsc)", NULL },
        { "asm locks/ticket.qs --atomics llsc", 2, NULL, "--atomics llsc: x86 atomics" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
        g_autofree char *out = NULL, *err = NULL;
        ck_assert_msg(run_qsim_line(rows[i].line, &out, &err) == rows[i].status, "%s: %s%s", rows[i].line, out, err);
        if (rows[i].out)
            ck_assert_msg(strstr(out, rows[i].out), "%s:\n%s", rows[i].line, out);
        if (rows[i].err)
            ck_assert_msg(strstr(err, rows[i].err), "%s:\n%s", rows[i].line, err);
    }
    /* A failure on arm64 replays with its atomics. */
    g_autofree char *dir = g_dir_make_tmp("qsim-test-XXXXXX", NULL);
    g_autofree char *lost = g_build_filename(dir, "lost.qs", NULL);
    ck_assert(g_file_set_contents(lost, planted_lost_wfe, -1, NULL));
    g_autofree char *line = g_strdup_printf("verify --lock-file %s --arch arm64 --atomics lse --threads 2 --seeds 200", lost);
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line(line, &out, NULL), 1);
    ck_assert_msg(strstr(out, "FAILED with seed") && strstr(out, " --arch arm64 --atomics lse --seed "), "%s", out);
    g_unlink(lost);
    g_rmdir(dir);
}
END_TEST

Suite *make_locks_suite(void)
{
    Suite *s = suite_create("locks");
    TCase *tc = tcase_create("verify");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_lock_verifies, 0, G_N_ELEMENTS(lock_names) * G_N_ELEMENTS(thread_counts));
    tcase_add_loop_test(tc, test_lock_verifies_same_line_arm64, 0, G_N_ELEMENTS(lock_names));
    tcase_add_loop_test(tc, test_lock_verifies_arm64, 0, G_N_ELEMENTS(lock_names) * 2 * G_N_ELEMENTS(arm64_thread_counts));
    tcase_add_loop_test(tc, test_qrwlock_readers_overlap, 0, G_N_ELEMENTS(rw_lock_names) * G_N_ELEMENTS(targets));
    suite_add_tcase(s, tc);
    tc = tcase_create("checker can fail");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_broken_lock_fails);
    tcase_add_test(tc, test_stuck_lock_fails);
    tcase_add_test(tc, test_lost_wakeup_caught_on_arm64);
    suite_add_tcase(s, tc);
    tc = tcase_create("sources");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_qspin_cmpxchg_differs_only_in_patch);
    tcase_add_test(tc, test_qspin_handover_reads_first);
    tcase_add_loop_test(tc, test_builtin_arm64_waits, 0, G_N_ELEMENTS(lock_names));
    suite_add_tcase(s, tc);
    tc = tcase_create("timing model");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_model_runs_each_targets_code);
    tcase_add_loop_test(tc, test_builtin_runs_on_llsc_machine, 0, G_N_ELEMENTS(lock_names));
    tcase_add_test(tc, test_arm64_rwlock_starves_writers);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cli_verify_exit_codes);
    tcase_add_test(tc, test_cli_targets);
    suite_add_tcase(s, tc);
    return s;
}
