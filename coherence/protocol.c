/* Names, printing and well-formedness checks for the protocol tables. */
#include <string.h>
#include "coherence/protocol.h"

G_DEFINE_QUARK(qsim-coherence-error-quark, coh_error)

static const char *const cache_event_names[CE__N] = {
    "Load", "Store", "Replacement", "Fwd-GetS", "Fwd-GetM", "Inv", "Put-Ack",
    "Own-GetS", "Own-GetM", "Own-PutM",
    "Data", "Data_Acks", "Data_E", "Inv-Ack", "Last-Inv-Ack",
    "Other-GetS", "Other-GetM", "Other-PutM",
};
static const char *const dir_event_names[DE__N] = {
    "GetS", "GetM", "Upgrade", "FarAtomic", "PutS", "PutS-Last", "PutE", "PutM", "PutO",
    "Put-Stale", "Unblock", "CopyBack", "Data", "Data_Acks", "Inv-Ack", "Last-Inv-Ack",
    "Data", /* the bus memory's DE_OWNER_DATA: the Primer's "Data" column of Table 7.6 */
};
/* Bit i of the action masks, in order. */
static const char *const cache_action_names[] = {
    "stall", "hit", "send GetS", "send GetM", "send Upgrade", "send PutS", "send PutE",
    "send PutM", "send PutO", "data to req", "copy-back", "ack to req", "save data",
    "dec ack", "unblock", "wake", "lost-inv", "lost-down", "leave", "free",
    "issue GetS", "issue GetM", "issue PutM", "data to mem",
};
static const char *const dir_action_names[] = {
    "stall", "data to req", "data-E to req", "ack count to req", "fwd GetS", "fwd GetM",
    "inv sharers", "add req", "owner to sharer", "owner := req", "clear owner",
    "clear sharers", "remove req", "write mem", "put-ack", "save acks", "dec ack",
    "atomic reply", "to home",
};

G_STATIC_ASSERT(G_N_ELEMENTS(cache_event_names) == CE__N && G_N_ELEMENTS(dir_event_names) == DE__N);
G_STATIC_ASSERT(G_N_ELEMENTS(cache_action_names) == 24 && CA__ALL == (1u << 24) - 1);

#define NAME(tab, i) ((i) < G_N_ELEMENTS(tab) ? tab[i] : "?")
const char *coh_cache_state_name(guint s) { return s < CS__N ? coh_cache_states[s].name : "?"; }
const char *coh_cache_event_name(guint e) { return NAME(cache_event_names, e); }
const char *coh_dir_state_name(guint s) { return s < DS__N ? coh_dir_states[s].name : "?"; }
const char *coh_dir_event_name(guint e) { return NAME(dir_event_names, e); }

char *coh_row_text(const CohRow *r, gboolean dir)
{
    if (dir)
        return g_strdup_printf("%s + %s -> %s", coh_dir_state_name(r->state),
                               coh_dir_event_name(r->event), coh_dir_state_name(r->next));
    return g_strdup_printf("%s + %s -> %s", coh_cache_state_name(r->state),
                           coh_cache_event_name(r->event), coh_cache_state_name(r->next));
}

char *coh_actions_text(guint32 actions, gboolean dir)
{
    const char *const *names = dir ? dir_action_names : cache_action_names;
    guint n = dir ? G_N_ELEMENTS(dir_action_names) : G_N_ELEMENTS(cache_action_names);
    GString *s = g_string_new("");
    for (guint i = 0; i < n; i++)
        if (actions & (1u << i))
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", names[i]);
    return g_string_free(s, FALSE);
}

static gboolean check_table(const CohRow *rows, guint n, guint nstates, guint nevents,
                            guint32 all, guint32 stall, guint rules, gboolean dir, GError **error)
{
    g_autofree guint8 *seen = g_new0(guint8, nstates * nevents);
    for (guint i = 0; i < n; i++) {
        const CohRow *r = &rows[i];
        const char *what = dir ? "directory" : "cache";
        if (r->state >= nstates || r->event >= nevents || r->next >= nstates) {
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE, "%s row %u out of range", what, i);
            return FALSE;
        }
        g_autofree char *text = coh_row_text(r, dir);
        if (seen[r->state * nevents + r->event]++) {
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE, "%s row %u (%s) duplicates a cell",
                        what, i, text);
            return FALSE;
        }
        if (r->actions & ~all) {
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE, "%s row %u (%s) has unknown actions",
                        what, i, text);
            return FALSE;
        }
        if (r->rules & ~rules) {
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE, "%s row %u (%s) has unknown home rules",
                        what, i, text);
            return FALSE;
        }
        if ((r->actions & stall) && (r->actions != stall || r->next != r->state || r->rules)) {
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE,
                        "%s row %u (%s): a stall does nothing else and keeps the state", what, i, text);
            return FALSE;
        }
    }
    return TRUE;
}

/* A row's run list is its action set: each action one known bit, once, in at most
 * COH_ROW_MAX_ACTIONS (the list runs; the set is asked and printed). */
static gboolean check_run_lists(const CohProtocol *p, gboolean dir, GError **error)
{
    const CohRow *rows = dir ? p->dir : p->cache;
    guint n = dir ? p->n_dir : p->n_cache;
    for (guint i = 0; i < n; i++) {
        const CohRow *r = &rows[i];
        guint32 set = 0;
        gboolean ok = r->n_run <= COH_ROW_MAX_ACTIONS;
        for (guint k = 0; ok && k < r->n_run; k++) {
            ok = r->run[k] && !(r->run[k] & (r->run[k] - 1)) && !(set & r->run[k]);
            set |= r->run[k];
        }
        if (!ok || set != r->actions) {
            g_autofree char *text = coh_row_text(r, dir);
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE, "%s: %s row %u (%s): its run list is not its action set",
                        p->name, dir ? "directory" : "cache", i, text);
            return FALSE;
        }
    }
    return TRUE;
}

/* MESIF's rules are a table of their own: no protocol table carries one. */
static gboolean check_no_mesif_rules(const CohProtocol *p, GError **error)
{
    for (guint i = 0; i < p->n_dir; i++)
        if (p->dir[i].rules & DR_MESIF) {
            g_autofree char *text = coh_row_text(&p->dir[i], TRUE);
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE,
                        "%s: directory row %u (%s) has a MESIF rule (MESIF's are in coherence/mesif.c)", p->name, i,
                        text);
            return FALSE;
        }
    return TRUE;
}

guint coh_mesif_rules_of(const CohFRule *rules, guint n, guint state, guint event)
{
    for (guint i = 0; i < n; i++)
        if (rules[i].state == state && rules[i].event == event)
            return rules[i].rules;
    return 0;
}

gboolean coh_mesif_check(const CohProtocol *mesi, const CohFRule *rules, guint n, GError **error)
{
    for (guint k = 0; k < n; k++) {
        gboolean found = FALSE;
        for (guint i = 0; i < mesi->n_dir && !found; i++)
            found = mesi->dir[i].state == rules[k].state && mesi->dir[i].event == rules[k].event &&
                    !(mesi->dir[i].actions & DA_STALL);
        if (!found || (rules[k].rules & ~DR_MESIF) || coh_mesif_rules_of(rules, k, rules[k].state, rules[k].event)) {
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE,
                        "mesif: rule %u (%s + %s) is not one MESIF rule set of a %s directory row that is not a stall",
                        k, coh_dir_state_name(rules[k].state), coh_dir_event_name(rules[k].event), mesi->name);
            return FALSE;
        }
    }
    for (guint i = 0; i < mesi->n_dir; i++) {
        const CohRow *r = &mesi->dir[i];
        guint f = coh_mesif_rules_of(rules, n, r->state, r->event) & (DR_F_TO_READER | DR_F_DROP);
        const char *wrong = NULL;
        if (!(r->actions & DA_STALL) && !f)
            wrong = "does not say what becomes of F";
        else if (f == (DR_F_TO_READER | DR_F_DROP))
            wrong = "says two things of F";
        if (wrong) {
            g_autofree char *text = coh_row_text(r, TRUE);
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE, "mesif: directory row %u (%s) %s", i, text, wrong);
            return FALSE;
        }
    }
    return TRUE;
}

const CohProtocol *const coh_protocols[] = { &coh_msi, &coh_mesi, &coh_moesi, &coh_msi_bus, &coh_mesi_bus };
const guint coh_n_protocols = G_N_ELEMENTS(coh_protocols);

const CohProtocol *coh_protocol_select(const QsimConfig *cfg)
{
    gboolean bus = cfg->topology.interconnect == INTERCONNECT_BUS;
    switch (cfg->protocol) {
    case PROTO_MSI: return bus ? &coh_msi_bus : &coh_msi;
    case PROTO_MESI: return bus ? &coh_mesi_bus : &coh_mesi;
    case PROTO_MESIF: return bus ? NULL : &coh_mesi;
    case PROTO_MOESI: return bus ? NULL : &coh_moesi;
    }
    return NULL;
}

gboolean coh_protocol_check(const CohProtocol *p, GError **error)
{
    if (!check_table(p->cache, p->n_cache, CS__N, CE__N, CA__ALL, CA_STALL, 0, FALSE, error))
        return FALSE;
    if (!check_table(p->dir, p->n_dir, DS__N, DE__N, DA__ALL, DA_STALL, DR__ALL, TRUE, error))
        return FALSE;
    if (!check_no_mesif_rules(p, error))
        return FALSE;
    guint32 foreign = p->bus ? CA_DIRECTORY_ONLY : CA_BUS_ONLY;
    for (guint i = 0; i < p->n_cache; i++)
        if (p->cache[i].actions & foreign) {
            g_autofree char *text = coh_row_text(&p->cache[i], FALSE);
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE, "%s: cache row %u (%s) uses a %s action", p->name, i,
                        text, p->bus ? "directory" : "bus");
            return FALSE;
        }
    /* A cache row never leads into O in a protocol without O. */
    for (guint i = 0; i < p->n_cache && !p->has_o; i++)
        if (p->cache[i].next == CS_O || p->cache[i].next == CS_OI_A || p->cache[i].next == CS_OM_AC) {
            g_set_error(error, COH_ERROR, COH_ERROR_TABLE, "%s: row %u enters an O state",
                        p->name, i);
            return FALSE;
        }
    return check_run_lists(p, FALSE, error) && check_run_lists(p, TRUE, error);
}
