/*
 * api_test.c - libpmurt's public API is safe to grow and to reuse:
 * pmurt_group_check reads an event array at the caller's element size (a
 * caller built against the older, smaller struct pmurt_event_spec gets the
 * right answer, a newer one with unknown fields set gets -E2BIG).
 *
 * usage: api_test
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pmurt.h"

static int failures;

/* PMURT_0.1's struct pmurt_event_spec, before branch_sample_type: what a
 * caller built against that header holds. */
struct old_event_spec {
	size_t sz;
	uint32_t type;
	uint64_t config;
	uint64_t config1;
	uint64_t code;
	unsigned exclude;
	int precise;
	uint64_t sample_period;
	int event_index;
	char name[64];
};

/* A later header's struct: one field this library does not know. */
struct new_event_spec {
	struct pmurt_event_spec spec;
	uint64_t future_field;
};

static struct old_event_spec old_raw(uint64_t code)
{
	struct old_event_spec e = {.sz = sizeof(e), .type = 4, .config = code, .code = code,
				   .event_index = -1};
	snprintf(e.name, sizeof(e.name), "0x%" PRIx64, code);
	return e;
}

static struct pmurt_event_spec raw(uint64_t code)
{
	struct pmurt_event_spec e = {.sz = sizeof(e), .type = 4, .config = code, .code = code,
				     .event_index = -1};
	snprintf(e.name, sizeof(e.name), "0x%" PRIx64, code);
	return e;
}

static int check_old(struct pmurt_pmu *pmu, const struct old_event_spec *ev, int n,
		     struct pmurt_group_result *res)
{
	struct pmurt_error err = {0};
	*res = (struct pmurt_group_result){.sz = sizeof(*res)};
	int rc = pmurt_group_check(pmu, (const struct pmurt_event_spec *)(const void *)ev, n,
				   sizeof(ev[0]), NULL, res, &err);
	CHECK(rc == 0 && err.code == 0, "older-layout group: rc %d: %s", rc, err.message);
	return rc;
}

/* The older layout is smaller: with the library's own stride its second
 * event would be read from the middle of the first. */
static void test_older_layout(struct pmurt_pmu *pmu)
{
	CHECK(sizeof(struct old_event_spec) < sizeof(struct pmurt_event_spec),
	      "old layout %zu bytes, current %zu", sizeof(struct old_event_spec),
	      sizeof(struct pmurt_event_spec));
	struct pmurt_group_result res;
	struct old_event_spec fits[3] = {old_raw(0x100f0), old_raw(0x200f4), old_raw(0x300fc)};
	if (!check_old(pmu, fits, 3, &res)) {
		CHECK(res.ok && res.n == 3, "PMC1+PMC2+PMC3 events: ok %d n %d (%s)", res.ok,
		      res.n, res.message);
		for (int i = 0; i < 3 && res.ok; i++)
			CHECK(res.pmc[i] == i + 1 && res.final_events[i] == fits[i].code,
			      "event %d on PMC%d as 0x%" PRIx64, i, res.pmc[i],
			      res.final_events[i]);
	}
	/* two events both needing PMC1: the kernel refuses the second */
	struct old_event_spec clash[3] = {old_raw(0x200f4), old_raw(0x100f0), old_raw(0x100fc)};
	if (!check_old(pmu, clash, 3, &res))
		CHECK(!res.ok && res.reject_index == 2 &&
		      strcmp(res.reason, "constraint_conflict") == 0,
		      "two PMC1 events: ok %d reject_index %d reason %s", res.ok,
		      res.reject_index, res.reason);
}

static void test_newer_layout(struct pmurt_pmu *pmu)
{
	struct new_event_spec ev[2] = {{raw(0x100f0), 0}, {raw(0x200f4), 0}};
	for (int i = 0; i < 2; i++)
		ev[i].spec.sz = sizeof(ev[i]);
	struct pmurt_group_result res = {.sz = sizeof(res)};
	struct pmurt_error err = {0};
	int rc = pmurt_group_check(pmu, &ev[0].spec, 2, sizeof(ev[0]), NULL, &res, &err);
	CHECK(rc == 0 && res.ok && res.pmc[1] == 2, "newer layout, unknown field 0: rc %d ok %d: %s",
	      rc, res.ok, err.message);
	ev[1].future_field = 1;
	err = (struct pmurt_error){0};
	rc = pmurt_group_check(pmu, &ev[0].spec, 2, sizeof(ev[0]), NULL, &res, &err);
	CHECK(rc == -E2BIG && err.code == -E2BIG && strstr(err.message, "event 1"),
	      "newer layout, unknown field set: rc %d: %s", rc, err.message);
}

static void test_element_size_errors(struct pmurt_pmu *pmu)
{
	struct pmurt_event_spec ev[2] = {raw(0x100f0), raw(0x200f4)};
	struct pmurt_group_result res = {.sz = sizeof(res)};
	struct pmurt_error err = {0};
	int rc = pmurt_group_check(pmu, ev, 2, offsetof(struct pmurt_event_spec, name), NULL, &res,
				   &err);
	CHECK(rc == -EINVAL && strstr(err.message, "element size"),
	      "element size below the oldest struct: rc %d: %s", rc, err.message);
	ev[1].sz = sizeof(struct old_event_spec);
	err = (struct pmurt_error){0};
	rc = pmurt_group_check(pmu, ev, 2, sizeof(ev[0]), NULL, &res, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "event 1 has sz"),
	      "an element whose sz differs from the stride: rc %d: %s", rc, err.message);
}

int main(void)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, "power10", NULL, &err)) {
		fprintf(stderr, "api_test: %s\n", err.message);
		return 1;
	}
	test_older_layout(pmu);
	test_newer_layout(pmu);
	test_element_size_errors(pmu);
	pmurt_pmu_close(pmu);
	if (failures)
		fprintf(stderr, "api_test: %d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
