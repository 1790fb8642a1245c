#!/bin/sh
# The test reference: Go 1.24's `go tool pprof`, taken from Debian 13
# (trixie) without touching the system's Go or apt state.
#
#   sh tests/reference-go.sh            make sure it is there; print GOROOT
#   sh tests/reference-go.sh --env      the same; print shell assignments:
#                                         eval "$(sh tests/reference-go.sh --env)"
#                                         go tool pprof -top cpu.pb.gz
#   sh tests/reference-go.sh --check    print GOROOT if already cached, else
#                                       exit 77 (never downloads)
#
# How: `apt-get download golang-1.24-go golang-1.24-src` through a private
# apt configuration (its own sources list naming the trixie suite, its own
# lists, cache and dpkg status under the cache directory), then `dpkg-deb -x`
# of both packages. Nothing is installed: the system's golang-go (Go 1.19,
# which builds the test programs) stays as it is. Runs as any user.
#
# The mirror is the one this machine's apt already uses, read at run time
# from /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list (the
# first entry for the system's own suite); PPROF_C_DEBIAN_MIRROR overrides
# it. The Release file is checked against /usr/share/keyrings/
# debian-archive-keyring.gpg: bookworm's debian-archive-keyring carries the
# trixie keys from 2023.3+deb12u1 on. With an older keyring, upgrade it
# (apt-get install debian-archive-keyring, from bookworm-updates), or point
# PPROF_C_REFERENCE_KEYRING at a keyring file holding Debian's trixie keys.
#
# Cached and idempotent: everything lives in PPROF_C_REFERENCE_CACHE
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/pprof-c/reference-go); once
# unpacked, a run only checks a stamp file (no network). Concurrent runs
# wait for each other (flock). Delete the directory to fetch again (the
# version is whatever trixie carries then; goldens do not depend on the
# patch release).
#
# Exit status: 0 ok, 1 failure (message on stderr), 77 with --check when
# nothing is cached, 2 bad usage.
set -eu

mode=goroot
case ${1:-} in
'') ;;
--env) mode=env ;;
--check) mode=check ;;
*) echo "usage: reference-go.sh [--env | --check]" >&2; exit 2 ;;
esac

GOVER=1.24
SUITE=trixie
CACHE=${PPROF_C_REFERENCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pprof-c/reference-go}
ROOTDIR=$CACHE/root
GOROOT_DIR=$ROOTDIR/usr/lib/go-$GOVER
STAMP=$ROOTDIR/.complete

die() { echo "reference-go.sh: $*" >&2; exit 1; }

report() {
	case $mode in
	env)
		printf "GOROOT='%s'; PATH='%s':\"\$PATH\"; GOTOOLCHAIN=local;" \
			"$GOROOT_DIR" "$GOROOT_DIR/bin"
		printf ' export GOROOT PATH GOTOOLCHAIN\n'
		;;
	*) printf '%s\n' "$GOROOT_DIR" ;;
	esac
	exit 0
}

[ -f "$STAMP" ] && [ -x "$GOROOT_DIR/bin/go" ] && report
[ "$mode" = check ] && exit 77

# The mirror of the system's own Debian suite, from its apt sources.
find_mirror() {
	codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null | tr -d '"')
	[ -n "$codename" ] || codename=bookworm
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# deb822 stanzas: the first URI of an enabled "deb" stanza whose
		# Suites name the system's codename.
		awk -v want="$codename" '
		function flush() {
			if (uri != "" && deb && ok && enabled) { print uri; found = 1; exit }
			uri = ""; deb = 0; ok = 0; enabled = 1
		}
		BEGIN { enabled = 1 }
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
		tolower($1) == "uris:" { uri = $2 }
		tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == want) ok = 1 }
		tolower($1) == "enabled:" { enabled = (tolower($2) != "no") }
		END { if (!found) flush() }
		' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		# One-line form: deb [options] URI SUITE COMPONENTS...
		awk -v want="$codename" '
		$1 != "deb" { next }
		{
			i = 2
			if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
			if ($(i + 1) == want) { print $i; exit }
		}
		' "$f"
	done
}

mirror=${PPROF_C_DEBIAN_MIRROR:-}
[ -n "$mirror" ] || mirror=$(find_mirror | head -n 1)
[ -n "$mirror" ] || die "no Debian mirror in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list (set PPROF_C_DEBIAN_MIRROR)"
keyring=${PPROF_C_REFERENCE_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
[ -r "$keyring" ] || die "$keyring: no Debian archive keyring (install debian-archive-keyring or set PPROF_C_REFERENCE_KEYRING)"
command -v apt-get >/dev/null || die "apt-get not found"
command -v dpkg-deb >/dev/null || die "dpkg-deb not found"

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
if command -v flock >/dev/null; then flock 9; fi
# Another run may have finished while this one waited.
[ -f "$STAMP" ] && [ -x "$GOROOT_DIR/bin/go" ] && report

APTDIR=$CACHE/apt
mkdir -p "$APTDIR/lists/partial" "$APTDIR/archives/partial" \
	"$APTDIR/state" "$APTDIR/parts" "$APTDIR/prefs" "$CACHE/debs"
: >"$APTDIR/state/status"
cat >"$APTDIR/sources.list" <<EOF
deb [signed-by=$keyring] $mirror $SUITE main
EOF

# Every path apt would take from the system points into $APTDIR; the
# system's apt.conf.d (proxies and the like) still applies.
set -- -q -o Dir::Etc::SourceList="$APTDIR/sources.list" \
	-o Dir::Etc::SourceParts="$APTDIR/parts" \
	-o Dir::Etc::Preferences="$APTDIR/prefs/none" \
	-o Dir::Etc::PreferencesParts="$APTDIR/prefs" \
	-o Dir::State="$APTDIR/state" \
	-o Dir::State::Lists="$APTDIR/lists" \
	-o Dir::State::status="$APTDIR/state/status" \
	-o Dir::Cache="$APTDIR" \
	-o Dir::Cache::archives="$APTDIR/archives" \
	-o Acquire::Languages=none \
	-o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false \
	-o Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false \
	-o APT::Sandbox::User="$(id -un)"

echo "reference-go.sh: fetching golang-$GOVER-go and golang-$GOVER-src from $mirror ($SUITE)" >&2
apt-get "$@" update >"$APTDIR/update.log" 2>&1 ||
	{ cat "$APTDIR/update.log" >&2; die "apt-get update of $SUITE failed (see above; a keyring without trixie's keys: see the top of this script)"; }
if grep -q '^W: \|^E: ' "$APTDIR/update.log"; then
	cat "$APTDIR/update.log" >&2
	die "apt-get update of $SUITE reported problems"
fi
rm -f "$CACHE"/debs/*.deb
(cd "$CACHE/debs" && apt-get "$@" download "golang-$GOVER-go" "golang-$GOVER-src") >&2 ||
	die "apt-get download golang-$GOVER-go golang-$GOVER-src failed"

tmp=$CACHE/root.new
rm -rf "$tmp" "$ROOTDIR"
mkdir -p "$tmp"
for deb in "$CACHE"/debs/*.deb; do
	dpkg-deb -x "$deb" "$tmp" || die "dpkg-deb -x $deb failed"
done
[ -x "$tmp/usr/lib/go-$GOVER/bin/go" ] || die "golang-$GOVER-go has no usr/lib/go-$GOVER/bin/go"
[ -x "$tmp/usr/lib/go-$GOVER/pkg/tool/$(GOROOT=$tmp/usr/lib/go-$GOVER "$tmp/usr/lib/go-$GOVER/bin/go" env GOHOSTOS)_$(GOROOT=$tmp/usr/lib/go-$GOVER "$tmp/usr/lib/go-$GOVER/bin/go" env GOHOSTARCH)/pprof" ] ||
	die "golang-$GOVER-go has no pprof tool"
for deb in "$CACHE"/debs/*.deb; do
	dpkg-deb -f "$deb" Package Version | tr '\n' ' '
	echo
done >"$tmp/.complete"
mv "$tmp" "$ROOTDIR"
rm -f "$CACHE"/debs/*.deb
rm -rf "$APTDIR/archives" "$APTDIR/lists"
echo "reference-go.sh: $(GOROOT=$GOROOT_DIR GOTOOLCHAIN=local "$GOROOT_DIR/bin/go" version) in $GOROOT_DIR" >&2
report
