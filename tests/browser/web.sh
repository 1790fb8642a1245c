#!/bin/sh
# The web UI's browser test: web.mjs starts `pprof-c -http=:0` on testdata
# profiles and drives every view in Debian's headless Chromium. Screenshots
# go to ARTIFACT_DIR (default: the working directory's browser-artifacts/).
#
#   tests/browser/web.sh PPROF_C_BINARY [ARTIFACT_DIR]
#
# Skipped (exit 77) without chromium, node or tests/browser's npm packages
# (scripts/install-deps.sh installs them).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=$1
ART=${2:-$PWD/browser-artifacts}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ] || ! command -v node >/dev/null || [ ! -d "$HERE/node_modules/playwright-core" ]; then
	echo "web: chromium, node or tests/browser/node_modules missing (run scripts/install-deps.sh); skipped"
	exit 77
fi
mkdir -p "$ART" || exit 1
cd "$ROOT" || exit 1
export CHROMIUM
exec timeout 240 node "$HERE/web.mjs" "$BIN" "$ART"
