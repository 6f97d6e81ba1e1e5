/*
 * bench_runtime.c - libpmurt against baselines measured in the same run:
 *   a. event name -> code for every event name (mixed case) with
 *      pmurt_event_find, against a linear strcasecmp scan of the same names
 *      (how libpfm4's pfm_find_event searches a PMU's table);
 *   b. a 6-event group check with its MMCR values (pmurt_group_check), plain
 *      and needing an alternative, against perf_event_open + close of a
 *      6-event software-event group on this machine.
 * Each round (about 5 ms per work) times the baseline and the others back to
 * back; the figures are medians over ROUNDS rounds, the ratios medians of
 * the per-round ratios.  They are printed against the goals, never asserted.
 *
 * usage: bench_runtime [ROUNDS]           (default 21)
 *        bench_runtime --one-check [alt]  one check after setup, for callgrind
 *                                         (bench-callgrind counts its Ir)
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <pmurt.h>

#ifdef PMU_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT /* bench-callgrind uses --toggle-collect */
#endif

#define GROUP_SIZE 6
#define MAX_ROUNDS 201
#define ROUND_SECONDS 0.005

static volatile uint64_t sink; /* keeps measured work from being optimized out */

static const uint64_t plain_group[GROUP_SIZE] = {0x100fc, 0x200fa, 0x300fc,
						 0x400fc, 0x500fa, 0x600f4};
/* 0x1e (cycles, any PMC) finds PMC1-4 taken and moves to 0x600f4 on PMC6 */
static const uint64_t alt_group[GROUP_SIZE] = {0x100fc, 0x200fa, 0x300fc,
					       0x400fc, 0x500fa, 0x0001e};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --- timing --------------------------------------------------------------- */
typedef int (*work_fn)(void *ctx);

struct work {
	work_fn fn;
	void *ctx;
	long reps;       /* calls per round */
	double median;   /* seconds per call */
	double ratio;    /* median over rounds of this work's time / works[0]'s */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	return v[n / 2];
}

/* Calls per round, so that one round lasts about ROUND_SECONDS; -1 if fn fails. */
static int calibrate(struct work *w)
{
	for (w->reps = 1;; w->reps *= 2) {
		double t0 = now();
		for (long i = 0; i < w->reps; i++)
			if (w->fn(w->ctx))
				return -1;
		if (now() - t0 >= ROUND_SECONDS / 4 || w->reps > (1L << 30))
			break;
	}
	w->reps *= 4;
	return 0;
}

static double time_round(const struct work *w)
{
	double t0 = now();
	for (long i = 0; i < w->reps; i++)
		w->fn(w->ctx);
	return (now() - t0) / (double)w->reps;
}

/* Each round runs every work back to back, so a slower or faster phase of
 * the machine touches the baseline (works[0]) and the others alike; fills
 * each work's median time and its median ratio to the baseline. */
static int measure(struct work *w, int nworks, int rounds)
{
	static double t[4][MAX_ROUNDS], ratio[4][MAX_ROUNDS];
	for (int k = 0; k < nworks; k++)
		if (calibrate(&w[k]))
			return -1;
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < nworks; k++) {
			t[k][r] = time_round(&w[k]);
			ratio[k][r] = t[k][r] / t[0][r];
		}
	for (int k = 0; k < nworks; k++) {
		w[k].median = median(t[k], rounds);
		w[k].ratio = median(ratio[k], rounds);
	}
	return 0;
}

/* --- a. names --------------------------------------------------------------- */
struct names {
	const struct pmurt_pmu *pmu;
	int n;
	const char **table; /* the description's names, in its order */
	char **query;       /* the same names in mixed case, shuffled */
};

static char *mixed_case(const char *name, unsigned seed)
{
	char *s = strdup(name);
	for (char *p = s; p && *p; p++) {
		seed = seed * 1103515245u + 12345u;
		*p = (char)((seed >> 16) & 1 ? toupper((unsigned char)*p) : tolower((unsigned char)*p));
	}
	return s;
}

static int names_init(struct names *nm, const struct pmurt_pmu *pmu, int n)
{
	nm->pmu = pmu;
	nm->n = n;
	nm->table = calloc((size_t)n, sizeof(*nm->table));
	nm->query = calloc((size_t)n, sizeof(*nm->query));
	if (!nm->table || !nm->query)
		return -1;
	for (int i = 0; i < n; i++) {
		struct pmurt_event_info info = {.sz = sizeof(info)};
		if (pmurt_event_get(pmu, i, &info))
			return -1;
		nm->table[i] = info.name;
	}
	/* queries in a fixed shuffled order, so neither scan order is favoured */
	for (int i = 0; i < n; i++) {
		int j = (int)(((unsigned)i * 7919u) % (unsigned)n);
		if (!(nm->query[i] = mixed_case(nm->table[j], (unsigned)i)))
			return -1;
	}
	return 0;
}

static void names_free(struct names *nm)
{
	for (int i = 0; nm->query && i < nm->n; i++)
		free(nm->query[i]);
	free(nm->query);
	free(nm->table);
}

static int find_all_pmurt(void *ctx)
{
	const struct names *nm = ctx;
	uint64_t sum = 0;
	for (int i = 0; i < nm->n; i++) {
		int k = pmurt_event_find(nm->pmu, nm->query[i], NULL, NULL);
		if (k < 0)
			return -1;
		sum += (uint64_t)k;
	}
	sink += sum;
	return 0;
}

static int linear_find(const struct names *nm, const char *name)
{
	for (int i = 0; i < nm->n; i++)
		if (strcasecmp(nm->table[i], name) == 0)
			return i;
	return -1;
}

static int find_all_linear(void *ctx)
{
	const struct names *nm = ctx;
	uint64_t sum = 0;
	for (int i = 0; i < nm->n; i++) {
		int k = linear_find(nm, nm->query[i]);
		if (k < 0)
			return -1;
		sum += (uint64_t)k;
	}
	sink += sum;
	return 0;
}

static int bench_names(const struct pmurt_pmu *pmu, int nevents, int rounds)
{
	struct names nm = {0};
	struct work w[2] = {{find_all_linear, &nm, 0, 0, 0}, {find_all_pmurt, &nm, 0, 0, 0}};
	int rc = names_init(&nm, pmu, nevents) || measure(w, 2, rounds);
	names_free(&nm);
	if (rc) {
		fprintf(stderr, "bench_runtime: a name was not found\n");
		return -1;
	}
	double faster = 1 / w[1].ratio;
	printf("a. event name -> code, %d names in mixed case (medians of %d rounds)\n", nevents,
	       rounds);
	printf("   linear strcasecmp scan (baseline): %9.1f ns per name\n", w[0].median / nevents * 1e9);
	printf("   pmurt_event_find:                  %9.1f ns per name\n", w[1].median / nevents * 1e9);
	printf("   pmurt_event_find is %.0fx faster (goal >= 50x: %s)\n\n", faster,
	       faster >= 50 ? "met" : "NOT met");
	return 0;
}

/* --- b. groups -------------------------------------------------------------- */
struct check {
	const struct pmurt_pmu *pmu;
	struct pmurt_event_spec ev[GROUP_SIZE];
	struct pmurt_group_result res;
};

static void check_init(struct check *c, const struct pmurt_pmu *pmu, const uint64_t *codes)
{
	c->pmu = pmu;
	for (int i = 0; i < GROUP_SIZE; i++) {
		c->ev[i] = (struct pmurt_event_spec){.sz = sizeof(c->ev[i]), .type = PERF_TYPE_RAW,
						     .config = codes[i], .code = codes[i],
						     .event_index = -1};
		snprintf(c->ev[i].name, sizeof(c->ev[i].name), "%#llx", (unsigned long long)codes[i]);
	}
	c->res = (struct pmurt_group_result){.sz = sizeof(c->res)};
}

static int check_once(void *ctx)
{
	struct check *c = ctx;
	if (pmurt_group_check(c->pmu, c->ev, GROUP_SIZE, sizeof(c->ev[0]), NULL, &c->res, NULL) ||
	    !c->res.ok)
		return -1;
	sink += c->res.regs[0];
	return 0;
}

/* The baseline: a leader and five siblings, software events, this task. */
struct perf_group {
	bool user_only; /* exclude_kernel and exclude_hv, for perf_event_paranoid */
};

static const uint64_t sw_events[GROUP_SIZE] = {
	PERF_COUNT_SW_CPU_CLOCK,        PERF_COUNT_SW_TASK_CLOCK,
	PERF_COUNT_SW_PAGE_FAULTS,      PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS,   PERF_COUNT_SW_PAGE_FAULTS_MIN,
};

static int open_close_group(void *ctx)
{
	const struct perf_group *g = ctx;
	int fd[GROUP_SIZE], rc = 0, i;
	for (i = 0; i < GROUP_SIZE; i++) {
		struct perf_event_attr a = {.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
					    .config = sw_events[i], .disabled = i == 0,
					    .exclude_kernel = g->user_only, .exclude_hv = g->user_only};
		fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, i ? fd[0] : -1, 0);
		if (fd[i] < 0) {
			rc = -errno;
			break;
		}
	}
	while (i-- > 0)
		close(fd[i]);
	return rc;
}

static int perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -99;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -99;
		fclose(f);
	}
	return v;
}

/* The baseline as this machine allows it: all modes, else user only. */
static int perf_open_allowed(struct perf_group *g)
{
	g->user_only = false;
	int rc = open_close_group(g);
	if (rc == -EACCES || rc == -EPERM) {
		g->user_only = true;
		rc = open_close_group(g);
	}
	if (rc)
		printf("   perf_event_open refused (%s; perf_event_paranoid = %d): no baseline\n",
		       strerror(-rc), perf_paranoid());
	return rc;
}

static void print_check(const char *what, const struct work *w, bool have_base)
{
	printf("   pmurt_group_check, %-21s %9.3f us", what, w->median * 1e6);
	if (have_base)
		printf(" = %.2f%% of it (goal <= 1%%: %s)", 100 * w->ratio,
		       w->ratio <= 0.01 ? "met" : "NOT met");
	printf("\n");
}

static int bench_groups(const struct pmurt_pmu *pmu, int rounds)
{
	struct check plain, alt;
	check_init(&plain, pmu, plain_group);
	check_init(&alt, pmu, alt_group);
	if (check_once(&plain) || check_once(&alt) || !alt.res.alternatives_used) {
		fprintf(stderr, "bench_runtime: the benchmark groups do not check as expected\n");
		return -1;
	}
	printf("b. a 6-event group: check + MMCR values vs perf_event_open (medians of %d rounds)\n",
	       rounds);
	struct perf_group g;
	bool have_base = perf_open_allowed(&g) == 0;
	struct work w[3] = {{open_close_group, &g, 0, 0, 0}, {check_once, &plain, 0, 0, 0},
			    {check_once, &alt, 0, 0, 0}};
	if (have_base ? measure(w, 3, rounds) : measure(w + 1, 2, rounds))
		return -1;
	if (have_base)
		printf("   perf_event_open + close, 6 software events (%s; perf_event_paranoid = %d) "
		       "(baseline): %.3f us\n", g.user_only ? "exclude_kernel, exclude_hv" : "all modes",
		       perf_paranoid(), w[0].median * 1e6);
	print_check("plain:", &w[1], have_base);
	print_check("with an alternative:", &w[2], have_base);
	return 0;
}

/* --- main ------------------------------------------------------------------- */
/* Exactly one check after setup; only it is counted under callgrind. */
static int one_check(const struct pmurt_pmu *pmu, bool with_alt)
{
	struct check c;
	check_init(&c, pmu, with_alt ? alt_group : plain_group);
	CALLGRIND_TOGGLE_COLLECT;
	int rc = pmurt_group_check(c.pmu, c.ev, GROUP_SIZE, sizeof(c.ev[0]), NULL, &c.res, NULL);
	CALLGRIND_TOGGLE_COLLECT;
	printf("one check (%s): %s, MMCR1 = %#llx\n", with_alt ? "alternative" : "plain",
	       !rc && c.res.ok ? "ok" : "rejected", (unsigned long long)c.res.regs[1]);
	return rc || !c.res.ok;
}

int main(int argc, char **argv)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, "power10", NULL, &err)) {
		fprintf(stderr, "bench_runtime: %s\n", err.message);
		return 1;
	}
	int rc;
	if (argc > 1 && strcmp(argv[1], "--one-check") == 0) {
		rc = one_check(pmu, argc > 2 && strcmp(argv[2], "alt") == 0);
	} else {
		int rounds = argc > 1 ? atoi(argv[1]) : 21;
		if (rounds < 1 || rounds > MAX_ROUNDS)
			rounds = 21;
		struct pmurt_pmu_info info = {.sz = sizeof(info)};
		pmurt_pmu_info(pmu, &info);
		rc = bench_names(pmu, info.nevents, rounds) || bench_groups(pmu, rounds);
	}
	pmurt_pmu_close(pmu);
	return rc ? 1 : 0;
}
