#!/bin/sh
# Builds a test's program, then runs it: `meson test` builds what it runs,
# and a plain `meson compile` builds only the tool.
#
# Why a wrapper: meson (1.0, Debian 12's, and later) puts every program a
# test() names into the default target, whatever its build_by_default says
# (its backend: "XXX: Sometime in the future these should be built only
# before running tests"). So tests/meson.build names this script instead,
# and the program is built here, on demand, by ninja.
#
# usage: built.sh NINJA BUILDDIR TARGET [ARG...]
#   TARGET is the program's path under BUILDDIR (ninja's name for it).
set -eu
ninja=$1 builddir=$2 target=$3
shift 3
# meson test runs tests in parallel, and two ninjas must never work in one
# build directory at once: take turns on a lock in meson's private dir.
lock="$builddir/meson-private/test-build.lock"
log="$builddir/meson-private/test-build.$$.log"
if ! (
	flock 9
	"$ninja" -C "$builddir" "$target" >"$log" 2>&1
) 9>"$lock"; then
	cat "$log" >&2
	rm -f "$log"
	echo "built.sh: could not build $target (above: ninja's output)" >&2
	# 99: meson's "hard error", never read as a pass, not even by a
	# test that is expected to fail.
	exit 99
fi
rm -f "$log"
exec "$builddir/$target" "$@"
