/*
 * pd_unwind.c - the workload of the --call-graph dwarf interop tests
 * (interop.sh record-dwarf, record-dwarf-ours).  Built with -O2
 * -fomit-frame-pointer and no debug information (tests/perfdata.cmake):
 * its stacks can be walked through its CFI (.eh_frame) only, not through
 * frame pointers.  ROUNDS rounds (default 40) of fixed work, each through
 * two paths to the same leaf: main -> unwind_outer -> unwind_middle ->
 * unwind_leaf, and main -> unwind_middle -> unwind_leaf.
 */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long unwind_leaf(unsigned long n);
__attribute__((noinline)) unsigned long unwind_middle(unsigned long n);
__attribute__((noinline)) unsigned long unwind_outer(unsigned long n);

unsigned long unwind_leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	return sink;
}

unsigned long unwind_middle(unsigned long n)
{
	return unwind_leaf(n) + unwind_leaf(n / 2) + 1;
}

unsigned long unwind_outer(unsigned long n)
{
	return unwind_middle(n) * 3 + 1;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 40;
	unsigned long total = 0;
	for (long r = 0; r < rounds; r++)
		total += unwind_outer(2000000) + unwind_middle(1000000);
	return total == 1;
}
