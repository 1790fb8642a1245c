#!/bin/sh
# The dot report against `go tool pprof -dot`, case by case.
#
#   tests/golden/pictures/dot.sh PPROF_C_BINARY [CASES_FILE]
#
# Each line `NAME<TAB>ARGS` of dot.cases (default) names a golden made by
# regen.sh, dot/NAME.txt, the stdout of `go tool pprof ARGS`; pprof-c runs
# the same ARGS, and
# dotcheck.py compares the two. Prints `ok NAME` or `FAIL NAME` and the
# differences; at the end `dot: N passed, N failed`.
set -u
# These cases live in tests/golden/pictures/, outside run.sh's and
# valgrind.sh's *.cases glob: their goldens are compared by a checker, not
# byte for byte. Regenerate with: sh tests/golden/regen.sh tests/golden/pictures/dot.cases
GOLDEN=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$GOLDEN/../../.." && pwd)
[ $# -ge 1 ] || { echo "usage: dot.sh PPROF_C_BINARY [CASES_FILE]" >&2; exit 2; }
BIN=$1
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
CASES=${2:-$GOLDEN/dot.cases}
PY=$(command -v python3) || { echo "SKIP: dot.sh: python3 is not installed (scripts/install-test-deps.sh installs it)"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
export TZ=UTC LC_ALL=C
cd "$ROOT" || exit 2
tab=$(printf '\t')
passed=0
failed=0
while IFS=$tab read -r name args pprof_args; do
	case $name in '' | '#'*) continue ;; esac
	ours=$args
	# Call trees are compared by path, not node number (dotcheck.py).
	tree=
	case " $args " in *" -call_tree "*) tree=--tree ;; esac
	set -f
	# shellcheck disable=SC2086 # ARGS are split at spaces on purpose.
	"$BIN" $ours </dev/null >"$TMP/out" 2>"$TMP/err"
	rc=$?
	set +f
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $name: exit status $rc: $(head -c 300 "$TMP/err")"
		failed=$((failed + 1))
	elif "$PY" "$GOLDEN/dotcheck.py" ${tree:+"$tree"} "${CASES%.cases}/$name.txt" "$TMP/out" >"$TMP/why" 2>&1; then
		echo "ok $name"
		passed=$((passed + 1))
	else
		echo "FAIL $name"
		head -n 20 "$TMP/why" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
done <"$CASES"
echo "dot: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
