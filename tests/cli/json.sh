#!/bin/bash
# -json against the text reports: each JSON output, rendered back into text
# by jsoncheck.py, equals the text report of the same command and options
# (flame: the folded stacks), on CPU, heap, filtered and -diff_base runs:
# top, tree, peek, traces, tags and flame.
. "$(dirname "$0")/lib.sh"
CHECK="$SRCDIR/tests/cli/jsoncheck.py"
GO="$SRCDIR/testdata/go"

# same KIND TEXTCMD JSONCMD ARGS...: text of TEXTCMD vs JSON of JSONCMD.
same() {
	local kind=$1 textcmd=$2 jsoncmd=$3
	shift 3
	if ! "$PPROF_C" "$textcmd" "$@" >"$TMP/text" 2>"$TMP/err"; then
		bad "$textcmd $*: $(head -c 200 "$TMP/err")"
		return
	fi
	if ! "$PPROF_C" "$jsoncmd" -json "$@" >"$TMP/json" 2>"$TMP/err"; then
		bad "$jsoncmd -json $*: $(head -c 200 "$TMP/err")"
		return
	fi
	if ! python3 "$CHECK" "$kind" <"$TMP/json" >"$TMP/back"; then
		bad "$jsoncmd -json $*: not the documented JSON"
		return
	fi
	[ "$kind" = flame ] && sort -o "$TMP/text" "$TMP/text"
	expect_same "$TMP/text" "$TMP/back" "$jsoncmd -json $*"
}

for args in "$GO/cpu.pb.gz" "-sample_index=alloc_space $GO/heap.pb.gz" \
	"-focus=main -cum $GO/cpu.pb.gz" "-diff_base=$GO/cpu_before.pb.gz $GO/cpu_after.pb.gz" \
	"-lines -nodecount=20 $GO/cpu.pb.gz" "-sample_index=inuse_objects $GO/heap.pb.gz"; do
	# shellcheck disable=SC2086
	{
		same top top top $args
		same tree tree tree $args
		same tree peek peek 'main\.' $args
		same flame folded flame $args
		same traces traces traces $args
		same tags tags tags $args
	}
done
# Labels: numeric (heap's bytes) and string ones (the CPU profile's).
same tags tags tags -sample_index=alloc_space "$GO/allocs.pb.gz"
same traces traces traces "$GO/heap.pb.gz"
# A command without a JSON form is a usage error naming it.
run raw -json "$GO/cpu.pb.gz"
expect_status 2 "raw -json"
expect_err_line "raw has no JSON form" "raw -json"
finish
