/*
 * group.c - pmurt_group_check: a group of parsed events through the
 * description-driven scheduler (sched.c), with the result in the public
 * struct's terms.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "opts.h"

static struct pmu_sched_options sched_options(const struct pmurt_check_opts *opts)
{
	struct pmurt_check_opts c = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true,
						    .lpar = true);
	pmu_opts_take(&c, sizeof(struct pmurt_check_opts), opts);
	return (struct pmu_sched_options){.per_task = c.per_task, .hv_mode = c.hv_mode,
					  .lpar = c.lpar};
}

/* src into dst[size]; a longer text ends with "..." (pmu_mark_truncated). */
static void copy_text(char *dst, size_t size, const char *src)
{
	if ((size_t)snprintf(dst, size, "%s", src) >= size)
		pmu_mark_truncated(dst, size);
}

static void fill_result(const struct pmurt_pmu *pmu, const struct pmu_sched_result *r,
			struct pmurt_group_result *res)
{
	res->ok = r->ok;
	res->reject_index = r->reject_index;
	res->n = r->n;
	res->alternatives_used = r->alternatives_used;
	if (!r->ok) {
		copy_text(res->reason, sizeof(res->reason), r->reason ? r->reason : "");
		copy_text(res->message, sizeof(res->message), r->message);
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
	res->reschedule_reason[0] = res->reschedule_message[0] = '\0';
	if (r->ok && r->reschedule_reason) {
		copy_text(res->reschedule_reason, sizeof(res->reschedule_reason),
			  r->reschedule_reason);
		copy_text(res->reschedule_message, sizeof(res->reschedule_message),
			  r->reschedule_message);
	}
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

static bool zero_bytes(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/* Element i of the caller's array, event_sz bytes apart, into a zeroed
 * struct of this library's layout (libbpf's OPTS_VALID rule: a newer
 * caller's unknown tail must be zero). */
static int read_event_spec(const struct pmurt_event_spec *events, int i, size_t event_sz,
			   struct pmurt_event_spec *out, struct pmurt_error *err)
{
	const unsigned char *p = (const unsigned char *)events + (size_t)i * event_sz;
	*out = (struct pmurt_event_spec){0};
	memcpy(out, p, event_sz < sizeof(*out) ? event_sz : sizeof(*out));
	if (out->sz != event_sz) {
		pmurt_set_error(err, -EINVAL, "pmurt_group_check: event %d has sz %zu, "
				"not the element size %zu", i, out->sz, event_sz);
		return -EINVAL;
	}
	if (event_sz > sizeof(*out) && !zero_bytes(p + sizeof(*out), event_sz - sizeof(*out))) {
		pmurt_set_error(err, -E2BIG, "pmurt_group_check: event %d sets fields past "
				"the %zu bytes this libpmurt knows", i, sizeof(*out));
		return -E2BIG;
	}
	return 0;
}

static int read_group(const struct pmurt_event_spec *events, int n, size_t event_sz,
		      struct pmu_sched_event ev[PMURT_MAX_GROUP],
		      struct pmurt_event_spec spec[PMURT_MAX_GROUP], struct pmurt_error *err)
{
	if (event_sz < PMURT_EVENT_SPEC_MIN_SZ) {
		pmurt_set_error(err, -EINVAL, "pmurt_group_check: element size %zu is smaller "
				"than any struct pmurt_event_spec (%zu)", event_sz,
				(size_t)PMURT_EVENT_SPEC_MIN_SZ);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		int rc = read_event_spec(events, i, event_sz, &spec[i], err);
		if (rc)
			return rc;
		ev[i] = (struct pmu_sched_event){
			.config = spec[i].code,
			.config1 = spec[i].config1,
			.exclude = spec[i].exclude,
			.branch_sample_type = spec[i].branch_sample_type,
			.name = spec[i].name[0] ? spec[i].name : NULL,
		};
	}
	return 0;
}

int pmurt_group_check(const struct pmurt_pmu *pmu, const struct pmurt_event_spec *events,
		      int n, size_t event_sz, const struct pmurt_check_opts *opts,
		      struct pmurt_group_result *res, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!pmu || !events || !res || res->sz < offsetof(struct pmurt_group_result, n)) {
		pmurt_set_error(err, -EINVAL, "pmurt_group_check: missing argument");
		return -EINVAL;
	}
	if (n < 1 || n > PMURT_MAX_GROUP) {
		pmurt_set_error(err, -EINVAL, "a group holds 1 to %d events, not %d",
				PMURT_MAX_GROUP, n);
		return -EINVAL;
	}
	if (pmu_opts_valid(opts, sizeof(struct pmurt_check_opts), "pmurt_group_check", err))
		return -EINVAL;
	struct pmu_sched_event ev[PMURT_MAX_GROUP];
	struct pmurt_event_spec spec[PMURT_MAX_GROUP]; /* ev[i].name points here */
	int rc = read_group(events, n, event_sz, ev, spec, err);
	if (rc)
		return rc;
	struct pmu_sched_options o = sched_options(opts);
	struct pmu_sched_result r;
	rc = pmu_engine_schedule(&pmu->engine, ev, n, &o, &r);
	if (rc) {
		pmurt_set_error(err, rc, "%s", r.message);
		return rc;
	}
	copy_result(pmu, &r, res);
	return 0;
}
