/* A search's result as text and JSON (the JSON keys: docs/verify.md). */
#include <string.h>
#include "sim/explore/explore.h"
#include "sim/base/report.h"

static const char *verdict_name(ExploreVerdict v)
{
    return v == EXPLORE_VERIFIED ? "verified" : v == EXPLORE_FAILED ? "failed" : "incomplete";
}

char *explore_trace_text(const ExploreTrace *t)
{
    GString *g = g_string_new(NULL);
    if (t->from_graph)
        g_string_append_printf(g, "counterexample, %u step%s (the failing execution graph's accesses, one step per "
                                  "instruction's read or write, in an order that program order and reads-from "
                                  "agree with):\n", t->steps->len,
                               t->steps->len == 1 ? "" : "s");
    else
        g_string_append_printf(g, "counterexample, %u step%s (a shortest one%s; each step is one thread's op, with "
                                  "the ops private to it that follow, or a store leaving a buffer):\n", t->steps->len,
                               t->steps->len == 1 ? "" : "s", t->without_promises ? " without promises" : "");
    gsize wat = 0;
    for (guint k = 0; k < t->steps->len; k++)
        wat = MAX(wat, strlen(((const ExploreStep *)t->steps->pdata[k])->at));
    for (guint k = 0; k < t->steps->len; k++) {
        const ExploreStep *st = t->steps->pdata[k];
        g_autofree char *who = st->note.kind == EXPLORE_MOVE_DRAIN     ? g_strdup_printf("T%u sb", st->note.thread)
                               : st->note.kind == EXPLORE_MOVE_PROMISE ? g_strdup_printf("T%u pr", st->note.thread)
                                                                       : g_strdup_printf("T%u #%u", st->note.thread,
                                                                                         st->thread_step);
        g_string_append_printf(g, "%5u  %-7s  %-*s  %s%s\n", st->step, who, (int)wat, st->at,
                               st->note.kind == EXPLORE_MOVE_DRAIN     ? "(drain) "
                               : st->note.kind == EXPLORE_MOVE_PROMISE ? "(promise, before) "
                                                                       : "", st->op);
        const char *pad = "                ";
        if (st->what && *st->what)
            g_string_append_printf(g, "%s%s\n", pad, st->what);
        if (st->buffers)
            g_string_append_printf(g, "%s%s\n", pad, st->buffers);
        if (st->pending)
            g_string_append_printf(g, "%s%s\n", pad, st->pending);
        if (st->not_seen)
            g_string_append_printf(g, "%s%s\n", pad, st->not_seen);
        if (st->after)
            g_string_append_printf(g, "%sthen: %s\n", pad, st->after);
    }
    g_string_append_printf(g, "at the end:\n%s", t->end);
    return g_string_free(g, FALSE);
}

/* Writes a step names, as [{"step": 3, "thread": 1}, ...] (step 0: the initial value). */
static void add_links_json(JsonBuilder *b, const char *name, const ExploreLink *links, guint n)
{
    json_builder_set_member_name(b, name);
    json_builder_begin_array(b);
    for (guint k = 0; k < n; k++) {
        json_builder_begin_object(b);
        report_add_int(b, "step", links[k].step);
        report_add_int(b, "thread", links[k].thread);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

static void add_step_json(const ExploreStep *st, JsonBuilder *b)
{
    const ExploreNote *n = &st->note;
    json_builder_begin_object(b);
    report_add_int(b, "step", st->step);
    report_add_int(b, "thread", n->thread);
    report_add_string(b, "kind", n->kind == EXPLORE_MOVE_DRAIN     ? "drain"
                                 : n->kind == EXPLORE_MOVE_PROMISE ? "promise"
                                                                   : "op");
    if (n->kind == EXPLORE_MOVE_STEP) {
        report_add_int(b, "thread_step", st->thread_step);
    }
    report_add_string(b, "op", st->op);
    report_add_string(b, "at", st->at);
    if (st->addr) {
        report_add_string(b, "addr", st->addr);
    }
    if (n->why[0])
        report_add_string(b, "why", n->why);
    if (n->read && n->kind != EXPLORE_MOVE_DRAIN) {
        json_builder_set_member_name(b, "read");
        json_builder_begin_object(b);
        report_add_int(b, "value", (gint64)n->rvalue);
        report_add_string(b, "source", st->source);
        if (st->source_step) {
            report_add_int(b, "store_step", st->source_step);
            report_add_int(b, "store_thread", st->source_thread);
        }
        if (st->source_in_memory && st->source_in_memory != st->source_step) {
            report_add_int(b, "in_memory_step", st->source_in_memory);
        }
        if (st->nsources > 1)
            add_links_json(b, "store_steps", st->sources, st->nsources);
        if (st->nunseen)
            add_links_json(b, "not_seen_steps", st->unseen, st->nunseen);
        json_builder_end_object(b);
    }
    if (n->wrote || n->buffered) {
        json_builder_set_member_name(b, n->buffered ? "buffered" : "wrote");
        json_builder_add_int_value(b, (gint64)n->wvalue);
    }
    report_add_string(b, "what", st->what);
    if (st->buffers) {
        report_add_string(b, "buffers", st->buffers);
    }
    if (st->pending)
        report_add_string(b, "pending", st->pending);
    if (st->not_seen)
        report_add_string(b, "not_seen", st->not_seen);
    if (st->after) {
        report_add_string(b, "after", st->after);
    }
    json_builder_end_object(b);
}

void explore_result_add_json(const ExploreResult *r, JsonBuilder *b)
{
    report_add_string(b, "result", verdict_name(r->verdict));
    if (r->verdict == EXPLORE_FAILED) {
        report_add_string(b, "property", explore_property_name(r->property));
    }
    if (r->verdict == EXPLORE_INCOMPLETE) {
        report_add_string(b, "cut_by", explore_cut_option(r->cut));
    }
    if (r->message) {
        report_add_string(b, "message", r->message);
    }
    report_add_string(b, "engine", r->graphs ? "graphs" : "states");
    if (r->graphs) {
        report_add_int(b, "graphs", (gint64)r->states);
        report_add_int(b, "executions", (gint64)r->transitions);
        report_add_int(b, "blocked_executions", (gint64)r->blocked);
    }
    static const char *const names[] = { "states", "transitions", "finished_states", "depth", "max_readers_inside",
                                         "bytes" };
    const guint64 values[] = { r->states, r->transitions, r->finished, r->depth, r->max_shared, r->bytes };
    for (guint k = 0; k < G_N_ELEMENTS(names); k++) {
        report_add_int(b, names[k], (gint64)values[k]);
    }
    report_add_double(b, "seconds", r->seconds);
    if (!r->trace)
        return;
    json_builder_set_member_name(b, "counterexample");
    json_builder_begin_array(b);
    for (guint k = 0; k < r->trace->steps->len; k++)
        add_step_json(r->trace->steps->pdata[k], b);
    json_builder_end_array(b);
    report_add_string(b, "end", r->trace->end);
}
