/*
 * bench_stats.h - what the benchmarks share: a monotonic clock in seconds
 * and the median of a sample (sorted in place).
 */
#ifndef PMU_BENCH_STATS_H
#define PMU_BENCH_STATS_H

#include <stdlib.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static inline double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif /* PMU_BENCH_STATS_H */
