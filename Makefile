# qsim: a cycle-level cache-coherence simulator.
#   make          build ./qsim (objects under build/)
#   make run      build, then run the main job
#   make check    build, then run every test (also under ASan/UBSan, fuzz corpora included)
#   make check-suite SUITE=asm [CASE=...]   build, then run one suite as make check does
#   make fuzz     fuzz each input format for FUZZ_SECONDS (default 60) with libFuzzer (clang)
#   make install  PREFIX=/usr/local DESTDIR=  (the binary, data, qsim(1), bash completion, docs)
#   make help     every target, a line each; HACKING.md is the guide to working on qsim
# The build prints a short line per file (CC, AR, LD, GEN); `make V=1` prints whole commands.
# Missing Debian build dependencies are installed when run as root (build-aux/deps.sh).

VERSION   := 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
DATADIR   ?= $(PREFIX)/share/qsim
DOCDIR    ?= $(PREFIX)/share/doc/qsim
MANDIR    ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DESTDIR   ?=
CC        ?= cc
PKGS      := glib-2.0 yaml-0.1 json-glib-1.0

NODEPS_GOALS := clean distclean help
ifeq ($(filter-out $(NODEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
else
DEPS_OK := $(shell sh build-aux/deps.sh $(MAKECMDGOALS) >&2 && echo yes)
ifneq ($(DEPS_OK),yes)
$(error build dependencies missing (see the apt-get line above))
endif
endif
# (after deps.sh, which installs it as root: checked once it has run)
# libsoup 3 serves the live page (`qsim serve`); without it the rest of qsim builds and `qsim
# serve` says what to install (sim/serve/serve.c).
SOUP_OK   := $(shell pkg-config --exists libsoup-3.0 2>/dev/null && echo yes)
ifeq ($(SOUP_OK),yes)
PKGS      += libsoup-3.0
SOUP_DEF  := -DQSIM_HAVE_SOUP
endif

# Quiet build, as kbuild's: `$(call say,CC,FILE)` before a command prints "  CC      FILE"
# instead of the command (V=1: the command itself; make -s: neither).  The command's own
# output, errors and warnings included, shows either way.
V ?= 0
ifeq ($(V),1)
say =
Q =
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say =
Q = @
else
say = @printf '  %-7s %s\n' '$(1)' '$(2)';
Q = @
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

WARN     := -Wall -Wextra
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(PKG_CFLAGS) -I. -MMD -MP \
             -DQSIM_VERSION=\"$(VERSION)\" -DQSIM_DATADIR=\"$(DATADIR)\" -DQSIM_DOCDIR=\"$(DOCDIR)\" \
             -DQSIM_SRCDIR=\"$(CURDIR)\" -I$(B)/gen $(SOUP_DEF)
LDLIBS   := $(PKG_LIBS) -lm -lpthread -ldl

MODULES  := sim/base coherence cores/isa sim/memmodel sim/explore cores sim/os sim/trace \
            sim/cfront sim/workload sim/machine sim/report sim/run sim/validation locks/native sim/litmus sim/sweep sim/calibrate sim/serve sim/cli
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

# (FORCE: a prerequisite that always runs its target's recipe)
.PHONY: FORCE all run study check check-layers check-unit check-suite check-install check-tarball check-asan \
        check-fuzz-corpus fuzz fuzz-build bench install uninstall clean distclean docs docs-images golden help
all: qsim $(B)/qsim.1 $(B)/qsim.bash

qsim: $(B)/qsim
	@if [ "$(B)" = build ]; then cp $(B)/qsim qsim.tmp && mv -f qsim.tmp qsim; fi

$(B)/qsim: $(B)/sim/cli/main.o $(B)/libqsim.a
	$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The manual page and the bash completion, made by qsim from the tables it runs on.
$(B)/qsim.1: $(B)/qsim
	$(call say,GEN,$@)$(B)/qsim man > $@.tmp && mv $@.tmp $@

$(B)/qsim.bash: $(B)/qsim
	$(call say,GEN,$@)$(B)/qsim completion bash > $@.tmp && mv $@.tmp $@

# The commit qsim is built from, for `qsim --version`: git's when the tree is a git checkout
# ("-dirty" with uncommitted changes), "unknown" otherwise (a tarball, or no git).  The header
# is rewritten only when that changes, so only sim/base/version.o follows it.
$(B)/gen/qsim_commit.h: FORCE
	@mkdir -p $(dir $@)
	@c=unknown; \
	if [ -e .git ] && h=$$(git rev-parse --short=12 HEAD 2>/dev/null); then \
	  c=$$h; git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; \
	fi; \
	printf '#define QSIM_COMMIT "%s"\n' "$$c" > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(B)/sim/base/version.o: $(B)/gen/qsim_commit.h

# The step-through page's script as a C string literal, made from its source.
$(B)/gen/trace_html_page_js.h: sim/trace/trace_html_page.js
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@.tmp && mv $@.tmp $@

$(B)/sim/trace/trace_html_page.o: $(B)/gen/trace_html_page_js.h

# The live page (`qsim serve`) as a C string literal, made from its source.
$(B)/gen/serve_page_html.h: sim/serve/serve_page.html
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@.tmp && mv $@.tmp $@

$(B)/sim/serve/serve.o: $(B)/gen/serve_page_html.h

FORCE:

$(B)/libqsim.a: $(LIB_OBJ)
	@rm -f $@
	$(call say,AR,$@)ar rcs $@ $^

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(ALL_CFLAGS) $(if $(filter tests/%,$<),$(CHECK_CFLAGS) -I$(B)/tests) -c -o $@ $<

# The test runner collects every make_NAME_suite() defined under tests/, each with its name
# (which must be the suite_create() name in the same file: the runner selects suites by it).
$(B)/tests/suites.h: $(TEST_SRC)
	@mkdir -p $(dir $@)
	@for f in $(TEST_SRC); do \
	  for n in $$(sed -n 's/^Suite \*make_\([a-z0-9_]*\)_suite.*/\1/p' $$f); do \
	    grep -q "suite_create(\"$$n\")" $$f || { echo "$$f: make_$${n}_suite must create suite \"$$n\"" >&2; exit 1; }; \
	    echo $$n; \
	  done; \
	done > $@.names
	@sort -u $@.names | \
	  awk '{ print "Suite *make_" $$1 "_suite(void);"; l = l "    { \"" $$1 "\", make_" $$1 "_suite },\n" } \
	       END { printf "static const struct { const char *name; Suite *(*make)(void); } qsim_suites[] = {\n%s    { NULL, NULL }\n};\n", l }' > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp $@.names

# (the runner, and the test that holds HACKING.md's suite names to it)
$(B)/tests/check_main.o $(B)/tests/test_hacking.o: $(B)/tests/suites.h

$(B)/check_qsim: $(TEST_OBJ) $(B)/libqsim.a
	$(call say,LD,$@)$(CC) $(ALL_CFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

# ---- tests ----
# Every test case sets its own Check timeout (tests/check_main.c gives one that does not 60 s);
# make check scales them all by CK_TIMEOUT_MULTIPLIER so that a slow or busy machine passes too.
# Override it from the environment or the command line: `make check CK_TIMEOUT_MULTIPLIER=10`.
CK_TIMEOUT_MULTIPLIER ?= 4
# A test that cannot check what it is for (a tool missing, herd's catalogue absent) prints
# `skipped: TEST: WHY` and adds a line to $(QSIM_TEST_SKIPS) (tests/skip.h); under CI=true it
# fails instead.  make check collects the lines of all its runs in one file and counts them.
CHECK_SKIPS := $(CURDIR)/build/test-skips.txt
TEST_ENV := CK_TIMEOUT_MULTIPLIER=$(CK_TIMEOUT_MULTIPLIER) QSIM_SRCDIR=$(CURDIR) $(TEST_CACHE) \
           $(if $(QSIM_TEST_SKIPS),QSIM_TEST_SKIPS=$(QSIM_TEST_SKIPS))
# The suites the sanitizer pass runs (names as in `build/check_qsim --list`): the ones that
# exercise memory: the parsers (assembler, config, litmus, workload options, the input reader,
# YAML limits, echoes), bad input on the command line, the memory system, the cores and the
# interpreter, the engine, the runner and its report, and the run-time faults and watchdogs
# (robustness: a bad address must never reach memory, natively either), and fast-forward's
# catch-ups (fast_forward: a sleeping core's arithmetic and replay touch the pipeline's and the
# caches' arrays directly).  The rest (litmus catalogues on whole machines, native runs, docs,
# sweeps, verify) run in check-unit.
ASAN_SUITES := asm config litmus workload input_file yaml_doc echo bad_input coh_table coh_directed coh_random \
               coh_msi coh_bus core_pipe core_mem core_order core_lock interp engine run run_report report counters \
               robustness fast_forward profile isa_ext cfront_x86 cfront_arm64
check:
	@$(MAKE) --no-print-directory $(CHECK_PAR) qsim
	@mkdir -p build && rm -f $(CHECK_SKIPS) && touch $(CHECK_SKIPS)
	$(MAKE) --no-print-directory check-layers
	$(MAKE) --no-print-directory $(CHECK_PAR) check-unit B=build QSIM_TEST_SKIPS=$(CHECK_SKIPS)
	$(MAKE) --no-print-directory check-install
	$(MAKE) --no-print-directory check-tarball
	$(MAKE) --no-print-directory check-asan QSIM_TEST_SKIPS=$(CHECK_SKIPS)
	$(MAKE) --no-print-directory check-fuzz-corpus
	@sed 's/^/  skipped: /' $(CHECK_SKIPS)
	@echo "make check: all tests passed, $$(wc -l < $(CHECK_SKIPS)) skipped"

# The suites run in CHECK_JOBS processes at once (default 2: this project's CI machine has 2
# cores), suites dealt out in turn (build-aux/run-suites.sh); each process's output goes to its
# log, printed when all are done.  `make check CHECK_JOBS=1` runs them in one process, output as
# it comes.  make check's builds use as many jobs unless make was given -j itself.
CHECK_JOBS ?= 2
CHECK_PAR := $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j$(CHECK_JOBS))
check-unit: $(B)/check_qsim $(B)/qsim
	@$(TEST_ENV) QSIM_BIN=$(CURDIR)/$(B)/qsim sh build-aux/run-suites.sh $(CHECK_JOBS) $(B)/check-unit $(B)/check_qsim

# One suite (or a few: SUITE="asm config"), and with CASE= one test case of it (Check's
# CK_RUN_CASE: a tcase_create name), in the environment make check-unit gives, output as it
# comes.  Suite names: `build/check_qsim --list`.
check-suite: $(B)/check_qsim $(B)/qsim
	@test -n "$(SUITE)" || { echo "make check-suite: name one: SUITE=NAME [CASE=NAME] (build/check_qsim --list)" >&2; exit 2; }
	$(Q)$(TEST_ENV) QSIM_BIN=$(CURDIR)/$(B)/qsim $(if $(CASE),CK_RUN_CASE="$(CASE)") $(B)/check_qsim $(SUITE)

# Same sources, built with sanitizers, running the suites that exercise memory (ASAN_SUITES)
# at a reduced scale.
ASAN_CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
check-asan:
	$(MAKE) --no-print-directory $(CHECK_PAR) B=build/asan CFLAGS="$(ASAN_CFLAGS)" build/asan/check_qsim build/asan/qsim
	@ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 QSIM_TEST_SCALE=quick \
	  $(TEST_ENV) QSIM_BIN=$(CURDIR)/build/asan/qsim \
	  sh build-aux/run-suites.sh $(CHECK_JOBS) build/asan/check-asan build/asan/check_qsim $(ASAN_SUITES)

# ---- fuzzing (tests/fuzz/README.md) ----
# One target per input format a user hands qsim; the repository's own files seed each corpus,
# and tests/fuzz/corpus/TARGET keeps the inputs fuzzing found (each one a regression test).
FUZZ_TARGETS := config asm litmus kinds sweep run program
FUZZ_SECONDS ?= 60
# A run longer than this is reported as a hang: generous, since the instrumented build is 10-40x
# slower than the plain one and a litmus loop that never ends runs to the step limit (2M steps).
FUZZ_TIMEOUT ?= 30
FUZZ_CC ?= clang
fuzz_seeds_config := configs/*.yaml
fuzz_seeds_asm := locks/*.qs scenarios/*.qs
fuzz_seeds_run := locks/*.qs
fuzz_seeds_litmus := tests/litmus/*/*.litmus
fuzz_seeds_kinds := tests/litmus/*/kinds.txt
fuzz_seeds_sweep := sweeps/*.yaml
# Sweep folder corruption (tests/fuzz/fuzz_sweep_folder.c): no results folder in the repository,
# so its corpus alone seeds it.
FUZZ_TARGETS += sweep_folder
# Run folder tampering (tests/fuzz/fuzz_run_folder.c): likewise seeded by its corpus alone.
FUZZ_TARGETS += run_folder
# The SMT and placement grid (tests/fuzz/fuzz_smt.c): its bytes are choices, not a file, so its
# corpus alone seeds it.
FUZZ_TARGETS += smt
fuzz_inputs = $(wildcard $(fuzz_seeds_$(1))) tests/fuzz/corpus/$(1)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

# make check: each corpus once through the targets' entry points under the sanitizer build,
# by a plain driver (no clang or libFuzzer needed).
build/asan/fuzz-driver-%: tests/fuzz/fuzz_driver.c tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h build/asan/libqsim.a
	$(call say,LD,$@)$(CC) -std=gnu11 $(WARN) $(ASAN_CFLAGS) $(PKG_CFLAGS) -I. -o $@ tests/fuzz/fuzz_driver.c tests/fuzz/fuzz_$*.c \
	  build/asan/libqsim.a $(LDLIBS)

check-fuzz-corpus:
	$(MAKE) --no-print-directory B=build/asan CFLAGS="$(ASAN_CFLAGS)" build/asan/libqsim.a
	$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=build/asan/fuzz-driver-%)
	@$(foreach t,$(FUZZ_TARGETS),ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  build/asan/fuzz-driver-$(t) $(call fuzz_inputs,$(t)) < /dev/null || exit 1;)

# make fuzz: each target under libFuzzer for FUZZ_SECONDS, its corpus growing in
# build/fuzz/corpus/TARGET; a crash leaves build/fuzz/crash-TARGET-* (add it to
# tests/fuzz/corpus/TARGET with its fix).  clang comes from build-aux/deps.sh like the others.
FUZZ_LIB_CFLAGS := -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h build/fuzz/libqsim.a
	$(call say,LD,$@)$(FUZZ_CC) -std=gnu11 $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer $(PKG_CFLAGS) -I. -o $@ $< \
	  build/fuzz/libqsim.a $(LDLIBS)

fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz: needs $(FUZZ_CC) (run make fuzz as root to install it)" >&2; exit 1; }
	$(MAKE) --no-print-directory B=build/fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZ_LIB_CFLAGS)" build/fuzz/libqsim.a
	$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

fuzz: fuzz-build
	@$(foreach t,$(FUZZ_TARGETS),mkdir -p build/fuzz/corpus/$(t) && \
	  for f in $(wildcard $(fuzz_seeds_$(t))) $(wildcard tests/fuzz/corpus/$(t)/*); do \
	    cp "$$f" "build/fuzz/corpus/$(t)/$$(echo "$$f" | tr / _)"; done && \
	  echo "== fuzz $(t): $(FUZZ_SECONDS) s ==" && \
	  build/fuzz/fuzz_$(t) -max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix=build/fuzz/crash-$(t)- build/fuzz/corpus/$(t) \
	    < /dev/null > build/fuzz/$(t).log 2>&1; rc=$$?; \
	  grep -E '^(#[0-9]+.*DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' build/fuzz/$(t).log; \
	  [ $$rc = 0 ] || { echo "make fuzz: $(t) failed (build/fuzz/$(t).log)" >&2; exit 1; };)

# No include runs upward through the layers (build-aux/check-layers.sh has the table); the
# checker itself must catch one planted in a scratch tree.
check-layers:
	@sh build-aux/check-layers.sh
	@for plant in 'cores/planted.c:sim/run/run.h' 'sim/base/planted.c:cores/isa/isa.h' 'cores/isa/planted.c:cores/core.h' \
	              'sim/os/planted.c:sim/run/run.h' 'sim/trace/planted.c:sim/machine/machine.h' \
	              'sim/cfront/planted.c:sim/workload/lock_find.h' 'sim/cfront/planted.c:cores/core.h' \
	              'sim/workload/planted.c:sim/machine/machine.h' 'sim/machine/planted.c:sim/report/run_report.h' \
	              'sim/report/planted.c:sim/run/run.h' 'sim/run/planted.c:sim/validation/verify.h' \
	              'sim/validation/planted.c:sim/sweep/sweep.h' 'sim/serve/planted.c:sim/cli/commands.h'; do \
	  t=$$(mktemp -d /tmp/qsim-layers.XXXXXX) && f=$${plant%%:*} && mkdir -p $$t/$$(dirname $$f) && \
	  echo "#include \"$${plant#*:}\"" > $$t/$$f && \
	  if sh build-aux/check-layers.sh $$t >/dev/null 2>&1; then rm -rf $$t; echo "check-layers: missed $$plant" >&2; exit 1; fi; \
	  rm -rf $$t; done; echo "check-layers: every planted upward include is caught"

# A staged install must find its configs and locks with the source tree out of reach, and
# hold the manual page, the bash completion (which must complete from the installed data)
# and the docs the help texts point at.
check-install: qsim
	@stage=$$(mktemp -d /tmp/qsim-stage.XXXXXX) && p=$$stage/opt/qsim && \
	$(MAKE) --no-print-directory install DESTDIR=$$stage PREFIX=/opt/qsim >/dev/null && \
	test -x $$p/bin/qsim && test -f $$p/share/qsim/configs/teaching.yaml && \
	(cd / && QSIM_CONFIG_PATH= $$p/bin/qsim list configs | grep -q '^teaching ') && \
	(cd / && QSIM_LOCK_PATH= $$p/bin/qsim list locks | grep -q '^qspin ') && \
	(cd / && $$p/bin/qsim config teaching >/dev/null) && \
	(cd / && $$p/bin/qsim validate --config magny-cours | grep -q "0 failed") && \
	test -f $$p/share/qsim/validation/sosp13.tsv && \
	head -n 2 $$p/share/man/man1/qsim.1 | grep -q '^\.TH QSIM 1' && \
	grep -q '^\.SS "qsim run' $$p/share/man/man1/qsim.1 && \
	bash -n $$p/share/bash-completion/completions/qsim && \
	r=$$(cd / && bash -c 'source '$$p'/share/bash-completion/completions/qsim; COMP_WORDS=('$$p'/bin/qsim run --config teach); COMP_CWORD=3; _qsim; echo "$${COMPREPLY[*]}"') && \
	test "$$r" = "teaching teaching-bus" && \
	test -f $$p/share/doc/qsim/isa.md && test -f $$p/share/doc/qsim/report.md && \
	(cd / && $$p/bin/qsim run --help | grep -q "$$p/share/doc/qsim/isa.md") && \
	rm -rf $$stage && echo "check-install: a staged install finds its data, man page, completion and docs"

# A source tree that is not a git checkout (an unpacked tarball) still builds, and its qsim
# says the commit is unknown: sim/base/version.c, which holds it, compiled in a copy without .git.
check-tarball:
	@t=$$(mktemp -d /tmp/qsim-tarball.XXXXXX) && \
	tar -cf - --exclude=./.git --exclude=./build --exclude=./qsim . | tar -xf - -C $$t && \
	$(MAKE) --no-print-directory -s -C $$t build/sim/base/version.o && \
	grep -q '"unknown"' $$t/build/gen/qsim_commit.h && \
	rm -rf $$t && echo "check-tarball: a tree without git builds, commit unknown"

# The seed's question answered: qspin against qspin-cmpxchg on haswell, workloads A and B, 2 to
# 8 threads, each row a ratio with its interval over seeds and a sentence (sim/run/compare.h).
run: qsim
	./qsim compare --config haswell --lock qspin --vs qspin-cmpxchg

# The reference pages generated from qsim's own tables (a test fails when one is stale).
docs: qsim
	./qsim config --reference > docs/config.md
	./qsim list options > docs/workload.md
	./qsim list counters > docs/counters.md
	sh build-aux/validation-doc.sh ./qsim docs/validation.md
	./qsim list report > docs/report.md
	python3 build-aux/report-schema.py > docs/report.schema.json

# The live page's screenshots in docs/images (live-CONFIG-WxH.png, 1024x768 and 1600x1000), taken
# by the browser test of `qsim serve` (tests/test_serve.c) when asked, not on every check.
docs-images: $(B)/check_qsim $(B)/qsim
	QSIM_DOCS_IMAGES=$(CURDIR)/docs/images CK_RUN_CASE=serve $(TEST_ENV) QSIM_BIN=$(CURDIR)/$(B)/qsim $(B)/check_qsim serve

# Rewrites tests/golden/ from qsim's own output, after a change meant to change a trace, a
# protocol page or the spinlock report (os_model's case `unchanged`; read `git diff tests/golden`
# before committing it: a golden that differs fails its test with the first lines that differ).
golden: $(B)/check_qsim $(B)/qsim
	for s in trace protocol_doc os_model:unchanged; do \
	  env QSIM_UPDATE_GOLDEN=1 CK_RUN_SUITE=$${s%%:*} $$(case $$s in *:*) echo CK_RUN_CASE=$${s#*:};; esac) \
	    QSIM_BIN=$(CURDIR)/$(B)/qsim QSIM_SRCDIR=$(CURDIR) $(TEST_CACHE) $(B)/check_qsim || exit 1; done

# Simulation cost in CPU time and memory over locks, thread counts and configs; the table goes
# into docs/performance.md (long measurements live here, not in `make check`).
bench: qsim
	sh build-aux/bench.sh ./qsim docs/performance.md
	sh build-aux/bench-verify.sh ./qsim docs/verify.md

# Regenerates the studies' tables from qsim's own runs: docs/study-qspin-cmpxchg.md and
# docs/study-adaptive-mutex.md (the glibc seed's sweep, sweeps/adaptive-mutex.yaml).
study: qsim
	sh build-aux/study.sh ./qsim docs/study-qspin-cmpxchg.md
	sh build-aux/study-adaptive-mutex.sh ./qsim docs/study-adaptive-mutex.md

install: qsim build/qsim.1 build/qsim.bash
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/configs $(DESTDIR)$(DATADIR)/locks $(DESTDIR)$(DATADIR)/scenarios \
	  $(DESTDIR)$(DATADIR)/sweeps \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DOCDIR)/images
	install -m 755 qsim $(DESTDIR)$(BINDIR)/qsim
	install -m 644 build/qsim.1 $(DESTDIR)$(MANDIR)/man1/qsim.1
	install -m 644 build/qsim.bash $(DESTDIR)$(BASHCOMPDIR)/qsim
	install -m 644 docs/*.md docs/report.schema.json $(DESTDIR)$(DOCDIR)/
	install -m 644 docs/images/*.png $(DESTDIR)$(DOCDIR)/images/
	install -m 644 configs/*.yaml $(DESTDIR)$(DATADIR)/configs/
	if ls locks/*.qs >/dev/null 2>&1; then install -m 644 locks/*.qs $(DESTDIR)$(DATADIR)/locks/; fi
	install -m 644 scenarios/*.qs $(DESTDIR)$(DATADIR)/scenarios/
	install -m 644 sweeps/*.yaml $(DESTDIR)$(DATADIR)/sweeps/
	install -d $(DESTDIR)$(DATADIR)/validation
	install -m 644 tests/validation/*.tsv $(DESTDIR)$(DATADIR)/validation/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/qsim $(DESTDIR)$(MANDIR)/man1/qsim.1 $(DESTDIR)$(BASHCOMPDIR)/qsim
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

# clean keeps the caches under build/ (natively compiled programs, build/cache, keyed by what
# decides them; make fuzz's grown corpora, build/fuzz/corpus); distclean removes them too, and
# with them everything the build writes (all of it under build/, but ./qsim).
BUILD_CACHES := build/cache build/fuzz/corpus
clean:
	rm -rf qsim qsim.tmp $(filter-out $(BUILD_CACHES) build/fuzz,$(wildcard build/*)) \
	  $(filter-out $(BUILD_CACHES),$(wildcard build/fuzz/*))

distclean: clean
	rm -rf build

# The targets, a line each (a test holds it to the Makefile's .PHONY list and to HACKING.md).
help:
	@echo 'make [TARGET] [V=1]    (HACKING.md: how to work on qsim)'
	@echo '  all            ./qsim, with build/qsim.1 and build/qsim.bash (the default)'
	@echo '  qsim           ./qsim only (objects under build/)'
	@echo '  run            build, then answer the seed'"'"'s question (qsim compare)'
	@echo '  check          every test: check-layers, -unit, -install, -tarball, -asan, -fuzz-corpus'
	@echo '  check-suite    SUITE=NAME [CASE=NAME]: build, then run one suite as make check does'
	@echo '  check-unit     every suite (CHECK_JOBS processes, CK_TIMEOUT_MULTIPLIER)'
	@echo '  check-asan     the ASAN_SUITES under AddressSanitizer/UBSan (build/asan)'
	@echo '  check-layers   no #include runs upward (build-aux/check-layers.sh)'
	@echo '  check-install  a staged install finds its data, man page, completion and docs'
	@echo '  check-tarball  a tree without git builds'
	@echo '  check-fuzz-corpus  each fuzz corpus once through the sanitizer build'
	@echo '  fuzz           each input format under libFuzzer for FUZZ_SECONDS (clang)'
	@echo '  fuzz-build     the fuzz targets only (build/fuzz)'
	@echo '  docs           regenerate the reference pages in docs/ from qsim'"'"'s tables'
	@echo '  docs-images    the live page'"'"'s screenshots, into docs/images (headless Chromium)'
	@echo '  golden         rewrite tests/golden/ from qsim'"'"'s output (read the diff)'
	@echo '  bench          simulation cost, into docs/performance.md; verify times, into docs/verify.md'
	@echo '  study          the studies'"'"' tables, into docs/study-*.md'
	@echo '  install        PREFIX=/usr/local DESTDIR=: binary, data, qsim(1), completion, docs'
	@echo '  uninstall      remove what install put there'
	@echo '  clean          remove what the build made, but its caches'
	@echo '  distclean      clean, and the caches (build/ entirely)'
	@echo '  help           this list'

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(B)/sim/cli/main.d
