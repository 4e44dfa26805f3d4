/* `qsim protocol`'s pages (see protocol_doc.h).  The two controllers are described once as a
 * Ctl (their table and the functions that name and explain its states and events), and every
 * page is written from it. */
#include <string.h>
#include "sim/trace/protocol_doc.h"
#include "sim/base/report.h"
#include "sim/base/suggest.h"
#include "coherence/protocol_words.h"

/* ======================================================================================
 * A controller, described
 * ====================================================================================== */

typedef struct {
    gboolean dir;
    const char *title;            /* "cache controller" */
    const char *id;               /* "cache", "directory" */
    const CohRow *rows;
    guint n, nstates, nevents, ngroups;
    const char *(*state_name)(guint);
    const char *(*state_doc)(guint);
    const char *(*event_name)(guint);
    const char *(*event_doc)(guint);
    guint (*event_group)(guint);
    const char *(*group_doc)(guint);
    gboolean (*stable)(guint);
    gboolean bus;                 /* a snooping bus's: its events' words are the bus's */
} Ctl;

static gboolean cache_stable(guint s) { return coh_cache_state_stable(s); }
static gboolean dir_stable(guint s) { return coh_dir_state_stable(s); }

static Ctl ctl_of(const CohProtocol *p, gboolean dir)
{
    if (dir)
        return (Ctl){ TRUE, p->bus ? "memory (LLC/memory) controller" : "directory (home) controller",
                      p->bus ? "memory" : "directory", p->dir, p->n_dir, DS__N, DE__N,
                      COH_DIR_GROUPS, coh_dir_state_name, coh_dir_state_doc, coh_dir_event_name, coh_dir_event_doc,
                      coh_dir_event_group, p->bus ? coh_mem_group_doc : coh_dir_group_doc, dir_stable, p->bus };
    return (Ctl){ FALSE, "cache controller", "cache", p->cache, p->n_cache, CS__N, CE__N, COH_CACHE_GROUPS,
                  coh_cache_state_name, coh_cache_state_doc, coh_cache_event_name, coh_cache_event_doc,
                  coh_cache_event_group, coh_cache_group_doc, cache_stable, p->bus };
}

static const CohRow *ctl_row(const Ctl *c, guint s, guint e)
{
    for (guint i = 0; i < c->n; i++)
        if (c->rows[i].state == s && c->rows[i].event == e)
            return &c->rows[i];
    return NULL;
}

/* Whether state s has a row of its own. */
static gboolean ctl_row_any(const Ctl *c, guint s)
{
    for (guint i = 0; i < c->n; i++)
        if (c->rows[i].state == s)
            return TRUE;
    return FALSE;
}

/* States with rows, stable ones first, each kind in the enum's order; events with rows in
 * the enum's order. */
static GArray *ctl_states(const Ctl *c)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint pass = 0; pass < 2; pass++)
        for (guint s = 0; s < c->nstates; s++) {
            if (c->stable(s) != (pass == 0))
                continue;
            for (guint i = 0; i < c->n; i++)
                if (c->rows[i].state == s) {
                    g_array_append_val(a, s);
                    break;
                }
        }
    return a;
}

static GArray *ctl_events(const Ctl *c, gint group)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint e = 0; e < c->nevents; e++) {
        if (group >= 0 && c->event_group(e) != (guint)group)
            continue;
        for (guint i = 0; i < c->n; i++)
            if (c->rows[i].event == e) {
                g_array_append_val(a, e);
                break;
            }
    }
    return a;
}

static gboolean is_stall(const Ctl *c, const CohRow *r) { return r->actions == (c->dir ? DA_STALL : CA_STALL); }

/* ======================================================================================
 * Text grid: columns wrapped at a width, a rule under the header
 * ====================================================================================== */

#define CELL_W 22

/* Splits `text` into lines of at most `w` characters at spaces (a longer word stays whole). */
static GPtrArray *wrap(const char *text, guint w)
{
    GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
    g_auto(GStrv) words = g_strsplit(text, " ", -1);
    GString *cur = g_string_new(NULL);
    for (guint i = 0; words[i]; i++) {
        if (cur->len && cur->len + 1 + strlen(words[i]) > w) {
            g_ptr_array_add(lines, g_strdup(cur->str));
            g_string_truncate(cur, 0);
        }
        g_string_append_printf(cur, "%s%s", cur->len ? " " : "", words[i]);
    }
    g_ptr_array_add(lines, g_string_free(cur, FALSE));
    return lines;
}

/* cells: nrows x ncols strings (row 0 the header). */
static void text_grid(GString *out, char **cells, guint nrows, guint ncols)
{
    g_autofree guint *w = g_new0(guint, ncols);
    for (guint r = 0; r < nrows; r++)
        for (guint c = 0; c < ncols; c++) {
            g_autoptr(GPtrArray) l = wrap(cells[r * ncols + c], CELL_W);
            for (guint k = 0; k < l->len; k++)
                w[c] = MAX(w[c], (guint)strlen(l->pdata[k]));
        }
    for (guint r = 0; r < nrows; r++) {
        GPtrArray **wrapped = g_new0(GPtrArray *, ncols);
        guint height = 1;
        for (guint c = 0; c < ncols; c++) {
            wrapped[c] = wrap(cells[r * ncols + c], CELL_W);
            height = MAX(height, wrapped[c]->len);
        }
        for (guint k = 0; k < height; k++) {
            GString *line = g_string_new(NULL);
            for (guint c = 0; c < ncols; c++) {
                const char *t = k < wrapped[c]->len ? wrapped[c]->pdata[k] : "";
                g_string_append_printf(line, "%s%-*s", c ? " | " : "", (int)w[c], t);
            }
            while (line->len && line->str[line->len - 1] == ' ')
                g_string_truncate(line, line->len - 1);
            g_string_append_printf(out, "%s\n", line->str);
            g_string_free(line, TRUE);
        }
        if (r == 0)
            for (guint c = 0; c < ncols; c++) {
                if (c)
                    g_string_append(out, "-+-");
                for (guint k = 0; k < w[c]; k++)
                    g_string_append_c(out, '-');
                if (c + 1 == ncols)
                    g_string_append_c(out, '\n');
            }
        for (guint c = 0; c < ncols; c++)
            g_ptr_array_unref(wrapped[c]);
        g_free(wrapped);
    }
}

/* The Primer's grid of one controller for the events in `events`. */
static char **grid_cells(const Ctl *c, const GArray *states, const GArray *events, gboolean meaning, guint *ncols)
{
    *ncols = events->len + 1 + (meaning ? 1 : 0);
    guint nrows = states->len + 1;
    char **cells = g_new0(char *, (gsize)nrows * *ncols + 1);
    cells[0] = g_strdup("state");
    for (guint e = 0; e < events->len; e++)
        cells[1 + e] = g_strdup(c->event_name(g_array_index(events, guint, e)));
    if (meaning)
        cells[*ncols - 1] = g_strdup("meaning");
    for (guint s = 0; s < states->len; s++) {
        guint st = g_array_index(states, guint, s);
        char **row = &cells[(s + 1) * *ncols];
        row[0] = g_strdup(c->state_name(st));
        for (guint e = 0; e < events->len; e++) {
            const CohRow *r = ctl_row(c, st, g_array_index(events, guint, e));
            row[1 + e] = r ? coh_row_cell(r, c->dir) : g_strdup("");
        }
        if (meaning)
            row[*ncols - 1] = g_strdup(c->state_doc(st));
    }
    return cells;
}

/* ======================================================================================
 * Tables: text, Markdown, CSV
 * ====================================================================================== */

static void rows_in_words(GString *out, const Ctl *c, gboolean md)
{
    gboolean stalls = FALSE;
    for (guint i = 0; i < c->n; i++) {
        const CohRow *r = &c->rows[i];
        stalls |= is_stall(c, r);
        if (is_stall(c, r))
            continue;
        g_autofree char *head = coh_row_text(r, c->dir);
        g_autofree char *words = coh_row_explain_on(r, c->dir, c->bus);
        g_string_append_printf(out, md ? "- `%s`: %s\n" : "  %s\n      %s\n", head, words);
    }
    if (stalls)
        g_string_append_printf(out, md ? "- Every cell marked `stall`: %s.\n" : "  Every cell marked stall: %s.\n",
                               coh_action_doc(0, c->dir));
}

static void table_text(GString *out, const CohProtocol *p, const Ctl *c)
{
    g_autoptr(GArray) states = ctl_states(c);
    g_string_append_printf(out, "%s: %s\n", p->name, c->title);
    g_string_append_printf(out, "Each cell: actions/next state (\"-\": none; blank: cannot happen).\n");
    for (guint g = 0; g < c->ngroups; g++) {
        g_autoptr(GArray) events = ctl_events(c, (gint)g);
        if (!events->len)
            continue;
        guint ncols;
        char **cells = grid_cells(c, states, events, FALSE, &ncols);
        g_string_append_printf(out, "\nEvents %s:\n", c->group_doc(g));
        text_grid(out, cells, states->len + 1, ncols);
        g_strfreev(cells);
    }
    g_string_append(out, "\nStates:\n");
    for (guint s = 0; s < states->len; s++) {
        guint st = g_array_index(states, guint, s);
        g_string_append_printf(out, "  %-6s %s\n", c->state_name(st), c->state_doc(st));
    }
    g_string_append(out, "\nWhat each row does:\n");
    rows_in_words(out, c, FALSE);
}

static void md_escape(GString *out, const char *t)
{
    for (; *t; t++) {
        if (*t == '|')
            g_string_append(out, "\\|");
        else
            g_string_append_c(out, *t);
    }
}

static void table_markdown(GString *out, const CohProtocol *p, const Ctl *c)
{
    g_autoptr(GArray) states = ctl_states(c);
    g_autoptr(GArray) events = ctl_events(c, -1);
    g_string_append_printf(out, "## %s: %s\n\n", p->name, c->title);
    g_string_append(out, "Columns by where the event comes from:");
    for (guint g = 0, shown = 0; g < c->ngroups; g++) {
        g_autoptr(GArray) ev = ctl_events(c, (gint)g);
        if (!ev->len)
            continue;
        g_string_append_printf(out, "%s %s (", shown++ ? ";" : "", c->group_doc(g));
        for (guint e = 0; e < ev->len; e++)
            g_string_append_printf(out, "%s%s", e ? ", " : "", c->event_name(g_array_index(ev, guint, e)));
        g_string_append(out, ")");
    }
    g_string_append(out, ". Each cell: actions/next state (`-`: none; blank: cannot happen).\n\n");
    guint ncols;
    char **cells = grid_cells(c, states, events, TRUE, &ncols);
    for (guint r = 0; r < states->len + 1; r++) {
        g_string_append(out, "|");
        for (guint col = 0; col < ncols; col++) {
            g_string_append_c(out, ' ');
            const char *t = cells[r * ncols + col];
            if (r > 0 && col == 0)
                g_string_append_printf(out, "**%s**", t);
            else
                md_escape(out, t);
            g_string_append(out, " |");
        }
        g_string_append_c(out, '\n');
        if (r == 0) {
            g_string_append(out, "|");
            for (guint col = 0; col < ncols; col++)
                g_string_append(out, " --- |");
            g_string_append_c(out, '\n');
        }
    }
    g_strfreev(cells);
    g_string_append(out, "\nWhat each row does:\n\n");
    rows_in_words(out, c, TRUE);
    g_string_append_c(out, '\n');
}

static void table_csv(GString *out, const Ctl *c)
{
    for (guint i = 0; i < c->n; i++) {
        const CohRow *r = &c->rows[i];
        g_autofree char *acts = coh_actions_text(r->actions, c->dir);
        g_autofree char *cell = coh_row_cell(r, c->dir);
        g_autofree char *words = coh_row_explain_on(r, c->dir, c->bus);
        const char *fields[] = {
            c->id, c->state_name(r->state), c->stable(r->state) ? "stable" : "transient", c->event_name(r->event),
            c->group_doc(c->event_group(r->event)), acts, c->state_name(r->next), cell, words,
        };
        for (guint f = 0; f < G_N_ELEMENTS(fields); f++) {
            if (f)
                g_string_append_c(out, ',');
            report_csv_field(out, fields[f]);
        }
        g_string_append_c(out, '\n');
    }
}

char *protocol_doc_tables(const CohProtocol *p, ProtoDocFormat f)
{
    GString *out = g_string_new(NULL);
    Ctl ctls[2] = { ctl_of(p, FALSE), ctl_of(p, TRUE) };
    switch (f) {
    case PROTO_DOC_CSV:
        g_string_append(out, "controller,state,kind,event,source,actions,next,cell,explanation\n");
        for (guint i = 0; i < 2; i++)
            table_csv(out, &ctls[i]);
        break;
    case PROTO_DOC_MARKDOWN:
        g_string_append_printf(out, "# The %s protocol's tables\n\nAfter %s.\n\n", p->name, p->source);
        for (guint i = 0; i < 2; i++)
            table_markdown(out, p, &ctls[i]);
        break;
    default:
        g_string_append_printf(out, "The %s protocol, after %s.\n\n", p->name, p->source);
        for (guint i = 0; i < 2; i++) {
            if (i)
                g_string_append(out, "\n\n");
            table_text(out, p, &ctls[i]);
        }
        break;
    }
    return g_string_free(out, FALSE);
}

/* ======================================================================================
 * DOT
 * ====================================================================================== */

/* An edge of the diagram, its labels merged when two rows join the same states. */
typedef struct {
    guint from, to;
    guint group;                 /* of the first event on it: the line style */
    GString *label;
} Edge;

static void edge_add(GArray *edges, guint from, guint to, guint group, const char *label)
{
    for (guint i = 0; i < edges->len; i++) {
        Edge *e = &g_array_index(edges, Edge, i);
        if (e->from == from && e->to == to && e->group == group) {
            if (!strstr(e->label->str, label)) /* the same words twice add nothing */
                g_string_append_printf(e->label, "\\n%s", label);
            return;
        }
    }
    Edge e = { from, to, group, g_string_new(label) };
    g_array_append_val(edges, e);
}

/* The stable states reached from transient state `t` through transient states only, with
 * the event that lands in each (for the label when there are several). */
static void reach_stable(const Ctl *c, guint t, guint8 *seen, GArray *ends, GArray *by)
{
    if (seen[t])
        return;
    seen[t] = 1;
    for (guint i = 0; i < c->n; i++) {
        const CohRow *r = &c->rows[i];
        if (r->state != t || r->next == t || is_stall(c, r))
            continue;
        if (c->stable(r->next)) {
            guint next = r->next, ev = r->event;
            g_array_append_val(ends, next);
            g_array_append_val(by, ev);
        } else
            reach_stable(c, r->next, seen, ends, by);
    }
}

static const char *const group_style[] = { "solid", "dashed", "dotted" };
static const char *const group_color[] = { "black", "firebrick", "navy" };

/* The transient states reached from stable state `focus` through transient states only (its
 * slide): marked 1 in `in`, `focus` too; the stable states they end in marked 2. */
static void focus_states(const Ctl *c, guint focus, guint8 *in)
{
    in[focus] = 1;
    for (gboolean grew = TRUE; grew;) {
        grew = FALSE;
        for (guint i = 0; i < c->n; i++) {
            const CohRow *r = &c->rows[i];
            if (in[r->state] != 1 || is_stall(c, r) || r->next == r->state || in[r->next])
                continue;
            in[r->next] = c->stable(r->next) ? 2 : 1;
            grew = TRUE;
        }
    }
}

/* A slide's edge labels wrap at this many characters. */
#define SLIDE_LABEL_W 28

/* One controller's states and edges; `focus` a stable state to draw only its slide
 * (focus_states, implies transient), or G_MAXUINT for all. */
static void dot_controller(GString *out, const Ctl *c, const char *prefix, gboolean transient, guint focus)
{
    g_autoptr(GArray) states = ctl_states(c);
    /* states only entered (a next state with no rows of its own) still appear */
    g_autofree guint8 *used = g_new0(guint8, c->nstates);
    g_autofree guint8 *in = g_new0(guint8, c->nstates);
    if (focus != G_MAXUINT) {
        focus_states(c, focus, in);
        transient = TRUE;
    }
    for (guint i = 0; i < c->n; i++)
        if (focus == G_MAXUINT || in[c->rows[i].state] == 1)
            used[c->rows[i].state] = used[c->rows[i].next] = 1;
    if (focus == G_MAXUINT)
        g_string_append_printf(out, "  subgraph cluster_%s {\n    label=\"%s\";\n", prefix, c->title);
    for (guint s = 0; s < c->nstates; s++) {
        if (!used[s] || (!transient && !c->stable(s)) || (focus != G_MAXUINT && !in[s]))
            continue;
        /* on a slide, the stable states its transients end in are the other slides' (dashed) */
        const char *style = !c->stable(s)              ? ", shape=box, style=\"rounded,filled\", fillcolor=lightyellow"
                            : focus != G_MAXUINT && s != focus ? ", shape=circle, style=dashed"
                                                               : ", shape=circle, style=bold";
        g_string_append_printf(out, "    %s_%s [label=\"%s\", tooltip=\"%s\"%s];\n", prefix, c->state_name(s),
                               c->state_name(s), c->state_doc(s), style);
    }
    GArray *edges = g_array_new(FALSE, FALSE, sizeof(Edge));
    for (guint i = 0; i < c->n; i++) {
        const CohRow *r = &c->rows[i];
        if (is_stall(c, r) || (focus != G_MAXUINT && in[r->state] != 1))
            continue;
        /* the line style says where the event comes from; a directory's responses draw like a cache's */
        guint group = c->dir && c->event_group(r->event) == 1 ? 2 : c->event_group(r->event);
        if (group == 3)
            group = 1; /* other cores' requests, snooped on a bus, draw like forwarded ones */
        const char *ev = c->event_name(r->event);
        if (transient) {
            if (r->next == r->state)
                continue; /* hits, acks counted in place: the table has them */
            g_autofree char *cell = coh_row_cell(r, c->dir);
            char *slash = strrchr(cell, '/');
            if (slash)
                *slash = '\0';
            g_autofree char *label = !strcmp(cell, "-") ? g_strdup(ev) : g_strdup_printf("%s / %s", ev, cell);
            if (focus != G_MAXUINT) { /* a slide: labels wrapped, so that none sets its width */
                g_autoptr(GPtrArray) lines = wrap(label, SLIDE_LABEL_W);
                g_ptr_array_add(lines, NULL);
                g_free(label);
                label = g_strjoinv("\\n", (char **)lines->pdata);
            }
            edge_add(edges, r->state, r->next, group, label);
            continue;
        }
        if (!c->stable(r->state))
            continue;
        if (c->stable(r->next)) {
            if (!r->actions && r->next == r->state)
                continue; /* a blank cell of a bus table (S + Other-GetS): nothing happens */
            edge_add(edges, r->state, r->next, group, ev);
            continue;
        }
        /* through transient states to the stable ones they end in */
        g_autofree guint8 *seen = g_new0(guint8, c->nstates);
        g_autoptr(GArray) ends = g_array_new(FALSE, FALSE, sizeof(guint));
        g_autoptr(GArray) by = g_array_new(FALSE, FALSE, sizeof(guint));
        reach_stable(c, r->next, seen, ends, by);
        gboolean several = FALSE;
        for (guint k = 1; k < ends->len; k++)
            several |= g_array_index(ends, guint, k) != g_array_index(ends, guint, 0);
        for (guint k = 0; k < ends->len; k++) {
            guint to = g_array_index(ends, guint, k);
            g_autofree char *label = several ? g_strdup_printf("%s (then %s)", ev,
                                                               c->event_name(g_array_index(by, guint, k)))
                                             : g_strdup_printf("%s (via %s)", ev, c->state_name(r->next));
            edge_add(edges, r->state, to, group, label);
        }
    }
    for (guint i = 0; i < edges->len; i++) {
        Edge *e = &g_array_index(edges, Edge, i);
        g_string_append_printf(out, "    %s_%s -> %s_%s [label=\"%s\", style=%s, color=%s, fontcolor=%s];\n", prefix,
                               c->state_name(e->from), prefix, c->state_name(e->to), e->label->str,
                               group_style[e->group % 3], group_color[e->group % 3], group_color[e->group % 3]);
        g_string_free(e->label, TRUE);
    }
    g_array_free(edges, TRUE);
    if (focus == G_MAXUINT)
        g_string_append(out, "  }\n");
}

char *protocol_doc_dot(const CohProtocol *p, gboolean transient)
{
    GString *out = g_string_new(NULL);
    Ctl cache = ctl_of(p, FALSE), dir = ctl_of(p, TRUE);
    g_string_append_printf(out, "// The %s protocol's state diagrams (%s), from qsim's tables: `qsim protocol %s%s "
                                "--format dot`.\n// Render: dot -Tsvg -o %s.svg FILE.dot\n",
                           p->name, transient ? "every state" : "stable states", p->name,
                           transient ? " --transient" : "", p->name);
    /* a name that is not a DOT identifier ("msi-bus") is quoted */
    gboolean plain = !strpbrk(p->name, "-.");
    g_string_append_printf(out, "digraph %s%s%s {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n"
                                "  edge [fontname=\"Helvetica\", fontsize=10];\n  label=\"%s%s: solid = own core's "
                                "events, dashed = other cores' (%s), dotted = responses\";\n",
                           plain ? "" : "\"", p->name, plain ? "" : "\"", p->name,
                           transient ? " (every state)" : " (stable states)",
                           p->bus ? "snooped on the bus" : "forwarded by the home");
    dot_controller(out, &cache, "cache", transient, G_MAXUINT);
    dot_controller(out, &dir, "dir", transient, G_MAXUINT);
    g_string_append(out, "}\n");
    return g_string_free(out, FALSE);
}

/* Slides: a graph for a 16:9 slide (20 x 11.25 inches at 96 dpi: 1920 x 1080 pixels), laid
 * out top to bottom (a state's transients are few ranks deep but many wide: left to right they
 * made a strip four to twenty times as wide as high); one larger than that is scaled down to
 * it.  The title is short and the key below it small, so that neither sets the width. */
#define SLIDE_ATTRS "  rankdir=TB;\n  size=\"20,11.25\";\n  nodesep=0.4;\n  ranksep=0.6;\n"

char *protocol_doc_dot_state(const CohProtocol *p, const char *state, GError **error)
{
    gboolean dir = g_str_has_prefix(state, "dir:");
    const char *name = dir ? state + 4 : state;
    Ctl c = ctl_of(p, dir);
    GPtrArray *stable = g_ptr_array_new();
    guint focus = G_MAXUINT;
    for (guint s = 0; s < c.nstates; s++) {
        if (!c.stable(s) || !ctl_row_any(&c, s))
            continue;
        if (!strcmp(c.state_name(s), name))
            focus = s;
        g_ptr_array_add(stable, (gpointer)c.state_name(s));
    }
    if (focus == G_MAXUINT) {
        const char *close = suggest_closest(name, (const char *const *)stable->pdata, stable->len);
        g_ptr_array_add(stable, NULL);
        g_autofree char *list = g_strjoinv(", ", (char **)stable->pdata);
        g_autofree char *hint = close ? g_strdup_printf("; did you mean `%s%s`?", dir ? "dir:" : "", close)
                                      : g_strdup("");
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--state %s: no stable state `%s` in %s's %s%s (its stable states: %s; %s)", state, name, p->name,
                    c.title, hint, list, dir ? "the cache's without `dir:`" : "the directory's as dir:NAME");
        g_ptr_array_free(stable, TRUE);
        return NULL;
    }
    g_ptr_array_free(stable, TRUE);
    const char *prefix = dir ? "dir" : "cache";
    GString *out = g_string_new(NULL);
    g_string_append_printf(out, "// The %s protocol's %s from %s through its transient states, from qsim's tables: "
                                "`qsim protocol %s --state %s --format dot`.\n",
                           p->name, c.title, name, p->name, state);
    g_string_append_printf(out, "digraph \"%s_%s_%s\" {\n" SLIDE_ATTRS "  node [fontname=\"Helvetica\", fontsize=16];\n"
                                "  edge [fontname=\"Helvetica\", fontsize=14];\n  labelloc=t;\n  fontname=\"Helvetica\";\n"
                                "  label=<<FONT POINT-SIZE=\"22\">%s %s: %s and its transient states</FONT><BR/>"
                                "<FONT POINT-SIZE=\"12\">dashed circles: where they end; solid = own core's events, "
                                "dashed = %s, dotted = responses</FONT>>;\n",
                           p->name, prefix, name, p->name, c.title, name,
                           p->bus ? "snooped on the bus" : "forwarded by the home");
    dot_controller(out, &c, prefix, TRUE, focus);
    g_string_append(out, "}\n");
    return g_string_free(out, FALSE);
}

/* ======================================================================================
 * Legend
 * ====================================================================================== */

static void legend_list(GString *out, gboolean md, const char *name, const char *doc)
{
    if (md)
        g_string_append_printf(out, "| `%s` | %s |\n", name, doc);
    else
        g_string_append_printf(out, "  %-14s %s\n", name, doc);
}

static void legend_head(GString *out, gboolean md, const char *title)
{
    if (md)
        g_string_append_printf(out, "\n### %s\n\n| name | meaning |\n| --- | --- |\n", title);
    else
        g_string_append_printf(out, "\n%s\n", title);
}

char *protocol_doc_legend(const CohProtocol *p, ProtoDocFormat f)
{
    gboolean md = f == PROTO_DOC_MARKDOWN;
    GString *out = g_string_new(NULL);
    g_string_append_printf(out, "%sHow to read `qsim run --trace` (protocol %s)\n\n", md ? "## " : "", p->name);
    /* a bus has no directory: its home is the memory controller, which lists no holders */
    g_string_append_printf(out,
        "Each line is one event: the cycle; who (core N's cache, or the home: the line's %s);\n"
        "the cache line, named by the first variable in it (`qsim run --trace` lists each line's\n"
        "variables at the top); the protocol row that fired, `state + event -> next state`, as in\n"
        "`qsim protocol`'s tables; and what it did: the access that caused it (load, store or atomic\n"
        "of a variable), the messages it sent and to whom, %s.\n",
        p->bus ? "memory controller" : "directory",
        p->bus ? "and its other actions"
               : "its other actions, and for the home the\ndirectory's entry after it (owner, sharers)");
    g_string_append(out,
        "In the default view a line `N x ROW (hits|stalls, cycles A-B)` stands for a cache's hits\n"
        "and stalls on one line since its last row there (`--trace-only hits` shows each one).\n"
        "`lock:` lines are the harness's marks (calls lock, acquires, releases); `pipeline:` lines\n"
        "are the core's machine clears, mispredicts and replays.  Filters: `--trace-line NAME`,\n"
        "`--trace-only transitions|hits|messages|pipeline|locks` (comma-separated).\n"
        "A transient state is named for where it goes: IS_D is from I to S, waiting for D (data);\n"
        "A stands for acks, C for the ack count, U for an Unblock.\n");
    if (p->bus)
        g_string_append(out,
            "On a bus (topology.interconnect: bus) there is no directory: `home` is the line's memory\n"
            "controller (the Primer's LLC/memory), and a request goes `to bus`, where every cache and the\n"
            "memory see it in the order the arbiter granted the bus: the requester's row `Own-GetS`,\n"
            "every other cache's `Other-GetS` (`nothing to do` is a blank cell of the Primer's table),\n"
            "the memory's `GetS`.  An access that had to wait for the bus says so on the row that\n"
            "issued its request.\n");
    Ctl ctls[2] = { ctl_of(p, FALSE), ctl_of(p, TRUE) };
    for (guint k = 0; k < 2; k++) {
        const Ctl *c = &ctls[k];
        g_autoptr(GArray) states = ctl_states(c);
        g_autofree char *t = g_strdup_printf("States of the %s", c->title);
        legend_head(out, md, t);
        for (guint s = 0; s < states->len; s++) {
            guint st = g_array_index(states, guint, s);
            legend_list(out, md, c->state_name(st), c->state_doc(st));
        }
        g_autofree char *te = g_strdup_printf("Events of the %s", c->title);
        legend_head(out, md, te);
        g_autoptr(GArray) events = ctl_events(c, -1);
        for (guint e = 0; e < events->len; e++) {
            guint ev = g_array_index(events, guint, e);
            const char *evdoc = c->dir ? c->event_doc(ev) : coh_cache_event_doc_on(ev, c->bus);
            g_autofree char *doc = g_strdup_printf("%s (%s)", evdoc, c->group_doc(c->event_group(ev)));
            legend_list(out, md, c->event_name(ev), doc);
        }
    }
    legend_head(out, md, "Messages");
    for (guint m = 0; m < MSG__N; m++) /* on a bus only those it sends: no acks, no forwards */
        if (!p->bus || coh_msg_on_bus(m))
            legend_list(out, md, memsys_msg_name(m), coh_msg_doc(m));
    for (guint k = 0; k < 2; k++) {
        g_autofree char *t = g_strdup_printf("Actions of the %s (in tables: the cell's words)", ctls[k].title);
        legend_head(out, md, t);
        guint n = coh_action_bits(k);
        guint32 used = 0;
        for (guint i = 0; i < ctls[k].n; i++)
            used |= ctls[k].rows[i].actions;
        for (guint b = 0; b < n; b++) {
            /* a bus protocol's own actions; a directory's, whatever its tables use */
            if (p->bus ? !(used & (1u << b)) : coh_action_bus_only(b, k))
                continue;
            const char *cell = coh_action_cell(b, k);
            legend_list(out, md, cell ? cell : "(not shown)", coh_action_doc(b, k));
        }
    }
    return g_string_free(out, FALSE);
}

/* ======================================================================================
 * Names
 * ====================================================================================== */

gboolean protocol_doc_format_parse(const char *text, ProtoDocFormat *f, GError **error)
{
    static const char *const names[] = { "text", "markdown", "csv", "dot" };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++)
        if (!strcmp(text, names[i]) || (i == 1 && !strcmp(text, "md"))) {
            *f = (ProtoDocFormat)i;
            return TRUE;
        }
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--format %s: give text, markdown, csv or dot", text);
    return FALSE;
}

const CohProtocol *protocol_doc_find(const char *name, GError **error)
{
    if (!strcmp(name, "mesif"))
        return &coh_mesi;
    GPtrArray *names = g_ptr_array_new();
    for (guint i = 0; i < coh_n_protocols; i++) {
        if (!strcmp(name, coh_protocols[i]->name)) {
            g_ptr_array_free(names, TRUE);
            return coh_protocols[i];
        }
        g_ptr_array_add(names, (gpointer)coh_protocols[i]->name);
    }
    g_ptr_array_add(names, (gpointer) "mesif");
    const char *close = suggest_closest(name, (const char *const *)names->pdata, names->len);
    g_ptr_array_add(names, NULL);
    g_autofree char *list = g_strjoinv(", ", (char **)names->pdata);
    g_autofree char *hint = close ? g_strdup_printf("; did you mean '%s'?", close) : g_strdup("");
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "unknown protocol '%s'%s (%s)", name, hint, list);
    g_ptr_array_free(names, TRUE);
    return NULL;
}

/* ======================================================================================
 * MESIF
 * ====================================================================================== */

/* What a directory row's MESIF rules do with F (coherence/protocol.h, CohDirRule), a row each. */
static const struct {
    guint rule;
    const char *words;
} mesif_rule_words[] = {
    { DR_F_FORWARD, "a requester whose own socket's LLC lacks the line gets the F socket's copy, not memory's" },
    { DR_F_TO_READER, "the reader's socket takes F (the newest reader forwards next)" },
    { DR_F_DROP, "F goes if, after the row, no LLC holds the current data" },
};

gboolean protocol_doc_is_mesif(const char *name) { return !strcmp(name, "mesif"); }

char *protocol_doc_mesif(ProtoDocFormat f)
{
    gboolean md = f == PROTO_DOC_MARKDOWN;
    GString *out = g_string_new(md ? "MESIF runs the MESI tables below; its F state is kept at the home, after them.\n\n"
                                   : "mesif: the MESI tables below, and its F state, kept at the home, after them.\n\n");
    g_autofree char *tables = protocol_doc_tables(&coh_mesi, f);
    g_string_append(out, tables);
    g_string_append_printf(out,
        "%s"
        "MESIF (Intel's QPI protocol) runs the MESI tables above.  Its F (forward) state is no cache\n"
        "state: it is kept per socket at the home, beside the directory, and marks the one socket whose\n"
        "LLC answers a reader from another socket with a clean shared copy, instead of memory.  The\n"
        "directory rows that touch F, and what each does with it (`memory_system.f_forwards` in a\n"
        "report counts the forwards; a config with `protocol: mesif` runs it):\n\n",
        md ? "## MESIF: the F state\n\n" : "\n\nmesif: the F state\n");
    const CohProtocol *p = &coh_mesi;
    if (md)
        g_string_append(out, "| state | event | F |\n| --- | --- | --- |\n");
    for (guint i = 0; i < p->n_dir; i++) {
        const CohRow *r = &p->dir[i];
        guint rules = coh_mesif_rules_of(coh_mesif_rules, coh_n_mesif_rules, r->state, r->event);
        if (!rules)
            continue;
        GString *what = g_string_new(NULL);
        for (guint k = 0; k < G_N_ELEMENTS(mesif_rule_words); k++)
            if (rules & mesif_rule_words[k].rule)
                g_string_append_printf(what, "%s%s", what->len ? "; " : "", mesif_rule_words[k].words);
        if (md)
            g_string_append_printf(out, "| %s | %s | %s |\n", coh_dir_state_name(r->state),
                                   coh_dir_event_name(r->event), what->str);
        else
            g_string_append_printf(out, "  %-5s + %-12s %s\n", coh_dir_state_name(r->state),
                                   coh_dir_event_name(r->event), what->str);
        g_string_free(what, TRUE);
    }
    return g_string_free(out, FALSE);
}
