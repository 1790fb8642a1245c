#!/bin/bash
# Native profiles: gperftools CPU and heap profiles of our C and C++
# programs (testdata/native/), symbolized in process from the committed
# binaries, checked against the references' answers in tests/golden/native/:
#
#  - google-pprof --text BIN PROF (binutils' addr2line -i and nm): every
#    function name, inlined ones included, with its flat and cum, must be
#    ours too. Its layout differs (sample counts, no units), so values are
#    compared, not bytes. Names are compared with parameter lists removed,
#    since google-pprof cuts names at the first '(' (`operator`, `{lambda#1}`).
#  - go tool pprof -top BIN PROF: header lines and totals must be the same,
#    and the cum of every function it names. go tool pprof (1.19, 1.24) reports no
#    inlined frames, and leaves functions of C++ classes and `main` of a PIE
#    unnamed (`[cxxprog]`, `[cprog-pie]`): there we assert our better answer.
#
# The legacy readers themselves are checked byte for byte against go tool
# pprof with -symbolize=none (tests/golden/legacy.cases).
. "$(dirname "$0")/lib.sh"
N="$SRCDIR/testdata/native"
G="$SRCDIR/tests/golden/native"
# Our binaries by base name; system libraries at their own paths.
export PPROF_BINARY_PATH="$N"

# "name flat cum" lines from a pprof-c top run with -sample_index=samples
# (CPU: counts, as google-pprof prints) or -unit=MB (heap).
ours() {
	awk -v heap="${2:-}" 'function mb(v) { if (v ~ /B$/) sub(/B$/, "", v); else if (heap == "" || v != "0") return v
	                          return sprintf("%.1f", v / 1048576) }
	     f { n = $6; for (i = 7; i <= NF; i++) n = n " " $i;
	         print n "\t" mb($1) "\t" mb($4) }
	     /flat%/ { f = 1 }' "$1" | norm
}
theirs() {
	awk 'NR > 1 { n = $6; for (i = 7; i <= NF; i++) n = n " " $i;
	              print n "\t" $1 "\t" $4 }' "$1" | norm
}
# Parameter lists out, symbol versions out, "./" out of file names
# (addr2line prints comp_dir "." joined, pprof cleans it); "(inline)" kept,
# at the end.
norm() {
	sed -e 's/ (inline)//' -e 't i' -e 'b n' -e ':i' -e 's/\t/ @INLINE@\t/' -e ':n' \
		-e 's/@@\?GLIBC[A-Z_0-9.]*//' -e 's| \./| |' -e 's| ??:0||' |
		sed -e ':a' -e 's/([^()]*)//g' -e 'ta' |
		sed -e 's/ @INLINE@/ (inline)/' | sort
}

# System-library frames that depend on the machine's libc and on the
# symbol google-pprof's nm happens to pick among aliases at one address
# (__memcpy_/__memmove_avx512_unaligned_erms, _init, versioned names), or
# where libc6-dbg's DWARF shows an inlined frame google-pprof flattens
# (msort_with_tmp inside qsort_r).
# [cxxprog]: two samples in PLT stubs, which no symbol covers; google-pprof
# names them after the nearest preceding nm symbol, _init.
SYSTEM='^(\[cxxprog\]|\[libprofiler|_dl_|call_init|__vfprintf_internal|outstring_func|__memcpy|__memmove|__memcmp|__GI_|_init|msort_with_tmp|__GI___qsort_r|__libc_start|std::_Rb_tree_insert_and_rebalance|tcmalloc::|CpuProfiler::|ProfileHandler|__pthread)'

compare_google() { # NAME OURS THEIRS [heap]
	ours "$2" "${4:-}" | grep -Ev "$SYSTEM" >"$TMP/a"
	theirs "$3" | grep -Ev "$SYSTEM" >"$TMP/b"
	if diff "$TMP/b" "$TMP/a" >"$TMP/d"; then ok; else
		bad "$1: names/flat/cum differ from google-pprof (< google-pprof, > ours)"
		head -20 "$TMP/d"
	fi
}

# compare_go NAME OURS GOLDEN [any]: File/Type lines and the total as go
# tool pprof's, and the same cum for every function both name (at least
# one unless "any").
compare_go() {
	local both=0 name cum mine
	if [ "$(head -2 "$2")" = "$(head -2 "$3")" ]; then ok; else bad "$1: File/Type lines differ from go tool pprof"; fi
	if [ "$(sed -n 3p "$2" | grep -o 'of .* total')" = "$(sed -n 3p "$3" | grep -o 'of .* total')" ]; then ok; else
		bad "$1: total differs from go tool pprof"
	fi
	while read -r name cum; do
		mine=$(awk -v n="$name" 'f && $6 == n && NF == 6 { print $4 } /flat%/ { f = 1 }' "$2")
		[ -n "$mine" ] || continue
		both=$((both + 1))
		if [ "$mine" = "$cum" ]; then ok; else bad "$1: cum of $name is $mine, go tool pprof says $cum"; fi
	done < <(awk 'f && NF == 6 && $6 !~ /^\[/ { print $6, $4 } /flat%/ { f = 1 }' "$3")
	if [ "$both" -ge 1 ] || [ "${4:-}" = any ]; then ok; else bad "$1: no function in common with go tool pprof"; fi
}

for p in cprog-pie cprog-nopie cxxprog; do
	run top -nodefraction=0 -sample_index=samples "$N/$p" "$N/$p.cpu.prof"
	expect_status 0 "$p"
	compare_google "$p" "$TMP/out" "$G/$p.google-pprof.txt"
	cp "$TMP/out" "$TMP/$p.samples"
done

# Heap: allocator frames dropped (the profile's drop_frames), values in MB
# as google-pprof prints them.
run top -nodefraction=0 -unit=b "$N/cprog-pie" "$N/cprog-pie.heap"
expect_status 0 "cprog-pie.heap"
compare_google "cprog-pie.heap" "$TMP/out" "$G/cprog-pie.heap.google-pprof.txt" heap
run top -nodefraction=0 -sample_index=alloc_space "$N/cprog-pie" "$N/cprog-pie.heap"
expect_status 0 "cprog-pie.heap alloc_space"
compare_go "cprog-pie.heap alloc_space" "$TMP/out" "$G/cprog-pie.heap.gopprof.top-alloc.txt"
run top -nodefraction=0 "$N/cxxprog" "$N/cxxprog.heap"
expect_status 0 "cxxprog.heap"
compare_go "cxxprog.heap" "$TMP/out" "$G/cxxprog.heap.gopprof.top.txt" any
# go: all in [cxxprog]; google-pprof: cut at the wrong frame (it looks up
# the first address without the -1 that pprof applies to every frame of
# a heap stack). Ours: std::map's node allocation inside build_index.
grep -Eq '19084.78kB +100%  pprofc::work::build_index\[abi:cxx11\]$' "$TMP/out" && ok || bad "cxxprog.heap: build_index should hold the leaked map: $(head -12 "$TMP/out")"

# The same at -lines granularity ("function file:line").
for p in cprog-pie cprog-nopie cxxprog; do
	run top -lines -nodefraction=0 -sample_index=samples "$N/$p" "$N/$p.cpu.prof"
	expect_status 0 "$p -lines"
	compare_google "$p -lines" "$TMP/out" "$G/$p.google-pprof.lines.txt"
done

# go tool pprof -top BIN PROF: same header and totals; the same cum for
# every function both name. Where go names nothing ([cprog-pie] for main,
# [cxxprog] for class methods, [libc.so.6]) or flattens inlined frames, our
# answer is the better one and is asserted below.
for p in cprog-pie cprog-nopie cxxprog; do
	run top -nodefraction=0 "$N/$p" "$N/$p.cpu.prof"
	expect_status 0 "$p (ms)"
	cp "$TMP/out" "$TMP/$p.ms"
	compare_go "$p" "$TMP/out" "$G/$p.gopprof.top.txt" "$([ "$p" = cxxprog ] && echo any)"
done
# Inlined frames (go tool pprof shows none): flat time goes to the
# innermost inlined function, as google-pprof and addr2line -i have it.
grep -Eq '^ +244ms .* mix \(inline\)$' "$TMP/cprog-pie.ms" && ok || bad "cprog-pie: mix (inline) should have 244ms flat"
grep -Eq '^ +29ms .*  hash_loop$' "$TMP/cprog-pie.ms" && ok || bad "cprog-pie: hash_loop should have 29ms flat (go: 349ms)"
# main of a PIE lives in .text.startup, which go's DWARF lookup misses.
grep -Eq '649ms +100%  main$' "$TMP/cprog-pie.ms" && ok || bad "cprog-pie: main should be named"
for p in cprog-pie cprog-nopie; do
	if grep -q "\[$p\]" "$TMP/$p.ms"; then bad "$p: unsymbolized [$p] frames left"; else ok; fi
done
# C++ class methods and template instances (go: unnamed, in [cxxprog]).
grep -Eq '^ +143ms .*  pprofc::work::Accumulator::feed$' "$TMP/cxxprog.ms" && ok || bad "cxxprog: Accumulator::feed should have 143ms flat"
grep -Eq '  main::\{lambda\(unsigned long\)#1\}::operator\(\)$' "$TMP/cxxprog.ms" && ok || bad "cxxprog: the lambda should be named"
# libc by its symbol table (go: [libc.so.6]).
if grep -q '\[libc.so.6\]' "$TMP/cprog-pie.ms"; then bad "cprog-pie: libc frames left unnamed"; else ok; fi

# A stripped binary whose debug file is elsewhere: found by build-id
# (debug/.build-id/ed/20ae....debug) in a PPROF_BINARY_PATH directory.
# google-pprof and go tool pprof name nothing of it.
PPROF_BINARY_PATH="$N/debug:$N" run top -nodefraction=0 "$N/cprog-stripped.cpu.prof"
expect_status 0 "stripped + debug file"
grep -Eq '653ms +100%  main$' "$TMP/out" && grep -q 'mix (inline)$' "$TMP/out" && ok ||
	bad "stripped + debug file: main and mix should be named: $(head -12 "$TMP/out")"
if grep -q 'warning.*cprog-stripped' "$TMP/err"; then bad "stripped + debug file: unexpected warning $(cat "$TMP/err")"; else ok; fi

# Errors: each is one warning naming the binary and the mapping, and the
# report still prints with what can be resolved.
mkdir -p "$TMP/empty" "$TMP/fake" "$TMP/arch"
# The profile names binaries in a directory that does not exist.
sed 's|/work/main/testdata/native/|/nonexistent/dir/|' "$N/cprog-pie.heap" >"$TMP/moved.heap"
PPROF_BINARY_PATH="$TMP/empty" run top "$TMP/moved.heap"
expect_status 0 "missing binary"
[ "$(grep -c 'mapping /nonexistent/dir/cprog-pie: binary not found' "$TMP/err")" = 1 ] && ok || bad "missing binary: want one warning, got: $(cat "$TMP/err")"
grep -q '\[cprog-pie\]$' "$TMP/out" && grep -q '__libc_start_main_impl$' "$TMP/out" && ok ||
	bad "missing binary: report should keep [cprog-pie] and still name libc's frames: $(cat "$TMP/out")"
# A profile whose main mapping names no file (Go's debug=1 text profiles):
# one warning, as pprof prints "Main binary filename not available."; none
# when the binary is given, and none when the addresses are already named.
G="$SRCDIR/testdata/legacy/go-mutex.txt"
run top "$G"
expect_status 0 "no main binary name"
[ "$(grep -c 'main binary filename not available' "$TMP/err")" = 1 ] && ok ||
	bad "no main binary name: want one warning, got: $(cat "$TMP/err")"
run top "$N/cprog-pie" "$G"
if grep -q 'main binary filename' "$TMP/err"; then bad "binary given: $(cat "$TMP/err")"; else ok; fi
run top "$SRCDIR/testdata/go/mutex.pb.gz"
if grep -q 'main binary filename' "$TMP/err"; then bad "a symbolized profile: $(cat "$TMP/err")"; else ok; fi
# A base is symbolized with the binary given for the profiles, as pprof
# symbolizes profile and base together: the profile minus itself is empty
# (with the base left unsymbolized, [cprog-pie] and make_buffer would
# stand against each other).
PPROF_BINARY_PATH="$TMP/empty" run top -base "$TMP/moved.heap" "$N/cprog-pie" "$TMP/moved.heap"
expect_status 0 "base with the leading binary"
if grep -q '^Showing nodes accounting for 0, 0% of 0 total$' "$TMP/out" && [ "$(wc -l <"$TMP/out")" -eq 4 ]; then ok; else
	bad "base with the leading binary: $(cat "$TMP/out")"
fi
# Not ELF.
echo "not a binary" >"$TMP/fake/cprog-pie"
PPROF_BINARY_PATH="$TMP/fake" run top "$TMP/moved.heap"
expect_status 0 "not ELF"
grep -q "mapping /nonexistent/dir/cprog-pie: $TMP/fake/cprog-pie: not an ELF file" "$TMP/err" && ok || bad "not ELF: $(cat "$TMP/err")"
# Another architecture (libhot.so with e_machine set to aarch64).
cp "$N/libhot.so" "$TMP/arch/libhot.so"
printf '\267\000' | dd of="$TMP/arch/libhot.so" bs=1 seek=18 conv=notrunc 2>/dev/null
PPROF_BINARY_PATH="$TMP/arch:$N" run top "$TMP/moved.heap"
expect_status 0 "other architecture"
# The mapping takes the found file's name first (pprof's locateBinaries
# opens any ELF file, whatever its machine).
[ "$(grep -c "$TMP/arch/libhot.so: binary for aarch64.*mapping $TMP/arch/libhot.so" "$TMP/err")" = 1 ] && ok || bad "other architecture: $(cat "$TMP/err")"
grep -q 'make_buffer$' "$TMP/out" && ok || bad "other architecture: the main binary should still be symbolized"
# Stripped, no debug file anywhere.
run top "$N/cprog-stripped.cpu.prof"
expect_status 0 "stripped"
grep -q "cprog-stripped: no DWARF debug info (stripped?) for mapping .*cprog-stripped" "$TMP/err" && ok || bad "stripped: $(cat "$TMP/err")"
grep -q 'rotl (inline)$' "$TMP/out" && ok || bad "stripped: libhot.so should still be symbolized"
# Build-id mismatch: the map gives the main binary a build-id (pprof's
# "start-end perms path (@offset) buildid" form) that the file lacks.
sed 's|^\(560f14030000-560f14031000\) r-xp 00001000 00:00 5308737 *\(/.*\)$|\1 r-xp \2 (@1000) 0123456789abcdef|' \
	"$N/cprog-pie.heap" >"$TMP/bid.heap"
grep -q '(@1000) 0123456789abcdef' "$TMP/bid.heap" || bad "build-id test profile not made"
run top "$TMP/bid.heap"
expect_status 0 "build-id mismatch"
[ "$(grep -c "mapping /work/main/testdata/native/cprog-pie: $N/cprog-pie: build-id mismatch (profile 0123456789abcdef, file ed20ae57f2de60de787317da4036653335205a09)" "$TMP/err")" = 1 ] && ok ||
	bad "build-id mismatch: $(cat "$TMP/err")"
grep -q '\[cprog-pie\]$' "$TMP/out" && ok || bad "build-id mismatch: the main binary must not be used"
# Only a hex build id is a path element: a hostile "../outside/aaaaa"
# (the same profile, its build id's bytes swapped in place) never leads
# PPROF_BINARY_PATH's BUILDID/BASENAME layout out of its directory.
run -proto -symbolize=none -output="$TMP/bid.pb.gz" "$TMP/bid.heap"
python3 -c 'import gzip, sys
d = gzip.decompress(open(sys.argv[1], "rb").read())
assert d.count(b"0123456789abcdef") == 1
open(sys.argv[2], "wb").write(d.replace(b"0123456789abcdef", b"../outside/aaaaa"))' \
	"$TMP/bid.pb.gz" "$TMP/hostile-bid.pb" || bad "hostile build-id profile not made"
mkdir -p "$TMP/bp/.build-id" "$TMP/outside/aaaaa"
cp "$N/cprog-pie" "$TMP/outside/aaaaa/cprog-pie"
PPROF_BINARY_PATH="$TMP/bp" run top "$TMP/hostile-bid.pb"
expect_status 0 "hostile build-id"
if grep -q "bp/\.\./outside" "$TMP/err"; then bad "hostile build-id: a path outside was tried: $(cat "$TMP/err")"; else ok; fi
grep -q '\[cprog-pie\]$' "$TMP/out" && ok || bad "hostile build-id: the binary outside must not be used"
# -symbolize=none leaves everything as read.
run top -symbolize=none "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_status 0 "-symbolize=none"
grep -q '^ *525ms .*\[cprog-pie\]$' "$TMP/out" && ok || bad "-symbolize=none: $(cat "$TMP/out")"
run top -symbolize=bogus "$N/cprog-pie.cpu.prof"
expect_status 2 "-symbolize=bogus"
expect_err_line 'invalid -symbolize value "bogus"' "-symbolize=bogus"
# demangle modes.
run top -symbolize=demangle=full "$N/cxxprog" "$N/cxxprog.cpu.prof"
grep -q 'pprofc::work::Accumulator<unsigned long>::feed(std::vector<unsigned long, std::allocator<unsigned long> > const&, int)$' "$TMP/out" && ok || bad "demangle=full"
run top -symbolize=demangle=templates "$N/cxxprog" "$N/cxxprog.cpu.prof"
grep -q '  pprofc::work::Accumulator<unsigned long>::feed$' "$TMP/out" && ok || bad "demangle=templates"
run top -symbolize=demangle=none "$N/cxxprog" "$N/cxxprog.cpu.prof"
grep -q '  _ZN6pprofc4work11AccumulatorImE4feedERKSt6vectorImSaImEEi$' "$TMP/out" && ok || bad "demangle=none"
# An unsymbolized profile.proto (go tool pprof -proto -symbolize=none).
run top "$N/cprog-pie" "$N/cprog-pie.unsym.pb.gz"
expect_status 0 "unsymbolized profile.proto"
grep -Eq '^ +244ms .* mix \(inline\)$' "$TMP/out" && ok || bad "unsymbolized profile.proto: $(head "$TMP/out")"

finish
