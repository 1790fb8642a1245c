#!/bin/bash
# Signals while a profile is fetched and while pprof-c saves it under
# PPROF_TMPDIR (as pprof, every fetched profile is kept there): SIGTERM,
# SIGINT or SIGHUP mid-fetch end the run with 128 + the signal and leave
# nothing; one that comes while the save writes its temporary waits for
# the save to finish (signals are held then), so the saved profile is
# whole and no temporary is left. The server (tests/cli/trickle_server.py)
# trickles the body, or sends it at once; the profile carries 40 MB of
# random bytes (a comment) so that writing the save takes a while.
. "$(dirname "$0")/lib.sh"
require python3 python3
PROF="$TMP/big.pb"
python3 - "$PROF" <<'EOP'
import os, sys
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)
def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload
strings = [b"", b"samples", b"count", b"main", os.urandom(40 << 20)]
p = [field(1, b"\x08\x01\x10\x02"),
     field(5, b"\x08\x01\x10\x03"),
     field(4, b"\x08\x01" + field(4, b"\x08\x01")),
     field(2, field(1, b"\x01") + field(2, b"\x07")),
     b"\x68\x04"]
p += [field(6, s) for s in strings]
open(sys.argv[1], "wb").write(b"".join(p))
EOP
run top "$PROF"
expect_status 0 "the profile"
cp "$TMP/out" "$TMP/want"

start_server python3 -u "$SRCDIR/tests/cli/trickle_server.py" "$PROF" ||
	{ bad "server did not start: $(cat "$TMP/server.err")"; finish; }
PORT=$LISTEN
SAVE="$TMP/save"
export PPROF_TMPDIR="$SAVE"

# Mid-fetch: the body has begun; a signal ends the run, nothing is saved.
mid_fetch() {
	local sig=$1 want=$2 pid rc
	rm -rf "$SAVE"
	: >"$TMP/server.out"
	env --default-signal="$sig" "$PPROF_C" top "http://127.0.0.1:$PORT/trickle" \
		>/dev/null 2>"$TMP/err" </dev/null &
	pid=$!
	for _ in $(seq 100); do grep -q trickling "$TMP/server.out" && break; sleep 0.1; done
	sleep 0.3
	kill -0 $pid 2>/dev/null && ok || bad "SIG$sig mid-fetch: the fetch had ended"
	kill -s "$sig" $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	if [ $rc = "$want" ]; then ok; else bad "SIG$sig mid-fetch: status $rc, want $want"; fi
	if [ -z "$(ls -A "$SAVE" 2>/dev/null)" ]; then ok; else
		bad "SIG$sig mid-fetch: left in PPROF_TMPDIR: $(ls -A "$SAVE")"
	fi
}
mid_fetch TERM 143
mid_fetch INT 130
mid_fetch HUP 129

# Mid-save: as soon as the save's temporary shows, a signal. The save
# goes on to its end (the file whole, its temporary gone), then the
# signal ends the run before "Saved profile in" is printed.
mid_save() {
	local sig=$1 want=$2 pid rc i seen=
	rm -rf "$SAVE"
	env --default-signal="$sig" "$PPROF_C" top "http://127.0.0.1:$PORT/fast" \
		>/dev/null 2>"$TMP/err" </dev/null &
	pid=$!
	for ((i = 0; i < 60000; i++)); do
		if compgen -G "$SAVE/*.pprof-c-*" >/dev/null; then
			seen=yes
			break
		fi
		kill -0 $pid 2>/dev/null || break
		sleep 0.001
	done
	kill -s "$sig" $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	if [ -z "$seen" ]; then
		bad "SIG$sig mid-save: the save's temporary never showed (status $rc; $(cat "$TMP/err"))"
		return
	fi
	if [ $rc = "$want" ]; then ok; else bad "SIG$sig mid-save: status $rc, want $want"; fi
	if compgen -G "$SAVE/*.pprof-c-*" >/dev/null; then
		bad "SIG$sig mid-save: temporary left: $(ls -A "$SAVE")"
	else ok; fi
	saved=$(compgen -G "$SAVE/pprof.*.pb.gz")
	if [ "$(echo "$saved" | grep -c .)" = 1 ]; then ok; else
		bad "SIG$sig mid-save: want one saved profile, got: $(ls -A "$SAVE")"
		return
	fi
	! grep -q '^Saved profile in' "$TMP/err" && ok ||
		bad "SIG$sig mid-save: the run went on after the save"
	run top "$saved"
	expect_status 0 "SIG$sig mid-save: the saved profile"
	expect_same "$TMP/want" "$TMP/out" "SIG$sig mid-save: the saved profile's top"
}
mid_save TERM 143
mid_save INT 130
mid_save HUP 129
finish
