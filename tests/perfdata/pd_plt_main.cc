/*
 * pd_plt_main.cc - the workload of perfdata/interop-plt-sweep and
 * interop-plt-record (interop.sh builds it with g++ and with clang++): a
 * C++ program whose hot loop runs through PLT entries, its own (memcmp,
 * and the library's function) and the library's (pd_plt_lib.c: memcmp),
 * so that samples land in both files' .plt.
 *
 * usage: pd_plt_main [ITERATIONS]
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" int plt_lib_compare(const void *a, const void *b, size_t n);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;
	std::string a(16, 'x'), b(16, 'x');
	long sum = 0;
	for (long i = 0; i < n; i++) {
		sum += memcmp(a.data(), b.data(), 1 + (i & 7));
		sum += plt_lib_compare(a.data(), b.data(), 1 + (i & 3));
	}
	printf("%ld\n", sum);
	return 0;
}
