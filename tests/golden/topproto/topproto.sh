#!/bin/sh
# topproto against `go tool pprof -topproto`, case by case.
#
#   tests/golden/topproto/topproto.sh PPROF_C_BINARY   compare
#   tests/golden/topproto/topproto.sh --update         remake the goldens
#
# topproto writes gzip'd profile.proto, whose bytes differ with the gzip
# level, so each case compares the -raw dump of the profile: the golden
# NAME.txt is `go tool pprof -raw` of pprof's -topproto output for ARGS
# (line NAME<TAB>ARGS of `cases`), the test runs `pprof-c -topproto ARGS`
# and `pprof-c -raw` on the result. Environment as tests/golden/run.sh.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$DIR/../../.." && pwd)
[ $# -eq 1 ] || { echo "usage: topproto.sh PPROF_C_BINARY | --update" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
mkdir "$TMP/bin" "$TMP/save"
export TZ=UTC LC_ALL=C PPROF_BINARY_PATH="$TMP/bin" PPROF_TOOLS= PPROF_TMPDIR="$TMP/save"
cd "$ROOT" || exit 2
tab=$(printf '\t')
if [ "$1" = --update ]; then
	ref=$(sh tests/reference-go.sh --env) || { echo "topproto.sh: no reference Go" >&2; exit 1; }
	eval "$ref"
	while IFS=$tab read -r name args; do
		case $name in '' | '#'*) continue ;; esac
		set -f
		# shellcheck disable=SC2086 # ARGS are split at spaces on purpose.
		go tool pprof -topproto $args </dev/null >"$TMP/p.pb.gz" 2>/dev/null || { echo "FAIL $name: pprof" >&2; exit 1; }
		set +f
		go tool pprof -raw "$TMP/p.pb.gz" </dev/null >"$DIR/$name.txt" 2>/dev/null
	done <"$DIR/cases"
	exit 0
fi
BIN=$1
case $BIN in /*) ;; *) BIN=$OLDPWD/$BIN ;; esac
passed=0
failed=0
while IFS=$tab read -r name args; do
	case $name in '' | '#'*) continue ;; esac
	set -f
	# shellcheck disable=SC2086 # ARGS are split at spaces on purpose.
	"$BIN" -topproto -output="$TMP/o.pb.gz" $args </dev/null >/dev/null 2>"$TMP/err"
	rc=$?
	set +f
	if [ "$rc" -eq 0 ]; then
		"$BIN" -raw "$TMP/o.pb.gz" </dev/null >"$TMP/out" 2>>"$TMP/err"
		rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $name: exit status $rc: $(head -c 300 "$TMP/err")"
		failed=$((failed + 1))
	elif cmp -s "$DIR/$name.txt" "$TMP/out"; then
		echo "ok $name"
		passed=$((passed + 1))
	else
		echo "FAIL $name"
		diff -u "$DIR/$name.txt" "$TMP/out" | head -n 40
		failed=$((failed + 1))
	fi
done <"$DIR/cases"
echo "topproto: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
