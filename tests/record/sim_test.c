/*
 * sim_test.c - recording POWER10 core events on this x86 machine, through
 * the simulated kernel (tests/support/sys_sim.c) and a fake POWER10 LPAR sysfs tree
 * (tests/fakesys/power10-lpar.sh): the event list of cpc probe names and a
 * group, the cpc rules before opening, the attrs the kernel is handed
 * (config, exclude bits, period, sample_type), every event of a CPU written
 * into that CPU's ring, and the session's counts of samples and losses
 * drained from it; then the ring reader on the simulated ring: records
 * wrapping its end, a record not yet whole, a size below its header.
 *
 * usage: record_sim_test SYSFS
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cpc.h"
#include "perf_int.h"
#include "record.h"
#include "sys_sim.h"

static int failures;

static const struct pmu_sim_pmu sim_pmus[] = {
	{.type = PERF_TYPE_SOFTWARE, .name = "software", .per_ms = 1000},
	{.type = PERF_TYPE_RAW, .name = "cpu", .counters = 6, .per_ms = 1000},
};

struct seen {
	int n, samples, rounds;
	uint64_t ids[16];
};

static int watch(void *arg, const struct perf_event_header *h, struct pmurt_error *err)
{
	(void)err;
	struct seen *v = arg;
	if (h->type == PERF_RECORD_SAMPLE && v->samples < 16)
		v->ids[v->samples++] = *(const uint64_t *)(h + 1); /* IDENTIFIER first */
	v->rounds += h->type == 68; /* FINISHED_ROUND */
	v->n++;
	return 0;
}

/* A sample as the session's attrs lay it out: IDENTIFIER, IP, TID, TIME,
 * CPU, PERIOD. */
static void sample(uint64_t rec[7], uint64_t id)
{
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE,
				      .misc = PERF_RECORD_MISC_USER, .size = 56};
	memcpy(rec, &h, sizeof h);
	rec[1] = id;
	rec[2] = 0x10000400;
	rec[3] = 77 | (uint64_t)77 << 32;
	rec[4] = 123456789;
	rec[5] = 0;
	rec[6] = 10000;
}

static void test_power_session(struct pmurt_host *host, struct pmu_sim *sim)
{
	struct pmu_evlist list = {0};
	struct pmurt_error err = {0};
	const char *enablings[] = {"PM_RUN_INST_CMPL-user-10000", "{PM_FLOP_CMPL,0x200fa}"};
	for (int i = 0; i < 2; i++)
		CHECK(pmu_evlist_parse(&list, &host->h, enablings[i], &err) == 0, "%s: %s",
		      enablings[i], err.message);
	CHECK(list.n == 3, "%d events", list.n);
	CHECK(pmu_cpc_check_periods(&list, 0, PMURT_CPC_MIN_PERIOD, &err) == 0, "%s", err.message);
	struct pmurt_group_result held = PMURT_OPTS_INIT(pmurt_group_result);
	CHECK(pmu_cpc_check_counters(host->h.core, &list, false, false, &held, &err) == 0 &&
	      held.n == 3 && held.pmc[0] == 5 && held.pmc[1] == 1 && held.pmc[2] == 2,
	      "counters: %s", err.message);

	const int cpus[] = {0};
	struct pmu_record_opts o = {.pid = -1, .cpus = cpus, .ncpus = 1, .data_pages = 1};
	struct pmu_session *s;
	int rc = pmu_session_open(&s, &host->h, &list, &o, &err);
	CHECK(rc == 0, "open: %s", err.message);
	if (rc) {
		pmu_evlist_free(&list);
		return;
	}
	const struct perf_event_attr *probe = pmu_sim_attr(sim, 1000);
	CHECK(pmu_sim_opens(sim) == 3 && probe, "%d opens", pmu_sim_opens(sim));
	if (probe)
		CHECK(probe->type == PERF_TYPE_RAW && probe->config == 0x500fa &&
		      probe->exclude_kernel && !probe->exclude_user && !probe->freq &&
		      probe->sample_period == 10000 && probe->sample_id_all && probe->mmap2 &&
		      (probe->sample_type & PERF_SAMPLE_IDENTIFIER), "the probe's attr");
	const struct perf_event_attr *flop = pmu_sim_attr(sim, 1001);
	CHECK(flop && flop->config == 0x100f4 && flop->freq && flop->sample_freq == 4000 &&
	      !flop->mmap2, "PM_FLOP_CMPL: no period given, perf's 4000 Hz; no side band");

	/* the group's member writes into the CPU's one ring */
	int nids;
	const uint64_t *member = pmu_session_ids(s, 2, &nids);
	uint64_t rec[7];
	sample(rec, member[0]);
	CHECK(pmu_sim_ring_write(sim, 1002, rec, sizeof rec) == 0, "member's sample");
	struct {
		struct perf_event_header h;
		uint64_t id, lost;
	} lost = {{PERF_RECORD_LOST, 0, sizeof lost}, member[0], 3};
	CHECK(pmu_sim_ring_write(sim, 1000, &lost, sizeof lost) == 0, "LOST");
	struct seen v = {0};
	rc = pmu_session_drain(s, watch, &v, &err);
	const struct pmu_record_stats *st = pmu_session_stats(s);
	CHECK(rc == 0 && v.n == 3 && v.samples == 1 && v.ids[0] == member[0] && v.rounds == 1,
	      "drained %d records, %d samples: %s", v.n, v.samples, err.message);
	CHECK(st->samples == 1 && st->lost == 3 && st->lost_records == 1, "stats");
	pmu_session_close(s);
	CHECK(pmu_sim_open_fds(sim) == 0, "%d fds left open", pmu_sim_open_fds(sim));
	pmu_evlist_free(&list);
}

static int keep_size(void *arg, const struct perf_event_header *h, struct pmurt_error *err)
{
	(void)err;
	*(unsigned *)arg = h->size;
	return 0;
}

/* The ring reader on a one-page simulated ring, written as the kernel
 * writes it. */
static void test_ring(struct pmu_sim *sim)
{
	const struct pmurt_sys *sys = pmu_sim_sys(sim);
	struct perf_event_attr a = {.size = sizeof a, .type = PERF_TYPE_SOFTWARE,
				    .sample_period = 10000};
	int fd = sys->event_open(sys->ctx, &a, -1, 0, -1, 0);
	struct pmu_ring ring;
	struct pmurt_error err = {0};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	CHECK(fd >= 0 && pmu_ring_map(&ring, sys, fd, 1, page, &err) == 0, "map: %s", err.message);
	if (!ring.base)
		return;
	uint64_t rec[7];
	sample(rec, 1);
	unsigned size = 0;
	long wrapped = 0;
	/* 56-byte records through several laps of a 4 KiB ring: some wrap */
	for (int i = 0; i < 300; i++) {
		rec[4] = (uint64_t)i;
		CHECK(pmu_sim_ring_write(sim, fd, rec, sizeof rec) == 0, "write %d", i);
		uint64_t at = ring.ctl->data_tail & (ring.size - 1);
		wrapped += at + sizeof rec > ring.size;
		CHECK(pmu_ring_drain(&ring, keep_size, &size, &err) == 1 && size == 56,
		      "record %d: size %u", i, size);
	}
	CHECK(wrapped >= 2, "%ld records wrapped the end", wrapped);
	/* head inside a record: it waits */
	uint64_t head = ring.ctl->data_head;
	CHECK(pmu_sim_ring_write(sim, fd, rec, sizeof rec) == 0, "write");
	__atomic_store_n(&ring.ctl->data_head, head + 24, __ATOMIC_RELEASE);
	CHECK(pmu_ring_drain(&ring, keep_size, &size, &err) == 0 && ring.ctl->data_tail == head,
	      "a record not yet whole was handed over");
	__atomic_store_n(&ring.ctl->data_head, head + 56, __ATOMIC_RELEASE);
	CHECK(pmu_ring_drain(&ring, keep_size, &size, &err) == 1, "the completed record");
	struct perf_event_header bad = {.type = PERF_RECORD_SAMPLE, .size = 4};
	CHECK(pmu_sim_ring_write(sim, fd, &bad, sizeof bad) == 0, "write");
	CHECK(pmu_ring_drain(&ring, keep_size, &size, &err) == -EBADMSG &&
	      strstr(err.message, "bad size 4"), "'%s'", err.message);
	pmu_ring_unmap(&ring);
	sys->close(sys->ctx, fd);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: record_sim_test SYSFS\n");
		return 2;
	}
	struct pmurt_host *host = NULL;
	struct pmurt_error err = {0};
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = argv[1],
						   .pmu = "power10");
	struct pmu_sim *sim = NULL;
	if (pmurt_host_open(&host, &o, &err) < 0 ||
	    pmu_sim_new(&sim, sim_pmus, (int)(sizeof sim_pmus / sizeof sim_pmus[0])) < 0) {
		fprintf(stderr, "setup: %s\n", err.message);
		return 1;
	}
	host->h.sys = pmu_sim_sys(sim);
	test_power_session(host, sim);
	test_ring(sim);
	pmu_sim_free(sim);
	pmurt_host_close(host);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
