#!/bin/bash
# Memcheck over the command-line and golden tests: every pprof-c run goes
# through valgrind, and any error or leak fails it. Needs a build without
# sanitizers (valgrind and ASan do not mix). Usage:
#   tests/valgrind.sh [BUILD_DIR]     (default: build)
# Prints "valgrind: N passed, N failed" (one per test script).
set -u
cd "$(dirname "$0")/.."
bdir=${1:-build}
bin="$PWD/$bdir/pprof-c"
[ -x "$bin" ] || { echo "valgrind: no $bin (build first)"; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind: not installed"; exit 1; }
wrap=$(mktemp -d)
trap 'rm -rf "$wrap"' EXIT
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
for t in tests/cli/errors.sh tests/cli/options.sh; do
	if bash "$t" >"$wrap/log" 2>&1; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "valgrind: $t failed:"
		tail -20 "$wrap/log"
	fi
done
for c in tests/golden/*.cases; do
	[ -f "$c" ] || continue
	if bash tests/golden/run.sh "$PPROF_C" "$c" >"$wrap/log" 2>&1; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "valgrind: $c failed:"
		grep -E "FAIL|==[0-9]+==" "$wrap/log" | head -20
	fi
done
echo "valgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
