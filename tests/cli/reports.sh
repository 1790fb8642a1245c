#!/bin/bash
# The text reports beyond top: both command forms, regex errors, merging.
. "$(dirname "$0")/lib.sh"
CPU="$SRCDIR/testdata/go/cpu.pb.gz"
TC="$SRCDIR/testdata/go/threadcreate.pb.gz"

# `NAME [ARG] PROFILE` and Go-style `-NAME[=ARG] PROFILE` are one report.
for r in traces tags raw comments tree; do
	run "$r" "$CPU"
	cp "$TMP/out" "$TMP/a"
	expect_status 0 "$r positional"
	run "-$r" "$CPU"
	expect_status 0 "-$r"
	expect_same "$TMP/a" "$TMP/out" "$r forms"
done
run peek 'main\.mix' "$CPU"
cp "$TMP/out" "$TMP/a"
run -peek='main\.mix' "$CPU"
expect_same "$TMP/a" "$TMP/out" "peek forms"
run -peek 'main\.mix' "$CPU"
expect_same "$TMP/a" "$TMP/out" "peek forms (separate argument)"

# No match: pprof's message, exit 1, nothing on stdout.
run -peek='^nosuchfunction$' "$CPU"
expect_status 1 "peek without match"
expect_err_line '^pprof-c: no matches found for regexp: \^nosuchfunction\$$' "peek without match"
expect_no_stdout "peek without match"
run -peek='main\.' "$TC"
expect_status 1 "peek on a profile without stacks"

# A bad regex is a usage error naming the regex.
run -peek='main(' "$CPU"
expect_status 2 "bad peek regex"
expect_err_line '^pprof-c: parsing argument regexp main\(: .*' "bad peek regex"
expect_no_stdout "bad peek regex"

# peek needs its regex.
run peek
expect_status 2 "peek without regex"

# Merging a profile with itself doubles every sample and adds nothing.
run -raw "$CPU"
grep -c '^ *[0-9]* *[0-9]*: ' "$TMP/out" >"$TMP/n1"
run -raw "$CPU" "$CPU"
expect_status 0 "raw of a profile merged with itself"
grep -c '^ *[0-9]* *[0-9]*: ' "$TMP/out" >"$TMP/n2"
expect_same "$TMP/n1" "$TMP/n2" "merged samples counted once"

# -output writes the report atomically, like top's.
run -traces -output "$TMP/t.txt" "$CPU"
expect_status 0 "traces -output"
run -traces "$CPU"
expect_same "$TMP/out" "$TMP/t.txt" "traces -output"

finish
