/* The protocol tables in words: what each state, event, action and message means, as data
 * beside the tables (coherence/protocol.h, mesi.c, moesi.c), so that a trace, `qsim protocol`
 * and its legend explain a row the same way and no writer keeps its own phrases.
 *
 * The words follow the Primer's reading of its tables (Sorin, Hill and Wood, ch. 8): transient
 * states are "from X to Y, waiting for A (acks), D (data), C (the ack count), U (an Unblock)". */
#ifndef QSIM_PROTOCOL_WORDS_H
#define QSIM_PROTOCOL_WORDS_H

#include "coherence/protocol.h"
#include "coherence/memsys.h"

/* What a state means, one line ("shared: a readable copy; others may hold one too"). */
const char *coh_cache_state_doc(guint s);
const char *coh_dir_state_doc(guint s);
/* What a transient directory state waits for ("the new owner's Unblock (U)"), as its line says;
 * "?" for a stable state. */
const char *coh_dir_state_wait(guint s);
/* What an event is ("the own core reads the line"). */
const char *coh_cache_event_doc(guint e);
const char *coh_dir_event_doc(guint e);
/* Where a cache event comes from, the Primer's column groups: 0 the own core, 1 forwarded
 * from the home for other cores' transactions, 2 responses to the own transaction (the home's
 * Put-Ack too; on a bus: the own request seen on it), 3 other cores' requests snooped on a bus.  The
 * directory's: 0 requests, 1 responses. */
/* A request whose message has another name served as event e (an Upgrade whose sender lost its
 * copy is a GetM): what that changes, in a few words; NULL for the events it never happens to. */
const char *coh_dir_event_served_as(guint e);
/* A message that carries no data fired data event e (an AckCount, the grant of an upgrade,
 * fires Data or Data_Acks): what it is, in a few words; NULL for the other events. */
const char *coh_cache_event_served_as(guint e);
guint coh_cache_event_group(guint e);
guint coh_dir_event_group(guint e);
const char *coh_cache_group_doc(guint g);
const char *coh_dir_group_doc(guint g);
/* The directory's groups as a bus's memory controller sees them. */
const char *coh_mem_group_doc(guint g);
#define COH_CACHE_GROUPS 4
#define COH_DIR_GROUPS 2

/* How many action bits a controller has (CohCacheAction, CohDirAction). */
guint coh_action_bits(gboolean dir);
/* Whether only bus tables use the action (the legend of a directory protocol leaves it out). */
gboolean coh_action_bus_only(guint bit, gboolean dir);
/* One action in words ("asks the home for a writable copy (GetM)"), by bit index. */
const char *coh_action_doc(guint bit, gboolean dir);
/* The action in a few words for a trace row ("counts an ack"); NULL when a trace says it
 * otherwise (a message with its destination, a directory entry's owner and sharers). */
const char *coh_action_brief(guint bit, gboolean dir);
/* The same for a row fired by a message that did (data) or did not carry the line's data: an
 * upgrade's grant is taken as the data is, but no data comes ("takes the grant"). */
const char *coh_action_brief_for(guint bit, gboolean dir, gboolean data);
/* The action in a table cell, the Primer's way ("GetS to Dir", "ack--"); NULL: not shown. */
const char *coh_action_cell(guint bit, gboolean dir);
/* A table cell: "GetS to Dir/IS_D", "hit", "stall", "-/S".  Caller frees. */
char *coh_row_cell(const CohRow *r, gboolean dir);
/* Whether the action is a message the row sends (the trace then names it with its
 * destination instead of the phrase). */
gboolean coh_action_sends(guint bit, gboolean dir);

/* A message in words ("data from another cache"). */
const char *coh_msg_doc(MsgType t);

/* The row in words: "On Store in S (...): asks the home for write permission (Upgrade); then
 * SM_AD (from S to M, ...)."  Caller frees. */
char *coh_row_explain(const CohRow *r, gboolean dir);
/* ... on a bus when `bus` (the words of its events there: coh_cache_event_doc_on). */
char *coh_row_explain_on(const CohRow *r, gboolean dir, gboolean bus);
/* A cache event in words on a bus or not (a bus's Data has no AckCount). */
const char *coh_cache_event_doc_on(guint e, gboolean bus);
/* Whether a snooping bus ever sends the message (its legend lists only those). */
gboolean coh_msg_on_bus(MsgType t);
/* The row's actions in words, those that send messages left out when skip_sends (a trace
 * names the messages themselves); "" for none.  Caller frees. */
char *coh_row_actions_doc(const CohRow *r, gboolean dir, gboolean skip_sends);

#endif
