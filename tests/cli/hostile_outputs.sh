#!/bin/bash
# Every output format stays valid whatever bytes the profile's names hold:
# a profile whose function, file, mapping and label names hold every byte
# value 0x00-0xff, invalid UTF-8, `</script>`, quotes and each format's
# own escapes (hostile_names.py --every) goes through every report, at
# every granularity; XML (svg, flame, dot as graphviz draws it) must pass
# xmllint, JSON (speedscope, -json, the web UI's /api) python's strict
# parser, HTML its JSON data and script elements.
. "$(dirname "$0")/lib.sh"
require xmllint libxml2-utils
require dot graphviz
P="$TMP/every.pb"
python3 "$SRCDIR/tests/cli/hostile_names.py" --every "$P"
# Under valgrind (tests/valgrind.sh's wrapper script) the pictures graphviz
# draws are left out: pango and fontconfig leak there, in any profile.
drawn=yes
if head -c 2 "$PPROF_C" | grep -q '#!'; then
	drawn=
	echo "skipped under valgrind: svg, png, pdf and /api/graph (graphviz's own leaks)"
fi

# check_xml WHAT FILE
check_xml() {
	if xmllint --noout "$2" 2>"$TMP/xmlerr"; then ok; else
		bad "$1: not well-formed XML: $(head -3 "$TMP/xmlerr")"
	fi
}
# check_json WHAT FILE: strict UTF-8, strict JSON, and no '<' (so it is
# safe inside a <script> element).
check_json() {
	if python3 - "$2" 2>"$TMP/jsonerr" <<'EOPY'; then ok; else bad "$1: $(tail -1 "$TMP/jsonerr")"; fi
import json, sys
data = open(sys.argv[1], "rb").read()
json.loads(data.decode("utf-8"))
assert b"<" not in data, "a raw '<'"
EOPY
}
# report WHAT ARGS...: run pprof-c, which must succeed.
report() {
	local what=$1
	shift
	"$PPROF_C" "$@" "$P" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$?
	expect_status 0 "$what"
}

for g in functions lines files addresses; do
	if [ -n "$drawn" ]; then
		report "svg -$g" svg -$g
		check_xml "svg -$g" "$TMP/out"
	fi
	report "dot -$g" dot -$g
	if dot -Tsvg "$TMP/out" >"$TMP/dot.svg" 2>"$TMP/doterr" && [ ! -s "$TMP/doterr" ]; then ok; else
		bad "dot -$g: graphviz: $(head -3 "$TMP/doterr")"
	fi
	check_xml "dot -$g drawn by graphviz" "$TMP/dot.svg"
	report "flame -$g" flame -$g
	check_xml "flame -$g" "$TMP/out"
	report "speedscope -$g" speedscope -$g
	check_json "speedscope -$g" "$TMP/out"
	report "top -json -$g" top -json -$g
	check_json "top -json -$g" "$TMP/out"
done
for cmd in tree traces tags flame "peek ."; do
	# shellcheck disable=SC2086
	report "$cmd -json" $cmd -json
	check_json "$cmd -json" "$TMP/out"
done
report "flame -inverted" flame -inverted
check_xml "flame -inverted" "$TMP/out"
for cmd in top tree "peek ." "list ." traces tags raw comments folded ${drawn:+png pdf}; do
	# shellcheck disable=SC2086
	report "$cmd" $cmd
done
# proto keeps every name's bytes: read back, top is the same.
report "top" top -nodecount=100
cp "$TMP/out" "$TMP/top.want"
report "proto" proto -output="$TMP/back.pb.gz"
"$PPROF_C" top -nodecount=100 "$TMP/back.pb.gz" >"$TMP/top.got" 2>/dev/null
expect_same "$TMP/top.want" "$TMP/top.got" "proto read back"

# What the names become: escaped text in XML (\x1b for a control
# character, U+FFFD for invalid UTF-8), JSON escapes, the bytes in text.
report "dot" dot
dot -Tsvg "$TMP/out" >"$TMP/out.svg" 2>/dev/null
cp "$TMP/out.svg" "$TMP/out"
grep -qF 'esc \x1b]0;title\x07 \x1b]52;c;AAAA\x07 \x1b[2J' "$TMP/out" && ok ||
	bad "svg: the control characters should show as \\xNN"
grep -qF '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;' "$TMP/out" && ok ||
	bad "svg: markup in a name should be text"
grep -qF "cut short $(printf '\xef\xbf\xbd\xef\xbf\xbd')" "$TMP/out" && ok ||
	bad "svg: invalid UTF-8 should become U+FFFD"
report "top -json" top -json
grep -qF '"name":"esc \u001b]0;title\u0007 ' "$TMP/out" && ok ||
	bad "top -json: control characters should be \\u escapes"
grep -qF '"name":"valid '"$(printf '\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80')"'"' "$TMP/out" && ok ||
	bad "top -json: valid UTF-8 should be kept"
report "top" top
grep -qF "$(printf 'esc \x1b]0;title\x07')" "$TMP/out" && ok ||
	bad "top to a pipe: the bytes should print as they are"

# html: one self-contained page; its data is JSON, and no name closes a
# script element.
report "html" html
if python3 - "$TMP/out" 2>"$TMP/htmlerr" <<'EOPY'; then ok; else bad "html: $(tail -1 "$TMP/htmlerr")"; fi
import json, sys
from html.parser import HTMLParser
text = open(sys.argv[1], "rb").read().decode("utf-8")
class Scripts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts, self.cur = [], None
    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.cur = [dict(attrs), ""]
    def handle_data(self, data):
        if self.cur is not None:
            self.cur[1] += data
    def handle_endtag(self, tag):
        if tag == "script":
            self.scripts.append(self.cur)
            self.cur = None
p = Scripts()
p.feed(text)
assert len(p.scripts) == 2, "%d script elements, want 2" % len(p.scripts)
data = [s for a, s in p.scripts if a.get("type") == "application/json"]
assert len(data) == 1, "no data element"
d = json.loads(data[0])
names = [r["name"] for r in d["top"]["rows"]]
assert any(n.startswith("</script><script>") for n in names), "a name lost"
EOPY

# The web UI's JSON and call graph.
if command -v curl >/dev/null; then
	serve_web -http=127.0.0.1:0 "$P"
	if [ -n "$URL" ]; then
		for q in top flame "flame?pivot=esc%20%1b%5d0" peek source \
			"top?f=%ff%fe(" "flame?g=files" "top?g=addresses"; do
			curl -s -o "$TMP/api" "$URL/api/$q"
			check_json "/api/$q" "$TMP/api"
		done
		if [ -n "$drawn" ]; then
			curl -s -o "$TMP/api.svg" "$URL/api/graph"
			check_xml "/api/graph" "$TMP/api.svg"
		fi
	else
		bad "web UI did not start: $(cat "$TMP/serve.err")"
	fi
	kill -INT $PID
	wait $PID
else
	part_skipped "the web UI's JSON (curl is not installed)"
fi
finish
