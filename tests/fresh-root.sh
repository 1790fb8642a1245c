#!/bin/bash
# The README's two commands, in order, on a freshly bootstrapped Debian 12:
# the newcomer's first hour, checked. Not part of `meson test` (it downloads
# some 2 GB and takes most of an hour); run it by hand, as root, after a
# change to the install scripts, the package lists or the README's commands.
#
#   bash tests/fresh-root.sh [ROOT] [BASE]
#   FIRST_ONLY=1 bash tests/fresh-root.sh ...   # the install command only
#
# ROOT (default /var/tmp/pprof-c-fresh-root) is made anew: a copy of BASE
# when given (a pristine `debootstrap bookworm BASE`, to bootstrap once
# and run many times), else debootstrap's own output. The mirror is the
# first Debian URI in this machine's apt sources (or $MIRROR). The committed
# HEAD of this repository is cloned into ROOT/root/pprof-c; its README's
# first two ```sh blocks are run in a chroot as root, with /proc, /sys,
# /dev, /dev/pts and /dev/shm bound from the host. Prints the package count
# and the download size of the first command, and each command's exit
# status; exits non-zero if either fails. docs/fresh-root.md has a
# transcript.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/var/tmp/pprof-c-fresh-root}
base=${2:-}
[ "$(id -u)" -eq 0 ] || { echo "fresh-root: run as root (debootstrap, chroot)" >&2; exit 2; }

mirror=${MIRROR:-$(grep -rhoE 'https?://[^ ]*debian/?( |$)' /etc/apt/sources.list \
	/etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null | head -1 | tr -d ' ')}
mirror=${mirror:-http://deb.debian.org/debian}

mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -l "${mounted[$i]}" 2>/dev/null
	done
}
trap cleanup EXIT INT TERM

step() { echo; echo "######## $*"; }

rm -rf "$root"
if [ -n "$base" ]; then
	step "copy of the pristine bootstrap $base"
	cp -a "$base" "$root" || exit 1
else
	step "debootstrap bookworm $root $mirror"
	debootstrap bookworm "$root" "$mirror" || exit 1
fi
echo "Debian $(cat "$root/etc/debian_version")"

for d in proc sys dev dev/pts dev/shm; do
	mkdir -p "$root/$d"
	mount --bind "/$d" "$root/$d" || { echo "fresh-root: cannot bind /$d" >&2; exit 1; }
	mounted+=("$root/$d")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
# A network whose HTTPS goes through an intercepting proxy has its own CA,
# added locally on this machine: give it to node (npm) in the root, as the
# host's own environment does. The root's trust store stays Debian's.
extra_ca=
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
	cat /usr/local/share/ca-certificates/*.crt >"$root/root/extra-ca.crt"
	extra_ca=NODE_EXTRA_CA_CERTS=/root/extra-ca.crt
	echo "this machine's local CA certificates -> NODE_EXTRA_CA_CERTS in the root (for npm)"
fi

step "git clone (HEAD $(git -C "$here" rev-parse --short HEAD)) into /root/pprof-c"
git clone -q --no-hardlinks "$here" "$root/root/pprof-c" || exit 1

# The README's first two ```sh blocks: install, build and run; test.
readme_block() {
	awk -v want="$1" '/^```sh$/ { n++; inside = (n == want); next }
		/^```$/ { inside = 0; next } inside' "$root/root/pprof-c/README.md"
}
first=$(readme_block 1)
second=$(readme_block 2)

in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 $extra_ca \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd /root/pprof-c && $1"
}
packages() {
	chroot "$root" dpkg-query -W -f='${Status}\n' | grep -c "install ok installed"
}

before=$(packages)
log1=$(mktemp)
step "README command 1 (packages installed: $before): $first"
start=$(date +%s)
in_root "$first" 2>&1 | tee "$log1"
rc1=${PIPESTATUS[0]}
after1=$(packages)
secs1=$(($(date +%s) - start))
echo "==> command 1: exit $rc1 in ${secs1}s; packages $before -> $after1" \
	"($((after1 - before)) new); apt: $(grep -h '^Need to get' "$log1" | head -1)"
rm -f "$log1"

if [ -n "${FIRST_ONLY:-}" ]; then
	step "result: command 1 exit $rc1 (FIRST_ONLY: command 2 not run)"
	[ "$rc1" -eq 0 ]
	exit
fi

step "README command 2: $second"
start=$(date +%s)
in_root "$second" 2>&1
rc2=$?
secs2=$(($(date +%s) - start))
echo "==> command 2: exit $rc2 in ${secs2}s; packages $after1 -> $(packages)"

step "result: command 1 exit $rc1, command 2 exit $rc2"
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]
