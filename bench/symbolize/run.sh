#!/bin/bash
# Symbolization benchmark: pprof-c's in-process symbolizer (libdw) against
# `addr2line -f -i -C -e BIN` fed the same addresses in one batch, which is
# what pprof does per binary. See README.md.
#
#   bench/symbolize/run.sh [--bin BINARY] [--count N] [--check N] [--pprof-build DIR]
#
# BINARY defaults to bench/data/symbig, a large C++ -O2 -g binary built by
# build-big.sh. N (default 100000) distinct addresses are drawn at random
# from inside its functions; both tools resolve all of them (timed), then
# the first --check addresses (default 1000) are resolved again with addresses
# printed (addr2line -a) and the answers - every frame's function, file and
# line - are compared. An answer that differs from addr2line's must be
# llvm-symbolizer's (addr2line misnames inlined frames; see RESULTS.md);
# one that differs from both fails the run, and is listed. Prints a
# Markdown table.
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
	-h | --help) sed -n '2,17p' "$0"; exit 0 ;;
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

# N distinct addresses inside functions, as a profile's are: drawn from the
# bytes that sized function symbols cover (the binary's .symtab, or its
# debug file's when the binary has none), not from the alignment padding
# between functions, where no instruction is and which no profile holds.
read -r _ size < <(readelf -SW "$bin" | awk '{ for (i = 1; i < NF; i++) if ($i == ".text") { print $(i + 2), $(i + 4); exit } }')
size=$((16#$size))
symsrc=$bin
if ! readelf -SW "$bin" | grep -q ' \.symtab '; then
	id=$(readelf -n "$bin" | sed -n 's/.*Build ID: *//p')
	if [ -n "$id" ] && [ -f "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ]; then
		symsrc=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	fi
fi
addrs=$DATA/symbench.addrs
# A fixed seed: the same addresses on every run, spread over all functions.
readelf -sW "$symsrc" | awk -v n="$count" '
function num(s,   v, i, c) {
	if (s !~ /^0x/) return s + 0
	v = 0
	for (i = 3; i <= length(s); i++) { c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1; v = v * 16 + c }
	return v
}
$4 == "FUNC" && $7 != "UND" && num($3) > 0 { lo = num("0x" $2); hi = lo + num($3); if (!(lo in end) || end[lo] < hi) end[lo] = hi }
END {
	k = 0
	for (lo in end) los[++k] = lo + 0
	# by address (a heap sort: mawk has no sort)
	m = k
	for (i = int(m / 2); i >= 1; i--) sift(i, m)
	for (i = m; i > 1; i--) { t = los[1]; los[1] = los[i]; los[i] = t; sift(1, i - 1) }
	# merge overlapping extents; cum[j] = bytes before extent j
	e = 0; total = 0
	for (i = 1; i <= k; i++) {
		lo = los[i]; hi = end[lo]
		if (e > 0 && lo < ehi[e]) { if (hi > ehi[e]) { total += hi - ehi[e]; ehi[e] = hi }; continue }
		elo[++e] = lo; ehi[e] = hi; cum[e] = total; total += hi - lo
	}
	if (n > total) n = total
	srand(42)
	while (got < n) {
		o = int(rand() * total)
		a = 1; b = e
		while (a < b) { c = int((a + b + 1) / 2); if (cum[c] <= o) a = c; else b = c - 1 }
		addr = elo[a] + o - cum[a]
		if (!(addr in seen)) { seen[addr] = 1; printf "0x%x\n", addr; got++ }
	}
}
function sift(i, m,   c, t) {
	while (2 * i <= m) {
		c = 2 * i
		if (c < m && los[c + 1] > los[c]) c++
		if (los[i] >= los[c]) return
		t = los[i]; los[i] = los[c]; los[c] = t; i = c
	}
}' >"$addrs"
count=$(wc -l <"$addrs")
[ "$count" -gt 0 ] || { echo "run.sh: no sized function symbols in $symsrc" >&2; exit 2; }
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

# llvm-symbolizer, when installed (Debian's llvm package): a second
# reference, for speed and for answers, since addr2line misnames some
# inlined frames (see RESULTS.md).
llvm=$(command -v llvm-symbolizer || true)
llvm_args=(--obj="$bin" --inlining --output-style=GNU --demangle --debug-file-directory=/usr/lib/debug)
if [ -n "$llvm" ]; then
	timed llvmt bash -c '"$0" "${@:2}" <"$1" >/dev/null' "$llvm" "$addrs" "${llvm_args[@]}"
fi

# Same answers on the check sample: every frame's function, the file's
# base name and the line. addr2line's "(discriminator N)" is not part of
# the line; "??:?" and "??:0" both mean unknown. Directories are left out
# because binutils 2.40 joins DWARF 5 directory entries to the compile
# directory twice (glibc: ./argp/./argp/argp-help.c for argp/argp-help.c).
# Go's runtime names an assembly function without the ELF symbol's ABI
# suffix (profiles from Go say cmd/internal/notsha256.block, the symbol
# table ...block.abi0), and so does its DWARF and so do we.
norm() { sed -e 's/ (discriminator [0-9]*)$//' -e 's/^??:?$/??:0/' -e 's|^[^ ]*/\([^/ ]*:[0-9?]*\)$|\1|' -e 's/^\([^ ]*\)\.abi0$/\1/'; }
# Addresses as addr2line -a prints them: 0x and 16 digits.
pad() { awk '/^0x[0-9a-f]+$/ { printf "0x%016s\n", substr($0, 3); next } { print }' | sed '/^0x/ s/ /0/g'; }
# Go's runtime leaves the compiler's wrappers (a pointer method calling its
# value method, at <autogenerated>:1) out of the stacks it records, but for
# a leaf, and so do we; the references' answers lose them too.
nowrappers() {
	awk '/^0x/ { print; n = 0; next }
	     n % 2 == 0 { f = $0; n++; next }
	     { n++; if (n > 2 && $0 ~ /^<autogenerated>:/) next; print f; print }'
}
"$drv" "$bin" "$addrs.check" --print 2>/dev/null | norm >"$DATA/ours.txt"
addr2line -a -f -i -C -e "$bin" <"$addrs.check" | norm | nowrappers >"$DATA/addr2line.txt"
if [ -n "$llvm" ]; then
	"$llvm" -a "${llvm_args[@]}" <"$addrs.check" | sed '/^$/d' | pad | norm | nowrappers >"$DATA/llvm.txt"
	# LLVM's demangler spells libiberty's {lambda(ARGS)#N} 'lambda'(ARGS).
	sed -E "s/\{lambda\(([^()]*)\)#[0-9]+\}/'lambda'(\1)/g" "$DATA/ours.txt" >"$DATA/ours.llvm.txt"
fi
# One line per address: the address, then each frame's lines, "|"-joined.
joined() { awk '/^0x/ { if (a) print a; a = $0; next } { a = a "|" $0 } END { print a }' "$1"; }
joined "$DATA/ours.txt" >"$DATA/o.k"
joined "$DATA/addr2line.txt" >"$DATA/a.k"
# same REFERENCE OURS: how many addresses have all frames as in REFERENCE.
same() { paste -d'\n' "$2" "$1" | awk 'NR % 2 { x = $0; next } x == $0 { n++ } END { print n + 0 }'; }
same_addrs=$(same "$DATA/a.k" "$DATA/o.k")
if [ -n "$llvm" ]; then
	joined "$DATA/llvm.txt" >"$DATA/l.k"
	joined "$DATA/ours.llvm.txt" >"$DATA/ol.k"
	llvm_same=$(same "$DATA/l.k" "$DATA/ol.k")
	# Addresses where we differ from both as a whole. Where all three
	# have the same number of frames, each line (a function, a file:line)
	# that one of the references gives is confirmed: both references have
	# defects, at different frames of one chain (addr2line's inlined
	# names, llvm-symbolizer's mangled ones).
	paste -d'\t' "$DATA/o.k" "$DATA/a.k" "$DATA/ol.k" "$DATA/l.k" |
		awk -F'\t' -v mixed="$DATA/mixed.count" '
		$1 == $2 || $3 == $4 { next }
		{
			n = split($3, o, "|"); na = split($2, a, "|"); nl = split($4, l, "|")
			ok = n == na && n == nl
			for (i = 1; ok && i <= n; i++)
				ok = o[i] == a[i] || o[i] == l[i]
			if (ok) { m++; next }
			print "ours:        " $1; print "addr2line:   " $2; print "llvm-symb.:  " $4
		}
		END { print m + 0 >mixed }' >"$DATA/neither.txt"
	mixed=$(cat "$DATA/mixed.count")
else
	mixed=0
	paste -d'\t' "$DATA/o.k" "$DATA/a.k" |
		awk -F'\t' '$1 != $2 { print "ours:        " $1; print "addr2line:   " $2 }' >"$DATA/neither.txt"
fi
neither=$(grep -c '^ours:' "$DATA/neither.txt" || true)
frames=$(sed -n 's/.* \([0-9]*\) frames.*/\1/p' "$DATA/symbench.log")
read -r ours_wall ours_cpu <<<"$ours"
read -r theirs_wall theirs_cpu <<<"$theirs"
echo "| binary | text | addresses | frames | pprof-c (libdw) wall / cpu | reference | its wall / cpu | speed-up (cpu) | identical answers |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
row() { # REFERENCE WALL CPU SAME
	printf '| %s (%s MB file) | %s MB | %s | %s | %s s / %s s | %s | %s s / %s s | %sx | %s of %s |\n' \
		"$(basename "$bin")" "$(( $(stat -c %s "$bin") / 1048576 ))" "$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')" \
		"$count" "$frames" "$ours_wall" "$ours_cpu" "$1" "$2" "$3" \
		"$(awk -v a="$ours_cpu" -v b="$3" 'BEGIN { printf "%.1f", b / (a > 0 ? a : 0.001) }')" "$4" "$check"
}
row "addr2line -f -i -C" "$theirs_wall" "$theirs_cpu" "$same_addrs"
if [ -n "$llvm" ]; then
	read -r llvm_wall llvm_cpu <<<"$llvmt"
	row "llvm-symbolizer --inlining" "$llvm_wall" "$llvm_cpu" "$llvm_same"
fi
echo
echo "Of the $check checked addresses, $same_addrs answers are addr2line's, $((check - same_addrs - mixed - neither)) more are llvm-symbolizer's, $mixed more have each line from one of the two, $neither have a line from neither."
if [ "$neither" -ne 0 ]; then
	echo "answers that differ from both references: $DATA/neither.txt" >&2
	exit 1
fi
