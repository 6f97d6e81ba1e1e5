/*
 * capture_test.c - the vpa_dtl capture (perf/aux.c through the recording
 * session, perf/record.c) against the simulated kernel's driver model
 * (tests/support/sim_dtl.c) on the fake POWER10 LPAR sysfs.
 *
 * Accounting: for many seeds, AUX sizes and reader speeds (bursts larger
 * than the area, the hypervisor buffer overflowing, wraps with stale tails
 * of 32 and 64 bytes, a reader that skips drains so the driver overwrites
 * unread slots and the core refuses output), every entry the driver wrote
 * into an AUX area is either decoded from the recorded perf.data file
 * (byte for byte the slot it wrote, on its CPU) or counted lost by the
 * capture; none is delivered twice, none misaligned (a misaligned slot
 * would match no entry written).  The driver's own drops (hypervisor
 * buffer, rest of a batch at a wrap, output refused) sum up with the
 * written ones to what the hypervisor logged, and refused outputs are
 * always seen by the capture as an overrun.
 *
 * Each loss is in the file too: one PERF_RECORD_AUXTRACE_ERROR per drain
 * that found the area full, their counts adding up to the lost entries.
 * Also: the file's AUXTRACE_INFO (type 7, priv[0] the PMU type), the
 * PERF_RECORD_AUX records passed through, PERF_RECORD_LOST when the data
 * ring is slow too, the attr vpa_dtl is opened with, and the refusals
 * made before any system call (a per-task open; a bad AUX page count);
 * PERF_RECORD_AUX flags counted, poll's wake-up at the AUX watermark;
 * the public capture API (pmurt_dtl_capture_*) on the same model, and its
 * answer on this machine's real sysfs, which has no vpa_dtl; the AUX
 * mapping's set-up checked by this machine's kernel.
 *
 * usage: dtl_capture_test SYSFS TMPDIR [SEED_OUT]
 * With SEED_OUT, one small recording (a one-page AUX area, two CPUs, wraps
 * and a slow reader's losses) is also kept there: the fuzz seed
 * tests/fuzz/dtl-perfdata-corpus/recorded-aux.data was made so.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "perf_int.h"
#include "perfdata.h"
#include "record.h"
#include "sim_dtl.h"
#include "sys_sim.h"

#define DTL_TYPE 14   /* the fake tree's vpa_dtl type */
#define NCPUS 2
#define MAX_WRITTEN 200000

static int failures;

/* vpa_dtl as the kernel takes it: per CPU, no exclude bit, sampling only */
static const struct pmu_sim_pmu dtl_pmu = {.type = DTL_TYPE, .name = "vpa_dtl", .vpa_dtl = true};

struct written {
	uint64_t tb;
	uint8_t slot[PMURT_DTL_SLOT_SIZE];
	bool seen;
};

struct ledger {
	struct written *w[NCPUS];
	size_t n[NCPUS];
	uint64_t delivered, duplicates, unmatched, headers;
};

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void on_write(void *arg, int cpu, uint64_t pos, const uint8_t *slot)
{
	struct ledger *l = arg;
	(void)pos;
	if (cpu < 0 || cpu >= NCPUS || l->n[cpu] == MAX_WRITTEN)
		return;
	struct written *w = &l->w[cpu][l->n[cpu]++];
	w->tb = be64(slot + 16);
	memcpy(w->slot, slot, PMURT_DTL_SLOT_SIZE);
	w->seen = false;
}

/* The entry written on cpu with this timebase (they only grow). */
static struct written *find(struct ledger *l, int cpu, uint64_t tb)
{
	size_t lo = 0, hi = l->n[cpu];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (l->w[cpu][mid].tb < tb)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->n[cpu] && l->w[cpu][lo].tb == tb ? &l->w[cpu][lo] : NULL;
}

static void deliver(struct ledger *l, int cpu, const uint8_t *slot)
{
	struct written *w = cpu >= 0 && cpu < NCPUS ? find(l, cpu, be64(slot + 16)) : NULL;
	if (!w || memcmp(w->slot, slot, PMURT_DTL_SLOT_SIZE) != 0) {
		if (getenv("DBG") && l->unmatched < 5)
			fprintf(stderr, "unmatched cpu %d tb %llu w %p\n", cpu, (unsigned long long)be64(slot + 16), (void *)w);
		l->unmatched++;
	}
	else if (w->seen)
		l->duplicates++;
	else
		l->delivered++;
	if (w)
		w->seen = true;
}

static int write_record(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	if (rec->type == PMU_RECORD_AUXTRACE)
		return pd_writer_add_auxtrace(arg, rec, ((const struct pmu_auxtrace *)rec)->data, err);
	return pd_writer_add(arg, rec, err);
}

struct file_counts {
	uint64_t aux_records, lost, auxtrace, info_type, info_pmu;
	uint64_t errors, error_lost;   /* AUXTRACE_ERROR records, their counts */
	uint64_t full_errors;          /* ... saying an area was full */
	uint64_t wrap_min, wrap_max, wrap_polls;  /* ... wrap losses said */
};

/* Every slot of every AUXTRACE payload, decoded without an AUX size: the
 * capture split the stale tails off already. */
static void read_back(const char *path, struct ledger *l, struct file_counts *fc)
{
	struct pmurt_perf_file *f = NULL;
	struct pmurt_error err = {0};
	CHECK(pmurt_perf_open(&f, path, &err) == 0, "%s: %s", path, err.message);
	if (!f)
		return;
	struct pmurt_perf_record rec = {.sz = sizeof rec};
	int rc;
	while ((rc = pmurt_perf_next(f, &rec, &err)) > 0) {
		const uint8_t *p = rec.data;
		if (rec.type == 70) {
			fc->info_type = pd_get32(p + 8);
			fc->info_pmu = pd_get64(p + 16);
		}
		fc->aux_records += rec.type == PERF_RECORD_AUX;
		if (rec.type == PMU_RECORD_AUXTRACE_ERROR) { /* type, code, cpu ..., msg at 48 */
			unsigned long long n = 0, lo = 0, hi = 0, polls = 0;
			const char *msg = (const char *)p + 48;
			fc->errors++;
			CHECK(pd_get32(p + 8) == 1 && pd_get32(p + 12) == PMU_AUX_LOST_CODE &&
			      pd_get32(p + 28) == 1, "AUXTRACE_ERROR fields");
			if (sscanf(msg, "vpa_dtl: %llu entries overwritten", &n) == 1)
				fc->error_lost += n;
			fc->full_errors += n || strstr(msg, "AUX area full");
			if (sscanf(msg, "vpa_dtl: wrap lost %llu-%llu entries in %llu polls", &lo, &hi,
				   &polls) == 3) {
				fc->wrap_min += lo;
				fc->wrap_max += hi;
				fc->wrap_polls += polls;
			}
		}
		if (rec.type == PERF_RECORD_LOST)
			fc->lost += pd_get64(p + 16);
		if (rec.type != 71)
			continue;
		fc->auxtrace++;
		int cpu = (int)pd_get32(p + 40);
		struct pmurt_dtl_cursor c;
		struct pmurt_dtl_slot s;
		/* each event's area starts with the header, a reopened one's too */
		bool at_start = pd_get64(p + 16) == 0 && cpu >= 0 && cpu < NCPUS;
		pmurt_dtl_cursor_init(&c, rec.payload, rec.payload_size, 0, 0, at_start);
		while ((rc = pmurt_dtl_next(&c, &s, &err)) > 0) {
			if (s.kind == PMURT_DTL_HEADER)
				l->headers++;
			else
				deliver(l, cpu, (const uint8_t *)rec.payload + s.offset);
		}
		CHECK(rc == 0, "AUXTRACE at %#llx: %s", (unsigned long long)rec.offset, err.message);
	}
	CHECK(rc == 0, "%s: %s", path, err.message);
	pmurt_perf_close(f);
}

struct scenario {
	uint64_t seed;
	unsigned aux_pages, data_pages;
	unsigned max_burst;     /* entries per expiry: 0 .. max_burst */
	unsigned max_ticks;     /* expiries between drains: 0 .. max_ticks */
	unsigned steps;
	const char *keep;       /* keep the recording there (a fuzz seed) */
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void open_dtl(struct pmurt_host *host, struct pmu_evlist *list, uint64_t period)
{
	struct pmurt_error err = {0};
	CHECK(pmu_evlist_parse(list, &host->h, "vpa_dtl/dtl_all/", &err) == 0, "%s", err.message);
	if (list->n) {
		list->v[0].attr.sample_period = period;
		list->v[0].attr.freq = 0;
	}
}

struct totals {
	uint64_t written, lost, wraps, refused, hv_dropped, batch_dropped, stale, lost_ring;
	uint64_t wrap_lost, reopens;
};

static void run(struct pmurt_host *host, const char *dir, const struct scenario *sc,
		struct totals *t)
{
	struct pmu_sim *sim = NULL;
	struct pmu_sim_dtl *drv = NULL;
	struct ledger l = {0};
	for (int c = 0; c < NCPUS; c++)
		l.w[c] = malloc(MAX_WRITTEN * sizeof(struct written));
	struct pmu_sim_dtl_opts o = {.seed = sc->seed, .on_write = on_write, .arg = &l,
				     .swapped_header = sc->seed & 1};
	CHECK(pmu_sim_new(&sim, &dtl_pmu, 1) == 0 && pmu_sim_dtl_new(&drv, sim, DTL_TYPE, &o) == 0,
	      "setup");
	host->h.sys = pmu_sim_sys(sim);
	struct pmu_evlist list = {0};
	open_dtl(host, &list, 1000000);
	const int cpus[NCPUS] = {0, 1};
	struct pmu_record_opts ro = {.pid = -1, .cpus = cpus, .ncpus = NCPUS,
				     .data_pages = sc->data_pages, .aux_pages = sc->aux_pages};
	struct pmu_session *s = NULL;
	struct pmurt_error err = {0};
	struct pd_writer *w = NULL;
	char path[512];
	snprintf(path, sizeof path, "%s/capture-%llu.data", dir, (unsigned long long)sc->seed);
	int rc = pmu_session_open(&s, &host->h, &list, &ro, &err);
	CHECK(rc == 0, "seed %llu: open: %s", (unsigned long long)sc->seed, err.message);
	if (rc == 0) {
		int nids;
		struct pd_event ev = {.attr = *pmu_session_attr(s, 0), .name = "vpa_dtl/dtl_all/"};
		ev.ids = pmu_session_ids(s, 0, &nids);
		ev.nids = nids;
		CHECK(pd_writer_open(&w, path, &ev, 1, &err) == 0, "%s", err.message);
		uint64_t info[3] = {0, 7, DTL_TYPE};
		struct perf_event_header h = {.type = 70, .size = sizeof info};
		memcpy(info, &h, sizeof h);
		CHECK(w && pd_writer_add(w, info, &err) == 0, "%s", err.message);
		CHECK(pmu_session_enable(s, &err) == 0, "%s", err.message);
	}
	uint64_t r = sc->seed * 0x9e3779b97f4a7c15ull + 1;
	for (unsigned step = 0; w && step < sc->steps; step++) {
		unsigned ticks = (unsigned)(rnd(&r) % (sc->max_ticks + 1));
		for (unsigned k = 0; k < ticks; k++)
			pmu_sim_dtl_tick(drv, (unsigned)(rnd(&r) % (sc->max_burst + 1)));
		CHECK(pmu_session_drain(s, write_record, w, &err) == 0, "drain: %s", err.message);
	}
	if (w) {
		CHECK(pmu_session_drain(s, write_record, w, &err) == 0, "drain: %s", err.message);
		CHECK(pd_writer_finish(w, &err) == 0, "%s", err.message);
	}
	const struct pmu_sim_dtl_stats *ds = pmu_sim_dtl_stats(drv);
	const struct pmu_record_stats *st = s ? pmu_session_stats(s) : NULL;
	struct file_counts fc = {0};
	if (st) {
		read_back(path, &l, &fc);
		const struct pmu_aux_stats *a = &st->aux;
		uint64_t reported = l.n[0] + l.n[1];
		CHECK(reported == ds->reported, "seed %llu: ledger %llu of %llu",
		      (unsigned long long)sc->seed, (unsigned long long)reported,
		      (unsigned long long)ds->reported);
		CHECK(l.unmatched == 0 && l.duplicates == 0, "seed %llu: %llu misaligned or foreign "
		      "slots, %llu delivered twice", (unsigned long long)sc->seed,
		      (unsigned long long)l.unmatched, (unsigned long long)l.duplicates);
		/* every entry the driver reported is delivered or counted lost */
		CHECK(l.delivered + a->lost_entries == ds->reported, "seed %llu: %llu delivered + "
		      "%llu lost != %llu reported", (unsigned long long)sc->seed,
		      (unsigned long long)l.delivered, (unsigned long long)a->lost_entries,
		      (unsigned long long)ds->reported);
		CHECK(l.headers + a->lost_headers == ds->headers, "seed %llu: headers %llu + %llu "
		      "lost of %llu", (unsigned long long)sc->seed, (unsigned long long)l.headers,
		      (unsigned long long)a->lost_headers, (unsigned long long)ds->headers);
		CHECK(ds->generated == ds->written + ds->hv_dropped + ds->batch_dropped +
		      ds->core_dropped && ds->written == ds->reported + ds->wrap_lost,
		      "seed %llu: the driver's counts", (unsigned long long)sc->seed);
		/* what the driver lost at its wraps, seen in its PERF_RECORD_AUX
		 * (when the data ring lost none of them): each poll, and the
		 * entries within the bounds */
		if (st->lost == 0)
			CHECK(a->wrap_polls == ds->tail_outputs && a->wrap_lost_min <= ds->wrap_lost &&
			      ds->wrap_lost + ds->batch_dropped <= a->wrap_lost_max + a->cut_lost_max,
			      "seed %llu: wrap losses %llu polls, %llu-%llu (+%llu cut) for %llu polls, "
			      "%llu lost, %llu dropped", (unsigned long long)sc->seed,
			      (unsigned long long)a->wrap_polls, (unsigned long long)a->wrap_lost_min,
			      (unsigned long long)a->wrap_lost_max, (unsigned long long)a->cut_lost_max,
			      (unsigned long long)ds->tail_outputs, (unsigned long long)ds->wrap_lost,
			      (unsigned long long)ds->batch_dropped);
		CHECK(!ds->refused || (a->overruns && a->reopens), "seed %llu: %llu refused outputs "
		      "unseen or not reopened", (unsigned long long)sc->seed,
		      (unsigned long long)ds->refused);
		CHECK(fc.info_type == 7 && fc.info_pmu == DTL_TYPE, "AUXTRACE_INFO");
		CHECK(fc.auxtrace == a->chunks && fc.aux_records == st->aux_records &&
		      st->aux_records == ds->aux_records && fc.lost == st->lost, "seed %llu: records in the file",
		      (unsigned long long)sc->seed);
		CHECK(st->aux_truncated == 0 && st->aux_partial == 0, "vpa-dtl.c sets no flag");
		CHECK(fc.full_errors >= a->overruns && fc.error_lost == a->lost_entries &&
		      fc.wrap_polls == a->wrap_polls && fc.wrap_min == a->wrap_lost_min &&
		      fc.wrap_max == a->wrap_lost_max, "seed %llu: AUXTRACE_ERROR records saying "
		      "%llu full, %llu lost, wraps %llu polls %llu-%llu, for %llu overruns, %llu lost, "
		      "%llu polls", (unsigned long long)sc->seed, (unsigned long long)fc.full_errors,
		      (unsigned long long)fc.error_lost, (unsigned long long)fc.wrap_polls,
		      (unsigned long long)fc.wrap_min, (unsigned long long)fc.wrap_max,
		      (unsigned long long)a->overruns, (unsigned long long)a->lost_entries,
		      (unsigned long long)a->wrap_polls);
		t->written += ds->written;
		t->lost += a->lost_entries;
		t->wrap_lost += ds->wrap_lost;
		t->reopens += a->reopens;
		t->wraps += ds->wraps;
		t->refused += ds->refused;
		t->hv_dropped += ds->hv_dropped;
		t->batch_dropped += ds->batch_dropped;
		t->stale += a->stale_bytes;
		t->lost_ring += st->lost;
	}
	pmu_session_close(s);
	pmu_evlist_free(&list);
	pmu_sim_dtl_free(drv);
	pmu_sim_free(sim);
	for (int c = 0; c < NCPUS; c++)
		free(l.w[c]);
	if (sc->keep && rename(path, sc->keep) != 0)
		CHECK(false, "keeping %s as %s", path, sc->keep);
	unlink(path);
}

struct drained {
	uint64_t slots, chunks, errors;
	char msg[64];
};

static int count_drained(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	(void)err;
	struct drained *d = arg;
	if (rec->type == PMU_RECORD_AUXTRACE) {
		const struct pmu_auxtrace *a = (const struct pmu_auxtrace *)rec;
		d->slots += a->size / PMURT_DTL_SLOT_SIZE;
		d->chunks++;
	} else if (rec->type == PMU_RECORD_AUXTRACE_ERROR) {
		d->errors++;
		snprintf(d->msg, sizeof d->msg, "%s", (const char *)rec + 48);
	}
	return 0;
}

static int refuse_all(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	(void)arg, (void)rec;
	pmurt_set_error(err, -EIO, "refused");
	return -EIO;
}

/* The drain's arithmetic on a hand-set control page: an overrun of many
 * laps counted lap by lap and in whole laps, the newest area's worth
 * delivered but for the slots the driver rewrites past its threshold, a
 * head behind the tail refused; losses counted once when the sink fails. */
static void test_drain_edges(void)
{
	static struct perf_event_mmap_page ctl;
	static unsigned char area[8192];
	struct pmu_aux aux = {.fd = -1, .ctl = &ctl, .data = area, .size = sizeof area,
			      .filled = pmu_aux_filled(sizeof area), .cpu = 5};
	uint64_t slots = aux.filled / PMURT_DTL_SLOT_SIZE;   /* 170 */
	struct drained d = {0};
	struct pmurt_error err = {0};
	ctl.aux_tail = 0;
	ctl.aux_head = 10 * sizeof area + 5 * PMURT_DTL_SLOT_SIZE;
	long n = pmu_aux_drain(&aux, count_drained, &d, &err);
	/* the newest area's worth, less lap 9's slots 5..83: once a lap went
	 * past its threshold, the driver's next polls copied up to 84 entries
	 * to its first slots without reporting them */
	CHECK(n == 2 && d.slots == slots - 79 && d.chunks == 2, "%ld chunks, %llu slots: %s", n,
	      (unsigned long long)d.slots, err.message);
	CHECK(aux.stats.lost_headers == 1 &&
	      aux.stats.lost_entries == slots - 1 + 8 * slots + 5 + 79,
	      "lost %llu", (unsigned long long)aux.stats.lost_entries);
	CHECK(aux.stats.stale_bytes == sizeof area - aux.filled && ctl.aux_tail == ctl.aux_head,
	      "stale %llu", (unsigned long long)aux.stats.stale_bytes);
	char want[64];
	snprintf(want, sizeof want, "vpa_dtl: %llu entries overwritten unread",
		 (unsigned long long)aux.stats.lost_entries);
	CHECK(d.errors == 1 && strcmp(d.msg, want) == 0, "'%s'", d.msg);
	ctl.aux_head = ctl.aux_tail - 48;
	CHECK(pmu_aux_drain(&aux, count_drained, &d, &err) == -EBADMSG &&
	      strstr(err.message, "AUX area of CPU 5: aux_head") && strstr(err.message, "behind"),
	      "%s", err.message);
	/* a sink that fails: the overwritten slots counted before it, once; the
	 * next drain says them and hands out the rest, counting nothing again */
	struct pmu_aux again = {.fd = -1, .ctl = &ctl, .data = area, .size = sizeof area,
				.filled = pmu_aux_filled(sizeof area), .cpu = 5};
	ctl.aux_tail = 0;
	ctl.aux_head = sizeof area + 90 * PMURT_DTL_SLOT_SIZE;
	CHECK(pmu_aux_drain(&again, refuse_all, NULL, &err) == -EIO, "the sink's error");
	uint64_t lost = again.stats.lost_entries;
	struct drained d2 = {0};
	CHECK(lost == 89 && pmu_aux_drain(&again, count_drained, &d2, &err) >= 0 &&
	      again.stats.lost_entries == lost && d2.errors == 1 &&
	      strcmp(d2.msg, "vpa_dtl: 89 entries overwritten unread") == 0,
	      "lost %llu then %llu: '%s'", (unsigned long long)lost,
	      (unsigned long long)again.stats.lost_entries, d2.msg);
}

/* What the kernel is handed, and what is refused before it. */
static void test_open(struct pmurt_host *host)
{
	struct pmu_sim *sim = NULL;
	CHECK(pmu_sim_new(&sim, &dtl_pmu, 1) == 0, "sim");
	host->h.sys = pmu_sim_sys(sim);
	struct pmu_evlist list = {0};
	open_dtl(host, &list, 5000000);
	struct pmu_session *s = NULL;
	struct pmurt_error err = {0};
	struct pmu_record_opts task = {.pid = getpid(), .aux_pages = 4};
	CHECK(pmu_session_open(&s, &host->h, &list, &task, &err) == -EINVAL &&
	      pmu_sim_opens(sim) == 0 && strstr(err.message, "vpa_dtl is per CPU only"),
	      "per task: %d opens: %s", pmu_sim_opens(sim), err.message);
	const int cpus[] = {3};
	struct pmu_record_opts bad = {.pid = -1, .cpus = cpus, .ncpus = 1, .aux_pages = 3};
	CHECK(pmu_session_open(&s, &host->h, &list, &bad, &err) == -EINVAL &&
	      strstr(err.message, "AUX area: 3 pages is not a power of two"), "%s", err.message);
	CHECK(pmu_sim_open_fds(sim) == 0, "closed after a failure");
	struct pmu_record_opts ok = {.pid = -1, .cpus = cpus, .ncpus = 1, .aux_pages = 2};
	CHECK(pmu_session_open(&s, &host->h, &list, &ok, &err) == 0, "%s", err.message);
	const struct perf_event_attr *a = pmu_sim_attr(sim, 1001);
	CHECK(a && a->type == DTL_TYPE && a->config == 7 && a->sample_period == 5000000 &&
	      !a->freq && !a->exclude_user && !a->exclude_kernel && !a->exclude_hv &&
	      !a->exclude_idle && !a->exclude_guest && !a->exclude_host && a->sample_id_all &&
	      (a->sample_type & PERF_SAMPLE_TIME), "the attr vpa_dtl is opened with");
	pmu_session_close(s);
	pmu_evlist_free(&list);
	pmu_sim_free(sim);
}

static int ignore(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	(void)arg, (void)rec, (void)err;
	return 0;
}

/* PERF_RECORD_AUX flags counted as they come (the driver sets none; other
 * AUX PMUs and later drivers do), and the AUX wake-up: poll reports the
 * ring readable when aux_head passed half the area, not before. */
static void test_flags_and_wakeup(struct pmurt_host *host)
{
	struct pmu_sim *sim = NULL;
	struct pmu_sim_dtl *drv = NULL;
	struct pmu_sim_dtl_opts o = {.seed = 5};
	CHECK(pmu_sim_new(&sim, &dtl_pmu, 1) == 0 && pmu_sim_dtl_new(&drv, sim, DTL_TYPE, &o) == 0,
	      "setup");
	host->h.sys = pmu_sim_sys(sim);
	struct pmu_evlist list = {0};
	open_dtl(host, &list, 1000000);
	const int cpus[] = {2};
	struct pmu_record_opts ro = {.pid = -1, .cpus = cpus, .ncpus = 1, .aux_pages = 2};
	struct pmu_session *s = NULL;
	struct pmurt_error err = {0};
	CHECK(pmu_session_open(&s, &host->h, &list, &ro, &err) == 0, "%s", err.message);
	if (!s)
		goto out;
	int fd = 1000;
	uint64_t rec[4 + 6];
	struct perf_event_header h = {.type = PERF_RECORD_AUX};
	for (uint64_t flags = 0; flags < 16; flags++) {
		rec[1] = flags * 48;
		rec[2] = 48;
		rec[3] = flags;
		h.size = (uint16_t)(32 + pmu_sim_trailer(sim, fd, 0, 0, flags, rec + 4));
		memcpy(rec, &h, sizeof h);
		CHECK(pmu_sim_ring_write(sim, fd, rec, h.size) == 0, "AUX record");
	}
	CHECK(pmu_session_drain(s, ignore, NULL, &err) == 0, "%s", err.message);
	const struct pmu_record_stats *st = pmu_session_stats(s);
	CHECK(st->aux_records == 16 && st->aux_truncated == 8 && st->aux_overwrite == 8 &&
	      st->aux_partial == 8 && st->aux_collision == 8, "flags counted");
	CHECK(pmu_session_enable(s, &err) == 0, "%s", err.message);
	/* 8 KiB area: the mark is 4096 bytes, 86 slots with the header */
	const struct pmurt_sys *sys = pmu_sim_sys(sim);
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	pmu_sim_dtl_tick(drv, 80);
	CHECK(pmu_session_drain(s, ignore, NULL, &err) == 0, "%s", err.message);
	CHECK(sys->poll(sys->ctx, &pfd, 1, 0) == 0, "81 slots: not yet");
	pmu_sim_dtl_tick(drv, 10);
	CHECK(pmu_session_drain(s, ignore, NULL, &err) == 0, "%s", err.message);
	CHECK(sys->poll(sys->ctx, &pfd, 1, 0) == 1 && pfd.revents == POLLIN,
	      "91 slots: past the watermark");
	CHECK(sys->poll(sys->ctx, &pfd, 1, 0) == 0, "woken once");
	/* a full area: the core disables the event; the drain never enables
	 * it again (the simulated kernel aborts with the kernel's Oops if it
	 * does) but closes it and opens a new one, enabled, and drains what
	 * the old one left; not after the session was disabled */
	for (int i = 0; i < 6; i++)
		pmu_sim_dtl_tick(drv, 84);
	CHECK(!pmu_sim_enabled(sim, fd), "the core disabled the full area's event");
	CHECK(pmu_session_drain(s, ignore, NULL, &err) == 0 && pmu_session_stats(s)->aux.overruns == 1 &&
	      pmu_session_stats(s)->aux.reopens == 1, "reopened: %s", err.message);
	int fds[4];
	CHECK(pmu_sim_fds_of(sim, DTL_TYPE, fds, 4) == 1 && fds[0] != fd &&
	      pmu_sim_enabled(sim, fds[0]) && pmu_sim_open_fds(sim) == 1,
	      "one event, a new one, enabled");
	pmu_sim_dtl_tick(drv, 10);
	CHECK(pmu_session_drain(s, ignore, NULL, &err) == 0 &&
	      pmu_session_stats(s)->aux.chunks > 0, "the new event's entries: %s", err.message);
	for (int i = 0; i < 6; i++)
		pmu_sim_dtl_tick(drv, 84);
	CHECK(pmu_session_disable(s, &err) == 0 && pmu_session_drain(s, ignore, NULL, &err) == 0 &&
	      pmu_session_stats(s)->aux.reopens == 1, "no reopening after the session's end");
	/* enabled again after a disable: a new event, never the old one */
	CHECK(pmu_session_enable(s, &err) == 0 && pmu_session_stats(s)->aux.reopens == 1,
	      "enable: %s", err.message);
	CHECK(pmu_session_drain(s, ignore, NULL, &err) == 0 &&
	      pmu_session_stats(s)->aux.reopens == 2, "counted at the drain: %s", err.message);
out:
	pmu_session_close(s);
	pmu_evlist_free(&list);
	pmu_sim_dtl_free(drv);
	pmu_sim_free(sim);
}

/* The public API (pmurt_dtl_capture_*): the chunks it hands out decode to
 * every entry written, its options refused as the driver would. */
struct api_run {
	struct pmu_sim_dtl *drv;
	uint64_t entries, headers;
	int polls;
};

static void api_tick(void *arg)
{
	struct api_run *r = arg;
	pmu_sim_dtl_tick(r->drv, 50);
	r->polls++;
}

static int api_chunk(void *arg, int cpu, uint64_t aux_offset, const void *data, size_t len)
{
	struct api_run *r = arg;
	struct pmurt_dtl_cursor c;
	struct pmurt_dtl_slot s;
	struct pmurt_error err = {0};
	pmurt_dtl_cursor_init(&c, data, len, aux_offset, 0, aux_offset == 0);
	int rc;
	while ((rc = pmurt_dtl_next(&c, &s, &err)) > 0) {
		r->headers += s.kind == PMURT_DTL_HEADER;
		r->entries += s.kind == PMURT_DTL_ENTRY;
	}
	CHECK(rc == 0 && cpu >= 0 && cpu < 4 && len % PMURT_DTL_SLOT_SIZE == 0,
	      "chunk of CPU %d: %s", cpu, err.message);
	return 0;
}

static void test_public_api(struct pmurt_host *host)
{
	struct pmu_sim *sim = NULL;
	struct api_run r = {0};
	struct pmu_sim_dtl_opts o = {.seed = 77};
	CHECK(pmu_sim_new(&sim, &dtl_pmu, 1) == 0 && pmu_sim_dtl_new(&r.drv, sim, DTL_TYPE, &o) == 0,
	      "setup");
	pmu_sim_on_poll(sim, api_tick, &r);
	host->h.sys = pmu_sim_sys(sim);
	struct pmurt_dtl_capture *c = NULL;
	struct pmurt_error err = {0};
	const int cpus[] = {1, 3};
	struct pmurt_dtl_capture_opts co = PMURT_OPTS_INIT(pmurt_dtl_capture_opts, .cpus = cpus,
							   .ncpus = 2, .config = 3);
	CHECK(pmurt_dtl_capture_open(&c, host, &co, &err) == -EINVAL && !c &&
	      strstr(err.message, "config must be dtl_cede (0x1)") && pmu_sim_opens(sim) == 0,
	      "config 3: %s", err.message);
	co.config = 0;
	co.period_ns = 999999;
	CHECK(pmurt_dtl_capture_open(&c, host, &co, &err) == -EINVAL &&
	      strstr(err.message, "at most every 1 ms"), "period: %s", err.message);
	co.period_ns = 0;
	co.aux_pages = 2;
	CHECK(pmurt_dtl_capture_open(&c, host, &co, &err) == 0, "open: %s", err.message);
	const struct perf_event_attr *a = pmu_sim_attr(sim, 1000);
	CHECK(a && a->config == 7 && a->sample_period == 1000000 && !a->mmap && !a->comm &&
	      !a->task, "dtl_all, 1 ms, no side band");
	CHECK(c && pmurt_dtl_capture_enable(c, &err) == 0, "enable: %s", err.message);
	for (int i = 0; c && i < 40; i++)
		CHECK(pmurt_dtl_capture_poll(c, 10, api_chunk, &r, &err) == 0, "poll: %s",
		      err.message);
	/* disable, enable: new events (the old ones enabled again would crash
	 * the kernel; the simulated one aborts), their headers handed out */
	CHECK(c && pmurt_dtl_capture_disable(c, &err) == 0 &&
	      pmurt_dtl_capture_poll(c, 10, api_chunk, &r, &err) == 0 &&
	      pmurt_dtl_capture_enable(c, &err) == 0, "disable, enable: %s", err.message);
	for (int i = 0; c && i < 10; i++)
		CHECK(pmurt_dtl_capture_poll(c, 10, api_chunk, &r, &err) == 0, "poll: %s",
		      err.message);
	struct pmurt_dtl_capture_stats st = PMURT_OPTS_INIT(pmurt_dtl_capture_stats);
	if (c)
		pmurt_dtl_capture_stats(c, &st);
	const struct pmu_sim_dtl_stats *ds = pmu_sim_dtl_stats(r.drv);
	CHECK(r.polls == 51 && r.entries == ds->reported && r.headers == 4 && ds->wraps > 0 &&
	      st.lost_entries == 0 && st.stale_bytes > 0 && st.aux_records == ds->aux_records &&
	      st.reopens == 2 && st.wrap_polls == ds->tail_outputs &&
	      st.wrap_lost_min <= ds->wrap_lost && ds->wrap_lost <= st.wrap_lost_max,
	      "%llu entries of %llu reported, %llu headers, %llu wraps, %llu reopens, wrap "
	      "losses %llu polls %llu-%llu of %llu", (unsigned long long)r.entries,
	      (unsigned long long)ds->reported, (unsigned long long)r.headers,
	      (unsigned long long)ds->wraps, (unsigned long long)st.reopens,
	      (unsigned long long)st.wrap_polls, (unsigned long long)st.wrap_lost_min,
	      (unsigned long long)st.wrap_lost_max, (unsigned long long)ds->wrap_lost);
	/* an older caller's smaller struct: filled up to its size only */
	struct pmurt_dtl_capture_stats old = {.sz = offsetof(struct pmurt_dtl_capture_stats,
							      wrap_polls)};
	memset((char *)&old + old.sz, 0x5a, sizeof old - old.sz);
	if (c)
		pmurt_dtl_capture_stats(c, &old);
	CHECK(old.chunks == st.chunks && old.wrap_polls == 0x5a5a5a5a5a5a5a5aull,
	      "the sz convention");
	pmurt_dtl_capture_close(c);
	CHECK(pmu_sim_open_fds(sim) == 0, "closed");
	pmu_sim_dtl_free(r.drv);
	pmu_sim_free(sim);
}

/* The AUX mapping against this machine's kernel, on a software event,
 * which has no AUX support: the kernel checks aux_offset (past the data
 * ring, equal to the mmap offset), aux_size and the power of two before it
 * finds the PMU cannot have an AUX area (perf_mmap, rb_alloc_aux):
 * EOPNOTSUPP says the control page and the mapping were set up right, where
 * an offset off by a page gives EINVAL. */
static void test_real_aux_map(void)
{
	const struct pmurt_sys *sys = pmu_sys_real();
	struct perf_event_attr a = {.size = sizeof a, .type = PERF_TYPE_SOFTWARE,
				    .config = PERF_COUNT_SW_TASK_CLOCK, .sample_period = 1000000,
				    .disabled = 1, .exclude_kernel = 1};
	int fd = sys->event_open(NULL, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	CHECK(fd >= 0, "task-clock on this kernel: %s", strerror(-fd));
	if (fd < 0)
		return;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct pmu_ring ring;
	struct pmu_aux aux;
	struct pmurt_error err = {0};
	CHECK(pmu_ring_map(&ring, sys, fd, 2, page, &err) == 0, "ring: %s", err.message);
	if (ring.base) {
		int rc = pmu_aux_map(&aux, &ring, 4, page, 0, 0, &err);
		CHECK(rc == -EOPNOTSUPP && strstr(err.message, "AUX area: mmap of 16384 bytes (4 "
						 "pages) at offset 12288 failed"),
		      "%d: %s", rc, err.message);
		int e = 0;
		void *p = sys->mmap(NULL, fd, 4 * page, (off_t)(4 * page), &e);
		CHECK(!p && e == -EINVAL, "an offset the control page does not give: %d", e);
		pmu_ring_unmap(&ring);
	}
	sys->close(NULL, fd);
}

/* This machine's sysfs has no vpa_dtl (x86): the driver's absence
 * explained before any system call. */
static void test_no_vpa_dtl(void)
{
	struct pmurt_host *real = NULL;
	struct pmurt_error err = {0};
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .sysfs = "/sys");
	CHECK(pmurt_host_open(&real, &o, &err) == 0, "%s", err.message);
	if (!real || access("/sys/bus/event_source/devices/vpa_dtl", F_OK) == 0) {
		CHECK(!real, "this host has vpa_dtl: not the machine this test is for");
		pmurt_host_close(real);
		return;
	}
	struct pmurt_dtl_capture *c = NULL;
	CHECK(pmurt_dtl_capture_open(&c, real, NULL, &err) == -ENOENT && !c &&
	      strstr(err.message, "shared-processor LPAR under PowerVM"), "%s", err.message);
	pmurt_host_close(real);
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: dtl_capture_test SYSFS TMPDIR [SEED_OUT]\n");
		return 2;
	}
	if (sysconf(_SC_PAGESIZE) != 4096) {
		fprintf(stderr, "the scenarios assume 4 KiB pages\n");
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
	test_drain_edges();
	test_open(host);
	test_flags_and_wakeup(host);
	test_public_api(host);
	test_no_vpa_dtl();
	test_real_aux_map();
	/* aux 1 page: 84 slots and a 64-byte stale tail; 2: 170 and 32; 8:
	 * 682 and 32.  Bursts up to 200 overflow the hypervisor's 85 and a
	 * one-page area; up to 6 expiries between drains is a slow reader; 90
	 * outputs of 64 bytes overflow a one-page data ring. */
	static const struct scenario shapes[] = {
		{0, 1, 1, 60, 1, 60, NULL},     /* a fast reader, small bursts */
		{0, 1, 1, 200, 6, 40, NULL},    /* bursts past everything, slow */
		{0, 2, 1, 120, 3, 80, NULL},
		{0, 8, 2, 90, 4, 120, NULL},
		{0, 2, 1, 40, 12, 50, NULL},    /* very slow: the core refuses */
		{0, 8, 1, 10, 90, 30, NULL},    /* many small outputs: the data
		                                   ring fills too (PERF_RECORD_LOST) */
	};
	struct totals t = {0};
	int runs = 0;
	for (uint64_t seed = 1; seed <= 60; seed++) {
		struct scenario sc = shapes[seed % (sizeof shapes / sizeof shapes[0])];
		sc.seed = seed;
		run(host, argv[2], &sc, &t);
		runs++;
	}
	if (argc == 4) {
		struct scenario small = {1000, 1, 1, 120, 3, 6, argv[3]};
		run(host, argv[2], &small, &t);
	}
	/* the scenarios must have reached every case they claim to test */
	CHECK(t.wraps > 100 && t.stale > 0 && t.lost > 0 && t.refused > 0 && t.hv_dropped > 0 &&
	      t.batch_dropped > 0 && t.lost_ring > 0 && t.wrap_lost > 0 && t.reopens > 0,
	      "coverage: wraps %llu stale %llu lost %llu refused %llu hv %llu batch %llu ring "
	      "lost %llu wrap lost %llu reopens %llu", (unsigned long long)t.wraps,
	      (unsigned long long)t.stale, (unsigned long long)t.lost,
	      (unsigned long long)t.refused, (unsigned long long)t.hv_dropped,
	      (unsigned long long)t.batch_dropped, (unsigned long long)t.lost_ring,
	      (unsigned long long)t.wrap_lost, (unsigned long long)t.reopens);
	printf("%d runs: %llu entries written, %llu lost to a slow reader, %llu lost at the "
	       "driver's wraps, %llu wraps, %llu refused outputs, %llu reopens\n", runs,
	       (unsigned long long)t.written, (unsigned long long)t.lost,
	       (unsigned long long)t.wrap_lost, (unsigned long long)t.wraps,
	       (unsigned long long)t.refused, (unsigned long long)t.reopens);
	pmurt_host_close(host);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
