/*
 * bench_pfm.c - libpmurt's libpfm.so.4 against Debian's libpfm4 in one run.
 *   bench_pfm encode OURS.so LIBPFM4.so [ROUNDS]
 *       pfm_get_os_event_encoding (PFM_OS_PERF_EVENT_EXT, with the fully
 *       qualified string, as PAPI calls it) of the same names through each
 *       library, loaded side by side with dlmopen: every name of the core
 *       PMU both present (the POWER events both name) and of the generic
 *       perf PMU, ROUNDS times over (default 20); prints ns per call and
 *       the ratio ours / libpfm4.
 *   bench_pfm startup OURS_DIR RUNS CMD...
 *       CMD run RUNS times with Debian's libpfm4 and RUNS times with
 *       LD_LIBRARY_PATH=OURS_DIR, alternating; prints the median wall time
 *       of each and the ratio (papi_native_avail's start-up in the QEMU
 *       test tests/qemu/libpfm_test.sh).
 * The work is bounded by counts; times are printed, never asserted.
 */
#define _GNU_SOURCE /* dlmopen */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

struct lib {
	const char *path;
	int (*initialize)(void);
	int (*pmu_info)(pfm_pmu_t, pfm_pmu_info_t *);
	int (*event_next)(int);
	int (*event_info)(int, pfm_os_t, pfm_event_info_t *);
	int (*encode)(const char *, int, pfm_os_t, void *);
	void (*free)(void *); /* the C library of the library's own namespace */
};

static int load(struct lib *l, const char *path)
{
	void *h = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "bench_pfm: %s\n", dlerror());
		return -1;
	}
	l->path = path;
	*(void **)&l->initialize = dlsym(h, "pfm_initialize");
	*(void **)&l->pmu_info = dlsym(h, "pfm_get_pmu_info");
	*(void **)&l->event_next = dlsym(h, "pfm_get_event_next");
	*(void **)&l->event_info = dlsym(h, "pfm_get_event_info");
	*(void **)&l->encode = dlsym(h, "pfm_get_os_event_encoding");
	*(void **)&l->free = dlsym(h, "free");
	if (!l->initialize || !l->pmu_info || !l->encode || !l->free ||
	    l->initialize() != PFM_SUCCESS) {
		fprintf(stderr, "bench_pfm: %s: not a working libpfm.so.4\n", path);
		return -1;
	}
	return 0;
}

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* "pmu::event" for every event of the present PMUs of type core or perf */
static char **names_of(const struct lib *l, int *n)
{
	char **v = NULL;
	*n = 0;
	for (int id = 0; id < 1024; id++) {
		pfm_pmu_info_t p;
		memset(&p, 0, sizeof(p));
		p.size = sizeof(p);
		int rc = l->pmu_info((pfm_pmu_t)id, &p);
		if (rc == PFM_ERR_INVAL)
			break;
		if (rc || !p.is_present || (strcmp(p.name, "perf") && p.type != PFM_PMU_TYPE_CORE))
			continue;
		for (int i = p.first_event; i >= 0; i = l->event_next(i)) {
			pfm_event_info_t e;
			memset(&e, 0, sizeof(e));
			e.size = sizeof(e);
			if (l->event_info(i, PFM_OS_NONE, &e) || e.nattrs) /* no unit masks */
				continue;
			v = realloc(v, sizeof(*v) * (size_t)(*n + 1));
			if (!v || asprintf(&v[*n], "%s::%s", p.name, e.name) < 0)
				exit(1);
			(*n)++;
		}
	}
	return v;
}

static double time_encode(const struct lib *l, char **names, int n, int rounds)
{
	double t0 = now_ns();
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < n; i++) {
			struct perf_event_attr attr;
			pfm_perf_encode_arg_t arg;
			char *fstr = NULL;
			memset(&attr, 0, sizeof(attr));
			memset(&arg, 0, sizeof(arg));
			attr.size = sizeof(attr);
			arg.attr = &attr;
			arg.size = sizeof(arg);
			arg.fstr = &fstr;
			if (l->encode(names[i], PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg))
				fprintf(stderr, "bench_pfm: %s: cannot encode %s\n", l->path, names[i]);
			l->free(fstr);
		}
	}
	return (now_ns() - t0) / ((double)n * rounds);
}

static int encode(const char *ours_path, const char *peer_path, int rounds)
{
	struct lib ours, peer;
	if (load(&ours, ours_path) || load(&peer, peer_path))
		return 1;
	int no, np, n = 0;
	char **vo = names_of(&ours, &no), **vp = names_of(&peer, &np);
	char **both = malloc(sizeof(*both) * (size_t)(no ? no : 1));
	for (int i = 0; both && i < no; i++)
		for (int j = 0; j < np; j++)
			if (strcmp(vo[i], vp[j]) == 0) {
				both[n++] = vo[i];
				break;
			}
	if (!n) {
		fprintf(stderr, "bench_pfm: no name both libraries encode\n");
		return 1;
	}
	int core = 0;
	for (int i = 0; i < n; i++)
		core += strncmp(both[i], "perf::", 6) != 0;
	time_encode(&ours, both, n, 1); /* warm both */
	time_encode(&peer, both, n, 1);
	double to = time_encode(&ours, both, n, rounds);
	double tp = time_encode(&peer, both, n, rounds);
	printf("pfm_get_os_event_encoding over %d names both encode (%d core, %d perf::), "
	       "%d rounds:\n  ours %.0f ns per call, libpfm4 %.0f ns: ratio ours/libpfm4 %.3f\n",
	       n, core, n - core, rounds, to, tp, to / tp);
	return 0;
}

static double run_once(char **cmd, const char *ld_path)
{
	double t0 = now_ns();
	pid_t pid = fork();
	if (pid == 0) {
		ld_path ? setenv("LD_LIBRARY_PATH", ld_path, 1) : unsetenv("LD_LIBRARY_PATH");
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? (now_ns() - t0) / 1e6 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int startup(const char *ours_dir, int runs, char **cmd)
{
	double *to = calloc((size_t)runs, sizeof(double)), *tp = calloc((size_t)runs, sizeof(double));
	if (!to || !tp)
		return 1;
	for (int i = 0; i < runs; i++) {
		tp[i] = run_once(cmd, NULL);
		to[i] = run_once(cmd, ours_dir);
		if (tp[i] < 0 || to[i] < 0) {
			fprintf(stderr, "bench_pfm: %s failed\n", cmd[0]);
			return 1;
		}
	}
	qsort(to, (size_t)runs, sizeof(double), cmp_double);
	qsort(tp, (size_t)runs, sizeof(double), cmp_double);
	printf("%s start-up, median of %d runs each: ours %.1f ms, libpfm4 %.1f ms: "
	       "ratio ours/libpfm4 %.3f\n", cmd[0], runs, to[runs / 2], tp[runs / 2],
	       to[runs / 2] / tp[runs / 2]);
	free(to);
	free(tp);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "encode") == 0)
		return encode(argv[2], argv[3], argc > 4 ? atoi(argv[4]) : 20);
	if (argc >= 5 && strcmp(argv[1], "startup") == 0)
		return startup(argv[2], atoi(argv[3]), argv + 4);
	fprintf(stderr, "usage: bench_pfm encode OURS.so LIBPFM4.so [ROUNDS] | "
		"startup OURS_DIR RUNS CMD...\n");
	return 2;
}
