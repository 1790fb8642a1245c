#!/bin/bash
# Progress of long work on a terminal's stderr, never in a pipe
# (tests/cli/progress_pty.py drives pprof-c through a pty).
. "$(dirname "$0")/lib.sh"
require python3 python3
python3 "$SRCDIR/tests/cli/progress_pty.py" "$PPROF_C" "$SRCDIR" "$TMP"
