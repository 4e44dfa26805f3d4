/* The contract between the native runner (locks/native/native_run.c) and the C that the translator
 * (locks/native/native_c.c) writes for a program (a lock assembled with the workload harness).  The
 * generated unit is compiled at run time; it gets the declarations in QN_ABI_DECLS as text
 * (QN_ABI_TEXT) and the runner includes this header, so the two can never drift apart.
 *
 * A compiled program exports one QnProgram: its entry points, one C function each, taking the
 * thread's state.  Memory is laid out by the runner from the same IsaProgram it translated. */
#ifndef QSIM_NATIVE_ABI_H
#define QSIM_NATIVE_ABI_H

#include <stdint.h>

/* Bumped whenever QN_ABI_DECLS changes; a loaded program with another version is refused. */
#define QN_ABI_VERSION 4
/* Depth of the explicit return-address stack of `call`/`ret` inside one entry call. */
#define QN_RSTACK 64
/* The name of the QnProgram a compiled unit exports. */
#define QN_PROGRAM_SYMBOL "qsim_native_program"

/* QnThread: one thread's ISA state.  regs persist across entry calls (a lock may keep e.g. its
 * ticket from `lock` to `unlock`, as it would in the interpreter); mine[s] is the address of
 * this thread's copy of symbol s, addr[s * nthreads + t] thread t's copy (the layout's table).
 * mark(t, n) is the runner's hook for `mark n`; when it returns nonzero the entry call ends as
 * at `halt` (how a fixed-time run stops its threads).
 * fault is set by generated code to a "file:line:col: message" when a program goes wrong.
 * Every memory access the translator cannot prove good is judged as the model judges it
 * (cores/isa/isa_fault.h): inside [mem_lo, mem_lo + mem_size) and aligned.  A bad one, or `la` of a
 * thread that does not exist, is not made: the entry call ends with fault_pc (the op's pc, -1
 * while none), fault_addr (the address, or the thread asked for) and fault_size (0 for `la`)
 * set.  halt_pc is the pc of the `halt` that ended the last entry call (-1: it ended otherwise);
 * the runner tells the harness's own from one inside the lock. 
 * qn_work(n): n iterations of a loop the compiler cannot remove; each iteration is one add on
 * a loop-carried register dependence, about one core cycle on current x86-64 and arm64 cores. */
#define QN_ABI_DECLS                                                                          \
    typedef struct QnThread {                                                                 \
        uint64_t regs[64];     /* ISA_NREGS */                                                \
        const uint64_t *mine;                                                                 \
        const uint64_t *addr;                                                                 \
        uint64_t tid, nthreads;                                                               \
        int (*mark)(struct QnThread *t, int64_t n);                                           \
        const char *fault;                                                                    \
        void *runner;                                                                         \
        uint64_t mem_lo, mem_size;                                                            \
        uint64_t fault_addr;                                                                  \
        int32_t fault_pc, halt_pc;                                                            \
        uint32_t fault_size;                                                                  \
    } QnThread;                                                                               \
    typedef void (*QnEntryFn)(QnThread *t);                                                   \
    typedef struct { const char *name; QnEntryFn fn; } QnEntry;                               \
    typedef struct {                                                                          \
        uint32_t abi;                                                                         \
        const char *source;                                                                   \
        uint32_t nentries;                                                                    \
        const QnEntry *entries;                                                               \
    } QnProgram;                                                                              \
    static inline __attribute__((always_inline, unused)) void qn_work(uint64_t n)            \
    {                                                                                         \
        for (uint64_t i = 0; i < n; i++)                                                      \
            __asm__ __volatile__("" : "+r"(i));                                               \
    }                                                                                         \
    static inline __attribute__((always_inline, unused)) int qn_bad(QnThread *t, uint64_t a, \
                                                                    uint32_t size, int32_t pc) \
    {                                                                                         \
        if (__builtin_expect(a - t->mem_lo <= t->mem_size - size && !(a & (size - 1)), 1))   \
            return 0;                                                                         \
        t->fault_pc = pc;                                                                     \
        t->fault_addr = a;                                                                    \
        t->fault_size = size;                                                                 \
        return 1;                                                                             \
    }                                                                                         \
    static inline __attribute__((always_inline, unused)) int qn_no_thread(QnThread *t,       \
                                                                          uint64_t want,      \
                                                                          int32_t pc)         \
    {                                                                                         \
        if (__builtin_expect(want < t->nthreads, 1))                                          \
            return 0;                                                                         \
        t->fault_pc = pc;                                                                     \
        t->fault_addr = want;                                                                 \
        t->fault_size = 0;                                                                    \
        return 1;                                                                             \
    }

QN_ABI_DECLS

#define QN_STR_(...) #__VA_ARGS__
#define QN_STR(...) QN_STR_(__VA_ARGS__)
/* The declarations above as C text, for the unit compiled at run time. */
#define QN_ABI_TEXT QN_STR(QN_ABI_DECLS)

#endif
