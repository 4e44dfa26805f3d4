/* From a calibration's measurements to config entries, by the model's own definitions of its
 * keys (sim/base/config_schema.c; coherence/memsys.h's table of latencies):
 *
 *   frequency_ghz             the core clock: dependent adds per ns
 *   l1.latency, l2.latency    load-to-use of a chase inside that level
 *   llc.latency               the LLC's own lookup: LLC load-to-use minus the round trip the model
 *                             adds to it, 2 x ondie_hop_cycles x the mean on-die distance between
 *                             a core and an LLC slice (computed on the config's own memory system)
 *   memory.latency            the same for a chase far past the LLC
 *   snoop keys                see calib_snoop_keys below
 *   socket_hop_cycles         half of (load from M across LLC domains - load from M in one), the
 *                             line's home being the requester's (its memory was first touched there)
 *   core.locked_rmw_cycles    LOCK CMPXCHG back to back on a hot line
 *   core.lock_hold_cycles     locked_rmw_cycles - l1.latency (the part after the line is in)
 *   core.{m,l,s}fence_cycles  the fence back to back (arm64: DMB ISH, ISHLD, ISHST)
 *   core.pause_cycles         PAUSE back to back (arm64: YIELD)
 * Everything else comes from the host (sysfs, cpuinfo), the known-cores table, or is chosen,
 * and says which. */
#include <math.h>
#include <string.h>
#include "coherence/memsys.h"
#include "sim/base/engine.h"
#include "sim/calibrate/calib_known.h"
#include "sim/calibrate/calibrate.h"

/* The model's keys for the private hierarchy's answer to a snoop.  A branch being merged splits
 * topology.c2c_cycles into the two keys below (c2c_cycles = their sum on one die):
 *   response  a snoop answered by another core's private caches: load from E - the LLC path
 *   data      the extra when the line is dirty there: load from M - load from E
 * Both are written when the schema has both keys; otherwise the sum goes to `sum`, and the two
 * parts are written as comments.  The choice is made here and nowhere else. */
static const struct {
    const char *response, *data, *sum;
} calib_snoop_keys = {
    "topology.snoop_response_cycles",
    "topology.snoop_data_cycles",
    "topology.c2c_cycles",
};

/* Keys whose meaning is x86-only or arm64-only are written for that host only. */
typedef struct {
    const char *key;
    gboolean x86, arm64;
} CalibArchKey;
static const CalibArchKey calib_arch_keys[] = {
    { "core.atomics", FALSE, TRUE },
    { "core.wfe_timeout", FALSE, TRUE },
    { "core.lock_hold_cycles", TRUE, FALSE },
};

/* For a core the table does not know: where the schema's default would mislead. */
static const CalibKnownValue calib_unknown_core_values[] = {
    { "topology.ondie", "crossbar",
      "chosen: the on-die network is not visible to software; 0-cycle hops put the whole measured "
      "latencies in llc.latency and the snoop keys" },
    { "topology.ondie_hop_cycles", "0", "chosen: see topology.ondie" },
    { NULL, NULL, NULL },
};

/* Which instruction each cost key is, per host architecture (CALIB_INSN__N: none). */
static const struct {
    const char *key;
    CalibInsn x86, arm64;
    const char *what;
} calib_insn_keys[] = {
    { "core.locked_rmw_cycles", CALIB_INSN_LOCK_CMPXCHG, CALIB_INSN__N,
      "16 back to back on one hot line in L1 (locked instructions serialise: their throughput is their latency)" },
    { "core.mfence_cycles", CALIB_INSN_MFENCE, CALIB_INSN_DMB_ISH, "16 back to back" },
    { "core.lfence_cycles", CALIB_INSN_LFENCE, CALIB_INSN_DMB_ISHLD, "16 back to back" },
    { "core.sfence_cycles", CALIB_INSN_SFENCE, CALIB_INSN_DMB_ISHST, "16 back to back" },
    { "core.pause_cycles", CALIB_INSN_PAUSE, CALIB_INSN_YIELD, "16 back to back" },
};

typedef struct {
    const CalibResult *r;
    const CalibKnownCore *known;
    GPtrArray *out;          /* CalibEntry* */
    char *cpu;               /* the CPU, for every measured comment */
    GError *error;
} Derive;

static void entry_free(gpointer p)
{
    CalibEntry *e = p;
    g_free(e->key);
    g_free(e->value);
    g_free(e->how);
    g_free(e);
}

static gboolean arch_wants(const Derive *d, const char *key)
{
    for (guint i = 0; i < G_N_ELEMENTS(calib_arch_keys); i++)
        if (!strcmp(calib_arch_keys[i].key, key))
            return d->r->host.arch == ARCH_X86 ? calib_arch_keys[i].x86 : calib_arch_keys[i].arm64;
    return TRUE;
}

static void add(Derive *d, const char *key, CalibFrom from, const char *value, const char *fmt, ...)
    G_GNUC_PRINTF(5, 6);
static void add(Derive *d, const char *key, CalibFrom from, const char *value, const char *fmt, ...)
{
    if (!arch_wants(d, key))
        return;
    CalibEntry *e = g_new0(CalibEntry, 1);
    e->key = g_strdup(key);
    e->value = g_strdup(value);
    e->from = from;
    va_list ap;
    va_start(ap, fmt);
    e->how = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_ptr_array_add(d->out, e);
}

static const CalibEntry *find(const Derive *d, const char *key)
{
    for (guint i = 0; i < d->out->len; i++) {
        const CalibEntry *e = d->out->pdata[i];
        if (!strcmp(e->key, key))
            return e;
    }
    return NULL;
}

static gint64 find_int(const Derive *d, const char *key)
{
    const CalibEntry *e = find(d, key);
    if (e)
        return g_ascii_strtoll(e->value, NULL, 10);
    const CfgKey *k = config_schema_find(key);
    return k && k->def ? g_ascii_strtoll(k->def, NULL, 10) : 0;
}

/* "; on CPU; median ... spread ...; in a VM" for a measured value. */
static char *on_cpu(const Derive *d, const CalibStat *s, const char *unit)
{
    g_autofree char *stat = calib_stat_describe(s, unit);
    return g_strdup_printf("on %s; %s%s", d->cpu, stat, d->r->host.vm ? "; in a VM" : "");
}

static char *int_text(double v) { return g_strdup_printf("%.0f", round(v)); }

/* The schema default, chosen because `why`. */
static void add_default(Derive *d, const char *key, const char *why)
{
    const CfgKey *k = config_schema_find(key);
    g_autofree char *def = k && k->def ? g_strdup(k->def) : g_strdup("0");
    add(d, key, CALIB_FROM_CHOSEN, def, "chosen: the schema's default; %s", why);
}

/* ======================================================================================
 * Identity, topology, the known core
 * ====================================================================================== */

static void derive_identity(Derive *d)
{
    const CalibHost *h = &d->r->host;
    add(d, "name", CALIB_FROM_CHOSEN, "host", "chosen: rename it to taste");
    /* A YAML double-quoted scalar: the model name must not end it early. */
    g_autofree char *model = g_strdup(h->model_name ? h->model_name : "?");
    g_strdelimit(model, "\"\\", '\'');
    g_autofree char *desc = g_strdup_printf("\"%s, %u CPUs%s, measured by qsim calibrate%s\"", model,
                                            h->online_cpus, h->vm ? " in a VM" : "", d->r->quick ? " --quick" : "");
    add(d, "description", CALIB_FROM_HOST, desc, "from /proc/cpuinfo and sysfs");
    add(d, "arch", CALIB_FROM_HOST, arch_name(h->arch), "the host's architecture");
    const CalibCache *l1 = &h->cache[CALIB_CACHE_L1];
    if (l1->line > 0 && (l1->line & (l1->line - 1)) == 0) {
        g_autofree char *v = g_strdup_printf("%" G_GINT64_FORMAT, l1->line);
        add(d, "line_size", CALIB_FROM_HOST, v, "sysfs coherency_line_size of the L1");
    } else {
        add(d, "line_size", CALIB_FROM_CHOSEN, "64", "chosen: sysfs shows no line size; 64 bytes");
    }
    if (d->r->core_ghz.valid) {
        g_autofree char *v = g_strdup_printf("%.3f", d->r->core_ghz.median);
        g_autofree char *how = on_cpu(d, &d->r->core_ghz, "GHz");
        g_autofree char *tsc = calib_stat_describe(&d->r->tsc_ghz, "GHz");
        add(d, "frequency_ghz", CALIB_FROM_MEASURED, v,
            "measured: 16 dependent adds per loop iteration (one a cycle) timed by CLOCK_MONOTONIC, on CPU %u "
            "while busy; %s. The counter runs at %s: %.4f counter ticks per core cycle, the factor every "
            "timed tick was converted by", g_array_index(d->r->cpus, guint, 0), how, tsc,
            d->r->tsc_ghz.median / d->r->core_ghz.median);
    } else {
        add_default(d, "frequency_ghz", "the clock was not measured");
    }
}

static void derive_known(Derive *d)
{
    for (guint i = 0; calib_known_keys[i]; i++) {
        const char *key = calib_known_keys[i];
        const CalibKnownValue *v = calib_known_value(d->known, key);
        if (v) {
            add(d, key, CALIB_FROM_KNOWN, v->value, "%s (known core: %s)", v->source, d->known->name);
            continue;
        }
        for (const CalibKnownValue *u = calib_unknown_core_values; !d->known && u->key; u++)
            if (!strcmp(u->key, key))
                v = u;
        if (v)
            add(d, key, CALIB_FROM_CHOSEN, v->value, "%s", v->source);
        else if (strcmp(key, "topology.cross_socket") || find_int(d, "topology.sockets") > 1)
            add_default(d, key, d->known ? "no figure for this key in the known-cores table"
                                         : "this core is not in the known-cores table");
    }
}

static void derive_topology(Derive *d)
{
    const CalibHost *h = &d->r->host;
    guint sockets = MAX(h->llc_domains, 1u), cores = MAX(h->cores_per_llc, 1u);
    g_autofree char *s = g_strdup_printf("%u", sockets), *c = g_strdup_printf("%u", cores);
    add(d, "topology.sockets", CALIB_FROM_HOST, s,
        "sysfs: %u last-level cache domain%s on %u package%s (a model socket is a die with its own LLC)",
        h->llc_domains, h->llc_domains == 1 ? "" : "s", h->packages, h->packages == 1 ? "" : "s");
    add(d, "topology.cores_per_socket", CALIB_FROM_HOST, c, "sysfs: the most cores one LLC serves (%u online CPUs on "
        "%u cores)", h->online_cpus, h->cores);
    if (sockets > 1)
        add(d, "topology.socket_links", CALIB_FROM_CHOSEN, "full",
            "chosen: every pair of LLC domains one hop apart (the hop below is the pair measured)");
}

/* The keys of how a core's hardware threads share it (config_schema.c): not visible to software. */
static const char *const calib_smt_keys[] = { "smt.rob", "smt.load_buffer", "smt.store_buffer", "smt.fetch_queue",
                                              "smt.branch_predictor" };

/* SMT: the CPUs sysfs names as one core's threads (thread_siblings_list) are one model core's
 * hardware threads; the model has at most two. */
static void derive_threads(Derive *d)
{
    const CalibHost *h = &d->r->host;
    guint tpc = MAX(h->threads_per_core, 1u), kept = MIN(tpc, 2u);
    guint cpu = d->r->cpus->len ? g_array_index(d->r->cpus, guint, 0) : 0;
    GString *sib = g_string_new("");
    const CalibCpuTopo *me = calib_host_cpu(h, cpu);
    for (guint i = 0; me && i < h->topo->len; i++) {
        const CalibCpuTopo *t = &g_array_index(h->topo, CalibCpuTopo, i);
        if (t->core == me->core)
            g_string_append_printf(sib, "%s%u", sib->len ? "," : "", t->cpu);
    }
    g_autofree char *v = g_strdup_printf("%u", kept);
    add(d, "topology.threads_per_core", CALIB_FROM_HOST, v,
        "sysfs thread_siblings_list: %u online CPUs on %u cores, CPU %u's threads %s%s", h->online_cpus, h->cores,
        cpu, sib->len ? sib->str : "?", tpc > kept ? " (more threads per core than the model's 2: 2 kept)" : "");
    g_string_free(sib, TRUE);
    for (guint i = 0; kept > 1 && i < G_N_ELEMENTS(calib_smt_keys); i++)
        add_default(d, calib_smt_keys[i], "how a core's threads share it is not visible to software (the "
                    "default is Intel's since Sandy Bridge)");
}

/* ======================================================================================
 * Caches and memory
 * ====================================================================================== */

static void derive_cache_shape(Derive *d, const char *section, const CalibCache *c, gint64 line)
{
    g_autofree char *size_key = g_strconcat(section, ".size", NULL), *ways_key = g_strconcat(section, ".ways", NULL);
    if (!c->visible || c->size < 1024) {
        add_default(d, size_key, "sysfs does not show this cache");
        add_default(d, ways_key, "sysfs does not show this cache");
        return;
    }
    gint64 ways = c->ways > 0 ? MIN(c->ways, 64) : 0;
    /* The model wants size = sets x ways x line; take the most ways <= sysfs's that divide. */
    while (ways > 1 && c->size % (ways * line))
        ways--;
    g_autofree char *size = g_strdup_printf("%" G_GINT64_FORMAT, c->size);
    add(d, size_key, CALIB_FROM_HOST, size, "sysfs cache size (%" G_GINT64_FORMAT " KiB)%s", c->size / 1024,
        c->shared ? ", shared" : "");
    if (ways >= 1 && (c->size % (ways * line)) == 0) {
        g_autofree char *w = g_strdup_printf("%" G_GINT64_FORMAT, ways);
        if (ways == c->ways)
            add(d, ways_key, CALIB_FROM_HOST, w, "sysfs ways_of_associativity");
        else
            add(d, ways_key, CALIB_FROM_HOST, w, "sysfs says %" G_GINT64_FORMAT " ways, which do not divide the "
                "size into %" G_GINT64_FORMAT "-byte sets: the nearest fewer that do", c->ways, line);
    } else {
        add(d, ways_key, CALIB_FROM_CHOSEN, "1", "chosen: sysfs shows no associativity that divides the size");
    }
}

static char *chase_method(const CalibChasePoint *p)
{
    return g_strdup_printf("pointer chase (dependent loads, one line at a time in a random cyclic order, "
                           "2 MiB pages asked) over %" G_GUINT64_FORMAT " KiB", p->footprint / 1024);
}

/* Mean on-die distances of the draft config's socket 0, read off its own memory system. */
static gboolean mean_distances(Derive *d, double *core_slice, double *core_core)
{
    g_autoptr(QsimConfig) cfg = config_new_defaults();
    for (guint i = 0; i < d->out->len; i++) {
        const CalibEntry *e = d->out->pdata[i];
        if (!config_schema_find(e->key))
            continue;
        g_autofree char *set = g_strdup_printf("%s=%s", e->key, e->value);
        g_autoptr(GError) err = NULL;
        if (!config_set(cfg, set, &err)) {
            g_set_error(&d->error, CALIB_ERROR, CALIB_ERROR_INVALID, "%s", err->message);
            return FALSE;
        }
    }
    Engine *eng = engine_new(1);
    MemSys *ms = memsys_new(cfg, eng, &d->error);
    if (!ms) {
        engine_free(eng);
        return FALSE;
    }
    guint cps = (guint)cfg->topology.cores_per_socket;
    guint slices = cfg->llc_slices ? (guint)cfg->llc_slices : cps;
    guint64 sum = 0, pairs = 0;
    for (guint c = 0; c < cps; c++)
        for (guint k = 0; k < slices; k++)
            sum += memsys_ondie_distance(ms, c, (uint64_t)k * (uint64_t)cfg->line_size);
    *core_slice = (double)sum / (cps * slices);
    sum = 0;
    for (guint a = 0; a < cps; a++)
        for (guint b = 0; b < cps; b++)
            if (a != b) {
                sum += memsys_core_distance(ms, a, b);
                pairs++;
            }
    *core_core = pairs ? (double)sum / (double)pairs : 0;
    memsys_free(ms);
    engine_free(eng);
    return TRUE;
}

/* Two levels shown (L1 and a shared last level): no private L2. */
static gboolean has_l2(const CalibHost *h)
{
    return h->cache[CALIB_CACHE_L2].visible || !h->cache[CALIB_CACHE_LLC].visible;
}

static void derive_cache_shapes(Derive *d)
{
    const CalibHost *h = &d->r->host;
    gint64 line = find_int(d, "line_size");
    derive_cache_shape(d, "l1", &h->cache[CALIB_CACHE_L1], line);
    gboolean l2 = has_l2(h), shown = h->cache[CALIB_CACHE_L2].visible;
    add(d, "l2.enabled", shown ? CALIB_FROM_HOST : CALIB_FROM_CHOSEN, l2 ? "true" : "false", "%s",
        shown ? "sysfs shows a level-2 cache below the last level"
        : l2  ? "chosen: sysfs shows no caches; the schema's three levels"
              : "sysfs shows the L1 and a shared last level only");
    if (l2)
        derive_cache_shape(d, "l2", &h->cache[CALIB_CACHE_L2], line);
    derive_cache_shape(d, "llc", &h->cache[CALIB_CACHE_LLC], line);
    add(d, "llc.slices", CALIB_FROM_CHOSEN, "0", "chosen: one slice per core (slices are not visible to software)");
}

static void derive_latencies(Derive *d, double hop, double dist)
{
    const CalibResult *r = d->r;
    gboolean l2 = has_l2(&r->host);
    gint64 floor = 0;   /* each level's latency must exceed the one above */
    static const struct {
        CalibLevel level;
        const char *key;
    } direct[] = { { CALIB_LEVEL_L1, "l1.latency" }, { CALIB_LEVEL_L2, "l2.latency" } };
    for (guint i = 0; i < G_N_ELEMENTS(direct); i++) {
        const CalibChasePoint *p = &r->level[direct[i].level];
        if (direct[i].level == CALIB_LEVEL_L2 && !l2)
            continue;
        if (!p->cycles.valid) {
            add_default(d, direct[i].key, "not measured");
            floor = find_int(d, direct[i].key);
            continue;
        }
        gint64 v = MAX((gint64)round(p->cycles.median), floor + 1);
        g_autofree char *method = chase_method(p), *how = on_cpu(d, &p->cycles, "cycles");
        g_autofree char *val = g_strdup_printf("%" G_GINT64_FORMAT, v);
        add(d, direct[i].key, CALIB_FROM_MEASURED, val, "measured: load-to-use, %s; %s%s", method, how,
            v != (gint64)round(p->cycles.median) ? "; raised to exceed the level above, as the config requires" : "");
        floor = v;
    }

    /* The LLC and memory: what the model adds on the way (2 x hop x mean distance) comes off. */
    double trip = 2 * hop * dist;
    static const struct {
        CalibLevel level;
        const char *key, *what;
    } far[] = { { CALIB_LEVEL_LLC, "llc.latency", "the LLC's own lookup" },
                { CALIB_LEVEL_MEMORY, "memory.latency", "DRAM including the LLC miss" } };
    for (guint i = 0; i < G_N_ELEMENTS(far); i++) {
        const CalibChasePoint *p = &r->level[far[i].level];
        if (!p->cycles.valid) {
            add_default(d, far[i].key, "not measured");
            floor = find_int(d, far[i].key);
            continue;
        }
        double own = p->cycles.median - trip;
        gint64 v = MAX((gint64)round(own), i == 0 ? floor + 1 : 1);
        g_autofree char *method = chase_method(p), *how = on_cpu(d, &p->cycles, "cycles");
        g_autofree char *val = g_strdup_printf("%" G_GINT64_FORMAT, v);
        add(d, far[i].key, CALIB_FROM_DERIVED, val,
            "derived: %s = %s load-to-use %.1f - 2 x ondie_hop_cycles %.0f x mean on-die distance %.2f "
            "(the round trip the model adds) = %.1f%s; measured: %s; %s", far[i].what,
            calib_level_name(far[i].level), p->cycles.median, hop, dist, own,
            v != (gint64)round(own) ? ", raised to exceed the level above, as the config requires" : "",
            method, how);
        if (i == 0)
            floor = v;
    }
    add(d, "memory.home", CALIB_FROM_CHOSEN, "first-touch",
        "chosen: Linux allocates a page on the node of the first thread to touch it");
}

/* ======================================================================================
 * Core to core
 * ====================================================================================== */

static void derive_snoop(Derive *d, double hop, double core_dist)
{
    const CalibResult *r = d->r;
    const CalibC2cRow *m = calib_result_c2c(r, CALIB_PAIR_SAME_LLC, CALIB_OP_LOAD, 'M');
    const CalibC2cRow *e = calib_result_c2c(r, CALIB_PAIR_SAME_LLC, CALIB_OP_LOAD, 'E');
    const CalibChasePoint *llc = &r->level[CALIB_LEVEL_LLC];
    gboolean split = config_schema_find(calib_snoop_keys.response) && config_schema_find(calib_snoop_keys.data);
    if (!m || !llc->cycles.valid) {
        const char *why = !m ? "no pair of cores sharing an LLC was measured" : "the LLC latency was not measured";
        if (split) {
            add_default(d, calib_snoop_keys.response, why);
            add_default(d, calib_snoop_keys.data, why);
        } else {
            add_default(d, calib_snoop_keys.sum, why);
        }
        return;
    }
    /* The model's cache-to-cache path on one die: requester -> slice -> owner -> requester,
     * with the LLC's own lookup; the LLC path is the LLC load-to-use plus the one extra leg. */
    double path = llc->cycles.median + hop * core_dist;
    double total = MAX(0, m->cycles.median - path);
    double data = e ? MAX(0, m->cycles.median - e->cycles.median) : 0;
    double response = MAX(0, total - data);
    g_autofree char *mhow = on_cpu(d, &m->cycles, "cycles");
    g_autofree char *ehow = e ? on_cpu(d, &e->cycles, "cycles") : g_strdup("not measured: taken as 0");
    g_autofree char *pair = g_strdup_printf("CPU %u loads lines CPU %u holds (%s)", m->cpu_a, m->cpu_b,
                                            calib_pair_name(m->pair));
    g_autofree char *rv = int_text(response), *dv = int_text(data), *sv = int_text(response + data);
    g_autofree char *data_how = g_strdup_printf(
        "derived: the extra when the line is dirty = load from M %.1f - load from E %.1f; measured: %s, "
        "a pointer chase through %u lines in a random order; M: %s; E: %s", m->cycles.median,
        e ? e->cycles.median : m->cycles.median, pair, r->c2c_lines, mhow, ehow);
    g_autofree char *resp_how = g_strdup_printf(
        "derived: the private caches answering a snoop = load from M %.1f - the LLC path %.1f (LLC load-to-use "
        "%.1f + ondie_hop_cycles %.0f x mean core-to-core distance %.2f) - snoop_data %.1f; measured: %s; M: %s",
        m->cycles.median, path, llc->cycles.median, hop, core_dist, data, pair, mhow);
    CalibFrom f = CALIB_FROM_DERIVED;
    add(d, calib_snoop_keys.response, f, rv, "%s", resp_how);
    add(d, calib_snoop_keys.data, f, dv, "%s", data_how);
    if (!split)
        add(d, calib_snoop_keys.sum, f, sv,
            "derived: the cache-to-cache extra on one die = snoop response %s + snoop data %s = load from M %.1f - "
            "the LLC path %.1f (LLC load-to-use %.1f + ondie_hop_cycles %.0f x mean core-to-core distance %.2f); "
            "measured: %s; M: %s", rv, dv, m->cycles.median, path, llc->cycles.median, hop, core_dist, pair, mhow);
}

static void derive_socket_hop(Derive *d)
{
    if (find_int(d, "topology.sockets") < 2)
        return;
    const CalibResult *r = d->r;
    const CalibC2cRow *same = calib_result_c2c(r, CALIB_PAIR_SAME_LLC, CALIB_OP_LOAD, 'M');
    const CalibC2cRow *x = calib_result_c2c(r, CALIB_PAIR_OTHER_SOCKET, CALIB_OP_LOAD, 'M');
    if (!x)
        x = calib_result_c2c(r, CALIB_PAIR_SAME_SOCKET, CALIB_OP_LOAD, 'M');
    if (!same || !x) {
        add_default(d, "topology.socket_hop_cycles", "no pair across LLC domains and one within was measured");
        return;
    }
    double hop = MAX(0, (x->cycles.median - same->cycles.median) / 2);
    g_autofree char *v = int_text(hop), *xh = on_cpu(d, &x->cycles, "cycles"), *sh = on_cpu(d, &same->cycles, "cycles");
    add(d, "topology.socket_hop_cycles", CALIB_FROM_DERIVED, v,
        "derived: one way = (load from M across LLC domains %.1f - within one %.1f) / 2, the line's home being the "
        "requester's (first touched there); measured: CPU %u from CPU %u (%s): %s; CPU %u from CPU %u: %s",
        x->cycles.median, same->cycles.median, x->cpu_a, x->cpu_b, calib_pair_name(x->pair), xh, same->cpu_a,
        same->cpu_b, sh);
}

/* ======================================================================================
 * Instructions
 * ====================================================================================== */

static void derive_insns(Derive *d)
{
    const CalibResult *r = d->r;
    gboolean x86 = r->host.arch == ARCH_X86;
    guint cpu = r->cpus->len ? g_array_index(r->cpus, guint, 0) : 0;
    for (guint i = 0; i < G_N_ELEMENTS(calib_insn_keys); i++) {
        CalibInsn id = x86 ? calib_insn_keys[i].x86 : calib_insn_keys[i].arm64;
        const char *key = calib_insn_keys[i].key;
        if (id == CALIB_INSN__N) {
            add(d, key, CALIB_FROM_CHOSEN, "0", "an x86-only mechanism (arm64 atomics are core.atomics), as the arm64 configs");
            continue;
        }
        const CalibStat *s = &r->insn[id].back_to_back;
        if (!s->valid) {
            add_default(d, key, "not measured on this host");
            continue;
        }
        g_autofree char *v = int_text(s->median), *how = on_cpu(d, s, "cycles");
        add(d, key, CALIB_FROM_MEASURED, v, "measured: %s, %s, CPU %u; %s", calib_insn_name(id),
            calib_insn_keys[i].what, cpu, how);
    }
    const CalibStat *rmw = &r->insn[CALIB_INSN_LOCK_CMPXCHG].back_to_back;
    const CalibEntry *l1 = find(d, "l1.latency");
    if (x86 && rmw->valid && l1) {
        gint64 lat = g_ascii_strtoll(l1->value, NULL, 10);
        double hold = MAX(0, round(rmw->median) - (double)lat);
        g_autofree char *v = int_text(hold), *how = on_cpu(d, rmw, "cycles");
        add(d, "core.lock_hold_cycles", CALIB_FROM_DERIVED, v,
            "derived: locked_rmw_cycles %.0f - l1.latency %" G_GINT64_FORMAT " (the hold once the line is in); "
            "measured: lock cmpxchg back to back; %s", round(rmw->median), lat, how);
    }
    if (r->host.arch == ARCH_ARM64) {
        /* Linux's arch timer event stream (10 kHz) wakes every WFE at least every 100 us. */
        double ghz = r->core_ghz.valid ? r->core_ghz.median : 2.0;
        g_autofree char *v = int_text(100e3 * ghz);
        add(d, "core.wfe_timeout", CALIB_FROM_CHOSEN, v,
            "chosen: Linux's arch timer event stream (10 kHz) ends a WFE within 100 us; the measured wake-up "
            "on a store is in the measurements below");
    }
}

/* ======================================================================================
 * All of it
 * ====================================================================================== */

GPtrArray *calib_derive(const CalibResult *r, GError **error)
{
    Derive d = { r, NULL, g_ptr_array_new_with_free_func(entry_free), calib_host_cpu_text(&r->host), NULL };
    d.known = calib_known_lookup(r->host.arch, r->host.vendor, r->host.family, r->host.model);
    derive_identity(&d);
    derive_topology(&d);
    derive_threads(&d);
    derive_known(&d);
    derive_cache_shapes(&d);
    /* The structure is in: the distances are read off a memory system built from it. */
    double core_slice = 0, core_core = 0;
    if (!mean_distances(&d, &core_slice, &core_core)) {
        g_free(d.cpu);
        g_ptr_array_unref(d.out);
        g_propagate_error(error, d.error);
        return NULL;
    }
    double hop = (double)find_int(&d, "topology.ondie_hop_cycles");
    derive_latencies(&d, hop, core_slice);
    derive_insns(&d);
    derive_snoop(&d, hop, core_core);
    derive_socket_hop(&d);
    g_free(d.cpu);
    return d.out;
}
