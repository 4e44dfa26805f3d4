/* `qsim latency --config NAME`: prints the latency probe's table (sim/validation/latency_probe.c): every
 * op against every state at every distance the config has, the local rows, and why the rows
 * that are missing are missing. */
#include <stdio.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "sim/cli/commands.h"
#include "sim/base/config.h"
#include "sim/base/report.h"
#include "sim/validation/latency_probe.h"

static JsonNode *latency_json(const QsimConfig *cfg, const LatencyTable *t)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    report_add_string(b, "config", cfg->name);
    report_add_string(b, "protocol", config_schema_find("protocol")->choices[cfg->protocol]);
    report_add_double(b, "frequency_ghz", cfg->frequency_ghz);
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    for (guint i = 0; i < t->rows->len; i++) {
        const LatencyRow *r = &g_array_index(t->rows, LatencyRow, i);
        json_builder_begin_object(b);
        report_add_string(b, "op", r->op);
        report_add_string(b, "state", r->state);
        report_add_string(b, "distance", r->distance);
        report_add_int(b, "cycles", (gint64)r->cycles);
        report_add_double(b, "ns", (double)r->cycles / cfg->frequency_ghz);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "absent");
    json_builder_begin_array(b);
    for (guint i = 0; i < t->absent->len; i++) {
        const LatencyAbsent *a = &g_array_index(t->absent, LatencyAbsent, i);
        json_builder_begin_object(b);
        report_add_string(b, "state", a->state);
        report_add_string(b, "distance", a->distance);
        report_add_string(b, "why", a->why);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}

static char *latency_csv(const LatencyTable *t)
{
    GString *s = g_string_new("op,state,distance,cycles\n");
    for (guint i = 0; i < t->rows->len; i++) {
        const LatencyRow *r = &g_array_index(t->rows, LatencyRow, i);
        report_csv_field(s, r->op);
        g_string_append_c(s, ',');
        report_csv_field(s, r->state);
        g_string_append_c(s, ',');
        report_csv_field(s, r->distance);
        g_string_append_printf(s, ",%" G_GUINT64_FORMAT "\n", r->cycles);
    }
    return g_string_free(s, FALSE);
}

/* Appends `d` to `list` unless it is there. */
static void add_unique(GPtrArray *list, const char *d)
{
    for (guint j = 0; j < list->len; j++)
        if (!strcmp(list->pdata[j], d))
            return;
    g_ptr_array_add(list, (gpointer)d);
}

/* One line per (op, state), one column per distance, in the order measured. */
static char *latency_text(const QsimConfig *cfg, const LatencyTable *t)
{
    GString *s = g_string_new(NULL);
    g_autoptr(GPtrArray) dists = g_ptr_array_new();
    for (guint i = 0; i < t->rows->len; i++) {
        const LatencyRow *r = &g_array_index(t->rows, LatencyRow, i);
        if (strcmp(r->distance, "same-core"))
            add_unique(dists, r->distance);
    }
    g_string_append_printf(s, "%s: cycles for core 0 to access a line another core holds in a state, by distance\n"
                              "(measured at the port: a LOCK'd op's own latency on the core comes on top)\n",
                           cfg->name);
    g_string_append_printf(s, "%-6s %-8s", "op", "state");
    for (guint j = 0; j < dists->len; j++)
        g_string_append_printf(s, " %12s", (const char *)dists->pdata[j]);
    g_string_append_c(s, '\n');
    const char *op = NULL, *state = NULL;
    guint col = 0;
    for (guint i = 0; i < t->rows->len; i++) {
        const LatencyRow *r = &g_array_index(t->rows, LatencyRow, i);
        if (!op || strcmp(op, r->op) || strcmp(state, r->state)) {
            if (op) {
                for (; col < dists->len; col++)
                    g_string_append_printf(s, " %12s", "-");
                g_string_append_c(s, '\n');
            }
            op = r->op;
            state = r->state;
            col = 0;
            g_string_append_printf(s, "%-6s %-8s", op, state);
        }
        if (!strcmp(r->distance, "same-core")) {
            g_string_append_printf(s, " %12" G_GUINT64_FORMAT, r->cycles);
            col = dists->len;
            continue;
        }
        while (col < dists->len && strcmp(dists->pdata[col], r->distance)) {
            g_string_append_printf(s, " %12s", "-");
            col++;
        }
        g_string_append_printf(s, " %12" G_GUINT64_FORMAT, r->cycles);
        col++;
    }
    if (op) {
        for (; col < dists->len; col++)
            g_string_append_printf(s, " %12s", "-");
        g_string_append_c(s, '\n');
    }
    g_string_append(s, "(local rows: l1-hit, l2-hit and llc-hit by core 0 alone; memory by the home's distance)\n");
    for (guint i = 0; i < t->absent->len; i++) {
        const LatencyAbsent *a = &g_array_index(t->absent, LatencyAbsent, i);
        g_string_append_printf(s, "no %s row at %s: %s\n", a->state, a->distance, a->why);
    }
    return g_string_free(s, FALSE);
}

int cmd_latency(int argc, char **argv)
{
    g_auto(GStrv) sets = NULL;
    g_autofree char *config = NULL, *format = NULL;
    GOptionEntry entries[] = {
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "Machine config (name or path)", "NAME" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output: text (default), json or csv", "FMT" },
        { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Override a config value (repeatable)", "KEY=VALUE" },
        { NULL },
    };
    if (!cli_parse_command(&argc, &argv, "",
                           "Measure, by simulation, the cycles of a load, store, CAS, fetch-and-add and swap by core 0\n"
        "to a line that another core holds in each coherence state (M, O, E, S, F, I as the protocol\n"
        "has them), on the same die and at each socket distance, and the local L1/L2/LLC/memory\n"
        "latencies.  Rows a machine cannot have are listed with the reason.",
                           entries, NULL))
        return QSIM_EXIT_USAGE;
    if (!config || argc != 1) {
        cli_eprintf("qsim latency: name a config, e.g. `qsim latency --config haswell`\n");
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    ReportFormat fmt = REPORT_TEXT;
    if (format && !report_format_parse(format, &fmt, &error))
        return cli_fail(error);
    g_autoptr(QsimConfig) cfg = config_load(config, (const char *const *)sets, &error);
    if (!cfg)
        return cli_fail(error);
    g_autoptr(LatencyTable) t = latency_measure(cfg, &error);
    if (!t)
        return cli_fail(error);
    g_autofree char *out = NULL;
    if (fmt == REPORT_JSON) {
        g_autoptr(JsonNode) root = latency_json(cfg, t);
        out = report_to_json(root);
    } else if (fmt == REPORT_CSV) {
        out = latency_csv(t);
    } else {
        out = latency_text(cfg, t);
    }
    fputs(out, stdout);
    return QSIM_EXIT_OK;
}
