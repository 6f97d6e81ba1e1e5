/*
 * bench_extends.c - loading a description that extends another (Power11:
 * POWER10's PMU under its own identity) against loading its base, from
 * each source: the YAML (pmus/power11.yaml reads pmus/power10.yaml whole,
 * then its own pmu section), the built-in tables (power11's point at
 * power10's) and a DTB (pmugen's complete tree of each, every event).
 *
 *   bench_extends SRCDIR PMUGEN WORKDIR [ROUNDS]
 *       median time per open, power11 / power10, per source, rounds
 *       interleaved; the DTBs are made by PMUGEN in WORKDIR
 *   bench_extends --one PMU SOURCE
 *       exactly one open after setup, for callgrind (p9_instructions.sh
 *       counts its instructions), SRCDIR and WORKDIR from
 *       $BENCH_EXTENDS_SRC and $BENCH_EXTENDS_WORK
 *
 * pmurt_pmu_open is what every caller pays: the load, the checks an
 * untrusted source passes, the engine's set-up.  Nothing is asserted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_stats.h"
#include "pmurt.h"

#ifdef PMU_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT /* p9_instructions.sh uses --toggle-collect */
#endif

#define MAX_ROUNDS 101

enum source { SRC_YAML, SRC_BUILTIN, SRC_DTB, SRC_COUNT };
static const char *const source_names[SRC_COUNT] = {"yaml", "builtin", "dtb"};

struct dirs {
	const char *src, *work;
};

/* The spec of pmu ("power10", "power11") from source: the source tree's
 * YAML, the DTB made in the work directory, or the built-in name. */
static void spec_of(const struct dirs *d, const char *pmu, enum source s, char *out, size_t len)
{
	if (s == SRC_YAML)
		snprintf(out, len, "%s/pmus/%s.yaml", d->src, pmu);
	else if (s == SRC_DTB)
		snprintf(out, len, "%s/%s.dtb", d->work, pmu);
	else
		snprintf(out, len, "%s", pmu);
}

static int open_once(const char *spec)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	int rc = pmurt_pmu_open(&pmu, spec, NULL, &err);
	if (rc)
		fprintf(stderr, "bench_extends: %s: %s\n", spec, err.message);
	pmurt_pmu_close(pmu);
	return rc;
}

/* The DTBs the DTB source reads: pmugen --all-events of each description. */
static int make_dtbs(const struct dirs *d, const char *pmugen)
{
	char cmd[16384], path[4096];
	for (int i = 0; i < 2; i++) {
		const char *pmu = i ? "power11" : "power10";
		spec_of(d, pmu, SRC_DTB, path, sizeof(path));
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && '%s' -q --all-events -W no-kernel-limits "
			 "-f dtb -o '%s' '%s/pmus/%s.yaml'", d->work, pmugen, path, d->src, pmu);
		if (system(cmd) != 0) {
			fprintf(stderr, "bench_extends: %s failed\n", cmd);
			return -1;
		}
	}
	return 0;
}

static double time_opens(const char *spec, int n)
{
	double t0 = now();
	for (int i = 0; i < n; i++)
		open_once(spec);
	return (now() - t0) / n;
}

static void compare(const struct dirs *d, enum source s, int rounds)
{
	char a[4096], b[4096];
	double ta[MAX_ROUNDS], tb[MAX_ROUNDS];
	int n = s == SRC_BUILTIN ? 200 : 5;
	spec_of(d, "power11", s, a, sizeof(a));
	spec_of(d, "power10", s, b, sizeof(b));
	if (open_once(a) || open_once(b))
		return;
	for (int r = 0; r < rounds; r++) {
		tb[r] = time_opens(b, n);
		ta[r] = time_opens(a, n);
	}
	double ma = median(ta, rounds), mb = median(tb, rounds);
	printf("  %-8s power11 %9.1f us  power10 %9.1f us  ratio %.3f\n", source_names[s],
	       ma * 1e6, mb * 1e6, ma / mb);
}

/* Exactly one open after setup; only it is counted under callgrind. */
static int one_open(const char *pmu, const char *source)
{
	struct dirs d = {getenv("BENCH_EXTENDS_SRC"), getenv("BENCH_EXTENDS_WORK")};
	char spec[4096];
	int s = 0;
	while (s < SRC_COUNT && strcmp(source_names[s], source) != 0)
		s++;
	if (s == SRC_COUNT || !d.src || !d.work) {
		fprintf(stderr, "bench_extends --one PMU yaml|builtin|dtb, with BENCH_EXTENDS_SRC "
			"and BENCH_EXTENDS_WORK\n");
		return 2;
	}
	spec_of(&d, pmu, (enum source)s, spec, sizeof(spec));
	CALLGRIND_TOGGLE_COLLECT;
	int rc = open_once(spec);
	CALLGRIND_TOGGLE_COLLECT;
	printf("one open (%s from %s): %s\n", pmu, source, rc ? "failed" : "ok");
	return rc != 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--one") == 0)
		return one_open(argv[2], argv[3]);
	if (argc < 4) {
		fprintf(stderr, "usage: bench_extends SRCDIR PMUGEN WORKDIR [ROUNDS] | "
			"--one PMU SOURCE\n");
		return 2;
	}
	struct dirs d = {argv[1], argv[3]};
	int rounds = argc > 4 ? atoi(argv[4]) : 21;
	if (rounds < 1 || rounds > MAX_ROUNDS)
		rounds = 21;
	if (make_dtbs(&d, argv[2]))
		return 1;
	printf("pmurt_pmu_open, power11 (extends power10) / power10 (medians of %d rounds):\n",
	       rounds);
	for (int s = 0; s < SRC_COUNT; s++)
		compare(&d, (enum source)s, rounds);
	return 0;
}
