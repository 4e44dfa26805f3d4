/* `qsim calibrate`: the statistics (median, spread, the stability criterion, the calmest
 * window, the repeat loop) on synthetic numbers; the known-cores table and its lookup;
 * /proc/cpuinfo parsing; the config writer on synthetic results (the YAML loads, each key holds
 * the value the model's definitions give, every measured or derived key has a comment with its
 * method, CPU and spread, the VM note, keys the schema lacks as comments); and a smoke run of
 * `qsim calibrate --quick`, which asserts nothing about the host's numbers. */
#include <check.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/base/config.h"
#include "sim/calibrate/calib_known.h"
#include "sim/calibrate/calibrate.h"
#include "tests/run_qsim.h"

/* ------------------------------------------------------------------------------------------ */
/* Statistics                                                                                 */
/* ------------------------------------------------------------------------------------------ */

START_TEST(test_median)
{
    const double odd[] = { 9, 1, 5 }, even[] = { 4, 1, 3, 2 };
    ck_assert(calib_median(odd, 3) == 5);
    ck_assert(calib_median(even, 4) == 2.5);
    ck_assert(calib_median(odd, 1) == 9);
    ck_assert(calib_median(NULL, 0) == 0);
}
END_TEST

START_TEST(test_stability_criterion)
{
    /* The last three: 100, 101, 102: range 2 over median 101. */
    const double v[] = { 300, 150, 100, 101, 102 };
    ck_assert(fabs(calib_window_range(v, 5, 3) - 2.0 / 101) < 1e-12);
    ck_assert(calib_is_stable(v, 5, 3, 0.02));
    ck_assert(!calib_is_stable(v, 5, 3, 0.019));
    ck_assert(!calib_is_stable(v, 5, 4, 0.4));    /* 150 .. 102: 48 over 101.5 */
    ck_assert(!calib_is_stable(v, 2, 3, 1.0));    /* too few */
}
END_TEST

START_TEST(test_calmest_window)
{
    /* A busy stretch at the end: the calm runs 1-3 are the figure. */
    const double v[] = { 50, 10, 10.1, 10, 30, 12, 40 };
    ck_assert_uint_eq(calib_calmest_window(v, 7, 3), 1);
    /* Equally calm windows: the latest. */
    const double flat[] = { 5, 5, 5, 5 };
    ck_assert_uint_eq(calib_calmest_window(flat, 4, 2), 2);
    CalibBudget b = { 3, 0.02, 10, 1 };
    CalibStat s = calib_stat_summarise(v, 7, &b);
    ck_assert(s.valid && s.stable);
    ck_assert_uint_eq(s.runs, 7);
    ck_assert_uint_eq(s.first, 1);
    ck_assert(s.median == 10 && s.min == 10 && s.max == 10.1);
    ck_assert(fabs(calib_stat_spread(&s) - 0.1 / 2 / 10) < 1e-12);
    g_autofree char *text = calib_stat_describe(&s, "cycles");
    ck_assert_str_eq(text, "median 10 cycles of runs 2-4 of 7, spread ±0.5% (10-10.1)");
    /* Never calm enough: summarised all the same, flagged. */
    const double noisy[] = { 10, 20, 10, 20 };
    s = calib_stat_summarise(noisy, 4, &b);
    ck_assert(s.valid && !s.stable);
    g_free(text);
    text = calib_stat_describe(&s, NULL);
    ck_assert_msg(strstr(text, "not stable within its budget"), "%s", text);
}
END_TEST

/* A scripted measurement: returns the next value of a list. */
typedef struct {
    const double *v;
    guint n, i;
} Script;

static double scripted(void *p)
{
    Script *s = p;
    return s->i < s->n ? s->v[s->i++] : 1000 + s->i++;
}

START_TEST(test_repeat_stops_when_stable)
{
    /* Stable after the sixth run (the last three within 1%); the budget's time never binds. */
    const double v[] = { 50, 20, 30, 10.0, 10.05, 10.02, 99, 99, 99 };
    Script s = { v, G_N_ELEMENTS(v), 0 };
    CalibBudget b = { 3, 0.01, 100, 1e9 };
    CalibStat st = calib_repeat(scripted, &s, &b);
    ck_assert_uint_eq(s.i, 6);
    ck_assert(st.stable && st.runs == 6 && st.median == 10.02);
}
END_TEST

START_TEST(test_repeat_stops_at_max_runs_and_skips_failed_runs)
{
    /* Never stable: stops at max_runs attempts; the failed (negative) runs are not counted. */
    const double v[] = { 1, -1, 3, -1, 9, 27, 81, 243 };
    Script s = { v, G_N_ELEMENTS(v), 0 };
    CalibBudget b = { 2, 0.01, 6, 1e9 };
    CalibStat st = calib_repeat(scripted, &s, &b);
    ck_assert_uint_eq(s.i, 6);
    ck_assert_uint_eq(st.runs, 4);
    ck_assert(!st.stable);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Known cores and /proc/cpuinfo                                                               */
/* ------------------------------------------------------------------------------------------ */

static const struct {
    Arch arch;
    const char *vendor;
    guint family, model;
    const char *expect;   /* row name, or NULL */
} lookups[] = {
    { ARCH_X86, "GenuineIntel", 6, 0x3f, "Haswell" },
    { ARCH_X86, "GenuineIntel", 6, 0x46, "Haswell" },
    { ARCH_X86, "GenuineIntel", 6, 0x55, "Skylake-SP / Cascade Lake" },
    { ARCH_X86, "GenuineIntel", 6, 0x5e, "Skylake (client)" },
    { ARCH_X86, "GenuineIntel", 6, 0x2f, "Nehalem/Westmere" },
    { ARCH_X86, "GenuineIntel", 6, 0x8f, NULL },               /* Sapphire Rapids: not in the table */
    { ARCH_X86, "GenuineIntel", 0x19, 0x01, NULL },            /* Zen 3's numbers, Intel's vendor */
    { ARCH_X86, "AuthenticAMD", 0x19, 0x01, "AMD Zen 3" },     /* Milan */
    { ARCH_X86, "AuthenticAMD", 0x19, 0x21, "AMD Zen 3" },     /* Vermeer */
    { ARCH_X86, "AuthenticAMD", 0x19, 0x11, NULL },            /* Genoa is Zen 4 */
    { ARCH_X86, "AuthenticAMD", 0x10, 0x09, "AMD K10 (Magny-Cours)" },
    { ARCH_ARM64, "0x41", 8, 0xd0c, "Arm Neoverse N1" },
    { ARCH_ARM64, "0X41", 8, 0xd0c, "Arm Neoverse N1" },       /* vendor case */
    { ARCH_ARM64, "0x41", 8, 0xd40, NULL },                    /* Neoverse V1 */
    { ARCH_ARM64, "0x43", 8, 0x0a1, "Cavium ThunderX (T88)" },
    { ARCH_X86, "0x41", 8, 0xd0c, NULL },                      /* the arch matters */
};

START_TEST(test_known_lookup)
{
    const CalibKnownCore *c = calib_known_lookup(lookups[_i].arch, lookups[_i].vendor, lookups[_i].family,
                                                 lookups[_i].model);
    if (!lookups[_i].expect)
        ck_assert_msg(!c, "row %d: expected no match, got %s", _i, c ? c->name : "");
    else
        ck_assert_msg(c && !strcmp(c->name, lookups[_i].expect), "row %d: expected %s, got %s", _i,
                      lookups[_i].expect, c ? c->name : "nothing");
}
END_TEST

/* Every row's values are keys it may set, valid for the schema, each with a source. */
START_TEST(test_known_rows_are_valid)
{
    const CalibKnownCore *c = &calib_known_cores[_i];
    ck_assert(c->n_models >= 1 && c->n_models <= G_N_ELEMENTS(c->models) && c->sources && *c->sources);
    g_autoptr(QsimConfig) cfg = config_new_defaults();
    for (const CalibKnownValue *v = c->values; v->key; v++) {
        gboolean listed = FALSE;
        for (guint k = 0; calib_known_keys[k]; k++)
            listed |= !strcmp(calib_known_keys[k], v->key);
        ck_assert_msg(listed, "%s: %s is not one of calib_known_keys", c->name, v->key);
        ck_assert_msg(v->source && *v->source, "%s: %s has no source", c->name, v->key);
        g_autofree char *set = g_strdup_printf("%s=%s", v->key, v->value);
        g_autoptr(GError) e = NULL;
        ck_assert_msg(config_set(cfg, set, &e), "%s: %s", c->name, e ? e->message : "");
    }
    for (guint k = 0; calib_known_keys[k]; k++)
        ck_assert_msg(config_schema_find(calib_known_keys[k]), "%s is not a config key", calib_known_keys[k]);
}
END_TEST

START_TEST(test_cpuinfo_parse)
{
    static const char x86[] =
        "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 63\n"
        "model name\t: Intel(R) Xeon(R) CPU E5-2699 v3 @ 2.30GHz\nstepping\t: 2\n"
        "flags\t\t: fpu vme tsc hypervisor lahf_lm\n\nprocessor\t: 1\nvendor_id\t: Other\n";
    CalibHost h = { 0 };
    calib_host_parse_cpuinfo(&h, ARCH_X86, x86);
    ck_assert_str_eq(h.vendor, "GenuineIntel");
    ck_assert_uint_eq(h.family, 6);
    ck_assert_uint_eq(h.model, 63);
    ck_assert_uint_eq(h.stepping, 2);
    ck_assert_str_eq(h.model_name, "Intel(R) Xeon(R) CPU E5-2699 v3 @ 2.30GHz");
    ck_assert(h.vm);
    ck_assert_str_eq(calib_known_lookup(h.arch, h.vendor, h.family, h.model)->name, "Haswell");
    g_autofree char *text = calib_host_cpu_text(&h);
    ck_assert_str_eq(text, "Intel(R) Xeon(R) CPU E5-2699 v3 @ 2.30GHz (GenuineIntel family 0x6 model 0x3f stepping 2)");
    calib_host_clear(&h);

    static const char arm[] =
        "processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd atomics\nCPU implementer\t: 0x41\n"
        "CPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n";
    calib_host_parse_cpuinfo(&h, ARCH_ARM64, arm);
    ck_assert_str_eq(h.vendor, "0x41");
    ck_assert_uint_eq(h.family, 8);
    ck_assert_uint_eq(h.model, 0xd0c);
    ck_assert_uint_eq(h.stepping, 3);
    ck_assert(!h.vm);
    ck_assert_str_eq(h.model_name, "arm64 CPU, implementer 0x41 part 0xd0c");
    ck_assert_str_eq(calib_known_lookup(h.arch, h.vendor, h.family, h.model)->name, "Arm Neoverse N1");
    calib_host_clear(&h);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The writer, on synthetic results                                                           */
/* ------------------------------------------------------------------------------------------ */

static CalibStat stat_of(double median)
{
    return (CalibStat){ TRUE, median, median * 0.99, median * 1.01, 9, 5, 4, TRUE };
}

/* One LLC domain of `cores` cores on one package, no SMT; caches 32K/8, 256K/8 (or none),
 * 8M/16; every measurement given. */
static CalibResult *synthetic(Arch arch, const char *vendor, guint family, guint model, guint cores,
                              gboolean vm, gboolean l2)
{
    CalibResult *r = calib_result_new();
    CalibHost *h = &r->host;
    h->arch = arch;
    h->model_name = g_strdup("Synthetic CPU 9000");
    h->vendor = g_strdup(vendor);
    h->family = family;
    h->model = model;
    h->vm = vm;
    h->vm_evidence = vm ? g_strdup("a test says so") : NULL;
    h->online_cpus = h->cores = h->cores_per_llc = cores;
    h->packages = h->llc_domains = h->threads_per_core = 1;
    h->cache[CALIB_CACHE_L1] = (CalibCache){ 32768, 8, 64, TRUE, FALSE };
    if (l2)
        h->cache[CALIB_CACHE_L2] = (CalibCache){ 262144, 8, 64, TRUE, FALSE };
    h->cache[CALIB_CACHE_LLC] = (CalibCache){ 8 << 20, 16, 64, TRUE, TRUE };
    for (guint c = 0; c < cores; c++) {
        CalibCpuTopo t = { c, 0, (gint)c, 0 };
        g_array_append_val(h->topo, t);
        g_array_append_val(r->cpus, c);
    }
    r->core_ghz = stat_of(3.0);
    r->tsc_ghz = stat_of(2.5);
    r->level[CALIB_LEVEL_L1] = (CalibChasePoint){ 16384, stat_of(4.2) };
    if (l2)
        r->level[CALIB_LEVEL_L2] = (CalibChasePoint){ 131072, stat_of(12.4) };
    r->level[CALIB_LEVEL_LLC] = (CalibChasePoint){ 1 << 20, stat_of(40) };
    r->level[CALIB_LEVEL_MEMORY] = (CalibChasePoint){ 64 << 20, stat_of(250) };
    g_array_append_val(r->curve, r->level[CALIB_LEVEL_L1]);
    g_array_append_val(r->curve, r->level[CALIB_LEVEL_MEMORY]);
    r->c2c_lines = 64;
    CalibC2cRow m = { CALIB_PAIR_SAME_LLC, 0, 1, -1, CALIB_OP_LOAD, 'M', stat_of(100) };
    CalibC2cRow e = { CALIB_PAIR_SAME_LLC, 0, 1, -1, CALIB_OP_LOAD, 'E', stat_of(90) };
    g_array_append_val(r->c2c, m);
    g_array_append_val(r->c2c, e);
    for (CalibInsn i = 0; i < CALIB_INSN__N; i++)
        r->insn[i] = (CalibInsnStat){ stat_of(10 + i), stat_of(5) };
    r->insn[CALIB_INSN_LOCK_CMPXCHG].back_to_back = stat_of(19.4);
    r->insn[CALIB_INSN_PAUSE].back_to_back = stat_of(140);
    r->insn[CALIB_INSN_YIELD].back_to_back = stat_of(1);
    calib_result_note(r, "a note from the measurement");
    return r;
}

static char *write_ok(const CalibResult *r, QsimConfig **cfg)
{
    g_autoptr(GError) e = NULL;
    char *yaml = calib_write_yaml(r, &e);
    ck_assert_msg(yaml, "%s", e ? e->message : "");
    *cfg = config_load_string(yaml, "calibrated.yaml", NULL, &e);
    ck_assert_msg(*cfg, "the written config does not load: %s\n%s", e ? e->message : "", yaml);
    return yaml;
}

/* The comments about `key` (sections tracked): the block right above its line, unwrapped into
 * lines of "# text", and its inline comment; NULL when the key is not written as a key. */
static char *comment_above(const char *yaml, const char *key)
{
    g_auto(GStrv) lines = g_strsplit(yaml, "\n", -1);
    const char *dot = strchr(key, '.');
    g_autofree char *section = dot ? g_strndup(key, (gsize)(dot - key)) : g_strdup("");
    g_autofree char *want = g_strdup_printf("%s%s:", dot ? "  " : "", dot ? dot + 1 : key);
    g_autofree char *header = g_strconcat(section, ":", NULL);
    const char *current = "";
    for (guint i = 0; lines[i]; i++) {
        const char *l = lines[i];
        if (l[0] && l[0] != ' ' && l[0] != '#')
            current = g_str_has_suffix(l, ":") && !strchr(l, ' ') ? l : "";
        gboolean here = dot ? !strcmp(current, header) : TRUE;
        if (!here || !g_str_has_prefix(l, want))
            continue;
        guint first = i;
        while (first > 0) {
            const char *t = lines[first - 1];
            while (*t == ' ')
                t++;
            if (*t != '#')
                break;
            first--;
        }
        GString *c = g_string_new("");
        for (guint j = first; j < i; j++) {
            const char *t = lines[j];
            while (*t == ' ')
                t++;
            if (g_str_has_prefix(t, "#   "))
                g_string_append_printf(c, " %s", t + 4);
            else
                g_string_append_printf(c, "%s%s", c->len ? "\n" : "", t);
        }
        const char *inl = strstr(l, " # ");
        if (inl)
            g_string_append_printf(c, "%s%s", c->len ? "\n" : "", inl + 1);
        return g_string_free(c, FALSE);
    }
    return NULL;
}

START_TEST(test_writer_round_trip_and_comments)
{
    g_autoptr(CalibResult) r = synthetic(ARCH_X86, "AuthenticAMD", 0x19, 0x01, 2, TRUE, TRUE);
    g_autoptr(QsimConfig) cfg = NULL;
    g_autofree char *yaml = write_ok(r, &cfg);
    /* The values, by the model's definitions (Zen 3: a crossbar, no hops). */
    ck_assert_str_eq(cfg->name, "host");
    ck_assert_int_eq(cfg->arch, ARCH_X86);
    ck_assert_int_eq(cfg->protocol, PROTO_MOESI);
    ck_assert(fabs(cfg->frequency_ghz - 3.0) < 1e-9);
    ck_assert_int_eq(cfg->topology.sockets, 1);
    ck_assert_int_eq(cfg->topology.cores_per_socket, 2);
    ck_assert_int_eq(cfg->topology.ondie, ONDIE_CROSSBAR);
    ck_assert_int_eq(cfg->l1.size, 32768);
    ck_assert_int_eq(cfg->l1.latency, 4);
    ck_assert_int_eq(cfg->l2.latency, 12);
    ck_assert_int_eq(cfg->llc.size, 8 << 20);
    ck_assert_int_eq(cfg->llc.latency, 40);
    ck_assert_int_eq(cfg->memory.latency, 250);
    ck_assert_int_eq(cfg->topology.snoop_response_cycles, 50); /* load from E 90 - LLC 40 */
    ck_assert_int_eq(cfg->topology.snoop_data_cycles, 10);     /* load from M 100 - from E 90 */
    ck_assert_int_eq(cfg->core.locked_rmw_cycles, 19);
    ck_assert_int_eq(cfg->core.pause_cycles, 140);
    ck_assert_int_eq(cfg->core.mfence_cycles, 10 + CALIB_INSN_MFENCE);
    ck_assert_int_eq(cfg->core.rob, 256);                     /* the known-cores table */
    ck_assert_int_eq(cfg->topology.threads_per_core, 1);      /* sysfs: a core a CPU */
    ck_assert(!strstr(yaml, "\nsmt:\n"));

    /* Every measured or derived key the schema has: method, CPU, spread above it, and the VM. */
    g_autoptr(GError) e = NULL;
    g_autoptr(GPtrArray) entries = calib_derive(r, &e);
    ck_assert(entries);
    guint checked = 0;
    for (guint i = 0; i < entries->len; i++) {
        const CalibEntry *en = entries->pdata[i];
        g_autofree char *c = comment_above(yaml, en->key);
        if (!config_schema_find(en->key)) {
            ck_assert_msg(!c, "%s is not a key of the schema but was written as one", en->key);
            continue;
        }
        ck_assert_msg(c, "%s: not written", en->key);
        if (en->from != CALIB_FROM_MEASURED && en->from != CALIB_FROM_DERIVED) {
            ck_assert_msg(strlen(c) > 3, "%s: no comment saying where it comes from", en->key);
            continue;
        }
        const char *word = en->from == CALIB_FROM_MEASURED ? "# measured: " : "# derived: ";
        ck_assert_msg(strstr(c, word), "%s: the comment does not say it is %s\n%s", en->key, word, c);
        ck_assert_msg(strstr(c, "Synthetic CPU 9000"), "%s: the comment does not name the CPU\n%s", en->key, c);
        ck_assert_msg(strstr(c, "spread ±"), "%s: the comment gives no spread\n%s", en->key, c);
        ck_assert_msg(strstr(c, "in a VM"), "%s: the comment does not say it was in a VM\n%s", en->key, c);
        checked++;
    }
    ck_assert_uint_ge(checked, 10);
    ck_assert(strstr(yaml, "# VM: this host is a virtual machine (a test says so)"));
    ck_assert(strstr(yaml, "# Note: a note from the measurement."));
    /* The snoop keys and the lock hold are keys of the config now, not comments. */
    ck_assert(!strstr(yaml, "not a key of this qsim's config schema yet"));
    ck_assert(!strstr(yaml, "c2c_cycles"));
    /* The measurements block. */
    ck_assert(strstr(yaml, "#   same-llc        0   1   - load   M         100.00     1.0%    9\n"));
}
END_TEST

START_TEST(test_writer_no_vm)
{
    g_autoptr(CalibResult) r = synthetic(ARCH_X86, "AuthenticAMD", 0x19, 0x01, 2, FALSE, TRUE);
    /* A model name that would end a quoted YAML scalar. */
    g_free(r->host.model_name);
    r->host.model_name = g_strdup("Odd \"CPU\" \\ 1");
    g_autoptr(QsimConfig) cfg = NULL;
    g_autofree char *yaml = write_ok(r, &cfg);
    ck_assert_str_eq(cfg->description, "Odd 'CPU' ' 1, 2 CPUs, measured by qsim calibrate");
    ck_assert(!strstr(yaml, "# VM:") && !strstr(yaml, "in a VM") && !strstr(yaml, "virtual machine"));
}
END_TEST

/* A ring with hops: the LLC, memory and snoop keys lose what the model adds on the way. */
START_TEST(test_writer_ring_distances)
{
    /* Haswell: ring, 1 cycle a hop.  Four cores, one slice each: a core is 0, 1, 2, 1 stops
     * from the slices (mean 1) and 1, 2, 1 from the other cores (mean 4/3). */
    g_autoptr(CalibResult) r = synthetic(ARCH_X86, "GenuineIntel", 6, 0x3f, 4, FALSE, TRUE);
    g_autoptr(QsimConfig) cfg = NULL;
    g_autofree char *yaml = write_ok(r, &cfg);
    ck_assert_int_eq(cfg->topology.ondie, ONDIE_RING);
    ck_assert_int_eq(cfg->topology.ondie_hop_cycles, 1);
    ck_assert_int_eq(cfg->topology.cores_per_socket, 4);
    ck_assert_int_eq(cfg->llc.latency, 38);                    /* 40 - 2 x 1 x 1 */
    ck_assert_int_eq(cfg->memory.latency, 248);                /* 250 - 2 */
    /* M 100 - the LLC path 40 + 4/3 = 58.67 in all, 10 of it the dirty line's read-out */
    ck_assert_int_eq(cfg->topology.snoop_response_cycles + cfg->topology.snoop_data_cycles, 59);
    ck_assert_int_eq(cfg->topology.snoop_data_cycles, 10);
    ck_assert_int_eq(cfg->protocol, PROTO_MESIF);
    ck_assert_int_eq(cfg->core.rob, 192);
    g_autofree char *c = comment_above(yaml, "llc.latency");
    ck_assert_msg(strstr(c, "LLC load-to-use 40.0 - 2 x ondie_hop_cycles 1 x mean on-die distance 1.00"), "%s", c);
}
END_TEST

START_TEST(test_writer_unknown_core_and_missing_measurements)
{
    g_autoptr(CalibResult) r = synthetic(ARCH_X86, "GenuineIntel", 6, 0x99, 2, FALSE, TRUE);
    /* Nothing timed but the clock and L1. */
    r->level[CALIB_LEVEL_L2].cycles.valid = FALSE;
    r->level[CALIB_LEVEL_LLC].cycles.valid = FALSE;
    r->level[CALIB_LEVEL_MEMORY].cycles.valid = FALSE;
    g_array_set_size(r->c2c, 0);
    for (CalibInsn i = 0; i < CALIB_INSN__N; i++)
        r->insn[i].back_to_back.valid = FALSE;
    g_autoptr(QsimConfig) cfg = NULL;
    g_autofree char *yaml = write_ok(r, &cfg);
    g_autoptr(QsimConfig) defaults = config_new_defaults();
    ck_assert_int_eq(cfg->topology.ondie, ONDIE_CROSSBAR);
    ck_assert_int_eq(cfg->core.rob, defaults->core.rob);
    ck_assert_int_eq(cfg->llc.latency, defaults->llc.latency);
    ck_assert_int_eq(cfg->topology.snoop_response_cycles, defaults->topology.snoop_response_cycles);
    g_autofree char *c = comment_above(yaml, "core.rob");
    ck_assert_msg(strstr(c, "chosen: the schema's default; this core is not in the known-cores table"), "%s", c);
    g_free(c);
    c = comment_above(yaml, "topology.snoop_response_cycles");
    ck_assert_msg(strstr(c, "chosen: the schema's default; no pair of cores sharing an LLC was measured"), "%s", c);
}
END_TEST

/* Measured values the config would refuse (an L2 no slower than the L1) are raised, and say so. */
START_TEST(test_writer_keeps_the_config_valid)
{
    g_autoptr(CalibResult) r = synthetic(ARCH_X86, "AuthenticAMD", 0x19, 0x01, 2, FALSE, TRUE);
    r->level[CALIB_LEVEL_L2].cycles = stat_of(4.1);
    r->level[CALIB_LEVEL_LLC].cycles = stat_of(3);
    g_autoptr(QsimConfig) cfg = NULL;
    g_autofree char *yaml = write_ok(r, &cfg);
    ck_assert_int_eq(cfg->l2.latency, 5);
    ck_assert_int_eq(cfg->llc.latency, 6);
    g_autofree char *c = comment_above(yaml, "l2.latency");
    ck_assert_msg(strstr(c, "raised to exceed the level above"), "%s", c);
}
END_TEST

START_TEST(test_writer_arm64)
{
    g_autoptr(CalibResult) r = synthetic(ARCH_ARM64, "0x41", 8, 0xd0c, 2, FALSE, TRUE);
    g_autoptr(QsimConfig) cfg = NULL;
    g_autofree char *yaml = write_ok(r, &cfg);
    ck_assert_int_eq(cfg->arch, ARCH_ARM64);
    ck_assert_int_eq(cfg->core.atomics, ATOMICS_LSE_NEAR);
    ck_assert_int_eq(cfg->core.rollback, ROLLBACK_NONE);
    ck_assert_int_eq(cfg->core.locked_rmw_cycles, 0);
    ck_assert_int_eq(cfg->core.pause_cycles, 1);                              /* YIELD */
    ck_assert_int_eq(cfg->core.mfence_cycles, 10 + CALIB_INSN_DMB_ISH);
    ck_assert_int_eq(cfg->core.wfe_timeout, 300000);                          /* 100 us at 3 GHz */
    ck_assert(!strstr(yaml, "lock_hold_cycles"));
}
END_TEST

/* Two LLC domains: two model sockets, the hop from the pair across them. */
START_TEST(test_writer_two_sockets)
{
    g_autoptr(CalibResult) r = synthetic(ARCH_X86, "AuthenticAMD", 0x19, 0x01, 4, FALSE, TRUE);
    r->host.llc_domains = 2;
    r->host.packages = 2;
    r->host.cores_per_llc = 2;
    CalibC2cRow x = { CALIB_PAIR_OTHER_SOCKET, 0, 2, -1, CALIB_OP_LOAD, 'M', stat_of(300) };
    g_array_append_val(r->c2c, x);
    g_autoptr(QsimConfig) cfg = NULL;
    g_autofree char *yaml = write_ok(r, &cfg);
    ck_assert_int_eq(cfg->topology.sockets, 2);
    ck_assert_int_eq(cfg->topology.cores_per_socket, 2);
    ck_assert_int_eq(cfg->topology.socket_links, SOCKETS_FULL);
    ck_assert_int_eq(cfg->topology.socket_hop_cycles, 100);                   /* (300 - 100) / 2 */
}
END_TEST

/* SMT: sysfs's siblings (CPU c and c + 2, two cores of two threads, as Linux numbers them) make
 * model cores of two hardware threads, and the sibling pair's row stands beside the model's
 * answer to it. */
START_TEST(test_writer_smt_siblings)
{
    g_autoptr(CalibResult) r = synthetic(ARCH_X86, "GenuineIntel", 6, 0x3f, 2, FALSE, TRUE);
    CalibHost *h = &r->host;
    h->online_cpus = 4;
    h->threads_per_core = 2;
    for (guint c = 2; c < 4; c++) {
        CalibCpuTopo t = { c, 0, (gint)(c - 2), 0 };
        g_array_append_val(h->topo, t);
    }
    CalibC2cRow m = { CALIB_PAIR_SMT, 0, 2, -1, CALIB_OP_LOAD, 'M', stat_of(29) };
    g_array_append_val(r->c2c, m);
    g_autoptr(QsimConfig) cfg = NULL;
    g_autofree char *yaml = write_ok(r, &cfg);
    ck_assert_int_eq(cfg->topology.threads_per_core, 2);
    ck_assert_int_eq(cfg->topology.cores_per_socket, 2);
    ck_assert_uint_eq(config_total_cpus(cfg), 4);
    g_autofree char *c = comment_above(yaml, "topology.threads_per_core");
    ck_assert_msg(strstr(c, "sysfs thread_siblings_list: 4 online CPUs on 2 cores, CPU 0's threads 0,2"), "%s", c);
    g_free(c);
    c = comment_above(yaml, "smt.rob");
    ck_assert_msg(c && strstr(c, "chosen: the schema's default; how a core's threads share it"), "%s", c);
    ck_assert(strstr(yaml, "#   smt             0   2   - load   M          29.00     1.0%    9\n"));
    g_autoptr(GString) flat = g_string_new(yaml);
    g_string_replace(flat, "\n#   ", " ", 0);
    ck_assert_msg(strstr(flat->str, "smt: CPUs 0 and 2 are two hardware threads of one core, and the config models "
                                    "them so (topology.threads_per_core 2)") &&
                      strstr(flat->str, "l1.latency 4 cycles, beside the 29.0 measured here for a load from M"),
                  "%s", yaml);
    ck_assert(!strstr(yaml, "no SMT"));
}
END_TEST

/* No private L2 (the L1 and a shared last level): l2 disabled. */
START_TEST(test_writer_two_levels)
{
    g_autoptr(CalibResult) r = synthetic(ARCH_ARM64, "0x43", 8, 0x0a1, 2, FALSE, FALSE);
    g_autoptr(QsimConfig) cfg = NULL;
    g_autofree char *yaml = write_ok(r, &cfg);
    ck_assert(!cfg->l2_enabled);
    ck_assert_int_eq(cfg->llc.latency, 40);
    ck_assert_int_eq(cfg->core.atomics, ATOMICS_LLSC);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The command                                                                                 */
/* ------------------------------------------------------------------------------------------ */

START_TEST(test_cli_quick_writes_a_loadable_config)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-calibrate-XXXXXX", NULL);
    g_autofree char *out = g_build_filename(dir, "host.yaml", NULL);
    const char *args[] = { "calibrate", "--quick", "--quiet", "--out", out, NULL };
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim(args, NULL, &err) == 0, "qsim calibrate --quick failed:\n%s", err);
    ck_assert_msg(strstr(err, "qsim calibrate: measured in"), "%s", err);
    g_autoptr(GError) e = NULL;
    g_autoptr(QsimConfig) cfg = config_load(out, NULL, &e);
    ck_assert_msg(cfg, "%s", e ? e->message : "");
    ck_assert_str_eq(cfg->name, "host");
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(out, &text, NULL, NULL));
    ck_assert(strstr(text, "# QUICK: run with --quick"));
    ck_assert(strstr(text, "# measured: load-to-use"));
    g_unlink(out);
    g_rmdir(dir);
}
END_TEST

START_TEST(test_cli_bad_input)
{
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line("calibrate --quick --cpus 1023", NULL, &err), 2);
    ck_assert_msg(strstr(err, "not available to this process"), "%s", err);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("calibrate --cpus x", NULL, &err), 2);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("calibrate extra", NULL, &err), 2);
}
END_TEST

Suite *make_calibrate_suite(void)
{
    Suite *s = suite_create("calibrate");
    TCase *tc = tcase_create("statistics");
    tcase_add_test(tc, test_median);
    tcase_add_test(tc, test_stability_criterion);
    tcase_add_test(tc, test_calmest_window);
    tcase_add_test(tc, test_repeat_stops_when_stable);
    tcase_add_test(tc, test_repeat_stops_at_max_runs_and_skips_failed_runs);
    suite_add_tcase(s, tc);

    tc = tcase_create("known cores");
    tcase_add_loop_test(tc, test_known_lookup, 0, G_N_ELEMENTS(lookups));
    tcase_add_loop_test(tc, test_known_rows_are_valid, 0, (int)calib_known_cores_len);
    tcase_add_test(tc, test_cpuinfo_parse);
    suite_add_tcase(s, tc);

    tc = tcase_create("writer");
    tcase_add_test(tc, test_writer_round_trip_and_comments);
    tcase_add_test(tc, test_writer_no_vm);
    tcase_add_test(tc, test_writer_ring_distances);
    tcase_add_test(tc, test_writer_unknown_core_and_missing_measurements);
    tcase_add_test(tc, test_writer_keeps_the_config_valid);
    tcase_add_test(tc, test_writer_arm64);
    tcase_add_test(tc, test_writer_two_sockets);
    tcase_add_test(tc, test_writer_two_levels);
    tcase_add_test(tc, test_writer_smt_siblings);
    suite_add_tcase(s, tc);

    tc = tcase_create("command");
    tcase_add_test(tc, test_cli_quick_writes_a_loadable_config);
    tcase_add_test(tc, test_cli_bad_input);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
