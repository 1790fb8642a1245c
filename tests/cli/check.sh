#!/bin/bash
# check, the CI gate: exit 0 when every rule holds, 3 when one breaks (with
# the breaking rows printed), 2 for a usage error, 1 for a bad profile.
. "$(dirname "$0")/lib.sh"
B="$SRCDIR/testdata/go/cpu_before.pb.gz"
A="$SRCDIR/testdata/go/cpu_after.pb.gz"

# After the optimisation LoggingMiddleware's cum share fell: no growth.
run check -diff_base "$B" -max_growth 'LoggingMiddleware=1' "$A"
expect_status 0 "no growth"
grep -q '^1 rule, 0 broken$' "$TMP/out" && ok || bad "summary when nothing breaks"

# The other way round it grew from 79.37% to 92.81%: 13.44 points.
run check -diff_base "$A" -max_growth 'LoggingMiddleware=1' "$B"
expect_status 3 "growth breaks the rule"
grep -Eq '^max_growth +1\.00 +0\.00% +79\.37% +4\.45% +92\.81%  main\.LoggingMiddleware$' "$TMP/out" && ok || bad "growth row: $(cat "$TMP/out")"
run check -diff_base "$A" -max_growth 'LoggingMiddleware=14' "$B"
expect_status 0 "growth under a looser limit"

# Shares in the new profile, several rules at once.
run check -diff_base "$B" -max_share 'LoggingMiddleware=80' -max_share 'Drive=99' "$A"
expect_status 0 "shares under their limits"
grep -q '^2 rules, 0 broken$' "$TMP/out" && ok || bad "two rules summary"
run check -diff_base "$B" -max_share 'LoggingMiddleware=50' -max_share 'nomatch=1' "$A"
expect_status 3 "share over its limit"
grep -q '^2 rules, 1 broken$' "$TMP/out" && ok || bad "one of two broken"

# Usage errors and bad input.
run check -max_share 'x=1' "$A"
expect_status 2 "no -diff_base"
expect_err_line "check needs -diff_base OLD" "no -diff_base"
run check -diff_base "$B" "$A"
expect_status 2 "no rules"
expect_err_line "check needs at least one -max_growth or -max_share rule" "no rules"
run check -diff_base "$B" -max_share 'x' "$A"
expect_status 2 "rule without a limit"
run check -diff_base "$B" -max_share 'x=lots' "$A"
expect_status 2 "limit not a number"
run check -diff_base "$B" -max_share '(x=1' "$A"
expect_status 2 "bad regex"
expect_err_line "^pprof-c: -max_share \(x: missing closing parenthesis" "bad regex"
# An old profile of other values: no shares to compare, one clear error.
run check -diff_base "$SRCDIR/testdata/go/heap.pb.gz" -max_share 'x=1' "$A"
expect_status 2 "old profile with other sample types"
expect_err_line "^pprof-c: .*heap.pb.gz: base profile has sample types \[alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes\], the profile has \[samples/count cpu/nanoseconds\]$" "old profile with other sample types"
expect_no_stdout "old profile with other sample types"
run check -diff_base "$TMP/missing.pb.gz" -max_share 'x=1' "$A"
expect_status 1 "missing old profile"
expect_err_line "missing.pb.gz: No such file or directory" "missing old profile"

finish
