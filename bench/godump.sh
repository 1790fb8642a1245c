#!/bin/bash
# Goroutine dumps: pprof-c reading the debug=2 dump of a process with N
# parked goroutines, against `go tool pprof` reading the debug=1 goroutine
# profile of the same process (the nearest thing pprof reads: it has no
# reader for dumps), and against the floors `cat` and `wc -l` of the dump.
#
#   bash bench/godump.sh [N] [RUNS]      # default 50000 goroutines, 5 runs
#
# Builds testdata/gen/dumps with the go on PATH and writes
# bench/data/godump/N/ (git-ignored; reused when present). Each row is run
# RUNS times with stdout to /dev/null; the table gives the least elapsed
# and the least user+system time of the runs and the largest RSS. A last
# row reads the dump repeated four times over (4N goroutines, the same
# stacks) to show that memory grows with the input bytes only.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/go-pprof.sh"
GOCMD=$(go_pprof "$ROOT")
N=${1:-50000}
RUNS=${2:-5}
PPROF_C=${PPROF_C:-$ROOT/build/pprof-c}
DIR=$ROOT/bench/data/godump/$N
if [ ! -f "$DIR/big.goroutine.debug2.txt" ]; then
	mkdir -p "$DIR"
	(cd "$ROOT/testdata/gen/dumps" && CGO_ENABLED=0 go build -trimpath -o "$DIR/dumps" .)
	(cd "$DIR" && GOMAXPROCS=2 ./dumps -big "$N" -out .)
	for i in 1 2 3 4; do cat "$DIR/big.goroutine.debug2.txt"; done >"$DIR/big4.goroutine.debug2.txt"
fi
cd "$DIR"
cat ./*.txt >/dev/null

row() {
	name=$1
	shift
	best_e=999999 best_c=999999 rss=0
	for ((i = 0; i < RUNS; i++)); do
		TIMEFORMAT='%3R %3U %3S'
		t=$( { time "$@" >/dev/null 2>&1; } 2>&1)
		read -r e u s <<<"$t"
		c=$(echo "$u + $s" | bc)
		best_e=$(echo "if ($e < $best_e) $e else $best_e" | bc)
		best_c=$(echo "if ($c < $best_c) $c else $best_c" | bc)
		/usr/bin/time -f '%M' -o time.out "$@" >/dev/null 2>&1
		m=$(cat time.out)
		[ "$m" -gt "$rss" ] && rss=$m
	done
	printf '| %s | %s | %s | %s |\n' "$name" "$best_e" "$best_c" "$rss"
}

echo "goroutines: $N; dump $(stat -c %s big.goroutine.debug2.txt) bytes, debug=1 profile $(stat -c %s big.goroutine.debug1.txt) bytes; $RUNS runs"
echo
echo '| row | elapsed s | user+sys s | max RSS KB |'
echo '|---|---:|---:|---:|'
row 'cat dump (floor)' cat big.goroutine.debug2.txt
row 'wc -l dump (floor)' wc -l big.goroutine.debug2.txt
row 'pprof-c top dump' "$PPROF_C" top big.goroutine.debug2.txt
row "go tool pprof -top debug=1 ($("$GOCMD" version | cut -d' ' -f3))" "$GOCMD" tool pprof -top big.goroutine.debug1.txt
row 'pprof-c top debug=1' "$PPROF_C" top big.goroutine.debug1.txt
row 'pprof-c top dump x4' "$PPROF_C" top big4.goroutine.debug2.txt
rm -f time.out
