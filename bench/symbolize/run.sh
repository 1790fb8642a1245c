#!/bin/bash
# Symbolization benchmark: pprof-c's in-process symbolizer (libdw) against
# `addr2line -f -i -C -e BIN` fed the same addresses in one batch, which is
# what pprof does per binary. See README.md.
#
#   bench/symbolize/run.sh [--bin BINARY] [--count N] [--check N] [--pprof-build DIR]
#
# BINARY defaults to bench/data/symbig, a large C++ -O2 -g binary built by
# build-big.sh. N (default 100000) distinct addresses are drawn at random
# from its .text; both tools resolve all of them (timed), then the first
# --check addresses (default 1000) are resolved again with addresses
# printed (addr2line -a) and the answers - every frame's function, file and
# line - must be identical. Prints a Markdown table.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DATA=$ROOT/bench/data
bin=
count=100000
check=1000
build=$ROOT/build
while [ $# -gt 0 ]; do
	case $1 in
	--bin) bin=$2; shift 2 ;;
	--count) count=$2; shift 2 ;;
	--check) check=$2; shift 2 ;;
	--pprof-build) build=$2; shift 2 ;;
	-h | --help) sed -n '2,14p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
command -v addr2line >/dev/null || { echo "run.sh: needs addr2line (binutils) as the reference" >&2; exit 2; }
mkdir -p "$DATA"
if [ -z "$bin" ]; then
	bash "$HERE/build-big.sh"
	bin=$DATA/symbig
fi
[ -f "$build/libpprof.a" ] || { echo "run.sh: build pprof-c first (meson compile -C $build)" >&2; exit 2; }

# The driver, linked with libpprof as pprof-c is.
drv=$DATA/symbench
cc -O2 -std=c11 -D_XOPEN_SOURCE=700 -I"$ROOT/include" -I"$ROOT/src" -o "$drv" "$HERE/symbench.c" \
	"$build/libpprof.a" "$build/libprofilepb.a" \
	$(pkg-config --libs libdw libelf libprotobuf-c zlib libdeflate libpcre2-8) -liberty -lm -lpthread

# N distinct addresses in .text.
read -r start size < <(readelf -SW "$bin" | awk '{ for (i = 1; i < NF; i++) if ($i == ".text") { print $(i + 2), $(i + 4); exit } }')
start=$((16#$start))
size=$((16#$size))
addrs=$DATA/symbench.addrs
if [ "$count" -gt "$size" ]; then count=$size; fi
# A fixed seed: the same addresses on every run, spread over all of .text.
awk -v n="$count" -v size="$size" -v s="$start" 'BEGIN {
	srand(42)
	while (k < n) {
		o = int(rand() * size)
		if (!(o in seen)) { seen[o] = 1; printf "0x%x\n", s + o; k++ }
	}
}' >"$addrs"
head -n "$check" "$addrs" >"$addrs.check"

# timed OUTVAR CMD...: runs CMD, sets OUTVAR to "WALL CPU" in seconds (CPU:
# user + system, steadier than wall time on a shared machine).
timed() {
	local var=$1 tf
	shift
	tf=$(mktemp)
	{ TIMEFORMAT='%R %U %S'; time "$@"; } 2>"$tf"
	read -r w u s < <(tail -n 1 "$tf")
	rm -f "$tf"
	printf -v "$var" '%s %s' "$w" "$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')"
}

# Timed runs: everything, output discarded.
timed ours bash -c '"$0" "$1" "$2" 2>"$3" >/dev/null' "$drv" "$bin" "$addrs" "$DATA/symbench.log"
timed theirs bash -c 'addr2line -f -i -C -e "$0" <"$1" >/dev/null' "$bin" "$addrs"

# Same answers on the check sample: every frame's function, the file's
# base name and the line. addr2line's "(discriminator N)" is not part of
# the line; "??:?" and "??:0" both mean unknown. Directories are left out
# because binutils 2.40 joins DWARF 5 directory entries to the compile
# directory twice (glibc: ./argp/./argp/argp-help.c for argp/argp-help.c).
norm() { sed -e 's/ (discriminator [0-9]*)$//' -e 's/^??:?$/??:0/' -e 's|^[^ ]*/\([^/ ]*:[0-9?]*\)$|\1|'; }
"$drv" "$bin" "$addrs.check" --print 2>/dev/null | norm >"$DATA/ours.txt"
addr2line -a -f -i -C -e "$bin" <"$addrs.check" | norm >"$DATA/addr2line.txt"
differ=$(diff "$DATA/addr2line.txt" "$DATA/ours.txt" | grep -c '^[<>]' || true)
same_addrs=$(awk '/^0x/ { if (a) print a; a = $0; next } { a = a "|" $0 } END { print a }' "$DATA/ours.txt" >"$DATA/o.k"
	awk '/^0x/ { if (a) print a; a = $0; next } { a = a "|" $0 } END { print a }' "$DATA/addr2line.txt" >"$DATA/a.k"
	paste -d'\n' "$DATA/o.k" "$DATA/a.k" | awk 'NR % 2 { x = $0; next } x == $0 { n++ } END { print n + 0 }')
frames=$(sed -n 's/.* \([0-9]*\) frames.*/\1/p' "$DATA/symbench.log")
read -r ours_wall ours_cpu <<<"$ours"
read -r theirs_wall theirs_cpu <<<"$theirs"
speedup=$(awk -v a="$ours_cpu" -v b="$theirs_cpu" 'BEGIN { printf "%.1f", b / (a > 0 ? a : 0.001) }')
echo "| binary | text | addresses | frames | pprof-c (libdw) wall / cpu | addr2line -f -i -C wall / cpu | speed-up (cpu) | identical answers |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
printf '| %s (%s MB file) | %s MB | %s | %s | %s s / %s s | %s s / %s s | %sx | %s of %s |\n' \
	"$(basename "$bin")" "$(( $(stat -c %s "$bin") / 1048576 ))" "$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')" \
	"$count" "$frames" "$ours_wall" "$ours_cpu" "$theirs_wall" "$theirs_cpu" "$speedup" "$same_addrs" "$check"
if [ "$differ" -ne 0 ]; then
	echo
	echo "answers differ on $((check - same_addrs)) of $check addresses (diff $DATA/addr2line.txt $DATA/ours.txt)" >&2
	exit 1
fi
