#!/bin/bash
# The web server under load: 50 clients for 10 s over loopback
# (tests/cli/web_load.py), rotating over every view and data request,
# refines and sample types among them, with each asked for once first.
# Every answer is a 200 with a body, the server stays up and stops cleanly
# on SIGINT, and its peak memory stays where the first requests left it:
# they filled the session's cache, whose bound is a count of entries (2
# filtered profiles, 4 aggregates: src/session/session.h), so the load may
# add only what 50 connections hold at once (4 MiB allowed).
# bench/web.sh runs the same load with wrk on the large bench profile.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
CPU="$SRCDIR/testdata/go/cpu.pb.gz"
PATHS=("/api/flame?width=1200" "/api/top" "/ui/flamegraph" "/static/app.js"
	"/api/flame?width=1200&root=1" "/api/top?si=samples"
	"/api/flame?width=1200&f=runtime" "/ui/top" "/ui/" "/ui/peek"
	"/ui/source?f=main.mix" "/download" "/api/flame?width=1200&h=runtime"
	"/api/top?si=cpu&i=runtime" "/ui/top?f=compress&s=main")

# ASan's quarantine holds freed blocks back (256 MB by default), which
# would look like growth: none here, so RSS means what it means.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0" \
	serve_web -http=127.0.0.1:0 "$CPU"
[ -n "$URL" ] || { bad "the server did not start: $(cat "$TMP/serve.err")"; finish; }
trap 'kill $PID 2>/dev/null; rm -rf "$TMP"' EXIT

# Each path once: every answer is 200, and the caches fill.
for p in "${PATHS[@]}"; do
	code=$(curl -s -o /dev/null -w '%{http_code}' "$URL$p")
	[ "$code" = 200 ] && ok || bad "$p: status $code"
done
hwm() { awk '/^VmHWM:/ { print $2 }' /proc/$PID/status; }
before=$(hwm)

python3 "$SRCDIR/tests/cli/web_load.py" "$URL" 10 50 "${PATHS[@]}" >"$TMP/load" 2>&1
read -r requests errors <"$TMP/load"
if [ "${errors:-x}" = 0 ] && [ "${requests:-0}" -ge 50 ]; then ok; else
	bad "load: ${requests:-?} requests, ${errors:-?} errors: $(tail -n +2 "$TMP/load" | head -5)"
fi
after=$(hwm)
if [ -n "$after" ] && [ "$after" -le $((before + 4096)) ]; then ok; else
	bad "peak RSS grew under load: ${before} KiB after the first requests, ${after:-?} KiB after"
fi
echo "load: $requests requests in 10 s, peak RSS ${before} -> ${after} KiB"

kill -INT $PID
wait $PID
rc=$?
[ "$rc" -eq 0 ] && ok || bad "SIGINT after the load: exit status $rc"
finish
