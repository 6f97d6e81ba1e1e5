/*
 * stat_print.c - pmutool stat's output: perf 6.1 stat's text layout
 * (tools/perf/util/stat-display.c: value, unit, event, its derived figure
 * from stat_shadow.c, the spread over -r runs, the percent of time counted
 * when multiplexed; the elapsed time, the command's user and sys times),
 * CSV with -x SEP in perf's column order (value, unit, event, spread, run
 * time, percent, derived value and unit), -I intervals with perf's header
 * and time stamps, and JSON with a "version" key.
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

/* perf's unit column: config->unit_width, 4 (strlen("msec")). */
#define UNIT_WIDTH 4
/* perf's metric column (stat-display.c METRIC_LEN). */
#define METRIC_LEN 35

/* A count as perf's abs_printout: two decimals for a fractional scale
 * (msec), none for whole counts. */
static void format_value(double v, double scale, char *out, size_t len)
{
	snprintf(out, len, floor(scale) != scale ? "%.2f" : "%.0f", v);
}

/* Where a run's counts go: -o FILE, else standard error (perf stat's). */
static FILE *out_of(const struct stat_opts *opts)
{
	return opts->out ? opts->out : stderr;
}

/* print_metric_std: " # VALUE UNIT" in METRIC_LEN columns, or blanks. */
static void metric_text(FILE *out, const struct stat_shadow_figure *m)
{
	if (!m->fmt) {
		fprintf(out, "%-*s", METRIC_LEN, "");
		return;
	}
	char v[64];
	snprintf(v, sizeof(v), m->fmt, m->value);
	int n = 3 + (int)strlen(v);
	fprintf(out, " # %s %-*s", v, METRIC_LEN - n - 1, m->unit);
}

/* print_metric_csv: SEP VALUE SEP UNIT, the value's digits alone. */
static void metric_csv(FILE *out, const char *sep, const struct stat_shadow_figure *m)
{
	if (!m->fmt) {
		fprintf(out, "%s%s", sep, sep);
		return;
	}
	char v[64];
	snprintf(v, sizeof(v), m->fmt, m->value);
	const char *digits = v + strspn(v, " ");
	size_t len = strspn(digits, "0123456789.");
	fprintf(out, "%s%.*s%s%s", sep, (int)len, digits, sep, m->unit);
}

/* One event's count line as perf's printout (stat-display.c), text or CSV
 * (sep): value, unit, name, then in CSV the spread and running columns
 * before the derived figure, in text after it.  noise: the spread in
 * percent, < 0 for one run. */
struct count_line {
	const char *prefix;    /* the unit's columns (-A, --per-core), else NULL */
	double value;
	double scale;
	const char *unit, *name;
	bool not_counted, not_supported;
	double noise;
	uint64_t running, enabled;
	struct stat_shadow_figure metric;
};

/* print_noise_pct */
static void noise_text(FILE *out, const char *sep, double noise)
{
	if (noise < 0)
		return;
	if (sep)
		fprintf(out, "%s%.2f%%", sep, noise);
	else if (noise)
		fprintf(out, "  ( +-%6.2f%% )", noise);
}

/* The part of the time counted as perf's CSV and JSON lines give it
 * (print_running): in whole percents, perf's integer division, 100 when
 * never multiplexed. */
static double running_whole_percent(uint64_t run, uint64_t ena)
{
	return run != ena && ena ? (double)(100 * run / ena) : 100.0;
}

/* print_running: the part of the time counted, when multiplexed (CSV:
 * always). */
static void running_text(FILE *out, const char *sep, uint64_t run, uint64_t ena)
{
	if (sep)
		fprintf(out, "%s%" PRIu64 "%s%.2f", sep, run, sep, running_whole_percent(run, ena));
	else if (run != ena && ena)
		fprintf(out, "  (%.2f%%)", 100.0 * (double)run / (double)ena);
}

static void print_count_line(FILE *out, const char *sep, const struct count_line *l)
{
	bool none = l->not_counted || l->not_supported;
	char value[48];
	if (none)
		snprintf(value, sizeof(value), "%s",
			 l->not_supported ? "<not supported>" : "<not counted>");
	else
		format_value(l->value, l->scale, value, sizeof(value));
	if (l->prefix)
		fputs(l->prefix, out);
	if (sep)
		fprintf(out, "%s%s%s%s%s", value, sep, l->unit, sep, l->name);
	else
		fprintf(out, "%18s %-*s %-*s", value, UNIT_WIDTH, l->unit, none ? 25 : 32, l->name);
	struct stat_shadow_figure blank = {0};
	const struct stat_shadow_figure *m = none ? &blank : &l->metric;
	if (sep) {
		noise_text(out, sep, l->noise);
		running_text(out, sep, l->running, l->enabled);
		metric_csv(out, sep, m);
	} else {
		metric_text(out, m);
		noise_text(out, NULL, l->noise);
		running_text(out, NULL, l->running, l->enabled);
	}
	fprintf(out, "\n");
}

/* s as a JSON string, quoted and escaped (jansson's encoder). */
void stat_json_string(FILE *out, const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	fputs(text ? text : "\"\"", out);
	free(text);
	json_decref(j);
}

/* One event's line as perf 6.1's stat -j prints it (stat-display.c with
 * json_output: abs_printout, print_noise_pct, print_running,
 * print_metric_json): the interval (-I), the value ("%f" of the scaled
 * count, or <not counted>/<not supported>), unit, event, the spread with
 * -r, the running time and its percent, the derived figure.  Where perf
 * 6.1 prints "(null)" for an event without one (a NULL unit through %s),
 * this prints "". */
static void print_count_json(FILE *out, const char *interval, const struct count_line *l)
{
	bool none = l->not_counted || l->not_supported;
	fputc('{', out);
	if (interval)
		fprintf(out, "\"interval\" : %s, ", interval);
	if (l->prefix)
		fputs(l->prefix, out);
	if (none)
		fprintf(out, "\"counter-value\" : \"%s\", ",
			l->not_supported ? "<not supported>" : "<not counted>");
	else
		fprintf(out, "\"counter-value\" : \"%f\", ", l->value);
	fputs("\"unit\" : ", out);
	stat_json_string(out, l->unit);
	fputs(", \"event\" : ", out);
	stat_json_string(out, l->name);
	if (l->noise >= 0)
		fprintf(out, ", \"variance\" : %.2f", l->noise);
	fprintf(out, ", \"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, ", l->running,
		running_whole_percent(l->running, l->enabled));
	const struct stat_shadow_figure *m = &l->metric;
	fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : ", !none && m->fmt ? m->value : 0.0);
	stat_json_string(out, !none && m->fmt ? m->unit : "");
	fputs("}\n", out);
}

/* An event of the report: its line and its part of the derived figures'
 * inputs (means over the runs). */
static void report_event(const struct stat_event *e, int runs, struct count_line *l,
			 struct stat_shadow_event *se)
{
	double mean, rel;
	stat_spread(e->values, runs, &mean, &rel);
	*l = (struct count_line){.value = mean, .scale = e->scale, .unit = e->unit, .name = e->name,
				 .not_counted = e->not_counted, .not_supported = e->not_supported,
				 .noise = runs > 1 ? rel : -1, .running = e->running,
				 .enabled = e->enabled};
	*se = (struct stat_shadow_event){.type = e->type, .config = e->config, .value = mean,
					 .count = e->scale ? mean / e->scale : mean,
					 .counted = !e->not_counted && !e->not_supported};
}

/* Every event's line of the report, with its derived figure: text, CSV
 * (sep) or perf's JSON lines (json). */
/* One line of unit u and event i: its columns (perf's aggr_printout),
 * the stamp before them with -I. */
static void print_unit_line(FILE *out, const char *sep, const char *stamp, const char *json_stamp,
			    const struct stat_aggr *a, int u, int i, struct count_line *l)
{
	int nr = stat_aggr_cpus(a, u, &a->now[(size_t)u * (size_t)a->nevents + (size_t)i]);
	char prefix[96];
	if (a->mode == STAT_AGGR_CPU && !nr)
		return;   /* a tool event, on the first CPU only (print_counter) */
	stat_aggr_label(a, u, nr, sep, json_stamp != NULL, prefix, sizeof(prefix));
	l->prefix = prefix;
	if (json_stamp) {
		print_count_json(out, json_stamp[0] ? json_stamp : NULL, l);
		return;
	}
	if (stamp)
		fputs(stamp, out);
	print_count_line(out, sep, l);
}

/* The units' lines (lines[u * nevents + i], their derived figures in)
 * in perf's order: -A each event's CPUs (print_counter), else each
 * unit's events (print_aggr).  json_stamp: JSON ("" without -I). */
static void print_units(FILE *out, const char *sep, const char *stamp, const char *json_stamp,
			const struct stat_aggr *a, struct count_line *lines)
{
	int n = a->nevents;
	if (a->mode == STAT_AGGR_CPU) {
		for (int i = 0; i < n; i++)
			for (int u = 0; u < a->nunits; u++)
				print_unit_line(out, sep, stamp, json_stamp, a, u, i,
						&lines[u * n + i]);
		return;
	}
	for (int u = 0; u < a->nunits; u++)
		for (int i = 0; i < n; i++)
			print_unit_line(out, sep, stamp, json_stamp, a, u, i, &lines[u * n + i]);
}

/* Each unit's lines over the runs, its derived figures from its own
 * counts (perf's per-aggregate shadow stats). */
static void print_aggr_events(FILE *out, const char *sep, bool json, const struct stat_report *r,
			      double wall_ns)
{
	const struct stat_aggr *a = r->aggr;
	int n = a->nevents, total = a->nunits * n > 0 ? a->nunits * n : 1;
	struct count_line *lines = calloc((size_t)total, sizeof(*lines));
	struct stat_shadow_event *se = calloc((size_t)total, sizeof(*se));
	for (int u = 0; lines && se && u < a->nunits; u++) {
		for (int i = 0; i < n; i++)
			report_event(&a->ev[u * n + i], r->runs, &lines[u * n + i], &se[u * n + i]);
		struct stat_shadow sh;
		stat_shadow_collect(&sh, &se[u * n], n, wall_ns);
		for (int i = 0; i < n; i++)
			stat_shadow_metric(&sh, &se[u * n + i], &lines[u * n + i].metric);
	}
	if (lines && se)
		print_units(out, sep, NULL, json ? "" : NULL, a, lines);
	free(lines);
	free(se);
}

static void print_events(FILE *out, const char *sep, bool json, const struct stat_report *r)
{
	int n = r->nevents > 0 ? r->nevents : 1;
	struct count_line lines[n];
	struct stat_shadow_event se[n];
	double wall, rel;
	stat_spread(r->elapsed, r->runs, &wall, &rel);
	if (r->aggr) {
		print_aggr_events(out, sep, json, r, wall * 1e9);
		return;
	}
	for (int i = 0; i < r->nevents; i++)
		report_event(&r->ev[i], r->runs, &lines[i], &se[i]);
	struct stat_shadow sh;
	stat_shadow_collect(&sh, se, r->nevents, wall * 1e9);
	for (int i = 0; i < r->nevents; i++) {
		stat_shadow_metric(&sh, &se[i], &lines[i].metric);
		if (json)
			print_count_json(out, NULL, &lines[i]);
		else
			print_count_line(out, sep, &lines[i]);
	}
}

/* perf's get_precision: two digits past the spread's first. */
static int precision_of(double sd)
{
	if (sd > 1)
		return 2;
	return sd > 0 ? (int)lround(ceil(-log10(sd))) + 2 : 9;
}

/* print_footer: the elapsed time (with -r its spread), the command's user
 * and sys times. */
static void print_footer(FILE *out, const struct stat_report *r)
{
	double mean, rel;
	stat_spread(r->elapsed, r->runs, &mean, &rel);
	fprintf(out, "\n");
	if (r->runs == 1) {
		fprintf(out, " %17.9f seconds time elapsed", mean);
		if (r->rusage)
			fprintf(out, "\n\n %17.9f seconds user\n %17.9f seconds sys\n", r->user_s,
				r->sys_s);
	} else {
		double sd = rel * fabs(mean) / 100;
		int p = precision_of(sd);
		fprintf(out, " %17.*f +- %.*f seconds time elapsed", p, mean, p, sd);
		noise_text(out, NULL, rel);
	}
	fprintf(out, "\n\n");
}

void stat_print_text(const struct stat_opts *opts, const struct stat_report *r)
{
	FILE *out = out_of(opts);
	bool multiplexed = false;
	/* stat-display.c print_header_std: -a, then -C, then -p, then the command */
	if (opts->all_cpus)
		fprintf(out, "\n Performance counter stats for 'system wide'");
	else if (opts->cpu_list)
		fprintf(out, "\n Performance counter stats for 'CPU(s) %s'", opts->cpu_list);
	else if (r->pid)
		fprintf(out, "\n Performance counter stats for process id '%d'", r->pid);
	else
		fprintf(out, "\n Performance counter stats for '%s'", r->command);
	if (r->runs > 1)
		fprintf(out, " (%d runs)", r->runs);
	fprintf(out, ":\n\n");
	print_events(out, NULL, false, r);
	for (int i = 0; i < r->nevents; i++)
		multiplexed |= r->ev[i].running < r->ev[i].enabled && !r->ev[i].not_counted;
	for (int i = 0; i < r->nderived; i++) {
		const struct stat_derived *d = &r->derived[i];
		double mean, rel;
		stat_spread(d->values, r->runs, &mean, &rel);
		if (d->failed)
			fprintf(out, "%18s       %-32s # %s\n", "<not computed>", d->name, d->why);
		else
			fprintf(out, "%18.0f       %-32s # %s\n", mean, d->name, d->formula);
	}
	print_footer(out, r);
	if (multiplexed)
		fprintf(out, "Some events were multiplexed: their counts are scaled by "
			"time_enabled / time_running; (N%%) is the part of the time they were "
			"counted.\n\n");
}

void stat_print_csv(const struct stat_opts *opts, const struct stat_report *r)
{
	FILE *out = out_of(opts);
	const char *s = opts->sep;
	print_events(out, s, false, r);
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

void stat_print_json_lines(const struct stat_opts *opts, const struct stat_report *r)
{
	FILE *out = out_of(opts);
	print_events(out, NULL, true, r);
	for (int i = 0; i < r->nderived; i++) {   /* a derived preset: a count */
		const struct stat_derived *d = &r->derived[i];
		double mean, rel;
		stat_spread(d->values, r->runs, &mean, &rel);
		struct count_line l = {.value = mean, .unit = "", .name = d->name,
				       .not_counted = d->failed, .noise = -1};
		print_count_json(out, NULL, &l);
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

/* util/stat.c perf_stat_process_counter: evsel__compute_deltas (the
 * interval's value, enabled and running time), then
 * perf_counts_values__scale on those. */
uint64_t stat_interval_scaled(const struct pmurt_count *now, const struct pmurt_count *prev)
{
	if (!prev)
		return now->scaled;
	return pmurt_count_scale(now->value - prev->value, now->time_enabled - prev->time_enabled,
				 now->time_running - prev->time_running);
}

/* One interval's count of event i: its line, and its part of the
 * derived figures' inputs. */
static void interval_event(const struct stat_report *r, const struct pmurt_count *now,
			   const struct pmurt_count *prev, int i, struct count_line *l,
			   struct stat_shadow_event *se)
{
	/* (now and prev: one unit's, with -A or --per-core) */
	const struct pmurt_count *c = &now[i];
	uint64_t d = stat_interval_scaled(c, &prev[i]);
	uint64_t en = c->time_enabled - prev[i].time_enabled;
	uint64_t run = c->time_running - prev[i].time_running;
	*l = (struct count_line){.value = (double)d * c->scale, .scale = c->scale, .unit = c->unit,
				 .name = c->name, .not_counted = c->skipped || !run || !en,
				 .not_supported = c->skipped && c->skipped != ECANCELED,
				 .noise = -1, .running = run, .enabled = en};
	*se = (struct stat_shadow_event){.type = i < r->nevents ? r->ev[i].type : 0,
					 .config = i < r->nevents ? r->ev[i].config : 0,
					 .value = l->value, .count = (double)d,
					 .counted = !l->not_counted};
}

/* One interval's lines per unit (r->aggr's last read and the one before). */
static void print_interval_units(const struct stat_opts *opts, const struct stat_report *r,
				 const char *stamp, const char *json_stamp, double interval_ns)
{
	const struct stat_aggr *a = r->aggr;
	int n = a->nevents, total = a->nunits * n > 0 ? a->nunits * n : 1;
	struct count_line *lines = calloc((size_t)total, sizeof(*lines));
	struct stat_shadow_event *se = calloc((size_t)total, sizeof(*se));
	for (int u = 0; lines && se && u < a->nunits; u++) {
		for (int i = 0; i < n; i++)
			interval_event(r, &a->now[u * n], &a->prev[u * n], i, &lines[u * n + i],
				       &se[u * n + i]);
		struct stat_shadow sh;
		stat_shadow_collect(&sh, &se[u * n], n, interval_ns);
		for (int i = 0; i < n; i++)
			stat_shadow_metric(&sh, &se[u * n + i], &lines[u * n + i].metric);
	}
	if (lines && se)
		print_units(out_of(opts), opts->sep, stamp, opts->json ? json_stamp : NULL, a, lines);
	free(lines);
	free(se);
}

void stat_print_interval(const struct stat_opts *opts, const struct stat_report *r, int index,
			 double when, const struct pmurt_count *now,
			 const struct pmurt_count *prev, int n, json_t *intervals)
{
	FILE *out = out_of(opts);
	json_t *events = intervals ? json_array() : NULL;
	int m = n > 0 ? n : 1;
	struct count_line lines[m];
	struct stat_shadow_event se[m];
	for (int i = 0; i < n; i++)
		interval_event(r, now, prev, i, &lines[i], &se[i]);
	/* the derived figures per interval, the interval as the elapsed time
	 * (builtin-stat.c process_interval) */
	struct stat_shadow sh;
	stat_shadow_collect(&sh, se, n, (double)opts->interval_ms * 1e6);
	/* print_interval: "%6lu.%09lu" since the start, and a header before
	 * the first interval and every 25th (text only) */
	uint64_t ns = (uint64_t)(when * 1e9 + 0.5);
	char stamp[48];
	snprintf(stamp, sizeof(stamp), "%6" PRIu64 ".%09" PRIu64 "%s", ns / 1000000000,
		 ns % 1000000000, opts->sep ? opts->sep : " ");
	char json_stamp[48];
	snprintf(json_stamp, sizeof(json_stamp), "%" PRIu64 ".%09" PRIu64, ns / 1000000000,
		 ns % 1000000000);
	if (!events && !opts->sep && !opts->json && index % 25 == 0)
		fputs(stat_aggr_interval_header(r->aggr), out);
	if (r->aggr) {
		print_interval_units(opts, r, stamp, json_stamp, (double)opts->interval_ms * 1e6);
		return;
	}
	for (int i = 0; i < n; i++) {
		const struct count_line *l = &lines[i];
		if (events) {
			json_array_append_new(events, json_pack("{s:s, s:f, s:b, s:I, s:I}", "name",
				l->name, "value", l->value, "supported", !l->not_supported,
				"time_enabled", (json_int_t)l->enabled, "time_running",
				(json_int_t)l->running));
			continue;
		}
		stat_shadow_metric(&sh, &se[i], &lines[i].metric);
		if (opts->json) {
			print_count_json(out, json_stamp, &lines[i]);
			continue;
		}
		fputs(stamp, out);
		print_count_line(out, opts->sep, &lines[i]);
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
