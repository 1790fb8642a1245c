#!/bin/bash
# Hostile inputs that are valid profiles: what their names lead pprof-c to
# read (list's source files), and what they make it print.
. "$(dirname "$0")/lib.sh"
GOOD="$SRCDIR/testdata/go/cpu.pb.gz"
D="$TMP/d"
SRC="$D/testdata/gen/goprog"
mkdir -p "$SRC"

# list reads only regular files, up to -max_source_size (64M): a source
# named /dev/zero or a FIFO gets pprof's error line, at once.
# list_src WHAT ARGS...: run list main.main from $D with ARGS.
list_src() {
	(cd "$D" && timeout 60 "$PPROF_C" -list 'main\.main$' "${@:2}" "$GOOD" \
		>"$TMP/out" 2>"$TMP/err" </dev/null)
	RC=$?
	expect_status 0 "$1"
}
ln -s /dev/zero "$SRC/main.go"
list_src "source is /dev/zero"
grep -qx " Error: $SRC/main.go: not a regular file" "$TMP/out" && ok ||
	bad "source is /dev/zero: $(head -5 "$TMP/out")"
rm "$SRC/main.go"
mkfifo "$SRC/main.go"
list_src "source is a FIFO"
grep -qx " Error: $SRC/main.go: not a regular file" "$TMP/out" && ok ||
	bad "source is a FIFO: $(head -5 "$TMP/out")"
rm "$SRC/main.go"
seq 1 400 >"$SRC/main.go"
list_src "source over the cap" -max_source_size=1k
grep -qx " Error: $SRC/main.go: source file is larger than the 1024-byte limit (-max_source_size)" "$TMP/out" && ok ||
	bad "source over the cap: $(head -5 "$TMP/out")"
list_src "source under the cap" -max_source_size=2k
grep -Eq '^ +\. +450ms +67:67$' "$TMP/out" && ok ||
	bad "source under the cap: $(head -8 "$TMP/out")"
run -list main -max_source_size=lots "$GOOD"
expect_status 2 "bad -max_source_size"

finish
