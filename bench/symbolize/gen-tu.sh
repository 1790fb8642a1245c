#!/bin/bash
# One translation unit of the synthetic C++ program: gen-tu.sh I N writes
# N functions (std::sort with a lambda, a template, std::map and
# std::to_string: deep inline chains, long mangled names) in namespace genI.
i=$1; n=$2
echo '#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>'
echo "namespace gen$i {"
echo 'template <class T> struct Acc { T s{}; void feed(const std::vector<T> &v, int k) { for (auto x : v) s += x * k + 1; } };
static inline unsigned long mix(unsigned long x, int k) { x ^= x >> (13 + k % 7); x *= 0x5bd1e995ul + k; return x ^ (x >> 15); }'
for j in $(seq 1 $n); do
cat <<EOT
unsigned long f$j(const std::vector<unsigned long> &v, std::map<std::string, long> &m)
{
	std::vector<unsigned long> w(v);
	std::sort(w.begin(), w.end(), [](unsigned long a, unsigned long b) { return mix(a, $j) < mix(b, $j); });
	Acc<unsigned long> acc;
	acc.feed(w, $j);
	m[std::to_string(acc.s % $((j + 7)))] += $j;
	return acc.s;
}
EOT
done
echo "}"
