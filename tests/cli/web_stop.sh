#!/bin/bash
# A stop signal ends the web server at once while it builds the flame
# graph's trees (the top of the tree before the first page, the whole tree
# once the page has its data), not when the build is done. The whole tree
# of a 480,000-sample profile is built after the first page's request;
# a request made meanwhile waits for it, which measures how long the build
# takes in this run, and a stop then how long the server takes to go once
# idle (freeing a tree costs time of its own: under ASan, poisoning every
# byte of every big block freed). A server stopped at the same moment
# must be gone within that and a third of the build's time, with status 0
# and (under ASan) nothing leaked.
. "$(dirname "$0")/lib.sh"
require curl curl
# The server gets SIGINT's default disposition (our handler then catches
# it): a script's background job starts with SIGINT ignored, which no
# user's terminal does, and an ignored SIGINT waits for the build.
env --default-signal=SIGINT true 2>/dev/null ||
	{ echo "SKIP: web_stop: env has no --default-signal (coreutils >= 8.31)"; exit 77; }
if ! cc -O1 -o "$TMP/genprof" "$SRCDIR/bench/genprof.c" -lz 2>"$TMP/cc.err" ||
	! "$TMP/genprof" --small -o "$TMP/small.pb.gz" 2>/dev/null; then
	echo "SKIP: web_stop: cannot build bench/genprof.c: $(head -1 "$TMP/cc.err")"
	exit 77
fi

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# start: a server on the profile, its first page's data fetched, and half a
# second later (past the quiet moment the whole tree waits for) the time
# in $T0; the server's pid in $PID.
# Without MALLOC_PERTURB_ (meson sets it for every test): glibc then
# writes every byte malloc hands out, so the tree builder's one-time
# reservation of its node array, which the build only partly touches,
# costs a second of writes that no user's run pays and that no stop
# signal can cut short (ASan's allocator ignores it, which is why a
# sanitized build passed and a plain one did not).
start() {
	SERVE_WRAP="env -u MALLOC_PERTURB_ --default-signal=SIGINT" \
		serve_web -http=127.0.0.1:0 "$TMP/small.pb.gz"
	[ -n "$URL" ] || { bad "the server did not start: $(cat "$TMP/serve.err")"; finish; }
	curl -s -o /dev/null "$URL/api/flame?width=1200"
	sleep 0.5
	T0=$(now_ms)
}

# How long the whole tree takes from there: /api/top waits for it.
start
curl -s -o /dev/null "$URL/api/top"
build=$(($(now_ms) - T0))
T1=$(now_ms)
kill -INT $PID
wait $PID
RC=$?
idle=$(($(now_ms) - T1))
expect_status 0 "SIGINT after the whole tree"

for sig in INT TERM; do
	start
	kill -$sig $PID
	wait $PID
	RC=$?
	took=$(($(now_ms) - T0))
	expect_status 0 "SIG$sig while the whole tree is built"
	if [ "$build" -lt 300 ]; then
		part_skipped "the whole tree took only $build ms here: too little to tell a stop during it from one after"
	elif [ $(((took - idle) * 3)) -lt "$build" ]; then
		ok
	else
		bad "SIG$sig while the whole tree is built: stopped after $took ms; the build takes $build ms, a stop once idle $idle ms"
	fi
	if grep -q "ERROR\|runtime error" "$TMP/serve.err"; then
		bad "SIG$sig: $(grep -m1 "ERROR\|runtime error" "$TMP/serve.err")"
	else
		ok
	fi
done
finish
