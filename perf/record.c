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

#include "errors.h"
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
	const struct pmurt_sys *sys;
	const struct pmu_evlist *list;
	struct pmu_record_opts opts;
	int *cpus;
	int ncpus;
	pid_t *threads;          /* { -1 } when CPU-wide */
	int nthreads;
	struct perf_event_attr *attrs;  /* per event */
	int *fds;                /* [event][cpu][thread], -1 when not open */
	uint64_t *ids;           /* likewise */
	int nrings;              /* rings per CPU: 2 with an AUX event and others */
	struct pmu_ring *rings;  /* [cpu][ring]: ring 0 is event 0's (with the AUX
	                            area), ring 1 the other events' */
	struct pmu_aux *auxes;   /* per CPU, with opts.aux_pages */
	struct aux_life *lives;  /* per CPU, with opts.aux_pages */
	struct pollfd *pfds;     /* per ring: its fd */
	bool enabled;            /* between pmu_session_enable and _disable */
	struct pmu_record_stats stats;
	pmu_span_fn span;        /* the rings' records in spans, or NULL */
	pmu_record_fn span_note; /* and each of them before its span, or NULL */
	int stop;                /* atomic: pmu_session_stop */
	bool hung_up;            /* every ring's task events exited */
	size_t page_size;
};

/* The AUX event (vpa_dtl) of one CPU over its life: never enabled again
 * once disabled (by the core for a full area, or by the owner), since
 * vpa_dtl_event_add then writes into the DTL buffer vpa_dtl_event_del freed
 * (a NULL pointer Oops on Linux 7.2): closed and opened anew instead, its
 * event_init allocating a fresh buffer.  The old event's ring and AUX area
 * are kept as copies (retired) until the next drain hands them out; its
 * records carry the first event's id, the one the file's attrs list. */
struct retired {
	struct retired *next;
	void *ring_copy, *aux_copy;
	struct pmu_ring ring;
	struct pmu_aux aux;
	uint64_t id;
};

struct aux_life {
	uint64_t first_id, id;   /* PERF_EVENT_IOC_ID of the first event and now */
	bool ran;                /* enabled since it was opened */
	struct retired *retired; /* oldest first */
	struct pmu_aux_stats past;  /* of the events drained and gone */
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
	int rc = pmurt_cpulist_parse(buf, &s->cpus, &s->ncpus, err);
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
/* perf's :S (perf 6.1 evsel.c evsel__config and
 * evsel__config_leader_sampling): the event's samples read its counters
 * (PERF_SAMPLE_READ; each value with its id, and its lost samples, as perf
 * sets read_format); in a group of two or more, the group's (GROUP), not
 * inherited, and only the leader samples: a member has no period and the
 * leader's sample_type, its values come in the leader's samples. */
static void leader_sampling(const struct pmu_evlist *list, int i, const struct pmu_record_opts *o,
			    struct perf_event_attr *a)
{
	const struct pmu_evsel *e = &list->v[i], *lead = &list->v[e->leader];
	if (e->sample_read) {
		a->sample_type |= PERF_SAMPLE_READ;
		a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST;
		if (lead->group_size > 1) {
			a->read_format |= PERF_FORMAT_GROUP;
			a->inherit = 0;
		}
	}
	if (lead->sample_read && e->leader != i) {
		struct perf_event_attr la;
		pmu_record_attr(list, e->leader, o, &la);
		a->freq = 0;
		a->sample_period = 0;
		a->sample_type = la.sample_type;
		/* "{A:S,B}": perf 6.1 leaves B inherited, which the kernel
		 * refuses beside a leader that is not ("Invalid event (B) in
		 * per-thread mode"); B as in "{A,B}:S" instead */
		a->inherit = la.inherit;
		a->read_format = la.read_format;
	}
}

void pmu_record_attr(const struct pmu_evlist *list, int i, const struct pmu_record_opts *o,
		     struct perf_event_attr *a)
{
	const struct pmu_evsel *e = &list->v[i];
	*a = e->attr;
	a->size = sizeof *a;
	a->sample_type = SAMPLE_TYPE | (o->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	if (a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_RAW;   /* the tracepoint's fields, as evsel__config */
	if (o->stack_user) {
		/* --call-graph dwarf as perf 6.1 sets it (evsel.c
		 * evsel__config_callchain): the kernel's frames only, the user
		 * registers and stack for an unwinder; and the data addresses,
		 * which builtin-record.c record_parse_callchain_opt turns on
		 * for it (sample_address: ADDR and DATA_SRC, mmap_data on the
		 * tracking event, below) */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		a->sample_regs_user = PMU_USER_REGS_MASK;
		a->sample_stack_user = o->stack_user;
		a->exclude_callchain_user = 1;
	}
	a->sample_id_all = 1;
	if (o->period) {
		a->freq = 0;
		a->sample_period = o->period;
	} else if (!o->freq && a->type == PERF_TYPE_TRACEPOINT && !a->freq && !a->sample_period) {
		/* tools/perf/util/evsel.c evsel__newtp_idx: a tracepoint samples
		 * every hit (period 1) unless -c or -F says otherwise; at a
		 * frequency the kernel would skip hits as it adapts the period */
		a->sample_period = 1;
	} else if (o->freq || (!a->freq && !a->sample_period)) {
		a->freq = 1;
		a->sample_freq = o->freq ? o->freq : DEFAULT_FREQ;
	}
	bool leader = e->leader == i;
	a->disabled = leader;
	a->enable_on_exec = leader && o->workload;
	a->inherit = o->pid >= 0 && !o->no_inherit;
	if (e->sample_read || list->v[e->leader].sample_read)
		leader_sampling(list, i, o, a);
	/* side band on the first event, or beside an AUX event on the next,
	 * whose ring the AUX event's reopening leaves alone */
	int side = o->aux_pages && list->n > 1 ? 1 : 0;
	bool first = i == side && !o->no_side_band;
	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = first;
	a->mmap_data = first && o->stack_user;
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

static struct pmu_ring *ring_at(const struct pmu_session *s, int c, int k)
{
	return &s->rings[c * s->nrings + k];
}

static unsigned data_pages(const struct pmu_session *s)
{
	return s->opts.data_pages ? s->opts.data_pages : DEFAULT_DATA_PAGES;
}

/* CPU c's AUX event's ring and area: alone on its ring beside others (half
 * the data pages: PERF_RECORD_AUX only), or the CPU's only ring. */
static int map_aux_event(struct pmu_session *s, int c, struct pmurt_error *err)
{
	unsigned pages = data_pages(s);
	if (s->nrings == 2 && pages > 1)
		pages /= 2;
	int fd = *fd_at(s, 0, c, 0);
	int rc = pmu_ring_map(ring_at(s, c, 0), s->sys, fd, pages, s->page_size, err);
	if (rc == 0)
		rc = pmu_aux_map(&s->auxes[c], ring_at(s, c, 0), s->opts.aux_pages, s->page_size,
				 (uint32_t)c, s->cpus[c], err);
	s->pfds[c * s->nrings] = (struct pollfd){.fd = fd, .events = POLLIN};
	return rc;
}

/* One ring per CPU, on that CPU's first fd; every other fd of the CPU
 * writes into it (PERF_EVENT_IOC_SET_OUTPUT, as perf's evlist mmap does).
 * An AUX event has a ring of its own when there are other events: its
 * reopening (aux_life) then leaves theirs alone. */
static int map_rings(struct pmu_session *s, struct pmurt_error *err)
{
	int nev = s->list->n, owner = s->nrings - 1;
	for (int c = 0; c < s->ncpus; c++) {
		int rc = 0, ring_fd = *fd_at(s, owner, c, 0);
		if (s->opts.aux_pages)
			rc = map_aux_event(s, c, err);
		if (rc == 0 && (!s->opts.aux_pages || owner == 1)) {
			rc = pmu_ring_map(ring_at(s, c, owner), s->sys, ring_fd, data_pages(s),
					  s->page_size, err);
			s->pfds[c * s->nrings + owner] = (struct pollfd){.fd = ring_fd,
									 .events = POLLIN};
		}
		if (rc < 0)
			return rc;
		for (int ev = owner; ev < nev; ev++)
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
	s->nrings = s->opts.aux_pages && s->list->n > 1 ? 2 : 1;
	s->rings = calloc((size_t)(s->ncpus * s->nrings), sizeof *s->rings);
	s->pfds = calloc((size_t)(s->ncpus * s->nrings), sizeof *s->pfds);
	s->auxes = calloc((size_t)s->ncpus, sizeof *s->auxes);
	s->lives = calloc((size_t)s->ncpus, sizeof *s->lives);
	return s->attrs && s->ids && s->rings && s->pfds && s->auxes && s->lives ? 0 : -ENOMEM;
}

/* A PMU without a task context (a cpumask: hv_24x7; vpa_dtl, which has
 * none) cannot follow a task, not even on a given CPU: refused before any
 * system call, as the kernel would with -EINVAL (perf_event_alloc for a
 * perf_invalid_context PMU with a task) -- for vpa_dtl after its event_init,
 * which crashes with cpu -1 (evsel.h pmu_is_vpa_dtl). */
int pmu_record_refusal(const struct pmu_host *host, const struct pmu_evlist *list,
		       const struct pmu_record_opts *o, struct pmurt_error *err)
{
	for (int ev = 0; ev < list->n; ev++)
		if (list->v[ev].kind == PMU_EVSEL_TOOL) {
			/* perf 6.1 opens a software dummy for it: no samples */
			pmurt_set_error(err, -EINVAL, "'%s' is a tool event: it is counted (pmutool "
					"stat), never sampled", list->v[ev].name);
			return -EINVAL;
		}
	for (int ev = 0; o->pid >= 0 && ev < list->n; ev++)
		if (list->v[ev].per_cpu_only) {
			pmu_explain_open(host, list, ev, o->pid, -1, -EINVAL, err);
			return -EINVAL;
		}
	return pmu_refuse_foreign_core(host, list, err);
}

static int open_all(struct pmu_session *s, struct pmurt_error *err)
{
	int rc = pmu_record_refusal(s->host, s->list, &s->opts, err);
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
	for (int c = 0; s->opts.aux_pages && c < s->ncpus; c++)
		s->lives[c].first_id = s->lives[c].id = s->ids[c * s->nthreads];
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

static void free_retired(struct retired *r)
{
	free(r->ring.bounce);
	free(r->ring_copy);
	free(r->aux_copy);
	free(r);
}

void pmu_session_close(struct pmu_session *s)
{
	if (!s)
		return;
	/* Disabled before their AUX areas are unmapped: perf_mmap_close stops
	 * every active event writing to an AUX area it unmaps
	 * (perf_pmu_output_stop -> __perf_event_stop -> pmu->stop), and
	 * vpa_dtl has no stop callback: a NULL call, an Oops on Linux 7.2,
	 * seen under QEMU when a capture was closed while enabled. */
	if (s->fds && s->opts.aux_pages) {
		struct pmurt_error ignored = {0};
		pmu_session_disable(s, &ignored);
	}
	for (int c = 0; s->lives && c < s->ncpus; c++)
		while (s->lives[c].retired) {
			struct retired *r = s->lives[c].retired;
			s->lives[c].retired = r->next;
			free_retired(r);
		}
	for (int c = 0; s->auxes && c < s->ncpus; c++)
		pmu_aux_unmap(&s->auxes[c]);
	for (int i = 0; s->rings && i < s->ncpus * s->nrings; i++)
		pmu_ring_unmap(&s->rings[i]);
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
	free(s->lives);
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
	struct pmu_aux *aux;     /* the ring's AUX area (its PERF_RECORD_AUX) */
	uint64_t id_from, id_to; /* a reopened AUX event's id, and the first's */
};

/* A reopened AUX event's records carry the id the file's attrs list: the
 * sample_id_all trailer's IDENTIFIER, last (first in a sample; every event
 * of a session has PERF_SAMPLE_IDENTIFIER, pmu_record_attr), rewritten in
 * the drained ring before the record or its span leaves. */
static void rename_id(const struct counting_sink *cs, const struct perf_event_header *rec)
{
	if (cs->id_from == cs->id_to || rec->type >= PD_RECORD_USER_START ||
	    rec->size < sizeof *rec + 8)
		return;
	unsigned char *p = (unsigned char *)rec;
	size_t at = rec->type == PERF_RECORD_SAMPLE ? sizeof *rec : rec->size - 8u;
	uint64_t id;
	memcpy(&id, p + at, 8);
	if (id == cs->id_from)
		memcpy(p + at, &cs->id_to, 8);
}

/* Counts a record: samples, and the losses the kernel reports
 * (PERF_RECORD_LOST {id, lost}, PERF_RECORD_LOST_SAMPLES {lost}). */
static int count_only(void *arg, const struct perf_event_header *rec,
		      struct pmurt_error *err)
{
	(void)err;
	struct counting_sink *cs = arg;
	struct pmu_record_stats *st = &cs->s->stats;
	const uint64_t *body = (const uint64_t *)(rec + 1);
	rename_id(cs, rec);
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
			if (cs->aux)
				pmu_aux_note_output(cs->aux, body[0], body[1]);
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

/* Counts a record of a span, then hands it to the span sink's note. */
static int count_note(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	struct counting_sink *cs = arg;
	count_only(arg, rec, err);
	return cs->s->span_note(cs->arg, rec, err);
}

static int span_out(void *arg, const void *recs, size_t len, struct pmurt_error *err)
{
	struct counting_sink *cs = arg;
	return cs->s->span(cs->arg, recs, len, err);
}

void pmu_session_span_sink(struct pmu_session *s, pmu_span_fn span)
{
	pmu_session_noted_span_sink(s, NULL, span);
}

void pmu_session_noted_span_sink(struct pmu_session *s, pmu_record_fn note, pmu_span_fn span)
{
	s->span = span;
	s->span_note = span ? note : NULL;
}

int pmu_session_synthesize(struct pmu_session *s, pmu_record_fn sink, void *arg,
			   struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct counting_sink cs = {s, sink, arg, NULL, 0, 0};
	struct pmu_synth y = {.proc = "/proc", .id_hdr_size = pmu_session_id_hdr_size(s),
			      .sink = count_record, .arg = &cs};
	int rc = pmu_synth_kernel_mmap(&y, err);
	if (rc < 0)
		return rc;
	if (s->opts.pid < 0)
		return pmu_synth_all(&y, err);
	return pmu_synth_process(&y, s->opts.pid, !s->opts.workload, err);
}

static int ioctl_one(struct pmu_session *s, int ev, int fd, unsigned long request,
		     const char *what, struct pmurt_error *err)
{
	int rc = s->sys->ioctl(s->sys->ctx, fd, request, 0);
	if (rc < 0)
		pmurt_set_error(err, rc, "%s '%s' failed: %s", what, s->list->v[ev].name,
				strerror(-rc));
	return rc;
}

/* CPU c's AUX event and area as they are now, copied (retired), to be
 * drained by the next drain after the event is gone. */
static int retire(struct pmu_session *s, int c, struct pmurt_error *err)
{
	struct pmu_ring *ring = ring_at(s, c, 0);
	struct pmu_aux *aux = &s->auxes[c];
	struct retired *r = calloc(1, sizeof *r), **end = &s->lives[c].retired;
	if (r) {
		r->ring_copy = malloc(ring->map_len);
		r->aux_copy = malloc((size_t)aux->size);
	}
	if (!r || !r->ring_copy || !r->aux_copy) {
		if (r)
			free_retired(r);
		pmurt_set_error(err, -ENOMEM, "reopening vpa_dtl on CPU %d: out of memory",
				s->cpus[c]);
		return -ENOMEM;
	}
	memcpy(r->ring_copy, ring->base, ring->map_len);
	memcpy(r->aux_copy, aux->data, (size_t)aux->size);
	r->ring = *ring;
	r->ring.base = r->ring.ctl = r->ring_copy;
	r->ring.data = (const unsigned char *)r->ring_copy + (ring->data - (const unsigned char *)ring->base);
	r->ring.bounce = NULL;
	r->ring.bounce_cap = 0;
	r->aux = *aux;
	r->aux.ctl = r->ring.ctl;
	r->aux.data = r->aux_copy;
	r->id = s->lives[c].id;
	while (*end)
		end = &(*end)->next;
	*end = r;
	return 0;
}

/* Close CPU c's AUX event and open it anew (aux_life): disabled first (the
 * driver stops writing: vpa_dtl_event_del), its ring and area retired,
 * unmapped, closed (only then is the event freed: a mapping holds it, and
 * the PMU takes one event per CPU, PERF_PMU_CAP_EXCLUSIVE), then opened,
 * mapped and, with enable, enabled. */
static int reopen_aux(struct pmu_session *s, int c, bool enable, struct pmurt_error *err)
{
	int *fd = fd_at(s, 0, c, 0);
	struct aux_life *life = &s->lives[c];
	s->sys->ioctl(s->sys->ctx, *fd, PERF_EVENT_IOC_DISABLE, 0); /* no add follows */
	int rc = retire(s, c, err);
	if (rc < 0)
		return rc;
	pmu_aux_unmap(&s->auxes[c]);
	pmu_ring_unmap(ring_at(s, c, 0));
	s->sys->close(s->sys->ctx, *fd);
	*fd = -1;
	life->ran = false;
	if ((rc = open_one(s, 0, c, 0, err)) < 0)
		return rc;
	life->id = s->ids[c * s->nthreads];
	if ((rc = map_aux_event(s, c, err)) < 0)
		return rc;
	s->auxes[c].stats.reopens = 0;
	life->past.reopens++;
	if (enable && (rc = ioctl_one(s, 0, *fd, PERF_EVENT_IOC_ENABLE, "enabling", err)) == 0)
		life->ran = true;
	return rc;
}

static int ioctl_leaders(struct pmu_session *s, unsigned long request, const char *what,
			 struct pmurt_error *err)
{
	pmurt_clear_error(err);
	bool enable = request == PERF_EVENT_IOC_ENABLE;
	for (int ev = 0; ev < s->list->n; ev++) {
		if (s->list->v[ev].leader != ev)
			continue;
		for (int i = 0; i < nfds_per_event(s); i++) {
			int rc, c = i / s->nthreads;
			bool aux = ev == 0 && s->opts.aux_pages;
			if (aux && enable && s->lives[c].ran)
				rc = reopen_aux(s, c, true, err);
			else
				rc = ioctl_one(s, ev, s->fds[ev * nfds_per_event(s) + i], request, what,
					       err);
			if (rc < 0)
				return rc;
			if (aux && enable)
				s->lives[c].ran = true;
		}
	}
	return 0;
}

int pmu_session_enable(struct pmu_session *s, struct pmurt_error *err)
{
	int rc = ioctl_leaders(s, PERF_EVENT_IOC_ENABLE, "enabling", err);
	s->enabled = rc == 0;
	return rc;
}

int pmu_session_disable(struct pmu_session *s, struct pmurt_error *err)
{
	s->enabled = false;
	return ioctl_leaders(s, PERF_EVENT_IOC_DISABLE, "disabling", err);
}

static void add_aux_stats(struct pmu_aux_stats *t, const struct pmu_aux_stats *a)
{
	t->chunks += a->chunks;
	t->bytes += a->bytes;
	t->stale_bytes += a->stale_bytes;
	t->lost_entries += a->lost_entries;
	t->lost_headers += a->lost_headers;
	t->overruns += a->overruns;
	t->torn_bytes += a->torn_bytes;
	t->wrap_polls += a->wrap_polls;
	t->wrap_lost_min += a->wrap_lost_min;
	t->wrap_lost_max += a->wrap_lost_max;
	t->cut_polls += a->cut_polls;
	t->cut_lost_max += a->cut_lost_max;
	t->reopens += a->reopens;
	t->full_polls += a->full_polls;
}

/* The AUX areas' counts summed into the session's: the live ones, the
 * retired ones not yet drained, and those gone. */
static void sum_aux_stats(struct pmu_session *s)
{
	struct pmu_aux_stats *t = &s->stats.aux;
	*t = (struct pmu_aux_stats){0};
	for (int c = 0; s->opts.aux_pages && c < s->ncpus; c++) {
		add_aux_stats(t, &s->auxes[c].stats);
		add_aux_stats(t, &s->lives[c].past);
		for (const struct retired *r = s->lives[c].retired; r; r = r->next)
			add_aux_stats(t, &r->aux.stats);
	}
}

/* A ring's records to cs's sink (in spans when asked), then its AUX area's. */
static long drain_ring(struct pmu_session *s, struct pmu_ring *ring, struct pmu_aux *aux,
		       struct counting_sink *cs, struct pmurt_error *err)
{
	cs->aux = aux;
	long n = s->span ? pmu_ring_drain_spans(ring, s->span_note ? count_note : count_only,
					      span_out, cs, err)
			 : pmu_ring_drain(ring, count_record, cs, err);
	if (n >= 0 && aux) {
		long k = pmu_aux_drain(aux, count_record, cs, err);
		n = k < 0 ? k : n + k;
	}
	cs->aux = NULL;
	cs->id_from = cs->id_to;
	return n;
}

/* CPU c's AUX side: the retired events first (oldest first), then the live
 * one; an area found full while the session is enabled (the core may have
 * disabled the event) has its event reopened and drained once more. */
static long drain_aux_cpu(struct pmu_session *s, int c, struct counting_sink *cs,
			  struct pmurt_error *err)
{
	struct aux_life *life = &s->lives[c];
	long total = 0;
	for (int round = 0; round < 2; round++) {
		while (life->retired) {
			struct retired *r = life->retired;
			cs->id_from = r->id;
			cs->id_to = life->first_id;
			long n = drain_ring(s, &r->ring, &r->aux, cs, err);
			if (n < 0)
				return n;
			total += n;
			add_aux_stats(&life->past, &r->aux.stats);
			life->retired = r->next;
			free_retired(r);
		}
		if (round == 1 || !ring_at(s, c, 0)->base)
			break;   /* a reopening that failed left no live event */
		cs->id_from = life->id;
		cs->id_to = life->first_id;
		long n = drain_ring(s, ring_at(s, c, 0), &s->auxes[c], cs, err);
		if (n < 0)
			return n;
		total += n;
		if (!s->auxes[c].found_full || !s->enabled)
			break;
		int rc = reopen_aux(s, c, true, err);
		if (rc < 0)
			return rc;
	}
	return total;
}

int pmu_session_drain(struct pmu_session *s, pmu_record_fn sink, void *arg,
		      struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct counting_sink cs = {s, sink, arg, NULL, 0, 0};
	long total = 0;
	for (int c = 0; c < s->ncpus; c++) {
		long n = 0;
		if (s->opts.aux_pages)
			n = drain_aux_cpu(s, c, &cs, err);
		if (n >= 0 && (!s->opts.aux_pages || s->nrings == 2)) {
			long k = drain_ring(s, ring_at(s, c, s->nrings - 1), NULL, &cs, err);
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
			int nr = s->ncpus * s->nrings;
			int n = s->sys->poll(s->sys->ctx, s->pfds, (nfds_t)nr, timeout_ms);
			int hung = 0;
			for (int i = 0; n > 0 && i < nr; i++)
				hung += (s->pfds[i].revents & (POLLHUP | POLLERR)) != 0;
			if (hung == nr)
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
