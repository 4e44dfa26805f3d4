/* The contract between the native runner (locks/native_run.c) and the C that the translator
 * (locks/native_c.c) writes for a lock.  Generated code sees exactly the declarations in
 * QN_ABI_DECLS: built-in locks include this header; a --lock-file compiled at run time gets the
 * same declarations as text (QN_ABI_TEXT), so the two can never drift apart.
 *
 * A lock is a QnLockDesc: its entry points (one C function each, taking the thread's state) and
 * its symbols (so the runner can lay memory out with isa_layout_new, as the simulator does). */
#ifndef QSIM_NATIVE_ABI_H
#define QSIM_NATIVE_ABI_H

#include <stdint.h>

/* Bumped whenever QN_ABI_DECLS changes; a loaded lock with another version is refused. */
#define QN_ABI_VERSION 1
/* Depth of the explicit return-address stack of `call`/`ret` inside one entry call. */
#define QN_RSTACK 64

/* QnThread: one thread's ISA state.  regs persist across entry calls (a lock may keep e.g. its
 * ticket from `lock` to `unlock`, as it would in the interpreter); mine[s] is the address of
 * this thread's copy of symbol s, addr[s * nthreads + t] thread t's copy (the layout's table).
 * fault is set by generated code to a "file:line:col: message" when a program goes wrong.
 * qn_work(n): n iterations of a loop the compiler cannot remove; each iteration is one add on
 * a loop-carried register dependence, about one core cycle on current x86-64 and arm64 cores. */
#define QN_ABI_DECLS                                                                          \
    typedef struct QnThread {                                                                 \
        uint64_t regs[16];                                                                    \
        const uint64_t *mine;                                                                 \
        const uint64_t *addr;                                                                 \
        uint64_t tid, nthreads;                                                               \
        void (*mark)(struct QnThread *t, int64_t n);                                          \
        const char *fault;                                                                    \
        void *runner;                                                                         \
    } QnThread;                                                                               \
    typedef void (*QnEntryFn)(QnThread *t);                                                   \
    typedef struct { const char *name; QnEntryFn fn; } QnEntry;                               \
    typedef struct {                                                                          \
        const char *name;                                                                     \
        int per_thread, own_line;                                                             \
        uint32_t size, align;                                                                 \
        int32_t with;                                                                         \
        int64_t init;                                                                         \
    } QnSym;                                                                                  \
    typedef struct {                                                                          \
        uint32_t abi;                                                                         \
        const char *name, *source;                                                            \
        uint32_t nentries, nsyms;                                                             \
        const QnEntry *entries;                                                               \
        const QnSym *syms;                                                                    \
    } QnLockDesc;                                                                             \
    static inline __attribute__((always_inline, unused)) void qn_work(uint64_t n)            \
    {                                                                                         \
        for (uint64_t i = 0; i < n; i++)                                                      \
            __asm__ __volatile__("" : "+r"(i));                                               \
    }

QN_ABI_DECLS

#define QN_STR_(...) #__VA_ARGS__
#define QN_STR(...) QN_STR_(__VA_ARGS__)
/* The declarations above as C text, for code compiled outside this tree. */
#define QN_ABI_TEXT QN_STR(QN_ABI_DECLS)

/* Built-in locks, translated at build time (build/native/locks_gen.c), NULL-terminated. */
extern const QnLockDesc *const qn_builtin_locks[];

#endif
