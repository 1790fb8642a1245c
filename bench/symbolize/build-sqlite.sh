#!/bin/bash
# Builds bench/data/sqlite: SQLite (one 9.5 MB C file, public domain) with
# a small driver, -O2 -g, PIE: a large C program for the symbolization
# benchmark beside the C++ one (build-big.sh) and Go's compiler. The
# amalgamation comes from the npm registry, where better-sqlite3 ships it.
# Reuses the binary when nothing has changed.
#   bench/symbolize/build-sqlite.sh
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=$HERE/../data
PKG=better-sqlite3@12.11.1
mkdir -p "$DATA/sqlite.d"
stamp="$PKG $(sha1sum "$HERE/sqlite-main.c" | cut -c1-12) $(gcc --version | head -1)"
if [ -x "$DATA/sqlite" ] && [ "$(cat "$DATA/sqlite.d/stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
cd "$DATA/sqlite.d"
if [ ! -f sqlite3.c ]; then
	command -v npm >/dev/null || { echo "build-sqlite.sh: needs npm to fetch $PKG" >&2; exit 2; }
	tgz=$(npm pack --silent "$PKG")
	tar xzf "$tgz" --strip-components=3 package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
	rm -f "$tgz"
fi
gcc -O2 -g -fPIE -pie -I. -o "$DATA/sqlite.tmp" sqlite3.c "$HERE/sqlite-main.c" -lm
mv "$DATA/sqlite.tmp" "$DATA/sqlite"
echo "$stamp" >stamp
