/* The version and commit (see version.h): the one file that includes the generated header, so
 * only it is rebuilt when the commit changes. */
#include "sim/base/version.h"
#include "qsim_commit.h"   /* generated: QSIM_COMMIT (the Makefile) */

const char *qsim_version(void) { return QSIM_VERSION; }
const char *qsim_commit(void) { return QSIM_COMMIT; }
