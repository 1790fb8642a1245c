#!/bin/bash
# -http on the command line: malformed addresses and a report command with
# it are usage errors, a busy port is an error naming it, a non-loopback
# bind warns, SIGINT and SIGTERM stop the server with status 0, and
# /download is the profile the views see (the browser checks the views
# themselves: tests/browser/web.mjs).
. "$(dirname "$0")/lib.sh"
CPU="$SRCDIR/testdata/go/cpu.pb.gz"

run -http=nocolon -no_browser "$CPU"
expect_status 2 "-http without a port"
expect_err_line "nocolon: could not split http address" "-http without a port"
run -http=:abc -no_browser "$CPU"
expect_status 2 "-http with a bad port"
expect_err_line "invalid port number" "-http with a bad port"
run -http=:0 top "$CPU"
expect_status 2 "-http with a report command"
run -http=:0 -no_browser
expect_status 2 "-http without a profile"

serve_web -http=127.0.0.1:0 "$CPU"
if [ -n "$URL" ]; then ok; else bad "server on 127.0.0.1:0 did not start: $(cat "$TMP/serve.err")"; fi
port=${URL##*:}
if grep -q "warning" "$TMP/serve.err"; then bad "loopback bind warned"; else ok; fi
# The port is taken: a second server fails, naming it.
run -http=127.0.0.1:"$port" -no_browser "$CPU"
expect_status 1 "a busy port"
expect_err_line "cannot listen on 127.0.0.1:$port" "a busy port"
# /download: gzip'd profile.proto that pprof-c reads back to the same top.
if command -v curl >/dev/null; then
	curl -s -o "$TMP/dl.pb.gz" "$URL/download?f=main"
	"$PPROF_C" top -focus=main "$CPU" | sed -n '/flat%/,$p' >"$TMP/want"
	"$PPROF_C" top "$TMP/dl.pb.gz" 2>&1 | sed -n '/flat%/,$p' >"$TMP/got"
	# pprof's download is the filtered profile: the same nodes and flat
	# values (percentages are of its own, smaller, total).
	awk '{ print $1, $4, $6 }' "$TMP/want" >"$TMP/want.cols"
	awk '{ print $1, $4, $6 }' "$TMP/got" >"$TMP/got.cols"
	expect_same "$TMP/want.cols" "$TMP/got.cols" "/download?f=main read back"
	# pprof's addresses: / and /ui keep the query (a bookmark of the
	# address pprof opens the browser at), its older flame graph pages
	# move on, and download and the configurations answer under /ui/.
	for want in "/?si=samples&f=main%5C.%20x&h= 302 /ui/flamegraph?si=samples&f=main%5C.%20x&h=" \
		"/ui?x=%00y 302 /ui/?x=%00y" "/ui/flamegraph2?f=a 301 /ui/flamegraph?f=a" \
		"/ui/flamegraphold 301 /ui/flamegraph"; do
		set -- $want
		got=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$URL$1")
		if [ "$got" = "$2 $URL$3" ]; then ok; else bad "$1: '$got', want '$2 $URL$3'"; fi
	done
	curl -s -o "$TMP/dl2.pb.gz" "$URL/ui/download?f=main"
	if cmp -s "$TMP/dl.pb.gz" "$TMP/dl2.pb.gz"; then ok; else bad "/ui/download is not /download"; fi
	code=$(curl -s -o /dev/null -w '%{http_code}' "$URL/ui/saveconfig")
	if [ "$code" = 405 ]; then ok; else bad "GET /ui/saveconfig answered $code, want 405 (POST only)"; fi
	code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: attacker.example' "$URL/api/top")
	if [ "$code" = 403 ]; then ok; else bad "foreign Host answered $code"; fi
	# /ui/source without the binary: weblist's listing, as pprof's web UI
	# shows it, with the numbers of `pprof-c weblist`'s page: each
	# function, its lines' values and classes, the source text and the
	# calls inlined below each line (files heaviest first, not by name).
	curl -s -o "$TMP/source.json" "$URL/api/source?f=main%5C."
	(cd "$SRCDIR" && "$PPROF_C" weblist 'main\.' -output="$TMP/wl.html" "$CPU" 2>/dev/null)
	if python3 - "$TMP/source.json" "$TMP/wl.html" 2>"$TMP/pyerr" <<'EOPY'; then ok; else bad "/api/source against weblist: $(tail -1 "$TMP/pyerr")"; fi
import html, json, re, sys
w = json.load(open(sys.argv[1]))["weblist"]
page = open(sys.argv[2], encoding="utf-8").read()
want = []
for part in page.split("<h2>")[1:]:
    name, rest = part.split("</h2>", 1)
    file = re.search(r'<p class="filename">(.*?)</p>', rest).group(1)
    tot = re.search(r"  Total:  +(\S+) +(\S+) \(flat, cum\) +(\S+)", rest)
    lines = []
    for m in re.finditer(r"<span class=line> +(\d+)</span> <span class=(\w+)>  +(\S+) +(\S+) {11}(.*?) </span>(<span class=asm>(.*?)</span>\n(?=<span class=line>|</pre>))?", rest, re.S):
        calls = re.findall(r"<span class=inlinesrc>(.*?)</span>", m.group(7) or "")
        lines.append((int(m.group(1)), m.group(2), m.group(3), m.group(4), html.unescape(m.group(5)), [html.unescape(c) for c in calls]))
    want.append((html.unescape(name), html.unescape(file), tot.group(1), tot.group(2), tot.group(3), lines))
got = []
for f in w["functions"]:
    lines = [(l["line"], l["class"], l["flat"], l["cum"], l["src"],
              [c["src"] for i in l["instructions"] for c in i["inlined_calls"]]) for l in f["lines"]]
    assert all(i["synthetic"] for l in f["lines"] for i in l["instructions"]), f["name"]
    got.append((f["name"], f["file"], f["flat"], f["cum"], f["percent"].strip(), lines))
assert len(want) > 40 and sum(len(c) for f in want for l in f[5] for c in [l[5]]) > 50, len(want)
assert sorted(got) == sorted(want), [x for x in got if x not in want][:1] or [x for x in want if x not in got][:1]
EOPY
fi
kill -INT $PID
wait $PID
RC=$?
expect_status 0 "SIGINT"

# An empty host is localhost on both loopbacks, at one port: a client that
# resolves localhost to ::1 first (Node 18, curl on some systems) connects
# as well as one that takes 127.0.0.1.
serve_web -http=:0 "$CPU"
port=${URL##*:}
if [ "$URL" = "http://localhost:$port" ]; then ok; else bad "-http=:0 printed '$URL'"; fi
if command -v curl >/dev/null; then
	code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/top")
	if [ "$code" = 200 ]; then ok; else bad "-http=:0 on 127.0.0.1 answered '$code'"; fi
	if python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
		code=$(curl -s -o /dev/null -w '%{http_code}' "http://[::1]:$port/api/top")
		if [ "$code" = 200 ]; then ok; else bad "-http=:0 on [::1] answered '$code'"; fi
	else
		part_skipped "this machine has no IPv6 loopback (::1)"
	fi
else
	part_skipped "curl is not installed"
fi
kill -TERM $PID
wait $PID
RC=$?
expect_status 0 "SIGTERM"

# Any address that is not loopback warns (0.0.0.0: every interface).
serve_web -http=0.0.0.0:0 "$CPU"
if grep -q "warning: serving on 0.0.0.0, which is not a loopback address" "$TMP/serve.err"; then ok; else
	bad "no warning for 0.0.0.0: $(cat "$TMP/serve.err")"
fi
kill -INT $PID
wait $PID
finish
