/*
 * stat_openmetrics.c - `pmutool stat --openmetrics`: the counts as
 * OpenMetrics 1.0 text (export/openmetrics.h), for Prometheus and the
 * stores that read its exposition.
 *
 *  - each event a counter family pmu_EVENT[_UNIT] (the name made safe,
 *    lower case), its unit in base units as OpenMetrics asks ("Units and
 *    Base Units": perf's msec clocks in seconds, sysfs units such as MiB
 *    in bytes, % as a ratio), its samples NAME_total labelled with the
 *    event as written, its PMU, its code (attr.config) and the host; an
 *    event counted twice in one run is told apart by "occurrence";
 *  - -M's metrics, gauges pmu_metric_NAME[_UNIT];
 *  - without -I one point per series, unstamped (the scrape's time), with
 *    the share of time each event was counted (multiplexing) and the
 *    elapsed time as gauges; with -I one point per interval, stamped with
 *    the time it was read (seconds since the epoch), the counters
 *    cumulative since the start as OpenMetrics counters are (perf's -I
 *    prints each interval's delta), the metrics per interval; the series
 *    written whole one after the other at the end, as the format wants a
 *    series' points together (so -I output is for backfilling, `promtool
 *    tsdb create-blocks-from openmetrics`, not for a live scrape);
 *  - an event not counted (not supported, never scheduled) has no point:
 *    a counter cannot be NaN;
 *  - with -A, --per-core, --per-die or --per-socket each unit's count is
 *    a series of its own, labelled with the unit as perf's CPU and
 *    S0-D0-C1 ids name it: cpu="3" (-A), socket, die and core (its parts,
 *    those the mode splits); a unit without the event (perf's tool events
 *    count on the first CPU alone) has no point.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "openmetrics.h"
#include "stat.h"

/* The -I points: per interval its time and every series' cumulative
 * count (NaN: not counted) and every metric's value; a series is an event
 * (unit * nevents + event with r->aggr's units). */
struct stat_om {
	int nevents, nmetrics, nseries;
	size_t n, cap;
	double *when;
	double *counts;    /* n * nseries */
	double *metrics;   /* n * nmetrics */
};

/* An event's unit in OpenMetrics' base units: the unit's name and the
 * factor from the count as perf stat prints it. */
struct om_unit {
	const char *name;
	double factor;
};

static struct om_unit base_unit(const char *unit)
{
	static const struct {
		const char *perf;
		struct om_unit om;
	} table[] = {
		{"msec", {"seconds", 1e-3}}, {"ms", {"seconds", 1e-3}}, {"usec", {"seconds", 1e-6}},
		{"us", {"seconds", 1e-6}}, {"ns", {"seconds", 1e-9}}, {"nsec", {"seconds", 1e-9}},
		{"s", {"seconds", 1}}, {"sec", {"seconds", 1}}, {"seconds", {"seconds", 1}},
		{"Joules", {"joules", 1}}, {"Watts", {"watts", 1}}, {"MiB", {"bytes", 1048576}},
		{"KiB", {"bytes", 1024}}, {"GiB", {"bytes", 1073741824}}, {"MB", {"bytes", 1e6}},
		{"bytes", {"bytes", 1}}, {"%", {"ratio", 0.01}}, {"C", {"celsius", 1}},
	};
	for (size_t i = 0; unit && i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(unit, table[i].perf))
			return table[i].om;
	return (struct om_unit){unit && *unit ? unit : NULL, 1};
}

int stat_om_check(const struct tool *t, const struct stat_opts *opts)
{
	const char *opt = opts->json ? "--json" : opts->json_report ? "--json-report"
			  : opts->sep ? "-x" : opts->dry_run ? "--dry-run"
			  : opts->append ? "--append"
			  : opts->repeat > 1 ? "-r" : NULL;
	if (!opt)
		return EXIT_OK;
	tool_error(t, "--openmetrics: %s cannot go with it%s", opt,
		   opts->repeat > 1 ? " (a mean over runs is no counter: run once)" : "");
	return EXIT_USAGE;
}

static int om_grow(struct stat_om *om)
{
	if (om->n < om->cap)
		return 0;
	size_t cap = om->cap ? 2 * om->cap : 64;
	double *w = realloc(om->when, cap * sizeof(*w));
	if (w)
		om->when = w;
	double *c = realloc(om->counts, cap * (size_t)(om->nseries + 1) * sizeof(*c));
	if (c)
		om->counts = c;
	double *m = realloc(om->metrics, cap * (size_t)(om->nmetrics + 1) * sizeof(*m));
	if (m)
		om->metrics = m;
	if (!w || !c || !m)
		return -ENOMEM;
	om->cap = cap;
	return 0;
}

static int metric_count(const struct stat_report *r)
{
	json_t *a = stat_metrics_json(r);
	int n = (int)json_array_size(a);
	json_decref(a);
	return n;
}

int stat_om_interval(const struct tool *t, struct stat_report *r, const struct pmurt_count *now,
		     const struct pmurt_count *prev, int n)
{
	struct timespec ts;
	const struct stat_aggr *a = r->aggr;
	clock_gettime(CLOCK_REALTIME, &ts);
	if (!r->om) {
		r->om = calloc(1, sizeof(*r->om));
		if (!r->om)
			return -ENOMEM;
		r->om->nevents = n;
		r->om->nseries = a ? a->nunits * n : n;
		r->om->nmetrics = metric_count(r);
	}
	struct stat_om *om = r->om;
	if (om_grow(om))
		return -ENOMEM;
	om->when[om->n] = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	const struct pmurt_count *c = a ? a->now : now;
	for (int k = 0; k < om->nseries; k++)
		om->counts[om->n * (size_t)om->nseries + (size_t)k] =
			c[k].skipped || !c[k].time_running ? NAN : (double)c[k].scaled * c[k].scale;
	stat_metrics_values(t, r, now, prev, om->metrics + om->n * (size_t)om->nmetrics);
	om->n++;
	return 0;
}

void stat_om_free(struct stat_report *r)
{
	if (!r->om)
		return;
	free(r->om->when);
	free(r->om->counts);
	free(r->om->metrics);
	free(r->om);
	r->om = NULL;
}

struct om_out {
	const struct tool *t;
	const struct stat_report *r;
	struct om_writer *w;
	struct pmurt_error err;
	char host[256];
};

/* Labels of unit u of r->aggr (none without): its id's parts. */
static int unit_labels(const struct stat_aggr *a, int u, char id[3][12], struct om_label *l)
{
	if (!a)
		return 0;
	const struct stat_unit *x = &a->units[u];
	if (a->mode == STAT_AGGR_CPU) {
		snprintf(id[0], 12, "%d", x->cpu);
		l[0] = (struct om_label){"cpu", id[0]};
		return 1;
	}
	int n = 0;
	snprintf(id[n], 12, "%d", x->socket);
	l[n] = (struct om_label){"socket", id[n]};
	n++;
	if (a->mode == STAT_AGGR_DIE || a->mode == STAT_AGGR_CORE) {
		snprintf(id[n], 12, "%d", x->die);
		l[n] = (struct om_label){"die", id[n]};
		n++;
	}
	if (a->mode == STAT_AGGR_CORE) {
		snprintf(id[n], 12, "%d", x->core);
		l[n] = (struct om_label){"core", id[n]};
		n++;
	}
	return n;
}

/* The units of the counts: r->aggr's, else one (all). */
static int unit_count(const struct stat_report *r)
{
	return r->aggr ? r->aggr->nunits : 1;
}

/* Event i's count over the run in unit u (r->aggr's, else the whole). */
static const struct stat_event *unit_event(const struct stat_report *r, int u, int i)
{
	return r->aggr ? &r->aggr->ev[(size_t)u * (size_t)r->nevents + (size_t)i] : &r->ev[i];
}

#define MAX_LABELS 8

/* Event i's series labels in unit u (occurrence: 1 for the first of its
 * name). */
static int event_labels(const struct om_out *o, int i, int u, char code[24], char occ[12],
			char id[3][12], struct om_label *l)
{
	const struct stat_event *e = &o->r->ev[i];
	int n = 0, same = 1;
	for (int j = 0; j < i; j++)
		same += !strcmp(o->r->ev[j].name, e->name) && o->r->ev[j].config == e->config;
	snprintf(code, 24, "%#" PRIx64, e->config);
	snprintf(occ, 12, "%d", same);
	l[n++] = (struct om_label){"event", e->name};
	l[n++] = (struct om_label){"pmu", e->pmu ? e->pmu : ""};
	l[n++] = (struct om_label){"code", code};
	l[n++] = (struct om_label){"host", o->host};
	if (same > 1)
		l[n++] = (struct om_label){"occurrence", occ};
	return n + unit_labels(o->r->aggr, u, id, l + n);
}

static void family_name(const struct stat_event *e, char *name, size_t len)
{
	om_name(name, len, "pmu", e->name, base_unit(e->unit).name);
}

/* Event i's points in unit u: each interval's, else the run's. */
static int event_points(struct om_out *o, int i, int u)
{
	const struct stat_report *r = o->r;
	char code[24], occ[12], id[3][12];
	struct om_label l[MAX_LABELS];
	int rc = 0, nl = event_labels(o, i, u, code, occ, id, l);
	double f = base_unit(r->ev[i].unit).factor;
	size_t series = (size_t)u * (size_t)r->nevents + (size_t)i;
	for (size_t k = 0; r->om && !rc && k < r->om->n; k++) {
		double v = r->om->counts[k * (size_t)r->om->nseries + series];
		if (!isnan(v))
			rc = om_sample(o->w, l, nl, v * f, &r->om->when[k], &o->err);
	}
	const struct stat_event *e = unit_event(r, u, i);
	if (!r->om && !rc && !e->not_counted && !e->not_supported)
		rc = om_sample(o->w, l, nl, e->values[0] * f, NULL, &o->err);
	return rc;
}

/* One counter family: every event whose name maps to it, in order. */
static int event_family(struct om_out *o, int first)
{
	const struct stat_report *r = o->r;
	char name[256], other[256], help[512];
	struct om_unit u = base_unit(r->ev[first].unit);
	family_name(&r->ev[first], name, sizeof(name));
	snprintf(help, sizeof(help), "%s counted by pmutool stat%s%s", r->ev[first].name,
		 r->ev[first].unit && *r->ev[first].unit ? ", perf's unit " : "",
		 r->ev[first].unit ? r->ev[first].unit : "");
	int rc = om_family(o->w, name, OM_COUNTER, u.name, help, &o->err);
	for (int i = first; !rc && i < r->nevents; i++) {
		family_name(&r->ev[i], other, sizeof(other));
		if (strcmp(other, name))
			continue;
		for (int unit = 0; !rc && unit < unit_count(r); unit++)
			rc = event_points(o, i, unit);
	}
	return rc;
}

/* Whether an earlier event took event i's family already. */
static bool family_done(const struct stat_report *r, int i)
{
	char a[256], b[256];
	family_name(&r->ev[i], a, sizeof(a));
	for (int j = 0; j < i; j++) {
		family_name(&r->ev[j], b, sizeof(b));
		if (!strcmp(a, b))
			return true;
	}
	return false;
}

/* Without -I: each event's counted share and the run's elapsed time. */
static int run_gauges(struct om_out *o)
{
	const struct stat_report *r = o->r;
	char code[24], occ[12], id[3][12];
	int rc = om_family(o->w, "pmu_stat_counted_ratio", OM_GAUGE, "ratio",
			   "The share of the run each event was counted (multiplexing: "
			   "time_running / time_enabled)", &o->err);
	for (int i = 0; !rc && i < r->nevents; i++) {
		for (int u = 0; !rc && u < unit_count(r); u++) {
			const struct stat_event *e = unit_event(r, u, i);
			struct om_label l[MAX_LABELS];
			int nl = event_labels(o, i, u, code, occ, id, l);
			if (e->enabled && !e->not_supported)
				rc = om_sample(o->w, l, nl, (double)e->running / (double)e->enabled,
					       NULL, &o->err);
		}
	}
	if (!rc)
		rc = om_family(o->w, "pmu_stat_elapsed_seconds", OM_GAUGE, "seconds",
			       "The run's wall-clock time", &o->err);
	struct om_label host = {"host", o->host};
	if (!rc)
		rc = om_sample(o->w, &host, 1, r->elapsed[0], NULL, &o->err);
	return rc;
}

/* -M's metrics, a gauge family each. */
static int metric_families(struct om_out *o)
{
	json_t *a = stat_metrics_json(o->r);
	int rc = 0;
	for (size_t i = 0; !rc && i < json_array_size(a); i++) {
		json_t *m = json_array_get(a, i);
		const char *mname = json_string_value(json_object_get(m, "name"));
		const char *munit = json_string_value(json_object_get(m, "unit"));
		struct om_unit u = base_unit(munit);
		char name[256], help[512];
		om_name(name, sizeof(name), "pmu_metric", mname ? mname : "", u.name);
		snprintf(help, sizeof(help), "perf metric %s computed by pmutool stat -M", mname);
		rc = om_family(o->w, name, OM_GAUGE, u.name, help, &o->err);
		struct om_label l[2] = {{"metric", mname ? mname : ""}, {"host", o->host}};
		for (size_t k = 0; o->r->om && !rc && k < o->r->om->n; k++) {
			double v = o->r->om->metrics[k * (size_t)o->r->om->nmetrics + i];
			if (isfinite(v))
				rc = om_sample(o->w, l, 2, v * u.factor, &o->r->om->when[k], &o->err);
		}
		json_t *v = json_object_get(m, "value");
		if (!o->r->om && !rc && json_is_number(v))
			rc = om_sample(o->w, l, 2, json_number_value(v) * u.factor, NULL, &o->err);
	}
	json_decref(a);
	return rc;
}

int stat_om_print(const struct tool *t, const struct stat_opts *opts, const struct stat_report *r)
{
	struct om_out o = {.t = t, .r = r};
	if (gethostname(o.host, sizeof(o.host) - 1) != 0)
		snprintf(o.host, sizeof(o.host), "unknown");
	FILE *out = opts->out ? opts->out : stderr;
	int rc = om_writer_open(&o.w, out, &o.err);
	for (int i = 0; !rc && !opts->metric_only && i < r->nevents; i++)
		if (!family_done(r, i))
			rc = event_family(&o, i);
	if (!rc)
		rc = metric_families(&o);
	if (!rc && !r->om && !opts->metric_only)
		rc = run_gauges(&o);
	if (!rc)
		rc = om_finish(o.w, &o.err);
	om_writer_free(o.w);
	if (rc) {
		tool_error(t, "--openmetrics: %s", o.err.message);
		return rc == -EINVAL ? EXIT_USAGE : EXIT_INTERNAL;
	}
	return EXIT_OK;
}
