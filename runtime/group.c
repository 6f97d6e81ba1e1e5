/*
 * group.c - pmurt_group_check: a group of parsed events through the
 * description-driven scheduler (sched.c), with the result in the public
 * struct's terms.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static struct pmu_sched_options sched_options(const struct pmurt_check_opts *opts)
{
	struct pmu_sched_options o = {.per_task = true, .hv_mode = false, .lpar = true};
	if (opts && opts->sz >= offsetof(struct pmurt_check_opts, lpar) + sizeof(opts->lpar)) {
		o.per_task = opts->per_task;
		o.hv_mode = opts->hv_mode;
		o.lpar = opts->lpar;
	}
	return o;
}

static void fill_result(const struct pmurt_pmu *pmu, const struct pmu_sched_result *r,
			struct pmurt_group_result *res)
{
	res->ok = r->ok;
	res->reject_index = r->reject_index;
	res->n = r->n;
	res->alternatives_used = r->alternatives_used;
	if (!r->ok) {
		snprintf(res->reason, sizeof(res->reason), "%s", r->reason ? r->reason : "");
		snprintf(res->message, sizeof(res->message), "%s", r->message);
	} else {
		res->reason[0] = res->message[0] = '\0';
	}
	for (int i = 0; i < r->n; i++) {
		res->final_events[i] = r->final_events[i];
		res->pmc[i] = r->pmc[i];
	}
	res->nregs = pmu->model.nregisters < PMURT_MAX_REGS ? pmu->model.nregisters
							   : PMURT_MAX_REGS;
	memcpy(res->regs, r->regs, sizeof(res->regs[0]) * (size_t)res->nregs);
}

/* Into the caller's struct, which may be an older, smaller one. */
static void copy_result(const struct pmurt_pmu *pmu, const struct pmu_sched_result *r,
			struct pmurt_group_result *res)
{
	if (res->sz >= sizeof(*res)) { /* built against this header */
		fill_result(pmu, r, res);
		return;
	}
	struct pmurt_group_result full = {.sz = res->sz};
	fill_result(pmu, r, &full);
	memcpy(res, &full, res->sz);
}

int pmurt_group_check(const struct pmurt_pmu *pmu, const struct pmurt_event_spec *events,
		      int n, const struct pmurt_check_opts *opts,
		      struct pmurt_group_result *res, struct pmurt_error *err)
{
	if (!pmu || !events || !res || res->sz < offsetof(struct pmurt_group_result, n)) {
		pmurt_set_error(err, -EINVAL, "pmurt_group_check: missing argument");
		return -EINVAL;
	}
	if (n < 1 || n > PMURT_MAX_GROUP) {
		pmurt_set_error(err, -EINVAL, "a group holds 1 to %d events, not %d",
				PMURT_MAX_GROUP, n);
		return -EINVAL;
	}
	struct pmu_sched_event ev[PMURT_MAX_GROUP];
	for (int i = 0; i < n; i++)
		ev[i] = (struct pmu_sched_event){
			.config = events[i].code,
			.config1 = events[i].config1,
			.exclude = events[i].exclude,
			.branch_sample_type =
				events[i].sz >= offsetof(struct pmurt_event_spec, branch_sample_type) +
							sizeof(uint64_t)
					? events[i].branch_sample_type : 0,
			.name = events[i].name[0] ? events[i].name : NULL,
		};
	struct pmu_sched_options o = sched_options(opts);
	struct pmu_sched_result r;
	int rc = pmu_engine_schedule(&pmu->engine, ev, n, &o, &r);
	if (rc) {
		pmurt_set_error(err, rc, "%s", r.message);
		return rc;
	}
	copy_result(pmu, &r, res);
	return 0;
}
