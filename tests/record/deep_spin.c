/* deep_spin.c - a workload for record/tool-deep: spins 200 calls deep, past
 * perf report's 127-frame walk (--max-stack), in two functions that call
 * each other, so each comes back many times in one call graph. */
#include <stdlib.h>

unsigned long down(int depth, unsigned long n);

static unsigned long __attribute__((noinline)) spin(unsigned long n)
{
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < n; i++)
		x += i;
	return x;
}

unsigned long __attribute__((noinline)) up(int depth, unsigned long n)
{
	return depth ? down(depth - 1, n) + 1 : spin(n);
}

unsigned long __attribute__((noinline)) down(int depth, unsigned long n)
{
	return depth ? up(depth - 1, n) + 1 : spin(n);
}

int main(int argc, char **argv)
{
	return (int)(down(200, argc > 1 ? strtoul(argv[1], NULL, 10) : 50000000) & 1);
}
