#!/bin/bash
# Filters, base and diff_base on the command line: bad regexes, bad values
# and bases that do not fit get one clear line and exit status 2; filters
# that match nothing warn (as pprof does) and still print the report.
. "$(dirname "$0")/lib.sh"
CPU="$SRCDIR/testdata/go/cpu.pb.gz"
HEAP="$SRCDIR/testdata/go/heap.pb.gz"
BEFORE="$SRCDIR/testdata/go/cpu_before.pb.gz"
AFTER="$SRCDIR/testdata/go/cpu_after.pb.gz"

for f in focus ignore hide show show_from prune_from tagshow taghide; do
	run top "-$f=main.(" "$CPU"
	expect_status 2 "bad -$f regex"
	expect_err_line "^pprof-c: parsing $f regexp main\.\(: missing closing parenthesis" "bad -$f regex"
	expect_no_stdout "bad -$f regex"
done
for f in tagfocus tagignore; do
	run top "-$f=handler=[a-" "$CPU"
	expect_status 2 "bad -$f regex"
	expect_err_line "^pprof-c: parsing $f regexp \[a-: .*" "bad -$f regex"
done

run top -focus=main -sample_index=nosuch "$CPU"
expect_status 2 "unknown sample_index with a filter"
expect_err_line "^pprof-c: sample_index \"nosuch\" must be one of: \[samples cpu\]$" "unknown sample_index"

run top -focuss=main "$CPU"
expect_status 2 "misspelt -focus"
if head -1 "$TMP/err" | grep -q "^pprof-c: unknown option -focuss$"; then ok; else bad "misspelt -focus: $(cat "$TMP/err")"; fi

run top -focus "$CPU"
expect_status 2 "-focus without a value"

# Filters that match nothing: pprof's warning, an empty table, status 0.
run top -focus=NoSuchFunction "$CPU"
expect_status 0 "focus matching nothing"
expect_err_line "^pprof-c: warning: Focus expression matched no samples$" "focus matching nothing"
if grep -q "^Showing nodes accounting for 0, 0% of 2.33s total$" "$TMP/out"; then ok; else bad "focus matching nothing: $(cat "$TMP/out")"; fi
run top -tagfocus=1kb: "$HEAP"
expect_status 0 "numeric tagfocus"
expect_err_line "^pprof-c: warning: tagfocus:Interpreted '1kb:' as range, not regexp$" "numeric tagfocus"

# The header lists the filters; -relative_percentages makes them 100%.
run top -focus=LoggingMiddleware -tagignore=region=us-east "$CPU"
if grep -q "^Active filters:$" "$TMP/out" && grep -q "^   focus=LoggingMiddleware$" "$TMP/out" &&
	grep -q "^   tagignore=region=us-east$" "$TMP/out"; then ok; else bad "active filters: $(cat "$TMP/out")"; fi
run top -focus=LoggingMiddleware -relative_percentages "$CPU"
if grep -q "^Showing nodes accounting for 850ms, 100% of 850ms total$" "$TMP/out"; then ok; else bad "relative_percentages: $(head -8 "$TMP/out")"; fi

# Bases that do not fit.
run top -base "$HEAP" "$CPU"
expect_status 2 "base with other sample types"
expect_err_line "^pprof-c: .*heap.pb.gz: base profile has sample types \[alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes\], the profile has \[samples/count cpu/nanoseconds\]$" "base with other sample types"
expect_no_stdout "base with other sample types"
run top -diff_base "$TMP/missing.pb.gz" "$CPU"
expect_status 1 "missing base"
expect_err_line "missing.pb.gz: No such file or directory$" "missing base"
run top -base "$BEFORE" -diff_base "$BEFORE" "$AFTER"
expect_status 2 "both -base and -diff_base"
expect_err_line "^pprof-c: -base and -diff_base flags cannot both be specified$" "both bases"

# Several bases are merged into one (goldens: top_diff.cases); each must
# fit the others and the profile; an empty one is dropped, as in pprof.
run top -base "$BEFORE" -base "$HEAP" "$AFTER"
expect_status 2 "second base with other sample types"
expect_err_line "^pprof-c: .*heap.pb.gz: profiles have empty common sample type list$" "second base with other sample types"
expect_no_stdout "second base with other sample types"
run top -base "$SRCDIR/testdata/go/heap_before.pb.gz" -base "$HEAP" "$CPU"
expect_status 2 "two bases with other sample types"
expect_err_line "^pprof-c: .*heap_before.pb.gz: base profile has sample types \[alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes\], the profile has \[samples/count cpu/nanoseconds\]$" "two bases with other sample types"
run top -diff_base "$BEFORE" -diff_base "$TMP/missing.pb.gz" "$AFTER"
expect_status 1 "second base missing"
expect_err_line "missing.pb.gz: No such file or directory$" "second base missing"
run top -base "$BEFORE" -base "$BEFORE" -diff_base "$BEFORE" "$AFTER"
expect_status 2 "two -base and a -diff_base"
expect_err_line "^pprof-c: -base and -diff_base flags cannot both be specified$" "two -base and a -diff_base"
# A profile minus the same base twice: the base counts twice, so every
# value is negated (percentages are of the absolute total, as pprof's).
run top -nodecount=1 -base "$AFTER" -base "$AFTER" "$AFTER"
if grep -q "^Showing nodes accounting for -90ms, 14.29% of 630ms total$" "$TMP/out" &&
	grep -q "^     -90ms 14.29% 14.29%     -180ms 28.57%  runtime.pcvalue$" "$TMP/out"; then ok; else bad "the same base twice: $(head -8 "$TMP/out")"; fi
run top -base= -nodecount=1 "$CPU"
expect_status 0 "empty -base"
if grep -q "^Showing nodes accounting for 500ms, 21.46% of 2330ms total$" "$TMP/out"; then ok; else bad "empty -base: $(head -8 "$TMP/out")"; fi
run top -normalize "$CPU"
expect_status 2 "-normalize without a base"
expect_err_line "^pprof-c: must have base profile to normalize by$" "-normalize without a base"
expect_no_stdout "-normalize without a base"
# A base summing to the most an int64 holds scales a value to 2^63 once
# rounded, past the range: Go's conversion (pprof's ScaleN) makes it the
# minimum, where C's is undefined (UBSan stops the sanitized build).
printf 'a 9223372036854775807\n' >"$TMP/nbase.folded"
printf 'x 5\n' >"$TMP/nprof.folded"
run top -normalize -base="$TMP/nbase.folded" "$TMP/nprof.folded"
expect_status 0 "-normalize past int64's range"
grep -Eq '^-9223372036854775808 +0% +0% -9223372036854775808 +0%  x$' "$TMP/out" && ok ||
	bad "-normalize past int64's range: $(cat "$TMP/out" "$TMP/err")"
# check merges its -diff_base profiles into the old one likewise.
run check -diff_base "$AFTER" -diff_base "$BEFORE" -max_share=LoggingMiddleware=99 "$BEFORE"
expect_status 0 "check with two old profiles"
if grep -q "^1 rule, 0 broken$" "$TMP/out"; then ok; else bad "check with two old profiles: $(cat "$TMP/out")"; fi

# A profile minus itself is empty; with -diff_base the total is the base's.
run top -base "$CPU" "$CPU"
expect_status 0 "profile minus itself"
if grep -q "^Showing nodes accounting for 0, 0% of 0 total$" "$TMP/out"; then ok; else bad "profile minus itself: $(head -8 "$TMP/out")"; fi
run top -diff_base "$CPU" "$CPU"
if grep -q "^Showing nodes accounting for 0, 0% of 2.33s total$" "$TMP/out"; then ok; else bad "diff_base with itself: $(head -8 "$TMP/out")"; fi
finish
