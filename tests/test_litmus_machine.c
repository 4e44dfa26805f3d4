/* The timing model against the architectures' memory models: every litmus test of herd's
 * catalogue and ours runs on an x86 and an arm64 config; no Forbidden outcome may appear, every
 * Required one must hold in every run, and the relaxations a store buffer and out-of-order loads
 * produce must show (SB on both architectures, MP without barriers on arm64). */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "sim/litmus/litmus.h"
#include "tests/litmus_files.h"
#include "tests/run_qsim.h"

static guint runs(void) { return test_scale_quick() ? 40 : 400; }

typedef struct {
    const char *catalogue;   /* "herd" or "own" */
    const char *arch_dir;
    const char *kinds_dir;   /* where kinds.txt is (herd's x86 folder has none: x86_64's names match) */
    const char *config;
} Catalogue;

static const Catalogue catalogues[] = {
    { "herd", "x86", "x86_64", "haswell" },
    { "herd", "x86_64", "x86_64", "haswell" },
    { "herd", "aarch64", "aarch64", "neoverse-n1" },
    { "herd", "aarch64", "aarch64", "thunderx" },
    { "own", "x86", "x86", "haswell" },
    { "own", "x86", "x86", "magny-cours" },
    { "own", "aarch64", "aarch64", "neoverse-n1" },
    { "own", "aarch64", "aarch64", "thunderx" },
};

static char *catalogue_dir(const Catalogue *c, const char *sub)
{
    return !strcmp(c->catalogue, "herd") ? g_build_filename(herd_dir(), sub, NULL) : own_litmus_dir(sub);
}

START_TEST(test_catalogue_on_machine)
{
    const Catalogue *c = &catalogues[_i];
    g_autofree char *dir = catalogue_dir(c, c->arch_dir);
    g_autoptr(GPtrArray) files = litmus_files(dir);
    if (!files) {
        fprintf(stderr, "note: %s is absent: the %s catalogue is not checked on %s\n", dir, c->catalogue, c->config);
        return;
    }
    g_autofree char *kdir = catalogue_dir(c, c->kinds_dir);
    g_autofree char *kpath = g_build_filename(kdir, "kinds.txt", NULL);
    GError *error = NULL;
    g_autoptr(GHashTable) kinds = litmus_kinds_load(kpath, &error);
    ck_assert_msg(kinds, "%s", error ? error->message : "");
    g_autoptr(QsimConfig) cfg = config_load(c->config, NULL, &error);
    ck_assert_msg(cfg, "%s", error ? error->message : "");
    g_autoptr(LitmusExecutor) ex = litmus_executor_for_config(cfg, &error);
    ck_assert(ex);
    guint checked = 0, stubs = 0;
    for (guint i = 0; i < files->len; i++) {
        const char *path = files->pdata[i];
        g_autoptr(LitmusTest) t = litmus_parse_file(path, &error);
        if (!t && strstr(error->message, "symbolic-link stub")) {
            /* A symlink of herd's tree that the copy lost: the parser names it, nothing to run. */
            stubs++;
            g_clear_error(&error);
            continue;
        }
        ck_assert_msg(t, "%s", error ? error->message : "");
        g_autoptr(LitmusProgram) p = litmus_translate(t, &error);
        ck_assert_msg(p, "%s", error ? error->message : "");
        LitmusRunOptions o = { runs(), 1 };
        g_autoptr(LitmusResult) r = litmus_run_test(t, p, ex, &o, &error);
        ck_assert_msg(r, "%s on %s: %s", path, c->config, error ? error->message : "");
        gpointer k = g_hash_table_lookup(kinds, r->name);
        if (!k)
            continue;
        litmus_result_check(r, (LitmusKind)GPOINTER_TO_INT(k));
        ck_assert_msg(r->expect_ok, "%s on %s: %s, but %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                      " runs satisfied its condition", r->name, c->config, litmus_kind_name(r->expect),
                      r->positive, r->runs);
        checked++;
    }
    ck_assert_uint_le(stubs, 1);
    /* herd's x86 folder has no kinds of its own: only the names x86_64 shares are judged. */
    ck_assert_uint_ge(checked, strcmp(c->arch_dir, c->kinds_dir) ? 1 : files->len / 2);
}
END_TEST

/* The relaxed outcome of a test must show on a config in some run. */
static void assert_observed(const char *catalogue, const char *arch, const char *name, const char *config)
{
    Catalogue c = { catalogue, arch, arch, config };
    g_autofree char *dir = catalogue_dir(&c, arch);
    g_autofree char *file = g_strconcat(name, ".litmus", NULL);
    g_autofree char *path = g_build_filename(dir, file, NULL);
    if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
        fprintf(stderr, "note: %s is absent: not checked\n", path);
        return;
    }
    GError *error = NULL;
    g_autoptr(QsimConfig) cfg = config_load(config, NULL, &error);
    g_autoptr(LitmusExecutor) ex = litmus_executor_for_config(cfg, &error);
    g_autoptr(LitmusTest) t = litmus_parse_file(path, &error);
    ck_assert_msg(t, "%s", error ? error->message : "");
    g_autoptr(LitmusProgram) p = litmus_translate(t, &error);
    LitmusRunOptions o = { 1000, 7 };
    g_autoptr(LitmusResult) r = litmus_run_test(t, p, ex, &o, &error);
    ck_assert_msg(r, "%s", error ? error->message : "");
    ck_assert_msg(r->observed, "%s never showed its relaxed outcome on %s in %u runs", name, config, o.runs);
}

START_TEST(test_store_buffer_relaxation_seen)
{
    assert_observed("herd", "x86_64", "SB", "haswell");
    assert_observed("herd", "x86", "SB", "westmere-ex");
    assert_observed("herd", "aarch64", "SB", "neoverse-n1");
    assert_observed("own", "x86", "SB", "haswell");
    assert_observed("own", "aarch64", "SB", "thunderx");
}
END_TEST

START_TEST(test_arm64_load_reordering_seen)
{
    assert_observed("herd", "aarch64", "MP", "neoverse-n1");
    assert_observed("own", "aarch64", "MP", "neoverse-n1");
}
END_TEST

Suite *make_litmus_machine_suite(void)
{
    Suite *s = suite_create("litmus_machine");
    TCase *tc = tcase_create("catalogues");
    tcase_add_loop_test(tc, test_catalogue_on_machine, 0, G_N_ELEMENTS(catalogues));
    tcase_add_test(tc, test_store_buffer_relaxation_seen);
    tcase_add_test(tc, test_arm64_load_reordering_seen);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return s;
}
