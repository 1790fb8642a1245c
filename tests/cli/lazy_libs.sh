#!/bin/bash
# capstone, libmicrohttpd and graphviz (like libcurl, tests/cli/lazy_curl.sh)
# are opened by the commands that need them, never by the others
# (pprof/dynlib.h): the dynamic loader's own log (glibc's LD_DEBUG=files)
# shows which shared objects a run opens. Then, where a mount namespace can
# be made (root, unshare), each library is made unloadable (an empty file
# bound over it, in that namespace only): the command that needs it fails
# with one line naming it and status 1 (and, under ASan, no leak), and top
# still runs. Skipped (77) where the loader keeps no log; the second part
# is reported skipped where no namespace can be made.
. "$(dirname "$0")/lib.sh"
CPU=$SRCDIR/testdata/go/cpu.pb.gz
NATIVE=$SRCDIR/testdata/native
DISASM=(disasm hash_loop "$NATIVE/cprog-pie" "$NATIVE/cprog-pie.cpu.prof")
# The libraries opened on first use, and what libmicrohttpd brought.
LAZY='libcapstone|libmicrohttpd|libgnutls|libgvc|libcgraph|libcurl'

# opened ARGS...: the shared objects a run of pprof-c opens, one a line
# (a path where the loader names one).
opened() {
	LD_DEBUG=files PPROF_BINARY_PATH=$NATIVE "$PPROF_C" "$@" 2>&1 \
		>/dev/null </dev/null |
		sed -n 's/.*file=\([^ ]*\).*/\1/p' | sort -u
}

opened --version >"$TMP/version"
grep -q 'libc\.so' "$TMP/version" || { echo "SKIP: no LD_DEBUG log from the dynamic loader"; exit 77; }

# Runs that need none of them (dot is text: no graphviz).
n=0
for args in "--version" "top $CPU" "top -lines $CPU" "dot $CPU" "traces $CPU" "raw $CPU"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	opened $args >"$TMP/none.$n"
	if grep -Eq "$LAZY" "$TMP/none.$n"; then
		bad "$args opened $(grep -E "$LAZY" "$TMP/none.$n" | tr '\n' ' ')"
	else ok; fi
done

# path OPENED SONAME: where the loader found SONAME in a run's log.
path() {
	grep -m1 "/$2\$" "$1"
}
# Each library by the command that needs it, and not the others.
opened "${DISASM[@]}" >"$TMP/disasm"
opened svg "$CPU" >"$TMP/svg"
# A malformed address: the server is not started, after opening
# libmicrohttpd (its first step).
opened -http=nocolon "$CPU" >"$TMP/http"
opened top http://127.0.0.1:1/profile >"$TMP/fetch"
CAPSTONE=$(path "$TMP/disasm" libcapstone.so.4)
GVC=$(path "$TMP/svg" libgvc.so.6)
CGRAPH=$(path "$TMP/svg" libcgraph.so.6)
MHD=$(path "$TMP/http" libmicrohttpd.so.12)
CURL=$(path "$TMP/fetch" libcurl.so.4)
for want in "disasm CAPSTONE" "svg GVC" "svg CGRAPH" "http MHD" "fetch CURL"; do
	set -- $want
	if [ -n "${!2}" ]; then ok; else
		bad "$1 did not open its library: $(grep -E "$LAZY" "$TMP/$1" | tr '\n' ' ')"
	fi
done
if grep -Eq 'libmicrohttpd|libgvc|libcgraph|libcurl' "$TMP/disasm"; then
	bad "disasm opened $(grep -E "$LAZY" "$TMP/disasm" | tr '\n' ' ')"
else ok; fi
if grep -Eq 'libcapstone|libmicrohttpd|libcurl' "$TMP/svg"; then
	bad "svg opened $(grep -E "$LAZY" "$TMP/svg" | tr '\n' ' ')"
else ok; fi

# hidden "FILES" ARGS...: run pprof-c ARGS (as run does) in a mount
# namespace of its own where each of FILES (space-separated) is empty.
hidden() {
	local files=$1
	shift
	PPROF_BINARY_PATH=$NATIVE unshare -m sh -c \
		'for f in $1; do mount --bind /dev/null "$f" || exit 99; done
		shift; exec "$@"' sh "$files" "$PPROF_C" "$@" \
		>"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
}
# expect_fails DESCRIPTION REGEX: status 1, nothing on stdout, stderr the
# one line REGEX.
expect_fails() {
	expect_status 1 "$1"
	expect_no_stdout "$1"
	expect_err_line "$2" "$1"
}

if [ -z "$CAPSTONE$GVC$CGRAPH$MHD" ] || ! unshare -m sh -c 'mount --bind /dev/null "$1"' sh "$CAPSTONE" 2>/dev/null; then
	part_skipped "no mount namespace here (unshare -m, as root): libraries not made unloadable"
	finish
fi
# The error names the library; the rest is dlerror's ("file too short").
hidden "$CAPSTONE" "${DISASM[@]}"
expect_fails "disasm without capstone" '^pprof-c: disassembly needs libcapstone\.so\.4: .*file too short$'
hidden "$CAPSTONE" weblist hash_loop "$NATIVE/cprog-pie" "$NATIVE/cprog-pie.cpu.prof"
expect_fails "weblist without capstone" '^pprof-c: disassembly needs libcapstone\.so\.4: '
hidden "$GVC" svg "$CPU"
expect_fails "svg without libgvc" '^pprof-c: svg needs libgvc\.so\.6: .*file too short$'
hidden "$CGRAPH" png "$CPU"
expect_fails "png without libcgraph" '^pprof-c: png needs libcgraph\.so\.6: .*file too short$'
hidden "$MHD" -http=127.0.0.1:0 -no_browser "$CPU"
expect_fails "-http without libmicrohttpd" '^pprof-c: -http needs libmicrohttpd\.so\.12: .*file too short$'
if [ -n "$CURL" ]; then
	curls=$CURL
	[ -e "$(dirname "$CURL")/libcurl-gnutls.so.4" ] && curls="$curls $(dirname "$CURL")/libcurl-gnutls.so.4"
	hidden "$curls" top http://127.0.0.1:1/profile
	expect_fails "a fetch without libcurl" '^pprof-c: http://127\.0\.0\.1:1/profile: cannot start libcurl: libcurl\.so\.4: .*file too short$'
fi
# The commands that need none of them run without them all.
"$PPROF_C" top "$CPU" >"$TMP/top.want" 2>&1
hidden "$CAPSTONE $GVC $CGRAPH $MHD $CURL" top "$CPU"
expect_status 0 "top without the lazy libraries"
expect_same "$TMP/out" "$TMP/top.want" "top without the lazy libraries"
finish
