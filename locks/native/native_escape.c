/* Leaving a lock program (see native_escape.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include "locks/native/native_escape.h"
#include "locks/native/native_host.h"

/* The signal that abandons a thread: a real-time one, which nothing else in qsim uses. */
#define ESCAPE_ABANDON (SIGRTMIN + 1)

static const int escape_signals[] = { SIGSEGV, SIGBUS, 0 /* ESCAPE_ABANDON, not a constant */ };
static struct sigaction saved[G_N_ELEMENTS(escape_signals)];
static __thread NativeEscape *current;

static int signal_at(guint i)
{
    return escape_signals[i] ? escape_signals[i] : ESCAPE_ABANDON;
}

static void on_signal(int sig)
{
    NativeEscape *e = current;
    if (e && e->inside) {
        e->inside = 0;
        if (sig != ESCAPE_ABANDON)
            e->signal = sig;
        siglongjmp(e->jmp, 1);
    }
    if (sig != ESCAPE_ABANDON)
        signal(sig, SIG_DFL); /* not ours: the faulting op runs again, and the default acts */
}

gboolean native_escape_install(GError **error)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (guint i = 0; i < G_N_ELEMENTS(escape_signals); i++)
        if (sigaction(signal_at(i), &sa, &saved[i]) != 0) {
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_SYSTEM, "cannot set a signal handler: %s",
                        g_strerror(errno));
            while (i-- > 0)
                sigaction(signal_at(i), &saved[i], NULL);
            return FALSE;
        }
    return TRUE;
}

void native_escape_restore(void)
{
    for (guint i = 0; i < G_N_ELEMENTS(escape_signals); i++)
        sigaction(signal_at(i), &saved[i], NULL);
}

void native_escape_bind(NativeEscape *e)
{
    current = e;
}

void native_escape_enter(NativeEscape *e)
{
    __atomic_store_n(&e->inside, 1, __ATOMIC_SEQ_CST);
}

void native_escape_leave(NativeEscape *e)
{
    __atomic_store_n(&e->inside, 0, __ATOMIC_SEQ_CST);
    current = NULL;
}

void native_escape_abandon(pthread_t t)
{
    pthread_kill(t, ESCAPE_ABANDON);
}
