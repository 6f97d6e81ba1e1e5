/* ladder_spin.c - a workload for record/stress-real: call chains of every
 * depth from 1 to 150 frames, over and over, so that samples taken with -g
 * come in every size (48 bytes to over 1 KiB) and land anywhere in a ring. */
#include <stdlib.h>

static unsigned long __attribute__((noinline)) climb(int depth, unsigned long n)
{
	if (depth == 0) {
		volatile unsigned long x = 0;
		for (unsigned long i = 0; i < n; i++)
			x += i;
		return x;
	}
	return climb(depth - 1, n) + 1;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 400;
	unsigned long sum = 0;
	for (unsigned long r = 0; r < rounds; r++)
		sum += climb((int)(r * 37 % 150) + 1, 20000);
	return (int)(sum & 1);
}
