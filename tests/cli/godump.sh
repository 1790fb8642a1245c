#!/bin/bash
# Goroutine dumps (testdata/dumps, from testdata/gen/dumps): every report
# reads them, a tag filter finds the goroutines in a state, and the counts
# agree with the debug=1 profile the same process wrote a moment before
# (testdata/legacy/go-goroutine.txt: 9 goroutines).
. "$(dirname "$0")/lib.sh"
D="$SRCDIR/testdata/dumps"

run -top "$D/goroutine.debug2.txt"
expect_status 0 "top of a debug=2 dump"
if grep -q '^Showing nodes accounting for 9, 100% of 9 total$' "$TMP/out" &&
	grep -Eq '^ +3 33\.33% 33\.33% +3 33\.33%  main\.waitOnChannel$' "$TMP/out"; then
	ok
else
	bad "debug=2 dump: 9 goroutines, 3 in main.waitOnChannel"
fi
run -top "-tagfocus=state=IO wait" "$D/goroutine.debug2.txt"
expect_status 0 "-tagfocus=state=IO wait"
if grep -q '^Showing nodes accounting for 1, 11.11% of 9 total$' "$TMP/out" &&
	grep -Eq '^ +1 11\.11% 11\.11% +1 11\.11%  internal/poll\.runtime_pollWait$' "$TMP/out"; then
	ok
else
	bad "-tagfocus=state=IO wait: the one goroutine in Accept"
fi
run -tags -tagfocus=locked=true "$D/sigquit.txt"
expect_status 0 "tags of a SIGQUIT dump"
if grep -q 'locked: Total 1.0' "$TMP/out" &&
	grep -Eq '1\.0 \(  100%\): main\.park' "$TMP/out"; then
	ok
else
	bad "SIGQUIT dump: one goroutine locked to its thread, made by main.park"
fi
for r in traces raw tree flame folded speedscope; do
	run "-$r" -output="$TMP/o" "$D/panic.txt"
	expect_status 0 "$r of a panic dump"
done
run -top -focus=main.explode "$D/panic.txt"
if grep -Eq '^ +1 +100% +100% +1 +100%  main\.explode$' "$TMP/out" ||
	grep -Eq '^ +1 11\.11% 11\.11% +1 11\.11%  main\.explode$' "$TMP/out"; then
	ok
else
	bad "panic dump: the panicking goroutine's main.explode"
	cat "$TMP/out"
fi
finish
