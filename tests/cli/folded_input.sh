#!/bin/bash
# Folded stacks as input: from a file and stdin, -folded_type, and
# -diff_base of two folded files, with exact values.
. "$(dirname "$0")/lib.sh"
A="$TMP/a.folded"
B="$TMP/b.folded"
printf 'main;serve;parse 42\nmain;serve;write 7\nmain;gc 1\n' >"$A"
printf 'main;serve;parse 20\nmain;serve;write 7\n' >"$B"

run -top "$A"
expect_status 0 "top of folded stacks"
if grep -q '^Type: samples$' "$TMP/out" &&
	grep -q '^Showing nodes accounting for 50, 100% of 50 total$' "$TMP/out" &&
	grep -Eq '^ +42 84\.00% 84\.00% +42 84\.00%  parse$' "$TMP/out" &&
	grep -Eq '^ +0 +0% +100% +49 98\.00%  serve$' "$TMP/out"; then
	ok
else
	bad "folded: 50 samples, 42 in parse, 49 under serve"
fi
"$PPROF_C" -traces - <"$A" >"$TMP/out" 2>"$TMP/err"
RC=$?
expect_status 0 "folded stacks on stdin"
if grep -Eq '^ +7   write$' "$TMP/out"; then ok; else bad "stdin: the write stack"; fi
run -top -folded_type=cpu/nanoseconds "$A"
if grep -q '^Type: cpu$' "$TMP/out" &&
	grep -Eq '^ +42ns 84\.00% 84\.00% +42ns 84\.00%  parse$' "$TMP/out"; then
	ok
else
	bad "-folded_type=cpu/nanoseconds"
fi
run -top -diff_base="$B" "$A"
expect_status 0 "-diff_base of two folded files"
if grep -Eq '^ +22 81\.48% 81\.48% +22 81\.48%  parse$' "$TMP/out" &&
	! grep -q 'write' "$TMP/out"; then
	ok
else
	bad "-diff_base: parse grew by 22, write unchanged"
fi
finish
