/* `qsim protocol`: the tables as the Primer lays them out (text, Markdown, CSV), every row in
 * words, the state diagram as DOT (rendered by Graphviz), the legend; and the words beside
 * the tables (coherence/protocol_words.c) that they and the trace share. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "tests/run_qsim.h"
#include "tests/temp_files.h"
#include "tests/golden.h"
#include "tests/skip.h"
#include "coherence/protocol_words.h"
#include "sim/trace/protocol_doc.h"
#include "sim/trace/trace_events.h"

static const CohProtocol *const protocols[] = { &coh_mesi, &coh_moesi };

static char *qsim_out(const char *args)
{
    char *out = NULL;
    g_autofree char *err = NULL;
    int rc = run_qsim_line(args, &out, &err);
    ck_assert_msg(rc == 0, "qsim %s: exit %d: %s", args, rc, err);
    return out;
}

/* Every row of both tables has words: the event's meaning, the actions, where it goes. */
START_TEST(test_every_row_in_words)
{
    const CohProtocol *p = protocols[_i];
    for (guint d = 0; d < 2; d++) {
        const CohRow *rows = d ? p->dir : p->cache;
        guint n = d ? p->n_dir : p->n_cache;
        for (guint i = 0; i < n; i++) {
            const CohRow *r = &rows[i];
            g_autofree char *words = coh_row_explain(r, d);
            const char *next = d ? coh_dir_state_name(r->next) : coh_cache_state_name(r->next);
            const char *evdoc = d ? coh_dir_event_doc(r->event) : coh_cache_event_doc(r->event);
            ck_assert_msg(strstr(words, evdoc), "%s", words);
            g_autofree char *now = g_strdup_printf("Now %s: ", next);
            ck_assert_msg(r->next == r->state ? strstr(words, "Stays ") != NULL : strstr(words, now) != NULL, "%s",
                          words);
            ck_assert_msg(!strstr(words, "?"), "a state, event or action without words: %s", words);
            g_autofree char *cell = coh_row_cell(r, d);
            if (r->actions == (d ? DA_STALL : CA_STALL))
                ck_assert_str_eq(cell, "stall");
            else if (r->next != r->state) {
                g_autofree char *tail = g_strdup_printf("/%s", next);
                ck_assert_msg(g_str_has_suffix(cell, tail), "%s", cell);
            }
        }
    }
}
END_TEST

static const struct {
    const char *args, *golden;
} goldens[] = {
    { "protocol", "protocol-mesi.txt" },
    { "protocol moesi --format markdown", "protocol-moesi.md" },
    { "protocol mesi --format dot", "protocol-mesi.dot" },
    { "protocol moesi --format dot --transient", "protocol-moesi-transient.dot" },
    { "protocol --legend", "protocol-legend.txt" },
};

START_TEST(test_golden)
{
    g_autofree char *out = qsim_out(goldens[_i].args);
    golden_check(goldens[_i].golden, out);
}
END_TEST

/* Splits one CSV line (RFC 4180 quoting) into fields. */
static GPtrArray *csv_fields(const char *line)
{
    GPtrArray *f = g_ptr_array_new_with_free_func(g_free);
    GString *cur = g_string_new(NULL);
    gboolean quoted = FALSE;
    for (const char *p = line;; p++) {
        if (quoted) {
            if (*p == '"' && p[1] == '"')
                g_string_append_c(cur, *p++);
            else if (*p == '"')
                quoted = FALSE;
            else
                g_string_append_c(cur, *p);
            continue;
        }
        if (*p == '"')
            quoted = TRUE;
        else if (*p == ',' || !*p) {
            g_ptr_array_add(f, g_strdup(cur->str));
            g_string_truncate(cur, 0);
            if (!*p)
                break;
        } else
            g_string_append_c(cur, *p);
    }
    g_string_free(cur, TRUE);
    return f;
}

START_TEST(test_csv_one_line_per_row)
{
    const CohProtocol *p = protocols[_i];
    g_autofree char *args = g_strdup_printf("protocol %s --format csv", p->name);
    g_autofree char *out = qsim_out(args);
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    ck_assert_str_eq(lines[0], "controller,state,kind,event,source,actions,next,cell,explanation");
    guint k = 1;
    for (guint d = 0; d < 2; d++) {
        const CohRow *rows = d ? p->dir : p->cache;
        guint n = d ? p->n_dir : p->n_cache;
        for (guint i = 0; i < n; i++, k++) {
            ck_assert_msg(lines[k] && *lines[k], "CSV ends before row %u", k);
            g_autoptr(GPtrArray) f = csv_fields(lines[k]);
            ck_assert_uint_eq(f->len, 9);
            ck_assert_str_eq(f->pdata[0], d ? "directory" : "cache");
            ck_assert_str_eq(f->pdata[1], d ? coh_dir_state_name(rows[i].state) : coh_cache_state_name(rows[i].state));
            ck_assert_str_eq(f->pdata[3], d ? coh_dir_event_name(rows[i].event) : coh_cache_event_name(rows[i].event));
            ck_assert_str_eq(f->pdata[6], d ? coh_dir_state_name(rows[i].next) : coh_cache_state_name(rows[i].next));
            g_autofree char *words = coh_row_explain(&rows[i], d);
            ck_assert_str_eq(f->pdata[8], words);
        }
    }
    ck_assert_str_eq(lines[k], "");
    ck_assert_ptr_null(lines[k + 1]);
}
END_TEST

/* Text and Markdown: a grid row for each state, and each row said in words. */
START_TEST(test_tables_hold_every_state_and_row)
{
    const CohProtocol *p = protocols[_i];
    g_autofree char *md = protocol_doc_tables(p, PROTO_DOC_MARKDOWN);
    g_autofree char *text = protocol_doc_tables(p, PROTO_DOC_TEXT);
    for (guint s = 0; s < CS__N; s++) {
        gboolean used = FALSE;
        for (guint i = 0; i < p->n_cache; i++)
            used |= p->cache[i].state == s;
        g_autofree char *row = g_strdup_printf("| **%s** |", coh_cache_state_name(s));
        ck_assert_msg(!!strstr(md, row) == used, "%s %s", p->name, row);
    }
    for (guint i = 0; i < p->n_dir; i++) {
        if (p->dir[i].actions == DA_STALL)
            continue;
        g_autofree char *head = coh_row_text(&p->dir[i], TRUE);
        g_autofree char *bullet = g_strdup_printf("- `%s`: ", head);
        g_autofree char *line = g_strdup_printf("\n  %s\n      On ", head);
        ck_assert_msg(strstr(md, bullet), "%s", bullet);
        ck_assert_msg(strstr(text, line), "%s", head);
    }
    ck_assert(strstr(text, "Events from the own core:"));
    ck_assert(strstr(text, "Events forwarded by the home, for other cores' requests:"));
}
END_TEST

START_TEST(test_dot)
{
    g_autofree char *st = protocol_doc_dot(&coh_mesi, FALSE);
    ck_assert(strstr(st, "digraph mesi {"));
    ck_assert(strstr(st, "cache_I -> cache_S [label=\"Load (then Data)\""));
    ck_assert(strstr(st, "cache_I -> cache_E [label=\"Load (then Data_E)\""));
    ck_assert(strstr(st, "cache_S -> cache_M [label=\"Store (via SM_AD)\""));
    ck_assert(strstr(st, "cache_S -> cache_I [label=\"Inv\", style=dashed"));
    ck_assert(strstr(st, "dir_EM -> dir_S [label=\"GetS (via S_DU)\""));
    ck_assert(!strstr(st, "cache_SM_AD"));
    ck_assert(!strstr(st, "cache_O "));
    g_autofree char *tr = protocol_doc_dot(&coh_mesi, TRUE);
    ck_assert(strstr(tr, "cache_SM_AD [label=\"SM_AD\""));
    ck_assert(strstr(tr, "cache_SM_AD -> cache_SM_A [label=\"Data_Acks\""));
    ck_assert(strstr(tr, "cache_SM_AD -> cache_IM_AD [label=\"Inv / Inv-Ack to Req\""));
    g_autofree char *mo = protocol_doc_dot(&coh_moesi, FALSE);
    ck_assert(strstr(mo, "cache_M -> cache_O [label=\"Fwd-GetS\""));
}
END_TEST

/* Rendered by Graphviz (installed by build-aux/deps.sh, as the other tools the tests use). */
START_TEST(test_dot_renders)
{
    g_autofree char *dot = g_find_program_in_path("dot");
    if (!dot) {
        qsim_test_skip_or_fail("protocol_doc/test_dot_renders", "Graphviz's dot is not installed: the diagram is not rendered");
        return;
    }
    g_autofree char *dir = g_dir_make_tmp("qsim-proto-XXXXXX", NULL);
    g_autofree char *svg = g_build_filename(dir, "mesi.svg", NULL);
    g_autofree char *args = g_strdup_printf("protocol mesi --format dot --transient -o %s", svg);
    g_autofree char *out = qsim_out(args);
    ck_assert_str_eq(out, "");
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(svg, &text, NULL, NULL));
    ck_assert(strstr(text, "<svg"));
    ck_assert(strstr(text, "SM_AD"));
    g_unlink(svg);
    g_rmdir(dir);
}
END_TEST

START_TEST(test_cli)
{
    g_autofree char *a = qsim_out("protocol --config teaching --format csv");
    g_autofree char *c = qsim_out("protocol mesi --format csv");
    ck_assert_str_eq(a, c);
    static const struct {
        const char *args, *says;
    } bad[] = {
        { "protocol msx", "unknown protocol 'msx'; did you mean 'msi'?" },
        { "protocol --format pdf", "give text, markdown, csv or dot" },
        { "protocol --transient", "--transient is for --format dot" },
        { "protocol --legend --format csv", "--legend comes as text or markdown" },
        { "protocol mesi moesi", "name one protocol" },
        { "protocol --state S", "--state is for --format dot, svg or png" },
        { "protocol mesi --state X --format dot", "--state X: no stable state `X` in mesi's cache controller" },
        { "protocol mesi --state dir:SS --format dot", "did you mean `dir:S`? (its stable states: I, S, EM; " },
        { "protocol mesif --format csv", "mesif: its F state is kept per socket at the home" },
        { "protocol mesif --format svg", "use `qsim protocol mesif` (text or markdown" },
        { "protocol --config haswell --format dot", "mesif: its F state is kept per socket at the home" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *err = NULL;
        ck_assert_int_eq(run_qsim_line(bad[i].args, NULL, &err), 2);
        ck_assert_msg(strstr(err, bad[i].says), "%s: %s", bad[i].args, err);
    }
    /* the legend names every message and every state of the tables */
    g_autofree char *legend = qsim_out("protocol moesi --legend");
    for (guint m = 0; m < MSG__N; m++) {
        g_autofree char *line = g_strdup_printf("\n  %-14s %s\n", memsys_msg_name(m), coh_msg_doc(m));
        ck_assert_msg(strstr(legend, line), "%s", line);
    }
    ck_assert(strstr(legend, "  OM_AC          from O to M"));
}
END_TEST

/* ======================================================================================
 * The words say what the row does (coherence/protocol_words.c, the one source)
 * ====================================================================================== */

/* For each action, a phrase its sentence in a row's words must hold (and no other action's
 * may), and the phrase of a trace row's brief (NULL: the trace names the message instead). */
typedef struct {
    guint32 bit;
    const char *doc, *brief;
} ActionPhrase;

static const ActionPhrase cache_phrases[] = {
    { CA_STALL, "(stall)", "stalls" },
    { CA_HIT, "(a hit)", "hit" },
    { CA_SEND_GETS, "(GetS)", NULL },
    { CA_SEND_GETM, "(GetM)", NULL },
    { CA_SEND_UPGRADE, "(Upgrade)", NULL },
    { CA_SEND_PUTS, "(PutS)", NULL },
    { CA_SEND_PUTE, "(PutE)", NULL },
    { CA_SEND_PUTM, "(PutM)", NULL },
    { CA_SEND_PUTO, "(PutO)", NULL },
    { CA_DATA_TO_REQ, "sends its data to the requester", NULL },
    { CA_COPYBACK, "(CopyBack)", NULL },
    { CA_ACK_TO_REQ, "(Inv-Ack)", NULL },
    { CA_SAVE_DATA, "takes the data", "takes the data" }, /* with data; see below without */
    { CA_DEC_ACK, "counts one ack", "counts an ack" },
    { CA_UNBLOCK, "(Unblock)", NULL },
    { CA_WAKE, "retries the accesses", "wakes the waiting accesses" },
    { CA_LOST_INV, "its copy is gone", "core told: invalidated" },
    { CA_LOST_DOWN, "lost write permission", "core told: lost write permission" },
    { CA_LEAVE, "leaves the cache arrays", NULL },
    { CA_FREE, "the line is dropped", "drops the line" },
    { CA_ISSUE_GETS, "a GetS on the bus", NULL },
    { CA_ISSUE_GETM, "a GetM on the bus", NULL },
    { CA_ISSUE_PUTM, "a PutM on the bus", NULL },
    { CA_DATA_TO_MEM, "its data to the memory", NULL },
};
G_STATIC_ASSERT(G_N_ELEMENTS(cache_phrases) == 24);

static const ActionPhrase dir_phrases[] = {
    { DA_STALL, "(stall)", "queued at the home" },
    { DA_DATA_TO_REQ, "sends the data from the LLC or memory", NULL },
    { DA_DATA_E_TO_REQ, "as exclusive (E)", NULL },
    { DA_ACKCOUNT_TO_REQ, "(AckCount)", NULL },
    { DA_FWD_GETS, "(Fwd-GetS)", NULL },
    { DA_FWD_GETM, "(Fwd-GetM)", NULL },
    { DA_INV_SHARERS, "sends Inv", NULL },
    { DA_ADD_REQ, "adds the requester to the sharers", NULL },
    { DA_OWNER_TO_SHARER, "the old owner becomes a sharer", NULL },
    { DA_SET_OWNER_REQ, "the requester becomes the owner", NULL },
    { DA_CLEAR_OWNER, "no owner", NULL },
    { DA_CLEAR_SHARERS, "no sharers", NULL },
    { DA_REMOVE_REQ, "removes the requester", NULL },
    { DA_WRITE_MEM, "writes the data to memory", "writes memory" },
    { DA_PUT_ACK, "(Put-Ack)", NULL },
    { DA_SAVE_ACKS, "notes how many acks", "notes the acks to wait for" },
    { DA_DEC_ACK, "counts one ack", "counts an ack" },
    { DA_ATOMIC_REPLY, "performs the atomic", NULL },
    { DA_FWD_TO_HOME, "answer the home", NULL },
};
G_STATIC_ASSERT(G_N_ELEMENTS(dir_phrases) == 19);

/* A trace row's words for r, fired by a message with (data) or without the line's data. */
static char *brief_of(const CohProtocol *p, const CohRow *r, gboolean dir, gboolean data)
{
    TraceContext ctx = { .proto = p };
    MemTraceRow t = { .core = dir ? MEMSYS_HOME : 0, .dir = dir, .row = r, .access = -1, .cause_type = -1,
                      .cause_data = data, .dir_owner = -1, .dir_req = -1 };
    return trace_row_actions(&ctx, &t, NULL, 0);
}

/* For every row of every protocol: the row's words (`qsim protocol`, the page) and a trace's
 * brief hold each action's phrase exactly when the row has the action; "takes the data" only
 * when data came, "takes the grant" only when it did not. */
START_TEST(test_words_match_actions)
{
    guint checked = 0;
    for (guint k = 0; k < coh_n_protocols; k++) {
        const CohProtocol *p = coh_protocols[k];
        for (guint d = 0; d < 2; d++) {
            const CohRow *rows = d ? p->dir : p->cache;
            guint n = d ? p->n_dir : p->n_cache;
            const ActionPhrase *ph = d ? dir_phrases : cache_phrases;
            guint nph = d ? G_N_ELEMENTS(dir_phrases) : G_N_ELEMENTS(cache_phrases);
            for (guint i = 0; i < n; i++) {
                const CohRow *r = &rows[i];
                g_autofree char *row = coh_row_text(r, d);
                g_autofree char *acts = coh_row_actions_doc(r, d, FALSE);
                g_autofree char *words = coh_row_explain(r, d);
                g_autofree char *with = brief_of(p, r, d, TRUE);
                g_autofree char *without = brief_of(p, r, d, FALSE);
                ck_assert_msg(strstr(words, acts), "%s %s: %s", p->name, row, words);
                for (guint b = 0; b < nph; b++) {
                    gboolean has = (r->actions & ph[b].bit) != 0;
                    ck_assert_msg(!!strstr(acts, ph[b].doc) == has, "%s %s: the words %s \"%s\": %s", p->name, row,
                                  has ? "lack" : "say", ph[b].doc, acts);
                    if (!ph[b].brief)
                        continue;
                    gboolean data_word = ph[b].bit == CA_SAVE_DATA && !d;
                    ck_assert_msg(!!strstr(with, ph[b].brief) == has, "%s %s: the trace %s \"%s\": %s", p->name, row,
                                  has ? "lacks" : "says", ph[b].brief, with);
                    ck_assert_msg(!!strstr(without, ph[b].brief) == (has && !data_word),
                                  "%s %s, no data: the trace says \"%s\": %s", p->name, row, ph[b].brief, without);
                    if (data_word)
                        ck_assert_msg(!!strstr(without, "takes the grant") == has, "%s %s: %s", p->name, row, without);
                }
                ck_assert_msg(!strstr(with, "takes the grant"), "%s %s: %s", p->name, row, with);
                checked++;
            }
        }
    }
    ck_assert_uint_gt(checked, 300);
}
END_TEST

/* The states as the tables define them: MOESI enters O from E (clean) as from M, so O's words
 * may not call it newer than memory; the directory's O no more. */
START_TEST(test_state_words_fit_the_tables)
{
    gboolean clean_o = FALSE;
    for (guint i = 0; i < coh_moesi.n_cache; i++)
        clean_o |= coh_moesi.cache[i].state == CS_E && coh_moesi.cache[i].next == CS_O;
    ck_assert(clean_o);
    ck_assert_msg(!strstr(coh_cache_state_doc(CS_O), "newer than memory"), "%s", coh_cache_state_doc(CS_O));
    ck_assert_msg(!strstr(coh_dir_state_doc(DS_O), "newer than memory"), "%s", coh_dir_state_doc(DS_O));
    ck_assert(strstr(coh_cache_state_doc(CS_O), "clean if from E"));
    /* a queued request's reason is its state's own words */
    for (guint s = 0; s < DS__N; s++)
        if (!coh_dir_state_stable(s))
            ck_assert_msg(strstr(coh_dir_state_doc(s), coh_dir_state_wait(s)), "%s", coh_dir_state_name(s));
}
END_TEST

/* The legend's lines put the event's group in parentheses: a group's words hold none of their
 * own, and Put-Ack, the answer to the cache's own Put, is filed with the responses. */
START_TEST(test_legend_groups)
{
    ck_assert_uint_eq(coh_cache_event_group(CE_PUT_ACK), coh_cache_event_group(CE_DATA));
    for (guint k = 0; k < G_N_ELEMENTS(protocols); k++) {
        g_autofree char *args = g_strdup_printf("protocol %s --legend", protocols[k]->name);
        g_autofree char *legend = qsim_out(args);
        g_auto(GStrv) lines = g_strsplit(legend, "\n", -1);
        for (guint i = 0; lines[i]; i++) {
            if (!g_str_has_prefix(lines[i], "  "))
                continue; /* the introduction's sentences run over lines */
            int depth = 0, most = 0;
            for (const char *c = lines[i]; *c; c++) {
                depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
                most = MAX(most, depth);
            }
            ck_assert_msg(depth == 0 && most <= 1, "%s: %s", args, lines[i]);
        }
        ck_assert_msg(strstr(legend, "  Put-Ack        the home acknowledges this cache's Put (in response to the own "
                                     "transaction)"), "%s", legend);
    }
    ck_assert(!strstr(coh_dir_group_doc(0), "("));
}
END_TEST

/* A bus protocol's legend calls its home what it is: the memory controller, which lists no
 * holders; it called it "the line's directory" and promised the directory's entry. */
START_TEST(test_legend_names_the_home)
{
    for (guint k = 0; k < coh_n_protocols; k++) {
        g_autofree char *args = g_strdup_printf("protocol %s --legend", coh_protocols[k]->name);
        g_autofree char *legend = qsim_out(args);
        /* the introduction: up to the first list */
        g_autofree char *intro = g_strndup(legend, strstr(legend, "\nStates of") - legend);
        g_autofree char *flat = g_strdelimit(g_strdup(intro), "\n", ' ');
        if (coh_protocols[k]->bus) {
            ck_assert_msg(strstr(flat, "the home: the line's memory controller"), "%s: %s", args, flat);
            ck_assert_msg(!strstr(flat, "the line's directory") && !strstr(flat, "directory's entry"), "%s: %s", args,
                          flat);
        } else
            ck_assert_msg(strstr(flat, "the home: the line's directory") && strstr(flat, "directory's entry after it"),
                          "%s: %s", args, flat);
    }
}
END_TEST

/* A bus's legend lists the messages a bus sends, no AckCount, ack, forward or invalidation, and
 * its Data event offers no AckCount; a directory's legend keeps them all. */
START_TEST(test_legend_bus_messages)
{
    static const char *const never_on_bus[] = { "AckCount", "Inv-Ack", "Fwd-GetS", "Fwd-GetM", "Put-Ack", "Upgrade" };
    for (guint k = 0; k < coh_n_protocols; k++) {
        g_autofree char *args = g_strdup_printf("protocol %s --legend", coh_protocols[k]->name);
        g_autofree char *legend = qsim_out(args);
        for (guint i = 0; i < G_N_ELEMENTS(never_on_bus); i++) {
            g_autofree char *row = g_strdup_printf("\n  %s ", never_on_bus[i]);
            if (coh_protocols[k]->bus)
                ck_assert_msg(!strstr(legend, row) && !strstr(legend, "(AckCount)"), "%s lists %s", args, never_on_bus[i]);
            else if (strcmp(never_on_bus[i], "Upgrade") || strstr(legend, "\n  Upgrade "))
                ck_assert_msg(strstr(legend, row), "%s leaves out %s", args, never_on_bus[i]);
        }
        ck_assert_msg(strstr(legend, "\n  GetM ") && strstr(legend, "\n  Data(c2c) "), "%s: %s", args, legend);
    }
}
END_TEST

/* `qsim protocol mesif` printed MESI's tables without a word (issue 28): its page says what F
 * is and lists the directory rows that move it, from the rows' MESIF rules. */
START_TEST(test_mesif)
{
    g_autofree char *page = qsim_out("protocol mesif");
    g_autofree char *mesi = qsim_out("protocol mesi");
    ck_assert_msg(g_str_has_prefix(page, "mesif: the MESI tables below, and its F state"), "%s", page);
    ck_assert_msg(strstr(page, mesi), "the MESI tables are not on mesif's page");
    ck_assert_msg(strstr(page, "\n  I     + GetS         a requester whose own socket's LLC lacks the line gets the F "
                               "socket's copy, not memory's; the reader's socket takes F"), "%s", page);
    ck_assert_msg(strstr(page, "\n  S     + Upgrade      F goes if, after the row, no LLC holds the current data\n"),
                  "%s", page);
    /* every directory row with a MESIF rule is listed, and no other */
    guint with = 0;
    for (guint i = 0; i < coh_mesi.n_dir; i++)
        with += coh_mesif_rules_of(coh_mesif_rules, coh_n_mesif_rules, coh_mesi.dir[i].state,
                                   coh_mesi.dir[i].event) != 0;
    g_auto(GStrv) lines = g_strsplit(strstr(page, "mesif: the F state"), "\n", -1);
    guint listed = 0;
    for (guint i = 0; lines[i]; i++)
        listed += g_str_has_prefix(lines[i], "  ") && strstr(lines[i], " + ");
    ck_assert_uint_eq(listed, with);
    g_autofree char *haswell = qsim_out("protocol --config haswell"); /* a mesif config */
    ck_assert_str_eq(haswell, page);
    g_autofree char *md = qsim_out("protocol mesif --format markdown");
    ck_assert_msg(strstr(md, "## MESIF: the F state\n") && strstr(md, "| state | event | F |\n"), "%s", md);
}
END_TEST

/* A slide: one stable state and its transients, fitting 1920 x 1080 at the size it is drawn
 * (issue 28: the whole transient view rendered 5018 x 976). */
START_TEST(test_slides)
{
    g_autofree char *dot = protocol_doc_dot_state(&coh_mesi, "S", NULL);
    ck_assert(strstr(dot, "digraph \"mesi_cache_S\" {\n  rankdir=TB;\n  size=\"20,11.25\";"));
    ck_assert(strstr(dot, "cache_S [label=\"S\", tooltip=") && strstr(dot, "style=bold"));
    ck_assert(strstr(dot, "cache_M [label=\"M\", tooltip=\"modified: the only copy, written; readable and writable\", "
                          "shape=circle, style=dashed]"));
    ck_assert(strstr(dot, "cache_SM_AD -> cache_IM_AD [label=\"Inv / Inv-Ack to Req\""));
    ck_assert_msg(!strstr(dot, "cache_IS_D") && !strstr(dot, "cache_E ") && !strstr(dot, "cache_M ->"),
                  "a state of another slide: %s", dot);
    g_autofree char *wrapped = protocol_doc_dot_state(&coh_mesi, "dir:S", NULL);
    ck_assert_msg(strstr(wrapped, "label=\"GetM / Data to Req, Inv to\\nSharers"), "%s", wrapped);
    g_autofree char *bin = g_find_program_in_path("dot");
    if (!bin) {
        qsim_test_skip_or_fail("protocol_doc/test_slides", "Graphviz's dot is not installed: the slides are not rendered");
        return;
    }
    g_autofree char *dir = tmpdir();
    static const char *const slides[][2] = {
        { "mesi", "S" }, { "mesi", "dir:EM" }, { "moesi", "O" }, { "moesi", "dir:O" }, { "msi", "M" }, { "mesi-bus", "E" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(slides); i++) {
        g_autofree char *png = g_strdup_printf("%s/slide%u.png", dir, i);
        g_autofree char *args = g_strdup_printf("protocol %s --state %s --format png -o %s", slides[i][0], slides[i][1], png);
        g_autofree char *out = qsim_out(args);
        g_autofree char *img = NULL;
        gsize len = 0;
        ck_assert(g_file_get_contents(png, &img, &len, NULL) && len > 24 && !memcmp(img, "\x89PNG", 4));
        guint32 w = GUINT32_FROM_BE(*(guint32 *)(img + 16)), h = GUINT32_FROM_BE(*(guint32 *)(img + 20));
        /* not scaled down to fit (which would shrink the fonts): drawn within a 1920 x 1080 slide */
        ck_assert_msg(w < 1920 && h < 1080 && w > 400, "%s --state %s: %u x %u", slides[i][0], slides[i][1], w, h);
    }
    /* svg on stdout, rendered the same way */
    g_autofree char *svg = qsim_out("protocol moesi --state O --format svg");
    ck_assert(g_str_has_prefix(svg, "<?xml") && strstr(svg, "OM_AC"));
    rm_rf(dir);
}
END_TEST

/* Without Graphviz's dot on $PATH, svg and png say what to install; dot's own text needs none. */
START_TEST(test_no_dot)
{
    g_setenv("PATH", "/nonexistent", TRUE);
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line("protocol mesi --state S --format png -o /nonexistent/x.png", NULL, &err), 2);
    ck_assert_msg(strstr(err, "png output needs Graphviz's `dot` on $PATH (Debian: apt-get install graphviz)"), "%s", err);
    g_autofree char *out = qsim_out("protocol mesi --state S --format dot");
    ck_assert(strstr(out, "digraph"));
}
END_TEST

Suite *make_protocol_doc_suite(void)
{
    Suite *s = suite_create("protocol_doc");
    TCase *tc = tcase_create("pages");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_every_row_in_words, 0, G_N_ELEMENTS(protocols));
    tcase_add_loop_test(tc, test_golden, 0, G_N_ELEMENTS(goldens));
    tcase_add_loop_test(tc, test_csv_one_line_per_row, 0, G_N_ELEMENTS(protocols));
    tcase_add_loop_test(tc, test_tables_hold_every_state_and_row, 0, G_N_ELEMENTS(protocols));
    tcase_add_test(tc, test_dot);
    tcase_add_test(tc, test_dot_renders);
    tcase_add_test(tc, test_cli);
    tcase_add_test(tc, test_mesif);
    tcase_add_test(tc, test_slides);
    tcase_add_test(tc, test_no_dot);
    suite_add_tcase(s, tc);
    tc = tcase_create("words");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_words_match_actions);
    tcase_add_test(tc, test_state_words_fit_the_tables);
    tcase_add_test(tc, test_legend_groups);
    tcase_add_test(tc, test_legend_names_the_home);
    tcase_add_test(tc, test_legend_bus_messages);
    suite_add_tcase(s, tc);
    return s;
}
