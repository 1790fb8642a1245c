#!/bin/bash
# libcurl is loaded on the first fetch, never by runs that only read files
# (src/source/curl_loader.c): the dynamic loader's own log (glibc's
# LD_DEBUG=files) shows which shared objects a run opens. Skipped (77)
# where the loader keeps no such log.
. "$(dirname "$0")/lib.sh"
PROFILE=$SRCDIR/testdata/go/cpu.pb.gz

# opened ARGS...: the shared objects a run of pprof-c opens, one a line.
opened() {
	LD_DEBUG=files "$PPROF_C" "$@" 2>&1 >/dev/null </dev/null |
		sed -n 's/.*file=\([^ ]*\).*/\1/p' | sort -u
}

opened --version >"$TMP/version"
grep -q 'libc\.so' "$TMP/version" || { echo "SKIP: no LD_DEBUG log from the dynamic loader"; exit 77; }

if grep -q libcurl "$TMP/version"; then
	bad "--version opened libcurl"
else ok; fi
opened top "$PROFILE" >"$TMP/top"
if grep -q libcurl "$TMP/top"; then
	bad "top of a file opened libcurl"
else ok; fi
# Nothing listens on port 1: the fetch fails, after loading libcurl.
opened top http://127.0.0.1:1/profile >"$TMP/fetch"
if grep -q libcurl "$TMP/fetch"; then ok; else
	bad "a fetch did not open libcurl: $(tr '\n' ' ' <"$TMP/fetch")"
fi
run top http://127.0.0.1:1/profile
expect_status 1 "fetch from a closed port"
if grep -q 'connection refused' "$TMP/err"; then ok; else
	bad "fetch from a closed port: $(cat "$TMP/err")"
fi
finish
