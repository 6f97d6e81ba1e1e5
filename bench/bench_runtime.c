/*
 * bench_runtime.c - libpmurt against its peers, measured in the same run:
 *   a. event name -> code: pmurt_event_find over every POWER10 event name
 *      (mixed case) against libpfm4's pfm_find_event over every event name of
 *      a libpfm4 x86 core PMU table (this machine has no POWER PMU, and
 *      libpfm4 has no POWER10 table an x86 build uses), per look-up;
 *   b. a name the table lacks (each name with one letter dropped): both
 *      without a suggestion, and pmurt_event_find with an error object,
 *      which then searches for the nearest name;
 *   c. a full parse of "NAME:u": pmurt_parse_event against
 *      pfm_get_os_event_encoding (PFM_OS_NONE, the raw encoding);
 *   d. a 6-event group check with its MMCR values (pmurt_group_check), plain
 *      and needing an alternative, against perf_event_open + close of a
 *      6-event software-event group on this machine;
 *   e. whole processes: `pmutool check A,B,C` against libpfm4's example
 *      `check_events A B C` for the same three perf generic events (built
 *      from libpfm4-dev's examples by bench/CMakeLists.txt).
 * Each round (about 5 ms per work) times the baseline and the others back to
 * back, in-process work in this thread's CPU time (a loaded machine
 * preempts the 5 ms rounds; wall time moved the ratios by +-40%), processes
 * in wall time; the figures are medians over ROUNDS rounds and the ratios are ratios
 * of those medians.  They are printed against the goals, never asserted.
 *
 * The libpfm4 table is the PMU named by LIBPFM_FORCE_PMU, "skl" (Intel
 * Skylake, its core PMU) unless the environment names another; forcing it
 * makes it the only active PMU, so pfm_find_event searches it alone.  The
 * processes of e. run without LIBPFM_FORCE_PMU, so that check_events
 * resolves the perf generic names through libpfm4's perf PMU.
 *
 * usage: bench_runtime [--pmutool PATH --check-events PATH] [ROUNDS]
 *                                          (default 21 rounds; e. needs both paths)
 *        bench_runtime --one-check [alt]   one check after setup, for callgrind
 *                                          (bench-callgrind counts its Ir)
 *        bench_runtime --one-parse         c.'s strings parsed once each after
 *                                          setup, for callgrind; prints how many
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>
#include <pmurt.h>

#include "bench_stats.h"

#ifdef PMU_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT /* bench-callgrind uses --toggle-collect */
#endif

#define GROUP_SIZE 6
#define MAX_ROUNDS 201
#define ROUND_SECONDS 0.005
#define CPU_CLOCK CLOCK_THREAD_CPUTIME_ID
#define DEFAULT_PFM_PMU "skl"
#define PROCESS_EVENTS "cycles", "instructions", "branch-misses"

static volatile uint64_t sink; /* keeps measured work from being optimized out */

static const uint64_t plain_group[GROUP_SIZE] = {0x100fc, 0x200fa, 0x300fc,
						 0x400fc, 0x500fa, 0x600f4};
/* 0x1e (cycles, any PMC) finds PMC1-4 taken and moves to 0x600f4 on PMC6 */
static const uint64_t alt_group[GROUP_SIZE] = {0x100fc, 0x200fa, 0x300fc,
					       0x400fc, 0x500fa, 0x0001e};

/* In-process work is timed in the thread's CPU time (CLOCK_THREAD_CPUTIME_ID),
 * so that the time this thread spends descheduled on a shared machine does
 * not count; whole processes (e.) in wall time (CLOCK_MONOTONIC). */

/* --- timing --------------------------------------------------------------- */
typedef int (*work_fn)(void *ctx);

struct work {
	work_fn fn;
	void *ctx;
	int items;       /* look-ups (or checks, or processes) per call */
	long reps;       /* calls per round */
	double median;   /* seconds per item */
};

/* Calls per round, so that one round lasts about ROUND_SECONDS; -1 if fn fails. */
static int calibrate(struct work *w, clockid_t clock)
{
	for (w->reps = 1;; w->reps *= 2) {
		double t0 = clock_seconds(clock);
		for (long i = 0; i < w->reps; i++)
			if (w->fn(w->ctx))
				return -1;
		if (clock_seconds(clock) - t0 >= ROUND_SECONDS / 4 || w->reps > (1L << 30))
			break;
	}
	w->reps *= 4;
	return 0;
}

static double time_round(const struct work *w, clockid_t clock)
{
	double t0 = clock_seconds(clock);
	for (long i = 0; i < w->reps; i++)
		w->fn(w->ctx);
	return (clock_seconds(clock) - t0) / (double)w->reps / (double)w->items;
}

/* Each round runs every work back to back, so a slower or faster phase of
 * the machine touches the baseline and the others alike; fills each work's
 * median time per item. */
static int measure(struct work *w, int nworks, int rounds, clockid_t clock)
{
	static double t[4][MAX_ROUNDS];
	for (int k = 0; k < nworks; k++)
		if (calibrate(&w[k], clock))
			return -1;
	for (int r = 0; r < rounds; r++)
		for (int k = 0; k < nworks; k++)
			t[k][r] = time_round(&w[k], clock);
	for (int k = 0; k < nworks; k++)
		w[k].median = median(t[k], rounds);
	return 0;
}

static const char *met(bool ok)
{
	return ok ? "met" : "NOT met";
}

/* --- name lists ------------------------------------------------------------- */
struct names {
	int n;
	char **s;
};

static int names_add(struct names *l, const char *s)
{
	char **grown = realloc(l->s, (size_t)(l->n + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	l->s = grown;
	return (l->s[l->n] = strdup(s)) ? (l->n++, 0) : -1;
}

static void names_free(struct names *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	*l = (struct names){0};
}

static void mix_case(char *s, unsigned seed)
{
	for (; *s; s++) {
		seed = seed * 1103515245u + 12345u;
		*s = (char)((seed >> 16) & 1 ? toupper((unsigned char)*s) : tolower((unsigned char)*s));
	}
}

/* name with its middle letter dropped: a typo one edit away */
static void drop_letter(char *out, size_t len, const char *name)
{
	size_t n = strlen(name), cut = n / 2;
	snprintf(out, len, "%.*s%s", (int)cut, name, name + cut + (n > 1));
}

/* The three lists of one library: names in mixed case, typos of them that
 * find_fn misses, and "NAME:u" strings that encode_fn parses. */
struct lists {
	struct names hit, miss, parse;
};

static int lists_build(struct lists *l, const struct names *base, int (*find_fn)(const char *),
		       int (*encode_fn)(const char *))
{
	char buf[512];
	for (int i = 0; i < base->n; i++) {
		/* queries in a fixed shuffled order, so no scan order is favoured */
		const char *name = base->s[(int)(((unsigned)i * 7919u) % (unsigned)base->n)];
		snprintf(buf, sizeof(buf), "%s", name);
		mix_case(buf, (unsigned)i);
		if (find_fn(buf) < 0 || names_add(&l->hit, buf))
			return -1;
		drop_letter(buf, sizeof(buf), name);
		if (find_fn(buf) < 0 && names_add(&l->miss, buf))
			return -1;
		snprintf(buf, sizeof(buf), "%s:u", name);
		if (encode_fn(buf) == 0 && names_add(&l->parse, buf))
			return -1;
	}
	return l->hit.n && l->miss.n && l->parse.n ? 0 : -1;
}

static void lists_free(struct lists *l)
{
	names_free(&l->hit);
	names_free(&l->miss);
	names_free(&l->parse);
}

/* --- libpmurt's side ----------------------------------------------------------- */
static const struct pmurt_pmu *the_pmu; /* the bench's one description */

static int pmurt_find(const char *name)
{
	return pmurt_event_find(the_pmu, name, NULL, NULL);
}

static int pmurt_encode(const char *s)
{
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	return pmurt_parse_event(the_pmu, s, &spec, NULL);
}

static int pmurt_names(struct names *out)
{
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	if (pmurt_pmu_info(the_pmu, &info))
		return -1;
	for (int i = 0; i < info.nevents; i++) {
		struct pmurt_event_info ev = {.sz = sizeof(ev)};
		if (pmurt_event_get(the_pmu, i, &ev) || names_add(out, ev.name))
			return -1;
	}
	return 0;
}

static int pmurt_find_all(void *ctx)
{
	const struct names *l = ctx;
	uint64_t sum = 0;
	for (int i = 0; i < l->n; i++) {
		int k = pmurt_find(l->s[i]);
		if (k < 0)
			return -1;
		sum += (uint64_t)k;
	}
	sink += sum;
	return 0;
}

static int pmurt_miss_all(void *ctx)
{
	const struct names *l = ctx;
	for (int i = 0; i < l->n; i++)
		if (pmurt_find(l->s[i]) != -ENOENT)
			return -1;
	return 0;
}

/* A miss with an error object: the message and its suggestion. */
static int pmurt_suggest_all(void *ctx)
{
	const struct names *l = ctx;
	for (int i = 0; i < l->n; i++) {
		struct pmurt_error err = {0};
		if (pmurt_event_find(the_pmu, l->s[i], NULL, &err) != -ENOENT)
			return -1;
		sink += (uint64_t)err.message[0];
	}
	return 0;
}

static int pmurt_parse_all(void *ctx)
{
	const struct names *l = ctx;
	for (int i = 0; i < l->n; i++) {
		struct pmurt_event_spec spec = {.sz = sizeof(spec)};
		if (pmurt_parse_event(the_pmu, l->s[i], &spec, NULL))
			return -1;
		sink += spec.config;
	}
	return 0;
}

/* --- libpfm4's side -------------------------------------------------------------- */
static int pfm_find(const char *name)
{
	return pfm_find_event(name);
}

/* The raw encoding with the library's fastest path: a codes array of our
 * own (no allocation per call), no fully qualified string. */
static int pfm_encode(const char *s)
{
	uint64_t codes[8];
	pfm_pmu_encode_arg_t e = {.codes = codes, .count = 8};
	int rc = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &e);
	sink += codes[0];
	return rc == PFM_SUCCESS ? 0 : -1;
}

/* The one active PMU's event names; *pinfo describes it. */
static int pfm_names(struct names *out, pfm_pmu_info_t *pinfo)
{
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		*pinfo = (pfm_pmu_info_t){.size = sizeof(*pinfo)};
		if (pfm_get_pmu_info((pfm_pmu_t)p, pinfo) != PFM_SUCCESS || !pinfo->is_present)
			continue;
		for (int i = pinfo->first_event; i != -1; i = pfm_get_event_next(i)) {
			pfm_event_info_t info = {.size = sizeof(info)};
			if (pfm_get_event_info(i, PFM_OS_NONE, &info) != PFM_SUCCESS ||
			    names_add(out, info.name))
				return -1;
		}
		return 0;
	}
	return -1;
}

static int pfm_find_all(void *ctx)
{
	const struct names *l = ctx;
	uint64_t sum = 0;
	for (int i = 0; i < l->n; i++) {
		int k = pfm_find(l->s[i]);
		if (k < 0)
			return -1;
		sum += (uint64_t)k;
	}
	sink += sum;
	return 0;
}

static int pfm_miss_all(void *ctx)
{
	const struct names *l = ctx;
	for (int i = 0; i < l->n; i++)
		if (pfm_find(l->s[i]) >= 0)
			return -1;
	return 0;
}

static int pfm_parse_all(void *ctx)
{
	const struct names *l = ctx;
	for (int i = 0; i < l->n; i++)
		if (pfm_encode(l->s[i]))
			return -1;
	return 0;
}

/* --- a, b, c: look-ups and parsing ------------------------------------------------ */
static void print_pair(const char *what, const struct work *pfm, const struct work *ours,
		       const char *goal, bool goal_met)
{
	printf("   %-34s libpfm4 %9.1f ns   libpmurt %9.1f ns   %6.1fx faster", what,
	       pfm->median * 1e9, ours->median * 1e9, pfm->median / ours->median);
	if (goal)
		printf(" (goal %s: %s)", goal, met(goal_met));
	printf("\n");
}

static int bench_lookups(int rounds)
{
	struct names pfm_base = {0}, our_base = {0};
	struct lists pfm = {0}, ours = {0};
	pfm_pmu_info_t pinfo;
	int rc = -1;
	if (pfm_names(&pfm_base, &pinfo) || pmurt_names(&our_base) ||
	    lists_build(&pfm, &pfm_base, pfm_find, pfm_encode) ||
	    lists_build(&ours, &our_base, pmurt_find, pmurt_encode)) {
		fprintf(stderr, "bench_runtime: cannot build the name lists\n");
		goto out;
	}
	printf("libpfm4 table: PMU '%s' (%s, LIBPFM_FORCE_PMU=%s), %d events; libpmurt: "
	       "built-in power10, %d events\n", pinfo.name, pinfo.desc, getenv("LIBPFM_FORCE_PMU"),
	       pfm_base.n, our_base.n);
	printf("(medians of %d rounds, time per look-up or parse; ratios of the medians)\n", rounds);
	struct work hit[2] = {{pfm_find_all, &pfm.hit, pfm.hit.n, 0, 0},
			      {pmurt_find_all, &ours.hit, ours.hit.n, 0, 0}};
	struct work miss[3] = {{pfm_miss_all, &pfm.miss, pfm.miss.n, 0, 0},
			       {pmurt_miss_all, &ours.miss, ours.miss.n, 0, 0},
			       {pmurt_suggest_all, &ours.miss, ours.miss.n, 0, 0}};
	struct work parse[2] = {{pfm_parse_all, &pfm.parse, pfm.parse.n, 0, 0},
				{pmurt_parse_all, &ours.parse, ours.parse.n, 0, 0}};
	if (measure(hit, 2, rounds, CPU_CLOCK) || measure(miss, 3, rounds, CPU_CLOCK) ||
	    measure(parse, 2, rounds, CPU_CLOCK)) {
		fprintf(stderr, "bench_runtime: a look-up or parse gave an unexpected answer\n");
		goto out;
	}
	printf("a. name -> index, every name, mixed case:\n");
	print_pair("pfm_find_event / pmurt_event_find", &hit[0], &hit[1], NULL, true);
	printf("b. a name the table lacks (a letter dropped; %d and %d names):\n", pfm.miss.n,
	       ours.miss.n);
	print_pair("miss, no suggestion", &miss[0], &miss[1], "faster than libpfm4",
		   miss[1].median < miss[0].median);
	printf("   %-34s libpmurt %9.1f ns = %.2f us (goal < 10 us over %d events: %s)\n",
	       "miss with err (nearest-name hint)", miss[2].median * 1e9, miss[2].median * 1e6,
	       our_base.n, met(miss[2].median < 10e-6));
	printf("c. full parse of \"NAME:u\" (%d and %d strings):\n", pfm.parse.n, ours.parse.n);
	print_pair("pfm_get_os_event_encoding / parse", &parse[0], &parse[1], ">= 50x",
		   parse[0].median / parse[1].median >= 50);
	printf("\n");
	rc = 0;
out:
	lists_free(&pfm);
	lists_free(&ours);
	names_free(&pfm_base);
	names_free(&our_base);
	return rc;
}

/* --- d. groups -------------------------------------------------------------- */
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

static void print_check(const char *what, const struct work *w, const struct work *base)
{
	printf("   pmurt_group_check, %-21s %9.3f us", what, w->median * 1e6);
	if (base) {
		double r = w->median / base->median;
		printf(" = %.2f%% of it (goal <= 1%%: %s)", 100 * r, met(r <= 0.01));
	}
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
	printf("d. a 6-event group: check + MMCR values vs perf_event_open (medians of %d rounds)\n",
	       rounds);
	struct perf_group g;
	bool have_base = perf_open_allowed(&g) == 0;
	struct work w[3] = {{open_close_group, &g, 1, 0, 0}, {check_once, &plain, 1, 0, 0},
			    {check_once, &alt, 1, 0, 0}};
	if (have_base ? measure(w, 3, rounds, CPU_CLOCK) : measure(w + 1, 2, rounds, CPU_CLOCK))
		return -1;
	if (have_base)
		printf("   perf_event_open + close, 6 software events (%s; perf_event_paranoid = %d) "
		       "(baseline): %.3f us\n", g.user_only ? "exclude_kernel, exclude_hv" : "all modes",
		       perf_paranoid(), w[0].median * 1e6);
	print_check("plain:", &w[1], have_base ? &w[0] : NULL);
	print_check("with an alternative:", &w[2], have_base ? &w[0] : NULL);
	printf("\n");
	return 0;
}

/* --- e. whole processes -------------------------------------------------------- */
struct process {
	char *const *argv;
};

/* Runs argv with stdout and stderr to /dev/null and without
 * LIBPFM_FORCE_PMU; 0 when it exits 0. */
static int run_process(void *ctx)
{
	const struct process *p = ctx;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(126);
		unsetenv("LIBPFM_FORCE_PMU");
		execv(p->argv[0], p->argv);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int bench_processes(const char *pmutool, const char *check_events, int rounds)
{
	char *pmutool_argv[] = {(char *)pmutool, "check", "cycles,instructions,branch-misses", NULL};
	char *check_argv[] = {(char *)check_events, PROCESS_EVENTS, NULL};
	struct process ours = {pmutool_argv}, theirs = {check_argv};
	struct work w[2] = {{run_process, &theirs, 1, 0, 0}, {run_process, &ours, 1, 0, 0}};
	if (measure(w, 2, rounds, CLOCK_MONOTONIC)) {
		fprintf(stderr, "bench_runtime: %s or %s failed for cycles, instructions, "
			"branch-misses\n", pmutool, check_events);
		return -1;
	}
	double r = w[1].median / w[0].median;
	printf("e. whole processes, fork + exec + wait, the perf generic events cycles, "
	       "instructions, branch-misses (medians of %d rounds)\n", rounds);
	printf("   libpfm4 check_events A B C (baseline): %8.3f ms\n", w[0].median * 1e3);
	printf("   pmutool check A,B,C:                   %8.3f ms = %.2fx (goal <= 1.1x: %s)\n",
	       w[1].median * 1e3, r, met(r <= 1.1));
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

/* c.'s "NAME:u" strings, each parsed once after setup: only those parses
 * are counted under callgrind (bench-callgrind divides by the count). */
static int one_parse_pass(void)
{
	struct names base = {0};
	struct lists ours = {0};
	int rc = -1;
	if (!pmurt_names(&base) && !lists_build(&ours, &base, pmurt_find, pmurt_encode)) {
		CALLGRIND_TOGGLE_COLLECT;
		rc = pmurt_parse_all(&ours.parse);
		CALLGRIND_TOGGLE_COLLECT;
		printf("%d\n", ours.parse.n);
	}
	lists_free(&ours);
	names_free(&base);
	return rc;
}

static int bench_all(struct pmurt_pmu *pmu, int argc, char **argv)
{
	const char *pmutool = NULL, *check_events = NULL;
	int rounds = 21;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--pmutool") == 0 && i + 1 < argc)
			pmutool = argv[++i];
		else if (strcmp(argv[i], "--check-events") == 0 && i + 1 < argc)
			check_events = argv[++i];
		else if ((rounds = atoi(argv[i])) < 1 || rounds > MAX_ROUNDS)
			rounds = 21;
	}
	/* the processes first: they run without LIBPFM_FORCE_PMU anyway */
	if (pmutool && check_events && bench_processes(pmutool, check_events, rounds))
		return -1;
	if (!(pmutool && check_events))
		printf("e. skipped: give --pmutool PATH --check-events PATH\n");
	printf("\n");
	setenv("LIBPFM_FORCE_PMU", DEFAULT_PFM_PMU, 0);
	int rc = pfm_initialize();
	if (rc != PFM_SUCCESS) {
		fprintf(stderr, "bench_runtime: pfm_initialize with LIBPFM_FORCE_PMU=%s: %s\n",
			getenv("LIBPFM_FORCE_PMU"), pfm_strerror(rc));
		return -1;
	}
	rc = bench_lookups(rounds) || bench_groups(pmu, rounds);
	pfm_terminate();
	return rc;
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
	the_pmu = pmu;
	if (argc > 1 && strcmp(argv[1], "--one-check") == 0)
		rc = one_check(pmu, argc > 2 && strcmp(argv[2], "alt") == 0);
	else if (argc > 1 && strcmp(argv[1], "--one-parse") == 0)
		rc = one_parse_pass();
	else
		rc = bench_all(pmu, argc, argv);
	pmurt_pmu_close(pmu);
	return rc ? 1 : 0;
}
