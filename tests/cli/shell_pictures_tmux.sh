#!/bin/bash
# The shell's picture commands in a real terminal (tmux), as a person types
# them: svg, png, pdf, gif, ps, flame, html, speedscope and proto never
# flood the screen; each goes to the next free profileNNN.EXT in the
# current directory, announced as pprof's shell announces it ("Generating
# report in profile001.svg"). web and webflame open their file with
# $BROWSER, or xdg-open when there is a display, and without one say that
# nothing was opened and where the file is. Skipped (77) without tmux.
. "$(dirname "$0")/lib.sh"
require tmux tmux
CPU="$SRCDIR/testdata/go/cpu.pb.gz"
sock="$TMP/tmux.sock"
T() { tmux -S "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

# screen [SESSION]: the pane's text now, with its history.
screen() { T capture-pane -p -S -1000 -t "${1:-t}"; }
# wait_for REGEX [SESSION]: until the pane shows it (30 s at most: a
# picture of the call graph is drawn by graphviz, slow under valgrind).
wait_for() {
	for _ in $(seq 300); do
		screen "${2:-t}" | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# wait_prompt [SESSION]: until the last line is the prompt again (the
# report written).
wait_prompt() {
	for _ in $(seq 300); do
		screen "${1:-t}" | grep -v '^$' | tail -1 | grep -Eq '^\(pprof\) ?$' && return 0
		sleep 0.1
	done
	return 1
}
# start SESSION DIR ENV...: the shell on cpu.pb.gz in DIR.
start() {
	local s=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	T -f /dev/null new-session -d -s "$s" -c "$dir" -x 200 -y 50 \
		"env HOME=$TMP TERM=xterm PPROF_C_HISTORY=$TMP/history TMPDIR=$dir $* $PPROF_C $CPU" ||
		{ bad "tmux"; finish; }
	wait_for '^\(pprof\)' "$s" || bad "no prompt: $(screen "$s")"
}

# Each picture command, twice for svg (the next free number), with the
# first bytes each format starts with.
work="$TMP/work"
start t "$work" DISPLAY= WAYLAND_DISPLAY=
while read -r cmd file magic; do
	T send-keys -t t "$cmd" Enter
	if wait_for "^Generating report in $file\$"; then ok; else bad "$cmd: $(screen | tail -3)"; fi
	wait_prompt || bad "$cmd: no prompt after it: $(screen | tail -3)"
	if [ -s "$work/$file" ] && head -c 64 "$work/$file" | grep -aq -- "$magic"; then ok; else
		bad "$cmd: $file is not what it should be: $(head -c 64 "$work/$file" | od -c | head -2)"
	fi
done <<'EOF'
svg profile001.svg <?xml
svg profile002.svg <?xml
png profile001.png PNG
pdf profile001.pdf %PDF-
gif profile001.gif GIF89a
ps profile001.ps %!PS
flame profile003.svg <svg
html profile001.html <!DOCTYPE
speedscope profile001.json "$schema"
proto profile001.pb.gz .
EOF
# Nothing of a picture reached the screen.
if screen | grep -Eq '<svg|<path|%PDF|PNG|<html'; then bad "a picture on the screen: $(screen | grep -E '<svg|%PDF|PNG|<html' | head -2)"; else ok; fi
# > FILE still names the file.
T send-keys -t t 'svg > mine.svg' Enter
if wait_for '^Generating report in mine\.svg$'; then ok; else bad "svg > mine.svg: $(screen | tail -3)"; fi

# web and webflame with no display: nothing opened, the file named.
T send-keys -t t C-l 'web' Enter
if wait_for "^pprof-c: no display \(DISPLAY and WAYLAND_DISPLAY are unset\): nothing opened; the report is in $work/pprof-c\.001\.svg\$"; then ok; else
	bad "web without a display: $(screen | tail -4)"
fi
T send-keys -t t 'webflame' Enter
if wait_for "nothing opened; the report is in $work/pprof-c\.002\.svg\$"; then ok; else
	bad "webflame without a display: $(screen | tail -4)"
fi
if grep -q '<svg' "$work/pprof-c.001.svg" && grep -q 'Flame Graph' "$work/pprof-c.002.svg"; then ok; else bad "web's files"; fi

# With a display, xdg-open (here a stand-in that records what it was
# given) opens the file; $BROWSER, when set, comes first.
bin="$TMP/bin"
mkdir -p "$bin"
for prog in xdg-open mybrowser; do
	printf '#!/bin/sh\necho "%s $1" >>"%s"\n' "$prog" "$TMP/opened" >"$bin/$prog"
	chmod +x "$bin/$prog"
done
# opened LINE: the stand-in was run with it (it runs detached: wait).
opened() { poll grep -qx -- "$1" "$TMP/opened" 2>/dev/null; }
disp="$TMP/disp"
start d "$disp" DISPLAY=:99 BROWSER= "PATH=$bin:$PATH"
T send-keys -t d 'web' Enter
if wait_for "^pprof-c: opening $disp/pprof-c\.001\.svg with xdg-open\$" d && opened "xdg-open $disp/pprof-c.001.svg"; then ok; else
	bad "web with a display: $(screen d | tail -3); opened: $(cat "$TMP/opened" 2>/dev/null)"
fi
start b "$disp" DISPLAY= BROWSER=mybrowser "PATH=$bin:$PATH"
T send-keys -t b 'webflame' Enter
if wait_for "^pprof-c: opening $disp/pprof-c\.002\.svg with mybrowser\$" b && opened "mybrowser $disp/pprof-c.002.svg"; then ok; else
	bad "webflame with \$BROWSER: $(screen b | tail -3); opened: $(cat "$TMP/opened" 2>/dev/null)"
fi
# The sessions end last: a tmux server whose last session has just ended
# may not take a new one.
for s in t d b; do T send-keys -t "$s" 'quit' Enter; done
finish
