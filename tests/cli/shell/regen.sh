#!/bin/bash
# Regenerate the expected shell transcripts from go tool pprof's own shell:
#   go tool pprof testdata/go/PROFILE.pb.gz < NAME.in
# with pprof's "(pprof) " prompts removed (pprof-c prints none when stdin
# is not a terminal) and the lines that are only a prompt dropped.
# go is Go 1.24's, from tests/reference-go.sh.
set -e
cd "$(dirname "$0")"
ROOT=../../..
ref=$(sh "$ROOT/tests/reference-go.sh" --env)
eval "$ref"
gen() { # NAME PROFILE
	TZ=UTC go tool pprof "$ROOT/testdata/go/$2.pb.gz" <"$1.in" 2>/dev/null |
		sed -e 's/^\((pprof) \)*//' | sed -e '/^$/d' -e '/^Time: /d' >"$1.$2.out"
}
gen session cpu
gen heap heap
gen session goroutine
gen merged goroutine
gen filters cpu
gen words cpu
gen regex cpu
