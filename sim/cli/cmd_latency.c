/* `qsim latency --config NAME`: prints the latency probe's table (sim/latency_probe.c). */
#include <stdio.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "sim/cli/commands.h"
#include "sim/base/config.h"
#include "sim/latency_probe.h"

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
                           "Measure, by simulation, the cycles of a load, a store and a CAS by core 0 to a line that\n"
        "another core holds in each coherence state, on the same socket and at each socket distance.",
                           entries))
        return QSIM_EXIT_USAGE;
    if (!config || argc != 1) {
        fprintf(stderr, "qsim latency: name a config, e.g. `qsim latency --config haswell`\n");
        return QSIM_EXIT_USAGE;
    }
    const char *fmt = format ? format : "text";
    if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "csv")) {
        fprintf(stderr, "qsim latency: --format is text, json or csv, not '%s'\n", fmt);
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    g_autoptr(QsimConfig) cfg = config_load(config, (const char *const *)sets, &error);
    if (!cfg)
        return cli_fail(error);
    GArray *rows = latency_measure(cfg, &error);
    if (!rows)
        return cli_fail(error);
    if (!strcmp(fmt, "json")) {
        g_autoptr(JsonBuilder) b = json_builder_new();
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "config");
        json_builder_add_string_value(b, cfg->name);
        json_builder_set_member_name(b, "rows");
        json_builder_begin_array(b);
        for (guint i = 0; i < rows->len; i++) {
            const LatencyRow *r = &g_array_index(rows, LatencyRow, i);
            json_builder_begin_object(b);
            json_builder_set_member_name(b, "op");
            json_builder_add_string_value(b, r->op);
            json_builder_set_member_name(b, "state");
            json_builder_add_string_value(b, r->state);
            json_builder_set_member_name(b, "distance");
            json_builder_add_string_value(b, r->distance);
            json_builder_set_member_name(b, "cycles");
            json_builder_add_int_value(b, (gint64)r->cycles);
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
        json_builder_end_object(b);
        g_autoptr(JsonGenerator) gen = json_generator_new();
        g_autoptr(JsonNode) root = json_builder_get_root(b);
        json_generator_set_root(gen, root);
        json_generator_set_pretty(gen, TRUE);
        g_autofree char *text = json_generator_to_data(gen, NULL);
        printf("%s\n", text);
    } else if (!strcmp(fmt, "csv")) {
        printf("op,state,distance,cycles\n");
        for (guint i = 0; i < rows->len; i++) {
            const LatencyRow *r = &g_array_index(rows, LatencyRow, i);
            printf("%s,%s,%s,%" G_GUINT64_FORMAT "\n", r->op, r->state, r->distance, r->cycles);
        }
    } else {
        /* one line per (op, state), one column per distance, in the order measured */
        GPtrArray *dists = g_ptr_array_new();
        for (guint i = 0; i < rows->len; i++) {
            const char *d = g_array_index(rows, LatencyRow, i).distance;
            gboolean seen = FALSE;
            for (guint j = 0; j < dists->len; j++)
                seen |= !strcmp(dists->pdata[j], d);
            if (!seen)
                g_ptr_array_add(dists, (gpointer)d);
        }
        printf("%s: cycles for core 0 to access a line another core holds (measured)\n", cfg->name);
        printf("%-6s %-5s", "op", "state");
        for (guint j = 0; j < dists->len; j++)
            printf(" %12s", (const char *)dists->pdata[j]);
        printf("\n");
        for (guint i = 0; i < rows->len;) {
            const LatencyRow *first = &g_array_index(rows, LatencyRow, i);
            printf("%-6s %-5s", first->op, first->state);
            for (guint j = 0; j < dists->len; j++) {
                const LatencyRow *r = i < rows->len ? &g_array_index(rows, LatencyRow, i) : NULL;
                if (r && r->op == first->op && r->state == first->state && !strcmp(r->distance, dists->pdata[j])) {
                    printf(" %12" G_GUINT64_FORMAT, r->cycles);
                    i++;
                } else {
                    printf(" %12s", "-");
                }
            }
            printf("\n");
        }
        g_ptr_array_free(dists, TRUE);
    }
    g_array_free(rows, TRUE);
    return QSIM_EXIT_OK;
}
