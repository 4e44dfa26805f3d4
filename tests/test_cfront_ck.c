/* Concurrency Kit 0.7.1's eight spinlocks, from the system's headers (Debian libck-dev; never
 * copied into the tree), each behind a wrapper of a few lines (tests/c-locks/ck/NAME.c,
 * docs/c-locks.md): all eight verified under x86-TSO at 2 threads x 2 acquisitions; those the
 * arm64 explorer finishes quickly verified under ARMv8 for LL/SC and LSE; and ck built for arm64
 * with Debian's packaged ck_md.h (amd64's, CK_MD_TSO: the fences compile away) failing with a
 * counterexample that quotes ck's header lines.  Without libck-dev (or the cross compiler) the
 * tests are skipped, counted (build-aux/deps.sh installs both). */
#include <check.h>
#include <string.h>
#include "run_qsim.h"
#include "skip.h"

/* The wrappers keep nodes for 2 threads: a smaller setup, a smaller search. */
#define CK_FLAGS "-DCK_WRAP_THREADS=2"
/* The cross compiler does not search /usr/include, where libck-dev puts ck. */
#define CK_ARM64_FLAGS "-idirafter /usr/include " CK_FLAGS

static gboolean have_ck(const char *test, gboolean arm64)
{
    if (!g_file_test("/usr/include/ck_spinlock.h", G_FILE_TEST_EXISTS)) {
        qsim_test_skip_or_fail(test, "Concurrency Kit's headers are not installed (libck-dev)");
        return FALSE;
    }
    g_autofree char *gcc = g_find_program_in_path(arm64 ? "aarch64-linux-gnu-gcc" : "gcc");
    if (!gcc)
        qsim_test_skip_or_fail(test, arm64 ? "no aarch64-linux-gnu-gcc in PATH" : "no gcc in PATH");
    return gcc != NULL;
}

/* qsim verify of ck lock `name`; the exit status, stdout in *out. */
static int verify(const char *name, const char *target, const char *flags, char **out)
{
    g_autofree char *path = g_strdup_printf("tests/c-locks/ck/%s.c", name);
    g_auto(GStrv) words = g_strsplit(target, " ", -1);
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, "verify");
    g_ptr_array_add(argv, "--lock");
    g_ptr_array_add(argv, path);
    for (guint i = 0; words[i]; i++)
        if (*words[i])
            g_ptr_array_add(argv, words[i]);
    g_ptr_array_add(argv, "--cflags");
    g_ptr_array_add(argv, (char *)flags);
    g_ptr_array_add(argv, NULL);
    g_autofree char *err = NULL;
    int rc = run_qsim((const char *const *)argv->pdata, out, &err);
    if (rc == 2)
        g_printerr("%s", err);
    g_ptr_array_free(argv, TRUE);
    return rc;
}

static const char *const all_eight[] = { "anderson", "cas", "clh", "dec", "fas", "hclh", "mcs", "ticket" };

START_TEST(test_ck_tso)
{
    if (!have_ck("cfront_ck/test_ck_tso", FALSE))
        return;
    for (guint i = 0; i < G_N_ELEMENTS(all_eight); i++) {
        g_autofree char *out = NULL;
        int rc = verify(all_eight[i], "--threads 2 --iterations 2", CK_FLAGS, &out);
        g_autofree char *want = g_strdup_printf("tests/c-locks/ck/%s.c: verified under tso on x86", all_eight[i]);
        ck_assert_msg(rc == 0 && strstr(out, want), "%s: rc %d\n%s", all_eight[i], rc, out);
    }
}
END_TEST

/* All eight on the timing model, 3 threads (thread 0's setup waited for, nodes in use), x86 and
 * both arm64 machines. */
START_TEST(test_ck_run)
{
    if (!have_ck("cfront_ck/test_ck_run", TRUE))
        return;
    static const char *const configs[] = { "haswell", "neoverse-n1", "thunderx" };
    for (guint c = 0; c < G_N_ELEMENTS(configs); c++)
        for (guint i = 0; i < G_N_ELEMENTS(all_eight); i++) {
            g_autofree char *path = g_strdup_printf("tests/c-locks/ck/%s.c", all_eight[i]);
            /* the nodes for 64 threads, as built by default */
            const char *argv[] = { "run", "--config", configs[c], "--lock", path, "--threads", "3", "--iterations", "30",
                                   c ? "--cflags" : NULL, "-idirafter /usr/include", NULL };
            g_autofree char *out = NULL, *err = NULL;
            int rc = run_qsim(argv, &out, &err);
            g_autofree char *want = g_strdup_printf("%s on %s", path, configs[c]);
            ck_assert_msg(rc == 0 && strstr(out, want), "%s on %s: rc %d\n%s%s", path, configs[c], rc, out, err);
        }
}
END_TEST

/* The ones the current arm64 explorer verifies in seconds at 2 x 2 (docs/c-locks.md has the
 * figures of every one). */
START_TEST(test_ck_arm64)
{
    if (!have_ck("cfront_ck/test_ck_arm64", TRUE))
        return;
    static const struct {
        const char *lock, *atomics;
    } quick[] = { { "cas", "lse" }, { "ticket", "lse" }, { "cas", "llsc" } };
    for (guint i = 0; i < G_N_ELEMENTS(quick); i++) {
        g_autofree char *target = g_strdup_printf("--arch arm64 --atomics %s --model arm64 --threads 2 --iterations 2",
                                                  quick[i].atomics);
        g_autofree char *out = NULL;
        int rc = verify(quick[i].lock, target, CK_ARM64_FLAGS, &out);
        g_autofree char *want = g_strdup_printf("tests/c-locks/ck/%s.c: verified under arm64 on arm64 (%s)",
                                                quick[i].lock, quick[i].atomics);
        ck_assert_msg(rc == 0 && strstr(out, want), "%s %s: rc %d\n%s", quick[i].lock, quick[i].atomics, rc, out);
    }
    /* and the compiled LSE atomic is there, at ck's header line */
    const char *asm_argv[] = { "asm", "tests/c-locks/ck/ticket.c", "--arch", "arm64", "--atomics", "lse", "--cflags",
                               CK_ARM64_FLAGS, NULL };
    g_autofree char *listing = NULL;
    ck_assert_int_eq(run_qsim(asm_argv, &listing, NULL), 0);
    ck_assert_msg(strstr(listing, "ticket.c:") && strstr(listing, " fadd"), "%s", listing);
}
END_TEST

/* Built as a Debian user builds it for arm64, with the packaged ck_md.h (CK_MD_TSO), ck's CAS
 * lock has no barrier left: the release is a plain store and the acquire's exclusive pair has
 * no acquire order, so the critical sections of two threads overlap. */
START_TEST(test_ck_packaged_md_fails_on_arm64)
{
    if (!have_ck("cfront_ck/test_ck_packaged_md_fails_on_arm64", TRUE))
        return;
    g_autofree char *out = NULL;
    int rc = verify("cas", "--arch arm64 --atomics llsc --model arm64 --threads 2 --iterations 2",
                    CK_ARM64_FLAGS " -DQSIM_CK_PACKAGED_MD", &out);
    ck_assert_msg(rc == 1, "rc %d\n%s", rc, out);
    ck_assert_msg(strstr(out, "FAILED under arm64 on arm64 (llsc)") && strstr(out, "mutual exclusion failed"), "%s",
                  out);
    /* the counterexample quotes ck's own lines: the exclusive pair of ck_pr_cas_uint and the
     * unlock's store, with no dmb between */
    ck_assert_msg(strstr(out, "/usr/include/gcc/aarch64/ck_pr_llsc.h:152  ldx32 "), "%s", out);
    ck_assert_msg(strstr(out, "/usr/include/gcc/aarch64/ck_pr.h:168       st32 "), "%s", out);
    ck_assert_msg(!strstr(out, "fence"), "%s", out);
}
END_TEST

Suite *make_cfront_ck_suite(void)
{
    Suite *s = suite_create("cfront_ck");
    TCase *tc = tcase_create("ck");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ck_tso);
    tcase_add_test(tc, test_ck_run);
    tcase_add_test(tc, test_ck_arm64);
    tcase_add_test(tc, test_ck_packaged_md_fails_on_arm64);
    suite_add_tcase(s, tc);
    return s;
}
