#!/bin/bash
# Ctrl-C in the interactive shell (tmux, as a person types): at the prompt
# it clears the line, as bash does; during a long report it stops the
# report and returns to the prompt, with the session intact; its
# messages print control characters escaped; Ctrl-D and quit leave with
# exit status 0. Skipped (77) without tmux.
. "$(dirname "$0")/lib.sh"
require tmux tmux
P="$TMP/many.pb"
python3 "$SRCDIR/tests/cli/many_samples.py" "$P" 300000
# The same stacks, each sample labelled k=aaaaaaaaaaaaaa: a tag filter
# whose regex backtracks, ^(a+)+[b-z], takes some 45 us on each, so
# filtering all takes 13 s (more under ASan or valgrind).
L="$TMP/labelled.pb"
python3 "$SRCDIR/tests/cli/many_samples.py" "$L" 300000 14
sock="$TMP/tmux.sock"
T() { tmux -S "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

screen() { T capture-pane -p -t t | grep -v '^$'; }
# wait_for REGEX: until the pane's last lines show it (10 s at most).
last_lines_show() { screen | tail -3 | grep -Eq -- "$1"; }
wait_for() { poll last_lines_show "$1"; }
# wait_on_screen REGEX: until a line anywhere on the pane shows it.
screen_shows() { screen | grep -Eq -- "$1"; }
wait_on_screen() { poll screen_shows "$1"; }
# start [PROFILE]: a shell session on PROFILE ($P) in a fresh tmux
# server; its exit status is written to $TMP/status when it ends.
start() {
	# The old server gone before a new one takes the socket: on a loaded
	# machine a server started while the last one still exits can die.
	T kill-server 2>/dev/null
	for _ in $(seq 50); do
		T has-session 2>/dev/null || break
		sleep 0.1
	done
	rm -f "$sock" "$TMP/status"
	cat >"$TMP/run.sh" <<EOS
cd "$TMP" && env HOME="$TMP" TERM=xterm PPROF_C_HISTORY="$TMP/history" "$PPROF_C" "${1:-$P}"
echo \$? >"$TMP/status"
sleep 60
EOS
	T -f /dev/null new-session -d -s t -x 150 -y 50 "bash $TMP/run.sh" ||
		{ sleep 1 && T -f /dev/null new-session -d -s t -x 150 -y 50 "bash $TMP/run.sh"; } ||
		{ bad "tmux"; finish; }
	wait_for '^\(pprof\) ?$' || bad "no prompt: $(screen | tail -3)"
}
# exit_status WANT WHAT: the session ended with status WANT.
exit_status() {
	poll test -s "$TMP/status"
	if [ "$(cat "$TMP/status" 2>/dev/null)" = "$1" ]; then ok; else
		bad "$2: exit status '$(cat "$TMP/status" 2>/dev/null)', want $1"
	fi
}

start
# At the prompt: the line is dropped, the shell stays.
T send-keys -t t 'peek foo'
wait_for '^\(pprof\) peek foo$' || bad "typing: $(screen | tail -2)"
T send-keys -t t C-c
if wait_for '^\(pprof\) ?$' && screen | grep -q '^(pprof) peek foo^C$'; then ok; else bad "Ctrl-C at the prompt: $(screen | tail -3)"; fi
T send-keys -t t 'top' Enter
if wait_for 'flat%'; then ok; else bad "a command after Ctrl-C: $(screen | tail -3)"; fi
# During a long report (300,000 stacks to the terminal): back to the prompt.
T send-keys -t t 'traces' Enter
wait_for 'main\.func' || bad "traces did not start: $(screen | tail -3)"
T send-keys -t t C-c
if wait_for '^\(pprof\) ?$' && screen | tail -3 | grep -q '^interrupted$'; then ok; else
	bad "Ctrl-C during traces: $(screen | tail -3)"
fi
# The session is intact: the same report again, whole, to a file.
T send-keys -t t 'traces > t.txt' Enter
if wait_for '^\(pprof\) ?$' && [ "$(grep -c '^-----------+' "$TMP/t.txt" 2>/dev/null)" = 300001 ]; then ok; else
	bad "traces after the interrupt: $(screen | tail -3); $(wc -l "$TMP/t.txt" 2>&1)"
fi
# Messages quote what was typed (here a BEL, typed with Ctrl-V): on a
# terminal its control characters print escaped.
T send-keys -t t 'sample_index=a' C-v C-g 'b' Enter
if wait_for 'sample_index "a\\x07b" must be one of'; then ok; else
	bad "a message on the terminal: $(screen | tail -2 | cat -v)"
fi
T send-keys -t t 'quit' Enter
exit_status 0 "quit"

# A filter is stopped as the aggregation is. Setting tagfocus filters at
# once (the one recomputation a change costs): a second later it is still
# at work, and Ctrl-C brings the prompt back within seconds (before
# filters looked, it ran all 13 s on); the setting is left as it was.
start "$L"
T send-keys -t t 'tagfocus=k=^(a+)+[b-z]' Enter
sleep 1
if screen | tail -1 | grep -q '^(pprof) tagfocus=k=^(a+)+\[b-z\]$'; then ok; else
	bad "the tag filter ended within a second: $(screen | tail -3)"
fi
t0=$(date +%s)
T send-keys -t t C-c
if wait_for '^\(pprof\) ?$' && screen | tail -3 | grep -q '^interrupted$'; then ok; else
	bad "Ctrl-C during a filter: $(screen | tail -3)"
fi
t1=$(date +%s)
[ $((t1 - t0)) -le 3 ] && ok || bad "Ctrl-C during a filter: the prompt came back after $((t1 - t0)) s"
# The session is intact and the filter not set: top of all samples.
# (Waiting for a prompt could still see the one before, if the typed
# line has not echoed yet, and the report's lines can reach the screen
# in parts: wait for the whole line.)
T send-keys -t t 'top' Enter
if wait_on_screen '^Showing nodes accounting for 0, 0% of 1199997 total$'; then ok; else
	bad "top after the interrupted filter: $(screen | tail -3)"
fi
T send-keys -t t 'quit' Enter
exit_status 0 "quit after the filter"
# Ctrl-D leaves too.
start
T send-keys -t t C-d
exit_status 0 "Ctrl-D"
finish
