#!/bin/sh
# Regenerates golden outputs with the reference, `go tool pprof` of Go 1.24
# (tests/reference-go.sh fetches it from Debian 13 once and caches it).
#
#   sh tests/golden/regen.sh [CASES_FILE...]
#
# Default: every tests/golden/*.cases. For a cases file DIR/X.cases, each
# line `NAME<TAB>ARGS` becomes DIR/X/NAME.txt, the byte-exact stdout of
#
#   go tool pprof ARGS </dev/null
#
# run from the repository root. ARGS are split at spaces (no quoting, no
# globbing); blank lines and lines starting with # are skipped. A line
# `NAME<TAB>ARGS<TAB>PPROF_ARGS` runs go tool pprof with PPROF_ARGS
# instead, for what Go's pprof cannot spell the same way (several -base
# files: its flag package keeps only the last, so PPROF_ARGS name the base
# pprof itself merged from them, testdata/go/merged_*.pb.gz). The files
# of X/ that no case names any more are deleted. A case that exits non-zero
# fails the script (status 1), after all cases have run; its stderr is shown.
#
# Environment set for pprof (run.sh sets the same for pprof-c):
#   TZ=UTC              the Time: line is printed in local time
#   LC_ALL=C            nothing in pprof depends on it; for the shell tools
#   PPROF_BINARY_PATH   an empty directory: pprof looks there (by default in
#                       $HOME/pprof/binaries) for each mapping's binary and
#                       would take the path of one it finds. Our profiles are
#                       already symbolized ([FN] mappings), so nothing is
#                       symbolized or fetched, but a stray binary named
#                       goprog must not change anything.
#   PPROF_TOOLS         empty: no binutils search path
#   PPROF_TMPDIR        a temporary directory: where pprof would save
#                       fetched profiles (it fetches nothing here)
# pprof's stderr chatter is not stored.
set -eu
GOLDEN=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$GOLDEN/../.." && pwd)

files=
if [ $# -eq 0 ]; then
	for f in "$GOLDEN"/*.cases; do files="$files $f"; done
else
	for f in "$@"; do
		case $f in /*) ;; *) f=$PWD/$f ;; esac
		[ -f "$f" ] || { echo "regen.sh: $f: no such cases file" >&2; exit 2; }
		files="$files $f"
	done
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
mkdir "$TMP/bin" "$TMP/save"
export TZ=UTC LC_ALL=C PPROF_BINARY_PATH="$TMP/bin" PPROF_TOOLS= PPROF_TMPDIR="$TMP/save"
unset GODEBUG 2>/dev/null || true

# The reference Go first on PATH, GOROOT set, no toolchain switching.
ref=$(sh "$ROOT/tests/reference-go.sh" --env) || { echo "regen.sh: no reference Go (tests/reference-go.sh)" >&2; exit 1; }
eval "$ref"

cd "$ROOT"
go version
tab=$(printf '\t')
failed=0
total=0
for cases in $files; do
	dir=${cases%.cases}
	mkdir -p "$dir"
	: >"$TMP/names"
	while IFS=$tab read -r name args pprof_args; do
		case $name in '' | '#'*) continue ;; esac
		case $name in *[!A-Za-z0-9_.-]*)
			echo "regen.sh: $cases: bad case name '$name'" >&2; exit 2 ;;
		esac
		if grep -qx "$name" "$TMP/names"; then
			echo "regen.sh: $cases: duplicate case '$name'" >&2; exit 2
		fi
		echo "$name" >>"$TMP/names"
		total=$((total + 1))
		set -f
		# shellcheck disable=SC2086 # ARGS are split at spaces on purpose.
		if go tool pprof ${pprof_args:-$args} </dev/null >"$dir/$name.txt" 2>"$TMP/err"; then
			:
		else
			echo "FAIL $name (exit $?): go tool pprof ${pprof_args:-$args}" >&2
			sed 's/^/    /' "$TMP/err" >&2
			failed=$((failed + 1))
		fi
		set +f
	done <"$cases"
	for f in "$dir"/*.txt; do
		[ -e "$f" ] || continue
		n=$(basename "$f" .txt)
		grep -qx "$n" "$TMP/names" || { echo "removed stale $f"; rm -f "$f"; }
	done
done
echo "regen: $total cases, $failed failed"
[ "$failed" -eq 0 ]
