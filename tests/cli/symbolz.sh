#!/bin/bash
# -symbolize=remote (pprof's symbolz protocol), the default's remote step,
# and -symbolize=fastlocal. A local server (tests/cli/pprof_server.py)
# serves an unsymbolized profile of testdata/native/cprog-pie and answers
# /debug/pprof/symbol for the addresses of two of its three mappings;
# where the reference pprof is cached (tests/reference-go.sh), its reports
# of the same fetch are the goldens.
. "$(dirname "$0")/lib.sh"
require python3 python3
U="$SRCDIR/testdata/native/cprog-pie.unsym.pb.gz"
export PPROF_TMPDIR="$TMP/save" SYMBOLZ_LOG="$TMP/posts"
# The binaries where this clone has them: the profile names them where it
# was made (/work/main), and pprof renames mappings found here (locate.sh).
export PPROF_BINARY_PATH="$SRCDIR/testdata/native"
mkdir -p "$PPROF_TMPDIR"

# The server's symbols: what local symbolization names each address of the
# main binary and libhot.so (mappings 1 and 3); libc (2) is left unknown.
run raw "$U"
expect_status 0 "local symbolization of the unsymbolized profile"
sed -n '/^Locations/,/^Mappings/p' "$TMP/out" |
	awk '$3 == "M=1" || $3 == "M=3" { print $2, 1, $4 }' | sort -u >"$TMP/symbols"
[ "$(wc -l <"$TMP/symbols")" -gt 20 ] && ok || bad "symbols for the server"

start_server python3 -u "$SRCDIR/tests/cli/pprof_server.py" "$U" "$TMP/symbols" ||
	{ bad "server did not start: $(cat "$TMP/server.err")"; finish; }
PORT=$LISTEN
URL="http://127.0.0.1:$PORT/debug/pprof/profile"

ref=$(sh "$SRCDIR/tests/reference-go.sh" --check 2>/dev/null) || ref=
[ -n "$ref" ] || part_skipped "the reference pprof is not cached (sh tests/reference-go.sh)"
# against_pprof ARGS...: our stdout equals go tool pprof's for ARGS.
against_pprof() {
	[ -n "$ref" ] || return 0
	TZ=UTC "$ref/bin/go" tool pprof "$@" >"$TMP/ref" 2>"$TMP/ref.err" </dev/null
	expect_same "$TMP/ref" "$TMP/out" "go tool pprof $*"
}

# -symbolize=remote: one POST per mapping with unsymbolized locations,
# the addresses joined by '+'.
: >"$TMP/posts"
run top -symbolize=remote "$URL"
expect_status 0 "remote"
[ "$(wc -l <"$TMP/posts")" -eq 3 ] && ok || bad "remote: one POST per mapping, got $(wc -l <"$TMP/posts")"
grep -Evq '^0x[0-9a-f]+(\+0x[0-9a-f]+)*$' "$TMP/posts" && bad "remote: POST bodies: $(head -c 200 "$TMP/posts")" || ok
grep -q 'hash_loop$' "$TMP/out" && ok || bad "remote: names from the server"
grep -q '\[libc.so.6\]$' "$TMP/out" && ok || bad "remote: what the server does not know stays unsymbolized"
against_pprof -top -symbolize=remote "$URL"
for args in "raw" "traces" "top -lines" "top -symbolize=remote:force"; do
	# shellcheck disable=SC2086
	run $args -symbolize=remote "$URL"
	expect_status 0 "remote: $args"
	# shellcheck disable=SC2086
	against_pprof -$args -symbolize=remote "$URL"
done
run raw -symbolize=remote "$URL"
grep -Eq '^ +1: 0x55bc1b6ed403 M=1 [a-z_]+ :0:0 s=0$' "$TMP/out" && ok || bad "remote: a name, no file or line"

# local alone asks nothing; the default asks only for what local left
# (here nothing: every mapping's binary is at hand).
: >"$TMP/posts"
run top -symbolize=local "$URL"
expect_status 0 "local"
run top "$URL"
expect_status 0 "default"
[ ! -s "$TMP/posts" ] && ok || bad "local and default: no POST, got $(cat "$TMP/posts")"
# A file has no symbol server: remote leaves it as it is.
run raw -symbolize=remote "$U"
expect_status 0 "remote on a file"
run raw -symbolize=none "$U"
cp "$TMP/out" "$TMP/none"
run raw -symbolize=remote "$U"
expect_same "$TMP/none" "$TMP/out" "remote on a file changes nothing"
[ ! -s "$TMP/posts" ] && ok || bad "remote on a file: no POST"
against_pprof -raw -symbolize=remote "$U"

# A symbol handler that answers 404 fails the load, naming it (pprof's
# "http post URL: server response").
run top -symbolize=remote "http://127.0.0.1:$PORT/other/profile"
expect_status 1 "symbolz 404"
if [ "$(wc -l <"$TMP/err")" -eq 2 ] && tail -n1 "$TMP/err" |
	grep -q "^pprof-c: http post http://127.0.0.1:$PORT/other/symbolz: server response: 404$"; then ok; else
	bad "symbolz 404: $(cat "$TMP/err")"
fi
# An answer that cannot be read fails the load with pprof's words, after
# the handler it came from.
run top -symbolize=remote "http://127.0.0.1:$PORT/bad/profile"
expect_status 1 "symbolz answer unreadable"
if [ "$(wc -l <"$TMP/err")" -eq 2 ] && tail -n1 "$TMP/err" |
	grep -q "^pprof-c: http://127.0.0.1:$PORT/bad/symbolz: unexpected parse failure 0x1234567890abcdef12$"; then ok; else
	bad "symbolz answer unreadable: $(cat "$TMP/err")"
fi

# fastlocal: function names from the symbol tables, no files, lines or
# inlined frames (nm's answer; go tool pprof's nm path names nothing in
# these PIE binaries, so there is no reference run).
run raw -symbolize=fastlocal "$U"
expect_status 0 "fastlocal"
sed -n '/^Locations/,/^Mappings/p' "$TMP/out" | grep -E '^ +[0-9]+: ' >"$TMP/locs"
[ "$(grep -cv ' :0:0 s=0$' "$TMP/locs")" -eq 0 ] && ok || bad "fastlocal: no file or line: $(grep -v ' :0:0 s=0$' "$TMP/locs" | head -3)"
grep -Eq '^ +1: 0x55bc1b6ed403 M=1 hash_loop :0:0 s=0$' "$TMP/locs" && ok || bad "fastlocal: the symbol holding the address"
grep -q '__libc_start_main :0:0' "$TMP/locs" && ok || bad "fastlocal: no ELF symbol version (@@GLIBC_...)"
[ "$(sed -n '/^Locations/,/^Mappings/p' "$TMP/out" | grep -cE '^ {10,}[a-z_]')" -eq 0 ] && ok || bad "fastlocal: no inlined frames"
run top -symbolize=fastlocal "$U"
grep -q ' hash_loop$' "$TMP/out" && ok || bad "fastlocal top"
! grep -q '(inline)' "$TMP/out" && ok || bad "fastlocal: nothing inline"

finish
