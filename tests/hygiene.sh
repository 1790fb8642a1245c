#!/bin/bash
# Code hygiene: banned functions, self-contained public headers, and
# clang-format. Prints "hygiene: N passed, N failed".
cd "${SRCDIR:-.}" || exit 1
PASSED=0
FAILED=0
ok() { PASSED=$((PASSED + 1)); }
bad() { FAILED=$((FAILED + 1)); echo "FAIL: $*"; }

# Functions with no bounds or with hidden global state (after git's
# banned.h): use snprintf, memcpy with a checked length, strtok_r-free
# tokenizers, localtime_r.
banned='\b(strcpy|strcat|sprintf|vsprintf|strtok|gets|localtime|gmtime|ctime|asctime|strncpy|strncat|tmpnam|mktemp)[[:space:]]*\('
hits=$(grep -rnE "$banned" src include --include='*.c' --include='*.h' | grep -v 'NEEDSWORK' || true)
if [ -z "$hits" ]; then ok; else bad "banned functions:"; echo "$hits"; fi

# exit() and abort() only in the CLI's main.
hits=$(grep -rnE '\b(exit|abort)[[:space:]]*\(' src --include='*.c' | grep -v '^src/cli/main.c' || true)
if [ -z "$hits" ]; then ok; else bad "exit/abort below main:"; echo "$hits"; fi

# Every public header compiles on its own.
for h in include/pprof/*.h; do
	if echo "#include \"pprof/$(basename "$h")\"" |
		cc -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude -fsyntax-only -x c - 2>"${TMPDIR:-/tmp}/hdr.$$"; then
		ok
	else
		bad "$h does not compile on its own:"
		head -5 "${TMPDIR:-/tmp}/hdr.$$"
	fi
done
rm -f "${TMPDIR:-/tmp}/hdr.$$"

# The documentation stands alone in a clone: nothing points at files
# outside the repository (a development machine's ../shared).
outside=$(git grep -nE '\.\./shared/|/work/shared' -- README.md 'docs/*' 'man/*' '*.md' \
	':!tests/browser/node_modules' 2>/dev/null)
if [ -z "$outside" ]; then ok; else bad "documentation points outside the repository: $outside"; fi

# Our C is formatted with the committed .clang-format.
if command -v clang-format >/dev/null; then
	files=$(git ls-files 'src/*.c' 'src/*.h' 'include/*.h' 'tests/unit/*.c' 'tests/unit/*.h' 2>/dev/null)
	[ -n "$files" ] || files=$(find src include tests/unit -name '*.[ch]')
	unformatted=""
	for f in $files; do
		clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted="$unformatted $f"
	done
	if [ -z "$unformatted" ]; then ok; else bad "not clang-formatted:$unformatted"; fi
else
	no_format=1
fi

echo "hygiene: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ] || exit 1
if [ -n "${no_format:-}" ]; then
	echo "SKIP: formatting not checked: clang-format is not installed (scripts/install-test-deps.sh installs it)"
	exit 77
fi
