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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

bool session_chain_corrupt(const struct pmurt_perf_record *rec, int walked)
{
	int frames = 0;
	for (uint64_t i = 0; i < rec->nr_callchain && frames < walked; i++) {
		if (rec->callchain[i] < PERF_CONTEXT_MAX)
			frames++;
		else if (!session_context_mode(rec->callchain[i]))
			return true;
	}
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

static int by_id(const void *a, const void *b)
{
	const struct id_value *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Every id of the events that read counters in their samples (leader
 * sampling), each value 0 before its first sample, as perf's sid->period. */
static int note_read_ids(struct session *s)
{
	size_t n = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int e = 0; e < s->info.nevents; e++) {
			struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
			pmurt_perf_event(s->file, e, &ev);
			for (int k = 0; k < ev.nids && pass; k++)
				s->last[s->nlast++] = (struct id_value){ev.ids[k], 0};
			n += pass ? 0 : (size_t)ev.nids;
		}
		if (!pass && !(s->last = calloc(n ? n : 1, sizeof(*s->last))))
			return -ENOMEM;
	}
	qsort(s->last, s->nlast, sizeof(*s->last), by_id);
	return 0;
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
	return note_read_ids(s);
}

/* PMUTOOL_KALLSYMS names another copy of the kernel's symbols (a saved
 * /proc/kallsyms, for a file recorded on another boot). */
static const char *kallsyms_path(void)
{
	const char *env = getenv("PMUTOOL_KALLSYMS");
	return env && *env ? env : "/proc/kallsyms";
}

/* Standard input's bytes, whole, into s->input (perf record -o - | ...);
 * an exit code. */
static int read_stdin(struct session *s, size_t *size)
{
	size_t cap = 1 << 16;
	*size = 0;
	for (;;) {
		char *grown = *size == 0 || *size == cap ? realloc(s->input, cap *= 2) : s->input;
		if (!grown) {
			tool_error(s->tool, "out of memory reading standard input");
			return EXIT_INTERNAL;
		}
		s->input = grown;
		size_t n = fread(s->input + *size, 1, cap - *size, stdin);
		*size += n;
		if (n == 0)
			break;
	}
	if (ferror(stdin)) {
		tool_error(s->tool, "reading standard input: %s", strerror(errno));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* No -i: standard input when it is a pipe, else perf.data (perf report's
 * and perf script's rule). */
static const char *default_input(void)
{
	struct stat st;
	return fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
}

int session_open(struct session *s, const struct tool *t, const char *path, const void *bytes,
		 size_t size)
{
	struct pmurt_error err = {0};
	*s = (struct session){.tool = t, .path = path ? path : bytes ? "perf.data" : default_input()};
	s->info.sz = sizeof(s->info);
	if (!bytes && !strcmp(s->path, "-")) {
		int rc = read_stdin(s, &size);
		if (rc)
			return rc;
		bytes = s->input;
	}
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
	free(s->last);
	unwinder_free(s->unwind);
	symbols_free(s->syms);
	elf_lib_close(&s->elf);
	pmurt_perf_close(s->file);
	free(s->input);
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

/* One sample of event rec->event with its period to fn, where its ip is
 * resolved into *at (resolved is false: not yet, do it). */
static int deliver_one(struct session *s, const struct pmurt_perf_record *rec, uint64_t period,
		       struct resolved *at, bool resolved, session_fn fn, void *ctx)
{
	if (!resolved && symbols_resolve(s->syms, rec->pid, rec->tid, rec->ip, rec->misc, at) < 0) {
		tool_error(s->tool, "out of memory");
		return EXIT_INTERNAL;
	}
	struct session_sample smp = {.rec = rec, .event = s->event_names[rec->event],
				     .event_type = s->event_types[rec->event],
				     .config = s->event_configs[rec->event], .period = period,
				     .at = *at};
	s->nsamples++;
	return fn(ctx, s, &smp);
}

/* A sample that read counters (PERF_SAMPLE_READ; with PERF_FORMAT_GROUP,
 * leader sampling): one sample per value, of the event its id names, its
 * period the value's growth since that id's previous sample; a value of no
 * event, or one that did not grow, gives none (perf 6.1's session.c
 * deliver_sample_group and deliver_sample_value). */
static int deliver_read(struct session *s, const struct pmurt_perf_record *rec, session_fn fn,
			void *ctx)
{
	struct pmurt_perf_read_value v = {.sz = sizeof(v)};
	struct resolved at;
	bool resolved = false;
	int rc = 0;
	for (uint64_t i = 0; !rc && pmurt_perf_read_value(s->file, rec, i, &v) == 1; i++) {
		struct id_value key = {v.id, 0};
		struct id_value *last = v.event < 0 ? NULL
				      : bsearch(&key, s->last, s->nlast, sizeof(key), by_id);
		if (!last) {
			s->nunknown_id++;
			continue;
		}
		uint64_t period = v.value - last->value;
		last->value = v.value;
		if (!period)
			continue;
		struct pmurt_perf_record member = *rec;
		member.event = v.event;
		member.id = v.id;
		member.period = period;
		rc = deliver_one(s, &member, period, &at, resolved, fn, ctx);
		resolved = true;
	}
	return rc;
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
	if (rec->has & PERF_SAMPLE_READ)
		return deliver_read(s, rec, fn, ctx);
	struct resolved at;
	return deliver_one(s, rec, rec->has & PERF_SAMPLE_PERIOD ? rec->period
								 : s->event_periods[rec->event],
			   &at, false, fn, ctx);
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
	if (s->nunknown_id)   /* perf_session__warn_about_errors */
		fprintf(stderr, "%s: warning: %" PRIu64 " samples with id not present in the header\n",
			s->tool->prog, s->nunknown_id);
	return rc;
}
