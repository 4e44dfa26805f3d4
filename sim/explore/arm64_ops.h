/* The ARMv8 model's steps (arm64_ops.c) and promises (arm64_promise.c); the rules are written
 * at the top of model_arm64.c. */
#ifndef QSIM_EXPLORE_ARM64_OPS_H
#define QSIM_EXPLORE_ARM64_OPS_H

#include "sim/explore/explore_model.h"

/* How many outcomes thread t's next op has (which message each read takes, which promise a
 * write fulfils, a stx failing); *bounded set when the message bound left one out.  With
 * `outcomes` non-NULL (an ArmOutcome array), they are appended. */
guint arm_step_count(const ExploreWorld *w, const ExploreState *s, guint t, gboolean *bounded, GArray *outcomes);
/* Whether outcome k leaves thread t able to fulfil its promises (always, with none). */
gboolean arm_step_ok(const ExploreWorld *w, const ExploreState *s, guint t, guint k, gboolean *bounded);
/* Performs outcome k of thread t's next op. */
void arm_step(const ExploreWorld *w, ExploreState *s, guint t, guint k, ExploreNote *note);
/* A local op (ALU, branch, fence, ...): its views, then its values as the interpreter's. */
void arm_exec_local(const ExploreWorld *w, ExploreState *s, guint t, ExploreNote *note);

/* Whether a run of one thread alone (certification) is under way: it may fulfil a promise
 * that is not needed (model_arm64.c, "needed promises"); the search may not. */
gboolean arm_alone(const ExploreWorld *w);
/* Whether thread t has a promise outstanding. */
gboolean arm_has_promise(const ExploreState *s, guint t);
/* Whether thread t, alone from s, can fulfil every promise it made (*bounded: a bound cut the
 * run, and the answer is then FALSE). */
gboolean arm_certify(const ExploreWorld *w, const ExploreState *s, guint t, gboolean *bounded);
/* The writes thread t may promise in s: the ones a run of it alone can reach, each checked by
 * certification.  How many; the k-th made. */
guint arm_promise_count(const ExploreWorld *w, const ExploreState *s, guint t, gboolean *bounded);
void arm_promise(const ExploreWorld *w, ExploreState *s, guint t, guint k, ExploreNote *note);

void *explore_arm64_scratch_new(const ExploreWorld *w);
void explore_arm64_scratch_free(void *p);

#endif
