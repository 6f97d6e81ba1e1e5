/*
 * fuzz_evlist.c - libFuzzer target for pmu_evlist_parse, perf's -e lists,
 * over the fake POWER10 LPAR sysfs tree (tests/fakesys/power10-lpar.sh,
 * built once into a temporary directory) and the built-in POWER10
 * description: any string parses or fails with an errno and a message
 * naming an offset, never crashes; what parses is a well-formed list (each
 * leader leads its members, the group sizes add up).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf_int.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pmurt_host *host; /* opened once for the whole run */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	static char dir[] = "/tmp/pmurt-fuzz-evlist.XXXXXX";
	char cmd[512];
	struct pmurt_error err;
	if (!mkdtemp(dir))
		abort();
	snprintf(cmd, sizeof(cmd), "sh '%s' '%s/sys' --test-pmu", FAKESYS_BUILDER, dir);
	if (system(cmd) != 0)
		abort();
	snprintf(cmd, sizeof(cmd), "%s/sys", dir);
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = cmd, .pmu = "power10");
	if (pmurt_host_open(&host, &o, &err))
		abort();
	return 0;
}

static void check_list(const struct pmu_evlist *l)
{
	for (int i = 0; i < l->n;) {
		const struct pmu_evsel *lead = &l->v[i];
		if (lead->leader != i || lead->group_size < 1 || i + lead->group_size > l->n)
			abort();
		for (int k = i; k < i + lead->group_size; k++)
			if (l->v[k].leader != i || !memchr(l->v[k].name, 0, sizeof(l->v[k].name)))
				abort();
		i += lead->group_size;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	struct pmu_evlist l = {0};
	struct pmurt_error err;
	int rc = pmu_evlist_parse(&l, &host->h, s, &err);
	if (rc == 0)
		check_list(&l);
	else if (rc > 0 || err.code != rc || !err.message[0] || l.n != 0)
		abort();
	pmu_evlist_free(&l);
	free(s);
	return 0;
}
