/*
 * pd_spin.c - a workload with known hot functions for the perf.data interop
 * tests: spin_alpha takes about two thirds of its CPU time, spin_beta one
 * third, for about SECONDS (default 0.3) of CPU.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void spin_alpha(unsigned long n);
__attribute__((noinline)) void spin_beta(unsigned long n);

void spin_alpha(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

void spin_beta(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink ^= i;
}

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0.3;
	double start = cpu_seconds();
	while (cpu_seconds() - start < seconds) {
		spin_alpha(200000);
		spin_beta(100000);
	}
	return 0;
}
