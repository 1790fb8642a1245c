#!/bin/bash
# Benchmark driver: times pprof-c, `go tool pprof` and the floor (zcat,
# libdeflate-gunzip) on large generated profiles, counts instructions with
# callgrind on the small one, and prints a Markdown report. See README.md.
#
#   bench/run.sh [--pprof-c PATH] [--sizes small,large,lab] [--no-go]
#                [--runs N] [--no-callgrind] [--file PROFILE]...
#                [--commands FILE] [--flamegraph PATH] [--write]
set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH/.." && pwd)
DATA=$BENCH/data
CMDLINE=$(printf '%q ' "bench/run.sh" "$@")
CMDLINE=${CMDLINE% }

usage() {
	cat <<'EOF'
usage: bench/run.sh [options]

  --pprof-c PATH   pprof-c binary (default: $PPROF_C, else build/src/pprof-c
                   or build/pprof-c, whichever exists)
  --sizes LIST     generated profiles to measure: small, large, lab (large
                   with 'handler' labels) (default all three)
  --file PROFILE   also measure an existing profile (repeatable)
  --no-go          skip the `go tool pprof` rows (the large one takes minutes
                   and ~5 GB)
  --runs N         run each command N times; report the least CPU and wall
                   time and the largest peak RSS (default 1)
  --no-callgrind   skip the instruction counts (valgrind --tool=callgrind,
                   on the small profile only; a few minutes)
  --commands FILE  rows to run, NAME|COMMAND (default bench/commands.txt;
                   env BENCH_COMMANDS); env BENCH_EXTRA adds rows, one a line
  --flamegraph PATH  Brendan Gregg's flamegraph.pl, for its row (default:
                   $FLAMEGRAPH, else flamegraph.pl on the PATH; the row is
                   skipped when there is none)
  --write          also write the report to bench/RESULTS.md
  -h, --help       this help

Generated profiles are cached in bench/data/ and rebuilt when genprof.c or
its options change. Progress goes to stderr, the report to stdout.
EOF
}

die() {
	echo "run.sh: $*" >&2
	exit 2
}

PPROF_C=${PPROF_C:-}
. "$(dirname "${BASH_SOURCE[0]}")/go-pprof.sh"
GO=$(go_pprof "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)")
FLAMEGRAPH=${FLAMEGRAPH:-}
SIZES=small,large,lab
CALLGRIND=1
FILES=()
NO_GO=0
RUNS=1
WRITE=0
COMMANDS=${BENCH_COMMANDS:-$BENCH/commands.txt}

while [ $# -gt 0 ]; do
	case $1 in
	--pprof-c) PPROF_C=${2?--pprof-c needs a path}; shift ;;
	--pprof-c=*) PPROF_C=${1#*=} ;;
	--sizes) SIZES=${2?--sizes needs a list}; shift ;;
	--sizes=*) SIZES=${1#*=} ;;
	--file) FILES+=("${2?--file needs a path}"); shift ;;
	--file=*) FILES+=("${1#*=}") ;;
	--no-go) NO_GO=1 ;;
	--no-callgrind) CALLGRIND=0 ;;
	--runs) RUNS=${2?--runs needs a number}; shift ;;
	--runs=*) RUNS=${1#*=} ;;
	--commands) COMMANDS=${2?--commands needs a file}; shift ;;
	--commands=*) COMMANDS=${1#*=} ;;
	--flamegraph) FLAMEGRAPH=${2?--flamegraph needs a path}; shift ;;
	--flamegraph=*) FLAMEGRAPH=${1#*=} ;;
	--write) WRITE=1 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown option: $1" ;;
	esac
	shift
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs wants a positive integer"
[ -r "$COMMANDS" ] || die "$COMMANDS: cannot read"
[ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) is needed for peak RSS"

# pprof-c: the given path, else the usual meson build directories. A missing
# binary is not an error: its rows are reported as pending.
if [ -z "$PPROF_C" ]; then
	for c in "$ROOT/build/src/pprof-c" "$ROOT/build/pprof-c"; do
		if [ -x "$c" ]; then
			PPROF_C=$c
			break
		fi
	done
fi
HAVE_PPROF_C=0
if [ -n "$PPROF_C" ] && [ -x "$PPROF_C" ]; then
	HAVE_PPROF_C=1
	PPROF_C=$(cd "$(dirname "$PPROF_C")" && pwd)/$(basename "$PPROF_C")
fi
HAVE_VALGRIND=0
if [ "$CALLGRIND" = 1 ] && command -v valgrind >/dev/null; then
	HAVE_VALGRIND=1
fi
HAVE_LIBDEFLATE=0
if command -v libdeflate-gunzip >/dev/null; then
	HAVE_LIBDEFLATE=1
fi
HAVE_GO=0
if [ "$NO_GO" = 0 ] && command -v "$GO" >/dev/null; then
	HAVE_GO=1
fi
# flamegraph.pl is in no Debian 12 or npm package: where nobody installed
# it by hand (a checkout of its repository), its rows are skipped.
HAVE_FLAMEGRAPH=0
if [ -z "$FLAMEGRAPH" ]; then
	FLAMEGRAPH=$(command -v flamegraph.pl || true)
fi
if [ -n "$FLAMEGRAPH" ] && [ -x "$FLAMEGRAPH" ]; then
	HAVE_FLAMEGRAPH=1
	FLAMEGRAPH=$(cd "$(dirname "$FLAMEGRAPH")" && pwd)/$(basename "$FLAMEGRAPH")
fi

log() { echo "run.sh: $*" >&2; }

# ---- the generator and its profiles --------------------------------------

mkdir -p "$DATA"
GENPROF=$DATA/genprof
if [ ! -x "$GENPROF" ] || [ "$BENCH/genprof.c" -nt "$GENPROF" ]; then
	log "building genprof"
	${CC:-cc} -std=c11 -O2 -Wall -Wextra -Wpedantic -o "$GENPROF" \
		"$BENCH/genprof.c" -lz
fi

genargs() {
	case $1 in
	small) echo "--small" ;;
	large) echo "" ;;
	lab) echo "--labels" ;;
	*) return 1 ;;
	esac
}

# A profile is remade when the generator's source or its options change; the
# .stamp next to it records both. It is written to a temporary name first
# (genprof renames on success), so an interrupted run leaves no bad file.
PROFILES=()
IFS=, read -r -a SIZE_LIST <<<"$SIZES"
for size in "${SIZE_LIST[@]}"; do
	[ -n "$size" ] || continue
	args=$(genargs "$size") || die "unknown size '$size' (small, large, lab)"
	out=$DATA/$size.pb.gz
	stamp="$(sha256sum <"$BENCH/genprof.c" | cut -d' ' -f1) $args"
	if [ ! -f "$out" ] || [ "$(cat "$out.stamp" 2>/dev/null)" != "$stamp" ]; then
		log "generating $out (genprof ${args:-with its defaults})"
		# shellcheck disable=SC2086 # $args is a word list
		"$GENPROF" $args -o "$out"
		echo "$stamp" >"$out.stamp"
	fi
	PROFILES+=("$out")
done
for f in "${FILES[@]}"; do
	[ -r "$f" ] || die "$f: cannot read"
	PROFILES+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
done
[ ${#PROFILES[@]} -gt 0 ] || die "no profiles to measure"

# ---- rows -----------------------------------------------------------------

ROW_NAMES=()
ROW_CMDS=()
add_rows() {
	local line name cmd
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in '' | '#'*) continue ;; esac
		[[ $line == *'|'* ]] || die "bad row (want NAME|COMMAND): $line"
		name=${line%%|*}
		cmd=${line#*|}
		ROW_NAMES+=("$name")
		ROW_CMDS+=("$cmd")
	done
}
add_rows <"$COMMANDS"
[ -z "${BENCH_EXTRA:-}" ] || add_rows <<<"$BENCH_EXTRA"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/pprof-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# The placeholders become shell-quoted words, so paths with spaces survive.
expand() {
	local c=$1 file=$2
	c=${c//\{FILE\}/$(printf '%q' "$file")}
	c=${c//\{PPROF_C\}/$(printf '%q' "$PPROF_C")}
	c=${c//\{GO\}/$(printf '%q' "$GO")}
	c=${c//\{FLAMEGRAPH\}/$(printf '%q' "$FLAMEGRAPH")}
	c=${c//\{TMP\}/$(printf '%q' "$TMP")}
	printf '%s' "$c"
}

# measure CMD: run it RUNS times under GNU time, stdout to /dev/null. Sets
# M_WALL (least wall seconds, from bash's microsecond clock), M_CPU (least
# user + sys seconds: on a shared machine the least is the least disturbed),
# M_RSS (largest peak RSS, KB) and M_STATUS. The command is exec'd by bash
# so that the RSS is the tool's, not a shell's.
measure() {
	local cmd=$1 i t0 t1 wall cpu out rc
	M_WALL=
	M_CPU=
	M_RSS=0
	M_STATUS=0
	for ((i = 0; i < RUNS; i++)); do
		rc=0
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%U %S %M' -o "$TMP/time" \
			bash -c "exec $cmd" >/dev/null 2>"$TMP/stderr" || rc=$?
		t1=$EPOCHREALTIME
		if [ "$rc" != 0 ]; then
			M_STATUS=$rc
			log "  failed (exit $rc): $(head -c 300 "$TMP/stderr")"
			return
		fi
		out=$(tail -n 1 "$TMP/time")
		wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		cpu=$(awk -v u="${out%% *}" -v r="${out#* }" 'BEGIN { split(r, s, " "); printf "%.2f", u + s[1] }')
		if [ -z "$M_WALL" ] || awk -v a="$wall" -v b="$M_WALL" 'BEGIN { exit !(a < b) }'; then
			M_WALL=$wall
		fi
		if [ -z "$M_CPU" ] || awk -v a="$cpu" -v b="$M_CPU" 'BEGIN { exit !(a < b) }'; then
			M_CPU=$cpu
		fi
		if [ "${out##* }" -gt "$M_RSS" ]; then
			M_RSS=${out##* }
		fi
	done
}

# instructions CMD: the instructions the command executes, all threads, as
# callgrind counts them (the same count from run to run, whatever the load).
# Sets M_IR, empty when valgrind failed.
instructions() {
	local cmd=$1
	M_IR=
	# Children too (zcat is a script that runs gzip); their counts add up.
	if bash -c "exec valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=/dev/null $cmd" \
		>/dev/null 2>"$TMP/callgrind"; then
		M_IR=$(awk '/Collected :/ { n += $NF } END { if (n) printf "%.0f", n }' "$TMP/callgrind")
	else
		log "  callgrind failed: $(tail -c 300 "$TMP/callgrind")"
	fi
}

ratio() { # a / b as "12.3x", or "" when either is missing
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) exit; r = a / b; printf(r >= 10 ? "%.0fx" : r >= 1 ? "%.1fx" : "%.2fx", r) }'
}

millions() { # 1234567890 -> "1,234.6" (millions)
	[ -n "$1" ] || return 0
	awk -v n="$1" 'BEGIN { printf "%.1f", n / 1e6 }' | sed ':a; s/^\([0-9]\+\)\([0-9]\{3\}\)/\1,\2/; ta'
}

human() { # bytes -> "27.8 MB"
	awk -v n="$1" 'BEGIN { printf "%.1f MB", n / 1e6 }'
}

# ---- run ------------------------------------------------------------------

REPORT=$TMP/report.md
NOTES=()
note() {
	local n
	for n in "${NOTES[@]}"; do [ "$n" != "$1" ] || return 0; done
	NOTES+=("$1")
}

{
	echo "# pprof-c benchmark"
	echo
	echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- Command: \`$CMDLINE\`"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(awk '/MemTotal/ { printf "%.0f GB RAM", $2 / 1048576 }' /proc/meminfo), Linux $(uname -r)"
	if git -C "$ROOT" rev-parse --short HEAD >/dev/null 2>&1; then
		dirty=
		if git -C "$ROOT" status --porcelain --untracked-files=no | grep -q .; then
			dirty=" (with uncommitted changes)"
		fi
		echo "- pprof-c tree: $(git -C "$ROOT" rev-parse --short HEAD)$dirty"
	fi
	if [ "$HAVE_PPROF_C" = 1 ]; then
		echo "- pprof-c: \`${PPROF_C#"$ROOT"/}\` ($("$PPROF_C" --version 2>/dev/null | head -n 1 || echo "version unknown"))"
	else
		echo "- pprof-c: not found${PPROF_C:+ at \`$PPROF_C\`}; its rows are pending"
	fi
	if [ "$HAVE_GO" = 1 ]; then
		echo "- go tool pprof: $("$GO" version)"
	fi
	if [ "$HAVE_FLAMEGRAPH" = 1 ]; then
		echo "- flamegraph.pl: \`$FLAMEGRAPH\`"
	fi
	echo "- Runs per command: $RUNS (least CPU and wall time, largest peak RSS)"
	echo "- Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
} >"$REPORT"

for file in "${PROFILES[@]}"; do
	gz=$(stat -c %s "$file")
	# ISIZE, the gzip trailer: the raw size mod 2^32, exact for our files.
	raw=$(tail -c 4 "$file" | od -An -tu4 | tr -d ' ')
	name=${file#"$ROOT"/}
	log "$name: $(human "$gz") gzip, $(human "$raw") raw"
	# Read once so every row starts from the page cache, not the disk.
	cat "$file" >/dev/null

	# Instruction counts only on the small profile: under callgrind a
	# command runs about 50 times slower.
	count_ir=0
	if [ "$HAVE_VALGRIND" = 1 ] && [ "$name" = bench/data/small.pb.gz ]; then
		count_ir=1
	fi

	declare -A WALL=() RSS=() CPU=() IR=() STATUS=()
	for i in "${!ROW_NAMES[@]}"; do
		rname=${ROW_NAMES[$i]}
		raw_cmd=${ROW_CMDS[$i]}
		if [[ $raw_cmd == *'{PPROF_C}'* ]] && [ "$HAVE_PPROF_C" = 0 ]; then
			STATUS[$rname]=pending
			note "pprof-c rows are pending: no pprof-c binary (give --pprof-c PATH or build it)."
			continue
		fi
		if [[ $raw_cmd == *'{GO}'* ]] && [ "$HAVE_GO" = 0 ]; then
			STATUS[$rname]=skipped
			if [ "$NO_GO" = 1 ]; then
				note "go rows skipped (--no-go)."
			else
				note "go rows skipped: \`$GO\` not found."
			fi
			continue
		fi
		if [[ $raw_cmd == libdeflate-gunzip* ]] && [ "$HAVE_LIBDEFLATE" = 0 ]; then
			STATUS[$rname]=skipped
			note "libdeflate-gunzip rows skipped: install Debian's libdeflate-tools (bash scripts/install-bench-deps.sh)."
			continue
		fi
		if [[ $raw_cmd == *'{FLAMEGRAPH}'* ]] && [ "$HAVE_FLAMEGRAPH" = 0 ]; then
			STATUS[$rname]=skipped
			note "flamegraph.pl rows skipped: no flamegraph.pl${FLAMEGRAPH:+ at \`$FLAMEGRAPH\`} (no Debian 12 or npm package has it; give --flamegraph PATH to a checkout of it)."
			continue
		fi
		cmd=$(expand "$raw_cmd" "$file")
		log "  $rname: $cmd"
		measure "$cmd"
		if [ "$M_STATUS" != 0 ]; then
			STATUS[$rname]="failed (exit $M_STATUS)"
			continue
		fi
		WALL[$rname]=$M_WALL
		CPU[$rname]=$M_CPU
		RSS[$rname]=$M_RSS
		log "    ${M_WALL} s wall, ${M_CPU} s cpu, $((M_RSS / 1024)) MB peak RSS"
		# Not the go rows (minutes become hours) nor pipelines.
		if [ "$count_ir" = 1 ] && [[ $raw_cmd != *'{GO}'* && $raw_cmd != sh\ * ]]; then
			instructions "$cmd"
			IR[$rname]=$M_IR
			log "    $(millions "$M_IR") M instructions"
		fi
	done

	ref_t=${WALL["pprof-c top"]:-}
	ref_c=${CPU["pprof-c top"]:-}
	ref_m=${RSS["pprof-c top"]:-}
	ref_i=${IR["pprof-c top"]:-}
	floor_c=${CPU[libdeflate-gunzip]:-}
	{
		echo "## \`$name\`: $(human "$gz") gzip, $(human "$raw") raw"
		echo
		ir_head= ir_rule=
		if [ "$count_ir" = 1 ]; then
			ir_head=" M instructions | x top (instr.) |"
			ir_rule="---:|---:|"
		fi
		echo "| command | cpu s | wall s | peak RSS MB | RSS / raw | x libdeflate (cpu) | x zcat (cpu) | x top (cpu) | x top (wall) | x top (RSS) |$ir_head"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|$ir_rule"
		for i in "${!ROW_NAMES[@]}"; do
			rname=${ROW_NAMES[$i]}
			if [ -n "${STATUS[$rname]:-}" ]; then
				echo "| $rname | ${STATUS[$rname]} | | | | | | | | |${ir_head:+ | |}"
				continue
			fi
			t=${WALL[$rname]}
			c=${CPU[$rname]}
			m=${RSS[$rname]}
			ir_cells=
			if [ "$count_ir" = 1 ]; then
				ir_cells=" $(millions "${IR[$rname]:-}") | $(ratio "${IR[$rname]:-}" "$ref_i") |"
			fi
			printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%s\n' "$rname" "$c" \
				"$(awk -v t="$t" 'BEGIN { printf(t < 1 ? "%.3f" : "%.2f", t) }')" \
				"$(awk -v k="$m" 'BEGIN { printf "%.0f", k / 1024 }')" \
				"$(awk -v k="$m" -v r="$raw" 'BEGIN { printf "%.2f", k * 1024 / r }')" \
				"$(ratio "$c" "$floor_c")" "$(ratio "$c" "${CPU[zcat]:-}")" \
				"$(ratio "$c" "$ref_c")" "$(ratio "$t" "$ref_t")" \
				"$(ratio "$m" "$ref_m")" "$ir_cells"
		done
		echo
		go_c=${CPU["go pprof -top"]:-}
		go_m=${RSS["go pprof -top"]:-}
		if [ -n "$ref_c" ] && [ -n "$go_c" ]; then
			echo "\`go tool pprof -top\` takes $(ratio "$go_c" "$ref_c") the CPU time of pprof-c top and $(ratio "$go_m" "$ref_m") its memory."
			echo
		fi
	} >>"$REPORT"
	unset WALL RSS CPU IR STATUS
done

{
	echo "Rows: see [README.md](README.md). Commands (stdout to /dev/null):"
	echo
	for i in "${!ROW_NAMES[@]}"; do
		echo "- ${ROW_NAMES[$i]}: \`${ROW_CMDS[$i]}\`"
	done
	if [ ${#NOTES[@]} -gt 0 ]; then
		echo
		for n in "${NOTES[@]}"; do
			echo "Note: $n"
		done
	fi
} >>"$REPORT"

cat "$REPORT"
if [ "$WRITE" = 1 ]; then
	cp "$REPORT" "$BENCH/RESULTS.md.tmp"
	mv "$BENCH/RESULTS.md.tmp" "$BENCH/RESULTS.md"
	log "wrote bench/RESULTS.md"
fi
