/* Printing machine configs: the effective config as loadable YAML (`qsim config`), and the
 * reference of every key (`qsim config --reference`), both from the schema table. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim/base/config.h"

static const void *cfield(const QsimConfig *c, const CfgKey *k) { return (const char *)c + k->offset; }

/* ---- printing ---- */

static char *format_size(gint64 v)
{
    static const struct { const char *unit; gint64 mult; } units[] = {
        { "GiB", 1073741824LL }, { "MiB", 1048576LL }, { "KiB", 1024LL },
    };
    for (guint i = 0; i < G_N_ELEMENTS(units); i++) {
        if (v >= units[i].mult && (v * 4) % units[i].mult == 0) {
            char buf[G_ASCII_DTOSTR_BUF_SIZE];
            g_ascii_formatd(buf, sizeof buf, "%.10g", (double)v / (double)units[i].mult);
            return g_strconcat(buf, units[i].unit, NULL);
        }
    }
    return g_strdup_printf("%" G_GINT64_FORMAT, v);
}

/* The fewest significant digits that read back as the same double (2.3, not 2.2999999999999998). */
static char *format_double(double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    for (int digits = 1; digits < 17; digits++) {
        char fmt[8];
        g_snprintf(fmt, sizeof fmt, "%%.%dg", digits);
        g_ascii_formatd(buf, sizeof buf, fmt, v);
        if (g_ascii_strtod(buf, NULL) == v)
            return g_strdup(buf);
    }
    return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.17g", v));
}

/* `s` as a YAML double-quoted scalar that reads back as exactly `s`: quotes and backslashes
 * escaped, and every character YAML would not keep as written (control characters, and the
 * line breaks NEL, LS and PS, which it folds) as an escape. */
static char *yaml_quoted(const char *s)
{
    GString *out = g_string_new("\"");
    for (const char *p = s; *p; p++) {
        guchar ch = (guchar)*p;
        if (ch == '"' || ch == '\\') {
            g_string_append_c(out, '\\');
            g_string_append_c(out, (char)ch);
        } else if (ch == '\n') {
            g_string_append(out, "\\n");
        } else if (ch < 0x20 || ch == 0x7f) {
            g_string_append_printf(out, "\\x%02x", ch);
        } else if (ch == 0xc2 && (guchar)p[1] == 0x85) {
            g_string_append(out, "\\N");   /* NEL */
            p++;
        } else if (ch == 0xe2 && (guchar)p[1] == 0x80 && ((guchar)p[2] == 0xa8 || (guchar)p[2] == 0xa9)) {
            g_string_append(out, (guchar)p[2] == 0xa8 ? "\\L" : "\\P");   /* LS, PS */
            p += 2;
        } else {
            g_string_append_c(out, (char)ch);
        }
    }
    g_string_append_c(out, '"');
    return g_string_free(out, FALSE);
}

static char *format_value(const QsimConfig *c, const CfgKey *k)
{
    const void *f = cfield(c, k);
    switch (k->type) {
    case CFG_INT:
        return g_strdup_printf("%" G_GINT64_FORMAT, *(const gint64 *)f);
    case CFG_SIZE:
        return format_size(*(const gint64 *)f);
    case CFG_DOUBLE:
        return format_double(*(const double *)f);
    case CFG_BOOL:
        return g_strdup(*(const gboolean *)f ? "true" : "false");
    case CFG_ENUM:
        return g_strdup(k->choices[*(const int *)f]);
    case CFG_STRING: {
        const char *s = *(char *const *)f;
        return yaml_quoted(s ? s : "");
    }
    }
    g_assert_not_reached();
}

char *config_key_archs_text(const CfgKey *k, const char *only)
{
    if (!k->archs)
        return g_strdup("every arch");
    GString *s = g_string_new(NULL);
    for (guint a = 0; a < ARCH__N; a++)
        if (k->archs & CFG_ARCH(a))
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", arch_name((Arch)a));
    g_string_append_printf(s, " %s", only);
    return g_string_free(s, FALSE);
}

char *config_to_yaml(const QsimConfig *c)
{
    GString *out = g_string_new("# qsim effective config: every key, defaults filled in.\n");
    char section[64] = "";
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const CfgKey *k = &qsim_config_schema[i];
        const char *dot = strchr(k->path, '.');
        const char *leaf = k->path;
        const char *indent = "";
        if (dot) {
            gsize n = MIN((gsize)(dot - k->path), sizeof section - 1);
            if (strncmp(section, k->path, n) || section[n]) {
                memcpy(section, k->path, n);
                section[n] = 0;
                g_string_append_printf(out, "%s:\n", section);
            }
            leaf = dot + 1;
            indent = "  ";
        } else {
            section[0] = 0;
        }
        g_autofree char *v = format_value(c, k);
        if (config_key_applies(k, c->arch)) {
            g_string_append_printf(out, "%s%s: %s\n", indent, leaf, v);
        } else {
            g_autofree char *why = config_key_archs_text(k, "only: ignored on this arch");
            g_string_append_printf(out, "%s# %s: %s    (%s)\n", indent, leaf, v, why);
        }
    }
    return g_string_free(out, FALSE);
}

const char *config_key_type_name(const CfgKey *k)
{
    switch (k->type) {
    case CFG_INT: return "integer";
    case CFG_SIZE: return "size";
    case CFG_DOUBLE: return "number";
    case CFG_BOOL: return "boolean";
    case CFG_ENUM: return "choice";
    case CFG_STRING: return "string";
    }
    return "?";
}

char *config_key_range(const CfgKey *k)
{
    if (k->type == CFG_ENUM)
        return g_strjoinv(", ", (char **)k->choices);
    if (k->type == CFG_INT || k->type == CFG_SIZE)
        return g_strdup_printf("%.0f to %.0f%s%s", k->min, k->max, k->unit ? " " : "", k->unit ? k->unit : "");
    if (k->type == CFG_DOUBLE)
        return g_strdup_printf("%g to %g%s%s", k->min, k->max, k->unit ? " " : "", k->unit ? k->unit : "");
    return g_strdup("");
}

char *config_reference_markdown(void)
{
    GString *out = g_string_new(
        "# Config reference\n\n"
        "Generated by `qsim config --reference` from the schema table in `sim/base/config_schema.c`;\n"
        "a test keeps this file and the table in step. Sizes take units (`32KiB`, `2.5MiB`,\n"
        "`30MB`); latencies are core cycles. Any key can be overridden on the command line with\n"
        "`--set key.path=value`. A key that applies to one arch only is ignored on the other's\n"
        "machines, and `qsim config` prints it there as a comment.\n\n"
        "| key | type | default | range or values | applies to | meaning |\n"
        "| --- | --- | --- | --- | --- | --- |\n");
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const CfgKey *k = &qsim_config_schema[i];
        g_autofree char *range = config_key_range(k);
        g_autofree char *archs = config_key_archs_text(k, "only");
        g_string_append_printf(out, "| `%s` | %s | %s | %s | %s | %s |\n", k->path, config_key_type_name(k),
                               k->def ? k->def : "(required)", range, archs, k->doc);
    }
    return g_string_free(out, FALSE);
}
