/*
 * bench_mux.c - the metrics' error from multiplexing, our packing against
 * perf's grouping, counted by the simulated kernel (tests/support/sys_sim.c with
 * struct pmu_sim_mux: groups scheduled in list order, none after the first
 * that cannot go on, each accepted by pmurt_group_check over every event
 * on the PMU as power_pmu_commit_txn checks them, the first group on
 * rotated to the tail every 4 ms) through libpmurt's counting path, the
 * one `pmutool stat -M` takes (pmurt_counter_open of the groups as an
 * event string, enable, read, counts scaled by time_enabled/time_running,
 * pmurt_metric_eval).
 *
 *   bench_mux [-v] [--seed N] [power10|power9 ...]
 *                    (-v: every metric's values, errors and share of the
 *                    time counted; N: the workload's seed, 18)
 *   bench_mux --shares PMU MS EVENT...
 *                    the simulated kernel alone: EVENTs (each a group of
 *                    its own, opened in order) counted for MS ms; prints
 *                    "EVENT,PERCENT" a line, the share of the time each
 *                    ran, for tests/qemu to hold against a real kernel's
 *
 * The workload: 50 phases of 10 to 70 ms (2 s in all) whose per-event
 * rates are drawn from a fixed seed, by kind so that metric values are
 * sane: cycles at about 3 GHz, completed instructions at an IPC drawn per
 * phase (0.3 to 2.5), stall and other cycle counts a fraction of the
 * cycles, every other event a fraction of the instructions, each varying
 * from phase to phase; POWER9's metrics that are the rest of another
 * (A - B - C) kept positive by cutting B's and C's rates (below).  True
 * values come from the true counts of the whole run.
 *
 * For every core metric group, counted alone as `-M GROUP` would count it:
 *   ours  pmurt_pack's groups, "{A,B,C},{D,E}" as stat -M opens them; a
 *         metric is computed from the group that measures it (a metric no
 *         group holds whole from its events' groups);
 *   perf  perf 6.12's parse_groups (tools/perf/util/metricgroup.c): the
 *         metrics sorted by their number of events, largest first
 *         (metric_list_cmp, a stable sort), each metric's events a weak
 *         group of their own unless they are a subset of an earlier
 *         metric's group (expr__subset_of_ids), which it then shares;
 *         events shared by metrics opened once per group; a group the
 *         kernel refuses (pmurt_group_check) opened as single events, as
 *         the weak group's fallback does (evlist__reset_weak_group),
 *         an event refused even alone left out as perf stat leaves it out.
 *         A group's events are in expression order: perf's hashmap order
 *         is not modelled; it decides the leader, which scheduling
 *         ignores, and a refused group that another order would have had
 *         accepted is counted and printed (none on POWER10 or POWER9).
 * Per group: the metrics compared (true value finite and non-zero), the
 * mean and largest relative error |measured - true| / |true| of each, the
 * ratios, and on how many metrics ours is worse.  Prints, asserts nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_metrics.h"
#include "perf_int.h"
#include "sys_sim.h"

#define PHASES 50
#define MAX_CODES 1024
#define MAX_METRICS 256
#define MAX_GROUPS 512
#define MAX_PLAN 2048

/* --- the phased workload ------------------------------------------------------ */
struct workload {
	uint64_t edge[PHASES + 1];   /* phase p is [edge[p], edge[p + 1]) ns */
	int ncodes;
	uint64_t code[MAX_CODES];    /* sorted */
	double rate[MAX_CODES][PHASES]; /* counts per ns */
};

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

static double uniform(uint64_t *x, double lo, double hi)
{
	return lo + (hi - lo) * (double)(lcg(x) % 1000000) / 1e6;
}

static int code_at(const struct workload *w, uint64_t code)
{
	int lo = 0, hi = w->ncodes - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (w->code[mid] == code)
			return mid;
		if (w->code[mid] < code)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The counts of code c from 0 to t ns, floored: additive over spans. */
static uint64_t cumulative(const struct workload *w, int c, uint64_t t)
{
	double sum = 0;
	for (int p = 0; p < PHASES && w->edge[p] < t; p++) {
		uint64_t end = w->edge[p + 1] < t ? w->edge[p + 1] : t;
		sum += w->rate[c][p] * (double)(end - w->edge[p]);
	}
	return (uint64_t)sum;
}

/* What the simulated kernel's callbacks see. */
struct bed {
	struct pmurt_host *host;
	const struct pmurt_pmu *pmu;
	struct workload *w;
	struct pmu_sim_mux mux;
	uint64_t total_ns;
	bool verbose;         /* -v: every metric's values */
};

static uint64_t workload_counts(void *arg, const struct perf_event_attr *a, uint64_t from,
				uint64_t to)
{
	const struct workload *w = ((const struct bed *)arg)->w;
	int c = code_at(w, a->config);
	return c < 0 ? 0 : cumulative(w, c, to) - cumulative(w, c, from);
}

/* What an event counts, by its name: how its rate is drawn. */
enum kind { CYCLES, INSTRUCTIONS, CYCLE_SHARE, PER_INSTRUCTION };

static enum kind kind_of(const char *name)
{
	size_t n = strlen(name);
	if (!strcmp(name, "PM_CYC") || !strcmp(name, "PM_RUN_CYC") || !strcmp(name, "PM_CYC_ALT"))
		return CYCLES;
	if (strstr(name, "INST_CMPL") || strstr(name, "INST_DISP") || strstr(name, "INST_FROM_L1") ||
	    !strcmp(name, "PM_INST_ALL"))
		return INSTRUCTIONS;
	if (strstr(name, "STALL") || (n > 4 && !strcmp(name + n - 4, "_CYC")) || strstr(name, "_CYC_"))
		return CYCLE_SHARE;
	return PER_INSTRUCTION;
}

/* --- rests that stay positive -------------------------------------------------
 * POWER9's CPI stack names metrics that are the rest of another:
 * "vdp_other_stall_cpi = vdp_stall_cpi - vdplong_stall_cpi", each term an
 * event, a metric EVENT / PM_RUN_INST_CMPL or a sum of such metrics
 * ("scalar_stall_cpi = fxu_stall_cpi + dp_stall_cpi + ...");
 * icache_miss_reload is (A - B) / A.  Independent rates would make such a
 * rest negative (not a sane value); so for every core metric A - B - C
 * (+ D ...), or (A - B ...) / X, the rates of the events counting B and C
 * and of everything under them are cut, phase by phase, until B and C
 * together count at most 60 to 90% of A. */
#define MAX_RULES 64
#define MAX_TERMS 32

struct rule {
	int nparent, parent[MAX_TERMS];  /* code indices */
	int nchild, child[MAX_TERMS];
};

static void trim(char *t)
{
	size_t a = strspn(t, " \t"), n = strlen(t);
	while (n > a && (t[n - 1] == ' ' || t[n - 1] == '\t'))
		n--;
	memmove(t, t + a, n - a);
	t[n - a] = 0;
}

static int sum_codes(const struct workload *w, const struct pmurt_pmu *pmu, const char *expr,
		     int *out, int n, int depth);

/* The code indices counting a term into out[n...]: an event's; the
 * numerator event's of a metric "EVENT / X"; those of a metric that is a
 * sum of such terms.  The new n, or -1. */
static int term_codes(const struct workload *w, const struct pmurt_pmu *pmu, char *term,
		      int *out, int n, int depth)
{
	struct pmurt_metric_info mi = {.sz = sizeof(mi)};
	struct pmurt_event_info ev = {.sz = sizeof(ev)};
	char num[128];
	trim(term);
	if (n >= MAX_TERMS || depth > 4)
		return -1;
	if (pmurt_event_find(pmu, term, &ev, NULL) >= 0)
		return (out[n] = code_at(w, ev.code)) < 0 ? -1 : n + 1;
	if (pmurt_metric_find(pmu, term, &mi, NULL) < 0 || strchr(mi.expr, '(') ||
	    strchr(mi.expr, '-'))
		return -1;
	const char *slash = strchr(mi.expr, '/');
	if (!slash)
		return sum_codes(w, pmu, mi.expr, out, n, depth + 1);
	snprintf(num, sizeof(num), "%.*s", (int)(slash - mi.expr), mi.expr);
	return term_codes(w, pmu, num, out, n, depth + 1);
}

static int sum_codes(const struct workload *w, const struct pmurt_pmu *pmu, const char *expr,
		     int *out, int n, int depth)
{
	char buf[512];
	if (strlen(expr) >= sizeof(buf))
		return -1;
	strcpy(buf, expr);
	for (char *t = strtok(buf, "+"); t && n >= 0; t = strtok(NULL, "+"))
		n = term_codes(w, pmu, t, out, n, depth);
	return n;
}

/* The rule of a core metric A - B - C (+ D ...) or (A - B - C) / X: A's
 * codes against those of B and C; false for other metrics. */
static bool rule_of(const struct workload *w, const struct pmurt_pmu *pmu, const char *text,
		    struct rule *x)
{
	char expr[512];
	if (strlen(text) >= sizeof(expr) || !strstr(text, " - "))
		return false;
	strcpy(expr, text);
	char *e = expr;
	if (*e == '(') { /* (A - B) / X */
		char *close = strchr(e, ')');
		if (!close || strchr(e + 1, '(') || !strstr(close, "/"))
			return false;
		*close = 0;
		e++;
	} else if (strchr(e, '(')) {
		return false;
	}
	*x = (struct rule){0};
	char sign = '+';
	for (char *t = e, *end; t; t = end ? end + 1 : NULL) {
		end = strpbrk(t, "+-");
		char next = end ? *end : 0;
		if (end)
			*end = 0;
		int n = !x->nparent ? term_codes(w, pmu, t, x->parent, 0, 0)
			: sign == '-' ? term_codes(w, pmu, t, x->child, x->nchild, 0) : x->nchild;
		if (n < 0)
			return false;
		if (!x->nparent)
			x->nparent = n;
		else
			x->nchild = n;
		sign = next;
	}
	return x->nparent && x->nchild;
}

/* The rules of the core metrics. */
static int find_rules(const struct workload *w, const struct pmurt_pmu *pmu, struct rule *r)
{
	int n = 0;
	for (int m = 0; m < pmurt_metric_count(pmu) && n < MAX_RULES; m++) {
		struct pmurt_metric_info mi = {.sz = sizeof(mi)};
		if (!pmurt_metric_get(pmu, m, &mi) && !mi.pmus && rule_of(w, pmu, mi.expr, &r[n]))
			n++;
	}
	return n;
}

/* Marks code c and every code under it (the children of the rules it is
 * the parent of, and theirs). */
static void under(const struct rule *r, int nr, int c, bool *mark)
{
	if (mark[c])
		return;
	mark[c] = true;
	for (int i = 0; i < nr; i++)
		for (int j = 0; j < r[i].nparent; j++)
			for (int k = 0; r[i].parent[j] == c && k < r[i].nchild; k++)
				under(r, nr, r[i].child[k], mark);
}

/* Cuts the rates as the comment above says; the rules found. */
static int keep_rests_positive(struct workload *w, const struct pmurt_pmu *pmu, uint64_t *x)
{
	static struct rule r[MAX_RULES];
	static bool mark[MAX_CODES];
	static double shares[MAX_RULES][PHASES];
	int nr = find_rules(w, pmu, r);
	for (int i = 0; i < nr; i++)
		for (int p = 0; p < PHASES; p++)
			shares[i][p] = uniform(x, 0.6, 0.9);
	for (int pass = 0, cut = 1; pass < 32 && cut; pass++) {
		cut = 0;
		for (int i = 0; i < nr; i++)
			for (int p = 0; p < PHASES; p++) {
				double sum = 0, top = 0, share = shares[i][p];
				for (int k = 0; k < r[i].nchild; k++)
					sum += w->rate[r[i].child[k]][p];
				for (int k = 0; k < r[i].nparent; k++)
					top += w->rate[r[i].parent[k]][p];
				if (sum <= share * top)
					continue;
				memset(mark, 0, sizeof(mark));
				for (int k = 0; k < r[i].nchild; k++)
					under(r, nr, r[i].child[k], mark);
				for (int k = 0; k < r[i].nparent; k++)
					mark[r[i].parent[k]] = false;
				for (int c = 0; c < w->ncodes; c++)
					if (mark[c])
						w->rate[c][p] *= share * top / sum;
				cut = 1;
			}
	}
	return nr;
}

struct named_code {
	uint64_t code;
	const char *name;
};

static int cmp_code(const void *a, const void *b)
{
	uint64_t x = ((const struct named_code *)a)->code, y = ((const struct named_code *)b)->code;
	return (x > y) - (x < y);
}

/* The rates of every event a core metric names, by kind (see the top). */
static int workload_make(struct workload *w, const struct pmurt_pmu *pmu, uint64_t seed)
{
	uint64_t x = seed;
	static struct named_code ev[MAX_CODES];
	int n = 0;
	for (int m = 0; m < pmurt_metric_count(pmu); m++) {
		struct pmurt_metric_info mi = {.sz = sizeof(mi)};
		if (pmurt_metric_get(pmu, m, &mi) || mi.pmus)
			continue;
		for (int k = 0; k < mi.nevents && n < MAX_CODES; k++) {
			struct pmurt_event_info e = {.sz = sizeof(e)};
			if (mi.event_index[k] < 0 || pmurt_event_get(pmu, mi.event_index[k], &e))
				continue;
			bool seen = false;
			for (int c = 0; c < n && !seen; c++)
				seen = ev[c].code == e.code;
			if (!seen)
				ev[n++] = (struct named_code){e.code, e.name};
		}
	}
	qsort(ev, (size_t)n, sizeof(ev[0]), cmp_code);
	w->ncodes = n;
	for (int c = 0; c < n; c++)
		w->code[c] = ev[c].code;
	double ipc[PHASES];
	w->edge[0] = 0;
	for (int p = 0; p < PHASES; p++) {
		w->edge[p + 1] = w->edge[p] + (uint64_t)uniform(&x, 10, 70) * 1000000;
		ipc[p] = uniform(&x, 0.3, 2.5);
	}
	for (int c = 0; c < w->ncodes; c++) {
		enum kind k = kind_of(ev[c].name);
		double base = k == CYCLE_SHARE ? uniform(&x, 0.002, 0.15)
			      : k == PER_INSTRUCTION ? exp(uniform(&x, log(1e-4), log(0.05))) : 1;
		for (int p = 0; p < PHASES; p++) {
			double cycles = 3.0 * uniform(&x, 0.97, 1.0);
			double vary = k == CYCLES || k == INSTRUCTIONS ? 1 : uniform(&x, 0.25, 2.5);
			w->rate[c][p] = k == CYCLES ? cycles
					: k == INSTRUCTIONS ? cycles * ipc[p] * uniform(&x, 0.95, 1.0)
					: k == CYCLE_SHARE ? cycles * base * vary
							   : cycles * ipc[p] * base * vary;
		}
	}
	return keep_rests_positive(w, pmu, &x);
}

/* --- the PMU's check of the events on it (power_pmu_commit_txn) --------------- */
static bool group_fits(void *arg, const struct perf_event_attr *const *attrs, int n)
{
	const struct pmurt_pmu *pmu = ((const struct bed *)arg)->pmu;
	struct pmurt_event_spec specs[PMURT_MAX_GROUP];
	if (n > PMURT_MAX_GROUP)
		return false;
	for (int i = 0; i < n; i++) {
		specs[i] = (struct pmurt_event_spec){.sz = sizeof(specs[i])};
		if (pmurt_event_from_attr(pmu, attrs[i]->type, attrs[i]->config, &specs[i], NULL))
			return false;
		specs[i].config1 = attrs[i]->config1;
		specs[i].exclude = (attrs[i]->exclude_user ? PMURT_EXCLUDE_USER : 0) |
				   (attrs[i]->exclude_kernel ? PMURT_EXCLUDE_KERNEL : 0) |
				   (attrs[i]->exclude_hv ? PMURT_EXCLUDE_HV : 0);
	}
	struct pmurt_check_opts opts = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true,
						       .lpar = true);
	struct pmurt_group_result res = {.sz = sizeof(res)};
	return pmurt_group_check(pmu, specs, n, sizeof(specs[0]), &opts, &res, NULL) == 0 && res.ok;
}

/* --- a plan: groups of events and where each metric reads its events ---------- */
struct plan {
	const char *who;               /* "ours" or "perf" */
	int ngroups, nsingle;          /* groups opened, and of them single events of
	                                  a refused weak group */
	int nweak;                     /* perf: weak groups written (refused or not) */
	int nrefused;                  /* perf: events the kernel refuses even alone */
	int nagain;                    /* perf: groups refused after their first
	                                  schedule (reschedule_reason) */
	int norder;                    /* perf: refused groups another order of
	                                  their events would have had accepted */
	int nplace;                    /* events in the event string */
	char *events;                  /* "{A,B},{C},D" */
	size_t len, cap;
	int nm;
	int metric[MAX_METRICS];       /* the metric's index in the PMU */
	int pos[MAX_METRICS][PMURT_METRIC_MAX_EVENTS]; /* -1: not counted */
	int nev[MAX_METRICS];
};

static int put(struct plan *pl, const char *s)
{
	size_t n = strlen(s);
	if (pl->len + n + 1 > pl->cap) {
		size_t cap = pl->cap ? pl->cap * 2 : 4096;
		while (cap < pl->len + n + 1)
			cap *= 2;
		char *p = realloc(pl->events, cap);
		if (!p)
			return -ENOMEM;
		pl->events = p;
		pl->cap = cap;
	}
	memcpy(pl->events + pl->len, s, n + 1);
	pl->len += n;
	return 0;
}

/* Appends a group of names (braced unless alone is set: then each event
 * by itself); the first event's place. */
static int add_group(struct plan *pl, const char *const *names, int n, bool alone)
{
	int first = pl->nplace, rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		rc |= put(pl, pl->len ? "," : "");
		rc |= put(pl, !alone && i == 0 ? "{" : "");
		rc |= put(pl, names[i]);
		rc |= put(pl, !alone && i == n - 1 ? "}" : "");
	}
	pl->nplace += n;
	pl->ngroups += alone ? n : 1;
	pl->nsingle += alone ? n : 0;
	return rc ? -ENOMEM : first;
}

static const char *event_name(const struct pmurt_pmu *pmu, int index)
{
	struct pmurt_event_info e = {.sz = sizeof(e)};
	return pmurt_event_get(pmu, index, &e) ? "" : e.name;
}

/* Ours: pmurt_pack's groups, as stat_metrics.c's build_events opens them. */
static int plan_ours(struct plan *pl, const struct pmurt_pmu *pmu, const char *group,
		     int *apart, struct pmurt_error *err)
{
	struct pmurt_pack *pk = NULL;
	struct pmurt_check_opts opts = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true,
						       .lpar = true);
	int rc = pmurt_pack(pmu, &group, 1, &opts, &pk, err);
	if (rc)
		return rc;
	struct pmurt_pack_info info = {.sz = sizeof(info)};
	pmurt_pack_info(pk, &info);
	int first[MAX_GROUPS];
	for (int g = 0; g < info.ngroups && g < MAX_GROUPS && rc >= 0; g++) {
		const struct pmurt_event_spec *ev;
		const char *names[PMURT_MAX_GROUP];
		int n;
		pmurt_pack_group(pk, g, &ev, &n, NULL);
		for (int i = 0; i < n; i++)
			names[i] = ev[i].name;
		rc = first[g] = add_group(pl, names, n, false);
	}
	*apart = 0;
	for (int i = 0; i < info.nmetrics && pl->nm < MAX_METRICS && rc >= 0; i++) {
		struct pmurt_pack_metric pm = {.sz = sizeof(pm)};
		struct pmurt_metric_info mi = {.sz = sizeof(mi)};
		if (pmurt_pack_metric_get(pk, i, &pm) || pm.index < 0 ||
		    pmurt_metric_get(pmu, pm.index, &mi) || mi.pmus || !mi.nevents)
			continue;
		int m = pl->nm++;
		pl->metric[m] = pm.index;
		pl->nev[m] = mi.nevents;
		*apart += pm.apart;
		for (int k = 0; k < mi.nevents; k++) {
			int g = pm.apart ? pm.event_group[k] : pm.group;
			const struct pmurt_event_spec *ev;
			int n;
			pl->pos[m][k] = -1;
			if (g < 0 || g >= MAX_GROUPS || pmurt_pack_group(pk, g, &ev, &n, NULL))
				continue;
			for (int j = 0; j < n; j++)
				if (!strcmp(ev[j].name, event_name(pmu, mi.event_index[k])))
					pl->pos[m][k] = first[g] + j;
		}
	}
	pmurt_pack_free(pk);
	return rc < 0 ? rc : 0;
}

/* The metrics of a group, in the description's order (perf adds them in
 * its table's order). */
static int group_metrics(const struct pmurt_pmu *pmu, const char *group, int *out)
{
	int n = 0;
	for (int m = 0; m < pmurt_metric_count(pmu) && n < MAX_METRICS; m++) {
		struct pmurt_metric_info mi = {.sz = sizeof(mi)};
		if (pmurt_metric_in_group(pmu, m, group) && !pmurt_metric_get(pmu, m, &mi) &&
		    !mi.pmus && mi.nevents)
			out[n++] = m;
	}
	return n;
}

/* The distinct events (indices) of metric m. */
static int distinct_events(const struct pmurt_pmu *pmu, int m, int *ev)
{
	struct pmurt_metric_info mi = {.sz = sizeof(mi)};
	int n = 0;
	pmurt_metric_get(pmu, m, &mi);
	for (int k = 0; k < mi.nevents; k++) {
		bool seen = false;
		for (int j = 0; j < n && !seen; j++)
			seen = ev[j] == mi.event_index[k];
		if (!seen)
			ev[n++] = mi.event_index[k];
	}
	return n;
}

static bool subset(const int *a, int na, const int *b, int nb)
{
	for (int i = 0; i < na; i++) {
		bool in = false;
		for (int j = 0; j < nb && !in; j++)
			in = a[i] == b[j];
		if (!in)
			return false;
	}
	return true;
}

/* Whether the kernel takes these events as one group; *again set when it
 * refuses the group at every schedule after its first (the group check's
 * reschedule_reason). */
static bool weak_group_holds(const struct pmurt_pmu *pmu, const int *ev, int n, bool *again)
{
	struct pmurt_event_spec specs[PMURT_MAX_GROUP];
	if (n > PMURT_MAX_GROUP)
		return false;
	for (int i = 0; i < n; i++) {
		specs[i] = (struct pmurt_event_spec){.sz = sizeof(specs[i])};
		if (pmurt_parse_event(pmu, event_name(pmu, ev[i]), &specs[i], NULL))
			return false;
	}
	struct pmurt_check_opts opts = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true,
						       .lpar = true);
	struct pmurt_group_result res = {.sz = sizeof(res)};
	bool ok = pmurt_group_check(pmu, specs, n, sizeof(specs[0]), &opts, &res, NULL) == 0 &&
		  res.ok;
	if (again)
		*again = ok && res.reschedule_reason[0];
	return ok;
}

/* Whether some order of these events (at most 6, as many as the PMU's
 * counters) makes one group the kernel takes: perf writes a group's events
 * in its hashmap's order, not modelled here, and POWER9 checks a group
 * event by event as it is opened.  Heap's permutations. */
static bool some_order_holds(const struct pmurt_pmu *pmu, const int *ev, int n)
{
	int a[6], c[6] = {0};
	if (n > 6)
		return false;
	memcpy(a, ev, (size_t)n * sizeof(int));
	if (weak_group_holds(pmu, a, n, NULL))
		return true;
	for (int i = 1; i < n;) {
		if (c[i] >= i) {
			c[i++] = 0;
			continue;
		}
		int j = i % 2 ? c[i] : 0, t = a[j];
		a[j] = a[i];
		a[i] = t;
		if (weak_group_holds(pmu, a, n, NULL))
			return true;
		c[i]++;
		i = 1;
	}
	return false;
}

/* perf's: see the top (parse_groups, metric_list_cmp, expr__subset_of_ids,
 * the weak group's fallback). */
static int plan_perf(struct plan *pl, const struct pmurt_pmu *pmu, const char *group)
{
	int ms[MAX_METRICS], n = group_metrics(pmu, group, ms);
	static int ev[MAX_METRICS][PMURT_METRIC_MAX_EVENTS];
	int nev[MAX_METRICS], owner[MAX_METRICS];
	for (int i = 0; i < n; i++)
		nev[i] = distinct_events(pmu, ms[i], ev[i]);
	for (int i = 1; i < n; i++) /* stable: largest first */
		for (int j = i; j > 0 && nev[j - 1] < nev[j]; j--) {
			int t = ms[j], tn = nev[j], te[PMURT_METRIC_MAX_EVENTS];
			memcpy(te, ev[j], sizeof(te));
			ms[j] = ms[j - 1], nev[j] = nev[j - 1];
			memcpy(ev[j], ev[j - 1], sizeof(te));
			ms[j - 1] = t, nev[j - 1] = tn;
			memcpy(ev[j - 1], te, sizeof(te));
		}
	static int place[MAX_METRICS][PMURT_METRIC_MAX_EVENTS]; /* an owner's events */
	for (int i = 0; i < n; i++) {
		owner[i] = i;
		for (int j = 0; j < i && owner[i] == i; j++)
			if (owner[j] == j && subset(ev[i], nev[i], ev[j], nev[j]))
				owner[i] = j;
		if (owner[i] != i)
			continue;
		const char *names[PMURT_METRIC_MAX_EVENTS];
		for (int k = 0; k < nev[i]; k++)
			names[k] = event_name(pmu, ev[i][k]);
		pl->nweak++;
		bool again = false;
		bool holds = weak_group_holds(pmu, ev[i], nev[i], &again);
		pl->nagain += again;
		pl->norder += !holds && some_order_holds(pmu, ev[i], nev[i]);
		int at = holds ? add_group(pl, names, nev[i], false) : 0;
		/* refused: each event alone, those the kernel refuses even
		 * alone left out, as perf stat leaves out an event it cannot
		 * open ("<not supported>") */
		for (int k = 0; k < nev[i] && at >= 0; k++) {
			bool alone = !holds && weak_group_holds(pmu, &ev[i][k], 1, NULL);
			int got = alone ? add_group(pl, &names[k], 1, true) : 0;
			at = got < 0 ? got : at;
			place[i][k] = holds ? at + k : alone ? got : -1;
			pl->nrefused += !holds && !alone;
		}
		if (at < 0)
			return at;
	}
	for (int i = 0; i < n && pl->nm < MAX_METRICS; i++) {
		struct pmurt_metric_info mi = {.sz = sizeof(mi)};
		int m = pl->nm++, o = owner[i];
		pmurt_metric_get(pmu, ms[i], &mi);
		pl->metric[m] = ms[i];
		pl->nev[m] = mi.nevents;
		for (int k = 0; k < mi.nevents; k++) {
			pl->pos[m][k] = -1;
			for (int j = 0; j < nev[o]; j++)
				if (ev[o][j] == mi.event_index[k])
					pl->pos[m][k] = place[o][j];
		}
	}
	return 0;
}

/* --- counting a plan on the simulated kernel ---------------------------------- */
/* The scaled counts of the plan's events, counted through the workload:
 * pmurt_counter_open, enable, the run, read. */
static int count_plan(struct bed *b, const struct plan *pl, uint64_t *scaled, double *share)
{
	const struct pmu_sim_pmu pmus[] = {
		{.type = PERF_TYPE_RAW, .name = "cpu", .mux = &b->mux},
		{.type = PERF_TYPE_SOFTWARE, .name = "software", .per_ms = 1000000},
	};
	struct pmu_sim *sim = NULL;
	struct pmurt_counter *c = NULL;
	struct pmurt_error err = {0};
	struct pmurt_count *counts = calloc((size_t)pl->nplace, sizeof(*counts));
	int rc = counts ? pmu_sim_new(&sim, pmus, 2) : -ENOMEM;
	if (!rc) {
		b->host->h.sys = pmu_sim_sys(sim);
		rc = pmurt_counter_open(&c, b->host, pl->events, NULL, &err);
	}
	if (!rc)
		rc = pmurt_counter_enable(c, &err);
	if (!rc) {
		pmu_sim_advance(sim, b->total_ns);
		rc = pmurt_counter_read(c, counts, pl->nplace, sizeof(*counts), &err);
		rc = rc == pl->nplace ? 0 : rc < 0 ? rc : -EIO;
	}
	for (int i = 0; !rc && i < pl->nplace; i++) {
		scaled[i] = counts[i].scaled;
		share[i] = counts[i].time_enabled ? (double)counts[i].time_running /
							  (double)counts[i].time_enabled : 0;
	}
	if (rc)
		fprintf(stderr, "bench_mux: counting %s's groups: %s (%d)\n", pl->who, err.message, rc);
	pmurt_counter_close(c);
	pmu_sim_free(sim);
	free(counts);
	return rc;
}

/* A metric's value from its events' counts, as stat_metrics.c computes it. */
static double metric_value(const struct pmurt_pmu *pmu, int m, const uint64_t *counts, int n)
{
	struct pmurt_metric_value v = {.sz = sizeof(v)};
	int rc = pmurt_metric_eval(pmu, m, counts, n, NULL, &v, NULL);
	return rc == 0 || rc == -ERANGE || rc == -EDOM ? v.value : NAN;
}

struct errors {
	int nm;
	int metric[MAX_METRICS];    /* by the plan's metric order */
	double each[MAX_METRICS];   /* relative error; NAN: not counted, or the
	                               true value is 0 or not finite */
	double value[MAX_METRICS], truth[MAX_METRICS];
	double share[MAX_METRICS];  /* the least running/enabled of its events */
};

/* The relative error of each metric of the plan against its true value. */
static int measure(struct bed *b, const struct plan *pl, struct errors *e)
{
	static uint64_t scaled[MAX_PLAN];
	static double share[MAX_PLAN];
	if (pl->nplace > MAX_PLAN)
		return -E2BIG;
	int rc = count_plan(b, pl, scaled, share);
	*e = (struct errors){.nm = pl->nm};
	for (int m = 0; !rc && m < pl->nm; m++) {
		struct pmurt_metric_info mi = {.sz = sizeof(mi)};
		uint64_t got[PMURT_METRIC_MAX_EVENTS], truth[PMURT_METRIC_MAX_EVENTS];
		bool counted = true;
		e->share[m] = 1;
		pmurt_metric_get(b->pmu, pl->metric[m], &mi);
		for (int k = 0; k < pl->nev[m]; k++) {
			struct pmurt_event_info ev = {.sz = sizeof(ev)};
			pmurt_event_get(b->pmu, mi.event_index[k], &ev);
			int c = code_at(b->w, ev.code);
			truth[k] = c < 0 ? 0 : cumulative(b->w, c, b->total_ns);
			counted &= pl->pos[m][k] >= 0;
			got[k] = pl->pos[m][k] >= 0 ? scaled[pl->pos[m][k]] : 0;
			if (pl->pos[m][k] >= 0 && share[pl->pos[m][k]] < e->share[m])
				e->share[m] = share[pl->pos[m][k]];
		}
		double t = metric_value(b->pmu, pl->metric[m], truth, pl->nev[m]);
		double v = metric_value(b->pmu, pl->metric[m], got, pl->nev[m]);
		e->metric[m] = pl->metric[m];
		e->value[m] = counted ? v : NAN;
		e->truth[m] = t;
		e->each[m] = !counted || !isfinite(t) || t == 0 ? NAN
			     : isfinite(v) ? fabs(v - t) / fabs(t) : INFINITY;
	}
	return rc;
}

/* Both sides over the metrics both measured (matched by metric). */
struct summary {
	int compared, ours_only, neither, worse;
	double sum_o, sum_p, max_o, max_p;
};

static void summarize(const struct errors *o, const struct errors *p, struct summary *s)
{
	*s = (struct summary){0};
	for (int i = 0; i < o->nm; i++) {
		int j = 0;
		while (j < p->nm && p->metric[j] != o->metric[i])
			j++;
		double eo = o->each[i], ep = j < p->nm ? p->each[j] : NAN;
		if (isnan(eo) || isnan(ep)) {
			s->ours_only += !isnan(eo);
			s->neither += isnan(eo);
			continue;
		}
		s->compared++;
		s->sum_o += eo, s->sum_p += ep;
		s->max_o = eo > s->max_o ? eo : s->max_o;
		s->max_p = ep > s->max_p ? ep : s->max_p;
		s->worse += eo > ep * (1 + 1e-9);
	}
}

/* -v: each metric's true value, ours and perf's with their errors. */
static void print_metrics(const struct pmurt_pmu *pmu, const struct errors *o,
			  const struct errors *p)
{
	for (int i = 0; i < o->nm; i++)
		for (int j = 0; j < p->nm; j++) {
			struct pmurt_metric_info mi = {.sz = sizeof(mi)};
			if (p->metric[j] != o->metric[i] || pmurt_metric_get(pmu, o->metric[i], &mi))
				continue;
			printf("      %-40s true %11.5g | ours %11.5g %7.3f%% ran %5.1f%% | perf "
			       "%11.5g %7.3f%% ran %5.1f%%\n", mi.name, o->truth[i], o->value[i],
			       100 * o->each[i], 100 * o->share[i], p->value[j], 100 * p->each[j],
			       100 * p->share[j]);
			break;
		}
}

static void plan_free(struct plan *pl)
{
	free(pl->events);
	*pl = (struct plan){0};
}

static int bench_group(struct bed *b, const char *group)
{
	static struct plan ours, perf;
	static struct errors eo, ep;
	struct pmurt_error err = {0};
	int apart = 0;
	ours.who = "ours";
	perf.who = "perf";
	int rc = plan_ours(&ours, b->pmu, group, &apart, &err);
	if (rc)
		fprintf(stderr, "bench_mux: %s: %s\n", group, err.message);
	if (!rc)
		rc = plan_perf(&perf, b->pmu, group);
	if (!rc)
		rc = measure(b, &ours, &eo);
	if (!rc)
		rc = measure(b, &perf, &ep);
	if (!rc) {
		struct summary m;
		summarize(&eo, &ep, &m);
		double mo = m.compared ? m.sum_o / m.compared : 0;
		double mp = m.compared ? m.sum_p / m.compared : 0;
		char ratio[64] = "both exact";
		if (mo > 0 && mp > 0)
			snprintf(ratio, sizeof(ratio), "%5.2fx %6.2fx", mp / mo, m.max_p / m.max_o);
		else if (mo > 0 || mp > 0)
			snprintf(ratio, sizeof(ratio), "%s exact", mo > 0 ? "perf" : "ours");
		printf("  %-36s %3d | %3d%s %6.2f%% %7.2f%% | %3d %3d %6.2f%% %7.2f%% | %-13s | %2d\n",
		       group, m.compared, ours.ngroups, apart ? "*" : " ", 100 * mo, 100 * m.max_o,
		       perf.nweak, perf.ngroups, 100 * mp, 100 * m.max_p, ratio, m.worse);
		if (perf.norder)
			printf("  %-36s     (perf: %d refused weak groups another order of their "
			       "events would have had accepted)\n", "", perf.norder);
		if (perf.nagain)
			printf("  %-36s     (perf: %d groups the kernel refuses after their first "
			       "schedule)\n", "", perf.nagain);
		if (m.ours_only || m.neither || perf.nrefused)
			printf("  %-36s     (perf: %d events it cannot open even alone, %d metrics it "
			       "cannot compute that ours does; %d metrics without a finite non-zero "
			       "true value or uncounted by ours)\n", "", perf.nrefused, m.ours_only,
			       m.neither);
		if (b->verbose)
			print_metrics(b->pmu, &eo, &ep);
	}
	plan_free(&ours);
	plan_free(&perf);
	return rc;
}

static int bench_pmu(const char *spec, bool verbose, uint64_t seed)
{
	static struct workload w;
	struct pmurt_error err = {0};
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .pmu = spec,
						   .sysfs = "/nonexistent-sysfs");
	struct bed b = {.w = &w, .verbose = verbose};
	if (pmurt_host_open(&b.host, &o, &err)) {
		fprintf(stderr, "bench_mux: %s: %s\n", spec, err.message);
		return 1;
	}
	b.pmu = pmurt_host_pmu(b.host);
	int rules = workload_make(&w, b.pmu, seed);
	b.total_ns = w.edge[PHASES];
	b.mux = (struct pmu_sim_mux){.fits = group_fits, .counts = workload_counts, .arg = &b};
	char groups[64][64];
	int ng = core_metric_groups(b.pmu, groups, 64), rc = 0;
	printf("%s: %d core metric groups, %d events, %d phases over %.2f s (seed %llu, %d rests "
	       "kept positive), rotation every 4 ms\n"
	       "  %-36s %3s | %-23s | %-27s | %-13s | %s\n"
	       "  %-36s %3s | %3s  %7s %8s | %3s %3s %7s %8s | %-13s |\n",
	       spec, ng, w.ncodes, PHASES, (double)b.total_ns / 1e9, (unsigned long long)seed, rules,
	       "metric group", "n", "ours (* some apart)", "perf", "perf/ours", "ours worse",
	       "", "", "grp", "mean", "max", "wk", "opn", "mean", "max", "mean    max");
	for (int g = 0; g < ng && !rc; g++)
		rc = bench_group(&b, groups[g]);
	pmurt_host_close(b.host);
	return rc;
}

/* --shares: the share of the time each of the events ran on the simulated
 * kernel's multiplexing, counted for ms milliseconds. */
static int shares(const char *spec, const char *ms, int n, char **events)
{
	struct pmurt_error err = {0};
	struct pmurt_host_opts o = PMURT_OPTS_INIT(pmurt_host_opts, .pmu = spec,
						   .sysfs = "/nonexistent-sysfs");
	struct bed b = {0};
	struct plan pl = {.who = "--shares"};
	uint64_t *scaled = calloc((size_t)n, sizeof(*scaled));
	double *share = calloc((size_t)n, sizeof(*share));
	int rc = scaled && share ? 0 : -ENOMEM;
	if (!rc && pmurt_host_open(&b.host, &o, &err)) {
		fprintf(stderr, "bench_mux: %s: %s\n", spec, err.message);
		rc = -EINVAL;
	}
	if (!rc) {
		b.pmu = pmurt_host_pmu(b.host);
		b.total_ns = strtoull(ms, NULL, 10) * 1000000;
		b.mux = (struct pmu_sim_mux){.fits = group_fits, .arg = &b};
		rc = add_group(&pl, (const char *const *)events, n, true) < 0 ? -ENOMEM : 0;
	}
	if (!rc)
		rc = count_plan(&b, &pl, scaled, share);
	for (int i = 0; !rc && i < n; i++)
		printf("%s,%.2f\n", events[i], 100 * share[i]);
	plan_free(&pl);
	free(scaled);
	free(share);
	pmurt_host_close(b.host);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	int rc = 0, first = 1;
	bool verbose = false;
	uint64_t seed = 18;
	if (argc >= 5 && !strcmp(argv[1], "--shares"))
		return shares(argv[2], argv[3], argc - 4, argv + 4);
	for (; first < argc && argv[first][0] == '-'; first++) {
		if (!strcmp(argv[first], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[first], "--seed") && first + 1 < argc) {
			seed = strtoull(argv[++first], NULL, 0);
		} else {
			fprintf(stderr, "usage: bench_mux [-v] [--seed N] [power10|power9 ...]\n"
					"       bench_mux --shares PMU MS EVENT...\n");
			return 2;
		}
	}
	if (argc <= first) {
		rc |= bench_pmu("power10", verbose, seed);
		rc |= bench_pmu("power9", verbose, seed);
	}
	for (int i = first; i < argc; i++)
		rc |= bench_pmu(argv[i], verbose, seed);
	return rc;
}
