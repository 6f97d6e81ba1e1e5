/*
 * cpc_test.c - the cpc provider's rules over the built-in POWER10
 * description: the minimum period from a probe's COUNT and from -c, and
 * counters first come, first served between enablings (one -e group each),
 * naming the holders; software events hold no counter; with the
 * single-overflow rule, one enabling only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cpc.h"

static int failures;

/* An enabling of core events as the event list holds it: each string
 * parsed by pmurt_parse_event, the first leading the others. */
static void add_core(struct pmu_evlist *l, const struct pmurt_pmu *pmu, const char *const *names,
		     int n)
{
	int leader = l->n;
	for (int i = 0; i < n; i++) {
		struct pmu_evsel *e = &l->v[l->n++];
		memset(e, 0, sizeof *e);
		e->spec = PMURT_OPTS_INIT(pmurt_event_spec);
		struct pmurt_error err = {0};
		int rc = pmurt_parse_event(pmu, names[i], &e->spec, &err);
		CHECK(rc == 0, "parse %s: %s", names[i], err.message);
		e->kind = PMU_EVSEL_CORE;
		e->attr.type = e->spec.type;
		e->attr.config = e->spec.config;
		e->attr.sample_period = e->spec.sample_period;
		snprintf(e->name, sizeof e->name, "%s", names[i]);
		e->leader = leader;
	}
	l->v[leader].group_size = n;
}

static void add_software(struct pmu_evlist *l, const char *name)
{
	struct pmu_evsel *e = &l->v[l->n];
	memset(e, 0, sizeof *e);
	e->kind = PMU_EVSEL_SOFTWARE;
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.freq = 1;
	e->attr.sample_freq = 4000;
	snprintf(e->name, sizeof e->name, "%s", name);
	e->leader = l->n++;
}

static void test_periods(const struct pmurt_pmu *pmu)
{
	struct pmu_evsel v[4];
	struct pmu_evlist l = {.v = v, .cap = 4};
	const char *probe[] = {"PM_RUN_INST_CMPL-user-1000"};
	add_software(&l, "cpu-clock");
	add_core(&l, pmu, probe, 1);
	struct pmurt_error err = {0};
	int rc = pmu_cpc_check_periods(&l, 0, PMURT_CPC_MIN_PERIOD, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "'PM_RUN_INST_CMPL-user-1000'") &&
	      strstr(err.message, "period 1000") && strstr(err.message, "minimum of 5000") &&
	      strstr(err.message, "dcpc_min_overflow") && strstr(err.message, "--min-period"),
	      "probe COUNT 1000: %d '%s'", rc, err.message);
	err = (struct pmurt_error){0};
	rc = pmu_cpc_check_periods(&l, 0, 1000, &err);
	CHECK(rc == 0, "--min-period 1000 allows COUNT 1000: '%s'", err.message);
	rc = pmu_cpc_check_periods(&l, 4999, PMURT_CPC_MIN_PERIOD, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "'cpu-clock': period 4999"),
	      "-c 4999: the first event is refused: '%s'", err.message);
	err = (struct pmurt_error){0};
	rc = pmu_cpc_check_periods(&l, 5000, PMURT_CPC_MIN_PERIOD, &err);
	CHECK(rc == 0, "-c 5000 is the minimum itself: '%s'", err.message);

	/* a tracepoint's own period 1 is every hit; -c still applies to it */
	struct pmu_evsel tp[1] = {{.kind = PMU_EVSEL_TRACEPOINT, .name = "sched:sched_switch",
				   .attr = {.type = PERF_TYPE_TRACEPOINT, .sample_period = 1}}};
	struct pmu_evlist tl = {.v = tp, .n = 1, .cap = 1};
	rc = pmu_cpc_check_periods(&tl, 0, PMURT_CPC_MIN_PERIOD, &err);
	CHECK(rc == 0, "tracepoint's own period: '%s'", err.message);
	rc = pmu_cpc_check_periods(&tl, 10, PMURT_CPC_MIN_PERIOD, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "period 10"), "tracepoint -c 10: '%s'",
	      err.message);
}

static void test_counters(const struct pmurt_pmu *pmu)
{
	struct pmu_evsel v[8];
	struct pmu_evlist l = {.v = v, .cap = 8};
	const char *flop[] = {"PM_FLOP_CMPL-all-10000"};
	const char *group[] = {"0x200fa", "0x300fc"};
	const char *pmc1[] = {"0x100fc"};
	add_core(&l, pmu, flop, 1);
	add_software(&l, "cpu-clock");
	add_core(&l, pmu, group, 2);
	struct pmurt_error err = {0};
	struct pmurt_group_result held = PMURT_OPTS_INIT(pmurt_group_result);
	int rc = pmu_cpc_check_counters(pmu, &l, true, false, &held, &err);
	CHECK(rc == 0, "three events on PMC1-3 fit: '%s'", err.message);
	CHECK(held.ok && held.n == 3 && held.pmc[0] == 1 && held.pmc[1] == 2 && held.pmc[2] == 3,
	      "counters held: n %d, PMC%d PMC%d PMC%d", held.n, held.pmc[0], held.pmc[1],
	      held.pmc[2]);
	add_core(&l, pmu, pmc1, 1);
	rc = pmu_cpc_check_counters(pmu, &l, true, false, NULL, &err);
	CHECK(rc == -EBUSY && strstr(err.message, "event '0x100fc' cannot get a counter") &&
	      strstr(err.message, "held by 'PM_FLOP_CMPL-all-10000', '0x200fa'") &&
	      strstr(err.message, "PMC1"), "PMC1 taken: %d '%s'", rc, err.message);
	CHECK(!strstr(err.message, "cpu-clock"), "a software event holds no counter: '%s'",
	      err.message);

	/* the PMU cannot tell which counter overflowed: one enabling only */
	l.n = 0;
	add_core(&l, pmu, group, 2);
	add_software(&l, "cpu-clock");
	err = (struct pmurt_error){0};
	rc = pmu_cpc_check_counters(pmu, &l, true, true, NULL, &err);
	CHECK(rc == 0, "one group alone: '%s'", err.message);
	add_core(&l, pmu, flop, 1);
	rc = pmu_cpc_check_counters(pmu, &l, true, true, NULL, &err);
	CHECK(rc == -EBUSY && strstr(err.message, "'PM_FLOP_CMPL-all-10000' cannot get") &&
	      strstr(err.message, "cannot tell which counter overflowed") &&
	      strstr(err.message, "held by '0x200fa'"), "single overflow: %d '%s'", rc,
	      err.message);

	/* the first enabling that does not fit alone is a plain misfit */
	l.n = 0;
	const char *two_pmc1[] = {"0x100fc", "0x100f4"};
	add_core(&l, pmu, two_pmc1, 2);
	err = (struct pmurt_error){0};
	rc = pmu_cpc_check_counters(pmu, &l, true, false, NULL, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "does not fit the PMU"), "misfit: %d '%s'", rc,
	      err.message);
}

int main(void)
{
	struct pmurt_pmu *pmu;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, "power10", NULL, &err) < 0) {
		fprintf(stderr, "power10: %s\n", err.message);
		return 1;
	}
	test_periods(pmu);
	test_counters(pmu);
	pmurt_pmu_close(pmu);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
