/*
 * cmd_metrics.c - perf's metrics in `pmutool list metrics [GLOB]` (each
 * metric with its groups and expression, then the metric groups with how
 * many metrics each holds) and `pmutool describe METRIC` (its expression,
 * ScaleUnit, events with their codes, and whether one group can hold them,
 * as stat -M opens them).
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe_opts.h"
#include "check_answer.h"

static bool matches(const char *glob, const char *name)
{
	return !glob || fnmatch(glob, name, FNM_CASEFOLD) == 0;
}

static int print_json(json_t *o, bool first)
{
	char *s = o ? tool_json_compact(o) : NULL;
	json_decref(o);
	if (!s)
		return -1;
	printf("%s\n  %s", first ? "[" : ",", s);
	free(s);
	return 0;
}

static json_t *metric_json(const struct pmurt_metric_info *m)
{
	return json_pack("{s:s, s:s, s:s?, s:s?, s:s?, s:s?}", "metric", m->name, "expr", m->expr,
			 "groups", m->groups, "description", m->description, "scale_unit",
			 m->scale_unit, "pmus", m->pmus);
}

static int list_groups(const struct tool *t)
{
	char name[128];
	int n;
	tool_line("\nMetric groups (stat -M GROUP):");
	for (int i = 0; (n = pmurt_metric_group_get(t->pmu, i, name, sizeof(name))) >= 0; i++)
		tool_line("  %-36s %d metrics", name, n);
	return 0;
}

int list_metrics(const struct tool *t, const struct describe_opts *opts, const char *glob)
{
	int shown = 0, n = pmurt_metric_count(t->pmu);
	for (int i = 0; i < n; i++) {
		struct pmurt_metric_info m = {.sz = sizeof(m)};
		if (pmurt_metric_get(t->pmu, i, &m) < 0 || !matches(glob, m.name))
			continue;
		if (opts->json) {
			if (print_json(metric_json(&m), shown == 0) < 0) {
				tool_error(t, "out of memory");
				return EXIT_INTERNAL;
			}
		} else {
			tool_line("%-44s [%s]%s%s", m.name, m.groups ? m.groups : "",
				  m.pmus ? " on " : "", m.pmus ? m.pmus : "");
			tool_line("    = %s", m.expr);
		}
		shown++;
	}
	if (opts->json)
		printf(shown ? "\n]\n" : "[]\n");
	else if (shown && !glob)
		list_groups(t);
	return shown ? EXIT_OK : EXIT_REJECTED;
}

/* Whether its events fit one group, as stat -M would open them. */
static void describe_fit(const struct tool *t, const struct describe_opts *opts,
			 const struct pmurt_metric_info *m)
{
	struct pmurt_pack *pk = NULL;
	struct pmurt_pack_metric pm = {.sz = sizeof(pm)};
	if (pmurt_pack(t->pmu, &m->name, 1, &opts->check, &pk, NULL) ||
	    pmurt_pack_metric_get(pk, 0, &pm)) {
		pmurt_pack_free(pk);
		return;
	}
	const struct pmurt_group_result *res;
	int n;
	if (!pm.apart && pmurt_pack_group(pk, pm.group, NULL, &n, &res) == 0) {
		printf("  its events in one group:");
		for (int k = 0; k < res->n; k++)
			printf(" PMC%d", res->pmc[k]);
		printf("\n");
	} else {
		printf("  its events do not fit in one group: %s (%s); stat -M measures them "
		       "apart and flags it\n", pm.reason, pm.message);
	}
	pmurt_pack_free(pk);
}

bool describe_metric(const struct tool *t, const struct describe_opts *opts, const char *name)
{
	struct pmurt_metric_info m = {.sz = sizeof(m)};
	if (pmurt_metric_find(t->pmu, name, &m, NULL) < 0)
		return false;
	printf("%s  [perf metric%s%s]\n", m.name, m.groups ? ", groups " : "",
	       m.groups ? m.groups : "");
	if (m.description)
		printf("  %s\n", m.description);
	printf("  = %s\n", m.expr);
	if (m.scale_unit)
		printf("  scale %g, unit '%s' (ScaleUnit %s)\n", m.scale, m.unit, m.scale_unit);
	for (int k = 0; k < m.nevents; k++) {
		struct pmurt_event_info ev = {.sz = sizeof(ev)};
		if (m.event_index[k] >= 0 && pmurt_event_get(t->pmu, m.event_index[k], &ev) == 0)
			printf("  %-36s 0x%" PRIx64 "\n", ev.name, ev.code);
	}
	if (m.pmus)
		printf("  counts events of %s, not of this PMU\n", m.pmus);
	else
		describe_fit(t, opts, &m);
	return true;
}
