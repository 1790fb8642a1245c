#!/bin/bash
# Remake the references of tests/golden/disasm (README.md): for each case,
# `go tool pprof -disasm=REGEX` (Go 1.24, tests/reference-go.sh) and
# objdump's listing of each routine it names, in AT&T (-M suffix) and Intel
# (-M intel) syntax. Run from the repository's root.
set -euo pipefail
D=tests/golden/disasm
GO=$(sh tests/reference-go.sh)/bin/go
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
sh "$D/build-goprog.sh" "$T/goprog" || {
	# First run, or a new Go: record this build as the goldens' binary.
	sha256sum <"$T/goprog" | cut -d' ' -f1 >"$D/goprog.sha256"
}
grep -v '^#' "$D/cases" | while IFS='|' read -r name bin prof regex; do
	[ "$bin" = goprog ] && bin=$T/goprog
	PPROF_BINARY_PATH=testdata/native "$GO" tool pprof -disasm="$regex" \
		"$bin" "$prof" >"$D/$name.gopprof.txt" 2>/dev/null
	for syntax in suffix intel; do
		out=$D/$name.objdump-$syntax.txt
		: >"$out"
		grep '^ROUTINE' "$D/$name.gopprof.txt" | sed 's/^ROUTINE =* //' |
			sort -u | while read -r fn; do
			for f in "$bin" testdata/native/libhot.so; do
				nm -S --defined-only "$f" 2>/dev/null |
					awk -v n="$fn" '$4 == n && ($3 == "T" || $3 == "t") { print $1, $2 }' |
					while read -r s z; do
						objdump -d -M "$syntax" --no-show-raw-insn \
							--start-address=0x"$s" \
							--stop-address="$(printf '0x%x' $((0x$s + 0x$z)))" "$f" |
							sed -n '/^[0-9a-f]* <.*>:$/,$p' >>"$out"
					done
			done
		done
	done
done
