#!/bin/bash
# Builds bench/data/symbig: a large C++ binary with DWARF (-O2 -g, PIE),
# made of generated translation units full of inlined std:: templates.
# Reuses the binary when the generator has not changed.
#   bench/symbolize/build-big.sh [TUS] [FUNCS_PER_TU]    (default 12 60)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=$HERE/../data/symbig.d
tus=${1:-12}
per=${2:-60}
mkdir -p "$DATA"
stamp="$tus $per $(sha1sum "$HERE/gen-tu.sh" | cut -c1-12) $(g++ --version | head -1)"
if [ -x "$DATA/../symbig" ] && [ "$(cat "$DATA/stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
objs=()
for i in $(seq 1 "$tus"); do
	bash "$HERE/gen-tu.sh" "$i" "$per" >"$DATA/t$i.cc"
	objs+=("$DATA/t$i.o")
done
{
	echo '#include <map>'
	echo '#include <string>'
	echo '#include <vector>'
	for i in $(seq 1 "$tus"); do
		for j in $(seq 1 "$per"); do
			echo "namespace gen$i { unsigned long f$j(const std::vector<unsigned long> &, std::map<std::string, long> &); }"
		done
	done
	echo 'int main(int argc, char **) { std::vector<unsigned long> v(argc + 10, 7); std::map<std::string, long> m; unsigned long s = 0;'
	for i in $(seq 1 "$tus"); do
		for j in $(seq 1 "$per"); do echo "s += gen$i::f$j(v, m);"; done
	done
	echo 'return (int)(s & 1); }'
} >"$DATA/main.cc"
objs+=("$DATA/main.o")
# -j2: the machines here have two cores.
printf '%s\n' "${objs[@]}" | xargs -P 2 -I{} sh -c 'o={}; g++ -O2 -g -fPIE -c "${o%.o}.cc" -o "$o"'
g++ -pie -o "$DATA/../symbig" "${objs[@]}"
echo "$stamp" >"$DATA/stamp"
