#!/bin/bash
# Which -symbolize options symbolize again what a profile already names:
# as in pprof (internal/symbolizer), force and demangle=full|templates|none
# do, the default, local and demangle=default do not.
# testdata/names/stale.pb.gz (testdata/gen/names/make_stale.py) has one
# sample at an address of testdata/native/cxxprog inside
# pprofc::work::Accumulator<unsigned long>::feed, in a mapping flagged as
# symbolized but named stale::feed. go tool pprof 1.24 agrees on which
# options re-symbolize (it prints [cxxprog] where it cannot read the binary,
# and stale::feed where it does not try).
. "$(dirname "$0")/lib.sh"
BIN=testdata/native/cxxprog
P=testdata/names/stale.pb.gz

check() { # OPTION WANT_NAME
	run top -symbolize="$1" "$BIN" "$P"
	got=$(tail -n 1 "$TMP/out" | sed 's/^ *7 *100% *100% *7 *100%  //')
	if [ "$RC" -eq 0 ] && [ "$got" = "$2" ] && [ ! -s "$TMP/err" ]; then ok; else
		bad "-symbolize=$1: got '$got' (exit $RC), want '$2'; stderr: $(head -c 300 "$TMP/err")"
	fi
}

check "" "stale::feed"
check local "stale::feed"
check demangle=default "stale::feed"
check local:demangle=default "stale::feed"
check force "pprofc::work::Accumulator::feed"
check demangle=templates "pprofc::work::Accumulator<unsigned long>::feed"
check demangle=full "pprofc::work::Accumulator<unsigned long>::feed(std::vector<unsigned long, std::allocator<unsigned long> > const&, int)"
check local:demangle=full "pprofc::work::Accumulator<unsigned long>::feed(std::vector<unsigned long, std::allocator<unsigned long> > const&, int)"
check demangle=none "_ZN6pprofc4work11AccumulatorImE4feedERKSt6vectorImSaImEEi"
check none "stale::feed"
finish
