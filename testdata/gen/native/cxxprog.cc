// cxxprog: a C++ program whose hot frames have mangled names to demangle:
// namespaces, a class template and its method, a function template, a
// lambda, std::sort with a custom comparator (functor) and std::map.
//
// If CXXPROG_HEAP_SAMPLE=path is set, it also writes tcmalloc's sampled heap
// profile (the "heap_v2/<period>" text) via MallocExtension::GetHeapSample;
// set TCMALLOC_SAMPLE_PARAMETER (e.g. 262144) for it to have samples.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>
#include <gperftools/malloc_extension.h>

namespace pprofc {
namespace work {

template <typename T>
class Accumulator {
public:
	explicit Accumulator(T seed) : acc_(seed) {}
	__attribute__((noinline)) T feed(const std::vector<T> &xs, int rounds);
	T value() const { return acc_; }

private:
	T acc_;
};

template <typename T>
T Accumulator<T>::feed(const std::vector<T> &xs, int rounds)
{
	for (int r = 0; r < rounds; r++)
		for (const T &x : xs)
			acc_ = acc_ * 31 + (x ^ (acc_ >> 7));
	return acc_;
}

struct ByMixedKey {
	bool operator()(unsigned long a, unsigned long b) const
	{
		return (a * 0x9e3779b97f4a7c15UL) < (b * 0x9e3779b97f4a7c15UL);
	}
};

template <typename Cmp>
__attribute__((noinline)) void sort_many(std::vector<unsigned long> &v, int rounds, Cmp cmp)
{
	for (int r = 0; r < rounds; r++) {
		for (auto &x : v)
			x += r;
		std::sort(v.begin(), v.end(), cmp);
	}
}

__attribute__((noinline)) unsigned long apply_all(const std::vector<unsigned long> &v,
	const std::function<unsigned long(unsigned long)> &f)
{
	unsigned long s = 0;
	for (unsigned long x : v)
		s += f(x);
	return s;
}

__attribute__((noinline)) std::map<std::string, long> build_index(int n)
{
	std::map<std::string, long> m;
	for (int i = 0; i < n; i++)
		m["key-" + std::to_string(i * 7919 % n)] += i;
	return m;
}

} // namespace work
} // namespace pprofc

static volatile unsigned long sink;

int main()
{
	using namespace pprofc::work;
	std::vector<unsigned long> v(50000);
	for (size_t i = 0; i < v.size(); i++)
		v[i] = i * 2654435761UL;

	Accumulator<unsigned long> acc(1);
	sink += acc.feed(v, 6000);

	sort_many(v, 200, ByMixedKey());

	int k = 3;
	auto lam = [k](unsigned long x) __attribute__((noinline)) {
		unsigned long h = x;
		for (int i = 0; i < 400; i++)
			h = (h ^ (h >> 31)) * (0xbf58476d1ce4e5b9UL + k);
		return h;
	};
	for (int r = 0; r < 15; r++)
		sink += apply_all(v, lam);

	// Leaked on purpose: the in-use heap at exit (HEAPPROFILE) shows it.
	auto *idx = new auto(build_index(300000));
	sink += idx->size();

	if (const char *path = std::getenv("CXXPROG_HEAP_SAMPLE")) {
		std::string s;
		MallocExtension::instance()->GetHeapSample(&s);
		if (FILE *f = std::fopen(path, "w")) {
			std::fwrite(s.data(), 1, s.size(), f);
			std::fclose(f);
		}
	}
	std::printf("%lu\n", (unsigned long)sink);
	return 0;
}
