/* The translators' shared emitter and pass driver (see cf_emit.h). */
#include <string.h>
#include "sim/cfront/cf_emit.h"
#include "sim/cfront/cfront_priv.h"
#include "sim/cfront/cf_peephole.h"

void cf_em(CfEmit *e, const char *fmt, ...)
{
    if (!e->out)
        return;
    va_list ap;
    va_start(ap, fmt);
    g_ptr_array_add(e->ops, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

void cf_label(CfEmit *e, const char *label)
{
    if (e->out)
        g_ptr_array_add(e->ops, g_strdup_printf("%s:", label));
}

/* The current instruction's ops, made fewer (cf_peephole.h), onto the output. */
static void flush_ops(CfEmit *e)
{
    if (!e->out || !e->ops->len)
        return;
    cf_peephole(e->ops, e->arch->t_first, e->arch->t_count, &e->zext32);
    for (guint i = 0; i < e->ops->len; i++) {
        const char *op = e->ops->pdata[i];
        g_string_append_printf(e->out, g_str_has_suffix(op, ":") ? "%s\n" : "    %s\n", op);
    }
    g_ptr_array_set_size(e->ops, 0);
}

const char *cf_keep(CfEmit *e, char *s)
{
    g_ptr_array_add(e->pool, s);
    return s;
}

const char *cf_tmp(CfEmit *e)
{
    g_assert(e->ntemp < e->arch->t_count);   /* no row needs as many */
    return cf_keep(e, g_strdup_printf("r%u", e->arch->t_first + e->ntemp++));
}

const char *cf_new_label(CfEmit *e)
{
    return cf_keep(e, g_strdup_printf("cf_L%u", e->nlabel++));
}

gboolean cf_vfail(CfEmit *e, const char *fmt, va_list ap)
{
    if (e->failed || !e->out)
        return FALSE;          /* only the pass that writes reports */
    g_autofree char *why = g_strdup_vprintf(fmt, ap);
    const GasStmt *s = e->st;
    g_autofree char *at = s->cfile ? g_strdup_printf("%s:%u:%u", s->cfile, s->cline, s->ccol)
                                   : g_strdup_printf("%s:%u", e->s_name, s->sline);
    g_set_error(e->error, CFRONT_ERROR, CFRONT_ERROR_UNSUPPORTED,
                "%s: cannot translate `%s` (%s, line %u of the compiler's output %s): %s", at, s->text, e->arch->name,
                s->sline, e->s_name, why);
    e->failed = TRUE;
    return FALSE;
}

const char *cf_isa_name(CfEmit *e, const char *sym)
{
    return cf_keep(e, cfront_isa_name(sym));
}

gboolean cf_is_code_label(CfEmit *e, const char *name)
{
    for (guint i = 0; i < e->g->stmts->len; i++) {
        const GasStmt *s = e->g->stmts->pdata[i];
        if (s->label && !strcmp(s->label, name))
            return TRUE;
    }
    return FALSE;
}

void cf_note_jump(CfEmit *e, const char *label)
{
    if (e->arch->note_jump)
        e->arch->note_jump(e, label);
    gpointer had = g_hash_table_lookup(e->label_fl, label);
    guint now = had ? (GPOINTER_TO_UINT(had) - 1) & e->fl : e->fl;
    if (!had || GPOINTER_TO_UINT(had) - 1 != now) {
        g_hash_table_replace(e->label_fl, g_strdup(label), GUINT_TO_POINTER(now + 1));
        e->changed = TRUE;
    }
}

static void set_one(CfEmit *e, const char *reg, const char *v, guint bits)
{
    if (bits >= 64)
        cf_em(e, "mov %s, %s", reg, v);
    else
        cf_em(e, "sext %s, %s, %u", reg, v, bits);
}

void cf_set_flags(CfEmit *e, const char *a, const char *b, guint bits, guint kept)
{
    set_one(e, CF_FA, a, bits);
    if (b)
        set_one(e, CF_FB, b, bits);
    else
        cf_em(e, "mov %s, 0", CF_FB);
    e->fl = kept;
}

/* One pass over the code.  The flag passes (out NULL) only work out e->label_fl. */
static gboolean one_pass(CfEmit *e)
{
    const char *lfile = NULL;
    guint lline = 0, lcol = 0;
    e->fl = CF_FL_NONE;
    e->nlabel = 0;
    e->zext32 = 0;
    if (e->arch->pass_start)
        e->arch->pass_start(e);
    for (guint i = 0; i < e->g->stmts->len && !e->failed; i++) {
        const GasStmt *s = e->g->stmts->pdata[i];
        e->st = s;
        e->ntemp = 0;
        g_ptr_array_set_size(e->pool, 0);
        if (s->label) {
            e->zext32 = 0;                 /* control may arrive here from elsewhere */
            if (g_hash_table_contains(e->g->functions, s->label)) {
                e->fl = CF_FL_NONE;        /* a function starts with no flags */
                if (e->arch->function_start)
                    e->arch->function_start(e);
            } else {
                if (e->arch->jump_target && g_hash_table_contains(e->targets, s->label))
                    e->arch->jump_target(e, s->label);
                gpointer in = g_hash_table_lookup(e->label_fl, s->label);
                if (in)
                    e->fl &= GPOINTER_TO_UINT(in) - 1;
                else if (e->fl == CF_FL_UNREACHED)
                    e->fl = CF_FL_NONE;    /* reached by no jump and no fall-through */
            }
            if (e->out && (!g_str_has_prefix(s->label, ".L") || g_hash_table_contains(e->targets, s->label)))
                g_string_append_printf(e->out, "%s:\n", cf_isa_name(e, s->label));
            continue;
        }
        if (e->fl == CF_FL_UNREACHED)
            e->fl = CF_FL_NONE;
        if (e->out && s->cfile && (s->cfile != lfile || s->cline != lline || s->ccol != lcol)) {
            g_autofree char *q = g_strescape(s->cfile, NULL);
            g_string_append_printf(e->out, ".loc \"%s\" %u %u\n", q, s->cline, s->ccol);
            lfile = s->cfile, lline = s->cline, lcol = s->ccol;
        }
        if (e->out)
            g_string_append_printf(e->out, "    # %s\n", s->text);
        gboolean ok = e->arch->insn(e, s);
        flush_ops(e);
        if (!ok && e->out)
            return FALSE;
        if (e->arch->after_insn)
            e->arch->after_insn(e);
    }
    return !e->failed;
}

static gboolean fail_at(CfEmit *e, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail_at(CfEmit *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cf_vfail(e, fmt, ap);
    va_end(ap);
    return FALSE;
}

gboolean cf_translate(CfEmit *e, const CfArch *arch, const GasProgram *g, const char *s_name, GString *out,
                      GError **error)
{
    e->arch = arch;
    e->g = g;
    e->s_name = s_name;
    e->error = error;
    e->out = NULL;
    e->failed = FALSE;
    e->label_fl = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    e->pool = g_ptr_array_new_with_free_func(g_free);
    e->ops = g_ptr_array_new_with_free_func(g_free);
    e->targets = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint i = 0; i < g->stmts->len; i++) {
        const GasStmt *s = g->stmts->pdata[i];
        for (guint k = 0; s->ops && k < s->ops->len; k++)
            g_hash_table_add(e->targets, s->ops->pdata[k]);
    }
    /* What holds at each label: passes until no label's set shrinks (each pass can only shrink
     * them, so this ends), then the pass that writes. */
    for (guint pass = 0; pass < 64; pass++) {
        e->changed = FALSE;
        one_pass(e);
        if (!e->changed)
            break;
    }
    e->out = out;
    gboolean ok = one_pass(e);
    if (!ok && !e->failed)   /* every refusal goes through cf_vfail: never leave the caller without a why */
        fail_at(e, "the translation stopped here without a reason (a bug in qsim's %s translator)", arch->name);
    g_hash_table_destroy(e->label_fl);
    g_hash_table_destroy(e->targets);
    g_ptr_array_free(e->pool, TRUE);
    g_ptr_array_free(e->ops, TRUE);
    return ok;
}
