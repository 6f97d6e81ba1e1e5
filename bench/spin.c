/*
 * spin.c - the workload bench_record profiles: a fixed amount of CPU work
 * (a xorshift loop, about 0.3 s here) and a few hundred system calls, the
 * same every run, so its time alone is the baseline for the recorders'.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 300000000ull;
	uint64_t x = 88172645463325252ull;
	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if ((i & 0xfffff) == 0)
			(void)getppid();
	}
	printf("%llu\n", (unsigned long long)(x & 0xff));
	return 0;
}
