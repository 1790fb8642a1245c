#!/bin/bash
# flame's flamegraph.pl options: -title, -width, -colors, -minwidth,
# -reverse; colours the same in every run and graph.
. "$(dirname "$0")/lib.sh"
CPU="$SRCDIR/testdata/go/cpu.pb.gz"
AFTER="$SRCDIR/testdata/go/cpu_after.pb.gz"
PY=$(command -v python3) || { echo "SKIP: flame_opts: python3 is not installed"; exit 77; }
CHECK="$SRCDIR/tests/cli/flame_opts.py"

run flame "$CPU"
cp "$TMP/out" "$TMP/default.svg"
# The defaults are pprof-c's: package colours, "Flame Graph", frames laid
# out on 1200 units drawn as wide as the window; -width=1200 names pixels,
# so only the <svg> element's width differs.
run flame -colors=package -minwidth=0.1 "$CPU"
expect_same "$TMP/default.svg" "$TMP/out" "defaults spelled out"
run flame -width=1200 "$CPU"
sed 's/^\(<svg [^>]*\) width="1200" /\1 width="100%" /' "$TMP/out" >"$TMP/w1200.svg"
grep -q '^<svg [^>]* width="1200" ' "$TMP/out" && cmp -s "$TMP/default.svg" "$TMP/w1200.svg" && ok ||
	bad "-width=1200: the default but for the svg's width"
run flame "$CPU"
expect_same "$TMP/default.svg" "$TMP/out" "the same bytes every run"

run flame -title='CPU <of> "svc" & co' -width=800 "$CPU"
expect_status 0 "-title -width"
if grep -q 'id="title" x="400" y="22" text-anchor="middle">CPU &lt;of&gt; &quot;svc&quot; &amp; co<' "$TMP/out"; then ok; else bad "-title escaped and centred: $(grep -o 'id="title".\{0,80\}' "$TMP/out")"; fi
if grep -q '^<svg [^>]* width="800" height="[0-9]*" viewBox="0 0 800 ' "$TMP/out"; then ok; else bad "-width=800"; fi
# Every frame fits in 800 px.
if ! grep -o '<rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*"' "$TMP/out" |
	awk -F'"' '$2 + $6 > 790.5 { bad = 1 } END { exit bad }'; then bad "a frame past 790 px"; else ok; fi

# Palettes: each function one colour, the same in another profile.
fill() { # SVG NAME: the fill of the first frame named NAME
	grep -o "<title>$2 ([^<]*</title><rect [^>]*fill=\"[^\"]*\"" "$1" | head -1 | sed 's/.*fill="\([^"]*\)"/\1/'
}
for p in hot mem io red green blue yellow purple aqua orange java js perl; do
	run flame -colors=$p -output="$TMP/a.svg" "$CPU"
	expect_status 0 "-colors=$p"
	run flame -colors=$p -output="$TMP/b.svg" "$AFTER"
	a=$(fill "$TMP/a.svg" 'runtime.step') b=$(fill "$TMP/b.svg" 'runtime.step')
	if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "-colors=$p: runtime.step is '$a' and '$b'"; fi
done
run flame -colors=hot -output="$TMP/a.svg" "$CPU"
if [ "$(fill "$TMP/a.svg" 'main.mix')" != "$(fill "$TMP/a.svg" 'main.step')" ]; then ok; else bad "hot: one colour for two functions"; fi
if [ "$(fill "$TMP/default.svg" 'main.mix')" = "$(fill "$TMP/default.svg" 'main.step')" ]; then ok; else bad "package: one colour per package"; fi
run flame -colors=java -output="$TMP/j.svg" "$SRCDIR/testdata/legacy/java.cpu"
if grep -q 'fill="rgb([0-9]*,2[0-9][0-9],[0-9]*)"' "$TMP/j.svg"; then ok; else bad "java: Java frames green"; fi

# Bad values: one line, exit 2.
run flame -colors=plaid "$CPU"
expect_status 2 "-colors=plaid"
expect_err_line '^pprof-c: -colors=plaid: no such palette \(package, hot, ' "-colors=plaid"
run flame -width=50 "$CPU"
expect_status 2 "-width=50"
expect_err_line '^pprof-c: -width=50: a flame graph is 100 to 100000 pixels wide$' "-width=50"

# -minwidth: 0 draws every distinct stack prefix, 6 px merges the 10 ms
# frames (5 px at 1200 px for 2.33 s) into grey ones.
"$PPROF_C" folded "$CPU" >"$TMP/cpu.folded"
run flame -minwidth=0 -output="$TMP/all.svg" "$CPU"
if "$PY" "$CHECK" frames "$TMP/all.svg" "$TMP/cpu.folded" >"$TMP/why"; then ok; else bad "-minwidth=0: $(cat "$TMP/why")"; fi
if ! grep -q 'data-m="1"' "$TMP/default.svg"; then ok; else bad "default: nothing merged at 5 px"; fi
run flame -minwidth=6 "$CPU"
if grep -q 'data-m="1"' "$TMP/out"; then ok; else bad "-minwidth=6 merges"; fi

# -reverse: stacks merged by leaf. Every leaf-first prefix is a frame,
# and the row on the root holds each function's flat value, as top's.
run flame -reverse -minwidth=0 -output="$TMP/rev.svg" "$CPU"
expect_status 0 "-reverse"
if grep -q '>Reversed Flame Graph<' "$TMP/rev.svg"; then ok; else bad "-reverse title"; fi
if "$PY" "$CHECK" frames "$TMP/rev.svg" "$TMP/cpu.folded" --reverse >"$TMP/why"; then ok; else bad "-reverse frames: $(cat "$TMP/why")"; fi
"$PY" "$CHECK" row1 "$TMP/rev.svg" | sort >"$TMP/row1"
"$PPROF_C" top -nodefraction=0 -unit=auto "$CPU" |
	awk 'NR > 5 && $1 != "0" && $1 != "flat" { print $6, $1 }' | sort >"$TMP/flat"
expect_same "$TMP/flat" "$TMP/row1" "-reverse: the leaves' values are top's flat"
run flame -reverse -inverted "$CPU"
if grep -q '>Reversed Icicle Graph<' "$TMP/out"; then ok; else bad "-reverse -inverted"; fi

# The shell: options set once, and per command.
printf 'title="Shell graph"\nflame -colors=hot > %s/s.svg\n' "$TMP" | "$PPROF_C" "$CPU" >"$TMP/out" 2>"$TMP/err"
if grep -q '>Shell graph<' "$TMP/s.svg" && [ "$(fill "$TMP/s.svg" 'main.mix')" = "$(fill "$TMP/a.svg" 'main.mix')" ]; then ok; else bad "shell title and colors: $(cat "$TMP/err")"; fi
finish
