/*
 * bench_capture.c - the vpa_dtl capture against its baseline, measured in
 * the same run (issue 8, section 6): the AUX area of the simulated kernel
 * (tests/support/sys_sim.c), filled by the vpa_dtl driver model (tests/support/sim_dtl.c) to
 * just below full (128 KiB, perf's default for vpa_dtl: 32 expiries of 84
 * entries), drained as `pmutool dtl record` drains it (the data ring's
 * PERF_RECORD_AUX records, then pmu_aux_drain's AUXTRACE records, into a
 * perf.data file through pd_writer_add_auxtrace), against one raw write()
 * of the same AUX bytes to a file (two pieces when they wrap the end).  The
 * model's writing is not timed.  Times are this thread's CPU time (user and
 * system: the write() calls' work in the kernel counts, other processes'
 * turns on the shared machine do not).  Figures are medians over ROUNDS
 * rounds of FILLS fills each, the file's finishing (its features and
 * header) included; the ratio of throughputs is printed against the goal
 * (at least 0.5), never asserted.
 *
 * usage: bench_capture [ROUNDS]   (default 9)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aux.h"
#include "bench_stats.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#include "perfdata.h"
#include "sim_dtl.h"

#define MAX_ROUNDS 101
#define FILLS 256
#define AUX_PAGES 32       /* with 4 KiB pages, perf's 128 KiB */
#define DATA_PAGES 64
#define DTL_TYPE 14
#define EXPIRIES 32        /* of 84 entries: 2688 of the 2730 slots */

struct bench {
	struct pmu_sim *sim;
	struct pmu_sim_dtl *drv;
	struct pmu_ring ring;
	struct pmu_aux aux;
	struct perf_event_attr attr;
	uint64_t id;
};

static int to_writer(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	if (rec->type == PMU_RECORD_AUXTRACE)
		return pd_writer_add_auxtrace(arg, rec, ((const struct pmu_auxtrace *)rec)->data, err);
	return pd_writer_add(arg, rec, err);
}

static int setup(struct bench *b, struct pmurt_error *err)
{
	static const struct pmu_sim_pmu dtl = {.type = DTL_TYPE, .name = "vpa_dtl",
					       .vpa_dtl = true};
	struct pmu_sim_dtl_opts o = {.seed = 1};
	if (pmu_sim_new(&b->sim, &dtl, 1) < 0 || pmu_sim_dtl_new(&b->drv, b->sim, DTL_TYPE, &o) < 0)
		return -ENOMEM;
	const struct pmurt_sys *sys = pmu_sim_sys(b->sim);
	b->attr = (struct perf_event_attr){.size = sizeof b->attr, .type = DTL_TYPE, .config = 7,
					   .sample_period = 10000000, .sample_id_all = 1,
					   .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
							  PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
							  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD};
	int fd = sys->event_open(sys->ctx, &b->attr, -1, 0, -1, 0);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int rc = pmu_ring_map(&b->ring, sys, fd, DATA_PAGES, page, err);
	if (rc == 0)
		rc = pmu_aux_map(&b->aux, &b->ring, AUX_PAGES, page, 0, 0, err);
	b->id = 1001;
	return rc;
}

/* One round: FILLS fills, each written raw then drained; the seconds of
 * each into *t, the AUX bytes into *bytes. */
struct times {
	double raw, drain;             /* CPU */
	double raw_wall, drain_wall;   /* wall clock */
};

static int round_of(struct bench *b, const char *dir, struct times *t, uint64_t *bytes,
		    struct pmurt_error *err)
{
	char data_path[512], raw_path[512];
	snprintf(data_path, sizeof data_path, "%s/capture.data", dir);
	snprintf(raw_path, sizeof raw_path, "%s/capture.raw", dir);
	struct pd_event ev = {.attr = b->attr, .ids = &b->id, .nids = 1, .name = "vpa_dtl/dtl_all/"};
	struct pd_writer *w;
	int fd = open(raw_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pd_writer_open(&w, data_path, &ev, 1, err) < 0)
		return -EIO;
	*t = (struct times){0};
	*bytes = 0;
	int rc = 0;
	for (int f = 0; f < FILLS && rc == 0; f++) {
		for (int e = 0; e < EXPIRIES; e++)
			pmu_sim_dtl_tick(b->drv, 84);
		uint64_t tail = b->aux.ctl->aux_tail, len = b->aux.ctl->aux_head - tail;
		uint64_t off = tail & (b->aux.size - 1);
		uint64_t first = len < b->aux.size - off ? len : b->aux.size - off;
		double t0 = cpu_now(), w0 = now();
		ssize_t n = write(fd, b->aux.data + off, first);
		if (first < len)
			n += write(fd, b->aux.data, len - first);
		double t1 = cpu_now(), w1 = now();
		long k = pmu_ring_drain(&b->ring, to_writer, w, err);
		if (k >= 0)
			k = pmu_aux_drain(&b->aux, to_writer, w, err);
		double t2 = cpu_now(), w2 = now();
		rc = n != (ssize_t)len || k < 0 ? -EIO : 0;
		t->raw += t1 - t0;
		t->drain += t2 - t1;
		t->raw_wall += w1 - w0;
		t->drain_wall += w2 - w1;
		*bytes += len;
	}
	double t3 = cpu_now(), w3 = now();
	if (pd_writer_finish(w, err) < 0)
		rc = -EIO;
	t->drain += cpu_now() - t3;
	t->drain_wall += now() - w3;
	close(fd);
	unlink(data_path);
	unlink(raw_path);
	return rc;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 9;
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: bench_capture [ROUNDS (1..%d)]\n", MAX_ROUNDS);
		return 2;
	}
	char dir[] = "/tmp/pmurt-bench-capture.XXXXXX";
	const char *tmp = getenv("TMPDIR");
	char dirbuf[512];
	snprintf(dirbuf, sizeof dirbuf, "%s/pmurt-bench-capture.XXXXXX", tmp ? tmp : "/tmp");
	char *d = mkdtemp(tmp ? dirbuf : dir);
	struct bench b = {0};
	struct pmurt_error err = {0};
	if (!d || setup(&b, &err) < 0) {
		fprintf(stderr, "bench_capture: setup: %s\n", d ? err.message : strerror(errno));
		return 1;
	}
	double t_raw[MAX_ROUNDS], t_drain[MAX_ROUNDS], w_raw[MAX_ROUNDS], w_drain[MAX_ROUNDS];
	uint64_t bytes = 0;
	for (int r = 0; r < rounds; r++) {
		struct times t;
		if (round_of(&b, d, &t, &bytes, &err) < 0) {
			fprintf(stderr, "bench_capture: %s\n", err.message[0] ? err.message : "I/O");
			return 1;
		}
		t_raw[r] = t.raw;
		t_drain[r] = t.drain;
		w_raw[r] = t.raw_wall;
		w_drain[r] = t.drain_wall;
	}
	rmdir(d);
	double mr = median(t_raw, rounds), md = median(t_drain, rounds);
	double wr = median(w_raw, rounds), wd = median(w_drain, rounds);
	printf("c. capture: drain %d near-full 128 KiB vpa_dtl AUX areas (%.1f MB) into perf.data: "
	       "%.0f MB/s; raw write() of the same bytes: %.0f MB/s\n", FILLS, (double)bytes / 1e6,
	       (double)bytes / md / 1e6, (double)bytes / mr / 1e6);
	printf("   capture throughput / raw write() throughput: %.2f in CPU time (goal >= 0.50), "
	       "%.2f in wall-clock time; a round: %.1f MB of AUXTRACE payload, %llu stale bytes "
	       "skipped\n", mr / md, wr / wd, (double)b.aux.stats.bytes / rounds / 1e6,
	       (unsigned long long)b.aux.stats.stale_bytes / (unsigned)rounds);
	pmu_aux_unmap(&b.aux);
	pmu_ring_unmap(&b.ring);
	pmu_sim_dtl_free(b.drv);
	pmu_sim_free(b.sim);
	return 0;
}
