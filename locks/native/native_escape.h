/* Leaving a lock program that will not end by itself: a thread that spins for ever in a lock
 * that is never handed over, or one that a signal (SIGSEGV, SIGBUS) stops inside the program.
 * The translated code holds nothing (no locks, no allocations; its memory is the runner's), so
 * a thread may be taken out of it at any instruction: the runner sends a stuck thread the
 * abandon signal, whose handler, like that of SIGSEGV and SIGBUS, jumps back to where the
 * thread entered the program.  The runner then joins it and frees everything as after any run.
 *
 * The handlers are the process's while a native run's threads run (install, restore), and
 * act only in a thread inside the program; anywhere else SIGSEGV and SIGBUS keep their default
 * action (the fault recurs with the handler gone) and the abandon signal does nothing. */
#ifndef QSIM_NATIVE_ESCAPE_H
#define QSIM_NATIVE_ESCAPE_H

#include <pthread.h>
#include <setjmp.h>
#include <glib.h>

/* One thread's way out.  Invariant: `inside` is 1 only between native_escape_enter and
 * native_escape_leave (or a jump out), in the thread that owns it. */
typedef struct {
    sigjmp_buf jmp;
    int inside;
    int signal;                /* what stopped it: SIGSEGV, SIGBUS; 0: none or abandoned */
} NativeEscape;

/* Sets the handlers, keeping the ones they replace; FALSE with an error if it cannot. */
gboolean native_escape_install(GError **error);
void native_escape_restore(void);

/* In the thread, around the program (sigsetjmp must run in the frame the jump returns to, and
 * be the whole condition):
 *     native_escape_bind(&e);
 *     if (sigsetjmp(e.jmp, 1) == 0) { native_escape_enter(&e); ...the program...; }
 *     native_escape_leave(&e);   (e.signal says whether a signal ended it) */
void native_escape_bind(NativeEscape *e);
void native_escape_enter(NativeEscape *e);
void native_escape_leave(NativeEscape *e);

/* Takes thread `t` out of the program, if it is in it (else nothing happens). */
void native_escape_abandon(pthread_t t);

#endif
