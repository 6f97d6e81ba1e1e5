/*
 * report_pprof.c - `pmutool report --pprof OUT`: the samples of a
 * perf.data file as a gzipped pprof profile (export/pprof.h), for the
 * continuous profilers that ingest pprof (Parca, Pyroscope, Google Cloud
 * Profiler).  profile.proto's meanings, as that file documents them:
 *
 *  - sample types: two per event, "EVENT_samples" (unit "count", the
 *    samples) and "EVENT" (the period summed: "nanoseconds" for the clock
 *    events, whose period is in ns, else "count"), in the file's event
 *    order; a sample carries its own event's two values, zeros elsewhere
 *    (as google/perf_data_converter lays out a multi-event file); the
 *    default sample type is the first event's period;
 *  - the stack: the sample's call graph, leaf first, as the kernel wrote it
 *    (PERF_CONTEXT_* markers switch kernel and user resolution, as perf's
 *    thread__resolve_callchain_sample does), else the sample's ip alone;
 *    frames are the locations of their runtime addresses, each in the
 *    mapping of its MMAP record (start, limit, file offset, file, build id
 *    from the file's HEADER_BUILD_ID) or in one "[kernel.kallsyms]" (or
 *    module) mapping spanning the kernel addresses seen; functions have
 *    perf's demangled name and the symbol table's name as system_name; an
 *    address no symbol holds is a location without a function;
 *  - source lines, where the mapped file (or its separate debug file) has
 *    DWARF (source_lines.h): a function's file and start_line are those
 *    declaring it (its DW_AT_decl_file and _line), a location's line the
 *    line table's line of its address (of the call instruction, the byte
 *    before the return address, for a caller's frame); a line inlined
 *    from another file than its function's is left out (0), since a pprof
 *    line names no file but its function's.  Kernel frames have none;
 *  - labels: comm, pid, tid, and cpu when the samples have it, all as
 *    strings: Pyroscope and Parca take string labels, and a numeric label
 *    of 0 without a unit (cpu 0, the idle task's pid) is one Go's pprof
 *    drops (profile/encode.go keeps a label whose num or num_unit is set);
 *  - time_nanos: when the recording started, taken as perf report's
 *    "captured on" (the file's modification time) less the span of the
 *    sample times, which is duration_nanos; period_type and period: the
 *    first event's, when sampled at a fixed period.
 *
 * The session is report's (tool_session.h): records in time order, maps
 * and comms followed, symbols resolved as report resolves them, a DWARF
 * recording's user stacks unwound, report's filters applied (a sample
 * they hide or drop is left out), so the profile's totals are report's.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pprof.h"
#include "report_pprof.h"
#include "source_lines.h"
#include "tool_session.h"

/* (a, b) -> id, open addressing; ids are never 0. */
struct pair_map {
	struct pair_slot {
		uint64_t a, b, id;
	} *v;
	size_t cap, n;
};

static uint64_t pair_hash(uint64_t a, uint64_t b)
{
	uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

static struct pair_slot *pair_find(const struct pair_map *m, uint64_t a, uint64_t b)
{
	size_t i = (size_t)pair_hash(a, b) & (m->cap - 1);
	while (m->v[i].id && !(m->v[i].a == a && m->v[i].b == b))
		i = (i + 1) & (m->cap - 1);
	return &m->v[i];
}

/* The slot of (a, b), made room for; NULL when out of memory. */
static struct pair_slot *pair_slot(struct pair_map *m, uint64_t a, uint64_t b)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct pair_map bigger = {.cap = m->cap ? 2 * m->cap : 1024, .n = m->n};
		if (!(bigger.v = calloc(bigger.cap, sizeof(*bigger.v))))
			return NULL;
		for (size_t i = 0; i < m->cap; i++)
			if (m->v[i].id)
				*pair_find(&bigger, m->v[i].a, m->v[i].b) = m->v[i];
		free(m->v);
		*m = bigger;
	}
	return pair_find(m, a, b);
}

struct pprof_report {
	struct pprof_writer *w;
	struct pmurt_error err;
	struct report_filter filter;   /* --comms, --pid, ... as report's */
	int nevents;
	int64_t *values;           /* 2 per event, one sample's */
	struct pair_map mappings;  /* (dso, map start) -> mapping */
	struct pair_map functions; /* (dso, symbol name) -> function */
	struct pair_map locations; /* (mapping, address) -> location */
	const char **function_files;  /* per function id: its file, NULL: none */
	size_t nfunction_files;
	struct source_lines *lines;
	uint64_t *user_hits;       /* per mapping id: samples whose leaf is there
	                              in user space (the main one has most) */
	size_t nhits;
	uint64_t leaf;             /* the current sample's leaf's user mapping */
	uint64_t first_time, last_time;
	bool timed;
};

/* The clock events count nanoseconds (perf's cpu-clock and task-clock,
 * PERF_COUNT_SW_CPU_CLOCK and _TASK_CLOCK); every other period is events. */
static const char *period_unit(uint32_t type, uint64_t config)
{
	return type == PERF_TYPE_SOFTWARE && (config == PERF_COUNT_SW_CPU_CLOCK ||
					      config == PERF_COUNT_SW_TASK_CLOCK)
		       ? "nanoseconds" : "count";
}

/* The file's recorded build id of dso, as hex in buf; NULL when none. */
static const char *build_id_of(const struct session *s, const char *dso, char *buf, size_t len)
{
	struct pmurt_build_id id;
	if (len < 2 * PMURT_BUILD_ID_MAX + 1 || pmurt_perf_build_id(s->file, dso, &id) || !id.len)
		return NULL;
	for (size_t i = 0; i < id.len; i++)
		snprintf(buf + 2 * i, 3, "%02x", id.id[i]);
	return buf;
}

/* The mapping of a resolved frame: its user map, else one per kernel
 * file ("[kernel.kallsyms]", a module) widened to the addresses seen;
 * 0 for an address in no file. */
static int mapping_of(struct pprof_report *p, const struct session *s, const struct resolved *at,
		      uint64_t ip, uint64_t *id)
{
	*id = 0;
	if (at->mode != 'k' && !at->map_end)
		return 0;   /* in no mapped file */
	bool kernel = at->mode == 'k';
	struct pair_slot *slot = pair_slot(&p->mappings, (uintptr_t)at->dso,
					   kernel ? 0 : at->map_start);
	if (!slot)
		return -ENOMEM;
	if (!slot->id) {
		char hex[2 * PMURT_BUILD_ID_MAX + 1];
		struct pprof_mapping m = {.memory_start = kernel ? ip : at->map_start,
					  .memory_limit = kernel ? ip + 1 : at->map_end,
					  .file_offset = kernel ? 0 : at->map_pgoff,
					  .filename = at->dso,
					  .build_id = build_id_of(s, at->dso, hex, sizeof(hex)),
					  .has_functions = true};
		int rc = pprof_mapping_add(p->w, &m, &slot->id, &p->err);
		if (rc)
			return rc;
		slot->a = (uintptr_t)at->dso;
		slot->b = kernel ? 0 : at->map_start;
		p->mappings.n++;
	}
	if (kernel)
		pprof_mapping_cover(p->w, slot->id, ip, ip + 1);
	*id = slot->id;
	return 0;
}

static int function_of(struct pprof_report *p, const struct resolved *at,
		       const struct source_line *src, uint64_t *id)
{
	*id = 0;
	if (!strcmp(at->sym, "[unknown]"))
		return 0;
	struct pair_slot *slot = pair_slot(&p->functions, (uintptr_t)at->dso, (uintptr_t)at->sym);
	if (!slot)
		return -ENOMEM;
	if (!slot->id) {
		struct pprof_function f = {.name = at->sym, .system_name = at->sym_raw,
					   .filename = src->function_file,
					   .start_line = src->function_line};
		int rc = pprof_function(p->w, &f, &slot->id, &p->err);
		if (rc)
			return rc;
		if (slot->id >= p->nfunction_files) {
			size_t n = (size_t)slot->id * 2 + 16;
			const char **v = realloc(p->function_files, n * sizeof(*v));
			if (!v)
				return -ENOMEM;
			memset(v + p->nfunction_files, 0, (n - p->nfunction_files) * sizeof(*v));
			p->function_files = v;
			p->nfunction_files = n;
		}
		p->function_files[slot->id] = src->function_file;
		slot->a = (uintptr_t)at->dso;
		slot->b = (uintptr_t)at->sym;
		p->functions.n++;
	}
	*id = slot->id;
	return 0;
}

/* The source of a user frame in a mapped file (none: zeros); a caller's
 * (not leaf) is its call instruction's, the byte before ip. */
static int source_of(struct pprof_report *p, const struct session *s, const struct resolved *at,
		     uint32_t pid, uint64_t ip, bool leaf, struct source_line *src)
{
	struct user_map m;
	*src = (struct source_line){0};
	if (at->mode != '.' || !at->map_end || !strcmp(at->sym, "[unknown]"))
		return 0;
	int rc = symbols_user_map(s->syms, pid, ip, &m);
	if (rc <= 0 || !m.file || (!leaf && !at->map_ip))
		return rc < 0 ? rc : 0;
	rc = source_lines_find(p->lines, m.file, at->map_ip - !leaf, src);
	return rc < 0 ? rc : 0;
}

/* The location of a frame of process pid; *mapping its mapping (0: none). */
static int location_of(struct pprof_report *p, const struct session *s, const struct resolved *at,
		       uint32_t pid, uint64_t ip, bool leaf, uint64_t *id, uint64_t *mapping)
{
	uint64_t function;
	struct source_line src;
	int rc = mapping_of(p, s, at, ip, mapping);
	struct pair_slot *slot = rc ? NULL : pair_slot(&p->locations, *mapping, ip);
	if (!rc && !slot)
		rc = -ENOMEM;
	if (!rc && slot->id) {
		*id = slot->id;
		return 0;
	}
	if (!rc)
		rc = source_of(p, s, at, pid, ip, leaf, &src);
	if (!rc)
		rc = function_of(p, at, &src, &function);
	/* the line only when in its function's file (see the top) */
	const char *file = !rc && function ? p->function_files[function] : NULL;
	int64_t line = src.file && file && !strcmp(src.file, file) ? src.line : 0;
	if (!rc)
		rc = pprof_location(p->w, *mapping, ip, function, line, id, &p->err);
	if (!rc) {
		*slot = (struct pair_slot){*mapping, ip, *id};
		p->locations.n++;
	}
	return rc;
}

/* Counts a sample whose leaf is in user mapping id (0: none there). */
static int count_leaf(struct pprof_report *p, uint64_t id)
{
	if (id >= p->nhits) {
		size_t n = (size_t)id * 2 + 16;
		uint64_t *v = realloc(p->user_hits, n * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + p->nhits, 0, (n - p->nhits) * sizeof(*v));
		p->user_hits = v;
		p->nhits = n;
	}
	p->user_hits[id]++;
	return 0;
}

/* profile.proto's mapping[0], "the main binary": the user file most
 * samples were in. */
static void pick_main(struct pprof_report *p)
{
	uint64_t best = 0;
	for (size_t id = 1; id < p->nhits; id++)
		if (p->user_hits[id] > (best ? p->user_hits[best] : 0))
			best = id;
	if (best)
		pprof_set_main(p->w, best);
}

/* One frame of the stack: the location of ip, resolved in mode. */
static int add_frame(struct pprof_report *p, struct session *s, const struct pmurt_perf_record *rec,
		     uint64_t ip, uint16_t mode, uint64_t *loc, bool leaf)
{
	struct resolved at;
	uint64_t mapping;
	int rc = symbols_resolve(s->syms, rec->pid, rec->tid, ip, mode, &at);
	if (!rc)
		rc = location_of(p, s, &at, rec->pid, ip, leaf, loc, &mapping);
	if (!rc && leaf && at.mode == '.')
		p->leaf = mapping;
	return rc;
}

/* The sample's stack, leaf first: its call graph's frames (then those a
 * DWARF unwinding finds, as report walks them), else its ip; a chain perf
 * takes for corrupted (session_chain_corrupt) is none. */
static int sample_stack(struct pprof_report *p, struct session *s, const struct session_sample *smp,
			uint64_t *locs, int max)
{
	const struct pmurt_perf_record *rec = smp->rec;
	int n = 0, rc = 0;
	uint64_t mapping, user[SESSION_MAX_STACK];
	p->leaf = 0;
	int nuser = session_user_frames(s, rec, user);
	if (nuser < 0)
		return nuser;
	bool chain = (rec->has & PERF_SAMPLE_CALLCHAIN) && rec->nr_callchain &&
		     !session_chain_corrupt(rec, INT_MAX);
	if (!chain && !nuser) {
		rc = location_of(p, s, &smp->at, rec->pid, rec->ip, true, &locs[0], &mapping);
		p->leaf = smp->at.mode == '.' ? mapping : 0;
		return rc ? rc : 1;
	}
	uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	for (uint64_t i = 0; chain && i < rec->nr_callchain && n < max && !rc; i++) {
		uint64_t ip = rec->callchain[i];
		if (ip >= PERF_CONTEXT_MAX) {
			mode = session_context_mode(ip) ? session_context_mode(ip) : mode;
			continue;
		}
		rc = add_frame(p, s, rec, ip, mode, &locs[n], n == 0);
		n++;
	}
	for (int i = 0; i < nuser && n < max && !rc; i++, n++)
		rc = add_frame(p, s, rec, user[i], PERF_RECORD_MISC_USER, &locs[n], n == 0);
	return rc ? rc : n;
}

static int add_sample(void *ctx, struct session *s, const struct session_sample *smp)
{
	struct pprof_report *p = ctx;
	const struct pmurt_perf_record *rec = smp->rec;
	if (rec->has & PERF_SAMPLE_TIME) {
		if (!p->timed || rec->time < p->first_time)
			p->first_time = rec->time;
		if (!p->timed || rec->time > p->last_time)
			p->last_time = rec->time;
		p->timed = true;
	}
	if (report_filter_sample(&p->filter, smp) != FILTER_KEEP)
		return 0;
	uint64_t locs[PERF_MAX_STACK_DEPTH + SESSION_MAX_STACK + 8];
	int n = sample_stack(p, s, smp, locs, (int)(sizeof(locs) / sizeof(locs[0])));
	char pid[16], tid[16], cpu[16];
	snprintf(pid, sizeof(pid), "%u", rec->pid);
	snprintf(tid, sizeof(tid), "%u", rec->tid);
	snprintf(cpu, sizeof(cpu), "%u", rec->cpu);
	struct pprof_label labels[4] = {{.key = "comm", .str = smp->at.comm},
					{.key = "pid", .str = pid}, {.key = "tid", .str = tid},
					{.key = "cpu", .str = cpu}};
	int nlabels = rec->has & PERF_SAMPLE_CPU ? 4 : 3;
	memset(p->values, 0, 2 * (size_t)p->nevents * sizeof(*p->values));
	p->values[2 * rec->event] = 1;
	/* a period past int64 (a damaged file) held at its largest */
	p->values[2 * rec->event + 1] = smp->period > INT64_MAX ? INT64_MAX : (int64_t)smp->period;
	if (n >= 0)
		n = pprof_sample(p->w, locs, n, p->values, labels, nlabels, &p->err);
	if (n >= 0 && p->leaf && count_leaf(p, p->leaf))
		n = -ENOMEM;
	if (n < 0) {
		tool_error(s->tool, "--pprof: %s", p->err.message[0] ? p->err.message
									: strerror(-n));
		return n == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	return 0;
}

/* Sample types: EVENT_samples and EVENT for each event (names in names). */
static struct pprof_value_type *sample_types(const struct session *s, char **names)
{
	int n = s->info.nevents;
	struct pprof_value_type *v = calloc(2 * (size_t)n, sizeof(*v));
	for (int e = 0; v && e < n; e++) {
		size_t len = strlen(s->event_names[e]) + sizeof("_samples");
		if (!(names[e] = malloc(len))) {
			free(v);
			return NULL;
		}
		snprintf(names[e], len, "%s_samples", s->event_names[e]);
		v[2 * e] = (struct pprof_value_type){names[e], "count"};
		v[2 * e + 1] = (struct pprof_value_type){s->event_names[e],
			period_unit(s->event_types[e], s->event_configs[e])};
	}
	return v;
}

/* The profile's informational fields (see the top of the file). */
static int finish(struct pprof_report *p, const struct session *s, const struct report_opts *opts)
{
	const char *path = opts->pprof;
	struct pprof_info info = {.default_sample_type = s->info.nevents ? 1 : -1};
	struct stat st;
	if (p->timed)
		info.duration_nanos = (int64_t)(p->last_time - p->first_time);
	if (!opts->input_bytes && !s->info.pipe_format && stat(s->path, &st) == 0)
		info.time_nanos = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec -
				  info.duration_nanos;
	struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
	if (s->info.nevents && pmurt_perf_event(s->file, 0, &ev) == 0 && !ev.freq) {
		info.period_type = (struct pprof_value_type){s->event_names[0],
			period_unit(s->event_types[0], s->event_configs[0])};
		info.period = (int64_t)ev.sample_period;
	}
	char what[4][512];
	const char *comments[4];
	snprintf(what[0], sizeof(what[0]), "pmutool report --pprof %s", path);
	snprintf(what[1], sizeof(what[1]), "host: %s", s->info.hostname ? s->info.hostname : "");
	snprintf(what[2], sizeof(what[2]), "perf-version: %s", s->info.version ? s->info.version : "");
	snprintf(what[3], sizeof(what[3]), "perf-command: %s", s->info.cmdline ? s->info.cmdline : "");
	for (int i = 0; i < 4; i++)
		comments[i] = what[i];
	info.comments = comments;
	info.ncomments = 4;
	pick_main(p);
	return pprof_finish(p->w, &info, &p->err);
}

int report_pprof(const struct tool *t, const struct report_opts *opts)
{
	const char *path = opts->pprof;
	struct session s;
	struct pprof_report p = {0};
	int rc = session_open(&s, t, opts->input, opts->input_bytes, opts->input_size);
	if (!rc)
		rc = report_filter_init(&p.filter, &opts->filter, &s);
	if (rc) {
		report_filter_free(&p.filter);
		session_close(&s);
		return rc;
	}
	p.nevents = s.info.nevents;
	char **names = calloc((size_t)s.info.nevents + 1, sizeof(*names));
	struct pprof_value_type *types = names ? sample_types(&s, names) : NULL;
	p.values = calloc(2 * (size_t)s.info.nevents + 1, sizeof(*p.values));
	FILE *out = fopen(path, "w");
	if (!out)
		tool_error(t, "--pprof %s: %s", path, strerror(errno));
	p.lines = source_lines_new(&s.elf);
	if (!types || !p.values || !p.lines)
		tool_error(t, "out of memory");
	rc = !out ? EXIT_USAGE : !types || !p.values || !p.lines ? EXIT_INTERNAL : EXIT_OK;
	if (!rc && pprof_writer_open(&p.w, out, types, 2 * s.info.nevents, NULL, &p.err) < 0) {
		tool_error(t, "--pprof %s: %s", path, p.err.message);
		rc = EXIT_INTERNAL;
	}
	if (!rc)
		rc = session_run(&s, add_sample, &p);
	if (!rc && finish(&p, &s, opts) < 0) {
		tool_error(t, "--pprof %s: %s", path, p.err.message);
		rc = EXIT_INTERNAL;
	}
	if (out && fclose(out) != 0 && !rc) {
		tool_error(t, "--pprof %s: writing failed", path);
		rc = EXIT_INTERNAL;
	}
	pprof_writer_free(p.w);
	for (int e = 0; names && e < s.info.nevents; e++)
		free(names[e]);
	free(names);
	free(types);
	free(p.values);
	free(p.mappings.v);
	free(p.user_hits);
	free(p.functions.v);
	free(p.locations.v);
	free(p.function_files);
	source_lines_free(p.lines);
	report_filter_free(&p.filter);
	session_close(&s);
	return rc;
}
