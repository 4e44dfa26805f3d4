/* The per-instruction profile's report (see run_profile.h): per-pc rows folded into source
 * lines.  Only sums here: every count was made by the model where its event happened. */
#include <string.h>
#include "sim/report/run_profile.h"
#include "sim/base/report.h"

/* One source line: where it is and the sum of its ops' rows. */
typedef struct {
    guint file, line;
    ProfileRow sum;
} ProfileLine;

static gint line_order(gconstpointer a, gconstpointer b)
{
    const ProfileLine *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Line `line` (1-based) of `text`, trimmed; "" past its end. */
static char *source_line(const char *text, guint line)
{
    if (!text)
        return g_strdup("");
    const char *p = text;
    for (guint k = 1; k < line && p; k++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return g_strdup("");
    const char *end = strchr(p, '\n');
    char *s = end ? g_strndup(p, (gsize)(end - p)) : g_strdup(p);
    return g_strstrip(s);
}

JsonNode *run_profile_build(const IsaProgram *prog, const char *const *texts, const ProfileRow *rows)
{
    /* (file, line) -> index in lines; ops of one line may be far apart (an `.if` arm) */
    g_autoptr(GArray) lines = g_array_new(FALSE, TRUE, sizeof(ProfileLine));
    g_autoptr(GHashTable) at = g_hash_table_new(g_int64_hash, g_int64_equal);
    g_autoptr(GArray) keys = g_array_sized_new(FALSE, FALSE, sizeof(gint64), prog->insns->len);
    for (guint pc = 0; pc < prog->insns->len; pc++) {
        const IsaInsn *in = &g_array_index(prog->insns, IsaInsn, pc);
        gint64 key = ((gint64)in->file << 32) | in->line;
        g_array_append_val(keys, key); /* the table keeps pointers into keys: sized up front */
        gpointer idx;
        if (!g_hash_table_lookup_extended(at, &g_array_index(keys, gint64, pc), NULL, &idx)) {
            ProfileLine l = { in->file, in->line, { 0 } };
            g_array_append_val(lines, l);
            idx = GUINT_TO_POINTER(lines->len - 1);
            g_hash_table_insert(at, &g_array_index(keys, gint64, pc), idx);
        }
        counters_add(&profile_row_registry, &g_array_index(lines, ProfileLine, GPOINTER_TO_UINT(idx)).sum, &rows[pc]);
    }
    g_array_sort(lines, line_order);
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_array(b);
    for (guint i = 0; i < lines->len; i++) {
        const ProfileLine *l = &g_array_index(lines, ProfileLine, i);
        const char *file = prog->files && l->file < prog->files->len ? prog->files->pdata[l->file] : prog->filename;
        g_autofree char *src = source_line(texts ? texts[l->file] : NULL, l->line);
        json_builder_begin_object(b);
        report_add_string(b, "file", file ? file : "?");
        report_add_int(b, "line", l->line);
        report_add_string(b, "source", src);
        counters_add_json(&profile_row_registry, &l->sum, b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    return json_builder_get_root(b);
}

/* ---- the table ---- */

/* The column heads, in profile_row_registry's order (short, so the table stays narrow). */
static const char *const column_head[] = {
    "execs", "head_cyc", "clears", "sib_clr", "misses", "rfos", "fail_cas", "pause_cyc",
};
G_STATIC_ASSERT(G_N_ELEMENTS(column_head) * sizeof(guint64) == sizeof(ProfileRow));
/* A column only SMT runs can fill: the table shows it when its total is not 0. */
static gboolean column_optional(guint k) { return !strcmp(column_head[k], "sib_clr"); }

char *run_profile_text(JsonArray *profile)
{
    const CounterRegistry *reg = &profile_row_registry;
    guint n = json_array_get_length(profile);
    /* widths: the place column and every counter's, from what is printed */
    guint place_w = 5;
    guint w[G_N_ELEMENTS(column_head)];
    guint64 total[G_N_ELEMENTS(column_head)] = { 0 };
    for (guint k = 0; k < reg->n; k++)
        w[k] = (guint)strlen(column_head[k]);
    g_autoptr(GPtrArray) shown = g_ptr_array_new();
    for (guint i = 0; i < n; i++) {
        JsonObject *o = json_array_get_object_element(profile, i);
        gboolean any = FALSE;
        for (guint k = 0; k < reg->n; k++) {
            guint64 v = (guint64)json_object_get_int_member(o, reg->rows[k].name);
            total[k] += v;
            any |= v != 0;
        }
        if (!any)
            continue;
        g_ptr_array_add(shown, o);
        g_autofree char *place = g_strdup_printf("%s:%" G_GINT64_FORMAT, json_object_get_string_member(o, "file"),
                                                 json_object_get_int_member(o, "line"));
        place_w = MAX(place_w, (guint)strlen(place));
    }
    for (guint k = 0; k < reg->n; k++) {
        g_autofree char *t = g_strdup_printf("%" G_GUINT64_FORMAT, total[k]);
        w[k] = MAX(w[k], (guint)strlen(t));
    }
    gboolean shown_col[G_N_ELEMENTS(column_head)];
    for (guint k = 0; k < reg->n; k++)
        shown_col[k] = !column_optional(k) || total[k] != 0;
    GString *s = g_string_new("profile (per source line, summed over the cores; lines with no count left out):\n");
    g_string_append_printf(s, "  %-*s", (int)place_w, "line");
    for (guint k = 0; k < reg->n; k++)
        if (shown_col[k])
            g_string_append_printf(s, " %*s", (int)w[k], column_head[k]);
    g_string_append(s, "  source\n");
    for (guint i = 0; i < shown->len; i++) {
        JsonObject *o = shown->pdata[i];
        g_autofree char *place = g_strdup_printf("%s:%" G_GINT64_FORMAT, json_object_get_string_member(o, "file"),
                                                 json_object_get_int_member(o, "line"));
        g_string_append_printf(s, "  %-*s", (int)place_w, place);
        for (guint k = 0; k < reg->n; k++)
            if (shown_col[k])
                g_string_append_printf(s, " %*" G_GINT64_FORMAT, (int)w[k],
                                       json_object_get_int_member(o, reg->rows[k].name));
        g_string_append_printf(s, "  %s\n", json_object_get_string_member(o, "source"));
    }
    g_string_append_printf(s, "  %-*s", (int)place_w, "total");
    for (guint k = 0; k < reg->n; k++)
        if (shown_col[k])
            g_string_append_printf(s, " %*" G_GUINT64_FORMAT, (int)w[k], total[k]);
    g_string_append(s, "\n  execs: instructions retired; head_cyc: cycles it was its core's oldest op in flight; "
                       "clears: memory-ordering\n  machine clears squashing from it; misses, rfos: L1 misses and "
                       "requests for ownership of its\n  accesses; fail_cas: failed CAS and store-exclusives; "
                       "pause_cyc: PAUSE/YIELD and WFE cycles it started\n");
    for (guint k = 0; k < reg->n; k++)
        if (column_optional(k) && shown_col[k])
            g_string_append(s, "  sib_clr: of the clears, those the sibling hardware thread's stores caused (SMT)\n");
    return g_string_free(s, FALSE);
}

char *run_profile_variables_text(JsonObject *variables)
{
    g_autoptr(GList) names = json_object_get_members(variables);
    if (!names)
        return NULL;
    /* the columns: the first variable's members, in report order (every variable has the same) */
    JsonObject *first = json_object_get_object_member(variables, names->data);
    g_autoptr(GList) cols = json_object_get_members(first);
    guint name_w = 8;
    for (GList *l = names; l; l = l->next)
        name_w = MAX(name_w, (guint)strlen(l->data));
    GString *s = g_string_new("\nby variable (the lock's and the harness's lines, over the run; docs/report.md, variables):\n");
    g_string_append_printf(s, "  %-*s", (int)name_w, "variable");
    for (GList *c = cols; c; c = c->next)
        g_string_append_printf(s, " %*s", (int)MAX(strlen(c->data), 8), (const char *)c->data);
    g_string_append_c(s, '\n');
    for (GList *l = names; l; l = l->next) {
        JsonObject *v = json_object_get_object_member(variables, l->data);
        g_string_append_printf(s, "  %-*s", (int)name_w, (const char *)l->data);
        for (GList *c = cols; c; c = c->next)
            g_string_append_printf(s, " %*" G_GINT64_FORMAT, (int)MAX(strlen(c->data), 8),
                                   json_object_get_int_member_with_default(v, c->data, 0));
        g_string_append_c(s, '\n');
    }
    return g_string_free(s, FALSE);
}

char *run_profile_keys_markdown(void)
{
    GString *s = g_string_new(NULL);
    g_string_append(s, "| `profile.N.file` | name | the source the op is in: the lock as given to --lock (or "
                       "--lock-file), or `<harness>` for the workload loop (`qsim asm --harness` lists it) |\n"
                       "| `profile.N.line` | line | its line in that source (rows in source order) |\n"
                       "| `profile.N.source` | text | the line's text, trimmed |\n");
    for (guint k = 0; k < profile_row_registry.n; k++) {
        const CounterInfo *c = &profile_row_registry.rows[k];
        g_string_append_printf(s, "| `profile.N.%s` | %s | %s, summed over the line's ops and the cores |\n", c->name,
                               c->unit, c->doc);
    }
    return g_string_free(s, FALSE);
}
