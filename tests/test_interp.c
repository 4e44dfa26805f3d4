/* The reference interpreter: values, scheduling outcomes, the exclusive monitor and wfe. */
#include <check.h>
#include <string.h>
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"

static IsaProgram *assemble(const char *src, Arch arch)
{
    g_autoptr(GError) err = NULL;
    IsaProgram *p = asm_assemble("t.qs", src, arch_target(arch), &err);
    ck_assert_msg(p != NULL, "%s", err ? err->message : "");
    return p;
}

static Interp *start(const IsaProgram *p, guint threads, guint64 seed, guint64 max_steps)
{
    InterpOptions o = { .threads = threads, .seed = seed, .max_steps = max_steps };
    g_autoptr(GError) err = NULL;
    Interp *in = interp_new(p, &o, &err);
    ck_assert_msg(in != NULL, "%s", err ? err->message : "");
    return in;
}

static uint64_t var(const Interp *in, const char *name, guint t)
{
    uint64_t v = 0;
    ck_assert(interp_read_sym(in, name, t, 8, &v));
    return v;
}

START_TEST(test_values)
{
    const char *src =
        ".shared w 8 own_line\n.thread out 64 own_line\n.entry main\n"
        "main:\n"
        "    st32 [w], 0x11223344\n"
        "    ld8 r1, [w+1]\n"       /* little-endian: 0x33 */
        "    st [out], r1\n"
        "    ld16 r1, [w+2]\n"      /* 0x1122 */
        "    st [out+8], r1\n"
        "    cas32 r1, [w], -1, 5\n"/* fails: old 0x11223344 */
        "    st [out+16], r1\n"
        "    st32 [w], 0xffffffff\n"
        "    cas32 r1, [w], -1, 5\n"/* -1 compares as 0xffffffff at 32 bits: succeeds */
        "    ld r2, [w]\n"
        "    st [out+24], r2\n"
        "    mov r3, 7\n"
        "    call double\n"
        "    st [out+32], r3\n"
        "    sub r4, 0, 1\n"
        "    shr r4, r4, 60\n"       /* logical: 15 */
        "    st [out+40], r4\n"
        "    blt r4, 0, bad\n"
        "    mul r5, tid, 10\n"
        "    add r5, r5, nthreads\n"
        "    st [out+48], r5\n"
        "    halt\n"
        "bad:\n    halt\n"
        "double:\n    add r3, r3, r3\n    ret\n";
    g_autoptr(IsaProgram) p = assemble(src, ARCH_X86);
    g_autoptr(Interp) in = start(p, 2, 1, 0);
    ck_assert_int_eq(interp_run(in), INTERP_FINISHED);
    for (guint t = 0; t < 2; t++) {
        ck_assert_uint_eq(var(in, "out", t), 0x33);
        uint64_t v;
        ck_assert(interp_read(in, isa_sym_addr(interp_layout(in), 1, t) + 8, 8, &v));
        ck_assert_uint_eq(v, 0x1122);
        ck_assert(interp_read(in, isa_sym_addr(interp_layout(in), 1, t) + 32, 8, &v));
        ck_assert_uint_eq(v, 14);
        ck_assert(interp_read(in, isa_sym_addr(interp_layout(in), 1, t) + 40, 8, &v));
        ck_assert_uint_eq(v, 15);
        ck_assert(interp_read(in, isa_sym_addr(interp_layout(in), 1, t) + 48, 8, &v));
        ck_assert_uint_eq(v, t * 10 + 2);
    }
}
END_TEST

START_TEST(test_atomic_counter)
{
    const char *src = ".shared c 8 own_line\n.shared plain 8 own_line\n.entry main\n"
                      "main:\n    mov r1, 25\nloop:\n    fadd r0, [c], 1\n    sub r1, r1, 1\n"
                      "    bne r1, 0, loop\n    halt\n";
    g_autoptr(IsaProgram) p = assemble(src, ARCH_X86);
    for (guint64 seed = 1; seed <= 20; seed++) {
        g_autoptr(Interp) in = start(p, 4, seed, 0);
        ck_assert_int_eq(interp_run(in), INTERP_FINISHED);
        ck_assert_uint_eq(var(in, "c", 0), 100);
    }
}
END_TEST

START_TEST(test_same_seed_same_run)
{
    const char *src = ".shared c 8\n.entry main\nmain:\n    ld r0, [c]\n    add r0, r0, 1\n    st [c], r0\n"
                      "    ld r0, [c]\n    add r0, r0, 1\n    st [c], r0\n    halt\n";
    g_autoptr(IsaProgram) p = assemble(src, ARCH_X86);
    g_autoptr(Interp) a = start(p, 8, 42, 0);
    g_autoptr(Interp) b = start(p, 8, 42, 0);
    interp_run(a);
    interp_run(b);
    g_autofree char *da = interp_describe(a);
    g_autofree char *db = interp_describe(b);
    ck_assert_str_eq(da, db);
    ck_assert_uint_eq(var(a, "c", 0), var(b, "c", 0));
    /* Lost updates show the interleaving is real: some seed loses one. */
    gboolean lost = FALSE;
    for (guint64 seed = 1; seed <= 50 && !lost; seed++) {
        g_autoptr(Interp) in = start(p, 8, seed, 0);
        interp_run(in);
        lost = var(in, "c", 0) < 16;
    }
    ck_assert(lost);
}
END_TEST

START_TEST(test_deadlock_all_in_wfe)
{
    const char *src = ".shared x 8\n.entry main\nmain:\n    ldx r1, [x]\n    wfe\n    jmp main\n";
    g_autoptr(IsaProgram) p = assemble(src, ARCH_ARM64);
    g_autoptr(Interp) in = start(p, 3, 7, 0);
    ck_assert_int_eq(interp_run(in), INTERP_DEADLOCK);
    for (guint t = 0; t < 3; t++)
        ck_assert_int_eq(interp_thread(in, t)->state, THREAD_WFE);
    g_autofree char *d = interp_describe(in);
    ck_assert_ptr_nonnull(strstr(d, "deadlock"));
    ck_assert_ptr_nonnull(strstr(d, "waiting in wfe"));
}
END_TEST

START_TEST(test_livelock_bound)
{
    const char *src = ".shared x 8\n.entry main\nmain:\n    ld r0, [x]\n    beq r0, 0, main\n    halt\n";
    g_autoptr(IsaProgram) p = assemble(src, ARCH_X86);
    g_autoptr(Interp) in = start(p, 2, 1, 1000);
    ck_assert_int_eq(interp_run(in), INTERP_LIVELOCK);
    ck_assert_uint_eq(interp_steps(in), 1000);
}
END_TEST

START_TEST(test_runtime_faults)
{
    g_autoptr(IsaProgram) rec = assemble(".entry main\nmain:\n    call main\n", ARCH_X86);
    g_autoptr(Interp) a = start(rec, 1, 1, 0);
    ck_assert_int_eq(interp_run(a), INTERP_FAULT);
    ck_assert_ptr_nonnull(strstr(interp_thread(a, 0)->fault, "call stack overflow"));
    ck_assert_uint_eq(interp_thread(a, 0)->depth, INTERP_CALL_DEPTH);
    g_autoptr(IsaProgram) nul = assemble(".entry main\nmain:\n    ld r0, [r1]\n    halt\n", ARCH_X86);
    g_autoptr(Interp) b = start(nul, 1, 1, 0);
    ck_assert_int_eq(interp_run(b), INTERP_FAULT);
    ck_assert_ptr_nonnull(strstr(interp_thread(b, 0)->fault, "outside the program's memory"));
    g_autoptr(IsaProgram) noentry = assemble("x:\n    halt\n", ARCH_X86);
    InterpOptions o = { .threads = 1 };
    g_autoptr(GError) err = NULL;
    ck_assert_ptr_null(interp_new(noentry, &o, &err));
    ck_assert_ptr_nonnull(strstr(err->message, "no entry point `main`"));
}
END_TEST

/* Thread 0 arms the monitor, then waits until thread 1 has written another word of the same
 * line: its stx must fail, for every interleaving.  Alone, the same stx succeeds. */
START_TEST(test_stx_fails_after_remote_store)
{
    const char *src =
        ".shared x 16 own_line\n.shared flag 8 own_line\n.shared armed 8 own_line\n"
        ".shared res 8 own_line init 9\n.entry main\n"
        "main:\n"
        "    bne tid, 0, writer\n"
        "    ldx r1, [x]\n"
        "    st [armed], 1\n"
        "    beq nthreads, 1, try\n"
        "wait:\n    ld r2, [flag]\n    beq r2, 0, wait\n"
        "try:\n    stx r3, [x], 5\n    st [res], r3\n    halt\n"
        "writer:\n    ld r2, [armed]\n    beq r2, 0, writer\n    st [x+8], 7\n    st [flag], 1\n    halt\n";
    g_autoptr(IsaProgram) p = assemble(src, ARCH_ARM64);
    for (guint64 seed = 1; seed <= 30; seed++) {
        g_autoptr(Interp) in = start(p, 2, seed, 0);
        ck_assert_int_eq(interp_run(in), INTERP_FINISHED);
        ck_assert_uint_eq(var(in, "res", 0), 1);
        ck_assert_uint_eq(var(in, "x", 0), 0);
    }
    g_autoptr(Interp) alone = start(p, 1, 1, 0);
    ck_assert_int_eq(interp_run(alone), INTERP_FINISHED);
    ck_assert_uint_eq(var(alone, "res", 0), 0);
    ck_assert_uint_eq(var(alone, "x", 0), 5);
}
END_TEST

/* smp_cond_load_acquire style waiting: thread 0 sleeps in wfe until thread 1's store. */
START_TEST(test_wfe_wakes_on_store_and_sev)
{
    const char *src =
        ".shared x 8 own_line\n.shared y 8 own_line\n.entry main\n"
        "main:\n"
        "    bne tid, 0, writer\n"
        "    sevl\n    wfe\n"                      /* clears the local event */
        "loop:\n    ldx r1, [x]\n    bne r1, 0, seen\n    wfe\n    jmp loop\n"
        "seen:\n    halt\n"
        "writer:\n    work 5\n    st [x], 1\n    halt\n"
        "sev_main:\n    bne tid, 0, sev_writer\n    ldx r1, [x]\n    wfe\n    halt\n"
        "sev_writer:\n    work 3\n    st [y], 1\n    sev\n    halt\n"
        ".entry sev_main\n";
    g_autoptr(IsaProgram) p = assemble(src, ARCH_ARM64);
    gboolean slept = FALSE;
    for (guint64 seed = 1; seed <= 40; seed++) {
        g_autoptr(Interp) in = start(p, 2, seed, 100000);
        InterpOutcome oc;
        while ((oc = interp_step(in)) == INTERP_RUNNING)
            slept |= interp_thread(in, 0)->state == THREAD_WFE;
        ck_assert_int_eq(oc, INTERP_FINISHED);
    }
    ck_assert_msg(slept, "thread 0 never slept in wfe");
    /* A store to another line does not wake it; the sev does. */
    for (guint64 seed = 1; seed <= 20; seed++) {
        InterpOptions o = { .threads = 2, .seed = seed, .entry = "sev_main" };
        g_autoptr(Interp) in = interp_new(p, &o, NULL);
        ck_assert_int_eq(interp_run(in), INTERP_FINISHED);
    }
}
END_TEST

/* A lost wake-up: thread 0 arms the monitor once, and after its first wake re-checks with a
 * plain load and sleeps again without re-arming.  Thread 1 stores 1 once the monitor is armed,
 * then (after a delay long enough for thread 0 to fall asleep again) 2.  That second store
 * clears no monitor, so no event comes: on arm64 thread 0 sleeps for ever (here, once thread 1
 * has halted, a deadlock).  Before the interpreter tied events to the armed monitor, any store
 * to the line last ldx-ed woke a sleeping thread, and this bug finished.  The same wait
 * re-arming with ldx each time round finishes on every seed. */
static const char lost_wakeup_writer[] =
    "writer:\n    ld r1, [armed]\n    beq r1, 0, writer\n    st [x], 1\n"
    "    mov r3, 200\n"
    "delay:\n    sub r3, r3, 1\n    bne r3, 0, delay\n"
    "    st [x], 2\n    halt\n";

START_TEST(test_wfe_without_monitor_never_wakes)
{
    g_autofree char *buggy = g_strconcat(
        ".shared x 8 own_line\n.shared armed 8 own_line\n.entry main\n"
        "main:\n"
        "    bne tid, 0, writer\n"
        "    ldx r1, [x]\n    st [armed], 1\n"
        "wait:\n    wfe\n    ld r1, [x]\n    bne r1, 2, wait\n"     /* bug: no ldx in the loop */
        "    halt\n", lost_wakeup_writer, NULL);
    g_autofree char *fixed = g_strconcat(
        ".shared x 8 own_line\n.shared armed 8 own_line\n.entry main\n"
        "main:\n"
        "    bne tid, 0, writer\n"
        "wait:\n    ldx r1, [x]\n    st [armed], 1\n    beq r1, 2, done\n    wfe\n    jmp wait\n"
        "done:\n    halt\n", lost_wakeup_writer, NULL);
    g_autoptr(IsaProgram) bad = assemble(buggy, ARCH_ARM64);
    g_autoptr(IsaProgram) good = assemble(fixed, ARCH_ARM64);
    for (guint64 seed = 1; seed <= 30; seed++) {
        g_autoptr(Interp) in = start(bad, 2, seed, 100000);
        ck_assert_int_eq(interp_run(in), INTERP_DEADLOCK);
        ck_assert_int_eq(interp_thread(in, 0)->state, THREAD_WFE);
        ck_assert_int_eq(interp_thread(in, 1)->state, THREAD_HALTED);
        ck_assert_uint_eq(var(in, "x", 0), 2);
        g_autoptr(Interp) ok = start(good, 2, seed, 100000);
        ck_assert_int_eq(interp_run(ok), INTERP_FINISHED);
    }
}
END_TEST

/* A thread's own stx clears its monitor without an event: a wfe after it sleeps until sev. */
START_TEST(test_own_stx_sends_no_event)
{
    static const char src[] =
        ".shared x 8 own_line\n.shared go 8 own_line\n.entry main\n"
        "main:\n"
        "    bne tid, 0, other\n"
        "    ldx r1, [x]\n    stx r2, [x], 5\n    st [go], 1\n    wfe\n    halt\n"
        "other:\n    ld r1, [go]\n    beq r1, 0, other\n    st [x], 7\n    halt\n";
    g_autoptr(IsaProgram) p = assemble(src, ARCH_ARM64);
    for (guint64 seed = 1; seed <= 20; seed++) {
        g_autoptr(Interp) in = start(p, 2, seed, 100000);
        ck_assert_int_eq(interp_run(in), INTERP_DEADLOCK);
        ck_assert_int_eq(interp_thread(in, 0)->state, THREAD_WFE);
        ck_assert_uint_eq(var(in, "x", 0), 7);
    }
}
END_TEST

Suite *make_interp_suite(void)
{
    Suite *s = suite_create("interp");
    TCase *tc = tcase_create("values");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_values);
    tcase_add_test(tc, test_atomic_counter);
    tcase_add_test(tc, test_same_seed_same_run);
    suite_add_tcase(s, tc);
    tc = tcase_create("outcomes");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_deadlock_all_in_wfe);
    tcase_add_test(tc, test_livelock_bound);
    tcase_add_test(tc, test_runtime_faults);
    suite_add_tcase(s, tc);
    tc = tcase_create("exclusive and events");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_stx_fails_after_remote_store);
    tcase_add_test(tc, test_wfe_wakes_on_store_and_sev);
    tcase_add_test(tc, test_wfe_without_monitor_never_wakes);
    tcase_add_test(tc, test_own_stx_sends_no_event);
    suite_add_tcase(s, tc);
    return s;
}
