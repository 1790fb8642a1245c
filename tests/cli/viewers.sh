#!/bin/bash
# The rest of pprof's reports: gif, ps, topproto, and the viewers web,
# webflame, eog, evince and gv (the picture written, then opened, or not
# where there is no display or no viewer); every report also as -NAME.
. "$(dirname "$0")/lib.sh"
CPU="$SRCDIR/testdata/go/cpu.pb.gz"

# Pictures: graphviz in process, binary, each in both forms.
magic() { # FILE N: the first N bytes
	head -c "$2" "$1"
}
for x in gif:GIF89a ps:%!PS-Adobe topproto:$(printf '\037\213'); do
	r=${x%%:*} m=${x#*:}
	run "$r" -output="$TMP/$r.1" "$CPU"
	expect_status 0 "$r"
	if [ "$(magic "$TMP/$r.1" ${#m})" = "$m" ]; then ok; else bad "$r starts with $(magic "$TMP/$r.1" 8 | od -c | head -1)"; fi
	run "-$r" "$CPU"
	expect_status 0 "-$r"
	cp "$TMP/out" "$TMP/$r.2"
	if [ "$r" = topproto ]; then
		# gzip's header holds no time here: the same bytes.
		expect_same "$TMP/$r.1" "$TMP/$r.2" "$r forms"
	elif [ -s "$TMP/$r.2" ]; then ok; else bad "-$r wrote nothing"; fi
done
# topproto read back: top's rows, values cum and flat. As pprof's, in
# top's unit, which for 10 ms samples is s: whole numbers, so 0 (pprof
# writes the same; tests/golden/topproto).
run -raw -unit=ms "$TMP/topproto.1"
if grep -qx 'cum/s flat/s' "$TMP/out"; then ok; else bad "topproto sample types: $(head -8 "$TMP/out")"; fi
run -topproto -unit=ms -output="$TMP/tp" "$CPU"
run -raw "$TMP/tp"
if grep -qx '        500        500: 1 ' "$TMP/out"; then ok; else bad "topproto -unit=ms: $(head -8 "$TMP/out")"; fi

# Viewers, with no display: nothing started, the file's path on stdout and
# why on stderr; the file holds the report.
mkdir "$TMP/t" "$TMP/bin" "$TMP/none"
nodisplay() {
	env -u DISPLAY -u WAYLAND_DISPLAY -u BROWSER TMPDIR="$TMP/t" "$PPROF_C" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
}
run svg -output="$TMP/g.svg" "$CPU"
run flame -output="$TMP/f.svg" "$CPU"
run pdf -output="$TMP/g.pdf" "$CPU"
run ps -output="$TMP/g.ps" "$CPU"
for x in web:svg:g.svg -web:svg:g.svg webflame:svg:f.svg eog:svg:g.svg evince:pdf:g.pdf gv:ps:g.ps; do
	c=${x%%:*} rest=${x#*:}
	ext=${rest%%:*} want=${rest#*:}
	nodisplay "$c" "$CPU"
	f=$(cat "$TMP/out")
	case $f in "$TMP/t/pprof-c."[0-9][0-9][0-9].$ext) ok ;; *) bad "$c's file name: $f" ;; esac
	expect_status 0 "$c without a display"
	expect_err_line "^pprof-c: no display .*nothing opened; the report is in $f$" "$c without a display"
	if [ "$ext" = pdf ] || [ "$ext" = ps ]; then
		# Creation dates differ from run to run: compare the size.
		if [ "$(head -c 4 "$f")" = "$(head -c 4 "$TMP/$want")" ]; then ok; else bad "$c's file"; fi
	else
		expect_same "$TMP/$want" "$f" "$c's file"
	fi
done

# With a display: the viewer is started on the file and not waited for;
# a viewer that is missing gives way to xdg-open.
for v in eog evince gv xdg-open browser; do
	printf '#!/bin/sh\necho "$@" >"%s/%s.called"\nexec /bin/sleep 30 2>/dev/null\n' "$TMP" "$v" >"$TMP/bin/$v"
	chmod +x "$TMP/bin/$v"
done
called() { # VIEWER WANT DESCRIPTION
	for _ in $(seq 50); do [ -s "$TMP/$1.called" ] && break; sleep 0.1; done
	if [ "$(cat "$TMP/$1.called" 2>/dev/null)" = "$2" ]; then ok; else
		bad "$3: $1 got '$(cat "$TMP/$1.called" 2>/dev/null)', want '$2'"
	fi
	rm -f "$TMP/$1.called"
}
display() {
	start=$(date +%s)
	env -u BROWSER DISPLAY=:99 PATH="$1" TMPDIR="$TMP/t" "$PPROF_C" "${@:2}" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	# The viewers sleep 30 s: we must not have waited for them.
	if [ $(($(date +%s) - start)) -lt 20 ]; then ok; else bad "waited for the viewer: ${*:2}"; fi
}
# The file each run made: the newest $TMPDIR/pprof-c.NNN.EXT.
newest() { ls -t "$TMP/t"/pprof-c.*."$1" | head -1; }
display "$TMP/bin" eog "$CPU"
expect_status 0 "eog"
f=$(newest svg)
expect_err_line "^pprof-c: opening $f with eog$" "eog"
called eog "$f" "eog"
expect_same "$TMP/g.svg" "$f" "eog's file"
display "$TMP/bin" -gv "$CPU"
called gv "--noantialias $(newest ps)" "gv"
display "$TMP/bin" evince "$CPU"
called evince "$(newest pdf)" "evince"
display "$TMP/bin" web "$CPU"
called xdg-open "$(newest svg)" "web with xdg-open"
# With -output the report is only written, as pprof does: no viewer, and
# pprof's line saying where it is.
for c in web webflame eog evince gv; do
	display "$TMP/bin" "$c" -output="$TMP/o.$c" "$CPU"
	expect_status 0 "$c -output"
	expect_err_line "^Generating report in $TMP/o.$c$" "$c -output"
	if [ -s "$TMP/o.$c" ]; then ok; else bad "$c -output wrote nothing"; fi
done
sleep 1
if ! ls "$TMP"/*.called >/dev/null 2>&1; then ok; else bad "-output started a viewer: $(ls "$TMP"/*.called)"; fi
rm "$TMP/bin/eog"
display "$TMP/bin" eog "$CPU"
f=$(newest svg)
expect_err_line "^pprof-c: opening $f with xdg-open$" "eog missing: xdg-open"
called xdg-open "$f" "eog missing: xdg-open"
display "$TMP/none" eog "$CPU"
expect_status 0 "no viewer"
expect_err_line "^pprof-c: nothing opened: eog or xdg-open is not installed; the report is in $(newest svg)$" "no viewer"
# $BROWSER is the user's choice: used even without a display.
env -u DISPLAY -u WAYLAND_DISPLAY BROWSER="$TMP/bin/browser" TMPDIR="$TMP/t" "$PPROF_C" web "$CPU" >"$TMP/out" 2>"$TMP/err" </dev/null
f=$(newest svg)
expect_err_line "^pprof-c: opening $f with $TMP/bin/browser$" "web with BROWSER"
called browser "$f" "web with BROWSER"

# Every report pprof knows is a command and a -flag (pprof's
# internal/driver/commands.go); disasm, weblist and list want a regex.
for c in comments dot peek raw tags text top traces tree callgrind proto topproto gif pdf png ps svg eog evince gv web kcachegrind; do
	case $c in peek) a=-peek=main ;; *) a=-$c ;; esac
	nodisplay "$a" -output="$TMP/any" "$CPU"
	expect_status 0 "$a"
done
finish
