/* Bad input never crashes, hangs or lies (docs/robustness.md), at run time: a lock program's
 * faults (unaligned, NULL, wild, a thread that does not exist, calls nested too deep) stop
 * `run`, `litmus` and `native` with exit 1 and the thread, the op's file:line and the address,
 * in the words the reference interpreter uses, under the OS model too; a lock that never hands
 * over ends in a report of each thread's position (the progress watchdog), on the model and
 * natively; every workload option has a maximum; contradictory or empty options are errors
 * naming the options; a `halt` inside the lock is called what it is. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_fault.h"
#include "cores/isa/isa_exec.h"
#include "sim/workload/harness.h"
#include "sim/run/run.h"
#include "sim/validation/verify.h"
#include "sim/workload/workload.h"
#include "tests/run_qsim.h"

/* ------------------------------------------------------------------------------------------ */
/* Lock files                                                                                 */
/* ------------------------------------------------------------------------------------------ */

#define LOCK_HEAD ".shared lock_word 8 own_line\n.thread node 8 own_line\n.entry lock\n.entry unlock\n"

/* Line 7 of each is the faulting op (after the four header lines, `lock:` and one op). */
static const struct {
    const char *name;
    const char *lock;       /* the `lock` body */
    const char *addr;       /* the model's address in the message */
    const char *what;       /* the fault in words */
} faults[] = {
    { "unaligned", "    la r1, lock_word\n    ld r0, [r1+3]\n", "0x10003", "is not 8-byte aligned" },
    { "null store", "    mov r1, 0\n    st [r1], 1\n", "0x0", "outside the program's memory" },
    { "wild store", "    mov r1, 0x7000000\n    st [r1+8], 1\n", "0x7000008", "outside the program's memory" },
    { "no such thread", "    mov r2, 5\n    la r1, node, r2\n", "thread 5", "does not exist" },
    /* The futex ops' word is an access like any other (the model handed it to the OS model
     * unjudged: a wait on NULL slept for good, a wake ran, an unaligned word hit the memory
     * system's assertion). */
    { "null futex_wait", "    mov r1, 0\n    futex_wait r0, [r1], 0\n", "0x0", "outside the program's memory" },
    { "unaligned futex_wake", "    la r1, lock_word\n    futex_wake r0, [r1+2], 1\n", "0x10002",
      "is not 4-byte aligned" },
};

typedef struct {
    char *dir;
    char *path;
} LockFile;

/* A lock file whose `lock` is `lock_body` and whose `unlock` is `unlock_body` (NULL: `ret`). */
static LockFile lock_file(const char *lock_body, const char *unlock_body)
{
    LockFile f;
    f.dir = g_dir_make_tmp("qsim-rob-XXXXXX", NULL);
    ck_assert(f.dir);
    f.path = g_build_filename(f.dir, "lock.qs", NULL);
    g_autofree char *text = g_strdup_printf(LOCK_HEAD "lock:\n%s    ret\nunlock:\n%s", lock_body,
                                            unlock_body ? unlock_body : "    ret\n");
    ck_assert(g_file_set_contents(f.path, text, -1, NULL));
    return f;
}

static void lock_file_clear(LockFile *f)
{
    g_unlink(f->path);
    g_rmdir(f->dir);
    g_free(f->path);
    g_free(f->dir);
}

/* `qsim CMD --lock-file F REST`: the exit status, with what it printed. */
static int run_with(const char *cmd, const LockFile *f, const char *rest, char **out, char **err)
{
    g_autofree char *line = g_strdup_printf("%s --lock-file %s %s", cmd, f->path, rest);
    return run_qsim_line(line, out, err);
}

/* The spin of a test-and-set lock (ends in `ret` after it, from lock_file). */
#define SPIN "    xchg r0, [lock_word], 1\n    beq r0, 0, got\n    pause\n    jmp lock\ngot:\n"

/* ------------------------------------------------------------------------------------------ */
/* Faults                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* One definition: the interpreter, the model and the native runner all judge an access with
 * isa_access_check. */
START_TEST(test_access_check_definition)
{
    IsaLayout l = { .base = 0x10000, .size = 0x100, .line_size = 64 };
    ck_assert_int_eq(isa_access_check(&l, 0x10000, 8), ISA_FAULT_NONE);
    ck_assert_int_eq(isa_access_check(&l, 0x100f8, 8), ISA_FAULT_NONE);
    ck_assert_int_eq(isa_access_check(&l, 0x100f9, 1), ISA_FAULT_NONE);
    ck_assert_int_eq(isa_access_check(&l, 0x10003, 8), ISA_FAULT_UNALIGNED);
    ck_assert_int_eq(isa_access_check(&l, 0x10002, 4), ISA_FAULT_UNALIGNED);
    ck_assert_int_eq(isa_access_check(&l, 0x10100, 8), ISA_FAULT_OUTSIDE);
    ck_assert_int_eq(isa_access_check(&l, 0x100fc, 8), ISA_FAULT_OUTSIDE); /* outside comes first */
    ck_assert_int_eq(isa_access_check(&l, 0, 8), ISA_FAULT_OUTSIDE);
    ck_assert_int_eq(isa_access_check(&l, 0xfffffffffffffff8ULL, 8), ISA_FAULT_OUTSIDE);
    ck_assert_int_eq(isa_access_check(&l, 0xfff8, 8), ISA_FAULT_OUTSIDE);
}
END_TEST

/* `run` (it aborted on an assertion, rc 134, or silently took the store) and `verify` say the
 * same: exit 1, the thread, the op's file:line, the address and what is wrong with it. */
START_TEST(test_fault_stops_run)
{
    LockFile f = lock_file(faults[_i].lock, NULL);
    g_autofree char *out = NULL, *err = NULL, *vout = NULL, *verr = NULL;
    int rc = run_with("run", &f, "--config haswell --iterations 5 --no-host-time", &out, &err);
    ck_assert_msg(rc == 1, "%s: exit %d\n%s", faults[_i].name, rc, err);
    g_autofree char *pos = g_strdup_printf("%s:7:", f.path);
    ck_assert_msg(strstr(err, "faulted") && strstr(err, "thread ") && strstr(err, pos) &&
                  strstr(err, faults[_i].addr) && strstr(err, faults[_i].what), "%s: %s", faults[_i].name, err);
    ck_assert_msg(strstr(out, "faulted:                           true"), "%s", out);
    /* the interpreter's words */
    rc = run_with("verify", &f, "--seeds 1", &vout, &verr);
    ck_assert_int_eq(rc, 1);
    g_autofree char *both = g_strconcat(vout, verr, NULL);
    ck_assert_msg(strstr(both, pos) && strstr(both, faults[_i].what), "%s", both);
    lock_file_clear(&f);
}
END_TEST

/* Under the OS model (more threads than cores, or futex system calls) a fault is reported as
 * without it, whatever the other threads are doing: waiting in a run queue, asleep in
 * futex_wait, switching, on a parked core.  `run` used to abort: in core_context_load (the OS
 * took the faulting thread for one that had ended and loaded the next onto its core), or in
 * the OS's halt hook (a parked core stopped as if its thread had halted), or crash. */
#define SLEEP_THEN_FAULT                                                                           \
    "    beq tid, 0, late\n    futex_wait r0, [lock_word], 0\n    ret\nlate:\n    work 3000\n" \
    "    ld r0, [r5]\n"
static const struct {
    const char *config;
    const char *threads;
    const char *lock;
} os_faults[] = {
    { "teaching", "3", "    ld r0, [r5]\n" },   /* the reported one: 3 threads on 2 cores */
    { "haswell", "37", "    ld r0, [r5]\n" },   /* 37 on 36 */
    { "teaching", "2", SLEEP_THEN_FAULT },      /* the other asleep, its core parked */
    { "teaching", "3", SLEEP_THEN_FAULT },
    { "haswell", "4", SLEEP_THEN_FAULT },
    { "haswell", "40", SLEEP_THEN_FAULT },
};

START_TEST(test_fault_under_the_os_model)
{
    LockFile f = lock_file(os_faults[_i].lock, NULL);
    g_autofree char *out = NULL, *err = NULL;
    g_autofree char *rest = g_strdup_printf("--config %s --threads %s --iterations 1", os_faults[_i].config,
                                            os_faults[_i].threads);
    int rc = run_with("run", &f, rest, &out, &err);
    ck_assert_msg(rc == 1, "%s: exit %d\n%s", rest, rc, err);
    ck_assert_msg(strstr(err, "the run faulted: thread ") && strstr(err, "`ld r0, [r5]`: 8-byte access at 0x0 (NULL)"),
                  "%s: %s", rest, err);
    ck_assert_msg(strstr(out, "faulted:                           true"), "%s", out);
    lock_file_clear(&f);
}
END_TEST

/* Calls nested past the return stack are a fault in `run` as in `verify`, in the same words at
 * the same op, on every kind of core (it was reported as a stall: fetch stopped silently). */
static const char *const control_configs[] = { "haswell", "neoverse-n1", "thunderx" };

START_TEST(test_call_depth_faults_run)
{
    LockFile f = lock_file("    call lock\n", NULL);
    g_autofree char *out = NULL, *err = NULL, *vout = NULL, *verr = NULL;
    g_autofree char *rest = g_strdup_printf("--config %s --iterations 1", control_configs[_i]);
    int rc = run_with("run", &f, rest, &out, &err);
    ck_assert_msg(rc == 1, "%s: exit %d\n%s", rest, rc, err);
    g_autofree char *at = g_strdup_printf("%s:6:5 `call lock`: call stack overflow (more than %d nested calls)",
                                          f.path, ISA_CALL_DEPTH);
    ck_assert_msg(strstr(err, "the run faulted: thread ") && strstr(err, at), "%s: %s", rest, err);
    ck_assert_msg(strstr(out, "faulted:                           true") && !strstr(out, "stalled:                           true"),
                  "%s", out);
    rc = run_with("verify", &f, "--seeds 1", &vout, &verr);
    ck_assert_int_eq(rc, 1);
    g_autofree char *both = g_strconcat(vout, verr, NULL);
    ck_assert_msg(strstr(both, at), "%s", both);
    lock_file_clear(&f);
}
END_TEST

/* On arm64 too (no LOCK'd atomics there: the fault is the plain access's). */
START_TEST(test_fault_stops_run_arm64)
{
    LockFile f = lock_file("    la r1, lock_word\n    ldx r0, [r1+4]\n", NULL);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_with("run", &f, "--config neoverse-n1 --iterations 5", &out, &err);
    ck_assert_msg(rc == 1, "exit %d\n%s", rc, err);
    ck_assert_msg(strstr(err, "0x10004") && strstr(err, "is not 8-byte aligned"), "%s", err);
    lock_file_clear(&f);
}
END_TEST

/* A bad address on a mispredicted path is no fault: only an op that retires faults.  The
 * branch is predicted not taken the first time, so the load through r0 = 3 runs on the wrong
 * path (it used to reach the memory system and abort on its alignment assertion). */
START_TEST(test_wrong_path_is_not_a_fault)
{
    LockFile f = lock_file("    mov r0, 3\n    beq r0, 3, over\n    ld r1, [r0]\n    ld r1, [r0+8]\nover:\n" SPIN,
                           "    st [lock_word], 0\n    ret\n");
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_with("run", &f, "--config haswell --iterations 20", &out, &err);
    ck_assert_msg(rc == 0, "exit %d\n%s", rc, err);
    lock_file_clear(&f);
}
END_TEST

/* litmus on the model: a load through a register that holds no address (it read 0 and the
 * test passed). */
START_TEST(test_fault_stops_litmus)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-rob-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "nullp.litmus", NULL);
    ck_assert(g_file_set_contents(path,
                                  "AArch64 NULLP\n\"a load through no address\"\n{\n0:X1=x;\n}\n"
                                  " P0          ;\n LDR W0,[X5] ;\n STR W0,[X1] ;\nexists (0:X0=0)\n",
                                  -1, NULL));
    g_autofree char *line = g_strdup_printf("litmus --config neoverse-n1 --runs 3 %s", path);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(line, &out, &err);
    ck_assert_msg(rc == 1, "exit %d\n%s%s", rc, out, err);
    ck_assert_msg(strstr(err, "thread 0") && strstr(err, "nullp.litmus:7:") && strstr(err, "0x0") &&
                  strstr(err, "outside the program's memory"), "%s", err);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* Natively (x86 took the unaligned load and said nothing; a NULL store killed the process with
 * SIGSEGV and no message): exit 1, the thread, the op and the address with its symbol. */
START_TEST(test_fault_stops_native)
{
    LockFile f = lock_file(faults[_i].lock, NULL);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_with("native", &f, "--threads 1 --iterations 5", &out, &err);
    ck_assert_msg(rc == 1, "%s: exit %d\n%s", faults[_i].name, rc, err);
    g_autofree char *pos = g_strdup_printf("%s:7:", f.path);
    ck_assert_msg(strstr(err, "faulted") && strstr(err, "thread 0") && strstr(err, pos) &&
                  strstr(err, faults[_i].what), "%s: %s", faults[_i].name, err);
    if (_i == 0)
        ck_assert_msg(strstr(err, "(lock_word+3)"), "%s", err);
    lock_file_clear(&f);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Futex words: the same faults (issue 29 items 2 and 7)                                      */
/* ------------------------------------------------------------------------------------------ */

/* A futex op's word is a 4-byte access like any other: on the model an unaligned one aborted in
 * the memory system, one at NULL was performed (wake) or slept as a lost wake-up (wait), where
 * verify and native said "outside the program's memory".  `line` is the futex op's. */
static const struct {
    const char *name;
    const char *lock;
    guint line;
    const char *addr, *what;
} futex_faults[] = {
    { "wait at 3", "    mov r1, 3\n    futex_wait r0, [r1], 0\n", 7, "0x3", "outside the program's memory" },
    { "wait unaligned", "    la r1, lock_word\n    add r1, r1, 2\n    futex_wait r0, [r1], 0\n", 8, "0x10002",
      "is not 4-byte aligned" },
    { "wake unaligned", "    la r1, lock_word\n    add r1, r1, 2\n    futex_wake r0, [r1], 1\n", 8, "0x10002",
      "is not 4-byte aligned" },
    { "wait at NULL", "    mov r1, 0\n    futex_wait r0, [r1], 0\n", 7, "0x0", "outside the program's memory" },
    { "wake at NULL", "    mov r1, 0\n    futex_wake r0, [r1], 1\n", 7, "0x0", "outside the program's memory" },
    { "wait wild", "    mov r1, 0x7000000\n    futex_wait r0, [r1], 0\n", 7, "0x7000000",
      "outside the program's memory" },
    { "wake wild", "    mov r1, 0x7000000\n    futex_wake r0, [r1], 1\n", 7, "0x7000000",
      "outside the program's memory" },
};

/* `run` faults as verify and native do: exit 1, the thread, the op's file:line, the address and
 * the same words; on more threads than cores too (the OS model runs them either way). */
START_TEST(test_futex_fault_is_a_fault)
{
    LockFile f = lock_file(futex_faults[_i].lock, NULL);
    const char *name = futex_faults[_i].name;
    g_autofree char *pos = g_strdup_printf("%s:%u:", f.path, futex_faults[_i].line);
    static const char *const runs[] = { "--config haswell --iterations 5 --no-host-time",
                                        "--config teaching --threads 3 --iterations 5 --no-host-time" };
    for (guint r = 0; r < G_N_ELEMENTS(runs); r++) {
        g_autofree char *out = NULL, *err = NULL;
        int rc = run_with("run", &f, runs[r], &out, &err);
        ck_assert_msg(rc == 1, "%s: exit %d\n%s", name, rc, err);
        ck_assert_msg(strstr(err, "the run faulted") && strstr(err, "thread ") && strstr(err, pos) &&
                      strstr(err, futex_faults[_i].addr) && strstr(err, futex_faults[_i].what) &&
                      !strstr(err, "lost wake-up"), "%s: %s", name, err);
        ck_assert_msg(strstr(out, "faulted:                           true"), "%s", out);
    }
    g_autofree char *vout = NULL, *verr = NULL, *nout = NULL, *nerr = NULL;
    ck_assert_int_eq(run_with("verify", &f, "--seeds 1", &vout, &verr), 1);
    g_autofree char *both = g_strconcat(vout, verr, NULL);
    ck_assert_msg(strstr(both, pos) && strstr(both, futex_faults[_i].what), "%s: %s", name, both);
    int rc = run_with("native", &f, "--threads 1 --iterations 5", &nout, &nerr);
    ck_assert_msg(rc == 1, "%s: native exit %d\n%s", name, rc, nerr);
    ck_assert_msg(strstr(nerr, "faulted") && strstr(nerr, pos) && strstr(nerr, futex_faults[_i].what), "%s: %s",
                  name, nerr);
    lock_file_clear(&f);
}
END_TEST

/* A plain fault while the OS model is busy (time slices, switches, futex calls of the other
 * threads): the model stops with the cores (it went on switching threads onto the stopped
 * cores and aborted in core_context_load). */
START_TEST(test_fault_stops_the_os_model)
{
    LockFile f = lock_file("    futex_wake r0, [lock_word], 1\n    bne tid, 1, ok\n    mov r1, 0\n    st [r1], 1\nok:\n",
                           NULL);
    g_autofree char *pos = g_strdup_printf("%s:9:", f.path);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_with("run", &f,
                      "--config teaching --threads 3 --iterations 20 --set os.sched_latency_cycles=300 "
                      "--set os.min_granularity_cycles=100", &out, &err);
    ck_assert_msg(rc == 1, "exit %d\n%s", rc, err);
    ck_assert_msg(strstr(err, "thread 1 faulted at") && strstr(err, pos) && strstr(err, "outside the program's memory"),
                  "%s", err);
    lock_file_clear(&f);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* A halt inside the lock                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* It ends the thread early: not a mutual exclusion violation (which it was called). */
START_TEST(test_halt_in_lock)
{
    LockFile f = lock_file("    halt\n", NULL);
    g_autofree char *out = NULL, *err = NULL, *vout = NULL, *verr = NULL, *nout = NULL, *nerr = NULL;
    g_autofree char *pos = g_strdup_printf("%s:6:", f.path);
    int rc = run_with("run", &f, "--config haswell --iterations 5", &out, &err);
    ck_assert_msg(rc == 1, "exit %d\n%s", rc, err);
    ck_assert_msg(strstr(err, "halted inside the lock") && strstr(err, pos), "%s", err);
    ck_assert_msg(!strstr(out, "MUTUAL EXCLUSION VIOLATED") && !strstr(err, "mutual exclusion"), "%s%s", out, err);
    rc = run_with("verify", &f, "--seeds 2", &vout, &verr);
    ck_assert_int_eq(rc, 1);
    g_autofree char *both = g_strconcat(vout, verr, NULL);
    ck_assert_msg(strstr(both, "halted inside the lock") && strstr(both, pos), "%s", both);
    ck_assert_msg(!strstr(both, "mutual exclusion failed"), "%s", both);
    rc = run_with("native", &f, "--threads 1 --iterations 5", &nout, &nerr);
    ck_assert_msg(rc == 1, "exit %d\n%s", rc, nerr);
    ck_assert_msg(strstr(nerr, "halted inside the lock") && strstr(nerr, pos), "%s", nerr);
    lock_file_clear(&f);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The progress watchdog                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* A lock that is never released: fixed work used to spin forever (the cores retire all the
 * while); now the run ends with each thread's position.  Default settings. */
START_TEST(test_no_progress_run)
{
    LockFile f = lock_file(SPIN, NULL);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_with("run", &f, "--config haswell --iterations 5", &out, &err);
    ck_assert_msg(rc == 1, "exit %d\n%s", rc, err);
    ck_assert_msg(strstr(err, "no progress") && strstr(err, "--progress-cycles") && strstr(err, "thread 0") &&
                  strstr(err, "thread 1") && strstr(err, "in `lock`"), "%s", err);
    g_autofree char *pos = g_strdup_printf("%s:", f.path);
    ck_assert_msg(strstr(err, pos), "%s", err);
    ck_assert_msg(strstr(out, "stalled:                           true"), "%s", out);
    /* ...and the headline says so first, with no cost per acquisition to be quoted. */
    const char *eol = strchr(out, '\n');
    g_autofree char *head = g_strndup(out, eol ? (gsize)(eol - out) : strlen(out));
    ck_assert_msg(strstr(head, ": STALLED after ") && strstr(head, "an unfinished run") &&
                      !strstr(head, "cycles per acquisition"), "%s", head);
    lock_file_clear(&f);
}
END_TEST

/* Fixed time: the watchdog ends it long before the duration, and --progress-cycles sets it. */
START_TEST(test_no_progress_fixed_time)
{
    LockFile f = lock_file(SPIN, NULL);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_with("run", &f, "--config haswell --duration 1000000000 --progress-cycles 30000 --format json", &out,
                      &err);
    ck_assert_msg(rc == 1, "exit %d\n%s", rc, err);
    ck_assert_msg(strstr(err, "no progress") && strstr(err, "30000 cycles"), "%s", err);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    JsonObject *o = json_node_get_object(json_parser_get_root(p));
    ck_assert(json_object_get_boolean_member(o, "stalled"));
    ck_assert_int_lt(json_object_get_int_member(o, "cycles"), 200000);
    lock_file_clear(&f);
}
END_TEST

/* Long work is not a stall: a `work` op retires nothing for its whole length, which may pass
 * run.stall_cycles (cs-work 1000000 with jitter 1000000 was called a stall). */
START_TEST(test_long_work_is_not_a_stall)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("run --config haswell --lock tas --iterations 2 --cs-work 1000000 --jitter 1000000 "
                           "--set run.stall_cycles=1000", &out, &err);
    ck_assert_msg(rc == 0, "exit %d\n%s", rc, err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    rc = run_qsim_line("run --config haswell --lock ticket --threads 3 --iterations 3 --think 500000 "
                       "--set run.stall_cycles=1000", &out, &err);
    ck_assert_msg(rc == 0, "exit %d\n%s", rc, err);
}
END_TEST

/* A slow memory system is not a stall either: every key in range, one access across 32 socket
 * hops of 100000 cycles each way takes millions of cycles, more than run.stall_cycles; the
 * window and the progress default grow with the memory system's longest access (issue 45). */
START_TEST(test_slow_memory_is_not_a_stall)
{
    static const char slow[] = "--set topology.sockets=64 --set topology.socket_links=ring "
                               "--set topology.socket_hop_cycles=100000 --set memory.home=interleave";
    g_autofree char *line = g_strdup_printf("run --lock tas --config haswell -t 1 -i 1 %s --placement cpus:576", slow);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(line, &out, &err);
    ck_assert_msg(rc == 0, "exit %d\n%s", rc, err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    g_autofree char *four = g_strdup_printf("run --lock ticket --config haswell -t 4 -i 2 %s --placement spread", slow);
    rc = run_qsim_line(four, &out, &err);
    ck_assert_msg(rc == 0, "exit %d\n%s", rc, err);
    /* The default progress window grows with it, and stays as it was where accesses are short. */
    WorkloadOptions w;
    workload_init(&w, WL_RUN);
    ck_assert_uint_eq(run_progress_default(&w, 1000000, 1500), run_progress_default(&w, 1000000, 0));
    ck_assert_uint_ge(run_progress_default(&w, 1000000, 20000000), 3 * 20000000);
}
END_TEST

/* The default window grows with the workload, and never undercuts run.stall_cycles. */
START_TEST(test_progress_default)
{
    WorkloadOptions w;
    workload_init(&w, WL_RUN);
    guint64 base = run_progress_default(&w, 1000000, 0);
    ck_assert_uint_ge(base, 1000000);
    w.cs_work = 1000000;
    ck_assert_uint_ge(run_progress_default(&w, 1000000, 0), base + 2 * 1000000);
    w.jitter = 1000000;
    w.threads = 64;
    guint64 big = run_progress_default(&w, 1000000, 0);
    ck_assert_uint_ge(big, base + 2 * (1000000 + 2 * 1000000));
}
END_TEST

/* Natively: a fixed-time run (it ignored --duration-ms) and a fixed-work one end, exit 1, with
 * each thread's phase. */
START_TEST(test_no_progress_native)
{
    LockFile f = lock_file(SPIN, NULL);
    g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
    int rc = run_with("native", &f, "--threads 1 --duration-ms 100", &out, &err);
    ck_assert_msg(rc == 1, "exit %d\n%s", rc, err);
    ck_assert_msg(strstr(err, "no progress") && strstr(err, "--progress-ms") && strstr(err, "thread 0") &&
                  strstr(err, "in `lock`"), "%s", err);
    rc = run_with("native", &f, "--threads 1 --iterations 10 --progress-ms 200", &out2, &err2);
    ck_assert_msg(rc == 1, "exit %d\n%s", rc, err2);
    ck_assert_msg(strstr(err2, "no progress for 200 ms") && strstr(err2, "1 acquisition"), "%s", err2);
    lock_file_clear(&f);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Progress is an acquisition or a release (issue 29 item 5)                                  */
/* ------------------------------------------------------------------------------------------ */

/* A `mark` in the spin loop, of any number the harness does not give an acquisition or a
 * release (its own `mark 1` too), fed both watchdogs for ever: the run went to the end of its
 * duration, or never ended. */
static const char *const spin_marks[] = { "0", "1", "9" };

static char *marked_spin(const char *n)
{
    return g_strdup_printf("    xchg r0, [lock_word], 1\n    beq r0, 0, got\n    mark %s\n    jmp lock\ngot:\n", n);
}

START_TEST(test_mark_in_spin_is_no_progress)
{
    g_autofree char *body = marked_spin(spin_marks[_i]);
    LockFile f = lock_file(body, NULL);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_with("run", &f, "--config haswell --duration 3000000 --progress-cycles 30000 --format json", &out,
                      &err);
    ck_assert_msg(rc == 1, "mark %s: exit %d\n%s", spin_marks[_i], rc, err);
    ck_assert_msg(strstr(err, "no progress") && strstr(err, "30000 cycles"), "%s", err);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    ck_assert_int_lt(json_object_get_int_member(json_node_get_object(json_parser_get_root(p)), "cycles"), 200000);
    g_autofree char *nout = NULL, *nerr = NULL;
    rc = run_with("native", &f, "--threads 1 --duration-ms 2000 --progress-ms 100", &nout, &nerr);
    ck_assert_msg(rc == 1, "mark %s: native exit %d\n%s", spin_marks[_i], rc, nerr);
    ck_assert_msg(strstr(nerr, "no progress for 100 ms") && strstr(nerr, "in `lock`"), "%s", nerr);
    lock_file_clear(&f);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* The trace's size limit (issue 29 item 5)                                                   */
/* ------------------------------------------------------------------------------------------ */

/* A trace grew with the run, without bound (a Perfetto file of gigabytes, a page built in
 * memory from every retirement): now each writer stops at run.trace_limit, and the run fails
 * saying which writer, the limit, the cycle, and what was kept. */
START_TEST(test_trace_limit)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-rob-XXXXXX", NULL);
    g_autofree char *json = g_build_filename(dir, "t.json", NULL), *html = g_build_filename(dir, "t.html", NULL);
    const char *run = "run --config teaching --lock ttas --iterations 30 --no-host-time --set run.trace_limit=8KiB";
    g_autofree char *l1 = g_strdup_printf("%s --trace-out %s", run, json);
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(l1, &out, &err);
    ck_assert_msg(rc == 2, "exit %d\n%s", rc, err);
    ck_assert_msg(strstr(err, "--trace-out") && strstr(err, "size limit of 8 KiB (run.trace_limit) at cycle ") &&
                  strstr(err, "as valid JSON"), "%s", err);
    g_autofree char *text = NULL;
    gsize len = 0;
    ck_assert(g_file_get_contents(json, &text, &len, NULL));
    ck_assert_uint_le(len, 8192 + 512); /* the events, and the file's frame */
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert_msg(json_parser_load_from_data(p, text, (gssize)len, NULL), "%s", text);
    JsonObject *other = json_object_get_object_member(json_node_get_object(json_parser_get_root(p)), "otherData");
    ck_assert(json_object_has_member(other, "cut_at_cycle"));
    g_free(out);
    g_free(err);
    out = err = NULL;
    g_autofree char *l2 = g_strdup_printf("%s --trace-html %s", run, html);
    rc = run_qsim_line(l2, &out, &err);
    ck_assert_msg(rc == 2, "exit %d\n%s", rc, err);
    ck_assert_msg(strstr(err, "--trace-html") && strstr(err, "nothing was written"), "%s", err);
    ck_assert(!g_file_test(html, G_FILE_TEST_EXISTS));
    g_free(out);
    g_free(err);
    out = err = NULL;
    g_autofree char *l3 = g_strdup_printf("%s --trace", run);
    rc = run_qsim_line(l3, &out, &err);
    ck_assert_msg(rc == 2, "exit %d\n%s", rc, err);
    ck_assert_msg(strstr(err, "qsim: --trace: the trace reached its size limit of 8 KiB") &&
                  strstr(err, "# the trace stops at cycle"), "%s", err);
    ck_assert_uint_le(strlen(err), 8192 + 1024);
    g_free(out);
    g_free(err);
    out = err = NULL;
    /* the default holds a small run's trace, and says nothing */
    g_autofree char *l4 = g_strdup_printf("run --config teaching --lock ttas --iterations 30 --trace-out %s --trace-html %s",
                                          json, html);
    rc = run_qsim_line(l4, &out, &err);
    ck_assert_msg(rc == 0, "exit %d\n%s", rc, err);
    g_unlink(json);
    g_unlink(html);
    g_rmdir(dir);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Limits and contradictions                                                                  */
/* ------------------------------------------------------------------------------------------ */

static const struct {
    const char *line;       /* exit 2 */
    const char *says;       /* in stderr */
} bad_options[] = {
    { "run --lock tas --duration 9223372036854775807", "--duration 9223372036854775807: out of range" },
    { "run --lock tas --duration 10 --warmup 9223372036854775807", "--warmup 9223372036854775807: out of range" },
    { "run --lock tas --iterations 2000000000", "--iterations 2000000000: out of range" },
    { "native --lock tas --cs-work=9223372036854775807", "--cs-work 9223372036854775807: out of range" },
    { "native --lock tas --duration-ms 2000000000", "--duration-ms 2000000000: out of range" },
    { "verify --lock tas --iterations 2000000000", "--iterations 2000000000: out of range" },
    { "run --lock tas --duration 0", "--duration 0: out of range [1," },
    { "native --lock tas --duration-ms 0", "--duration-ms 0: out of range [1," },
    { "run --lock qrwlock --readers 1 --writers 1 --threads 3", "--threads 3" },
    { "run --lock tas --readers 1", "--readers 1: " },
    { "verify --lock tas --readers 1", "--readers 1: " },
    { "run --lock tas --cs-writes 7 --data same-line", "--cs-writes 7" },
    { "verify --lock tas --cs-writes 7 --data same-line", "--cs-writes 7" },
    { "native --lock tas --cs-writes 7 --data same-line", "--cs-writes 7" },
    { "run --lock tas --cs-work 2000000", "--cs-work 2000000: out of range" },
    { "run --lock tas --jitter 2000000", "--jitter 2000000: out of range" },
    { "run --lock tas --progress-cycles 10", "--progress-cycles 10: out of range" },
    { "native --lock tas --progress-ms 0", "--progress-ms 0: out of range" },
};

/* Each is exit 2 with the option named, never a position in the generated harness, and it
 * comes at once (the huge ones used to run for ever). */
START_TEST(test_bad_options)
{
    g_autofree char *err = NULL;
    int rc = run_qsim_line(bad_options[_i].line, NULL, &err);
    ck_assert_msg(rc == 2, "%s: exit %d\n%s", bad_options[_i].line, rc, err);
    ck_assert_msg(strstr(err, bad_options[_i].says), "%s: %s", bad_options[_i].line, err);
    ck_assert_msg(!strstr(err, "<harness>"), "%s: %s", bad_options[_i].line, err);
}
END_TEST

/* Both options of a contradiction are named. */
START_TEST(test_writers_and_threads)
{
    g_autofree char *err = NULL, *out = NULL;
    ck_assert_int_eq(run_qsim_line("run --lock qrwlock --readers 1 --writers 1 --threads 3", NULL, &err), 2);
    ck_assert_msg(strstr(err, "--writers 1") && strstr(err, "--readers 1") && strstr(err, "--threads 3"), "%s", err);
    /* agreeing is fine */
    ck_assert_int_eq(run_qsim_line("run --lock qrwlock --readers 1 --writers 2 --threads 3 --iterations 5", &out, NULL),
                     0);
    ck_assert_msg(strstr(out, "threads:                           3"), "%s", out);
}
END_TEST

/* A lock file with no `lock` label names the file, not the harness. */
START_TEST(test_missing_label_names_lock_file)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-rob-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "nolabel.qs", NULL);
    ck_assert(g_file_set_contents(path, ".shared lock_word 8 own_line\n.entry unlock\nunlock:\n    ret\n", -1, NULL));
    static const char *const commands[] = { "run", "verify", "native" };
    for (guint i = 0; i < G_N_ELEMENTS(commands); i++) {
        g_autofree char *line = g_strdup_printf("%s --lock-file %s", commands[i], path);
        g_autofree char *err = NULL;
        ck_assert_int_eq(run_qsim_line(line, NULL, &err), 2);
        g_autofree char *want = g_strdup_printf("%s: no entry point `lock`", path);
        ck_assert_msg(strstr(err, want) && !strstr(err, "<harness>"), "%s: %s", commands[i], err);
    }
    /* `qsim asm --harness` and a sweep's lock check assemble through the same door */
    g_autofree char *asm_line = g_strdup_printf("asm %s --harness", path), *asm_err = NULL;
    ck_assert_int_eq(run_qsim_line(asm_line, NULL, &asm_err), 2);
    ck_assert_msg(strstr(asm_err, "no entry point `lock`") && !strstr(asm_err, "<harness>"), "asm: %s", asm_err);
    g_autofree char *sweep_path = g_build_filename(dir, "s.yaml", NULL);
    g_autofree char *sweep_text = g_strdup_printf("locks: %s\n", path);
    ck_assert(g_file_set_contents(sweep_path, sweep_text, -1, NULL));
    g_autofree char *sweep_line = g_strdup_printf("sweep %s --out %s/o -q", sweep_path, dir), *sweep_err = NULL;
    ck_assert_int_eq(run_qsim_line(sweep_line, NULL, &sweep_err), 2);
    ck_assert_msg(strstr(sweep_err, "no entry point `lock`") && !strstr(sweep_err, "<harness>"), "sweep: %s", sweep_err);
    g_unlink(sweep_path);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* How many fit is said: the same-line data's room is the lock's to give. */
START_TEST(test_cs_writes_room)
{
    HarnessOptions h;
    harness_options_init(&h);
    h.data = HARNESS_SAME_LINE;
    h.cs_writes = 7;
    g_autoptr(GError) e = NULL;
    const char *tas = ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\nlock:\n    ret\nunlock:\n    ret\n";
    IsaProgram *p = harness_assemble("t.qs", tas, &h, arch_target(ARCH_X86), NULL, &e);
    ck_assert_ptr_null(p);
    ck_assert_msg(g_str_has_prefix(e->message, "--cs-writes 7 with --data same-line:") &&
                  strstr(e->message, "at most 5"), "%s", e->message);
    g_clear_error(&e);
    h.cs_writes = 5;
    p = harness_assemble("t.qs", tas, &h, arch_target(ARCH_X86), NULL, &e);
    ck_assert_msg(p, "%s", e ? e->message : "");
    isa_program_free(p);
}
END_TEST

/* No acquisition in the window: cycles_per_acquisition is null, and the headline says so (it
 * said 0.0 cycles per acquisition). */
START_TEST(test_no_acquisition_is_null)
{
    g_autofree char *out = NULL, *text = NULL;
    ck_assert_int_eq(run_qsim_line("run --lock tas --duration 1 --format json --no-host-time", &out, NULL), 0);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    JsonObject *o = json_node_get_object(json_parser_get_root(p));
    ck_assert_int_eq(json_object_get_int_member(o, "acquisitions"), 0);
    ck_assert(json_object_get_null_member(o, "cycles_per_acquisition"));
    ck_assert_int_eq(run_qsim_line("run --lock tas --duration 1 --no-host-time", &text, NULL), 0);
    ck_assert_msg(strstr(text, "no acquisition in the measured window") && !strstr(text, "0.0 cycles per"), "%s", text);
}
END_TEST

/* The table gives every option a maximum well inside its field, and the step bound of verify
 * does not wrap at the maxima. */
START_TEST(test_every_option_bounded)
{
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (k->type == WL_ENUM || k->type == WL_PLACEMENT)
            continue; /* a choice; a CPU list is bounded by its parser (sim/workload/placement.h) */
        ck_assert_msg(k->max < (guint64)G_MAXINT32 || (k->type == WL_UINT64 && k->max <= G_GUINT64_CONSTANT(1) << 40),
                      "%s: max %" G_GUINT64_FORMAT, k->name, k->max);
        ck_assert_msg(k->max_why && *k->max_why, "%s: the maximum has no reason", k->name);
    }
}
END_TEST

Suite *make_robustness_suite(void)
{
    Suite *s = suite_create("robustness");
    TCase *tc = tcase_create("faults");
    tcase_add_test(tc, test_access_check_definition);
    tcase_add_loop_test(tc, test_fault_stops_run, 0, G_N_ELEMENTS(faults));
    tcase_add_test(tc, test_fault_stops_run_arm64);
    tcase_add_loop_test(tc, test_fault_under_the_os_model, 0, G_N_ELEMENTS(os_faults));
    tcase_add_loop_test(tc, test_call_depth_faults_run, 0, G_N_ELEMENTS(control_configs));
    tcase_add_test(tc, test_wrong_path_is_not_a_fault);
    tcase_add_test(tc, test_fault_stops_litmus);
    tcase_add_loop_test(tc, test_fault_stops_native, 0, G_N_ELEMENTS(faults));
    tcase_add_test(tc, test_halt_in_lock);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("futex faults");
    tcase_add_loop_test(tc, test_futex_fault_is_a_fault, 0, G_N_ELEMENTS(futex_faults));
    tcase_add_test(tc, test_fault_stops_the_os_model);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("progress");
    tcase_add_test(tc, test_no_progress_run);
    tcase_add_test(tc, test_no_progress_fixed_time);
    tcase_add_test(tc, test_long_work_is_not_a_stall);
    tcase_add_test(tc, test_slow_memory_is_not_a_stall);
    tcase_add_test(tc, test_progress_default);
    tcase_add_test(tc, test_no_progress_native);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("progress marks");
    tcase_add_loop_test(tc, test_mark_in_spin_is_no_progress, 0, G_N_ELEMENTS(spin_marks));
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("trace limit");
    tcase_add_test(tc, test_trace_limit);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_loop_test(tc, test_bad_options, 0, G_N_ELEMENTS(bad_options));
    tcase_add_test(tc, test_writers_and_threads);
    tcase_add_test(tc, test_missing_label_names_lock_file);
    tcase_add_test(tc, test_cs_writes_room);
    tcase_add_test(tc, test_no_acquisition_is_null);
    tcase_add_test(tc, test_every_option_bounded);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);
    return s;
}
