/*
 * record_test.c - the public recording API (pmurt.h, PMURT_0.6) and what
 * pmutool record, dtl record and describe take from pmurt_tool.h, used as
 * a profiler linking libpmurt.so uses them:
 * - on a fake POWER10 LPAR's sysfs (tests/fakesys/power10-lpar.sh), nothing
 *   opened: the cpc provider's rules (the minimum period, counters first
 *   come first served), what a recording refuses before any system call
 *   (vpa_dtl per task, its configs and exclude bits), which PMUs the host
 *   has, and an event decoded against its description;
 * - on this machine's kernel: a command held before its exec and recorded
 *   with a software event into a perf.data file that libpmurt's reader then
 *   reads back (the attr, the samples the statistics count), and commands
 *   whose exec fails or whose status is not 0.
 *
 * usage: record_test SYSFS DIR (DIR: a scratch directory for the files)
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pmurt.h"
#include "pmurt_tool.h"

static int failures;

static struct pmurt_evlist *parse(struct pmurt_host *host, const char *str)
{
	struct pmurt_evlist *list = NULL;
	struct pmurt_error err = {0};
	CHECK(pmurt_evlist_parse(&list, host, str, NULL, &err) == 0 && list, "%s: %s", str,
	      err.message);
	return list;
}

/* The minimum period and counters first come, first served. */
static void test_cpc(struct pmurt_host *host)
{
	struct pmurt_error err = {0};
	struct pmurt_group_result held = PMURT_OPTS_INIT(pmurt_group_result);
	struct pmurt_evlist *list = parse(host, "PM_LD_MISS_L1-all-1000");
	int rc = pmurt_evlist_cpc_check(list, NULL, NULL, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "5000"), "period 1000: %d %s", rc, err.message);
	struct pmurt_cpc_opts low = PMURT_OPTS_INIT(pmurt_cpc_opts, .min_period = 1000);
	rc = pmurt_evlist_cpc_check(list, &low, &held, &err);
	CHECK(rc == 0 && held.ok && held.n == 1, "--min-period 1000: %d %s", rc, err.message);
	pmurt_evlist_free(list);

	const char *four = "{PM_LD_REF_L1,PM_DERAT_MISS,PM_DTLB_MISS,PM_ITLB_MISS}";
	list = parse(host, four);
	rc = pmurt_evlist_cpc_check(list, NULL, &held, &err);
	CHECK(rc == 0 && held.ok && held.n == 4, "one group of four: %d %s", rc, err.message);
	CHECK(pmurt_evlist_add(list, "PM_IERAT_MISS", &err) == 0, "%s", err.message);
	rc = pmurt_evlist_cpc_check(list, NULL, &held, &err);
	CHECK(rc == -EBUSY && strstr(err.message, "PM_IERAT_MISS"),
	      "a fifth event while four hold the counters: %d %s", rc, err.message);
	struct pmurt_cpc_opts bad = PMURT_OPTS_INIT(pmurt_cpc_opts);
	bad.sz = sizeof(bad) + 8; /* a caller's larger struct: its extra bytes must be zero */
	struct {
		struct pmurt_cpc_opts o;
		uint64_t extra;
	} larger = {bad, 1};
	rc = pmurt_evlist_cpc_check(list, &larger.o, NULL, &err);
	CHECK(rc == -EINVAL, "unknown non-zero option bytes: %d", rc);
	pmurt_evlist_free(list);
}

/* What a recording refuses before any system call. */
static void test_refusal(struct pmurt_host *host)
{
	static const struct {
		const char *event;
		int pid;
		const char *says; /* NULL: not refused */
	} cases[] = {
		{"vpa_dtl/dtl_all/", -1, NULL},
		{"vpa_dtl/dtl_all/", 0, "per CPU only"},
		{"vpa_dtl/event=0x3/", -1, "config 0x3: vpa_dtl takes"},
		{"vpa_dtl/dtl_cede/u", -1, "refuses every exclude bit"},
		{"PM_LD_MISS_L1", 0, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmurt_evlist *list = parse(host, cases[i].event);
		struct pmurt_record_opts o = PMURT_OPTS_INIT(pmurt_record_opts, .pid = cases[i].pid);
		struct pmurt_error err = {0};
		int rc = pmurt_record_refusal(list, &o, &err);
		if (cases[i].says)
			CHECK(rc == -EINVAL && strstr(err.message, cases[i].says), "%s pid %d: %d %s",
			      cases[i].event, cases[i].pid, rc, err.message);
		else
			CHECK(rc == 0, "%s pid %d: %d %s", cases[i].event, cases[i].pid, rc,
			      err.message);
		pmurt_evlist_free(list);
	}
}

static void test_host_and_describe(struct pmurt_host *host, const char *sysfs)
{
	struct pmurt_error err = {0};
	CHECK(pmurt_host_pmu_present(host, "vpa_dtl", &err) == 0, "vpa_dtl: %s", err.message);
	int rc = pmurt_host_pmu_present(host, "nest_mcs01", &err);
	CHECK(rc == -ENOENT && strstr(err.message, "no PMU 'nest_mcs01'") &&
	      strstr(err.message, sysfs), "nest_mcs01: %d %s", rc, err.message);
	CHECK(pmurt_host_pmu_present(host, "../cpu", &err) == -EINVAL, "a path is no PMU name");

	const struct pmurt_pmu *pmu = pmurt_host_pmu(host);
	struct pmurt_event_spec ev = PMURT_OPTS_INIT(pmurt_event_spec);
	CHECK(pmurt_parse_event(pmu, "PM_LD_MISS_L1:u", &ev, &err) == 0, "%s", err.message);
	char *text = NULL;
	rc = pmurt_event_describe(pmu, &ev, NULL, &text, &err);
	CHECK(rc == 0 && text && strstr(text, "\ncounter: PMC") && strstr(text, "privilege filters") &&
	      strstr(text, "constraint word:") && strstr(text, "(set)"),
	      "describe PM_LD_MISS_L1:u: %d %s", rc, text ? text : err.message);
	free(text);
	CHECK(pmurt_event_describe(pmu, NULL, NULL, &text, &err) == -EINVAL, "no event");
}

/* perf's :S (leader sampling) as perf 6.1's evsel__config sets it, checked
 * with `perf record -vv -e '{cpu-clock,page-faults}:S'`: on a group, every
 * member flagged; the leader's samples read the group (READ, read_format
 * ID|GROUP|LOST), not inherited; the members sample nothing and carry the
 * leader's sample_type; alone, an event's samples read its own count (ID|LOST,
 * inherited); on the leader alone ("{A:S,B}"), the members read by it as
 * with "{A,B}:S" (perf 6.1 leaves them inherited, which the kernel refuses). */
static void test_leader_sampling(struct pmurt_host *host)
{
	struct pmurt_evlist *list =
		parse(host, "{PM_RUN_CYC,PM_RUN_INST_CMPL}:S,task-clock:S,{cpu-clock:S,page-faults},"
			    "PM_RUN_CYC");
	if (!list)
		return;
	const bool flagged[] = {true, true, true, true, false, false};
	for (int i = 0; i < 6; i++) {
		struct pmurt_evsel_info e = PMURT_OPTS_INIT(pmurt_evsel_info);
		CHECK(pmurt_evlist_event(list, i, &e) == 0 && e.sample_read == flagged[i],
		      "event %d sample_read %d", i, e.sample_read);
	}
	struct pmurt_record_opts o = PMURT_OPTS_INIT(pmurt_record_opts, .pid = 1,
						     .period = 100000);
	struct perf_event_attr a[6];
	for (int i = 0; i < 6; i++)
		CHECK(pmurt_record_attr(list, i, &o, &a[i], sizeof(a[i])) == 0, "attr %d", i);
	const uint64_t group = PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST;
	for (int lead = 0; lead <= 3; lead += 3) {
		CHECK((a[lead].sample_type & PERF_SAMPLE_READ) && a[lead].read_format == group &&
		      !a[lead].inherit && a[lead].sample_period == 100000 && a[lead].disabled,
		      "leader %d: sample_type %#llx read_format %#llx inherit %d", lead,
		      (unsigned long long)a[lead].sample_type,
		      (unsigned long long)a[lead].read_format, a[lead].inherit);
		const struct perf_event_attr *m = &a[lead + 1];
		CHECK(m->sample_type == a[lead].sample_type && !m->sample_period && !m->freq &&
		      !m->inherit && !m->disabled, "member %d: sample_type %#llx period %llu",
		      lead + 1, (unsigned long long)m->sample_type,
		      (unsigned long long)m->sample_period);
	}
	CHECK(a[1].read_format == group && a[4].read_format == group,
	      "members' read_format %#llx %#llx", (unsigned long long)a[1].read_format,
	      (unsigned long long)a[4].read_format);
	CHECK((a[2].sample_type & PERF_SAMPLE_READ) &&
	      a[2].read_format == (PERF_FORMAT_ID | PERF_FORMAT_LOST) && a[2].inherit &&
	      a[2].sample_period == 100000, "task-clock:S: read_format %#llx inherit %d",
	      (unsigned long long)a[2].read_format, a[2].inherit);
	CHECK(!(a[5].sample_type & PERF_SAMPLE_READ) && !a[5].read_format && a[5].inherit,
	      "no :S: sample_type %#llx", (unsigned long long)a[5].sample_type);
	pmurt_evlist_free(list);
	/* the letter is an event list's: one event's spec cannot hold it */
	struct pmurt_event_spec spec = PMURT_OPTS_INIT(pmurt_event_spec);
	struct pmurt_error err = {0};
	CHECK(pmurt_parse_event(pmurt_host_pmu(host), "PM_RUN_CYC:S", &spec, &err) == -EOPNOTSUPP &&
	      strstr(err.message, "'S' (sample_read)"), "pmurt_parse_event PM_RUN_CYC:S: %s",
	      err.message);
}

/* A command held before its exec, recorded with a software event. */
static void test_recording(const char *dir)
{
	struct pmurt_host *host = NULL;
	struct pmurt_error err = {0};
	struct pmurt_host_opts ho = PMURT_OPTS_INIT(pmurt_host_opts);
	CHECK(pmurt_host_open(&host, &ho, &err) == 0, "this machine: %s", err.message);
	struct pmurt_evlist *list = host ? parse(host, "cpu-clock") : NULL;
	if (!list) {
		pmurt_host_close(host);
		return;
	}
	char *argv[] = {"sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done", NULL};
	struct pmurt_workload *wl = NULL;
	CHECK(pmurt_workload_prepare(&wl, argv, &err) == 0 && pmurt_workload_pid(wl) > 0, "%s",
	      err.message);
	char path[4096];
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	struct pmurt_record_opts o = PMURT_OPTS_INIT(pmurt_record_opts,
						     .pid = pmurt_workload_pid(wl),
						     .enable_on_exec = true, .period = 100000,
						     .stack_user = 512);
	struct pmurt_record *r = NULL;
	int rc = pmurt_record_open(&r, list, path, &o, &err);
	CHECK(rc == 0 && r, "pmurt_record_open: %d %s", rc, err.message);
	CHECK(pmurt_workload_start(wl, &err) == 0, "%s", err.message);
	for (int polls = 0; r && !pmurt_record_stopped(r) && polls < 100000; polls++) {
		CHECK(pmurt_record_poll(r, 100, &err) == 0, "poll: %s", err.message);
		if (pmurt_workload_exited(wl))
			pmurt_record_stop(r);
	}
	CHECK(pmurt_workload_finish(wl) == 0, "the command's status");
	CHECK(r && pmurt_record_finish(r, &err) == 0, "finish: %s", err.message);
	struct pmurt_record_stats st = PMURT_OPTS_INIT(pmurt_record_stats);
	CHECK(r && pmurt_record_stats(r, &st) == 0 && st.samples > 0 && st.records >= st.samples,
	      "stats: %llu samples of %llu records", (unsigned long long)st.samples,
	      (unsigned long long)st.records);
	CHECK(pmurt_record_poll(r, 0, &err) == -EINVAL, "a finished recording polls no more");
	pmurt_record_close(r);

	/* the file, read back: the attr pmurt_record_attr gives, every sample
	 * with the user registers and stack (--call-graph dwarf,512) */
	struct perf_event_attr want;
	CHECK(pmurt_record_attr(list, 0, &o, &want, sizeof(want)) == 0 &&
	      want.sample_period == 100000 && !want.freq && want.enable_on_exec, "attr");
	uint64_t dwarf_bits = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	CHECK((want.sample_type & dwarf_bits) == dwarf_bits && want.sample_regs_user &&
	      want.sample_stack_user == 512 && want.exclude_callchain_user && want.mmap_data,
	      "the attr of stack_user 512: sample_type %#llx, regs %#llx, stack %u",
	      (unsigned long long)want.sample_type, (unsigned long long)want.sample_regs_user,
	      want.sample_stack_user);
	struct pmurt_perf_file *f = NULL;
	rc = pmurt_perf_open(&f, path, &err);
	CHECK(rc == 0, "%s: %s", path, err.message);
	struct pmurt_perf_event_info e = PMURT_OPTS_INIT(pmurt_perf_event_info);
	CHECK(f && pmurt_perf_event(f, 0, &e) == 0 && e.type == want.type &&
	      e.config == want.config && e.sample_type == want.sample_type &&
	      e.sample_period == 100000 && !e.freq, "the file's attr: type %u config %llu",
	      e.type, (unsigned long long)e.config);
	struct pmurt_perf_record rec = PMURT_OPTS_INIT(pmurt_perf_record);
	uint64_t samples = 0, with_stack = 0;
	while (f && (rc = pmurt_perf_next(f, &rec, &err)) == 1) {
		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		CHECK(rec.regs_user && rec.regs_user_abi &&
		      rec.regs_user_mask == want.sample_regs_user && rec.stack_user_size <= 512,
		      "sample at %#llx: abi %llu, mask %#llx, stack %llu",
		      (unsigned long long)rec.offset, (unsigned long long)rec.regs_user_abi,
		      (unsigned long long)rec.regs_user_mask, (unsigned long long)rec.stack_user_size);
		with_stack += rec.stack_user != NULL && rec.stack_user_size > 0;
	}
	CHECK(with_stack > 0, "no sample with a user stack copy of %llu",
	      (unsigned long long)samples);
	CHECK(rc == 0 && samples == st.samples, "the file's samples: %llu, counted %llu (%s)",
	      (unsigned long long)samples, (unsigned long long)st.samples, err.message);
	pmurt_perf_close(f);
	pmurt_evlist_free(list);
	pmurt_host_close(host);
}

/* stack_user (--call-graph dwarf,SIZE) as perf takes SIZE: a multiple of 8
 * up to 65528, else refused. */
static void test_stack_user(void)
{
	struct pmurt_host *host = NULL;
	struct pmurt_error err = {0};
	struct pmurt_host_opts ho = PMURT_OPTS_INIT(pmurt_host_opts);
	CHECK(pmurt_host_open(&host, &ho, &err) == 0, "this machine: %s", err.message);
	struct pmurt_evlist *list = host ? parse(host, "cpu-clock") : NULL;
	static const struct {
		uint32_t size;
		int rc;
	} cases[] = {{8, 0}, {8192, 0}, {65528, 0}, {100, -EINVAL}, {65536, -EINVAL}};
	for (size_t i = 0; list && i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmurt_record_opts o = PMURT_OPTS_INIT(pmurt_record_opts, .pid = 1,
							     .stack_user = cases[i].size);
		struct perf_event_attr a;
		int rc = pmurt_record_attr(list, 0, &o, &a, sizeof(a));
		CHECK(rc == cases[i].rc && (rc || a.sample_stack_user == cases[i].size),
		      "stack_user %u: %d", cases[i].size, rc);
		rc = pmurt_record_refusal(list, &o, &err);
		CHECK(rc == cases[i].rc && (!rc || strstr(err.message, "stack_user")),
		      "stack_user %u refused: %d %s", cases[i].size, rc, err.message);
	}
	pmurt_evlist_free(list);
	pmurt_host_close(host);
}

/* A command that cannot exec, and one that fails. */
static void test_workloads(void)
{
	struct pmurt_error err = {0};
	struct pmurt_workload *wl = NULL;
	char *missing[] = {"/nonexistent/pmurt-no-such-command", NULL};
	CHECK(pmurt_workload_prepare(&wl, missing, &err) == 0, "%s", err.message);
	int rc = pmurt_workload_start(wl, &err);
	CHECK(rc == -ENOENT && strstr(err.message, "pmurt-no-such-command"), "%d %s", rc,
	      err.message);
	pmurt_workload_finish(wl);
	char *failing[] = {"sh", "-c", "exit 3", NULL};
	CHECK(pmurt_workload_prepare(&wl, failing, &err) == 0 && pmurt_workload_start(wl, &err) == 0,
	      "%s", err.message);
	/* finish terminates a command still running: wait for its end (bounded
	 * by a count, not a time) */
	for (int waits = 0; !pmurt_workload_exited(wl) && waits < 600000; waits++)
		usleep(100);
	CHECK(pmurt_workload_finish(wl) == 3, "exit 3");
	CHECK(pmurt_workload_finish(NULL) == 0 && pmurt_workload_pid(NULL) == 0, "NULL");
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: record_test SYSFS DIR\n");
		return 2;
	}
	struct pmurt_host *host = NULL;
	struct pmurt_error err;
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = argv[1],
						   .pmu = "power10");
	if (pmurt_host_open(&host, &o, &err)) {
		fprintf(stderr, "record_test: %s\n", err.message);
		return 1;
	}
	test_cpc(host);
	test_refusal(host);
	test_host_and_describe(host, argv[1]);
	test_leader_sampling(host);
	pmurt_host_close(host);
	test_recording(argv[2]);
	test_workloads();
	test_stack_user();
	if (failures)
		fprintf(stderr, "record_test: %d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
