/* A calibration as a config file (see calibrate.h): the header says what the host is and what
 * the file can and cannot be trusted for; every key follows in the schema's order with where it
 * came from (measured and derived keys above the key: method, CPU, median and spread; the rest
 * beside it); every measurement follows as comments.  A pure function of the result. */
#include <string.h>
#include "sim/base/config.h"
#include "sim/calibrate/calib_known.h"
#include "sim/calibrate/calibrate.h"

#define CALIB_WRAP 100

/* Appends `text` as comment lines of at most CALIB_WRAP columns, each "INDENT# ", continued
 * lines indented two more. */
static void comment(GString *out, const char *indent, const char *text)
{
    gsize width = CALIB_WRAP - strlen(indent) - 2;
    const char *p = text;
    gboolean first = TRUE;
    while (*p) {
        gsize room = first ? width : width - 2, n = strlen(p);
        if (n > room) {
            n = room;
            while (n > room / 2 && p[n] != ' ')
                n--;
            if (p[n] != ' ')
                n = room;
        }
        g_string_append_printf(out, "%s# %s%.*s\n", indent, first ? "" : "  ", (int)n, p);
        p += n;
        while (*p == ' ')
            p++;
        first = FALSE;
    }
}

static const CalibEntry *entry_for(const GPtrArray *entries, const char *key)
{
    for (guint i = 0; i < entries->len; i++) {
        const CalibEntry *e = entries->pdata[i];
        if (!strcmp(e->key, key))
            return e;
    }
    return NULL;
}

static void write_entry(GString *out, const CalibEntry *e, gboolean in_schema)
{
    const char *dot = strchr(e->key, '.');
    const char *leaf = dot ? dot + 1 : e->key, *indent = dot ? "  " : "";
    gboolean above = e->from == CALIB_FROM_MEASURED || e->from == CALIB_FROM_DERIVED;
    if (above)
        comment(out, indent, e->how);
    if (!in_schema) {
        g_string_append_printf(out, "%s# %s: %s   (not a key of this qsim's config schema yet)\n", indent, leaf, e->value);
        return;
    }
    g_autofree char *line = g_strdup_printf("%s%s: %s", indent, leaf, e->value);
    if (above) {
        g_string_append_printf(out, "%s\n", line);
        return;
    }
    g_string_append_printf(out, "%-32s # %s\n", line, e->how);
}

/* Writes the entries of `section` that the schema does not know (as comments). */
static void close_section(GString *out, const GPtrArray *entries, const char *section, GHashTable *done)
{
    gsize n = strlen(section);
    for (guint k = 0; n && k < entries->len; k++) {
        const CalibEntry *e = entries->pdata[k];
        if (!strncmp(e->key, section, n) && e->key[n] == '.' && !config_schema_find(e->key)) {
            write_entry(out, e, FALSE);
            g_hash_table_add(done, e->key);
        }
    }
}

/* The keys, grouped by section in the schema's order; entries the schema lacks close their
 * section as comments, or come last when their section has nothing else. */
static void write_keys(GString *out, const GPtrArray *entries)
{
    g_autoptr(GHashTable) done = g_hash_table_new(g_str_hash, g_str_equal);
    g_autofree char *section = g_strdup("");
    gboolean opened = FALSE;
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const char *path = qsim_config_schema[i].path, *dot = strchr(path, '.');
        g_autofree char *sec = dot ? g_strndup(path, (gsize)(dot - path)) : g_strdup("");
        if (strcmp(sec, section)) {
            if (opened)
                close_section(out, entries, section, done);
            g_free(section);
            section = g_steal_pointer(&sec);
            opened = FALSE;
        }
        const CalibEntry *e = entry_for(entries, path);
        if (!e)
            continue;
        if (*section && !opened)
            g_string_append_printf(out, "%s:\n", section);
        opened = TRUE;
        write_entry(out, e, TRUE);
        g_hash_table_add(done, e->key);
    }
    if (opened)
        close_section(out, entries, section, done);
    for (guint k = 0; k < entries->len; k++) {
        const CalibEntry *e = entries->pdata[k];
        if (!g_hash_table_contains(done, e->key))
            write_entry(out, e, FALSE);
    }
}

/* ======================================================================================
 * The header and the measurements
 * ====================================================================================== */

static void write_header(GString *out, const CalibResult *r)
{
    const CalibHost *h = &r->host;
    g_autofree char *cpu = calib_host_cpu_text(h);
    const CalibKnownCore *known = calib_known_lookup(h->arch, h->vendor, h->family, h->model);
    GString *cpus = g_string_new("");
    for (guint i = 0; i < r->cpus->len; i++)
        g_string_append_printf(cpus, "%s%u", i ? "," : "", g_array_index(r->cpus, guint, i));
    g_string_append(out, "# A machine config of this host, measured by `qsim calibrate` (docs/calibrate.md).\n");
    g_autofree char *who = g_strdup_printf(
        "CPU: %s; %s. Measured on CPUs %s (the first runs the single-CPU measurements); the host has %u online "
        "CPUs, %u package%s, %u last-level cache domain%s, %u thread%s per core.", cpu,
        known ? known->name : "not in the known-cores table", cpus->str, h->online_cpus, h->packages,
        h->packages == 1 ? "" : "s", h->llc_domains, h->llc_domains == 1 ? "" : "s", h->threads_per_core,
        h->threads_per_core == 1 ? "" : "s");
    g_string_free(cpus, TRUE);
    comment(out, "", who);
    if (h->vm) {
        g_autofree char *vm = g_strdup_printf(
            "VM: this host is a virtual machine (%s). Its vCPUs may share physical cores and move between them, "
            "its caches are shared with other guests, the topology sysfs shows is the hypervisor's, and the "
            "time-stamp counter may be scaled: every figure below is this VM's, not the processor's.",
            h->vm_evidence ? h->vm_evidence : "?");
        comment(out, "", vm);
    }
    if (r->quick)
        comment(out, "", "QUICK: run with --quick, every budget shrunk: the values are rough, for a first look only.");
    for (guint i = 0; i < r->notes->len; i++) {
        g_autofree char *n = g_strdup_printf("Note: %s.", (const char *)r->notes->pdata[i]);
        comment(out, "", n);
    }
    comment(out, "", "Each key says where it comes from: measured (timed here: how, on which CPU, the median and "
                     "spread of its calmest runs), derived (from measured values, by the model's definition of the key), "
                     "the host (sysfs, /proc/cpuinfo), the known-cores table (with its source), or chosen (and why).");
    if (known) {
        g_string_append(out, "# Sources of the known-cores table for this core:\n");
        g_auto(GStrv) lines = g_strsplit(known->sources, "\n", -1);
        for (guint i = 0; lines[i]; i++)
            if (*lines[i])
                g_string_append_printf(out, "#   %s\n", lines[i]);
    }
}

static void stat_cells(GString *out, const CalibStat *s)
{
    if (!s->valid) {
        g_string_append_printf(out, "%10s %8s %6s", "-", "", "");
        return;
    }
    g_string_append_printf(out, "%10.2f %7.1f%% %4u%s", s->median, 100 * calib_stat_spread(s), s->runs,
                           s->stable ? "" : " ?");
}

/* The sibling pair beside the model's answer to it: the threads of one model core share its L1. */
static void write_sibling_model(GString *out, const CalibResult *r, const GPtrArray *entries)
{
    const CalibC2cRow *m = calib_result_c2c(r, CALIB_PAIR_SMT, CALIB_OP_LOAD, 'M');
    const CalibEntry *tpc = entry_for(entries, "topology.threads_per_core"), *l1 = entry_for(entries, "l1.latency");
    if (!m || !m->cycles.valid || !tpc || !l1)
        return;
    g_autofree char *text = g_strdup_printf(
        "smt: CPUs %u and %u are two hardware threads of one core, and the config models them so "
        "(topology.threads_per_core %s): they share one L1 and L2, so the model answers the load of a line "
        "the sibling holds as an L1 hit, l1.latency %s cycles, beside the %.1f measured here for a load "
        "from M (a gap is a finding about the model or the host, not a figure to fit).",
        m->cpu_a, m->cpu_b, tpc->value, l1->value, m->cycles.median);
    comment(out, "", text);
}

static void write_measurements(GString *out, const CalibResult *r, const GPtrArray *entries)
{
    g_string_append(out, "\n# ---- Measurements ----------------------------------------------------------------\n");
    comment(out, "", "Core cycles (counter ticks times the clock ratio): the median of the calmest consecutive runs "
                     "(the last ones, unless the host was busy), the spread (half their range over the median) and "
                     "how many runs were made; '?' marks one that was not stable within its budget.");
    g_string_append_printf(out, "# clock: core %.3f GHz (±%.2f%%), counter %.3f GHz (±%.2f%%), %.4f ticks per core cycle\n",
                           r->core_ghz.median, 100 * calib_stat_spread(&r->core_ghz), r->tsc_ghz.median,
                           100 * calib_stat_spread(&r->tsc_ghz),
                           r->core_ghz.median > 0 ? r->tsc_ghz.median / r->core_ghz.median : 0);
    g_string_append(out, "#\n# load-to-use by footprint (a pointer chase, one line at a time in random order):\n");
    g_string_append_printf(out, "#   %-18s %10s %8s %6s\n", "footprint", "cycles", "spread", "runs");
    for (guint i = 0; i < r->curve->len; i++) {
        const CalibChasePoint *p = &g_array_index(r->curve, CalibChasePoint, i);
        g_autofree char *fp = g_strdup_printf("%" G_GUINT64_FORMAT " KiB", p->footprint / 1024);
        g_string_append_printf(out, "#   %-18s ", fp);
        stat_cells(out, &p->cycles);
        g_string_append(out, "\n");
    }
    for (CalibLevel l = 0; l < CALIB_LEVEL__N; l++) {
        const CalibChasePoint *p = &r->level[l];
        if (!p->footprint)
            continue;
        g_autofree char *fp = g_strdup_printf("%s, %" G_GUINT64_FORMAT " KiB", calib_level_name(l), p->footprint / 1024);
        g_string_append_printf(out, "#   %-18s ", fp);
        stat_cells(out, &p->cycles);
        g_string_append(out, "\n");
    }
    if (r->c2c->len) {
        g_string_append(out, "#\n");
        g_autofree char *how = g_strdup_printf(
            "core to core (as ccbench): CPU A times one operation on each of %u lines CPU B holds in the state "
            "(S: B and C hold them); loads chase a pointer through the lines in a random order, each store is "
            "followed by a full fence, and cas follows the chain with compare-and-swaps that fail and return "
            "the next address (a failing LOCK CMPXCHG still takes the line and writes it).", r->c2c_lines);
        comment(out, "", how);
        g_string_append_printf(out, "#   %-13s %3s %3s %3s %-6s %-5s %10s %8s %6s\n", "pair", "A", "B", "C", "op", "state",
                               "cycles", "spread", "runs");
        for (guint i = 0; i < r->c2c->len; i++) {
            const CalibC2cRow *c = &g_array_index(r->c2c, CalibC2cRow, i);
            g_autofree char *cc = c->cpu_c >= 0 ? g_strdup_printf("%d", c->cpu_c) : g_strdup("-");
            g_string_append_printf(out, "#   %-13s %3u %3u %3s %-6s %-5c ", calib_pair_name(c->pair), c->cpu_a, c->cpu_b,
                                   cc, calib_op_name(c->op), c->state);
            stat_cells(out, &c->cycles);
            g_string_append(out, "\n");
        }
        write_sibling_model(out, r, entries);
    }
    gboolean any = FALSE;
    for (CalibInsn i = 0; i < CALIB_INSN__N; i++)
        any |= r->insn[i].back_to_back.valid;
    if (any) {
        g_string_append(out, "#\n");
        comment(out, "", "instructions, hot, on the first CPU: back to back (16 in a row, one line in L1), and what "
                         "each adds to seed 003's loop body (a call that stores, runs it, and stores again), with "
                         "the half range of that in cycles:");
        g_string_append_printf(out, "#   %-24s %10s %8s %6s %10s %8s\n", "instruction", "cycles", "spread", "runs",
                               "in loop", "±");
        for (CalibInsn i = 0; i < CALIB_INSN__N; i++) {
            const CalibInsnStat *s = &r->insn[i];
            if (!s->back_to_back.valid)
                continue;
            g_string_append_printf(out, "#   %-24s ", calib_insn_name(i));
            stat_cells(out, &s->back_to_back);
            if (s->in_loop.valid)
                g_string_append_printf(out, " %10.2f %8.2f", s->in_loop.median, (s->in_loop.max - s->in_loop.min) / 2);
            g_string_append(out, "\n");
        }
    }
    if (r->wfe_wakeup.valid) {
        g_autofree char *w = calib_stat_describe(&r->wfe_wakeup, "cycles");
        g_string_append_printf(out, "#\n# WFE wake-up (a store by another CPU to the line the sleeper armed): %s\n", w);
    }
}

char *calib_write_yaml(const CalibResult *r, GError **error)
{
    g_autoptr(GPtrArray) entries = calib_derive(r, error);
    if (!entries)
        return NULL;
    GString *out = g_string_new("");
    write_header(out, r);
    g_string_append(out, "\n");
    write_keys(out, entries);
    write_measurements(out, r, entries);
    return g_string_free(out, FALSE);
}
