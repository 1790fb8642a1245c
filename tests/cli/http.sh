#!/bin/bash
# Fetching from a real Go service with net/http/pprof (testdata/gen/httpserver)
# on 127.0.0.1: a CPU profile for a second, heap and goroutine profiles, by
# URL and by host:port as pprof takes them; pprof's lines on stderr, the
# reports' headers, and each profile saved under a temporary PPROF_TMPDIR
# with pprof's name, decoding to the same report. Skipped (77) without go.
. "$(dirname "$0")/lib.sh"
command -v go >/dev/null || { echo "SKIP: go is not installed"; exit 77; }
# Go's build cache: the user's if there is one, else a fresh one here.
export GOCACHE="${GOCACHE:-$(go env GOCACHE 2>/dev/null)}" GOFLAGS=-mod=mod GOPROXY=off
mkdir -p "$GOCACHE" 2>/dev/null && [ -w "$GOCACHE" ] || export GOCACHE="$TMP/gocache"
# The reference pprof's GOROOT, looked up while HOME is still the user's.
refroot=$(sh "$SRCDIR/tests/reference-go.sh" 2>/dev/null) || refroot=
export PPROF_TMPDIR="$TMP/saved" HOME="$TMP/home"

if ! (cd "$SRCDIR/testdata/gen/httpserver" && CGO_ENABLED=0 go build -o "$TMP/httpserver" .) 2>"$TMP/build.err"; then
	echo "FAIL: building testdata/gen/httpserver: $(cat "$TMP/build.err")"
	exit 1
fi
start_server "$TMP/httpserver" -lifetime 3600s ||
	{ echo "FAIL: httpserver did not start: $(cat "$TMP/server.err")"; exit 1; }
ADDR=$LISTEN
URL="http://$ADDR/debug/pprof"

# fetched NAME: the fetch succeeded, stderr is pprof's lines ending with
# "Saved profile in $PPROF_TMPDIR/NAME" (written to $TMP/want.err before
# the call by the caller's lines), the file is there, and reading it gives
# the report the fetch gave.
fetched() {
	local name=$1 saved="$PPROF_TMPDIR/$1"
	shift
	expect_status 0 "fetch $*"
	echo "Saved profile in $saved" >>"$TMP/want.err"
	expect_same "$TMP/want.err" "$TMP/err" "stderr of fetch $*"
	if [ -f "$saved" ]; then ok; else bad "fetch $*: no $saved (saved: $(ls "$PPROF_TMPDIR" 2>&1))"; fi
	# The same command on the saved file: options, then the file for the
	# URLs (which are the last arguments).
	local args=()
	for a in "$@"; do
		case $a in http://* | 127.0.0.1:*) ;; *) args+=("$a") ;; esac
	done
	"$PPROF_C" "${args[@]}" "$saved" >"$TMP/fromfile" 2>"$TMP/err2"
	expect_same "$TMP/out" "$TMP/fromfile" "report of the saved $name"
}

# header LINE...: each line is in the report's header.
header() {
	for line in "$@"; do
		if grep -qxF -- "$line" "$TMP/out"; then ok; else
			bad "no \"$line\" in: $(head -8 "$TMP/out")"
		fi
	done
}

# A CPU profile for one second, by host:port: pprof's default path, its
# ?seconds=, and its "Please wait".
run top -seconds=1 "$ADDR"
printf 'Fetching profile over HTTP from %s\nPlease wait... (1s)\n' "$URL/profile?seconds=1" >"$TMP/want.err"
fetched pprof.httpserver.samples.cpu.001.pb.gz top -seconds=1 "$ADDR"
header "File: httpserver" "Type: cpu"
grep -qE '^Duration: 1\.[0-9]+s, Total samples = ' "$TMP/out" && ok || bad "cpu: no Duration line: $(head -5 "$TMP/out")"
grep -qE '^ +flat +flat% +sum% +cum +cum%$' "$TMP/out" && ok || bad "cpu: no table"

# The URL's own ?seconds=: no "Please wait" (pprof prints it only for
# -seconds), the next free number.
run top "$URL/profile?seconds=1"
echo "Fetching profile over HTTP from $URL/profile?seconds=1" >"$TMP/want.err"
fetched pprof.httpserver.samples.cpu.002.pb.gz top "$URL/profile?seconds=1"
header "Type: cpu"

# Heap: four sample types in the name, any of them reported.
run top -sample_index=alloc_space "$URL/heap"
echo "Fetching profile over HTTP from $URL/heap" >"$TMP/want.err"
fetched pprof.httpserver.alloc_objects.alloc_space.inuse_objects.inuse_space.001.pb.gz top -sample_index=alloc_space "$URL/heap"
header "File: httpserver" "Type: alloc_space"
grep -q 'main.request' "$TMP/out" && ok || bad "heap: main.request allocates: $(cat "$TMP/out")"

# Goroutines, as host:port/path, with the traces report.
run traces "$ADDR/debug/pprof/goroutine"
echo "Fetching profile over HTTP from $URL/goroutine" >"$TMP/want.err"
fetched pprof.httpserver.goroutine.001.pb.gz traces "$ADDR/debug/pprof/goroutine"
header "File: httpserver" "Type: goroutine"
grep -q 'main.background' "$TMP/out" && ok || bad "goroutine: no main.background: $(head -20 "$TMP/out")"

# Several URLs are merged and saved once; a heap delta over -seconds.
run top -seconds=1 "$URL/allocs" "$URL/allocs"
printf 'Fetching profile over HTTP from %s\nPlease wait... (1s)\n' "$URL/allocs?seconds=1" "$URL/allocs?seconds=1" >"$TMP/want.err"
fetched pprof.httpserver.alloc_objects.alloc_space.inuse_objects.inuse_space.002.pb.gz top -seconds=1 "$URL/allocs" "$URL/allocs"

# The binary before the URL, as pprof takes it.
run top "$TMP/httpserver" "$URL/goroutine"
expect_status 0 "binary and URL"
header "File: httpserver" "Type: goroutine"

# pprof names the same profile the same way (the reference pprof, Go
# 1.24's from tests/reference-go.sh; the test program above is built by
# the system's go).
mkdir -p "$TMP/gosaved"
if [ -n "$refroot" ] && PPROF_TMPDIR="$TMP/gosaved" GOROOT="$refroot" GOTOOLCHAIN=local \
	"$refroot/bin/go" tool pprof -top "$URL/goroutine" >/dev/null 2>&1; then
	if [ "$(ls "$TMP/gosaved")" = pprof.httpserver.goroutine.001.pb.gz ]; then ok; else
		bad "go tool pprof saved $(ls "$TMP/gosaved")"
	fi
fi

# The shell, on a fetched profile.
printf 'top3\ntraces\n' | "$PPROF_C" "$URL/goroutine" >"$TMP/out" 2>"$TMP/err"
RC=$?
expect_status 0 "shell on a URL"
grep -q 'main.background' "$TMP/out" && ok || bad "shell on a URL: $(cat "$TMP/out" "$TMP/err")"

finish
