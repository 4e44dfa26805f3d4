/* The assembler: one row per error kind (message and position), good programs decoding to the
 * expected ops, and conditional assembly selecting each target's code. */
#include <check.h>
#include <string.h>
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"

/* Every input starts with these declarations (lines 1-4), so its own lines start at line 5. */
#define PRE ".shared w 8 own_line\n.shared h 4\n.thread node 16 own_line\n.equ K 3\n"

typedef struct {
    const char *title, *input, *expected;
    Arch arch;
} AsmErrorRow;

static const AsmErrorRow error_rows[] = {
    { "unknown op with did-you-mean", PRE "x:\n    lod r1, [w]\n", "t.qs:6:5: unknown op `lod`; did you mean `ld`?", ARCH_X86 },
    { "wrong operand count", PRE "    add r1, r2\n", "t.qs:5:5: `add` takes 3 operands, not 2", ARCH_X86 },
    { "wrong operand kind: register expected", PRE "    mov 5, r1\n", "t.qs:5:9: operand 1 of `mov` must be a register, not `5`", ARCH_X86 },
    { "wrong operand kind: memory expected", PRE "    ld r1, r2\n", "t.qs:5:12: expected a memory operand like [sym], [r1+8] or [sym+r2], not `r2`", ARCH_X86 },
    { "no such register", PRE "    add r1, r64, 1\n", "t.qs:5:13: no register `r64`", ARCH_X86 },
    { "undefined label", PRE "    beq r1, 0, nowhere\n", "t.qs:5:16: undefined label `nowhere`", ARCH_X86 },
    { "undefined label with did-you-mean", PRE "spin:\n    jmp spn\n", "t.qs:6:9: undefined label `spn`; did you mean `spin`?", ARCH_X86 },
    { "duplicate label", PRE "a:\n    nop\na:\n    ret\n", "t.qs:7:1: duplicate label `a` (first defined at t.qs:5:1)", ARCH_X86 },
    { "undefined variable", PRE "    ld r1, [zork+8]\n", "t.qs:5:13: undefined variable `zork`", ARCH_X86 },
    { "undefined variable with did-you-mean", PRE "    ld r1, [nod+8]\n", "t.qs:5:13: undefined variable `nod`; did you mean `node`?", ARCH_X86 },
    { "la of a misspelt variable", PRE "    la r1, nodee, r2\n", "t.qs:5:12: undefined variable `nodee`; did you mean `node`?", ARCH_X86 },
    { "with a misspelt partner", ".shared lock_word 4\n.shared count 4 with lock_wrd\n",
      "t.qs:2:22: `with lock_wrd`: no variable `lock_wrd` declared before this line; did you mean `lock_word`?", ARCH_X86 },
    { "duplicate variable", PRE ".shared w 4\n", "t.qs:5:9: duplicate variable `w` (first declared at line 1)", ARCH_X86 },
    { "immediate out of range for the access size", PRE "    st8 [w], 300\n", "t.qs:5:14: immediate 300 is out of range for a 8-bit operand", ARCH_X86 },
    { "immediate too big for 64 bits", PRE "    mov r1, 0x1ffffffffffffffff\n", "t.qs:5:13: immediate 0x1ffffffffffffffff is out of range", ARCH_X86 },
    { "shift out of range", PRE "    shl r1, r1, 64\n", "t.qs:5:17: shift amount 64 is out of range (0..63)", ARCH_X86 },
    { "work count out of range", PRE "    work -1\n", "t.qs:5:10: work count -1 is out of range (0..1000000)", ARCH_X86 },
    { "unaligned declaration", PRE ".shared v 8 align 4\n", "t.qs:5:19: unaligned declaration: `v` (8 bytes) needs at least 8-byte alignment, not 4", ARCH_X86 },
    { "alignment not a power of two", PRE ".shared v 8 align 12\n", "t.qs:5:19: alignment `12` must be a power of two", ARCH_X86 },
    { "sub-word access crossing its alignment", PRE "    ld16 r1, [w+1]\n", "t.qs:5:14: 16-bit access at w+1 crosses its natural alignment (2 bytes)", ARCH_X86 },
    { "access running outside its variable", PRE "    ld r1, [h]\n", "t.qs:5:12: 8-byte access at h+0 runs outside `h` (4 bytes)", ARCH_X86 },
    { "arm64-only op on x86", PRE "    ldx r1, [w]\n", "t.qs:5:5: `ldx` is not available on x86 (arm64 only; put it under `.if arch=arm64`)", ARCH_X86 },
    { "wfe on x86", PRE "    wfe\n", "t.qs:5:5: `wfe` is not available on x86 (arm64 only; put it under `.if arch=arm64`)", ARCH_X86 },
    { "write to tid", PRE "    add tid, tid, 1\n", "t.qs:5:9: `tid` is read-only: `add` cannot write it", ARCH_X86 },
    { "write to nthreads", PRE "    ld nthreads, [w]\n", "t.qs:5:8: `nthreads` is read-only: `ld` cannot write it", ARCH_ARM64 },
    { "with that does not fit", PRE ".shared big 64 with w\n", "t.qs:5:9: `big` (64 bytes) does not fit in `w`'s 64-byte line", ARCH_X86 },
    { "with an undeclared partner", PRE ".shared v 8 with qz\n", "t.qs:5:18: `with qz`: no variable `qz` declared before this line", ARCH_X86 },
    { "with on a per-thread variable", PRE ".thread v 8 with w\n", "t.qs:5:13: `with` places shared variables", ARCH_X86 },
    { "bad ordering suffix", PRE "    ld.rel r1, [w]\n", "t.qs:5:7: `ld` takes .acq, not `.rel`", ARCH_X86 },
    { "bad fence kind", PRE "    fence.acq\n", "t.qs:5:10: `fence` takes .full, .load or .store, not `.acq`", ARCH_X86 },
    { "entry point without a label", PRE ".entry lock\n", "t.qs:5:8: entry point `lock` has no label", ARCH_X86 },
    { "unknown directive", PRE ".global x\n", "t.qs:5:1: unknown directive `.global`", ARCH_X86 },
    { "la of an unknown variable", PRE "    la r1, nodes, r2\n", "t.qs:5:12: undefined variable `nodes`", ARCH_X86 },
    { "la takes 2 or 3 operands", PRE "    la r1\n", "t.qs:5:5: `la` takes 2 or 3 operands, not 1", ARCH_X86 },
    /* Conditional assembly: every kind of misplaced directive and bad condition. */
    { "endif without if", PRE ".endif\n", "t.qs:5:1: `.endif` without an open `.if`", ARCH_X86 },
    { "else without if", PRE "    .else\n", "t.qs:5:5: `.else` without an open `.if`", ARCH_ARM64 },
    { "elif without if", PRE ".elif arch=x86\n", "t.qs:5:1: `.elif` without an open `.if`", ARCH_X86 },
    { "elif after else", PRE ".if arch=x86\n.else\n.elif arch=arm64\n.endif\n",
      "t.qs:7:1: `.elif` after the `.else` of the `.if` at line 5", ARCH_X86 },
    { "two elses", PRE ".if arch=x86\n.else\n.else\n.endif\n",
      "t.qs:7:1: `.else` after the `.else` of the `.if` at line 5", ARCH_ARM64 },
    { "if never closed", PRE ".if arch=arm64\n    nop\n", "t.qs:5:1: `.if` without `.endif`", ARCH_X86 },
    { "nested if closed once", PRE ".if arch=x86\n  .if atomics=locked\n  .endif\n",
      "t.qs:5:1: `.if` without `.endif`", ARCH_X86 },
    { "unknown condition with did-you-mean", PRE ".if atomic=lse\n.endif\n",
      "t.qs:5:5: unknown condition `atomic`; did you mean `atomics`?", ARCH_ARM64 },
    { "unknown arch with did-you-mean", PRE ".if arch=amr64\n.endif\n",
      "t.qs:5:10: unknown arch `amr64`; did you mean `arm64`? (arch is x86 or arm64)", ARCH_X86 },
    { "unknown atomics kind", PRE ".if atomics=cas\n.endif\n", "t.qs:5:13: unknown atomics `cas`", ARCH_ARM64 },
    { "condition without KEY=VALUE", PRE ".if arm64\n.endif\n", "t.qs:5:5: `.if` takes one condition KEY=VALUE", ARCH_X86 },
    { "if without a condition", PRE ".if\n.endif\n", "t.qs:5:1: `.if` takes one condition KEY=VALUE", ARCH_X86 },
    { "two conditions", PRE ".if arch=x86 atomics=lse\n.endif\n",
      "t.qs:5:14: `.if` takes one condition; `atomics=lse` follows it", ARCH_X86 },
    { "else with a condition", PRE ".if arch=x86\n.else arch=arm64\n.endif\n",
      "t.qs:6:7: `.else` takes no condition", ARCH_X86 },
    { "endif with a condition", PRE ".if arch=x86\n.endif arch=x86\n", "t.qs:6:8: `.endif` takes no condition", ARCH_X86 },
    { "bad condition in a branch not taken", PRE ".if arch=x86\n.elif arch=x68\n.endif\n",
      "t.qs:6:12: unknown arch `x68`", ARCH_X86 },
    { "bad condition nested in a block not assembled", PRE ".if arch=arm64\n.if atomics=llssc\n.endif\n.endif\n",
      "t.qs:6:13: unknown atomics `llssc`; did you mean `llsc`?", ARCH_X86 },
    { "misspelt directive in a branch not taken", PRE ".if arch=arm64\n    nop\n.esle\n    nop\n.endif\n",
      "t.qs:7:1: unknown directive `.esle`", ARCH_X86 },
    { "label on a conditional line", PRE "spin: .if arch=x86\n.endif\n",
      "t.qs:5:1: a label cannot share a line with `.if`", ARCH_X86 },
    { "errors in the taken branch are reported", PRE ".if arch=arm64\n    lod r1, [w]\n.endif\n",
      "t.qs:6:5: unknown op `lod`", ARCH_ARM64 },
};

START_TEST(test_error_row)
{
    const AsmErrorRow *row = &error_rows[_i];
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble("t.qs", row->input, arch_target(row->arch), &err);
    ck_assert_msg(p == NULL, "%s: assembled without error", row->title);
    ck_assert(g_error_matches(err, ASM_ERROR, ASM_ERROR_INVALID));
    ck_assert_msg(strstr(err->message, row->expected), "%s:\n expected: %s\n got:      %s", row->title,
                  row->expected, err->message);
}
END_TEST

START_TEST(test_all_errors_collected_in_order)
{
    const char *src = PRE "    lod r1, [w]\n"   /* 5 */
                      "    jmp nowhere\n"         /* 6 */
                      ".shared v 8 align 3\n"     /* 7: reported from pass 1, still sorted */
                      "    add tid, r1, 1\n";     /* 8 */
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble("t.qs", src, arch_target(ARCH_X86), &err);
    ck_assert_ptr_null(p);
    g_auto(GStrv) lines = g_strsplit(err->message, "\n", -1);
    ck_assert_uint_eq(g_strv_length(lines), 4);
    ck_assert(g_str_has_prefix(lines[0], "t.qs:5:5: "));
    ck_assert(g_str_has_prefix(lines[1], "t.qs:6:9: "));
    ck_assert(g_str_has_prefix(lines[2], "t.qs:7:19: "));
    ck_assert(g_str_has_prefix(lines[3], "t.qs:8:9: "));
}
END_TEST

/* A block closes in the source that opened it: the harness cannot close the lock's `.if`. */
START_TEST(test_block_does_not_span_sources)
{
    AsmSource src[2] = { { "lock.qs", ".shared lock_word 4\n.if arch=x86\n.entry lock\nlock:\n    ret\n", TRUE },
                         { "<harness>", "main:\n.endif\n    call lock\n", FALSE } };
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble_sources(src, 2, arch_target(ARCH_X86), &err);
    ck_assert_ptr_null(p);
    ck_assert_str_eq(err->message, "lock.qs:2:1: `.if` without `.endif` (a block closes in the file that opens it)\n"
                                   "<harness>:2:1: `.endif` without an open `.if`");
}
END_TEST

START_TEST(test_errors_name_their_source)
{
    AsmSource src[2] = { { "lock.qs", ".shared lock_word 4\n.entry lock\nlock:\n    ret\n", TRUE },
                         { "<harness>", "main:\n    call lok\n", FALSE } };
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble_sources(src, 2, arch_target(ARCH_X86), &err);
    ck_assert_ptr_null(p);
    ck_assert_str_eq(err->message, "<harness>:2:10: undefined label `lok`; did you mean `lock`?");
}
END_TEST

/* Good programs: each source line decodes to the expected text. */
typedef struct {
    const char *in, *out;
} RoundTrip;

static const RoundTrip good[] = {
    { "mov r1, -5", "mov r1, -5" },
    { "add r2, tid, 1", "add r2, tid, 1" },
    { "shl r3, r2, K", "shl r3, r2, 3" },
    { "la r4, node", "la r4, node" },
    { "la r4, node, r2", "la r4, node, r2" },
    { "ld r0, [w]", "ld r0, [w]" },
    { "ld64 r0, [w]", "ld r0, [w]" },
    { "ld8.acq r0, [w+7]", "ld8.acq r0, [w+7]" },
    { "ld32 r0, [r4+8]", "ld32 r0, [r4+8]" },
    { "ld16 r0, [node+r2+4]", "ld16 r0, [node+r2+4]" },
    { "st16.rel [h+2], 0xffff", "st16.rel [h+2], 65535" },
    { "st32 [h], -1", "st32 [h], -1" },
    { "cas32.acqrel r1, [h], 0, 1", "cas32.acqrel r1, [h], 0, 1" },
    { "xchg16.acq r1, [h+2], r6", "xchg16.acq r1, [h+2], r6" },
    { "fadd.rel r1, [w], -K", "fadd.rel r1, [w], -3" },
    { "for8 r1, [w], 1", "for8 r1, [w], 1" },
    { "fand r1, [w], r3", "fand r1, [w], r3" },
    { "fence", "fence" },
    { "fence.load", "fence.load" },
    { "fence.store", "fence.store" },
    { "pause", "pause" },
    { "bltu r1, 10, top", "bltu r1, 10, top" },
    { "bge r1, r2, top", "bge r1, r2, top" },
    { "call top", "call top" },
    { "work 100", "work 100" },
    { "mark 2", "mark 2" },
    { "ret", "ret" },
    { "halt", "halt" },
};

START_TEST(test_round_trip)
{
    GString *src = g_string_new(PRE "top:   # a comment\n");
    for (guint i = 0; i < G_N_ELEMENTS(good); i++)
        g_string_append_printf(src, "    %s ; trailing comment\n", good[i].in);
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble("t.qs", src->str, arch_target(ARCH_X86), &err);
    ck_assert_msg(p != NULL, "%s", err ? err->message : "");
    ck_assert_uint_eq(p->insns->len, G_N_ELEMENTS(good));
    for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
        const IsaInsn *in = &g_array_index(p->insns, IsaInsn, i);
        g_autofree char *txt = asm_format_insn(p, in);
        ck_assert_str_eq(txt, good[i].out);
        ck_assert_uint_eq(in->line, 6 + i);
        ck_assert_uint_eq(in->col, 5);
    }
    g_string_free(src, TRUE);
}
END_TEST

START_TEST(test_decoded_fields)
{
    const char *src = PRE ".entry main\nmain:\n    cas32.acq r1, [node+r2+8], r3, 7\n    bne r1, 0, main\n"
                          "    ldx8.acq r5, [w]\n    stx8.rel r6, [w], r5\n    wfe\n";
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble("t.qs", src, arch_target(ARCH_ARM64), &err);
    ck_assert_msg(p != NULL, "%s", err ? err->message : "");
    const IsaInsn *c = &g_array_index(p->insns, IsaInsn, 0);
    ck_assert_int_eq(c->op, OP_CAS);
    ck_assert_uint_eq(c->size, 4);
    ck_assert_int_eq(c->order, ORD_ACQ);
    ck_assert_int_eq(c->rd, 1);
    ck_assert_int_eq(c->mem.sym, isa_program_find_sym(p, "node"));
    ck_assert_int_eq(c->mem.base, 2);
    ck_assert_int_eq(c->mem.offset, 8);
    ck_assert_int_eq(c->a.reg, 3);
    ck_assert_int_eq(c->b.reg, ISA_NO_REG);
    ck_assert_int_eq(c->b.imm, 7);
    const IsaInsn *b = &g_array_index(p->insns, IsaInsn, 1);
    ck_assert_int_eq(b->op, OP_BR);
    ck_assert_int_eq(b->cond, COND_NE);
    ck_assert_int_eq(b->target, 0);
    ck_assert_int_eq(isa_program_find_entry(p, "main"), 0);
    ck_assert_int_eq(g_array_index(p->insns, IsaInsn, 2).op, OP_LDX);
    ck_assert_int_eq(g_array_index(p->insns, IsaInsn, 3).order, ORD_REL);
}
END_TEST

/* One source, three targets: each gets its own branch of every block, nested blocks included;
 * declarations and labels in branches not taken do not exist (the same label and constant are
 * defined once per branch); positions stay those of the source. */
static const char cond_src[] =
    ".shared w 8 own_line\n"     /* 1 */
    ".if arch=arm64\n"
    ".equ N 2\n"
    ".shared only_arm64 8\n"
    ".else\n"                     /* 5 */
    ".equ N 1\n"
    ".endif\n"
    ".entry main\n"
    "main:\n"
    ".if arch=x86\n"              /* 10 */
    "spin:\n"
    "    pause\n"
    ".elif atomics=lse\n"
    "spin:\n"
    "    wfe\n"                   /* 15 */
    "    fadd r1, [w], N\n"
    ".else\n"
    "spin:  # llsc\n"
    "    ldx r1, [w]\n"
    "    wfe\n"                   /* 20 */
    ".endif\n"
    "    .if arch=arm64  # indented, with a comment\n"
    "    .if atomics = llsc\n"
    "    sevl\n"
    "    .endif\n"                /* 25 */
    "    .endif\n"
    "    mov r2, N\n"
    "    jmp spin\n";

typedef struct {
    ArchTarget target;
    const char *ops;              /* the decoded program, one op a line */
    const char *lines;            /* each op's source line */
} CondCase;

static const CondCase cond_cases[] = {
    { { ARCH_X86, ARCH_ATOMICS_LOCKED, 0 }, "pause\nmov r2, 1\njmp main\n", "12 27 28 " },
    { { ARCH_ARM64, ARCH_ATOMICS_LLSC, 0 }, "ldx r1, [w]\nwfe\nsevl\nmov r2, 2\njmp main\n", "19 20 24 27 28 " },
    { { ARCH_ARM64, ARCH_ATOMICS_LSE, 0 }, "wfe\nfadd r1, [w], 2\nmov r2, 2\njmp main\n", "15 16 27 28 " },
};

START_TEST(test_conditional_selects_per_target)
{
    const CondCase *c = &cond_cases[_i];
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble("t.qs", cond_src, c->target, &err);
    ck_assert_msg(p != NULL, "%s", err ? err->message : "");
    g_autoptr(GString) ops = g_string_new(NULL), lines = g_string_new(NULL);
    for (guint i = 0; i < p->insns->len; i++) {
        const IsaInsn *in = &g_array_index(p->insns, IsaInsn, i);
        g_autofree char *txt = asm_format_insn(p, in);
        g_string_append_printf(ops, "%s\n", txt);
        g_string_append_printf(lines, "%u ", in->line);
    }
    ck_assert_str_eq(ops->str, c->ops);
    ck_assert_str_eq(lines->str, c->lines);
    /* `spin` is the first op whichever branch defined it; the arm64-only variable exists only there. */
    ck_assert_int_eq(g_array_index(p->insns, IsaInsn, p->insns->len - 1).target, 0);
    ck_assert_int_eq(isa_program_find_sym(p, "only_arm64") >= 0, c->target.arch == ARCH_ARM64);
    /* The listing names the target. */
    g_autofree char *listing = asm_listing(p, c->target, 1);
    ck_assert_msg(strstr(listing, c->target.arch == ARCH_X86 ? "assembled for x86:" :
                                  c->target.atomics == ARCH_ATOMICS_LSE ? "assembled for arm64 (lse):"
                                                                        : "assembled for arm64 (llsc):"),
                  "%s", listing);
}
END_TEST

/* What a config assembles for, and the --arch/--atomics options. */
START_TEST(test_targets)
{
    static const struct { Arch arch; AtomicsKind kind; ArchAtomics want; } rows[] = {
        { ARCH_X86, ATOMICS_LLSC, ARCH_ATOMICS_LOCKED },   /* core.atomics means nothing on x86 */
        { ARCH_ARM64, ATOMICS_LLSC, ARCH_ATOMICS_LLSC },
        { ARCH_ARM64, ATOMICS_LSE_NEAR, ARCH_ATOMICS_LSE },
        { ARCH_ARM64, ATOMICS_LSE_FAR, ARCH_ATOMICS_LSE },
    };
    for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
        QsimConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.arch = rows[i].arch;
        cfg.core.atomics = rows[i].kind;
        cfg.line_size = 32;
        ArchTarget t = asm_target_for_config(&cfg);
        ck_assert_int_eq(t.arch, rows[i].arch);
        ck_assert_int_eq(t.atomics, rows[i].want);
        ck_assert_uint_eq(t.line_size, 32);   /* `with` placements are checked against it */
    }
    ArchTarget t;
    ck_assert(arch_target_parse(NULL, NULL, &t, NULL));
    ck_assert(t.arch == ARCH_X86 && t.atomics == ARCH_ATOMICS_LOCKED);
    ck_assert(arch_target_parse("arm64", NULL, &t, NULL));
    ck_assert(t.arch == ARCH_ARM64 && t.atomics == ARCH_ATOMICS_LLSC);
    ck_assert(arch_target_parse("arm64", "lse", &t, NULL));
    ck_assert(t.arch == ARCH_ARM64 && t.atomics == ARCH_ATOMICS_LSE);
    g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL;
    ck_assert(!arch_target_parse("x86", "lse", &t, &e1));
    ck_assert_str_eq(e1->message, "--atomics lse: x86 atomics are always LOCK-prefixed (locked)");
    ck_assert(!arch_target_parse("arm64", "locked", &t, &e2));
    ck_assert_str_eq(e2->message, "--atomics locked: arm64 atomics are llsc or lse");
    ck_assert(!arch_target_parse("arm64", "cas", &t, &e3));
    ck_assert_ptr_nonnull(strstr(e3->message, "not `cas`"));
}
END_TEST

START_TEST(test_with_layout)
{
    /* Data `with` a lock word that owns its line shares it; a later own-line variable does not;
     * a `with` partner that does not own its line gets no overlap with later variables. */
    const char *src = ".shared lock 4 own_line\n.shared a 8 own_line\n.shared data 16 with lock\n"
                      ".shared x 4\n.shared y 4\n.shared z 8 with x\n";
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble("t.qs", src, arch_target(ARCH_X86), &err);
    ck_assert_msg(p != NULL, "%s", err ? err->message : "");
    IsaLayout *l = isa_layout_new(p, 2, 64, 0x1000);
    uint64_t lock = isa_sym_addr(l, 0, 0), a = isa_sym_addr(l, 1, 0), data = isa_sym_addr(l, 2, 0);
    uint64_t x = isa_sym_addr(l, 3, 0), y = isa_sym_addr(l, 4, 0), z = isa_sym_addr(l, 5, 0);
    ck_assert_uint_eq(lock, 0x1000);
    ck_assert_uint_eq(data, 0x1008);
    ck_assert_uint_eq(a, 0x1040);
    ck_assert_uint_eq(x, 0x1080);
    ck_assert_uint_eq(y, 0x1084);
    ck_assert_uint_eq(z, 0x1088); /* after y, not on top of it */
    isa_layout_free(l);
}
END_TEST

/* `with` fits the target's line, not always 64 bytes: the layout places by the config's line
 * size, where a group that overflows would overlap the next variable (16-byte lines gave the
 * harness false mutual-exclusion failures). */
START_TEST(test_with_checked_against_the_line_size)
{
    const char *src = ".shared c 8 own_line\n.shared f 8 with c\n.shared d 8 with c\n.shared v 8 own_line\n";
    ArchTarget t = arch_target(ARCH_X86);
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p64 = asm_assemble("t.qs", src, t, &err);
    ck_assert_msg(p64 != NULL, "%s", err ? err->message : "");
    t.line_size = 32;
    g_autoptr(IsaProgram) p32 = asm_assemble("t.qs", src, t, &err);
    ck_assert_msg(p32 != NULL, "%s", err ? err->message : "");
    t.line_size = 16;
    g_autoptr(IsaProgram) p16 = asm_assemble("t.qs", src, t, &err);
    ck_assert_ptr_null(p16);
    ck_assert_str_eq(err->message, "t.qs:3:9: `d` (8 bytes) does not fit in `c`'s 16-byte line (it would start at offset 16)");
    /* Where it is accepted, the layout keeps the group in one line and off the next variable. */
    IsaLayout *l = isa_layout_new(p32, 1, 32, 0);
    ck_assert_uint_eq(isa_sym_addr(l, 2, 0) / 32, isa_sym_addr(l, 0, 0) / 32);
    ck_assert_uint_gt(isa_sym_addr(l, 3, 0), isa_sym_addr(l, 2, 0));
    isa_layout_free(l);
}
END_TEST

/* Echoed tokens are clipped, and a source of garbage reports its first errors (by position,
 * of the first ASM_DIAGS_KEPT found) and how many there were. */
START_TEST(test_errors_are_bounded)
{
    static const guint counts[] = { 100, 3000 };
    for (guint k = 0; k < G_N_ELEMENTS(counts); k++) {
        GString *src = g_string_new(NULL);
        for (guint i = 0; i < counts[k]; i++)
            g_string_append(src, "    lod r1\n");
        g_string_append(src, "    jmp ");
        for (guint i = 0; i < 5000; i++)
            g_string_append_c(src, 'y');
        g_string_append_c(src, '\n');
        g_autoptr(GError) err = NULL;
        g_autoptr(IsaProgram) p = asm_assemble("t.qs", src->str, arch_target(ARCH_X86), &err);
        g_string_free(src, TRUE);
        ck_assert_ptr_null(p);
        g_auto(GStrv) lines = g_strsplit(err->message, "\n", -1);
        ck_assert_uint_eq(g_strv_length(lines), 21);
        ck_assert_str_eq(lines[0], "t.qs:1:5: unknown op `lod`; did you mean `ld`?");
        g_autofree char *more = g_strdup_printf("... and %u more errors", counts[k] + 1 - 20);
        ck_assert_str_eq(lines[20], more);
    }
    /* A megabyte-long label is echoed clipped. */
    GString *src = g_string_new("    jmp ");
    for (guint i = 0; i < 1000000; i++)
        g_string_append_c(src, 'y');
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble("t.qs", src->str, arch_target(ARCH_X86), &err);
    g_string_free(src, TRUE);
    ck_assert_ptr_null(p);
    ck_assert_msg(g_str_has_prefix(err->message, "t.qs:1:9: undefined label `yyyyyyyyyy") &&
                  g_str_has_suffix(err->message, "y...`"), "%.200s", err->message);
    ck_assert_uint_lt(strlen(err->message), 120);
}
END_TEST

/* A large source assembles in time linear in its size: labels, variables and `with` chains are
 * found through tables (each lookup scanned all of them: a megabyte of labels took 14 s).  The
 * test's timeout is the guard. */
START_TEST(test_large_sources)
{
    GString *src = g_string_new(".shared v0 8 own_line\n.entry main\nmain:\n");
    for (guint i = 1; i < 12000; i++)
        g_string_append_printf(src, ".shared v%u 4 with v%u\nl%u:\n    ld32 r1, [v%u]\n    beq r1, 7, l%u\n", i,
                               i - 1, i, i, 12000 - i);
    g_string_append(src, "l12000:\n    halt\n");
    g_autoptr(GError) err = NULL;
    g_autoptr(IsaProgram) p = asm_assemble("t.qs", src->str, arch_target(ARCH_X86), &err);
    g_string_free(src, TRUE);
    /* the `with` chain overflows its partner's line at every 16th link */
    ck_assert_ptr_null(p);
    ck_assert_msg(g_str_has_prefix(err->message, "t.qs:60:9: `v15` (4 bytes) does not fit in `v14`'s 64-byte line"),
                  "%.300s", err->message);
    g_auto(GStrv) lines = g_strsplit(err->message, "\n", -1);
    ck_assert_str_eq(lines[g_strv_length(lines) - 1], "... and 730 more errors");
}
END_TEST

Suite *make_asm_suite(void)
{
    Suite *s = suite_create("asm");
    TCase *tc = tcase_create("errors");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_error_row, 0, G_N_ELEMENTS(error_rows));
    tcase_add_test(tc, test_all_errors_collected_in_order);
    tcase_add_test(tc, test_errors_name_their_source);
    tcase_add_test(tc, test_block_does_not_span_sources);
    tcase_add_test(tc, test_errors_are_bounded);
    suite_add_tcase(s, tc);
    tc = tcase_create("programs");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_decoded_fields);
    tcase_add_test(tc, test_with_layout);
    tcase_add_test(tc, test_with_checked_against_the_line_size);
    tcase_add_test(tc, test_large_sources);
    suite_add_tcase(s, tc);
    tc = tcase_create("conditional assembly");
    tcase_add_loop_test(tc, test_conditional_selects_per_target, 0, G_N_ELEMENTS(cond_cases));
    tcase_add_test(tc, test_targets);
    suite_add_tcase(s, tc);
    return s;
}
