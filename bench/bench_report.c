/*
 * bench_report.c - pmutool report against perf report on the same perf.data
 * file, measured in the same run:
 *   the file: `perf record -e cpu-clock -c PERIOD -g` of a CPU-bound
 *   workload (tests/perfdata/pd_spin), recorded here by Debian's perf 6.1;
 *   a. `perf report --stdio -g none --sort comm,dso,sym` (the baseline: the
 *      same table pmutool prints) against `pmutool report -i FILE`;
 *   b. perf report's default (`perf report --stdio`, call graphs included)
 *      against the same, for scale;
 *   a second file: `perf record --call-graph dwarf -c PERIOD_DWARF` of the
 *   same workload, every sample's user stack to unwind (perf 6.1 with
 *   libunwind, a session per sample; pmutool with libdwfl, a session per
 *   process and maps):
 *   c. `perf script --no-inline` (baseline) against `pmutool script`;
 *   d. `perf report --stdio --no-inline` against `pmutool report`;
 *   with --pd-synth, a third file: `pd_synth --plt-sweep` of libstdc++ (a
 *   sample every 4 bytes over its .init, .plt and .plt.got: reading the
 *   library's symbols, and modelling perf's symbol tree to name its PLT
 *   entries, is most of the work):
 *   e. `perf script` (baseline) against `pmutool script`;
 *   f. on a larger file (PPROF_SECONDS of the workload: some 180,000
 *      samples), `pmutool report -i FILE` (the baseline) against `pmutool
 *      report -i FILE --pprof OUT` (issue 27: goal within 1.5x, on CPU
 *      time), and the profile's size against the perf.data file's.
 * Whole processes (fork, exec, wait; output to /dev/null), alternating
 * within each round after one warm-up run each (perf's build-id cache and
 * pmutool's kernel-symbol cache filled, as on a user's second run); medians
 * over ROUNDS rounds of wall and of CPU (user + system) time, ratios of the
 * medians, printed against the goal (at least 5x faster, on wall time),
 * never asserted.
 *
 * usage: bench_report --pmutool PATH --workload PATH [--pd-synth PATH] [ROUNDS]
 *        (default 7)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"

#define MAX_ROUNDS 101
#define PERIOD "20000"        /* ns of cpu-clock: 50,000 samples per second */
#define WORKLOAD_SECONDS "1.5"
#define PERIOD_DWARF "1000000"  /* 1,000 samples a second, 8 KB of stack each */
#define PPROF_SECONDS "11"    /* some 180,000 samples, with perf's throttling */

/* Runs argv (output to /dev/null unless keep_output); its wall time in
 * seconds, or -1 when it did not exit 0; its CPU time (user + system) in
 * *cpu. */
static double run(char *const *argv, bool keep_output, double *cpu)
{
	double t0 = now();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null < 0 || (!keep_output && dup2(null, 1) < 0) || dup2(null, 2) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	if (cpu)
		*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
	return now() - t0;
}

static const char *met(bool ok)
{
	return ok ? "met" : "NOT met";
}

/* Median wall and CPU seconds of each command, rounds alternating between
 * them (one unmeasured run each first: caches warm, as a user's second run). */
static int measure(char *const *cmds[], int n, int rounds, double *wall, double *cpu)
{
	static double t[4][MAX_ROUNDS], c[4][MAX_ROUNDS];
	for (int r = -1; r < rounds; r++)
		for (int k = 0; k < n; k++) {
			double w, u;
			if ((w = run(cmds[k], false, &u)) < 0) {
				fprintf(stderr, "bench_report: %s %s failed\n", cmds[k][0], cmds[k][1]);
				return -1;
			}
			if (r >= 0)
				t[k][r] = w, c[k][r] = u;
		}
	for (int k = 0; k < n; k++) {
		qsort(t[k], (size_t)rounds, sizeof(double), cmp_double);
		qsort(c[k], (size_t)rounds, sizeof(double), cmp_double);
		wall[k] = t[k][rounds / 2];
		cpu[k] = c[k][rounds / 2];
	}
	return 0;
}

/* f.: report against report --pprof on a file of some 180,000 samples. */
static int bench_pprof(const char *pmutool, const char *workload, const char *dir, int rounds)
{
	char file[96], out[96];
	snprintf(file, sizeof(file), "%s/big.data", dir);
	snprintf(out, sizeof(out), "%s/big.pb.gz", dir);
	char *record[] = {"perf", "record", "-q", "-e", "cpu-clock", "-c", PERIOD, "-g", "-o", file,
			  "--", (char *)workload, PPROF_SECONDS, NULL};
	struct stat st, pst;
	if (run(record, false, NULL) < 0 || stat(file, &st) < 0) {
		fprintf(stderr, "bench_report: perf record failed\n");
		return -1;
	}
	char *table[] = {(char *)pmutool, "report", "-i", file, NULL};
	char *pprof[] = {(char *)pmutool, "report", "-i", file, "--pprof", out, NULL};
	char *const *cmds[] = {table, pprof};
	double m[2], u[2];
	int rc = measure(cmds, 2, rounds, m, u);
	if (!rc && stat(out, &pst) == 0) {
		printf("f. `perf record -e cpu-clock -c %s -g -- pd_spin %s` (%.1f MB), medians of %d "
		       "rounds, wall (CPU)\n", PERIOD, PPROF_SECONDS, (double)st.st_size / 1e6, rounds);
		printf("   pmutool report -i FILE (baseline):          %7.1f ms (%6.1f ms)\n",
		       m[0] * 1e3, u[0] * 1e3);
		printf("   pmutool report -i FILE --pprof OUT:         %7.1f ms (%6.1f ms) = %.2fx "
		       "(%.2fx) the baseline (goal <= 1.5x on CPU: %s)\n", m[1] * 1e3, u[1] * 1e3,
		       m[1] / m[0], u[1] / u[0], met(u[1] / u[0] <= 1.5));
		printf("   profile %.1f KB = %.2f%% of the perf.data file\n", (double)pst.st_size / 1e3,
		       100.0 * (double)pst.st_size / (double)st.st_size);
	}
	unlink(out);
	unlink(file);
	return rc;
}

/* libstdc++'s path, as g++ links it, into path; 0 or -1. */
static int libstdcxx(char *path, size_t len)
{
	char line[4096];
	FILE *p = popen("g++ -print-file-name=libstdc++.so.6 2>/dev/null", "r");
	bool got = p && fgets(line, sizeof(line), p);
	if (p)
		pclose(p);
	line[got ? strcspn(line, "\n") : 0] = 0;
	if (!got || !realpath(line, path) || strlen(path) >= len) {
		fprintf(stderr, "bench_report: no libstdc++ from g++: install the Debian package "
			"build-essential (.ci/install-deps)\n");
		return -1;
	}
	return 0;
}

/* e.: a pd_synth --plt-sweep file of libstdc++, perf script against
 * pmutool script.  0 or 1. */
static int plt_sweep(const char *pmutool, const char *pd_synth, const char *dir, int rounds)
{
	char lib[PATH_MAX], file[64];
	if (libstdcxx(lib, sizeof(lib)))
		return 1;
	snprintf(file, sizeof(file), "%s/sweep.data", dir);
	char *synth[] = {(char *)pd_synth, file, "--plt-sweep", lib, NULL};
	char *perf_script[] = {"perf", "script", "-i", file, NULL};
	char *our_script[] = {(char *)pmutool, "script", "-i", file, NULL};
	char *const *cmds[] = {perf_script, our_script};
	double m[4], u[4];
	int rc = run(synth, false, NULL) < 0 ? -1 : measure(cmds, 2, rounds, m, u);
	if (!rc) {
		printf("PLT: `pd_synth --plt-sweep %s` (a sample every 4 bytes of .init, .plt, "
		       ".plt.got)\n", lib);
		printf("e. perf script (baseline):                                    %7.1f ms "
		       "(%6.1f ms)\n", m[0] * 1e3, u[0] * 1e3);
		printf("   pmutool script:                                             %7.1f ms (%6.1f ms) = "
		       "%.1fx (%.1fx) faster\n", m[1] * 1e3, u[1] * 1e3, m[0] / m[1], u[0] / u[1]);
	} else {
		fprintf(stderr, "bench_report: pd_synth --plt-sweep %s failed\n", lib);
	}
	unlink(file);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *pmutool = NULL, *workload = NULL, *pd_synth = NULL;
	int rounds = 7;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--pmutool") && i + 1 < argc)
			pmutool = argv[++i];
		else if (!strcmp(argv[i], "--workload") && i + 1 < argc)
			workload = argv[++i];
		else if (!strcmp(argv[i], "--pd-synth") && i + 1 < argc)
			pd_synth = argv[++i];
		else
			rounds = atoi(argv[i]);
	}
	if (!pmutool || !workload || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: bench_report --pmutool PATH --workload PATH [--pd-synth PATH] "
			"[ROUNDS]\n");
		return 2;
	}
	char *version[] = {"perf", "--version", NULL};
	if (run(version, false, NULL) < 0) {
		fprintf(stderr, "bench_report: perf is missing: install the Debian package "
			"linux-perf (.ci/install-deps)\n");
		return 1;
	}
	char dir[] = "/tmp/bench-report.XXXXXX", file[64];
	if (!mkdtemp(dir))
		return 1;
	snprintf(file, sizeof(file), "%s/perf.data", dir);
	char *record[] = {"perf", "record", "-q", "-e", "cpu-clock", "-c", PERIOD, "-g", "-o", file,
			  "--", (char *)workload, WORKLOAD_SECONDS, NULL};
	struct stat st;
	if (run(record, false, NULL) < 0 || stat(file, &st) < 0) {
		fprintf(stderr, "bench_report: perf record failed (needs root or "
			"perf_event_paranoid <= 1)\n");
		return 1;
	}
	char *perf_table[] = {"perf", "report", "--stdio", "-i", file, "-g", "none", "--sort",
			      "comm,dso,sym", NULL};
	char *perf_default[] = {"perf", "report", "--stdio", "-i", file, NULL};
	char *ours[] = {(char *)pmutool, "report", "-i", file, NULL};
	char *const *cmds[] = {perf_table, ours, perf_default};
	double m[4], u[4];
	int rc = measure(cmds, 3, rounds, m, u);
	if (!rc) {
		printf("report: perf.data of `perf record -e cpu-clock -c %s -g -- pd_spin %s` "
		       "(%.1f MB), medians of %d rounds, wall (CPU)\n", PERIOD, WORKLOAD_SECONDS,
		       (double)st.st_size / 1e6, rounds);
		printf("a. perf report --stdio -g none --sort comm,dso,sym (baseline): %7.1f ms "
		       "(%6.1f ms)\n", m[0] * 1e3, u[0] * 1e3);
		printf("   pmutool report -i FILE:                                     %7.1f ms (%6.1f ms) = "
		       "%.1fx (%.1fx) faster (goal >= 5x: %s)\n", m[1] * 1e3, u[1] * 1e3, m[0] / m[1],
		       u[0] / u[1], met(m[0] / m[1] >= 5));
		printf("b. perf report --stdio (call graphs):                          %7.1f ms (%6.1f ms) = "
		       "pmutool %.1fx (%.1fx) faster\n", m[2] * 1e3, u[2] * 1e3, m[2] / m[1],
		       u[2] / u[1]);
	}
	char dwarf[64];
	snprintf(dwarf, sizeof(dwarf), "%s/dwarf.data", dir);
	char *record_dwarf[] = {"perf", "record", "-q", "-e", "cpu-clock", "-c", PERIOD_DWARF,
				"--call-graph", "dwarf", "-o", dwarf, "--", (char *)workload,
				WORKLOAD_SECONDS, NULL};
	if (!rc && (run(record_dwarf, false, NULL) < 0 || stat(dwarf, &st) < 0)) {
		fprintf(stderr, "bench_report: perf record --call-graph dwarf failed\n");
		rc = 1;
	}
	char *perf_script[] = {"perf", "script", "--no-inline", "-i", dwarf, NULL};
	char *our_script[] = {(char *)pmutool, "script", "-i", dwarf, NULL};
	char *perf_graph[] = {"perf", "report", "--stdio", "--no-inline", "-i", dwarf, NULL};
	char *our_graph[] = {(char *)pmutool, "report", "-i", dwarf, NULL};
	char *const *dwarf_cmds[] = {perf_script, our_script, perf_graph, our_graph};
	if (!rc && !(rc = measure(dwarf_cmds, 4, rounds, m, u))) {
		printf("--call-graph dwarf: `perf record -e cpu-clock -c %s --call-graph dwarf -- "
		       "pd_spin %s` (%.1f MB)\n", PERIOD_DWARF, WORKLOAD_SECONDS,
		       (double)st.st_size / 1e6);
		printf("c. perf script --no-inline (baseline):                        %7.1f ms "
		       "(%6.1f ms)\n", m[0] * 1e3, u[0] * 1e3);
		printf("   pmutool script:                                             %7.1f ms (%6.1f ms) = "
		       "%.1fx (%.1fx) faster\n", m[1] * 1e3, u[1] * 1e3, m[0] / m[1], u[0] / u[1]);
		printf("d. perf report --stdio --no-inline (baseline):                %7.1f ms "
		       "(%6.1f ms)\n", m[2] * 1e3, u[2] * 1e3);
		printf("   pmutool report:                                             %7.1f ms (%6.1f ms) = "
		       "%.1fx (%.1fx) faster\n", m[3] * 1e3, u[3] * 1e3, m[2] / m[3], u[2] / u[3]);
	}
	unlink(dwarf);
	if (!rc && pd_synth)
		rc = plt_sweep(pmutool, pd_synth, dir, rounds);
	if (!rc)
		rc = bench_pprof(pmutool, workload, dir, rounds);
	unlink(file);
	rmdir(dir);
	return rc ? 1 : 0;
}
