/* Per-variable counters (see run_vars.h). */
#include <string.h>
#include "sim/run/run_vars.h"
#include "cores/core.h"
#include "cores/isa/isa_exec.h"

#define V(f, unit, doc) COUNTER_ROW(VarStats, f, unit, doc)
static const CounterInfo var_stats_rows[] = {
    V(messages, "messages", "coherence messages about its lines"),
    V(invalidations, "copies", "copies of its lines invalidated"),
    V(rfo, "requests", "requests for ownership of its lines (GetM, Upgrade)"),
    V(c2c_transfers, "transfers", "cache-to-cache transfers of its lines"),
    V(l1_misses, "accesses", "accesses to its lines that missed in their L1 (or needed an upgrade)"),
    V(machine_clears, "events", "memory-ordering machine clears its lines caused (a load that read one lost it)"),
};
#undef V
const CounterRegistry var_stats_registry = {
    "VarStats", var_stats_rows, G_N_ELEMENTS(var_stats_rows), sizeof(VarStats),
};

typedef struct {
    char *name;              /* the variables on these lines, "+"-joined, in declaration order */
    GArray *lines;           /* uint64_t line addresses */
    gboolean lock;           /* holds a variable the lock declares */
    VarStats warm;           /* at the snapshot */
} VarGroup;

struct RunVars {
    GPtrArray *groups;       /* VarGroup*, by their first line */
    uint32_t line_size;
    gboolean snapped;
};

static void group_free(gpointer p)
{
    VarGroup *g = p;
    g_free(g->name);
    g_array_unref(g->lines);
    g_free(g);
}

static gint cmp_u64(gconstpointer a, gconstpointer b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

RunVars *run_vars_new(const IsaProgram *p, const IsaLayout *l, gboolean (*is_harness)(const char *name))
{
    RunVars *v = g_new0(RunVars, 1);
    v->groups = g_ptr_array_new_with_free_func(group_free);
    v->line_size = l->line_size;
    /* line -> the variables on it (names in declaration order), and whether one is the lock's */
    g_autoptr(GHashTable) names = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                                        (GDestroyNotify)g_ptr_array_unref);
    g_autoptr(GArray) all = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (guint s = 0; s < p->syms->len; s++) {
        const IsaSym *sym = p->syms->pdata[s];
        guint copies = sym->scope == SYM_PER_THREAD ? l->nthreads : 1;
        for (guint t = 0; t < copies; t++) {
            uint64_t a = isa_sym_addr(l, s, t), end = a + MAX(sym->size, 1u);
            for (uint64_t line = a & ~(uint64_t)(l->line_size - 1); line < end; line += l->line_size) {
                GPtrArray *on = g_hash_table_lookup(names, &line);
                if (!on) {
                    uint64_t *key = g_new(uint64_t, 1);
                    *key = line;
                    on = g_ptr_array_new();
                    g_hash_table_insert(names, key, on);
                    g_array_append_val(all, line);
                }
                if (!g_ptr_array_find(on, sym, NULL))
                    g_ptr_array_add(on, (gpointer)sym);
            }
        }
    }
    g_array_sort(all, cmp_u64);
    g_autoptr(GHashTable) by_name = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint i = 0; i < all->len; i++) {
        uint64_t line = g_array_index(all, uint64_t, i);
        GPtrArray *on = g_hash_table_lookup(names, &line);
        GString *name = g_string_new(NULL);
        gboolean lock = FALSE;
        for (guint k = 0; k < on->len; k++) {
            const IsaSym *sym = on->pdata[k];
            g_string_append_printf(name, "%s%s", k ? "+" : "", sym->name);
            lock |= !is_harness(sym->name);
        }
        VarGroup *g = g_hash_table_lookup(by_name, name->str);
        if (!g) {
            g = g_new0(VarGroup, 1);
            g->name = g_strdup(name->str);
            g->lines = g_array_new(FALSE, FALSE, sizeof(uint64_t));
            g->lock = lock;
            g_ptr_array_add(v->groups, g);
            g_hash_table_insert(by_name, g->name, g);
        }
        g_array_append_val(g->lines, line);
        g_string_free(name, TRUE);
    }
    return v;
}

void run_vars_free(RunVars *v)
{
    if (!v)
        return;
    g_ptr_array_unref(v->groups);
    g_free(v);
}

/* The group's counters now, from the memory system's per-line counters and the cores' clears. */
static void group_now(const VarGroup *g, const MemSys *ms, const Machine *m, VarStats *out)
{
    memset(out, 0, sizeof *out);
    for (guint i = 0; i < g->lines->len; i++) {
        uint64_t line = g_array_index(g->lines, uint64_t, i);
        LineStats ls = memsys_line_stats(ms, line);
        out->messages += ls.msgs;
        out->invalidations += ls.invalidations;
        out->rfo += ls.rfos;
        out->c2c_transfers += ls.c2c_transfers;
        out->l1_misses += ls.l1_misses;
        for (guint c = 0; c < machine_ncores(m); c++)
            out->machine_clears += core_line_clears(machine_core(m, c), line);
    }
}

void run_vars_snapshot(RunVars *v, const MemSys *ms, const Machine *m)
{
    for (guint i = 0; i < v->groups->len; i++) {
        VarGroup *g = v->groups->pdata[i];
        group_now(g, ms, m, &g->warm);
    }
    v->snapped = TRUE;
}

JsonObject *run_vars_report(const RunVars *v, const MemSys *ms, const Machine *m, VarStats *lock_lines,
                            char **lock_names)
{
    JsonObject *o = json_object_new();
    memset(lock_lines, 0, sizeof *lock_lines);
    GString *locks = g_string_new(NULL);
    for (guint i = 0; i < v->groups->len; i++) {
        const VarGroup *g = v->groups->pdata[i];
        VarStats now;
        group_now(g, ms, m, &now);
        if (v->snapped)
            counters_sub(&var_stats_registry, &now, &g->warm);
        JsonObject *go = json_object_new();
        json_object_set_int_member(go, "lines", g->lines->len);
        for (guint k = 0; k < var_stats_registry.n; k++) {
            const CounterInfo *c = &var_stats_registry.rows[k];
            json_object_set_int_member(go, c->name, (gint64)counter_total(c, &now));
        }
        json_object_set_object_member(o, g->name, go);
        if (g->lock) {
            counters_add(&var_stats_registry, lock_lines, &now);
            g_string_append_printf(locks, "%s%s", locks->len ? " " : "", g->name);
        }
    }
    *lock_names = g_string_free(locks, FALSE);
    return o;
}
