/* The C front end's glue (see cfront.h): the lockhammer contract, the entry points the harness
 * calls, the per-thread stack, the C file's data as ISA variables, and the choice of translator
 * by target. */
#include <string.h>
#include <ctype.h>
#include "sim/cfront/cfront_priv.h"
#include "sim/cfront/cfront_compile.h"

G_DEFINE_QUARK(qsim-cfront-error-quark, cfront_error)

/* The per-thread stack the glue gives each thread: the ISA's largest variable. */
#define CF_STACK_BYTES 4096
/* Where positions of the ops the translation adds (no C line of their own) point. */
#define CF_GLUE_FILE "<c glue>"

gboolean cfront_is_c_path(const char *path)
{
    return path && g_str_has_suffix(path, ".c");
}

gboolean cfront_is_glue_var(const char *name)
{
    return !strcmp(name, CF_STACK_VAR) || !strcmp(name, CF_READY_VAR);
}

char *cfront_isa_name(const char *name)
{
    GString *g = g_string_new(NULL);
    const char *p = name;
    if (g_str_has_prefix(name, ".L")) {
        g_string_append(g, "cl_");
        p += 2;
    } else {
        g_string_append(g, "c_");
    }
    for (; *p; p++) {
        if (isalnum((unsigned char)*p) || *p == '_')
            g_string_append_c(g, *p);
        else if (*p == '.')
            g_string_append(g, "__");
        else
            g_string_append_printf(g, "_%02x", (guint8)*p);
    }
    return g_string_free(g, FALSE);
}

/* The translator for a target: x86-64, or AArch64 compiled for the machine's atomics (ARMv8.0
 * LL/SC, ARMv8.1 LSE). */
static const CfTarget *target_for(ArchTarget target)
{
    if (target.arch == ARCH_X86)
        return &cfront_x86;
    return target.atomics == ARCH_ATOMICS_LSE ? &cfront_arm64_lse : &cfront_arm64_llsc;
}

/* ---- data ---- */

static guint natural_align(guint64 size)
{
    guint a = 1;
    while (a * 2 <= size && a < 8)
        a *= 2;
    return a;
}

static gboolean emit_data(GString *out, const GasProgram *g, const char *c_path, GError **error)
{
    for (guint i = 0; i < g->data->len; i++) {
        const GasData *d = g->data->pdata[i];
        if (d->reloc) {
            g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_UNSUPPORTED,
                        "%s: `%s` is initialised with the address of `%s`: pointers in initialised data are not "
                        "supported", c_path, d->name, d->reloc);
            return FALSE;
        }
        if (d->size > CF_STACK_BYTES) {
            g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_UNSUPPORTED,
                        "%s: `%s` is %" G_GUINT64_FORMAT " bytes: a variable holds at most %d", c_path, d->name,
                        d->size, CF_STACK_BYTES);
            return FALSE;
        }
        for (guint k = 8; k < d->bytes->len; k++)
            if (d->bytes->data[k]) {
                g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_UNSUPPORTED,
                            "%s: `%s` is initialised beyond its first 8 bytes: not supported (the ISA gives a "
                            "variable one initial word)", c_path, d->name);
                return FALSE;
            }
        guint64 init = 0;
        for (guint k = 0; k < MIN(8u, d->bytes->len); k++)
            init |= (guint64)d->bytes->data[k] << (8 * k);
        guint64 size = MAX(d->size, 1);
        g_autofree char *name = cfront_isa_name(d->name);
        g_string_append_printf(out, "%s %s %" G_GUINT64_FORMAT " align %u", d->tls ? ".thread" : ".shared", name, size,
                               MAX(d->align, natural_align(size)));
        if (init)
            g_string_append_printf(out, " init %" G_GINT64_FORMAT, (gint64)init);
        g_string_append_c(out, '\n');
    }
    return TRUE;
}

/* ---- the glue ---- */

static guint lines_in(const GString *s)
{
    guint n = 0;
    for (gsize i = 0; i < s->len; i++)
        n += s->str[i] == '\n';
    return n;
}

/* One op of the glue, its position the line it is on in the translated text. */
static void glue(GString *out, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void glue(GString *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_string_append_printf(out, ".loc \"" CF_GLUE_FILE "\" %u\n    ", lines_in(out) + 2);
    g_string_append_vprintf(out, fmt, ap);
    g_string_append_c(out, '\n');
    va_end(ap);
}

static void glue_call(GString *out, const CfTarget *t, const char *fn)
{
    g_autofree char *name = cfront_isa_name(fn);
    if (t->call_push)
        glue(out, "sub r%d, r%d, %u", t->sp, t->sp, t->call_push);
    glue(out, "call %s", name);
    if (t->call_push)
        glue(out, "add r%d, r%d, %u", t->sp, t->sp, t->call_push);
}

/* Whether the translated code names register r: the code uses the stack when it names the
 * stack pointer. */
static gboolean code_names_reg(const char *code, int r)
{
    g_autofree char *name = g_strdup_printf("r%d", r);
    gsize n = strlen(name);
    for (const char *p = strstr(code, name); p; p = strstr(p + 1, name))
        if ((p == code || !g_ascii_isalnum(p[-1])) && !g_ascii_isalnum(p[n]) && p[n] != '_')
            return TRUE;
    return FALSE;
}

/* Entry point `entry` (what the harness calls): the thread's one-time init, then fn(&lock_word,
 * tid), entered by a jump so that fn's own `ret` returns to the harness.  The glue adds no call
 * and no return of its own: a call and a return more around every acquire and release changed
 * the timing model's cycles per acquisition (a test-and-set lock on neoverse-n1, 2 threads: 20%
 * fewer than the same instructions without them), which docs/c-locks.md promises they do not.
 * The stack is set up only for code that uses it (`stack`), at the top of the thread's own, less
 * the return address a call would have pushed (x86), so frame offsets stay as compiled. */
static void glue_entry(GString *out, const CfTarget *t, const char *entry, const char *fn, gboolean init,
                       gboolean stack, gboolean jump)
{
    g_string_append_printf(out, "%s:\n", entry);
    if (stack) {
        glue(out, "la r%d, " CF_STACK_VAR, t->sp);
        glue(out, "add r%d, r%d, %d", t->sp, t->sp, CF_STACK_BYTES - (int)t->call_push);
    }
    if (init) {
        glue(out, "ld64 r40, [" CF_READY_VAR "]");
        glue(out, "bne r40, 0, cf_ready_%s", entry);
        glue(out, "st64 [" CF_READY_VAR "], 1");
        glue(out, "mov r%d, tid", t->arg0);
        /* thread_local_init's frame: from the top of the stack, under a call as compiled */
        glue(out, "la r%d, " CF_STACK_VAR, t->sp);
        glue(out, "add r%d, r%d, %d", t->sp, t->sp, CF_STACK_BYTES);
        glue_call(out, t, "thread_local_init");
        if (stack && t->call_push)
            glue(out, "sub r%d, r%d, %u", t->sp, t->sp, t->call_push);
        g_string_append_printf(out, "cf_ready_%s:\n", entry);
    }
    glue(out, "la r%d, lock_word", t->arg0);
    glue(out, "mov r%d, tid", t->arg1);
    if (jump) {
        g_autofree char *name = cfront_isa_name(fn);
        glue(out, "jmp %s", name);
    }
}

/* Where the glue of fn may stand right before fn's label in the translated code and fall into
 * it, without a jump (a taken jump costs the timing model's front end a redirect: tas.c on
 * thunderx, 2 threads, 141.0 cycles per acquisition with it, 139.3 without, 137.3 for the same
 * instructions written by hand): the offset of the label's line, when the op before it cannot
 * fall through into it (a ret, a jmp, a halt, or none); -1 otherwise. */
static gssize fall_in_at(const GString *code, const char *fn)
{
    g_autofree char *name = cfront_isa_name(fn);
    g_autofree char *line = g_strdup_printf("%s:\n", name);
    gssize at = -1;
    for (const char *p = strstr(code->str, line); p; p = strstr(p + 1, line))
        if (p == code->str || p[-1] == '\n') {
            at = p - code->str;
            break;
        }
    if (at < 0)
        return -1;
    /* the last op before it: skip blank lines, labels, .loc lines and comments */
    g_autofree char *before = g_strndup(code->str, (gsize)at);
    g_auto(GStrv) lines = g_strsplit(before, "\n", -1);
    for (gint i = (gint)g_strv_length(lines) - 1; i >= 0; i--) {
        const char *l = lines[i];
        while (*l == ' ' || *l == '\t')
            l++;
        if (!*l || *l == '#' || *l == '.' || g_str_has_suffix(l, ":"))
            continue;
        return g_str_has_prefix(l, "ret") || g_str_has_prefix(l, "jmp ") || g_str_has_prefix(l, "halt") ? at : -1;
    }
    return at;
}

static gboolean defines(const GasProgram *g, const char *fn)
{
    if (!g_hash_table_contains(g->functions, fn))
        return FALSE;
    for (guint i = 0; i < g->stmts->len; i++) {
        const GasStmt *s = g->stmts->pdata[i];
        if (s->label && !strcmp(s->label, fn))
            return TRUE;
    }
    return FALSE;
}

char *cfront_translate_asm(const char *asm_text, const char *s_name, const char *c_path, ArchTarget target,
                           GError **error)
{
    const CfTarget *t = target_for(target);
    g_autoptr(GError) gas_err = NULL;
    g_autoptr(GasProgram) g = gas_read(asm_text, t->comment, &gas_err);
    if (!g) {
        g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_UNSUPPORTED, "%s: %s, %s", c_path, s_name, gas_err->message);
        return NULL;
    }
    static const char *const required[] = { "lock_acquire", "lock_release" };
    for (guint i = 0; i < G_N_ELEMENTS(required); i++)
        if (!defines(g, required[i])) {
            g_set_error(error, CFRONT_ERROR, CFRONT_ERROR_CONTRACT,
                        "%s: no function `%s`: a lock in C defines void lock_acquire(uint64_t *lock, unsigned long "
                        "threadnum) and void lock_release(uint64_t *lock, unsigned long threadnum), not static "
                        "(docs/c-locks.md)", c_path, required[i]);
            return NULL;
        }
    gboolean init = defines(g, "thread_local_init");
    GString *out = g_string_new(NULL);
    g_string_append_printf(out, "# %s, translated from C by qsim's C front end (%s); docs/c-locks.md\n", c_path,
                           t->name);
    g_string_append(out, ".shared lock_word 8 own_line\n");
    g_string_append_printf(out, ".thread " CF_STACK_VAR " %d align 16\n", CF_STACK_BYTES);
    if (init)
        g_string_append(out, ".thread " CF_READY_VAR " 8\n");
    if (!emit_data(out, g, c_path, error)) {
        g_string_free(out, TRUE);
        return NULL;
    }
    g_string_append(out, "\n.entry lock\n.entry unlock\n\n");
    GString *code = g_string_new(NULL);
    if (!t->translate(g, s_name, code, error)) {
        g_string_free(code, TRUE);
        g_string_free(out, TRUE);
        return NULL;
    }
    gboolean stack = code_names_reg(code->str, t->sp);
    static const char *const entry[] = { "lock", "unlock" }, *const fn[] = { "lock_acquire", "lock_release" };
    gssize at[2];
    gboolean jumps = FALSE;
    for (guint i = 0; i < 2; i++) {
        at[i] = fall_in_at(code, fn[i]);
        if (at[i] < 0) {   /* nowhere to fall in: the glue jumps to it */
            glue_entry(out, t, entry[i], fn[i], init, stack, TRUE);
            jumps = TRUE;
        }
    }
    if (jumps)
        g_string_append(out, "\n");
    /* the code, each falling-in glue before its function, in the code's order */
    guint first = at[1] >= 0 && (at[0] < 0 || at[1] < at[0]) ? 1 : 0;
    gsize done = 0;
    for (guint k = 0; k < 2; k++) {
        guint i = k == 0 ? first : 1 - first;
        if (at[i] < 0)
            continue;
        g_string_append_len(out, code->str + done, at[i] - (gssize)done);
        glue_entry(out, t, entry[i], fn[i], init, stack, FALSE);
        done = (gsize)at[i];
    }
    g_string_append_len(out, code->str + done, (gssize)(code->len - done));
    g_string_free(code, TRUE);
    return g_string_free(out, FALSE);
}

char *cfront_translate_file(const char *path, ArchTarget target, GError **error)
{
    const CfTarget *t = target_for(target);
    g_autofree char *s = cfront_compile(path, t->cc_env, t->cc_default, t->flags, error);
    if (!s)
        return NULL;
    g_autofree char *s_name = g_strdup_printf("`%s -S %s`", cfront_compiler_name(t->cc_default), path);
    return cfront_translate_asm(s, s_name, path, target, error);
}
