/*
 * attr.c - perf_event_attr type/config to the raw code the PMU counts, the way
 * core-book3s.c power_pmu_event_init does it: raw codes as they are, generic
 * hardware events through the description's generic map, cache events
 * through its cache table (hw_perf_cache_event).  The index order of
 * PERF_COUNT_HW_* and PERF_COUNT_HW_CACHE_* is perf's ABI
 * (<linux/perf_event.h>), not a PMU's.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* perf's names of PERF_COUNT_HW_0 .. PERF_COUNT_HW_MAX-1 */
static const char *const generic_names[] = {
	[PERF_COUNT_HW_CPU_CYCLES] = "cycles",
	[PERF_COUNT_HW_INSTRUCTIONS] = "instructions",
	[PERF_COUNT_HW_CACHE_REFERENCES] = "cache-references",
	[PERF_COUNT_HW_CACHE_MISSES] = "cache-misses",
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = "branch-instructions",
	[PERF_COUNT_HW_BRANCH_MISSES] = "branch-misses",
	[PERF_COUNT_HW_BUS_CYCLES] = "bus-cycles",
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = "stalled-cycles-frontend",
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = "stalled-cycles-backend",
	[PERF_COUNT_HW_REF_CPU_CYCLES] = "ref-cycles",
};

/* As pmurt_parse_event fills a spec: event_index -1 (no named event),
 * the name perf would show (the generic or cache name, or the raw code). */
static void fill(struct pmurt_event_spec *spec, uint32_t type, uint64_t config,
		 uint64_t code, const char *name)
{
	size_t sz = spec->sz;
	memset(spec, 0, sz < sizeof(*spec) ? sz : sizeof(*spec));
	spec->sz = sz;
	spec->type = type;
	spec->config = config;
	spec->code = code;
	spec->event_index = -1;
	if (name)
		snprintf(spec->name, sizeof(spec->name), "%s", name);
	else
		snprintf(spec->name, sizeof(spec->name), "0x%llx", (unsigned long long)code);
}

static int from_generic(const struct pmurt_pmu *pmu, uint64_t config,
			struct pmurt_event_spec *spec, struct pmurt_error *err)
{
	const struct pmu_model *m = &pmu->model;
	const char *name = config < PERF_COUNT_HW_MAX ? generic_names[config] : NULL;
	for (int i = 0; name && i < m->ngeneric; i++) {
		const struct pmu_generic *g = &m->generic[i];
		if (strcmp(g->name, name) != 0)
			continue;
		if (g->state == PMU_MAP_SUPPORTED) {
			fill(spec, PERF_TYPE_HARDWARE, config, g->code, name);
			return 0;
		}
		int rc = g->state == PMU_MAP_INVALID ? -EINVAL : -EOPNOTSUPP;
		pmurt_set_error(err, rc, "%s: generic event %s is not supported", m->name, name);
		return rc;
	}
	pmurt_set_error(err, -EOPNOTSUPP, "%s: no generic event %llu%s%s", m->name,
			(unsigned long long)config, name ? " " : "", name ? name : "");
	return -EOPNOTSUPP;
}

static int from_cache(const struct pmurt_pmu *pmu, uint64_t config,
		      struct pmurt_event_spec *spec, struct pmurt_error *err)
{
	const struct pmu_model *m = &pmu->model;
	uint64_t cache = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;
	if (!m->has_cache_map || cache >= PMU_CACHE_NTYPES || op >= PMU_OP_NTYPES ||
	    res >= PMU_RESULT_NTYPES) {
		pmurt_set_error(err, -EINVAL, "cache event 0x%llx: no such cache, operation or result",
				(unsigned long long)config);
		return -EINVAL;
	}
	const struct pmu_cache_entry *e = &m->cache[cache][op][res];
	char name[64];
	pmurt_cache_name((const int[3]){(int)cache, (int)op, (int)res}, name);
	if (e->state == PMU_MAP_SUPPORTED) {
		fill(spec, PERF_TYPE_HW_CACHE, config, e->code, name);
		return 0;
	}
	int rc = e->state == PMU_MAP_INVALID ? -EINVAL : -EOPNOTSUPP;
	pmurt_set_error(err, rc, "%s: cache event %s is %s", m->name, name,
			rc == -EINVAL ? "invalid" : "not supported");
	return rc;
}

int pmurt_event_from_attr(const struct pmurt_pmu *pmu, uint32_t type, uint64_t config,
			  struct pmurt_event_spec *spec, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!pmu || !spec || spec->sz < offsetof(struct pmurt_event_spec, name)) {
		pmurt_set_error(err, -EINVAL, "pmurt_event_from_attr: missing argument");
		return -EINVAL;
	}
	switch (type) {
	case PERF_TYPE_RAW:
		fill(spec, PERF_TYPE_RAW, config, config, NULL);
		return 0;
	case PERF_TYPE_HARDWARE:
		return from_generic(pmu, config, spec, err);
	case PERF_TYPE_HW_CACHE:
		return from_cache(pmu, config, spec, err);
	default:
		pmurt_set_error(err, -ENOENT, "perf type %u is not this PMU's", type);
		return -ENOENT;
	}
}
