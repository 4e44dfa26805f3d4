/* The native runner (see native_run.h and docs/native.md). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <linux/perf_event.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif
#include "cores/isa_exec.h"
#include "locks/native_c.h"
#include "locks/native_run.h"
#include "sim/base/report.h"
#include "sim/base/suggest.h"

/* ------------------------------------------------------------------------------------------ */
/* Loading locks                                                                              */
/* ------------------------------------------------------------------------------------------ */

struct NativeLock {
    const QnLockDesc *desc;
    void *dl;                  /* dlopen handle of a lock compiled at run time, or NULL */
};

const QnLockDesc *native_lock_desc(const NativeLock *l)
{
    return l->desc;
}

void native_lock_free(NativeLock *l)
{
    if (!l)
        return;
    if (l->dl)
        dlclose(l->dl);
    g_free(l);
}

GPtrArray *native_builtin_names(void)
{
    GPtrArray *names = g_ptr_array_new();
    for (guint i = 0; qn_builtin_locks[i]; i++)
        g_ptr_array_add(names, (char *)qn_builtin_locks[i]->name);
    return names;
}

NativeLock *native_lock_builtin(const char *name, GError **error)
{
    for (guint i = 0; qn_builtin_locks[i]; i++)
        if (!strcmp(qn_builtin_locks[i]->name, name)) {
            NativeLock *l = g_new0(NativeLock, 1);
            l->desc = qn_builtin_locks[i];
            return l;
        }
    g_autoptr(GPtrArray) names = native_builtin_names();
    if (!names->len) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                    "--lock %s: this qsim was built without native built-in locks (no locks/*.qs "
                    "could be translated); use --lock-file", name);
        return NULL;
    }
    const char *hint = suggest_closest(name, (const char *const *)names->pdata, names->len);
    g_ptr_array_add(names, NULL);
    g_autofree char *all = g_strjoinv(", ", (char **)names->pdata);
    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "--lock %s: unknown lock%s%s%s (built in: %s)",
                name, hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "", all);
    return NULL;
}

GStrv native_find_compiler(GError **error)
{
    const char *cc = g_getenv("CC");
    if (!cc || !*cc)
        cc = "cc";
    GStrv argv = NULL;
    if (!g_shell_parse_argv(cc, NULL, &argv, NULL)) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_COMPILER, "$CC (%s) is not a command line", cc);
        return NULL;
    }
    g_autofree char *found = g_find_program_in_path(argv[0]);
    if (!found) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_COMPILER,
                    "no C compiler found: `%s` is not in PATH (a --lock-file is compiled at run "
                    "time; install gcc or clang, or set $CC)", argv[0]);
        g_strfreev(argv);
        return NULL;
    }
    g_free(argv[0]);
    argv[0] = g_steal_pointer(&found);
    return argv;
}

/* Compiles `csrc` into a shared object and loads it; the files are removed once loaded. */
static void *compile_and_load(const char *csrc, const char *what, GError **error)
{
    g_auto(GStrv) cc = native_find_compiler(error);
    if (!cc)
        return NULL;
    g_autofree char *dir = g_dir_make_tmp("qsim-native-XXXXXX", error);
    if (!dir)
        return NULL;
    g_autofree char *c_path = g_build_filename(dir, "lock.c", NULL);
    g_autofree char *so_path = g_build_filename(dir, "lock.so", NULL);
    void *dl = NULL;
    if (g_file_set_contents(c_path, csrc, -1, error)) {
        g_autoptr(GPtrArray) argv = g_ptr_array_new();
        for (guint i = 0; cc[i]; i++)
            g_ptr_array_add(argv, cc[i]);
        const char *flags[] = { "-std=gnu11", "-O2", "-fPIC", "-shared", "-o", so_path, c_path, NULL };
        for (guint i = 0; flags[i]; i++)
            g_ptr_array_add(argv, (char *)flags[i]);
        g_ptr_array_add(argv, NULL);
        g_autofree char *err_text = NULL;
        int status = 0;
        GError *spawn_err = NULL;
        if (!g_spawn_sync(dir, (char **)argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                          NULL, &err_text, &status, &spawn_err)) {
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_COMPILER, "%s: cannot run %s: %s", what,
                        cc[0], spawn_err->message);
            g_error_free(spawn_err);
        } else if (!g_spawn_check_wait_status(status, NULL)) {
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_COMPILER,
                        "%s: the C compiler (%s) failed on the translated lock:\n%s", what, cc[0],
                        err_text ? err_text : "");
        } else if (!(dl = dlopen(so_path, RTLD_NOW | RTLD_LOCAL))) {
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_LOAD, "%s: dlopen: %s", what, dlerror());
        }
    }
    g_unlink(c_path);
    g_unlink(so_path);
    g_rmdir(dir);
    return dl;
}

NativeLock *native_lock_from_program(const IsaProgram *p, GError **error)
{
    Arch arch;
    if (!native_host_arch(&arch, error))
        return NULL;
    g_autofree char *csrc = native_translate_c(p, arch, error);
    if (!csrc)
        return NULL;
    const char *what = p->filename ? p->filename : "<program>";
    void *dl = compile_and_load(csrc, what, error);
    if (!dl)
        return NULL;
    const QnLockDesc *d = dlsym(dl, "qsim_native_lock");
    if (!d || d->abi != QN_ABI_VERSION) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_LOAD, "%s: the compiled lock %s", what,
                    d ? "has another ABI version" : "lacks qsim_native_lock");
        dlclose(dl);
        return NULL;
    }
    NativeLock *l = g_new0(NativeLock, 1);
    l->desc = d;
    l->dl = dl;
    return l;
}

NativeLock *native_lock_from_file(const char *path, GError **error)
{
    Arch arch;
    if (!native_host_arch(&arch, error))
        return NULL;
    IsaProgram *p = native_assemble_file(path, arch, error);
    if (!p)
        return NULL;
    NativeLock *l = native_lock_from_program(p, error);
    isa_program_free(p);
    return l;
}

/* ------------------------------------------------------------------------------------------ */
/* Options and CPUs                                                                           */
/* ------------------------------------------------------------------------------------------ */

void native_options_init(NativeOptions *o)
{
    memset(o, 0, sizeof *o);
    o->iterations = 10000;
}

gboolean native_parse_cpus(const char *text, GArray **out, GError **error)
{
    g_autoptr(GArray) cpus = g_array_new(FALSE, FALSE, sizeof(guint));
    g_auto(GStrv) parts = g_strsplit(text ? text : "", ",", -1);
    for (guint i = 0; parts[i]; i++) {
        const char *s = g_strstrip(parts[i]);
        guint64 lo, hi;
        char *end;
        if (!g_ascii_isdigit(*s))
            goto bad;
        lo = g_ascii_strtoull(s, &end, 10);
        hi = lo;
        if (*end == '-') {
            if (!g_ascii_isdigit(end[1]))
                goto bad;
            hi = g_ascii_strtoull(end + 1, &end, 10);
        }
        if (*end || hi < lo || hi >= CPU_SETSIZE) {
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                        "--cpus %s: '%s' is not a CPU or an ascending range below %d", text, s,
                        CPU_SETSIZE);
            return FALSE;
        }
        for (guint64 c = lo; c <= hi; c++) {
            for (guint k = 0; k < cpus->len; k++)
                if (g_array_index(cpus, guint, k) == c) {
                    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                                "--cpus %s: CPU %" G_GUINT64_FORMAT " is listed twice", text, c);
                    return FALSE;
                }
            guint v = (guint)c;
            g_array_append_val(cpus, v);
        }
    }
    if (!cpus->len)
        goto bad;
    *out = g_steal_pointer(&cpus);
    return TRUE;
bad:
    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                "--cpus %s: expected a list of CPUs and ranges such as 0,2-5", text ? text : "");
    return FALSE;
}

GArray *native_allowed_cpus(void)
{
    GArray *cpus = g_array_new(FALSE, FALSE, sizeof(guint));
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (guint c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                g_array_append_val(cpus, c);
    }
    if (!cpus->len) {
        guint zero = 0;
        g_array_append_val(cpus, zero);
    }
    return cpus;
}

/* ------------------------------------------------------------------------------------------ */
/* Clocks                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The cheapest clock the host has, for per-acquisition timestamps: the TSC (RDTSCP waits for
 * older instructions, so it is read after the lock's acquiring load), or CNTVCT_EL0 behind an
 * ISB on arm64, or CLOCK_MONOTONIC. */
static inline uint64_t stamp(void)
{
#if defined(__x86_64__)
    unsigned aux;
    return __rdtscp(&aux);
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
    return v;
#else
    return now_ns();
#endif
}

/* What a stamp counts: TSC cycles (x86, reported as `cycles`), else nanoseconds (arm64's
 * generic timer runs at tens of MHz, so its ticks are converted). */
static const char *stamp_unit(void)
{
#if defined(__x86_64__)
    return "tsc_cycles";
#else
    return "ns";
#endif
}

static double stamp_to_unit(uint64_t ticks)
{
#if defined(__aarch64__)
    uint64_t freq;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(freq));
    return freq ? (double)ticks * 1e9 / (double)freq : (double)ticks;
#else
    return (double)ticks;
#endif
}

/* ns per work unit, measured on a loop long enough (about a millisecond) to swamp the clock. */
static double calibrate_work(void)
{
    const uint64_t n = 1000000;
    uint64_t t0 = now_ns();
    qn_work(n);
    return (double)(now_ns() - t0) / (double)n;
}

/* ------------------------------------------------------------------------------------------ */
/* Hardware counters                                                                          */
/* ------------------------------------------------------------------------------------------ */

enum { CTR_CYCLES, CTR_INSNS, CTR_CLEARS, CTR_N };
static const char *const ctr_names[CTR_N] = { "cycles", "instructions", "machine_clears_memory_ordering" };

static gboolean host_is_intel(void)
{
    g_autofree char *info = NULL;
    return g_file_get_contents("/proc/cpuinfo", &info, NULL, NULL) && strstr(info, "GenuineIntel");
}

static int perf_open(uint32_t type, uint64_t config)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = type;
    a.config = config;
    a.disabled = 1;
    a.exclude_kernel = 1;   /* user space only: allowed at perf_event_paranoid 2 */
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* The run                                                                                    */
/* ------------------------------------------------------------------------------------------ */

typedef struct Run Run;

/* One thread's state, in lines of its own so that the harness's bookkeeping does not share a
 * line with another thread's. */
typedef struct {
    QnThread qt;
    Run *run;
    guint index, cpu;
    uint64_t *mine;
    uint64_t *lat;             /* the first `cap` acquisition latencies, in stamps */
    guint64 cap, acquisitions, violations;
    uint64_t waiting;          /* sum of all latencies, in stamps */
    uint64_t marks[8];         /* the last stamp of `mark n` (n mod 8) from lock code */
    int fd[CTR_N];
    int perf_errno;
    guint64 ctr[CTR_N];
} Worker;

struct Run {
    const NativeOptions *o;
    QnEntryFn lock, unlock;
    uint64_t *flag, *counter, *words;
    gboolean count_clears;
    /* Start: each worker counts itself ready, then waits for `go` (1 run, -1 abandon), so that
     * all start together and a failed thread start can still release the others. */
    int ready, go;
    int stop;                  /* fixed time: set by the main thread when time is up */
};

static void worker_mark(QnThread *t, int64_t n)
{
    Worker *w = t->runner;
    w->marks[(uint64_t)n % G_N_ELEMENTS(w->marks)] = stamp();
}

static void open_counters(Worker *w)
{
    for (int i = 0; i < CTR_N; i++)
        w->fd[i] = -1;
    static const uint64_t hw[2] = { PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS };
    for (int i = 0; i < 2; i++) {
        w->fd[i] = perf_open(PERF_TYPE_HARDWARE, hw[i]);
        if (w->fd[i] < 0) {
            w->perf_errno = errno;
            return;
        }
    }
    /* MACHINE_CLEARS.MEMORY_ORDERING: event 0xC3, umask 0x02 on Intel Core since Nehalem. */
    if (w->run->count_clears)
        w->fd[CTR_CLEARS] = perf_open(PERF_TYPE_RAW, 0x02C3);
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Run *r = w->run;
    const NativeOptions *o = r->o;
    open_counters(w);
    uint64_t *flag = r->flag, *counter = r->counter, *words = r->words;
    guint cs_writes = o->cs_writes;
    guint64 n = 0;
    __atomic_fetch_add(&r->ready, 1, __ATOMIC_SEQ_CST);
    int go;
    while (!(go = __atomic_load_n(&r->go, __ATOMIC_ACQUIRE)))
        sched_yield(); /* the main thread may share this CPU: let it release us */
    if (go < 0)
        goto finish;
    for (int i = 0; i < CTR_N; i++)
        if (w->fd[i] >= 0)
            ioctl(w->fd[i], PERF_EVENT_IOC_ENABLE, 0);
    while (o->iterations ? n < o->iterations : !__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
        uint64_t t0 = stamp();             /* mark 1 */
        r->lock(&w->qt);
        uint64_t t1 = stamp();             /* mark 2 */
        /* The critical section: plain (relaxed) accesses, so that only the lock orders them. */
        if (__atomic_load_n(flag, __ATOMIC_RELAXED))
            w->violations++;
        __atomic_store_n(flag, 1, __ATOMIC_RELAXED);
        __atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
        for (guint k = 0; k < cs_writes; k++)
            __atomic_store_n(&words[k], __atomic_load_n(&words[k], __ATOMIC_RELAXED) + 1,
                             __ATOMIC_RELAXED);
        qn_work(o->cs_work);
        __atomic_store_n(flag, 0, __ATOMIC_RELAXED);
        r->unlock(&w->qt);
        if (w->qt.fault)
            break;
        if (n < w->cap)
            w->lat[n] = t1 - t0;
        w->waiting += t1 - t0;
        n++;
        qn_work(o->think);                 /* mark 3; work think */
    }
finish:
    for (int i = 0; i < CTR_N; i++)
        if (w->fd[i] >= 0) {
            ioctl(w->fd[i], PERF_EVENT_IOC_DISABLE, 0);
            uint64_t v = 0;
            if (read(w->fd[i], &v, sizeof v) == sizeof v)
                w->ctr[i] = v;
            close(w->fd[i]);
        }
    w->acquisitions = n;
    return NULL;
}

static void poke(void *ctx, uint64_t addr, unsigned size, uint64_t value)
{
    (void)ctx;
    void *p = (void *)(uintptr_t)addr;
    switch (size) {
    case 1: *(uint8_t *)p = (uint8_t)value; break;
    case 2: *(uint16_t *)p = (uint16_t)value; break;
    case 4: *(uint32_t *)p = (uint32_t)value; break;
    default: *(uint64_t *)p = value; break;
    }
}

/* The program to lay out: the lock's symbols, then the harness's CS data (flag, counter,
 * cs_writes words) `with` the lock's first shared symbol, or in its own line. */
static IsaProgram *layout_program(const QnLockDesc *d, const NativeOptions *o, int *data_sym,
                                  int *lock_sym)
{
    IsaProgram *p = g_new0(IsaProgram, 1);
    p->insns = g_array_new(FALSE, TRUE, sizeof(IsaInsn));
    p->entries = g_array_new(FALSE, TRUE, sizeof(IsaEntry));
    p->syms = g_ptr_array_new();
    *lock_sym = -1;
    for (guint s = 0; s < d->nsyms; s++) {
        IsaSym *sym = g_new0(IsaSym, 1);
        sym->name = g_strdup(d->syms[s].name);
        sym->scope = d->syms[s].per_thread ? SYM_PER_THREAD : SYM_SHARED;
        sym->size = d->syms[s].size;
        sym->align = d->syms[s].align;
        sym->own_line = d->syms[s].own_line;
        sym->with = d->syms[s].with;
        sym->init = d->syms[s].init;
        if (*lock_sym < 0 && sym->scope == SYM_SHARED)
            *lock_sym = (int)s;
        g_ptr_array_add(p->syms, sym);
    }
    IsaSym *data = g_new0(IsaSym, 1);
    data->name = g_strdup("qn_cs_data");
    data->scope = SYM_SHARED;
    data->size = 8 * (2 + o->cs_writes);
    data->align = 8;
    data->with = o->data_same_line ? *lock_sym : -1;
    data->own_line = !o->data_same_line;
    *data_sym = (int)p->syms->len;
    g_ptr_array_add(p->syms, data);
    return p;
}

static QnEntryFn find_entry(const QnLockDesc *d, const char *name)
{
    for (guint i = 0; i < d->nentries; i++)
        if (!strcmp(d->entries[i].name, name))
            return d->entries[i].fn;
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Picks CPUs, checks the thread count against them. */
static GArray *choose_cpus(const NativeOptions *o, guint *threads, GError **error)
{
    GArray *cpus = o->cpus ? g_array_copy(o->cpus) : native_allowed_cpus();
    if (o->cpus) {
        g_autoptr(GArray) allowed = native_allowed_cpus();
        for (guint i = 0; i < cpus->len; i++) {
            guint c = g_array_index(cpus, guint, i);
            gboolean ok = FALSE;
            for (guint j = 0; j < allowed->len && !ok; j++)
                ok = g_array_index(allowed, guint, j) == c;
            if (!ok) {
                g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                            "--cpus: CPU %u is not available to this process (%u CPUs are)", c,
                            allowed->len);
                g_array_unref(cpus);
                return NULL;
            }
        }
    }
    guint n = o->threads ? o->threads : o->cpus ? cpus->len : MIN(2u, cpus->len);
    if (n > cpus->len) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                    "--threads %u: only %u CPU%s %s (one pinned thread per CPU; spinning threads "
                    "sharing a CPU measure the scheduler, not the lock)",
                    n, cpus->len, cpus->len == 1 ? "" : "s", o->cpus ? "listed in --cpus" : "available");
        g_array_unref(cpus);
        return NULL;
    }
    g_array_set_size(cpus, n);
    *threads = n;
    return cpus;
}

/* The report tree of a finished run (keys: docs/native.md). */
static JsonNode *build_report(const QnLockDesc *d, const NativeOptions *o, Arch arch, Worker **ws,
                              guint nt, const Run *r, uint32_t line, double work_ns, uint64_t ns0,
                              uint64_t ns1, uint64_t st0, uint64_t st1, uint64_t host_t0)
{
    /* Results. */
    guint64 total = 0, min_a = G_MAXUINT64, max_a = 0, violations = 0, nsamples = 0;
    for (guint t = 0; t < nt; t++) {
        total += ws[t]->acquisitions;
        min_a = MIN(min_a, ws[t]->acquisitions);
        max_a = MAX(max_a, ws[t]->acquisitions);
        violations += ws[t]->violations;
        nsamples += MIN(ws[t]->acquisitions, ws[t]->cap);
    }
    uint64_t *all = g_new(uint64_t, nsamples + 1);
    guint64 k = 0;
    double sum = 0;
    for (guint t = 0; t < nt; t++)
        for (guint64 i = 0; i < MIN(ws[t]->acquisitions, ws[t]->cap); i++) {
            all[k++] = ws[t]->lat[i];
            sum += (double)ws[t]->lat[i];
        }
    qsort(all, nsamples, sizeof *all, cmp_u64);
    uint64_t counter = *r->counter;
    gboolean mutex_ok = violations == 0 && counter == total;

    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    report_add_string(b, "config", "native");
    report_add_string(b, "arch", arch_name(arch));
    report_add_string(b, "lock", d->name);
    report_add_int(b, "threads", nt);
    json_builder_set_member_name(b, "cpus");
    json_builder_begin_array(b);
    for (guint t = 0; t < nt; t++)
        json_builder_add_int_value(b, ws[t]->cpu);
    json_builder_end_array(b);
    if (o->iterations)
        report_add_int(b, "iterations", (gint64)o->iterations);
    else
        report_add_int(b, "duration_ms", o->duration_ms);
    report_add_int(b, "cs_writes", o->cs_writes);
    report_add_string(b, "data", o->data_same_line ? "same-line" : "separate-line");
    report_add_int(b, "cs_work", (gint64)o->cs_work);
    report_add_int(b, "think", (gint64)o->think);
#if defined(__x86_64__)
    report_add_int(b, "cycles", (gint64)(st1 - st0));
#else
    (void)st0; (void)st1;
#endif
    report_add_int(b, "ns", (gint64)(ns1 - ns0));
    report_add_int(b, "acquisitions", (gint64)total);
#if defined(__x86_64__)
    if (total)
        report_add_double(b, "cycles_per_acquisition", (double)(st1 - st0) / (double)total);
#endif
    if (total)
        report_add_double(b, "ns_per_acquisition", (double)(ns1 - ns0) / (double)total);
    if (nsamples) {
        json_builder_set_member_name(b, "latency");
        json_builder_begin_object(b);
        report_add_string(b, "unit", stamp_unit());
        report_add_double(b, "mean", sum / (double)nsamples * stamp_to_unit(1));
        report_add_double(b, "p50", stamp_to_unit(all[(nsamples - 1) * 50 / 100]));
        report_add_double(b, "p99", stamp_to_unit(all[(nsamples - 1) * 99 / 100]));
        report_add_int(b, "samples", (gint64)nsamples);
        json_builder_end_object(b);
    }
    json_builder_set_member_name(b, "per_thread");
    json_builder_begin_array(b);
    for (guint t = 0; t < nt; t++) {
        json_builder_begin_object(b);
        report_add_int(b, "cpu", ws[t]->cpu);
        report_add_int(b, "acquisitions", (gint64)ws[t]->acquisitions);
        report_add_double(b, "cycles_waiting", stamp_to_unit(ws[t]->waiting));
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "fairness");
    json_builder_begin_object(b);
    report_add_int(b, "min", (gint64)min_a);
    report_add_double(b, "avg", (double)total / nt);
    report_add_int(b, "max", (gint64)max_a);
    json_builder_end_object(b);
    report_add_bool(b, "mutual_exclusion", mutex_ok);
    report_add_int(b, "counter", (gint64)counter);
    report_add_int(b, "in_cs_violations", (gint64)violations);
    report_add_int(b, "line_size", line);
    report_add_double(b, "work_unit_ns", work_ns);
    json_builder_set_member_name(b, "counters");
    if (ws[0]->perf_errno || ws[0]->fd[CTR_CYCLES] < 0) {
        int e = ws[0]->perf_errno;
        g_autofree char *paranoid = NULL;
        g_file_get_contents("/proc/sys/kernel/perf_event_paranoid", &paranoid, NULL, NULL);
        g_autofree char *why = g_strdup_printf("unavailable (perf_event_open: %s%s%s)",
                                               e ? g_strerror(e) : "not opened",
                                               paranoid ? "; kernel.perf_event_paranoid=" : "",
                                               paranoid ? g_strstrip(paranoid) : "");
        json_builder_add_string_value(b, why);
    } else {
        json_builder_begin_object(b);
        for (int i = 0; i < CTR_N; i++) {
            if (i == CTR_CLEARS && ws[0]->fd[CTR_CLEARS] < 0)
                continue; /* not an Intel core: no such event */
            guint64 v = 0;
            for (guint t = 0; t < nt; t++)
                v += ws[t]->ctr[i];
            report_add_int(b, ctr_names[i], (gint64)v);
        }
        json_builder_end_object(b);
    }
    report_add_double(b, "host_seconds", (double)(now_ns() - host_t0) / 1e9);
    json_builder_end_object(b);
    g_free(all);
    return json_builder_get_root(b);
}

JsonNode *native_run(const NativeLock *lock, const NativeOptions *o, GError **error)
{
    const QnLockDesc *d = lock->desc;
    Arch arch;
    if (!native_host_arch(&arch, error))
        return NULL;
    uint64_t host_t0 = now_ns();
    Run r = { .o = o };
    r.lock = find_entry(d, "lock");
    r.unlock = find_entry(d, "unlock");
    if (!r.lock || !r.unlock) {
        /* A reader-writer lock runs its exclusive (write) side. */
        r.lock = find_entry(d, "write_lock");
        r.unlock = find_entry(d, "write_unlock");
    }
    if (!r.lock || !r.unlock) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_INVALID,
                    "lock `%s` has no `lock`/`unlock` (or `write_lock`/`write_unlock`) entry points",
                    d->name);
        return NULL;
    }
    if (!o->iterations && !o->duration_ms) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE, "give --iterations or --duration-ms");
        return NULL;
    }
    guint nt;
    g_autoptr(GArray) cpus = choose_cpus(o, &nt, error);
    if (!cpus)
        return NULL;

    /* Memory: one block, aligned to the line, laid out exactly as the simulator lays it out. */
    long host_line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    uint32_t line = host_line > 64 && host_line <= 4096 ? (uint32_t)host_line : 64;
    int data_sym, lock_sym;
    IsaProgram *lp = layout_program(d, o, &data_sym, &lock_sym);
    if (o->data_same_line && lock_sym < 0) {
        isa_program_free(lp);
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                    "--data same-line: lock `%s` has no shared variable to share a line with", d->name);
        return NULL;
    }
    /* Probe at base 0 for the size; `with` symbols are checked to fit their partner's line
     * (the assembler does this for the program's own; the CS data is ours). */
    IsaLayout *probe = isa_layout_new(lp, nt, line, 0);
    uint64_t bytes = probe->size;
    for (guint s = 0; s < probe->nsyms; s++) {
        const IsaSym *sym = lp->syms->pdata[s];
        for (guint t = 0; t < nt; t++)
            bytes = MAX(bytes, (isa_sym_addr(probe, s, t) + sym->size + line - 1) / line * line);
    }
    gboolean fits = TRUE;
    if (o->data_same_line) {
        uint64_t lock_at = isa_sym_addr(probe, (guint)lock_sym, 0);
        uint64_t end = isa_sym_addr(probe, (guint)data_sym, 0) + 8 * (2 + o->cs_writes) - 1;
        fits = lock_at / line == end / line;
    }
    isa_layout_free(probe);
    if (!fits) {
        isa_program_free(lp);
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_USAGE,
                    "--data same-line: the critical-section data (in-CS flag, counter and "
                    "--cs-writes %u words, 8 bytes each) does not fit in lock `%s`'s %u-byte line",
                    o->cs_writes, d->name, line);
        return NULL;
    }
    void *block = aligned_alloc(line, MAX(bytes, line));
    IsaLayout *lay = isa_layout_new(lp, nt, line, (uint64_t)(uintptr_t)block);
    isa_layout_init_memory(lay, lp, poke, NULL);
    uint64_t data_at = isa_sym_addr(lay, (guint)data_sym, 0);
    r.flag = (uint64_t *)(uintptr_t)data_at;
    r.counter = r.flag + 1;
    r.words = r.flag + 2;
    r.count_clears = arch == ARCH_X86 && host_is_intel();

    /* Workers. */
    guint64 cap = o->iterations ? o->iterations : 1u << 20;
    cap = MIN(cap, MAX((guint64)4096, ((guint64)32 << 20) / nt)); /* at most ~256 MiB of samples */
    gsize wsize = (sizeof(Worker) + 127) / 128 * 128;
    Worker **ws = g_new0(Worker *, nt);
    for (guint t = 0; t < nt; t++) {
        Worker *w = aligned_alloc(128, wsize);
        memset(w, 0, wsize);
        w->run = &r;
        w->index = t;
        w->cpu = g_array_index(cpus, guint, t);
        w->cap = cap;
        w->lat = g_new(uint64_t, cap);
        w->mine = g_new0(uint64_t, lay->nsyms + 1);
        for (guint s = 0; s < lay->nsyms; s++)
            w->mine[s] = isa_sym_addr(lay, s, t);
        w->qt.mine = w->mine;
        w->qt.addr = lay->addr;
        w->qt.tid = t;
        w->qt.nthreads = nt;
        w->qt.mark = worker_mark;
        w->qt.runner = w;
        ws[t] = w;
    }
    double work_ns = calibrate_work();
    pthread_t *tids = g_new0(pthread_t, nt);
    guint started = 0;
    int create_err = 0;
    for (; started < nt; started++) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(ws[started]->cpu, &set);
        pthread_attr_setaffinity_np(&attr, sizeof set, &set);
        create_err = pthread_create(&tids[started], &attr, worker_main, ws[started]);
        pthread_attr_destroy(&attr);
        if (create_err)
            break;
    }
    JsonNode *root = NULL;
    while (__atomic_load_n(&r.ready, __ATOMIC_SEQ_CST) < (int)started)
        g_usleep(100);
    if (create_err) {
        __atomic_store_n(&r.go, -1, __ATOMIC_RELEASE);
        for (guint t = 0; t < started; t++)
            pthread_join(tids[t], NULL);
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_SYSTEM, "cannot start a thread pinned to CPU %u: %s",
                    ws[started]->cpu, g_strerror(create_err));
        goto out;
    }
    uint64_t ns0 = now_ns(), st0 = stamp();
    __atomic_store_n(&r.go, 1, __ATOMIC_RELEASE);
    if (!o->iterations) {
        g_usleep((gulong)o->duration_ms * 1000);
        __atomic_store_n(&r.stop, 1, __ATOMIC_RELAXED);
    }
    for (guint t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    uint64_t st1 = stamp(), ns1 = now_ns();

    const char *fault = NULL;
    for (guint t = 0; t < nt && !fault; t++)
        fault = ws[t]->qt.fault;
    if (fault) {
        g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_INVALID, "%s", fault);
        goto out;
    }

    root = build_report(d, o, arch, ws, nt, &r, line, work_ns, ns0, ns1, st0, st1, host_t0);
out:
    for (guint t = 0; t < nt; t++) {
        g_free(ws[t]->lat);
        g_free(ws[t]->mine);
        free(ws[t]);
    }
    g_free(ws);
    g_free(tids);
    isa_layout_free(lay);
    isa_program_free(lp);
    free(block);
    return root;
}
