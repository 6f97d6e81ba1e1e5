/*
 * perf_test.c - libpmurt's perf side on a fake POWER10 LPAR sysfs tree
 * (tests/fakesys/power10-lpar.sh --test-pmu) and the simulated kernel
 * (perf/sys_sim.c): sysfs formats and aliases, event lists of every kind
 * with their errors, the host description pick, counting (groups,
 * multiplexing, CPUs, the group check before any system call) and the
 * explanation of each errno, injected.
 *
 * usage: perf_test SYSFS WORKDIR POWER10.dtb   (as root: every case)
 *        perf_test --unprivileged SYSFS        (as an unprivileged user: the
 *                                                EACCES explanations)
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check.h"
#include "dtdir.h"
#include "perf_int.h"
#include "sys_sim.h"
#include "sysfs.h"

static int failures;

#define CONTAINS(hay, needle) CHECK(strstr((hay), (needle)), "'%s' lacks '%s'", (hay), (needle))

static const struct pmu_sim_pmu sim_pmus[] = {
	{.type = PERF_TYPE_HARDWARE, .name = "hardware", .per_ms = 10},
	{.type = PERF_TYPE_SOFTWARE, .name = "software", .per_ms = 1000},
	{.type = PERF_TYPE_TRACEPOINT, .name = "tracepoint", .per_ms = 1},
	{.type = PERF_TYPE_RAW, .name = "cpu", .counters = 6, .per_ms = 1000},
	{.type = 14, .name = "vpa_dtl", .vpa_dtl = true},
	{.type = 42, .name = "splitpmu", .no_exclude = true, .no_sampling = true, .per_ms = 7},
	{.type = 12, .name = "hv_24x7", .per_cpu_only = true, .per_ms = 1000},
};

static const char *sysfs_root;

static struct pmurt_host *open_host(const char *pmu, struct pmu_sim **sim)
{
	struct pmurt_host *h = NULL;
	struct pmurt_error err;
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = sysfs_root, .pmu = pmu);
	int rc = pmurt_host_open(&h, &o, &err);
	CHECK(rc == 0 && h, "pmurt_host_open: %s", err.message);
	if (!h)
		exit(1);
	if (sim) {
		CHECK(pmu_sim_new(sim, sim_pmus, (int)(sizeof(sim_pmus) / sizeof(sim_pmus[0]))) == 0,
		      "pmu_sim_new");
		h->h.sys = pmu_sim_sys(*sim);
	}
	return h;
}

/* --- sysfs ------------------------------------------------------------------- */

static void test_sysfs(void)
{
	struct pmu_sysfs p;
	struct pmurt_error err = {0};
	CHECK(pmu_sysfs_load(sysfs_root, "splitpmu", &p, &err) == 0, "%s", err.message);
	CHECK(p.type == 42 && p.nformat == 5, "type %u, %d formats", p.type, p.nformat);
	const struct pmu_format *ev = pmu_sysfs_format(&p, "event");
	const struct pmu_format *filter = pmu_sysfs_format(&p, "filter");
	const struct pmu_format *extra = pmu_sysfs_format(&p, "extra");
	CHECK(ev && ev->word == 0 && ev->bits == (0xffull | 0xfull << 32), "event: config:0-7,32-35");
	CHECK(filter && filter->word == 1 && filter->bits == 0x3ffff, "filter: config1:0-17");
	CHECK(extra && extra->word == 2 && extra->bits == 0xfull << 60, "extra: config2:60-63");
	uint64_t w[3] = {0, 0, 0};
	CHECK(ev && pmu_format_apply(ev, 0xabc, w) == 0 && w[0] == 0xa000000bcull,
	      "0xabc split: 0x%llx", (unsigned long long)w[0]);
	CHECK(ev && pmu_format_apply(ev, 0x1000, w) == -ERANGE, "13 bits into 12");
	char terms[128], unit[32];
	double scale;
	CHECK(pmu_sysfs_alias(sysfs_root, &p, "energy", terms, sizeof(terms), &scale, unit) == 0 &&
	      strcmp(terms, "event=0x2") == 0 && strcmp(unit, "Joules") == 0 &&
	      scale > 2.32e-10 && scale < 2.33e-10, "energy: '%s' %g '%s'", terms, scale, unit);
	CHECK(pmu_sysfs_alias(sysfs_root, &p, "nope", terms, sizeof(terms), &scale, unit) == -ENOENT,
	      "no alias");
	CHECK(pmu_sysfs_load(sysfs_root, "vpa_dtl", &p, &err) == 0 && !p.has_cpumask &&
	      p.cpumask[0] == '\0', "vpa_dtl has no cpumask, as on a real LPAR");
	CHECK(pmu_sysfs_load(sysfs_root, "hv_24x7", &p, &err) == 0 && p.has_cpumask &&
	      strcmp(p.cpumask, "0") == 0, "hv_24x7 cpumask");
	CHECK(pmu_sysfs_load(sysfs_root, "cpu", &p, &err) == 0 &&
	      strcmp(pmu_sysfs_cap(&p, "pmu_name") ?: "", "POWER10") == 0, "cpu caps/pmu_name");
	CHECK(pmu_sysfs_load(sysfs_root, "nope", &p, &err) == -ENOENT, "unknown PMU");
	char bad[600];
	snprintf(bad, sizeof(bad), "%s/bus/event_source/devices/vpa_dtl/format/event", sysfs_root);
	CHECK(dtdir_put(sysfs_root, "bus/event_source/devices/vpa_dtl/format/event", "config:9-3\n",
			11) == 0, "write");
	CHECK(pmu_sysfs_load(sysfs_root, "vpa_dtl", &p, &err) == -EINVAL, "bad format");
	CONTAINS(err.message, bad);
	CONTAINS(err.message, "bad format 'config:9-3'");
	dtdir_put(sysfs_root, "bus/event_source/devices/vpa_dtl/format/event", "config:0-7\n", 11);
}

/* --- event lists -------------------------------------------------------------- */

static void expect_event(const struct pmu_evlist *l, int i, enum pmu_evsel_kind kind, uint32_t type,
			 uint64_t config, int leader)
{
	CHECK(i < l->n, "event %d missing", i);
	if (i >= l->n)
		return;
	const struct pmu_evsel *e = &l->v[i];
	CHECK(e->kind == kind && e->attr.type == type && e->attr.config == config &&
	      e->leader == leader, "event %d '%s': kind %d type %u config 0x%llx leader %d", i,
	      e->name, e->kind, e->attr.type, (unsigned long long)e->attr.config, e->leader);
}

static void test_parse_kinds(struct pmurt_host *h)
{
	struct pmu_evlist l = {0};
	struct pmurt_error err;
	int rc = pmu_evlist_parse(&l, &h->h, "{PM_LD_MISS_L1:u,PM_BR_MPRED_CMPL,cycles},task-clock,"
				  "sched:sched_switch,vpa_dtl/dtl_all/,splitpmu/event=0xabc,umask=3/k,"
				  "energy,L1-dcache-load-misses,cs:u,r600f4,cpu/PM_MRK_INST_CMPL,"
				  "thresh_cmp=1000/p", &err);
	CHECK(rc == 0 && l.n == 12, "parse: %d %s (%d events)", rc, err.message, l.n);
	expect_event(&l, 0, PMU_EVSEL_CORE, PERF_TYPE_RAW, 0x3e054, 0);
	expect_event(&l, 1, PMU_EVSEL_CORE, PERF_TYPE_RAW, 0x400f6, 0);
	expect_event(&l, 2, PMU_EVSEL_HARDWARE, PERF_TYPE_HARDWARE, 0, 0);
	expect_event(&l, 3, PMU_EVSEL_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 3);
	expect_event(&l, 4, PMU_EVSEL_TRACEPOINT, PERF_TYPE_TRACEPOINT, 316, 4);
	expect_event(&l, 5, PMU_EVSEL_SYSFS, 14, 7, 5);
	expect_event(&l, 6, PMU_EVSEL_SYSFS, 42, 0xa000003bcull, 6);
	expect_event(&l, 7, PMU_EVSEL_SYSFS, 42, 2, 7);
	expect_event(&l, 8, PMU_EVSEL_CACHE, PERF_TYPE_HW_CACHE, 0x10000, 8);
	expect_event(&l, 9, PMU_EVSEL_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 9);
	expect_event(&l, 10, PMU_EVSEL_CORE, PERF_TYPE_RAW, 0x600f4, 10);
	expect_event(&l, 11, PMU_EVSEL_CORE, PERF_TYPE_RAW, 0x401e0, 11);
	if (l.n == 12) {
		CHECK(l.v[0].group_size == 3 && l.v[0].attr.exclude_kernel && !l.v[0].attr.exclude_user,
		      "group of 3, :u");
		CHECK(l.v[5].per_cpu_only && !l.v[3].per_cpu_only, "vpa_dtl per CPU only");
		CHECK(l.v[6].attr.exclude_user && !l.v[6].attr.exclude_kernel, "splitpmu :k");
		CHECK(strcmp(l.v[7].unit, "Joules") == 0 && l.v[7].scale < 1e-9, "energy unit");
		CHECK(strcmp(l.v[3].unit, "msec") == 0 && l.v[3].scale == 1e-6, "task-clock msec");
		CHECK(l.v[11].attr.config1 == 1000 && l.v[11].attr.precise_ip == 1, "thresh_cmp, :p");
		CHECK(l.v[9].attr.exclude_kernel, "cs:u");
	}
	pmu_evlist_free(&l);
	rc = pmu_evlist_parse(&l, &h->h, "splitpmu/umask=2,config=0xffff,config2=3/", &err);
	CHECK(rc == 0 && l.n == 1 && l.v[0].attr.config == 0x2ff && l.v[0].attr.config2 == 3,
	      "format terms win over config=: 0x%llx", (unsigned long long)l.v[0].attr.config);
	pmu_evlist_free(&l);
	rc = pmu_evlist_parse(&l, &h->h, "{task-clock,PM_CYC}:k,{page-faults}", &err);
	CHECK(rc == 0 && l.n == 3 && l.v[0].attr.exclude_user && l.v[1].attr.exclude_user &&
	      !l.v[1].attr.exclude_kernel && l.v[2].leader == 2, "group modifiers: %s", err.message);
	pmu_evlist_free(&l);
}

static void test_parse_no_core(void)
{
	struct pmurt_host *h = open_host("power10", NULL);
	struct pmu_evlist l = {0};
	struct pmurt_error err;
	h->h.core = NULL;
	snprintf(h->h.pick, sizeof(h->h.pick), "looked for x");
	int rc = pmu_evlist_parse(&l, &h->h, "cycles,L1-dcache-loads,r1234,mem-loads", &err);
	CHECK(rc == 0 && l.n == 4, "no core: %s", err.message);
	expect_event(&l, 0, PMU_EVSEL_HARDWARE, PERF_TYPE_HARDWARE, 0, 0);
	expect_event(&l, 1, PMU_EVSEL_CACHE, PERF_TYPE_HW_CACHE, 0, 1);
	expect_event(&l, 2, PMU_EVSEL_CORE, PERF_TYPE_RAW, 0x1234, 2);
	/* the cpu PMU's alias (power10-pmu.c's mem-loads; not one of perf's names) */
	expect_event(&l, 3, PMU_EVSEL_SYSFS, 4, 0x35340401e0ull, 3);
	rc = pmu_evlist_parse(&l, &h->h, "task-clock,PM_NOPE", &err);
	CHECK(rc == -ENOENT && l.n == 4, "no core, unknown: %d", rc);
	CONTAINS(err.message, "unknown event 'PM_NOPE' at offset 11");
	CONTAINS(err.message, "looked for x");
	pmu_evlist_free(&l);
	pmurt_host_close(h);
}

static void expect_error(struct pmurt_host *h, const char *str, int code, const char *text)
{
	struct pmu_evlist l = {0};
	struct pmurt_error err;
	int rc = pmu_evlist_parse(&l, &h->h, str, &err);
	CHECK(rc == code && l.n == 0, "'%s': %d (want %d), %d events", str, rc, code, l.n);
	CHECK(strstr(err.message, text), "'%s': '%s' lacks '%s'", str, err.message, text);
	pmu_evlist_free(&l);
}

static void test_parse_errors(struct pmurt_host *h)
{
	expect_error(h, "task-clock,,page-faults", -EINVAL, "empty event at offset 11");
	expect_error(h, "task-clock,", -EINVAL, "empty event at offset 11");
	expect_error(h, "{task-clock,page-faults", -EINVAL, "no '}' for the group opened at offset 0");
	expect_error(h, "{task-clock,{cs}}", -EINVAL, "group inside a group at offset 12");
	expect_error(h, "task-clock}", -EINVAL, "unexpected '}' at offset 10");
	expect_error(h, "task-clock,foo/x/", -ENOENT, "unknown PMU 'foo' at offset 11");
	expect_error(h, "vpa_dtl/bogus=1/", -EINVAL, "unknown term 'bogus' at offset 8");
	expect_error(h, "splitpmu/event=0x1000/", -EINVAL, "does not fit splitpmu's format event");
	expect_error(h, "splitpmu/umask=zz/", -EINVAL, "bad value 'zz' for 'umask' at offset 15");
	expect_error(h, "vpa_dtl/dtl_all", -EINVAL, "no closing '/' for the term list opened at "
		     "offset 7");
	expect_error(h, "sched:nope", -ENOENT, "unknown tracepoint 'sched:nope' at offset 0");
	expect_error(h, "task-clock,PM_LD_MISS_L:u", -ENOENT, "unknown event 'PM_LD_MISS_L' at "
		     "offset 11; did you mean 'PM_LD_MISS_L1'?");
	expect_error(h, "page-faults,task-clock:ux", -EINVAL, "unknown modifier 'x' at offset 24");
	expect_error(h, "cpu/pmc=99/", -EINVAL, "value '99' for 'pmc' at offset 8");
	expect_error(h, "{task-clock}:q", -EINVAL, "unknown modifier 'q' at offset 13");
	/* a list of 2^20 characters: refused, naming the bound; 95,000 events
	 * in 1,044,999 characters: read */
	size_t n = (size_t)1 << 20;
	char *big = malloc(n + 1);
	CHECK(big != NULL, "malloc");
	for (size_t i = 0; i < n; i += 11)
		memcpy(big + i, "task-clock,", n - i < 11 ? n - i : 11);
	big[n] = 0;
	struct pmu_evlist l = {0};
	struct pmurt_error err = {0};
	int rc = pmu_evlist_parse(&l, &h->h, big, &err);
	CHECK(rc == -E2BIG && l.n == 0 && strstr(err.message, "event list of 1048576 characters, "
						"longer than 1048575"), "2^20 characters: %d %s", rc,
	      err.message);
	big[95000 * 11 - 1] = 0;
	rc = pmu_evlist_parse(&l, &h->h, big, &err);
	CHECK(rc == 0 && l.n == 95000, "a long list: %d events, %s", l.n, err.message);
	pmu_evlist_free(&l);
	free(big);
}

/* A term that is a bare name inside cpu/.../ and no event of the description
 * is a sysfs alias of the cpu PMU, as perf reads it (parse-events.c): the
 * fake LPAR's cpu/events/mem-stores is event=0x353c0401e0. */
static void test_parse_cpu_alias(struct pmurt_host *h)
{
	struct pmu_evlist l = {0};
	struct pmurt_error err;
	int rc = pmu_evlist_parse(&l, &h->h, "cpu/mem-stores/u,{cpu/PM_CYC/,"
				  "cpu/mem-stores,period=100000/}", &err);
	CHECK(rc == 0 && l.n == 3, "cpu/mem-stores/: %d %s (%d events)", rc, err.message, l.n);
	expect_event(&l, 0, PMU_EVSEL_SYSFS, 4, 0x353c0401e0ull, 0);
	expect_event(&l, 1, PMU_EVSEL_CORE, PERF_TYPE_RAW, 0x100f0, 1);
	expect_event(&l, 2, PMU_EVSEL_SYSFS, 4, 0x353c0401e0ull, 1);
	if (l.n == 3) {
		CHECK(strcmp(l.v[0].pmu, "cpu") == 0 && strcmp(l.v[0].name, "cpu/mem-stores/u") == 0,
		      "pmu '%s', name '%s'", l.v[0].pmu, l.v[0].name);
		CHECK(l.v[0].attr.exclude_kernel && !l.v[0].attr.exclude_user, "cpu/mem-stores/u");
		CHECK(l.v[2].attr.sample_period == 100000 && l.v[1].group_size == 2, "period=, group");
	}
	pmu_evlist_free(&l);
	/* neither the description nor sysfs knows it: the description's message */
	expect_error(h, "cycles,cpu/mem-storez/", -ENOENT,
		     "unknown event or term 'mem-storez' at offset 11");
	expect_error(h, "cpu/mem-stores/x", -EINVAL, "unknown modifier 'x' at offset 15");
	/* a tracepoint's own modifiers after its second ':' */
	rc = pmu_evlist_parse(&l, &h->h, "sched:sched_switch:k", &err);
	CHECK(rc == 0 && l.n == 1 && l.v[0].kind == PMU_EVSEL_TRACEPOINT &&
	      l.v[0].attr.exclude_user && !l.v[0].attr.exclude_kernel, "sched:sched_switch:k: %s",
	      err.message);
	pmu_evlist_free(&l);
	expect_error(h, "sched:sched_switch:x", -EINVAL, "unknown modifier 'x' at offset 19");
	/* sysfs terms read numbers as perf's lexer does: 010 is decimal (num_dec) */
	rc = pmu_evlist_parse(&l, &h->h, "splitpmu/umask=010/", &err);
	CHECK(rc == 0 && l.n == 1 && l.v[0].attr.config == 0xa00, "umask=010: %d 0x%llx", rc,
	      l.n ? (unsigned long long)l.v[0].attr.config : 0ull);
	pmu_evlist_free(&l);
}

/* --- the description pick ----------------------------------------------------- */

/* A device-tree directory (/proc/device-tree layout) written from a DTB. */
static void write_tree(const char *dtb_path, const char *dir)
{
	size_t len;
	void *dtb = dtdir_slurp(dtb_path, &len);
	CHECK(dtb && dtdir_write(dtb, "/", dir) == 0, "device tree directory %s", dir);
	free(dtb);
}

static void test_pick(const char *work, const char *dtb_path)
{
	struct pmurt_pmu *pmu;
	struct pmurt_error err;
	char looked[320], dt[512], bare[512], cpuinfo[512];
	snprintf(dt, sizeof(dt), "%s/dt", work);
	snprintf(bare, sizeof(bare), "%s/nodt", work);
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/cpuinfo", work);
	write_tree(dtb_path, dt);
	struct pmurt_pmu_info info = {.sz = sizeof(info)};

	struct pmu_pick_inputs in = {.devtree = dt, .at_platform = "x86_64"};
	CHECK(pmu_host_pick(&in, &pmu, looked, sizeof(looked), &err) == 0 && pmu, "dt: %s",
	      err.message);
	CHECK(pmu && pmurt_pmu_info(pmu, &info) == 0 && strstr(info.source, dt), "from the tree");
	CONTAINS(looked, "the device tree's pmus node (");
	pmurt_pmu_close(pmu);

	in = (struct pmu_pick_inputs){.devtree = bare, .sysfs = bare, .at_platform = "power10"};
	CHECK(pmu_host_pick(&in, &pmu, looked, sizeof(looked), &err) == 0 && pmu &&
	      pmurt_pmu_info(pmu, &info) == 0 && strcmp(info.platform, "power10") == 0,
	      "AT_PLATFORM");
	CHECK(strcmp(looked, "AT_PLATFORM 'power10'") == 0, "picked by: %s", looked);
	pmurt_pmu_close(pmu);

	in = (struct pmu_pick_inputs){.devtree = bare, .sysfs = sysfs_root, .at_platform = "x86_64"};
	CHECK(pmu_host_pick(&in, &pmu, looked, sizeof(looked), &err) == 0 && pmu, "pmu_name");
	CONTAINS(looked, "the cpu PMU's pmu_name 'POWER10' (");
	pmurt_pmu_close(pmu);

	static const char power10_cpuinfo[] = "processor\t: 0\ncpu\t\t: POWER10 (architected)\n"
					      "revision\t: 2.0 (pvr 0080 0200)\n";
	CHECK(dtdir_put(work, "cpuinfo", power10_cpuinfo, strlen(power10_cpuinfo)) == 0, "cpuinfo");
	in = (struct pmu_pick_inputs){.devtree = bare, .sysfs = bare, .cpuinfo = cpuinfo,
				      .at_platform = "x86_64"};
	CHECK(pmu_host_pick(&in, &pmu, looked, sizeof(looked), &err) == 0 && pmu, "PVR");
	CONTAINS(looked, "the PVR '0080 0200' (");
	pmurt_pmu_close(pmu);

	in = (struct pmu_pick_inputs){.devtree = bare, .sysfs = bare, .cpuinfo = bare,
				      .at_platform = "x86_64"};
	CHECK(pmu_host_pick(&in, &pmu, looked, sizeof(looked), &err) == 1 && !pmu, "none");
	CONTAINS(looked, "/nodt/pmus (absent)");
	CONTAINS(looked, "AT_PLATFORM 'x86_64'");
	CONTAINS(looked, "built-in description (power10, power9, power8, power11)");
	CONTAINS(looked, "PVR 'none in /proc/cpuinfo'");

	CHECK(dtdir_remove(dt, "pmus/pmu_dts@0/events") == 0, "break the tree");
	in = (struct pmu_pick_inputs){.devtree = dt};
	CHECK(pmu_host_pick(&in, &pmu, looked, sizeof(looked), &err) < 0 && !pmu,
	      "a broken tree is an error, not skipped");
	CONTAINS(err.message, "pmu_dts@0");
}

/* --- counting ------------------------------------------------------------------- */

static struct pmurt_counter *open_counter(struct pmurt_host *h, const char *ev, const int *cpus,
					  int ncpus, struct pmurt_error *err)
{
	struct pmurt_counter *c = NULL;
	struct pmurt_counter_opts o = PMURT_OPTS_INIT(pmurt_counter_opts, .pid = 0,
						      .inherit = !cpus, .cpus = cpus, .ncpus = ncpus);
	int rc = pmurt_counter_open(&c, h, ev, &o, err);
	CHECK((rc == 0) == (c != NULL), "'%s': rc %d", ev, rc);
	return c;
}

/* Six POWER10 events that fit one group (PMC2, 5, 3, 4, 1, 6). */
#define SIX "PM_RUN_CYC,PM_RUN_INST_CMPL,PM_LD_MISS_L1,PM_BR_MPRED_CMPL,PM_LD_REF_L1,0x600f4"

static void test_count(struct pmurt_host *h, struct pmu_sim *sim)
{
	struct pmurt_error err;
	struct pmurt_count v[8];
	struct pmurt_counter *c = open_counter(h, "{" SIX "},task-clock", NULL, 0, &err);
	CHECK(c, "%s", err.message);
	if (!c)
		return;
	CHECK(pmurt_counter_nevents(c) == 7 && pmu_sim_open_fds(sim) == 7, "7 open");
	const struct perf_event_attr *a = pmu_sim_attr(sim, c->fds[0]);
	CHECK(a && a->disabled && a->inherit && a->read_format == PMU_COUNT_READ_FORMAT, "leader attr");
	a = pmu_sim_attr(sim, c->fds[1]);
	CHECK(a && !a->disabled, "members follow the leader");
	pmu_sim_advance(sim, 1000000);
	CHECK(pmurt_counter_read(c, v, 8, sizeof(v[0]), &err) == 7 && v[0].value == 0,
	      "disabled: nothing counted");
	CHECK(pmurt_counter_enable(c, &err) == 0, "enable");
	pmu_sim_advance(sim, 2000000);
	CHECK(pmurt_counter_read(c, v, 8, sizeof(v[0]), &err) == 7, "read: %s", err.message);
	CHECK(v[0].value == 2000 && v[5].value == 2000 && v[5].time_enabled == 2000000 &&
	      v[5].time_running == 2000000 && v[5].scaled == 2000 && v[6].value == 2000 &&
	      v[5].leader == 0 && v[6].leader == 6 && strcmp(v[2].name, "PM_LD_MISS_L1") == 0 &&
	      strcmp(v[6].unit, "msec") == 0 && strcmp(v[6].pmu, "software") == 0,
	      "counts: %llu %llu", (unsigned long long)v[0].value, (unsigned long long)v[5].value);
	CHECK(pmurt_counter_reset(c, &err) == 0 && pmurt_counter_read(c, v, 8, sizeof(v[0]), &err) == 7
	      && v[3].value == 0 && v[3].time_enabled == 2000000, "reset zeroes counts, not times");
	CHECK(pmurt_counter_disable(c, &err) == 0, "disable");
	pmu_sim_advance(sim, 1000000);
	CHECK(pmurt_counter_read(c, v, 8, sizeof(v[0]), &err) == 7 && v[3].value == 0, "disabled");
	pmurt_counter_close(c);
	CHECK(pmu_sim_open_fds(sim) == 0, "closed: %d open", pmu_sim_open_fds(sim));

	/* two 4-event groups on 6 counters: each runs 6/8 of the time */
	c = open_counter(h, "{PM_RUN_CYC,PM_LD_MISS_L1,PM_BR_MPRED_CMPL,PM_LD_REF_L1},"
			 "{PM_CYC,PM_RUN_INST_CMPL,PM_LD_MISS_L1,PM_BR_MPRED_CMPL}", NULL, 0, &err);
	CHECK(c && pmurt_counter_enable(c, &err) == 0, "multiplexed: %s", err.message);
	pmu_sim_advance(sim, 8000000);
	CHECK(c && pmurt_counter_read(c, v, 8, sizeof(v[0]), &err) == 8 && v[4].value == 6000 &&
	      v[4].time_running == 6000000 && v[4].time_enabled == 8000000 && v[4].scaled == 8000,
	      "scaled %llu of %llu", (unsigned long long)v[4].scaled, (unsigned long long)v[4].value);
	pmurt_counter_close(c);

	int cpus[2] = {0, 1};
	c = open_counter(h, "task-clock", cpus, 2, &err);
	CHECK(c && pmu_sim_open_fds(sim) == 2 && pmurt_counter_enable(c, &err) == 0, "2 CPUs");
	pmu_sim_advance(sim, 1000000);
	CHECK(c && pmurt_counter_read(c, v, 1, sizeof(v[0]), &err) == 1 && v[0].value == 2000 &&
	      v[0].time_enabled == 2000000, "summed over CPUs: %llu", (unsigned long long)v[0].value);
	pmurt_counter_close(c);

	/* CPU-wide, a PMU with a cpumask opens on its CPUs only ("0") */
	int three[3] = {0, 1, 2};
	c = open_counter(h, "{hv_24x7/PM_PB_CYC/,task-clock},page-faults", three, 3, &err);
	CHECK(c && pmu_sim_open_fds(sim) == 5 && pmurt_counter_enable(c, &err) == 0,
	      "cpumask 0: %d open, %s", pmu_sim_open_fds(sim), err.message);
	pmu_sim_advance(sim, 1000000);
	CHECK(c && pmurt_counter_read(c, v, 3, sizeof(v[0]), &err) == 3 && v[0].value == 1000 &&
	      v[1].value == 1000 && v[2].value == 3000, "%llu %llu %llu",
	      (unsigned long long)v[0].value, (unsigned long long)v[1].value,
	      (unsigned long long)v[2].value);
	pmurt_counter_close(c);
	CHECK(pmu_cpulist_has("0-3,8", 8) && pmu_cpulist_has("0-3,8", 2) &&
	      !pmu_cpulist_has("0-3,8", 4) && !pmu_cpulist_has("", 0), "cpu lists");

	int opens = pmu_sim_opens(sim);
	c = open_counter(h, "task-clock,{PM_LD_MISS_L1,PM_LD_MISS_L1}", NULL, 0, &err);
	CHECK(!c && err.code == -EINVAL && pmu_sim_opens(sim) == opens,
	      "a group that cannot fit opens nothing");
	CONTAINS(err.message, "constraint_conflict");
	CONTAINS(err.message, "group led by 'PM_LD_MISS_L1'");
	c = open_counter(h, "{" SIX ",PM_MRK_INST_CMPL}", NULL, 0, &err);
	CHECK(!c && pmu_sim_opens(sim) == opens, "7 core events: refused before opening");

	pmu_sim_inject(sim, PERF_TYPE_RAW, -EBUSY);
	c = open_counter(h, "task-clock,{PM_CYC,PM_RUN_INST_CMPL}", NULL, 0, &err);
	CHECK(!c && err.code == -EBUSY && pmu_sim_open_fds(sim) == 0,
	      "a failure closes what was opened: %d open", pmu_sim_open_fds(sim));
	CHECK(pmurt_count_scale(1000000000000000000ull, 1000000000000ull, 500000000000ull) ==
	      2000000000000000000ull, "exact 128-bit scale");
	CHECK(pmurt_count_scale(UINT64_MAX / 2, 3, 1) == UINT64_MAX, "saturates");
	CHECK(pmurt_count_scale(5, 0, 0) == 0 && pmurt_count_scale(5, 7, 7) == 5, "edges");
}

/* skip_unsupported: an event the host refuses as not supported is left
 * out (perf stat's <not supported>), a leader with its group, the others
 * counted; every event left out is the first failure's error. */
static struct pmurt_counter *open_skipping(struct pmurt_host *h, const char *ev, size_t sz,
					   struct pmurt_error *err)
{
	struct pmurt_counter *c = NULL;
	struct pmurt_counter_opts o = PMURT_OPTS_INIT(pmurt_counter_opts, .pid = 0,
						      .inherit = true, .skip_unsupported = true);
	o.sz = sz;
	int rc = pmurt_counter_open(&c, h, ev, &o, err);
	CHECK((rc == 0) == (c != NULL), "'%s': rc %d", ev, rc);
	return c;
}

static void test_skip_unsupported(struct pmurt_host *h, struct pmu_sim *sim)
{
	struct pmurt_error err;
	struct pmurt_count v[5];
	/* ENOENT for cycles (injected: no hardware PMU), EOPNOTSUPP for a
	 * group member; the group's leader and the rest count */
	pmu_sim_inject(sim, PERF_TYPE_HARDWARE, -ENOENT);
	struct pmurt_counter *c = open_skipping(h, "cycles,task-clock", sizeof(struct pmurt_counter_opts), &err);
	CHECK(c && !err.message[0], "mixed: %s", err.message);
	CHECK(c && pmurt_counter_enable(c, &err) == 0, "%s", err.message);
	pmu_sim_advance(sim, 1000000);
	CHECK(c && pmurt_counter_read(c, v, 2, sizeof(v[0]), &err) == 2 && v[0].skipped == ENOENT &&
	      v[0].time_running == 0 && v[1].skipped == 0 && v[1].value == 1000,
	      "cycles skipped %d, task-clock %llu", v[0].skipped, (unsigned long long)v[1].value);
	pmurt_counter_close(c);
	pmu_sim_inject(sim, PERF_TYPE_RAW, -EOPNOTSUPP);
	c = open_skipping(h, "{task-clock,PM_CYC,page-faults},cpu-clock", sizeof(struct pmurt_counter_opts), &err);
	CHECK(c && pmurt_counter_enable(c, &err) == 0, "member: %s", err.message);
	pmu_sim_advance(sim, 1000000);
	CHECK(c && pmurt_counter_read(c, v, 4, sizeof(v[0]), &err) == 4, "group read without its "
	      "member: %s", err.message);
	CHECK(v[0].skipped == 0 && v[0].value == 1000 && v[1].skipped == EOPNOTSUPP &&
	      v[2].skipped == 0 && v[2].time_running == 1000000 && v[3].time_running == 1000000,
	      "member left out: %d %d %d, %llu", v[0].skipped, v[1].skipped, v[2].skipped,
	      (unsigned long long)v[3].time_running);
	pmurt_counter_close(c);
	/* a leader left out takes its members along */
	pmu_sim_inject(sim, PERF_TYPE_RAW, -EOPNOTSUPP);
	c = open_skipping(h, "{PM_CYC,task-clock},page-faults", sizeof(struct pmurt_counter_opts), &err);
	CHECK(c && pmu_sim_open_fds(sim) == 1, "leader: %d fds open", pmu_sim_open_fds(sim));
	CHECK(c && pmurt_counter_read(c, v, 3, sizeof(v[0]), &err) == 3 && v[0].skipped == EOPNOTSUPP &&
	      v[1].skipped == ECANCELED && v[2].skipped == 0, "leader left out: %d %d %d",
	      v[0].skipped, v[1].skipped, v[2].skipped);
	pmurt_counter_close(c);
	/* nothing left: the first failure, explained (energy:u: the PMU
	 * refuses exclude bits, EINVAL) */
	pmu_sim_inject(sim, PERF_TYPE_HARDWARE, -ENOENT);
	c = open_skipping(h, "cycles,energy:u", sizeof(struct pmurt_counter_opts), &err);
	CHECK(!c && err.code == -ENOENT && strstr(err.message, "cannot open 'cycles'") &&
	      pmu_sim_open_fds(sim) == 0, "all left out: %d %s", err.code, err.message);
	pmurt_counter_close(c);
	/* EBUSY, EACCES are no lack of support: the open fails */
	pmu_sim_inject(sim, PERF_TYPE_RAW, -EBUSY);
	c = open_skipping(h, "task-clock,PM_CYC", sizeof(struct pmurt_counter_opts), &err);
	CHECK(!c && err.code == -EBUSY && pmu_sim_open_fds(sim) == 0, "EBUSY: %d", err.code);
	pmurt_counter_close(c);
	/* an older caller: opts without skip_unsupported (false), counts
	 * without skipped (not written past their size) */
	pmu_sim_inject(sim, PERF_TYPE_HARDWARE, -ENOENT);
	c = open_skipping(h, "cycles,task-clock", offsetof(struct pmurt_counter_opts, skip_unsupported), &err);
	CHECK(!c && err.code == -ENOENT, "older opts skip nothing: %d", err.code);
	pmurt_counter_close(c);
	c = open_skipping(h, "task-clock", sizeof(struct pmurt_counter_opts), &err);
	size_t old = offsetof(struct pmurt_count, skipped);
	unsigned char raw[2 * sizeof(struct pmurt_count)];
	memset(raw, 0xa5, sizeof(raw));
	CHECK(c && pmurt_counter_read(c, (struct pmurt_count *)(void *)raw, 1, old, &err) == 1 &&
	      raw[old] == 0xa5, "a count of %zu bytes written past its end", old);
	pmurt_counter_close(c);
}

/* --- errno explanations ---------------------------------------------------------- */

static void expect_open_error(struct pmurt_host *h, struct pmu_sim *sim, const char *ev,
			      bool per_cpu, int inject, int code, const char *text)
{
	struct pmurt_error err;
	int cpu = 0;
	if (inject)
		pmu_sim_inject(sim, PMU_SIM_ANY_TYPE, inject);
	struct pmurt_counter *c = open_counter(h, ev, per_cpu ? &cpu : NULL, per_cpu, &err);
	CHECK(!c && err.code == code, "'%s': code %d (want %d): %s", ev, err.code, code, err.message);
	CHECK(strstr(err.message, text), "'%s': '%s' lacks '%s'", ev, err.message, text);
	pmurt_counter_close(c);
	pmu_sim_inject(sim, 0, 0);
}

static int paranoid_level(void)
{
	char text[16];
	return pmu_read_small("/proc/sys/kernel/perf_event_paranoid", text, sizeof(text)) == 0
		       ? atoi(text) : -9;
}

static void test_explain(struct pmurt_host *h, struct pmu_sim *sim)
{
	expect_open_error(h, sim, "PM_CYC", false, -ENOENT, -ENOENT,
			  "has no POWER10 PMU: no PMU takes perf type 4");
	expect_open_error(h, sim, "PM_CYC", false, -ENOENT, -ENOENT, "pmutool stat --dry-run");
	/* never per task, refused before the system call (a per-task open with
	 * cpu -1 crashes kernels up to 7.2), whatever sysfs says: the fake tree
	 * gives vpa_dtl no cpumask, as the real one has none */
	int opens_before = pmu_sim_opens(sim);
	expect_open_error(h, sim, "vpa_dtl/dtl_all/", false, 0, -EINVAL,
			  "vpa_dtl is per CPU only (perf_invalid_context): it cannot follow a task");
	expect_open_error(h, sim, "task-clock,vpa_dtl/dtl_cede/", false, 0, -EINVAL,
			  "record CPUs (-a or -C CPUS)");
	CHECK(pmu_sim_opens(sim) == opens_before, "vpa_dtl per task: %d system calls made",
	      pmu_sim_opens(sim) - opens_before);
	/* vpa_dtl_event_init's refusals (arch/powerpc/perf/vpa-dtl.c) */
	expect_open_error(h, sim, "vpa_dtl/dtl_all/", true, -EBUSY, -EBUSY,
			  "another user holds the Dispatch Trace Log of this CPU");
	expect_open_error(h, sim, "vpa_dtl/event=0x3/", true, -EINVAL, -EINVAL,
			  "config 0x3: vpa_dtl takes dtl_cede (0x1), dtl_preempt (0x2), dtl_fault "
			  "(0x4) or dtl_all (0x7)");
	expect_open_error(h, sim, "vpa_dtl/dtl_all/", true, -EACCES, -EACCES,
			  "vpa_dtl needs CAP_PERFMON or CAP_SYS_ADMIN whatever "
			  "kernel.perf_event_paranoid says");
	expect_open_error(h, sim, "vpa_dtl/dtl_all/", true, -ENOENT, -ENOENT,
			  "not on a dedicated-processor LPAR, in a KVM guest or off POWER");
	expect_open_error(h, sim, "{PM_CYC,energy}", false, 0, -EINVAL,
			  "a group cannot span PMUs: 'energy' (splitpmu) and 'PM_CYC' (cpu)");
	expect_open_error(h, sim, "splitpmu/energy,period=1000/", false, 0, -EOPNOTSUPP,
			  "PMU 'splitpmu' cannot sample");
	expect_open_error(h, sim, "vpa_dtl/dtl_all/", true, 0, -EOPNOTSUPP, "only sample");
	expect_open_error(h, sim, "PM_CYC", false, -EBUSY, -EBUSY, "the counters or PMU 'cpu' are "
			  "taken");
	expect_open_error(h, sim, "energy:u", false, 0, -EINVAL,
			  "PMU 'splitpmu' refuses the exclude bits");
	expect_open_error(h, sim, "task-clock", false, -EACCES, -EACCES,
			  "refused although this process has CAP_PERFMON");
}

/* As an unprivileged user: the real paranoid level, or the PMU's own
 * CAP_PERFMON requirement when the level allows the open. */
static void test_explain_unprivileged(struct pmurt_host *h, struct pmu_sim *sim)
{
	char want[96];
	int level = paranoid_level();
	snprintf(want, sizeof(want), "kernel.perf_event_paranoid is %d", level);
	if (level >= 2)
		expect_open_error(h, sim, "task-clock", false, -EACCES, -EACCES, want);
	if (level >= 1)
		expect_open_error(h, sim, "task-clock:u", true, -EACCES, -EACCES, want);
	if (level <= 2)
		expect_open_error(h, sim, "vpa_dtl/dtl_all,period=1000/", true, -EACCES, -EACCES,
				  level >= 1 ? want : "lacks CAP_PERFMON");
	if (level == 2)
		expect_open_error(h, sim, "task-clock:u", false, -EACCES, -EACCES,
				  "this process lacks CAP_PERFMON (and CAP_SYS_ADMIN), which PMU "
				  "'software' requires");
}

/* The simulated kernel's ring, as the record side reads it: 1+2^n pages,
 * records at data_head (wrapping), refused (and counted lost) when the
 * reader has not made room. */
static void test_sim_ring(struct pmu_sim *sim)
{
	const struct pmu_sys *sys = pmu_sim_sys(sim);
	struct perf_event_attr a = {.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				    .sample_period = 1000};
	int fd = sys->event_open(sys->ctx, &a, 0, -1, -1, 0), e;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	CHECK(!sys->mmap(sys->ctx, fd, 4 * page, 0, &e) && e == -EINVAL, "1+3 pages refused");
	struct perf_event_mmap_page *pc = sys->mmap(sys->ctx, fd, 3 * page, 0, &e);
	CHECK(pc && pc->data_offset == page && pc->data_size == 2 * page, "1+2 pages");
	if (!pc)
		return;
	struct {
		struct perf_event_header h;
		uint64_t v[7];
	} rec = {.h = {.type = PERF_RECORD_SAMPLE, .size = 64}};
	int written = 0;
	while (pmu_sim_ring_write(sim, fd, &rec, sizeof(rec)) == 0)
		written++;
	CHECK(written == (int)(2 * page / 64) && pmu_sim_ring_lost(sim, fd) == 1 &&
	      pc->data_head == 2 * page, "full after %d records", written);
	/* the next record is preceded by PERF_RECORD_LOST {id, lost} (no
	 * trailer: not sample_id_all), as perf_output_begin writes it */
	__atomic_store_n(&pc->data_tail, 64, __ATOMIC_RELEASE);
	rec.v[0] = 42;
	CHECK(pmu_sim_ring_write(sim, fd, &rec, sizeof(rec)) == -ENOSPC &&
	      pmu_sim_ring_lost(sim, fd) == 2, "no room for LOST and the record");
	__atomic_store_n(&pc->data_tail, 128, __ATOMIC_RELEASE);
	CHECK(pmu_sim_ring_write(sim, fd, &rec, sizeof(rec)) == 0 && pc->data_head == 2 * page + 88,
	      "room made by the reader");
	const unsigned char *data = (const unsigned char *)pc + page;
	const struct perf_event_header *lost = (const void *)data;
	CHECK(lost->type == PERF_RECORD_LOST && lost->size == 24 &&
	      ((const uint64_t *)data)[2] == 2, "LOST first, counting 2");
	CHECK(((const struct perf_event_header *)(data + 24))->size == 64 &&
	      ((const uint64_t *)(data + 24))[1] == 42, "wrapped to the start");
	CHECK(sys->munmap(sys->ctx, pc, 3 * page) == 0 && sys->close(sys->ctx, fd) == 0, "unmap");
}

/* The API's conventions (pmurt.h): err cleared on entry, NULL handles on
 * failure, NULL closes, opts sized. */
static void test_api(struct pmurt_host *h)
{
	struct pmurt_error err = {.code = -EIO, .message = "stale"};
	struct pmurt_counter *c = (struct pmurt_counter *)&err;
	struct pmurt_host *h2 = (struct pmurt_host *)&err;
	CHECK(pmurt_counter_open(&c, h, "task-clock,nope/x/", NULL, &err) == -ENOENT && !c,
	      "failed open: *c NULL");
	struct pmurt_counter_opts small = {.sz = 8};
	CHECK(pmurt_counter_open(&c, h, "task-clock", &small, &err) == -EINVAL && !c, "opts->sz");
	CONTAINS(err.message, "opts->sz is 8");
	struct pmurt_host_opts bad = PMURT_OPTS_INIT(pmurt_host_opts, .pmu = "/nonexistent.dtb");
	CHECK(pmurt_host_open(&h2, &bad, &err) < 0 && !h2 && err.message[0], "bad description");
	c = open_counter(h, "task-clock", NULL, 0, &err);
	err = (struct pmurt_error){.code = -EIO, .message = "stale"};
	CHECK(c && pmurt_counter_enable(c, &err) == 0 && err.code == 0 && !err.message[0],
	      "err cleared on entry");
	err = (struct pmurt_error){.code = -EIO, .message = "stale"};
	struct pmurt_count v[1];
	CHECK(pmurt_counter_read(c, v, 1, sizeof(v[0]), &err) == 1 && err.code == 0, "read");
	CHECK(pmurt_counter_read(c, v, 1, 8, &err) == -EINVAL, "count_sz too small");
	CHECK(pmurt_counter_enable(NULL, &err) == -EINVAL && pmurt_counter_nevents(NULL) == -EINVAL,
	      "NULL counter");
	pmurt_counter_close(c);
	pmurt_counter_close(NULL);
	pmurt_host_close(NULL);
	CHECK(pmurt_host_pmu(h) && !pmurt_host_pmu(NULL), "host_pmu");
}

/* The pick gives the built-in description of platform want, picked by what
 * picked_by says (the words --show-pick begins with; NULL: not checked). */
static void expect_pick(const struct pmu_pick_inputs *in, const char *want,
			const char *picked_by, const char *what)
{
	struct pmurt_pmu *pmu;
	struct pmurt_error err;
	char looked[320];
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	CHECK(pmu_host_pick(in, &pmu, looked, sizeof(looked), &err) == 0 && pmu &&
	      pmurt_pmu_info(pmu, &info) == 0 && strcmp(info.platform, want) == 0,
	      "%s by %s: %s", want, what, pmu ? info.platform : err.message);
	CHECK(!picked_by || strncmp(looked, picked_by, strlen(picked_by)) == 0,
	      "%s: picked by %s, want %s", what, looked, picked_by);
	pmurt_pmu_close(pmu);
}

/* A POWER9 host gets power9: its device tree (a tree pmugen made from
 * pmus/power9.yaml), AT_PLATFORM, the cpu PMU's pmu_name ("POWER9", as
 * power9-pmu.c names it) and the PVR (0x004e1202, DD2.2). */
static void expect_power9(const struct pmu_pick_inputs *in, const char *what)
{
	expect_pick(in, "power9", NULL, what);
}

/* The host's PVR chooses the picked description's refused-code list:
 * 0x2c056 (PM_DTLB_MISS_4K) is refused on POWER9 DD2.2 only
 * (power9-pmu.c p9_dd22_bl_ev). */
static void expect_refusal_by_pvr(const char *work, const char *pvr, bool refused)
{
	char cpuinfo[512], text[160];
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/p9cpuinfo-%s", work, pvr);
	snprintf(text, sizeof(text), "processor\t: 0\ncpu\t\t: POWER9 (architected)\n"
		 "revision\t: 2.x (pvr %s)\n", pvr);
	CHECK(dtdir_put(work, cpuinfo + strlen(work) + 1, text, strlen(text)) == 0, "cpuinfo");
	struct pmurt_pmu *pmu;
	struct pmurt_error err;
	char looked[320];
	struct pmurt_event_spec ev = {.sz = sizeof(ev)};
	struct pmurt_group_result res = {.sz = sizeof(res)};
	CHECK(pmu_host_pick(&(struct pmu_pick_inputs){.cpuinfo = cpuinfo, .at_platform = "x86_64",
						      .devtree = work, .sysfs = work},
			    &pmu, looked, sizeof(looked), &err) == 0 && pmu, "pick by pvr %s", pvr);
	if (!pmu)
		return;
	CHECK(pmurt_parse_event(pmu, "0x2c056", &ev, &err) == 0, "parse: %s", err.message);
	pmurt_group_check(pmu, &ev, 1, sizeof(ev), NULL, &res, &err);
	CHECK(res.ok == !refused && (!refused || strcmp(res.reason, "blacklisted_event") == 0),
	      "pvr %s: 0x2c056 %s, want %s", pvr, res.ok ? "accepted" : res.reason,
	      refused ? "refused" : "accepted");
	pmurt_pmu_close(pmu);
}

/* A sysfs root whose cpu PMU has caps/pmu_name name. */
static void put_pmu_name(const char *sys, const char *name)
{
	static const char *const dirs[] = {"", "/bus", "/bus/event_source",
					   "/bus/event_source/devices",
					   "/bus/event_source/devices/cpu",
					   "/bus/event_source/devices/cpu/caps"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char d[600];
		snprintf(d, sizeof(d), "%s%s", sys, dirs[i]);
		CHECK(mkdir(d, 0755) == 0 || errno == EEXIST, "mkdir %s", d);
	}
	CHECK(dtdir_put(sys, "bus/event_source/devices/cpu/caps/pmu_name", name,
			strlen(name)) == 0, "pmu_name");
}

static void test_pick_power9(const char *work, const char *dtb_path)
{
	char dt[512], bare[512], sys[512], cpuinfo[512];
	snprintf(dt, sizeof(dt), "%s/p9dt", work);
	snprintf(bare, sizeof(bare), "%s/p9none", work);
	snprintf(sys, sizeof(sys), "%s/p9sys", work);
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/p9cpuinfo", work);
	write_tree(dtb_path, dt);
	expect_power9(&(struct pmu_pick_inputs){.devtree = dt, .at_platform = "x86_64"}, "tree");
	expect_power9(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = bare,
						.at_platform = "POWER9"}, "AT_PLATFORM");
	put_pmu_name(sys, "POWER9\n");
	expect_power9(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = sys,
						.at_platform = "x86_64"}, "pmu_name");
	static const char p9_cpuinfo[] = "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec "
					 "supported\nrevision\t: 2.2 (pvr 004e 1202)\n";
	CHECK(dtdir_put(work, "p9cpuinfo", p9_cpuinfo, strlen(p9_cpuinfo)) == 0, "cpuinfo");
	expect_power9(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = bare,
						.cpuinfo = cpuinfo, .at_platform = "x86_64"},
		      "PVR");
	expect_refusal_by_pvr(work, "004e 1202", true);  /* DD2.2 */
	expect_refusal_by_pvr(work, "004e 1203", false); /* DD2.3 */
	expect_refusal_by_pvr(work, "004e 1201", false); /* DD2.1 */
}

/* A POWER8 host gets power8 by AT_PLATFORM, by the cpu PMU's pmu_name
 * ("POWER8", power8-pmu.c's name) and by each PVR init_power8_pmu takes:
 * PVR_POWER8E 0x004b, PVR_POWER8NVL 0x004c, PVR_POWER8 0x004d. */
static void test_pick_power8(const char *work)
{
	char bare[512], sys[512], cpuinfo[512];
	snprintf(bare, sizeof(bare), "%s/p8none", work);
	snprintf(sys, sizeof(sys), "%s/p8sys", work);
	expect_pick(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = bare, .at_platform = "power8"},
		    "power8", "AT_PLATFORM 'power8'", "AT_PLATFORM");
	put_pmu_name(sys, "POWER8\n");
	expect_pick(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = sys, .at_platform = "x86_64"},
		    "power8", "the cpu PMU's pmu_name 'POWER8'", "pmu_name");
	static const char *const pvrs[] = {"004b 0201", "004c 0100", "004d 0200"};
	for (size_t i = 0; i < sizeof(pvrs) / sizeof(pvrs[0]); i++) {
		char text[160], name[64], by[64];
		snprintf(name, sizeof(name), "p8cpuinfo-%zu", i);
		snprintf(by, sizeof(by), "the PVR '%s'", pvrs[i]);
		snprintf(cpuinfo, sizeof(cpuinfo), "%s/%s", work, name);
		snprintf(text, sizeof(text), "processor\t: 0\ncpu\t\t: POWER8 (raw), altivec "
			 "supported\nrevision\t: 2.0 (pvr %s)\n", pvrs[i]);
		CHECK(dtdir_put(work, name, text, strlen(text)) == 0, "cpuinfo");
		expect_pick(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = bare,
						      .cpuinfo = cpuinfo, .at_platform = "x86_64"},
			    "power8", by, pvrs[i]);
	}
}

/* A Power11 LPAR as Linux runs it (QEMU's pseries with the PVR set, as in
 * tests/qemu): the kernel registers the Power11 PMU by the real PVR
 * (init_power11_pmu), AT_PLATFORM is "power10" (the partition runs in
 * POWER10 compatibility mode), /proc/cpuinfo shows "(pvr 0082 0200)".
 * pmu_name, what counts, comes first; the PVR alone finds power11 through
 * its pvr-versions; Linux 6.1, which has no Power11 driver, registers the
 * generic "ISAv3" PMU, and the PVR picks power11 there. */
static void test_pick_power11(const char *work)
{
	char bare[512], sys[512], isa[512], cpuinfo[512];
	snprintf(bare, sizeof(bare), "%s/p11none", work);
	snprintf(sys, sizeof(sys), "%s/p11sys", work);
	snprintf(isa, sizeof(isa), "%s/p11isav3", work);
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/p11cpuinfo", work);
	put_pmu_name(sys, "Power11\n");
	put_pmu_name(isa, "ISAv3\n");
	static const char p11_cpuinfo[] = "processor\t: 0\ncpu\t\t: POWER10 (architected), "
					  "altivec supported\nrevision\t: 2.0 (pvr 0082 0200)\n";
	CHECK(dtdir_put(work, "p11cpuinfo", p11_cpuinfo, strlen(p11_cpuinfo)) == 0, "cpuinfo");
	expect_pick(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = sys, .cpuinfo = cpuinfo,
					      .at_platform = "power10"},
		    "power11", "the cpu PMU's pmu_name 'Power11'", "Power11 LPAR in POWER10 mode");
	expect_pick(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = bare, .cpuinfo = cpuinfo,
					      .at_platform = "power10"},
		    "power11", "the PVR '0082 0200'", "the PVR alone");
	expect_pick(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = isa, .cpuinfo = cpuinfo,
					      .at_platform = "power10"},
		    "power11", "the PVR '0082 0200'", "Linux 6.1's generic PMU");
	expect_pick(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = bare,
					      .at_platform = "power11"},
		    "power11", "AT_PLATFORM 'power11'", "AT_PLATFORM in Power11 mode");
	/* and POWER10's PVR still picks power10 */
	static const char p10_cpuinfo[] = "revision\t: 2.0 (pvr 0080 0200)\n";
	CHECK(dtdir_put(work, "p11cpuinfo", p10_cpuinfo, strlen(p10_cpuinfo)) == 0, "cpuinfo");
	expect_pick(&(struct pmu_pick_inputs){.devtree = bare, .sysfs = isa, .cpuinfo = cpuinfo,
					      .at_platform = "power11"},
		    "power10", "the PVR '0080 0200'", "POWER10's PVR");
}

/* A host whose core PMU is not the description's (an x86 host with its own
 * cpu PMU, asked for POWER10 raw codes): refused before any system call,
 * with the reason; perf's generic and software events still open. */
static void test_foreign_core(const char *work)
{
	char dir[512], caps[600], path[700];
	struct pmurt_error err;
	struct utsname u;

	snprintf(dir, sizeof(dir), "%s/foreign-sys", work);
	snprintf(caps, sizeof(caps), "%s/bus/event_source/devices/cpu/caps", dir);
	snprintf(path, sizeof(path), "mkdir -p '%s'", caps);
	CHECK(system(path) == 0, "%s", path);
	snprintf(path, sizeof(path), "%s/pmu_name", caps);
	FILE *f = fopen(path, "w");
	CHECK(f && fputs("skylake\n", f) >= 0 && fclose(f) == 0, "%s", path);

	const char *saved = sysfs_root;
	struct pmu_sim *sim;
	sysfs_root = dir;
	struct pmurt_host *h = open_host("power10", &sim);
	sysfs_root = saved;
	struct pmurt_counter *c = open_counter(h, "task-clock,PM_CYC", NULL, 0, &err);
	CHECK(!c && err.code == -ENOENT && pmu_sim_opens(sim) == 0,
	      "POWER10 code on a skylake host: %d opens, %s", pmu_sim_opens(sim), err.message);
	CONTAINS(err.message, "caps/pmu_name is 'skylake'");
	CONTAINS(err.message, "cannot open 'PM_CYC'");
	c = open_counter(h, "task-clock", NULL, 0, &err);
	CHECK(c != NULL, "a software event still opens: %s", err.message);
	pmurt_counter_close(c);

	/* Power11's PMU is POWER10's under another name (power11 extends
	 * power10): power10's codes open there, and power11's on a POWER10;
	 * POWER9's do not */
	f = fopen(path, "w");
	CHECK(f && fputs("Power11\n", f) >= 0 && fclose(f) == 0, "%s", path);
	c = open_counter(h, "PM_CYC", NULL, 0, &err);
	CHECK(c != NULL, "power10's PM_CYC on a Power11 host: %s", err.message);
	pmurt_counter_close(c);
	const char *other[][3] = {{"power11", "POWER10", ""}, {"power9", "Power11", "refused"}};
	for (int i = 0; i < 2; i++) {
		struct pmu_sim *sim2;
		f = fopen(path, "w");
		CHECK(f && fprintf(f, "%s\n", other[i][1]) > 0 && fclose(f) == 0, "%s", path);
		sysfs_root = dir;
		struct pmurt_host *h2 = open_host(other[i][0], &sim2);
		sysfs_root = saved;
		c = open_counter(h2, "PM_RUN_INST_CMPL", NULL, 0, &err);
		CHECK((c == NULL) == (other[i][2][0] != 0), "%s's PM_RUN_INST_CMPL on a %s host: %s",
		      other[i][0], other[i][1], c ? "opened" : err.message);
		pmurt_counter_close(c);
		pmurt_host_close(h2);
		pmu_sim_free(sim2);
	}

	/* no pmu_name: foreign unless the machine is a POWER */
	CHECK(unlink(path) == 0, "unlink %s", path);
	c = open_counter(h, "PM_CYC", NULL, 0, &err);
	if (uname(&u) == 0 && strncmp(u.machine, "ppc", 3) != 0) {
		CHECK(!c && err.code == -ENOENT, "cpu PMU without pmu_name on %s: %s", u.machine,
		      err.message);
		CONTAINS(err.message, "cpu PMU of an");
	}
	pmurt_counter_close(c);
	pmurt_host_close(h);
	pmu_sim_free(sim);
}

int main(int argc, char **argv)
{
	bool unprivileged = argc == 3 && strcmp(argv[1], "--unprivileged") == 0;
	if (argc != 5 && !unprivileged) {
		fprintf(stderr, "usage: perf_test SYSFS WORKDIR POWER10.dtb POWER9.dtb | "
			"--unprivileged SYSFS\n");
		return 2;
	}
	sysfs_root = argv[unprivileged ? 2 : 1];
	struct pmu_sim *sim;
	struct pmurt_host *h = open_host("power10", &sim);
	if (unprivileged) {
		test_explain_unprivileged(h, sim);
	} else {
		test_sysfs();
		test_parse_kinds(h);
		test_parse_no_core();
		test_parse_errors(h);
		test_parse_cpu_alias(h);
		test_pick(argv[2], argv[3]);
		test_pick_power9(argv[2], argv[4]);
		test_pick_power8(argv[2]);
		test_pick_power11(argv[2]);
		test_count(h, sim);
		test_skip_unsupported(h, sim);
		test_explain(h, sim);
		test_foreign_core(argv[2]);
		test_api(h);
		test_sim_ring(sim);
	}
	pmurt_host_close(h);
	pmu_sim_free(sim);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
