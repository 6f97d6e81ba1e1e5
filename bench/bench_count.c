/*
 * bench_count.c - reading a 6-event group through libpmurt
 * (pmurt_counter_read: one read() of PERF_FORMAT_GROUP | ID with both
 * times, the values matched to events by id, sums and scaling) against a
 * bare read() of the same group leader's fd into a buffer, measured in the
 * same run.  The group is six software events of this process (this machine
 * has no hardware counters), so both sides make the same system call.
 * Each round times a batch of reads of each, back to back (the order
 * alternating between rounds); the figures are medians over the rounds, and
 * the ratios both the ratio of the medians and the median of the rounds'
 * ratios (paired, less moved by a loaded machine), printed against the goal
 * (at most 1.1x), never asserted.
 *
 * b. the library's own work per read, apart from the system call: the same
 *    pmurt_counter_read with the syscall layer's read() replaced by a copy
 *    of one real group read, as ns and as a share of a bare read().
 *
 * usage: bench_count [ROUNDS]   (default 21)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"
#include "perf_int.h"

#define GROUP "{task-clock,cpu-clock,page-faults,context-switches,cpu-migrations,minor-faults}"
#define BATCH 2000
#define MAX_ROUNDS 201

static volatile uint64_t sink;

/* b.: one real group read, replayed */
static uint64_t canned[3 + 2 * 6];

static ssize_t canned_read(void *ctx, int fd, void *buf, size_t len)
{
	(void)ctx, (void)fd;
	size_t n = len < sizeof(canned) ? len : sizeof(canned);
	memcpy(buf, canned, n);
	return (ssize_t)n;
}

/* ns per read, through the library */
static double time_library(struct pmurt_counter *c)
{
	struct pmurt_count v[6];
	double t0 = now();
	for (int i = 0; i < BATCH; i++) {
		if (pmurt_counter_read(c, v, 6, sizeof(v[0]), NULL) != 6)
			exit(1);
		sink += v[5].scaled;
	}
	return (now() - t0) / BATCH * 1e9;
}

/* ns per read, bare: the same fd, the same buffer size */
static double time_bare(int fd)
{
	uint64_t buf[3 + 2 * 6];
	double t0 = now();
	for (int i = 0; i < BATCH; i++) {
		if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			exit(1);
		sink += buf[3 + 2 * 5];
	}
	return (now() - t0) / BATCH * 1e9;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 21;
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: bench_count [ROUNDS 1..%d]\n", MAX_ROUNDS);
		return 2;
	}
	struct pmurt_host *h;
	struct pmurt_counter *c;
	struct pmurt_error err;
	struct pmurt_host_opts ho = PMURT_OPTS_INIT(pmurt_host_opts);
	struct pmurt_counter_opts co = PMURT_OPTS_INIT(pmurt_counter_opts);
	if (pmurt_host_open(&h, &ho, &err) || pmurt_counter_open(&c, h, GROUP, &co, &err) ||
	    pmurt_counter_enable(c, &err)) {
		fprintf(stderr, "bench_count: %s\n", err.message);
		return 1;
	}
	double lib[MAX_ROUNDS], bare[MAX_ROUNDS], ratio[MAX_ROUNDS];
	for (int r = 0; r < rounds; r++) {
		if (r % 2) {
			lib[r] = time_library(c);
			bare[r] = time_bare(c->fds[0]);
		} else {
			bare[r] = time_bare(c->fds[0]);
			lib[r] = time_library(c);
		}
		ratio[r] = lib[r] / bare[r];
	}
	double l = median(lib, rounds), b = median(bare, rounds);
	printf("a. read a 6-event group: pmurt_counter_read %.0f ns vs bare read() %.0f ns: "
	       "%.2fx, paired %.2fx (goal <= 1.1x)\n", l, b, l / b, median(ratio, rounds));
	if (read(c->fds[0], canned, sizeof(canned)) != (ssize_t)sizeof(canned))
		return 1;
	struct pmurt_sys replay = *h->h.sys;
	replay.read = canned_read;
	const struct pmurt_sys *real = h->h.sys;
	h->h.sys = &replay;
	double own[MAX_ROUNDS];
	for (int r = 0; r < rounds; r++)
		own[r] = time_library(c);
	double o = median(own, rounds);
	printf("b. the library's own work per read (read() replayed): %.0f ns, %.1f%% of a bare "
	       "read()\n", o, 100 * o / b);
	h->h.sys = real;
	pmurt_counter_close(c);
	pmurt_host_close(h);
	return 0;
}
