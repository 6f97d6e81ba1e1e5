/*
 * consumer.c - a program built against an installed libpmurt (by
 * find_package(pmurt) and by pkg-config): opens the built-in POWER10
 * description, looks two events up by name and checks them as a group.
 * Its output must be the same however it was built and linked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <pmurt.h>

static int event(struct pmurt_pmu *pmu, const char *name, struct pmurt_event_spec *spec)
{
	struct pmurt_event_info info = {.sz = sizeof(info)};
	struct pmurt_error err = {0};
	int i = pmurt_event_find(pmu, name, &info, &err);
	if (i < 0) {
		fprintf(stderr, "consumer: %s\n", err.message);
		return -1;
	}
	*spec = (struct pmurt_event_spec){.sz = sizeof(*spec), .type = 4, .config = info.code,
					  .code = info.code, .event_index = i};
	snprintf(spec->name, sizeof(spec->name), "%s", info.name);
	printf("%s = %#" PRIx64 " (%s)\n", info.name, info.code, info.category);
	return 0;
}

static int check(struct pmurt_pmu *pmu, const struct pmurt_event_spec *ev, int n)
{
	struct pmurt_group_result res = {.sz = sizeof(res)};
	struct pmurt_error err = {0};
	if (pmurt_group_check(pmu, ev, n, sizeof(ev[0]), NULL, &res, &err)) {
		fprintf(stderr, "consumer: %s\n", err.message);
		return -1;
	}
	if (!res.ok) {
		printf("group rejected: %s: %s\n", res.reason, res.message);
		return 0;
	}
	for (int i = 0; i < res.n; i++)
		printf("%s on PMC%d\n", ev[i].name, res.pmc[i]);
	for (int r = 0; r < res.nregs; r++)
		printf("%s = %#" PRIx64 "\n", pmurt_register_name(pmu, r), res.regs[r]);
	return 0;
}

int main(void)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	struct pmurt_event_spec ev[2];
	printf("pmurt.h %d.%d.%d\n", PMURT_VERSION_MAJOR, PMURT_VERSION_MINOR,
	       PMURT_VERSION_PATCH);
	if (pmurt_pmu_open(&pmu, "power10", NULL, &err)) {
		fprintf(stderr, "consumer: %s\n", err.message);
		return 1;
	}
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	pmurt_pmu_info(pmu, &info);
	printf("%s (%s): %d counters, %d events\n", info.name, info.version, info.ncounters,
	       info.nevents);
	int rc = event(pmu, "pm_ld_miss_l1", &ev[0]) || event(pmu, "PM_Run_Inst_Cmpl", &ev[1]) ||
		 check(pmu, ev, 2);
	pmurt_pmu_close(pmu);
	return rc ? 1 : 0;
}
