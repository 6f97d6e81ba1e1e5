/*
 * record.c - a sampling session (record.h): the attrs as perf record sets
 * them (tools/perf/util/evsel.c evsel__config), one fd per event, CPU and
 * thread, one ring per CPU, the poll/drain loop and its counts.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "perf_int.h"
#include "perfdata.h"
#include "record.h"
#include "synth.h"

/* tools/perf/util/event.h: user-space record types perf adds to the file */
#define PMU_RECORD_FINISHED_ROUND 68
#define DEFAULT_DATA_PAGES 128   /* 512 KiB with 4 KiB pages, perf's default */
#define DEFAULT_FREQ 4000        /* perf record's default -F */

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

struct pmu_session {
	const struct pmu_host *host;
	const struct pmu_sys *sys;
	const struct pmu_evlist *list;
	struct pmu_record_opts opts;
	int *cpus;
	int ncpus;
	pid_t *threads;          /* { -1 } when CPU-wide */
	int nthreads;
	struct perf_event_attr *attrs;  /* per event */
	int *fds;                /* [event][cpu][thread], -1 when not open */
	uint64_t *ids;           /* likewise */
	struct pmu_ring *rings;  /* per CPU */
	struct pmu_aux *auxes;   /* per CPU, with opts.aux_pages */
	struct pollfd *pfds;     /* per CPU: the ring's fd */
	struct pmu_record_stats stats;
	pmu_span_fn span;        /* the rings' records in spans, or NULL */
	int stop;                /* atomic: pmu_session_stop */
	bool hung_up;            /* every ring's task events exited */
	size_t page_size;
};

static int nfds_per_event(const struct pmu_session *s)
{
	return s->ncpus * s->nthreads;
}

static int *fd_at(const struct pmu_session *s, int ev, int cpu, int thread)
{
	return &s->fds[(ev * s->ncpus + cpu) * s->nthreads + thread];
}

/* --- targets ----------------------------------------------------------------- */

int pmu_cpulist_parse(const char *text, int **cpus, int *ncpus, struct pmurt_error *err)
{
	const char *p = text;
	*cpus = NULL;
	*ncpus = 0;
	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p || lo < 0 || lo > 65535)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo || hi > 65535)
				goto bad;
		}
		if (*end != ',' && *end != '\n' && *end)
			goto bad;
		for (long c = lo; c <= hi; c++) {
			int *v = realloc(*cpus, sizeof(int) * (size_t)(*ncpus + 1));
			if (!v) {
				pmurt_set_error(err, -ENOMEM, "CPU list '%s': out of memory", text);
				return -ENOMEM;
			}
			*cpus = v;
			(*cpus)[(*ncpus)++] = (int)c;
		}
		p = *end == ',' ? end + 1 : end;
	}
	if (*ncpus > 0)
		return 0;
bad:
	free(*cpus);
	*cpus = NULL;
	*ncpus = 0;
	pmurt_set_error(err, -EINVAL, "'%s' is not a CPU list (such as 0-3,8)", text);
	return -EINVAL;
}

static int online_cpus(struct pmu_session *s, struct pmurt_error *err)
{
	char path[512], buf[4096];
	snprintf(path, sizeof path, "%s/devices/system/cpu/online",
		 s->host->sysfs[0] ? s->host->sysfs : "/sys");
	FILE *f = fopen(path, "r");
	if (!f) {
		int rc = -errno;
		pmurt_set_error(err, rc, "%s: %s", path, strerror(-rc));
		return rc;
	}
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	int rc = pmu_cpulist_parse(buf, &s->cpus, &s->ncpus, err);
	if (rc == -EINVAL) {
		buf[strcspn(buf, "\n")] = '\0';
		pmurt_clear_error(err);
		pmurt_set_error(err, rc, "%s: '%s' is not a CPU list", path, buf);
	}
	return rc;
}

static int add_thread(struct pmu_session *s, pid_t tid)
{
	pid_t *v = realloc(s->threads, sizeof(pid_t) * (size_t)(s->nthreads + 1));
	if (!v)
		return -ENOMEM;
	s->threads = v;
	s->threads[s->nthreads++] = tid;
	return 0;
}

/* A task's threads (/proc/PID/task), as perf record -p opens each; a
 * workload (not yet exec'd, one thread) and CPU-wide sessions have one. */
static int find_threads(struct pmu_session *s, struct pmurt_error *err)
{
	if (s->opts.pid < 0 || s->opts.workload)
		return add_thread(s, s->opts.pid);
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", (int)s->opts.pid);
	DIR *d = opendir(path);
	if (!d) {
		int rc = -errno;
		pmurt_set_error(err, rc == -ENOENT ? -ESRCH : rc, "process %d: %s",
				(int)s->opts.pid, rc == -ENOENT ? "no such process" : strerror(-rc));
		return rc == -ENOENT ? -ESRCH : rc;
	}
	int rc = 0;
	struct dirent *de;
	while (rc == 0 && (de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			rc = add_thread(s, (pid_t)atoi(de->d_name));
	closedir(d);
	if (rc < 0)
		pmurt_set_error(err, rc, "process %d: out of memory", (int)s->opts.pid);
	return rc;
}

/* --- attrs ---------------------------------------------------------------------- */

/* evsel__config's choices for sampling: what each sample carries, the
 * sample_id_all trailer, the side-band records on the first event only,
 * leaders disabled (a workload's enabled at its exec). */
void pmu_record_attr(const struct pmu_evlist *list, int i, const struct pmu_record_opts *o,
		     struct perf_event_attr *a)
{
	const struct pmu_evsel *e = &list->v[i];
	*a = e->attr;
	a->size = sizeof *a;
	a->sample_type = SAMPLE_TYPE | (o->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	if (a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_RAW;   /* the tracepoint's fields, as evsel__config */
	a->sample_id_all = 1;
	if (o->period) {
		a->freq = 0;
		a->sample_period = o->period;
	} else if (o->freq || (!a->freq && !a->sample_period)) {
		a->freq = 1;
		a->sample_freq = o->freq ? o->freq : DEFAULT_FREQ;
	}
	bool leader = e->leader == i;
	a->disabled = leader;
	a->enable_on_exec = leader && o->workload;
	a->inherit = o->pid >= 0 && !o->no_inherit;
	bool first = i == 0 && !o->no_side_band;
	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = first;
}

/* --- opening -------------------------------------------------------------------- */

static int open_one(struct pmu_session *s, int ev, int c, int t, struct pmurt_error *err)
{
	const struct pmu_evsel *e = &s->list->v[ev];
	int group_fd = e->leader == ev ? -1 : *fd_at(s, e->leader, c, t);
	int fd = s->sys->event_open(s->sys->ctx, &s->attrs[ev], s->threads[t], s->cpus[c],
				    group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		/* the cause in words a user can act on (explain.c) */
		pmu_explain_open(s->host, s->list, ev, s->threads[t], s->cpus[c], fd, err);
		return fd;
	}
	*fd_at(s, ev, c, t) = fd;
	int idx = (ev * s->ncpus + c) * s->nthreads + t;
	int rc = s->sys->ioctl(s->sys->ctx, fd, PERF_EVENT_IOC_ID, (unsigned long)&s->ids[idx]);
	if (rc < 0)
		pmurt_set_error(err, rc, "PERF_EVENT_IOC_ID on '%s' failed: %s", e->name,
				strerror(-rc));
	return rc < 0 ? rc : 0;
}

/* One ring per CPU, on that CPU's first fd; every other fd of the CPU
 * writes into it (PERF_EVENT_IOC_SET_OUTPUT, as perf's evlist mmap does). */
static int map_rings(struct pmu_session *s, struct pmurt_error *err)
{
	unsigned pages = s->opts.data_pages ? s->opts.data_pages : DEFAULT_DATA_PAGES;
	int nev = s->list->n;
	for (int c = 0; c < s->ncpus; c++) {
		int ring_fd = *fd_at(s, 0, c, 0);
		int rc = pmu_ring_map(&s->rings[c], s->sys, ring_fd, pages, s->page_size, err);
		if (rc == 0 && s->opts.aux_pages)
			rc = pmu_aux_map(&s->auxes[c], &s->rings[c], s->opts.aux_pages, s->page_size,
					 (uint32_t)c, s->cpus[c], err);
		if (rc < 0)
			return rc;
		s->pfds[c] = (struct pollfd){.fd = ring_fd, .events = POLLIN};
		for (int ev = 0; ev < nev; ev++)
			for (int t = 0; t < s->nthreads; t++) {
				int fd = *fd_at(s, ev, c, t);
				if (fd == ring_fd)
					continue;
				rc = s->sys->ioctl(s->sys->ctx, fd, PERF_EVENT_IOC_SET_OUTPUT,
						   (unsigned long)ring_fd);
				if (rc < 0) {
					pmurt_set_error(err, rc, "redirecting '%s' into the ring of "
							"CPU %d failed: %s", s->list->v[ev].name,
							s->cpus[c], strerror(-rc));
					return rc;
				}
			}
	}
	return 0;
}

static int alloc_session(struct pmu_session *s)
{
	size_t nfds = (size_t)s->list->n * (size_t)nfds_per_event(s);
	s->fds = malloc(nfds * sizeof *s->fds);
	if (!s->fds)
		return -ENOMEM;
	for (size_t i = 0; i < nfds; i++)
		s->fds[i] = -1; /* before anything can fail: close reads them */
	s->attrs = calloc((size_t)s->list->n, sizeof *s->attrs);
	s->ids = calloc(nfds, sizeof *s->ids);
	s->rings = calloc((size_t)s->ncpus, sizeof *s->rings);
	s->pfds = calloc((size_t)s->ncpus, sizeof *s->pfds);
	s->auxes = calloc((size_t)s->ncpus, sizeof *s->auxes);
	return s->attrs && s->ids && s->rings && s->pfds && s->auxes ? 0 : -ENOMEM;
}

/* A PMU without a task context (a cpumask: hv_24x7; vpa_dtl, which has
 * none) cannot follow a task, not even on a given CPU: refused before any
 * system call, as the kernel would with -EINVAL (perf_event_alloc for a
 * perf_invalid_context PMU with a task) -- for vpa_dtl after its event_init,
 * which crashes with cpu -1 (evlist.h pmu_is_vpa_dtl). */
static int refuse_per_task(struct pmu_session *s, struct pmurt_error *err)
{
	for (int ev = 0; s->opts.pid >= 0 && ev < s->list->n; ev++)
		if (s->list->v[ev].per_cpu_only) {
			pmu_explain_open(s->host, s->list, ev, s->opts.pid, -1, -EINVAL, err);
			return -EINVAL;
		}
	return 0;
}

static int open_all(struct pmu_session *s, struct pmurt_error *err)
{
	int rc = refuse_per_task(s, err);
	if (rc < 0)
		return rc;
	rc = alloc_session(s);
	if (rc < 0) {
		pmurt_set_error(err, rc, "opening the recording: out of memory");
		return rc;
	}
	for (int ev = 0; ev < s->list->n; ev++)
		pmu_record_attr(s->list, ev, &s->opts, &s->attrs[ev]);
	for (int c = 0; c < s->ncpus; c++)
		for (int t = 0; t < s->nthreads; t++)
			for (int ev = 0; ev < s->list->n; ev++) {
				rc = open_one(s, ev, c, t, err);
				if (rc < 0)
					return rc;
			}
	return map_rings(s, err);
}

int pmu_session_open(struct pmu_session **out, const struct pmu_host *host,
		     const struct pmu_evlist *list, const struct pmu_record_opts *opts,
		     struct pmurt_error *err)
{
	pmurt_clear_error(err);
	*out = NULL;
	if (list->n < 1) {
		pmurt_set_error(err, -EINVAL, "recording: no event to sample");
		return -EINVAL;
	}
	struct pmu_session *s = calloc(1, sizeof *s);
	if (!s) {
		pmurt_set_error(err, -ENOMEM, "recording: out of memory");
		return -ENOMEM;
	}
	s->host = host;
	s->sys = host->sys ? host->sys : pmu_sys_real();
	s->list = list;
	s->opts = *opts;
	s->page_size = (size_t)sysconf(_SC_PAGESIZE);
	int rc;
	if (opts->cpus) {
		s->cpus = malloc(sizeof(int) * (size_t)opts->ncpus);
		rc = s->cpus ? 0 : -ENOMEM;
		if (s->cpus) {
			memcpy(s->cpus, opts->cpus, sizeof(int) * (size_t)opts->ncpus);
			s->ncpus = opts->ncpus;
		} else {
			pmurt_set_error(err, rc, "recording: out of memory");
		}
	} else {
		rc = online_cpus(s, err);
	}
	if (rc == 0)
		rc = find_threads(s, err);
	if (rc == 0)
		rc = open_all(s, err);
	if (rc < 0) {
		pmu_session_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

void pmu_session_close(struct pmu_session *s)
{
	if (!s)
		return;
	for (int c = 0; s->auxes && c < s->ncpus; c++)
		pmu_aux_unmap(&s->auxes[c]);
	for (int c = 0; s->rings && c < s->ncpus; c++)
		pmu_ring_unmap(&s->rings[c]);
	if (s->fds)
		for (int i = 0; i < s->list->n * nfds_per_event(s); i++)
			if (s->fds[i] >= 0)
				s->sys->close(s->sys->ctx, s->fds[i]);
	free(s->cpus);
	free(s->threads);
	free(s->attrs);
	free(s->fds);
	free(s->ids);
	free(s->rings);
	free(s->pfds);
	free(s->auxes);
	free(s);
}

/* --- what the file needs ---------------------------------------------------------- */

const struct perf_event_attr *pmu_session_attr(const struct pmu_session *s, int i)
{
	return i >= 0 && i < s->list->n ? &s->attrs[i] : NULL;
}

const uint64_t *pmu_session_ids(const struct pmu_session *s, int i, int *nids)
{
	*nids = nfds_per_event(s);
	return &s->ids[(size_t)i * (size_t)*nids];
}

/* The trailer of the first event's sample_type (perfdata/sample.c). */
size_t pmu_session_id_hdr_size(const struct pmu_session *s)
{
	return pd_trailer_size(s->attrs[0].sample_type);
}

const struct pmu_record_stats *pmu_session_stats(const struct pmu_session *s)
{
	return &s->stats;
}

const int *pmu_session_cpus(const struct pmu_session *s, int *ncpus)
{
	*ncpus = s->ncpus;
	return s->cpus;
}

/* --- records out -------------------------------------------------------------------- */

struct counting_sink {
	struct pmu_session *s;
	pmu_record_fn sink;
	void *arg;
};

/* Counts a record: samples, and the losses the kernel reports
 * (PERF_RECORD_LOST {id, lost}, PERF_RECORD_LOST_SAMPLES {lost}). */
static int count_only(void *arg, const struct perf_event_header *rec,
		      struct pmurt_error *err)
{
	(void)err;
	struct counting_sink *cs = arg;
	struct pmu_record_stats *st = &cs->s->stats;
	const uint64_t *body = (const uint64_t *)(rec + 1);
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		st->samples++;
		break;
	case PERF_RECORD_LOST:
		if (rec->size >= sizeof *rec + 16) {
			st->lost_records++;
			st->lost += body[1];
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (rec->size >= sizeof *rec + 8)
			st->lost_samples += body[0];
		break;
	case PERF_RECORD_AUX: /* aux_offset, aux_size, flags */
		if (rec->size >= sizeof *rec + 24) {
			st->aux_records++;
			st->aux_truncated += (body[2] & PERF_AUX_FLAG_TRUNCATED) != 0;
			st->aux_overwrite += (body[2] & PERF_AUX_FLAG_OVERWRITE) != 0;
			st->aux_partial += (body[2] & PERF_AUX_FLAG_PARTIAL) != 0;
			st->aux_collision += (body[2] & PERF_AUX_FLAG_COLLISION) != 0;
		}
		break;
	case PMU_RECORD_AUXTRACE:
		st->bytes += ((const struct pmu_auxtrace *)rec)->size;
		break;
	}
	st->records++;
	st->bytes += rec->size;
	return 0;
}

/* Counts every record on its way to the sink. */
static int count_record(void *arg, const struct perf_event_header *rec,
			struct pmurt_error *err)
{
	struct counting_sink *cs = arg;
	count_only(arg, rec, err);
	return cs->sink(cs->arg, rec, err);
}

static int span_out(void *arg, const void *recs, size_t len, struct pmurt_error *err)
{
	struct counting_sink *cs = arg;
	return cs->s->span(cs->arg, recs, len, err);
}

void pmu_session_span_sink(struct pmu_session *s, pmu_span_fn span)
{
	s->span = span;
}

int pmu_session_synthesize(struct pmu_session *s, pmu_record_fn sink, void *arg,
			   struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct counting_sink cs = {s, sink, arg};
	struct pmu_synth y = {.proc = "/proc", .id_hdr_size = pmu_session_id_hdr_size(s),
			      .sink = count_record, .arg = &cs};
	int rc = pmu_synth_kernel_mmap(&y, err);
	if (rc < 0)
		return rc;
	if (s->opts.pid < 0)
		return pmu_synth_all(&y, err);
	return pmu_synth_process(&y, s->opts.pid, !s->opts.workload, err);
}

static int ioctl_leaders(struct pmu_session *s, unsigned long request, const char *what,
			 struct pmurt_error *err)
{
	pmurt_clear_error(err);
	for (int ev = 0; ev < s->list->n; ev++) {
		if (s->list->v[ev].leader != ev)
			continue;
		for (int i = 0; i < nfds_per_event(s); i++) {
			int rc = s->sys->ioctl(s->sys->ctx, s->fds[ev * nfds_per_event(s) + i],
					       request, 0);
			if (rc < 0) {
				pmurt_set_error(err, rc, "%s '%s' failed: %s", what,
						s->list->v[ev].name, strerror(-rc));
				return rc;
			}
		}
	}
	return 0;
}

/* The AUX drains enable a full area's event again only while the session
 * is enabled (not in the last drain after pmu_session_disable). */
static void aux_reenable(struct pmu_session *s, bool on)
{
	for (int c = 0; s->opts.aux_pages && c < s->ncpus; c++)
		s->auxes[c].reenable = on;
}

int pmu_session_enable(struct pmu_session *s, struct pmurt_error *err)
{
	int rc = ioctl_leaders(s, PERF_EVENT_IOC_ENABLE, "enabling", err);
	aux_reenable(s, rc == 0);
	return rc;
}

int pmu_session_disable(struct pmu_session *s, struct pmurt_error *err)
{
	aux_reenable(s, false);
	return ioctl_leaders(s, PERF_EVENT_IOC_DISABLE, "disabling", err);
}

/* The AUX areas' counts summed into the session's. */
static void sum_aux_stats(struct pmu_session *s)
{
	struct pmu_aux_stats *t = &s->stats.aux;
	*t = (struct pmu_aux_stats){0};
	for (int c = 0; s->opts.aux_pages && c < s->ncpus; c++) {
		const struct pmu_aux_stats *a = &s->auxes[c].stats;
		t->chunks += a->chunks;
		t->bytes += a->bytes;
		t->stale_bytes += a->stale_bytes;
		t->lost_entries += a->lost_entries;
		t->lost_headers += a->lost_headers;
		t->overruns += a->overruns;
		t->torn_bytes += a->torn_bytes;
	}
}

int pmu_session_drain(struct pmu_session *s, pmu_record_fn sink, void *arg,
		      struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct counting_sink cs = {s, sink, arg};
	long total = 0;
	for (int c = 0; c < s->ncpus; c++) {
		struct pmu_ring *ring = &s->rings[c];
		long n = s->span ? pmu_ring_drain_spans(ring, count_only, span_out, &cs, err)
				 : pmu_ring_drain(ring, count_record, &cs, err);
		if (n >= 0 && s->opts.aux_pages) {
			long k = pmu_aux_drain(&s->auxes[c], count_record, &cs, err);
			n = k < 0 ? k : n + k;
		}
		if (n < 0) {
			sum_aux_stats(s);
			return (int)n;
		}
		total += n;
	}
	sum_aux_stats(s);
	if (total == 0)
		return 0;
	/* tools/perf/builtin-record.c record__mmap_read_all: one round marker
	 * after each pass that wrote something, so that a reader may sort
	 * and flush everything before it */
	struct perf_event_header round = {.type = PMU_RECORD_FINISHED_ROUND,
					  .size = sizeof round};
	int rc = count_record(&cs, &round, err);
	return rc < 0 ? rc : 0;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL); /* a signal ends it early, as poll would */
}

int pmu_session_poll(struct pmu_session *s, int timeout_ms, pmu_record_fn sink,
		     void *arg, struct pmurt_error *err)
{
	if (!pmu_session_stopped(s)) {
		if (!s->sys->poll) {
			sleep_ms(timeout_ms);
		} else {
			int n = s->sys->poll(s->sys->ctx, s->pfds, (nfds_t)s->ncpus, timeout_ms);
			int hung = 0;
			for (int c = 0; n > 0 && c < s->ncpus; c++)
				hung += (s->pfds[c].revents & (POLLHUP | POLLERR)) != 0;
			if (hung == s->ncpus)
				s->hung_up = true;
		}
	}
	return pmu_session_drain(s, sink, arg, err);
}

void pmu_session_stop(struct pmu_session *s)
{
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
}

bool pmu_session_stopped(const struct pmu_session *s)
{
	return __atomic_load_n(&s->stop, __ATOMIC_RELAXED) || s->hung_up;
}
