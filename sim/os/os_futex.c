/* The futex system calls on the timing model (the path is in os_model.h).  Each call is a chain
 * of phases on its core, one memory access or one timer at a time: the phase names what the
 * call waits for, and `advance` does what follows it.
 *
 * The hash bucket's line: the waiter count at offset 0, the lock at offset 4 (Linux keeps both
 * in one cache-line-aligned struct futex_hash_bucket).  The lock is taken with a
 * compare-and-swap; a core that finds it taken queues behind the others and only the first in
 * the queue polls the line (a load every core.pause_cycles, as a queued spinlock's head spins
 * with cpu_relax), so waiting costs line traffic from one core, not from all. */
#include <string.h>
#include "sim/os/os_internal.h"
#include "cores/isa/isa_fault.h"

#define BUCKET_COUNT_OFFSET 0
#define BUCKET_LOCK_OFFSET 4

typedef enum {
    P_KEY,            /* timer: entry and the futex key */
    P_INC,            /* wait: the waiter count incremented */
    P_COUNT,          /* wake: the waiter count read */
    P_CAS,            /* the lock's compare-and-swap answered */
    P_QUEUED,         /* behind another core for the lock (promoted by its holder's taking it) */
    P_POLL_WAIT,      /* timer: the pause before the next poll */
    P_POLL,           /* a poll of the lock answered */
    P_WORD,           /* wait: the futex word read */
    P_WAIT_HELD,      /* timer: wait's work under the lock */
    P_WAKE_HELD,      /* timer: wake's work under the lock */
    P_UNLOCK_EAGAIN,  /* wait: the lock released, the word had changed */
    P_DEC_EAGAIN,     /* wait: the waiter count decremented again */
    P_UNLOCK_SLEEP,   /* wait: the lock released, the thread queued */
    P_DEC_WAKE,       /* wake: the waiter count decremented by the threads dequeued */
    P_UNLOCK_WAKE,    /* wake: the lock released */
    P_EXIT,           /* timer: the wake-ups and the way out */
} OsPhase;

void os_bucket_free(gpointer b)
{
    OsBucket *bk = b;
    g_queue_clear(&bk->waiters);
    g_free(bk);
}

static Cycle now_of(const OsModel *os) { return engine_now(os->e); }

static OsBucket *bucket_of(OsModel *os, guint index)
{
    OsBucket *b = g_hash_table_lookup(os->buckets, GUINT_TO_POINTER(index));
    if (!b) {
        b = g_new0(OsBucket, 1);
        g_queue_init(&b->waiters);
        g_hash_table_insert(os->buckets, GUINT_TO_POINTER(index), b);
    }
    return b;
}

/* Which bucket a word hashes to (Linux uses jhash; any fixed mixing serves). */
static guint bucket_index(const OsModel *os, uint64_t addr)
{
    guint64 h = (addr >> 2) * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15);
    return (guint)(h >> 32) & (os->nbuckets - 1);
}

static void advance(OsCore *oc);

static void phase_event(void *obj, uint64_t phase)
{
    OsCore *oc = obj;
    g_assert(oc->call.active && oc->call.step == (int)phase);
    advance(oc);
}

static void after(OsCore *oc, OsPhase next, Cycle delay)
{
    oc->call.step = next;
    os_sched_after(oc, delay, phase_event, next);
}

static void issue(OsCore *oc, OsPhase next, MemKind kind, RmwKind rmw, uint64_t addr, uint64_t value,
                  uint64_t expected)
{
    OsModel *os = oc->os;
    OsCall *k = &oc->call;
    k->step = next;
    k->req = ++oc->next_req;
    gboolean x86 = os->cfg->arch == ARCH_X86;
    MemRequest r = { .kind = kind, .rmw = rmw, .addr = addr, .size = 4, .value = value,
                     .expected = expected, .far = FALSE,
                     /* x86's locked instructions hold the line as the user's do */
                     .hold_cycles = kind == MEM_RMW && x86 ? (uint32_t)os->cfg->core.lock_hold_cycles : 0,
                     .tag = OS_MODEL_TAG | k->req };
    os->issue(os->ms, oc->id, &r);
}

void os_futex_mem_done(OsCore *oc, const MemResponse *r)
{
    OsCall *k = &oc->call;
    g_assert(k->active && k->req && r->tag == (OS_MODEL_TAG | k->req));
    k->req = 0;
    k->value = r->value;
    /* Not from inside the memory system's callback: the next access may be to the same line. */
    after(oc, (OsPhase)k->step, 0);
}

/* The way out: `extra` cycles of work first, then the exit half of the system call. */
static void leave(OsCore *oc, uint64_t result, Cycle extra)
{
    const QsimConfig *cfg = oc->os->cfg;
    oc->call.value = result;
    after(oc, P_EXIT, extra + (Cycle)(cfg->os.syscall_cycles - cfg->os.syscall_cycles / 2));
}

static void try_lock(OsCore *oc)
{
    issue(oc, P_CAS, MEM_RMW, RMW_CAS, oc->call.line + BUCKET_LOCK_OFFSET, 1, 0);
}

static void lock_bucket(OsCore *oc)
{
    OsCall *k = &oc->call;
    OsBucket *b = bucket_of(oc->os, k->bucket);
    k->hb_since = now_of(oc->os);
    if (g_queue_is_empty(&b->waiters)) {
        try_lock(oc);
    } else {
        g_queue_push_tail(&b->waiters, oc);
        k->step = P_QUEUED;
    }
}

static void poll_later(OsCore *oc)
{
    after(oc, P_POLL_WAIT, (Cycle)MAX(oc->os->cfg->core.pause_cycles, 1));
}

/* The lock is ours. */
static void bucket_locked(OsCore *oc)
{
    OsModel *os = oc->os;
    OsCall *k = &oc->call;
    OsBucket *b = bucket_of(os, k->bucket);
    if (g_queue_peek_head(&b->waiters) == oc) {
        g_queue_pop_head(&b->waiters);
        OsCore *next = g_queue_peek_head(&b->waiters);
        if (next) /* the next in line starts polling the line */
            after(next, P_POLL_WAIT, 0);
    }
    os->st.hb_lock_wait_cycles += now_of(os) - k->hb_since;
    if (k->in->op == OP_FUTEX_WAIT)
        issue(oc, P_WORD, MEM_LOAD, RMW_CAS, k->addr, 0, 0);
    else
        after(oc, P_WAKE_HELD, (Cycle)os->cfg->os.futex_hold_cycles);
}

static void unlock_bucket(OsCore *oc, OsPhase next)
{
    issue(oc, next, MEM_STORE, RMW_CAS, oc->call.line + BUCKET_LOCK_OFFSET, 0, 0);
}

/* Adds `delta` (two's complement for a decrement) to the bucket's waiter count. */
static void add_waiters(OsCore *oc, OsPhase next, int64_t delta)
{
    issue(oc, next, MEM_RMW, RMW_ADD, oc->call.line + BUCKET_COUNT_OFFSET, (uint64_t)delta & 0xffffffffu, 0);
}

/* futex_wait, under the lock, the word as expected: the thread joins the sleepers (it leaves
 * the core once the lock is released). */
static void queue_sleeper(OsCore *oc)
{
    OsModel *os = oc->os;
    OsThread *t = oc->cur;
    t->state = OT_SLEEPING;
    t->since = now_of(os);
    t->futex_addr = oc->call.addr;
    t->sleep_seq = os->sleep_seq++;
    t->wait_rd = oc->call.in->rd;
    g_queue_push_tail(&os->sleepers, t);
    os->st.sleeps++;
}

/* futex_wake, under the lock: up to n sleepers on the word, in the order they slept. */
static void dequeue_sleepers(OsCore *oc)
{
    OsModel *os = oc->os;
    OsCall *k = &oc->call;
    Cycle now = now_of(os);
    k->woken = 0;
    g_free(k->to_wake);
    k->to_wake = g_new(OsThread *, os->nthreads);
    for (GList *l = os->sleepers.head; l && k->woken < k->arg;) {
        GList *next = l->next;
        OsThread *t = l->data;
        if (t->futex_addr == k->addr) {
            g_queue_delete_link(&os->sleepers, l);
            os->st.cycles_asleep += now - t->since;
            t->state = OT_WOKEN;
            k->to_wake[k->woken++] = t;
        }
        l = next;
    }
    os->st.wakes += k->woken;
}

/* try_to_wake_up of one thread, from the waker's wake_q after the lock was released. */
static void ttwu_event(void *obj, uint64_t waker_id)
{
    OsThread *t = obj;
    OsModel *os = t->core->os;
    if (t->state != OT_WOKEN)
        return;
    if (t->core->cur == t) {
        t->state = OT_RUNNING; /* it has not left its core yet: it will not sleep */
        return;
    }
    os_sched_make_ready(os, t, waker_id < os->ncore_ids ? os->by_id[waker_id] : NULL);
}

/* The thread sleeps: its state leaves the core (futex_wait counts as done, with rd := 0 for when
 * it runs again) and the core runs another. */
static void sleep_now(OsCore *oc)
{
    OsModel *os = oc->os;
    OsCall *k = &oc->call;
    OsThread *t = oc->cur;
    os->st.kernel_cycles += now_of(os) - k->entered;
    k->active = FALSE;
    core_context_save(oc->core, &t->ctx);
    if (t->wait_rd >= 0 && t->wait_rd < ISA_NREGS)
        t->ctx.regs[t->wait_rd] = 0;
    t->resume_syscall = TRUE;
    os_sched_switch_away(oc);
}

static void advance(OsCore *oc)
{
    OsModel *os = oc->os;
    const QsimConfig *cfg = os->cfg;
    OsCall *k = &oc->call;
    gboolean wait = k->in->op == OP_FUTEX_WAIT;
    switch ((OsPhase)k->step) {
    case P_KEY:
        if (wait)
            add_waiters(oc, P_INC, 1);
        else
            issue(oc, P_COUNT, MEM_LOAD, RMW_CAS, k->line + BUCKET_COUNT_OFFSET, 0, 0);
        break;
    case P_INC:
        lock_bucket(oc);
        break;
    case P_COUNT:
        if (k->value == 0) {
            os->st.futex_wakes_empty++; /* nobody waits in this bucket: no lock, no walk */
            leave(oc, 0, 0);
        } else {
            lock_bucket(oc);
        }
        break;
    case P_CAS:
        if (k->value == 0) {
            bucket_locked(oc);
        } else {
            OsBucket *b = bucket_of(os, k->bucket);
            if (!g_queue_find(&b->waiters, oc))
                g_queue_push_tail(&b->waiters, oc);
            if (g_queue_peek_head(&b->waiters) == oc)
                poll_later(oc);
            else
                k->step = P_QUEUED;
        }
        break;
    case P_QUEUED:
        g_assert_not_reached(); /* promotion schedules P_POLL_WAIT */
        break;
    case P_POLL_WAIT:
        issue(oc, P_POLL, MEM_LOAD, RMW_CAS, k->line + BUCKET_LOCK_OFFSET, 0, 0);
        break;
    case P_POLL:
        if (k->value == 0)
            try_lock(oc);
        else
            poll_later(oc);
        break;
    case P_WORD:
        after(oc, P_WAIT_HELD, (Cycle)cfg->os.futex_hold_cycles);
        break;
    case P_WAIT_HELD:
        if ((k->value & 0xffffffffu) != (k->arg & 0xffffffffu)) {
            os->st.futex_eagain++;
            unlock_bucket(oc, P_UNLOCK_EAGAIN);
        } else {
            queue_sleeper(oc);
            unlock_bucket(oc, P_UNLOCK_SLEEP);
        }
        break;
    case P_UNLOCK_EAGAIN:
        add_waiters(oc, P_DEC_EAGAIN, -1);
        break;
    case P_DEC_EAGAIN:
        leave(oc, 1, 0);
        break;
    case P_UNLOCK_SLEEP:
        if (oc->cur->state == OT_SLEEPING) {
            sleep_now(oc);
        } else {
            /* Dequeued between queueing and sleeping: schedule() finds it runnable. */
            oc->cur->state = OT_RUNNING;
            leave(oc, 0, 0);
        }
        break;
    case P_WAKE_HELD:
        dequeue_sleepers(oc);
        if (k->woken)
            add_waiters(oc, P_DEC_WAKE, -(int64_t)k->woken);
        else
            unlock_bucket(oc, P_UNLOCK_WAKE);
        break;
    case P_DEC_WAKE:
        unlock_bucket(oc, P_UNLOCK_WAKE);
        break;
    case P_UNLOCK_WAKE: {
        Cycle each = (Cycle)cfg->os.futex_wake_cycles;
        for (guint i = 0; i < k->woken; i++)
            engine_schedule(os->e, each * (i + 1), ttwu_event, k->to_wake[i], oc->id);
        leave(oc, k->woken, each * k->woken);
        break;
    }
    case P_EXIT:
        os->st.kernel_cycles += now_of(os) - k->entered;
        k->active = FALSE;
        core_syscall_return(oc->core, k->value);
        break;
    }
}

void os_futex_stop(OsModel *os)
{
    engine_cancel(os->e, phase_event, NULL);
    engine_cancel(os->e, ttwu_event, NULL);
}

void os_futex_syscall(void *ctx, Core *c G_GNUC_UNUSED, const IsaInsn *in, uint64_t addr, uint64_t arg)
{
    OsCore *oc = ctx;
    OsModel *os = oc->os;
    OsCall *k = &oc->call;
    g_assert(!k->active && oc->state == OC_RUNNING && oc->cur);
    /* The core judged the word as every load and store is (cores/core_os.c): a bad one was the
     * op's fault at the ROB head, and the kernel never sees it. */
    g_assert(isa_access_check(os->layout, addr, in->size) == ISA_FAULT_NONE);
    k->active = TRUE;
    k->in = in;
    k->addr = addr;
    k->arg = arg;
    k->entered = now_of(os);
    k->bucket = bucket_index(os, addr);
    k->line = OS_KERNEL_BASE + (uint64_t)k->bucket * (uint64_t)os->cfg->line_size;
    os->st.futex_syscalls++;
    if (in->op == OP_FUTEX_WAIT)
        os->st.futex_waits++;
    else
        os->st.futex_wakes++;
    after(oc, P_KEY, (Cycle)(os->cfg->os.syscall_cycles / 2 + os->cfg->os.futex_key_cycles));
}
