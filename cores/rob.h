/* The reorder buffer and register renaming by ROB tags: a ring of entries in program order,
 * [head_seq, next_seq), allocated at the tail by dispatch, freed at the head by retirement and
 * cut back from the tail by a squash (the entries and the ring's fields are in struct Core).
 * rename[r] names the youngest op in the window writing r (SEQ_NONE: the architectural
 * register holds its value).  The operations every op passes through (indexing, reading
 * sources, allocation with renaming, retirement at the head) are inline here; rob.c holds the
 * rest (set-up, squash, rename rebuild).
 *
 * Included by core_internal.h once struct Core is complete: include that instead. */
#ifndef QSIM_ROB_H
#define QSIM_ROB_H

/* Indexing, inline for the stages that look at every entry.  `seq` is in the window or the
 * slot after it: [head_seq, head_seq + rob_size). */
static inline RobEntry *rob_at(Core *c, uint64_t seq)
{
    return &c->rob[(c->head_slot + (guint)(seq - c->head_seq)) & c->rob_mask];
}
static inline guint rob_count(const Core *c) { return (guint)(c->next_seq - c->head_seq); }

/* A source is ready when it is architectural, its producer retired, or its producer is done. */
static inline gboolean rob_src_ready(Core *c, uint64_t p)
{
    return p == SEQ_NONE || p < c->head_seq || rob_at(c, p)->state == E_DONE;
}

/* Once the producer retired the architectural register holds its value: no op between the
 * producer and the consumer writes that register (the producer was the youngest older one). */
static inline uint64_t rob_reg_value(Core *c, int reg, uint64_t p)
{
    if (p == SEQ_NONE || p < c->head_seq)
        return c->regs[reg];
    return rob_at(c, p)->value;
}

static inline uint64_t rob_src_value(Core *c, const IsaSrc *s, uint64_t p)
{
    return s->reg == ISA_NO_REG ? (uint64_t)s->imm : rob_reg_value(c, s->reg, p);
}

/* A new entry at the tail; the caller checked that the ROB has room.  Every field an op may
 * read before it writes it starts at zero, as a cleared entry would. */
static inline RobEntry *rob_alloc(Core *c)
{
    g_assert(rob_count(c) < c->rob_size);
    RobEntry *en = rob_at(c, c->next_seq);
    en->seq = c->next_seq++;
    en->src[0] = en->src[1] = en->src[2] = SEQ_NONE;
    en->wait_on = SEQ_NONE;
    en->value = 0;
    en->complete_at = 0;
    en->done_at = 0;
    en->req_id = 0;
    en->last_use = en->seq;
    en->addr = en->line = 0;
    en->data = en->data_b = 0;
    en->addr_known = en->data_known = FALSE;
    en->performed = en->watched = en->stale = FALSE;
    en->fault = ISA_FAULT_NONE;
    en->ll = LL_IDLE;
    en->ll_new = 0;
    en->older = 0;
    return en;
}

/* Dispatch's side of the ROB: the fetched op `f` takes the tail, waiting, with its sources
 * renamed to their producers in the window (each producer's last_use now this op) and its
 * destination renamed to it.  The caller checked that the ROB has room, and sets a store's
 * sb_slot. */
static inline RobEntry *rob_dispatch(Core *c, const FetchSlot *f)
{
    const IsaInsn *in = &c->code[f->pc];
    const OpDecode *d = &c->dec[f->pc];
    RobEntry *en = rob_alloc(c);
    en->in = in;
    en->pc = f->pc;
    en->pred_next = f->pred_next;
    en->ras_sp = f->ras_sp;
    en->ras_val = f->ras_val;
    en->head_since = CYCLE_NEVER;
    en->state = E_WAIT;
    en->ordk = d->ordk;
    en->startk = d->startk;
    en->fault = f->fault;
    if (in->a.reg != ISA_NO_REG)
        en->src[0] = c->rename[in->a.reg];
    if (in->b.reg != ISA_NO_REG)
        en->src[1] = c->rename[in->b.reg];
    if (d->has_mem && in->mem.base != ISA_NO_REG)
        en->src[2] = c->rename[in->mem.base];
    else if (in->op == OP_LA && in->rt != ISA_NO_REG)
        en->src[2] = c->rename[in->rt];
    for (guint i = 0; i < 3; i++)
        if (en->src[i] != SEQ_NONE)
            rob_at(c, en->src[i])->last_use = en->seq; /* in the window: renamed to it */
    if (in->rd != ISA_NO_REG && in->rd < ISA_NREGS)
        c->rename[in->rd] = en->seq;
    return en;
}

/* The head `en` retires: its result becomes architectural and the next op is the head. */
static inline void rob_retire_head(Core *c, const RobEntry *en)
{
    const IsaInsn *in = en->in;
    if (in->rd != ISA_NO_REG && in->rd < ISA_NREGS) {
        c->regs[in->rd] = en->value;
        if (c->rename[in->rd] == en->seq)
            c->rename[in->rd] = SEQ_NONE;
    }
    c->head_seq++;
    c->head_slot = (c->head_slot + 1) & c->rob_mask;
}

/* rob.c */
void rob_init(Core *c);
void rob_free(Core *c);
/* rename from the window alone (after a squash, or a context loaded with an empty ROB) */
void rob_rename_rebuild(Core *c);
/* Removes `seq` and every younger op (and everything fetched), undoing their effects on the
 * return-address stack, the load buffer and the store buffer; returns how many ROB entries
 * went.  The caller redirects fetch, or calls rob_squash_refetch, which does. */
guint rob_squash_from(Core *c, uint64_t seq);
guint rob_squash_refetch(Core *c, uint64_t seq, int32_t pc, gint64 penalty);

#endif
