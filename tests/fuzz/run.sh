#!/bin/bash
# Run every libFuzzer target for a bounded time and fail on any finding.
# Usage: tests/fuzz/run.sh [SECONDS_PER_TARGET] [BUILD_DIR]
# Builds BUILD_DIR (default build-fuzz) with clang, -Dfuzz=true, ASan and
# UBSan if it does not exist. Seeds: tests/fuzz/corpus/<target> and the
# real profiles in testdata/. Crashes are left in BUILD_DIR/fuzz-out/ and
# should be copied into tests/fuzz/corpus/<target>/ once fixed, so every
# build replays them. Prints one summary line per target and a final
# "fuzz: N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
secs=${1:-30}
bdir=${2:-build-fuzz}
# A failed build shows its own messages (the compiler's, the linker's),
# not only that it failed.
build_log="$bdir.build.log"
if [ ! -f "$bdir/build.ninja" ]; then
	if ! CC=clang meson setup "$bdir" -Dfuzz=true --buildtype=debugoptimized \
		-Db_sanitize=address,undefined -Db_lundef=false >"$build_log" 2>&1; then
		tail -n 30 "$build_log"
		[ -f "$bdir/meson-logs/meson-log.txt" ] && tail -n 20 "$bdir/meson-logs/meson-log.txt"
		echo "fuzz: build failed (meson setup; above, the end of $build_log)"
		exit 1
	fi
fi
if ! meson compile -C "$bdir" >"$build_log" 2>&1; then
	grep -E -B2 -A12 'FAILED:|error:|cannot find' "$build_log" | head -n 60
	echo "fuzz: build failed (above, the build's messages; all of them in $build_log)"
	exit 1
fi
passed=0
failed=0
out="$bdir/fuzz-out"
mkdir -p "$out"
for bin in "$bdir"/tests/fuzz/fuzz_*; do
	[ -f "$bin" ] && [ -x "$bin" ] || continue
	t=$(basename "$bin" | sed 's/^fuzz_//')
	work="$out/$t"
	rm -rf "$work" && mkdir -p "$work/corpus" "$work/crashes"
	cp tests/fuzz/corpus/"$t"/* "$work/corpus/" 2>/dev/null
	for f in testdata/go/* testdata/native/* testdata/legacy/* testdata/dumps/* testdata/perf/*; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 1048576 ] && cp "$f" "$work/corpus/"
	done
	dict=""
	[ -f "tests/fuzz/$t.dict" ] && dict="-dict=tests/fuzz/$t.dict"
	[ -z "$dict" ] && [ -f tests/fuzz/profile.dict ] && dict="-dict=tests/fuzz/profile.dict"
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	ASAN_OPTIONS=detect_leaks=1 \
	LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp \
		"$bin" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
		-print_final_stats=1 $dict -artifact_prefix="$work/crashes/" \
		"$work/corpus" >"$work/log" 2>&1
	rc=$?
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$')
	if [ "$rc" -eq 0 ] && [ -z "$(ls "$work/crashes")" ]; then
		passed=$((passed + 1))
		echo "fuzz $t: ok, ${execs:-?} executions in ${secs}s"
	else
		failed=$((failed + 1))
		echo "fuzz $t: FINDING (exit $rc): $(ls "$work/crashes")"
		grep -E 'ERROR|SUMMARY|runtime error' "$work/log" | head -5
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
