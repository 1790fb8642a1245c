#!/bin/bash
# The web UI (-http) on a big profile: how soon the first flame graph page is
# ready (best of three, with the browser started just before the clock and
# with one already running), against a cold `pprof-c top` and against
# `go tool pprof -http` in the same headless browser; refine and zoom latency; the server's peak
# memory against the raw profile's size; and a bounded load test (wrk, 50
# connections for 10 s on loopback, rotating over the views). Prints
# Markdown; bench/RESULTS.md keeps the last run.
#
#   bash bench/web.sh [--pprof-c PATH] [--no-go] [PROFILE]   (default: bench/data/large.pb.gz)
set -euo pipefail
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH/.." && pwd)
PPROF_C=$ROOT/build/pprof-c
RUN_GO=1
ARGS="$*" # for the report's command line, before the options are taken
while [ $# -gt 0 ]; do
	case $1 in
	--pprof-c) PPROF_C=$2; shift 2 ;;
	--no-go) RUN_GO=0; shift ;;
	*) break ;;
	esac
done
PROFILE=${1:-$BENCH/data/large.pb.gz}
[ -r "$PROFILE" ] || { echo "web: $PROFILE: missing (bench/run.sh --sizes large makes it)" >&2; exit 2; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# a / b, or "-" when a is not a number (a row that failed).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a !~ /^[0-9.]+$/ || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
raw=$(gzip -dc "$PROFILE" | wc -c)
cat "$PROFILE" >/dev/null # page cache

# Cold top: the best of three.
best=999
for _ in 1 2 3; do
	t0=$EPOCHREALTIME
	"$PPROF_C" top "$PROFILE" >/dev/null
	t=$(secs "$t0" "$EPOCHREALTIME")
	best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (a < b) ? a : b }')
done
top=$best

# The first page, best of three as top is: with the browser started just
# before the clock (its start-up shares the cores with the server's), and
# with a browser already running and idle (SETTLE_MS).
first_page() {
	local best=999 t
	for _ in 1 2 3; do
		t=$(SETTLE_MS=$1 node "$BENCH/web-first.mjs" "$PPROF_C" -http=:0 -no_browser "$PROFILE" |
			awk '$1 == "first-page" && $2 != "FAILED" { print $2 }')
		[ -n "$t" ] && best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (a < b) ? a : b }')
	done
	[ "$best" = 999 ] && best=failed
	echo "$best"
}
first_s=$(first_page 0)
settled_s=$(first_page 3000)
go_s=skipped
. "$BENCH/go-pprof.sh"
GOCMD=$(go_pprof "$ROOT")
if [ "$RUN_GO" = 1 ] && command -v "$GOCMD" >/dev/null; then
	gofirst=$(timeout 900 node "$BENCH/web-first.mjs" "$GOCMD" tool pprof -http=localhost: -no_browser "$PROFILE" || true)
	go_s=$(echo "$gofirst" | awk '$1 == "first-page" && $2 != "FAILED" { print $2 }')
	[ -n "$go_s" ] || go_s="failed ($gofirst)"
fi

# Latency and memory on one server.
LOG=$(mktemp)
"$PPROF_C" -http=:0 -no_browser "$PROFILE" 2>"$LOG" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$LOG"' EXIT
until grep -q "Serving web UI" "$LOG"; do sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$LOG")
get() { curl -s -o /dev/null -w '%{time_total}' "$url$1"; }
first_api=$(get "/api/flame?width=1200")
again=$(get "/api/flame?width=1200")
zoom=$(get "/api/flame?width=1200&root=1")
refine=$(get "/api/flame?width=1200&f=runtime")
refine_again=$(get "/api/flame?width=1200&f=runtime")
refine2=$(get "/api/flame?width=1200&f=mallocgc")
refine3=$(get "/api/flame?width=1200&i=mallocgc")
# Refines that take frames out of the stacks (made from the whole tree
# when the filters' lines say which frames go; show_from on an inlined
# match still filters the profile, and its page is drawn from the top of
# the filtered profile's tree), and another sample type (its own tree,
# whose top draws its page).
refine_h=$(get "/api/flame?width=1200&h=mallocgc")
refine_h2=$(get "/api/flame?width=1200&h=runtime")
refine_s=$(get "/api/flame?width=1200&s=runtime")
refine_sf=$(get "/api/flame?width=1200&sf=Method05")
sample_type=$(get "/api/flame?width=1200&si=samples")
top_api=$(get "/api/top")
size=$(curl -s "$url/api/flame?width=1200" | wc -c)
# The load test's views once each first: what it then measures is the
# server answering from its cache, and its memory must stay where the first
# requests left it.
for p in "/api/top?si=samples" "/ui/flamegraph" "/static/app.js"; do get "$p" >/dev/null; done
hwm_before=$(awk '/VmHWM/ { print $2 }' /proc/$pid/status)
# wrk (Debian's package wrk) is the bench's own need, not the tests':
# without it the load rows say so.
if command -v wrk >/dev/null; then
	load=$(wrk -t2 -c50 -d10s --timeout 10s -s "$BENCH/web-load.lua" "$url" 2>&1)
else
	load="skipped: wrk is not installed (bash scripts/install-bench-deps.sh)"
fi
hwm_after=$(awk '/VmHWM/ { print $2 }' /proc/$pid/status)
kill -INT $pid
wait $pid || true
trap - EXIT
rm -f "$LOG"
reqs=$(echo "$load" | awk '/requests in/ { print $1 }')
rps=$(echo "$load" | awk '/Requests\/sec/ { print $2 }')
errs=$(echo "$load" | awk '/Socket errors|Non-2xx/ { print }' | tr '\n' ' ')
lat=$(echo "$load" | awk '$1 == "Latency" { print $2 " mean, " $4 " max" }')
if [ -n "$reqs" ]; then
	load_line="${reqs} requests, ${rps}/s, latency ${lat}; errors: ${errs:-none}."
else
	load_line="$load"
fi

cat <<REPORT
### Web UI: $(basename "$PROFILE") ($(numfmt --to=iec "$raw") raw), $(date -u +%F)

| what | time | ratio |
|---|---:|---:|
| cold \`pprof-c top\` (best of 3) | ${top} s | 1 |
| first flame graph page, pprof-c (process start to rendered page, best of 3; browser started just before) | ${first_s} s | $(ratio "$first_s" "$top") x top |
| the same, browser already running and idle (SETTLE_MS=3000) | ${settled_s} s | $(ratio "$settled_s" "$top") x top |
| first flame graph page, \`go tool pprof -http\` | ${go_s}$( [[ $go_s =~ ^[0-9.]+$ ]] && echo " s") | $( [[ $go_s =~ ^[0-9.]+$ ]] && [[ $first_s =~ ^[0-9.]+$ ]] && ratio "$go_s" "$first_s" || echo -) x pprof-c's |
| first /api/flame (width 1200: from the top of the tree, built at start) | ${first_api} s | $(ratio "$first_api" "$top") x top |
| the same again (waits for the whole tree, built once the first was answered) | ${again} s | $(ratio "$again" "$top") x top |
| zoom (/api/flame?root=1) | ${zoom} s | $(ratio "$zoom" "$top") x top |
| refine (/api/flame?f=runtime, first) | ${refine} s | $(ratio "$refine" "$top") x top |
| refine again (cached) | ${refine_again} s | $(ratio "$refine_again" "$top") x top |
| another refine (/api/flame?f=mallocgc, first) | ${refine2} s | $(ratio "$refine2" "$top") x top |
| another (/api/flame?i=mallocgc, first) | ${refine3} s | $(ratio "$refine3" "$top") x top |
| hide (/api/flame?h=mallocgc, first) | ${refine_h} s | $(ratio "$refine_h" "$top") x top |
| hide (/api/flame?h=runtime, first) | ${refine_h2} s | $(ratio "$refine_h2" "$top") x top |
| show (/api/flame?s=runtime, first) | ${refine_s} s | $(ratio "$refine_s" "$top") x top |
| show_from (/api/flame?sf=Method05, first) | ${refine_sf} s | $(ratio "$refine_sf" "$top") x top |
| another sample type (/api/flame?si=samples, first) | ${sample_type} s | $(ratio "$sample_type" "$top") x top |
| /api/top | ${top_api} s | $(ratio "$top_api" "$top") x top |

The flame answer at width 1200 is $(numfmt --to=iec "$size") of JSON.

| memory | KiB | ratio to raw |
|---|---:|---:|
| server peak RSS after the requests above (session cache: 2 filtered profiles, 4 aggregates) | ${hwm_before} | $(ratio "$((hwm_before * 1024))" "$raw") |
| after 10 s of 50 clients | ${hwm_after} | $(ratio "$((hwm_after * 1024))" "$raw") |

Load (wrk -t2 -c50 -d10s, bench/web-load.lua rotating flame, top, zoom,
refine, sample type, page and script, each requested once before):
${load_line}

Commands: \`bash bench/web.sh $ARGS\` (cold top: \`pprof-c top PROFILE\`; first
page: \`[SETTLE_MS=3000] node bench/web-first.mjs pprof-c -http=:0 -no_browser PROFILE\` and
\`node bench/web-first.mjs GO tool pprof -http=localhost: -no_browser
PROFILE\` with GO \`$GOCMD\` ($("$GOCMD" version 2>/dev/null || echo "not run")); latency: curl's time_total on one server).
REPORT
