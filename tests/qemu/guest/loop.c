/*
 * loop.c - a workload of a known instruction count for counting tests in the QEMU guests:
 * `loop N` runs N iterations of a two-instruction loop (addi; bdnz) in user mode, so
 * instructions counted in user mode are 2N plus the program's start and exit.
 */
#include <stdio.h>
#include <stdlib.h>

static void spin(unsigned long n)
{
#if defined(__powerpc64__)
	unsigned long acc = 0;
	__asm__ volatile("mtctr %1\n"
			 "1: addi %0,%0,1\n"
			 "bdnz 1b\n"
			 : "+r"(acc)
			 : "r"(n)
			 : "ctr");
#else
	for (volatile unsigned long i = 0; i < n; i++)
		;
#endif
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long n = argc == 2 ? strtoul(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || n == 0) {
		fprintf(stderr, "usage: loop N (N > 0 iterations of a two-instruction loop)\n");
		return 2;
	}
	spin(n);
	return 0;
}
