#!/bin/bash
# The interactive shell in a real terminal (tmux), as a person types at
# it: Tab completes a function name by any dot-separated suffix
# ("list LoggingM<Tab>" -> main.LoggingMiddleware). Skipped (77) without tmux.
. "$(dirname "$0")/lib.sh"
require tmux tmux
CPU="$SRCDIR/testdata/go/cpu.pb.gz"
sock="$TMP/tmux.sock"
T() { tmux -S "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

# screen: the pane's text now.
screen() { T capture-pane -p -t t; }
# wait_for REGEX: until the pane shows it (10 s at most).
screen_shows() { screen | grep -Eq -- "$1"; }
wait_for() { poll screen_shows "$1"; }

cd "$TMP" || exit 1
T -f /dev/null new-session -d -s t -x 150 -y 50 \
	"env HOME=$TMP TERM=xterm PPROF_C_HISTORY=$TMP/history $PPROF_C $CPU" || { bad "tmux"; finish; }
wait_for '^\(pprof\)' || bad "no prompt: $(screen)"

# A suffix after a dot: LoggingM -> main.LoggingMiddleware.
T send-keys -t t 'list LoggingM' Tab
if wait_for '^\(pprof\) list main\.LoggingMiddleware ?$'; then ok; else
	bad "list LoggingM<Tab>: $(screen | tail -3)"
fi
T send-keys -t t Enter
if wait_for 'ROUTINE =+ main\.LoggingMiddleware'; then ok; else bad "list after completion: $(screen | tail -5)"; fi
T send-keys -t t C-l
# A prefix still completes: main.hashLo -> main.hashLoop.
T send-keys -t t 'peek main.hashLo' Tab
if wait_for '^\(pprof\) peek main\.hashLoop ?$'; then ok; else bad "peek main.hashLo<Tab>: $(screen | tail -3)"; fi
T send-keys -t t C-u
# In an option's value: focus=LoggingM.
T send-keys -t t 'focus=LoggingM' Tab
if wait_for '^\(pprof\) focus=main\.LoggingMiddleware ?$'; then ok; else bad "focus=LoggingM<Tab>: $(screen | grep -v "^$" | tail -4)"; fi
T send-keys -t t C-u
# Several functions end in "Add"? A suffix common to more than one name
# lists them rather than guessing.
T send-keys -t t 'list Mul' Tab
if wait_for 'main\.\(\*Matrix\)\.Mul'; then ok; else bad "list Mul<Tab>: $(screen | tail -5)"; fi
T send-keys -t t C-u 'quit' Enter
finish
