/* The workload harness text (see harness.h).  The generated code, per thread:
 *
 *   main:   r12 := iterations
 *   loop:   mark 1; call lock; mark 2
 *           check h_flag (and h_readers) are 0, else count a violation
 *           h_flag := 1; h_counter := h_counter + 1 (plain ld/add/st); cs_writes data stores
 *           work cs_work; h_flag := 0
 *           call unlock; mark 3; work think
 *           r12 -= 1; loop while r12 != 0; halt
 *
 * Readers (tid < readers) take the read side and count themselves in h_readers instead, so a
 * checker sees both exclusion against writers and overlap between readers (h_max_readers). */
#include <stdio.h>
#include <string.h>
#include "sim/workload/harness.h"
#include "sim/cfront/cfront.h"
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "sim/workload/scenario.h"

void harness_options_init(HarnessOptions *o)
{
    *o = (HarnessOptions){ .threads = 1, .iterations = 3, .cs_writes = 1, .data = HARNESS_SEPARATE_LINE };
}

/* HARNESS_SCENARIO: the scenario's body, iterations times, between the marks. */
static char *scenario_harness_source(const HarnessOptions *o)
{
    GString *g = g_string_new(NULL);
    g_string_append_printf(g,
        "# The scenario harness: %u iterations per thread of `" SCENARIO_ENTRY "`.\n"
        ".entry main\n"
        "main:\n"
        "    mov r12, %u\n"
        "    beq r12, 0, h_done\n"
        "h_body_loop:\n"
        "    mark 1\n"
        "    call " SCENARIO_ENTRY "\n"
        "    mark 2\n"
        "    mark 3\n", o->iterations, o->iterations);
    if (o->think || o->think_always)
        g_string_append_printf(g, "    work %u\n", o->think);
    g_string_append(g,
        "    sub r12, r12, 1\n"
        "    bne r12, 0, h_body_loop\n"
        "h_done:\n    halt\n");
    return g_string_free(g, FALSE);
}

/* How many copies of the loop body the harness has: one per iteration when unrolled (up to
 * HARNESS_MAX_UNROLL), else one that loops. */
static guint unrolled_copies(const HarnessOptions *o)
{
    return o->unrolled && o->iterations >= 1 && o->iterations <= HARNESS_MAX_UNROLL ? o->iterations : 1;
}

/* A loop body's end: the think time, then the count goes down either way (lock code may read
 * r12); a looping body goes round, an unrolled copy falls into the next. */
static void body_end(GString *g, const HarnessOptions *o, const char *loop)
{
    if (o->think || o->think_always)
        g_string_append_printf(g, "    work %u\n", o->think);
    g_string_append(g, "    sub r12, r12, 1\n");
    if (unrolled_copies(o) == 1)
        g_string_append_printf(g, "    bne r12, 0, %s\n", loop);
}

/* A loop body's start: its label (copy c's: loop_c), the acquisition between marks 1 and 2. */
static void body_start(GString *g, const char *loop, const char *sfx, const char *acquire)
{
    g_string_append_printf(g, "%s%s:\n    mark 1\n    call %s\n    mark 2\n", loop, sfx, acquire);
}

static void write_body(GString *g, const HarnessOptions *o, guint c)
{
    g_autofree char *sfx = c ? g_strdup_printf("_%u", c) : g_strdup("");
    body_start(g, "h_write_loop", sfx, "lock");
    g_string_append_printf(g,
        "    ld r0, [" HARNESS_FLAG "]\n"
        "    ld r1, [" HARNESS_READERS "]\n"
        "    or r0, r0, r1\n"
        "    beq r0, 0, h_write_ok%s\n"
        "    fadd r0, [" HARNESS_VIOLATIONS "], 1\n"
        "h_write_ok%s:\n"
        "    add r0, tid, 1\n", sfx, sfx);
    const char *st = o->release_stores ? "st.rel" : "st";
    g_string_append_printf(g,
        "    %s [" HARNESS_FLAG "], r0\n"
        "    ld r0, [" HARNESS_COUNTER "]\n"
        "    add r0, r0, 1\n"
        "    %s [" HARNESS_COUNTER "], r0\n", st, st);
    for (guint i = 0; i < o->cs_writes; i++)
        g_string_append_printf(g, "    %s [" HARNESS_DATA "+%u], r0\n", st, i * 8);
    if (o->cs_work)
        g_string_append_printf(g, "    work %u\n", o->cs_work);
    g_string_append_printf(g,
        "    %s [" HARNESS_FLAG "], 0\n"
        "    call unlock\n"
        "    mark 3\n", st);
    body_end(g, o, "h_write_loop");
}

static void read_body(GString *g, const HarnessOptions *o, guint c)
{
    g_autofree char *sfx = c ? g_strdup_printf("_%u", c) : g_strdup("");
    body_start(g, "h_read_loop", sfx, "read_lock");
    g_string_append_printf(g,
        "    fadd r0, [" HARNESS_READERS "], 1\n"
        "    ld r1, [" HARNESS_FLAG "]\n"
        "    beq r1, 0, h_read_ok%s\n"
        "    fadd r1, [" HARNESS_VIOLATIONS "], 1\n"
        "h_read_ok%s:\n"
        "    add r0, r0, 1\n"
        "h_read_max%s:\n"                         /* h_max_readers := max(it, r0) */
        "    ld r1, [" HARNESS_MAX_READERS "]\n"
        "    bgeu r1, r0, h_read_body%s\n"
        "    cas r2, [" HARNESS_MAX_READERS "], r1, r0\n"
        "    bne r2, r1, h_read_max%s\n"
        "h_read_body%s:\n"
        "    ld r1, [" HARNESS_COUNTER "]\n", sfx, sfx, sfx, sfx, sfx, sfx);
    for (guint i = 0; i < o->cs_writes; i++)
        g_string_append_printf(g, "    ld r1, [" HARNESS_DATA "+%u]\n", i * 8);
    if (o->cs_work)
        g_string_append_printf(g, "    work %u\n", o->cs_work);
    g_string_append(g,
        "    fadd r0, [" HARNESS_READERS "], -1\n"
        "    fadd r0, [" HARNESS_READS "], 1\n"
        "    call read_unlock\n"
        "    mark 3\n");
    body_end(g, o, "h_read_loop");
}

char *harness_source(const HarnessOptions *o)
{
    if (o->mode == HARNESS_SCENARIO)
        return scenario_harness_source(o);
    GString *g = g_string_new(NULL);
    const char *place = o->data == HARNESS_SAME_LINE ? "with " HARNESS_LOCK_WORD : "own_line";
    g_string_append_printf(g,
        "# The workload harness: %u iterations per thread, %u extra writes, data %s.\n"
        ".shared " HARNESS_COUNTER " 8 %s\n"
        ".shared " HARNESS_FLAG " 8 %s\n",
        o->iterations, o->cs_writes, o->data == HARNESS_SAME_LINE ? "in the lock's line" : "in its own line",
        place, o->data == HARNESS_SAME_LINE ? place : "with " HARNESS_COUNTER);
    if (o->cs_writes)
        g_string_append_printf(g, ".shared " HARNESS_DATA " %u %s\n", o->cs_writes * 8,
                               o->data == HARNESS_SAME_LINE ? place : "with " HARNESS_COUNTER);
    /* The checker's own variables stay off the lock's line so they do not perturb it much. */
    g_string_append_printf(g,
        ".shared " HARNESS_VIOLATIONS " 8 own_line\n"
        ".shared " HARNESS_READERS " 8 own_line\n"
        ".shared " HARNESS_MAX_READERS " 8 with " HARNESS_READERS "\n"
        ".shared " HARNESS_READS " 8 with " HARNESS_READERS "\n"
        "\n.entry main\n"
        "main:\n"
        "    mov r12, %u\n", o->iterations);
    g_string_append_printf(g, "    beq r12, 0, h_done\n");
    if (o->readers)
        g_string_append_printf(g, "    bltu tid, %u, h_read_loop\n", o->readers);
    /* Unrolled (HarnessOptions.unrolled): a copy of the body per iteration, one after the
     * other, so what a thread may still read after its last section is what it reads there. */
    guint copies = unrolled_copies(o);
    for (guint c = 0; c < copies; c++)
        write_body(g, o, c);
    g_string_append(g, "    jmp h_done\n");
    if (o->readers)
        for (guint c = 0; c < copies; c++)
            read_body(g, o, c);
    g_string_append(g, "h_done:\n    halt\n");
    return g_string_free(g, FALSE);
}

/* ---- the program: lock + harness ---- */

static IsaProgram *assemble_both(const char *lock_file, const char *lock_text, const HarnessOptions *o,
                                 ArchTarget target, const char *const *params, GError **error)
{
    g_autofree char *harness = harness_source(o);
    AsmSource src[] = { { lock_file, lock_text, TRUE }, { HARNESS_SOURCE, harness, FALSE } };
    return asm_assemble_with_params(src, G_N_ELEMENTS(src), target, params, error);
}

/* The most critical-section words that assemble beside this lock's word (same-line data must
 * share its line); -1 when even none do. */
static gint most_cs_writes(const char *lock_file, const char *lock_text, const HarnessOptions *o, ArchTarget target,
                           const char *const *params)
{
    HarnessOptions fewer = *o;
    for (gint n = (gint)o->cs_writes - 1; n >= 0; n--) {
        fewer.cs_writes = (guint)n;
        IsaProgram *p = assemble_both(lock_file, lock_text, &fewer, target, params, NULL);
        if (p) {
            isa_program_free(p);
            return n;
        }
    }
    return -1;
}

IsaProgram *harness_assemble(const char *lock_file, const char *lock_text, const HarnessOptions *o,
                             ArchTarget target, const char *const *params, GError **error)
{
    /* The lock alone first: its own errors (a misspelt --lock-param among them), then the entry
     * points the harness calls. */
    AsmSource alone_src[] = { { lock_file, lock_text, TRUE } };
    g_autoptr(IsaProgram) alone = asm_assemble_with_params(alone_src, 1, target, params, error);
    if (!alone)
        return NULL;
    static const char *const writer_calls[] = { "lock", "unlock", NULL }, *const body_calls[] = { SCENARIO_ENTRY, NULL };
    static const char *const reader_calls[] = { "read_lock", "read_unlock" };
    const char *const *calls = o->mode == HARNESS_SCENARIO ? body_calls : writer_calls;
    for (guint i = 0; calls[i]; i++)
        if (isa_program_find_entry(alone, calls[i]) < 0) {
            /* the other kind of program: say how to run it */
            gboolean other = isa_program_find_entry(alone, o->mode == HARNESS_SCENARIO ? "lock" : SCENARIO_ENTRY) >= 0;
            g_set_error(error, ASM_ERROR, ASM_ERROR_INVALID,
                        "%s: no entry point `%s` (the harness calls it; mark its label with `.entry %s`)%s", lock_file,
                        calls[i], calls[i],
                        !other                          ? ""
                        : o->mode == HARNESS_SCENARIO ? "; it has `lock`: a lock runs with --lock"
                                                        : "; it has `" SCENARIO_ENTRY "`: a scenario runs with --scenario");
            return NULL;
        }
    for (guint i = 0; i < G_N_ELEMENTS(reader_calls) && o->readers; i++)
        if (isa_program_find_entry(alone, reader_calls[i]) < 0) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "--readers %u: %s has no read side (no entry point `%s`): --readers needs a reader/writer "
                        "lock such as qrwlock", o->readers, lock_file, reader_calls[i]);
            return NULL;
        }
    GError *local = NULL;
    IsaProgram *p = assemble_both(lock_file, lock_text, o, target, params, &local);
    if (p)
        return p;
    /* The lock is fine alone: the harness text made for these options does not fit it.  Only
     * same-line data can (it shares the lock word's line); say which option, and what fits. */
    if (o->data == HARNESS_SAME_LINE && o->cs_writes) {
        gint most = most_cs_writes(lock_file, lock_text, o, target, params);
        if (most >= 0) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "--cs-writes %u with --data same-line: the words do not fit in the line of %s's lock word "
                        "(at most %d fit there; or use --data separate-line)", o->cs_writes, lock_file, most);
            g_error_free(local);
            return NULL;
        }
    }
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "the workload options (--data %s, --cs-writes %u) do not fit %s: %s",
                o->data == HARNESS_SAME_LINE ? "same-line" : "separate-line", o->cs_writes, lock_file, local->message);
    g_error_free(local);
    return NULL;
}

gboolean harness_pc_in_lock(const IsaProgram *p, int32_t pc)
{
    if (pc < 0 || (guint)pc >= p->insns->len)
        return FALSE;
    return g_strcmp0(isa_insn_file(p, &g_array_index(p->insns, IsaInsn, pc)), HARNESS_SOURCE) != 0;
}

/* The pc of label `name`, or -1. */
static int32_t label_pc(const IsaProgram *p, const char *name)
{
    for (guint k = 0; p->labels && k < p->labels->len; k++)
        if (!strcmp(g_array_index(p->labels, IsaEntry, k).name, name))
            return g_array_index(p->labels, IsaEntry, k).pc;
    return -1;
}

/* From the loop's label: the op after its `mark 2`, to the first op `last_op` on variable `sym`
 * with immediate `imm`. */
static HarnessSection find_section(const IsaProgram *p, const char *loop, IsaOp last_op, const char *sym, int64_t imm)
{
    HarnessSection none = { -1, -1 }, s = none;
    int32_t pc = label_pc(p, loop), n = (int32_t)p->insns->len;
    int var = isa_program_find_sym(p, sym);
    for (; pc >= 0 && pc < n; pc++) {
        const IsaInsn *i = &g_array_index(p->insns, IsaInsn, pc);
        if (s.first < 0 && i->op == OP_MARK && i->n == 2)
            s.first = pc + 1;
        else if (s.first >= 0 && i->op == last_op && i->mem.sym == var && i->a.reg == ISA_NO_REG && i->a.imm == imm) {
            s.last = pc;
            return s;
        }
    }
    return none;
}

gboolean harness_sections(const IsaProgram *p, HarnessSection *writer, HarnessSection *reader)
{
    *writer = find_section(p, "h_write_loop", OP_ST, HARNESS_FLAG, 0);
    *reader = find_section(p, "h_read_loop", OP_FADD, HARNESS_READERS, -1);
    return writer->first >= 0;
}

gboolean harness_is_support_var(const char *name)
{
    if (cfront_is_glue_var(name))
        return TRUE;
    static const char *const vars[] = { HARNESS_COUNTER, HARNESS_FLAG, HARNESS_VIOLATIONS, HARNESS_DATA,
                                        HARNESS_READERS, HARNESS_MAX_READERS, HARNESS_READS };
    for (guint i = 0; i < G_N_ELEMENTS(vars); i++)
        if (!strcmp(name, vars[i]))
            return TRUE;
    return FALSE;
}
