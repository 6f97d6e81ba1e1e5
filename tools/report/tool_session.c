/*
 * tool_session.c - one pass over a perf.data file in time order for
 * pmutool report and script (see tool_session.h).
 *
 * perf delivers records sorted by time (util/ordered-events.c), so a
 * sample's comm and maps are those in force at its time even when the
 * rings of several CPUs were written one after the other.  The pass first
 * notes each record's time and offset (a record without one takes its
 * predecessor's), sorts them (ties keep file order), then reads them again
 * in that order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_session.h"

/* A record's time and where to find it; seq, its place in the file (the
 * offsets of records decompressed from perf record -z's compressed ones
 * are not file offsets). */
struct stamp {
	uint64_t time, offset, seq;
};

static int by_time(const void *a, const void *b)
{
	const struct stamp *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void session_dso_short(const char *dso, char *buf, size_t len)
{
	int tid;
	const char *slash = dso[0] == '[' ? NULL : strrchr(dso, '/');
	if (sscanf(dso, "/tmp/perf-%d.map", &tid) == 1)
		snprintf(buf, len, "[JIT] tid %d", tid);
	else
		snprintf(buf, len, "%s", slash ? slash + 1 : dso);
}

uint16_t session_context_mode(uint64_t ip)
{
	switch (ip) {
	case PERF_CONTEXT_KERNEL: return PERF_RECORD_MISC_KERNEL;
	case PERF_CONTEXT_USER: return PERF_RECORD_MISC_USER;
	case PERF_CONTEXT_HV: return PERF_RECORD_MISC_HYPERVISOR;
	case PERF_CONTEXT_GUEST_KERNEL: return PERF_RECORD_MISC_GUEST_KERNEL;
	case PERF_CONTEXT_GUEST_USER: return PERF_RECORD_MISC_GUEST_USER;
	default: return 0;
	}
}

bool session_chain_corrupt(const struct pmurt_perf_record *rec)
{
	for (uint64_t i = 0; i < rec->nr_callchain; i++)
		if (rec->callchain[i] >= PERF_CONTEXT_MAX && !session_context_mode(rec->callchain[i]))
			return true;
	return false;
}

int session_user_frames(struct session *s, const struct pmurt_perf_record *rec, uint64_t *ips)
{
	if (!rec->regs_user || !rec->stack_user_size)
		return 0;
	return unwinder_frames(s->unwind, rec, ips, SESSION_MAX_STACK);
}

static int read_error(const struct session *s, const struct pmurt_error *err, int rc)
{
	tool_error(s->tool, "%s", err->message[0] ? err->message : strerror(-rc));
	return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
}

static int name_events(struct session *s)
{
	s->event_names = calloc((size_t)s->info.nevents, sizeof(*s->event_names));
	s->event_types = calloc((size_t)s->info.nevents, sizeof(*s->event_types));
	s->event_periods = calloc((size_t)s->info.nevents, sizeof(*s->event_periods));
	s->event_configs = calloc((size_t)s->info.nevents, sizeof(*s->event_configs));
	if (!s->event_names || !s->event_types || !s->event_periods || !s->event_configs)
		return -ENOMEM;
	for (int e = 0; e < s->info.nevents; e++) {
		struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
		pmurt_perf_event(s->file, e, &ev);
		s->event_names[e] = ev.name;   /* lives as long as the file */
		struct perf_event_attr attr = {0};
		memcpy(&attr, ev.attr, ev.attr_size < sizeof(attr) ? ev.attr_size : sizeof(attr));
		s->event_types[e] = attr.type;
		s->event_periods[e] = attr.sample_period;
		s->event_configs[e] = attr.config;
	}
	return 0;
}

/* PMUTOOL_KALLSYMS names another copy of the kernel's symbols (a saved
 * /proc/kallsyms, for a file recorded on another boot). */
static const char *kallsyms_path(void)
{
	const char *env = getenv("PMUTOOL_KALLSYMS");
	return env && *env ? env : "/proc/kallsyms";
}

int session_open(struct session *s, const struct tool *t, const char *path, const void *bytes,
		 size_t size)
{
	struct pmurt_error err = {0};
	*s = (struct session){.tool = t, .path = path ? path : "perf.data"};
	s->info.sz = sizeof(s->info);
	int rc = bytes ? pmurt_perf_open_mem(&s->file, s->path, bytes, size, &err)
		       : pmurt_perf_open(&s->file, s->path, &err);
	if (rc < 0)
		return read_error(s, &err, rc);
	pmurt_perf_info(s->file, &s->info);
	char msg[512];
	if (elf_lib_open(&s->elf, msg, sizeof(msg)) < 0) {
		tool_error(t, "%s", msg);
		return EXIT_INTERNAL;
	}
	if (name_events(s) < 0 || !(s->syms = symbols_new(kallsyms_path(), &s->elf)) ||
	    !(s->unwind = unwinder_new(&s->elf, s->syms, s->info.arch))) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	symbols_check_build_ids(s->syms, s->file, t->prog);
	return EXIT_OK;
}

void session_close(struct session *s)
{
	free(s->event_names);
	free(s->event_types);
	free(s->event_periods);
	free(s->event_configs);
	unwinder_free(s->unwind);
	symbols_free(s->syms);
	elf_lib_close(&s->elf);
	pmurt_perf_close(s->file);
}

/* "pmutool: reading perf.data 42%" on a terminal, for long work. */
struct progress {
	bool on;
	uint64_t done, total, next;
	const char *what;
};

static void progress_step(struct progress *p, const struct session *s, uint64_t done)
{
	if (!p->on || done < p->next)
		return;
	p->next = done + p->total / 100 + 1;
	fprintf(stderr, "\r%s: %s %s %3d%%", s->tool->prog, p->what, s->path,
		(int)(done * 100 / (p->total ? p->total : 1)));
}

static void progress_end(struct progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}

static int collect_stamps(struct session *s, struct stamp **out, size_t *n,
			  struct progress *pr)
{
	struct pmurt_error err = {0};
	struct pmurt_perf_record rec = {.sz = sizeof(rec)};
	size_t cap = 1024;
	uint64_t last = 0;
	struct stamp *v = malloc(cap * sizeof(*v));
	int rc;
	*n = 0;
	while (v && (rc = pmurt_perf_next(s->file, &rec, &err)) == 1) {
		if (*n == cap) {
			struct stamp *bigger = realloc(v, 2 * cap * sizeof(*v));
			if (!bigger)
				break;
			v = bigger;
			cap *= 2;
		}
		if (rec.has & PERF_SAMPLE_TIME)
			last = rec.time;
		v[*n] = (struct stamp){last, rec.offset, *n};
		(*n)++;
		if (!(rec.offset & PMURT_PERF_OFFSET_DECOMPRESSED))
			progress_step(pr, s, rec.offset - s->info.data_offset);
	}
	*out = v;
	if (!v || rc == 1) {
		tool_error(s->tool, "out of memory");
		return EXIT_INTERNAL;
	}
	return rc < 0 ? read_error(s, &err, rc) : EXIT_OK;
}

static int deliver(struct session *s, const struct pmurt_perf_record *rec, session_fn fn,
		   void *ctx)
{
	if (rec->type == PERF_RECORD_LOST && rec->size >= 24) {
		uint64_t lost;
		memcpy(&lost, (const uint8_t *)rec->data + 16, 8);
		s->nlost += lost;
	}
	if (rec->type != PERF_RECORD_SAMPLE) {
		if (symbols_track(s->syms, rec) < 0) {
			tool_error(s->tool, "out of memory");
			return EXIT_INTERNAL;
		}
		return EXIT_OK;
	}
	struct session_sample smp = {.rec = rec, .event = s->event_names[rec->event],
				     .event_type = s->event_types[rec->event],
				     .config = s->event_configs[rec->event],
				     .period = rec->has & PERF_SAMPLE_PERIOD ? rec->period
									: s->event_periods[rec->event]};
	if (symbols_resolve(s->syms, rec->pid, rec->tid, rec->ip, rec->misc, &smp.at) < 0) {
		tool_error(s->tool, "out of memory");
		return EXIT_INTERNAL;
	}
	s->nsamples++;
	return fn(ctx, s, &smp);
}

int session_run(struct session *s, session_fn fn, void *ctx)
{
	/* long work only: data sections of more than 8 MB (some 100,000 samples) */
	struct progress pr = {.on = s->info.data_size > (8u << 20) && isatty(STDERR_FILENO),
			      .total = s->info.data_size * 2, .what = "reading"};
	struct stamp *v = NULL;
	size_t n = 0;
	int rc = collect_stamps(s, &v, &n, &pr);
	bool sorted = true;   /* one ring, or rounds already in order: no sort */
	for (size_t i = 1; i < n && sorted; i++)
		sorted = by_time(&v[i - 1], &v[i]) <= 0;
	if (!rc && !sorted)
		qsort(v, n, sizeof(*v), by_time);
	struct pmurt_error err = {0};
	struct pmurt_perf_record rec = {.sz = sizeof(rec)};
	for (size_t i = 0; i < n && !rc; i++) {
		int got = pmurt_perf_seek(s->file, v[i].offset);
		if (!got)
			got = pmurt_perf_next(s->file, &rec, &err);
		if (got != 1)
			rc = read_error(s, &err, got ? got : -EIO);
		else
			rc = deliver(s, &rec, fn, ctx);
		progress_step(&pr, s, s->info.data_size + (uint64_t)i * s->info.data_size / n);
	}
	progress_end(&pr);
	free(v);
	return rc;
}
