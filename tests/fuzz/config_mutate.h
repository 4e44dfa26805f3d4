/* Structure-aware mutation of a config from the schema table (tests/fuzz/README.md): instead of
 * flipping bytes, which mostly breaks the YAML, it rewrites the values of real keys at their
 * boundaries and past them, a few keys at a time.  The input, loaded (or, when it does not
 * load, a small valid base), is printed in the canonical form `qsim config` writes, where
 * every key of the schema has one line; the mutation replaces the values of one to four keys'
 * lines with ones drawn for each key's type from the schema row: its minimum and maximum and
 * one past them, its default, zero, huge and negative numbers, fractions and units for sizes,
 * every choice and near misses for enums, quoted, tagged and null spellings of all of them,
 * control characters and long strings.  Keys that do not apply to the arch (printed as
 * comments) come back into play too.
 *
 * Header-only: the libFuzzer target's custom mutator (fuzz_config.c) and a Check test
 * (tests/test_config.c, which needs no clang) use it. */
#ifndef QSIM_FUZZ_CONFIG_MUTATE_H
#define QSIM_FUZZ_CONFIG_MUTATE_H

#include <string.h>
#include <glib.h>
#include "sim/base/config.h"

#define CONFIG_MUTATE_BASE "name: fuzz\narch: x86\ntopology:\n  sockets: 1\n  cores_per_socket: 2\n"

/* Spellings any value may take: the type's own are added by config_mutate_value. */
static const char *const config_mutate_any[] = {
    "", "~", "null", "!!null 5", "!!str 5", "!foo 1", "'1'", "\"\"", "[1, 2]", "{a: 1}", "&a 1", "\"\\e[31m\"",
    "\"\\0\"", "0x10", "010", "-1", "1e3", "1.5", "nan", ".inf", "true", "99999999999999999999999",
};

static const char *const config_mutate_size_units[] = { "B", "KiB", "MiB", "GiB", "KB", "MB", "GB", "K", "M", "G", " KiB" };

/* A value for `k`, drawn from `r`.  Caller frees. */
static char *config_mutate_value(const CfgKey *k, GRand *r)
{
    switch (g_rand_int_range(r, 0, 4)) {
    case 0:
        return g_strdup(config_mutate_any[g_rand_int_range(r, 0, G_N_ELEMENTS(config_mutate_any))]);
    case 1:
        if (k->def)
            return g_strdup(k->def);
        break;
    default:
        break;
    }
    double edges[] = { k->min, k->max, k->min - 1, k->max + 1, 0, k->max * 2, -k->max };
    double e = edges[g_rand_int_range(r, 0, G_N_ELEMENTS(edges))];
    switch (k->type) {
    case CFG_INT:
        return g_strdup_printf("%.0f", e);
    case CFG_SIZE: {
        const char *unit = config_mutate_size_units[g_rand_int_range(r, 0, G_N_ELEMENTS(config_mutate_size_units))];
        if (g_rand_boolean(r))
            return g_strdup_printf("%.0f", e);
        /* a fraction of a unit: exact or not */
        return g_strdup_printf("%u.%0*u%s", g_rand_int_range(r, 0, 1 << 20), g_rand_int_range(r, 1, 30),
                               g_rand_int_range(r, 0, 100000), unit);
    }
    case CFG_DOUBLE: {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        return g_strdup(g_ascii_dtostr(buf, sizeof buf, g_rand_boolean(r) ? e : e / 3));
    }
    case CFG_BOOL: {
        static const char *const b[] = { "true", "false", "yes", "no", "on", "off", "True", "FALSE", "1", "0",
                                         "\"false\"", "!!bool true", "y" };
        return g_strdup(b[g_rand_int_range(r, 0, G_N_ELEMENTS(b))]);
    }
    case CFG_ENUM: {
        guint n = 0;
        while (k->choices[n])
            n++;
        const char *c = k->choices[g_rand_int_range(r, 0, (gint32)n)];
        switch (g_rand_int_range(r, 0, 4)) {
        case 0:
            return g_strconcat(c, "x", NULL);
        case 1:
            return g_ascii_strup(c, -1);
        case 2:
            return g_strdup_printf("\"%s\"", c);
        default:
            return g_strdup(c);
        }
    }
    case CFG_STRING: {
        guint len = (guint)g_rand_int_range(r, 0, 300);
        GString *s = g_string_new("\"");
        for (guint i = 0; i < len; i++)
            g_string_append_c(s, (char)g_rand_int_range(r, 'a', 'z' + 1));
        g_string_append_c(s, '"');
        return g_string_free(s, FALSE);
    }
    }
    return g_strdup("0");
}

/* Replaces the value on `key`'s line of canonical `text` (a top-level key, or a section's
 * indented one; a commented-out one comes back), or adds the key at the end. */
static void config_mutate_set(GString *text, const CfgKey *k, const char *value)
{
    const char *dot = strchr(k->path, '.');
    g_autofree char *section = dot ? g_strndup(k->path, (gsize)(dot - k->path)) : NULL;
    const char *leaf = dot ? dot + 1 : k->path;
    gsize from = 0;
    if (section) {
        g_autofree char *head = g_strdup_printf("\n%s:\n", section);
        const char *at = strstr(text->str, head);
        if (!at) {
            g_string_append_printf(text, "%s:\n  %s: %s\n", section, leaf, value);
            return;
        }
        from = (gsize)(at - text->str) + strlen(head);
    }
    g_autofree char *want = g_strdup_printf("%s%s:", section ? "  " : "", leaf);
    g_autofree char *commented = g_strdup_printf("%s# %s:", section ? "  " : "", leaf);
    for (gsize line = from; line < text->len;) {
        const char *nl = strchr(text->str + line, '\n');
        gsize end = nl ? (gsize)(nl - text->str) : text->len;
        const char *l = text->str + line;
        if (section && end > line && l[0] != ' ')
            break; /* the section ended */
        if (g_str_has_prefix(l, want) || g_str_has_prefix(l, commented)) {
            g_autofree char *repl = g_strdup_printf("%s%s: %s", section ? "  " : "", leaf, value);
            g_string_erase(text, (gssize)line, (gssize)(end - line));
            g_string_insert(text, (gssize)line, repl);
            return;
        }
        line = end + 1;
    }
    if (section)
        g_string_append_printf(text, "%s:\n  %s: %s\n", section, leaf, value);
    else
        g_string_append_printf(text, "%s: %s\n", leaf, value);
}

/* The mutation of `text` for `seed`.  Caller frees. */
static char *config_mutate(const char *text, guint32 seed)
{
    g_autoptr(QsimConfig) c = config_load_string(text, "in.yaml", NULL, NULL);
    if (!c)
        c = config_load_string(CONFIG_MUTATE_BASE, "base.yaml", NULL, NULL);
    g_assert(c);
    g_autofree char *canonical = config_to_yaml(c);
    GString *out = g_string_new(canonical);
    GRand *r = g_rand_new_with_seed(seed);
    guint keys = (guint)g_rand_int_range(r, 1, 5);
    for (guint i = 0; i < keys; i++) {
        const CfgKey *k = &qsim_config_schema[g_rand_int_range(r, 0, (gint32)qsim_config_schema_len)];
        g_autofree char *v = config_mutate_value(k, r);
        config_mutate_set(out, k, v);
    }
    g_rand_free(r);
    return g_string_free(out, FALSE);
}

#endif
