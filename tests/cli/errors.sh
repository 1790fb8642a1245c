#!/bin/bash
# Every bad input gets one clear line on stderr naming the file and the
# problem, exit status 1 (2 for usage), no stdout, no output file, no crash.
# Under ASan/LSan (CI) a leak or overflow would change the exit status.
. "$(dirname "$0")/lib.sh"
GOOD="$SRCDIR/testdata/go/cpu.pb.gz"

run top "$TMP/missing.pb.gz"
expect_status 1 "missing file"
expect_err_line "^pprof-c: .*missing.pb.gz: No such file or directory$" "missing file"
expect_no_stdout "missing file"

: >"$TMP/empty"
run top "$TMP/empty"
expect_status 1 "empty file"
expect_err_line "^pprof-c: .*empty: empty input file$" "empty file"

head -c 4096 /dev/urandom >"$TMP/random"
# Make sure it is neither gzip nor a plausible protobuf.
printf '\xff\xff\xff' | dd of="$TMP/random" conv=notrunc status=none
run top "$TMP/random"
expect_status 1 "random bytes"
expect_err_line "^pprof-c: .*random: (unrecognized profile format|malformed profile)" "random bytes"

head -c 300 "$GOOD" >"$TMP/trunc.pb.gz"
run top "$TMP/trunc.pb.gz"
expect_status 1 "truncated gzip"
expect_err_line "^pprof-c: .*trunc.pb.gz: truncated gzip stream$" "truncated gzip"

# A profile whose sample names location 7, which does not exist.
printf '\x0a\x04\x08\x01\x10\x02\x12\x06\x0a\x01\x07\x12\x01\x01\x32\x00\x32\x01\x61\x32\x01\x62' >"$TMP/dangling.pb"
run top "$TMP/dangling.pb"
expect_status 1 "dangling location"
expect_err_line "dangling.pb: malformed profile: sample refers to unknown location 7$" "dangling location"

# A location whose line names function 3, which does not exist.
printf '\x0a\x04\x08\x01\x10\x02\x22\x08\x08\x01\x22\x04\x08\x03\x10\x05\x32\x00\x32\x01\x61\x32\x01\x62' >"$TMP/dangfn.pb"
run top "$TMP/dangfn.pb"
expect_status 1 "dangling function"
expect_err_line "dangfn.pb: malformed profile: location refers to unknown function 3$" "dangling function"

# A sample type whose name is string 9 of a 3-entry table.
printf '\x0a\x04\x08\x09\x10\x02\x32\x00\x32\x01\x61\x32\x01\x62' >"$TMP/badstr.pb"
run top "$TMP/badstr.pb"
expect_status 1 "bad string index"
expect_err_line "badstr.pb: malformed profile: string index 9 out of range$" "bad string index"

# One sample type, but a sample with two values.
printf '\x0a\x04\x08\x01\x10\x02\x12\x04\x12\x02\x01\x01\x32\x00\x32\x01\x61\x32\x01\x62' >"$TMP/values.pb"
run top "$TMP/values.pb"
expect_status 1 "wrong number of values"
expect_err_line "values.pb: malformed profile: sample has 2 values, but there are 1 sample types$" "wrong number of values"

# A zip bomb over the cap (spaces: zeros are refused by their first
# kilobytes, see hostile.sh).
head -c 8388608 /dev/zero | tr '\0' ' ' | gzip -c >"$TMP/bomb.gz"
run top --max-size=1M "$TMP/bomb.gz"
expect_status 1 "zip bomb"
expect_err_line "bomb.gz: decompressed profile is larger than the 1048576-byte limit \(--max-size\)$" "zip bomb"

# Failing runs leave no output file, and never touch an existing one.
run top -output "$TMP/report.txt" "$TMP/random"
expect_status 1 "no partial output"
if [ ! -e "$TMP/report.txt" ] && [ -z "$(ls "$TMP" | grep pprof-c-)" ]; then ok; else bad "partial output file left behind"; fi
echo "precious" >"$TMP/keep.txt"
run top -output "$TMP/keep.txt" "$TMP/trunc.pb.gz"
expect_status 1 "existing output kept"
if [ "$(cat "$TMP/keep.txt")" = "precious" ]; then ok; else bad "existing output file was modified"; fi
run top -output "$TMP/no/such/dir/out.txt" "$GOOD"
expect_status 1 "unwritable output"
expect_err_line "out.txt: No such file or directory$" "unwritable output"

# A full disk: stdout to /dev/full, and an output file over the file-size
# limit (what a full disk looks like to write(2)), with the file left
# untouched.
"$PPROF_C" top "$GOOD" >/dev/full 2>"$TMP/err"
RC=$?
expect_status 1 "stdout on a full disk"
expect_err_line "^pprof-c: stdout: (write error|No space left on device)" "stdout on a full disk"
echo "precious" >"$TMP/keep2.txt"
(
	ulimit -f 1
	trap '' XFSZ
	"$PPROF_C" top -addresses -output "$TMP/keep2.txt" "$GOOD" 2>"$TMP/err"
)
RC=$?
expect_status 1 "output file over the size limit"
expect_err_line "keep2.txt: File too large$" "output file over the size limit"
if [ "$(cat "$TMP/keep2.txt")" = "precious" ] && [ -z "$(ls "$TMP" | grep pprof-c-)" ]; then ok; else bad "failed write changed the file or left a temporary"; fi

# Usage errors: exit status 2.
run top -nosuchoption "$GOOD"
expect_status 2 "unknown option"
grep -q "unknown option -nosuchoption" "$TMP/err" && ok || bad "unknown option message"
run top -sample_index=bogus "$GOOD"
expect_status 2 "unknown sample_index"
expect_err_line 'sample_index "bogus" must be one of: \[samples cpu\]$' "unknown sample_index"
run top -sample_index=7 "$GOOD"
expect_status 2 "sample_index out of range"
expect_err_line 'sample_index 7 is outside the range \[0..1\]$' "sample_index out of range"
run top -nodecount=abc "$GOOD"
expect_status 2 "bad number"
run top -granularity=bogus "$GOOD"
expect_status 2 "bad granularity"
# Two flags of one of pprof's choices (granularity, sort) left true: its
# usage error; set false, or set twice, they are no conflict.
run -top -lines -files "$GOOD"
expect_status 2 "conflicting granularity flags"
grep -q "conflicting options set: \[files lines\]$" "$TMP/err" && ok ||
	bad "conflicting options message: $(cat "$TMP/err")"
run top -cum -flat=true "$GOOD"
expect_status 2 "conflicting sort flags"
run top -cum -flat=false -lines -lines "$GOOD"
expect_status 0 "a choice's flag set false or twice"
run top
expect_status 2 "no profile"
run top "$GOOD" "$SRCDIR/testdata/go/heap.pb.gz"
expect_status 2 "merging different sample types"
expect_err_line "heap.pb.gz: profiles have empty common sample type list$" "merging different sample types"

finish
