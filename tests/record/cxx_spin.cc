// cxx_spin.cc - a C++ workload for record/tool-cxx: a namespaced member and a
// template instance, whose mangled names perf and pmutool demangle alike.
#include <cstdlib>
namespace work { struct Spin { static unsigned long run(unsigned long n); };
unsigned long __attribute__((noinline)) Spin::run(unsigned long n) { volatile unsigned long x = 0; for (unsigned long i = 0; i < n; i++) x += i; return x; } }
template <typename T> T __attribute__((noinline)) twice(T n) { return work::Spin::run(n) + work::Spin::run(n); }
int main(int argc, char **argv) { return (int)twice<unsigned long>(argc > 1 ? strtoul(argv[1], 0, 10) : 50000000) & 1; }
