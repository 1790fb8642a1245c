#!/bin/bash
# Go binaries symbolized from their DWARF. The Go runtime names the frames of
# the profiles in testdata/go itself; -symbolize=force makes pprof-c throw
# those names away and resolve every address again from the binary that
# wrote them (Go's linker writes no .debug_aranges; Go prints generic
# functions as F[...] and leaves the compiler's wrappers out). Every report
# must come out byte for byte the same. The binary is rebuilt as
# testdata/gen/regen-go.sh builds it: Go builds are reproducible, so with the
# same Go it is the same file, and the test checks that it is.
. "$(dirname "$0")/lib.sh"
if ! command -v go >/dev/null; then
	echo "native_go: go missing (scripts/install-test-deps.sh installs golang-go); skipped"
	exit 77
fi
export GOMAXPROCS=2 GOPROXY=off GOFLAGS= GOWORK=off CGO_ENABLED=0 GO111MODULE=on
unset GODEBUG GOGC
BIN=$TMP/goprog
(cd "$SRCDIR/testdata/gen/goprog" && go build -trimpath -o "$BIN" .) || {
	bad "go build of testdata/gen/goprog failed"
	finish
	exit 1
}
GO=$SRCDIR/testdata/go

# The rebuilt binary is the one that wrote the profiles: each location's
# address falls in the function the runtime named.
if "$PPROF_C" top -symbolize=force "$BIN" "$GO/cpu.pb.gz" >"$TMP/out" 2>"$TMP/err" &&
	[ ! -s "$TMP/err" ]; then ok; else
	bad "symbolize=force on the rebuilt goprog: $(head -3 "$TMP/err")"
fi

for p in cpu heap allocs goroutine mutex block threadcreate cpu_before; do
	for r in "traces" "top -lines -nodecount=100000" "top -addresses -nodecount=100000" "tree"; do
		# shellcheck disable=SC2086
		"$PPROF_C" $r "$GO/$p.pb.gz" >"$TMP/want" 2>&1
		# shellcheck disable=SC2086
		"$PPROF_C" $r -symbolize=force "$BIN" "$GO/$p.pb.gz" >"$TMP/got" 2>&1
		expect_same "$TMP/want" "$TMP/got" "$p: $r from DWARF"
	done
done
"$PPROF_C" list 'main\.(hashLoop|mix)' "$GO/cpu.pb.gz" >"$TMP/want" 2>&1
"$PPROF_C" list 'main\.(hashLoop|mix)' -symbolize=force "$BIN" "$GO/cpu.pb.gz" >"$TMP/got" 2>&1
expect_same "$TMP/want" "$TMP/got" "list from DWARF"
finish
