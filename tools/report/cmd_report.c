/*
 * cmd_report.c - pmutool report: samples and period per key, as the DTrace
 * cpc provider's examples aggregate them (samples by executable; a kernel
 * profile by the function of the kernel PC; the user functions of one
 * executable) and as `perf report --stdio --sort KEYS` lists them.
 *
 * Keys: comm, pid, tid, cpu, dso, sym (default comm,dso,sym, perf's).  One
 * table per event, rows by period, then samples, descending.  --comm NAME
 * keeps the samples of one command, their percentages of the whole (perf's
 * default --percentage absolute); --percent-limit P hides rows under P%.
 * An address no function holds is a row of its own, "0x%016x" as perf
 * prints it (sort.c _hist_entry__sym_snprintf).  --json gives the same
 * with stable keys.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_graph.h"
#include "report_pprof.h"
#include "tool_session.h"

enum { KEY_COMM, KEY_PID, KEY_TID, KEY_CPU, KEY_DSO, KEY_SYM, NKEYS };
static const char *const key_names[NKEYS] = {"comm", "pid", "tid", "cpu", "dso", "sym"};
static const char *const key_titles[NKEYS] = {"Command", "Pid", "Tid", "CPU",
					      "Shared Object", "Symbol"};

/* One row: the key's fields (those not sorted on stay zero) and its sums. */
struct row {
	int event;
	const char *comm, *dso, *sym;
	uint32_t pid, tid, cpu;
	char mode;                 /* of the key: '?' for an address in no file */
	char level;                /* shown: [k], [.] (the first sample's) */
	uint64_t addr;             /* sym: an address no function holds */
	bool used;
	uint64_t samples, period;  /* its own (perf's Self) */
	uint64_t children;         /* of the samples with it in their call
	                              graph (perf's Children) */
	uint32_t graph;            /* its call graph in report.graphs, 0: none */
};

struct report {
	int keys[NKEYS];
	int nkeys;
	const char *comm;          /* --comm: interned on first match */
	double percent_limit;      /* --percent-limit: rows under it hidden */
	bool children;             /* a Children column: the file has call
	                              graphs and --no-children was not given */
	bool draw;                 /* call graphs under the rows (-g) */
	bool caller;               /* drawn from the callers down (-g caller;
	                              perf's default with Children) */
	struct graph_pool graphs;
	struct row *rows;          /* open-addressing table */
	size_t cap, n;
	uint64_t *samples, *period; /* per event, of the rows kept */
	uint64_t *whole;           /* per event, every sample's period: what
	                              percentages are of, as perf's default
	                              --percentage absolute */
};

static int parse_sort(struct tool *t, struct report *r, const char *spec)
{
	char buf[256];
	tool_copy(buf, sizeof(buf), spec);
	for (char *save, *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		int found = -1;
		for (int i = 0; i < NKEYS; i++)
			if (!strcmp(k, key_names[i]))
				found = i;
		for (int i = 0; i < r->nkeys && found >= 0; i++)
			if (r->keys[i] == found) {
				tool_error(t, "--sort: key '%s' given twice", k);
				return EXIT_USAGE;
			}
		if (found < 0) {
			tool_error(t, "--sort: unknown key '%s' (comm, pid, tid, cpu, dso, sym)", k);
			return EXIT_USAGE;
		}
		r->keys[r->nkeys++] = found;
	}
	if (!r->nkeys) {
		tool_error(t, "--sort: no key (comm, pid, tid, cpu, dso, sym)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static bool sorted_on(const struct report *r, int key)
{
	for (int i = 0; i < r->nkeys; i++)
		if (r->keys[i] == key)
			return true;
	return false;
}

static uint64_t row_hash(const struct row *k)
{
	uint64_t h = (uint64_t)k->event * 0x9e3779b97f4a7c15ull;
	h = (h ^ (uintptr_t)k->comm) * 0x100000001b3ull;
	h = (h ^ (uintptr_t)k->dso) * 0x100000001b3ull;
	h = (h ^ (uintptr_t)k->sym) * 0x100000001b3ull;
	h = (h ^ ((uint64_t)k->pid << 32 | k->tid)) * 0x100000001b3ull;
	h = (h ^ k->addr) * 0x100000001b3ull;
	return (h ^ ((uint64_t)k->cpu << 8 | (uint8_t)k->mode)) * 0x9e3779b97f4a7c15ull;
}

static bool row_same(const struct row *a, const struct row *b)
{
	return a->event == b->event && a->comm == b->comm && a->dso == b->dso &&
	       a->sym == b->sym && a->pid == b->pid && a->tid == b->tid &&
	       a->cpu == b->cpu && a->mode == b->mode && a->addr == b->addr;
}

static struct row *row_slot(struct row *rows, size_t cap, const struct row *k)
{
	size_t i = (size_t)(row_hash(k) >> 11) & (cap - 1);
	while (rows[i].used && !row_same(&rows[i], k))
		i = (i + 1) & (cap - 1);
	return &rows[i];
}

static int grow(struct report *r)
{
	size_t cap = r->cap ? 2 * r->cap : 1024;
	struct row *rows = calloc(cap, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < r->cap; i++)
		if (r->rows[i].used)
			*row_slot(rows, cap, &r->rows[i]) = r->rows[i];
	free(r->rows);
	r->rows = rows;
	r->cap = cap;
	return 0;
}

/* The row of a sample at (its own IP's, or one of its call graph's
 * frames'): the keys sorted on.  addr_of_unknown: the address an
 * unresolved function's row goes by (perf's he->ip: the sample's in its
 * file, a frame's as it is). */
static struct row row_key(const struct report *r, const struct session_sample *smp,
			  const struct resolved *at, uint64_t addr_of_unknown)
{
	const struct pmurt_perf_record *rec = smp->rec;
	struct row k = {.event = rec->event};
	if (sorted_on(r, KEY_COMM))
		k.comm = smp->at.comm;
	if (sorted_on(r, KEY_PID))
		k.pid = rec->pid;
	if (sorted_on(r, KEY_TID))
		k.tid = rec->tid;
	if (sorted_on(r, KEY_CPU))
		k.cpu = rec->cpu;
	if (sorted_on(r, KEY_DSO))
		k.dso = at->dso;
	if (sorted_on(r, KEY_SYM)) {
		k.sym = at->sym;
		k.mode = k.level = at->mode;
		/* an address no function holds is a row of its own, by its
		 * address (perf's sort__sym_cmp on he->ip); in no file, by its
		 * address alone, whatever its level */
		if (!strcmp(k.sym, "[unknown]"))
			k.addr = addr_of_unknown;
		if (!strcmp(k.sym, "[unknown]") && !strcmp(at->dso, "[unknown]"))
			k.mode = '?';
	}
	return k;
}

/* The row of key k, made when new; NULL when out of memory. */
static struct row *row_of(struct report *r, const struct row *k)
{
	if ((r->n + 1) * 2 > r->cap && grow(r))
		return NULL;
	struct row *slot = row_slot(r->rows, r->cap, k);
	if (!slot->used) {
		*slot = *k;
		slot->used = true;
		r->n++;
	}
	return slot;
}

/* perf report's --max-stack default (PERF_MAX_STACK_DEPTH): the frames of
 * a call graph it walks, from the outermost in (caller order). */
#define MAX_STACK 127

/* The frames of rec's call graph to skip, innermost first, so that only
 * the MAX_STACK outermost are walked (machine.c
 * thread__resolve_callchain_sample in caller order). */
static uint64_t frames_to_skip(const struct pmurt_perf_record *rec)
{
	uint64_t frames = 0;
	for (uint64_t i = 0; i < rec->nr_callchain; i++)
		frames += rec->callchain[i] < PERF_CONTEXT_MAX;
	return frames > MAX_STACK ? frames - MAX_STACK : 0;
}

/* A frame of a sample's call graph: where it is, and its row's key. */
struct frame {
	struct graph_frame g;
	struct row key;
};

/* The frames of a sample's call graph that perf report walks (at most
 * MAX_STACK: the outermost in caller order, the innermost in callee
 * order), in the order drawn; their count, or -ENOMEM. */
static int sample_frames(struct report *r, struct session *s, const struct session_sample *smp,
			 struct frame *out)
{
	const struct pmurt_perf_record *rec = smp->rec;
	uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t skip = r->caller ? frames_to_skip(rec) : 0;
	int n = 0;
	for (uint64_t i = 0; i < rec->nr_callchain && n < MAX_STACK; i++) {
		uint64_t ip = rec->callchain[i];
		if (ip >= PERF_CONTEXT_MAX) {
			mode = session_context_mode(ip) ? session_context_mode(ip) : mode;
			continue;
		}
		if (skip) {
			skip--;
			continue;
		}
		struct resolved at;
		if (symbols_resolve(s->syms, rec->pid, rec->tid, ip, mode, &at) < 0)
			return -ENOMEM;
		bool unknown = !strcmp(at.sym, "[unknown]");
		out[n++] = (struct frame){.g = {.dso = strcmp(at.dso, "[unknown]") ? at.dso : NULL,
						.sym = unknown ? NULL : at.sym, .ip = ip,
						.start = unknown ? ip : ip - at.sym_offset},
					  .key = row_key(r, smp, &at, ip)};
	}
	for (int i = 0; r->caller && i < n / 2; i++) {   /* the outermost first */
		struct frame f = out[i];
		out[i] = out[n - 1 - i];
		out[n - 1 - i] = f;
	}
	/* a frame in no mapped file keeps the level ([k], [.]) of the frame
	 * before it in that order, the sample's for the first (perf's
	 * fill_callchain_info leaves the reused addr_location's level) */
	char level = smp->at.mode;
	for (int i = 0; i < n && sorted_on(r, KEY_SYM); i++) {
		if (out[i].g.dso)
			level = out[i].key.level;
		else if (!out[i].g.sym)
			out[i].key.level = level;
	}
	return n;
}

static struct graph_frame *graph_frames(const struct frame *f, int n, struct graph_frame *out)
{
	for (int i = 0; i < n; i++)
		out[i] = f[i].g;
	return out;
}

/* A sample's call graph: its own row's graph gets the whole chain; with
 * Children (perf's hist_entry_iter cumulative), each frame's row gets the
 * sample's period once however often it comes back (he_cache, the
 * outermost in caller order first) and the chain from that frame on. */
static int add_call_graph(struct report *r, struct session *s, const struct session_sample *smp,
			  struct row *self)
{
	struct frame f[MAX_STACK];
	struct graph_frame g[MAX_STACK];
	int n = sample_frames(r, s, smp, f);
	if (n < 0)
		return n;
	graph_frames(f, n, g);
	if (r->draw && graph_add(&r->graphs, &self->graph, g, n, smp->period))
		return -ENOMEM;
	if (!r->children)
		return 0;
	struct row seen[MAX_STACK + 1];   /* the keys credited already */
	int nseen = 0;
	seen[nseen++] = *self;
	self->children += smp->period;
	for (int i = 0; i < n; i++) {
		int j = 0;
		while (j < nseen && !row_same(&seen[j], &f[i].key))
			j++;
		if (j < nseen)
			continue;
		struct row *row = row_of(r, &f[i].key);
		if (!row)
			return -ENOMEM;
		row->children += smp->period;
		seen[nseen++] = f[i].key;
		if (r->draw && graph_add(&r->graphs, &row->graph, g + i, n - i, smp->period))
			return -ENOMEM;
	}
	return 0;
}

static int add_sample(void *ctx, struct session *s, const struct session_sample *smp)
{
	struct report *r = ctx;
	const struct pmurt_perf_record *rec = smp->rec;
	r->whole[rec->event] += smp->period;
	if (r->comm && strcmp(r->comm, smp->at.comm) != 0)
		return 0;
	struct row k = row_key(r, smp, &smp->at, smp->at.mode == '.' ? smp->at.map_ip : rec->ip);
	struct row *slot = row_of(r, &k);
	if (!slot) {
		tool_error(s->tool, "out of memory");
		return EXIT_INTERNAL;
	}
	/* the sample's period, else its attr's sample_period (session_run
	 * resolves it as perf's evsel__parse_sample does): a fixed-period
	 * (-c) file sums to perf report's "Event count (approx.)" */
	slot->samples++;
	slot->period += smp->period;
	r->samples[rec->event]++;
	r->period[rec->event] += smp->period;
	if ((r->children || r->draw) && (rec->has & PERF_SAMPLE_CALLCHAIN) &&
	    add_call_graph(r, s, smp, slot) < 0) {
		tool_error(s->tool, "out of memory");
		return EXIT_INTERNAL;
	}
	return 0;
}

/* Rows of one event together, then by period, samples, and names. */
static int by_weight(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->event != y->event)
		return x->event - y->event;
	if (x->children != y->children)   /* 0 without children */
		return x->children > y->children ? -1 : 1;
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	int c = strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "");
	if (!c)
		c = strcmp(x->dso ? x->dso : "", y->dso ? y->dso : "");
	if (!c)
		c = strcmp(x->sym ? x->sym : "", y->sym ? y->sym : "");
	if (!c)
		c = x->pid != y->pid ? (x->pid < y->pid ? -1 : 1)
		    : x->tid != y->tid ? (x->tid < y->tid ? -1 : 1)
		    : x->cpu != y->cpu ? (x->cpu < y->cpu ? -1 : 1)
		    : (x->addr > y->addr) - (x->addr < y->addr);
	return c;
}

/* The rows, packed and sorted; their count. */
static size_t pack_rows(struct report *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->cap; i++)
		if (r->rows[i].used)
			r->rows[n++] = r->rows[i];
	qsort(r->rows, n, sizeof(*r->rows), by_weight);
	return n;
}

static void key_text(const struct row *w, int key, char *buf, size_t len)
{
	switch (key) {
	case KEY_COMM: snprintf(buf, len, "%s", w->comm); break;
	case KEY_PID: snprintf(buf, len, "%u", w->pid); break;
	case KEY_TID: snprintf(buf, len, "%u", w->tid); break;
	case KEY_CPU: snprintf(buf, len, "%u", w->cpu); break;
	case KEY_DSO: session_dso_short(w->dso, buf, len); break;
	default:
		if (!strcmp(w->sym, "[unknown]"))
			/* "%-#.*llx" (sort.c): no "0x" before a 0 */
			snprintf(buf, len, "[%c] %#.16" PRIx64, w->level, w->addr);
		else
			snprintf(buf, len, "[%c] %s", w->level, w->sym);
		break;
	}
}

static double share(const struct report *r, const struct row *w, uint64_t period)
{
	return r->whole[w->event] ? 100.0 * (double)period / (double)r->whole[w->event] : 0;
}

static double percent(const struct report *r, const struct row *w)
{
	return share(r, w, w->period);
}

/* --percent-limit: perf hides entries whose overhead, or children when
 * they are shown, is under it (hist_entry__get_percent_limit). */
static bool shown(const struct report *r, const struct row *w)
{
	return share(r, w, r->children ? w->children : w->period) >= r->percent_limit;
}

static void print_event(const struct report *r, const struct session *s, int e,
			const struct row *rows, size_t n)
{
	int width[NKEYS];
	char text[512];
	for (int i = 0; i < r->nkeys; i++)
		width[i] = (int)strlen(key_titles[r->keys[i]]);
	for (size_t j = 0; j < n; j++)
		for (int i = 0; i < r->nkeys && shown(r, &rows[j]); i++) {
			key_text(&rows[j], r->keys[i], text, sizeof(text));
			if ((int)strlen(text) > width[i])
				width[i] = (int)strlen(text);
		}
	printf("# Event '%s': %" PRIu64 " samples, period %" PRIu64 "\n#\n", s->event_names[e],
	       r->samples[e], r->period[e]);
	char head[1024];
	int hl = snprintf(head, sizeof(head), "# %10s %14s", "Samples", "Period");
	hl += snprintf(head + hl, sizeof(head) - (size_t)hl, r->children ? " %8s %8s" : " %8s",
		       r->children ? "Children" : "Overhead", "Self");
	for (int i = 0; i < r->nkeys && hl < (int)sizeof(head); i++)
		hl += snprintf(head + hl, sizeof(head) - (size_t)hl, "  %-*s", width[i],
			       key_titles[r->keys[i]]);
	tool_line("%s", head);
	for (size_t j = 0; j < n; j++) {
		if (!shown(r, &rows[j]))
			continue;
		char line[2048];
		int len = snprintf(line, sizeof(line), "  %10" PRIu64 " %14" PRIu64, rows[j].samples,
				   rows[j].period);
		if (r->children)
			len += snprintf(line + len, sizeof(line) - (size_t)len, " %7.2f%%",
					share(r, &rows[j], rows[j].children));
		len += snprintf(line + len, sizeof(line) - (size_t)len, " %7.2f%%",
				percent(r, &rows[j]));
		for (int i = 0; i < r->nkeys && len < (int)sizeof(line); i++) {
			key_text(&rows[j], r->keys[i], text, sizeof(text));
			len += snprintf(line + len, sizeof(line) - (size_t)len, "  %-*s", width[i], text);
		}
		tool_line("%s", line);
		if (r->draw)
			graph_print(&r->graphs, rows[j].graph, r->whole[e],
				    r->children ? rows[j].children : rows[j].period,
				    r->keys[0] == KEY_SYM, stdout);
	}
	putchar('\n');
}

static void print_stdio(const struct report *r, const struct session *s, size_t n)
{
	printf("# pmutool report: %s, %" PRIu64 " samples, %" PRIu64 " lost\n#\n", s->path,
	       s->nsamples, s->nlost);
	size_t j = 0;
	for (int e = 0; e < s->info.nevents; e++) {
		size_t first = j;
		while (j < n && r->rows[j].event == e)
			j++;
		if (r->samples[e])
			print_event(r, s, e, r->rows + first, j - first);
	}
}

/* The function's name, or the address no function holds ("0x..."). */
static json_t *json_sym(const struct row *w)
{
	char text[512];
	key_text(w, KEY_SYM, text, sizeof(text));
	return json_string(text + 4);   /* after "[m] " */
}

static json_t *json_row(const struct report *r, const struct row *w)
{
	json_t *o = json_pack("{s:I, s:I, s:f}", "samples", (json_int_t)w->samples,
			      "period", (json_int_t)w->period, "percent", percent(r, w));
	if (o && r->children) {
		json_object_set_new(o, "children_period", json_integer((json_int_t)w->children));
		json_object_set_new(o, "children_percent", json_real(share(r, w, w->children)));
	}
	for (int i = 0; o && i < r->nkeys; i++) {
		switch (r->keys[i]) {
		case KEY_COMM: json_object_set_new(o, "comm", json_string(w->comm)); break;
		case KEY_PID: json_object_set_new(o, "pid", json_integer(w->pid)); break;
		case KEY_TID: json_object_set_new(o, "tid", json_integer(w->tid)); break;
		case KEY_CPU: json_object_set_new(o, "cpu", json_integer(w->cpu)); break;
		case KEY_DSO: json_object_set_new(o, "dso", json_string(w->dso)); break;
		default:
			json_object_set_new(o, "sym", json_sym(w));
			json_object_set_new(o, "mode", json_string(w->level == 'k' ? "kernel"
							 : w->level == '.' ? "user"
							 : w->level == 'H' ? "hypervisor" : "unknown"));
		}
	}
	return o;
}

static int print_json(const struct report *r, const struct session *s, size_t n)
{
	json_t *keys = json_array(), *events = json_array();
	for (int i = 0; keys && i < r->nkeys; i++)
		json_array_append_new(keys, json_string(key_names[r->keys[i]]));
	for (int e = 0; events && e < s->info.nevents; e++) {
		json_t *rows = json_array();
		for (size_t j = 0; rows && j < n; j++)
			if (r->rows[j].event == e && shown(r, &r->rows[j]))
				json_array_append_new(rows, json_row(r, &r->rows[j]));
		json_array_append_new(events, json_pack("{s:s, s:I, s:I, s:o*}", "name",
							s->event_names[e], "samples",
							(json_int_t)r->samples[e], "period",
							(json_int_t)r->period[e], "rows", rows));
	}
	json_t *doc = json_pack("{s:i, s:s, s:I, s:I, s:o*, s:o*}", "version", 1, "file", s->path,
				"samples", (json_int_t)s->nsamples, "lost", (json_int_t)s->nlost,
				"sort", keys, "events", events);
	int rc = doc ? json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : -1;
	json_decref(doc);
	if (rc)
		return EXIT_INTERNAL;
	putchar('\n');
	return EXIT_OK;
}

/* Whether an event's samples carry call graphs (recorded with -g). */
static bool has_call_graphs(const struct session *s)
{
	for (int e = 0; e < s->info.nevents; e++) {
		struct pmurt_perf_event_info ev = {.sz = sizeof(ev)};
		if (!pmurt_perf_event(s->file, e, &ev) && (ev.sample_type & PERF_SAMPLE_CALLCHAIN))
			return true;
	}
	return false;
}

/* --pprof: the table's own options would change nothing. */
static int report_pprof_only(struct tool *t)
{
	const char *opt = t->sort ? "--sort" : t->json ? "--json" : t->percent_limit ? "--percent-limit"
			  : t->children_given ? "--children" : t->call_graph ? "-g" : NULL;
	if (opt) {
		tool_error(t, "%s changes nothing with --pprof (the profile holds every sample "
			   "and its whole call graph)", opt);
		return EXIT_USAGE;
	}
	return report_pprof(t, t->pprof);
}

int cmd_report(struct tool *t)
{
	struct report r = {.comm = t->comm, .percent_limit = t->percent_limit};
	if (t->nargs) {
		tool_error(t, "report takes no operand ('%s'): the file is given with -i", t->args[0]);
		return EXIT_USAGE;
	}
	if (t->call_graph && strcmp(t->call_graph, "caller") && strcmp(t->call_graph, "callee") &&
	    strcmp(t->call_graph, "none")) {
		tool_error(t, "-g: '%s' is not caller, callee or none", t->call_graph);
		return EXIT_USAGE;
	}
	if (t->pprof)   /* a profile, not the table */
		return report_pprof_only(t);
	int rc = parse_sort(t, &r, t->sort ? t->sort : "comm,dso,sym");
	if (rc)
		return rc;
	struct session s;
	rc = session_open(&s, t, t->input);
	if (!rc) {
		r.samples = calloc((size_t)s.info.nevents, sizeof(*r.samples));
		r.period = calloc((size_t)s.info.nevents, sizeof(*r.period));
		r.whole = calloc((size_t)s.info.nevents, sizeof(*r.whole));
		if (!r.samples || !r.period || !r.whole || grow(&r)) {
			tool_error(t, "out of memory");
			rc = EXIT_INTERNAL;
		}
	}
	if (!rc) {
		bool graphs = has_call_graphs(&s);
		r.children = !t->no_children && graphs;
		/* perf: callers first with Children, callees first without */
		r.caller = t->call_graph ? !strcmp(t->call_graph, "caller") : r.children;
		r.draw = graphs && !t->json && !(t->call_graph && !strcmp(t->call_graph, "none"));
	}
	if (!rc)
		rc = session_run(&s, add_sample, &r);
	if (!rc) {
		size_t n = pack_rows(&r);
		rc = t->json ? print_json(&r, &s, n) : (print_stdio(&r, &s, n), EXIT_OK);
	}
	free(r.rows);
	free(r.samples);
	free(r.period);
	free(r.whole);
	graph_free(&r.graphs);
	session_close(&s);
	return rc;
}
