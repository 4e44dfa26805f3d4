/* Which qsim this is: its version (the Makefile's VERSION) and the commit it was built from
 * ("-dirty" with changes not committed, "unknown" from a tree without git). */
#ifndef QSIM_VERSION_INFO_H
#define QSIM_VERSION_INFO_H

const char *qsim_version(void);
const char *qsim_commit(void);

#endif
