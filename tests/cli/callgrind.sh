#!/bin/bash
# callgrind and kcachegrind: both command forms, callgrind_annotate reading
# the file with the totals of top, and kcachegrind started (or not) as the
# machine allows. The format itself is pinned byte for byte against pprof
# by tests/golden/callgrind.cases.
. "$(dirname "$0")/lib.sh"
CPU="$SRCDIR/testdata/go/cpu.pb.gz"
HEAP="$SRCDIR/testdata/go/heap.pb.gz"

run callgrind "$CPU"
expect_status 0 "callgrind"
cp "$TMP/out" "$TMP/cg"
run -callgrind "$CPU"
expect_same "$TMP/cg" "$TMP/out" "callgrind forms"
if head -2 "$TMP/cg" | tr '\n' '|' | grep -qx 'positions: instr line|events: cpu(ms)|'; then ok; else
	bad "callgrind header: $(head -2 "$TMP/cg")"
fi

# callgrind_annotate (valgrind 3.19) adds the cost line after a "calls=0"
# record to the caller's own cost: only a positive count marks a call's
# inclusive cost, and pprof writes 0 ("pprof doesn't have a flat weight
# for a call"). Our file is pprof's byte for byte, so the count is made 1
# here; then its program total is top's total and each function's own
# cost top's flat.
total_of() { # PROFILE UNIT: top's total in UNIT, digits only
	"$PPROF_C" -top -nodecount=1 -unit="$2" "$1" | sed -n 's/.* of \([0-9]*\)[a-zA-Z]* total$/\1/p'
}
annotate() { # FILE: callgrind_annotate's program total, digits only
	sed 's/^calls=0 /calls=1 /' "$1" >"$TMP/cg1"
	callgrind_annotate "$TMP/cg1" | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,
}
if command -v callgrind_annotate >/dev/null; then
	want=$(total_of "$CPU" ms)
	got=$(annotate "$TMP/cg")
	if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else bad "callgrind_annotate total $got, top's $want ms"; fi
	# Its busiest function: runtime.asyncPreempt, 500 ms flat in top.
	flat=$(callgrind_annotate "$TMP/cg1" | grep -m1 'runtime.asyncPreempt ' | sed 's/^ *\([0-9,]*\) .*/\1/' | tr -d ,)
	if [ "$flat" = 500 ]; then ok; else bad "callgrind_annotate asyncPreempt $flat, top's flat 500"; fi
	run callgrind "$HEAP"
	want=$(total_of "$HEAP" b)
	got=$(annotate "$TMP/out")
	if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else bad "callgrind_annotate heap total $got, top's $want B"; fi
	if head -2 "$TMP/out" | grep -qx 'events: inuse_space(B)'; then ok; else bad "heap events line"; fi
else
	part_skipped "callgrind_annotate is not installed (Debian's valgrind)"
fi

# kcachegrind: the callgrind file in $TMPDIR/pprof-c.NNN.grind, opened
# only where there is a display and a kcachegrind to open it with.
mkdir "$TMP/t" "$TMP/bin" "$TMP/none"
env -u DISPLAY -u WAYLAND_DISPLAY -u BROWSER TMPDIR="$TMP/t" "$PPROF_C" kcachegrind "$CPU" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 0 "kcachegrind without a display"
expect_err_line "^pprof-c: no display .*nothing opened; the report is in $TMP/t/pprof-c.001.grind$" "kcachegrind without a display"
if [ "$(cat "$TMP/out")" = "$TMP/t/pprof-c.001.grind" ]; then ok; else bad "kcachegrind prints its file: $(cat "$TMP/out")"; fi
expect_same "$TMP/cg" "$TMP/t/pprof-c.001.grind" "kcachegrind's file"

printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s/called"\n' "$TMP" >"$TMP/bin/kcachegrind"
chmod +x "$TMP/bin/kcachegrind"
DISPLAY=:99 PATH="$TMP/bin:$PATH" TMPDIR="$TMP/t" "$PPROF_C" -kcachegrind "$CPU" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 0 "kcachegrind started"
expect_err_line "^pprof-c: opening $TMP/t/pprof-c.002.grind with kcachegrind$" "kcachegrind started"
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$TMP/called" ] && break; sleep 0.2; done
if [ "$(cat "$TMP/called" 2>/dev/null)" = "$TMP/t/pprof-c.002.grind" ]; then ok; else bad "kcachegrind's argument: $(cat "$TMP/called" 2>/dev/null)"; fi

DISPLAY=:99 PATH="$TMP/none" TMPDIR="$TMP/t" "$PPROF_C" kcachegrind "$CPU" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 0 "kcachegrind not installed"
expect_err_line "^pprof-c: nothing opened: kcachegrind is not installed; the report is in $TMP/t/pprof-c.003.grind$" "kcachegrind not installed"
# With -output the file is only written, as pprof does: nothing started.
rm -f "$TMP/called"
DISPLAY=:99 PATH="$TMP/bin:$PATH" TMPDIR="$TMP/t" "$PPROF_C" kcachegrind -output="$TMP/k.grind" "$CPU" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 0 "kcachegrind -output"
expect_err_line "^Generating report in $TMP/k.grind$" "kcachegrind -output"
expect_same "$TMP/cg" "$TMP/k.grind" "kcachegrind -output"
sleep 1
if [ ! -e "$TMP/called" ]; then ok; else bad "kcachegrind -output started the viewer"; fi

# The shell writes callgrind to the next profileNNN.callgraph.out, as
# pprof's shell does.
(cd "$TMP/t" && printf 'callgrind\n' | "$PPROF_C" "$CPU" >"$TMP/out" 2>"$TMP/err")
expect_same "$TMP/cg" "$TMP/t/profile001.callgraph.out" "shell callgrind"
finish
