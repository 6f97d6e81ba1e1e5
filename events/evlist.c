/*
 * evlist.c - the public event list (pmurt.h, struct pmurt_evlist): perf's
 * -e strings parsed once on a host (evparse.c), each event's information,
 * what may be set between parsing and opening (the sample period), and its
 * groups' check of core events; counters (perf/count.c) and recordings
 * (perf/record.c) open it as it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evsel.h"
#include "opts.h"

/* --- the group check ------------------------------------------------------------- */

bool pmu_evsel_is_core(const struct pmu_host *host, const struct pmu_evsel *e)
{
	return host->core && (e->kind == PMU_EVSEL_CORE || e->kind == PMU_EVSEL_HARDWARE ||
			      e->kind == PMU_EVSEL_CACHE);
}

/* The kernel's power_pmu group checks see only the group's events of the
 * core PMU (core-book3s.c collect_events skips the others). */
int pmu_evlist_group_check(const struct pmu_host *host, const struct pmu_evlist *list, int leader,
			   const struct pmurt_check_opts *opts, struct pmurt_group_result *res,
			   struct pmurt_error *err)
{
	struct pmurt_event_spec specs[PMURT_MAX_GROUP];
	int n = 0;
	for (int i = leader; i < leader + list->v[leader].group_size; i++)
		if (pmu_evsel_is_core(host, &list->v[i]) && n < PMURT_MAX_GROUP)
			specs[n++] = pmu_evsel_spec(&list->v[i]);
	size_t sz = res->sz;
	memset(res, 0, sz < sizeof(*res) ? sz : sizeof(*res));
	res->sz = sz;
	if (!n)
		return 0;
	return pmurt_group_check(host->core, specs, n, sizeof(specs[0]), opts, res, err);
}

/* --- the list ---------------------------------------------------------------------- */

int pmurt_evlist_new(struct pmurt_evlist **out, struct pmurt_host *host,
		     const struct pmurt_evlist_opts *opts, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!out || !host) {
		pmurt_set_error(err, -EINVAL, "pmurt_evlist_new: missing argument");
		return -EINVAL;
	}
	*out = NULL;
	struct pmurt_evlist_opts o = PMURT_OPTS_INIT(pmurt_evlist_opts);
	if (pmu_opts_valid(opts, sizeof(struct pmurt_evlist_opts),
			   "pmurt_evlist_new", err))
		return -EINVAL;
	pmu_opts_take(&o, sizeof(struct pmurt_evlist_opts), opts);
	struct pmurt_evlist *list = calloc(1, sizeof(*list));
	if (!list) {
		pmurt_set_error(err, -ENOMEM, "pmurt_evlist_new: out of memory");
		return -ENOMEM;
	}
	list->host = host;
	list->l.derived_presets = o.derived_presets;
	*out = list;
	return 0;
}

int pmurt_evlist_add(struct pmurt_evlist *list, const char *str, struct pmurt_error *err)
{
	if (!list || !str) {
		pmurt_clear_error(err);
		pmurt_set_error(err, -EINVAL, "pmurt_evlist_add: missing argument");
		return -EINVAL;
	}
	return pmu_evlist_parse(&list->l, &list->host->h, str, err);
}

int pmurt_evlist_parse(struct pmurt_evlist **out, struct pmurt_host *host, const char *str,
		       const struct pmurt_evlist_opts *opts, struct pmurt_error *err)
{
	int rc = pmurt_evlist_new(out, host, opts, err);
	if (!rc && (rc = pmurt_evlist_add(*out, str, err)) != 0) {
		pmurt_evlist_free(*out);
		*out = NULL;
	}
	return rc;
}

/* The pack's group g as an event string, "{A,B,C}", into buf. */
static int pack_group_text(const struct pmurt_pack *pack, int g, char *buf, size_t len)
{
	const struct pmurt_event_spec *ev;
	int n;
	size_t at = 0;
	if (pmurt_pack_group(pack, g, &ev, &n, NULL))
		return -EINVAL;
	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "," : "{", ev[i].name);
	if (at < len)
		at += (size_t)snprintf(buf + at, len - at, "}");
	return at < len ? 0 : -E2BIG;
}

int pmurt_evlist_add_pack(struct pmurt_evlist *list, const struct pmurt_pack *pack,
			  struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct pmurt_pack_info info = PMURT_OPTS_INIT(pmurt_pack_info);
	if (!list || !pack || pmurt_pack_info(pack, &info)) {
		pmurt_set_error(err, -EINVAL, "pmurt_evlist_add_pack: missing argument");
		return -EINVAL;
	}
	int before = list->l.n, strings = list->l.nstrings, rc = 0;
	for (int g = 0; g < info.ngroups && !rc; g++) {
		char text[PMURT_MAX_GROUP * 72];
		int first = list->l.n;
		rc = pack_group_text(pack, g, text, sizeof(text));
		if (rc)
			pmurt_set_error(err, rc, "pmurt_evlist_add_pack: group %d: too long", g);
		else
			rc = pmu_evlist_parse(&list->l, &list->host->h, text, err);
		for (int i = first; !rc && i < list->l.n; i++) {
			list->l.v[i].string = -1;
			list->l.v[i].offset = list->l.v[i].length = 0;
			list->l.v[i].pack_group = g;
		}
	}
	list->l.nstrings = strings; /* the groups are no string of the caller's */
	if (rc)
		list->l.n = before;
	return rc;
}

void pmurt_evlist_free(struct pmurt_evlist *list)
{
	if (!list)
		return;
	pmu_evlist_free(&list->l);
	free(list);
}

int pmurt_evlist_nevents(const struct pmurt_evlist *list)
{
	return list ? list->l.n : -EINVAL;
}

/* --- each event -------------------------------------------------------------------- */

static unsigned attr_exclude(const struct perf_event_attr *a)
{
	return (a->exclude_user ? PMURT_EXCLUDE_USER : 0) |
	       (a->exclude_kernel ? PMURT_EXCLUDE_KERNEL : 0) |
	       (a->exclude_hv ? PMURT_EXCLUDE_HV : 0) | (a->exclude_idle ? PMURT_EXCLUDE_IDLE : 0);
}

int pmurt_evlist_event(const struct pmurt_evlist *list, int i, struct pmurt_evsel_info *info)
{
	if (!list || !info || info->sz < sizeof(info->sz) || i < 0 || i >= list->l.n)
		return !list || !info ? -EINVAL : -ENOENT;
	const struct pmu_evsel *e = &list->l.v[i];
	const struct pmu_evsel *lead = &list->l.v[e->leader];
	struct pmurt_evsel_info full = {
		.sz = sizeof(full), .name = e->name, .pmu = e->pmu,
		.kind = (enum pmurt_evsel_kind)e->kind, .attr = &e->attr,
		.attr_size = sizeof(e->attr), .leader = e->leader, .group_size = lead->group_size,
		.exclude = attr_exclude(&e->attr), .precise = (int)e->attr.precise_ip,
		.scale = e->scale, .unit = e->unit, .per_cpu_only = e->per_cpu_only,
		.cpumask = e->cpumask, .string = e->string, .offset = (int)e->offset,
		.length = (int)e->length, .preset = e->preset, .pack_group = e->pack_group,
		.spec = pmu_evsel_is_core(&list->host->h, e) ? &e->spec : NULL,
		.sample_read = e->sample_read, .tool = e->tool};
	pmu_opts_give(info, &full, sizeof(struct pmurt_evsel_info));
	return 0;
}

int pmurt_evlist_set_period(struct pmurt_evlist *list, int i, uint64_t period)
{
	if (!list || i < 0 || i >= list->l.n)
		return -EINVAL;
	struct pmu_evsel *e = &list->l.v[i];
	e->attr.sample_period = period;
	e->attr.freq = 0;
	e->spec = pmu_evsel_spec(e);
	return 0;
}

int pmurt_evlist_group_check(const struct pmurt_evlist *list, int leader,
			     const struct pmurt_check_opts *opts, struct pmurt_group_result *res,
			     struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!list || !res || res->sz < offsetof(struct pmurt_group_result, n) || leader < 0 ||
	    leader >= list->l.n || list->l.v[leader].leader != leader) {
		pmurt_set_error(err, -EINVAL, "pmurt_evlist_group_check: %s",
				list && res && leader >= 0 && leader < list->l.n
					? "the event is no group's leader" : "missing argument");
		return -EINVAL;
	}
	return pmu_evlist_group_check(&list->host->h, &list->l, leader, opts, res, err);
}
