/*
 * stat_events.c - pmutool stat's event list, parsed once: the -e strings
 * (perf stat's defaults without one) and -M's metric groups into one public
 * event list (pmurt_evlist_*), which every run and every thread of -p opens.
 * A derived PAPI preset written alone is the group of its events
 * (pmurt_evlist_opts.derived_presets; {N0,N1} with the item's modifiers),
 * and its value is computed from their counts with pmurt_preset_eval.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

static int add_derived(struct stat_report *r, const struct pmurt_pmu *pmu, int index, int first,
		       int n)
{
	struct pmurt_preset_info info = PMURT_OPTS_INIT(pmurt_preset_info);
	struct stat_derived *d = realloc(r->derived, (size_t)(r->nderived + 1) * sizeof(*d));
	if (!d || pmurt_preset_get(pmu, index, &info)) {
		if (d)
			r->derived = d;
		return -ENOMEM;
	}
	r->derived = d;
	d = &r->derived[r->nderived++];
	*d = (struct stat_derived){.index = index, .first = first, .n = n,
				   .values = calloc((size_t)r->runs, sizeof(double))};
	snprintf(d->name, sizeof(d->name), "%s", info.name);
	snprintf(d->formula, sizeof(d->formula), "%s", info.formula);
	return d->values ? 0 : -ENOMEM;
}

/* The derived presets among the list's groups, in order. */
static int find_derived(const struct tool *t, const struct pmurt_evlist *list,
			struct stat_report *r)
{
	int n = pmurt_evlist_nevents(list);
	for (int i = 0; i < n; i++) {
		struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
		pmurt_evlist_event(list, i, &e);
		if (e.preset >= 0 && e.leader == i &&
		    add_derived(r, pmurt_host_pmu(t->host), e.preset, i, e.group_size))
			return -ENOMEM;
	}
	return 0;
}

static int parse_failed(const struct tool *t, const struct pmurt_error *err)
{
	tool_error(t, "%s", err->message);
	return err->code == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
}

int stat_events(const struct tool *t, const struct stat_opts *opts, struct pmurt_evlist **list,
		struct stat_report *r)
{
	/* perf stat's defaults without -e and -M (builtin-stat.c
	 * default_attrs0/1): the software ones, and where the host has a
	 * hardware PMU, cycles and instructions too, for their IPC (not the
	 * <not supported> lines perf prints where there is none) */
	static const char *const software[] = {"task-clock,context-switches,cpu-migrations,"
					       "page-faults"};
	static const char *const with_core[] = {"task-clock,context-switches,cpu-migrations,"
						"page-faults,cycles,instructions"};
	const char *const *defaults = tool_host_has_counters(t) ? with_core : software;
	const char *const *strs = opts->nevents || r->metrics ? opts->events : defaults;
	int nstrs = opts->nevents || r->metrics ? opts->nevents : 1;
	struct pmurt_error err = {0};
	struct pmurt_evlist_opts o = PMURT_OPTS_INIT(pmurt_evlist_opts, .derived_presets = true);
	if (pmurt_evlist_new(list, t->host, &o, &err))
		return parse_failed(t, &err);
	for (int i = 0; i < nstrs; i++)
		if (pmurt_evlist_add(*list, strs[i], &err))
			return parse_failed(t, &err);
	if (r->metrics && stat_metrics_add(r, *list, &err))
		return parse_failed(t, &err);
	if (find_derived(t, *list, r)) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

void stat_compute_derived(const struct tool *t, struct stat_report *r,
			  const struct pmurt_count *counts, int run)
{
	for (int i = 0; i < r->nderived; i++) {
		struct stat_derived *d = &r->derived[i];
		uint64_t c[PMURT_PRESET_MAX_EVENTS];
		struct pmurt_preset_value v = {.sz = sizeof(v)};
		struct pmurt_error err = {0};
		for (int k = 0; k < d->n && k < PMURT_PRESET_MAX_EVENTS; k++)
			c[k] = counts[d->first + k].scaled;
		if (pmurt_preset_eval(pmurt_host_pmu(t->host), d->index, c, d->n, &v, &err) < 0) {
			d->failed = true;
			snprintf(d->why, sizeof(d->why), "%.120s", err.message);
			continue;
		}
		d->values[run] = (double)v.num / (double)v.den;
	}
}
