#!/bin/sh
# Golden tests: pprof-c's stdout against `go tool pprof`'s, case by case.
#
#   tests/golden/run.sh PPROF_C_BINARY [CASES_FILE...]
#   tests/golden/run.sh --update [CASES_FILE...]    (runs regen.sh)
#
# Default: every tests/golden/*.cases. For each line `NAME<TAB>ARGS` of
# DIR/X.cases this runs, from the repository root,
#
#   TZ=UTC PPROF_C_BINARY ARGS </dev/null
#
# and compares its stdout with DIR/X/NAME.txt (made by regen.sh from
# `go tool pprof ARGS`). ARGS are split at spaces (no quoting, no globbing).
# Prints `ok NAME`, or `FAIL NAME` with the reason and the first 40 lines of
# a unified diff (golden first); at the end `golden: N passed, N failed`.
# Exit status 1 if any case failed, 2 on bad usage.
#
# The comparison is byte-exact with one allowance, the "Time:" line.
# pprof-c and Go 1.24's pprof print time_nanos as "2006-01-02 15:04:05
# MST"; Go 1.19's pprof (which made older goldens, such as those kept by
# other tests) printed "Jan 2, 2006 at 3:04pm (MST)". Before comparing,
# both forms are rewritten to "Time: 2006-01-02 15:04 MST" (the minute
# both show, in the same zone, TZ=UTC), so the line must still name the
# same minute; every other byte, "File:" included, must match. Nothing
# else in pprof's output varies between runs: "File:" is the base name of the profile's first
# mapping, "Duration:" comes from the profile, and ties in the sort are
# broken by name. A case passes only if the exit status is 0 as well;
# stderr is ignored.
#
# The environment is the one regen.sh gives go tool pprof: TZ=UTC, LC_ALL=C,
# PPROF_BINARY_PATH=an empty directory, PPROF_TOOLS= and PPROF_TMPDIR=a
# temporary directory. Each case gets 60 s (if timeout(1) exists).
set -u
GOLDEN=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$GOLDEN/../.." && pwd)

usage() {
	echo "usage: run.sh PPROF_C_BINARY [CASES_FILE...]" >&2
	echo "       run.sh --update [CASES_FILE...]" >&2
	exit 2
}
[ $# -ge 1 ] || usage
if [ "$1" = --update ]; then
	shift
	exec sh "$GOLDEN/regen.sh" "$@"
fi

BIN=$1
shift
case $BIN in
/*) ;;
*/*) BIN=$PWD/$BIN ;;
*) BIN=$(command -v "$BIN") || { echo "run.sh: $1: not found" >&2; exit 2; } ;;
esac
[ -x "$BIN" ] || { echo "run.sh: $BIN: not executable" >&2; exit 2; }

files=
if [ $# -eq 0 ]; then
	for f in "$GOLDEN"/*.cases; do files="$files $f"; done
else
	for f in "$@"; do
		case $f in /*) ;; *) f=$PWD/$f ;; esac
		[ -f "$f" ] || { echo "run.sh: $f: no such cases file" >&2; exit 2; }
		files="$files $f"
	done
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
mkdir "$TMP/bin" "$TMP/save"
export TZ=UTC LC_ALL=C PPROF_BINARY_PATH="$TMP/bin" PPROF_TOOLS= PPROF_TMPDIR="$TMP/save"

limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 60"

# The "Time:" line in either layout -> "Time: YYYY-MM-DD HH:MM ZONE".
canonical_time() {
	awk '
	BEGIN {
		split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", m, " ")
		for (i = 1; i <= 12; i++) mon[m[i]] = i
	}
	/^Time: [A-Z][a-z][a-z] [0-9]+, [0-9]+ at [0-9]+:[0-9][0-9][ap]m \(.*\)$/ {
		day = $3; sub(/,/, "", day)
		split($6, hm, ":")
		h = hm[1] + 0; min = substr(hm[2], 1, 2); ampm = substr(hm[2], 3, 2)
		if (ampm == "pm" && h != 12) h += 12
		if (ampm == "am" && h == 12) h = 0
		zone = $7; gsub(/[()]/, "", zone)
		printf "Time: %04d-%02d-%02d %02d:%s %s\n", $4, mon[$2], day, h, min, zone
		next
	}
	/^Time: [0-9]+-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] / {
		printf "Time: %s %s %s\n", $2, substr($3, 1, 5), $4
		next
	}
	{ print }
	'
}

cd "$ROOT" || exit 2
tab=$(printf '\t')
passed=0
failed=0
for cases in $files; do
	dir=${cases%.cases}
	while IFS=$tab read -r name args pprof_args; do
		case $name in '' | '#'*) continue ;; esac
		golden=$dir/$name.txt
		out=$TMP/out
		set -f
		# shellcheck disable=SC2086 # ARGS are split at spaces on purpose.
		$limit "$BIN" $args </dev/null >"$out" 2>"$TMP/err"
		rc=$?
		set +f
		why=
		if [ ! -f "$golden" ]; then
			why="no golden file $golden (run regen.sh)"
		elif [ "$rc" -ne 0 ]; then
			why="exit status $rc"
			[ "$rc" -eq 124 ] && [ -n "$limit" ] && why="timed out after 60 s"
		else
			canonical_time <"$golden" >"$TMP/golden.c"
			canonical_time <"$out" >"$TMP/out.c"
			cmp -s "$TMP/golden.c" "$TMP/out.c" || why="stdout differs"
		fi
		if [ -z "$why" ]; then
			echo "ok $name"
			passed=$((passed + 1))
			continue
		fi
		failed=$((failed + 1))
		echo "FAIL $name: $why"
		echo "    args: $args"
		if [ -s "$TMP/err" ] && [ "$rc" -ne 0 ]; then
			head -n 5 "$TMP/err" | sed 's/^/    stderr: /'
		fi
		if [ -f "$golden" ]; then
			diff -u -L "golden/$name" -L "pprof-c/$name" "$golden" "$out" | head -n 40
		fi
	done <"$cases"
done
echo "golden: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
