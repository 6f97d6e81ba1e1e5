/*
 * plt_spin.c - the workload of the call-graph comparison (record_tool.sh,
 * case callchain): calls that pass through PLT entries (strdup calls
 * strlen and memcpy through libc's own PLT) and the vdso (clock_gettime),
 * so that pmutool script must name "@plt" and [vdso] frames as perf does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	unsigned long sum = 0;
	for (long i = 0; i < n; i++) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		char *copy = strdup(argv[0]);
		sum += (unsigned long)ts.tv_nsec + (unsigned char)copy[i % 4];
		free(copy);
	}
	printf("%lu\n", sum & 0xff);
	return 0;
}
