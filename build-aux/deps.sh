#!/bin/sh
# Installs (as root) or names (otherwise) the Debian packages qsim builds and tests with.
# Called by `make` with its goals; prints nothing when everything is present.  `make fuzz` also
# needs clang with libFuzzer (`make check` does not: it runs the fuzz corpora with cc).
# pkg-config name -> Debian package, one per line.
set -u
pkgs=""
need() { pkg-config --exists "$1" 2>/dev/null || pkgs="$pkgs $2"; }
command -v pkg-config >/dev/null 2>&1 || pkgs="$pkgs pkg-config"
command -v cc >/dev/null 2>&1 || pkgs="$pkgs gcc"
need glib-2.0 libglib2.0-dev
need yaml-0.1 libyaml-dev
need check check
need json-glib-1.0 libjson-glib-dev
# libsoup 3 serves the live page (`qsim serve`): installed as root with the rest; without it
# (and not root) qsim still builds, and `qsim serve` and its tests say what to install.
optional=""
pkg-config --exists libsoup-3.0 2>/dev/null || optional="$optional libsoup-3.0-dev"
# `qsim sweep --plot` draws with gnuplot, and `make check` tests the plots, so it is a normal
# dependency (--with-plot, its old opt-in, is still accepted and changes nothing).
command -v gnuplot >/dev/null 2>&1 || pkgs="$pkgs gnuplot-nox"
# `make check` opens the trace's step-through page in a real browser (headless), renders
# `qsim protocol`'s state diagram with Graphviz, reads the man page with groff, runs the bash
# completion, and compares --version with git's commit in a checkout.  A test missing one of
# these fails under CI=true and is skipped (counted) otherwise (tests/skip.h).
command -v chromium >/dev/null 2>&1 || pkgs="$pkgs chromium"
command -v dot >/dev/null 2>&1 || pkgs="$pkgs graphviz"
command -v groff >/dev/null 2>&1 || pkgs="$pkgs groff-base"
command -v bash >/dev/null 2>&1 || pkgs="$pkgs bash"
# A lock in C for an arm64 target is compiled by Debian's AArch64 cross compiler; `make check`
# also runs the AArch64 translator's forms for real under qemu-user (tests/test_cfront_arm64.c).
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || pkgs="$pkgs gcc-aarch64-linux-gnu"
command -v qemu-aarch64 >/dev/null 2>&1 || pkgs="$pkgs qemu-user"
# and verifies Concurrency Kit's spinlocks from the system's headers (tests/test_cfront_ck.c).
[ -e /usr/include/ck_spinlock.h ] || pkgs="$pkgs libck-dev"
# and validates every mode's JSON against docs/report.schema.json with the reference validator
python3 -c 'import jsonschema' >/dev/null 2>&1 || pkgs="$pkgs python3-jsonschema"
[ ! -e .git ] || command -v git >/dev/null 2>&1 || pkgs="$pkgs git"
for goal in "$@"; do
    case "$goal" in
    fuzz|fuzz-build) command -v clang >/dev/null 2>&1 || pkgs="$pkgs clang";;
    esac
done
[ -z "$pkgs$optional" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "qsim: installing build dependencies:$pkgs$optional" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 && apt-get install -y -qq $pkgs $optional >&2 && exit 0
  [ -z "$pkgs" ] && { echo "qsim: could not install$optional: building without the live page (qsim serve)" >&2; exit 0; }
  echo "qsim: apt-get failed; install by hand:" >&2
fi
if [ -z "$pkgs" ]; then
  echo "qsim: building without the live page (qsim serve); for it: sudo apt-get install$optional" >&2
  exit 0
fi
echo "qsim: missing build dependencies. Run:" >&2
echo "  sudo apt-get install$pkgs$optional" >&2
exit 1
