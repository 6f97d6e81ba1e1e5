/*
 * stat_print_test.c - pmutool stat's output for what this machine cannot
 * produce for real (its software events never multiplex): a report with a
 * multiplexed event, one never counted and three runs, printed as text, CSV
 * and JSON, each compared with the expected lines; and the derived PAPI
 * presets: an -e list naming one becomes its events' group, and its value
 * is computed from their counts (pmurt_preset_eval) and printed.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stat/stat.h"

static int failures;

/* Runs print(opts, r) with standard error captured into out; it must
 * succeed. */
static void capture(int (*print)(const struct stat_opts *, const struct stat_report *),
		    const struct stat_opts *opts, const struct stat_report *r, char *out, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	fflush(stderr);
	dup2(fileno(f), 2);
	int rc = print(opts, r);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	size_t n = fread(out, 1, len - 1, f);
	out[n] = 0;
	fclose(f);
	CHECK(rc == 0, "the printer returned %d", rc);
}

/* PAPI_L1_DCM (POWER10: PM_LD_DEMAND_MISS_L1_FIN + PM_ST_MISS_L1) in a
 * list: its events' group, then its value from their counts. */
static void test_derived(void)
{
	struct tool t = {.prog = "pmutool"};
	struct pmurt_error err;
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .pmu = "power10");
	CHECK(pmurt_host_open(&t.host, &o, &err) == 0, "%s", err.message);
	const char *ev[] = {"task-clock,PAPI_L1_DCM:u", "papi_l1_dcr"};
	struct stat_opts opts = {.events = ev, .nevents = 2};
	struct pmurt_evlist *list = NULL;
	double elapsed = 0.1;
	struct stat_report r = {.runs = 1, .command = "x", .elapsed = &elapsed};
	CHECK(stat_events(&t, &opts, &list, &r) == 0 && list, "stat_events");
	/* the list as it would be opened: each preset its events' group */
	static const char *const names[] = {"task-clock", "PM_LD_DEMAND_MISS_L1_FIN",
					    "PM_ST_MISS_L1", "PM_LD_REF_L1",
					    "PM_LD_DEMAND_MISS_L1_FIN"};
	static const int leaders[] = {0, 1, 1, 3, 3}, presets[] = {-1, 0, 0, 1, 1};
	int n = pmurt_evlist_nevents(list);
	CHECK(n == 5, "%d events", n);
	for (int i = 0; i < n && i < 5; i++) {
		struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
		CHECK(pmurt_evlist_event(list, i, &e) == 0 && strcmp(e.name, names[i]) == 0 &&
		      e.leader == leaders[i] && (e.preset >= 0) == (presets[i] >= 0) &&
		      e.string == (i < 3 ? 0 : 1) &&
		      (e.exclude & PMURT_EXCLUDE_KERNEL) == (i == 1 || i == 2 ? PMURT_EXCLUDE_KERNEL : 0),
		      "event %d: %s, leader %d, preset %d, string %d, exclude %#x", i, e.name,
		      e.leader, e.preset, e.string, e.exclude);
	}
	CHECK(r.nderived == 2 && r.derived[0].first == 1 && r.derived[0].n == 2 &&
	      r.derived[1].first == 3, "%d derived", r.nderived);
	struct pmurt_count counts[5] = {{.scaled = 9}, {.scaled = 100}, {.scaled = 23},
					{.scaled = 500}, {.scaled = 120}};
	stat_compute_derived(&t, &r, counts, 0);
	CHECK(r.nderived == 2 && r.derived[0].values[0] == 123 && r.derived[1].values[0] == 380 &&
	      strcmp(r.derived[0].name, "PAPI_L1_DCM") == 0, "values");
	counts[4].scaled = 501;
	stat_compute_derived(&t, &r, counts, 0);
	CHECK(r.derived[1].values[0] == -1, "sub may go below zero: %g", r.derived[1].values[0]);
	json_t *j = stat_report_json(&r);
	json_t *d = json_array_get(json_object_get(j, "derived"), 0);
	CHECK(d && strcmp(json_string_value(json_object_get(d, "formula")),
			  "PM_LD_DEMAND_MISS_L1_FIN + PM_ST_MISS_L1") == 0 &&
	      json_real_value(json_object_get(d, "value")) == 123, "json derived");
	json_decref(j);
	for (int i = 0; i < r.nderived; i++)
		free(r.derived[i].values);
	free(r.derived);
	pmurt_evlist_free(list);
	pmurt_host_close(t.host);
}

int main(void)
{
	test_derived();
	double cycles[3] = {1000, 1100, 900}, clock[3] = {1.5, 1.5, 1.5}, none[3] = {0, 0, 0};
	double elapsed[3] = {0.25, 0.25, 0.25};
	struct stat_event ev[3] = {
		{.name = "PM_RUN_CYC", .unit = "", .pmu = "cpu", .type = PERF_TYPE_RAW, .scale = 1,
		 .values = cycles, .enabled = 800, .running = 500},
		{.name = "task-clock", .unit = "msec", .pmu = "software", .type = PERF_TYPE_SOFTWARE,
		 .config = PERF_COUNT_SW_TASK_CLOCK, .scale = 1e-6, .values = clock, .enabled = 10,
		 .running = 10},
		{.name = "PM_LD_MISS_L1", .unit = "", .pmu = "cpu", .type = PERF_TYPE_RAW, .scale = 1,
		 .values = none, .enabled = 800, .running = 0, .not_counted = true},
	};
	double dcm[3] = {123, 123, 123};
	struct stat_derived derived[1] = {{.name = "PAPI_L1_DCM", .formula = "A + B", .first = 0,
					   .n = 2, .values = dcm}};
	struct stat_report r = {.command = "make -j2", .nevents = 3, .runs = 3, .ev = ev,
				.elapsed = elapsed, .status = 0, .derived = derived, .nderived = 1};
	struct stat_opts opts = {.sep = ","};
	char out[4096];
	double mean, rel;
	stat_spread(cycles, 3, &mean, &rel);
	CHECK(mean == 1000 && rel > 5.77 && rel < 5.78, "mean %g, spread %g%%", mean, rel);

	capture(stat_print_text, &opts, &r, out, sizeof(out));
	CHECK(strstr(out, " Performance counter stats for 'make -j2' (3 runs):\n"), "%s", out);
	/* perf 6.1's layout (stat-display.c printout, print_metric_std): the
	 * count, a 4-column unit, the name in 32 (25 when not counted), the
	 * derived figure in 35 (per second of task-clock's 1.5 ms; task-clock
	 * over the elapsed 0.25 s), the spread when not zero, the part counted */
	CHECK(strstr(out, "              1000      PM_RUN_CYC                       #  666.667 K/sec   "
			  "                 ( +-  5.77% )  (62.50%)\n"), "%s", out);
	CHECK(strstr(out, "              1.50 msec task-clock                       #    0.006 CPUs "
			  "utilized          \n"), "%s", out);
	CHECK(strstr(out, "     <not counted>      PM_LD_MISS_L1                                    "
			  "             (0.00%)\n"), "%s", out);
	CHECK(strstr(out, "\n       0.250000000 +- 0.000000000 seconds time elapsed\n\n"), "%s", out);
	CHECK(!strstr(out, "seconds user"), "user and sys times without a command's: %s", out);
	CHECK(strstr(out, "               123       PAPI_L1_DCM                      # A + B\n"), "%s",
	      out);
	CHECK(strstr(out, "Some events were multiplexed: their counts are scaled by time_enabled / "
			  "time_running; (N%) is the part of the time they were counted."), "%s", out);

	capture(stat_print_csv, &opts, &r, out, sizeof(out));
	/* perf's -x columns: value, unit, name, spread, run time, percent
	 * counted (whole, perf's integer division), derived value and unit */
	CHECK(strcmp(out, "1000,,PM_RUN_CYC,5.77%,500,62.00,666.667,K/sec\n"
			  "1.50,msec,task-clock,0.00%,10,100.00,0.006,CPUs utilized\n"
			  "<not counted>,,PM_LD_MISS_L1,0.00%,0,0.00,,\n"
			  "123,,PAPI_L1_DCM\n") == 0, "%s", out);

	/* one run of a command: the elapsed time, then its user and sys times */
	struct stat_report one = {.command = "true", .nevents = 2, .runs = 1, .ev = ev,
				  .elapsed = elapsed, .rusage = true, .user_s = 0.001327,
				  .sys_s = 0.25};
	opts.sep = NULL;
	capture(stat_print_text, &opts, &one, out, sizeof(out));
	CHECK(strstr(out, "\n       0.250000000 seconds time elapsed\n\n       0.001327000 seconds "
			  "user\n       0.250000000 seconds sys\n\n\n"), "%s", out);
	opts.sep = ",";

	json_t *o = stat_report_json(&r);
	json_t *e = json_array_get(json_object_get(o, "events"), 0);
	CHECK(json_integer_value(json_object_get(o, "version")) == 1 &&
	      json_is_true(json_object_get(e, "multiplexed")) &&
	      json_real_value(json_object_get(e, "percent_counted")) == 62.5 &&
	      json_array_size(json_object_get(e, "runs")) == 3, "json");
	e = json_array_get(json_object_get(o, "events"), 2);
	CHECK(json_is_false(json_object_get(e, "counted")), "json: not counted");
	json_decref(o);
	return failures ? 1 : 0;
}
