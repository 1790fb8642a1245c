#!/bin/bash
# --help and man/pprof-c.1 describe the same commands and options.
. "$(dirname "$0")/lib.sh"
MAN="$SRCDIR/man/pprof-c.1"

run --help
expect_status 0 "--help"
# Every option --help lists is documented in the man page ...
for opt in $(grep -oE '^  -[a-z_-]+' "$TMP/out" | sed 's/^  -//'); do
	pat=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	if grep -q -- "\\\\-$pat" "$MAN" || grep -q -- "\\\\fB\\\\-$pat" "$MAN"; then ok; else bad "man page lacks -$opt"; fi
done
# ... and every command.
for cmd in $(sed -n '/^Commands:/,/^$/p' "$TMP/out" | grep -oE '^  [a-zA-Z]+' | sed 's/^  //'); do
	# "topN" is written ".BI top N" in the man page.
	pat=$(printf '%s' "$cmd" | sed 's/N$/ N/')
	if grep -q "^\.BI\? $pat" "$MAN"; then ok; else bad "man page lacks command $cmd"; fi
done
# Every option the man page documents exists in --help.
for opt in $(grep -oE '^\.B[I]? \\-[a-z_]+' "$MAN" | sed 's/.*\\-//'); do
	if grep -q -- "-$opt" "$TMP/out"; then ok; else bad "--help lacks -$opt from the man page"; fi
done
finish
