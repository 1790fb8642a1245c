#!/bin/sh
# The include graph of src/ is one-way, as ../shared/DESIGN.md draws it
# and docs/ARCHITECTURE.md says it is built:
#
#   front ends (cli, web) -> options -> session -> report -> graph -> profile
#   session -> transform -> profile;  session -> source, symbolize -> profile
#   report -> symbolize (disasm reads the binaries again)
#   report -> srcfile (list, weblist and callgrind find source files)
#   every module -> util
#
# A module may include what it reaches along these arrows (a front end may
# include pprof/report.h), through public headers (include/pprof/) or
# util's; no module includes another's internal header, and no circle
# runs between the headers of one module. Where main still differs, the
# edge is listed in EXCEPTIONS with the reason: a new one fails, and so
# does a listed one that is gone (delete its line).
# Prints "include_graph: N passed, N failed".
cd "${SRCDIR:-.}" || exit 1
PASSED=0
FAILED=0
ok() { PASSED=$((PASSED + 1)); }
bad() { FAILED=$((FAILED + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The arrows, each module with the ones it may include directly; the
# transitive closure is taken below.
cat >"$tmp/arrows" <<'ARROWS'
cli web options session
web options session
options session
session report transform source symbolize
report graph symbolize srcfile
graph profile
transform profile
source profile
symbolize profile
srcfile
profile util
util
ARROWS

# Known differences from the drawing, FROM TO, each with why.
cat >"$tmp/exceptions" <<'EXC'
EXC

# Which module a public header belongs to.
public_module() {
	case $1 in
	profile.h | decode.h | encode.h) echo profile ;;
	error.h | format.h | outfile.h | strtab.h | dynlib.h) echo util ;;
	source.h | fetch.h) echo source ;;
	srcfile.h) echo srcfile ;;
	symbolize.h) echo symbolize ;;
	transform.h) echo transform ;;
	graph.h | tree.h | aggregate.h) echo graph ;;
	session.h) echo session ;;
	report.h) echo report ;;
	*) echo "?" ;;
	esac
}

modules=$(cd src && for d in */; do echo "${d%/}"; done)

# Every include: FILE MODULE TARGET (target as written).
for m in $modules; do
	for f in src/"$m"/*.c src/"$m"/*.h; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
			while read -r t; do echo "$f $m $t"; done
	done
done >"$tmp/includes"
for f in include/pprof/*.h; do
	m=$(public_module "$(basename "$f")")
	if [ "$m" = "?" ]; then
		bad "$f: no module owns it (add it to public_module)"
		continue
	fi
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while read -r t; do echo "$f $m $t"; done
done >>"$tmp/includes"

# The module each include reaches: FILE FROM TO TARGET.
: >"$tmp/edges"
while read -r f m t; do
	case $t in
	pprof/*)
		to=$(public_module "${t#pprof/}")
		if [ "$to" = "?" ]; then
			bad "$f: includes $t, which no module owns"
			continue
		fi
		;;
	*/*) to=${t%%/*} ;;
	*)
		# A header beside the file (or generated for it); a front end
		# also names the other front end's headers and the options
		# module's bare (their include path holds src/cli, src/web and
		# src/options).
		to=$m
		if [ ! -f "src/$m/$t" ]; then
			for fe in cli web options; do
				[ -f "src/$fe/$t" ] && to=$fe
			done
		fi
		;;
	esac
	echo "$f $m $to $t" >>"$tmp/edges"
done <"$tmp/includes"

# No module includes another's internal header; a library module reaches
# another only through include/pprof/ or util/.
hits=$(awk '$2 != $3 && $4 ~ /\/internal\.h$/ { print $1 ": " $4 }' "$tmp/edges")
if [ -z "$hits" ]; then ok; else bad "internal header of another module:"; echo "$hits"; fi
hits=$(awk '$2 != $3 && $2 != "cli" && $2 != "web" && $3 != "util" &&
	$4 !~ /^pprof\// { print $1 ": " $4 }' "$tmp/edges")
if [ -z "$hits" ]; then ok; else bad "a library module includes another's private header:"; echo "$hits"; fi

# allowed: FROM TO for every pair the arrows reach (their closure).
awk '{ for (i = 2; i <= NF; i++) reach[$1 " " $i] = 1
	if ($1 != "util") reach[$1 " util"] = 1; mod[$1] = 1 }
END {
	for (k in mod) for (i in mod) for (j in mod)
		if ((i " " k) in reach && (k " " j) in reach) reach[i " " j] = 1
	for (p in reach) print p
}' "$tmp/arrows" | sort -u >"$tmp/allowed"
if awk '$1 == $2' "$tmp/allowed" | grep -q .; then
	bad "the arrows themselves form a circle:"
	awk '$1 == $2' "$tmp/allowed"
else
	ok
fi
grep -v '^#' "$tmp/exceptions" | sort -u >"$tmp/exc"

# Every module-to-module include is along the arrows or a known exception.
awk '$2 != $3 { print $2, $3, $1 }' "$tmp/edges" | sort -u >"$tmp/used"
new=$(cut -d' ' -f1,2 "$tmp/used" | sort -u | comm -23 - "$tmp/allowed" | comm -23 - "$tmp/exc")
if [ -z "$new" ]; then
	ok
else
	bad "includes against the arrows (module -> module: files):"
	echo "$new" | while read -r a b; do
		echo "  $a -> $b: $(awk -v a="$a" -v b="$b" '$1 == a && $2 == b { printf "%s ", $3 }' "$tmp/used")"
	done
fi
gone=$(cut -d' ' -f1,2 "$tmp/used" | sort -u | comm -13 - "$tmp/exc")
if [ -z "$gone" ]; then ok; else bad "exceptions no longer needed (delete them):"; echo "$gone"; fi

# No circle between the headers of one module (tsort names a loop).
for m in $modules; do
	awk -v m="$m" '$2 == m && $3 == m && $1 ~ /\.h$/ {
		t = $4; sub(/.*\//, "", t); f = $1; sub(/.*\//, "", f)
		print f, t }' "$tmp/edges" >"$tmp/h.$m"
	if tsort "$tmp/h.$m" >/dev/null 2>"$tmp/loop"; then
		ok
	else
		bad "src/$m/: headers include each other in a circle:"
		cat "$tmp/loop"
	fi
done

echo "include_graph: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
