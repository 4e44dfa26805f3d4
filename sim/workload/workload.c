/* What the workload schema drives (see workload.h): defaults, parsing and checking values,
 * the harness options, the echo in reports and the reference text. */
#include <string.h>
#include "sim/workload/workload.h"
#include "sim/base/echo.h"
#include "sim/base/whole_number.h"
#include "sim/base/report.h"

const WorkloadKey *workload_key_find(const char *name)
{
    for (guint i = 0; i < workload_schema_len; i++)
        if (!strcmp(workload_schema[i].name, name) || !strcmp(workload_schema[i].flag, name))
            return &workload_schema[i];
    return NULL;
}

const WorkloadKey *workload_axis_find(const char *axis)
{
    for (guint i = 0; i < workload_schema_len; i++)
        if (workload_schema[i].axis && !strcmp(workload_schema[i].axis, axis))
            return &workload_schema[i];
    return NULL;
}

const char *workload_key_default(const WorkloadKey *k, WorkloadCommand command)
{
    for (const WorkloadDefault *d = k->defaults; d && d->commands; d++)
        if (d->commands & command)
            return d->value;
    return k->def;
}

static void *field(const WorkloadKey *k, WorkloadOptions *w) { return (char *)w + k->offset; }
static const void *cfield(const WorkloadKey *k, const WorkloadOptions *w) { return (const char *)w + k->offset; }

static guint64 get_number(const WorkloadKey *k, const WorkloadOptions *w)
{
    switch (k->type) {
    case WL_UINT: return *(const guint *)cfield(k, w);
    case WL_UINT64: return *(const guint64 *)cfield(k, w);
    case WL_ENUM: return (guint64)*(const int *)cfield(k, w);
    case WL_PLACEMENT: break; /* not a number */
    }
    g_assert_not_reached();
}

static void set_number(const WorkloadKey *k, WorkloadOptions *w, guint64 v)
{
    switch (k->type) {
    case WL_UINT: *(guint *)field(k, w) = (guint)v; return;
    case WL_UINT64: *(guint64 *)field(k, w) = v; return;
    case WL_ENUM: *(int *)field(k, w) = (int)v; return;
    case WL_PLACEMENT: break;
    }
    g_assert_not_reached();
}

void workload_init(WorkloadOptions *w, WorkloadCommand command)
{
    memset(w, 0, sizeof *w);
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        const char *def = workload_key_default(k, command);
        if (!def)
            continue; /* not set: 0 */
        gboolean ok = workload_parse(k, def, k->name, w, NULL);
        g_assert(ok); /* the defaults are checked by the workload tests */
    }
}

static char *choices_text(const WorkloadKey *k)
{
    return g_strjoinv(", ", (char **)k->choices);
}

gboolean workload_parse(const WorkloadKey *k, const char *text, const char *who, WorkloadOptions *w,
                        GError **error)
{
    if (k->type == WL_PLACEMENT)
        return placement_parse(who, text, field(k, w), error);
    if (k->type == WL_ENUM) {
        for (guint i = 0; k->choices[i]; i++)
            if (!strcmp(k->choices[i], text)) {
                set_number(k, w, i);
                return TRUE;
            }
        g_autofree char *names = choices_text(k);
        g_autofree char *shown = echo_clip(text);
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s %s: one of %s", who, shown, names);
        return FALSE;
    }
    /* A whole number, read as every integer option is (strtoull would take a sign and spaces,
     * and wrap negatives around). */
    guint64 v;
    if (!whole_number_parse(who, text, k->min, k->max, &v, error))
        return FALSE;
    set_number(k, w, v);
    return TRUE;
}

char *workload_value_text(const WorkloadKey *k, const WorkloadOptions *w)
{
    if (k->type == WL_PLACEMENT)
        return placement_text(cfield(k, w));
    guint64 v = get_number(k, w);
    if (k->type == WL_ENUM)
        return g_strdup(k->choices[v]);
    return g_strdup_printf("%" G_GUINT64_FORMAT, v);
}

gboolean workload_validate(const WorkloadOptions *w, WorkloadCommand command, GError **error)
{
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        /* An enum or placement holds one of its values by construction (parsed, or set in code). */
        if (!(k->commands & command) || k->type == WL_ENUM || k->type == WL_PLACEMENT)
            continue;
        guint64 v = get_number(k, w);
        if (v == 0 && !workload_key_default(k, command))
            continue; /* not set */
        if (v < k->min || v > k->max) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "--%s %" G_GUINT64_FORMAT ": out of range [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "]",
                        k->flag, v, k->min, k->max);
            return FALSE;
        }
        /* A setting of fixed-time runs means nothing in a fixed-work run: say so. */
        if (k->mode == WL_FIXED_TIME && v && !workload_fixed_time(w)) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "--%s %" G_GUINT64_FORMAT ": only for a fixed-time run (give --duration too)", k->flag, v);
            return FALSE;
        }
    }
    if ((command & (WL_RUN | WL_VERIFY | WL_SWEEP)) && w->readers > w->threads) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--readers %u: more readers than threads (%u)", w->readers, w->threads);
        return FALSE;
    }
    return TRUE;
}

gboolean workload_fixed_time(const WorkloadOptions *w) { return w->duration || w->duration_ms; }

void workload_harness(const WorkloadOptions *w, HarnessOptions *h)
{
    harness_options_init(h);
    h->threads = w->threads;
    /* Fixed-time runs loop "forever"; the caller's time limit ends them. */
    h->iterations = workload_fixed_time(w) ? G_MAXINT32 : w->iterations;
    h->cs_writes = w->cs_writes;
    h->data = w->data;
    h->cs_work = w->cs_work;
    h->think = w->think;
    h->think_always = w->jitter > 0; /* jitter varies the think time even when there is none */
    h->readers = w->readers;
}

void workload_add_json(const WorkloadOptions *w, WorkloadCommand command, JsonBuilder *b)
{
    WorkloadMode skip = workload_fixed_time(w) ? WL_FIXED_WORK : WL_FIXED_TIME;
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (!(k->commands & command) || k->mode == skip)
            continue;
        if (k->type == WL_PLACEMENT) {
            g_autofree char *text = placement_text(cfield(k, w));
            report_add_string(b, k->name, text);
        } else if (k->type == WL_ENUM)
            report_add_string(b, k->name, k->choices[get_number(k, w)]);
        else
            report_add_int(b, k->name, (gint64)get_number(k, w));
    }
}

static const struct {
    WorkloadCommand bit;
    const char *name;
} command_names[] = {
    { WL_RUN, "run" }, { WL_NATIVE, "native" }, { WL_VERIFY, "verify" }, { WL_SWEEP, "sweep" },
};

char *workload_key_commands_text(const WorkloadKey *k)
{
    GString *s = g_string_new(NULL);
    for (guint c = 0; c < G_N_ELEMENTS(command_names); c++)
        if (k->commands & command_names[c].bit)
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", command_names[c].name);
    return g_string_free(s, FALSE);
}

char *workload_key_defaults_text(const WorkloadKey *k)
{
    GString *s = g_string_new(k->def ? k->def : "not set");
    for (const WorkloadDefault *d = k->defaults; d && d->commands; d++)
        for (guint c = 0; c < G_N_ELEMENTS(command_names); c++)
            if (d->commands & command_names[c].bit)
                g_string_append_printf(s, "; %s: %s (%s)", command_names[c].name, d->value, d->why);
    return g_string_free(s, FALSE);
}

char *workload_key_arg_text(const WorkloadKey *k)
{
    if (k->choices)
        return g_strjoinv("|", (char **)k->choices);
    return g_ascii_strup(k->unit ? k->unit : "n", -1);
}

char *workload_key_values_text(const WorkloadKey *k)
{
    if (k->choices)
        return g_strjoinv(", ", (char **)k->choices);
    return g_strdup_printf("%" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT "%s%s (%s)", k->min, k->max,
                           k->unit ? " " : "", k->unit ? k->unit : "", k->max_why);
}

char *workload_reference_markdown(void)
{
    GString *s = g_string_new("| option | sweep axis | commands | default | values | meaning |\n"
                              "| --- | --- | --- | --- | --- | --- |\n");
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        g_string_append_printf(s, "| `--%s`", k->flag);
        if (k->short_flag)
            g_string_append_printf(s, ", `-%c`", k->short_flag);
        g_string_append_printf(s, " | %s%s%s | ", k->axis ? "`" : "", k->axis ? k->axis : "", k->axis ? "`" : "");
        g_autofree char *commands = workload_key_commands_text(k);
        g_autofree char *defaults = workload_key_defaults_text(k);
        g_autofree char *values = workload_key_values_text(k);
        g_string_append_printf(s, "%s | %s | %s | %s. |\n", commands, defaults, values, k->help);
    }
    return g_string_free(s, FALSE);
}
