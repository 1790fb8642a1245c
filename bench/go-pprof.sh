# Sourced by the bench scripts. go_pprof ROOT prints the `go` command
# whose `go tool pprof` the benchmarks measure: $GO when it is set, else
# the tests' reference (Go 1.24, unpacked by tests/reference-go.sh, which
# finds its GOROOT from its own path) when it is there, else `go` on PATH
# (an older pprof, which the report names with `go version`).
go_pprof() {
	local gr

	if [ -n "${GO:-}" ]; then
		echo "$GO"
	elif gr=$(sh "$1/tests/reference-go.sh" --check 2>/dev/null) &&
		[ -x "$gr/bin/go" ]; then
		echo "$gr/bin/go"
	else
		echo go
	fi
}
