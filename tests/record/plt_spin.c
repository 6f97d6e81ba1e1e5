/*
 * plt_spin.c - the workload of the call-graph comparison (record_tool.sh,
 * case callchain): calls that pass through PLT entries (strtok_r calls
 * strspn and strpbrk through libc's own PLT) and the vdso (clock_gettime),
 * so that pmutool script must name "@plt" and [vdso] frames as perf does.
 * Built with -fno-plt (tests/record.cmake): see there why not through a
 * .plt of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4000000;
	unsigned long sum = 0;
	for (long i = 0; i < n; i++) {
		char words[] = "ab cd";
		char *save, *w = strtok_r(words, " ", &save);
		sum += (unsigned char)w[i % 2];
		if (i % 4 == 0) {
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sum += (unsigned long)ts.tv_nsec;
		}
	}
	printf("%lu\n", sum & 0xff);
	return 0;
}
