/*
 * stress_test.c - many recordings through tiny rings on the simulated kernel
 * (perf/sys_sim.c), each written as pmutool record writes it (the session's
 * span drain into the perf.data writer) and read back whole.
 *
 * Two CPUs' one-page (then two-page) rings take samples of random sizes, as
 * call chains make them (48 bytes to over 1 KiB), drained at random points:
 * full rings drop samples and report them in PERF_RECORD_LOST, records
 * wrap the ring's end, and records end exactly at it, the case that once
 * let a span run past the ring (issue 23 item 1: `record -a -g -m 1`).
 * Every file must read to its end, each CPU's samples in the order the
 * kernel took them, every call chain intact, the losses summed.
 *
 * usage: record_stress_test SYSFS DIR [ROUNDS]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "perf_int.h"
#include "perfdata.h"
#include "record.h"
#include "sys_sim.h"

static int failures;

enum { NCPUS = 2, MAX_TAKEN = 4096, MAX_CHAIN = 130 };

static const struct pmu_sim_pmu sim_pmus[] = {
	{.type = PERF_TYPE_SOFTWARE, .name = "software", .per_ms = 1000},
};

/* A deterministic generator (xorshift64*): the rounds repeat exactly. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

/* The kernel's view of one round: the samples each CPU's ring took. */
struct taken {
	uint64_t seq[NCPUS][MAX_TAKEN];
	int n[NCPUS];
};

/* A call chain's entries as a function of the sample's sequence number. */
static uint64_t chain_entry(uint64_t seq, uint64_t k)
{
	return 0x400000 + seq * 131 + k * 7;
}

/* A sample laid out as attr's sample_type says, in the kernel's order
 * (perf_output_sample); its TIME is seq, its chain nr entries. */
static size_t build_sample(uint64_t *rec, const struct perf_event_attr *a, uint64_t id,
			   int cpu, uint64_t seq, uint64_t nr)
{
	uint64_t st = a->sample_type;
	size_t n = 1;
	if (st & PERF_SAMPLE_IDENTIFIER)
		rec[n++] = id;
	if (st & PERF_SAMPLE_IP)
		rec[n++] = chain_entry(seq, 0);
	if (st & PERF_SAMPLE_TID)
		rec[n++] = 4242 | (uint64_t)4242 << 32;
	if (st & PERF_SAMPLE_TIME)
		rec[n++] = seq;
	if (st & PERF_SAMPLE_ID)
		rec[n++] = id;
	if (st & PERF_SAMPLE_CPU)
		rec[n++] = (uint32_t)cpu;
	if (st & PERF_SAMPLE_PERIOD)
		rec[n++] = a->sample_period;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		rec[n++] = nr;
		for (uint64_t k = 0; k < nr; k++)
			rec[n++] = chain_entry(seq, k);
	}
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER,
				      .size = (uint16_t)(n * 8)};
	memcpy(rec, &h, sizeof h);
	return n * 8;
}

struct writing {
	struct pd_writer *w;
};

static int note(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	(void)err;
	pd_writer_note(((struct writing *)arg)->w, rec);
	return 0;
}

static int write_span(void *arg, const void *recs, size_t len, struct pmurt_error *err)
{
	return pd_writer_add_noted_span(((struct writing *)arg)->w, recs, len, err);
}

static int write_one(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	return pd_writer_add(((struct writing *)arg)->w, rec, err);
}

/* The file read back: each CPU's samples in the kernel's order, each chain
 * as written; returns the losses it reported. */
static uint64_t read_back(const char *path, const struct taken *t, int round)
{
	struct pmurt_perf_file *f = NULL;
	struct pmurt_error err = {0};
	uint64_t lost = 0;
	int at[NCPUS] = {0};
	if (pmurt_perf_open(&f, path, &err) < 0) {
		CHECK(0, "round %d: %s", round, err.message);
		return 0;
	}
	struct pmurt_perf_record r = {.sz = sizeof r};
	int rc;
	while ((rc = pmurt_perf_next(f, &r, &err)) == 1) {
		if (r.type == PERF_RECORD_LOST) {
			uint64_t n;
			memcpy(&n, (const unsigned char *)r.data + 16, sizeof n);
			lost += n;
		}
		if (r.type != PERF_RECORD_SAMPLE)
			continue;
		int c = (int)r.cpu;
		if (c < 0 || c >= NCPUS || at[c] >= t->n[c]) {
			CHECK(0, "round %d: a sample of CPU %d beyond the %d taken", round, c,
			      c >= 0 && c < NCPUS ? t->n[c] : -1);
			break;
		}
		uint64_t seq = t->seq[c][at[c]++];
		bool chain_ok = r.time == seq && r.nr_callchain >= 1;
		for (uint64_t k = 0; chain_ok && k < r.nr_callchain; k++)
			chain_ok = r.callchain[k] == chain_entry(seq, k);
		if (!chain_ok) {
			CHECK(0, "round %d: CPU %d's sample %d: time %llu, %llu entries, want "
			      "sample %llu", round, c, at[c] - 1, (unsigned long long)r.time,
			      (unsigned long long)r.nr_callchain, (unsigned long long)seq);
			break;
		}
	}
	CHECK(rc == 0, "round %d: %s", round, err.message);
	for (int c = 0; c < NCPUS; c++)
		CHECK(at[c] == t->n[c], "round %d: CPU %d: %d samples read of %d taken", round, c,
		      at[c], t->n[c]);
	pmurt_perf_close(f);
	return lost;
}

/* A sample of the session's event on CPU c, sized as a call chain of
 * random depth makes it (1 to 127 frames, as perf_event_max_stack). */
static int put_sample(struct pmu_sim *sim, struct pmu_session *s, int c, uint64_t seq,
		      uint64_t *rand_state, struct taken *t)
{
	uint64_t rec[MAX_CHAIN + 16];
	int nids;
	const uint64_t *ids = pmu_session_ids(s, 0, &nids);
	uint64_t nr = 1 + next_random(rand_state) % 127;
	size_t len = build_sample(rec, pmu_session_attr(s, 0), ids[c], c, seq, nr);
	if (pmu_sim_ring_write(sim, 1000 + c, rec, len) < 0)
		return 0;   /* the ring was full: dropped, reported in a LOST */
	if (t->n[c] < MAX_TAKEN)
		t->seq[c][t->n[c]++] = seq;
	return 1;
}

/* The span drain as pmutool record sets it up (cmd_record.c): one sink
 * per record for everything the session adds, the rings in spans. */
static void span_sink(struct pmu_session *s)
{
	pmu_session_noted_span_sink(s, note, write_span);
}

/* One recording: open, samples and drains at random, finish, read back. */
static void one_round(struct pmurt_host *host, const struct pmu_evlist *list,
		      const char *dir, int round, unsigned pages)
{
	struct pmu_sim *sim = NULL;
	struct pmurt_error err = {0};
	if (pmu_sim_new(&sim, sim_pmus, 1) < 0) {
		CHECK(0, "simulator: out of memory");
		return;
	}
	host->h.sys = pmu_sim_sys(sim);
	const int cpus[NCPUS] = {0, 1};
	struct pmu_record_opts o = {.pid = -1, .cpus = cpus, .ncpus = NCPUS, .period = 20000,
				    .callchain = true, .data_pages = pages, .no_side_band = true};
	struct pmu_session *s = NULL;
	int rc = pmu_session_open(&s, &host->h, list, &o, &err);
	CHECK(rc == 0, "round %d: open: %s", round, err.message);
	char path[4096];
	snprintf(path, sizeof path, "%s/stress-%d.data", dir, round);
	struct pd_event ev = {.attr = *pmu_session_attr(s, 0), .name = "cpu-clock"};
	ev.ids = pmu_session_ids(s, 0, &ev.nids);
	struct writing wr = {0};
	if (!rc && (rc = pd_writer_open(&wr.w, path, &ev, 1, &err)) < 0)
		CHECK(0, "round %d: writer: %s", round, err.message);
	if (!rc)
		span_sink(s);
	static struct taken t;
	memset(&t, 0, sizeof t);
	uint64_t state = 0x9E3779B97F4A7C15ULL * (uint64_t)(round + 1), seq = 1;
	for (int step = 0; !rc && step < 3000; step++) {
		uint64_t r = next_random(&state);
		if (r % 8 == 0)   /* a drain now and then: rings fill between */
			rc = pmu_session_drain(s, write_one, &wr, &err);
		else if (put_sample(sim, s, (int)((r >> 8) % NCPUS), seq, &state, &t))
			seq++;
	}
	if (!rc)
		rc = pmu_session_drain(s, write_one, &wr, &err);
	CHECK(rc == 0, "round %d: drain: %s", round, err.message);
	const struct pmu_record_stats st = *pmu_session_stats(s);
	if (wr.w) {
		int frc = pd_writer_finish(wr.w, &err);
		CHECK(frc == 0, "round %d: finish: %s", round, err.message);
	}
	pmu_session_close(s);
	pmu_sim_free(sim);
	if (rc)
		return;
	uint64_t lost = read_back(path, &t, round);
	CHECK(lost == st.lost, "round %d: the file reports %llu lost, the session %llu", round,
	      (unsigned long long)lost, (unsigned long long)st.lost);
	CHECK(st.samples == (uint64_t)(t.n[0] + t.n[1]), "round %d: %llu samples drained of %d",
	      round, (unsigned long long)st.samples, t.n[0] + t.n[1]);
	unlink(path);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: record_stress_test SYSFS DIR [ROUNDS]\n");
		return 2;
	}
	int rounds = argc > 3 ? atoi(argv[3]) : 200;
	struct pmurt_host *host = NULL;
	struct pmurt_error err = {0};
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = argv[1],
						   .pmu = "power10");
	if (pmurt_host_open(&host, &o, &err) < 0) {
		fprintf(stderr, "setup: %s\n", err.message);
		return 1;
	}
	struct pmu_evlist list = {0};
	if (pmu_evlist_parse(&list, &host->h, "cpu-clock", &err) < 0) {
		fprintf(stderr, "cpu-clock: %s\n", err.message);
		return 1;
	}
	for (int round = 0; round < rounds && failures < 5; round++)
		one_round(host, &list, argv[2], round, round % 2 ? 2 : 1);
	pmu_evlist_free(&list);
	pmurt_host_close(host);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
