# Shared helpers for the command-line tests. Each test script sources this,
# calls check_* functions, and ends with `finish`, which prints
# "NAME: N passed, N failed" and exits non-zero on any failure.
: "${PPROF_C:?PPROF_C must name the pprof-c binary}"
: "${SRCDIR:=$(pwd)}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PASSED=0
FAILED=0

# poll CMD...: run CMD every 0.1 s until it succeeds, 10 s at most;
# fails if it never did.
poll() {
	for _ in $(seq 100); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}
ok() { PASSED=$((PASSED + 1)); }
bad() {
	FAILED=$((FAILED + 1))
	echo "FAIL: $*"
}

# run ARGS...: runs pprof-c, leaving stdout in $TMP/out, stderr in $TMP/err
# and the exit status in $RC.
run() {
	"$PPROF_C" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
}

# expect_status WANT DESCRIPTION
expect_status() {
	if [ "$RC" -eq "$1" ]; then ok; else
		bad "$2: exit status $RC, want $1; stderr: $(head -c 300 "$TMP/err")"
	fi
}

# expect_err_line REGEX DESCRIPTION: stderr is exactly one line matching REGEX
expect_err_line() {
	local lines
	lines=$(wc -l <"$TMP/err")
	if [ "$lines" -eq 1 ] && grep -Eq -- "$1" "$TMP/err"; then ok; else
		bad "$2: stderr should be one line matching /$1/, got: $(cat "$TMP/err")"
	fi
}

expect_no_stdout() {
	if [ ! -s "$TMP/out" ]; then ok; else bad "$1: unexpected stdout"; fi
}

expect_same() {
	if cmp -s "$1" "$2"; then ok; else
		bad "$3: outputs differ"
		diff "$1" "$2" | head -10
	fi
}

# start_server COMMAND...: starts a test server in the background (its
# stdout in $TMP/server.out, stderr in $TMP/server.err), stopped when the
# test exits, and waits up to 10 s for its "listening on ADDRESS" line.
# Sets SERVER (its pid) and LISTEN (the address); returns 1 if it never
# said it listens.
start_server() {
	: >"$TMP/server.out" # as serve_web: never a previous server's line
	"$@" >"$TMP/server.out" 2>"$TMP/server.err" &
	SERVER=$!
	trap 'kill $SERVER 2>/dev/null; rm -rf "$TMP"' EXIT
	poll grep -q '^listening on ' "$TMP/server.out"
	LISTEN=$(sed -n 's/^listening on //p' "$TMP/server.out")
	[ -n "$LISTEN" ]
}

# serve_web ARGS...: starts `pprof-c -no_browser ARGS` (a web server) in
# the background, leaving its pid in $PID and its URL in $URL (empty if it
# did not come up within 60 s); its stderr goes to $TMP/serve.err.
# $SERVE_WRAP, when set, is a command to start it through (its words
# split: `env --default-signal=SIGINT`).
serve_web() {
	# Emptied here first: the child opens it only when it gets to run,
	# and the loop below must not read a previous server's URL meanwhile.
	: >"$TMP/serve.err"
	# shellcheck disable=SC2086
	${SERVE_WRAP:-} "$PPROF_C" -no_browser "$@" 2>"$TMP/serve.err" &
	PID=$!
	URL=
	for _ in $(seq 600); do
		URL=$(grep -o 'http://[^ ]*' "$TMP/serve.err" 2>/dev/null)
		[ -n "$URL" ] && return
		kill -0 $PID 2>/dev/null || return
		sleep 0.1
	done
}

# require COMMAND PACKAGE: the whole test needs COMMAND; without it the
# test reports SKIP (exit 77), never a pass.
require() {
	command -v "$1" >/dev/null && return 0
	echo "SKIP: $(basename "$0" .sh): $1 is not installed (Debian's $2; scripts/install-test-deps.sh installs it)"
	exit 77
}

# part_skipped WHY: a part of the test could not run here. Unless
# something failed, finish then reports SKIP (exit 77), not a pass.
SKIPPED_PARTS=
part_skipped() {
	echo "skipped: $*"
	SKIPPED_PARTS="$SKIPPED_PARTS${SKIPPED_PARTS:+; }$*"
}

finish() {
	echo "$(basename "$0" .sh): $PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ] || exit 1
	if [ -n "$SKIPPED_PARTS" ]; then
		echo "SKIP: not everything could run: $SKIPPED_PARTS"
		exit 77
	fi
	exit 0
}
