#!/bin/bash
# `perf script` text as input (testdata/perf/, made by testdata/gen/perf/run.sh
# from a real recording): every function's flat and cum sample counts, the
# totals and the labels must equal counts taken from the text with awk; a
# multi-event file gets a sample type per event; stdin works; a header
# without frames and a broken frame line are errors naming the line.
. "$(dirname "$0")/lib.sh"
PERF="$SRCDIR/testdata/perf/cxxprog.perf.txt"

# name<TAB>flat<TAB>cum per symbol perf named, from the text.
awk 'function flush(   s) { if (!n) return; if (st[1] != "[unknown]") flat[st[1]]++
                            delete seen; for (i = 1; i <= n; i++) if (st[i] != "[unknown]" && !seen[st[i]]++) cum[st[i]]++; n = 0 }
     /^[^ \t]/ { flush(); next }
     /^[ \t]*$/ { flush(); next }
     { line = $0; sub(/^[ \t]+[0-9a-f]+ /, "", line); sub(/ \([^()]*\)$/, "", line); sub(/\+0x[0-9a-f]+$/, "", line); st[++n] = line }
     END { flush(); for (s in cum) printf "%s\t%d\t%d\n", s, flat[s] + 0, cum[s] }' "$PERF" | sort >"$TMP/want"
samples=$(grep -c '^[^[:space:]]' "$PERF")

run -top -symbolize=none -sample_index=samples -nodecount=100000 -nodefraction=0 -edgefraction=0 "$PERF"
expect_status 0 "top of perf script text"
grep -q "^Showing nodes accounting for $samples, 100% of $samples total$" "$TMP/out" && ok ||
	bad "perf script: $samples samples in all"
grep -q '^File: cxxprog$' "$TMP/out" && ok || bad "perf script: the program's DSO is the main mapping"
grep -q '^Type: samples$' "$TMP/out" && ok || bad "perf script: -sample_index=samples"
awk 'rows && $6 != "" { n = $6; for (i = 7; i <= NF; i++) n = n " " $i; if (n != "<unknown>" && n !~ /^\[.*\]$/) printf "%s\t%d\t%d\n", n, $1, $4 } / flat  flat%/ { rows = 1 }' "$TMP/out" |
	sort >"$TMP/got"
if [ "$(wc -l <"$TMP/want")" -gt 20 ] && cmp -s "$TMP/want" "$TMP/got"; then ok; else
	bad "perf script: flat and cum of every function: $(diff "$TMP/want" "$TMP/got" | head -5)"
fi

# The period column: cpu-clock in nanoseconds, the default sample type.
run -top -nodecount=1 "$PERF"
period_total=$(awk '/^[^ \t]/ { for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { s += $(i + 1); break } } END { printf "%.2fms", s / 1e6 }' "$PERF")
grep -q '^Type: cpu-clock$' "$TMP/out" && ok || bad "perf script: cpu-clock is the default type"
grep -q "Total samples = $period_total " "$TMP/out" && ok ||
	bad "perf script: the periods add up to $period_total: $(sed -n 3p "$TMP/out")"

run -tags -sample_index=samples "$PERF"
grep -Eq "^ +$samples(\.0)? \( +100%\): cxxprog$" "$TMP/out" && ok || bad "perf script: comm label"
run -tags -sample_index=samples "$PERF"
pid=$(awk 'NR == 1 { print $2 }' "$PERF")
grep -Eq "^ +$samples(\.0)? \( +100%\): $pid$" "$TMP/out" && ok || bad "perf script: pid label $pid"

# Lines and inlined frames from the DSO's DWARF (perf gives none): the
# samples whose leaf is in testdata/native/cxxprog (the path perf wrote is
# relative to the repository, the tests' directory), each line's flat
# count against addr2line's innermost line for the leaf's address.
awk 'BEGIN { RS = ""; FS = "\n" } $2 ~ /\(\.\/testdata\/native\/cxxprog\)$/ { print $0 "\n" }' \
	"$PERF" >"$TMP/own.txt"
if command -v addr2line >/dev/null; then
	awk 'BEGIN { RS = ""; FS = "\n" } { split($2, f, " "); print f[1] }' "$TMP/own.txt" |
		sort | uniq -c >"$TMP/leaves"
	awk '{ print $2 }' "$TMP/leaves" |
		addr2line -e "$SRCDIR/testdata/native/cxxprog" -i -a |
		awk '/^0x/ { a = $1; sub(/^0x0*/, "", a); first = 1; next }
		     first { sub(/ \(discriminator [0-9]+\)$/, ""); sub(/^\.\//, ""); print a "\t" $0; first = 0 }' \
		>"$TMP/addr_line"
	awk 'NR == FNR { line[$1] = $2; next } { n[line[$2]] += $1 } END { for (k in n) print k "\t" n[k] }' \
		"$TMP/addr_line" "$TMP/leaves" | sort >"$TMP/want_lines"
	run -top -lines -sample_index=samples -nodecount=100000 -nodefraction=0 -edgefraction=0 "$TMP/own.txt"
	expect_status 0 "perf script with lines"
	awk 'rows && $1 > 0 { for (i = 6; i <= NF; i++) if ($i ~ /:[0-9]+$/) n[$i] += $1 } / flat  flat%/ { rows = 1 }
	     END { for (k in n) print k "\t" n[k] }' "$TMP/out" | sort >"$TMP/got_lines"
	if [ "$(wc -l <"$TMP/want_lines")" -gt 5 ] && cmp -s "$TMP/want_lines" "$TMP/got_lines"; then ok; else
		bad "perf script: flat per line against addr2line: $(diff "$TMP/want_lines" "$TMP/got_lines" | head -5)"
	fi
else
	part_skipped "no addr2line to check perf script's lines against"
fi
run -list 'Accumulator::feed' "$PERF"
grep -Eq '^ +113(\.[0-9]+)?ms +113(\.[0-9]+)?ms +35:' "$TMP/out" &&
	grep -Eq '^ +205(\.[0-9]+)?ms +205(\.[0-9]+)?ms +36:' "$TMP/out" && ok ||
	bad "perf script: list of Accumulator::feed: $(head -9 "$TMP/out")"
run -top -nodecount=100 "$PERF"
grep -q ' (inline)$' "$TMP/out" && ok || bad "perf script: inlined frames from DWARF"
[ ! -s "$TMP/err" ] && ok || bad "perf script: lines looked up quietly: $(head -3 "$TMP/err")"
# A DSO that is not here, or another binary (whose DWARF names other
# functions at perf's addresses): perf's frames stay, without lines, and
# nothing is said.
for dso in no-such-binary cprog-pie; do
	sed "s|(\./testdata/native/cxxprog)$|(./testdata/native/$dso)|" "$PERF" >"$TMP/$dso.txt"
	run -top -lines -nodecount=100 "$TMP/$dso.txt"
	sed 1d "$TMP/out" >"$TMP/$dso.out"
	[ ! -s "$TMP/err" ] && ok || bad "perf script, DSO $dso: quiet: $(head -2 "$TMP/err")"
done
grep -q ' pprofc::work::Accumulator::feed$' "$TMP/no-such-binary.out" && ok ||
	bad "perf script, DSO not here: perf's frame for Accumulator::feed: $(sed -n 6,8p "$TMP/no-such-binary.out")"
cmp -s "$TMP/no-such-binary.out" "$TMP/cprog-pie.out" && ok ||
	bad "perf script, DSO another binary: perf's frames: $(diff "$TMP/no-such-binary.out" "$TMP/cprog-pie.out" | head -4)"

# Two events, pid/tid, a [cpu] field, a command with a space, stdin.
# "cold(int)" keeps its parameters, as pprof keeps them on a name with no
# "::" or brackets.
cat >"$TMP/two.txt" <<'EOT'
my prog 10/11 [001] 100.000000:     3000 cycles:u:
	    4005d0 hot+0x10 (/usr/bin/myprog)
	    400700 main+0x20 (/usr/bin/myprog)

my prog 10/12 [000] 100.500000:      500 instructions:u:
	    4005d4 hot+0x14 (/usr/bin/myprog)
	    400700 main+0x20 (/usr/bin/myprog)

my prog 10/11 [001] 101.000000:     2000 cycles:u:
	    400800 cold(int)+0x8 (/usr/bin/myprog)
	    400700 main+0x20 (/usr/bin/myprog)
EOT
"$PPROF_C" -top -sample_index=cycles - <"$TMP/two.txt" >"$TMP/out" 2>"$TMP/err"
RC=$?
expect_status 0 "perf script on stdin"
if grep -q '^Duration: 1s, Total samples = 5000 $' "$TMP/out" &&
	grep -Eq '^ +3000 60\.00% 60\.00% +3000 60\.00%  hot$' "$TMP/out" &&
	grep -Eq '^ +2000 40\.00% +100% +2000 40\.00%  cold\(int\)$' "$TMP/out"; then ok; else
	bad "two events: cycles 3000 in hot, 2000 in cold: $(cat "$TMP/out" "$TMP/err")"
fi
run -top -sample_index=instructions "$TMP/two.txt"
grep -Eq '^ +500 +100% +100% +500 +100%  hot$' "$TMP/out" && ok || bad "two events: instructions"
run -raw "$TMP/two.txt"
grep -q '^samples/count cycles/count instructions/count$' "$TMP/out" && ok || bad "two events: sample types"
grep -q 'tid:\[12\]' "$TMP/out" && grep -q 'pid:\[10\]' "$TMP/out" && ok || bad "pid/tid labels"
run -tags "$TMP/two.txt"
grep -Eq '\): my prog$' "$TMP/out" && ok || bad "a command with a space"

# Timestamps 1e35 s apart: the duration is the most a profile holds, not
# an overflow (UBSan's float-cast-overflow stops the sanitized build).
printf 'prog 1 1.000000: 10 cpu-clock:\n\t 4005d0 hot+0x1 (/bin/prog)\n\nprog 1 99999999999999999999999999999999999.000000: 10 cpu-clock:\n\t 4005d0 hot+0x1 (/bin/prog)\n' >"$TMP/far.txt"
run -top "$TMP/far.txt"
expect_status 0 "timestamps 1e35 s apart"
grep -q '^Duration: 2562047.79hrs, ' "$TMP/out" && ok ||
	bad "timestamps 1e35 s apart: $(head -5 "$TMP/out" "$TMP/err")"

# Broken input: a frame line that is not one, after a good sample.
printf 'prog 1 5.000000: 10 cpu-clock:\n\t 4005d0 hot+0x1 (/bin/prog)\n\nprog 1 6.000000: 10 cpu-clock:\n\tnot a frame\n' >"$TMP/bad.txt"
run -top "$TMP/bad.txt"
expect_status 1 "a broken frame line"
grep -q 'bad.txt:5: not a perf script sample header or frame' "$TMP/err" && ok ||
	bad "broken frame: the error names the line: $(cat "$TMP/err")"
finish
