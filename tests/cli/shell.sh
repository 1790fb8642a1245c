#!/bin/bash
# The shell with commands piped in: transcripts against go tool pprof's own
# shell (tests/cli/shell/regen.sh), settings, errors that keep the session,
# files written, and nothing but reports on stdout.
. "$(dirname "$0")/lib.sh"
D="$SRCDIR/tests/cli/shell"
GO="$SRCDIR/testdata/go"
export PPROF_C_HISTORY="$TMP/history"

# shell PROFILE < script: stdout in $TMP/out, stderr in $TMP/err.
shell() {
	"$PPROF_C" "$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
}

# Transcripts: the same reports as pprof's shell, byte for byte (pprof's
# prompts, blank lines and Time: lines aside; see regen.sh).
for x in session:cpu heap:heap session:goroutine merged:goroutine filters:cpu words:cpu regex:cpu; do
	n=${x%%:*} p=${x##*:}
	shell "$GO/$p.pb.gz" <"$D/$n.in"
	sed -e '/^$/d' -e '/^Time: /d' "$TMP/out" >"$TMP/t"
	expect_same "$D/$n.$p.out" "$TMP/t" "transcript $n on $p"
done

# A report in the shell is the report of the command line with the
# shell's defaults (compact labels, top shows 10).
shell "$GO/cpu.pb.gz" < <(printf 'top\ntop3 -cum\ndot\ntop\n')
expect_status 0 "four reports"
{
	"$PPROF_C" -top -nodecount=10 -compact_labels "$GO/cpu.pb.gz"
	"$PPROF_C" -top -nodecount=3 -cum -compact_labels "$GO/cpu.pb.gz"
	"$PPROF_C" -dot -compact_labels "$GO/cpu.pb.gz"
	"$PPROF_C" -top -nodecount=10 -compact_labels "$GO/cpu.pb.gz"
} >"$TMP/want" 2>/dev/null
expect_same "$TMP/want" "$TMP/out" "shell reports = command-line reports"
if [ ! -s "$TMP/err" ]; then ok; else bad "stderr of a clean script: $(cat "$TMP/err")"; fi

# Options: set, show, list, reset; per-command options do not stick.
shell "$GO/cpu.pb.gz" < <(printf 'nodecount=7\nnodecount\ntop -nodecount=2 -cum\nnodecount\ncum\noptions\nreset\nnodecount\ngranularity=lines\ngranularity\n')
expect_status 0 "options session"
grep -c '^nodecount = 7$' "$TMP/out" >"$TMP/n"
echo 2 >"$TMP/want"
expect_same "$TMP/want" "$TMP/n" "nodecount set and kept after a per-command override"
if grep -q '^  cum *= true' "$TMP/out"; then ok; else bad "bare cum selects cum order"; fi
if grep -q '^  granularity *= functions .*functions, filefunctions' "$TMP/out"; then ok; else bad "options lists values with help"; fi
if grep -q '^nodecount = -1$' "$TMP/out"; then ok; else bad "reset restores the command line's options"; fi
if grep -q '^granularity = lines$' "$TMP/out"; then ok; else bad "granularity=lines"; fi
# The command line's options are where reset returns.
shell -nodecount=12 "$GO/cpu.pb.gz" < <(printf 'nodecount=3\nreset\nnodecount\n')
if grep -q '^nodecount = 12$' "$TMP/out"; then ok; else bad "reset to -nodecount=12"; fi

# Errors: one clear line each, the session goes on, the exit status of a
# script with a failed command is 1.
shell "$GO/cpu.pb.gz" < <(printf 'frobnicate\nsample_index=bogus\nnodecount=x\ntop "unbalanced\nnosuch=1\npeek\npeek ^nomatch$\npeek main(\nfocus=main(\ntop >\nsample_index\ntop3\n')
expect_status 1 "script with failed commands"
cat >"$TMP/want" <<'EOT'
unrecognized command: "frobnicate" (type help for the commands)
sample_index "bogus" must be one of: [samples cpu]
invalid value "x" for -nodecount
unbalanced double quote
unknown option "nosuch"
command peek requires an argument
no matches found for regexp: ^nomatch$
parsing argument regexp main(: missing closing parenthesis at offset 5
parsing focus regexp main(: missing closing parenthesis at offset 5
unexpected end of line after >
EOT
expect_same "$TMP/want" "$TMP/err" "error messages"
if grep -q '^sample_index = $' "$TMP/out" && [ "$(grep -c 'flat%' "$TMP/out")" -eq 1 ]; then ok; else
	bad "bad values leave the options alone and later commands run: $(cat "$TMP/out")"
fi

# The options that shape how the profile is read (-base, -diff_base,
# -normalize, -symbolize, -max-size) come from the command line: the shell
# refuses to change them and keeps them (lists and check rules too).
shell -base "$GO/cpu_before.pb.gz" -base "$GO/cpu.pb.gz" -max_share='x=1' -max_share='y=2.5' "$GO/cpu_after.pb.gz" \
	< <(printf 'base=%s\ntop -diff_base=x\nnormalize=true\nsymbolize=none\nmax-size=1k\nbase\nmax_share\nreset\nbase\ntop1\n' "$GO/cpu.pb.gz")
expect_status 1 "load-time options in the shell"
cat >"$TMP/want" <<'EOT'
base cannot be changed in the shell: its profile is read already (give -base on the command line)
diff_base cannot be changed in the shell: its profile is read already (give -diff_base on the command line)
normalize cannot be changed in the shell: its profile is read already (give -normalize on the command line)
symbolize cannot be changed in the shell: its profile is read already (give -symbolize on the command line)
max-size cannot be changed in the shell: its profile is read already (give -max-size on the command line)
EOT
expect_same "$TMP/want" "$TMP/err" "load-time options refused"
printf 'base = %s %s\nmax_share = x=1 y=2.5\nbase = %s %s\n' "$GO/cpu_before.pb.gz" "$GO/cpu.pb.gz" "$GO/cpu_before.pb.gz" "$GO/cpu.pb.gz" >"$TMP/want"
"$PPROF_C" -top -nodecount=1 -compact_labels -base "$GO/cpu_before.pb.gz" -base "$GO/cpu.pb.gz" "$GO/cpu_after.pb.gz" >>"$TMP/want" 2>/dev/null
expect_same "$TMP/want" "$TMP/out" "two bases and two rules kept through the session"

# quit and exit end the session; later lines are not run.
for q in quit exit; do
	shell "$GO/cpu.pb.gz" < <(printf 'top1\n%s\ntop2\n' "$q")
	expect_status 0 "$q"
	if [ "$(grep -c 'flat%' "$TMP/out")" -eq 1 ]; then ok; else bad "$q ends the session"; fi
done

# help lists every command of the table and every shell command.
shell "$GO/cpu.pb.gz" < <(printf 'help\nhelp peek\nhelp nodecount\nhelp nosuch\n')
"$PPROF_C" --help | sed -n '/^Commands:/,/^$/p' | grep -oE '^  [a-z]+' >"$TMP/cmds"
while read -r c; do
	if grep -q "^  $c" "$TMP/out"; then ok; else bad "help lacks $c"; fi
done <"$TMP/cmds"
if grep -q '^peek REGEX: callers and callees' "$TMP/out" &&
	grep -q '^nodecount=N: show at most' "$TMP/out" &&
	grep -q 'no help for "nosuch"' "$TMP/err"; then ok; else bad "help COMMAND"; fi

# Output files: > FILE, >FILE, -output FILE, atomically, announced on
# stderr; a binary report never goes to stdout.
cd "$TMP" || exit 1
shell "$GO/cpu.pb.gz" < <(printf 'top > a.txt\ntop >b.txt\ntop -output c.txt\nflame > f.svg\nfolded>g.txt\n')
expect_status 0 "redirections"
for f in a b c; do
	if [ -s "$f.txt" ] && cmp -s a.txt "$f.txt"; then ok; else bad "$f.txt"; fi
done
if grep -q '^<svg' f.svg && [ -s g.txt ]; then ok; else bad "flame and folded to files"; fi
if grep -qx 'Generating report in a.txt' "$TMP/err" &&
	grep -qx 'Generating report in f.svg' "$TMP/err"; then ok; else bad "announced: $(cat "$TMP/err")"; fi
expect_no_stdout "reports written to files"
if ls "$TMP" | grep -q '\.tmp'; then bad "temporary files left"; else ok; fi
if "$PPROF_C" --help | grep -q '^  png'; then
	shell "$GO/cpu.pb.gz" < <(printf 'png\npng\n')
	if [ -s profile001.png ] && [ -s profile002.png ] &&
		grep -qx 'Generating report in profile002.png' "$TMP/err"; then ok; else
		bad "png goes to profileNNN.png: $(cat "$TMP/err")"
	fi
	expect_no_stdout "png not on stdout"
fi
if "$PPROF_C" --help | grep -q '^  svg'; then
	shell "$GO/cpu.pb.gz" < <(printf 'svg > s.svg\n')
	if grep -q '<svg' s.svg; then ok; else bad "svg > s.svg"; fi
	# web without a display prints the file it wrote.
	DISPLAY= WAYLAND_DISPLAY= TMPDIR="$TMP" shell "$GO/cpu.pb.gz" < <(printf 'web\n')
	expect_status 0 "web without a display"
	if [ -s "$(cat "$TMP/out")" ]; then ok; else bad "web prints its file: $(cat "$TMP/out")"; fi
fi
if "$PPROF_C" --help | grep -q '^  list'; then
	shell "$GO/cpu.pb.gz" < <(printf 'list main\\.mix\n')
	"$PPROF_C" -list 'main\.mix' -compact_labels "$GO/cpu.pb.gz" >"$TMP/want" 2>/dev/null
	expect_same "$TMP/want" "$TMP/out" "list in the shell"
fi
DISPLAY= WAYLAND_DISPLAY= TMPDIR="$TMP" shell "$GO/cpu.pb.gz" < <(printf 'webflame\n')
if grep -q '^<svg' "$(cat "$TMP/out")"; then ok; else bad "webflame"; fi

# No history is written when stdin is not a terminal.
if [ ! -e "$TMP/history" ]; then ok; else bad "history written by a script"; fi
# No command and no profile is still a usage error.
run
expect_status 2 "no profile"
finish
