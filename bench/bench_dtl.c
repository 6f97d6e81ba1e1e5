/*
 * bench_dtl.c - the vpa_dtl decoder and report against plain baselines,
 * measured in the same run (issue 8, section 6):
 *   a. decode throughput: pmurt_dtl_next over a generated buffer of 100000
 *      entries (4.8 MB, summing each entry's timebase so the work stays),
 *      against memcpy of the same buffer; goal: at least 30% of memcpy's
 *      bytes per second;
 *   b. `pmutool dtl report --json` on a file of a million generated entries
 *      against a plain pass over the same file that only sums one field
 *      (this program run as `bench_dtl --sum FILE`), both whole processes;
 *      goal: at most 3x the plain pass.
 * Each round times baseline and subject back to back, in CPU time (this
 * thread's for a., the child's user + system time for b.: the machine is
 * shared, and wall-clock time would count other processes' turns); the
 * figures are medians over the rounds, printed against the goals, never
 * asserted.
 *
 * usage: bench_dtl --pmutool PATH [ROUNDS]   (default 11 rounds)
 *        bench_dtl --sum FILE                the plain pass of b.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"
#include "dtl_gen.h"
#include "pmurt.h"

#define DECODE_ENTRIES 100000
#define REPORT_ENTRIES 1000000
#define MAX_ROUNDS 101

static volatile uint64_t sink;

static const char *met(int ok)
{
	return ok ? "goal met" : "GOAL MISSED";
}

static uint64_t decode_all(const uint8_t *buf, size_t len)
{
	struct pmurt_dtl_cursor c;
	struct pmurt_dtl_slot s;
	uint64_t sum = 0;
	pmurt_dtl_cursor_init(&c, buf, len, 0, 0, true);
	while (pmurt_dtl_next(&c, &s, NULL) > 0)
		sum += s.entry.timebase;
	return sum;
}

static void bench_decode(int rounds)
{
	size_t len = (DECODE_ENTRIES + 1) * (size_t)PMURT_DTL_SLOT_SIZE;
	uint8_t *buf = malloc(len), *copy = malloc(len);
	struct dtl_gen g;
	if (!buf || !copy)
		exit(1);
	dtl_gen_init(&g, 1, 1000, 512000000, 1000000);
	dtl_gen_buffer(&g, buf, DECODE_ENTRIES);
	memcpy(copy, buf, len); /* both pages touched before timing */
	double tm[MAX_ROUNDS], td[MAX_ROUNDS];
	for (int r = 0; r < rounds; r++) {
		double t0 = now();
		for (int i = 0; i < 10; i++) {
			memcpy(copy, buf, len);
			sink += copy[i];
		}
		double t1 = now();
		for (int i = 0; i < 10; i++)
			sink += decode_all(buf, len);
		double t2 = now();
		tm[r] = (t1 - t0) / 10;
		td[r] = (t2 - t1) / 10;
	}
	double m = median(tm, rounds), d = median(td, rounds);
	printf("a. decode %d entries (%.1f MB): memcpy %.3f ms (%.2f GB/s), decode %.3f ms "
	       "(%.2f GB/s, %.1f M entries/s): %.0f%% of memcpy (goal >= 30%%: %s)\n",
	       DECODE_ENTRIES, len / 1e6, m * 1e3, len / m / 1e9, d * 1e3, len / d / 1e9,
	       DECODE_ENTRIES / d / 1e6, 100 * m / d, met(m / d >= 0.30));
	free(buf);
	free(copy);
}

/* The child's user + system CPU time. */
static double run(char *const argv[])
{
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_dtl: %s failed\n", argv[0]);
		exit(1);
	}
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/* The plain pass: read the file, sum enqueue_to_dispatch_time of each slot. */
static int plain_sum(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 1;
	static uint8_t buf[1 << 20];
	uint64_t sum = 0;
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		for (size_t i = 0; i + PMURT_DTL_SLOT_SIZE <= n; i += PMURT_DTL_SLOT_SIZE)
			sum += (uint32_t)buf[i + 4] << 24 | (uint32_t)buf[i + 5] << 16 |
			       (uint32_t)buf[i + 6] << 8 | buf[i + 7];
	fclose(f);
	printf("%llu\n", (unsigned long long)sum);
	return 0;
}

static void bench_report(const char *pmutool, const char *self, int rounds)
{
	char path[] = "/tmp/bench-dtl-XXXXXX";
	int fd = mkstemp(path);
	size_t len = (REPORT_ENTRIES + 1) * (size_t)PMURT_DTL_SLOT_SIZE;
	uint8_t *buf = malloc(len);
	struct dtl_gen g;
	if (fd < 0 || !buf)
		exit(1);
	dtl_gen_init(&g, 2, 1000, 512000000, 1000000);
	dtl_gen_buffer(&g, buf, REPORT_ENTRIES);
	if (write(fd, buf, len) != (ssize_t)len)
		exit(1);
	close(fd);
	free(buf);
	char *report[] = {(char *)pmutool, "dtl", "report", "--json", path, NULL};
	char *plain[] = {(char *)self, "--sum", path, NULL};
	double tp[MAX_ROUNDS], tr[MAX_ROUNDS];
	run(plain); /* the file in the page cache */
	for (int r = 0; r < rounds; r++) {
		tp[r] = run(plain);
		tr[r] = run(report);
	}
	unlink(path);
	double p = median(tp, rounds), q = median(tr, rounds);
	printf("b. %d entries: plain pass summing one field %.1f ms, `pmutool dtl report --json` "
	       "%.1f ms: %.2fx (goal <= 3x: %s)\n", REPORT_ENTRIES, p * 1e3, q * 1e3, q / p,
	       met(q / p <= 3.0));
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--sum") == 0)
		return plain_sum(argv[2]);
	if (argc < 3 || strcmp(argv[1], "--pmutool") != 0) {
		fprintf(stderr, "usage: bench_dtl --pmutool PATH [ROUNDS]\n");
		return 2;
	}
	int rounds = argc > 3 ? atoi(argv[3]) : 11;
	if (rounds < 1 || rounds > MAX_ROUNDS)
		rounds = 11;
	bench_decode(rounds);
	bench_report(argv[2], argv[0], rounds);
	return 0;
}
