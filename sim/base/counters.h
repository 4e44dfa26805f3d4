/* Counter registries: a statistics struct described by a const table of rows, one per field,
 * so that reports, sums and docs walk the table and never hand-list fields (STYLE.md,
 * "Statistics").  Models only count into their struct; everything that reads the counters by
 * name goes through its registry.
 *
 * A row describes one field of the struct, of one of three shapes:
 *   COUNTER_U64     a guint64;
 *   COUNTER_ARRAY   a guint64[len] inside the struct, element i named by elem_name(i)
 *                   (messages by type);
 *   COUNTER_VECTOR  a guint64 * to a run-sized array whose length is a gsize field of the same
 *                   struct at len_offset (per core, per protocol-table row).
 * Invariant checked by the tests of each registry: the rows cover every byte of the struct
 * exactly once (counters_bytes(reg) == reg->struct_size, no two rows overlap), so a field added
 * to the struct without a row fails a test instead of silently missing from reports. */
#ifndef QSIM_COUNTERS_H
#define QSIM_COUNTERS_H

#include <stddef.h>
#include <glib.h>
#include <json-glib/json-glib.h>

typedef enum { COUNTER_U64, COUNTER_ARRAY, COUNTER_VECTOR } CounterShape;

typedef struct {
    const char *name;                  /* report key: lower_snake_case */
    CounterShape shape;
    gsize offset;                      /* of the field in the struct */
    const char *unit;                  /* "cycles", "events", "ops", "lines", ... */
    const char *doc;                   /* what is counted, one line */
    guint len;                         /* COUNTER_ARRAY: elements */
    const char *(*elem_name)(guint i); /* COUNTER_ARRAY: report key of element i */
    gsize len_offset;                  /* COUNTER_VECTOR: offset of the gsize length field */
} CounterInfo;

typedef struct {
    const char *name;                  /* the struct's name, for docs and errors: "MemStats" */
    const CounterInfo *rows;
    guint n;
    gsize struct_size;                 /* sizeof the struct the rows describe */
} CounterRegistry;

/* Row constructors, for the registry tables (`T` is the struct type). */
#define COUNTER_ROW(T, field, unit, doc) \
    { #field, COUNTER_U64, offsetof(T, field), unit, doc, 0, NULL, 0 }
#define COUNTER_ARRAY_ROW(T, field, names, unit, doc) \
    { #field, COUNTER_ARRAY, offsetof(T, field), unit, doc, G_N_ELEMENTS(((T *)0)->field), names, 0 }
#define COUNTER_VECTOR_ROW(T, field, len_field, unit, doc) \
    { #field, COUNTER_VECTOR, offsetof(T, field), unit, doc, 0, NULL, offsetof(T, len_field) }

/* The row named `name`, or NULL. */
const CounterInfo *counters_find(const CounterRegistry *reg, const char *name);
/* A U64 counter's value (asserts the shape). */
guint64 counter_get(const CounterInfo *c, const void *stats);
/* Element count of an ARRAY or VECTOR row (1 for U64). */
gsize counter_len(const CounterInfo *c, const void *stats);
/* Element i of any row (i < counter_len). */
guint64 counter_elem(const CounterInfo *c, const void *stats, gsize i);
/* A U64's value, or the sum of an ARRAY's or VECTOR's elements. */
guint64 counter_total(const CounterInfo *c, const void *stats);
/* Bytes of the struct the row owns (with a VECTOR's length field). */
gsize counter_bytes(const CounterInfo *c);
/* Sum of counter_bytes over the rows: equals struct_size when every field is registered. */
gsize counters_bytes(const CounterRegistry *reg);

/* dst += src for every U64 and ARRAY row (VECTOR rows: element-wise, lengths must match). */
void counters_add(const CounterRegistry *reg, void *dst, const void *src);
/* dst -= src, as above: what was counted between a snapshot (src) and now (dst). */
void counters_sub(const CounterRegistry *reg, void *dst, const void *src);
gboolean counters_equal(const CounterRegistry *reg, const void *a, const void *b);

/* Adds one member per row to the open JSON object of `b`, in table order: a U64 as an integer,
 * an ARRAY as an object of its named elements, a VECTOR as its total (its doc says so). */
void counters_add_json(const CounterRegistry *reg, const void *stats, JsonBuilder *b);
/* The registry as a Markdown table (name, unit, meaning), for docs. */
char *counters_markdown(const CounterRegistry *reg);

#endif
