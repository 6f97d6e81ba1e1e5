/*
 * pfm_group.c - PFM_OS_PMURT_GROUP (include/perfmon/pfmlib_pmurt.h): a
 * group of events checked as the kernel checks it, with the reason it does
 * not fit.  Each member is encoded as PFM_OS_PERF_EVENT_EXT encodes it
 * (its code and exclude bits), then the group goes to libpmurt's
 * pmurt_group_check, which follows the kernel's group flow (core-book3s.c
 * power_pmu_event_init, isa207-common.c isa207_get_constraint and the
 * alternatives search).  libpfm4 encodes one event at a time: PAPI finds
 * out that events do not fit together only from perf_event_open's EINVAL.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "pfm_priv.h"
#include "perfmon/pfmlib_pmurt.h"

/* One member as a libpmurt event spec, the core PMU it is of in *pmu. */
static int member_spec(const char *str, int dfl_plm, const struct pfm_pmu **pmu,
		       struct pmurt_event_spec *spec)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	attr.size = sizeof(attr);
	arg.attr = &attr;
	arg.size = sizeof(arg);
	int rc = pfm_encode_perf(str, dfl_plm, PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc)
		return rc;
	int pidx;
	*pmu = pfm_pmu_of_index(arg.idx, &pidx);
	if (!*pmu || (*pmu)->kind != PFM_KIND_CORE)
		return PFM_ERR_NOTSUPP;
	*spec = PMURT_OPTS_INIT(pmurt_event_spec, .type = PERF_TYPE_RAW, .config = attr.config,
				.code = attr.config, .event_index = (*pmu)->to_pmurt[pidx],
				.precise = attr.precise_ip);
	spec->exclude = (attr.exclude_user ? PMURT_EXCLUDE_USER : 0) |
			(attr.exclude_kernel ? PMURT_EXCLUDE_KERNEL : 0) |
			(attr.exclude_hv ? PMURT_EXCLUDE_HV : 0);
	return PFM_SUCCESS;
}

static int check(const struct pfm_pmu *pmu, const struct pmurt_event_spec *specs, int n,
		 pfm_pmurt_group_arg_t *arg)
{
	struct pmurt_group_result res = {.sz = sizeof(res)};
	if (pmurt_group_check(pmu->pmurt, specs, n, sizeof(specs[0]), NULL, &res, NULL))
		return PFM_ERR_INVAL;
	arg->fits = res.ok;
	arg->reject_index = res.ok ? -1 : res.reject_index;
	snprintf(arg->reason, sizeof(arg->reason), "%s", res.ok ? "" : res.reason);
	snprintf(arg->message, sizeof(arg->message), "%s", res.ok ? "" : res.message);
	for (int i = 0; res.ok && i < n; i++) {
		arg->pmc[i] = res.pmc[i];
		arg->final_codes[i] = res.final_events[i];
	}
	return res.ok ? PFM_SUCCESS : PFM_ERR_FEATCOMB;
}

int pfm_encode_group(const char *str, int dfl_plm, void *args)
{
	pfm_pmurt_group_arg_t *arg = args;
	if (arg->size != sizeof(*arg))
		return PFM_ERR_INVAL;
	char *copy = strdup(str), *save = NULL;
	if (!copy)
		return PFM_ERR_NOMEM;
	struct pmurt_event_spec specs[PFM_PMURT_GROUP_MAX];
	const struct pfm_pmu *pmu = NULL;
	int n = 0, rc = PFM_SUCCESS;
	memset((char *)arg + sizeof(arg->size), 0, sizeof(*arg) - sizeof(arg->size));
	arg->reject_index = -1;
	for (char *m = strtok_r(copy, ",", &save); m && !rc; m = strtok_r(NULL, ",", &save)) {
		const struct pfm_pmu *p = NULL;
		if (n == PFM_PMURT_GROUP_MAX)
			rc = PFM_ERR_TOOMANY;
		else
			rc = member_spec(m, dfl_plm, &p, &specs[n]);
		if (!rc && pmu && p != pmu)
			rc = PFM_ERR_FEATCOMB; /* one core PMU per group */
		if (rc) {
			arg->reject_index = n;
			snprintf(arg->message, sizeof(arg->message), "event %d '%s': %s", n, m,
				 pfm_strerror(rc));
		}
		pmu = p;
		n++;
	}
	free(copy);
	arg->n = n;
	if (!rc && n == 0)
		rc = PFM_ERR_INVAL;
	return rc ? rc : check(pmu, specs, n, arg);
}
