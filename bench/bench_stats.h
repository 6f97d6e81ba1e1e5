/*
 * bench_stats.h - what the benchmarks share, once: a clock in seconds
 * (monotonic, or any clock_gettime(2) clock) and the median of a sample
 * (sorted in place; the mean of the middle two for an even count).
 */
#ifndef PMU_BENCH_STATS_H
#define PMU_BENCH_STATS_H

#include <stdlib.h>
#include <time.h>

static inline double clock_seconds(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double now(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
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
