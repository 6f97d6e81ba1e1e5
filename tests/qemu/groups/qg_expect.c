/*
 * qg_expect.c - libpmurt's answer for a group of the group file.
 *
 * The kernel opens the members one by one (power_pmu_event_init,
 * arch/powerpc/perf/core-book3s.c): a member whose perf type is HARDWARE or
 * HW_CACHE is first mapped to a code, and an unmappable one fails its own
 * open with EOPNOTSUPP or EINVAL (pmurt_event_from_attr gives the same).
 * Everything the group check refuses is EINVAL in that function.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qg_expect.h"

#define QG_PERF_TYPE_RAW 4u

/* The spec pmurt checks for member m, or the errno its mapping fails with. */
static int member_spec(const struct pmurt_pmu *pmu, const struct qg_member *m,
		       struct pmurt_event_spec *spec)
{
	*spec = PMURT_OPTS_INIT(pmurt_event_spec, .event_index = -1);
	if (m->type == QG_PERF_TYPE_RAW) {
		spec->type = m->type;
		spec->config = spec->code = m->config;
	} else {
		int rc = pmurt_event_from_attr(pmu, m->type, m->config, spec, NULL);
		if (rc)
			return rc;
	}
	spec->config1 = m->config1;
	spec->exclude = m->exclude;
	spec->sample_period = m->period;
	snprintf(spec->name, sizeof(spec->name), "%x:%llx", m->type,
		 (unsigned long long)m->config);
	return 0;
}

int qg_expect_group(const struct pmurt_pmu *pmu, const struct qg_group *g,
		    struct qg_expect *out, struct pmurt_error *err)
{
	struct pmurt_event_spec specs[QG_MAX_MEMBERS];
	int n = 0, map_rc = 0;
	for (; n < g->n; n++) {
		map_rc = member_spec(pmu, &g->m[n], &specs[n]);
		if (map_rc)
			break;
	}
	memset(out, 0, sizeof(*out));
	out->res = PMURT_OPTS_INIT(pmurt_group_result);
	if (n > 0) {
		struct pmurt_check_opts opts = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true,
							       .lpar = true);
		int rc = pmurt_group_check(pmu, specs, n, sizeof(specs[0]), &opts, &out->res, err);
		if (rc)
			return rc;
		if (!out->res.ok) {
			out->member = out->res.reject_index;
			out->errnum = EINVAL;
			snprintf(out->reason, sizeof(out->reason), "%s", out->res.reason);
			return 0;
		}
	}
	if (map_rc) {
		out->member = n;
		out->errnum = -map_rc;
		snprintf(out->reason, sizeof(out->reason), "unmapped_%s",
			 map_rc == -EOPNOTSUPP ? "eopnotsupp" : "einval");
		return 0;
	}
	out->ok = true;
	return 0;
}
