/* The explorer's state and its canonical bytes (see explore_state.h for the layout). */
#include <string.h>
#include "sim/explore/explore_state.h"
#include "sim/explore/explore_live.h"
#include "cores/isa/isa_exec.h"

G_DEFINE_QUARK(qsim-explore-error-quark, explore_error)

static void poke(void *ctx, uint64_t addr, unsigned size, uint64_t value)
{
    ExploreWorld *w = ctx;
    guint8 *m = w->init + (addr - w->layout->base);
    for (unsigned i = 0; i < size; i++)
        m[i] = (guint8)(value >> (8 * i));
}

ExploreWorld *explore_world_new(const IsaProgram *p, guint nthreads, uint32_t line_size, const char *entry,
                                guint sb_size, GError **error)
{
    const char *name = entry ? entry : "main";
    int pc = isa_program_find_entry(p, name);
    if (pc < 0 || nthreads == 0) {
        g_set_error(error, EXPLORE_ERROR, EXPLORE_ERROR_SETUP, pc < 0 ? "%s: no entry point `%s`" : "%s: no threads",
                    p->filename, name);
        return NULL;
    }
    ExploreWorld *w = g_new0(ExploreWorld, 1);
    w->p = p;
    w->nthreads = nthreads;
    w->line_size = line_size ? line_size : 64;
    w->layout = isa_layout_new(p, nthreads, w->line_size, INTERP_BASE);
    /* Whole words, so the memory compare never reads past the end. */
    w->layout->size = (w->layout->size + 7) / 8 * 8;
    w->init = g_malloc0(w->layout->size ? w->layout->size : 8);
    isa_layout_init_memory(w->layout, p, poke, w);
    w->live = explore_live_regs(p);
    w->nregs = explore_regs_used(p);
    w->entry = pc;
    w->reads = explore_reads_new(p, w->layout, pc);
    w->sb_size = MIN(MAX(sb_size, 1u), (guint)EXPLORE_SB_MAX);
    return w;
}

void explore_world_free(ExploreWorld *w)
{
    if (!w)
        return;
    if (w->scratch)
        w->ext->world_free(w->scratch);
    isa_layout_free(w->layout);
    g_free(w->init);
    g_free(w->live);
    explore_reads_free(w->reads);
    g_free(w);
}

static void thread_reset(const ExploreWorld *w, ExploreThread *th, guint t)
{
    th->state = THREAD_RUNNABLE;
    th->pc = w->entry;
    memset(th->regs, 0, sizeof th->regs);
    th->regs[ISA_REG_TID] = t;
    th->regs[ISA_REG_NTHREADS] = w->nthreads;
    th->depth = 0;
    th->monitor = th->has_ldx_line = th->event = FALSE;
    th->ldx_line = 0;
    memset(th->marks, 0, sizeof th->marks);
    th->futex_addr = 0;
    th->futex_rank = 0;
    th->nbuf = 0;
    th->fault_kind = ISA_FAULT_NONE;
}

ExploreState *explore_state_new(const ExploreWorld *w)
{
    ExploreState *s = g_new0(ExploreState, 1);
    s->th = g_new0(ExploreThread, w->nthreads);
    s->mem = g_malloc(w->layout->size ? w->layout->size : 8);
    memcpy(s->mem, w->init, w->layout->size);
    for (guint t = 0; t < w->nthreads; t++)
        thread_reset(w, &s->th[t], t);
    if (w->ext) {
        s->ext = w->ext->make(w);
        s->ext_ops = w->ext;
    }
    return s;
}

void explore_state_free(ExploreState *s)
{
    if (!s)
        return;
    if (s->ext)
        s->ext_ops->free(s->ext);
    g_free(s->th);
    g_free(s->mem);
    g_free(s);
}

void explore_state_copy(const ExploreWorld *w, ExploreState *to, const ExploreState *from)
{
    memcpy(to->mem, from->mem, w->layout->size);
    for (guint t = 0; t < w->nthreads; t++) {
        ExploreThread *d = &to->th[t];
        const ExploreThread *f = &from->th[t];
        /* Up to the buffer, then only the entries in use. */
        memcpy(d, f, offsetof(ExploreThread, buf));
        memcpy(d->buf, f->buf, f->nbuf * sizeof f->buf[0]);
        d->fault_kind = f->fault_kind;
        d->fault_addr = f->fault_addr;
        d->fault_size = f->fault_size;
    }
    if (w->ext)
        w->ext->copy(w, to->ext, from->ext);
}

void explore_state_canonicalize(const ExploreWorld *w, ExploreState *s)
{
    guint n = w->p->insns->len;
    for (guint t = 0; t < w->nthreads; t++) {
        ExploreThread *th = &s->th[t];
        if (th->state == THREAD_FAULT || th->pc < 0 || (guint)th->pc >= n)
            continue;
        IsaRegMask live = w->live[th->pc];
        for (guint r = 0; r < w->nregs; r++)
            if (!(live & isa_reg_bit((int)r)))
                th->regs[r] = 0;
    }
    if (w->ext)
        w->ext->canonicalize(w, s);
}

/* ======================================================================= bytes */

guint explore_varint_into(guint8 *b, uint64_t v)
{
    guint n = 0;
    do {
        b[n] = (guint8)(v & 0x7f);
        v >>= 7;
        if (v)
            b[n] |= 0x80;
        n++;
    } while (v);
    return n;
}

void explore_put_varint(GByteArray *out, uint64_t v)
{
    guint8 b[10];
    g_byte_array_append(out, b, explore_varint_into(b, v));
}

uint64_t explore_get_varint(const guint8 **at)
{
    uint64_t v = 0;
    for (guint shift = 0;; shift += 7) {
        guint8 b = *(*at)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
}

static void put_byte(GByteArray *out, guint8 b) { g_byte_array_append(out, &b, 1); }

/* Word k of an image, little-endian whatever the host, so the bytes are the same everywhere. */
static uint64_t word_at(const guint8 *m, gsize k)
{
    uint64_t v;
    memcpy(&v, m + 8 * k, 8);
    return GUINT64_FROM_LE(v);
}

static void encode_thread(const ExploreWorld *w, const ExploreThread *th, GByteArray *out)
{
    uint64_t base = w->layout->base;
    put_byte(out, (guint8)(th->state | th->monitor << 3 | th->event << 4 | th->has_ldx_line << 5));
    explore_put_varint(out, (uint64_t)(th->pc + 1));
    IsaRegMask mask = 0;
    for (guint r = 0; r < w->nregs; r++)
        if (th->regs[r])
            mask |= isa_reg_bit((int)r);
    explore_put_varint(out, mask);
    for (guint r = 0; r < w->nregs; r++)
        if (th->regs[r])
            explore_put_varint(out, th->regs[r]);
    explore_put_varint(out, th->depth);
    for (guint d = 0; d < th->depth; d++)
        explore_put_varint(out, (uint64_t)th->stack[d]);
    if (th->has_ldx_line)
        explore_put_varint(out, th->ldx_line);
    for (guint k = 0; k < 4; k++)
        explore_put_varint(out, th->marks[k]);
    if (th->state == THREAD_FUTEX) {
        explore_put_varint(out, th->futex_addr - base);
        explore_put_varint(out, th->futex_rank);
    }
    if (th->state == THREAD_FAULT) {
        explore_put_varint(out, (uint64_t)th->fault_kind);
        explore_put_varint(out, th->fault_addr);
        explore_put_varint(out, th->fault_size);
    }
    explore_put_varint(out, th->nbuf);
    for (guint k = 0; k < th->nbuf; k++) {
        explore_put_varint(out, th->buf[k].addr - base);
        put_byte(out, th->buf[k].size);
        explore_put_varint(out, th->buf[k].value);
    }
}

void explore_state_encode(const ExploreWorld *w, const ExploreState *s, GByteArray *out)
{
    for (guint t = 0; t < w->nthreads; t++)
        encode_thread(w, &s->th[t], out);
    gsize words = w->layout->size / 8;
    int64_t prev = -1;
    for (gsize k = 0; k < words; k++) {
        uint64_t v = word_at(s->mem, k);
        if (v == word_at(w->init, k))
            continue;
        explore_put_varint(out, (uint64_t)((int64_t)k - prev));
        explore_put_varint(out, v);
        prev = (int64_t)k;
    }
    explore_put_varint(out, 0);
    if (w->ext)
        w->ext->encode(w, s, out);
}

static void decode_thread(const ExploreWorld *w, ExploreThread *th, guint t, const guint8 **at)
{
    uint64_t base = w->layout->base;
    thread_reset(w, th, t);
    guint8 b = *(*at)++;
    th->state = (InterpThreadState)(b & 7);
    th->monitor = (b >> 3) & 1;
    th->event = (b >> 4) & 1;
    th->has_ldx_line = (b >> 5) & 1;
    th->pc = (int32_t)explore_get_varint(at) - 1;
    IsaRegMask mask = explore_get_varint(at);
    for (guint r = 0; r < w->nregs; r++)
        if (mask & isa_reg_bit((int)r))
            th->regs[r] = explore_get_varint(at);
    th->depth = (guint)explore_get_varint(at);
    for (guint d = 0; d < th->depth; d++)
        th->stack[d] = (int32_t)explore_get_varint(at);
    if (th->has_ldx_line)
        th->ldx_line = explore_get_varint(at);
    for (guint k = 0; k < 4; k++)
        th->marks[k] = explore_get_varint(at);
    if (th->state == THREAD_FUTEX) {
        th->futex_addr = base + explore_get_varint(at);
        th->futex_rank = (guint)explore_get_varint(at);
    }
    if (th->state == THREAD_FAULT) {
        th->fault_kind = (int)explore_get_varint(at);
        th->fault_addr = explore_get_varint(at);
        th->fault_size = (unsigned)explore_get_varint(at);
    }
    th->nbuf = (guint)explore_get_varint(at);
    for (guint k = 0; k < th->nbuf; k++) {
        th->buf[k].addr = base + explore_get_varint(at);
        th->buf[k].size = *(*at)++;
        th->buf[k].value = explore_get_varint(at);
        th->buf[k].pc = -1;
    }
}

void explore_state_decode(const ExploreWorld *w, ExploreState *s, const guint8 *bytes, gsize len)
{
    const guint8 *at = bytes;
    for (guint t = 0; t < w->nthreads; t++)
        decode_thread(w, &s->th[t], t, &at);
    memcpy(s->mem, w->init, w->layout->size);
    int64_t k = -1;
    for (uint64_t d; (d = explore_get_varint(&at)) != 0;) {
        k += (int64_t)d;
        uint64_t v = GUINT64_TO_LE(explore_get_varint(&at));
        memcpy(s->mem + 8 * k, &v, 8);
    }
    if (w->ext)
        w->ext->decode(w, s, &at);
    g_assert((gsize)(at - bytes) == len);
}

uint64_t explore_hash(const guint8 *bytes, gsize len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (gsize i = 0; i < len; i++) {
        h ^= bytes[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* ======================================================================= reading */

uint64_t explore_mem_load(const ExploreWorld *w, const ExploreState *s, uint64_t addr, unsigned size)
{
    const guint8 *m = s->mem + (addr - w->layout->base);
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)m[i] << (8 * i);
    return v;
}

guint explore_count_in(const ExploreWorld *w, const ExploreState *s, InterpThreadState state)
{
    guint n = 0;
    for (guint t = 0; t < w->nthreads; t++)
        n += s->th[t].state == state;
    return n;
}
