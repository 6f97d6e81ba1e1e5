/*
 * bench_pmugen.c - pmugen's whole pipeline on the full POWER10 description
 * (load + checks + DTS, DTB and C for every event) against the baseline of
 * libyaml alone parsing the same files, measured in the same run.  Prints
 * times per iteration and their ratio; asserts nothing.
 *
 * Usage: bench_pmugen DESCRIPTION.yaml [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yaml.h>

#include "emit.h"
#include "pmu_checks.h"
#include "pmu_load.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

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

/* pmugen: load (both files), check, and write DTS, DTB and C to memory. */
static int full_pipeline(const char *path)
{
	struct pmu_diag d;
	struct pmu_model m;
	pmu_diag_init(&d, NULL);
	d.level[PMU_CHK_KERNEL_LIMITS] = PMU_SEV_OFF;
	if (pmu_load_yaml_file(&m, path, &d) || pmu_check_model(&m, &d, true))
		return -1;
	struct emit_options o = {true, "power10.yaml"};
	int (*emitters[])(const struct pmu_model *, const struct emit_options *, FILE *,
			  struct pmu_error *) = {emit_dts, emit_dtb, emit_c};
	int rc = 0;
	for (int i = 0; i < 3 && !rc; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct pmu_error err = {0};
		rc = f ? emitters[i](&m, &o, f, &err) : -1;
		if (f)
			fclose(f);
		free(buf);
	}
	pmu_model_free(&m);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s DESCRIPTION.yaml [ITERATIONS]\n", argv[0]);
		return 2;
	}
	int iters = argc > 2 ? atoi(argv[2]) : 20;
	char events[4096], *slash;
	snprintf(events, sizeof(events), "%s", argv[1]);
	slash = strrchr(events, '/');
	snprintf(slash ? slash + 1 : events, sizeof(events) - (size_t)(slash ? slash + 1 - events : 0),
		 "power10-events.yaml");
	unsigned char *bufs[2];
	size_t lens[2];
	bufs[0] = slurp(argv[1], &lens[0]);
	bufs[1] = slurp(events, &lens[1]);
	if (!bufs[0] || !bufs[1] || full_pipeline(argv[1]) || parse_only(bufs, lens, 2)) {
		fprintf(stderr, "bench_pmugen: cannot load %s\n", argv[1]);
		return 1;
	}
	double t0 = now();
	for (int i = 0; i < iters; i++)
		parse_only(bufs, lens, 2);
	double base = (now() - t0) / iters;
	t0 = now();
	for (int i = 0; i < iters; i++)
		full_pipeline(argv[1]);
	double full = (now() - t0) / iters;
	printf("libyaml parse only (baseline): %8.3f ms\n", base * 1e3);
	printf("pmugen load+check+DTS+DTB+C:   %8.3f ms\n", full * 1e3);
	printf("ratio pmugen / libyaml:        %8.2fx\n", full / base);
	free(bufs[0]);
	free(bufs[1]);
	return 0;
}
