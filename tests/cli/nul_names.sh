#!/bin/bash
# Names with NUL bytes and invalid UTF-8 (testdata/names/nul.pb.gz, from
# testdata/gen/names/make_nul.py) stay whole in the outputs the goldens
# (tests/golden/nul.cases) do not cover: what pprof-c alone prints (list's
# lines without source, check) and the formats that escape names (JSON,
# speedscope, SVG, DOT as graphviz draws it, HTML), which must stay
# well-formed and keep "a\0x", "a\0y" and "a" three names.
. "$(dirname "$0")/lib.sh"
require xmllint libxml2-utils
require dot graphviz
P="$SRCDIR/testdata/names/nul.pb.gz"

# report WHAT ARGS...: run pprof-c, which must succeed.
report() {
	local what=$1
	shift
	"$PPROF_C" "$@" "$P" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	expect_status 0 "$what"
}
# py WHAT SCRIPT: run python on $TMP/out (bytes in `data`); it must pass.
py() {
	if python3 - "$TMP/out" 2>"$TMP/pyerr" <<EOPY; then ok; else bad "$1: $(tail -1 "$TMP/pyerr")"; fi
import json, sys
data = open(sys.argv[1], "rb").read()
$2
EOPY
}

# JSON: strict UTF-8 and JSON, names whole (\u0000), invalid bytes U+FFFD.
report "top -json" top -json
py "top -json" '
rows = json.loads(data.decode("utf-8"))["rows"]
names = [r["name"] for r in rows]
want = ["a", "a\0y", "\0lead", "b\ufffd\ufffd", "a\0x", "c\ufffd\ufffdd",
        "cut\ufffd\ufffd", "ok \u00e9", "ns::Pool::get\0tail", "sys\0only", "main"]
assert names == want, names'
report "tags -json" tags -json
py "tags -json" '
tags = json.loads(data.decode("utf-8"))["tags"]
assert [t["key"] for t in tags] == ["k\0ey", "n\0um"], tags
vals = [v["name"] for v in tags[0]["values"]]
assert vals == ["v\0one", "v\0two", "\ufffd", "v"], vals'
report "traces -json" traces -json
py "traces -json" '
d = json.loads(data.decode("utf-8"))
assert d["labels"][0] == "File: pr\0og\ufffd", d["labels"]
assert d["labels"][1] == "comment \0 with NUL", d["labels"]'
for g in functions lines files addresses; do
	report "speedscope -$g" speedscope -$g
	py "speedscope -$g" '
d = json.loads(data.decode("utf-8"))
names = [f["name"] for f in d["shared"]["frames"]]
if "'$g'" == "functions":
    assert len(names) == len(set(names)), names
    assert {"a", "a\0x", "a\0y", "\0lead"} <= set(names), names
assert d["name"].startswith("pr\0og\ufffd "), d["name"]'
	report "svg -$g" svg -$g
	if xmllint --noout "$TMP/out" 2>"$TMP/xmlerr"; then ok; else
		bad "svg -$g: not well-formed: $(head -2 "$TMP/xmlerr")"
	fi
	report "flame -$g" flame -$g
	if xmllint --noout "$TMP/out" 2>"$TMP/xmlerr"; then ok; else
		bad "flame -$g: not well-formed: $(head -2 "$TMP/xmlerr")"
	fi
	report "dot -$g" dot -$g
	if dot -Tsvg "$TMP/out" >"$TMP/dot.svg" 2>"$TMP/doterr" &&
		[ ! -s "$TMP/doterr" ] && xmllint --noout "$TMP/dot.svg"; then ok; else
		bad "dot -$g: graphviz or xmllint: $(head -2 "$TMP/doterr")"
	fi
done
# The names, whole, as the pictures show them (a NUL as the text \x00).
report "flame" flame
for name in 'a\x00x' 'a\x00y' '\x00lead' 'sys\x00only'; do
	grep -qaF "<title>$name (" "$TMP/out" && ok || bad "flame: no frame $name"
done
report "dot" dot
dot -Tsvg "$TMP/out" >"$TMP/dot.svg" 2>/dev/null
for name in 'a\x00x (710ms)' 'a\x00y (790ms)' 'File: pr\x00og'; do
	grep -qaF "$name" "$TMP/dot.svg" && ok || bad "dot: no $name"
done
report "html" html
py "html" '
text = data.decode("utf-8")
assert "\0" not in text, "a raw NUL"
assert "a\\u0000y" in text, "a\\0y lost"'

# list: a file whose name holds a NUL is no file (never the one its name
# is cut to: ./f exists here), in pprof's words; the lines with samples
# follow, as for any missing file.
mkdir "$TMP/src"
seq 1 30 | sed 's/^/line /' >"$TMP/src/f"
(cd "$TMP/src" && "$PPROF_C" list 'a.x|cut' "$P" >"$TMP/out" 2>"$TMP/err" </dev/null)
RC=$?
expect_status 0 "list"
python3 - "$TMP/out" "$TMP/src" 2>"$TMP/pyerr" <<'EOPY' && ok || bad "list: $(tail -1 "$TMP/pyerr")"
import sys
got = open(sys.argv[1], "rb").read().decode("latin-1").split("\n")
d = sys.argv[2]
want = [
    "Total: 1.88s",
    "ROUTINE ======================== a\0x in f\0one.go",
    "     130ms      710ms (flat, cum) 37.77% of Total",
    " Error: could not find file f\0one.go on path " + d,
    "     130ms      710ms     11:",
    "ROUTINE ======================== cut\xe2\x82 in f",
    "      90ms       90ms (flat, cum)  4.79% of Total",
]
assert got[:len(want)] == want, got[:len(want)]
assert "      90ms       90ms     17:line 17" in got, got
EOPY

# check names the function whole and tells a\0y from a and a\0x.
"$PPROF_C" check -diff_base="$P" -max_share='^a.y$=10' "$P" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 3 "check"
py "check" '
lines = data.split(b"\n")
assert lines[1].endswith(b"  a\0y"), lines
assert lines[2] == b"1 rule, 1 broken", lines'

# proto keeps every name's bytes: read back, raw is the same.
report "raw" raw
cp "$TMP/out" "$TMP/raw.want"
report "proto" proto -output="$TMP/back.pb.gz"
"$PPROF_C" raw "$TMP/back.pb.gz" >"$TMP/raw.got" 2>/dev/null
grep -av '^Period\|^Time\|^Duration' "$TMP/raw.want" >"$TMP/a"
grep -av '^Period\|^Time\|^Duration' "$TMP/raw.got" >"$TMP/b"
expect_same "$TMP/a" "$TMP/b" "proto read back"

# -sample_index takes a type's whole name: "samp" is not "samp\0les". The
# message quotes the names whole, as pprof: to a file or pipe with their
# NUL bytes, as go tool pprof writes them; on a terminal escaped (\x00),
# as every message that quotes a profile's names.
T="$SRCDIR/testdata/names/nul_types.pb.gz"
"$PPROF_C" top -sample_index=samp "$T" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 2 "sample_index cut at the NUL"
cp "$TMP/err" "$TMP/out"
py "sample_index: the names whole, NUL bytes raw" '
want = b"pprof-c: sample_index \"samp\" must be one of: [samp\0les cpu\0x]\n"
assert data == want, data'
python3 - "$PPROF_C" "$T" >"$TMP/out" 2>"$TMP/pyerr" <<'EOPY'
import os, pty, subprocess, sys
m, s = pty.openpty()
subprocess.run([sys.argv[1], "top", "-sample_index=samp", sys.argv[2]],
               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=s)
os.close(s)
got = b""
while True:
    try:
        b = os.read(m, 4096)
    except OSError:
        break
    if not b:
        break
    got += b
sys.stdout.buffer.write(got)
EOPY
py "sample_index on a terminal: NUL bytes escaped" '
want = b"pprof-c: sample_index \"samp\" must be one of: [samp\x5cx00les cpu\x5cx00x]\r\n"
assert data == want, data'
# A base with other sample types: both lists whole.
"$PPROF_C" top -base="$T" "$P" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 2 "base with other types"
cp "$TMP/err" "$TMP/out"
py "base with other types: the names whole" '
assert b"[samp\0les/count cpu\0x/nano\0s\xc3\xa9conds\xff]" in data, data
assert b"[samples/count cpu/nanoseconds]\n" in data, data'
"$PPROF_C" top -sample_index=cpu "$T" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 2 "sample_index cpu"

# A "bytes" label (the one numeric label pprof draws) whose unit is
# "bytes\0tail" has no unit pprof knows, read whole: the tag nodes show the
# numbers alone, as go tool pprof -dot prints them for this profile (a unit
# cut at its NUL would be bytes, and show 6kB).
U="$SRCDIR/testdata/names/nul_units.pb.gz"
"$PPROF_C" dot "$U" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 0 "dot: numeric tags"
got=$(grep -ao 'NN[0-9_]* \[label = "[^"]*"' "$TMP/out" | sed 's/.*label = //' | sort | tr '\n' ' ')
want='"10752" "12288" "13824" "1536" "15360" "16896" "18432" "19968" "21504" "3072" "4608" "6144" "7680" "9216" '
[ "$got" = "$want" ] && ok || bad "dot: numeric tags: $got"

# Every value the call graph labels carries the 200-byte unit whole, its
# NUL escaped as DOT text: 179 of them, as go tool pprof -dot prints.
"$PPROF_C" dot -sample_index=1 "$U" >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
expect_status 0 "dot: a long unit"
py "dot: a long unit whole" '
import re
unit = b"long\\\\x00unit-\xc3\xa9" + b"x" * 188
assert data.count(b"long\\\\x00unit-") == 179, data.count(b"long")
assert len(re.findall(re.escape(unit) + b"[^x]", data)) == 179'

# flame -colors=js and perl tell a frame's kind from its whole name: what
# marks it (".js", "/", "Perl", ".pl") follows a NUL here. Green is the
# language's own code, red native (the fills are a hash of each name).
C="$SRCDIR/testdata/names/nul_colors.pb.gz"
fills() { # PALETTE: "NAME FILL" per frame, in the SVG's order
	"$PPROF_C" flame -colors="$1" "$C" 2>"$TMP/err" </dev/null |
		grep -ao '<title>[^<]*</title><rect [^>]*fill="[^"]*"' |
		sed 's/<title>\([^ ]*\) .* fill="\([^"]*\)"/\1 \2/' | tr '\n' ' '
}
got=$(fills js)
want='all rgb(242,111,111) main rgb(201,52,52) f\x00.js rgb(50,200,50) g\x00Perl rgb(249,122,122) h\x00/x rgb(73,221,73) p\x00.pl rgb(204,56,56) plain\x00x rgb(222,82,82) '
[ "$got" = "$want" ] && ok || bad "flame -colors=js: $got"
got=$(fills perl)
want='all rgb(242,111,111) main rgb(201,52,52) f\x00.js rgb(200,51,51) g\x00Perl rgb(104,249,104) h\x00/x rgb(221,80,80) p\x00.pl rgb(54,204,54) plain\x00x rgb(222,82,82) '
[ "$got" = "$want" ] && ok || bad "flame -colors=perl: $got"

# The web UI's flame graph names a function whole: pivot holds a NUL as
# %00, so "a\0x" and "a\0y" are two pivots, neither "a"; a name JSON
# cannot carry (invalid UTF-8) comes with its bytes in raw_names, which
# pivotx takes back. The root of a pivot is worth the function's cum.
if command -v curl >/dev/null; then
	serve_web -http=127.0.0.1:0 "$P"
	if [ -n "$URL" ]; then
		api() { curl -s -o "$TMP/out" -w '%{http_code}' "$URL/api/$1"; }
		for q in "pivot=a%00x a\0x 710000000" "pivot=a%00y a\0y 790000000" \
			"pivot=a a 810000000" "pivot=%00lead \0lead 250000000" \
			"pivotx=62fffe b\xff\xfe 150000000" \
			"pivotx=637574e282 cut\xe2\x82 90000000"; do
			set -- $q
			[ "$(api "flame?$1&side=callers")" = 200 ] && ok || bad "flame?$1: status"
			py "flame?$1" '
d = json.loads(data.decode("utf-8"))
name = b"'"$2"'"
text, i = "", 0
while i < len(name):  # as Go and the JSON read it: one U+FFFD a bad byte
    for n in (1, 2, 3, 4):
        try:
            text += name[i:i + n].decode("utf-8")
            i += n
            break
        except UnicodeDecodeError:
            pass
    else:
        text += "\ufffd"
        i += 1
assert d["names"][0] == text and d["pivot"] == text, d["names"][:1]
assert d["nodes"][0][3] == '"$3"', d["nodes"][0]
raw = d["raw_names"].get("0")
assert (raw == name.hex()) == (text.encode() != name), d["raw_names"]'
		done
		[ "$(api "flame")" = 200 ] && ok || bad "flame: status"
		py "flame: raw_names" '
d = json.loads(data.decode("utf-8"))
raw = {d["names"][int(k)]: bytes.fromhex(v) for k, v in d["raw_names"].items()}
assert raw == {"b\ufffd\ufffd": b"b\xff\xfe", "c\ufffd\ufffdd": b"c\xc0\xafd",
               "cut\ufffd\ufffd": b"cut\xe2\x82"}, raw
assert {"a", "a\0x", "a\0y", "\0lead"} <= set(d["names"]), d["names"]'
		[ "$(api "flame?pivot=b%EF%BF%BD%EF%BF%BD")" = 404 ] && ok ||
			bad "flame: U+FFFD text is no invalid name"
		py "flame: no frame named, whole" '
assert json.loads(data)["error"] == "no frame named b\ufffd\ufffd in the flame graph", data'
		[ "$(api "flame?pivot=a%00z")" = 404 ] && ok || bad "flame: a\0z is no frame"
		py "flame: the missing name whole" '
assert json.loads(data)["error"] == "no frame named a\0z in the flame graph", data'
		[ "$(api "flame?pivotx=6g")" = 400 ] && ok || bad "flame: bad pivotx"
		[ "$(api "top?si=samp")" = 400 ] && ok || bad "top?si=samp: status"
	else
		bad "web UI did not start: $(cat "$TMP/serve.err")"
	fi
	kill -INT $PID
	wait $PID
else
	part_skipped "the web UI's pivot (curl is not installed)"
fi
finish
