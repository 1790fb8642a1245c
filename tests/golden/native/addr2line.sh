#!/bin/sh
# Prints addr2line.tsv (to stdout): for every location of every native
# profile in testdata/native/ that falls in one of our binaries, the ELF
# address pprof looks up and addr2line's answer, one row per frame of the
# inline chain (depth 0 = innermost, as profile.proto orders Line[]).
#
# Locations come from `go tool pprof -raw -symbolize=none`, so caller
# addresses are already adjusted by -1 (heap: every frame) as pprof does.
# ELF address = runtime address - mapping start + mapping offset (all our
# binaries have p_vaddr == p_offset for their text segment), except
# cprog-nopie (ET_EXEC) whose runtime addresses are ELF addresses.
# cprog-stripped has no symbols or DWARF: its rows are answered from
# testdata/native/debug/cprog-pie.debug (same build-id, same addresses).
#
# Columns: binary  elf_addr  depth  function  file  line  discriminator
# ("??" / 0 where addr2line knows nothing; file is as addr2line prints it,
# "./testdata/gen/native/..." because DW_AT_comp_dir is ".").
set -eu
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
ref=$(sh "$ROOT/tests/reference-go.sh" --env) || exit 1
eval "$ref"
N=testdata/native
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for prof in cprog-pie.cpu.prof cprog-nopie.cpu.prof cprog-stripped.cpu.prof \
	cxxprog.cpu.prof cprog-pie.heap cxxprog.heap cxxprog.heap_v2.heap; do
	go tool pprof -raw -symbolize=none "$N/$prof" 2>/dev/null >"$tmp/raw"
	# mapping id -> start offset file
	sed -n '/^Mappings/,$p' "$tmp/raw" | sed -n 's|^\([0-9]*\): \(0x[0-9a-f]*\)/0x[0-9a-f]*/\(0x[0-9a-f]*\) \([^ ]*\).*|\1 \2 \3 \4|p' >"$tmp/maps"
	sed -n '/^Locations/,/^Mappings/p' "$tmp/raw" | sed -n 's|^ *[0-9]*: \(0x[0-9a-f]*\) M=\([0-9]*\).*|\1 \2|p' |
	while read -r addr mid; do
		set -- $(awk -v id="$mid" '$1 == id { print $2, $3, $4 }' "$tmp/maps")
		[ $# -eq 3 ] || continue
		start=$1 off=$2 file=$3
		case $file in */testdata/native/*) ;; *) continue ;; esac
		bin=${file##*/}
		if [ "$bin" = cprog-nopie ]; then
			elf=$addr
		else
			elf=$(printf '0x%x' $((addr - start + off)))
		fi
		echo "$bin $elf"
	done
done | sort -u >"$tmp/addrs"

printf '# binary\telf_addr\tdepth\tfunction\tfile\tline\tdiscriminator\n'
for bin in $(awk '{ print $1 }' "$tmp/addrs" | sort -u); do
	obj=$N/$bin
	[ "$bin" = cprog-stripped ] && obj=$N/debug/cprog-pie.debug
	awk -v b="$bin" '$1 == b { print $2 }' "$tmp/addrs" | sort -u >"$tmp/a"
	addr2line -a -f -i -C -e "$obj" <"$tmp/a" |
	awk -v b="$bin" '
		/^0x[0-9a-f]+$/ { a = $0; sub(/^0x0*/, "0x", a); d = 0; next }
		{ fn = $0; getline loc
		  disc = 0
		  if (match(loc, / \(discriminator [0-9]+\)$/)) {
			disc = substr(loc, RSTART + 16, RLENGTH - 17); loc = substr(loc, 1, RSTART - 1) }
		  n = split(loc, parts, ":"); line = parts[n]; file = substr(loc, 1, length(loc) - length(line) - 1)
		  if (line == "?") line = 0
		  printf "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", b, a, d, fn, file, line, disc; d++ }'
done
