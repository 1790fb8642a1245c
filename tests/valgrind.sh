#!/bin/bash
# Memcheck over the command-line and golden tests: every pprof-c run goes
# through valgrind, and any error or leak fails it. Needs a build without
# sanitizers (valgrind and ASan do not mix). Usage:
#   tests/valgrind.sh [--all] [BUILD_DIR]     (default: build)
# Without --all, one golden case in every 6 runs (every report shape and
# option family is still covered, in a few minutes on two cores); --all runs
# them all. Prints "valgrind: N passed, N failed" (one per job).
set -u
cd "$(dirname "$0")/.." || exit 1
every=6
if [ "${1:-}" = --all ]; then
	every=1
	shift
fi
bdir=${1:-build}
bin="$PWD/$bdir/pprof-c"
[ -x "$bin" ] || { echo "valgrind: no $bin (build first)"; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind: not installed"; exit 1; }
wrap=$(mktemp -d)
# Readable by all: tests/cli/output.sh runs the wrapper as another user,
# so the wrapper runs a copy of the binary kept here, out of a build tree
# that user may not reach (a clone in root's home).
chmod 755 "$wrap"
trap 'rm -rf "$wrap"' EXIT
cp "$bin" "$wrap/pprof-c.bin" || exit 1
bin="$wrap/pprof-c.bin"
# The wrapper keeps pprof-c's own exit status but turns any memcheck
# finding into status 99, which no test expects.
cat >"$wrap/pprof-c" <<EOW
#!/bin/bash
exec valgrind -q --error-exitcode=99 --leak-check=full \
	--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
	"$bin" "\$@"
EOW
chmod +x "$wrap/pprof-c"
passed=0
failed=0
export TZ=UTC LC_ALL=C SRCDIR="$PWD" PPROF_C="$wrap/pprof-c"

# Jobs: the CLI scripts, and each golden cases file that meson runs (the
# ones listed in tests/meson.build), split in two halves so both cores
# work. A half is a cases file in a scratch directory next to a link to
# the real goldens, which is all run.sh needs.
jobs=()
for t in tests/cli/errors.sh tests/cli/options.sh tests/cli/http_errors.sh \
	tests/cli/output.sh tests/cli/hostile.sh tests/cli/hostile_outputs.sh \
	tests/cli/http.sh; do
	jobs+=("cli $t")
done
for name in $(grep -o "'[a-z_]*\.cases'" tests/meson.build | tr -d "'"); do
	c=tests/golden/$name
	[ -f "$c" ] || continue
	base=${name%.cases}
	for half in 0 1; do
		mkdir -p "$wrap/h$half"
		ln -sfn "$PWD/tests/golden/$base" "$wrap/h$half/$base"
		grep -v '^#' "$c" | grep . | awk -v h="$half" -v e="$every" \
			'NR % e == 0 || e == 1 { if (++n % 2 == h) print }' >"$wrap/h$half/$name"
		jobs+=("golden $wrap/h$half/$name")
	done
done

run_job() {
	local kind=$1 what=$2 log
	log=$(mktemp "$wrap/log.XXXXXX")
	if [ "$kind" = cli ]; then
		bash "$what" >"$log" 2>&1
	else
		bash tests/golden/run.sh "$PPROF_C" "$what" >"$log" 2>&1
	fi
	local rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "PASS $what"
	elif [ "$rc" -eq 77 ]; then
		echo "SKIP $what"
	else
		echo "FAILED $what"
		# A failure's stderr runs over several lines: show a few of each.
		grep -E -A4 "FAIL|==[0-9]+==" "$log" | head -30
	fi
}
export -f run_job
export wrap
results=$(printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c 'run_job {}')
echo "$results" | grep -v '^PASS'
passed=$(echo "$results" | grep -c '^PASS')
failed=$(echo "$results" | grep -c '^FAILED')
skipped=$(echo "$results" | grep -c '^SKIP')
# A test that could not run whole is counted apart, never as a pass.
echo "valgrind: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
