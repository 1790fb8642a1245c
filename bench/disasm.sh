#!/bin/bash
# disasm: `pprof-c disasm .` against `go tool pprof -disasm=.` (Go 1.24,
# tests/reference-go.sh) on a CPU profile of the SQLite bench binary: every
# sampled function of every sampled binary (SQLite, libc, the loader),
# disassembled and annotated, the same regex for both.
#
#   bash bench/disasm.sh [RUNS]          # default 2 runs per row
#
# Builds bench/data/sqlite (bench/symbolize/build-sqlite.sh) and profiles a
# fixed SQL workload under gperftools' libprofiler (bench/data/sqlite.cpu.prof,
# git-ignored; reused when present). Each row: the least elapsed and the
# least user+system time of the runs, the largest RSS; then the ratios.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-2}
PPROF_C=${PPROF_C:-$ROOT/build/pprof-c}
GO=$(sh "$ROOT/tests/reference-go.sh")/bin/go
DATA=$ROOT/bench/data
bash "$ROOT/bench/symbolize/build-sqlite.sh"
PROF=$DATA/sqlite.cpu.prof
SQL="CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);
WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM s WHERE x<600000)
  INSERT INTO t SELECT x, hex(randomblob(16)), x*1.5 FROM s;
CREATE INDEX tb ON t(b);
SELECT count(*), sum(length(b)), avg(c) FROM t WHERE b LIKE '%AB%';
SELECT substr(b,1,2), count(*), max(c) FROM t GROUP BY substr(b,1,2) ORDER BY 2 DESC LIMIT 5;
UPDATE t SET c = c + 1 WHERE a % 3 = 0;
DELETE FROM t WHERE a % 5 = 0;
SELECT sum(t.c * u.c) FROM t JOIN t AS u ON u.a = t.a + 1;
SELECT group_concat(b) FROM (SELECT b FROM t ORDER BY c DESC LIMIT 1000);
SELECT json_group_array(a) FROM t WHERE a < 50000;
SELECT count(DISTINCT round(c)) FROM t;"
if [ ! -s "$PROF" ]; then
	for lib in /usr/lib/*/libprofiler.so.0; do break; done
	LD_PRELOAD=$lib CPUPROFILE=$PROF \
		CPUPROFILE_FREQUENCY=1000 "$DATA/sqlite" "$SQL" >/dev/null
fi
cd "$DATA"

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
	last_e=$best_e last_c=$best_c
}

echo "profile: $(basename "$PROF"), $("$PPROF_C" top -nodecount=1 sqlite "$PROF" | sed -n 's/^Showing nodes.* of \(.*\) total$/\1 total/p')," \
	"$("$PPROF_C" disasm . sqlite "$PROF" 2>/dev/null | grep -c '^ROUTINE') routines, $RUNS runs"
echo
echo '| row | elapsed s | user+sys s | max RSS KB |'
echo '|---|---:|---:|---:|'
row 'pprof-c disasm .' "$PPROF_C" disasm . sqlite "$PROF"
ours_e=$last_e ours_c=$last_c
row 'go tool pprof -disasm=.' "$GO" tool pprof -disasm=. sqlite "$PROF"
echo
echo "go tool pprof / pprof-c: $(echo "scale=1; $last_c / $ours_c" | bc)x CPU," \
	"$(echo "scale=1; $last_e / $ours_e" | bc)x elapsed"
rm -f time.out
