/*
 * bench_pmugen.c - pmugen's speed on a full description (POWER10's, or
 * POWER8's: the platform is the description file's name, power8.yaml with
 * power8-events.yaml beside it) against two baselines measured in the same
 * run; prints medians and ratios, asserts nothing.
 *
 * a. In process: libyaml alone parsing the two description files (a document
 *    tree, and the bare event stream pmugen reads), against
 *    pmugen's load, checks and each emitter (DTS, DTB, C, JSON; every event).
 * b. As programs (fork/exec, several runs each, interleaved): perf's
 *    jevents.py turning the same events (perf's JSON of that platform) into C, exactly
 *    as perf's build runs it for powerpc, against `pmugen -f dts,dtb,c,json
 *    --all-events` (one run, four outputs), four one-format runs, and one
 *    `-f c` run, each with its page faults (the fresh pages it touches,
 *    much of a short process's system time); then where the one run's CPU
 *    time goes (starting a process, libyaml's events from part a, pmugen's
 *    own work) and the best ratio that leaves.  jevents.py is not part of
 *    Debian's python3; point at one with --jevents or PMUGEN_JEVENTS
 *    (bench/get-jevents.sh extracts it from the linux-source-6.1 package).
 *    Without it, part b says so and is skipped.
 *
 * Usage: bench_pmugen [--pmugen PATH] [--jevents PATH] [--perf-json DIR]
 *                     [--python PATH] [--runs N] DESCRIPTION.yaml [ITERATIONS]
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#include "bench_stats.h"
#include "emit.h"
#include "pmu_checks.h"
#include "pmu_load.h"

extern char **environ;

struct bench {
	const char *description;
	const char *pmugen;     /* the pmugen program, for part b */
	const char *jevents;    /* perf's jevents.py, for part b */
	const char *perf_json;  /* DIR with mapfile.csv and PLATFORM/ */
	char platform[64];      /* "power10": the description file's name */
	const char *python;
	int iterations;         /* part a */
	int runs;               /* part b */
};

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = n >= 0 ? malloc(n > 0 ? (size_t)n : 1) : NULL;
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* --- a. in process --------------------------------------------------------- */

/* Baseline: libyaml builds the document trees of both files and frees them. */
static int parse_only(unsigned char *const *bufs, const size_t *lens, int nfiles)
{
	for (int i = 0; i < nfiles; i++) {
		yaml_parser_t parser;
		yaml_document_t doc;
		yaml_parser_initialize(&parser);
		yaml_parser_set_input_string(&parser, bufs[i], lens[i]);
		int ok = yaml_parser_load(&parser, &doc);
		if (ok)
			yaml_document_delete(&doc);
		yaml_parser_delete(&parser);
		if (!ok)
			return -1;
	}
	return 0;
}

/* The least any libyaml reader does: the event stream of both files, no
 * tree (pmugen's reader is built on these events). */
static int events_only(unsigned char *const *bufs, const size_t *lens, int nfiles)
{
	for (int i = 0; i < nfiles; i++) {
		yaml_parser_t parser;
		yaml_event_t ev;
		int ok = 1, done = 0;
		yaml_parser_initialize(&parser);
		yaml_parser_set_input_string(&parser, bufs[i], lens[i]);
		while (ok && !done) {
			ok = yaml_parser_parse(&parser, &ev);
			done = ok && ev.type == YAML_STREAM_END_EVENT;
			if (ok)
				yaml_event_delete(&ev);
		}
		yaml_parser_delete(&parser);
		if (!ok)
			return -1;
	}
	return 0;
}

enum { STEP_LOAD, STEP_CHECK, STEP_DTS, STEP_DTB, STEP_C, STEP_JSON, STEP_COUNT };

static const char *const step_names[STEP_COUNT] = {
	"load (YAML -> model)", "checks", "emit DTS", "emit DTB", "emit C", "emit JSON"};

typedef int (*emitter)(const struct pmu_model *, const struct emit_options *, FILE *,
		       struct pmu_error *);

static int emit_to_memory(emitter emit, const struct pmu_model *m, const struct emit_options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pmu_error err = {0};
	int rc = f ? emit(m, o, f, &err) : -1;
	if (f)
		fclose(f);
	free(buf);
	return rc;
}

/* pmugen's pipeline, each step timed into t[STEP_*]. */
static int pipeline(const char *path, const char *platform, double *t)
{
	static const emitter emitters[] = {emit_dts, emit_dtb, emit_c, emit_json};
	struct pmu_diag d;
	struct pmu_model m;
	pmu_diag_init(&d, NULL);
	d.level[PMU_CHK_KERNEL_LIMITS] = PMU_SEV_OFF;
	double t0 = now();
	if (pmu_load_yaml_file(&m, path, &d))
		return -1;
	double t1 = now();
	int rc = pmu_check_model(&m, &d, true);
	double t2 = now();
	t[STEP_LOAD] = t1 - t0;
	t[STEP_CHECK] = t2 - t1;
	char input[80];
	snprintf(input, sizeof(input), "%s.yaml", platform);
	struct emit_options o = {true, input};
	for (int i = 0; i < 4 && !rc; i++) {
		t0 = now();
		rc = emit_to_memory(emitters[i], &m, &o);
		t[STEP_DTS + i] = now() - t0;
	}
	pmu_model_free(&m);
	return rc;
}

/* Part a; *events_median gets libyaml's event-stream time, for part b. */
static int bench_in_process(const struct bench *b, double *events_median)
{
	char events[4096];
	snprintf(events, sizeof(events), "%s", b->description);
	char *slash = strrchr(events, '/');
	size_t at = slash ? (size_t)(slash + 1 - events) : 0;
	snprintf(events + at, sizeof(events) - at, "%s-events.yaml", b->platform);
	unsigned char *bufs[2];
	size_t lens[2];
	bufs[0] = slurp(b->description, &lens[0]);
	bufs[1] = slurp(events, &lens[1]);
	double t[STEP_COUNT];
	int n = b->iterations;
	double *base = calloc((size_t)n, sizeof(double));
	double *stream = calloc((size_t)n, sizeof(double));
	double *steps = calloc((size_t)n * STEP_COUNT, sizeof(double));
	double *total = calloc((size_t)n, sizeof(double));
	int rc = !bufs[0] || !bufs[1] || !base || !stream || !steps || !total ||
		 pipeline(b->description, b->platform, t) || parse_only(bufs, lens, 2);
	if (rc)
		fprintf(stderr, "bench_pmugen: cannot load %s\n", b->description);
	for (int i = 0; i < n && !rc; i++) {
		double t0 = now();
		parse_only(bufs, lens, 2);
		base[i] = now() - t0;
		t0 = now();
		events_only(bufs, lens, 2);
		stream[i] = now() - t0;
		t0 = now();
		pipeline(b->description, b->platform, t);
		total[i] = now() - t0;
		for (int s = 0; s < STEP_COUNT; s++)
			steps[s * n + i] = t[s];
	}
	if (!rc) {
		printf("a. in process, medians of %d iterations (every event):\n", n);
		printf("   libyaml parse only (baseline)   %8.3f ms\n", median(base, n) * 1e3);
		*events_median = median(stream, n);
		printf("   libyaml events only (no tree)   %8.3f ms\n", *events_median * 1e3);
		for (int s = 0; s < STEP_COUNT; s++)
			printf("   pmugen %-24s %8.3f ms\n", step_names[s], median(steps + s * n, n) * 1e3);
		double whole = median(total, n);
		printf("   pmugen load+checks+4 outputs    %8.3f ms = %.2fx libyaml's time\n",
		       whole * 1e3, whole / median(base, n));
	}
	free(base);
	free(stream);
	free(steps);
	free(total);
	free(bufs[0]);
	free(bufs[1]);
	return rc;
}

/* --- b. as programs ---------------------------------------------------------- */

/* Run argv (output to /dev/null) and wait; the wall time, or -1 when it
 * cannot run or fails.  *cpu gets the child's user + system time, *faults
 * its page faults (each a fresh page the process touched). */
static double run_program(char *const *argv, double *cpu, double *faults)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int status;
	double t0 = now();
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	struct rusage ru;
	if (rc != 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	double wall = now() - t0;
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
	*faults = (double)(ru.ru_minflt + ru.ru_majflt);
	return wall;
}

#define MAX_STEPS 4

/* One measured thing: up to MAX_STEPS programs run one after the other. */
struct job {
	const char *label;
	char *argv[MAX_STEPS][16];   /* each NULL-terminated */
	int nsteps;
	double *times, *cpu;    /* wall and CPU time per run */
	double *faults;         /* page faults per run */
};

/* Wall time of the job (all its steps), or -1; *cpu gets their CPU time,
 * *faults their page faults. */
static double run_job(const struct job *j, double *cpu, double *faults)
{
	double sum = 0;
	*cpu = 0;
	*faults = 0;
	for (int s = 0; s < j->nsteps; s++) {
		double c = 0, f = 0, t = run_program(j->argv[s], &c, &f);
		*cpu += c;
		*faults += f;
		if (t < 0) {
			fprintf(stderr, "bench_pmugen: failed:");
			for (char *const *a = j->argv[s]; *a; a++)
				fprintf(stderr, " %s", *a);
			fprintf(stderr, "\n");
			return -1;
		}
		sum += t;
	}
	return sum;
}

/* perf's arch tree for powerpc, the platform only: powerpc/mapfile.csv (its
 * rows), powerpc/PLATFORM (perf's JSON) and test/ (jevents.py always
 * reads it; perf's own test events when they sit beside jevents.py). */
static int make_arch_tree(const struct bench *b, const char *dir)
{
	char path[4200], from[4200], line[1024];
	snprintf(path, sizeof(path), "%s/powerpc", dir);
	if (mkdir(path, 0777))
		return -1;
	snprintf(path, sizeof(path), "%s/powerpc/%s", dir, b->platform);
	snprintf(from, sizeof(from), "%s/%s", b->perf_json, b->platform);
	char *abs = realpath(from, NULL);
	int rc = abs ? symlink(abs, path) : -1;
	free(abs);
	snprintf(from, sizeof(from), "%s", b->jevents);
	char *slash = strrchr(from, '/');
	size_t at = slash ? (size_t)(slash + 1 - from) : 0;
	snprintf(from + at, sizeof(from) - at, "arch/test");
	snprintf(path, sizeof(path), "%s/test", dir);
	abs = realpath(from, NULL);
	rc = rc ? rc : abs ? symlink(abs, path) : mkdir(path, 0777);
	free(abs);
	snprintf(from, sizeof(from), "%s/mapfile.csv", b->perf_json);
	snprintf(path, sizeof(path), "%s/powerpc/mapfile.csv", dir);
	FILE *in = fopen(from, "r"), *out = fopen(path, "w");
	char row[80];
	snprintf(row, sizeof(row), ",%s,", b->platform);
	while (in && out && fgets(line, sizeof(line), in))
		if (line[0] == '#' || strstr(line, row))
			fputs(line, out);
	rc = rc ? rc : !in || !out;
	if (in)
		fclose(in);
	if (out && fclose(out))
		rc = -1;
	return rc;
}

static const char *jevents_path(const struct bench *b)
{
	if (b->jevents)
		return b->jevents;
	const char *env = getenv("PMUGEN_JEVENTS");
	if (env && *env)
		return env;
	/* where bench/get-jevents.sh puts it by default */
	static char cached[4096];
	const char *cache = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	if (cache && *cache)
		snprintf(cached, sizeof(cached), "%s/pmudt/jevents/jevents.py", cache);
	else
		snprintf(cached, sizeof(cached), "%s/.cache/pmudt/jevents/jevents.py",
			 home ? home : "");
	return cached;
}

static void print_skip(const char *why)
{
	printf("b. against perf's jevents.py: skipped: %s.\n"
	       "   jevents.py comes with the kernel source: apt-get install linux-source-6.1,\n"
	       "   then bench/get-jevents.sh (extracts it to ~/.cache/pmudt/jevents), or pass\n"
	       "   --jevents PATH / set PMUGEN_JEVENTS.\n", why);
}

enum { JOB_JEVENTS, JOB_ONE_RUN, JOB_FOUR_RUNS, JOB_ONE_C, JOB_FLOOR, JOB_COUNT };

static void setup_jobs(const struct bench *b, struct job *jobs, char *tmp, char *arch,
		       char outs[][256], char *jev_out)
{
	static char *formats[] = {"dts", "dtb", "c", "json"};
	char *pmugen = (char *)b->pmugen, *desc = (char *)b->description;
	jobs[JOB_JEVENTS] = (struct job){.label = "jevents.py (perf's build, powerpc)", .argv = {{
		(char *)b->python, (char *)b->jevents, "powerpc", arch, jev_out, NULL}}, .nsteps = 1};
	jobs[JOB_ONE_RUN] = (struct job){.label = "pmugen -f dts,dtb,c,json (one run)", .argv = {{
		pmugen, "-q", "--all-events", "-W", "no-kernel-limits", "-f", "dts,dtb,c,json",
		"--out-dir", tmp, desc, NULL}}, .nsteps = 1};
	jobs[JOB_FOUR_RUNS] = (struct job){.label = "pmugen, four one-format runs", .nsteps = 4};
	for (int f = 0; f < 4; f++) {
		char **a = jobs[JOB_FOUR_RUNS].argv[f];
		int k = 0;
		a[k++] = pmugen;
		a[k++] = "-q";
		if (f < 2) /* --all-events applies to dts and dtb only */
			a[k++] = "--all-events";
		a[k++] = "-W";
		a[k++] = "no-kernel-limits";
		a[k++] = "-f";
		a[k++] = formats[f];
		a[k++] = "-o";
		a[k++] = outs[f];
		a[k++] = desc;
		a[k] = NULL;
	}
	jobs[JOB_ONE_C] = (struct job){.label = "pmugen -f c (one output)", .argv = {{
		pmugen, "-q", "-W", "no-kernel-limits", "-f", "c", "-o", outs[2], desc, NULL}}, .nsteps = 1};
	/* a process that loads pmugen's libraries and does nothing: the floor */
	jobs[JOB_FLOOR] = (struct job){.label = "pmugen --version (starting a process)", .argv = {{
		pmugen, "--version", NULL}}, .nsteps = 1};
}

static void print_ratio(const char *what, const double *wall, const double *cpu, int job)
{
	printf("   jevents.py / %-38s %6.1fx wall, %6.1fx CPU\n", what,
	       wall[JOB_JEVENTS] / wall[job], cpu[JOB_JEVENTS] / cpu[job]);
}

/* Where the CPU time of pmugen's one run goes, and what that leaves as the
 * best ratio a libyaml-based pmugen could reach on this machine. */
static void report_floor(const double *cpu, const double *faults, double libyaml)
{
	double start = cpu[JOB_FLOOR], run = cpu[JOB_ONE_RUN];
	printf("   pmugen's one run, CPU: %.2f ms starting the process + %.2f ms libyaml's events "
	       "(part a) + %.2f ms pmugen's own work\n", start * 1e3, libyaml * 1e3,
	       (run - start - libyaml) * 1e3);
	printf("   pmugen's one run touches %.0f fresh pages (page faults), %.0f more than "
	       "starting the process\n", faults[JOB_ONE_RUN], faults[JOB_ONE_RUN] - faults[JOB_FLOOR]);
	printf("   (goal >= 20x; starting a process caps it at %.1fx CPU, and with libyaml's "
	       "events at %.1fx)\n", cpu[JOB_JEVENTS] / start, cpu[JOB_JEVENTS] / (start + libyaml));
}

static void report(const struct bench *b, const char *jevents, struct job *jobs, double libyaml)
{
	double wall[JOB_COUNT], cpu[JOB_COUNT], faults[JOB_COUNT];
	printf("b. as programs, medians of %d interleaved runs (%s %s):\n", b->runs, b->python,
	       jevents);
	printf("   %-44s %8s %8s %7s\n", "", "wall", "CPU", "faults");
	for (int j = 0; j < JOB_COUNT; j++) {
		wall[j] = median(jobs[j].times, b->runs);
		cpu[j] = median(jobs[j].cpu, b->runs);
		faults[j] = median(jobs[j].faults, b->runs);
		printf("   %-44s %6.2f ms %6.2f ms %7.0f\n", jobs[j].label, wall[j] * 1e3,
		       cpu[j] * 1e3, faults[j]);
	}
	print_ratio("pmugen, four outputs in one run:", wall, cpu, JOB_ONE_RUN);
	report_floor(cpu, faults, libyaml);
	print_ratio("pmugen, four one-format runs:", wall, cpu, JOB_FOUR_RUNS);
	print_ratio("pmugen, one output (-f c):", wall, cpu, JOB_ONE_C);
}

static int bench_programs(const struct bench *b, const char *jevents, double libyaml)
{
	char tmp[] = "/tmp/bench_pmugen.XXXXXX";
	if (!mkdtemp(tmp))
		return -1;
	char arch[256], jev_out[256], outs[4][256], cleanup[300];
	snprintf(arch, sizeof(arch), "%s/arch", tmp);
	snprintf(jev_out, sizeof(jev_out), "%s/pmu-events.c", tmp);
	for (int f = 0; f < 4; f++)
		snprintf(outs[f], sizeof(outs[f]), "%s/single.%d", tmp, f);
	struct bench with = *b;
	with.jevents = jevents;
	int rc = mkdir(arch, 0777) || make_arch_tree(&with, arch);
	if (rc)
		fprintf(stderr, "bench_pmugen: cannot build perf's arch tree from %s\n",
			b->perf_json);
	struct job jobs[JOB_COUNT] = {0};
	setup_jobs(&with, jobs, tmp, arch, outs, jev_out);
	double cpu, faults;
	for (int j = 0; j < JOB_COUNT && !rc; j++) {
		jobs[j].times = calloc((size_t)b->runs, sizeof(double));
		jobs[j].cpu = calloc((size_t)b->runs, sizeof(double));
		jobs[j].faults = calloc((size_t)b->runs, sizeof(double));
		/* a warm-up run, which also checks that the job works */
		rc = !jobs[j].times || !jobs[j].cpu || !jobs[j].faults ||
		     run_job(&jobs[j], &cpu, &faults) < 0;
	}
	/* interleaved, so that a busy moment costs every job alike */
	for (int r = 0; r < b->runs && !rc; r++)
		for (int j = 0; j < JOB_COUNT && !rc; j++)
			rc = (jobs[j].times[r] = run_job(&jobs[j], &jobs[j].cpu[r],
							 &jobs[j].faults[r])) < 0;
	if (!rc)
		report(b, jevents, jobs, libyaml);
	for (int j = 0; j < JOB_COUNT; j++) {
		free(jobs[j].times);
		free(jobs[j].cpu);
		free(jobs[j].faults);
	}
	snprintf(cleanup, sizeof(cleanup), "rm -rf '%s'", tmp);
	if (system(cleanup) != 0)
		fprintf(stderr, "bench_pmugen: could not remove %s\n", tmp);
	return rc;
}

static int usage(const char *prog)
{
	fprintf(stderr, "usage: %s [--pmugen PATH] [--jevents PATH] [--perf-json DIR] "
		"[--python PATH] [--runs N] DESCRIPTION.yaml [ITERATIONS]\n", prog);
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"pmugen", required_argument, NULL, 'p'},
		{"jevents", required_argument, NULL, 'j'},
		{"perf-json", required_argument, NULL, 'J'},
		{"python", required_argument, NULL, 'P'},
		{"runs", required_argument, NULL, 'r'},
		{NULL, 0, NULL, 0}};
	/* Debian's interpreter, as perf's build uses it, rather than whatever
	 * wrapper may come first on PATH */
	struct bench b = {.python = "/usr/bin/python3", .iterations = 20, .runs = 9};
	int opt;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p': b.pmugen = optarg; break;
		case 'j': b.jevents = optarg; break;
		case 'J': b.perf_json = optarg; break;
		case 'P': b.python = optarg; break;
		case 'r': b.runs = atoi(optarg); break;
		default: return usage(argv[0]);
		}
	}
	if (optind >= argc || argc - optind > 2 || b.runs < 1)
		return usage(argv[0]);
	b.description = argv[optind];
	const char *base = strrchr(b.description, '/');
	snprintf(b.platform, sizeof(b.platform), "%.*s", (int)strcspn(base ? base + 1 : b.description, "."),
		 base ? base + 1 : b.description);
	if (argc - optind == 2 && (b.iterations = atoi(argv[optind + 1])) < 1)
		return usage(argv[0]);
	double libyaml;
	if (bench_in_process(&b, &libyaml))
		return 1;
	const char *jevents = jevents_path(&b);
	if (!b.pmugen || !b.perf_json)
		print_skip("no --pmugen PROGRAM and --perf-json DIR given");
	else if (access(jevents, R_OK) != 0) {
		char why[4200];
		snprintf(why, sizeof(why), "no readable jevents.py at %s", jevents);
		print_skip(why);
	}
	else if (access(b.python, X_OK) != 0)
		print_skip("no python3 (Debian package python3)");
	else if (bench_programs(&b, jevents, libyaml))
		return 1;
	return 0;
}
