/*
 * stat_print.c - pmutool stat's output: perf stat's text layout (value,
 * unit, event, the spread over -r runs, the percent of time counted when
 * multiplexed), CSV with -x SEP (perf's first columns: value, unit, event,
 * run time, percent), -I intervals, and JSON with a "version" key.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

void stat_spread(const double *v, int n, double *mean, double *rel)
{
	/* Welford, then perf's stddev of the mean (util/stat.c stddev_stats) */
	double m = 0, m2 = 0;
	for (int i = 0; i < n; i++) {
		double d = v[i] - m;
		m += d / (i + 1);
		m2 += d * (v[i] - m);
	}
	*mean = m;
	*rel = n > 1 && m != 0 ? 100.0 * sqrt(m2 / (n - 1) / n) / fabs(m) : 0;
}

static double percent(uint64_t running, uint64_t enabled)
{
	return enabled ? 100.0 * (double)running / (double)enabled : 0;
}

static void format_value(double v, const char *unit, char *out, size_t len)
{
	snprintf(out, len, unit[0] ? "%.2f" : "%.0f", v);
}

/* An event's value as perf stat prints it: <not supported> when the host
 * cannot count it, <not counted> when it never ran (or its group's leader
 * could not be opened), else the mean. */
static void event_value(const struct stat_event *e, double mean, char *out, size_t len)
{
	if (e->not_supported)
		snprintf(out, len, "<not supported>");
	else if (e->not_counted)
		snprintf(out, len, "<not counted>");
	else
		format_value(mean, e->unit, out, len);
}

/* Where a run's counts go: -o FILE, else standard error (perf stat's). */
static FILE *out_of(const struct tool *t)
{
	return t->stat_out ? t->stat_out : stderr;
}

void stat_print_text(const struct tool *t, const struct stat_report *r)
{
	FILE *out = out_of(t);
	bool multiplexed = false;
	if (r->pid)   /* builtin-stat.c print_header: "process id" */
		fprintf(out, "\n Performance counter stats for process id '%d'", r->pid);
	else
		fprintf(out, "\n Performance counter stats for '%s'", r->command);
	if (r->runs > 1)
		fprintf(out, " (%d runs)", r->runs);
	fprintf(out, ":\n\n");
	for (int i = 0; i < r->nevents; i++) {
		const struct stat_event *e = &r->ev[i];
		double mean, rel;
		char value[48], extra[64] = "";
		stat_spread(e->values, r->runs, &mean, &rel);
		event_value(e, mean, value, sizeof(value));
		size_t n = 0;
		if (r->runs > 1 && !e->not_counted)
			n += (size_t)snprintf(extra, sizeof(extra), "( +- %5.2f%% )", rel);
		if (e->running < e->enabled && !e->not_counted) {
			snprintf(extra + n, sizeof(extra) - n, "%s(%.2f%%)", n ? "  " : "",
				 percent(e->running, e->enabled));
			multiplexed = true;
		}
		fprintf(out, "%18s %-5s %-32s %s\n", value, e->unit, e->name, extra);
	}
	for (int i = 0; i < r->nderived; i++) {
		const struct stat_derived *d = &r->derived[i];
		double mean, rel;
		stat_spread(d->values, r->runs, &mean, &rel);
		if (d->failed)
			fprintf(out, "%18s       %-32s # %s\n", "<not computed>", d->name, d->why);
		else
			fprintf(out, "%18.0f       %-32s # %s\n", mean, d->name, d->formula);
	}
	double mean, rel;
	stat_spread(r->elapsed, r->runs, &mean, &rel);
	fprintf(out, "\n%18.9f seconds time elapsed", mean);
	if (r->runs > 1)
		fprintf(out, "                  ( +- %5.2f%% )", rel);
	fprintf(out, "\n\n");
	if (multiplexed)
		fprintf(out, "Some events were multiplexed: their counts are scaled by "
			"time_enabled / time_running; (N%%) is the part of the time they were "
			"counted.\n\n");
}

void stat_print_csv(const struct tool *t, const struct stat_report *r)
{
	FILE *out = out_of(t);
	const char *s = t->sep;
	for (int i = 0; i < r->nevents; i++) {
		const struct stat_event *e = &r->ev[i];
		double mean, rel;
		char value[48];
		stat_spread(e->values, r->runs, &mean, &rel);
		event_value(e, mean, value, sizeof(value));
		fprintf(out, "%s%s%s%s%s%s%" PRIu64 "%s%.2f", value, s, e->unit, s, e->name, s, e->running,
		       s, percent(e->running, e->enabled));
		if (r->runs > 1)
			fprintf(out, "%s%.2f%%", s, rel);
		fprintf(out, "\n");
	}
	for (int i = 0; i < r->nderived; i++) {
		const struct stat_derived *d = &r->derived[i];
		double mean, rel;
		stat_spread(d->values, r->runs, &mean, &rel);
		if (d->failed)
			fprintf(out, "<not computed>%s%s%s\n", s, s, d->name);
		else
			fprintf(out, "%.0f%s%s%s\n", mean, s, s, d->name);
	}
}

json_t *stat_report_json(const struct stat_report *r)
{
	json_t *events = json_array();
	for (int i = 0; i < r->nevents; i++) {
		const struct stat_event *e = &r->ev[i];
		double mean, rel;
		json_t *runs = json_array();
		stat_spread(e->values, r->runs, &mean, &rel);
		for (int k = 0; k < r->runs; k++)
			json_array_append_new(runs, json_real(e->values[k]));
		json_array_append_new(events, json_pack(
			"{s:s, s:s, s:s, s:f, s:b, s:b, s:I, s:I, s:f, s:b, s:f, s:o}", "name", e->name,
			"pmu", e->pmu, "unit", e->unit, "value", mean, "counted", !e->not_counted,
			"supported", !e->not_supported,
			"time_enabled", (json_int_t)e->enabled, "time_running", (json_int_t)e->running,
			"percent_counted", percent(e->running, e->enabled),
			"multiplexed", e->running < e->enabled, "stddev_percent", rel, "runs", runs));
	}
	json_t *derived = json_array();
	for (int i = 0; i < r->nderived; i++) {
		const struct stat_derived *d = &r->derived[i];
		double mean, rel;
		json_t *runs = json_array();
		stat_spread(d->values, r->runs, &mean, &rel);
		for (int k = 0; k < r->runs; k++)
			json_array_append_new(runs, json_real(d->values[k]));
		json_array_append_new(derived, json_pack("{s:s, s:s, s:o, s:f, s:o, s:i, s:i}", "name",
			d->name, "formula", d->formula, "value", d->failed ? json_null()
			: json_real(mean), "stddev_percent", rel, "runs", runs, "first_event", d->first,
			"nevents", d->n));
	}
	double mean, rel;
	stat_spread(r->elapsed, r->runs, &mean, &rel);
	json_t *o = json_pack("{s:i, s:s?, s:i, s:i, s:f, s:f, s:o, s:o}", "version",
			      STAT_JSON_VERSION, "command", r->command, "runs", r->runs,
			      "exit_status", r->status, "elapsed_seconds", mean,
			      "elapsed_stddev_percent", rel, "events", events, "derived", derived);
	if (o && r->pid)
		json_object_set_new(o, "pid", json_integer(r->pid));
	return o;
}

void stat_print_interval(const struct tool *t, double when, const struct pmurt_count *now,
			 const struct pmurt_count *prev, int n, json_t *intervals)
{
	FILE *out = out_of(t);
	json_t *events = intervals ? json_array() : NULL;
	for (int i = 0; i < n; i++) {
		const struct pmurt_count *c = &now[i];
		uint64_t d = c->scaled - prev[i].scaled;
		double v = (double)d * c->scale;
		uint64_t en = c->time_enabled - prev[i].time_enabled;
		uint64_t run = c->time_running - prev[i].time_running;
		char value[48];
		struct stat_event e = {.unit = c->unit, .not_counted = c->skipped != 0,
				       .not_supported = c->skipped && c->skipped != ECANCELED};
		event_value(&e, v, value, sizeof(value));
		if (events)
			json_array_append_new(events, json_pack("{s:s, s:f, s:b, s:I, s:I}", "name",
				c->name, "value", v, "supported", !e.not_supported, "time_enabled",
				(json_int_t)en, "time_running", (json_int_t)run));
		else if (t->sep)
			fprintf(out, "%.9f%s%s%s%s%s%s%s%" PRIu64 "%s%.2f\n", when, t->sep, value, t->sep,
			       c->unit, t->sep, c->name, t->sep, run, t->sep, percent(run, en));
		else
			fprintf(out, "%18.9f %18s %-5s %s\n", when, value, c->unit, c->name);
	}
	if (events)
		json_array_append_new(intervals, json_pack("{s:f, s:o}", "time", when, "events",
							   events));
}

void stat_print_json(json_t *o, FILE *out)
{
	char *s = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	json_decref(o);
	if (s)
		fprintf(out, "%s\n", s);
	free(s);
}
