/*
 * fuzz_parse.c - libFuzzer target for pmurt_parse_event over the built-in
 * POWER10 description: any string parses or fails with an errno and a
 * message, never crashes or trips a sanitizer; what parses is a well-formed
 * spec, and goes on through pmurt_group_check as a group of two.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmurt.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pmurt_pmu *pmu; /* opened once for the whole run */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, "power10", NULL, &err))
		abort();
	return 0;
}

static void check_spec(const struct pmurt_event_spec *s)
{
	if (s->sz != sizeof(*s) || s->precise < 0 || s->precise > 3 ||
	    !memchr(s->name, 0, sizeof(s->name)) || !s->name[0])
		abort();
	if (s->type != 0 && s->type != 3 && s->type != 4)
		abort();
	if (s->type == 4 && s->config != s->code)
		abort();
	if (s->exclude & ~(PMURT_EXCLUDE_USER | PMURT_EXCLUDE_KERNEL | PMURT_EXCLUDE_HV |
			   PMURT_EXCLUDE_IDLE))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the string in a heap block of its exact size: ASan sees a read past
	 * its NUL */
	if (size > 2047)
		size = 2047;
	char *buf = malloc(size + 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = 0;
	struct pmurt_event_spec s = PMURT_OPTS_INIT(pmurt_event_spec);
	struct pmurt_error err = {0};
	int rc = pmurt_parse_event(pmu, buf, &s, &err);
	free(buf);
	if (rc) {
		if (rc > 0 || err.code != rc || !err.message[0] ||
		    !memchr(err.message, 0, sizeof(err.message)))
			abort();
		return 0;
	}
	check_spec(&s);
	struct pmurt_event_spec group[2] = {s, s};
	struct pmurt_group_result res = PMURT_OPTS_INIT(pmurt_group_result);
	pmurt_group_check(pmu, group, 2, sizeof(group[0]), NULL, &res, NULL);
	return 0;
}
