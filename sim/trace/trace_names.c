/* Names for addresses and lines in traces (see trace_names.h).  Every copy of every variable
 * is one entry, sorted by address; a line's name and variable list are built once. */
#include <stdlib.h>
#include <string.h>
#include "sim/trace/trace_names.h"
#include "cores/isa/isa_exec.h"

typedef struct {
    uint64_t addr, size;
    char *name;             /* "lock_word", "node[2]" */
} NamedRange;

typedef struct {
    uint64_t line;
    char *name;             /* first variable in it, with its offset when it starts before */
    char *vars;             /* every variable in it */
} NamedLine;

struct TraceNames {
    uint64_t line_mask;
    GArray *ranges;         /* NamedRange, by address */
    GArray *lines;          /* NamedLine, by address */
    GArray *line_addrs;     /* uint64_t, the same order */
    GHashTable *missing;    /* uint64 line -> char* address name, for lines no variable covers */
};

static int range_cmp(const void *a, const void *b)
{
    const NamedRange *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const NamedRange *range_at(const TraceNames *n, uint64_t addr)
{
    /* the last range starting at or before addr */
    guint lo = 0, hi = n->ranges->len;
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        if (g_array_index(n->ranges, NamedRange, mid).addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const NamedRange *r = &g_array_index(n->ranges, NamedRange, lo - 1);
    return addr < r->addr + MAX(r->size, 1) ? r : NULL;
}

char *trace_names_addr(const TraceNames *n, uint64_t addr)
{
    const NamedRange *r = range_at(n, addr);
    if (!r)
        return g_strdup_printf("0x%" G_GINT64_MODIFIER "x", addr);
    if (addr == r->addr)
        return g_strdup(r->name);
    return g_strdup_printf("%s+%" G_GUINT64_FORMAT, r->name, addr - r->addr);
}

uint64_t trace_names_line_of(const TraceNames *n, uint64_t addr) { return addr & n->line_mask; }

static const NamedLine *line_find(const TraceNames *n, uint64_t line)
{
    guint lo = 0, hi = n->lines->len;
    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        const NamedLine *l = &g_array_index(n->lines, NamedLine, mid);
        if (l->line == line)
            return l;
        if (l->line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *trace_names_line(const TraceNames *n, uint64_t line)
{
    const NamedLine *l = line_find(n, line);
    if (l)
        return l->name;
    char *s = g_hash_table_lookup(n->missing, &line);
    if (!s) {
        uint64_t *key = g_new(uint64_t, 1);
        *key = line;
        s = g_strdup_printf("0x%" G_GINT64_MODIFIER "x", line);
        g_hash_table_insert(n->missing, key, s);
    }
    return s;
}

const char *trace_names_line_vars(const TraceNames *n, uint64_t line)
{
    const NamedLine *l = line_find(n, line);
    return l ? l->vars : "";
}

const GArray *trace_names_lines(const TraceNames *n) { return n->line_addrs; }

gboolean trace_names_find(const TraceNames *n, const char *name, uint64_t *line)
{
    char *end = NULL;
    if (g_str_has_prefix(name, "0x")) {
        guint64 v = g_ascii_strtoull(name + 2, &end, 16);
        if (end && !*end && end != name + 2) {
            *line = v & n->line_mask;
            return TRUE;
        }
        return FALSE;
    }
    g_autofree char *base = g_strdup(name);
    uint64_t off = 0;
    char *plus = strchr(base, '+');
    if (plus) {
        *plus = '\0';
        off = g_ascii_strtoull(plus + 1, &end, 0);
        if (!end || *end || end == plus + 1)
            return FALSE;
    }
    for (guint i = 0; i < n->ranges->len; i++) {
        const NamedRange *r = &g_array_index(n->ranges, NamedRange, i);
        if (!strcmp(r->name, base) && off < MAX(r->size, 1)) {
            *line = (r->addr + off) & n->line_mask;
            return TRUE;
        }
    }
    return FALSE;
}

static void range_clear(gpointer p) { g_free(((NamedRange *)p)->name); }
static void line_clear(gpointer p)
{
    NamedLine *l = p;
    g_free(l->name);
    g_free(l->vars);
}

TraceNames *trace_names_new(const IsaProgram *p, const IsaLayout *l)
{
    TraceNames *n = g_new0(TraceNames, 1);
    n->line_mask = ~(uint64_t)(l->line_size - 1);
    n->ranges = g_array_new(FALSE, FALSE, sizeof(NamedRange));
    g_array_set_clear_func(n->ranges, range_clear);
    n->lines = g_array_new(FALSE, FALSE, sizeof(NamedLine));
    g_array_set_clear_func(n->lines, line_clear);
    n->line_addrs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    n->missing = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    for (guint s = 0; s < l->nsyms; s++) {
        const IsaSym *sym = p->syms->pdata[s];
        guint copies = sym->scope == SYM_PER_THREAD ? l->nthreads : 1;
        for (guint t = 0; t < copies; t++) {
            NamedRange r = { isa_sym_addr(l, s, t), sym->size,
                             sym->scope == SYM_PER_THREAD ? g_strdup_printf("%s[%u]", sym->name, t)
                                                          : g_strdup(sym->name) };
            g_array_append_val(n->ranges, r);
        }
    }
    /* Declaration order breaks ties between variables at one address (a zero-size one). */
    g_array_sort(n->ranges, range_cmp);
    for (guint i = 0; i < n->ranges->len; i++) {
        const NamedRange *r = &g_array_index(n->ranges, NamedRange, i);
        uint64_t last = (r->addr + MAX(r->size, 1) - 1) & n->line_mask;
        for (uint64_t line = r->addr & n->line_mask; line <= last; line += l->line_size) {
            NamedLine *nl = n->lines->len ? &g_array_index(n->lines, NamedLine, n->lines->len - 1) : NULL;
            if (!nl || nl->line != line) {
                /* Ranges come by start address, so lines come in order too, except that a long
                 * variable's later lines may come before a short one's: look back. */
                nl = (NamedLine *)line_find(n, line);
                if (!nl) {
                    NamedLine fresh = { line, NULL, NULL };
                    guint at = n->lines->len;
                    while (at > 0 && g_array_index(n->lines, NamedLine, at - 1).line > line)
                        at--;
                    g_array_insert_val(n->lines, at, fresh);
                    nl = &g_array_index(n->lines, NamedLine, at);
                }
            }
            g_autofree char *here = line > r->addr ? g_strdup_printf("%s+%" G_GUINT64_FORMAT, r->name, line - r->addr)
                                                   : g_strdup(r->name);
            if (!nl->name) {
                nl->name = g_strdup(here);
                nl->vars = g_strdup(here);
            } else {
                char *v = g_strdup_printf("%s, %s", nl->vars, here);
                g_free(nl->vars);
                nl->vars = v;
            }
        }
    }
    for (guint i = 0; i < n->lines->len; i++)
        g_array_append_val(n->line_addrs, g_array_index(n->lines, NamedLine, i).line);
    return n;
}

void trace_names_free(TraceNames *n)
{
    if (!n)
        return;
    g_array_free(n->ranges, TRUE);
    g_array_free(n->lines, TRUE);
    g_array_free(n->line_addrs, TRUE);
    g_hash_table_destroy(n->missing);
    g_free(n);
}
