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

run list 'main(' "$CPU"
expect_status 2 "bad list regex"
expect_err_line '^pprof-c: parsing argument regexp main\(: missing closing parenthesis' "bad list regex"
expect_no_stdout "bad list regex"

# peek needs its regex.
run peek
expect_status 2 "peek without regex"

# Merging a profile with itself doubles every sample and adds nothing.
# One profile is shown as it is (pprof 1.24 merges only several): its
# repeated stacks stay separate; merged, each stack is one sample.
# Each sample of raw's output as "VALUES: STACK LABELS", one per line.
raw_samples() {
	awk '/^Locations$/ { exit }
	/^ +[0-9-]+ +[0-9-]+: / { if (s != "") print s; s = $0; next }
	/^                [^ ]/ && s != "" { s = s $0 }
	END { if (s != "") print s }' "$TMP/out"
}
run -raw "$CPU"
raw_samples | awk '{ s += $1 } END { print 2 * s }' >"$TMP/v1"
raw_samples | sed 's/^ *[0-9-]* *[0-9-]*: //' | sort -u | wc -l >"$TMP/n1"
run -raw "$CPU" "$CPU"
expect_status 0 "raw of a profile merged with itself"
raw_samples | awk '{ s += $1 } END { print s }' >"$TMP/v2"
raw_samples | wc -l >"$TMP/n2"
expect_same "$TMP/v1" "$TMP/v2" "merged with itself: values doubled"
expect_same "$TMP/n1" "$TMP/n2" "merged with itself: one sample per stack"

# -output writes the report atomically, like top's.
run -traces -output "$TMP/t.txt" "$CPU"
expect_status 0 "traces -output"
run -traces "$CPU"
expect_same "$TMP/out" "$TMP/t.txt" "traces -output"

# list: a source file that cannot be found gets pprof's error line, then
# the lines that have samples (pprof 1.19 prints only the error).
run -list=LoggingMiddleware -source_path=/nonexistent "$CPU"
expect_status 0 "list without source"
if grep -qx ' Error: could not find file testdata/gen/goprog/service.go on path /nonexistent' "$TMP/out" &&
	grep -qE '^ +\. +290ms +239:$' "$TMP/out" &&
	grep -qE '^ +50ms +850ms \(flat, cum\) 36.48% of Total$' "$TMP/out"; then ok; else
	bad "list without source: $(head -8 "$TMP/out")"
fi
run list '^nosuch$' "$CPU"
expect_status 1 "list without match"
expect_err_line '^pprof-c: no matches found for regexp: \^nosuch\$$' "list without match"
expect_no_stdout "list without match"
run -list='(' "$CPU"
expect_status 2 "bad list regex"

# list reads each source file once, however many functions it lists.
# (Skipped, and the test then reports SKIP, where strace is missing or
# not allowed to trace.)
if ! command -v strace >/dev/null; then
	part_skipped "list's one read per source file: strace is not installed"
# (LeakSanitizer refuses to run under ptrace: no leak check in this run.)
elif ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" \
	strace -f -e trace=open,openat -o "$TMP/trace" "$PPROF_C" -list='main\.' "$CPU" >"$TMP/out" 2>/dev/null &&
	[ -s "$TMP/trace" ]; then
	n=$(grep -c 'compute.go", O_RDONLY' "$TMP/trace")
	r=$(grep -c '^ROUTINE.*compute.go$' "$TMP/out")
	if [ "$n" -eq 1 ] && [ "$r" -gt 5 ]; then ok; else
		bad "list opened compute.go $n times for $r functions"
	fi
else
	part_skipped "list's one read per source file: strace may not trace here"
fi

# proto: our gzip'd profile.proto reads back to the same reports, in
# pprof-c and (where Go is installed) in go tool pprof itself.
for f in cpu heap mutex goroutine; do
	run -proto -output "$TMP/$f.pb.gz" "$SRCDIR/testdata/go/$f.pb.gz"
	expect_status 0 "proto $f"
	for r in top raw traces; do
		run "-$r" "$SRCDIR/testdata/go/$f.pb.gz"
		cp "$TMP/out" "$TMP/a"
		run "-$r" "$TMP/$f.pb.gz"
		expect_same "$TMP/a" "$TMP/out" "$r of proto output ($f)"
	done
done
run -proto -output "$TMP/merged.pb.gz" "$SRCDIR/testdata/go/cpu_before.pb.gz" "$SRCDIR/testdata/go/cpu_after.pb.gz"
# A directory named like a command does not hide the command.
mkdir -p "$TMP/cwd/proto"
(cd "$TMP/cwd" && "$PPROF_C" proto -output "$TMP/p.pb.gz" "$CPU" >/dev/null 2>&1)
if [ -s "$TMP/p.pb.gz" ]; then ok; else bad "proto beside a proto/ directory"; fi

# As pprof's -proto, -noinlines leaves each location its outermost line
# (and no columns unless -showcolumns): what go tool pprof -raw prints of
# the same options (tests/golden/options.cases).
for o in noinlines noinlines_showcolumns; do
	run -proto $(echo "-$o" | sed 's/_/ -/') -output "$TMP/$o.pb.gz" \
		"$SRCDIR/testdata/columns/columns.pb.gz"
	run -raw "$TMP/$o.pb.gz"
	expect_same "$SRCDIR/tests/golden/options/columns_raw_$o.txt" \
		"$TMP/out" "raw of proto -$o"
done

# -divide_by divides the values written, truncated as pprof's printProto
# converts them (go tool pprof -proto -divide_by=2 writes 0, 1 and 0 for
# threadz's 1, 3 and 1 threads), zero samples kept.
run -proto -divide_by=2 -symbolize=none -output "$TMP/half.pb.gz" \
	"$SRCDIR/testdata/legacy/cpp.threadz"
run -raw "$TMP/half.pb.gz"
printf '          0: 1 3 4 \n          1: 5 6 7 8 \n          0: 9 10 8 \n' >"$TMP/want"
sed -n '5,7p' "$TMP/out" >"$TMP/got"
expect_same "$TMP/want" "$TMP/got" "proto -divide_by=2"

# As pprof 1.24's -proto, samples without a stack are kept (no name
# filter drops them).
run -proto -output "$TMP/tc.pb.gz" "$TC"
run -top "$TMP/tc.pb.gz"
if grep -q '^Showing nodes accounting for 0, 0% of 5 total$' "$TMP/out"; then ok; else
	bad "proto drops stackless samples: $(cat "$TMP/out")"
fi
run -proto -focus=main -output "$TMP/tcf.pb.gz" "$TC"
run -top "$TMP/tcf.pb.gz"
if grep -q '^Showing nodes accounting for 0, 0% of 0 total$' "$TMP/out"; then ok; else
	bad "proto -focus keeps stackless samples: $(cat "$TMP/out")"
fi
run -raw "$TMP/merged.pb.gz"
cp "$TMP/out" "$TMP/a"
run -raw "$SRCDIR/testdata/go/cpu_before.pb.gz" "$SRCDIR/testdata/go/cpu_after.pb.gz"
expect_same "$TMP/a" "$TMP/out" "raw of merged proto output"
# The reference pprof (tests/reference-go.sh) reads our proto output.
if ref=$(sh "$SRCDIR/tests/reference-go.sh" --env 2>/dev/null) && eval "$ref"; then
	go tool pprof -top "$TMP/cpu.pb.gz" >"$TMP/go_top" 2>/dev/null </dev/null
	expect_same "$SRCDIR/tests/golden/top/cpu_top.txt" "$TMP/go_top" "go tool pprof -top of our proto"
	go tool pprof -raw "$TMP/merged.pb.gz" >"$TMP/go_raw" 2>/dev/null </dev/null
	expect_same "$SRCDIR/tests/golden/raw/merged.txt" "$TMP/go_raw" "go tool pprof -raw of our merged proto"
else
	part_skipped "go tool pprof reading our proto output: go is not installed"
fi

finish
