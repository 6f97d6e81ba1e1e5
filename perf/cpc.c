/*
 * cpc.c - the cpc provider's rules for a recording (cpc.h): the minimum
 * overflow count and counters first come, first served (illumos
 * usr/src/uts/common/dtrace/dcpc.c: dcpc_min_overflow, and dcpc_enable's
 * refusal when the counters are taken or, without dcpc_mult_ovf_cap, when
 * another enabling exists).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpc.h"
#include "errors.h"

int pmu_cpc_check_periods(const struct pmu_evlist *list, uint64_t period,
			  uint64_t min_period, struct pmurt_error *err)
{
	for (int i = 0; i < list->n; i++) {
		const struct perf_event_attr *a = &list->v[i].attr;
		/* a tracepoint's or a breakpoint's own period (1, as perf sets
		 * it) counts hits, not overflow interrupts: only -c applies to it */
		bool own = !a->freq && list->v[i].kind != PMU_EVSEL_TRACEPOINT &&
			   list->v[i].kind != PMU_EVSEL_BREAKPOINT;
		uint64_t p = period ? period : own ? a->sample_period : 0;
		if (p == 0 || p >= min_period)
			continue;
		pmurt_set_error(err, -EINVAL, "event '%s': period %" PRIu64 " is below the minimum "
				"of %" PRIu64 " events per sample (the cpc provider's "
				"dcpc_min_overflow; --min-period changes it)", list->v[i].name,
				p, min_period);
		return -EINVAL;
	}
	return 0;
}

/* The enablings holding counters so far, for a message: 'A', '{B,C}'. */
static void holders(const struct pmu_evlist *list, const int *leaders, int n, char *out,
		    size_t len)
{
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s'%s'", i ? ", " : "",
					 list->v[leaders[i]].name);
}

/* The core events of the group led by leader, appended to specs. */
static int add_group(const struct pmu_evlist *list, int leader, struct pmurt_event_spec *specs,
		     int n)
{
	for (int i = leader; i < list->n && list->v[i].leader == leader; i++)
		if (list->v[i].kind == PMU_EVSEL_CORE && n < PMURT_MAX_GROUP + 1)
			specs[n++] = list->v[i].spec;
	return n;
}

static int refuse(struct pmurt_error *err, const struct pmu_evlist *list, int leader,
		  const int *held, int nheld, const char *why)
{
	char names[256];
	holders(list, held, nheld, names, sizeof names);
	pmurt_set_error(err, -EBUSY, "event '%s' cannot get a counter (%s): the counters are "
			"held by %s (first come, first served; nothing is multiplexed)",
			list->v[leader].name, why, names);
	return -EBUSY;
}

int pmu_cpc_check_counters(const struct pmurt_pmu *core, const struct pmu_evlist *list,
			   bool per_task, bool single_overflow, struct pmurt_group_result *held_res,
			   struct pmurt_error *err)
{
	struct pmurt_event_spec specs[PMURT_MAX_GROUP + 1];
	int held[PMURT_MAX_GROUP + 1];
	int nspecs = 0, nheld = 0;
	struct pmurt_check_opts opts = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = per_task,
						       .lpar = true);
	for (int i = 0; i < list->n; i++) {
		if (list->v[i].leader != i)
			continue;
		int n = add_group(list, i, specs, nspecs);
		if (n == nspecs)
			continue; /* no core event: holds no counter */
		if (!core) {
			pmurt_set_error(err, -EINVAL, "event '%s': no core PMU description loaded",
					list->v[i].name);
			return -EINVAL;
		}
		if (single_overflow && nheld > 0)
			return refuse(err, list, i, held, nheld,
				      "the PMU cannot tell which counter overflowed, so one "
				      "enabling samples at a time");
		struct pmurt_group_result res = PMURT_OPTS_INIT(pmurt_group_result);
		if (n <= PMURT_MAX_GROUP) {
			int rc = pmurt_group_check(core, specs, n, sizeof specs[0], &opts, &res, err);
			if (rc < 0)
				return rc;
		}
		if (n > PMURT_MAX_GROUP || !res.ok) {
			const char *why = n > PMURT_MAX_GROUP ? "more events than the PMU has "
								"counters"
							      : res.message;
			if (nheld > 0)
				return refuse(err, list, i, held, nheld, why);
			pmurt_set_error(err, -EINVAL, "event '%s' does not fit the PMU: %s",
					list->v[i].name, why);
			return -EINVAL;
		}
		nspecs = n;
		held[nheld++] = i;
		if (held_res)
			*held_res = res;
	}
	return 0;
}
