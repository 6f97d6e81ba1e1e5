/*
 * evlist_test.c - the public event list (pmurt.h, PMURT_0.5) as a profiler
 * linking libpmurt.so uses it: -e strings parsed once on a host (a fake
 * POWER10 LPAR sysfs tree, tests/fakesys/power10-lpar.sh, with the
 * built-in POWER10 description), each event's information (name, PMU,
 * kind, attr, group and leader, modifiers, the string and bytes it came
 * from, the derived preset or the pack's group it counts for, the core
 * spec), a failed add leaving the list as it was with the bytes at fault,
 * the sample period set between parsing and opening, each group's check,
 * the attrs a counter opens, and counters opened again and again from the
 * one list on this machine's kernel (software events), perf's tool events
 * (duration_time: kind TOOL, no fd); and pmurt_tool.h's
 * kernel interface (a host on a kernel of the test's own) and CPU lists.
 *
 * usage: evlist_test SYSFS
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "pmurt.h"
#include "pmurt_tool.h"

static int failures;

static struct pmurt_evsel_info event(const struct pmurt_evlist *list, int i)
{
	struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
	int rc = pmurt_evlist_event(list, i, &e);
	CHECK(rc == 0, "pmurt_evlist_event(%d) = %d", i, rc);
	return e;
}

/* What one event of the list must say. */
struct want {
	const char *name, *pmu;
	enum pmurt_evsel_kind kind;
	uint32_t type;
	uint64_t config;
	int leader, group_size, string, offset, length;
	unsigned exclude;
	bool spec;
};

static void check_event(const struct pmurt_evlist *list, int i, const struct want *w)
{
	struct pmurt_evsel_info e = event(list, i);
	CHECK(e.name && strcmp(e.name, w->name) == 0 && strcmp(e.pmu, w->pmu) == 0 &&
	      e.kind == w->kind && e.attr && e.attr_size == sizeof(struct perf_event_attr) &&
	      e.attr->type == w->type && e.attr->config == w->config && e.leader == w->leader &&
	      e.group_size == w->group_size && e.string == w->string && e.offset == w->offset &&
	      e.length == w->length && e.exclude == w->exclude && (e.spec != NULL) == w->spec &&
	      e.preset == -1 && e.pack_group == -1,
	      "event %d: %s (%s) kind %d type %u config %#llx leader %d size %d string %d "
	      "bytes %d+%d exclude %#x spec %d preset %d pack %d; want %s", i, e.name, e.pmu,
	      (int)e.kind, e.attr ? e.attr->type : 0,
	      e.attr ? (unsigned long long)e.attr->config : 0ull, e.leader, e.group_size, e.string,
	      e.offset, e.length, e.exclude, e.spec != NULL, e.preset, e.pack_group, w->name);
	if (w->spec && e.spec)
		CHECK((w->kind != PMURT_EVSEL_CORE || e.spec->code == w->config) &&
		      e.spec->exclude == w->exclude,
		      "%s: spec code %#llx exclude %#x", w->name, (unsigned long long)e.spec->code,
		      e.spec->exclude);
}

/* Two strings parsed once: every event as written, with its group, its
 * modifiers (a group's for the members without their own) and its place. */
static void test_parse(struct pmurt_host *host)
{
	struct pmurt_evlist *list = NULL;
	struct pmurt_error err;
	const char *first = "{PM_LD_MISS_L1:u,cycles}:k,task-clock";
	CHECK(pmurt_evlist_parse(&list, host, first, NULL, &err) == 0 && list, "%s", err.message);
	CHECK(pmurt_evlist_add(list, "cpu/event=0x1e/,hv_24x7/domain=2,core=1/", &err) == 0, "%s",
	      err.message);
	const struct want w[] = {
		{"PM_LD_MISS_L1:u", "cpu", PMURT_EVSEL_CORE, PERF_TYPE_RAW, 0x3e054, 0, 2, 0, 1, 15,
		 PMURT_EXCLUDE_KERNEL | PMURT_EXCLUDE_HV, true},
		{"cycles", "cpu", PMURT_EVSEL_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
		 0, 2, 0, 17, 6, PMURT_EXCLUDE_USER | PMURT_EXCLUDE_HV, true},
		{"task-clock", "software", PMURT_EVSEL_SOFTWARE, PERF_TYPE_SOFTWARE,
		 PERF_COUNT_SW_TASK_CLOCK, 2, 1, 0, 27, 10, 0, false},
		{"cpu/event=0x1e/", "cpu", PMURT_EVSEL_CORE, PERF_TYPE_RAW, 0x1e, 3, 1, 1, 0, 15, 0,
		 true},
		{"hv_24x7/domain=2,core=1/", "hv_24x7", PMURT_EVSEL_SYSFS, 0, 0, 4, 1, 1, 16, 24, 0,
		 false},
	};
	int n = pmurt_evlist_nevents(list);
	CHECK(n == 5, "%d events", n);
	for (int i = 0; i < n && i < 5; i++) {
		struct want x = w[i];
		if (i == 4) { /* the fake tree's hv_24x7: its type, and domain and core's bits */
			struct pmurt_evsel_info e = event(list, 4);
			x.type = e.attr->type;
			x.config = e.attr->config;
			CHECK(x.type > PERF_TYPE_MAX && x.config != 0, "hv_24x7 type %u config %#llx",
			      x.type, (unsigned long long)x.config);
		}
		check_event(list, i, &x);
	}
	struct pmurt_evsel_info e;
	CHECK(pmurt_evlist_event(list, 5, &e) == -ENOENT, "past the end");
	CHECK(pmurt_evlist_event(NULL, 0, &e) == -EINVAL, "no list");

	/* a failed add: the list as it was, the bytes at fault in that string */
	err.code = 0;
	CHECK(pmurt_evlist_add(list, "task-clock,{PM_RUN_CYC,PM_NOSUCH}", &err) == -ENOENT &&
	      err.where == PMURT_ERROR_STRING && err.offset == 23 && err.length == 9 &&
	      pmurt_evlist_nevents(list) == 5, "bad add: rc %d where %d %d+%d, %d events: %s",
	      err.code, (int)err.where, err.offset, err.length, pmurt_evlist_nevents(list),
	      err.message);
	CHECK(pmurt_evlist_add(list, "page-faults", &err) == 0 && event(list, 5).string == 2,
	      "the next string's index");
	pmurt_evlist_free(list);
	pmurt_evlist_free(NULL);
}

/* A derived preset alone is the group of its events when the list takes
 * them, refused otherwise; its events say which preset they count for. */
static void test_presets(struct pmurt_host *host)
{
	const struct pmurt_pmu *pmu = pmurt_host_pmu(host);
	int dcm = pmurt_preset_find(pmu, "PAPI_L1_DCM", NULL, NULL);
	struct pmurt_evlist *list = NULL;
	struct pmurt_error err;
	CHECK(pmurt_evlist_parse(&list, host, "task-clock,papi_l1_dcm:u", NULL, &err) ==
		      -EOPNOTSUPP && !list && err.where == PMURT_ERROR_STRING && err.offset == 11,
	      "derived preset without derived_presets: %d, %s", err.code, err.message);
	struct pmurt_evlist_opts o = PMURT_OPTS_INIT(pmurt_evlist_opts, .derived_presets = true);
	CHECK(pmurt_evlist_parse(&list, host, "task-clock,papi_l1_dcm:u", &o, &err) == 0, "%s",
	      err.message);
	CHECK(pmurt_evlist_nevents(list) == 3, "%d events", pmurt_evlist_nevents(list));
	for (int i = 1; i < 3 && pmurt_evlist_nevents(list) == 3; i++) {
		struct pmurt_evsel_info e = event(list, i);
		CHECK(e.preset == dcm && e.leader == 1 && e.group_size == 2 && e.offset == 11 &&
		      e.length == 13 && e.exclude == (PMURT_EXCLUDE_KERNEL | PMURT_EXCLUDE_HV) &&
		      e.spec, "member %d: %s preset %d (want %d) leader %d bytes %d+%d exclude %#x",
		      i, e.name, e.preset, dcm, e.leader, e.offset, e.length, e.exclude);
	}
	CHECK(event(list, 0).preset == -1, "task-clock counts for no preset");
	pmurt_evlist_free(list);
	/* a preset's bad modifier: its own bytes */
	CHECK(pmurt_evlist_parse(&list, host, "PAPI_L1_DCM:q", &o, &err) == -EINVAL &&
	      err.where == PMURT_ERROR_STRING && err.offset == 12 && err.length == 1, "%s",
	      err.message);
	/* unknown option bytes of a newer header's struct */
	struct {
		struct pmurt_evlist_opts o;
		uint64_t newer;
	} big = {PMURT_OPTS_INIT(pmurt_evlist_opts), 1};
	big.o.sz = sizeof(big);
	CHECK(pmurt_evlist_new(&list, host, &big.o, &err) == -EINVAL && !list, "newer opts: %s",
	      err.message);
}

/* A pack's groups, each a group of the list, its events saying which. */
static void test_pack(struct pmurt_host *host)
{
	const struct pmurt_pmu *pmu = pmurt_host_pmu(host);
	const char *names[] = {"CPI", "PM_RUN_INST_CMPL"};
	struct pmurt_pack *pack = NULL;
	struct pmurt_error err;
	CHECK(pmurt_pack(pmu, names, 2, NULL, &pack, &err) == 0, "%s", err.message);
	struct pmurt_pack_info info = PMURT_OPTS_INIT(pmurt_pack_info);
	pmurt_pack_info(pack, &info);
	struct pmurt_evlist *list = NULL;
	CHECK(pmurt_evlist_parse(&list, host, "task-clock", NULL, &err) == 0 &&
	      pmurt_evlist_add_pack(list, pack, &err) == 0, "%s", err.message);
	int at = 1;
	for (int g = 0; g < info.ngroups; g++) {
		const struct pmurt_event_spec *ev;
		int n;
		pmurt_pack_group(pack, g, &ev, &n, NULL);
		for (int k = 0; k < n; k++, at++) {
			struct pmurt_evsel_info e = event(list, at);
			CHECK(e.pack_group == g && e.string == -1 && e.leader == at - k &&
			      e.group_size == n && strcmp(e.name, ev[k].name) == 0,
			      "event %d: %s pack group %d (want %d %s) leader %d", at, e.name,
			      e.pack_group, g, ev[k].name, e.leader);
		}
	}
	CHECK(at == pmurt_evlist_nevents(list) && info.ngroups > 0, "%d of %d events", at,
	      pmurt_evlist_nevents(list));
	CHECK(pmurt_evlist_add(list, "page-faults", &err) == 0 && event(list, at).string == 1,
	      "a pack is no string");
	pmurt_evlist_free(list);
	pmurt_pack_free(pack);
}

/* Between parsing and opening: the period, each group's check, the attrs
 * a counter opens. */
static void test_adjust_and_check(struct pmurt_host *host)
{
	struct pmurt_evlist *list = NULL;
	struct pmurt_error err;
	CHECK(pmurt_evlist_parse(&list, host, "{PM_LD_MISS_L1,PM_LD_MISS_L1,PM_LD_MISS_L1},"
				 "{PM_RUN_CYC,task-clock}", NULL, &err) == 0, "%s", err.message);
	CHECK(pmurt_evlist_set_period(list, 3, 100003) == 0 &&
	      event(list, 3).attr->sample_period == 100003 && !event(list, 3).attr->freq &&
	      event(list, 3).spec->sample_period == 100003, "set_period");
	CHECK(pmurt_evlist_set_period(list, 9, 1) == -EINVAL, "set_period past the end");
	struct pmurt_group_result res = PMURT_OPTS_INIT(pmurt_group_result);
	CHECK(pmurt_evlist_group_check(list, 0, NULL, &res, &err) == 0 && !res.ok && res.n == 0 &&
	      strcmp(res.reason, "constraint_conflict") == 0, "three PMC3 events: %s %s",
	      res.reason, err.message);
	CHECK(pmurt_evlist_group_check(list, 3, NULL, &res, &err) == 0 && res.ok && res.n == 1,
	      "PM_RUN_CYC and task-clock: ok %d n %d", res.ok, res.n);
	CHECK(pmurt_evlist_group_check(list, 1, NULL, &res, &err) == -EINVAL &&
	      strstr(err.message, "no group's leader"), "a member: %s", err.message);
	struct perf_event_attr a;
	struct pmurt_counter_opts task = PMURT_OPTS_INIT(pmurt_counter_opts, .inherit = true,
							 .enable_on_exec = true);
	CHECK(pmurt_counter_attr(list, 3, &task, &a, sizeof(a)) == 0 && a.disabled &&
	      a.inherit && a.enable_on_exec && a.read_format & PERF_FORMAT_GROUP &&
	      a.sample_period == 100003, "the leader's counting attr");
	CHECK(pmurt_counter_attr(list, 4, &task, &a, sizeof(a)) == 0 && !a.disabled &&
	      !a.enable_on_exec && a.type == PERF_TYPE_SOFTWARE, "a member's counting attr");
	pmurt_evlist_free(list);
}

/* Work for the clocks to count (a store the compiler keeps). */
static volatile unsigned long spin_sink;

/* One list, parsed once, opened three times on this machine's kernel and
 * read; the string form gives the same counter. */
static void test_open(struct pmurt_host *host)
{
	struct pmurt_evlist *list = NULL;
	struct pmurt_error err;
	CHECK(pmurt_evlist_parse(&list, host, "{task-clock,page-faults},cpu-clock", NULL, &err) ==
		      0, "%s", err.message);
	for (int run = 0; run < 3 && list; run++) {
		struct pmurt_counter *c = NULL;
		struct pmurt_counter_opts o = PMURT_OPTS_INIT(pmurt_counter_opts, .pid = 0);
		int rc = pmurt_counter_open_list(&c, list, &o, &err);
		CHECK(rc == 0 && c && pmurt_counter_nevents(c) == 3, "run %d: %d %s", run, rc,
		      err.message);
		if (!c)
			continue;
		CHECK(pmurt_counter_enable(c, &err) == 0, "%s", err.message);
		for (unsigned long i = 0; i < 1000000; i++)
			spin_sink += i; /* task-clock runs */
		struct pmurt_count v[3];
		CHECK(pmurt_counter_read(c, v, 3, sizeof(v[0]), &err) == 3 && v[0].leader == 0 &&
		      v[1].leader == 0 && v[2].leader == 2 && strcmp(v[1].name, "page-faults") == 0 &&
		      v[0].value > 0, "run %d: read %s", run, err.message);
		pmurt_counter_close(c);
	}
	struct pmurt_counter *c = NULL;
	CHECK(pmurt_counter_open_list(&c, NULL, NULL, &err) == -EINVAL && !c, "no list");
	pmurt_evlist_free(list);
	CHECK(pmurt_counter_open(&c, host, "{task-clock,page-faults}", NULL, &err) == 0 &&
	      pmurt_counter_nevents(c) == 2, "the string form: %s", err.message);
	pmurt_counter_close(c);
}

/* perf's tool events (0.6): kind TOOL, unit ns, no attr to open, no fd;
 * duration_time measures at least the wait between enable and read (a
 * bound, not a timing), the children's times what a reaped child used;
 * never in a group, never sampled. */
static void test_tool_events(struct pmurt_host *host)
{
	struct pmurt_evlist *list = NULL;
	struct pmurt_error err;
	CHECK(pmurt_evlist_parse(&list, host, "duration_time,user_time:u,system_time,task-clock",
				 NULL, &err) == 0, "%s", err.message);
	if (!list)
		return;
	struct pmurt_evsel_info e = event(list, 1);
	CHECK(e.kind == PMURT_EVSEL_TOOL && e.tool == PMURT_TOOL_USER_TIME &&
	      strcmp(e.pmu, "tool") == 0 && strcmp(e.unit, "ns") == 0 &&
	      strcmp(e.name, "user_time:u") == 0 && e.attr->type == PERF_TYPE_SOFTWARE &&
	      e.attr->config == PERF_COUNT_SW_DUMMY, "user_time:u: kind %d tool %d %s %s",
	      (int)e.kind, (int)e.tool, e.pmu, e.unit);
	CHECK(event(list, 3).tool == PMURT_TOOL_NONE, "task-clock is no tool event");
	struct perf_event_attr a;
	CHECK(pmurt_counter_attr(list, 0, NULL, &a, sizeof(a)) == -ENOENT &&
	      pmurt_counter_attr(list, 3, NULL, &a, sizeof(a)) == 0, "a tool event opens no attr");
	struct pmurt_counter *c = NULL;
	struct pmurt_counter_opts o = PMURT_OPTS_INIT(pmurt_counter_opts, .pid = 0);
	CHECK(pmurt_counter_open_list(&c, list, &o, &err) == 0, "%s", err.message);
	CHECK(!c || pmurt_counter_enable(c, &err) == 0, "%s", err.message);
	struct timespec pause = {0, 20000000};
	nanosleep(&pause, NULL);
	pid_t child = fork();
	if (child == 0) {
		for (unsigned long i = 0; i < 20000000; i++)
			spin_sink += i;
		_exit(0);
	}
	waitpid(child, NULL, 0);
	struct pmurt_count v[4];
	CHECK(!c || pmurt_counter_read(c, v, 4, sizeof(v[0]), &err) == 4, "%s", err.message);
	CHECK(!c || (v[0].value >= 20000000 && v[0].time_enabled == v[0].value &&
		     v[0].time_running == v[0].value && v[0].scaled == v[0].value &&
		     strcmp(v[0].unit, "ns") == 0), "duration_time %llu after a 20 ms wait",
	      c ? (unsigned long long)v[0].value : 0ull);
	CHECK(!c || v[1].value + v[2].value > 0, "the child's 20M iterations took no CPU time");
	pmurt_counter_close(c);
	struct pmurt_evlist *none = NULL;
	CHECK(pmurt_evlist_parse(&none, host, "{task-clock,duration_time}", NULL, &err) == -EINVAL &&
	      strstr(err.message, "tool event 'duration_time' at offset 12 in the group at offset "
		     "0") && err.offset == 12, "in a group: %s", err.message);
	pmurt_evlist_free(none);
	pmurt_evlist_free(list);
}

/* A kernel that has no perf events: every open fails with ENOENT. */
static int no_event_open(void *ctx, struct perf_event_attr *attr, pid_t pid, int cpu,
			 int group_fd, unsigned long flags)
{
	(void)attr, (void)pid, (void)cpu, (void)group_fd, (void)flags;
	++*(int *)ctx;
	return -ENOENT;
}

/* The host's parts, a host on the test's own kernel, CPU lists. */
static void test_tool_header(const char *sysfs)
{
	int opens = 0;
	struct pmurt_sys sys = {.event_open = no_event_open, .ctx = &opens};
	struct pmurt_host *host = NULL;
	struct pmurt_error err;
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = sysfs, .pmu = "power10",
						   .sys = &sys);
	CHECK(pmurt_host_open(&host, &o, &err) == 0, "%s", err.message);
	struct pmurt_host_info info = PMURT_OPTS_INIT(pmurt_host_info);
	char tracefs[600];
	snprintf(tracefs, sizeof(tracefs), "%s/kernel/tracing", sysfs);
	CHECK(pmurt_host_info(host, &info) == 0 && strcmp(info.sysfs, sysfs) == 0 &&
	      strcmp(info.tracefs, tracefs) == 0 && strcmp(info.picked, "") == 0,
	      "info: %s %s '%s'", info.sysfs, info.tracefs, info.picked);
	struct pmurt_counter *c = NULL;
	struct pmurt_counter_opts co = PMURT_OPTS_INIT(pmurt_counter_opts, .skip_unsupported = true);
	CHECK(pmurt_counter_open(&c, host, "task-clock,page-faults", &co, &err) == -ENOENT && !c &&
	      opens == 2, "on the test's kernel: %d opens, %s", opens, err.message);
	pmurt_host_close(host);

	int *cpus = NULL, n = 0;
	CHECK(pmurt_cpulist_parse("0-2,5\n", &cpus, &n, &err) == 0 && n == 4 && cpus[0] == 0 &&
	      cpus[2] == 2 && cpus[3] == 5, "0-2,5: %d cpus", n);
	free(cpus);
	CHECK(pmurt_cpulist_parse("3-1", &cpus, &n, &err) == -EINVAL && !cpus && n == 0 &&
	      strstr(err.message, "'3-1' is not a CPU list"), "3-1: %s", err.message);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: evlist_test SYSFS\n");
		return 2;
	}
	struct pmurt_host *host = NULL;
	struct pmurt_error err;
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = argv[1],
						   .pmu = "power10");
	if (pmurt_host_open(&host, &o, &err)) {
		fprintf(stderr, "evlist_test: %s\n", err.message);
		return 1;
	}
	test_parse(host);
	test_presets(host);
	test_pack(host);
	test_adjust_and_check(host);
	test_open(host);
	test_tool_events(host);
	pmurt_host_close(host);
	test_tool_header(argv[1]);
	if (failures)
		fprintf(stderr, "evlist_test: %d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
