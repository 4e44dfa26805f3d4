# qsim: a cycle-level cache-coherence simulator.
#   make          build ./qsim (objects under build/)
#   make run      build, then run the main job
#   make check    build, then run every test (also under ASan/UBSan)
#   make install  PREFIX=/usr/local DESTDIR=
# Missing Debian build dependencies are installed when run as root (build-aux/deps.sh).

VERSION   := 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
DATADIR   ?= $(PREFIX)/share/qsim
DESTDIR   ?=
CC        ?= cc
PKGS      := glib-2.0 yaml-0.1 json-glib-1.0

NODEPS_GOALS := clean distclean help
ifeq ($(filter-out $(NODEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
else
DEPS_OK := $(shell sh build-aux/deps.sh >&2 && echo yes)
ifneq ($(DEPS_OK),yes)
$(error build dependencies missing (see the apt-get line above))
endif
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

WARN     := -Wall -Wextra
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(PKG_CFLAGS) -I. -MMD -MP \
             -DQSIM_VERSION=\"$(VERSION)\" -DQSIM_DATADIR=\"$(DATADIR)\" \
             -DQSIM_SRCDIR=\"$(CURDIR)\"
LDLIBS   := $(PKG_LIBS) -lm -lpthread -ldl

MODULES  := sim/base cores coherence sim locks sim/litmus sim/sweep sim/cli
# Programs with their own main(), kept out of the library.
MAIN_SRC := sim/cli/main.c
LIB_SRC  := $(filter-out $(MAIN_SRC),$(foreach m,$(MODULES),$(wildcard $(m)/*.c)))
TEST_SRC := $(wildcard tests/*.c)

# Two build flavours share these rules: normal (build/) and sanitized (build/asan/).
B ?= build
LIB_OBJ  := $(LIB_SRC:%.c=$(B)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(B)/%.o)
# Native runs compile their programs at run time into a cache under $XDG_CACHE_HOME
# (docs/native.md); the tests keep theirs in the build tree, shared by both flavours.
TEST_CACHE := XDG_CACHE_HOME=$(CURDIR)/build/cache

.PHONY: all run study check check-layers check-unit check-install check-asan bench install uninstall clean docs golden
all: qsim

qsim: $(B)/qsim
	@if [ "$(B)" = build ]; then cp $(B)/qsim qsim.tmp && mv -f qsim.tmp qsim; fi

$(B)/qsim: $(B)/sim/cli/main.o $(B)/libqsim.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(B)/libqsim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(if $(filter tests/%,$<),$(CHECK_CFLAGS) -I$(B)/tests) -c -o $@ $<

# The test runner collects every make_*_suite() defined under tests/.
$(B)/tests/suites.h: $(TEST_SRC)
	@mkdir -p $(dir $@)
	@grep -ho '^Suite \*make_[a-z0-9_]*_suite' $(TEST_SRC) | sed 's/^Suite \*//' | sort -u | \
	  awk '{ print "Suite *" $$1 "(void);"; l = l "    " $$1 ",\n" } \
	       END { printf "static Suite *(*const qsim_suites[])(void) = {\n%s    NULL\n};\n", l }' > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(B)/tests/check_main.o: $(B)/tests/suites.h

$(B)/check_qsim: $(TEST_OBJ) $(B)/libqsim.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

# ---- tests ----
check: qsim
	$(MAKE) --no-print-directory check-layers
	$(MAKE) --no-print-directory check-unit B=build
	$(MAKE) --no-print-directory check-install
	$(MAKE) --no-print-directory check-asan
	@echo "make check: all tests passed"

check-unit: $(B)/check_qsim $(B)/qsim
	QSIM_BIN=$(CURDIR)/$(B)/qsim QSIM_SRCDIR=$(CURDIR) $(TEST_CACHE) $(B)/check_qsim

# Same sources, built with sanitizers, running the same suites at a reduced scale.
check-asan:
	$(MAKE) --no-print-directory B=build/asan \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  build/asan/check_qsim build/asan/qsim
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 QSIM_TEST_SCALE=quick \
	  QSIM_BIN=$(CURDIR)/build/asan/qsim QSIM_SRCDIR=$(CURDIR) $(TEST_CACHE) build/asan/check_qsim

# No include runs upward through the layers (build-aux/check-layers.sh has the table); the
# checker itself must catch one planted in a scratch tree.
check-layers:
	@sh build-aux/check-layers.sh
	@t=$$(mktemp -d /tmp/qsim-layers.XXXXXX) && mkdir -p $$t/cores $$t/sim/base $$t/coherence $$t/locks && \
	echo '#include "sim/run.h"' > $$t/cores/planted.c && \
	if sh build-aux/check-layers.sh $$t >/dev/null 2>&1; then rm -rf $$t; echo "check-layers: missed a planted upward include" >&2; exit 1; fi; \
	rm -rf $$t; echo "check-layers: a planted upward include is caught"

# A staged install must find its configs and locks with the source tree out of reach.
check-install: qsim
	@stage=$$(mktemp -d /tmp/qsim-stage.XXXXXX) && \
	$(MAKE) --no-print-directory install DESTDIR=$$stage PREFIX=/opt/qsim >/dev/null && \
	test -x $$stage/opt/qsim/bin/qsim && test -f $$stage/opt/qsim/share/qsim/configs/teaching.yaml && \
	(cd / && QSIM_CONFIG_PATH= $$stage/opt/qsim/bin/qsim list configs | grep -q '^teaching ') && \
	(cd / && $$stage/opt/qsim/bin/qsim config teaching >/dev/null) && \
	rm -rf $$stage && echo "check-install: a staged install finds its data"

# The main job: the seed patch's question on its machine, workloads A (data in the lock's line)
# and B (data in its own line), two threads, side by side with the counters that explain it.
run: qsim
	@echo "== Workload A: critical-section data in the lock's cache line =="
	./qsim run --config haswell --lock qspin --vs qspin-cmpxchg --threads 2 --iterations 2000 --data same-line
	@echo "== Workload B: critical-section data in a separate cache line =="
	./qsim run --config haswell --lock qspin --vs qspin-cmpxchg --threads 2 --iterations 2000 --data separate-line

# The reference pages generated from qsim's own tables (a test fails when one is stale).
docs: qsim
	./qsim config --reference > docs/config.md
	./qsim list options > docs/workload.md
	./qsim list counters > docs/counters.md

# Rewrites tests/golden/ from qsim's own output, after a change meant to change a trace or a
# protocol page (read `git diff tests/golden` before committing it).
golden: $(B)/check_qsim $(B)/qsim
	for s in trace protocol_doc; do \
	  QSIM_UPDATE_GOLDEN=1 CK_RUN_SUITE=$$s QSIM_BIN=$(CURDIR)/$(B)/qsim QSIM_SRCDIR=$(CURDIR) $(TEST_CACHE) \
	    $(B)/check_qsim || exit 1; done

# Simulation speed and memory (long measurements live here, not in `make check`).
bench: qsim
	sh build-aux/bench.sh ./qsim

# Regenerates docs/study-qspin-cmpxchg.md's tables from qsim's own runs.
study: qsim
	sh build-aux/study.sh ./qsim docs/study-qspin-cmpxchg.md

install: qsim
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/configs $(DESTDIR)$(DATADIR)/locks $(DESTDIR)$(DATADIR)/sweeps
	install -m 755 qsim $(DESTDIR)$(BINDIR)/qsim
	install -m 644 configs/*.yaml $(DESTDIR)$(DATADIR)/configs/
	if ls locks/*.qs >/dev/null 2>&1; then install -m 644 locks/*.qs $(DESTDIR)$(DATADIR)/locks/; fi
	install -m 644 sweeps/*.yaml $(DESTDIR)$(DATADIR)/sweeps/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/qsim
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build qsim

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(B)/sim/cli/main.d
