/* Locks in C through the command line (docs/c-locks.md): the examples verify under tso and run
 * on the model; a lock that is not atomic fails verify with a counterexample quoting its C
 * lines; the refusals exit 2 with a message naming what and where (a C error as the compiler
 * wrote it, an instruction with its C and assembly lines, a missing lock_acquire, LSE code for an
 * LL/SC machine); the examples run and verify on arm64 too; `qsim asm` lists each op at its C
 * line; a .qs lock's commands are untouched. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include "run_qsim.h"
#include "skip.h"
#include "tests/temp_files.h"

static gboolean have_gcc(const char *test)
{
    g_autofree char *gcc = g_find_program_in_path("gcc");
    if (!gcc)
        qsim_test_skip(test, "no gcc in PATH: a C lock is compiled with GCC");
    return gcc != NULL;
}

static int qsim(const char *line, char **out, char **err)
{
    return run_qsim_line(line, out, err);
}

START_TEST(test_examples_verify)
{
    if (!have_gcc("cfront_locks/test_examples_verify"))
        return;
    static const char *const locks[] = { "tas", "ticket", "qspin", "qspin-cmpxchg" };
    for (guint i = 0; i < G_N_ELEMENTS(locks); i++) {
        g_autofree char *line = g_strdup_printf("verify --lock examples/c-locks/%s.c", locks[i]);
        g_autofree char *out = NULL, *err = NULL;
        int rc = qsim(line, &out, &err);
        ck_assert_msg(rc == 0, "%s: rc %d\n%s%s", line, rc, out, err);
        g_autofree char *want = g_strdup_printf("examples/c-locks/%s.c: verified under tso on x86", locks[i]);
        ck_assert_msg(strstr(out, want), "%s", out);
        g_autofree char *sc = g_strdup_printf("verify --lock examples/c-locks/%s.c --model sc --threads 3 --iterations 1",
                                              locks[i]);
        g_autofree char *out2 = NULL;
        ck_assert_int_eq(qsim(sc, &out2, NULL), 0);
    }
}
END_TEST

START_TEST(test_examples_run)
{
    if (!have_gcc("cfront_locks/test_examples_run"))
        return;
    static const char *const locks[] = { "tas", "ticket", "qspin", "qspin-cmpxchg" };
    for (guint i = 0; i < G_N_ELEMENTS(locks); i++) {
        g_autofree char *line = g_strdup_printf("run --lock examples/c-locks/%s.c --threads 3 --iterations 50 "
                                                "--no-host-time --profile", locks[i]);
        g_autofree char *out = NULL, *err = NULL;
        int rc = qsim(line, &out, &err);
        ck_assert_msg(rc == 0, "%s: rc %d\n%s%s", line, rc, out, err);
        /* The profile is by C line. */
        g_autofree char *at = g_strdup_printf("examples/c-locks/%s.c:", locks[i]);
        ck_assert_msg(strstr(out, at), "%s", out);
        /* The lock's lines are the lock's: not the stack the translation gives each thread. */
        const char *lines = strstr(out, "of the lock's lines (");
        ck_assert_msg(lines, "%s", out);
        g_autofree char *named = g_strndup(lines, strcspn(lines, ")"));
        ck_assert_msg(!strstr(named, "cf_"), "%s: %s", locks[i], named);
    }
}
END_TEST

START_TEST(test_broken_lock_fails_at_its_c_lines)
{
    if (!have_gcc("cfront_locks/test_broken_lock_fails_at_its_c_lines"))
        return;
    g_autofree char *out = NULL, *err = NULL;
    int rc = qsim("verify --lock tests/c-locks/tas-not-atomic.c", &out, &err);
    ck_assert_msg(rc == 1, "rc %d\n%s%s", rc, out, err);
    ck_assert_msg(strstr(out, "FAILED under tso on x86") && strstr(out, "mutual exclusion failed"), "%s", out);
    /* The test (line 9) and the set (line 11), in a shortest counterexample. */
    ck_assert_msg(strstr(out, "tests/c-locks/tas-not-atomic.c:9   ld r16, [r23]"), "%s", out);
    ck_assert_msg(strstr(out, "tests/c-locks/tas-not-atomic.c:11  st [r23], 1"), "%s", out);
}
END_TEST

/* Writes `text` as NAME in a new temporary folder; the path. */
static char *write_c(const char *name, const char *text, char **dir)
{
    *dir = tmpdir();
    return write_file(*dir, name, text);
}

static void remove_c(char *dir, char *path)
{
    rm_rf(dir);
    g_free(path);
    g_free(dir);
}

static void expect_refusal(const char *test, const char *name, const char *text, const char *cmd, const char *const *want)
{
    if (!have_gcc(test))
        return;
    char *dir, *path = write_c(name, text, &dir);
    g_autofree char *line = g_strdup_printf(cmd, path);
    g_autofree char *out = NULL, *err = NULL;
    int rc = qsim(line, &out, &err);
    ck_assert_msg(rc == 2, "%s: rc %d\n%s%s", line, rc, out, err);
    for (guint i = 0; want[i]; i++) {
        g_autofree char *w = g_strdup_printf(want[i], path);
        ck_assert_msg(strstr(err, w), "%s: expected `%s` in:\n%s", line, w, err);
    }
    remove_c(dir, path);
}

START_TEST(test_syntax_error_is_the_compilers)
{
    static const char text[] = "#include <stdint.h>\n"
                               "void lock_acquire(uint64_t *lock, unsigned long t)\n"
                               "{\n"
                               "    *lock = 1\n"
                               "}\n"
                               "void lock_release(uint64_t *lock, unsigned long t) { *lock = 0; }\n";
    const char *want[] = { "%s:4:14: error: expected", NULL };
    expect_refusal("cfront_locks/test_syntax_error_is_the_compilers", "syntax.c", text, "verify --lock %s", want);
}
END_TEST

START_TEST(test_unknown_instruction_names_both_lines)
{
    static const char text[] = "#include <stdint.h>\n"
                               "void lock_acquire(uint64_t *lock, unsigned long t)\n"
                               "{\n"
                               "    unsigned r;\n"
                               "    __asm__ volatile(\"bsfl %1, %0\" : \"=r\"(r) : \"r\"((unsigned)t));\n"
                               "    *lock = r;\n"
                               "}\n"
                               "void lock_release(uint64_t *lock, unsigned long t) { (void)t; *lock = 0; }\n";
    const char *want[] = { "%s:5:5: cannot translate `bsfl", "line ", "of the compiler's output `gcc -S %s`",
                           "`bsfl` is not an instruction the translation knows", NULL };
    expect_refusal("cfront_locks/test_unknown_instruction_names_both_lines", "bsf.c", text, "run --lock %s", want);
}
END_TEST

START_TEST(test_missing_acquire)
{
    static const char text[] = "#include <stdint.h>\n"
                               "void lock_release(uint64_t *lock, unsigned long t) { (void)t; *lock = 0; }\n";
    const char *want[] = { "%s: no function `lock_acquire`", NULL };
    expect_refusal("cfront_locks/test_missing_acquire", "half.c", text, "verify --lock %s", want);
}
END_TEST

static gboolean have_arm64_gcc(const char *test)
{
    g_autofree char *gcc = g_find_program_in_path("aarch64-linux-gnu-gcc");
    if (!gcc)
        qsim_test_skip_or_fail(test, "no aarch64-linux-gnu-gcc in PATH (build-aux/deps.sh installs it)");
    return gcc != NULL;
}

/* The examples on arm64: compiled for LL/SC (thunderx) and LSE (neoverse-n1), they run, and
 * verify under the arm64 model at 2 threads x 1 acquisition.  tas for LL/SC is verified for LSE
 * only: its store-spinning exclusive loop does not finish under the arm64 explorer, as the same
 * loop written in the ISA does not. */
START_TEST(test_arm64_examples)
{
    if (!have_arm64_gcc("cfront_locks/test_arm64_examples"))
        return;
    static const char *const locks[] = { "tas", "ticket", "qspin", "qspin-cmpxchg" };
    for (guint i = 0; i < G_N_ELEMENTS(locks); i++) {
        static const char *const configs[] = { "neoverse-n1", "thunderx" };
        for (guint c = 0; c < G_N_ELEMENTS(configs); c++) {
            g_autofree char *line = g_strdup_printf("run --lock examples/c-locks/%s.c --config %s --iterations 50 "
                                                    "--jitter 20", locks[i], configs[c]);
            g_autofree char *out = NULL, *err = NULL;
            int rc = qsim(line, &out, &err);
            ck_assert_msg(rc == 0, "%s: rc %d\n%s%s", line, rc, out, err);
            g_autofree char *want = g_strdup_printf("examples/c-locks/%s.c on %s (arm64)", locks[i], configs[c]);
            ck_assert_msg(strstr(out, want), "%s: %s", line, out);
        }
        static const char *const atomics[] = { "llsc", "lse" };
        for (guint k = !strcmp(locks[i], "tas"); k < G_N_ELEMENTS(atomics); k++) {
            g_autofree char *line = g_strdup_printf("verify --lock examples/c-locks/%s.c --arch arm64 --atomics %s "
                                                    "--model arm64 --threads 2 --iterations 1", locks[i], atomics[k]);
            g_autofree char *out = NULL, *err = NULL;
            int rc = qsim(line, &out, &err);
            ck_assert_msg(rc == 0, "%s: rc %d\n%s%s", line, rc, out, err);
            g_autofree char *want = g_strdup_printf("examples/c-locks/%s.c: verified under arm64 on arm64 (%s)",
                                                    locks[i], atomics[k]);
            ck_assert_msg(strstr(out, want), "%s: %s", line, out);
        }
    }
    /* qsim asm: the LSE atomic at its C line */
    g_autofree char *out = NULL, *err = NULL;
    int rc = qsim("asm examples/c-locks/ticket.c --arch arm64 --atomics lse", &out, &err);
    ck_assert_msg(rc == 0, "rc %d\n%s", rc, err);
    ck_assert_msg(strstr(out, "examples/c-locks/ticket.c:11:21 fadd32 "), "%s", out);
    ck_assert_msg(strstr(out, "examples/c-locks/ticket.c:12:12 ld32.acq "), "%s", out);
}
END_TEST

/* Thread-locals on arm64 (mrs tpidr_el0, :tprel_hi12:, :tprel_lo12_nc:), statics (adrp,
 * :lo12:) and thread_local_init: each thread's copy is its own (the lock word holds the owner's
 * threadnum + 1, which release checks; a failed check is a store to NULL, GCC's brk).  Under sc:
 * the arm64 explorer takes minutes on this one, its thread-local stores multiplying the states. */
START_TEST(test_arm64_thread_locals)
{
    if (!have_arm64_gcc("cfront_locks/test_arm64_thread_locals"))
        return;
    static const char text[] = "#include <stdint.h>\n"
                               "static _Thread_local uint64_t mine[4];\n"
                               "static uint64_t count;\n"
                               "void thread_local_init(unsigned long t) { mine[1] = t + 1; }\n"
                               "void lock_acquire(uint64_t *lock, unsigned long t)\n"
                               "{\n"
                               "    uint64_t free = 0;\n"
                               "    while (!__atomic_compare_exchange_n(lock, &free, mine[1], 0, __ATOMIC_ACQUIRE,\n"
                               "                                        __ATOMIC_RELAXED))\n"
                               "        free = 0;\n"
                               "    count += t;\n"
                               "    mine[2]++;\n"
                               "}\n"
                               "void lock_release(uint64_t *lock, unsigned long t)\n"
                               "{\n"
                               "    if (__atomic_load_n(lock, __ATOMIC_RELAXED) != t + 1)\n"
                               "        *(volatile int *)0 = 1;\n"
                               "    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);\n"
                               "}\n";
    char *dir, *path = write_c("tls.c", text, &dir);
    static const char *const atomics[] = { "llsc", "lse" };
    for (guint k = 0; k < G_N_ELEMENTS(atomics); k++) {
        g_autofree char *line = g_strdup_printf("verify --lock %s --arch arm64 --atomics %s --model sc --threads 2 "
                                                "--iterations 2", path, atomics[k]);
        g_autofree char *out = NULL, *err = NULL;
        int rc = qsim(line, &out, &err);
        ck_assert_msg(rc == 0, "%s: rc %d\n%s%s", line, rc, out, err);
        ck_assert_msg(strstr(out, "verified under sc on arm64"), "%s", out);
    }
    remove_c(dir, path);
}
END_TEST

/* LSE code (here inline asm) on an LL/SC machine would fault there: exit 2 at its C line. */
START_TEST(test_arm64_lse_on_llsc_refused)
{
    if (!have_arm64_gcc("cfront_locks/test_arm64_lse_on_llsc_refused"))
        return;
    static const char text[] = "#include <stdint.h>\n"
                               "void lock_acquire(uint64_t *lock, unsigned long t)\n"
                               "{\n"
                               "    uint64_t one = 1, old;\n"
                               "    __asm__ volatile(\"ldaddal %1, %0, [%2]\" : \"=r\"(old) : \"r\"(one), \"r\"(lock) : \"memory\");\n"
                               "    (void)t, (void)old;\n"
                               "}\n"
                               "void lock_release(uint64_t *lock, unsigned long t) { (void)t; __atomic_store_n(lock, 0, 3); }\n";
    const char *want[] = { "%s:5:5: cannot translate `ldaddal ", "an LSE (ARMv8.1) atomic on a machine whose atomics are "
                           "LL/SC (ARMv8.0), where it would fault", NULL };
    expect_refusal("cfront_locks/test_arm64_lse_on_llsc_refused", "lse.c", text, "run --lock %s --config thunderx",
                   want);
}
END_TEST

START_TEST(test_asm_lists_c_lines)
{
    if (!have_gcc("cfront_locks/test_asm_lists_c_lines"))
        return;
    g_autofree char *out = NULL, *err = NULL;
    int rc = qsim("asm examples/c-locks/ticket.c --arch x86", &out, &err);
    ck_assert_msg(rc == 0, "rc %d\n%s", rc, err);
    ck_assert_msg(strstr(out, "examples/c-locks/ticket.c:11:21 fadd32 r41, [r23], r18"), "%s", out);
    /* the glue falls into the function (no call, no jump): its ret returns to the harness */
    ck_assert_msg(strstr(out, "<c glue>:12:0            mov r22, tid\nc_lock_acquire:\n"), "%s", out);
    ck_assert_msg(!strstr(out, "call c_lock_acquire") && !strstr(out, "jmp c_lock_acquire"), "%s", out);
    g_autofree char *text = NULL;
    ck_assert_int_eq(qsim("asm examples/c-locks/ticket.c --translated", &text, NULL), 0);
    ck_assert_msg(strstr(text, "    # lock xaddl %edx, (%rdi)\n    fadd32 r41, [r23], r18\n"),
                  "%s", text);
}
END_TEST

/* Code that uses the stack (at -O0 every local lives in the frame) gets the thread's stack from
 * the glue, entered by a jump with the return address's slot taken off as a call would; code that
 * does not gets no stack ops at all. */
START_TEST(test_glue_stack_only_when_used)
{
    if (!have_gcc("cfront_locks/test_glue_stack_only_when_used"))
        return;
    g_autofree char *o0 = NULL, *o2 = NULL, *out = NULL, *err = NULL;
    ck_assert_int_eq(qsim("asm examples/c-locks/ticket.c --translated --cflags -O0", &o0, NULL), 0);
    ck_assert_msg(strstr(o0, "lock:\n.loc \"<c glue>\" 10\n    la r20, cf_stack\n.loc \"<c glue>\" 12\n    add r20, r20, "
                             "4088\n"), "%s", o0);
    ck_assert_int_eq(qsim("asm examples/c-locks/ticket.c --translated", &o2, NULL), 0);
    ck_assert_msg(!strstr(o2, "cf_stack\n") && strstr(o2, "    mov r22, tid\nc_lock_release:\n"), "%s", o2);
    int rc = qsim("verify --lock examples/c-locks/ticket.c --cflags -O0", &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "verified under tso"), "rc %d\n%s%s", rc, out, err);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    rc = qsim("run --config neoverse-n1 --lock examples/c-locks/ticket.c --cflags -O0 --threads 3 --iterations 200",
              &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "mutual_exclusion:                  true"), "rc %d\n%s%s", rc, out, err);
}
END_TEST

/* The text trace's header names the lock's lines, not the 65 lines of each thread's stack. */
START_TEST(test_trace_header_leaves_glue_out)
{
    if (!have_gcc("cfront_locks/test_trace_header_leaves_glue_out"))
        return;
    g_autofree char *out = NULL, *err = NULL;
    int rc = qsim("run --lock examples/c-locks/ticket.c --threads 2 --iterations 1 --trace", &out, &err);
    ck_assert_msg(rc == 0, "rc %d\n%s", rc, err);
    const char *lines = strstr(err, "# lines: lock_word 0x");
    ck_assert_msg(lines, "%s", err);
    g_autofree char *header = g_strndup(lines, strcspn(lines, "\n"));
    ck_assert_msg(!strstr(header, "cf_"), "%s", header);
    ck_assert_msg(strstr(header, "h_counter"), "%s", header);
}
END_TEST

START_TEST(test_native_runs_translation)
{
    if (!have_gcc("cfront_locks/test_native_runs_translation"))
        return;
    g_autofree char *out = NULL, *err = NULL;
    int rc = qsim("native --lock examples/c-locks/ticket.c --threads 1 --iterations 1000", &out, &err);
    ck_assert_msg(rc == 0, "rc %d\n%s%s", rc, out, err);
}
END_TEST

/* A sweep takes a C lock as it takes a .qs file (from the sweep file's folder), translated for
 * each config's arch: an arm64 config is refused before anything runs. */
START_TEST(test_sweep)
{
    if (!have_gcc("cfront_locks/test_sweep"))
        return;
    g_autofree char *dir = tmpdir();
    g_autofree char *src = g_build_filename(test_srcdir(), "examples", "c-locks", "ticket.c", NULL);
    g_autofree char *c = NULL;
    ck_assert(g_file_get_contents(src, &c, NULL, NULL));
    g_free(write_file(dir, "ticket.c", c));
    g_autofree char *ok = write_file(dir, "ok.yaml", "configs: haswell\nlocks: [ticket.c, ticket]\nthreads: 2\niterations: 20\n");
    g_autofree char *arm = write_file(dir, "arm.yaml", "configs: [haswell, thunderx]\nlocks: [ticket.c]\nthreads: 2\n"
                                                      "iterations: 20\n");
    g_autofree char *out_dir = g_build_filename(dir, "out", NULL);
    const char *run_ok[] = { "sweep", ok, "--out", out_dir, NULL };
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim(run_ok, &out, &err);
    ck_assert_msg(rc == 0, "rc %d\n%s%s", rc, out, err);
    ck_assert_msg(strstr(err, "2 points, 0 failed") || strstr(out, "2 points, 0 failed"), "%s%s", out, err);
    g_autofree char *out_arm = g_build_filename(dir, "out-arm", NULL);
    const char *run_arm[] = { "sweep", arm, "--out", out_arm, NULL };
    g_autofree char *out2 = NULL, *err2 = NULL;
    /* a C lock in a sweep over both arches: translated for each */
    if (have_arm64_gcc("cfront_locks/test_sweep")) {
        rc = run_qsim(run_arm, &out2, &err2);
        ck_assert_msg(rc == 0, "rc %d\n%s%s", rc, out2, err2);
        ck_assert_msg(strstr(err2, "2 points, 0 failed") || strstr(out2, "2 points, 0 failed"), "%s%s", out2, err2);
    }
    rm_rf(dir);
}
END_TEST

/* __builtin_trap (x86's ud2, AArch64's brk) faults at its C line, and a global aligned to its
 * line (AArch64's `.align 6` is 2^6 bytes, x86's `.align 64` bytes) is laid out so. */
START_TEST(test_trap_and_alignment)
{
    if (!have_gcc("cfront_locks/test_trap_and_alignment"))
        return;
    static const char text[] = "#include <stdint.h>\n"
                               "static uint32_t word __attribute__((aligned(64)));\n"
                               "void lock_acquire(uint64_t *lock, unsigned long t)\n"
                               "{\n"
                               "    if (t >= 1)\n"
                               "        __builtin_trap();\n"
                               "    while (__atomic_exchange_n(&word, 1, __ATOMIC_ACQUIRE))\n"
                               "        ;\n"
                               "    (void)lock;\n"
                               "}\n"
                               "void lock_release(uint64_t *lock, unsigned long t)\n"
                               "{\n"
                               "    (void)lock, (void)t;\n"
                               "    __atomic_store_n(&word, 0, __ATOMIC_RELEASE);\n"
                               "}\n";
    char *dir, *path = write_c("trap.c", text, &dir);
    static const char *const arches[] = { "x86", "arm64" };
    for (guint a = 0; a < G_N_ELEMENTS(arches); a++) {
        if (a == 1 && !have_arm64_gcc("cfront_locks/test_trap_and_alignment"))
            break;
        g_autofree char *line = g_strdup_printf("verify --lock %s --arch %s --model sc --threads 2 --iterations 1",
                                                path, arches[a]);
        g_autofree char *out = NULL, *err = NULL;
        int rc = qsim(line, &out, &err);
        g_autofree char *want = g_strdup_printf("thread 1 faulted at %s:6:", path);
        ck_assert_msg(rc == 1 && strstr(out, want), "%s: rc %d\n%s%s", line, rc, out, err);
        g_autofree char *asm_line = g_strdup_printf("asm %s --arch %s", path, arches[a]);
        g_autofree char *listing = NULL;
        ck_assert_int_eq(qsim(asm_line, &listing, NULL), 0);
        ck_assert_msg(strstr(listing, "c_word") && strstr(listing, "align 64"), "%s", listing);
    }
    remove_c(dir, path);
}
END_TEST

/* A lock whose -DBROKEN build tests the word and sets it with two plain accesses. */
static const char broken_by_flag[] = "#include <stdint.h>\n"
                                     "void lock_acquire(uint64_t *lock, unsigned long t)\n"
                                     "{\n"
                                     "    (void)t;\n"
                                     "#ifdef BROKEN\n"
                                     "    while (__atomic_load_n(lock, __ATOMIC_ACQUIRE))\n"
                                     "        ;\n"
                                     "    __atomic_store_n(lock, 1, __ATOMIC_RELAXED);\n"
                                     "#else\n"
                                     "    while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))\n"
                                     "        ;\n"
                                     "#endif\n"
                                     "}\n"
                                     "void lock_release(uint64_t *lock, unsigned long t)\n"
                                     "{\n"
                                     "    (void)t;\n"
                                     "    __atomic_store_n(lock, 0, __ATOMIC_RELEASE);\n"
                                     "}\n";

/* --cc and --cflags: the flags reach the compiler after qsim's own and are in the cache key (the
 * same file, verified from the cache, fails with -DBROKEN); --cc replaces the compiler; a --cc
 * that is no program, or --cflags that are no command line, is exit 2 with a message naming the
 * option, in every command that takes a lock. */
START_TEST(test_cc_and_cflags)
{
    if (!have_gcc("cfront_locks/test_cc_and_cflags"))
        return;
    char *dir, *path = write_c("flagged.c", broken_by_flag, &dir);
    g_autofree char *ok = g_strdup_printf("verify --lock %s", path);
    g_autofree char *out = NULL, *err = NULL;
    int rc = qsim(ok, &out, &err);
    ck_assert_msg(rc == 0, "%s: rc %d\n%s%s", ok, rc, out, err);
    /* from the cache now: the flag must still make a different compile */
    const char *broken[] = { "verify", "--lock", path, "--cflags", "-DBROKEN -O1", NULL };
    g_autofree char *out2 = NULL, *err2 = NULL;
    rc = run_qsim(broken, &out2, &err2);
    ck_assert_msg(rc == 1 && strstr(out2, "mutual exclusion failed"), "rc %d\n%s%s", rc, out2, err2);
    const char *cc[] = { "verify", "--lock", path, "--cc", "gcc -DBROKEN", NULL };
    g_autofree char *out3 = NULL, *err3 = NULL;
    rc = run_qsim(cc, &out3, &err3);
    ck_assert_msg(rc == 1 && strstr(out3, "mutual exclusion failed"), "rc %d\n%s%s", rc, out3, err3);
    /* the translation's messages name the compiler --cc gave */
    /* asm takes them too: the exchange is gone from the -DBROKEN translation */
    const char *plain[] = { "asm", path, "--translated", NULL };
    const char *named[] = { "asm", path, "--cc", "gcc", "--cflags", "-DBROKEN", "--translated", NULL };
    g_autofree char *out4 = NULL, *out5 = NULL;
    ck_assert_int_eq(run_qsim(plain, &out4, NULL), 0);
    ck_assert_int_eq(run_qsim(named, &out5, NULL), 0);
    ck_assert_msg(strstr(out4, "xchg") && !strstr(out5, "xchg"), "%s\n%s", out4, out5);
    /* a bad --cc, a bad --cflags: exit 2, the option named, in each command */
    static const char *const commands[] = {
        "verify --lock %s", "run --lock %s --iterations 5", "native --lock %s --iterations 5", "asm %s",
        "compare --lock %s --vs ticket --threads-list 2 --seeds 2 --timing-seeds 0 --check-seeds 0 --iterations 5",
        "run --lock ticket --vs %s --iterations 5",
        "validate --host --config haswell --lock %s --repeat 2 --threads-max 2 --iterations 5",
    };
    for (guint i = 0; i < G_N_ELEMENTS(commands); i++) {
        g_autofree char *base = g_strdup_printf(commands[i], path);
        g_autofree char *bad_cc = g_strdup_printf("%s --cc qsim-no-such-compiler", base);
        g_autofree char *o1 = NULL, *e1 = NULL;
        rc = qsim(bad_cc, &o1, &e1);
        ck_assert_msg(rc == 2 && strstr(e1, "--cc qsim-no-such-compiler: not a program in PATH"), "%s: rc %d\n%s%s", bad_cc, rc, o1, e1);
        g_autofree char *line = g_strdup_printf("%s --cflags", base);
        g_auto(GStrv) words = g_strsplit(line, " ", -1);
        guint n = g_strv_length(words);
        const char **argv = g_new0(const char *, n + 2);
        for (guint k = 0; k < n; k++)
            argv[k] = words[k];
        argv[n] = "\"-DUNCLOSED";
        g_autofree char *o2 = NULL, *e2 = NULL;
        rc = run_qsim(argv, &o2, &e2);
        g_free(argv);
        ck_assert_msg(rc == 2 && strstr(e2, "--cflags `\"-DUNCLOSED` is not a list of flags"), "%s: rc %d\n%s%s", line,
                      rc, o2, e2);
    }
    /* --cc or --cflags with no lock in C is a mistake, refused before anything runs (before, a run
     * went ahead with them ignored, and echoed them, however long, in its report) */
    static const char *const no_c[] = {
        "run --config teaching --lock tas --threads 1 --iterations 1", "verify --lock tas", "native --lock tas",
        "compare --threads-list 2 --seeds 2 --iterations 5", "asm locks/tas.qs", "validate --host",
    };
    for (guint i = 0; i < G_N_ELEMENTS(no_c); i++)
        for (guint f = 0; f < 2; f++) {
            g_autofree char *line = g_strdup_printf("%s %s", no_c[i], f ? "--cflags -O1" : "--cc gcc");
            g_autofree char *o3 = NULL, *e3 = NULL;
            rc = qsim(line, &o3, &e3);
            ck_assert_msg(rc == 2 && strstr(e3, "--cc and --cflags compile a lock in C") && !*o3, "%s: rc %d\n%s%s",
                          line, rc, o3, e3);
        }
    remove_c(dir, path);
}
END_TEST

/* Every place a lock is taken takes a C file: run --vs (both sides), compare, the traces (text,
 * Perfetto, the step-through page) and validate --host --lock. */
START_TEST(test_every_place_takes_c)
{
    if (!have_gcc("cfront_locks/test_every_place_takes_c"))
        return;
    g_autofree char *out = NULL, *err = NULL;
    int rc = qsim("run --lock examples/c-locks/ticket.c --vs examples/c-locks/tas.c --threads 2 --iterations 20 "
                  "--no-host-time", &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "examples/c-locks/tas.c"), "rc %d\n%s%s", rc, out, err);
    g_autofree char *out2 = NULL, *err2 = NULL;
    rc = qsim("compare --lock examples/c-locks/ticket.c --vs examples/c-locks/tas.c --threads-list 2 --data B "
              "--placements fill --seeds 2 --iterations 20 --timing-seeds 0 --check-seeds 0", &out2, &err2);
    ck_assert_msg(rc == 0 && strstr(out2, "examples/c-locks/tas.c"), "rc %d\n%s%s", rc, out2, err2);
    g_autofree char *dir = tmpdir();
    g_autofree char *html = g_build_filename(dir, "t.html", NULL), *json = g_build_filename(dir, "t.json", NULL);
    const char *traced[] = { "run", "--lock", "examples/c-locks/ticket.c", "--threads", "2", "--iterations", "2",
                             "--trace", "--trace-out", json, "--trace-html", html, NULL };
    g_autofree char *out3 = NULL, *err3 = NULL;
    rc = run_qsim(traced, &out3, &err3);
    ck_assert_msg(rc == 0, "rc %d\n%s%s", rc, out3, err3);
    ck_assert_msg(strstr(err3, "# qsim trace: examples/c-locks/ticket.c on haswell"), "%s", err3);
    ck_assert(g_file_test(html, G_FILE_TEST_IS_REGULAR) && g_file_test(json, G_FILE_TEST_IS_REGULAR));
    g_autofree char *page = NULL;
    ck_assert(g_file_get_contents(html, &page, NULL, NULL));
    ck_assert_msg(strstr(page, "ticket.c:"), "the page quotes no C line");
    rm_rf(dir);
    if (g_get_num_processors() < 2) {
        qsim_test_skip("cfront_locks/test_every_place_takes_c", "validate --host needs two CPUs");
        return;
    }
    g_autofree char *out4 = NULL, *err4 = NULL;
    rc = qsim("validate --host --config haswell --lock examples/c-locks/ticket.c --repeat 2 --threads-max 2 "
              "--iterations 200", &out4, &err4);
    ck_assert_msg(rc == 0, "rc %d\n%s%s", rc, out4, err4);
    ck_assert_msg(strstr(out4, "\nexamples/c-locks/ticket.c       2 same-line") &&
                  strstr(out4, "\nexamples/c-locks/ticket.c       2 separate-line") && !strstr(out4, "\nticket "),
                  "%s", out4);
}
END_TEST

Suite *make_cfront_locks_suite(void)
{
    Suite *s = suite_create("cfront_locks");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_examples_verify);
    tcase_add_test(tc, test_examples_run);
    tcase_add_test(tc, test_broken_lock_fails_at_its_c_lines);
    tcase_add_test(tc, test_syntax_error_is_the_compilers);
    tcase_add_test(tc, test_unknown_instruction_names_both_lines);
    tcase_add_test(tc, test_missing_acquire);
    tcase_add_test(tc, test_arm64_examples);
    tcase_add_test(tc, test_arm64_lse_on_llsc_refused);
    tcase_add_test(tc, test_arm64_thread_locals);
    tcase_add_test(tc, test_asm_lists_c_lines);
    tcase_add_test(tc, test_glue_stack_only_when_used);
    tcase_add_test(tc, test_trace_header_leaves_glue_out);
    tcase_add_test(tc, test_native_runs_translation);
    tcase_add_test(tc, test_sweep);
    tcase_add_test(tc, test_cc_and_cflags);
    tcase_add_test(tc, test_trap_and_alignment);
    tcase_add_test(tc, test_every_place_takes_c);
    suite_add_tcase(s, tc);
    return s;
}
