/* The protocol tables in words (see protocol_words.h).  Each table is indexed like the enum it
 * explains, in the same order; the static asserts catch an event or action added to protocol.h
 * without its words.  A state's words are declared with the state (protocol_states.c). */
#include <string.h>
#include "coherence/protocol_words.h"

/* ======================================================================================
 * States
 * ====================================================================================== */

#define DOC(tab, i) ((i) < G_N_ELEMENTS(tab) && tab[i] ? tab[i] : "?")
const char *coh_cache_state_doc(guint s) { return s < CS__N ? coh_cache_states[s].doc : "?"; }
const char *coh_dir_state_doc(guint s) { return s < DS__N ? coh_dir_states[s].doc : "?"; }
const char *coh_dir_state_wait(guint s) { return s < DS__N && coh_dir_states[s].wait ? coh_dir_states[s].wait : "?"; }

/* ======================================================================================
 * Events
 * ====================================================================================== */

/* The grant of an upgrade is an AckCount, which no data event is named for: the row that takes
 * it is the data's, and the trace says which message it was. */
#define GRANT_NO_DATA "the upgrade's grant: no data, its copy is current"
static const struct {
    const char *doc;
    guint group;
    const char *served_as; /* a message without data served as this event: what it is */
} cache_events[] = {
    [CE_LOAD]         = { "the own core reads the line", 0 },
    [CE_STORE]        = { "the own core writes the line: a store, or an atomic, which always needs M", 0 },
    [CE_REPLACEMENT]  = { "the line is evicted to make room", 0 },
    [CE_FWD_GETS]     = { "the home forwards another core's GetS: this cache is the owner", 1 },
    [CE_FWD_GETM]     = { "the home forwards another core's GetM: this cache is the owner", 1 },
    [CE_INV]          = { "another core wants to write: the home asks this sharer to drop its copy", 1 },
    [CE_PUT_ACK]      = { "the home acknowledges this cache's Put", 2 },
    [CE_DATA]         = { "the data, or for an upgrade the grant (AckCount), arrives and no acks are still to come", 2,
                          GRANT_NO_DATA },
    [CE_DATA_ACKS]    = { "the data, or for an upgrade the grant (AckCount), arrives; invalidation acks are still to come", 2,
                          GRANT_NO_DATA },
    [CE_DATA_E]       = { "exclusive data arrives: no other cache has the line", 2 },
    [CE_INV_ACK]      = { "an invalidation ack arrives; more are to come", 2 },
    [CE_LAST_INV_ACK] = { "the last invalidation ack arrives", 2 },
    [CE_OWN_GETS]     = { "this cache's own GetS appears on the bus: it is ordered", 2 },
    [CE_OWN_GETM]     = { "this cache's own GetM appears on the bus: it is ordered", 2 },
    [CE_OWN_PUTM]     = { "this cache's own PutM (a write-back) appears on the bus", 2 },
    [CE_OTHER_GETS]   = { "another cache's GetS appears on the bus: it wants a readable copy", 3 },
    [CE_OTHER_GETM]   = { "another cache's GetM appears on the bus: it wants the only copy, to write", 3 },
    [CE_OTHER_PUTM]   = { "another cache's PutM (a write-back) appears on the bus", 3 },
};
G_STATIC_ASSERT(G_N_ELEMENTS(cache_events) == CE__N);

static const struct {
    const char *doc;
    guint group;
    const char *served_as; /* a request of the other name served as this event: what changes */
} dir_events[] = {
    [DE_GETS]         = { "a core asks for a readable copy", 0 },
    [DE_GETM]         = { "a core asks for the data and write permission: it has no copy, or (MOESI) it shares a line "
                          "another cache owns", 0, "the data comes too" },
    [DE_UPGRADE]      = { "a core whose copy is current (a sharer of an S line, or the owner) asks for write permission "
                          "only", 0, "its copy is current: no data" },
    [DE_FAR_ATOMIC]   = { "a core asks the home to perform an atomic on the line", 0 },
    [DE_PUTS]         = { "a sharer drops its copy; other sharers remain", 0 },
    [DE_PUTS_LAST]    = { "the last sharer drops its copy", 0 },
    [DE_PUTE]         = { "the owner drops its clean copy", 0 },
    [DE_PUTM]         = { "the owner writes its data back and drops the line", 0 },
    [DE_PUTO]         = { "the owner writes its data back; sharers remain", 0 },
    [DE_PUT_STALE]    = { "a Put from a core the directory no longer lists (another request took the line first)", 0 },
    [DE_UNBLOCK]      = { "the requester says its transaction is complete", 1 },
    [DE_COPYBACK]     = { "the old owner's data arrives after a Fwd-GetS; memory is written", 1 },
    [DE_DATA]         = { "far atomic: the owner's data arrives; no acks outstanding", 1 },
    [DE_DATA_ACKS]    = { "far atomic: the owner's data arrives; acks outstanding", 1 },
    [DE_INV_ACK]      = { "far atomic: an invalidation ack arrives; more are to come", 1 },
    [DE_LAST_INV_ACK] = { "far atomic: the last invalidation ack arrives", 1 },
    [DE_OWNER_DATA]   = { "the owner's data arrives on the bus (its answer to a GetS, or its write-back)", 1 },
};
G_STATIC_ASSERT(G_N_ELEMENTS(dir_events) == DE__N);

const char *coh_cache_event_doc(guint e) { return e < CE__N ? cache_events[e].doc : "?"; }
const char *coh_dir_event_doc(guint e) { return e < DE__N ? dir_events[e].doc : "?"; }
const char *coh_dir_event_served_as(guint e) { return e < DE__N ? dir_events[e].served_as : NULL; }
const char *coh_cache_event_served_as(guint e) { return e < CE__N ? cache_events[e].served_as : NULL; }
guint coh_cache_event_group(guint e) { return e < CE__N ? cache_events[e].group : 0; }
guint coh_dir_event_group(guint e) { return e < DE__N ? dir_events[e].group : 0; }

/* Each fits both "Events %s:" (a table's heading) and "... (%s)" (the legend's lines). */
static const char *const cache_group_docs[COH_CACHE_GROUPS] = {
    "from the own core", "forwarded by the home, for other cores' requests", "in response to the own transaction",
    "snooped on the bus, other cores' requests",
};
static const char *const dir_group_docs[COH_DIR_GROUPS] = {
    "from requesters, which wait while the line is busy", "answering the transaction in flight",
};
/* A bus's memory controller sees the same events, but nothing waits at it: the bus orders. */
static const char *const mem_group_docs[COH_DIR_GROUPS] = {
    "seen on the bus, requests in the order the bus grants them", "in the data phase, the owner's data",
};
const char *coh_cache_group_doc(guint g) { return DOC(cache_group_docs, g); }
const char *coh_mem_group_doc(guint g) { return DOC(mem_group_docs, g); }
const char *coh_dir_group_doc(guint g) { return DOC(dir_group_docs, g); }

/* ======================================================================================
 * Actions, by bit index (CohCacheAction, CohDirAction)
 * ====================================================================================== */

typedef struct {
    const char *doc;
    gboolean sends;      /* a message: a trace names it with its destination instead */
    const char *brief;   /* for a trace row; NULL: said otherwise (the message, the entry) */
    const char *cell;    /* for a table cell, the Primer's way ("send GetS to Dir"); NULL: not shown */
    const char *brief_no_data; /* for a trace row whose message carried no data; NULL: as brief */
} ActionWords;

static const ActionWords cache_actions[] = {
    { "the access waits until the transaction in flight completes (stall)", FALSE, "stalls", "stall", NULL },
    { "the access is performed in this cache (a hit)", FALSE, "hit", "hit", NULL },
    { "asks the home for a readable copy (GetS)", TRUE, NULL, "GetS to Dir", NULL },
    { "asks the home for a writable copy (GetM)", TRUE, NULL, "GetM to Dir", NULL },
    { "asks the home for write permission, keeping its copy (Upgrade)", TRUE, NULL, "Upgrade to Dir", NULL },
    { "tells the home it drops its shared copy (PutS)", TRUE, NULL, "PutS to Dir", NULL },
    { "tells the home it drops its clean exclusive copy (PutE)", TRUE, NULL, "PutE to Dir", NULL },
    { "writes the line back to the home and drops it (PutM)", TRUE, NULL, "PutM+data to Dir", NULL },
    { "writes the owned line back to the home and drops it (PutO)", TRUE, NULL, "PutO+data to Dir", NULL },
    { "sends its data to the requester, cache to cache", TRUE, NULL, "Data to Req", NULL },
    { "sends a copy of the data to the home, which writes memory (CopyBack)", TRUE, NULL, "Data to Dir", NULL },
    { "acknowledges the invalidation to the requester (Inv-Ack)", TRUE, NULL, "Inv-Ack to Req", NULL },
    { "takes the data, or for an upgrade the grant (its copy is current), and the number of acks to wait for", FALSE,
      "takes the data", NULL, "takes the grant" },
    { "counts one ack in", FALSE, "counts an ack", "ack--", NULL },
    { "tells the home the transaction is complete (Unblock)", TRUE, NULL, "Unblock to Dir", NULL },
    { "retries the accesses that waited for the line", FALSE, "wakes the waiting accesses", NULL, NULL },
    { "tells the core its copy is gone (a load that read it early may be squashed)", FALSE, "core told: invalidated", NULL, NULL },
    { "tells the core it lost write permission", FALSE, "core told: lost write permission", NULL, NULL },
    { "the line leaves the cache arrays (its record waits for the transaction to end)", FALSE, NULL, NULL, NULL },
    { "the line is dropped", FALSE, "drops the line", NULL, NULL },
    { "puts a GetS on the bus for every cache and the memory to see (the bus is its own)", TRUE, NULL, "issue GetS", NULL },
    { "puts a GetM on the bus for every cache and the memory to see (the bus is its own)", TRUE, NULL, "issue GetM", NULL },
    { "puts a PutM on the bus: the line is written back", TRUE, NULL, "issue PutM", NULL },
    { "sends its data to the memory in the data phase", TRUE, NULL, "Data to Mem", NULL },
};
G_STATIC_ASSERT(G_N_ELEMENTS(cache_actions) == 24 && CA__ALL == (1u << 24) - 1);

static const ActionWords dir_actions[] = {
    { "the request waits in the home's queue until the line is stable (stall)", FALSE, "queued at the home", "stall", NULL },
    { "sends the data from the LLC or memory to the requester, with the number of acks to expect", TRUE, NULL, "Data to Req", NULL },
    { "sends the data as exclusive (E): no other cache has the line", TRUE, NULL, "Data(E) to Req", NULL },
    { "grants the upgrade: sends only the number of acks to expect (AckCount)", TRUE, NULL, "AckCount to Req", NULL },
    { "forwards the request to the owner (Fwd-GetS), which sends the data", TRUE, NULL, "Fwd-GetS to Owner", NULL },
    { "forwards the request to the owner (Fwd-GetM), which sends the data and drops the line", TRUE, NULL, "Fwd-GetM to Owner", NULL },
    { "sends Inv to every sharer but the requester; their acks go to the requester", TRUE, NULL, "Inv to Sharers", NULL },
    { "adds the requester to the sharers", FALSE, NULL, "add Req to Sharers", NULL },
    { "the old owner becomes a sharer", FALSE, NULL, "Owner to Sharers", NULL },
    { "the requester becomes the owner", FALSE, NULL, "Owner := Req", NULL },
    { "no owner any more", FALSE, NULL, "clear Owner", NULL },
    { "no sharers any more", FALSE, NULL, "clear Sharers", NULL },
    { "removes the requester from the sharers", FALSE, NULL, "remove Req from Sharers", NULL },
    { "writes the data to memory", FALSE, "writes memory", "write memory", NULL },
    { "acknowledges the Put (Put-Ack)", TRUE, NULL, "Put-Ack to Req", NULL },
    { "notes how many acks the far atomic waits for", FALSE, "notes the acks to wait for", "save acks", NULL },
    { "counts one ack in", FALSE, "counts an ack", "ack--", NULL },
    { "performs the atomic on memory and replies with the old value", TRUE, NULL, "AtomicReply to Req", NULL },
    { "(the forwards and invalidations answer the home, not a core)", FALSE, NULL, "(answers go to Dir)", NULL },
};
G_STATIC_ASSERT(G_N_ELEMENTS(dir_actions) == 19 && DA__ALL == (1u << 19) - 1);

guint coh_action_bits(gboolean dir) { return dir ? G_N_ELEMENTS(dir_actions) : G_N_ELEMENTS(cache_actions); }

const char *coh_action_doc(guint bit, gboolean dir)
{
    if (dir)
        return bit < G_N_ELEMENTS(dir_actions) ? dir_actions[bit].doc : "?";
    return bit < G_N_ELEMENTS(cache_actions) ? cache_actions[bit].doc : "?";
}

gboolean coh_action_bus_only(guint bit, gboolean dir)
{
    return !dir && bit < 32 && ((1u << bit) & CA_BUS_ONLY);
}

const char *coh_action_brief(guint bit, gboolean dir)
{
    if (dir)
        return bit < G_N_ELEMENTS(dir_actions) ? dir_actions[bit].brief : NULL;
    return bit < G_N_ELEMENTS(cache_actions) ? cache_actions[bit].brief : NULL;
}

const char *coh_action_brief_for(guint bit, gboolean dir, gboolean data)
{
    const ActionWords *w = dir ? (bit < G_N_ELEMENTS(dir_actions) ? &dir_actions[bit] : NULL)
                               : (bit < G_N_ELEMENTS(cache_actions) ? &cache_actions[bit] : NULL);
    if (!w)
        return NULL;
    return !data && w->brief_no_data ? w->brief_no_data : w->brief;
}

const char *coh_action_cell(guint bit, gboolean dir)
{
    if (dir)
        return bit < G_N_ELEMENTS(dir_actions) ? dir_actions[bit].cell : NULL;
    return bit < G_N_ELEMENTS(cache_actions) ? cache_actions[bit].cell : NULL;
}

char *coh_row_cell(const CohRow *r, gboolean dir)
{
    guint n = dir ? G_N_ELEMENTS(dir_actions) : G_N_ELEMENTS(cache_actions);
    GString *s = g_string_new("");
    for (guint i = 0; i < n; i++) {
        const char *c = (r->actions & (1u << i)) ? coh_action_cell(i, dir) : NULL;
        if (c)
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", c);
    }
    if (r->next != r->state)
        g_string_append_printf(s, "%s/%s", s->len ? "" : "-", dir ? coh_dir_state_name(r->next)
                                                                  : coh_cache_state_name(r->next));
    else if (!s->len)
        g_string_append(s, "-");
    return g_string_free(s, FALSE);
}

gboolean coh_action_sends(guint bit, gboolean dir)
{
    if (dir)
        return bit < G_N_ELEMENTS(dir_actions) && dir_actions[bit].sends;
    return bit < G_N_ELEMENTS(cache_actions) && cache_actions[bit].sends;
}

/* ======================================================================================
 * Messages
 * ====================================================================================== */

static const char *const msg_docs[] = {
    [MSG_GETS]         = "request to the home: a readable copy",
    [MSG_GETM]         = "request to the home: a writable copy (a read for ownership, RFO)",
    [MSG_UPGRADE]      = "request to the home: write permission for a copy already held (an RFO)",
    [MSG_PUTS]         = "to the home: a shared copy is dropped",
    [MSG_PUTE]         = "to the home: a clean exclusive copy is dropped",
    [MSG_PUTM]         = "to the home: a modified line written back",
    [MSG_PUTO]         = "to the home: an owned line written back",
    [MSG_FWD_GETS]     = "from the home to the owner: send your data to this reader",
    [MSG_FWD_GETM]     = "from the home to the owner: send your data to this writer and drop the line",
    [MSG_INV]          = "from the home to a sharer: drop your copy, ack the writer",
    [MSG_INV_ACK]      = "from a former sharer to the writer: my copy is gone",
    [MSG_PUT_ACK]      = "from the home: your Put is done",
    [MSG_DATA_MEM]     = "data from memory (through the home)",
    [MSG_DATA_LLC]     = "data from the last-level cache (at the home)",
    [MSG_DATA_C2C]     = "data from another cache (cache to cache)",
    [MSG_ACK_COUNT]    = "from the home: upgrade granted, expect this many acks (no data)",
    [MSG_UNBLOCK]      = "to the home: my transaction is complete, serve the next request",
    [MSG_COPYBACK]     = "from the old owner to the home: the data, for memory",
    [MSG_FAR_ATOMIC]   = "request to the home: perform this atomic there",
    [MSG_ATOMIC_REPLY] = "from the home: the far atomic's old value",
};
G_STATIC_ASSERT(G_N_ELEMENTS(msg_docs) == MSG__N);

const char *coh_msg_doc(MsgType t) { return DOC(msg_docs, t); }

/* ======================================================================================
 * Rows
 * ====================================================================================== */

char *coh_row_actions_doc(const CohRow *r, gboolean dir, gboolean skip_sends)
{
    guint n = dir ? G_N_ELEMENTS(dir_actions) : G_N_ELEMENTS(cache_actions);
    GString *s = g_string_new("");
    for (guint i = 0; i < n; i++)
        if ((r->actions & (1u << i)) && !(skip_sends && coh_action_sends(i, dir)))
            g_string_append_printf(s, "%s%s", s->len ? "; " : "", coh_action_doc(i, dir));
    return g_string_free(s, FALSE);
}

/* On a bus an upgrade is a GetM and the data ends the transaction: no AckCount, no acks. */
const char *coh_cache_event_doc_on(guint e, gboolean bus)
{
    if (bus && e == CE_DATA)
        return "the data arrives on the bus (the owner's or the memory's): the own transaction is complete";
    return coh_cache_event_doc(e);
}

/* The messages a snooping bus sends (coherence/bus_cache.c and bus_memory.c): requests on the
 * bus, write-backs, and data; no forwards, invalidations, acks or AckCounts. */
gboolean coh_msg_on_bus(MsgType t)
{
    switch (t) {
    case MSG_GETS: case MSG_GETM: case MSG_PUTM: case MSG_DATA_MEM: case MSG_DATA_LLC: case MSG_DATA_C2C:
    case MSG_COPYBACK:
        return TRUE;
    default:
        return FALSE;
    }
}

char *coh_row_explain(const CohRow *r, gboolean dir) { return coh_row_explain_on(r, dir, FALSE); }

char *coh_row_explain_on(const CohRow *r, gboolean dir, gboolean bus)
{
    const char *state = dir ? coh_dir_state_name(r->state) : coh_cache_state_name(r->state);
    const char *event = dir ? coh_dir_event_name(r->event) : coh_cache_event_name(r->event);
    const char *next = dir ? coh_dir_state_name(r->next) : coh_cache_state_name(r->next);
    g_autofree char *acts = coh_row_actions_doc(r, dir, FALSE);
    if (bus && !dir && (r->actions & CA_SAVE_DATA)) { /* a bus's data comes with no grant and no acks */
        g_auto(GStrv) parts = g_strsplit(acts, coh_action_doc((guint)g_bit_nth_lsf(CA_SAVE_DATA, -1), FALSE), 2);
        g_free(acts);
        acts = g_strjoinv("takes the data", parts);
    }
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "On %s (%s) in %s: %s.", event,
                           dir ? coh_dir_event_doc(r->event) : coh_cache_event_doc_on(r->event, bus), state,
                           *acts ? acts : "nothing to do");
    if (r->next == r->state)
        g_string_append_printf(s, " Stays %s.", state);
    else
        g_string_append_printf(s, " Now %s: %s.", next,
                               dir ? coh_dir_state_doc(r->next) : coh_cache_state_doc(r->next));
    return g_string_free(s, FALSE);
}
