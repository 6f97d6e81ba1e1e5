/*
 * live_test.c - a recording session on this machine's kernel (root, as CI
 * runs it): a workload `sh -c 'SPIN N; true'` sampled with cpu-clock, held
 * before its exec until the events are open.  The records must hold samples
 * of the spinning child's pid with user IPs (the cpc provider's arg1), the
 * kernel's COMM of its exec, an MMAP2 of its binary, its FORK from the shell
 * and its EXIT, and no loss; with -g a callchain whose user part starts at
 * the sample's IP.  Then the tracepoint sched:sched_switch on a sleeping
 * workload.  Samples are read at the fixed layout the session asks for.
 *
 * usage: record_live_test SPIN-BINARY
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "check.h"
#include "record.h"
#include "workload.h"

static int failures;

/* Per pid, since the rings of different CPUs are drained in turn, not in
 * time order: a child's samples may come before its FORK. */
struct per_pid {
	pid_t pid;
	int samples, user_ips, chains_ok, binary_map, exit;
};

struct seen {
	pid_t shell, spin;     /* spin: from the FORK whose parent is the shell */
	int samples, exec_comm, fork, other;
	struct per_pid pids[32];
	const char *binary;
	bool callchain;
};

static struct per_pid *of_pid(struct seen *v, pid_t pid)
{
	for (int i = 0; i < 32; i++)
		if (v->pids[i].pid == pid || v->pids[i].pid == 0) {
			v->pids[i].pid = pid;
			return &v->pids[i];
		}
	return &v->pids[31];
}

/* PERF_SAMPLE_IDENTIFIER, IP, TID, TIME, CPU, PERIOD [, CALLCHAIN]: the
 * fixed layout of the session's samples (perf_event_open(2), "sample"). */
static void sample(struct seen *v, const struct perf_event_header *h)
{
	const uint64_t *u = (const uint64_t *)(h + 1);
	uint64_t ip = u[1];
	struct per_pid *p = of_pid(v, (pid_t)(uint32_t)u[2]);
	v->samples++;
	p->samples++;
	bool user = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER;
	p->user_ips += user && ip < 0x800000000000ull;
	if (v->callchain && user) {
		uint64_t nr = u[6];
		const uint64_t *chain = u + 7;
		/* PERF_CONTEXT_USER, then the sample's own IP first */
		for (uint64_t i = 0; i + 1 < nr; i++)
			if (chain[i] == PERF_CONTEXT_USER) {
				p->chains_ok += chain[i + 1] == ip;
				break;
			}
	}
}

static int watch(void *arg, const struct perf_event_header *h, struct pmurt_error *err)
{
	(void)err;
	struct seen *v = arg;
	const uint32_t *w = (const uint32_t *)(h + 1);
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		sample(v, h);
		break;
	case PERF_RECORD_FORK:
		if ((pid_t)w[1] == v->shell && w[0] == w[2]) {
			v->spin = (pid_t)w[0];
			v->fork++;
		}
		break;
	case PERF_RECORD_EXIT:
		of_pid(v, (pid_t)w[0])->exit++;
		break;
	case PERF_RECORD_COMM:
		v->exec_comm += (h->misc & PERF_RECORD_MISC_COMM_EXEC) &&
				!strcmp((const char *)(w + 2), "record_spin");
		break;
	case PERF_RECORD_MMAP2:
		/* filename after pid, tid, start, len, pgoff, maj, min, ino,
		 * ino_generation, prot, flags: 16 u32 */
		of_pid(v, (pid_t)w[0])->binary_map += !strcmp((const char *)(w + 16), v->binary);
		break;
	default:
		v->other++;
	}
	return 0;
}

/* Run argv under a session of one event; the records go to v. */
static int record(struct pmu_evsel *ev, char *const argv[], bool callchain, struct seen *v)
{
	struct pmu_host host = {.sys = pmu_sys_real()};
	snprintf(host.sysfs, sizeof host.sysfs, "/sys");
	struct pmu_evlist list = {.v = ev, .n = 1, .cap = 1};
	struct pmu_workload wl;
	struct pmurt_error err = {0};
	int rc = pmu_workload_prepare(&wl, argv, &err);
	CHECK(rc == 0, "prepare: %s", err.message);
	if (rc)
		return rc;
	v->shell = wl.pid;
	v->callchain = callchain;
	struct pmu_record_opts o = {.pid = wl.pid, .workload = true, .callchain = callchain};
	struct pmu_session *s;
	rc = pmu_session_open(&s, &host, &list, &o, &err);
	CHECK(rc == 0, "open: %s", err.message);
	if (rc == 0)
		rc = pmu_session_synthesize(s, watch, v, &err);
	if (rc == 0)
		rc = pmu_workload_start(&wl, argv[0], &err);
	while (rc == 0 && !pmu_session_stopped(s)) {
		rc = pmu_session_poll(s, 50, watch, v, &err);
		if (pmu_workload_exited(&wl))
			pmu_session_stop(s);
	}
	if (rc == 0)
		rc = pmu_session_drain(s, watch, v, &err);
	CHECK(rc == 0, "recording: %s", err.message);
	int status = pmu_workload_finish(&wl);
	CHECK(status == 0, "workload status %d", status);
	if (s) {
		const struct pmu_record_stats *st = pmu_session_stats(s);
		CHECK(st->lost == 0 && st->lost_samples == 0, "lost %llu, lost samples %llu",
		      (unsigned long long)st->lost, (unsigned long long)st->lost_samples);
		CHECK(st->samples == (uint64_t)v->samples, "stats %llu samples, sink saw %d",
		      (unsigned long long)st->samples, v->samples);
	}
	pmu_session_close(s);
	return rc;
}

static void test_cpu_clock(const char *spin, bool callchain)
{
	struct pmu_evsel ev = {
		.attr = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
			 .sample_period = 250000},
		.kind = PMU_EVSEL_SOFTWARE, .name = "cpu-clock", .leader = 0, .group_size = 1};
	char cmd[600];
	snprintf(cmd, sizeof cmd, "%s 100000000; true", spin);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	struct seen v = {.binary = spin};
	if (record(&ev, argv, callchain, &v))
		return;
	CHECK(v.fork == 1 && v.spin > 0, "FORK of the spinning child: %d", v.fork);
	CHECK(v.exec_comm >= 1, "COMM of its exec: %d", v.exec_comm);
	const struct per_pid *p = of_pid(&v, v.spin);
	CHECK(p->binary_map == 1, "MMAP2 of %s: %d", spin, p->binary_map);
	CHECK(p->exit >= 1, "EXIT of the child: %d", p->exit);
	CHECK(p->samples >= 20, "%d samples of pid %d (of %d)", p->samples, (int)v.spin,
	      v.samples);
	CHECK(p->user_ips * 2 >= p->samples, "user IPs (arg1) %d of %d", p->user_ips, p->samples);
	if (callchain)
		CHECK(p->chains_ok * 2 >= p->user_ips, "user callchains starting at the IP: %d of %d",
		      p->chains_ok, p->user_ips);
}

static long tracepoint_id(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "/sys/kernel/tracing/events/%s/id", name);
	FILE *f = fopen(path, "r");
	if (!f && errno == ENOENT) {
		/* as perf's tracefs__mount: mount it where it belongs */
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
		f = fopen(path, "r");
	}
	long id = -1;
	if (f) {
		if (fscanf(f, "%ld", &id) != 1)
			id = -1;
		fclose(f);
	}
	return id;
}

static void test_tracepoint(void)
{
	long id = tracepoint_id("sched/sched_switch");
	CHECK(id > 0, "no tracepoint id for sched:sched_switch (tracefs at /sys/kernel/tracing)");
	if (id <= 0)
		return;
	struct pmu_evsel ev = {
		.attr = {.type = PERF_TYPE_TRACEPOINT, .config = (uint64_t)id, .sample_period = 1},
		.kind = PMU_EVSEL_TRACEPOINT, .name = "sched:sched_switch", .leader = 0,
		.group_size = 1};
	char *argv[] = {"/bin/sh", "-c", "sleep 0.01; sleep 0.01; true", NULL};
	struct seen v = {.binary = "/bin/sleep"};
	if (record(&ev, argv, false, &v))
		return;
	CHECK(v.samples >= 2, "sched_switch samples: %d", v.samples);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: record_live_test SPIN-BINARY\n");
		return 2;
	}
	test_cpu_clock(argv[1], false);
	test_cpu_clock(argv[1], true);
	test_tracepoint();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
