/*
 * openmetrics_test.c - the OpenMetrics writer (export/openmetrics.c): the
 * exact text of counters, gauges with timestamps and a histogram, the
 * escaping of label values and help, number forms, metric names made from
 * event names (om_name), and every rule it refuses to break.  Whether a
 * strict reader accepts the text is tests/export/check_openmetrics.py's
 * (python3-prometheus-client) and Prometheus's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "openmetrics.h"

static int failures;

static void test_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct om_writer *w;
	struct pmurt_error err = {0};
	CHECK(om_writer_open(&w, f, &err) == 0, "open");
	struct om_label l[] = {{"event", "cpu-clock"}, {"path", "a\\b\"c\nd"}};
	double t1 = 1700000000.5, t2 = 1700000001.25;
	CHECK(om_family(w, "pmu_cpu_clock_seconds", OM_COUNTER, "seconds", "Time \"on\" CPU\n",
			&err) == 0, "%s", err.message);
	CHECK(om_sample(w, l, 2, 1.5, &t1, &err) == 0 && om_sample(w, l, 2, 2, &t2, &err) == 0, "%s",
	      err.message);
	CHECK(om_family(w, "pmu_ratio", OM_GAUGE, NULL, "A ratio", &err) == 0, "%s", err.message);
	CHECK(om_sample(w, NULL, 0, 0.1, NULL, &err) == 0, "%s", err.message);
	CHECK(om_sample(w, l, 1, NAN, NULL, &err) == 0 && om_sample(w, l + 1, 1, -INFINITY, NULL,
								      &err) == 0, "%s", err.message);
	CHECK(om_family(w, "pmu_wait_seconds", OM_HISTOGRAM, "seconds", "Waits", &err) == 0, "%s",
	      err.message);
	double bounds[] = {1e-06, 2e-06, 1};
	uint64_t cum[] = {1, 3, 3};
	CHECK(om_histogram(w, l, 1, bounds, cum, 3, 4, 2.5, NULL, &err) == 0, "%s", err.message);
	CHECK(om_finish(w, &err) == 0, "%s", err.message);
	om_writer_free(w);
	fclose(f);
	const char *want =
		"# TYPE pmu_cpu_clock_seconds counter\n"
		"# UNIT pmu_cpu_clock_seconds seconds\n"
		"# HELP pmu_cpu_clock_seconds Time \\\"on\\\" CPU\\n\n"
		"pmu_cpu_clock_seconds_total{event=\"cpu-clock\",path=\"a\\\\b\\\"c\\nd\"} 1.5 "
		"1700000000.500\n"
		"pmu_cpu_clock_seconds_total{event=\"cpu-clock\",path=\"a\\\\b\\\"c\\nd\"} 2 "
		"1700000001.250\n"
		"# TYPE pmu_ratio gauge\n"
		"# HELP pmu_ratio A ratio\n"
		"pmu_ratio 0.1\n"
		"pmu_ratio{event=\"cpu-clock\"} NaN\n"
		"pmu_ratio{path=\"a\\\\b\\\"c\\nd\"} -Inf\n"
		"# TYPE pmu_wait_seconds histogram\n"
		"# UNIT pmu_wait_seconds seconds\n"
		"# HELP pmu_wait_seconds Waits\n"
		"pmu_wait_seconds_bucket{event=\"cpu-clock\",le=\"1e-06\"} 1\n"
		"pmu_wait_seconds_bucket{event=\"cpu-clock\",le=\"2e-06\"} 3\n"
		"pmu_wait_seconds_bucket{event=\"cpu-clock\",le=\"1.0\"} 3\n"
		"pmu_wait_seconds_bucket{event=\"cpu-clock\",le=\"+Inf\"} 4\n"
		"pmu_wait_seconds_count{event=\"cpu-clock\"} 4\n"
		"pmu_wait_seconds_sum{event=\"cpu-clock\"} 2.5\n"
		"# EOF\n";
	CHECK(!strcmp(buf, want), "got:\n%s\nwant:\n%s", buf, want);
	free(buf);
}

/* Each call must fail with -EINVAL and a message holding what. */
static void expect_refusal(int rc, const struct pmurt_error *err, const char *what)
{
	CHECK(rc == -EINVAL && strstr(err->message, what), "rc %d, '%s' lacks '%s'", rc,
	      err->message, what);
}

static void test_refusals(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct om_writer *w;
	struct pmurt_error err = {0};
	om_writer_open(&w, f, &err);
	expect_refusal(om_sample(w, NULL, 0, 1, NULL, &err), &err, "outside");
	expect_refusal(om_family(w, "9lives", OM_GAUGE, NULL, "x", &err), &err, "not a metric name");
	expect_refusal(om_family(w, "a-b", OM_GAUGE, NULL, "x", &err), &err, "not a metric name");
	expect_refusal(om_family(w, "pmu_cycles", OM_GAUGE, "seconds", "x", &err), &err,
		       "must end its name");
	expect_refusal(om_family(w, "pmu_x_total", OM_COUNTER, NULL, "x", &err), &err,
		       "without _total");
	CHECK(om_family(w, "pmu_x", OM_COUNTER, NULL, "x", &err) == 0, "%s", err.message);
	expect_refusal(om_sample(w, NULL, 0, -1, NULL, &err), &err, "cannot be -1");
	expect_refusal(om_sample(w, NULL, 0, NAN, NULL, &err), &err, "cannot be nan");
	struct om_label dup[] = {{"a", "1"}, {"a", "2"}}, bad[] = {{"a:b", "1"}};
	expect_refusal(om_sample(w, dup, 2, 1, NULL, &err), &err, "given twice");
	expect_refusal(om_sample(w, bad, 1, 1, NULL, &err), &err, "not a label name");
	double t1 = 10, t0 = 9;
	CHECK(om_sample(w, NULL, 0, 1, &t1, &err) == 0, "%s", err.message);
	expect_refusal(om_sample(w, NULL, 0, 2, &t0, &err), &err, "increasing order");
	expect_refusal(om_sample(w, NULL, 0, 2, NULL, &err), &err, "every point");
	expect_refusal(om_family(w, "pmu_x", OM_GAUGE, NULL, "x", &err), &err, "clashes");
	expect_refusal(om_family(w, "pmu_x_total", OM_GAUGE, NULL, "x", &err), &err, "clashes");
	CHECK(om_family(w, "pmu_h", OM_HISTOGRAM, NULL, "h", &err) == 0, "%s", err.message);
	double b[] = {2, 1};
	uint64_t c[] = {1, 2};
	expect_refusal(om_histogram(w, NULL, 0, b, c, 2, 2, 1, NULL, &err), &err, "out of order");
	struct om_label le[] = {{"le", "1"}};
	double one = 1;
	expect_refusal(om_histogram(w, le, 1, &one, c, 1, 2, 1, NULL, &err), &err,
		       "not a label name");
	om_writer_free(w);
	fclose(f);
	free(buf);
}

static void test_names(void)
{
	char out[64];
	struct { const char *prefix, *text, *unit, *want; } cases[] = {
		{"pmu", "cpu-clock", "seconds", "pmu_cpu_clock_seconds"},
		{"pmu", "PM_LD_MISS_L1:u", NULL, "pmu_pm_ld_miss_l1_u"},
		{"pmu", "cpu/mem-stores/", NULL, "pmu_cpu_mem_stores"},
		{"pmu", "sched:sched_switch", "", "pmu_sched_sched_switch"},
		{"pmu_metric", "CPI", NULL, "pmu_metric_cpi"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(om_name(out, sizeof(out), cases[i].prefix, cases[i].text, cases[i].unit) &&
		      !strcmp(out, cases[i].want), "'%s' -> '%s', not '%s'", cases[i].text, out,
		      cases[i].want);
	}
	CHECK(!om_name(out, 8, "pmu", "a_long_event_name", NULL) && strlen(out) == 7, "cut");
}

int main(void)
{
	test_text();
	test_refusals();
	test_names();
	return failures ? 1 : 0;
}
