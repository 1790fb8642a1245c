#!/bin/bash
# PPROF_BINARY_PATH renames mappings at load time, as pprof's
# locateBinaries does: a mapping without a build-id whose binary is found
# in a search directory (BASE, FILE, FILE.debug, FILEDIR/.debug/BASE.debug,
# usr/lib/debug/FILEDIR/BASE.debug) takes the found path as its name, in
# every symbolization mode; a file that is not ELF is passed over; a
# mapping with a build-id keeps its name. Exact mapping lines, and where
# the reference pprof is cached (tests/reference-go.sh), its -raw output.
. "$(dirname "$0")/lib.sh"
U="$SRCDIR/testdata/native/cprog-pie.unsym.pb.gz"
# The recorded names (the profile was made in /work/main).
REC=/work/main/testdata/native
BIN="$SRCDIR/testdata/native/cprog-pie"

ref=$(sh "$SRCDIR/tests/reference-go.sh" --check 2>/dev/null) || ref=
[ -n "$ref" ] || part_skipped "the reference pprof is not cached (sh tests/reference-go.sh)"
# pprof's default search path is $HOME/pprof/binaries: one of our own.
export GOCACHE="${GOCACHE:-$(go env GOCACHE 2>/dev/null || echo "$HOME/.cache/go-build")}"
export HOME="$TMP/home"

# mapping_is BINARY_PATH WANT ARGS...: with PPROF_BINARY_PATH set, the
# first mapping of `raw ARGS...` is named WANT, and the output is the
# reference's.
mapping_is() {
	local bp=$1 want=$2 got
	shift 2
	PPROF_BINARY_PATH=$bp "$PPROF_C" raw "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	expect_status 0 "raw $* with PPROF_BINARY_PATH=$bp"
	got=$(sed -n '/^Mappings/{n;p;}' "$TMP/out" | awk '{ print $3 }')
	if [ "$got" = "$want" ]; then ok; else
		bad "PPROF_BINARY_PATH=$bp $*: mapping 1 is '$got', want '$want'"
	fi
	[ -n "$ref" ] || return 0
	PPROF_BINARY_PATH=$bp TZ=UTC "$ref/bin/go" tool pprof -raw "$@" \
		>"$TMP/ref" 2>"$TMP/ref.err" </dev/null
	# Symbolized, go tool pprof's own symbolizer names frames otherwise
	# (tests/golden/native has those goldens)
	# (and which flags a mapping earns): the mappings' names must agree.
	if [ "$1" != -symbolize=none ]; then
		for f in ref out; do
			sed -n '/^Mappings/,$p' "$TMP/$f" | awk '{ print $1, $2, $3 }' >"$TMP/$f.names"
		done
		expect_same "$TMP/ref.names" "$TMP/out.names" "go tool pprof -raw $* (PPROF_BINARY_PATH=$bp): mapping names"
		return 0
	fi
	expect_same "$TMP/ref" "$TMP/out" "go tool pprof -raw $* (PPROF_BINARY_PATH=$bp)"
}

D=$TMP/dirs
mkdir -p "$D/base" "$D/full$REC" "$D/dotdebug$REC" "$D/debugdir$REC/.debug" \
	"$D/usrlib/usr/lib/debug$REC" "$D/notelf"
cp "$BIN" "$D/base/cprog-pie"
cp "$BIN" "$D/full$REC/cprog-pie"
cp "$BIN" "$D/dotdebug$REC/cprog-pie.debug"
cp "$BIN" "$D/debugdir$REC/.debug/cprog-pie.debug"
cp "$BIN" "$D/usrlib/usr/lib/debug$REC/cprog-pie.debug"
echo "not an object file" >"$D/notelf/cprog-pie"

mapping_is "$D/base" "$D/base/cprog-pie" -symbolize=none "$U"
mapping_is "$D/full" "$D/full$REC/cprog-pie" -symbolize=none "$U"
mapping_is "$D/dotdebug" "$D/dotdebug$REC/cprog-pie.debug" -symbolize=none "$U"
mapping_is "$D/debugdir" "$D/debugdir$REC/.debug/cprog-pie.debug" -symbolize=none "$U"
mapping_is "$D/usrlib" "$D/usrlib/usr/lib/debug$REC/cprog-pie.debug" -symbolize=none "$U"
# The directories in order; what is not ELF is passed over.
mapping_is "$D/notelf" "$REC/cprog-pie" -symbolize=none "$U"
mapping_is "$D/notelf:$D/full:$D/base" "$D/full$REC/cprog-pie" -symbolize=none "$U"
mapping_is "$D/nothing:$D/base" "$D/base/cprog-pie" -symbolize=none "$U"
# Unset: $HOME/pprof/binaries, as pprof.
mkdir -p "$HOME/pprof/binaries"
cp "$BIN" "$HOME/pprof/binaries/"
"$PPROF_C" raw -symbolize=none "$U" >"$TMP/out" 2>"$TMP/err" </dev/null
[ "$(sed -n '/^Mappings/{n;p;}' "$TMP/out" | awk '{ print $3 }')" = "$HOME/pprof/binaries/cprog-pie" ] &&
	ok || bad "default search path: $(sed -n '/^Mappings/{n;p;}' "$TMP/out")"
rm -rf "$HOME/pprof"
# In every mode, and the renamed binary is the one symbolized: the
# recorded path need not exist (it does not under a fresh clone's path).
mapping_is "$D/base" "$D/base/cprog-pie" -symbolize=local "$U"
grep -q ' hash_loop ' "$TMP/out" && ok || bad "symbolized from the renamed binary"
# A profile whose main mapping has a build-id (pprof's -buildid, written
# out): its name stays, for go tool pprof finds no build-id in the file.
"$PPROF_C" proto -symbolize=none -buildid=0123abcd -output "$TMP/bid.pb.gz" "$U" \
	>/dev/null 2>"$TMP/err" </dev/null
mapping_is "$D/base" "$REC/cprog-pie" -symbolize=none "$TMP/bid.pb.gz"
grep -q '^1: .* 0123abcd ' "$TMP/out" && ok || bad "the build-id was kept: $(sed -n '/^Mappings/{n;p;}' "$TMP/out")"
# The second mapping (libhot.so) is searched as well.
mapping_is "$SRCDIR/testdata/native" "$SRCDIR/testdata/native/cprog-pie" -symbolize=none "$U"
grep -q "^3: .* $SRCDIR/testdata/native/libhot.so " "$TMP/out" && ok || bad "libhot.so renamed: $(grep '^3: ' "$TMP/out")"
finish
