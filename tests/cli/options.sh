#!/bin/bash
# Options may stand anywhere and take every spelling go tool pprof users
# type; -output writes the same bytes as stdout.
. "$(dirname "$0")/lib.sh"
P="$SRCDIR/testdata/go/cpu.pb.gz"

run top -cum "$P"; cp "$TMP/out" "$TMP/ref"
expect_status 0 "top -cum"
for form in "-cum top $P" "-top -cum $P" "top $P -cum" "--cum top $P" \
	"top -cum=true $P" "-top=1 -cum $P"; do
	# shellcheck disable=SC2086
	run $form
	expect_status 0 "$form"
	expect_same "$TMP/ref" "$TMP/out" "$form"
done

run top -nodecount=3 "$P"; cp "$TMP/out" "$TMP/ref3"
for form in "top -nodecount 3 $P" "top --nodecount=3 $P" "top 3 $P" \
	"top3 $P" "-top -nodecount=3 $P"; do
	# shellcheck disable=SC2086
	run $form
	expect_status 0 "$form"
	expect_same "$TMP/ref3" "$TMP/out" "$form"
done
if [ "$(grep -c '%' "$TMP/ref3")" -ge 4 ] && grep -q "Showing top 3 nodes" "$TMP/ref3"; then ok; else bad "nodecount=3 shows 3 nodes"; fi

run top -lines "$P"; cp "$TMP/out" "$TMP/lines"
run top -granularity=lines "$P"
expect_same "$TMP/lines" "$TMP/out" "-granularity=lines equals -lines"

run top -output "$TMP/o.txt" "$P"
expect_status 0 "-output"
run top "$P"
expect_same "$TMP/out" "$TMP/o.txt" "-output writes the report"
if [ -z "$(ls "$TMP" | grep pprof-c-)" ]; then ok; else bad "temporary file left behind"; fi

# -tagroot / -tagleaf reach the stack-tree reports too (folded, flame), as
# pprof's web flame graph; the goldens against pprof are options.cases.
C="$SRCDIR/testdata/columns/columns.pb.gz"
run folded -tagroot=region -tagleaf=thread "$C"
expect_status 0 "folded -tagroot -tagleaf"
grep -qx 'eu;main;b;inl;c;t2 200000000' "$TMP/out" && ok || bad "folded: label frames at root and leaf"
grep -qx '<unknown>;main;a;<unknown> 70000000' "$TMP/out" && ok || bad "folded: <unknown> for a missing label"
run flame -tagroot=region "$C"
expect_status 0 "flame -tagroot"
grep -q '>eu<\|"eu"\|eu (' "$TMP/out" && ok || bad "flame: a frame for region eu"
run top -tagroot=nosuch "$C"
expect_status 0 "tagroot matching nothing"
expect_err_line 'TagRoot expression matched no samples$' "tagroot matching nothing warns"

# -all_frames keeps what the profile's drop_frames cuts (google/pprof's
# flag, newer than the reference Go 1.24: no golden): here tcmalloc's
# allocation frames under std::__new_allocator::allocate.
N="$SRCDIR/testdata/native"
run traces "$N/cxxprog" "$N/cxxprog.heap_v2.heap"
expect_status 0 "heap_v2 traces"
! grep -q 'tcmalloc::allocate_full_cpp_throw_oom' "$TMP/out" && ok || bad "drop_frames cuts tcmalloc's frames"
cp "$TMP/out" "$TMP/dropped"
run traces -all_frames "$N/cxxprog" "$N/cxxprog.heap_v2.heap"
expect_status 0 "-all_frames traces"
grep -q '^  256.04kB   tcmalloc::allocate_full_cpp_throw_oom$' "$TMP/out" && ok || bad "-all_frames keeps tcmalloc's frames"
[ "$(grep -c -- '-----------+' "$TMP/out")" -eq "$(grep -c -- '-----------+' "$TMP/dropped")" ] && ok || bad "-all_frames: the same samples"

run --help
expect_status 0 "--help"
for s in sample_index mean granularity nodecount nodefraction edgefraction unit output max-size cum; do
	grep -q -- "-$s" "$TMP/out" && ok || bad "--help lacks -$s"
done
run --version
expect_status 0 "--version"
grep -Eq '^pprof-c [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/out" && ok || bad "--version format"

finish
