/* Test helper: headless Chromium driven through its DevTools protocol (CDP) over a WebSocket
 * (libsoup 3's client), for tests that click on a page as a person would: real mouse events at
 * an element's place, and screenshots at a chosen window size.  Built with libsoup only
 * (QSIM_HAVE_SOUP). */
#ifndef QSIM_TEST_CDP_H
#define QSIM_TEST_CDP_H

#include <glib.h>

typedef struct Cdp Cdp;

/* Starts `chromium` headless on a blank page, in a fresh profile; NULL with the reason. */
Cdp *cdp_start(const char *chromium, GError **error);
void cdp_stop(Cdp *c);
/* Opens `url` and waits for its load event. */
void cdp_navigate(Cdp *c, const char *url);
/* The value of a JavaScript expression in the page (promises awaited), as JSON text (caller
 * frees); the test fails on an exception. */
char *cdp_eval(Cdp *c, const char *expr);
/* The same as a string: the expression's String() (caller frees). */
char *cdp_eval_string(Cdp *c, const char *expr);
/* A left click at the middle of the element with this id (it must be on the page and visible). */
void cdp_click(Cdp *c, const char *id);
/* Waits (up to 20 s, then fails) until `expr` is true in the page. */
void cdp_wait(Cdp *c, const char *expr);
/* The window's size in CSS pixels. */
void cdp_set_size(Cdp *c, guint width, guint height);
/* A PNG of what the window shows, into `path`. */
void cdp_screenshot(Cdp *c, const char *path);

#endif
