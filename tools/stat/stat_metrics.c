/*
 * stat_metrics.c - `pmutool stat -M NAME[,NAME...]`: metrics, metric groups
 * or events (any case) packed by pmurt_pack into the fewest groups the PMU
 * accepts, opened as those groups (pmurt_evlist_add_pack, after any -e
 * events),
 * and each metric computed from the counts of the group that measures it
 * (pmurt_metric_eval, in perf's doubles, ScaleUnit applied) with its unit
 * and multiplexing share (the least time_running / time_enabled among its
 * events, perf's "(xx.xx%)").  A metric no group holds whole is computed
 * from counts of different groups and flagged.  --dry-run prints the groups
 * with their group check, the metrics each measures and the bound.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmutool.h"
#include "stat.h"

struct stat_metric {
	const char *name;
	int index;              /* the metric's index in the PMU */
	int group;              /* the pack's group measuring it, -1 apart */
	bool apart;
	char reason[48];
	int nevents;
	int pos[PMURT_METRIC_MAX_EVENTS]; /* its events' places in the plan */
	double scale;
	char unit[16];
	double *values;         /* per run, ScaleUnit applied */
	double share;           /* the last run's */
	int rc;                 /* pmurt_metric_eval's, the last run */
	bool uncounted;         /* an event of it counts in no group: no value */
};

struct stat_metrics {
	struct pmurt_pack *pack;
	int first;              /* the plan's first event in the evlist */
	int ngroups;
	int *group_first;       /* each group's first event in the plan */
	int n;
	struct stat_metric *m;
};

/* The names of -M's comma-separated list, in the malloc'd *copy. */
static int split_names(const char *list, char **copy, const char ***names)
{
	int n = 1;
	for (const char *p = list; *p; p++)
		n += *p == ',';
	*copy = strdup(list);
	*names = calloc((size_t)n, sizeof(**names));
	if (!*copy || !*names)
		return -1;
	n = 0;
	for (char *s = strtok(*copy, ","); s; s = strtok(NULL, ","))
		(*names)[n++] = s;
	return n;
}

/* Each group's first event in the plan (ngroups + 1 of them). */
static int count_groups(struct stat_metrics *sm)
{
	sm->group_first = calloc((size_t)sm->ngroups + 1, sizeof(int));
	if (!sm->group_first)
		return -1;
	for (int g = 0; g < sm->ngroups; g++) {
		const struct pmurt_event_spec *ev;
		int n;
		pmurt_pack_group(sm->pack, g, &ev, &n, NULL);
		sm->group_first[g + 1] = sm->group_first[g] + n;
	}
	return 0;
}

/* Where event name sits in group g of the plan, or -1. */
static int place_in(const struct stat_metrics *sm, int g, const char *name)
{
	const struct pmurt_event_spec *ev;
	int n;
	if (g < 0 || pmurt_pack_group(sm->pack, g, &ev, &n, NULL))
		return -1;
	for (int i = 0; i < n; i++)
		if (strcmp(ev[i].name, name) == 0)
			return sm->group_first[g] + i;
	return -1;
}

static int add_metric(struct stat_metrics *sm, const struct pmurt_pmu *pmu,
		      const struct pmurt_pack_metric *pm, int runs)
{
	struct pmurt_metric_info info = {.sz = sizeof(info)};
	if (pm->index < 0 || pmurt_metric_get(pmu, pm->index, &info) || info.pmus)
		return 0; /* plain events are printed as counts; nest metrics not here */
	struct stat_metric *m = &sm->m[sm->n++];
	*m = (struct stat_metric){.name = info.name, .index = pm->index, .group = pm->group,
				  .apart = pm->apart, .nevents = info.nevents, .scale = info.scale};
	snprintf(m->reason, sizeof(m->reason), "%s", pm->reason);
	snprintf(m->unit, sizeof(m->unit), "%s", info.unit);
	m->values = calloc((size_t)runs, sizeof(double));
	if (!m->values)
		return -1;
	for (int k = 0; k < info.nevents; k++) {
		struct pmurt_event_info ev = {.sz = sizeof(ev)};
		pmurt_event_get(pmu, info.event_index[k], &ev);
		m->pos[k] = place_in(sm, pm->apart ? pm->event_group[k] : pm->group, ev.name);
		if (m->pos[k] < 0 && pm->apart) /* the pack names the event in pm->message */
			m->uncounted = true;
		else if (m->pos[k] < 0)
			return -1;
	}
	return 0;
}

/* -M without a core description: metrics are the description's. */
static void no_description(const struct tool *t, const struct stat_opts *opts)
{
	char names[256] = "";
	size_t len = 0;
	for (int i = 0; pmurt_builtin_name(i) && len < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
					pmurt_builtin_name(i));
	tool_error(t, "-M %s: metrics come from a core PMU description, and none is loaded "
		   "(this host's was not found); give --pmu NAME (built in: %s), or a .dtb, "
		   "device-tree directory or YAML file", opts->metric_names, names);
}

int stat_metrics_plan(const struct tool *t, const struct stat_opts *opts, struct stat_report *r)
{
	const struct pmurt_pmu *pmu = pmurt_host_pmu(t->host);
	struct stat_metrics *sm = calloc(1, sizeof(*sm));
	char *copy = NULL;
	const char **names = NULL;
	struct pmurt_error err = {0};
	bool per_task = !opts->all_cpus && !opts->cpu_list;
	struct pmurt_check_opts check = {.sz = sizeof(check), .per_task = per_task, .lpar = true};
	int n = sm ? split_names(opts->metric_names, &copy, &names) : -1, rc = EXIT_INTERNAL;

	r->metrics = sm;
	if (n < 0)
		goto out;
	if (!pmu) {
		no_description(t, opts);
		rc = EXIT_USAGE;
		goto out;
	}
	if (n == 0 || pmurt_pack(pmu, names, n, &check, &sm->pack, &err)) {
		tool_error(t, "-M %s: %s", opts->metric_names, n ? err.message : "no metric named");
		rc = n && err.code == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
		goto out;
	}
	struct pmurt_pack_info info = {.sz = sizeof(info)};
	pmurt_pack_info(sm->pack, &info);
	sm->ngroups = info.ngroups;
	if (info.ngroups == 0) { /* POWER9's PM_RC_USAGE: no group holds it, even alone */
		struct pmurt_pack_metric pm = {.sz = sizeof(pm)};
		pmurt_pack_metric_get(sm->pack, 0, &pm);
		tool_error(t, "-M %s: no group can count these metrics' events: %s",
			   opts->metric_names, pm.message[0] ? pm.message : "they name no event");
		rc = EXIT_USAGE;
		goto out;
	}
	sm->m = calloc((size_t)info.nmetrics + 1, sizeof(*sm->m));
	if (!sm->m || count_groups(sm))
		goto out;
	for (int i = 0; i < info.nmetrics; i++) {
		struct pmurt_pack_metric pm = {.sz = sizeof(pm)};
		if (pmurt_pack_metric_get(sm->pack, i, &pm) || add_metric(sm, pmu, &pm, r->runs))
			goto out;
	}
	rc = EXIT_OK;
out:
	free(copy);
	free(names);
	return rc;
}

int stat_metrics_add(struct stat_report *r, struct pmurt_evlist *list, struct pmurt_error *err)
{
	struct stat_metrics *sm = r->metrics;
	sm->first = pmurt_evlist_nevents(list);
	return pmurt_evlist_add_pack(list, sm->pack, err);
}

void stat_metrics_free(struct stat_report *r)
{
	struct stat_metrics *sm = r->metrics;
	if (!sm)
		return;
	for (int i = 0; i < sm->n; i++)
		free(sm->m[i].values);
	free(sm->m);
	free(sm->group_first);
	pmurt_pack_free(sm->pack);
	free(sm);
	r->metrics = NULL;
}

/* One metric's value from counts (now - prev when prev is given). */
static double metric_value(const struct tool *t, const struct stat_metrics *sm,
			   struct stat_metric *m, const struct pmurt_count *now,
			   const struct pmurt_count *prev)
{
	const struct pmurt_pmu *pmu = pmurt_host_pmu(t->host);
	uint64_t counts[PMURT_METRIC_MAX_EVENTS];
	double share = 1;
	if (m->uncounted) {
		m->rc = -ENODATA;
		m->share = 0;
		return NAN;
	}
	for (int k = 0; k < m->nevents; k++) {
		const struct pmurt_count *c = &now[sm->first + m->pos[k]];
		const struct pmurt_count *p = prev ? &prev[sm->first + m->pos[k]] : NULL;
		uint64_t en = c->time_enabled - (p ? p->time_enabled : 0);
		uint64_t run = c->time_running - (p ? p->time_running : 0);
		counts[k] = stat_interval_scaled(c, p);
		double s = en ? (double)run / (double)en : 0;
		share = s < share ? s : share;
	}
	struct pmurt_metric_value v = {.sz = sizeof(v)};
	m->rc = pmurt_metric_eval(pmu, m->index, counts, m->nevents, NULL, &v, NULL);
	m->share = share;
	return m->rc == 0 || m->rc == -ERANGE || m->rc == -EDOM ? v.value * m->scale : NAN;
}

void stat_metrics_compute(const struct tool *t, struct stat_report *r,
			  const struct pmurt_count *now, int run)
{
	struct stat_metrics *sm = r->metrics;
	for (int i = 0; sm && i < sm->n; i++)
		sm->m[i].values[run] = metric_value(t, sm, &sm->m[i], now, NULL);
}

static void print_line(const struct stat_opts *opts, FILE *out, const char *prefix, double value,
		       const struct stat_metric *m)
{
	if (opts->json) {   /* perf stat -j's line of a metric: its value and unit */
		fprintf(out, "{%s\"metric-value\" : %f, \"metric-unit\" : ", prefix, value);
		stat_json_string(out, m->name);
		fputs("}\n", out);
		return;
	}
	if (opts->sep) {
		fprintf(out, "%s%.2f%s%s%s%s%s%.2f%s%s\n", prefix, value, opts->sep, m->unit, opts->sep,
			m->name, opts->sep, m->share * 100, opts->sep, m->apart ? m->reason : "");
		return;
	}
	fprintf(out, "%s%18.2f %-4s %-44s (%6.2f%%)%s%s\n", prefix, value, m->unit, m->name,
		m->share * 100, m->apart ? "  measured apart: " : "", m->apart ? m->reason : "");
}

void stat_metrics_print(const struct stat_opts *opts, const struct stat_report *r)
{
	const struct stat_metrics *sm = r->metrics;
	FILE *out = opts->out ? opts->out : stderr;
	if (!sm)
		return;
	if (!opts->sep && !opts->json)
		fprintf(out, "\n Metrics (%d groups for %d metrics):\n\n", sm->ngroups, sm->n);
	for (int i = 0; i < sm->n; i++) {
		double mean, rel;
		stat_spread(sm->m[i].values, r->runs, &mean, &rel);
		print_line(opts, out, "", mean, &sm->m[i]);
	}
}

void stat_metrics_interval(const struct tool *t, const struct stat_opts *opts,
			   const struct stat_report *r, double when,
			   const struct pmurt_count *now, const struct pmurt_count *prev)
{
	struct stat_metrics *sm = r->metrics;
	FILE *out = opts->out ? opts->out : stderr;
	char prefix[48];
	if (!sm || opts->json_report)
		return;
	/* the time as stat_print_interval writes it for the counts */
	if (opts->json)
		snprintf(prefix, sizeof(prefix), "\"interval\" : %.9f, ", when);
	else if (opts->sep)
		snprintf(prefix, sizeof(prefix), "%.9f%s", when, opts->sep);
	else
		snprintf(prefix, sizeof(prefix), "%18.9f", when);
	for (int i = 0; i < sm->n; i++)
		print_line(opts, out, prefix, metric_value(t, sm, &sm->m[i], now, prev), &sm->m[i]);
}

void stat_metrics_values(const struct tool *t, const struct stat_report *r,
			 const struct pmurt_count *now, const struct pmurt_count *prev, double *out)
{
	struct stat_metrics *sm = r->metrics;
	for (int i = 0; sm && i < sm->n; i++)
		out[i] = metric_value(t, sm, &sm->m[i], now, prev);
}

json_t *stat_metrics_json(const struct stat_report *r)
{
	const struct stat_metrics *sm = r->metrics;
	json_t *a = json_array();
	for (int i = 0; sm && i < sm->n; i++) {
		const struct stat_metric *m = &sm->m[i];
		double mean, rel;
		stat_spread(m->values, r->runs, &mean, &rel);
		json_t *o = json_pack("{s:s, s:s, s:i, s:f, s:b}", "name", m->name, "unit", m->unit,
				      "group", m->group, "share", m->share * 100, "apart", m->apart);
		json_object_set_new(o, "value", isfinite(mean) ? json_real(mean) : json_null());
		if (m->apart)
			json_object_set_new(o, "reason", json_string(m->reason));
		json_array_append_new(a, o);
	}
	return a;
}

/* --- the dry run ------------------------------------------------------------- */
static json_t *measured_json(const struct stat_metrics *sm, int g)
{
	json_t *metrics = json_array();
	for (int i = 0; i < sm->n; i++)
		if (sm->m[i].group == g)
			json_array_append_new(metrics, json_string(sm->m[i].name));
	return metrics;
}

static void group_text(const struct tool *t, const struct stat_metrics *sm, int g)
{
	const struct pmurt_event_spec *ev;
	const struct pmurt_group_result *res;
	int n;
	char line[1024], key[32];
	pmurt_pack_group(sm->pack, g, &ev, &n, &res);
	size_t at = (size_t)snprintf(line, sizeof(line), "metric group %d:", g);
	for (int i = 0; i < n && at < sizeof(line); i++)
		at += (size_t)snprintf(line + at, sizeof(line) - at, " %s/PMC%d", ev[i].name,
				       res->pmc[i]);
	for (int i = 0; i < res->nregs && at < sizeof(line); i++)
		at += (size_t)snprintf(line + at, sizeof(line) - at, " %s=0x%" PRIx64,
				       tool_reg_key(pmurt_host_pmu(t->host), i, key, sizeof(key)),
				       res->regs[i]);
	tool_line("%s", line);
	at = (size_t)snprintf(line, sizeof(line), "  measures:");
	for (int i = 0; i < sm->n && at < sizeof(line); i++)
		if (sm->m[i].group == g)
			at += (size_t)snprintf(line + at, sizeof(line) - at, " %s", sm->m[i].name);
	tool_line("%s", line);
}

/* The dry run's "groups" (o's, one per group of the event list with its
 * events and check): the plan's get the metrics each measures. */
static void add_measured(const struct stat_metrics *sm, json_t *o)
{
	json_t *groups = json_object_get(o, "groups"), *grp;
	size_t i;
	json_array_foreach(groups, i, grp) {
		int leader = (int)json_integer_value(json_object_get(grp, "leader"));
		for (int g = 0; g < sm->ngroups; g++)
			if (leader == sm->first + sm->group_first[g])
				json_object_set_new(grp, "metrics", measured_json(sm, g));
	}
}

/* -M with --dry-run: the groups, what each measures, the bound and the
 * metrics no group holds whole; with JSON, into o. */
void stat_metrics_dry(const struct tool *t, const struct stat_report *r, json_t *o)
{
	const struct stat_metrics *sm = r->metrics;
	struct pmurt_pack_info info = {.sz = sizeof(info)};
	if (!sm)
		return;
	pmurt_pack_info(sm->pack, &info);
	json_t *apart = json_array();
	if (o)
		add_measured(sm, o);
	for (int g = 0; !o && g < sm->ngroups; g++)
		group_text(t, sm, g);
	for (int i = 0; i < info.nmetrics; i++) {
		struct pmurt_pack_metric pm = {.sz = sizeof(pm)};
		if (pmurt_pack_metric_get(sm->pack, i, &pm) || !pm.apart)
			continue;
		if (o)
			json_array_append_new(apart, json_pack("{s:s, s:s, s:s}", "name", pm.name,
				"reason", pm.reason, "message", pm.message));
		else
			tool_line("not whole: %s: %s: %s", pm.name, pm.reason, pm.message);
	}
	if (!o) {
		tool_line("%d metric groups for %d metrics and %d events; bound %d", info.ngroups,
			  info.nmetrics, info.nevents, info.bound);
		json_decref(apart);
		return;
	}
	json_object_set_new(o, "bound", json_integer(info.bound));
	json_object_set_new(o, "not_whole", apart);
}
