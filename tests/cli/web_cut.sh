#!/bin/bash
# A flame page whose report has no tree yet (a refine that filters the
# profile, because the whole profile's tree cannot make it; another sample
# type) is answered from the top of its tree, the frames a pixel wide, as
# the first page is: the same page as the whole tree's, and zooms into it
# work (tests/cli/web_cut.mjs). On bench/genprof.c's small profile, where
# the top of the tree leaves most frames out.
. "$(dirname "$0")/lib.sh"
require curl curl
require node nodejs
if ! cc -O1 -o "$TMP/genprof" "$SRCDIR/bench/genprof.c" -lz 2>"$TMP/cc.err" ||
	! "$TMP/genprof" --small -o "$TMP/small.pb.gz" 2>/dev/null; then
	echo "SKIP: web_cut: cannot build bench/genprof.c: $(head -1 "$TMP/cc.err")"
	exit 77
fi
serve_web -http=127.0.0.1:0 "$TMP/small.pb.gz"
[ -n "$URL" ] || { bad "the server did not start: $(cat "$TMP/serve.err")"; finish; }
# show_from on a function that is also inlined takes callers out of some
# locations only: the profile is filtered (src/graph/tree_refine.c).
while read -r line; do
	case $line in
	ok) ok ;;
	*) bad "${line#FAIL: }" ;;
	esac
done < <(node "$SRCDIR/tests/cli/web_cut.mjs" "$URL" "sf=Method05" "si=samples" \
	"sf=Method05&si=samples" "sf=Method05&h=runtime" 2>&1)
[ "$PASSED" -ge 16 ] || bad "web_cut.mjs: $PASSED of its 16 checks passed"
kill -INT $PID
wait $PID
RC=$?
expect_status 0 "the server stops"
finish
