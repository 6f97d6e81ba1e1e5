/*
 * bench_record.c - recording against its baselines, measured in the same run:
 *   a. draining a full data ring into a perf.data file as pmutool record
 *      does (pmu_ring_drain_spans: each record counted and noted by the
 *      writer, pd_writer_note, the ring's runs written whole by
 *      pd_writer_add_noted_span) against one raw write() of the
 *      same bytes to a file: the throughput ratio (goal: at least 0.5); and
 *      the per-record path (pmu_ring_drain, one pd_writer_add each).  The
 *      ring is the simulated kernel's (tests/support/sys_sim.c, which writes records
 *      as the kernel does), 128 data pages filled with 56-byte samples (IP,
 *      TID, TIME, CPU, PERIOD, IDENTIFIER) and again with 256-byte ones (the
 *      same with a 24-frame callchain, as -g writes), so records wrap its end;
 *   b. whole processes: a CPU-bound workload alone, under `pmutool record`
 *      and under `perf record`, same event, period and workload: the
 *      workload's slowdown (wall time over its time alone) and the samples
 *      written and lost (both files read by libpmurt's perf.data reader).
 * Figures are medians over ROUNDS rounds (a. in the thread's CPU time);
 * the ratios are ratios of medians and, for a., also medians of each
 * round's own ratio; printed, never asserted.
 *
 * usage: bench_record [--pmutool PATH --perf PATH --workload PATH] [ROUNDS]
 *        (default 9 rounds; b. needs the three paths)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"
#include "perfdata.h"
#include "ring.h"
#include "sys_sim.h"

#define MAX_ROUNDS 101
#define DATA_PAGES 128
#define RING_FILLS 16      /* ring-fulls per round of a. */
#define EVENT "cpu-clock"
#define PERIOD "100000"   /* ns of cpu-clock: 10 kHz */

/* --- a. ring drain ------------------------------------------------------------- */

/* Part a. times the CPU this thread spends: writing to the page cache and
 * walking the ring are CPU work, and on a shared machine wall time also
 * counts the time other processes ran. */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The kernel's side: samples of size bytes until the ring is full; past
 * the six fixed fields, a callchain. */
static void fill_ring(struct pmu_sim *sim, int fd, uint64_t *seq, size_t size)
{
	uint64_t rec[64] = {0};
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE,
				      .misc = PERF_RECORD_MISC_USER, .size = (uint16_t)size};
	memcpy(rec, &h, sizeof h);
	rec[7] = size / 8 - 8; /* callchain nr, when there is room for one */
	for (size_t i = 8; i < size / 8; i++)
		rec[i] = 0x401000 + i * 0x40;
	for (;;) {
		uint64_t body[6] = {1000, 0x401000 + (*seq & 0xfff), 42 | (uint64_t)42 << 32,
				    (*seq)++, 0, 100000};
		memcpy(rec + 1, body, sizeof body);
		if (pmu_sim_ring_write(sim, fd, rec, size) < 0)
			return; /* full */
	}
}

static int to_writer(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	return pd_writer_add(arg, rec, err);
}

/* What the session does per record on the span path: count it. */
static int count_record(void *arg, const struct perf_event_header *rec,
			struct pmurt_error *err)
{
	(void)err;
	uint64_t *counts = arg;
	counts[rec->type == PERF_RECORD_SAMPLE]++;
	return 0;
}

struct span_sink {
	uint64_t counts[2];
	struct pd_writer *w;
};

/* The session's count_note with cmd_record.c's note: counted, then noted
 * by the writer (the one walk over the records). */
static int note_record(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	struct span_sink *sink = arg;
	count_record(sink->counts, rec, err);
	pd_writer_note(sink->w, rec);
	return 0;
}

static int to_writer_span(void *arg, const void *recs, size_t len, struct pmurt_error *err)
{
	return pd_writer_add_noted_span(((struct span_sink *)arg)->w, recs, len, err);
}

static void write_raw(int raw, const struct pmu_ring *ring, uint64_t off, uint64_t len,
		      ssize_t *n, double *t)
{
	uint64_t first = len < ring->size - off ? len : ring->size - off;
	double t0 = cpu_now();
	*n = write(raw, ring->data + off, first);
	if (first < len)
		*n += write(raw, ring->data, len - first);
	*t += cpu_now() - t0;
}

/* One ring-full: filled, then drained into w in spans or record by record,
 * and (when t_raw is not NULL) the same bytes written raw: the baseline.
 * Which of the two goes first alternates with the fill (raw_first), so
 * that neither always meets the page cache the other left. */
static int drain_once(struct pmu_sim *sim, int fd, struct pmu_ring *ring, uint64_t *seq,
		      size_t size, int raw, bool raw_first, struct pd_writer *w, bool spans,
		      double *t_raw, double *t_drain, uint64_t *bytes)
{
	struct pmurt_error err = {0};
	fill_ring(sim, fd, seq, size);
	uint64_t len = ring->ctl->data_head - ring->ctl->data_tail;
	uint64_t off = ring->ctl->data_tail & (ring->size - 1);
	ssize_t n = (ssize_t)len;
	if (t_raw && raw_first)
		write_raw(raw, ring, off, len, &n, t_raw);
	struct span_sink sink = {.w = w};
	double t0 = cpu_now();
	long recs = spans ? pmu_ring_drain_spans(ring, note_record, to_writer_span, &sink, &err)
			  : pmu_ring_drain(ring, to_writer, w, &err);
	/* the round marker pmutool record writes after each pass over the
	 * rings (perf/record.c), up to which the writer's notes are resolved */
	struct perf_event_header round = {.type = PD_RECORD_FINISHED_ROUND, .size = sizeof round};
	if (recs >= 0 && pd_writer_add(w, &round, &err) < 0)
		recs = -1;
	*t_drain += cpu_now() - t0;
	/* the drained bytes stay in the ring's memory until the next fill */
	if (t_raw && !raw_first)
		write_raw(raw, ring, off, len, &n, t_raw);
	if (n != (ssize_t)len || recs < 0) {
		fprintf(stderr, "bench_record: write %zd of %llu, drain %ld %s\n", n,
			(unsigned long long)len, recs, err.message);
		return -1;
	}
	*bytes += len;
	return 0;
}

static int finish(struct pd_writer *w, double *t)
{
	struct pmurt_error err = {0};
	double t0 = cpu_now();
	int rc = pd_writer_finish(w, &err);
	*t += cpu_now() - t0;
	if (rc < 0)
		fprintf(stderr, "bench_record: %s\n", err.message);
	return rc;
}

/* The ring of the simulated kernel, with its event's writer view. */
struct drain_bench {
	struct pmu_sim *sim;
	int fd;
	struct pmu_ring ring;
	struct pd_event ev;
	uint64_t id, seq;
	size_t size;
	char path[512], raw_path[512];
};

/* rounds rounds of RING_FILLS ring-fulls, each drained into a perf.data
 * file (in spans or record by record) and written raw: the CPU time of each
 * per round.  The two paths run in rounds of their own, so that neither
 * shares the page cache's work with the other. */
static int measure(struct drain_bench *b, int rounds, bool spans, double *t_drain, double *t_raw,
		   uint64_t *bytes)
{
	struct pmurt_error err = {0};
	for (int r = 0; r < rounds; r++) {
		struct pd_writer *w;
		int raw = open(b->raw_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (raw < 0 || pd_writer_open(&w, b->path, &b->ev, 1, &err) < 0) {
			fprintf(stderr, "bench_record: %s\n", raw < 0 ? strerror(errno) : err.message);
			return -1;
		}
		t_drain[r] = t_raw[r] = 0;
		*bytes = 0;
		for (int f = 0; f < RING_FILLS; f++)
			if (drain_once(b->sim, b->fd, &b->ring, &b->seq, b->size, raw, f % 2, w, spans,
				       &t_raw[r], &t_drain[r], bytes) < 0)
				return -1;
		close(raw);
		if (finish(w, &t_drain[r]) < 0)
			return -1;
	}
	return 0;
}

/* Medians and the median of each round's own ratio (raw time / drain
 * time: the drain's throughput as a part of write()'s). */
static void print_drain(const char *how, int rounds, double *t_drain, double *t_raw,
			uint64_t bytes)
{
	double pair[MAX_ROUNDS];
	for (int r = 0; r < rounds; r++)
		pair[r] = t_raw[r] / t_drain[r];
	double p = median(pair, rounds), md = median(t_drain, rounds), mr = median(t_raw, rounds);
	printf("   %s: %.2f ms (%.0f MB/s), raw write() %.2f ms (%.0f MB/s): %.2f of write()'s "
	       "throughput (ratio of medians), %.2f (paired per round)%s\n", how, md * 1e3,
	       (double)bytes / md / 1e6, mr * 1e3, (double)bytes / mr / 1e6, mr / md, p,
	       !strcmp(how, "in spans") ? " (goal >= 0.50)" : "");
}

static int bench_drain(int rounds, const char *dir, size_t size)
{
	static const struct pmu_sim_pmu software = {.type = PERF_TYPE_SOFTWARE,
						    .name = "software"};
	struct drain_bench b = {.id = 1000, .size = size};
	if (pmu_sim_new(&b.sim, &software, 1) < 0)
		return 1;
	const struct pmurt_sys *sys = pmu_sim_sys(b.sim);
	struct perf_event_attr attr = {.size = sizeof attr, .type = PERF_TYPE_SOFTWARE,
				       .sample_period = 100000, .sample_id_all = 1,
				       .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
						      PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						      PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
						      (size > 56 ? PERF_SAMPLE_CALLCHAIN : 0)};
	b.fd = sys->event_open(sys->ctx, &attr, -1, 0, -1, 0);
	struct pmurt_error err = {0};
	if (pmu_ring_map(&b.ring, sys, b.fd, DATA_PAGES, (size_t)sysconf(_SC_PAGESIZE), &err) < 0) {
		fprintf(stderr, "bench_record: %s\n", err.message);
		return 1;
	}
	snprintf(b.path, sizeof b.path, "%s/drain.data", dir);
	snprintf(b.raw_path, sizeof b.raw_path, "%s/raw.bin", dir);
	b.ev = (struct pd_event){.attr = attr, .ids = &b.id, .nids = 1, .name = EVENT};
	double t_span[MAX_ROUNDS], t_rec[MAX_ROUNDS], raw_span[MAX_ROUNDS], raw_rec[MAX_ROUNDS];
	uint64_t bytes = 0, rec_bytes = 0;
	int rc = measure(&b, rounds, true, t_span, raw_span, &bytes);
	if (!rc)
		rc = measure(&b, rounds, false, t_rec, raw_rec, &rec_bytes);
	pmu_ring_unmap(&b.ring);
	pmu_sim_free(b.sim);
	unlink(b.path);
	unlink(b.raw_path);
	if (rc)
		return 1;
	printf("a. drain %d full rings (%.1f MB of %zu-byte samples) to a perf.data file, "
	       "CPU time:\n", RING_FILLS, (double)bytes / 1e6, size);
	print_drain("in spans", rounds, t_span, raw_span, bytes);
	print_drain("record by record", rounds, t_rec, raw_rec, rec_bytes);
	return 0;
}

/* --- b. whole processes -------------------------------------------------------- */

static double run(char *const argv[])
{
	double t0 = now();
	pid_t pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_record: %s failed\n", argv[0]);
		return -1;
	}
	return now() - t0;
}

struct file_counts {
	uint64_t samples, lost, lost_samples;
};

static int count_file(const char *path, struct file_counts *c)
{
	struct pmurt_perf_file *f;
	struct pmurt_error err = {0};
	*c = (struct file_counts){0};
	if (pmurt_perf_open(&f, path, &err) < 0) {
		fprintf(stderr, "bench_record: %s\n", err.message);
		return -1;
	}
	struct pmurt_perf_record rec = {.sz = sizeof rec};
	int rc;
	while ((rc = pmurt_perf_next(f, &rec, &err)) == 1) {
		const uint64_t *body = (const uint64_t *)((const struct perf_event_header *)rec.data + 1);
		if (rec.type == PERF_RECORD_SAMPLE)
			c->samples++;
		else if (rec.type == PERF_RECORD_LOST)
			c->lost += body[1];
		else if (rec.type == PERF_RECORD_LOST_SAMPLES)
			c->lost_samples += body[0];
	}
	pmurt_perf_close(f);
	if (rc < 0)
		fprintf(stderr, "bench_record: %s\n", err.message);
	return rc;
}

static int bench_processes(int rounds, const char *pmutool, const char *perf,
			   const char *workload, const char *dir)
{
	char ours[512], theirs[512];
	snprintf(ours, sizeof ours, "%s/pmutool.data", dir);
	snprintf(theirs, sizeof theirs, "%s/perf.data", dir);
	char *alone[] = {(char *)workload, NULL};
	char *with_pmutool[] = {(char *)pmutool, "record", "-e", EVENT, "-c", PERIOD, "-o", ours,
				"--", (char *)workload, NULL};
	char *with_perf[] = {(char *)perf, "record", "-q", "-e", EVENT, "-c", PERIOD, "-o", theirs,
			     "--", (char *)workload, NULL};
	double t_alone[MAX_ROUNDS], t_ours[MAX_ROUNDS], t_perf[MAX_ROUNDS];
	struct file_counts c_ours = {0}, c_perf = {0};
	for (int r = 0; r < rounds; r++) {
		t_alone[r] = run(alone);
		t_ours[r] = run(with_pmutool);
		t_perf[r] = run(with_perf);
		if (t_alone[r] < 0 || t_ours[r] < 0 || t_perf[r] < 0 ||
		    count_file(ours, &c_ours) < 0 || count_file(theirs, &c_perf) < 0)
			return 1;
	}
	unlink(ours);
	unlink(theirs);
	double a = median(t_alone, rounds), o = median(t_ours, rounds), p = median(t_perf, rounds);
	printf("b. %s alone: %.0f ms; -e %s -c %s:\n", workload, a * 1e3, EVENT, PERIOD);
	printf("   pmutool record: %.0f ms, slowdown %.2fx, %llu samples, %llu lost, "
	       "%llu lost samples (last round)\n", o * 1e3, o / a,
	       (unsigned long long)c_ours.samples, (unsigned long long)c_ours.lost,
	       (unsigned long long)c_ours.lost_samples);
	printf("   perf record:    %.0f ms, slowdown %.2fx, %llu samples, %llu lost, "
	       "%llu lost samples (last round)\n", p * 1e3, p / a,
	       (unsigned long long)c_perf.samples, (unsigned long long)c_perf.lost,
	       (unsigned long long)c_perf.lost_samples);
	printf("   pmutool record time / perf record time: %.2f\n", o / p);
	return 0;
}

int main(int argc, char **argv)
{
	const char *pmutool = NULL, *perf = NULL, *workload = NULL;
	int rounds = 9;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--pmutool") && i + 1 < argc)
			pmutool = argv[++i];
		else if (!strcmp(argv[i], "--perf") && i + 1 < argc)
			perf = argv[++i];
		else if (!strcmp(argv[i], "--workload") && i + 1 < argc)
			workload = argv[++i];
		else
			rounds = atoi(argv[i]);
	}
	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: bench_record [--pmutool PATH --perf PATH --workload PATH] "
			"[ROUNDS 1..%d]\n", MAX_ROUNDS);
		return 2;
	}
	/* the files go to $TMPDIR (default /tmp) */
	const char *tmp = getenv("TMPDIR");
	char dir[256];
	snprintf(dir, sizeof dir, "%.200s/pmurt-bench-record.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	int rc = bench_drain(rounds, dir, 56);
	if (rc == 0)
		rc = bench_drain(rounds, dir, 256);
	if (rc == 0 && pmutool && perf && workload)
		rc = bench_processes(rounds, pmutool, perf, workload, dir);
	else if (rc == 0)
		printf("b. skipped: needs --pmutool, --perf and --workload\n");
	rmdir(dir);
	return rc;
}
