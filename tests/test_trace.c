/* The teaching trace: names from the layout, the text trace and its filters, the Perfetto JSON
 * (checked against the Trace Event format: ph/ts/pid/tid on every event, flows in pairs), the
 * step-through page (its data, and the page itself in a real browser), each against goldens
 * on the `teaching` config. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "tests/run_qsim.h"
#include "tests/golden.h"
#include "tests/skip.h"
#include "tests/png_read.h"
#include "tests/temp_files.h"
#include "sim/trace/trace_names.h"
#include "cores/isa/asm.h"

#define RUN "run --config teaching --lock ttas --iterations 3 --no-host-time"

/* ======================================================================================
 * Names
 * ====================================================================================== */

static const char names_src[] =
    ".shared lock_word 4 own_line\n"
    ".shared data 24 with lock_word\n"
    ".shared big 100 own_line\n"
    ".thread node 16 own_line\n"
    ".entry main\nmain:\n    halt\n";

START_TEST(test_names)
{
    g_autoptr(GError) error = NULL;
    g_autoptr(IsaProgram) p = asm_assemble("t.qs", names_src, arch_target(ARCH_X86), &error);
    ck_assert_msg(p, "%s", error ? error->message : "");
    IsaLayout *l = isa_layout_new(p, 3, 64, 0x10000);
    g_autoptr(TraceNames) n = trace_names_new(p, l);
    /* lock_word 0x10000; data with it at 0x10008; big 0x10040..0x100a4; node[t] a line each from 0x100c0 */
    g_autofree char *a0 = trace_names_addr(n, 0x10000), *a1 = trace_names_addr(n, 0x10010),
                    *a2 = trace_names_addr(n, 0x10080), *a3 = trace_names_addr(n, 0x10004),
                    *a4 = trace_names_addr(n, 0x10108);
    ck_assert_str_eq(a0, "lock_word");
    ck_assert_str_eq(a1, "data+8");
    ck_assert_str_eq(a2, "big+64");
    ck_assert_str_eq(a3, "0x10004"); /* between the two: no variable */
    ck_assert_str_eq(a4, "node[1]+8");
    ck_assert_str_eq(trace_names_line(n, 0x10000), "lock_word");
    ck_assert_str_eq(trace_names_line_vars(n, 0x10000), "lock_word, data");
    ck_assert_str_eq(trace_names_line(n, 0x10080), "big+64");
    ck_assert_str_eq(trace_names_line(n, 0x10140), "node[2]");
    ck_assert_str_eq(trace_names_line(n, 0x90000), "0x90000");
    ck_assert_uint_eq(trace_names_lines(n)->len, 6); /* lock_word, big x2, node x3 */
    uint64_t line = 0;
    ck_assert(trace_names_find(n, "data", &line) && line == 0x10000);
    ck_assert(trace_names_find(n, "big+70", &line) && line == 0x10080);
    ck_assert(trace_names_find(n, "node[2]", &line) && line == 0x10140);
    ck_assert(trace_names_find(n, "0x10047", &line) && line == 0x10040);
    ck_assert(!trace_names_find(n, "nothing", &line));
    ck_assert(!trace_names_find(n, "node[3]", &line));
    ck_assert(!trace_names_find(n, "big+100", &line));
    isa_layout_free(l);
}
END_TEST

/* ======================================================================================
 * The text trace
 * ====================================================================================== */

static char *trace_of(const char *args)
{
    g_autofree char *line = g_strdup_printf(RUN " %s", args);
    g_autofree char *out = NULL;
    char *err = NULL;
    int rc = run_qsim_line(line, &out, &err);
    ck_assert_msg(rc == 0, "qsim %s: exit %d: %s", line, rc, err);
    return err;
}

static const struct {
    const char *args, *golden;
} text_goldens[] = {
    { "--trace", "trace-ttas.txt" },
    { "--trace-only transitions --trace-line lock_word", "trace-ttas-transitions.txt" },
    { "--trace-only messages --trace-line lock_word", "trace-ttas-messages.txt" },
    { "--trace-only pipeline,locks", "trace-ttas-pipeline.txt" },
};

START_TEST(test_text_golden)
{
    g_autofree char *t = trace_of(text_goldens[_i].args);
    golden_check(text_goldens[_i].golden, t);
}
END_TEST

static guint count_lines(const char *text, const char *needle)
{
    guint n = 0;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i]; i++)
        n += strstr(lines[i], needle) != NULL;
    return n;
}

/* "7 x IS_D + Load -> IS_D  (stalls, cycles 19-85)": 7; 0 for any other line. */
static guint collapsed_count(const char *line)
{
    const char *x = strstr(line, " x ");
    if (!x || !strstr(line, ", cycles "))
        return 0;
    const char *p = x;
    while (p > line && g_ascii_isdigit(p[-1]))
        p--;
    return (guint)g_ascii_strtoull(p, NULL, 10);
}

/* Names, messages with destinations and lock marks appear; hits are collapsed, and the
 * collapsed counts add up to the rows `--trace-only hits` lists one by one. */
START_TEST(test_text_content)
{
    g_autofree char *t = trace_of("--trace");
    ck_assert_msg(strstr(t, "lock_word 0x10000 (lock_word)"), "%s", t);
    ck_assert(!strstr(t, "line 0x"));
    ck_assert(strstr(t, "S + Store -> SM_AD"));
    ck_assert(strstr(t, "sends Upgrade to home"));
    ck_assert(strstr(t, "sends Inv-Ack to core 1"));
    ck_assert(strstr(t, "sends Inv to core 0 (for core 1), AckCount to core 1 (expect 1 ack)"));
    ck_assert(strstr(t, "atomic lock_word: "));
    ck_assert_uint_eq(count_lines(t, "lock: acquires the lock"), 6);   /* 2 threads x 3 iterations */
    ck_assert_uint_eq(count_lines(t, "lock: releases the lock"), 6);
    ck_assert(strstr(t, "pipeline: mispredict"));
    /* no single hit rows: S + Load -> S only inside "N x ..." summaries */
    guint collapsed = 0;
    g_auto(GStrv) lines = g_strsplit(t, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        guint n = collapsed_count(lines[i]);
        collapsed += n;
        if (!n)
            ck_assert_msg(!strstr(lines[i], "S + Load -> S  "), "a hit row printed: %s", lines[i]);
    }
    g_autofree char *hits = trace_of("--trace-only hits");
    guint single = count_lines(hits, " + Load -> ") + count_lines(hits, " + Store -> ");
    ck_assert_uint_gt(collapsed, 50);
    ck_assert_uint_eq(collapsed, single);
}
END_TEST

START_TEST(test_text_filters)
{
    g_autofree char *t = trace_of("--trace-line h_counter");
    ck_assert(strstr(t, "h_counter"));
    ck_assert(!strstr(t, "core 1  lock_word     I + Load"));
    /* every row line is about h_counter */
    g_auto(GStrv) lines = g_strsplit(t, "\n", -1);
    for (guint i = 0; lines[i]; i++)
        if (strstr(lines[i], " -> ") && !g_str_has_prefix(lines[i], "#"))
            ck_assert_msg(strstr(lines[i], " h_counter "), "%s", lines[i]);
    g_autofree char *tr = trace_of("--trace-only transitions");
    ck_assert(!strstr(tr, "lock:"));
    ck_assert(!strstr(tr, "pipeline:"));
    ck_assert(strstr(tr, "IS_D + Data_E -> E"));
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line(RUN " --trace-line nowhere", NULL, &err), 2);
    ck_assert_msg(strstr(err, "--trace-line nowhere") && strstr(err, "lock_word, h_counter"), "%s", err);
    g_autofree char *err2 = NULL;
    ck_assert_int_eq(run_qsim_line(RUN " --trace-only colours", NULL, &err2), 2);
    ck_assert_msg(strstr(err2, "transitions, hits, messages, pipeline, locks"), "%s", err2);
    g_autofree char *err3 = NULL, *err4 = NULL, *out4 = NULL;
    ck_assert_int_eq(run_qsim_line(RUN " --trace-out /nonexistent-dir/t.json", NULL, &err3), 2);
    ck_assert_msg(strstr(err3, "--trace-out /nonexistent-dir/t.json"), "%s", err3);
    ck_assert_int_eq(run_qsim_line(RUN " --trace --vs tas", &out4, &err4), 2);
    ck_assert_msg(strstr(err4, "not with --vs or --native"), "%s", err4);
}
END_TEST

/* docs/teaching.md's exercise 6: ttas without PAUSE, whose spinning loads a release squashes. */
#define NOPAUSE "run --config teaching --lock-file docs/teaching/ttas-nopause.qs --iterations 10 --no-host-time " \
                "--trace-line lock_word"

static char *nopause_trace(const char *args)
{
    g_autofree char *line = g_strdup_printf(NOPAUSE " %s", args);
    char *err = NULL;
    int rc = run_qsim_line(line, NULL, &err);
    ck_assert_msg(rc == 0, "qsim %s: exit %d: %s", line, rc, err);
    return err;
}

/* The row that causes an event comes before it: a machine clear follows the row that took its
 * line away (core 0's S + Inv -> I), in the same cycle, and says when fetch resumes and why a
 * squashed load's access still misses the cycle after. */
START_TEST(test_clear_after_its_cause)
{
    g_autofree char *t = nopause_trace("--trace");
    g_auto(GStrv) lines = g_strsplit(t, "\n", -1);
    guint clears = 0;
    for (guint i = 0; lines[i]; i++) {
        if (!strstr(lines[i], "machine clear"))
            continue;
        clears++;
        guint64 cycle = g_ascii_strtoull(lines[i], NULL, 10);
        ck_assert_msg(i > 0 && strstr(lines[i - 1], "core 0  lock_word     S + Inv -> I") &&
                          g_ascii_strtoull(lines[i - 1], NULL, 10) == cycle,
                      "the clear at %" G_GUINT64_FORMAT " comes after: %s", cycle, i ? lines[i - 1] : "");
        g_autofree char *resumes = g_strdup_printf("fetch resumes at cycle %" G_GUINT64_FORMAT
                                                   " (core.machine_clear_penalty, 20 cycles)", cycle + 20);
        ck_assert_msg(strstr(lines[i], resumes), "%s", lines[i]);
    }
    ck_assert_uint_eq(clears, 10);
    /* the first: the squashed load whose access was on its way misses at 272 */
    const char *first = strstr(t, "   271  core 0  lock_word     pipeline: memory-ordering machine clear");
    ck_assert_msg(first && strstr(first, "6 ops squashed, that load and all after it") &&
                      strstr(first, "1 of the squashed loads had already sent its access to the L1, which still "
                                    "performs it (a miss there asks for the line again)"),
                  "not found");
    ck_assert(strstr(t, "   272  core 0  lock_word     I + Load -> IS_D            load lock_word: sends GetS"));
}
END_TEST

/* Each row is named by the message that fired it and says why it waited, where it did. */
START_TEST(test_rows_say_what_fired_them)
{
    g_autofree char *t = nopause_trace("--trace-only transitions");
    /* the release's Upgrade queues behind core 0's GetS, and is served as an Upgrade */
    ck_assert_msg(strstr(t, "   311  home    lock_word     S_DU + Upgrade -> S_DU      queued at the home behind core 0's "
                            "transaction: S_DU waits for the old owner's copy-back (D) and the requester's Unblock (U)"),
                  "not found");
    ck_assert(!strstr(t, "+ GetM ->"));
    ck_assert(strstr(t, "   331  home    lock_word     S + Upgrade -> EM_U         Upgrade from core 1, queued at the "
                        "home since 311: sends Inv to core 0"));
    /* an upgrade's grant is no data: the row a data event names says it fired on an AckCount */
    ck_assert(strstr(t, "   271  core 1  lock_word     SM_AD + Data_Acks -> SM_A   AckCount from home, served as "
                        "Data_Acks (the upgrade's grant: no data, its copy is current): takes the grant\n"));
    ck_assert(!strstr(t, "SM_AD + Data_Acks -> SM_A   takes the data"));
    /* a data event that came with data is its message's row, with nothing to explain */
    ck_assert(!strstr(t, "Data(c2c) from") && !strstr(t, "served as Data"  "_E"));
    /* on a sole sharer's upgrade the grant expects no acks: Data, fired by the AckCount */
    g_autofree char *alone = NULL;
    static const char *const script[] = { "run", "--config", "teaching", "--script", "0:ld x, 1:ld x, 0:evict x, 1:st x",
                                          "--trace-only", "transitions", NULL };
    ck_assert_int_eq(run_qsim(script, NULL, &alone), 0);
    ck_assert_msg(strstr(alone, "SM_AD + Data -> M           AckCount from home, served as Data (the upgrade's grant: "
                                "no data, its copy is current): sends Unblock to home; takes the grant"),
                  "%s", alone);
    /* the Fwd-GetS of 128 waits for the xchg's hold */
    ck_assert_msg(strstr(t, "   130  core 1  lock_word     M + Fwd-GetS -> S           Fwd-GetS from home, arrived at 128 "
                            "and waited 2 cycles for a locked op's hold on the line (core.lock_hold_cycles): sends "
                            "Data(c2c) to core 0"),
                  "not found");
    /* MOESI: the owner's queued Upgrade is an Upgrade; a sharer's, with another cache the owner,
     * is served as a GetM, and the row says so */
    g_autofree char *moesi = trace_of("--set protocol=moesi --trace-only transitions --trace-line lock_word");
    ck_assert_msg(strstr(moesi, "   311  home    lock_word     O_U + Upgrade -> O_U        queued at the home behind core "
                                "0's transaction") && !strstr(moesi, "O_U + GetM"),
                  "not found");
    ck_assert_msg(strstr(moesi, "   503  home    lock_word     O + GetM -> EM_U            Upgrade from core 0, served as "
                                "GetM (the data comes too): sends Fwd-GetM to core 1 (for core 0)"),
                  "not found");
    /* on a bus, the wait for a grant counts from the ask: a free bus grants the next cycle */
    g_autofree char *bus = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching-bus --lock ttas --iterations 3 --no-host-time "
                                   "--trace-only transitions --trace-line lock_word", NULL, &bus), 0);
    ck_assert_msg(strstr(bus, "   169  core 1  lock_word     S + Store -> SM_D           atomic lock_word (asked for the "
                              "bus at 140, granted 29 cycles later: waited 28 cycles for other transactions): sends "
                              "GetM to bus"),
                  "not found");
}
END_TEST

/* The trace goes to stderr: the report on stdout is the same with or without it. */
START_TEST(test_trace_leaves_report_alone)
{
    g_autofree char *a = NULL, *b = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line(RUN " --format json", &a, NULL), 0);
    ck_assert_int_eq(run_qsim_line(RUN " --format json --trace", &b, &err), 0);
    /* the same report but for the command line in its provenance */
    g_autofree char *pa = report_without_provenance(a), *pb = report_without_provenance(b);
    ck_assert_msg(pa && pb && !strcmp(pa, pb), "--trace changed the report");
    ck_assert(strlen(err) > 1000);
}
END_TEST

/* ======================================================================================
 * Perfetto
 * ====================================================================================== */

static char *tmp_path(const char *name)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-trace-XXXXXX", NULL);
    ck_assert(dir);
    return g_build_filename(dir, name, NULL);
}

static void rm_tmp(const char *path)
{
    g_unlink(path);
    g_autofree char *dir = g_path_get_dirname(path);
    g_rmdir(dir);
}

START_TEST(test_perfetto)
{
    g_autofree char *path = tmp_path("t.json");
    g_autofree char *args = g_strdup_printf(RUN " --trace-out %s", path);
    ck_assert_int_eq(run_qsim_line(args, NULL, NULL), 0);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    golden_check("trace-ttas.json", text);
    g_autoptr(JsonParser) p = json_parser_new();
    g_autoptr(GError) error = NULL;
    ck_assert_msg(json_parser_load_from_data(p, text, -1, &error), "not JSON: %s", error ? error->message : "");
    JsonObject *root = json_node_get_object(json_parser_get_root(p));
    ck_assert_str_eq(json_object_get_string_member(root, "displayTimeUnit"), "ns");
    JsonArray *ev = json_object_get_array_member(root, "traceEvents");
    g_autoptr(GHashTable) flow_s = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    g_autoptr(GHashTable) flow_f = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    /* one flow per message of each type */
    g_autoptr(GHashTable) flows_by_type = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    guint threads = 0, states = 0, sm_ad = 0, locks = 0, nflows = 0;
    for (guint i = 0; i < json_array_get_length(ev); i++) {
        JsonObject *e = json_array_get_object_element(ev, i);
        for (const char *const *k = (const char *const[]){ "ph", "ts", "pid", "tid", "name", NULL }; *k; k++)
            ck_assert_msg(json_object_has_member(e, *k), "event %u has no %s", i, *k);
        const char *ph = json_object_get_string_member(e, "ph");
        ck_assert_msg(strchr("XMisf", ph[0]) && !ph[1], "event %u: ph %s", i, ph);
        double ts = json_object_get_double_member(e, "ts");
        ck_assert(ts >= 0);
        const char *name = json_object_get_string_member(e, "name");
        if (ph[0] == 'X')
            ck_assert(json_object_get_double_member(e, "dur") >= 0);
        if (ph[0] == 'M' && !strcmp(name, "thread_name"))
            threads++;
        const char *cat = json_object_has_member(e, "cat") ? json_object_get_string_member(e, "cat") : "";
        if (ph[0] == 'X' && !strcmp(cat, "state")) {
            states++;
            sm_ad += !strcmp(name, "SM_AD");
        }
        if (ph[0] == 'X' && !strcmp(cat, "lock"))
            locks++;
        if (ph[0] == 's' || ph[0] == 'f') {
            gint64 *id = g_new(gint64, 1);
            *id = json_object_get_int_member(e, "id");
            GHashTable *h = ph[0] == 's' ? flow_s : flow_f;
            ck_assert_msg(!g_hash_table_contains(h, id), "flow %" G_GINT64_FORMAT " has two '%s'", *id, ph);
            /* ts in microseconds: stored as thousandths to compare exactly */
            g_hash_table_insert(h, id, GINT_TO_POINTER((gint)(ts * 1000 + 0.5) + 1));
            if (ph[0] == 'f')
                ck_assert_str_eq(json_object_get_string_member(e, "bp"), "e");
            if (ph[0] == 's') {
                nflows++;
                guint had = GPOINTER_TO_UINT(g_hash_table_lookup(flows_by_type, name));
                g_hash_table_insert(flows_by_type, g_strdup(name), GUINT_TO_POINTER(had + 1));
            }
        }
    }
    ck_assert_uint_eq(g_hash_table_size(flow_s), g_hash_table_size(flow_f));
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, flow_s);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        gpointer f = g_hash_table_lookup(flow_f, k);
        ck_assert_msg(f, "flow %" G_GINT64_FORMAT " starts and never ends", *(gint64 *)k);
        ck_assert_int_ge(GPOINTER_TO_INT(f), GPOINTER_TO_INT(v));
    }
    /* one arrow per message the run sent: as many of each type as the report counts (not a
     * literal: the count moves whenever the timing model does) */
    g_autofree char *report = NULL;
    ck_assert_int_eq(run_qsim_line(RUN " --format json", &report, NULL), 0);
    g_autoptr(JsonParser) rp = json_parser_new();
    ck_assert(json_parser_load_from_data(rp, report, -1, NULL));
    JsonObject *coh = json_object_get_object_member(json_node_get_object(json_parser_get_root(rp)), "coherence");
    JsonObject *msgs = json_object_get_object_member(coh, "messages");
    g_autoptr(GList) types = json_object_get_members(msgs);
    guint sent = 0;
    for (GList *t = types; t; t = t->next) {
        guint n = (guint)json_object_get_int_member(msgs, t->data);
        ck_assert_msg(GPOINTER_TO_UINT(g_hash_table_lookup(flows_by_type, t->data)) == n,
                      "%s: the report counts %u, the trace has %u arrows", (const char *)t->data, n,
                      GPOINTER_TO_UINT(g_hash_table_lookup(flows_by_type, t->data)));
        sent += n;
    }
    ck_assert_uint_gt(sent, 20);
    ck_assert_uint_eq(nflows, sent); /* and no arrow of a type the report does not know */
    /* 2 cores and the home, three cache lines of three tracks each; lock phases: 6 acquiring,
     * 6 holding */
    ck_assert_uint_eq(threads, 3 + 3 * 3);
    ck_assert_uint_eq(locks, 12);
    ck_assert_uint_gt(states, 30);
    ck_assert_uint_gt(sm_ad, 0);
    rm_tmp(path);
}
END_TEST

/* ======================================================================================
 * The step-through page
 * ====================================================================================== */

/* The JSON data the page carries. */
static JsonObject *page_data(const char *html, JsonParser *p)
{
    const char *open = "<script type=\"application/json\" id=\"data\">";
    const char *a = strstr(html, open);
    ck_assert(a);
    a += strlen(open);
    const char *b = strstr(a, "</script>");
    ck_assert(b);
    g_autofree char *json = g_strndup(a, (gsize)(b - a));
    g_autoptr(GError) error = NULL;
    ck_assert_msg(json_parser_load_from_data(p, json, -1, &error), "%s", error ? error->message : "");
    return json_node_get_object(json_parser_get_root(p));
}

/* The first step whose title is `row` on `line`, from `from` on (1-based, as the page counts). */
static guint find_step(JsonObject *d, const char *row, const char *line, guint from)
{
    JsonArray *steps = json_object_get_array_member(d, "steps");
    JsonArray *lines = json_object_get_array_member(d, "lines");
    for (guint k = from; k <= json_array_get_length(steps); k++) {
        JsonObject *s = json_array_get_object_element(steps, k - 1);
        gint64 l = json_object_get_int_member(s, "l");
        if (l >= 0 && !strcmp(json_object_get_string_member(s, "t"), row) &&
            !strcmp(json_object_get_string_member(json_array_get_object_element(lines, (guint)l), "name"), line))
            return k;
    }
    ck_abort_msg("no step %s on %s", row, line);
    return 0;
}

static char *make_page(const char *path)
{
    g_autofree char *args = g_strdup_printf(RUN " --trace-html %s", path);
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim_line(args, NULL, &err) == 0, "%s", err);
    char *html = NULL;
    ck_assert(g_file_get_contents(path, &html, NULL, NULL));
    return html;
}

START_TEST(test_page_golden_and_data)
{
    g_autofree char *path = tmp_path("page.html");
    g_autofree char *html = make_page(path);
    golden_check("page-ttas.html", html);
    /* self-contained: nothing fetched (the SVG namespace is a name, not an address) */
    g_auto(GStrv) parts = g_strsplit(html, "http://www.w3.org/2000/svg", -1);
    g_autofree char *bare = g_strjoinv("", parts);
    ck_assert(!strstr(bare, "http://") && !strstr(bare, "https://") && !strstr(bare, " src="));
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    JsonArray *steps = json_object_get_array_member(d, "steps");
    /* the same events as the text trace with the same filters */
    g_autofree char *t = trace_of("--trace");
    guint text_events = 0;
    g_auto(GStrv) lines = g_strsplit(t, "\n", -1);
    for (guint i = 0; lines[i]; i++)
        text_events += lines[i][0] && lines[i][0] != '#' && !strstr(lines[i], " x ");
    ck_assert_uint_eq(json_array_get_length(steps), text_events);
    guint up = find_step(d, "S + Store -> SM_AD", "lock_word", 1);
    JsonObject *s = json_array_get_object_element(steps, up - 1);
    ck_assert(strstr(json_object_get_string_member(s, "w"), "sends Upgrade to home"));
    ck_assert(strstr(json_object_get_string_member(s, "x"), "Now SM_AD: from S to M"));
    ck_assert_int_eq(json_object_get_int_member(s, "tr"), 1);
    rm_tmp(path);
}
END_TEST

/* The cell (its <td ...> up to </td>) shows `state`, maybe followed by the directory's holders. */
static gboolean cell_shows(const char *td, const char *state)
{
    const char *text = strchr(td, '>');
    if (!text || !g_str_has_prefix(text + 1, state))
        return FALSE;
    char after = text[1 + strlen(state)];
    return after == '\0' || after == '<';
}

/* The state `who` ("core 1", "home") holds `line` in after step k (1-based), replayed from the
 * titles of the rows up to k ("S + Inv -> I": I), not from the page's own lists of changes;
 * "I" before its first row.  The browser test asks the page for states computed this way, so
 * it needs no step number or state of a particular timing. */
static char *replayed_state(JsonObject *d, const char *line, const char *who, guint k)
{
    JsonArray *steps = json_object_get_array_member(d, "steps");
    JsonArray *lines = json_object_get_array_member(d, "lines");
    const char *state = "I";
    for (guint i = 1; i <= k && i <= json_array_get_length(steps); i++) {
        JsonObject *s = json_array_get_object_element(steps, i - 1);
        gint64 l = json_object_get_int_member(s, "l");
        if (l < 0 || strcmp(json_object_get_string_member(s, "k"), "row") ||
            strcmp(json_object_get_string_member(s, "who"), who) ||
            strcmp(json_object_get_string_member(json_array_get_object_element(lines, (guint)l), "name"), line))
            continue;
        const char *next = strstr(json_object_get_string_member(s, "t"), " -> ");
        ck_assert_msg(next, "step %u: a row title without \" -> \"", i);
        state = next + 4;
    }
    return g_strdup(state);
}

/* Headless Chromium opens `url` in a window of `size` ("1280,1000"): the DOM after the page's
 * script ran (png NULL; caller frees), or a screenshot into png (returns NULL). */
static char *browse_sized(const char *chromium, const char *profile_arg, const char *url, const char *png, guint ms,
                          const char *size)
{
    g_autofree char *shot = png ? g_strdup_printf("--screenshot=%s", png) : NULL;
    g_autofree char *budget = g_strdup_printf("--virtual-time-budget=%u", ms);
    g_autofree char *window = g_strdup_printf("--window-size=%s", size);
    const char *argv[] = { chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           profile_arg, "--hide-scrollbars", window, png ? shot : "--dump-dom",
                           ms ? budget : url, ms ? url : NULL, NULL };
    char *dom = NULL;
    g_autofree char *err = NULL;
    int status = 0;
    g_autoptr(GError) error = NULL;
    if (png)
        g_unlink(png);
    ck_assert_msg(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &dom, &err, &status, &error),
                  "chromium: %s", error ? error->message : "");
    ck_assert_msg(g_spawn_check_wait_status(status, NULL), "chromium failed: %s", err);
    if (!png)
        return dom;
    g_free(dom);
    return NULL;
}

/* ... in a 1280x1000 window */
static char *browse_for(const char *chromium, const char *profile_arg, const char *url, const char *png, guint ms)
{
    return browse_sized(chromium, profile_arg, url, png, ms, "1280,1000");
}

static char *browse(const char *chromium, const char *profile_arg, const char *url, const char *png)
{
    return browse_for(chromium, profile_arg, url, png, 0);
}

/* The build folder (where the screenshots are kept for people to look at), absolute. */
static char *out_dir(void)
{
    const char *bin = g_getenv("QSIM_BIN");
    g_autofree char *dir = bin ? g_path_get_dirname(bin) : g_build_filename(test_srcdir(), "build", NULL);
    if (g_path_is_absolute(dir))
        return g_steal_pointer(&dir);
    g_autofree char *cwd = g_get_current_dir();
    return g_build_filename(cwd, dir, NULL);
}

/* A real browser opens the page at two steps (the URL fragment) and shows the states of that
 * step; a screenshot of a step with a transient state is kept in the build folder. */
START_TEST(test_page_in_browser)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_page_in_browser", "chromium is not installed: the page is not run in a browser");
        return;
    }
    g_autofree char *outdir = out_dir();
    g_autofree char *path = g_build_filename(outdir, "trace-page.html", NULL);
    g_autofree char *html = make_page(path);
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    guint n = json_array_get_length(json_object_get_array_member(d, "steps"));
    guint a = find_step(d, "S + Store -> SM_AD", "lock_word", 1);
    guint b = find_step(d, "SM_A + Last-Inv-Ack -> M", "lock_word", a);
    JsonObject *sa = json_array_get_object_element(json_object_get_array_member(d, "steps"), a - 1);
    const char *who = json_object_get_string_member(sa, "who"); /* "core N" */
    g_autofree char *cell = g_strdup_printf("id=\"cell-lock_word-c%s\"", who + 5);
    g_autofree char *other = g_strdup_printf("id=\"cell-lock_word-c%d\"", who[5] == '0' ? 1 : 0);
    g_autofree char *profile = tmpdir();
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    /* the next transition of lock_word after step a, as the page's `n` key finds it */
    guint after_a = a + 1;
    JsonArray *steps = json_object_get_array_member(d, "steps");
    while (after_a <= n) {
        JsonObject *s = json_array_get_object_element(steps, after_a - 1);
        if (json_object_get_int_member(s, "tr") && json_object_get_int_member(s, "l") == json_object_get_int_member(d, "lockLine"))
            break;
        after_a++;
    }
    ck_assert_uint_le(after_a, b);
    const char *other_who = who[5] == '0' ? "core 1" : "core 0";
    /* which step each check opens and what it must show: found in the data, so that the test
     * follows the run when the timing model moves its steps (the states of the other core are
     * replayed from the row titles, see replayed_state) */
    struct {
        guint step;
        const char *fragment;
        gboolean cells, changed;
    } checks[] = {
        { a, "", TRUE, TRUE },                          /* the core's row put it in SM_AD */
        { b, "", TRUE, TRUE },                          /* and this one in M */
        { a + 1, "&press=jjk", TRUE, FALSE },           /* forward twice, back once: the step after a */
        { a, "&line=lock_word&press=np", TRUE, TRUE },  /* next transition, then back to a */
        { after_a, "&press=n", FALSE, FALSE },          /* the next transition of the lock's line */
        /* the keys work while the line menu has the focus, and the address keeps the line */
        { a + 1, "&line=h_counter&focus=line&press=j", TRUE, FALSE },
    };
    for (guint i = 0; i < G_N_ELEMENTS(checks); i++) {
        guint open = i >= 2 ? a : checks[i].step;
        g_autofree char *url = g_strdup_printf("file://%s#step=%u%s", path, open, checks[i].fragment);
        g_autofree char *dom = browse(chromium, profile_arg, url, NULL);
        g_autofree char *stepno = g_strdup_printf("id=\"step-no\">step %u of %u ", checks[i].step, n);
        ck_assert_msg(strstr(dom, stepno), "no %s in the page's DOM", stepno);
        g_autofree char *link = g_strdup_printf("id=\"permalink\" href=\"#step=%u&amp;line=%s\"", checks[i].step,
                                                strstr(checks[i].fragment, "h_counter") ? "h_counter" : "lock_word");
        ck_assert_msg(strstr(dom, link), "no %s in the page's DOM", link);
        if (!checks[i].cells)
            continue;
        g_autofree char *want_mine = replayed_state(d, "lock_word", who, checks[i].step);
        g_autofree char *want_theirs = replayed_state(d, "lock_word", other_who, checks[i].step);
        if (checks[i].step == a)
            ck_assert_str_eq(want_mine, "SM_AD");
        if (checks[i].step == b)
            ck_assert_str_eq(want_mine, "M");
        const char *mine = strstr(dom, cell), *theirs = strstr(dom, other);
        ck_assert_msg(mine && theirs, "no state cells in the DOM at step %u", checks[i].step);
        const char *end = strstr(mine, "</td>"), *end2 = strstr(theirs, "</td>");
        g_autofree char *mine_td = g_strndup(mine, (gsize)(end - mine)), *theirs_td = g_strndup(theirs, (gsize)(end2 - theirs));
        ck_assert_msg(cell_shows(mine_td, want_mine), "step %u: %s shows %s, not %s", checks[i].step, who, mine_td,
                      want_mine);
        ck_assert_msg(cell_shows(theirs_td, want_theirs), "step %u: %s shows %s, not %s", checks[i].step, other_who,
                      theirs_td, want_theirs);
        if (checks[i].changed)
            ck_assert_msg(strstr(mine_td, !strcmp(want_mine, "M") ? "stable changed" : "transient changed"), "%s",
                          mine_td);
        ck_assert(strstr(dom, "id=\"event\""));
        ck_assert(strstr(dom, ">retires at cycle</th>")); /* the "at" column says what it is */
    }
    /* &play steps on by itself: two seconds of the browser's virtual time (the page's timers,
     * not this machine's speed) take it past step a */
    g_autofree char *play_url = g_strdup_printf("file://%s#step=%u&play", path, a);
    g_autofree char *played = browse_for(chromium, profile_arg, play_url, NULL, 2000);
    const char *now = strstr(played, "id=\"step-no\">step ");
    ck_assert_msg(now && (guint)atoi(now + strlen("id=\"step-no\">step ")) > a, "&play did not step on from %u", a);
    ck_assert(strstr(played, "pause"));
    /* the screenshot: the transient step, for people to look at */
    g_autofree char *png = g_build_filename(outdir, "trace-page-transient.png", NULL);
    g_autofree char *url = g_strdup_printf("file://%s#step=%u", path, a);
    browse(chromium, profile_arg, url, png);
    g_autofree char *img = NULL;
    gsize len = 0;
    ck_assert_msg(g_file_get_contents(png, &img, &len, NULL) && len > 1000 && !memcmp(img, "\x89PNG", 4),
                  "no screenshot at %s", png);
    rm_rf(profile);
}
END_TEST

/* ======================================================================================
 * The machine drawn on the page, looked at in screenshots
 * ====================================================================================== */

/* What a page's step must show, found in its data (so that the test follows the run when the
 * timing model moves the steps). */
enum { SHOW_STORE_WAITS = 1, SHOW_QUEUE = 2, SHOW_BUS_HELD = 4, SHOW_MESSAGES = 8, SHOW_COPYBACK = 16 };

static const struct {
    const char *name, *args;
    const char *state;           /* a cache holds the lock's line in this state (replayed from the rows) */
    guint show;
    guint8 rgb[3];               /* the colour the page draws `state` in */
} machine_pages[] = {
    { "ttas", RUN, "S", SHOW_STORE_WAITS | SHOW_MESSAGES, { 0x56, 0xB4, 0xE9 } },
    { "ticket", "run --config teaching --lock ticket --set topology.cores_per_socket=4 --threads 4 --iterations 3"
                " --no-host-time", "M", SHOW_QUEUE, { 0xD5, 0x5E, 0x00 } },
    { "moesi", "run --config teaching --lock ttas --set protocol=moesi --iterations 3 --no-host-time", "O", 0,
      { 0xCC, 0x79, 0xA7 } },
    { "bus", "run --config teaching-bus --lock ttas --iterations 3 --no-host-time", "M", SHOW_BUS_HELD,
      { 0xD5, 0x5E, 0x00 } },
    /* a CopyBack carries data: drawn in the data colour, though its name is not Data */
    { "copyback", RUN, "S", SHOW_MESSAGES | SHOW_COPYBACK, { 0x56, 0xB4, 0xE9 } },
};
static const guint8 sb_rgb[3] = { 0xF0, 0xE4, 0x42 }, queue_rgb[3] = { 0xBF, 0xE3, 0xF7 }, bus_rgb[3] = { 0x00, 0x72, 0xB2 };

/* Whether step k shows what `show` asks, by the page's data: a store-buffer entry open over k,
 * two requests queued for the lock's line, a request on the bus. */
static gboolean step_shows(JsonObject *d, guint k, guint show)
{
    if (show & SHOW_STORE_WAITS) {
        JsonArray *ops = json_object_get_array_member(d, "ops");
        gboolean any = FALSE;
        for (guint i = 0; i < json_array_get_length(ops) && !any; i++) {
            JsonArray *o = json_array_get_array_element(ops, i);
            gint64 s1 = json_array_get_int_element(o, 7);
            any = !strcmp(json_array_get_string_element(o, 1), "s") && json_array_get_int_element(o, 5) <= k &&
                  (s1 < 0 || s1 > k);
        }
        if (!any)
            return FALSE;
    }
    if (show & SHOW_BUS_HELD) {
        JsonArray *msgs = json_object_get_array_member(d, "msgs");
        gint64 now = json_object_get_int_member(json_array_get_object_element(json_object_get_array_member(d, "steps"), k - 1), "c");
        gboolean any = FALSE;
        for (guint i = 0; i < json_array_get_length(msgs) && !any; i++) {
            JsonObject *m = json_array_get_object_element(msgs, i);
            any = !strcmp(json_object_get_string_member(m, "to"), "bus") && json_object_get_int_member(m, "s0") <= k &&
                  json_object_get_int_member(m, "s1") >= k && json_object_get_int_member(m, "s") <= now;
        }
        if (!any)
            return FALSE;
    }
    if (show & SHOW_COPYBACK) {
        JsonArray *msgs = json_object_get_array_member(d, "msgs");
        gboolean any = FALSE;
        for (guint i = 0; i < json_array_get_length(msgs) && !any; i++) {
            JsonObject *m = json_array_get_object_element(msgs, i);
            any = !strcmp(json_object_get_string_member(m, "t"), "CopyBack") &&
                  json_object_get_int_member(m, "s0") <= k && json_object_get_int_member(m, "s1") >= k;
        }
        if (!any)
            return FALSE;
    }
    if (show & SHOW_MESSAGES) {
        JsonArray *msgs = json_object_get_array_member(d, "msgs");
        guint n = 0;
        for (guint i = 0; i < json_array_get_length(msgs); i++) {
            JsonObject *m = json_array_get_object_element(msgs, i);
            n += json_object_get_int_member(m, "s0") <= k && json_object_get_int_member(m, "s1") >= k;
        }
        if (n < 2)
            return FALSE;
    }
    if (show & SHOW_QUEUE) {
        /* the queue column (after the caches, the directory and memory) as the steps change it */
        JsonArray *steps = json_object_get_array_member(d, "steps");
        gint64 qcol = (gint64)json_array_get_length(json_object_get_array_member(d, "cores")) + 2, n = 0;
        for (guint i = 1; i <= k; i++) {
            JsonArray *ch = json_object_get_array_member(json_array_get_object_element(steps, i - 1), "ch");
            for (guint c = 0; c < json_array_get_length(ch); c++) {
                JsonArray *e = json_array_get_array_element(ch, c);
                if (json_array_get_int_element(e, 0) == json_object_get_int_member(d, "lockLine") &&
                    json_array_get_int_element(e, 1) == qcol)
                    n = json_array_get_length(json_array_get_array_element(e, 4));
            }
        }
        if (n < 2)
            return FALSE;
    }
    return TRUE;
}

/* The attribute `attr` of the element with id `id` in the DOM; NULL when absent. */
static char *dom_attr(const char *dom, const char *id, const char *attr)
{
    g_autofree char *key = g_strdup_printf("id=\"%s\"", id), *want = g_strdup_printf(" %s=\"", attr);
    const char *at = strstr(dom, key);
    if (!at)
        return NULL;
    const char *start = at, *end = strchr(at, '>');
    while (start > dom && *start != '<')
        start--;
    g_autofree char *tag = g_strndup(start, (gsize)(end - start));
    const char *v = strstr(tag, want);
    if (!v)
        return NULL;
    v += strlen(want);
    return g_strndup(v, strcspn(v, "\""));
}

/* The colour inside the element `id`, clear of its border and its text, is near `rgb`: at its
 * left edge halfway down, or (a label as wide as its chip) at the middle of its top edge. */
static void check_colour(const PngImage *img, const char *dom, const char *id, const guint8 rgb[3], const char *page)
{
    g_autofree char *box = dom_attr(dom, id, "data-box");
    ck_assert_msg(box, "%s: no %s with its box in the DOM", page, id);
    int x = 0, y = 0, w = 0, h = 0;
    ck_assert_int_eq(sscanf(box, "%d,%d,%d,%d", &x, &y, &w, &h), 4);
    const int at[2][2] = { { x + 3, y + h / 2 }, { x + w / 2, y + 3 } };
    guint8 got[3];
    for (guint p = 0; p < 2; p++) {
        png_pixel(img, at[p][0], at[p][1], got);
        gboolean near = TRUE;
        for (guint c = 0; c < 3; c++)
            near &= ABS((int)got[c] - (int)rgb[c]) <= 16;
        if (near)
            return;
    }
    ck_abort_msg("%s: %s at (%d,%d) is #%02x%02x%02x, not #%02x%02x%02x", page, id, at[1][0], at[1][1], got[0], got[1],
                 got[2], rgb[0], rgb[1], rgb[2]);
}

/* Each page at a step found in its data: the DOM says what the machine shows (a cache's state,
 * the store buffer, the home's queue, the bus's holder) and the screenshot shows it in its
 * colour there.  The screenshots stay in the build folder as page-NAME-stepK.png. */
START_TEST(test_page_machine)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_page_machine", "chromium is not installed: the page is not drawn");
        return;
    }
    const char *name = machine_pages[_i].name;
    g_autofree char *outdir = out_dir();
    g_autofree char *file = g_strdup_printf("page-%s.html", name);
    g_autofree char *path = g_build_filename(outdir, file, NULL);
    g_autofree char *args = g_strdup_printf("%s --trace-html %s", machine_pages[_i].args, path);
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim_line(args, NULL, &err) == 0, "%s", err);
    g_autofree char *html = NULL;
    ck_assert(g_file_get_contents(path, &html, NULL, NULL));
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    JsonArray *cores = json_object_get_array_member(d, "cores");
    guint n = json_array_get_length(json_object_get_array_member(d, "steps"));
    /* the first step that shows what is asked with a cache holding the lock's line in `state` */
    guint k = 0;
    gint64 core = -1;
    for (guint s = 1; s <= n && core < 0; s++) {
        if (!step_shows(d, s, machine_pages[_i].show))
            continue;
        for (guint c = 0; c < json_array_get_length(cores) && core < 0; c++) {
            g_autofree char *who = g_strdup_printf("core %" G_GINT64_FORMAT, json_array_get_int_element(cores, c));
            g_autofree char *st = replayed_state(d, "lock_word", who, s);
            if (!strcmp(st, machine_pages[_i].state)) {
                k = s;
                core = json_array_get_int_element(cores, c);
            }
        }
    }
    ck_assert_msg(core >= 0, "%s: no step with lock_word in %s and what is asked", name, machine_pages[_i].state);
    g_autofree char *profile = tmpdir();
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    g_autofree char *url = g_strdup_printf("file://%s#step=%u", path, k);
    g_autofree char *dom = browse(chromium, profile_arg, url, NULL);
    g_autofree char *shot = g_strdup_printf("page-%s-step%u.png", name, k);
    g_autofree char *png = g_build_filename(outdir, shot, NULL);
    browse(chromium, profile_arg, url, png);
    PngImage img;
    g_autoptr(GError) error = NULL;
    ck_assert_msg(png_read(png, &img, &error), "%s", error ? error->message : "");
    ck_assert_uint_eq(img.width, 1280);
    g_autofree char *stepno = g_strdup_printf("id=\"step-no\">step %u of %u ", k, n);
    ck_assert_msg(strstr(dom, stepno), "%s: no %s in the DOM", name, stepno);
    /* the cache's state where the page draws it, in its colour */
    g_autofree char *cell = g_strdup_printf("svg-lock_word-c%" G_GINT64_FORMAT, core);
    g_autofree char *drawn = dom_attr(dom, cell, "data-state");
    ck_assert_msg(drawn && !strcmp(drawn, machine_pages[_i].state), "%s step %u: %s draws %s, not %s", name, k, cell,
                  drawn ? drawn : "nothing", machine_pages[_i].state);
    check_colour(&img, dom, cell, machine_pages[_i].rgb, name);
    if (machine_pages[_i].show & SHOW_STORE_WAITS) {
        gboolean seen = FALSE;
        for (guint c = 0; c < json_array_get_length(cores); c++) {
            g_autofree char *sb = g_strdup_printf("sb-c%" G_GINT64_FORMAT, json_array_get_int_element(cores, c));
            g_autofree char *entry = g_strdup_printf("sb-entry-c%" G_GINT64_FORMAT, json_array_get_int_element(cores, c));
            g_autofree char *count = dom_attr(dom, sb, "data-n");
            ck_assert_msg(count, "%s: no %s in the DOM", name, sb);
            if (atoi(count) > 0) {
                check_colour(&img, dom, entry, sb_rgb, name);
                seen = TRUE;
            } else
                ck_assert_msg(!strstr(dom, entry), "%s: an empty store buffer draws an entry", name);
        }
        ck_assert_msg(seen, "%s step %u: no store buffer with an entry", name, k);
    }
    if (machine_pages[_i].show & SHOW_QUEUE) {
        g_autofree char *count = dom_attr(dom, "queue-lock_word", "data-n");
        ck_assert_msg(count && atoi(count) >= 2, "%s step %u: the home's queue shows %s requests", name, k, count);
        check_colour(&img, dom, "queue-lock_word-1", queue_rgb, name);
    }
    if (machine_pages[_i].show & SHOW_MESSAGES) {
        /* every message in flight is drawn, its chip in the colour of its kind */
        JsonArray *msgs = json_object_get_array_member(d, "msgs");
        guint drawn_msgs = 0, in_flight = 0;
        for (const char *c = dom; (c = strstr(c, "class=\"msg-chip\"")); c++)
            drawn_msgs++;
        for (guint i = 0; i < json_array_get_length(msgs); i++) {
            JsonObject *m = json_array_get_object_element(msgs, i);
            if (json_object_get_int_member(m, "s0") > k || json_object_get_int_member(m, "s1") < k)
                continue;
            in_flight++;
            const char *t = json_object_get_string_member(m, "t");
            static const guint8 data_rgb[3] = { 0x00, 0x9E, 0x73 }, ack_rgb[3] = { 0xCC, 0x79, 0xA7 },
                                inv_rgb[3] = { 0xD5, 0x5E, 0x00 }, req_rgb[3] = { 0x00, 0x72, 0xB2 };
            /* the colour says what a message carries: the data (a CopyBack too), an ack, an
             * invalidation or forward, else a request */
            gboolean data = g_str_has_prefix(t, "Data") || !strcmp(t, "CopyBack");
            const guint8 *want = data ? data_rgb : strstr(t, "Ack") ? ack_rgb
                               : strstr(t, "Inv") || strstr(t, "Fwd") ? inv_rgb : req_rgb;
            g_autofree char *id = g_strdup_printf("msg-%u", i);
            check_colour(&img, dom, id, want, name);
            const char *kind = json_object_has_member(m, "k") ? json_object_get_string_member(m, "k") : "";
            ck_assert_msg(!strcmp(kind, data ? "data" : want == ack_rgb ? "ack" : want == inv_rgb ? "inv" : "req"),
                          "%s step %u: %s is of kind '%s'", name, k, t, kind);
        }
        ck_assert_uint_eq(drawn_msgs, in_flight);
    }
    if (machine_pages[_i].show & SHOW_BUS_HELD) {
        ck_assert_msg(strstr(dom, "bus: held by core "), "%s step %u: the bus is not held", name, k);
        /* a bus's memory lists no holders: the home says what its state means ("M  no holders"
         * read as nobody holding a line one cache holds in M) */
        const char *home = strstr(dom, "id=\"home-lock_word\"");
        ck_assert_msg(home, "%s step %u: no words beside the home's state", name, k);
        home = strchr(home, '>') + 1;
        g_autofree char *words = g_strndup(home, strcspn(home, "<"));
        ck_assert_msg(!strstr(words, "holders") && (g_str_has_prefix(words, "one cache holds the line in M") ||
                                                    g_str_has_prefix(words, "memory owns the line") ||
                                                    g_str_has_prefix(words, "waiting for")),
                      "%s step %u: the home says '%s'", name, k, words);
        check_colour(&img, dom, "bus", bus_rgb, name);
    }
    png_clear(&img);
    rm_rf(profile);
}
END_TEST

/* The box (x, y, width, height) the page wrote for the element `id` as drawn. */
static void dom_box(const char *dom, const char *id, int box[4], const char *what)
{
    g_autofree char *b = dom_attr(dom, id, "data-box");
    ck_assert_msg(b, "%s: no %s with its box in the DOM", what, id);
    ck_assert_int_eq(sscanf(b, "%d,%d,%d,%d", &box[0], &box[1], &box[2], &box[3]), 4);
}

/* The drawing stays where it is from step to step: over ttas steps 29-32 the explanation above
 * it changes length (the bus moved 610 -> 652 -> 523 -> 589 px).  And at 1024 x 768 the page
 * works: the protocol's table beside the drawing keeps room to be read, and the home and the
 * memory are above the fold. */
START_TEST(test_page_drawing_stays_put)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_page_drawing_stays_put", "chromium is not installed: the page is not drawn");
        return;
    }
    g_autofree char *dir = tmpdir();
    g_autofree char *path = g_build_filename(dir, "ttas.html", NULL);
    g_autofree char *html = make_page(path);
    g_autofree char *profile = tmpdir();
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    static const char *const sizes[] = { "1280,1000", "1024,768" };
    for (guint z = 0; z < G_N_ELEMENTS(sizes); z++) {
        int first[4] = { 0 };
        for (guint k = 29; k <= 32; k++) {
            g_autofree char *url = g_strdup_printf("file://%s#step=%u", path, k);
            g_autofree char *dom = browse_sized(chromium, profile_arg, url, NULL, 0, sizes[z]);
            g_autofree char *what = g_strdup_printf("%s step %u", sizes[z], k);
            int bus[4], table[4], home[4], mem[4];
            dom_box(dom, "bus", bus, what);
            dom_box(dom, "table", table, what);
            dom_box(dom, "home", home, what);
            dom_box(dom, "memory", mem, what);
            if (k == 29)
                memcpy(first, bus, sizeof first);
            ck_assert_msg(!memcmp(first, bus, sizeof first), "%s: the bus is at %d,%d, at step 29 at %d,%d", what, bus[0],
                          bus[1], first[0], first[1]);
            ck_assert_msg(table[2] >= 240, "%s: the protocol's table is %d px wide", what, table[2]);
            if (z == 1)
                ck_assert_msg(home[1] + home[3] <= 768 && mem[1] + mem[3] <= 768,
                              "%s: the home ends at %d px, the memory at %d px, below the fold", what, home[1] + home[3],
                              mem[1] + mem[3]);
        }
    }
    rm_rf(profile);
    rm_rf(dir);
}
END_TEST

/* The first step whose cycle lies in [from, to), 0: none. */
static guint step_in(JsonArray *steps, gint64 from, gint64 to)
{
    for (guint k = 1; k <= json_array_get_length(steps); k++) {
        gint64 c = json_object_get_int_member(json_array_get_object_element(steps, k - 1), "c");
        if (c >= from && c < to)
            return k;
    }
    return 0;
}

/* On a bus a transaction holds the bus from its grant until its data is in (coherence/bus.c),
 * and its data rides the bus.  producer-consumer on teaching-bus: the step where the owner's
 * line goes to IorS_D ("the bus is held") and a step while the memory reads the data (core 0
 * "waited 85 cycles for other transactions") drew "bus: free", and the data went cache to cache
 * over the bus's head. */
START_TEST(test_page_bus_held)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_page_bus_held", "chromium is not installed: the page is not drawn");
        return;
    }
    g_autofree char *dir = tmpdir();
    g_autofree char *path = g_build_filename(dir, "bus.html", NULL);
    g_autofree char *args = g_strdup_printf("run --scenario producer-consumer --config teaching-bus --iterations 3 "
                                            "--no-host-time --trace-html %s", path);
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim_line(args, NULL, &err) == 0, "%s", err);
    g_autofree char *html = NULL;
    ck_assert(g_file_get_contents(path, &html, NULL, NULL));
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    JsonArray *steps = json_object_get_array_member(d, "steps"), *msgs = json_object_get_array_member(d, "msgs");
    g_autofree char *profile = tmpdir();
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    guint checked = 0, rode = 0, iors = 0;
    gboolean waited = FALSE, held_iors = FALSE;
    for (guint s = 1; s <= json_array_get_length(steps) && !iors; s++)
        if (g_str_has_suffix(json_object_get_string_member(json_array_get_object_element(steps, s - 1), "t"), "-> IorS_D"))
            iors = s;
    ck_assert_msg(iors, "no step into IorS_D");
    gint64 iors_at = json_object_get_int_member(json_array_get_object_element(steps, iors - 1), "c");
    /* each request on the bus: held from its sending (the grant) until the last data sent at its
     * snoop arrives; the teacher's step into IorS_D ("the bus is held") and the first step in a
     * responder's wait */
    for (guint i = 0; i < json_array_get_length(msgs) && !(waited && held_iors); i++) {
        JsonObject *r = json_array_get_object_element(msgs, i);
        if (strcmp(json_object_get_string_member(r, "to"), "bus"))
            continue;
        gint64 snoop = json_object_get_int_member(r, "a"), in = snoop;
        for (guint j = 0; j < json_array_get_length(msgs); j++) {
            JsonObject *m = json_array_get_object_element(msgs, j);
            if (json_object_get_int_member(m, "s") == snoop && !strcmp(json_object_get_string_member(m, "k"), "data"))
                in = MAX(in, json_object_get_int_member(m, "a"));
        }
        guint k = 0;
        if (!held_iors && iors_at >= json_object_get_int_member(r, "s") && iors_at <= in) {
            k = iors;
            held_iors = TRUE;
        } else if (!waited && (k = step_in(steps, snoop + 1, in)))
            waited = TRUE;
        if (!k)
            continue;
        g_autofree char *url = g_strdup_printf("file://%s#step=%u", path, k);
        g_autofree char *dom = browse(chromium, profile_arg, url, NULL);
        g_autofree char *want = g_strdup_printf("bus: held by %s for %s", json_object_get_string_member(r, "f"),
                                                json_object_get_string_member(r, "t"));
        g_autofree char *label = dom_attr(dom, "bus", "fill");
        ck_assert_msg(strstr(dom, want), "step %u (cycle in %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT "): no '%s' (bus %s)",
                      k, json_object_get_int_member(r, "s"), in, want, label);
        g_autofree char *shot = g_strdup_printf("page-bus-held-step%u.png", k);
        g_autofree char *outdir = out_dir();
        g_autofree char *png = g_build_filename(outdir, shot, NULL);
        browse(chromium, profile_arg, url, png);
        PngImage img;
        g_autoptr(GError) error = NULL;
        ck_assert_msg(png_read(png, &img, &error), "%s", error ? error->message : "");
        check_colour(&img, dom, "bus", bus_rgb, "bus-held");
        png_clear(&img);
        /* the data in flight rides the bus: its arrow reaches the bus's middle */
        int bus[4];
        dom_box(dom, "bus", bus, "bus-held");
        for (guint j = 0; j < json_array_get_length(msgs); j++) {
            JsonObject *m = json_array_get_object_element(msgs, j);
            if (strcmp(json_object_get_string_member(m, "k"), "data") || json_object_get_int_member(m, "s0") > k ||
                json_object_get_int_member(m, "s1") < k)
                continue;
            g_autofree char *id = g_strdup_printf("msg-path-%u", j);
            int box[4];
            dom_box(dom, id, box, "bus-held");
            ck_assert_msg(box[1] <= bus[1] + bus[3] / 2 && box[1] + box[3] >= bus[1] + bus[3] / 2,
                          "step %u: %s from %s spans y %d..%d, off the bus's middle %d", k,
                          json_object_get_string_member(m, "t"), json_object_get_string_member(m, "f"), box[1],
                          box[1] + box[3], bus[1] + bus[3] / 2);
            rode++;
        }
        checked++;
    }
    ck_assert_uint_eq(checked, 2);
    ck_assert_msg(rode > 0, "no data in flight at the steps looked at");
    rm_rf(profile);
    rm_rf(dir);
}
END_TEST

/* The access a Data row wakes performs in that row's cycle, so its value shows at that step, not
 * one later: on four cores taking a ticket, the step where the lock word's data reaches a core
 * waiting with its fetch-and-add already shows the added ticket (the fadd is a hit folded into
 * the step; it showed the old 0 until the next step). */
START_TEST(test_page_value_at_its_step)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *path = g_build_filename(dir, "ticket.html", NULL);
    g_autofree char *args = g_strdup_printf("run --config teaching --lock ticket --set topology.cores_per_socket=4 "
                                            "--threads 4 --iterations 3 --no-host-time --trace-html %s", path);
    ck_assert_int_eq(run_qsim_line(args, NULL, NULL), 0);
    g_autofree char *html = NULL;
    ck_assert(g_file_get_contents(path, &html, NULL, NULL));
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    JsonArray *steps = json_object_get_array_member(d, "steps");
    gboolean found = FALSE;
    for (guint i = 0; i < json_array_get_length(steps) && !found; i++) {
        JsonObject *s = json_array_get_object_element(steps, i);
        if (strcmp(json_object_get_string_member(s, "t"), "IM_AD + Data -> M"))
            continue;
        found = TRUE;
        gint64 l = json_object_get_int_member(s, "l");
        JsonArray *ch = json_object_get_array_member(s, "ch");
        gint64 last = -1;
        for (guint c = 0; c < json_array_get_length(ch); c++) {
            JsonArray *one = json_array_get_array_element(ch, c);
            if (json_array_get_int_element(one, 0) == l && !JSON_NODE_HOLDS_NULL(json_array_get_element(one, 4)) &&
                json_array_get_int_element(one, 1) < json_array_get_length(json_object_get_array_member(d, "cores")))
                last = json_array_get_int_element(json_array_get_array_element(one, 4), 0);
        }
        ck_assert_msg(last == 0x10000, "step %u: the core's lock word shows %" G_GINT64_FORMAT ", not the ticket it "
                      "took (0x10000)", i + 1, last);
    }
    ck_assert(found);
    rm_rf(dir);
}
END_TEST

/* Every shipped scenario (scenarios/) makes a page that a real browser opens and draws: the
 * step counter and a private cache's cell of its lines are in the DOM after the script ran. */
static const char *const scenario_pages[] = { "false-sharing", "padded", "ping-pong", "producer-consumer",
                                              "spin-pause", "spin-nopause" };

START_TEST(test_scenario_pages_open)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_scenario_pages_open", "chromium is not installed: the page is not drawn");
        return;
    }
    const char *name = scenario_pages[_i];
    g_autofree char *outdir = out_dir();
    g_autofree char *file = g_strdup_printf("page-scenario-%s.html", name);
    g_autofree char *path = g_build_filename(outdir, file, NULL);
    g_autofree char *args = g_strdup_printf("run --scenario %s --iterations 2 --no-host-time --trace-html %s", name, path);
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim_line(args, NULL, &err) == 0, "%s: %s", name, err);
    g_autofree char *profile = tmpdir();
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    g_autofree char *url = g_strdup_printf("file://%s#step=1", path);
    g_autofree char *dom = browse(chromium, profile_arg, url, NULL);
    ck_assert_msg(strstr(dom, "id=\"step-no\">step 1 of "), "%s: the page did not run its script", name);
    ck_assert_msg(strstr(dom, "id=\"svg-") && strstr(dom, "-c0\""), "%s: no machine drawn", name);
    /* a scenario has no lock: its cores' phases are named for the body the marks bracket */
    ck_assert_msg(!strstr(dom, "outside the lock") && !strstr(dom, "holding the lock") &&
                      (strstr(dom, "between calls") || strstr(dom, "in its body")),
                  "%s: the page names a lock phase", name);
    rm_rf(profile);
}
END_TEST

/* A script's page says which access is in progress at each step: `#2 1:st x=5` while core 1's
 * store runs, on the page and on core 1 in the drawing (core 0 idle). */
START_TEST(test_script_page_shows_the_access)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_script_page_shows_the_access", "chromium is not installed: the page is not drawn");
        return;
    }
    g_autofree char *dir = tmpdir();
    g_autofree char *path = g_build_filename(dir, "script.html", NULL);
    const char *args[] = { "run", "--config", "teaching", "--script", "0:ld x, 1:st x=5, 0:ld x", "--trace-html", path, NULL };
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim(args, NULL, &err) == 0, "%s", err);
    g_autofree char *html = NULL;
    ck_assert(g_file_get_contents(path, &html, NULL, NULL));
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    guint k = find_step(d, "E + Fwd-GetM -> I", "x", 1); /* core 0 gives the line up to core 1's store */
    g_autofree char *profile = g_build_filename(dir, "profile", NULL);
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    g_autofree char *url = g_strdup_printf("file://%s#step=%u", path, k);
    g_autofree char *dom = browse(chromium, profile_arg, url, NULL);
    ck_assert_msg(strstr(dom, "id=\"access\">scripted access #2 1:st x=5 in progress, on core 1<"), "step %u: %s", k, dom);
    const char *c1 = strstr(dom, "id=\"access-c1\""), *c0 = strstr(dom, "id=\"access-c0\"");
    ck_assert_msg(c1 && c0, "no access drawn on the cores");
    ck_assert_msg(g_str_has_prefix(strchr(c1, '>'), ">doing #2 1:st x=5<"), "core 1: %.60s", c1);
    ck_assert_msg(g_str_has_prefix(strchr(c0, '>'), ">idle<"), "core 0: %.60s", c0);
    /* the first step is the first access's */
    g_autofree char *url1 = g_strdup_printf("file://%s#step=1", path);
    g_autofree char *first = browse(chromium, profile_arg, url1, NULL);
    ck_assert_msg(strstr(first, "scripted access #1 0:ld x in progress, on core 0"), "step 1");
    rm_rf(dir);
}
END_TEST

/* A page cut short (more steps than a page holds) says so on stderr, one line, not only inside
 * the page; a page of the whole run says nothing. */
START_TEST(test_cut_page_says_so)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *path = g_build_filename(dir, "long.html", NULL);
    g_autofree char *args = g_strdup_printf("run --config teaching --lock ttas --iterations 1500 --no-host-time "
                                            "--trace-html %s", path);
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line(args, NULL, &err), 0);
    g_autofree char *want = g_strdup_printf("qsim run: warning: --trace-html %s: the page holds the first 20000 steps "
                                            "of the run and leaves out ", path);
    ck_assert_msg(g_str_has_prefix(err, want) && strchr(err, '\n') == err + strlen(err) - 1, "stderr: %s", err);
    g_autofree char *html = NULL;
    ck_assert(g_file_get_contents(path, &html, NULL, NULL));
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    g_autofree char *count = g_strdup_printf("leaves out %" G_GINT64_FORMAT " more:", json_object_get_int_member(d, "dropped"));
    ck_assert_msg(json_object_get_int_member(d, "dropped") > 0 && strstr(err, count), "stderr: %s", err);
    g_autofree char *short_args = g_strdup_printf(RUN " --trace-html %s", path);
    g_autofree char *short_err = NULL;
    ck_assert_int_eq(run_qsim_line(short_args, NULL, &short_err), 0);
    ck_assert_msg(!*short_err, "a whole page's run says: %s", short_err);
    rm_rf(dir);
}
END_TEST

/* A page made by `qsim ARGS --trace-html` in `dir`, and its data. */
static char *page_of(const char *dir, const char *name, const char *args)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autofree char *line = g_strdup_printf("%s --no-host-time --trace-html %s", args, path);
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim_line(line, NULL, &err) == 0, "%s: %s", args, err);
    char *html = NULL;
    ck_assert(g_file_get_contents(path, &html, NULL, NULL));
    return html;
}

/* The text of the element with id `id` in the DOM (up to its first tag), NULL when absent. */
static char *dom_text(const char *dom, const char *id)
{
    g_autofree char *key = g_strdup_printf("id=\"%s\"", id);
    const char *at = strstr(dom, key);
    if (!at)
        return NULL;
    at = strchr(at, '>') + 1;
    return g_strndup(at, strcspn(at, "<"));
}

/* Box a lies inside box b (a pixel of rounding either way). */
static gboolean box_inside(const int a[4], const int b[4])
{
    return a[0] >= b[0] - 1 && a[1] >= b[1] - 1 && a[0] + a[2] <= b[0] + b[2] + 1 && a[1] + a[3] <= b[1] + b[3] + 1;
}

/* Two hardware threads of one core (SMT) share its cache: the page drew core 0.1 as a "core 2"
 * with a private cache that stayed I all run, and explained the sibling's store as an
 * invalidation.  Now one core, its two threads drawn inside it and named as the text trace
 * names them, one cache; the machine clear's words say what happened. */
START_TEST(test_page_smt_threads_share_the_core)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    g_autofree char *dir = tmpdir();
    g_autofree char *html = page_of(dir, "smt.html", "run --config teaching --set topology.threads_per_core=2 --placement smt "
                                                     "--lock ttas --threads 2 --iterations 3 --think 100");
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    JsonArray *names = json_object_get_array_member(d, "names"), *phys = json_object_get_array_member(d, "phys");
    ck_assert_msg(names && phys, "no names or physical cores in the page's data");
    ck_assert_str_eq(json_array_get_string_element(names, 0), "core 0.0");
    ck_assert_str_eq(json_array_get_string_element(names, 1), "core 0.1");
    ck_assert_int_eq(json_array_get_int_element(phys, 0), 0);
    ck_assert_int_eq(json_array_get_int_element(phys, 1), 0);
    /* the machine clear the sibling's store caused, named and explained as what it was */
    JsonArray *steps = json_object_get_array_member(d, "steps");
    guint k = 0;
    for (guint i = 0; i < json_array_get_length(steps) && !k; i++) {
        JsonObject *s = json_array_get_object_element(steps, i);
        if (strstr(json_object_get_string_member(s, "w"), "written by the other hardware thread")) {
            k = i + 1;
            ck_assert_str_eq(json_object_get_string_member(s, "who"), "core 0.1");
            const char *x = json_object_get_string_member(s, "x");
            ck_assert_msg(!strstr(x, "invalidat") || strstr(x, "nothing was invalidated"), "step %u explains: %s", k, x);
            ck_assert_msg(strstr(x, "other hardware thread"), "step %u explains: %s", k, x);
        }
    }
    ck_assert_msg(k, "no machine clear caused by the sibling's store");
    /* every row of the cache's column is core 0's: none lands in a column of its own for core 0.1 */
    for (guint i = 0; i < json_array_get_length(steps); i++) {
        JsonArray *ch = json_object_get_array_member(json_array_get_object_element(steps, i), "ch");
        for (guint c = 0; c < json_array_get_length(ch); c++)
            ck_assert_int_ne(json_array_get_int_element(json_array_get_array_element(ch, c), 1), 1);
    }
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_page_smt_threads_share_the_core", "chromium is not installed: the page is not drawn");
        rm_rf(dir);
        return;
    }
    g_autofree char *path = g_build_filename(dir, "smt.html", NULL);
    g_autofree char *profile = g_build_filename(dir, "profile", NULL);
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    g_autofree char *url = g_strdup_printf("file://%s#step=%u", path, k);
    g_autofree char *dom = browse(chromium, profile_arg, url, NULL);
    ck_assert_msg(!strstr(dom, "id=\"svg-lock_word-c2\"") && !strstr(dom, "id=\"cell-lock_word-c2\"") &&
                      !strstr(dom, "id=\"core-2\""), "core 0.1 is drawn as a core with a cache of its own");
    ck_assert_msg(strstr(dom, "id=\"svg-lock_word-c0\"") && strstr(dom, "id=\"cell-lock_word-c0\""), "no core 0 cache");
    int core[4], cache[4], t0[4], t1[4];
    dom_box(dom, "core-0", core, "smt");
    dom_box(dom, "cache-0", cache, "smt");
    dom_box(dom, "panel-c0", t0, "smt");
    dom_box(dom, "panel-c2", t1, "smt");
    ck_assert_msg(box_inside(t0, core) && box_inside(t1, core), "the hardware threads are not drawn inside their core");
    ck_assert_msg(cache[0] <= t0[0] && cache[0] + cache[2] >= t1[0] + t1[2], "the cache is not under both threads");
    g_autofree char *ph0 = dom_text(dom, "phase-c0"), *ph1 = dom_text(dom, "phase-c2");
    ck_assert_msg(ph0 && g_str_has_prefix(ph0, "core 0.0 "), "thread 0 is drawn as %s", ph0);
    ck_assert_msg(ph1 && g_str_has_prefix(ph1, "core 0.1 "), "thread 1 is drawn as %s", ph1);
    rm_rf(dir);
}
END_TEST

/* More threads than cores take turns on them (the OS model): the page drew 8 columns "core 0,
 * 1, 0, 1, ..." each with its own cache.  Now two cores, each with the thread on it and a queue
 * of those waiting, as the OS model has them at that step. */
START_TEST(test_page_time_shared_threads)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    g_autofree char *dir = tmpdir();
    g_autofree char *html = page_of(dir, "fs8.html", "run --scenario false-sharing --threads 8 --iterations 3");
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    ck_assert_int_eq(json_object_get_int_member(d, "timeShared"), 1);
    JsonArray *steps = json_object_get_array_member(d, "steps");
    /* a step where some thread has finished and some still wait: the queues are not the start's */
    guint k = 0;
    for (guint i = 0; i < json_array_get_length(steps) && !k; i++) {
        JsonArray *tw = json_object_get_array_member(json_array_get_object_element(steps, i), "tw");
        ck_assert_msg(tw && json_array_get_length(tw) == 8, "step %u: no thread whereabouts", i + 1);
        gboolean done = FALSE, ready = FALSE;
        for (guint t = 0; t < 8; t++) {
            const char *w = json_array_get_string_element(json_array_get_array_element(tw, t), 0);
            done |= !strcmp(w, "done");
            ready |= !strcmp(w, "ready");
        }
        if (done && ready)
            k = i + 1;
    }
    ck_assert_msg(k, "no step with threads finished and threads waiting");
    /* and a step where a thread is being switched onto a core (the core runs none meanwhile) */
    guint k2 = 0;
    for (guint i = 0; i < json_array_get_length(steps) && !k2; i++) {
        JsonArray *tw = json_object_get_array_member(json_array_get_object_element(steps, i), "tw");
        for (guint t = 0; t < 8; t++)
            if (!strcmp(json_array_get_string_element(json_array_get_array_element(tw, t), 0), "load"))
                k2 = i + 1;
    }
    ck_assert_msg(k2, "no step with a thread being switched onto a core");
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_page_time_shared_threads", "chromium is not installed: the page is not drawn");
        rm_rf(dir);
        return;
    }
    g_autofree char *path = g_build_filename(dir, "fs8.html", NULL);
    g_autofree char *profile = g_build_filename(dir, "profile", NULL);
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    const guint at[] = { k, k2 };
    for (guint a = 0; a < G_N_ELEMENTS(at); a++) {
        k = at[a];
        g_autofree char *url = g_strdup_printf("file://%s#step=%u", path, k);
        g_autofree char *dom = browse(chromium, profile_arg, url, NULL);
        guint caches = 0;
        for (const char *c = dom; (c = strstr(c, "id=\"svg-counts-c")); c++)
            caches++;
        ck_assert_msg(caches == 2, "%u caches drawn for 2 cores", caches);
        ck_assert_msg(strstr(dom, "id=\"core-0\"") && strstr(dom, "id=\"core-1\"") && !strstr(dom, "id=\"core-2\""),
                      "not two cores drawn");
        JsonArray *tw = json_object_get_array_member(json_array_get_object_element(steps, k - 1), "tw");
        for (guint cpu = 0; cpu < 2; cpu++) {
            GString *ready = g_string_new(NULL);
            gint64 running = -1, loading = -1;
            for (guint t = 0; t < 8; t++) {
                JsonArray *w = json_array_get_array_element(tw, t);
                if (json_array_get_int_element(w, 1) != cpu)
                    continue;
                if (!strcmp(json_array_get_string_element(w, 0), "ready"))
                    g_string_append_printf(ready, "%s%u", ready->len ? " " : "", t);
                if (!strcmp(json_array_get_string_element(w, 0), "run"))
                    running = t;
                if (!strcmp(json_array_get_string_element(w, 0), "load"))
                    loading = t;
            }
            g_autofree char *rq = g_strdup_printf("runq-c%u", cpu), *ph = g_strdup_printf("phase-c%u", cpu);
            g_autofree char *queued = dom_attr(dom, rq, "data-threads"), *phase = dom_text(dom, ph);
            ck_assert_msg(queued && !strcmp(queued, ready->str), "step %u core %u: the queue shows '%s', not '%s'", k, cpu,
                          queued, ready->str);
            g_autofree char *want = running >= 0   ? g_strdup_printf("thread %" G_GINT64_FORMAT " ", running)
                                    : loading >= 0 ? g_strdup_printf("switching to thread %" G_GINT64_FORMAT, loading)
                                                   : g_strdup("no thread");
            ck_assert_msg(phase && g_str_has_prefix(phase, want), "step %u core %u: '%s', not '%s'", k, cpu, phase, want);
            g_string_free(ready, TRUE);
        }
    }
    rm_rf(dir);
}
END_TEST

/* The drawing from 2 to 16 cores, with SMT and time-shared threads, at a projector's 1024 x 768
 * and at 1600 x 1000: no text of it is cut ("SM…"), sticks out of its box or overlaps another
 * (the core's title over its phase), and it fits the window (tests/page_layout_check.js, put
 * into a copy of the page, reports).  A home queue longer than its row shows "+N" for the rest.
 * At eight cores the old drawing cut state names, values and ops and dropped queue entries. */
static const struct {
    const char *name, *args;
} layout_pages[] = {
    { "ttas-2", RUN },
    { "ticket-4", "run --config teaching --lock ticket --set topology.cores_per_socket=4 --threads 4 --iterations 2" },
    { "ticket-8", "run --config teaching --lock ticket --set topology.cores_per_socket=8 --threads 8 --iterations 2" },
    { "ticket-16", "run --config teaching --lock ticket --set topology.cores_per_socket=16 --threads 16 --iterations 1" },
    { "smt", "run --config teaching --set topology.threads_per_core=2 --placement smt --lock ttas --threads 2 --iterations 3 "
             "--think 100" },
    { "time-shared", "run --scenario false-sharing --threads 8 --iterations 3" },
};

START_TEST(test_page_layout)
{
    g_autofree char *chromium = g_find_program_in_path("chromium");
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_page_layout", "chromium is not installed: the page is not drawn");
        return;
    }
    const char *name = layout_pages[_i].name;
    g_autofree char *dir = tmpdir();
    g_autofree char *file = g_strdup_printf("%s.html", name);
    g_autofree char *html = page_of(dir, file, layout_pages[_i].args);
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    /* the step with the longest queue at the home for the lock's line (else the middle one) */
    JsonArray *steps = json_object_get_array_member(d, "steps");
    gint64 qcol = (gint64)json_array_get_length(json_object_get_array_member(d, "cores")) + 2, longest = 0;
    guint k = json_array_get_length(steps) / 2;
    for (guint i = 0; i < json_array_get_length(steps); i++) {
        JsonArray *ch = json_object_get_array_member(json_array_get_object_element(steps, i), "ch");
        for (guint c = 0; c < json_array_get_length(ch); c++) {
            JsonArray *e = json_array_get_array_element(ch, c);
            if (json_array_get_int_element(e, 1) == qcol && !JSON_NODE_HOLDS_NULL(json_array_get_element(e, 4)) &&
                (gint64)json_array_get_length(json_array_get_array_element(e, 4)) > longest) {
                longest = json_array_get_length(json_array_get_array_element(e, 4));
                k = i + 1;
            }
        }
    }
    g_autofree char *check_js = NULL, *check_path = g_build_filename(test_srcdir(), "tests", "page_layout_check.js", NULL);
    ck_assert(g_file_get_contents(check_path, &check_js, NULL, NULL));
    g_autofree char *tail = g_strdup_printf("<script>\n%s</script>\n</body>", check_js);
    g_auto(GStrv) halves = g_strsplit(html, "</body>", 2);
    g_autofree char *checked = g_strconcat(halves[0], tail, halves[1], NULL);
    g_autofree char *path = g_build_filename(dir, "checked.html", NULL);
    ck_assert(g_file_set_contents(path, checked, -1, NULL));
    g_autofree char *profile = g_build_filename(dir, "profile", NULL);
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    static const char *const sizes[] = { "1024,768", "1600,1000" };
    for (guint z = 0; z < G_N_ELEMENTS(sizes); z++) {
        g_autofree char *url = g_strdup_printf("file://%s#step=%u", path, k);
        g_autofree char *dom = browse_sized(chromium, profile_arg, url, NULL, 0, sizes[z]);
        g_autofree char *report = dom_text(dom, "layout-check");
        ck_assert_msg(report, "%s: the check did not run", name);
        ck_assert_msg(g_str_has_prefix(report, "ok "), "%s at %s, step %u:\n%s", name, sizes[z], k, report);
        /* a queue shows its entries, or as many as fit and "+N" for the others */
        g_autofree char *n = dom_attr(dom, "queue-lock_word", "data-n"), *shown = dom_attr(dom, "queue-lock_word", "data-shown");
        if (n && shown && atoi(shown) < atoi(n)) {
            g_autofree char *more = dom_text(dom, "queue-lock_word-more"), *want = g_strdup_printf("+%d", atoi(n) - atoi(shown));
            ck_assert_msg(more && !strcmp(more, want), "%s: a queue of %s shows %s and '%s'", name, n, shown, more);
        }
    }
    rm_rf(dir);
}
END_TEST

/* A write-back on a bus: its PutM takes the bus's next slot after the transaction that holds it
 * (coherence/bus.c) and holds it through its address and data phases; the page said it was
 * granted when the line was replaced, a cycle the other transaction still held the bus.  And a
 * bus carries requests and data only: the page's colour key listed acks and invalidations, and
 * a Data row's words offered an AckCount, which no bus sends. */
START_TEST(test_page_bus_writeback)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *path = g_build_filename(dir, "wb.html", NULL);
    const char *args[] = { "run", "--config", "teaching-bus", "--script", "0:st x=5, 0:evict x, 1:ld x", "--trace-html", path,
                           NULL };
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim(args, NULL, &err) == 0, "%s", err);
    g_autofree char *html = NULL;
    ck_assert(g_file_get_contents(path, &html, NULL, NULL));
    g_autoptr(JsonParser) p = json_parser_new();
    JsonObject *d = page_data(html, p);
    JsonArray *msgs = json_object_get_array_member(d, "msgs"), *steps = json_object_get_array_member(d, "steps");
    /* each transaction on the bus is granted after the one before has let it go */
    gint64 free_from = 0, putm_grant = -1, putm_until = -1;
    for (guint i = 0; i < json_array_get_length(msgs); i++) {
        JsonObject *m = json_array_get_object_element(msgs, i);
        if (strcmp(json_object_get_string_member(m, "to"), "bus"))
            continue;
        ck_assert_msg(json_object_has_member(m, "g"), "no grant for %s", json_object_get_string_member(m, "t"));
        gint64 g = json_object_get_int_member(m, "g");
        ck_assert_msg(g >= free_from && g >= json_object_get_int_member(m, "s"), "%s granted at %" G_GINT64_FORMAT
                      ", the bus is held until %" G_GINT64_FORMAT, json_object_get_string_member(m, "t"), g, free_from - 1);
        free_from = json_object_get_int_member(m, "h") + 1;
        if (!strcmp(json_object_get_string_member(m, "t"), "PutM")) {
            putm_grant = g;
            putm_until = json_object_get_int_member(m, "h");
        }
    }
    ck_assert_msg(putm_grant > 0, "no PutM on the bus");
    guint mem = find_step(d, "IorS_D + Data -> IorS", "x", 1), fill = find_step(d, "IM_D + Data -> M", "x", 1);
    /* the memory takes the write-back's data at the end of the PutM's transaction */
    ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(steps, mem - 1), "c"), putm_until);
    const char *x = json_object_get_string_member(json_array_get_object_element(steps, fill - 1), "x");
    ck_assert_msg(!strstr(x, "AckCount") && !strstr(x, "acks"), "a bus's Data row says: %s", x);
    g_autofree char *chromium = g_find_program_in_path("chromium");
    if (!chromium) {
        qsim_test_skip_or_fail("trace/test_page_bus_writeback", "chromium is not installed: the page is not drawn");
        rm_rf(dir);
        return;
    }
    g_autofree char *profile = g_build_filename(dir, "profile", NULL);
    g_autofree char *profile_arg = g_strdup_printf("--user-data-dir=%s", profile);
    g_autofree char *want = g_strdup_printf("bus: held by core 0 for PutM (granted at cycle %" G_GINT64_FORMAT ";", putm_grant);
    for (guint k = find_step(d, "M + PutM -> IorS_D", "x", 1); k <= mem; k++) {
        g_autofree char *url = g_strdup_printf("file://%s#step=%u", path, k);
        g_autofree char *dom = browse(chromium, profile_arg, url, NULL);
        g_autofree char *label = dom_text(dom, "bus-label");
        ck_assert_msg(label && g_str_has_prefix(label, want), "step %u: '%s', not '%s'", k, label, want);
        const char *key = strstr(dom, "id=\"colour-key\"");
        ck_assert(key);
        g_autofree char *keys = g_strndup(key, strcspn(key, "\n"));
        ck_assert_msg(!strstr(keys, ">ack<") && !strstr(keys, "inv / forward"), "a bus's colour key: %s", keys);
    }
    rm_rf(dir);
}
END_TEST

Suite *make_trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, test_names);
    suite_add_tcase(s, tc);
    tc = tcase_create("text");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_text_golden, 0, G_N_ELEMENTS(text_goldens));
    tcase_add_test(tc, test_text_content);
    tcase_add_test(tc, test_text_filters);
    tcase_add_test(tc, test_trace_leaves_report_alone);
    tcase_add_test(tc, test_clear_after_its_cause);
    tcase_add_test(tc, test_rows_say_what_fired_them);
    suite_add_tcase(s, tc);
    tc = tcase_create("perfetto");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_perfetto);
    suite_add_tcase(s, tc);
    tc = tcase_create("page");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_page_golden_and_data);
    tcase_add_test(tc, test_page_in_browser);
    tcase_add_loop_test(tc, test_page_machine, 0, G_N_ELEMENTS(machine_pages));
    tcase_add_loop_test(tc, test_scenario_pages_open, 0, G_N_ELEMENTS(scenario_pages));
    tcase_add_test(tc, test_page_value_at_its_step);
    tcase_add_test(tc, test_script_page_shows_the_access);
    tcase_add_test(tc, test_cut_page_says_so);
    suite_add_tcase(s, tc);
    /* the drawing agrees with the words beside it, wherever and however big the page */
    tc = tcase_create("drawing");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_page_drawing_stays_put);
    tcase_add_test(tc, test_page_bus_held);
    tcase_add_test(tc, test_page_smt_threads_share_the_core);
    tcase_add_test(tc, test_page_time_shared_threads);
    tcase_add_loop_test(tc, test_page_layout, 0, G_N_ELEMENTS(layout_pages));
    tcase_add_test(tc, test_page_bus_writeback);
    suite_add_tcase(s, tc);
    return s;
}
