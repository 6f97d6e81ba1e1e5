/*
 * bench_p9.c - group check + MMCR values on POWER9 (or another built-in
 * description, --pmu: POWER8, Power11) against POWER10 at equal group sizes: the same
 * question, asked of each built-in description.
 *
 *   bench_p9 [--pmu NAME] [ROUNDS]  median time per check, NAME (default
 *                                   power9) / POWER10, per size
 *   bench_p9 --one PMU N [alt]      exactly one check of N events after setup,
 *                                   for callgrind (bench-p9, bench-p8 and
 *                                   bench-power11 count its instructions)
 *
 * The groups are the same codes on both PMUs (each valid and schedulable on
 * both): the first N of 0x100fc, 0x200fa, 0x300fc, 0x400fc, 0x500fa,
 * 0x600f4, which fit as given; and, for "alt", 0x600f4 followed by N - 1
 * copies of it, where each copy after the first needs the search for
 * alternatives (POWER9 and POWER8: 0x200f4 or 0x1e; POWER10: 0x1e).  Nothing
 * is asserted.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_stats.h"
#include "pmurt.h"

#ifdef PMU_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT /* bench-p9 uses --toggle-collect */
#endif

#define MAX_N 6
#define MAX_ROUNDS 101
#define CHECKS_PER_ROUND 20000

static const uint64_t plain_codes[MAX_N] = {0x100fc, 0x200fa, 0x300fc, 0x400fc, 0x500fa, 0x600f4};

struct group {
	struct pmurt_pmu *pmu;
	struct pmurt_event_spec ev[MAX_N];
	int n;
};

static int group_init(struct group *g, const char *pmu, int n, bool alt)
{
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&g->pmu, pmu, NULL, &err)) {
		fprintf(stderr, "bench_p9: %s: %s\n", pmu, err.message);
		return -1;
	}
	g->n = n;
	for (int i = 0; i < n; i++)
		g->ev[i] = (struct pmurt_event_spec){.sz = sizeof(g->ev[i]),
						     .code = alt ? 0x600f4 : plain_codes[i]};
	return 0;
}

static int check(const struct group *g, struct pmurt_group_result *res)
{
	*res = (struct pmurt_group_result){.sz = sizeof(*res)};
	return pmurt_group_check(g->pmu, g->ev, g->n, sizeof(g->ev[0]), NULL, res, NULL);
}

/* Exactly one check after setup; only it is counted under callgrind. */
static int one_check(const char *pmu, int n, bool alt)
{
	struct group g;
	struct pmurt_group_result res;
	if (group_init(&g, pmu, n, alt))
		return 1;
	CALLGRIND_TOGGLE_COLLECT;
	int rc = check(&g, &res);
	CALLGRIND_TOGGLE_COLLECT;
	printf("one check (%s, %d events%s): %s\n", pmu, n, alt ? ", alternatives" : "",
	       !rc && res.ok ? "ok" : "rejected");
	pmurt_pmu_close(g.pmu);
	return rc || !res.ok;
}

static double time_checks(const struct group *g)
{
	struct pmurt_group_result res;
	double t0 = now();
	for (int i = 0; i < CHECKS_PER_ROUND; i++)
		check(g, &res);
	return (now() - t0) / CHECKS_PER_ROUND;
}

/* Median ns per check of each PMU, rounds interleaved so that both see the
 * same machine load. */
static int compare(const char *pmu, int n, bool alt, int rounds)
{
	struct group p9, p10;
	double t9[MAX_ROUNDS], t10[MAX_ROUNDS];
	if (group_init(&p9, pmu, n, alt) || group_init(&p10, "power10", n, alt))
		return -1;
	for (int r = 0; r < rounds; r++) {
		t10[r] = time_checks(&p10);
		t9[r] = time_checks(&p9);
	}
	double m9 = median(t9, rounds), m10 = median(t10, rounds);
	printf("%d events%-14s %s %7.1f ns  POWER10 %7.1f ns  ratio %.2f\n", n,
	       alt ? ", alternatives" : "", pmu, m9 * 1e9, m10 * 1e9, m9 / m10);
	pmurt_pmu_close(p9.pmu);
	pmurt_pmu_close(p10.pmu);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "--one") == 0)
		return one_check(argv[2], atoi(argv[3]) < 1 || atoi(argv[3]) > MAX_N ? 1 : atoi(argv[3]),
				 argc > 4 && strcmp(argv[4], "alt") == 0);
	const char *pmu = "power9";
	if (argc >= 3 && strcmp(argv[1], "--pmu") == 0) {
		pmu = argv[2];
		argc -= 2;
		argv += 2;
	}
	int rounds = argc > 1 ? atoi(argv[1]) : 21;
	if (rounds < 1 || rounds > MAX_ROUNDS)
		rounds = 21;
	printf("group check + MMCR values, %s / POWER10 (medians of %d rounds of %d checks):\n",
	       pmu, rounds, CHECKS_PER_ROUND);
	for (int n = 1; n <= MAX_N; n++)
		if (compare(pmu, n, false, rounds))
			return 1;
	for (int n = 2; n <= 4; n++)
		if (compare(pmu, n, true, rounds))
			return 1;
	return 0;
}
