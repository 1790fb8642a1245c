# Shell functions shared by install-deps.sh, install-test-deps.sh and
# install-bench-deps.sh:
# read a package list, find what is missing, install it with apt's own
# progress. Sourced, not run.

# package_list FILE: the package names in FILE, without comments.
package_list() {
	sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$1"
}

# missing_packages NAME...: those of NAME not installed.
missing_packages() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || echo "$p"
	done
}

# apt_updated: runs `apt-get update` once per script run.
apt_updated=
apt_update_once() {
	[ -n "$apt_updated" ] && return 0
	echo "== apt-get update" >&2
	apt-get update && apt_updated=1
}

# apt_install WHAT NAME...: installs the missing ones of NAME, saying what
# and why (WHAT), with apt's own progress. Fails as apt-get does.
apt_install() {
	local what=$1
	shift
	local missing
	mapfile -t missing < <(missing_packages "$@")
	if [ ${#missing[@]} -eq 0 ]; then
		echo "== $what: all ${#@} packages already installed" >&2
		return 0
	fi
	echo "== $what: installing ${#missing[@]} packages (and what they depend on): ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt_update_once || return 1
	apt-get install -y --no-install-recommends "${missing[@]}"
}

# install_list WHAT FILE: apt_install WHAT of the packages FILE lists.
install_list() {
	local list
	mapfile -t list < <(package_list "$2")
	apt_install "$1" "${list[@]}"
}
