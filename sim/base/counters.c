/* Walking counter registries (see counters.h). */
#include <string.h>
#include "sim/base/counters.h"
#include "sim/base/report.h"

static const guint64 *field(const CounterInfo *c, const void *stats)
{
    const char *at = (const char *)stats + c->offset;
    if (c->shape == COUNTER_VECTOR)
        return *(guint64 *const *)at;
    return (const guint64 *)at;
}

const CounterInfo *counters_find(const CounterRegistry *reg, const char *name)
{
    for (guint i = 0; i < reg->n; i++)
        if (!strcmp(reg->rows[i].name, name))
            return &reg->rows[i];
    return NULL;
}

guint64 counter_get(const CounterInfo *c, const void *stats)
{
    g_assert(c->shape == COUNTER_U64);
    return *field(c, stats);
}

gsize counter_len(const CounterInfo *c, const void *stats)
{
    switch (c->shape) {
    case COUNTER_U64: return 1;
    case COUNTER_ARRAY: return c->len;
    case COUNTER_VECTOR: return *(const gsize *)((const char *)stats + c->len_offset);
    }
    g_assert_not_reached();
}

guint64 counter_elem(const CounterInfo *c, const void *stats, gsize i)
{
    g_assert(i < counter_len(c, stats));
    return field(c, stats)[i];
}

guint64 counter_total(const CounterInfo *c, const void *stats)
{
    guint64 sum = 0;
    gsize n = counter_len(c, stats);
    for (gsize i = 0; i < n; i++)
        sum += counter_elem(c, stats, i);
    return sum;
}

gsize counter_bytes(const CounterInfo *c)
{
    switch (c->shape) {
    case COUNTER_U64: return sizeof(guint64);
    case COUNTER_ARRAY: return c->len * sizeof(guint64);
    case COUNTER_VECTOR: return sizeof(guint64 *) + sizeof(gsize);
    }
    g_assert_not_reached();
}

gsize counters_bytes(const CounterRegistry *reg)
{
    gsize n = 0;
    for (guint i = 0; i < reg->n; i++)
        n += counter_bytes(&reg->rows[i]);
    return n;
}

void counters_add(const CounterRegistry *reg, void *dst, const void *src)
{
    for (guint i = 0; i < reg->n; i++) {
        const CounterInfo *c = &reg->rows[i];
        gsize n = counter_len(c, src);
        g_assert(counter_len(c, dst) == n);
        guint64 *d = (guint64 *)field(c, dst);
        for (gsize k = 0; k < n; k++)
            d[k] += counter_elem(c, src, k);
    }
}

void counters_sub(const CounterRegistry *reg, void *dst, const void *src)
{
    for (guint i = 0; i < reg->n; i++) {
        const CounterInfo *c = &reg->rows[i];
        gsize n = counter_len(c, src);
        g_assert(counter_len(c, dst) == n);
        guint64 *d = (guint64 *)field(c, dst);
        for (gsize k = 0; k < n; k++) {
            g_assert(d[k] >= counter_elem(c, src, k));
            d[k] -= counter_elem(c, src, k);
        }
    }
}

gboolean counters_equal(const CounterRegistry *reg, const void *a, const void *b)
{
    for (guint i = 0; i < reg->n; i++) {
        const CounterInfo *c = &reg->rows[i];
        gsize n = counter_len(c, a);
        if (counter_len(c, b) != n)
            return FALSE;
        for (gsize k = 0; k < n; k++)
            if (counter_elem(c, a, k) != counter_elem(c, b, k))
                return FALSE;
    }
    return TRUE;
}

void counters_add_json(const CounterRegistry *reg, const void *stats, JsonBuilder *b)
{
    for (guint i = 0; i < reg->n; i++) {
        const CounterInfo *c = &reg->rows[i];
        if (c->shape != COUNTER_ARRAY) {
            report_add_int(b, c->name, (gint64)counter_total(c, stats));
            continue;
        }
        json_builder_set_member_name(b, c->name);
        json_builder_begin_object(b);
        for (guint k = 0; k < c->len; k++)
            report_add_int(b, c->elem_name(k), (gint64)counter_elem(c, stats, k));
        json_builder_end_object(b);
    }
}

char *counters_markdown(const CounterRegistry *reg)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "| counter (%s) | unit | meaning |\n|---|---|---|\n", reg->name);
    for (guint i = 0; i < reg->n; i++) {
        const CounterInfo *c = &reg->rows[i];
        g_string_append_printf(s, "| `%s`%s | %s | %s |\n", c->name,
                               c->shape == COUNTER_ARRAY ? ".*" : "", c->unit ? c->unit : "", c->doc);
    }
    return g_string_free(s, FALSE);
}
