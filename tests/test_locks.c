/* Every built-in lock passes verify; a broken lock fails it; qspin-cmpxchg differs from qspin
 * only where the seed patch does; and the `qsim verify` / `qsim asm` command lines. */
#include <check.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include "sim/verify.h"
#include "cores/asm.h"

static const char *const lock_names[] = { "tas", "ttas", "ticket", "mcs", "clh", "qspin", "qspin-cmpxchg", "qrwlock" };
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
    ck_assert_msg(r->ok, "%s, %u threads: seed %" G_GUINT64_FORMAT ": %s", name, o->workload.threads,
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
    o.arch = ARCH_ARM64;
    o.seeds = scaled_seeds() / 4;
    VerifyResult r;
    verify_ok(lock_names[_i], &o, &r);
    verify_result_clear(&r);
}
END_TEST

START_TEST(test_qrwlock_readers_overlap)
{
    static const guint mixes[][2] = { { 4, 2 }, { 8, 5 }, { 3, 3 } };
    for (guint m = 0; m < G_N_ELEMENTS(mixes); m++) {
        VerifyOptions o;
        verify_options_init(&o);
        o.workload.threads = mixes[m][0];
        o.workload.readers = mixes[m][1];
        o.workload.iterations = 3;
        o.seeds = scaled_seeds();
        VerifyResult r;
        verify_ok("qrwlock", &o, &r);
        ck_assert_msg(r.max_readers > 1, "readers never overlapped (%u threads, %u readers)", mixes[m][0], mixes[m][1]);
        verify_result_clear(&r);
    }
}
END_TEST

/* TAS whose acquire is a plain load then a store: the checker must catch it within a few seeds. */
START_TEST(test_broken_lock_fails)
{
    const char *broken = "# broken: test, then set, not atomic\n.shared lock_word 4 own_line\n"
                         ".entry lock\n.entry unlock\n"
                         "lock:\n    ld32 r0, [lock_word]\n    bne r0, 0, lock\n    st32 [lock_word], 1\n    ret\n"
                         "unlock:\n    st32.rel [lock_word], 0\n    ret\n";
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
    const char *stuck = ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
                        "lock:\n    xchg32 r0, [lock_word], 1\n    bne r0, 0, lock\n    ret\n"
                        "unlock:\n    ret\n";
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

static int run_qsim(const char *const *args, char **out, char **err)
{
    const char *bin = g_getenv("QSIM_BIN");
    if (!bin)
        return -1;
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (char *)bin);
    for (guint i = 0; args[i]; i++)
        g_ptr_array_add(argv, (char *)args[i]);
    g_ptr_array_add(argv, NULL);
    int status = 0;
    g_autoptr(GError) e = NULL;
    gboolean ok = g_spawn_sync(srcdir(), (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &e);
    g_ptr_array_free(argv, TRUE);
    ck_assert_msg(ok, "%s", e ? e->message : "");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

START_TEST(test_cli_verify_exit_codes)
{
    if (!g_getenv("QSIM_BIN"))
        return;
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

Suite *make_locks_suite(void)
{
    Suite *s = suite_create("locks");
    TCase *tc = tcase_create("verify");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_lock_verifies, 0, G_N_ELEMENTS(lock_names) * G_N_ELEMENTS(thread_counts));
    tcase_add_loop_test(tc, test_lock_verifies_same_line_arm64, 0, G_N_ELEMENTS(lock_names));
    tcase_add_test(tc, test_qrwlock_readers_overlap);
    suite_add_tcase(s, tc);
    tc = tcase_create("checker can fail");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_broken_lock_fails);
    tcase_add_test(tc, test_stuck_lock_fails);
    suite_add_tcase(s, tc);
    tc = tcase_create("sources");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_qspin_cmpxchg_differs_only_in_patch);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cli_verify_exit_codes);
    suite_add_tcase(s, tc);
    return s;
}
