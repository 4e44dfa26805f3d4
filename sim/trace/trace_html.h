/* --trace-html FILE.html: a step-through page for a small run, one self-contained file (its
 * script, style and data inline; nothing fetched). Each step is one event of the trace as the text
 * trace shows it (the same stream and filters). The page draws the machine at that step (an SVG
 * its script makes): each core once, with a panel per hardware thread (SMT: "core 0.1", as the
 * text trace names it) showing its lock phase, the op it retires next, its loads in flight
 * (issued, performed with their value, retired, squashed) and its store buffer, and, where more
 * threads than cores take turns (the OS model), which thread is on the core and the queue of those
 * waiting; under each core its one cache (its hardware threads share it) with the state of every
 * traced line (Okabe-Ito colours, the state written in the cell, transient ones hatched) and the
 * values of its variables; the interconnect, or the bus and the core holding it; the home with
 * each line's directory entry and queue of waiting requests (on a bus, what the memory's state
 * means: it lists no holders); memory's values (grey when a cache holds newer ones); and the
 * messages in flight as arrows (under the boxes: one from a row of cores above passes behind the
 * rows below), each with a chip that moves along it over the cycles it takes, coloured by what the
 * message carries (data, a CopyBack too; an ack; an invalidation or forward; a request). Beside
 * it, the protocol's table with the row that fired marked; under it, the same states as a table,
 * the messages in words and the cores. Buttons and keys step forward and back (Right/Left, j/k),
 * play and pause (Space; the speed menu beside it), jump to the next or previous transition of a
 * chosen line (n/p), and to the start or end (Home/End), wherever the focus is. `#step=42` in the
 * URL opens step 42 (step 0 is the state before the run), `&line=h_counter` chooses the line for
 * n/p, `&focus=line` focuses the line menu, `&press=nj` then presses those keys (a link to "the
 * next transition after step 42"; the tests drive the page's keys this way), and `&play` plays on
 * from there. The address follows the page (step and line).
 *
 * Element ids the tests read: `step-no` (the step shown), `event`, `explain`, `permalink`, the
 * state cells `cell-LINE-cN` (core N's cache) and `cell-LINE-dir`, and in the drawing
 * `svg-LINE-cN` / `svg-LINE-dir` (with data-state), `sb-cN` and `loads-cN` (data-n: entries),
 * `sb-entry-cN`, `queue-LINE` (data-n, data-shown) and `queue-LINE-I`, `queue-LINE-more` ("+N",
 * the entries that did not fit), `core-P` and `core-title-P` (physical core P), `cache-P`,
 * `panel-cN` (SMT: hardware thread N's panel), `phase-cN` (the thread's name and phase), `runq-cN`
 * (time-shared: data-threads, those waiting for CPU N), `bus` and `bus-label`, `mem-LINE`
 * (data-stale), `home-LINE` (the words beside the home's state: a directory's holders, or what a
 * bus memory's state means), and on a script's page `access` (the access in progress, "#2 1:st
 * x=5") and `access-cN` (what core N does); every element of the drawing with an id carries
 * data-box="x,y,w,h", where it is on the page, for tests that look at a screenshot. Nothing of the
 * drawing is cut: boxes are as wide as the longest text the run gives them, and cores wrap into
 * rows (the SVG scales to the window). The data's `cores` are per thread (its CPU); `names` and
 * `phys` (its physical core, whose cache column it uses) and a step's `tw` (time-shared: [where,
 * cpu] per thread, where "run", "load", "ready", "asleep" or "done") and a bus request's `g` (its
 * grant) were added beside them. */
#ifndef QSIM_TRACE_HTML_H
#define QSIM_TRACE_HTML_H

#include "sim/trace/trace_events.h"

/* Whether a page holds the whole run: its steps, and how many more it left out (0: none). */
typedef struct TraceHtmlCut {
    guint64 steps, left_out;
} TraceHtmlCut;

/* The page is written when the stream finishes (it needs the whole run): its first 20000 steps
 * (the page says how many more there were, and so does `cut`, when given, for the caller to tell
 * people), and only if it takes at most `limit` bytes (trace_limit.h); else nothing is written
 * and finish fails. */
TraceSink *trace_html_new(const char *path, guint64 limit, TraceHtmlCut *cut);

#endif
