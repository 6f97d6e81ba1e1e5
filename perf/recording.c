/*
 * recording.c - pmurt_record_* (pmurt.h): an event list sampled into a
 * perf.data file, as perf record makes one: the sampling session
 * (record.c) drained through perfdata's writer, with the AUXTRACE_INFO of
 * an AUX event first (tools/perf/util/auxtrace.c
 * perf_event__synthesize_auxtrace_info) and the records of what already
 * runs synthesised before sampling starts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpc.h"
#include "opts.h"
#include "perf_int.h"
#include "perfdata.h"
#include "record.h"
#include "tracefs.h"

struct pmurt_record {
	const struct pmurt_evlist *list;
	struct pmu_session *s;
	struct pd_writer *w;
	struct pmu_record_opts opts;
	bool buildid_cache;
	char *path;         /* the file, for the build-id cache */
	bool finished;
};

/* The public options as the session takes them. */
static int session_opts(const struct pmurt_record_opts *opts, struct pmu_record_opts *o,
			struct pmurt_record_opts *taken, const char *fn, struct pmurt_error *err)
{
	*taken = PMURT_OPTS_INIT(pmurt_record_opts, .pid = -1);
	if (pmu_opts_valid(opts, sizeof(struct pmurt_record_opts), fn, err))
		return -EINVAL;
	pmu_opts_take(taken, sizeof(struct pmurt_record_opts), opts);
	const struct pmurt_record_opts *t = taken;
	if ((t->cpus && (t->ncpus < 1 || t->pid >= 0)) || (t->enable_on_exec && t->pid <= 0) ||
	    (t->aux_pages & (t->aux_pages - 1)) || (t->data_pages & (t->data_pages - 1))) {
		pmurt_set_error(err, -EINVAL, "%s: bad options (cpus with a pid or without ncpus, "
				"enable_on_exec without a pid, pages not a power of two)", fn);
		return -EINVAL;
	}
	if (t->stack_user && (t->stack_user % 8 || t->stack_user > PMU_STACK_USER_MAX ||
			      !PMU_USER_REGS_MASK)) {
		pmurt_set_error(err, -EINVAL, PMU_USER_REGS_MASK ?
				"%s: stack_user %u is not a multiple of 8 up to %u" :
				"%s: stack_user %u: no DWARF call graphs on this architecture "
				"(its user registers unknown; up to %u bytes elsewhere)",
				fn, t->stack_user, PMU_STACK_USER_MAX);
		return -EINVAL;
	}
	*o = (struct pmu_record_opts){.pid = t->pid, .workload = t->enable_on_exec,
				      .cpus = t->cpus, .ncpus = t->ncpus,
				      .no_inherit = t->no_inherit, .period = t->period,
				      .freq = t->freq, .callchain = t->callchain,
				      .stack_user = t->stack_user, .data_pages = t->data_pages, .aux_pages = t->aux_pages};
	return 0;
}

int pmurt_record_attr(const struct pmurt_evlist *list, int i, const struct pmurt_record_opts *opts,
		      struct perf_event_attr *attr, size_t attr_size)
{
	struct pmurt_record_opts taken;
	struct pmu_record_opts o;
	struct perf_event_attr a;
	if (!list || !attr || i < 0 || i >= list->l.n || attr_size < PERF_ATTR_SIZE_VER0 ||
	    session_opts(opts, &o, &taken, "pmurt_record_attr", NULL))
		return -EINVAL;
	pmu_record_attr(&list->l, i, &o, &a);
	memcpy(attr, &a, attr_size < sizeof(a) ? attr_size : sizeof(a));
	if (attr_size > sizeof(a))
		memset((char *)attr + sizeof(a), 0, attr_size - sizeof(a));
	return 0;
}

int pmurt_record_refusal(const struct pmurt_evlist *list, const struct pmurt_record_opts *opts,
			 struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct pmurt_record_opts taken;
	struct pmu_record_opts o;
	if (!list) {
		pmurt_set_error(err, -EINVAL, "pmurt_record_refusal: missing argument");
		return -EINVAL;
	}
	if (session_opts(opts, &o, &taken, "pmurt_record_refusal", err))
		return -EINVAL;
	int rc = pmu_record_refusal(&list->host->h, &list->l, &o, err);
	return rc ? rc : pmu_refuse_dtl_attr(&list->l, err);
}

/* The description says the PMU cannot tell which counter overflowed. */
static bool single_overflow(const struct pmurt_pmu *core)
{
	struct pmurt_pmu_info info = PMURT_OPTS_INIT(pmurt_pmu_info);
	return core && pmurt_pmu_info(core, &info) == 0 && info.overflow_counter_unknown;
}

int pmurt_evlist_cpc_check(const struct pmurt_evlist *list, const struct pmurt_cpc_opts *opts,
			   struct pmurt_group_result *held, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct pmurt_cpc_opts o = PMURT_OPTS_INIT(pmurt_cpc_opts);
	if (!list) {
		pmurt_set_error(err, -EINVAL, "pmurt_evlist_cpc_check: missing argument");
		return -EINVAL;
	}
	if (pmu_opts_valid(opts, sizeof(o), "pmurt_evlist_cpc_check", err))
		return -EINVAL;
	pmu_opts_take(&o, sizeof(o), opts);
	int rc = pmu_cpc_check_periods(&list->l, o.period,
				       o.min_period ? o.min_period : PMURT_CPC_MIN_PERIOD, err);
	if (rc == 0) {
		const struct pmurt_pmu *core = pmurt_host_pmu(list->host);
		rc = pmu_cpc_check_counters(core, &list->l, !o.per_cpu, single_overflow(core), held,
					    err);
	}
	return rc;
}

/* AUXTRACE records come with their payload by pointer (aux.h). */
static int write_record(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	if (rec->type == PMU_RECORD_AUXTRACE)
		return pd_writer_add_auxtrace(arg, rec, ((const struct pmu_auxtrace *)rec)->data, err);
	return pd_writer_add(arg, rec, err);
}

/* The rings' records, written as the kernel laid them out (perf record's
 * way), each noted by the writer from the session's walk over them. */
static int note_span_record(void *arg, const struct perf_event_header *rec,
			    struct pmurt_error *err)
{
	(void)err;
	pd_writer_note(arg, rec);
	return 0;
}

static int write_span(void *arg, const void *recs, size_t len, struct pmurt_error *err)
{
	return pd_writer_add_noted_span(arg, recs, len, err);
}

/* PERF_RECORD_AUXTRACE_INFO: u32 type, u32 reserved, then the PMU's
 * priv[]; for vpa_dtl (powerpc-vpadtl.h) priv[0] is the PMU type. */
static int write_auxtrace_info(struct pd_writer *w, uint32_t auxtrace_type, uint64_t pmu_type,
			       struct pmurt_error *err)
{
	uint64_t rec[3];
	struct perf_event_header h = {.type = PD_RECORD_AUXTRACE_INFO, .size = sizeof rec};
	memcpy(rec, &h, sizeof h);
	rec[1] = auxtrace_type; /* and reserved 0 */
	rec[2] = pmu_type;
	return pd_writer_add(w, rec, err);
}

/* The file: the events' attrs, ids, names and groups, then the formats of
 * its tracepoints (perf reads tracepoint samples only with them). */
static int open_writer(struct pmurt_record *r, const char *path, struct pmurt_error *err)
{
	const struct pmu_evlist *list = &r->list->l;
	struct pd_event *ev = calloc((size_t)list->n, sizeof *ev);
	if (!ev) {
		pmurt_set_error(err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < list->n; i++) {
		ev[i].attr = *pmu_session_attr(r->s, i);
		ev[i].ids = pmu_session_ids(r->s, i, &ev[i].nids);
		ev[i].name = list->v[i].name;
		ev[i].group_size = list->v[i].leader == i ? list->v[i].group_size : 0;
	}
	int rc = pd_writer_open(&r->w, path, ev, list->n, err);
	free(ev);
	if (rc == 0 &&
	    (rc = pd_writer_add_tracing(r->w, pmu_host_tracefs(&r->list->host->h, NULL), err)) < 0) {
		pd_writer_finish(r->w, NULL);
		r->w = NULL;
	}
	return rc;
}

int pmurt_record_open(struct pmurt_record **out, const struct pmurt_evlist *list,
		      const char *path, const struct pmurt_record_opts *opts,
		      struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!out || !list || !path) {
		pmurt_set_error(err, -EINVAL, "pmurt_record_open: missing argument");
		return -EINVAL;
	}
	*out = NULL;
	struct pmurt_record_opts taken = {0};
	struct pmurt_record *r = calloc(1, sizeof(*r));
	if (!r) {
		pmurt_set_error(err, -ENOMEM, "pmurt_record_open: out of memory");
		return -ENOMEM;
	}
	r->list = list;
	r->path = strdup(path);
	int rc = r->path ? 0 : -ENOMEM;
	if (rc)
		pmurt_set_error(err, rc, "pmurt_record_open: out of memory");
	else
		rc = session_opts(opts, &r->opts, &taken, "pmurt_record_open", err);
	r->buildid_cache = taken.buildid_cache;
	if (!rc)
		rc = pmu_session_open(&r->s, &list->host->h, &list->l, &r->opts, err);
	if (!rc)
		rc = open_writer(r, path, err);
	if (!rc && taken.aux_pages)
		rc = write_auxtrace_info(r->w, taken.auxtrace_type, list->l.v[0].attr.type, err);
	if (!rc) {
		pmu_session_noted_span_sink(r->s, note_span_record, write_span);
		rc = pmu_session_synthesize(r->s, write_record, r->w, err);
	}
	if (rc) {
		pmurt_record_close(r);   /* finishes what open_writer began */
		return rc;
	}
	*out = r;
	return 0;
}

int pmurt_record_enable(struct pmurt_record *r, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	return r ? pmu_session_enable(r->s, err) : -EINVAL;
}

int pmurt_record_poll(struct pmurt_record *r, int timeout_ms, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!r || r->finished)
		return -EINVAL;
	return pmu_session_poll(r->s, timeout_ms, write_record, r->w, err);
}

void pmurt_record_stop(struct pmurt_record *r)
{
	if (r)
		pmu_session_stop(r->s);
}

bool pmurt_record_stopped(const struct pmurt_record *r)
{
	return !r || pmu_session_stopped(r->s);
}

/* The DSOs the finished file records, into perf's build-id cache
 * (builtin-record.c record__finish_output); what cannot be kept is passed
 * over silently, as in perf. */
static void cache_build_ids(const char *path)
{
	char dir[4096];
	struct pmurt_perf_file *f = NULL;
	if (pd_build_id_cache_dir(dir, sizeof(dir)) < 0 || pmurt_perf_open(&f, path, NULL) < 0)
		return;
	pd_build_id_cache_add_recorded(dir, "", f);
	pmurt_perf_close(f);
}

int pmurt_record_finish(struct pmurt_record *r, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!r || r->finished)
		return -EINVAL;
	int rc = pmu_session_disable(r->s, err);
	if (!rc)
		rc = pmu_session_drain(r->s, write_record, r->w, err);
	int done = pd_writer_finish(r->w, rc ? NULL : err);
	r->w = NULL;
	r->finished = true;
	if (!rc && !done && r->buildid_cache)
		cache_build_ids(r->path);
	return rc ? rc : done;
}

void pmurt_record_close(struct pmurt_record *r)
{
	if (!r)
		return;
	if (r->w) /* not finished: the file as far as it got, with its header */
		pd_writer_finish(r->w, NULL);
	pmu_session_close(r->s);
	free(r->path);
	free(r);
}

int pmurt_record_stats(const struct pmurt_record *r, struct pmurt_record_stats *stats)
{
	if (!r || !stats || stats->sz < sizeof(stats->sz))
		return -EINVAL;
	const struct pmu_record_stats *st = pmu_session_stats(r->s);
	const struct pmu_aux_stats *a = &st->aux;
	struct pmurt_record_stats full = {
		.sz = sizeof(full), .records = st->records, .samples = st->samples,
		.lost = st->lost, .lost_records = st->lost_records, .lost_samples = st->lost_samples,
		.bytes = st->bytes, .aux_records = st->aux_records,
		.aux_truncated = st->aux_truncated, .aux_overwrite = st->aux_overwrite,
		.aux_partial = st->aux_partial, .aux_collision = st->aux_collision,
		.aux_chunks = a->chunks, .aux_bytes = a->bytes, .aux_stale_bytes = a->stale_bytes,
		.aux_lost_entries = a->lost_entries, .aux_lost_headers = a->lost_headers,
		.aux_overruns = a->overruns, .aux_torn_bytes = a->torn_bytes,
		.aux_wrap_polls = a->wrap_polls, .aux_wrap_lost_min = a->wrap_lost_min,
		.aux_wrap_lost_max = a->wrap_lost_max, .aux_cut_lost_max = a->cut_lost_max,
		.aux_reopens = a->reopens, .aux_full_polls = a->full_polls};
	pmu_opts_give(stats, &full, sizeof(full));
	return 0;
}
