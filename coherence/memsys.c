/* The memory system's public API (see memsys.h): building and freeing it, attaching the cores,
 * functional peek/poke and statistics (tracing is coherence/memsys_trace.c).  The model itself lives in the files listed in
 * coherence/memsys_internal.h, one idea each. */
#include "coherence/memsys_internal.h"

/* ======================================================================================
 * Lifecycle
 * ====================================================================================== */

static void build_lut(gint16 *lut, guint nev, const CohRow *rows, guint n)
{
    for (guint i = 0; i < n; i++)
        lut[rows[i].state * nev + rows[i].event] = (gint16)i;
}

gint16 row_index(const MemSys *ms, gboolean dir, guint s, guint e)
{
    gint16 i = dir ? ms->dir_lut[s][e] : ms->cache_lut[s][e];
    if (i < 0)
        g_error("coherence (%s): no %s-table row for state %s and event %s", ms->proto->name,
                !dir ? "cache" : ms->bus ? "memory" : "directory",
                dir ? coh_dir_state_name(s) : coh_cache_state_name(s),
                dir ? coh_dir_event_name(e) : coh_cache_event_name(e));
    return i;
}

const CohRow *dir_row_fire(MemSys *ms, guint s, guint e)
{
    gint16 i = row_index(ms, TRUE, s, e);
    ms->stats.dir_rows_fired[i]++;
    return &ms->dir_rows[i];
}

static void llc_set_free(void *set)
{
    g_free(((LlcSet *)set)->l);
}

MemSys *memsys_new(const QsimConfig *cfg, Engine *e, GError **error)
{
    const CohProtocol *p = coh_protocol_select(cfg);
    if (!p) {
        g_set_error(error, COH_ERROR, COH_ERROR_CONFIG, "the bus runs msi or mesi only");
        return NULL;
    }
    if (!coh_protocol_check(p, error))
        return NULL;
    if (cfg->protocol == PROTO_MESIF && !coh_mesif_check(p, coh_mesif_rules, coh_n_mesif_rules, error))
        return NULL;
    /* config_load has checked a loaded config already; one made in code is checked here, by
     * the same function (slices within the stops of a ring or mesh, whole sets...). */
    if (!config_validate(cfg, error))
        return NULL;
    MemSys *ms = g_new0(MemSys, 1);
    ms->cfgv = *cfg;
    ms->cfg = &ms->cfgv;
    ms->e = e;
    ms->proto = p;
    ms->cache_rows = g_memdup2(p->cache, p->n_cache * sizeof(CohRow));
    ms->dir_rows = g_memdup2(p->dir, p->n_dir * sizeof(CohRow));
    /* MESIF runs the MESI tables with its own rules for F added (coherence/mesif.c). */
    for (guint i = 0; i < p->n_dir && cfg->protocol == PROTO_MESIF; i++)
        ms->dir_rows[i].rules |= (guint8)coh_mesif_rules_of(coh_mesif_rules, coh_n_mesif_rules,
                                                            ms->dir_rows[i].state, ms->dir_rows[i].event);
    memset(ms->cache_lut, 0xff, sizeof ms->cache_lut);
    memset(ms->dir_lut, 0xff, sizeof ms->dir_lut);
    build_lut(&ms->cache_lut[0][0], CE__N, ms->cache_rows, p->n_cache);
    build_lut(&ms->dir_lut[0][0], DE__N, ms->dir_rows, p->n_dir);
    ms->ncores = config_total_cores(cfg);
    ms->ncpus = config_total_cpus(cfg);
    g_assert(cfg->topology.threads_per_core <= MEMSYS_MAX_THREADS);
    ms->nsockets = (guint)cfg->topology.sockets;
    ms->cps = (guint)cfg->topology.cores_per_socket;
    ms->nslices = cfg->llc_slices ? (guint)cfg->llc_slices : ms->cps;
    ms->line_size = (guint)cfg->line_size;
    ms->line_shift = (guint)g_bit_storage(ms->line_size) - 1;
    ms->sharer_words = (ms->ncores + 63) / 64;
    interconnect_build(ms);
    ms->cores = g_new0(CoreCaches, ms->ncores);
    for (guint i = 0; i < ms->ncores; i++) {
        CoreCaches *c = &ms->cores[i];
        c->id = i;
        c->socket = i / ms->cps;
        c->local = i % ms->cps;
        c->ff_pending = g_array_new(FALSE, FALSE, sizeof(gint32));
    }
    ms->llc_ways = (guint)cfg->llc.ways;
    ms->llc_sets = (uint64_t)cfg->llc.size / ((uint64_t)cfg->llc.ways * ms->line_size);
    ms->llc = g_new0(SetTable, ms->nsockets);
    for (guint s = 0; s < ms->nsockets; s++)
        set_table_init(&ms->llc[s], ms->llc_sets, sizeof(LlcSet), NULL);
    ms->dir = g_hash_table_new(g_int64_hash, g_int64_equal);
    ms->acc = g_array_new(FALSE, FALSE, sizeof(Access));
    ms->acc_free = NIL;
    ms->msg = g_array_new(FALSE, FALSE, sizeof(Msg));
    ms->msg_free = NIL;
    mem_stats_init(&ms->stats, ms->ncores, p->n_cache, p->n_dir);
    ms->violation = g_string_new("");
    if (cfg->topology.interconnect == INTERCONNECT_BUS)
        ms->bus = bus_new();
    else
        home_arbiter_init(ms);
    return ms;
}

void memsys_free(MemSys *ms)
{
    if (!ms)
        return;
    for (guint i = 0; i < ms->ncores; i++) {
        CoreCaches *c = &ms->cores[i];
        g_array_free(c->ff_pending, TRUE);
        tags_clear(&c->l1);
        tags_clear(&c->l2);
    }
    while (ms->pl_free) {
        PrivLine *n = ms->pl_free->free_next;
        g_free(ms->pl_free);
        ms->pl_free = n;
    }
    for (guint s = 0; s < ms->nsockets; s++)
        set_table_clear(&ms->llc[s], llc_set_free);
    for (guint i = 0; i < ms->msg->len; i++)
        g_free(msg_at(ms, i)->data);
    g_array_free(ms->msg, TRUE);
    g_array_free(ms->acc, TRUE);
    GList *entries = g_hash_table_get_values(ms->dir);
    g_hash_table_destroy(ms->dir); /* first: its keys are in the entries */
    for (GList *l = entries; l; l = l->next)
        dir_entry_free(ms, l->data);
    g_list_free(entries);
    g_free(ms->llc);
    g_free(ms->cores);
    g_free(ms->sock_cost);
    g_free(ms->sock_hops);
    g_free(ms->cache_rows);
    g_free(ms->dir_rows);
    mem_stats_clear(&ms->stats);
    trace_tape_clear(&ms->tape);
    bus_free(ms->bus);
    home_arbiter_clear(ms);
    g_string_free(ms->violation, TRUE);
    g_free(ms);
}

void memsys_attach(MemSys *ms, guint cpu, const PortClient *client, void *core_obj)
{
    g_assert(cpu < ms->ncpus);
    CoreCaches *c = &ms->cores[cpu_core(ms, cpu)];
    guint t = cpu_thread(ms, cpu);
    if (!c->l1.ways) {
        /* Tag arrays are made for the cores in use only: a 2-thread run on a 64-core model
         * should not pay for 62 idle cores' caches. */
        tags_init(&c->l1, &ms->cfg->l1, ms->line_size);
        if (ms->cfg->l2_enabled)
            tags_init(&c->l2, &ms->cfg->l2, ms->line_size);
    }
    c->thr[t].client = *client;
    c->thr[t].obj = core_obj;
    c->nthr = MAX(c->nthr, t + 1);
}

/* ======================================================================================
 * Functional access
 * ====================================================================================== */

uint64_t memsys_peek(const MemSys *ms, uint64_t addr, guint size)
{
    uint64_t line = line_of(ms, addr);
    const DirEntry *d = dir_find(ms, line);
    return d ? bytes_get(d->golden + (addr & (ms->line_size - 1)), size) : 0;
}

void memsys_poke(MemSys *ms, uint64_t addr, guint size, uint64_t value)
{
    uint64_t line = line_of(ms, addr);
    guint off = (guint)(addr & (ms->line_size - 1));
    DirEntry *d = dir_get(ms, line);
    bytes_put(d->golden + off, size, value);
    bytes_put(d->mem + off, size, value);
    for (guint i = 0; i < ms->ncores; i++) {
        PrivLine *pl = dir_holder(d, i);
        if (pl) {
            core_disturb(&ms->cores[i]);
            bytes_put(pl->data + off, size, value);
        }
    }
}

/* ======================================================================================
 * Statistics, introspection
 * ====================================================================================== */

const MemStats *memsys_stats(const MemSys *ms) { return &ms->stats; }

const CohProtocol *memsys_protocol(const MemSys *ms) { return ms->proto; }
const guint64 *memsys_cache_rows_fired(const MemSys *ms) { return ms->stats.cache_rows_fired; }
const guint64 *memsys_dir_rows_fired(const MemSys *ms) { return ms->stats.dir_rows_fired; }
