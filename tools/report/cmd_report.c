/*
 * cmd_report.c - pmutool report: samples and period per key, as the DTrace
 * cpc provider's examples aggregate them (samples by executable; a kernel
 * profile by the function of the kernel PC; the user functions of one
 * executable) and as `perf report --stdio --sort KEYS` lists them.
 *
 * Keys: comm, pid, tid, cpu, dso, sym (default comm,dso,sym, perf's).  One
 * table per event, rows in perf's order (by_weight).  --comm NAME
 * keeps the samples of one command, their percentages of the whole (perf's
 * default --percentage absolute); --percent-limit P hides rows under P%.
 * An address no function holds is a row of its own, "0x%016x" as perf
 * prints it (sort.c _hist_entry__sym_snprintf).  --json gives the same
 * with stable keys.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report_graph.h"
#include "report_group.h"
#include "report_opts.h"
#include "report_pprof.h"
#include "tool_session.h"

enum { KEY_COMM, KEY_PID, KEY_TID, KEY_CPU, KEY_DSO, KEY_SYM, NKEYS };
static const char *const key_names[NKEYS] = {"comm", "pid", "tid", "cpu", "dso", "sym"};
/* perf 6.1's sort.c se_header; its "pid" key is per thread (sort_thread) */
static const char *const key_titles[NKEYS] = {"Command", "Pid:Command", "Tid", "CPU",
					      "Shared Object", "Symbol"};

/* One row: the key's fields (those not sorted on stay zero) and its sums. */
struct row {
	int event;
	const char *comm, *dso, *sym;
	const char *sym_dso;       /* sym: its file, told apart when not sorted on */
	const char *thread_comm;   /* pid: the thread's last command, as perf shows it */
	uint32_t pid, tid;
	int32_t cpu;               /* -1: the samples carry none (per task) */
	char mode;                 /* of the key: '?' for an address in no file */
	char level;                /* shown: [k], [.] (the first sample's) */
	uint64_t addr;             /* sym: an address no function holds */
	bool used;
	uint64_t samples, period;  /* its own (perf's Self) */
	uint64_t children;         /* of the samples with it in their call
	                              graph (perf's Children) */
	uint32_t thread;           /* its first sample's tid (perf's he->thread) */
	uint32_t depth;            /* the most frames walked from it on in a
	                              sample (its callchain's max_depth) */
	uint32_t rank;             /* among rows of equal Children: see
	                              caller_above_callee (0 unless set there) */
	uint32_t graph;            /* its call graph in report.graphs, 0: none */
	int nmembers;              /* the group view: its table's events, */
	uint64_t *members;         /* the sums of those after the leader
	                              (report_group_sums), NULL when alone */
};

struct report {
	int keys[NKEYS];
	int nkeys;
	struct report_filter filter;
	int max_stack;             /* --max-stack: frames of a chain walked */
	struct frame *frames;      /* scratch for a sample's frames: max_stack */
	struct graph_frame *graph_frames;
	struct row *seen;          /* max_stack + 1 */
	double percent_limit;      /* --percent-limit: rows under it hidden */
	bool children;             /* a Children column: the file has call
	                              graphs and --no-children was not given */
	bool callchains;           /* the file's call graphs in use (not -g none:
	                              perf's symbol_conf.use_callchain) */
	bool draw;                 /* call graphs under the rows (-g) */
	bool caller;               /* drawn from the callers down (-g caller;
	                              perf's default with Children) */
	double min_percent;        /* -g graph,P: branches under P% not drawn */
	struct graph_pool graphs;
	struct row *rows;          /* open-addressing table */
	size_t cap, n;
	uint64_t *samples, *period; /* per event, of the rows kept */
	uint64_t *whole;           /* per event, every sample's period: what
	                              percentages are of, as perf's default
	                              --percentage absolute */
	struct report_groups groups;   /* the table each event's rows go to */
};

/* A --sort key: one of ours by name, else the first of perf's that the
 * text begins (sort.c sort_dimension__add: strncasecmp over its table in
 * the order pid, comm, dso, symbol, ..., cpu), so that "symbol", "sym"
 * and "s" name one key; -1 when none. */
static int sort_key(const char *k)
{
	static const struct { const char *name; int key; } perf_keys[] = {
		{"pid", KEY_PID}, {"comm", KEY_COMM}, {"dso", KEY_DSO}, {"symbol", KEY_SYM},
		{"cpu", KEY_CPU},
	};
	for (int i = 0; i < NKEYS; i++)
		if (!strcmp(k, key_names[i]))
			return i;
	for (size_t i = 0; *k && i < sizeof(perf_keys) / sizeof(perf_keys[0]); i++)
		if (!strncasecmp(perf_keys[i].name, k, strlen(k)))
			return perf_keys[i].key;
	return -1;
}

static int parse_sort(const struct tool *t, struct report *r, const char *spec)
{
	char buf[256];
	tool_copy(buf, sizeof(buf), spec);
	for (char *save, *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		int found = sort_key(k);
		for (int i = 0; i < r->nkeys && found >= 0; i++)
			if (r->keys[i] == found) {
				tool_error(t, "--sort: key '%s' given twice", k);
				return EXIT_USAGE;
			}
		if (found < 0) {
			tool_error(t, "--sort: unknown key '%s' (comm, pid, tid, cpu, dso, symbol)", k);
			return EXIT_USAGE;
		}
		r->keys[r->nkeys++] = found;
	}
	if (!r->nkeys) {
		tool_error(t, "--sort: no key (comm, pid, tid, cpu, dso, symbol)");
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
	h = (h ^ (uintptr_t)k->sym ^ (uintptr_t)k->sym_dso) * 0x100000001b3ull;
	h = (h ^ ((uint64_t)k->pid << 32 | k->tid)) * 0x100000001b3ull;
	h = (h ^ k->addr) * 0x100000001b3ull;
	return (h ^ ((uint64_t)k->cpu << 8 | (uint8_t)k->mode)) * 0x9e3779b97f4a7c15ull;
}

static bool row_same(const struct row *a, const struct row *b)
{
	return a->event == b->event && a->comm == b->comm && a->dso == b->dso &&
	       a->sym == b->sym && a->sym_dso == b->sym_dso && a->pid == b->pid && a->tid == b->tid &&
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
	struct row k = {.event = r->groups.lead[rec->event], .thread = rec->tid};
	if (sorted_on(r, KEY_COMM))
		k.comm = smp->at.comm;
	if (sorted_on(r, KEY_PID)) { /* perf's thread: its tid (its command added when printed) */
		k.pid = rec->pid;
		k.tid = rec->tid;
	}
	if (sorted_on(r, KEY_TID))
		k.tid = rec->tid;
	if (sorted_on(r, KEY_CPU)) /* perf's he->cpu: -1 without PERF_SAMPLE_CPU */
		k.cpu = rec->has & PERF_SAMPLE_CPU ? (int32_t)rec->cpu : -1;
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
		else {   /* one row per function, not per name: two C++
			  * overloads show one name (sort.c sort__sym_cmp:
			  * the file, then _sort__sym_cmp's start address) */
			k.addr = at->map_ip - at->sym_offset;
			k.sym_dso = at->dso;
		}
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
		slot->nmembers = r->groups.size[k->event];
		if (slot->nmembers > 1 &&
		    !(slot->members = report_group_sums(&r->groups, slot->nmembers)))
			return NULL;
		slot->used = true;
		r->n++;
	}
	return slot;
}

/* A sample's own period to the row, as the m-th event of its table. */
static void credit_self(struct row *w, int m, uint64_t period)
{
	if (m) {
		w->members[3 * (m - 1)]++;
		w->members[3 * (m - 1) + 1] += period;
	} else {
		w->samples++;
		w->period += period;
	}
}

/* A sample's period to the Children of a row in its call graph. */
static void credit_children(struct row *w, int m, uint64_t period)
{
	if (m)
		w->members[3 * (m - 1) + 2] += period;
	else
		w->children += period;
}

/* The depth of a row's chains: the leader's (perf sorts a group's rows by
 * the leader's entries, hists__link adds the members' to them) */
static void deepen(struct row *w, int m, uint32_t depth)
{
	if (!m && depth > w->depth)
		w->depth = depth;
}

/* The frames of rec's call graph to skip, innermost first, so that only
 * the max_stack outermost are walked (--max-stack, perf's default 127:
 * machine.c thread__resolve_callchain_sample in caller order). */
static uint64_t frames_to_skip(const struct pmurt_perf_record *rec, int max_stack)
{
	uint64_t frames = 0;
	for (uint64_t i = 0; i < rec->nr_callchain; i++)
		frames += rec->callchain[i] < PERF_CONTEXT_MAX;
	return frames > (uint64_t)max_stack ? frames - (uint64_t)max_stack : 0;
}

/* A frame of a sample's call graph: where it is, and its row's key. */
struct frame {
	struct graph_frame g;
	struct row key;
};

/* One frame at ip (in mode) of a sample's call graph. */
static int add_frame(struct report *r, struct session *s, const struct session_sample *smp,
		     uint64_t ip, uint16_t mode, struct frame *out)
{
	const struct pmurt_perf_record *rec = smp->rec;
	struct resolved at;
	if (symbols_resolve(s->syms, rec->pid, rec->tid, ip, mode, &at) < 0)
		return -ENOMEM;
	bool unknown = !strcmp(at.sym, "[unknown]");
	*out = (struct frame){.g = {.dso = strcmp(at.dso, "[unknown]") ? at.dso : NULL,
				    .sym = unknown ? NULL : at.sym, .ip = ip,
				    .start = unknown ? ip : ip - at.sym_offset},
			      .key = row_key(r, smp, &at, ip)};
	return 0;
}

/* The frames of a sample's call graph that perf report walks (of the
 * kernel's chain at most --max-stack: the outermost in caller order, the
 * innermost in callee order; none of a chain perf takes for corrupted;
 * then those a DWARF unwinding finds, --call-graph dwarf), in the order
 * drawn (machine.c thread__resolve_callchain: in caller order the unwound
 * frames come first); their count, or -ENOMEM. */
static int sample_frames(struct report *r, struct session *s, const struct session_sample *smp,
			 struct frame *out)
{
	const struct pmurt_perf_record *rec = smp->rec;
	uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t skip = r->caller ? frames_to_skip(rec, r->max_stack) : 0;
	/* perf's: none, when a marker it walks to is none of the kernel's (in
	 * caller order every marker is met, in callee order up to max_stack) */
	uint64_t nr = session_chain_corrupt(rec, r->caller ? INT_MAX : r->max_stack)
			      ? 0 : rec->nr_callchain;
	uint64_t user[SESSION_MAX_STACK];
	int n = 0, nuser = session_user_frames(s, rec, user);
	if (nuser < 0)
		return nuser;
	for (uint64_t i = 0; i < nr && n < r->max_stack; i++) {
		uint64_t ip = rec->callchain[i];
		if (ip >= PERF_CONTEXT_MAX) {
			mode = session_context_mode(ip) ? session_context_mode(ip) : mode;
			continue;
		}
		if (skip) {
			skip--;
			continue;
		}
		if (add_frame(r, s, smp, ip, mode, &out[n++]))
			return -ENOMEM;
	}
	for (int i = 0; i < nuser; i++)
		if (add_frame(r, s, smp, user[i], PERF_RECORD_MISC_USER, &out[n++]))
			return -ENOMEM;
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
	struct frame *f = r->frames;
	struct graph_frame *g = r->graph_frames;
	int n = sample_frames(r, s, smp, f);
	if (n < 0)
		return n;
	int m = r->groups.member[smp->rec->event];
	graph_frames(f, n, g);
	if (r->draw && !m && graph_add(&r->graphs, &self->graph, g, n, smp->period))
		return -ENOMEM;
	if (!r->children)
		return 0;
	struct row *seen = r->seen;   /* the keys credited already */
	int nseen = 0;
	seen[nseen++] = *self;
	credit_children(self, m, smp->period);
	/* a row's chains: the whole for the sample's own, from the frame on
	 * for a frame's (hist.c callchain_append after the cursor's snapshot) */
	deepen(self, m, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		int j = 0;
		while (j < nseen && !row_same(&seen[j], &f[i].key))
			j++;
		if (j < nseen)
			continue;
		struct row *row = row_of(r, &f[i].key);
		if (!row)
			return -ENOMEM;
		credit_children(row, m, smp->period);
		deepen(row, m, (uint32_t)(n - i));
		seen[nseen++] = f[i].key;
		if (r->draw && !m && graph_add(&r->graphs, &row->graph, g + i, n - i, smp->period))
			return -ENOMEM;
	}
	return 0;
}

static int add_sample(void *ctx, struct session *s, const struct session_sample *smp)
{
	struct report *r = ctx;
	const struct pmurt_perf_record *rec = smp->rec;
	enum filter_verdict v = report_filter_sample(&r->filter, smp);
	if (v == FILTER_DROP)
		return 0;
	r->whole[rec->event] += smp->period;
	if (v == FILTER_HIDE)
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
	credit_self(slot, r->groups.member[rec->event], smp->period);
	r->samples[rec->event]++;
	r->period[rec->event] += smp->period;
	if ((r->children || r->draw) && (rec->has & PERF_SAMPLE_CALLCHAIN) &&
	    add_call_graph(r, s, smp, slot) < 0) {
		tool_error(s->tool, "out of memory");
		return EXIT_INTERNAL;
	}
	return 0;
}

/* Two rows' files as perf 6.1 orders them (sort.c _sort__dso_cmp): by
 * the name shown (the short one), a row in no file after the others. */
static int dso_order(const char *a, const char *b)
{
	if (a == b)   /* interned: one file, or not sorted on */
		return 0;
	bool none_a = !strcmp(a, "[unknown]"), none_b = !strcmp(b, "[unknown]");
	if (none_a || none_b)
		return none_a - none_b;
	char short_a[512], short_b[512];
	session_dso_short(a, short_a, sizeof(short_a));
	session_dso_short(b, short_b, sizeof(short_b));
	return strcmp(short_a, short_b);
}

/* Two rows' functions as perf 6.1 orders them (sort.c sort__sym_sort): by
 * name, an address no function holds after the others (two such by their
 * addresses, last in by_weight: the order perf's collapsed entries come
 * in, sort__sym_cmp's _sort__addr_cmp). */
static int sym_order(const char *a, const char *b)
{
	if (a == b)
		return 0;
	bool none_a = !strcmp(a, "[unknown]"), none_b = !strcmp(b, "[unknown]");
	return none_a || none_b ? none_a - none_b : strcmp(a, b);
}

/* In the group view, two rows of equal leader period by their members'
 * periods in order (ui/hist.c __hpp__sort with symbol_conf.event_group). */
static int by_members(const struct row *x, const struct row *y)
{
	for (int m = 0; x->members && y->members && m < x->nmembers - 1; m++) {
		uint64_t px = x->members[3 * m + 1], py = y->members[3 * m + 1];
		if (px != py)
			return px > py ? -1 : 1;
	}
	return 0;
}

/* Rows of one event (one group's in the group view) together, then as
 * perf 6.1's report sorts its output (hist.c hists__output_resort with the
 * sort list overhead_children, overhead, then the keys; ui/hist.c,
 * sort.c): Children, the caller above the callee among rows of equal
 * Children (rank), period (not the number of samples; then the members'),
 * then the keys' names ascending. */
static int by_weight(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->event != y->event)
		return x->event - y->event;
	if (x->children != y->children)   /* 0 without children */
		return x->children > y->children ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	int c = by_members(x, y);
	if (!c)
		c = strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "");
	if (!c && x->dso && y->dso)
		c = dso_order(x->dso, y->dso);
	if (!c && x->sym && y->sym)
		c = sym_order(x->sym, y->sym);
	if (!c)
		c = x->pid != y->pid ? (x->pid < y->pid ? -1 : 1)
		    : x->tid != y->tid ? (x->tid < y->tid ? -1 : 1)
		    : x->cpu != y->cpu ? (x->cpu < y->cpu ? -1 : 1)
		    : x->addr != y->addr ? (x->addr > y->addr) - (x->addr < y->addr)
		    : x->mode != y->mode ? x->mode - y->mode
		    : strcmp(x->dso ? x->dso : "", y->dso ? y->dso : "");   /* one base name */
	return c;
}

/* Rows of one thread together, each thread's by by_weight. */
static int by_thread(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	return x->thread != y->thread ? (x->thread < y->thread ? -1 : 1) : by_weight(a, b);
}

/* Among k rows of equal Children in by_weight's order, each thread's rows
 * reordered within the places they hold, the caller above the callee.
 *
 * perf puts the caller above the callee among rows of equal Children when
 * both are one thread's and call graphs are on (ui/hist.c __hpp__sort_acc):
 * the row whose chains from it on are longer in caller order, shorter in
 * callee order.  Rows of two threads it compares by the keys alone.  Where
 * those comparisons are an order, it is this one (a thread's reordered
 * rows have no other thread's between them in the keys' order); where they
 * go round in a circle, perf's output follows the shape of its rb-tree
 * (hist.c __hists__insert_output_entry) and cannot be told. */
static int caller_above_callee(const struct report *r, struct row *run, size_t k)
{
	struct row *by = malloc(k * sizeof(*by));
	size_t *taken = calloc(k, sizeof(*taken));
	if (!by || !taken) {
		free(by);
		free(taken);
		return -ENOMEM;
	}
	for (size_t j = 0; j < k; j++) {
		by[j] = run[j];
		by[j].rank = r->caller ? run[j].depth : UINT32_MAX - run[j].depth;
	}
	qsort(by, k, sizeof(*by), by_thread);
	for (size_t p = 0; p < k; p++) {
		size_t lo = 0, hi = k;   /* the first of run[p]'s thread in by */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (by[mid].thread < run[p].thread)
				lo = mid + 1;
			else
				hi = mid;
		}
		run[p] = by[lo + taken[lo]++];
	}
	free(by);
	free(taken);
	return 0;
}

/* The rows, packed and sorted, in *n; 0 or -ENOMEM. */
static int pack_rows(struct report *r, size_t *n)
{
	size_t used = 0;
	for (size_t i = 0; i < r->cap; i++)
		if (r->rows[i].used)
			r->rows[used++] = r->rows[i];
	qsort(r->rows, used, sizeof(*r->rows), by_weight);
	*n = used;
	for (size_t i = 0, end; r->children && r->callchains && i < used; i = end) {
		for (end = i + 1; end < used && r->rows[end].event == r->rows[i].event &&
				  r->rows[end].children == r->rows[i].children; end++)
			;
		if (end - i > 1 && caller_above_callee(r, r->rows + i, end - i))
			return -ENOMEM;
	}
	return 0;
}

/* A line of output or a key's text, grown as it needs: names have no
 * bound (perf prints a C++ name of any length whole). */
struct text {
	char *s;
	size_t len, cap;
};

/* Appends to t; 0, or -ENOMEM. */
static int __attribute__((format(printf, 2, 3))) text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		size_t room = t->cap - t->len;
		va_start(ap, fmt);
		int n = vsnprintf(t->s ? t->s + t->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -ENOMEM;
		if ((size_t)n < room) {
			t->len += (size_t)n;
			return 0;
		}
		size_t cap = (t->len + (size_t)n + 1) * 2;
		char *s = realloc(t->s, cap);
		if (!s)
			return -ENOMEM;
		t->s = s;
		t->cap = cap;
	}
}

/* A row's text for one key, whole, in t (emptied first): t->s, or NULL
 * when out of memory. */
static const char *key_text(const struct row *w, int key, struct text *t)
{
	char dso[4200];
	int rc;
	t->len = 0;
	switch (key) {
	case KEY_COMM: rc = text_add(t, "%s", w->comm); break;
	/* sort.c hist_entry__thread_snprintf and hist_entry__cpu_snprintf */
	case KEY_PID: rc = text_add(t, "%7d:%s", (int32_t)w->tid, w->thread_comm); break;
	case KEY_TID: rc = text_add(t, "%u", w->tid); break;
	case KEY_CPU: rc = text_add(t, "%3.3d", w->cpu); break;
	case KEY_DSO:
		session_dso_short(w->dso, dso, sizeof(dso));
		rc = text_add(t, "%s", dso);
		break;
	default:
		if (!strcmp(w->sym, "[unknown]"))
			/* "%-#.*llx" (sort.c): no "0x" before a 0 */
			rc = text_add(t, "[%c] %#.16" PRIx64, w->level, w->addr);
		else
			rc = text_add(t, "[%c] %s", w->level, w->sym);
		break;
	}
	return rc ? NULL : t->s;
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

/* Of a row's m-th event (0: its table's own): samples, period or
 * children (field 0, 1, 2). */
static uint64_t member_value(const struct row *w, int m, int field)
{
	if (m)
		return w->members[3 * (m - 1) + field];
	return field == 0 ? w->samples : field == 1 ? w->period : w->children;
}

/* A column per event of the row's table (perf's group view: each event's
 * value side by side, one space apart): counts in width, or percentages
 * of each event's whole (width 0). */
static int add_columns(struct text *line, const struct report *r, const struct row *w,
		       int field, int width)
{
	int rc = text_add(line, " ");
	for (int m = 0; !rc && m < r->groups.size[w->event]; m++) {
		uint64_t v = member_value(w, m, field), whole = r->whole[w->event + m];
		rc = width ? text_add(line, "%s%*" PRIu64, m ? " " : "", width, v)
			   : text_add(line, "%s%7.2f%%", m ? " " : "",
				      whole ? 100.0 * (double)v / (double)whole : 0);
	}
	return rc;
}

/* A table's title: its event's, or its group's with the sums of its
 * events (perf's "Samples: N of events 'anon group { a, b }'"). */
static void print_title(const struct report *r, const struct session *s, int e)
{
	int k = r->groups.size[e];
	uint64_t samples = 0, period = 0;
	for (int m = 0; m < k; m++) {
		samples += r->samples[e + m];
		period += r->period[e + m];
	}
	printf("# %s '%s': %" PRIu64 " samples, period %" PRIu64 "\n#\n", k > 1 ? "Events" : "Event",
	       k > 1 ? r->groups.title[e] : s->event_names[e], samples, period);
}

/* One table's rows (an event's, or a group's); 0, or -ENOMEM. */
static int print_event(const struct report *r, const struct session *s, int e,
		       const struct row *rows, size_t n, struct text *key, struct text *line)
{
	int width[NKEYS], k = r->groups.size[e];
	/* a title over a column per event: each as wide as one, a space apart */
#define SPAN(one) ((one) * k + k - 1)
	for (int i = 0; i < r->nkeys; i++)
		width[i] = (int)strlen(key_titles[r->keys[i]]);
	for (size_t j = 0; j < n; j++)
		for (int i = 0; i < r->nkeys && shown(r, &rows[j]); i++) {
			if (!key_text(&rows[j], r->keys[i], key))
				return -ENOMEM;
			if (key->len > (size_t)width[i])
				width[i] = (int)key->len;
		}
	print_title(r, s, e);
	line->len = 0;
	int rc = text_add(line, "# %*s %*s", SPAN(10), "Samples", SPAN(14), "Period");
	if (!rc)
		rc = text_add(line, r->children ? " %*s %*s" : " %*s", SPAN(8),
			      r->children ? "Children" : "Overhead", SPAN(8), "Self");
#undef SPAN
	for (int i = 0; !rc && i < r->nkeys; i++)
		rc = text_add(line, "  %-*s", width[i], key_titles[r->keys[i]]);
	if (rc)
		return rc;
	tool_line("%s", line->s);
	for (size_t j = 0; j < n; j++) {
		if (!shown(r, &rows[j]))
			continue;
		line->len = 0;
		rc = text_add(line, " ");
		if (!rc)
			rc = add_columns(line, r, &rows[j], 0, 10);
		if (!rc)
			rc = add_columns(line, r, &rows[j], 1, 14);
		if (!rc && r->children)
			rc = add_columns(line, r, &rows[j], 2, 0);
		if (!rc)
			rc = add_columns(line, r, &rows[j], 1, 0);
		for (int i = 0; !rc && i < r->nkeys; i++)
			rc = key_text(&rows[j], r->keys[i], key)
				     ? text_add(line, "  %-*s", width[i], key->s) : -ENOMEM;
		if (rc)
			return rc;
		tool_line("%s", line->s);
		if (r->draw)
			graph_print(&r->graphs, rows[j].graph, r->whole[e],
				    r->children ? rows[j].children : rows[j].period,
				    r->min_percent, r->keys[0] == KEY_SYM, stdout);
	}
	putchar('\n');
	return 0;
}

static int print_stdio(const struct report *r, const struct session *s, size_t n)
{
	printf("# pmutool report: %s, %" PRIu64 " samples, %" PRIu64 " lost\n#\n", s->path,
	       s->nsamples, s->nlost);
	struct text key = {0}, line = {0};
	int rc = 0;
	size_t j = 0;
	for (int e = 0; !rc && e < s->info.nevents; e++) {
		size_t first = j;
		while (j < n && r->rows[j].event == e)
			j++;
		/* a group's table under its leader, shown when the leader has
		 * samples (perf's skip_empty looks at the leader's hists) */
		if (r->samples[e] && r->groups.size[e])
			rc = print_event(r, s, e, r->rows + first, j - first, &key, &line);
	}
	free(key.s);
	free(line.s);
	return rc;
}

/* The function's name, or the address no function holds ("0x..."). */
static json_t *json_sym(const struct row *w)
{
	struct text t = {0};
	json_t *sym = key_text(w, KEY_SYM, &t) ? json_string(t.s + 4) : NULL;   /* after "[m] " */
	free(t.s);
	return sym;
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
		case KEY_PID:
			json_object_set_new(o, "pid", json_integer(w->pid));
			json_object_set_new(o, "tid", json_integer(w->tid));
			break;
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
		const char *group = r->groups.file_group[e];
		json_array_append_new(events, json_pack("{s:s, s:I, s:I, s:o*, s:s*}", "name",
							s->event_names[e], "samples",
							(json_int_t)r->samples[e], "period",
							(json_int_t)r->period[e], "rows", rows,
							"group", group));
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
static int report_pprof_only(const struct tool *t, const struct report_opts *opts)
{
	const char *opt = opts->sort ? "--sort" : opts->json ? "--json"
			  : opts->percent_limit ? "--percent-limit"
			  : opts->children_given ? "--children" : opts->call_graph ? "-g"
			  : opts->group >= 0 ? "--group" : NULL;
	if (opt) {
		tool_error(t, "%s changes nothing with --pprof (the profile holds every sample "
			   "and its whole call graph)", opt);
		return EXIT_USAGE;
	}
	return report_pprof(t, opts);
}

/* -g as perf 6.1 reads it (callchain.c __parse_callchain_report_opt):
 * comma-separated words, each the first of a kind it begins: a mode
 * (graph, flat, fractal, folded; "none" turns graphs off), an order
 * (caller, callee), a key (function, address), a value (percent, period,
 * count); a first number is the threshold, a second the print limit.
 * pmutool draws perf's default: graph, function, percent. */
struct graph_opts {
	bool none;
	int caller;            /* 1 caller, 0 callee, -1 not given */
	double min_percent;
};

static bool word_of(const char *tok, const char *const *words, int n, int *which)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(tok, words[i], strlen(tok))) {
			*which = i;
			return true;
		}
	return false;
}

static int graph_word(const struct tool *t, struct graph_opts *g, const char *tok, int *numbers)
{
	static const char *const modes[] = {"graph", "flat", "fractal", "folded"};
	static const char *const orders[] = {"caller", "callee"};
	static const char *const keys[] = {"function", "address"};
	static const char *const values[] = {"percent", "period", "count"};
	int w;
	if (word_of(tok, modes, 4, &w) || word_of(tok, keys, 2, &w) || word_of(tok, values, 3, &w)) {
		if (w == 0)
			return EXIT_OK;
		tool_error(t, "-g %s: pmutool draws perf's default graph,function,percent call graphs "
			   "only", tok);
		return EXIT_USAGE;
	}
	if (word_of(tok, orders, 2, &w)) {
		g->caller = w == 0;
		return EXIT_OK;
	}
	char *end;
	double v = strtod(tok, &end);
	if (end == tok || *end || !(v >= 0 && v <= 100) || *numbers > 0) {
		tool_error(t, *numbers > 0 && end != tok && !*end
			   ? "-g %s: a print limit is not supported (the threshold is the first number)"
			   : "-g: '%s' is none of graph, caller, callee, function, percent or a threshold "
			     "from 0 to 100", tok);
		return EXIT_USAGE;
	}
	g->min_percent = v;
	++*numbers;
	return EXIT_OK;
}

static int parse_graph_opts(const struct tool *t, const char *spec, struct graph_opts *g)
{
	*g = (struct graph_opts){.caller = -1, .min_percent = 0.5};
	char buf[256];
	int numbers = 0;
	if (!spec)
		return EXIT_OK;
	tool_copy(buf, sizeof(buf), spec);
	for (char *save, *k = strtok_r(buf, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		if (!strncmp(k, "none", strlen(k))) {
			g->none = true;
			return EXIT_OK;
		}
		int rc = graph_word(t, g, k, &numbers);
		if (rc)
			return rc;
	}
	return EXIT_OK;
}

/* The file, the filters on it, the scratch of a sample's frames. */
static int report_open(struct report *r, struct session *s, const struct tool *t,
		       const struct report_opts *opts)
{
	int rc = session_open(s, t, opts->input, opts->input_bytes, opts->input_size);
	if (rc)
		return rc;
	rc = report_filter_init(&r->filter, &opts->filter, s);
	if (rc)
		return rc;
	if (report_groups_init(&r->groups, s, opts->group, !opts->json)) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	/* the kernel's chain's max_stack frames, a DWARF unwinding's after */
	size_t frames = (size_t)r->max_stack + SESSION_MAX_STACK + 1;
	r->samples = calloc((size_t)s->info.nevents, sizeof(*r->samples));
	r->period = calloc((size_t)s->info.nevents, sizeof(*r->period));
	r->whole = calloc((size_t)s->info.nevents, sizeof(*r->whole));
	r->frames = calloc(frames, sizeof(*r->frames));
	r->graph_frames = calloc(frames, sizeof(*r->graph_frames));
	r->seen = calloc(frames, sizeof(*r->seen));
	if (!r->samples || !r->period || !r->whole || !r->frames || !r->graph_frames || !r->seen ||
	    grow(r)) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

static void report_free(struct report *r)
{
	free(r->rows);
	free(r->samples);
	free(r->period);
	free(r->whole);
	free(r->frames);
	free(r->graph_frames);
	free(r->seen);
	graph_free(&r->graphs);
	report_filter_free(&r->filter);
	report_groups_free(&r->groups);
}

int cmd_report(const struct tool *t, const struct report_opts *opts)
{
	struct report r = {.percent_limit = opts->percent_limit, .max_stack = opts->max_stack};
	struct graph_opts g;
	if (t->nargs) {
		tool_error(t, "report takes no operand ('%s'): the file is given with -i", t->args[0]);
		return EXIT_USAGE;
	}
	if (opts->pprof)   /* a profile, not the table */
		return report_pprof_only(t, opts);
	int rc = parse_graph_opts(t, opts->call_graph, &g);
	if (!rc)
		rc = parse_sort(t, &r, opts->sort ? opts->sort : "comm,dso,sym");
	if (rc)
		return rc;
	struct session s;
	rc = report_open(&r, &s, t, opts);
	if (!rc) {
		bool graphs = has_call_graphs(&s), pipe = s.info.pipe_format;
		/* perf 6.1 reading its pipe format sets the Children column up
		 * before it knows the samples have call chains, so leaves it
		 * out (builtin-report.c: process_attr enables the call graphs
		 * only), their order the callers' as set up for it;
		 * --children here still gives it */
		r.children = !opts->no_children && graphs && (!pipe || opts->children_given);
		/* perf: callers first with Children, callees first without */
		r.caller = g.caller >= 0 ? g.caller : r.children || pipe;
		r.callchains = graphs && !g.none;
		r.draw = r.callchains && !opts->json;
		r.min_percent = g.min_percent;
	}
	if (!rc)
		rc = session_run(&s, add_sample, &r);
	if (!rc) {
		size_t n;
		if (pack_rows(&r, &n)) {
			tool_error(t, "out of memory");
			rc = EXIT_INTERNAL;
		} else {
			for (size_t i = 0; i < n && sorted_on(&r, KEY_PID); i++) /* after the last COMM */
				r.rows[i].thread_comm = symbols_comm(s.syms, r.rows[i].tid);
			rc = opts->json ? print_json(&r, &s, n) : print_stdio(&r, &s, n);
			if (rc < 0) {
				tool_error(t, "out of memory");
				rc = EXIT_INTERNAL;
			}
		}
	}
	report_free(&r);
	session_close(&s);
	return rc;
}
