/*
 * pmurt_papi_csv.c - pmurt-papi-csv: the PAPI presets of libpmurt's
 * descriptions as a file PAPI reads (papi_events.csv's form, named by
 * PAPI_CSV_EVENT_FILE): "CPU,<libpfm4 PMU name>" then a PRESET line per
 * preset (NOT_DERIVED, DERIVED_ADD, DERIVED_SUB, DERIVED_POSTFIX with its
 * formula), its events by the names libpfm.so.4 gives them.  PAPI 7.0.0 has
 * no POWER10 presets; with this file it has the description's.
 *   pmurt-papi-csv [NAME|FILE ...]    default: every built-in description
 * Uses pmurt.h only.
 */
#include <stdio.h>
#include <string.h>

#include "pmurt.h"

static const char *derivation(const struct pmurt_preset_info *p)
{
	switch (p->kind) {
	case PMURT_PRESET_ADD: return "DERIVED_ADD";
	case PMURT_PRESET_SUB: return "DERIVED_SUB";
	case PMURT_PRESET_POSTFIX: return "DERIVED_POSTFIX";
	default: return "NOT_DERIVED";
	}
}

static int write_pmu(const char *spec)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err;
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	if (pmurt_pmu_open(&pmu, spec, NULL, &err) || pmurt_pmu_info(pmu, &info)) {
		fprintf(stderr, "pmurt-papi-csv: %s\n", err.message);
		pmurt_pmu_close(pmu);
		return 1;
	}
	if (info.npresets > 0) {
		printf("CPU,%s\n#\n", info.platform ? info.platform : spec);
		for (int i = 0; i < info.npresets; i++) {
			struct pmurt_preset_info p = {.sz = sizeof(p)};
			if (pmurt_preset_get(pmu, i, &p))
				continue;
			printf("PRESET,%s,%s", p.name, derivation(&p));
			if (p.kind == PMURT_PRESET_POSTFIX)
				printf(",%s", p.postfix);
			for (int e = 0; e < p.nevents; e++)
				printf(",%s", p.events[e]);
			printf("\n");
		}
		printf("#\n");
	}
	pmurt_pmu_close(pmu);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;
	printf("# PAPI presets from libpmurt's descriptions (pmurt-papi-csv); give this file to PAPI\n"
	       "# with PAPI_CSV_EVENT_FILE and libpmurt's libpfm.so.4 (doc/libpfm.md)\n");
	if (argc > 1)
		for (int i = 1; i < argc; i++)
			rc |= write_pmu(argv[i]);
	else
		for (int i = 0; pmurt_builtin_name(i); i++)
			rc |= write_pmu(pmurt_builtin_name(i));
	return rc;
}
