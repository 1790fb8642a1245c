#!/bin/bash
# The shell on a pseudo-terminal (tests/cli/shell_pty.py): prompt, editing,
# completion, history across two sessions.
. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null; then
	echo "shell_pty: python3 missing (run scripts/install-test-deps.sh); skipped"
	exit 77
fi
python3 "$SRCDIR/tests/cli/shell_pty.py" "$PPROF_C" "$SRCDIR/testdata/go/cpu.pb.gz" "$TMP"
