#!/bin/bash
# flame, folded and speedscope on real profiles: well-formed output, the
# totals of the profile, -inverted, -lines, -output, and bad destinations.
. "$(dirname "$0")/lib.sh"
require xmllint libxml2-utils
CPU="$SRCDIR/testdata/go/cpu.pb.gz"
HEAP="$SRCDIR/testdata/go/heap.pb.gz"

# folded: values add up to the profile's total (2.33s of CPU).
run folded "$CPU"
expect_status 0 "folded"
sum=$(awk '{s += $NF} END {printf "%.0f", s}' "$TMP/out")
if [ "$sum" = 2330000000 ]; then ok; else bad "folded sum $sum, want 2330000000"; fi
if grep -qv '^[^ ].* -\?[0-9][0-9]*$' "$TMP/out"; then bad "folded: a line is not 'stack value'"; else ok; fi
run -folded -sample_index=alloc_space "$HEAP"
expect_status 0 "folded alloc_space"
sum=$(awk '{s += $NF} END {printf "%.0f", s}' "$TMP/out")
want=$("$PPROF_C" speedscope -sample_index=alloc_space "$HEAP" | python3 -c 'import json,sys; print(json.load(sys.stdin)["profiles"][0]["endValue"])')
if [ "$sum" = "$want" ] && [ "$sum" -gt 0 ]; then ok; else bad "folded alloc_space sum $sum, speedscope says $want"; fi
run folded -lines "$CPU"
if grep -q '^runtime.main runtime/proc.go:[0-9]*;' "$TMP/out"; then ok; else bad "folded -lines frames are not 'func file:line'"; fi

# flame: well-formed, self-contained SVG.
run flame "$CPU"
expect_status 0 "flame"
if xmllint --noout "$TMP/out" 2>"$TMP/xml"; then ok; else bad "flame is not well-formed XML: $(head -3 "$TMP/xml")"; fi
if grep -Eq '(src|href)="https?:' "$TMP/out"; then bad "flame loads something from the network"; else ok; fi
if grep -q '<script' "$TMP/out" && grep -q 'data-inverted="0"' "$TMP/out"; then ok; else bad "flame lacks its script"; fi
frames=$(grep -c '<g class="f"' "$TMP/out")
if [ "$frames" -gt 100 ]; then ok; else bad "flame has $frames frames"; fi
if grep -q '<title>all (2.33s, 100%)</title>' "$TMP/out"; then ok; else bad "flame root frame is not 'all (2.33s, 100%)'"; fi
run flame -inverted -lines "$CPU"
expect_status 0 "flame -inverted -lines"
if xmllint --noout "$TMP/out" 2>/dev/null && grep -q 'data-inverted="1"' "$TMP/out" && grep -q 'Icicle Graph' "$TMP/out"; then ok; else bad "flame -inverted"; fi
if grep -q '<title>main.main testdata/gen/goprog/main.go:[0-9]* (' "$TMP/out"; then ok; else bad "flame -lines frames are not 'func file:line'"; fi
run flame -sample_index=inuse_space "$HEAP" -output "$TMP/heap.svg"
expect_status 0 "flame -output"
expect_no_stdout "flame -output"
if xmllint --noout "$TMP/heap.svg" 2>/dev/null; then ok; else bad "flame -output file is not well-formed"; fi
ls "$TMP" | grep -q '^\.\?heap.svg.' && bad "flame -output left a temporary file" || ok

# speedscope: the schema's fields, weights summing to the total.
run speedscope "$CPU"
expect_status 0 "speedscope"
if python3 "$SRCDIR/tests/cli/speedscope_check.py" "$TMP/out" 2330000000 >"$TMP/why"; then ok; else bad "$(cat "$TMP/why")"; fi
run speedscope -lines -sample_index=alloc_objects "$HEAP"
if python3 "$SRCDIR/tests/cli/speedscope_check.py" "$TMP/out" >"$TMP/why"; then ok; else bad "$(cat "$TMP/why")"; fi

# speedscope refuses a file with one negative weight: with -diff_base the
# new profile and the base are written as two profiles (each equal, stack
# for stack, to the speedscope file of that profile alone), with -base the
# positive stacks and the negative ones as absolute values.
stacks() { # FILE INDEX: the profile's stacks as "frame;frame weight", sorted
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); f = d["shared"]["frames"]; p = d["profiles"][int(sys.argv[2])]
print("\n".join(sorted(";".join(f[i]["name"] for i in s) + " %d" % w for s, w in zip(p["samples"], p["weights"]))))' "$1" "$2"
}
BEFORE="$SRCDIR/testdata/go/cpu_before.pb.gz"
AFTER="$SRCDIR/testdata/go/cpu_after.pb.gz"
run speedscope -diff_base="$BEFORE" "$AFTER"
expect_status 0 "speedscope -diff_base"
if python3 "$SRCDIR/tests/cli/speedscope_check.py" "$TMP/out" "cpu=630000000" "cpu (base)=2920000000" >"$TMP/why"; then ok; else bad "speedscope -diff_base: $(cat "$TMP/why")"; fi
cp "$TMP/out" "$TMP/diff.json"
run speedscope "$AFTER"
if [ "$(stacks "$TMP/diff.json" 0)" = "$(stacks "$TMP/out" 0)" ] && [ -n "$(stacks "$TMP/out" 0)" ]; then ok; else bad "speedscope -diff_base: the new profile is not cpu_after's"; fi
run speedscope "$BEFORE"
if [ "$(stacks "$TMP/diff.json" 1)" = "$(stacks "$TMP/out" 0)" ]; then ok; else bad "speedscope -diff_base: the base profile is not cpu_before's"; fi
run speedscope -base="$BEFORE" "$AFTER"
expect_status 0 "speedscope -base"
if python3 "$SRCDIR/tests/cli/speedscope_check.py" "$TMP/out" "cpu=530000000" "cpu (negative)=2820000000" >"$TMP/why"; then ok; else bad "speedscope -base: $(cat "$TMP/why")"; fi

# -diff_base: a differential flame graph, red frames grew, blue shrank.
run flame -diff_base="$SRCDIR/testdata/go/cpu_before.pb.gz" "$SRCDIR/testdata/go/cpu_after.pb.gz"
expect_status 0 "flame -diff_base"
if xmllint --noout "$TMP/out" 2>/dev/null && grep -q 'Differential Flame Graph' "$TMP/out" &&
	grep -q 'data-diff="1"' "$TMP/out"; then ok; else bad "flame -diff_base is not a differential graph"; fi
if grep -q 'fill="rgb(255,[0-9]*,[0-9]*)"' "$TMP/out" && grep -q 'fill="rgb([0-9]*,[0-9]*,255)"' "$TMP/out"; then ok; else bad "flame -diff_base lacks red or blue frames"; fi
run flame "$SRCDIR/testdata/go/cpu_after.pb.gz"
if grep -q 'data-diff="0"' "$TMP/out" && ! grep -q 'Differential' "$TMP/out"; then ok; else bad "flame without a base is differential"; fi

# svg, png, pdf: drawn in process by graphviz.
run svg "$CPU"
expect_status 0 "svg"
if xmllint --noout "$TMP/out" 2>"$TMP/xml"; then ok; else bad "svg is not well-formed XML: $(head -3 "$TMP/xml")"; fi
if grep -q '<g id="viewport">' "$TMP/out" && grep -q 'pprofPanZoom' "$TMP/out"; then ok; else bad "svg lacks the pan/zoom viewport and script"; fi
if grep -q 'main.(\*Service).Drive' "$TMP/out" && grep -q 'class="edge"' "$TMP/out"; then ok; else bad "svg lacks nodes or edges"; fi
run png "$CPU" -output "$TMP/g.png"
expect_status 0 "png"
if head -c 8 "$TMP/g.png" | od -An -c | grep -q 'P   N   G'; then ok; else bad "png -output is not a PNG"; fi
run pdf -nodecount=10 "$CPU" -output "$TMP/g.pdf"
expect_status 0 "pdf"
if head -c 5 "$TMP/g.pdf" | grep -q '%PDF-'; then ok; else bad "pdf -output is not a PDF"; fi
# Binary output never goes to a terminal.
if command -v script >/dev/null; then
	script -qec "$PPROF_C png $CPU" /dev/null >"$TMP/tty" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "png output is binary; not writing it to a terminal" "$TMP/tty"; then ok; else bad "png to a terminal: status $rc: $(head -c 200 "$TMP/tty")"; fi
fi

# A destination that cannot be written: one line, exit 1, nothing left.
run flame "$CPU" -output "$TMP/no/such/dir/f.svg"
expect_status 1 "flame to a missing directory"
expect_err_line "^pprof-c: .*f.svg" "flame to a missing directory"
finish
