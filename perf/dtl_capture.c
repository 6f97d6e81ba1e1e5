/*
 * dtl_capture.c - pmurt_dtl_capture_* (pmurt.h): vpa_dtl's Dispatch Trace
 * Log captured for a profiler, on the recording session (record.c) with an
 * AUX area per CPU (aux.c), no side-band records and no file: the AUXTRACE
 * chunks go to the caller's function, the data ring's PERF_RECORD_AUX and
 * PERF_RECORD_LOST are counted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"
#include "perf_int.h"
#include "record.h"


struct pmurt_dtl_capture {
	struct pmu_evlist list;
	struct pmu_session *s;
	pmurt_dtl_chunk_fn fn;   /* during a poll */
	void *arg;
};

static int check_opts(const struct pmurt_dtl_capture_opts *o, struct pmurt_error *err)
{
	const char *why = NULL;
	if (o->cpus && o->ncpus < 1)
		why = "cpus given with ncpus below 1";
	else if (!pmu_dtl_config_valid(o->config))
		why = "config must be " PMU_DTL_CONFIGS ": vpa_dtl_event_init refuses any other "
		      "value";
	else if (o->period_ns < PMURT_DTL_MIN_PERIOD_NS)
		why = "period_ns is below 1000000: the driver polls at most every 1 ms";
	else if (o->aux_pages & (o->aux_pages - 1) || o->data_pages & (o->data_pages - 1))
		why = "aux_pages and data_pages must be powers of two";
	if (why)
		pmurt_set_error(err, -EINVAL, "pmurt_dtl_capture_open: %s", why);
	return why ? -EINVAL : 0;
}

/* opts with the defaults filled in */
static struct pmurt_dtl_capture_opts defaults(const struct pmurt_dtl_capture_opts *opts)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct pmurt_dtl_capture_opts o = PMURT_OPTS_INIT(pmurt_dtl_capture_opts);
	pmu_opts_take(&o, sizeof(struct pmurt_dtl_capture_opts), opts);
	o.config = o.config ? o.config : 7;
	o.period_ns = o.period_ns ? o.period_ns : PMURT_DTL_DEFAULT_PERIOD_NS;
	if (!o.aux_pages)
		o.aux_pages = PMURT_DTL_AUX_DEFAULT_BYTES > page ? (unsigned)(PMURT_DTL_AUX_DEFAULT_BYTES / page) : 1;
	if (!o.data_pages)
		o.data_pages = PMURT_DTL_DATA_DEFAULT_BYTES > page ? (unsigned)(PMURT_DTL_DATA_DEFAULT_BYTES / page) : 1;
	return o;
}

static int parse_event(struct pmurt_dtl_capture *c, const struct pmu_host *host,
		       const struct pmurt_dtl_capture_opts *o, struct pmurt_error *err)
{
	char path[320], spec[64];
	snprintf(path, sizeof path, "%s/bus/event_source/devices/vpa_dtl/type",
		 host->sysfs[0] ? host->sysfs : "/sys");
	if (access(path, R_OK) != 0) {
		pmu_explain_dtl_missing(host, err);
		return -ENOENT;
	}
	snprintf(spec, sizeof spec, "vpa_dtl/event=%#llx/", (unsigned long long)o->config);
	int rc = pmu_evlist_parse(&c->list, host, spec, err);
	if (rc == 0) {
		c->list.v[0].attr.sample_period = o->period_ns;
		c->list.v[0].attr.freq = 0;
	}
	return rc;
}

int pmurt_dtl_capture_open(struct pmurt_dtl_capture **out, struct pmurt_host *host,
			   const struct pmurt_dtl_capture_opts *opts, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!out || !host) {
		pmurt_set_error(err, -EINVAL, "pmurt_dtl_capture_open: missing argument");
		return -EINVAL;
	}
	*out = NULL;
	if (pmu_opts_valid(opts, sizeof(struct pmurt_dtl_capture_opts),
			   "pmurt_dtl_capture_open", err))
		return -EINVAL;
	struct pmurt_dtl_capture_opts o = defaults(opts);
	int rc = check_opts(&o, err);
	if (rc)
		return rc;
	struct pmurt_dtl_capture *c = calloc(1, sizeof(*c));
	if (!c) {
		pmurt_set_error(err, -ENOMEM, "pmurt_dtl_capture_open: out of memory");
		return -ENOMEM;
	}
	rc = parse_event(c, &host->h, &o, err);
	struct pmu_record_opts ro = {.pid = -1, .cpus = o.cpus, .ncpus = o.ncpus,
				     .data_pages = o.data_pages, .aux_pages = o.aux_pages,
				     .no_side_band = true};
	if (rc == 0)
		rc = pmu_session_open(&c->s, &host->h, &c->list, &ro, err);
	if (rc) {
		pmurt_dtl_capture_close(c);
		return rc;
	}
	*out = c;
	return 0;
}

int pmurt_dtl_capture_enable(struct pmurt_dtl_capture *c, struct pmurt_error *err)
{
	return pmu_session_enable(c->s, err);
}

int pmurt_dtl_capture_disable(struct pmurt_dtl_capture *c, struct pmurt_error *err)
{
	return pmu_session_disable(c->s, err);
}

/* The session's sink: AUXTRACE chunks to the caller; the rest is counted
 * by the session. */
static int to_caller(void *arg, const struct perf_event_header *rec, struct pmurt_error *err)
{
	struct pmurt_dtl_capture *c = arg;
	if (rec->type != PMU_RECORD_AUXTRACE)
		return 0;
	const struct pmu_auxtrace *a = (const struct pmu_auxtrace *)rec;
	int rc = c->fn(c->arg, (int)a->cpu, a->offset, a->data, (size_t)a->size);
	if (rc < 0)
		pmurt_set_error(err, rc, "pmurt_dtl_capture_poll: the chunk function returned %d",
				rc);
	return rc;
}

int pmurt_dtl_capture_poll(struct pmurt_dtl_capture *c, int timeout_ms, pmurt_dtl_chunk_fn fn,
			   void *arg, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!c || !fn) {
		pmurt_set_error(err, -EINVAL, "pmurt_dtl_capture_poll: missing argument");
		return -EINVAL;
	}
	c->fn = fn;
	c->arg = arg;
	return pmu_session_poll(c->s, timeout_ms, to_caller, c, err);
}

void pmurt_dtl_capture_stop(struct pmurt_dtl_capture *c)
{
	pmu_session_stop(c->s);
}

void pmurt_dtl_capture_stats(const struct pmurt_dtl_capture *c,
			     struct pmurt_dtl_capture_stats *stats)
{
	const struct pmu_record_stats *st = pmu_session_stats(c->s);
	struct pmurt_dtl_capture_stats v = {
		.sz = stats->sz, .chunks = st->aux.chunks, .bytes = st->aux.bytes,
		.stale_bytes = st->aux.stale_bytes, .lost_entries = st->aux.lost_entries,
		.lost_headers = st->aux.lost_headers, .overruns = st->aux.overruns,
		.aux_records = st->aux_records, .aux_truncated = st->aux_truncated,
		.lost_records = st->lost, .wrap_polls = st->aux.wrap_polls,
		.wrap_lost_min = st->aux.wrap_lost_min, .wrap_lost_max = st->aux.wrap_lost_max,
		.cut_lost_max = st->aux.cut_lost_max, .reopens = st->aux.reopens,
		.full_polls = st->aux.full_polls,
	};
	memcpy(stats, &v, stats->sz < sizeof(v) ? stats->sz : sizeof(v));
}

void pmurt_dtl_capture_close(struct pmurt_dtl_capture *c)
{
	if (!c)
		return;
	pmu_session_close(c->s);
	pmu_evlist_free(&c->list);
	free(c);
}
