/* `qsim protocol`: a protocol's tables laid out as the Primer lays them out (Sorin, Hill and
 * Wood, ch. 8: one table per controller, a row per state, stable states first, a column per
 * event grouped by where it comes from, each cell "actions/next state"), in text, Markdown
 * or CSV, with every row also said in words; its state diagram as Graphviz DOT; and the legend
 * of the trace.  All of it comes from the tables (coherence/mesi.c, moesi.c) and their words
 * (coherence/protocol_words.c). */
#ifndef QSIM_PROTOCOL_DOC_H
#define QSIM_PROTOCOL_DOC_H

#include <glib.h>
#include "coherence/protocol.h"

typedef enum { PROTO_DOC_TEXT, PROTO_DOC_MARKDOWN, PROTO_DOC_CSV, PROTO_DOC_DOT } ProtoDocFormat;

gboolean protocol_doc_format_parse(const char *text, ProtoDocFormat *f, GError **error);
/* "mesi", "moesi", or "mesif" (which runs the MESI tables, memsys.h).  NULL with an error. */
const CohProtocol *protocol_doc_find(const char *name, GError **error);
/* Whether `name` is MESIF, whose page is protocol_doc_mesif's. */
gboolean protocol_doc_is_mesif(const char *name);
/* MESIF's tables (text or markdown): the MESI tables it runs, then what F is and what each
 * directory row does with it (the MESIF rules of coherence/mesi.c's directory table).  Caller
 * frees. */
char *protocol_doc_mesif(ProtoDocFormat f);

/* The cache and directory tables (format text, markdown or csv).  Caller frees. */
char *protocol_doc_tables(const CohProtocol *p, ProtoDocFormat f);
/* The state diagrams of both controllers as one DOT graph: the stable states, an edge for
 * each way from one to another (through transient states, named on the edge); with
 * `transient`, every state and every row that changes state.  Caller frees. */
char *protocol_doc_dot(const CohProtocol *p, gboolean transient);
/* A slide: one controller's stable state `state` ("S"; "dir:S" for the directory's) and the
 * transient states it goes through, up to the stable states they end in, laid out to fit a
 * 16:9 slide (1920 x 1080 pixels at Graphviz's 96 dpi).  NULL with an error naming the
 * stable states (and a close one) for a state that is none.  Caller frees. */
char *protocol_doc_dot_state(const CohProtocol *p, const char *state, GError **error);
/* How to read `qsim run --trace`: states, events, messages and actions in words (text or
 * markdown).  Caller frees. */
char *protocol_doc_legend(const CohProtocol *p, ProtoDocFormat f);

#endif
