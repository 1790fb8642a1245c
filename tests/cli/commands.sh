#!/bin/bash
# Every word go tool pprof knows as a command (its internal/driver/
# commands.go, and the shell's topN) is one of ours, as COMMAND and as
# -COMMAND; a word that is neither a command nor a file, where the command
# goes, is a usage error that names it as a command (exit 2), never a
# missing profile.
. "$(dirname "$0")/lib.sh"
CPU="$SRCDIR/testdata/go/cpu.pb.gz"
cd "$TMP" || exit 1

run --help
cp "$TMP/out" "$TMP/help"
listed() { sed -n '/^Commands:/,/^$/p' "$TMP/help" | grep -qE "^  $1( |$)"; }
for c in callgrind comments disasm dot eog evince gif gv kcachegrind list peek pdf png proto ps raw svg tags text top topproto traces tree web weblist; do
	case $c in list | peek) a=main ;; *) a= ;; esac
	prof=$CPU
	# disasm and weblist read the binary: the native one, with its profile.
	case $c in disasm | weblist)
		a="hash_loop $SRCDIR/testdata/native/cprog-pie"
		prof=$SRCDIR/testdata/native/cprog-pie.cpu.prof
		;;
	esac
	if ! listed "$c"; then
		# disasm and weblist come with the disassembler; until then
		# they must at least be refused as commands.
		run "$c" $a "$CPU"
		expect_status 2 "$c (not built): usage error"
		if head -1 "$TMP/err" | grep -q "^pprof-c: unknown command \"$c\""; then ok; else bad "$c (not built): $(cat "$TMP/err")"; fi
		continue
	fi
	for form in "$c" "-$c"; do
		env -u DISPLAY -u WAYLAND_DISPLAY -u BROWSER TMPDIR="$TMP" \
			"$PPROF_C" $form $a -output="$TMP/o" "$prof" >"$TMP/out" 2>"$TMP/err" </dev/null
		RC=$?
		expect_status 0 "$form"
		if grep -q 'No such file\|unknown' "$TMP/err"; then bad "$form: $(cat "$TMP/err")"; else ok; fi
	done
done
run top7 "$CPU"
expect_status 0 "topN"

# Unknown words: the command's place, exit 2, named as a command.
for w in frobnicate disasmx webflames top_10; do
	run "$w" "$CPU"
	expect_status 2 "$w"
	if head -1 "$TMP/err" | grep -q "^pprof-c: unknown command \"$w\" (and no file of that name)"; then ok; else bad "$w: $(cat "$TMP/err")"; fi
	if sed -n 2p "$TMP/err" | grep -q "^Try 'pprof-c --help'"; then ok; else bad "$w: hint"; fi
	expect_no_stdout "$w"
	run "$w" -nodecount=3 "$CPU"
	expect_status 2 "$w before options"
done
# A word that names a file is a profile (or a binary), not a command.
cp "$CPU" frobnicate
run frobnicate
expect_status 0 "a profile named like a command"
# Alone, a missing word is a missing profile, as in pprof.
run nosuchprofile
expect_status 1 "a missing profile"
expect_err_line "nosuchprofile: .*[Nn]o such file" "a missing profile"
# Paths, URLs and host:port are never taken for commands.
run ./nosuch "$CPU"
expect_status 1 "a missing binary path"
finish
