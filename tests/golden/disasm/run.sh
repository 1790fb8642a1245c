#!/bin/bash
# disasm against go tool pprof -disasm (addresses, values) and objdump
# (instruction text, with only the spellings README.md lists told apart),
# in AT&T and Intel syntax, for each case of tests/golden/disasm/cases.
. "$(dirname "$0")/../../cli/lib.sh"
D=$SRCDIR/tests/golden/disasm
GOPROG=
if msg=$(sh "$D/build-goprog.sh" "$TMP/goprog" 2>&1); then
	GOPROG=$TMP/goprog
else
	echo "golden-disasm: goprog cases skipped: $msg"
fi
while IFS='|' read -r name bin prof regex; do
	case $name in '#'* | '') continue ;; esac
	if [ "$bin" = goprog ]; then
		[ -n "$GOPROG" ] || continue
		bin=$GOPROG
	else
		bin=$SRCDIR/$bin
	fi
	for syntax in suffix intel; do
		flag=
		[ $syntax = intel ] && flag=-intel_syntax
		# shellcheck disable=SC2086
		if ! PPROF_BINARY_PATH=$SRCDIR/testdata/native "$PPROF_C" disasm $flag \
			"$regex" "$bin" "$SRCDIR/$prof" \
			>"$TMP/$name.$syntax" 2>"$TMP/err" || [ -s "$TMP/err" ]; then
			bad "$name $syntax: $(head -3 "$TMP/err")"
			continue
		fi
		if python3 "$D/compare.py" "$TMP/$name.$syntax" "$D/$name.gopprof.txt" \
			"$D/$name.objdump-$syntax.txt" ${flag:+--intel} >"$TMP/diff"; then
			ok
		else
			bad "$name $syntax: $(head -20 "$TMP/diff")"
		fi
	done
done <"$D/cases"

# The other spellings, addresses, and what goes wrong.
N=$SRCDIR/testdata/native
# The profiles name their binaries by the paths they were recorded at (the
# machine they were made on); find them here by name, in a clone anywhere.
export PPROF_BINARY_PATH="$N"
run disasm hash_loop "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
cp "$TMP/out" "$TMP/want"
run -disasm=hash_loop "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_same "$TMP/want" "$TMP/out" "-disasm=REGEX"
printf 'disasm hash_loop\n' | "$PPROF_C" "$N/cprog-pie" "$N/cprog-pie.cpu.prof" >"$TMP/out" 2>"$TMP/err"
expect_same "$TMP/want" "$TMP/out" "the shell's disasm"
# An address, the binary's own or the process's (as -addresses prints it).
run disasm 0x13c4 "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_same "$TMP/want" "$TMP/out" "disasm ELF address"
run disasm 0x55bc1b6ed3f5 "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_same "$TMP/want" "$TMP/out" "disasm runtime address"
run disasm nomatch "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_status 1 "no match"
expect_err_line '^pprof-c: no matches found for regexp nomatch$' "no match"
run disasm 0x10 "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_status 1 "address outside"
expect_err_line '^pprof-c: no matches found for address 0x10$' "address outside"
run disasm 'a(' "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_status 2 "bad regex"

# weblist: one self-contained page; each instruction row has disasm's
# values; opened only where there is a display.
PPROF_BINARY_PATH=$N run weblist -output="$TMP/wl.html" hash_loop "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_status 0 "weblist -output"
PPROF_BINARY_PATH=$N run disasm hash_loop "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
if python3 - "$TMP/wl.html" "$TMP/out" <<'PY'; then ok; else bad "weblist: rows differ from disasm"; fi
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
text = re.sub(r"<[^>]*>", "", html.replace("<span class=asm>", "\n"))
want = {}
for l in open(sys.argv[2], encoding="utf-8"):
    m = re.match(r"^ *(\S+) +(\S+) +([0-9a-f]+): ", l)
    if m:
        want[m.group(3)] = (m.group(1), m.group(2))
rows = re.findall(r"^ {9} *(\S+) +(\S+) +([0-9a-f]+): ", text, re.M)
assert "<h2>hash_loop</h2>" in html and "<script" in html and "src=" not in html
assert len(rows) >= len(want) > 20, (len(rows), len(want))
bad = [r for r in rows if want.get(r[2]) != (r[0], r[1])]
assert not bad, bad[:3]
PY
mkdir "$TMP/t"
BROWSER='' DISPLAY='' WAYLAND_DISPLAY='' TMPDIR=$TMP/t PPROF_BINARY_PATH=$N run weblist hash_loop "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_status 0 "weblist without a display"
expect_err_line "^pprof-c: no display .*: nothing opened; the report is in $TMP/t/pprof-c\\.001\\.html\$" "weblist without a display"
if cmp -s "$TMP/wl.html" "$TMP/t/pprof-c.001.html"; then ok; else bad "weblist: the opened file differs from -output's"; fi
# -output only writes, as pprof: no browser started even with a display.
DISPLAY=:99 BROWSER=/bin/false PPROF_BINARY_PATH=$N run weblist -output="$TMP/wl2.html" hash_loop "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_status 0 "weblist -output with a display"
expect_err_line "^Generating report in $TMP/wl2.html\$" "weblist -output with a display"
if cmp -s "$TMP/wl.html" "$TMP/wl2.html"; then ok; else bad "weblist -output with a display: the file differs"; fi
run weblist nomatch "$N/cprog-pie" "$N/cprog-pie.cpu.prof"
expect_status 1 "weblist no match"
finish
