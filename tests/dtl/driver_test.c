/*
 * driver_test.c - the simulated vpa_dtl driver (tests/support/sim_dtl.c) and kernel
 * (tests/support/sys_sim.c) are the real ones' behaviour, point by point
 * (arch/powerpc/perf/vpa-dtl.c, kernel/events/core.c, ring_buffer.c), and
 * libpmurt's answers to them:
 *   1. at a wrap the driver loses a poll's entries and says nothing: with a
 *      4 KiB area and one entry a poll, the stale tail goes out as 48 then
 *      16 bytes and those two polls' entries are never reported; the drain
 *      counts both polls and bounds their entries (exactly 1, then 1-84);
 *   2. exactly 85 new entries between two polls: 84 kept
 *      (last_idx + 85 <= cur_idx);
 *   3. the AUX wake-up at rounddown(aux_head, watermark): with an 8 KiB
 *      area, woken at 4128 bytes, not again at 8160, again at the lap's end
 *      8192 (a wake-up mark at the end, 4128, would wait for 8224);
 *   4. the stale tail is bytes the driver never wrote: zeros;
 *   and the refusals in the driver's and the core's order, each explained
 *   (EACCES before a counting event's EOPNOTSUPP, a bad config's EINVAL
 *   before an exclude bit's, EBUSY for another DTL user and for a second
 *   event on a CPU, EINVAL for a task on a CPU), and the three crashes: the
 *   simulated kernel aborts, as Linux 7.2 dies, on a per-task open with cpu
 *   -1, on an enable after a disable and on an AUX area unmapped while its
 *   event is enabled (seen under QEMU: tests/qemu/guest/dtl_cycle.c).
 *
 * usage: dtl_driver_test SYSFS
 *        dtl_driver_test outputs AUX_SIZE < POLLS
 * The second form is for tests/dtl/check_driver_model.py: one vpa_dtl
 * event on CPU 0 with an AUX area of AUX_SIZE bytes, a reader that keeps
 * up, and for each line of POLLS (a number of new dispatches) one hrtimer
 * expiry; it prints each output ("OFFSET SIZE") after "poll N", then the
 * driver's counts.  That script compares them with a model of the driver
 * written separately from its source.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "perf_int.h"
#include "record.h"
#include "sim_dtl.h"
#include "sys_sim.h"

#define DTL_TYPE 14

static int failures;

static const struct pmu_sim_pmu dtl_pmu = {.type = DTL_TYPE, .name = "vpa_dtl", .vpa_dtl = true};

struct outputs {
	uint64_t off[128], size[128];
	int n;
};

static void on_output(void *arg, int cpu, uint64_t off, uint64_t size)
{
	struct outputs *o = arg;
	(void)cpu;
	if (o->n < 128) {
		o->off[o->n] = off;
		o->size[o->n] = size;
	}
	o->n++;
}

static int ignore(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	(void)arg, (void)rec, (void)err;
	return 0;
}

struct rig {
	struct pmu_sim *sim;
	struct pmu_sim_dtl *drv;
	struct pmu_evlist list;
	struct pmu_session *s;
	struct outputs out;
};

static void rig_open(struct rig *r, struct pmurt_host *host, unsigned aux_pages)
{
	struct pmurt_error err = {0};
	*r = (struct rig){0};
	struct pmu_sim_dtl_opts o = {.seed = 3, .on_output = on_output, .arg = &r->out};
	CHECK(pmu_sim_new(&r->sim, &dtl_pmu, 1) == 0 &&
	      pmu_sim_dtl_new(&r->drv, r->sim, DTL_TYPE, &o) == 0, "setup");
	host->h.sys = pmu_sim_sys(r->sim);
	CHECK(pmu_evlist_parse(&r->list, &host->h, "vpa_dtl/dtl_all/", &err) == 0, "%s",
	      err.message);
	r->list.v[0].attr.sample_period = 1000000;
	static const int cpu0[] = {0};
	struct pmu_record_opts ro = {.pid = -1, .cpus = cpu0, .ncpus = 1, .aux_pages = aux_pages,
				     .data_pages = 4, .no_side_band = true};
	CHECK(pmu_session_open(&r->s, &host->h, &r->list, &ro, &err) == 0 &&
	      pmu_session_enable(r->s, &err) == 0, "%s", err.message);
}

static void rig_close(struct rig *r)
{
	pmu_session_close(r->s);
	pmu_evlist_free(&r->list);
	pmu_sim_dtl_free(r->drv);
	pmu_sim_free(r->sim);
}

/* Points 1 and 4: a 4 KiB area (84 slots, a 64-byte stale tail), one
 * entry a poll, the reader draining after each. */
static void test_wrap_loss(struct pmurt_host *host)
{
	struct rig r;
	struct pmurt_error err = {0};
	rig_open(&r, host, 1);
	for (int i = 0; i < 86; i++) {
		pmu_sim_dtl_tick(r.drv, 1);
		CHECK(pmu_session_drain(r.s, ignore, NULL, &err) == 0, "%s", err.message);
	}
	const struct pmu_sim_dtl_stats *ds = pmu_sim_dtl_stats(r.drv);
	/* the header and 83 entries fill the lap (the 83rd poll reaches the
	 * threshold), then 4032+48 and 4080+16 report stale bytes for the next
	 * two polls, whose entries went to slots 0 and 1; the 86th is slot 0 */
	CHECK(r.out.n == 86 && r.out.off[82] == 3984 && r.out.size[82] == 48 &&
	      r.out.off[83] == 4032 && r.out.size[83] == 48 && r.out.off[84] == 4080 &&
	      r.out.size[84] == 16 && r.out.off[85] == 4096 && r.out.size[85] == 48,
	      "outputs: %d, ..., %llu+%llu, %llu+%llu, %llu+%llu", r.out.n,
	      (unsigned long long)r.out.off[83], (unsigned long long)r.out.size[83],
	      (unsigned long long)r.out.off[84], (unsigned long long)r.out.size[84],
	      (unsigned long long)r.out.off[85], (unsigned long long)r.out.size[85]);
	CHECK(ds->written == 86 && ds->reported == 84 && ds->wrap_lost == 2 &&
	      ds->tail_outputs == 2, "driver: %llu written, %llu reported, %llu lost",
	      (unsigned long long)ds->written, (unsigned long long)ds->reported,
	      (unsigned long long)ds->wrap_lost);
	const struct pmu_aux_stats *a = &pmu_session_stats(r.s)->aux;
	CHECK(a->wrap_polls == 2 && a->wrap_lost_min == 2 && a->wrap_lost_max == 1 + 84 &&
	      a->lost_entries == 0 && a->chunks == 84 && a->stale_bytes == 64,
	      "drain: %llu polls, %llu-%llu lost, %llu chunks, %llu stale",
	      (unsigned long long)a->wrap_polls, (unsigned long long)a->wrap_lost_min,
	      (unsigned long long)a->wrap_lost_max, (unsigned long long)a->chunks,
	      (unsigned long long)a->stale_bytes);
	/* point 4: what was reported as the tail, the driver never wrote */
	struct perf_event_mmap_page *pc = NULL;
	unsigned char *aux = NULL;
	uint64_t size = 0;
	int fds[2];
	CHECK(pmu_sim_fds_of(r.sim, DTL_TYPE, fds, 2) == 1 &&
	      pmu_sim_aux(r.sim, fds[0], &pc, &aux, &size) == 0, "the area");
	static const unsigned char zeros[64];
	CHECK(aux && size == 4096 && memcmp(aux + 4032, zeros, 64) == 0,
	      "the stale tail is zeros");
	rig_close(&r);
}

/* Point 2: 85 new entries between polls, 84 kept; 86: 84 kept. */
static void test_85(struct pmurt_host *host)
{
	struct rig r;
	rig_open(&r, host, 2);
	pmu_sim_dtl_tick(r.drv, 85);
	const struct pmu_sim_dtl_stats *ds = pmu_sim_dtl_stats(r.drv);
	CHECK(ds->hv_dropped == 1 && ds->written == 84, "85: %llu dropped, %llu written",
	      (unsigned long long)ds->hv_dropped, (unsigned long long)ds->written);
	pmu_sim_dtl_tick(r.drv, 84);
	CHECK(ds->hv_dropped == 1 && ds->written == 168, "84: all kept");
	pmu_sim_dtl_tick(r.drv, 83);
	struct pmurt_error err = {0};
	CHECK(pmu_session_drain(r.s, ignore, NULL, &err) == 0 &&
	      pmu_session_stats(r.s)->aux.full_polls == 2, "the drain: 2 polls at the limit, "
	      "%llu said", (unsigned long long)pmu_session_stats(r.s)->aux.full_polls);
	rig_close(&r);
}

/* Point 3: rb_need_aux_wakeup's rounddown. */
static void test_wakeup(struct pmurt_host *host)
{
	struct rig r;
	struct pmurt_error err = {0};
	rig_open(&r, host, 2);
	const struct pmurt_sys *sys = pmu_sim_sys(r.sim);
	int fds[2];
	pmu_sim_fds_of(r.sim, DTL_TYPE, fds, 2);
	struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
	static const struct {
		unsigned n;
		uint64_t head;
		int woken;
	} steps[] = {{80, 3888, 0}, {5, 4128, 1}, {84, 8160, 0}, {1, 8192, 1}};
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		pmu_sim_dtl_tick(r.drv, steps[i].n);
		CHECK(pmu_session_drain(r.s, ignore, NULL, &err) == 0, "%s", err.message);
		struct perf_event_mmap_page *pc = NULL;
		unsigned char *aux;
		uint64_t size;
		int ready = sys->poll(sys->ctx, &pfd, 1, 0);
		CHECK(pmu_sim_aux(r.sim, fds[0], &pc, &aux, &size) == 0 &&
		      pc->aux_head == steps[i].head && ready == steps[i].woken,
		      "step %zu: aux_head %llu, woken %d", i,
		      (unsigned long long)(pc ? pc->aux_head : 0), ready);
	}
	rig_close(&r);
}

/* The refusals, in the driver's and the core's order, explained. */
static void expect_refusal(struct pmurt_host *host, struct pmu_sim *sim, const char *event,
			   int cpu, int code, const char *text)
{
	struct pmurt_error err = {0};
	struct pmu_evlist list = {0};
	struct pmu_session *s = NULL;
	host->h.sys = pmu_sim_sys(sim);
	CHECK(pmu_evlist_parse(&list, &host->h, event, &err) == 0, "%s", err.message);
	list.v[0].attr.sample_period = 1000000;
	const int cpus[] = {cpu};
	struct pmu_record_opts ro = {.pid = -1, .cpus = cpus, .ncpus = 1, .aux_pages = 1,
				     .data_pages = 1, .no_side_band = true};
	int rc = pmu_session_open(&s, &host->h, &list, &ro, &err);
	CHECK(rc == code && strstr(err.message, text), "%s on CPU %d: %d: %s", event, cpu, rc,
	      err.message);
	pmu_session_close(s);
	pmu_evlist_free(&list);
}

static void test_refusals(struct pmurt_host *host)
{
	struct pmu_sim *sim = NULL;
	struct pmurt_error err = {0};
	CHECK(pmu_sim_new(&sim, &dtl_pmu, 1) == 0, "sim");
	/* event_init: the capability first, then a counting event */
	host->h.sys = pmu_sim_sys(sim);
	pmu_sim_set_perfmon(sim, false);
	const int cpu0[] = {0};
	struct pmurt_counter *c = NULL;
	struct pmurt_counter_opts co = PMURT_OPTS_INIT(pmurt_counter_opts, .cpus = cpu0, .ncpus = 1);
	CHECK(pmurt_counter_open(&c, host, "vpa_dtl/dtl_all/", &co, &err) == -EACCES &&
	      strstr(err.message, "vpa_dtl needs CAP_PERFMON"), "counting, no CAP_PERFMON: %s",
	      err.message);
	expect_refusal(host, sim, "vpa_dtl/dtl_all/", 0, -EACCES, "vpa_dtl needs CAP_PERFMON");
	pmu_sim_set_perfmon(sim, true);
	CHECK(pmurt_counter_open(&c, host, "vpa_dtl/dtl_all/", &co, &err) == -EOPNOTSUPP &&
	      strstr(err.message, "vpa_dtl only samples"), "counting: %s", err.message);
	/* a bad config (event_init) before an exclude bit (the core) */
	expect_refusal(host, sim, "vpa_dtl/event=0x3/u", 0, -EINVAL, "config 0x3: vpa_dtl takes");
	expect_refusal(host, sim, "vpa_dtl/dtl_all/u", 0, -EINVAL, "refuses every exclude bit");
	/* another DTL user (dtl_access_lock) */
	pmu_sim_set_dtl_user(sim, true);
	expect_refusal(host, sim, "vpa_dtl/dtl_all/", 0, -EBUSY,
		       "another user holds the Dispatch Trace Log");
	pmu_sim_set_dtl_user(sim, false);
	/* a second event on a CPU (PERF_PMU_CAP_EXCLUSIVE); another CPU is fine */
	struct pmu_evlist list = {0};
	struct pmu_session *first = NULL;
	CHECK(pmu_evlist_parse(&list, &host->h, "vpa_dtl/dtl_all/", &err) == 0, "%s", err.message);
	list.v[0].attr.sample_period = 1000000;
	const int cpu2[] = {2};
	struct pmu_record_opts ro = {.pid = -1, .cpus = cpu2, .ncpus = 1, .aux_pages = 1,
				     .data_pages = 1, .no_side_band = true};
	CHECK(pmu_session_open(&first, &host->h, &list, &ro, &err) == 0, "%s", err.message);
	expect_refusal(host, sim, "vpa_dtl/dtl_all/", 2, -EBUSY, "one event per CPU");
	expect_refusal(host, sim, "vpa_dtl/dtl_all/", 3, 0, "");
	pmu_session_close(first);
	pmu_evlist_free(&list);
	/* a task on a given CPU: the core's EINVAL after event_init, harmless */
	struct perf_event_attr a = {.size = sizeof a, .type = DTL_TYPE, .config = 7,
				    .sample_period = 1000000, .disabled = 1};
	const struct pmurt_sys *sys = pmu_sim_sys(sim);
	CHECK(sys->event_open(sys->ctx, &a, getpid(), 0, -1, 0) == -EINVAL, "task on CPU 0");
	/* the counting API, given a sampling vpa_dtl (a period term), enables it
	 * once: after a disable it refuses (the simulated kernel would abort) */
	c = NULL;
	CHECK(pmurt_counter_open(&c, host, "vpa_dtl/dtl_all,period=1000000/", &co, &err) == 0 &&
	      pmurt_counter_enable(c, &err) == 0 && pmurt_counter_disable(c, &err) == 0,
	      "%s", err.message);
	CHECK(c && pmurt_counter_enable(c, &err) == -EOPNOTSUPP &&
	      strstr(err.message, "vpa_dtl is never enabled again"), "%s", err.message);
	pmurt_counter_close(c);
	pmu_sim_free(sim);
}

/* The simulated kernel dies where Linux 7.2 dies: a child process tries. */
static int crashes(int (*fn)(const struct pmurt_sys *sys))
{
	pid_t pid = fork();
	if (pid == 0) {
		struct pmu_sim *sim = NULL;
		if (!freopen("/dev/null", "w", stderr) || pmu_sim_new(&sim, &dtl_pmu, 1) < 0)
			_exit(3);
		_exit(fn(pmu_sim_sys(sim)));
	}
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static int per_task_open(const struct pmurt_sys *sys)
{
	struct perf_event_attr a = {.size = sizeof a, .type = DTL_TYPE, .config = 7,
				    .sample_period = 1000000, .disabled = 1};
	sys->event_open(sys->ctx, &a, 0, -1, -1, 0);
	return 0;
}

static int enable_again(const struct pmurt_sys *sys)
{
	struct perf_event_attr a = {.size = sizeof a, .type = DTL_TYPE, .config = 7,
				    .sample_period = 1000000, .disabled = 1};
	int fd = sys->event_open(sys->ctx, &a, -1, 0, -1, 0);
	if (fd < 0)
		return 4;
	sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_ENABLE, 0);
	sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_DISABLE, 0);
	sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_ENABLE, 0);
	return 0;
}

static int enable_disable(const struct pmurt_sys *sys)
{
	struct perf_event_attr a = {.size = sizeof a, .type = DTL_TYPE, .config = 7,
				    .sample_period = 1000000, .disabled = 1};
	int fd = sys->event_open(sys->ctx, &a, -1, 0, -1, 0);
	sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_ENABLE, 0);
	sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_DISABLE, 0);
	return 0;
}

/* The data ring and a 2-page AUX area of a vpa_dtl event on CPU 0, enabled
 * (and disabled again when disable_first), then the AUX area unmapped. */
static int unmap_aux(const struct pmurt_sys *sys, bool disable_first)
{
	struct perf_event_attr a = {.size = sizeof a, .type = DTL_TYPE, .config = 7,
				    .sample_period = 1000000, .disabled = 1};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int fd = sys->event_open(sys->ctx, &a, -1, 0, -1, 0), err = 0;
	struct perf_event_mmap_page *pc = fd < 0 ? NULL : sys->mmap(sys->ctx, fd, 2 * page, 0, &err);
	if (!pc)
		return 4;
	pc->aux_offset = 2 * page;
	pc->aux_size = 2 * page;
	void *aux = sys->mmap(sys->ctx, fd, 2 * page, (off_t)(2 * page), &err);
	if (!aux)
		return 5;
	sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_ENABLE, 0);
	if (disable_first)
		sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_DISABLE, 0);
	sys->munmap(sys->ctx, aux, 2 * page);
	return 0;
}

static int unmap_enabled(const struct pmurt_sys *sys)
{
	return unmap_aux(sys, false);
}

static int unmap_disabled(const struct pmurt_sys *sys)
{
	return unmap_aux(sys, true);
}

static void test_crashes(void)
{
	CHECK(crashes(unmap_enabled), "unmapping the AUX area of an enabled event kills the "
	      "simulated kernel");
	CHECK(!crashes(unmap_disabled), "unmapping it after a disable does not");
	CHECK(crashes(per_task_open), "a per-task open with cpu -1 kills the simulated kernel");
	CHECK(crashes(enable_again), "an enable after a disable kills the simulated kernel");
	CHECK(!crashes(enable_disable), "an enable and a disable do not");
}

/* outputs AUX_SIZE: the driver's outputs for the polls on stdin. */
static int dump_outputs(uint64_t aux_size)
{
	struct pmu_sim *sim = NULL;
	struct pmu_sim_dtl *drv = NULL;
	struct outputs out = {0};
	struct pmu_sim_dtl_opts o = {.seed = 1, .on_output = on_output, .arg = &out};
	if (pmu_sim_new(&sim, &dtl_pmu, 1) < 0 || pmu_sim_dtl_new(&drv, sim, DTL_TYPE, &o) < 0)
		return 1;
	const struct pmurt_sys *sys = pmu_sim_sys(sim);
	struct perf_event_attr a = {.size = sizeof a, .type = DTL_TYPE, .config = 7,
				    .sample_period = 1000000, .disabled = 1};
	int fd = sys->event_open(sys->ctx, &a, -1, 0, -1, 0), e = 0;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pc = sys->mmap(sys->ctx, fd, 17 * page, 0, &e);
	if (!pc)
		return 1;
	pc->aux_offset = 17 * page;
	pc->aux_size = aux_size;
	if (!sys->mmap(sys->ctx, fd, (size_t)aux_size, (off_t)pc->aux_offset, &e) ||
	    sys->ioctl(sys->ctx, fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		return 1;
	unsigned n;
	for (int poll = 0; scanf("%u", &n) == 1; poll++) {
		out.n = 0;
		pmu_sim_dtl_tick(drv, n);
		printf("poll %d\n", poll);
		for (int k = 0; k < out.n && k < 128; k++)
			printf("%llu %llu\n", (unsigned long long)out.off[k],
			       (unsigned long long)out.size[k]);
		pc->aux_tail = pc->aux_head;   /* a reader that keeps up */
		pc->data_tail = pc->data_head;
	}
	const struct pmu_sim_dtl_stats *s = pmu_sim_dtl_stats(drv);
	printf("end %llu %llu %llu %llu %llu %llu\n", (unsigned long long)s->written,
	       (unsigned long long)s->reported, (unsigned long long)s->wrap_lost,
	       (unsigned long long)s->hv_dropped, (unsigned long long)s->batch_dropped,
	       (unsigned long long)s->headers);
	pmu_sim_dtl_free(drv);
	pmu_sim_free(sim);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "outputs") == 0)
		return dump_outputs(strtoull(argv[2], NULL, 0));
	if (argc != 2) {
		fprintf(stderr, "usage: dtl_driver_test SYSFS | outputs AUX_SIZE < POLLS\n");
		return 2;
	}
	if (sysconf(_SC_PAGESIZE) != 4096) {
		fprintf(stderr, "the cases assume 4 KiB pages\n");
		return 1;
	}
	struct pmurt_host *host = NULL;
	struct pmurt_error err = {0};
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = argv[1],
						   .pmu = "power10");
	if (pmurt_host_open(&host, &o, &err) < 0) {
		fprintf(stderr, "setup: %s\n", err.message);
		return 1;
	}
	test_wrap_loss(host);
	test_85(host);
	test_wakeup(host);
	test_refusals(host);
	test_crashes();
	pmurt_host_close(host);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
