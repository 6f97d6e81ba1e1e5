/*
 * pack.c - metrics' events into the fewest groups the PMU accepts.
 *
 * perf's metricgroup.c opens each metric's events as a weak group of their
 * own, sharing nothing (tools/perf/util/metricgroup.c parse_groups: with
 * metric merging, only metrics whose event sets are equal or contained
 * share a group), so POWER10's -M CPI becomes 59 groups of 2 with
 * PM_RUN_INST_CMPL opened 58 times.  Here a metric is a "unit": a set of
 * events that must sit in one group.  Units are placed largest and most
 * constrained first, each into the group it adds the fewest events to
 * (shared events once per group), and every candidate group is proven with
 * pmurt_group_check, the kernel's own group flow with alternatives.  A
 * cheap necessary test (one event per fixed counter, no more programmable
 * events than programmable counters, events with alternative codes left
 * out of both) skips most checks that would fail.  Then the smallest groups
 * are dissolved while their units fit elsewhere.  The best of four orders
 * then goes through chains of ruin and recreate: a round empties the
 * smallest group and two more, places their units again and dissolves the
 * smallest group if it can; it is kept when it needs fewer groups, or as
 * many with a smallest group no larger (a step towards emptying one).  The
 * search stops at the bound, which counts what the metrics force: an event
 * that metrics share (PM_LD_DEMAND_MISS_L1 divides 29 of POWER10's) sits
 * beside at most three other programmable events in a group, so it takes a
 * counter in several groups; POWER10's nine core metric groups need 36
 * groups, not the 33 their distinct events alone would say, and the search
 * finds 36.  A metric whose events no group accepts together is measured
 * apart: each of its events becomes a unit of its own, and the metric is
 * flagged with the check's reason.
 * A unit refused by a group rule (POWER9's cache-pmc4, checked from the
 * leader on) is tried with each event first, then with one companion event
 * in front; an event no group holds even so is named in its metric's
 * message.  A group the kernel accepts only for its first time slice
 * (reschedule_reason) counts as refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "metrics.h"
#include "opts.h"

#define PACK_MAX_PMC 8 /* counters tracked by the quick test (PMC1..PMC8) */
#define PACK_TRIALS 4 /* orders tried */
#define PACK_LNS_CHAINS 4 /* ruin-and-recreate chains from the best */
#define PACK_LNS_ROUNDS 250 /* most rounds in a chain */
#define PACK_LNS_RUINED 3 /* groups emptied in a round */

struct pk_event {
	struct pmurt_event_spec spec;
	int pmc;        /* the code's counter, 0 for any programmable one */
	bool flexible;  /* has an alternative code: left out of the quick test */
	unsigned fixed; /* the quick test's: 1 << pmc for a fixed counter, else 0 */
	bool prog;      /* the quick test's: takes a programmable counter */
};

struct pk_unit {
	int n;
	int ev[PMURT_MAX_GROUP];
	int group;
	int weight;     /* sort key: the scarcest counter among its events */
};

struct pk_group {  /* small: the search copies groups often */
	int n;
	int ev[PMURT_MAX_GROUP];
	unsigned fixed; /* the events' fixed counters (pk_event.fixed) */
	int prog;       /* how many take a programmable counter */
};

struct pk_proof {  /* a final group's check, set by finish() */
	struct pmurt_group_result res;
	struct pmurt_event_spec specs[PMURT_MAX_GROUP];
};

struct pk_item {
	int metric;     /* model index, -1 for a plain event */
	const char *name;
	bool apart;
	char reason[48];
	char message[320];
	int n;
	int ev[PMURT_METRIC_MAX_EVENTS];
	int group;
};

struct pmurt_pack {
	const struct pmurt_pmu *pmu;
	struct pmurt_check_opts opts;
	int maxg, nprog;
	int nevents, cevents;  struct pk_event *events;
	int nunits, cunits;    struct pk_unit *units;
	int ngroups, cgroups;  struct pk_group *groups;
	int *keys;             /* cgroups of them: place_existing's order */
	struct pk_proof *proofs; /* ngroups of them, after finish() */
	int nitems, citems;    struct pk_item *items;
	int bound;
	struct pmurt_event_spec scratch[PMURT_MAX_GROUP];
};

/* Grow an array of *cap elements of size sz to hold n + 1. */
static int grow(void **arr, int n, int *cap, size_t sz)
{
	if (n < *cap)
		return 0;
	int c = *cap ? 2 * *cap : 16;
	void *p = realloc(*arr, (size_t)c * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

void pmurt_pack_free(struct pmurt_pack *pk)
{
	if (!pk)
		return;
	free(pk->events);
	free(pk->units);
	free(pk->groups);
	free(pk->keys);
	free(pk->proofs);
	free(pk->items);
	free(pk);
}

/* --- events ------------------------------------------------------------------ */
static bool code_has_alternative(const struct pmu_model *m, uint64_t code)
{
	for (int i = 0; i < m->nalternatives; i++)
		for (int k = 0; k < m->alternatives[i].ncodes; k++)
			if (m->alternatives[i].codes[k] == code)
				return true;
	return false;
}

static int pmc_of(const struct pmurt_pmu *pmu, uint64_t code)
{
	const struct pmu_engine *e = &pmu->engine;
	if (e->pmc_field < 0)
		return 0;
	return (int)pmu_extract(&e->pmc, code, 0);
}

/* The index in pk->events of spec's event, added when new. */
static int add_spec(struct pmurt_pack *pk, const struct pmurt_event_spec *sp)
{
	struct pmurt_event_spec spec = *sp;
	for (int i = 0; i < pk->nevents; i++)
		if (pk->events[i].spec.code == spec.code && pk->events[i].spec.config1 == spec.config1 &&
		    pk->events[i].spec.exclude == spec.exclude && pk->events[i].spec.type == spec.type &&
		    pk->events[i].spec.config == spec.config)
			return i;
	if (grow((void **)&pk->events, pk->nevents, &pk->cevents, sizeof(*pk->events)))
		return -ENOMEM;
	int pmc = pmc_of(pk->pmu, spec.code);
	struct pk_event *e = &pk->events[pk->nevents];
	*e = (struct pk_event){
		.spec = spec,
		.pmc = pmc < PACK_MAX_PMC ? pmc : 0,
		.flexible = pmc >= PACK_MAX_PMC || spec.type != 4 ||
			    code_has_alternative(&pk->pmu->model, spec.code),
	};
	e->fixed = e->flexible || e->pmc == 0 ? 0 : 1u << e->pmc;
	e->prog = !e->flexible && (e->pmc == 0 || e->pmc <= pk->nprog);
	return pk->nevents++;
}

/* An event string as perf -e reads it (pmurt_parse_event). */
static int add_event(struct pmurt_pack *pk, const char *name, struct pmurt_error *err)
{
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	int rc = pmurt_parse_event(pk->pmu, name, &spec, err);
	return rc ? rc : add_spec(pk, &spec);
}

/* Event e of the description, by itself: a metric names events, not perf's
 * generic names ("cycles" in an expression is the description's event). */
static struct pmurt_event_spec model_spec(const struct pmurt_pack *pk, int e)
{
	const struct pmu_event *ev = &pk->pmu->model.events[e];
	struct pmurt_event_spec spec = {.sz = sizeof(spec), .type = 4 /* PERF_TYPE_RAW */,
					.config = ev->code, .code = ev->code, .event_index = e};
	snprintf(spec.name, sizeof(spec.name), "%s", ev->name);
	return spec;
}

static int add_model_event(struct pmurt_pack *pk, int e)
{
	struct pmurt_event_spec spec = model_spec(pk, e);
	return add_spec(pk, &spec);
}

/* --- the group check ----------------------------------------------------------- */
/* pk->scratch's first n specs: 0 when accepted, 1 when refused, -errno.
 * A group accepted only for its first time slice (the written-back codes
 * refused on the next schedule: reschedule_reason) is refused here, with
 * that reason and message. */
static int check_scratch(struct pmurt_pack *pk, int n, struct pmurt_group_result *res)
{
	*res = (struct pmurt_group_result){.sz = sizeof(*res)};
	int rc = pmurt_group_check(pk->pmu, pk->scratch, n, sizeof(pk->scratch[0]), &pk->opts,
				   res, NULL);
	if (rc || !res->ok)
		return rc ? rc : 1;
	if (!res->reschedule_reason[0])
		return 0;
	memcpy(res->reason, res->reschedule_reason, sizeof(res->reason));
	memcpy(res->message, res->reschedule_message, sizeof(res->message));
	return 1;
}

static int check(struct pmurt_pack *pk, const int *ev, int n, struct pmurt_group_result *res)
{
	for (int i = 0; i < n; i++)
		pk->scratch[i] = pk->events[ev[i]].spec;
	return check_scratch(pk, n, res);
}

static bool has_event(const int *ev, int n, int e)
{
	for (int i = 0; i < n; i++)
		if (ev[i] == e)
			return true;
	return false;
}

/* gr's fixed counters and programmable events (events with an alternative
 * code left out); false when two fixed events need one counter. */
static bool tally(const struct pmurt_pack *pk, struct pk_group *gr)
{
	bool distinct = true;
	gr->fixed = 0;
	gr->prog = 0;
	for (int i = 0; i < gr->n; i++) {
		const struct pk_event *e = &pk->events[gr->ev[i]];
		distinct = distinct && !(e->fixed & gr->fixed);
		gr->fixed |= e->fixed;
		gr->prog += e->prog;
	}
	return distinct;
}

/* A necessary condition for the group check: false when two fixed events
 * need one counter or the programmable ones outnumber their counters. */
static bool may_fit(const struct pmurt_pack *pk, struct pk_group *gr)
{
	return tally(pk, gr) && gr->n <= pk->maxg && gr->prog <= pk->nprog;
}

/* a ∪ b into out (a's order, then b's new events); its size, or -1 past max. */
static int merge(const int *a, int na, const int *b, int nb, int *out, int max)
{
	int n = na;
	memcpy(out, a, (size_t)na * sizeof(*a));
	for (int j = 0; j < nb; j++) {
		bool in = false;
		for (int i = 0; i < na && !in; i++)
			in = a[i] == b[j];
		if (in)
			continue;
		if (n == max)
			return -1;
		out[n++] = b[j];
	}
	return n;
}

static bool contains(const int *a, int na, const int *b, int nb)
{
	int ev[PMURT_MAX_GROUP];
	return merge(a, na, b, nb, ev, PMURT_MAX_GROUP) == na;
}

/* Whether the check refused a group by a group rule (a constraint's
 * group_reason), which one more event can satisfy, not by a conflict. */
static bool refused_by_group_rule(const struct pmurt_pack *pk, const struct pmurt_group_result *res)
{
	const struct pmu_model *m = &pk->pmu->model;
	for (int i = 0; i < m->nconstraints; i++)
		if (m->constraints[i].group_reason &&
		    strcmp(m->constraints[i].group_reason, res->reason) == 0)
			return true;
	return false;
}

/* A set of events a group rule refuses, completed by one event more, put
 * first: POWER9's L2/L3 events count only with an event of their bank on
 * PMC4 in the group (cache-pmc4: power9-pmu.c's group_constraint_mask/_val,
 * tested by core-book3s.c power_check_constraints each time a member is
 * opened, the leader alone first), so PM_L2_ST_MISS alone is refused, as
 * the kernel refuses it, and so is any group whose leader is such an event.
 * The companion is the first event already asked for that makes the check
 * accept it, else the first such event of the description; the accepted
 * order in out, its size returned, 0 when no event does, or -ENOMEM. */
static int with_companion(struct pmurt_pack *pk, const int *ev, int n, int *out)
{
	struct pmurt_group_result res;
	if (n >= pk->maxg)
		return 0;
	memcpy(out + 1, ev, (size_t)n * sizeof(*ev));
	for (int e = 0; e < pk->nevents; e++) {
		out[0] = e;
		if (!contains(ev, n, &e, 1) && check(pk, out, n + 1, &res) == 0)
			return n + 1;
	}
	for (int e = 0; e < pk->pmu->model.nevents; e++) {
		pk->scratch[0] = model_spec(pk, e);
		for (int i = 0; i < n; i++)
			pk->scratch[i + 1] = pk->events[ev[i]].spec;
		if (check_scratch(pk, n + 1, &res) == 0) {
			out[0] = add_model_event(pk, e);
			return out[0] < 0 ? out[0] : n + 1;
		}
	}
	return 0;
}

/* ev in an order the check accepts (each event tried first: the group rule
 * holds from the leader on), else with a companion: the order in out, its
 * size returned, 0 when none, or -ENOMEM. */
static int accepted_order(struct pmurt_pack *pk, const int *ev, int n, int *out)
{
	struct pmurt_group_result res;
	for (int i = 1; i < n; i++) {
		out[0] = ev[i];
		memcpy(out + 1, ev, (size_t)i * sizeof(*ev));
		memcpy(out + i + 1, ev + i + 1, (size_t)(n - i - 1) * sizeof(*ev));
		if (check(pk, out, n, &res) == 0)
			return n;
	}
	return with_companion(pk, ev, n, out);
}

/* --- placing units ---------------------------------------------------------------- */
/* Unit u into group g when the check accepts the union: true if placed. */
static bool try_place(struct pmurt_pack *pk, int u, int g)
{
	struct pk_unit *un = &pk->units[u];
	struct pk_group *gr = &pk->groups[g], to;
	struct pmurt_group_result res;

	to.n = merge(gr->ev, gr->n, un->ev, un->n, to.ev, pk->maxg);
	if (to.n < 0 || !may_fit(pk, &to))
		return false;
	if (to.n > gr->n && check(pk, to.ev, to.n, &res) != 0)
		return false;
	*gr = to;
	un->group = g;
	return true;
}

/* Events unit u would add to group g (a large number when it cannot). */
static int cost(const struct pmurt_pack *pk, int u, int g)
{
	const struct pk_unit *un = &pk->units[u];
	const struct pk_group *gr = &pk->groups[g];
	unsigned fixed = gr->fixed;
	int prog = gr->prog, add = 0;
	for (int i = 0; i < un->n; i++) {
		const struct pk_event *e = &pk->events[un->ev[i]];
		if (has_event(gr->ev, gr->n, un->ev[i]))
			continue;
		if (e->fixed & fixed)
			return PMURT_MAX_GROUP + 1;
		fixed |= e->fixed;
		prog += e->prog;
		add++;
	}
	return gr->n + add > pk->maxg || prog > pk->nprog ? PMURT_MAX_GROUP + 1 : add;
}

static int by_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Best fit among the groups but skip: fewest added events, then the fullest
 * group, then the first; true if placed.  Each group's cost is computed
 * once, as a key that sorts in that order (pk->keys holds cgroups). */
static bool place_existing(struct pmurt_pack *pk, int u, int skip)
{
	int nk = 0, span = pk->ngroups + 1;
	for (int g = 0; g < pk->ngroups; g++) {
		int add = g == skip ? PMURT_MAX_GROUP + 1 : cost(pk, u, g);
		if (add <= pk->maxg)
			pk->keys[nk++] = (add * (PMURT_MAX_GROUP + 1) + PMURT_MAX_GROUP -
					  pk->groups[g].n) * span + g;
	}
	if (nk > 1)
		qsort(pk->keys, (size_t)nk, sizeof(*pk->keys), by_int);
	for (int k = 0; k < nk; k++)
		if (try_place(pk, u, pk->keys[k] % span))
			return true;
	return false;
}

static int new_group(struct pmurt_pack *pk, int u)
{
	int cap = pk->cgroups;
	if (grow((void **)&pk->groups, pk->ngroups, &pk->cgroups, sizeof(*pk->groups)))
		return -ENOMEM;
	if (pk->cgroups != cap) {
		int *keys = realloc(pk->keys, (size_t)pk->cgroups * sizeof(*keys));
		if (!keys)
			return -ENOMEM;
		pk->keys = keys;
	}
	struct pk_group *g = &pk->groups[pk->ngroups];
	g->n = pk->units[u].n;
	memcpy(g->ev, pk->units[u].ev, (size_t)g->n * sizeof(int));
	tally(pk, g);
	pk->units[u].group = pk->ngroups++;
	return 0;
}

/* Group g, which holds no unit now, gives its slot to the last group. */
static void remove_group(struct pmurt_pack *pk, int g)
{
	int last = --pk->ngroups;
	for (int u = 0; u < pk->nunits; u++)
		if (pk->units[u].group == last)
			pk->units[u].group = g;
	if (g != last)
		pk->groups[g] = pk->groups[last];
}

/* Move every unit of group g into the others; on failure put all back. */
static bool dissolve(struct pmurt_pack *pk, int g)
{
	struct pk_group *saved = malloc((size_t)pk->ngroups * sizeof(*saved));
	int *where = malloc((size_t)pk->nunits * sizeof(*where));
	bool ok = saved && where;

	if (ok) {
		memcpy(saved, pk->groups, (size_t)pk->ngroups * sizeof(*saved));
		for (int u = 0; u < pk->nunits; u++)
			where[u] = pk->units[u].group;
		for (int u = 0; ok && u < pk->nunits; u++)
			if (where[u] == g)
				ok = place_existing(pk, u, g);
		if (!ok) {
			memcpy(pk->groups, saved, (size_t)pk->ngroups * sizeof(*saved));
			for (int u = 0; u < pk->nunits; u++)
				pk->units[u].group = where[u];
		}
	}
	if (ok)
		remove_group(pk, g);
	free(saved);
	free(where);
	return ok;
}

/* Dissolve the smallest groups while one can be. */
static void improve(struct pmurt_pack *pk)
{
	bool changed = true;
	while (changed) {
		changed = false;
		for (int size = 1; size <= pk->maxg && !changed; size++)
			for (int g = pk->ngroups - 1; g >= 0 && !changed; g--)
				if (pk->groups[g].n == size)
					changed = dissolve(pk, g);
	}
}

static int by_size_weight(const void *a, const void *b)
{
	const struct pk_unit *x = a, *y = b;
	if (x->n != y->n)
		return y->n - x->n;
	return y->weight - x->weight;
}

static int by_weight_size(const void *a, const void *b)
{
	const struct pk_unit *x = a, *y = b;
	if (x->weight != y->weight)
		return y->weight - x->weight;
	return y->n - x->n;
}

/* How many events need each counter, each event copies[i] times (once when
 * copies is NULL): the sort key and the bound. */
static void counter_load(const struct pmurt_pack *pk, const int *copies, int load[PACK_MAX_PMC],
			 int *prog)
{
	memset(load, 0, PACK_MAX_PMC * sizeof(*load));
	*prog = 0;
	for (int i = 0; i < pk->nevents; i++) {
		const struct pk_event *e = &pk->events[i];
		if (e->flexible)
			continue;
		int c = copies ? copies[i] : 1;
		load[e->pmc] += c;
		*prog += e->pmc == 0 || e->pmc <= pk->nprog ? c : 0;
	}
}

static void set_weights(struct pmurt_pack *pk)
{
	int load[PACK_MAX_PMC], prog;
	counter_load(pk, NULL, load, &prog);
	for (int u = 0; u < pk->nunits; u++) {
		struct pk_unit *un = &pk->units[u];
		un->weight = 0;
		for (int i = 0; i < un->n; i++) {
			const struct pk_event *e = &pk->events[un->ev[i]];
			int w = e->flexible ? 0 : e->pmc ? load[e->pmc] : load[0] / 4;
			un->weight = w > un->weight ? w : un->weight;
		}
	}
}

/* A shuffle of trial t (a fixed LCG: every run gives the same answer),
 * then sorted by size. */
static void shuffle_by_size(struct pmurt_pack *pk, int t)
{
	uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(t + 1);
	for (int u = pk->nunits - 1; u > 0; u--) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		int v = (int)((x >> 33) % (uint64_t)(u + 1));
		struct pk_unit tmp = pk->units[u];
		pk->units[u] = pk->units[v];
		pk->units[v] = tmp;
	}
	for (int u = 1; u < pk->nunits; u++) { /* stable: the shuffle stays within a size */
		struct pk_unit cur = pk->units[u];
		int v = u;
		for (; v > 0 && pk->units[v - 1].n < cur.n; v--)
			pk->units[v] = pk->units[v - 1];
		pk->units[v] = cur;
	}
}

/* The units' order for trial t: by size then scarcity, by scarcity then
 * size, then shuffles. */
static void order_units(struct pmurt_pack *pk, int t)
{
	if (t == 0)
		qsort(pk->units, (size_t)pk->nunits, sizeof(*pk->units), by_size_weight);
	else if (t == 1)
		qsort(pk->units, (size_t)pk->nunits, sizeof(*pk->units), by_weight_size);
	else
		shuffle_by_size(pk, t);
}

/* Group by group: open one with the first unit left, then add the unit that
 * adds the fewest events (the scarcest first on a tie) while one fits. */
static int fill_groups(struct pmurt_pack *pk)
{
	for (int first = 0; first < pk->nunits; first++) {
		if (pk->units[first].group >= 0)
			continue;
		if (new_group(pk, first))
			return -ENOMEM;
		int g = pk->ngroups - 1;
		for (;;) {
			int best = -1;
			for (int add = 0; add <= pk->maxg && best < 0; add++)
				for (int u = first + 1; u < pk->nunits && best < 0; u++)
					if (pk->units[u].group < 0 && cost(pk, u, g) == add &&
					    try_place(pk, u, g))
						best = u;
			if (best < 0)
				break;
		}
	}
	return 0;
}

/* One greedy placement (trial 0 fills group by group, the others place
 * unit by unit where each adds least) and the dissolving of small groups. */
static int trial(struct pmurt_pack *pk, int t)
{
	pk->ngroups = 0;
	order_units(pk, t == 0 ? 0 : t - 1);
	for (int u = 0; u < pk->nunits; u++)
		pk->units[u].group = -1;
	if (t == 0 && fill_groups(pk))
		return -ENOMEM;
	for (int u = 0; t > 0 && u < pk->nunits; u++)
		if (!place_existing(pk, u, -1) && new_group(pk, u))
			return -ENOMEM;
	improve(pk);
	return 0;
}

static uint64_t next_lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

/* The group with the fewest events (the first of them). */
static int smallest_group(const struct pmurt_pack *pk)
{
	int best = 0;
	for (int g = 1; g < pk->ngroups; g++)
		if (pk->groups[g].n < pk->groups[best].n)
			best = g;
	return best;
}

/* Group g's units out (group -1) and g's slot to the last group. */
static void empty_group(struct pmurt_pack *pk, int g)
{
	for (int u = 0; u < pk->nunits; u++)
		if (pk->units[u].group == g)
			pk->units[u].group = -1;
	remove_group(pk, g);
}

/* One round: the smallest group and PACK_LNS_RUINED - 1 more picked by the
 * LCG emptied, their units placed again where each adds least (a new group
 * when none takes one), then the smallest group dissolved if it can be. */
static int ruin_and_recreate_once(struct pmurt_pack *pk, uint64_t *x)
{
	for (int k = 0; k < PACK_LNS_RUINED && pk->ngroups > 0; k++)
		empty_group(pk, k == 0 ? smallest_group(pk)
				       : (int)(next_lcg(x) % (uint64_t)pk->ngroups));
	for (int u = 0; u < pk->nunits; u++)
		if (pk->units[u].group < 0 && !place_existing(pk, u, -1) && new_group(pk, u))
			return -ENOMEM;
	if (pk->ngroups > 1)
		dissolve(pk, smallest_group(pk));
	return 0;
}

/* Ruin and recreate, PACK_LNS_ROUNDS rounds or until the bound: a round is
 * kept when it needs fewer groups, or as many with a smallest group no
 * larger (a step towards emptying one; sideways steps let the search move),
 * else undone.  The LCG is fixed: every run gives the same answer. */
static int ruin_recreate(struct pmurt_pack *pk, int bound, int chain)
{
	struct pk_group *saved = malloc(((size_t)pk->ngroups + 1) * sizeof(*saved));
	int *where = malloc(((size_t)pk->nunits + 1) * sizeof(*where));
	uint64_t x = 0x2545f4914f6cdd1dull + (uint64_t)chain;
	int rc = saved && where ? 0 : -ENOMEM;

	for (int r = 0; r < PACK_LNS_ROUNDS && pk->ngroups > bound && !rc; r++) {
		int before = pk->ngroups, smallest = pk->groups[smallest_group(pk)].n;
		memcpy(saved, pk->groups, (size_t)before * sizeof(*saved));
		for (int u = 0; u < pk->nunits; u++)
			where[u] = pk->units[u].group;
		rc = ruin_and_recreate_once(pk, &x);
		if (!rc && (pk->ngroups < before || (pk->ngroups == before &&
				pk->groups[smallest_group(pk)].n <= smallest)))
			continue;
		memcpy(pk->groups, saved, (size_t)before * sizeof(*saved));
		pk->ngroups = before;
		for (int u = 0; u < pk->nunits; u++)
			pk->units[u].group = where[u];
	}
	free(saved);
	free(where);
	return rc;
}

/* A packing kept aside: the units (their order and groups) and the groups. */
struct pk_solution {
	struct pk_unit *units;
	struct pk_group *groups;
	int ngroups;  /* -1 before the first */
};

/* pk's packing into best when it needs fewer groups: 0 or -ENOMEM. */
static int keep_if_better(const struct pmurt_pack *pk, struct pk_solution *best)
{
	if (best->ngroups >= 0 && pk->ngroups >= best->ngroups)
		return 0;
	struct pk_group *g = realloc(best->groups, ((size_t)pk->ngroups + 1) * sizeof(*g));
	if (!g)
		return -ENOMEM;
	best->groups = g;
	best->ngroups = pk->ngroups;
	memcpy(best->units, pk->units, (size_t)pk->nunits * sizeof(*best->units));
	memcpy(best->groups, pk->groups, (size_t)pk->ngroups * sizeof(*best->groups));
	return 0;
}

/* best back into pk (whose groups held as many once). */
static void restore(struct pmurt_pack *pk, const struct pk_solution *best)
{
	memcpy(pk->units, best->units, (size_t)pk->nunits * sizeof(*best->units));
	memcpy(pk->groups, best->groups, (size_t)best->ngroups * sizeof(*best->groups));
	pk->ngroups = best->ngroups;
}

/* The best of PACK_TRIALS orders (the fewest groups; the first on a tie),
 * then PACK_LNS_CHAINS chains of ruin and recreate, each from the best so
 * far with an LCG of its own (a chain stuck where no round is kept wastes
 * only its own rounds); stopping at the bound. */
static int pack_units(struct pmurt_pack *pk)
{
	struct pk_solution best = {.units = malloc(((size_t)pk->nunits + 1) * sizeof(*best.units)),
				   .ngroups = -1};
	int rc = best.units ? 0 : -ENOMEM;

	if (pk->nunits == 0) { /* nothing any group can count: no groups */
		free(best.units);
		return 0;
	}
	if (!rc)
		set_weights(pk);
	for (int t = 0; t < PACK_TRIALS && best.ngroups != pk->bound && !rc; t++) {
		rc = trial(pk, t);
		if (!rc)
			rc = keep_if_better(pk, &best);
	}
	for (int c = 0; c < PACK_LNS_CHAINS && best.ngroups > pk->bound && !rc; c++) {
		restore(pk, &best);
		rc = ruin_recreate(pk, pk->bound, c);
		if (!rc)
			rc = keep_if_better(pk, &best);
	}
	if (!rc) /* the groups as proven, their events in the order checked */
		restore(pk, &best);
	free(best.units);
	free(best.groups);
	return rc;
}

/* --- the request --------------------------------------------------------------------- */
static int add_unit(struct pmurt_pack *pk, const int *ev, int n)
{
	for (int u = 0; u < pk->nunits; u++) /* a unit inside another is covered by it */
		if (contains(pk->units[u].ev, pk->units[u].n, ev, n))
			return 0;
	for (int u = 0; u < pk->nunits; u++)
		if (contains(ev, n, pk->units[u].ev, pk->units[u].n))
			pk->units[u--] = pk->units[--pk->nunits];
	if (grow((void **)&pk->units, pk->nunits, &pk->cunits, sizeof(*pk->units)))
		return -ENOMEM;
	struct pk_unit *un = &pk->units[pk->nunits++];
	un->n = n;
	memcpy(un->ev, ev, (size_t)n * sizeof(*ev));
	return 0;
}

/* ev as a unit when the check accepts it, else, when a group rule refuses
 * it, in another order or with a companion event: 0 when added, 1 when no
 * group can hold ev (*res says why, unless ev outnumbers a group), -ENOMEM. */
static int add_checked_unit(struct pmurt_pack *pk, const int *ev, int n,
			    struct pmurt_group_result *res)
{
	int c = n <= pk->maxg ? check(pk, ev, n, res) : 1;
	if (c <= 0)
		return c < 0 ? c : add_unit(pk, ev, n);
	if (n > pk->maxg || !refused_by_group_rule(pk, res))
		return 1;
	int order[PMURT_MAX_GROUP], m = accepted_order(pk, ev, n, order);
	return m < 0 ? m : m == 0 ? 1 : add_unit(pk, order, m);
}

/* An item's event that no group can count, even alone: named in its message. */
static void note_uncounted(struct pk_item *it, const char *event)
{
	size_t len = strlen(it->message);
	if (len + 1 < sizeof(it->message))
		snprintf(it->message + len, sizeof(it->message) - len, "; %s counts in no group",
			 event);
}

/* A new item in *out: 0; 1 when name was asked for already (once is
 * enough), -ENOMEM. */
static int new_item(struct pmurt_pack *pk, int metric, const char *name, struct pk_item **out)
{
	for (int i = 0; i < pk->nitems; i++)
		if (pmu_name_eq_nocase(pk->items[i].name, name))
			return 1;
	if (grow((void **)&pk->items, pk->nitems, &pk->citems, sizeof(*pk->items)))
		return -ENOMEM;
	*out = &pk->items[pk->nitems++];
	**out = (struct pk_item){.metric = metric, .name = name, .group = -1};
	return 0;
}

/* A metric's events; apart when another PMU's, or when the check refuses
 * them together (then each event is a unit of its own). */
static int add_metric(struct pmurt_pack *pk, int index, struct pmurt_error *err)
{
	const struct pmu_metric *mt = &pk->pmu->model.metrics[index];
	struct pk_item *it = NULL;
	struct pmu_metric_prog prog;
	int rc = new_item(pk, index, mt->name, &it);
	if (rc)
		return rc < 0 ? rc : 0;
	rc = pmurt_metric_compile(pk->pmu, index, &prog, err);
	if (rc)
		return rc;
	for (int k = 0; k < prog.nevents && !rc; k++) {
		int me = pmu_model_event(&pk->pmu->model, prog.events[k]);
		if (me < 0) {
			it->apart = true;
			snprintf(it->reason, sizeof(it->reason), "other_pmu");
			snprintf(it->message, sizeof(it->message), "%s counts events of %s, not of "
				 "this PMU", mt->name, mt->pmus ? mt->pmus : "another PMU");
			it->n = 0;
			break;
		}
		int e = add_model_event(pk, me);
		if (e < 0)
			rc = e;
		else if (merge(it->ev, it->n, &e, 1, it->ev, PMURT_METRIC_MAX_EVENTS) > it->n)
			it->n++;
	}
	pmu_metric_prog_free(&prog);
	if (rc || it->apart || it->n == 0) /* n == 0: constants only, nothing to count */
		return rc;
	struct pmurt_group_result res;
	int c = add_checked_unit(pk, it->ev, it->n, &res);
	if (c <= 0)
		return c;
	it->apart = true;
	if (it->n > pk->maxg) {
		snprintf(it->reason, sizeof(it->reason), "too_many_events");
		snprintf(it->message, sizeof(it->message), "%s needs %d events, a group holds %d",
			 mt->name, it->n, pk->maxg);
	} else {
		snprintf(it->reason, sizeof(it->reason), "%s", res.reason);
		snprintf(it->message, sizeof(it->message), "%s", res.message);
	}
	for (int k = 0; k < it->n; k++) {
		c = add_checked_unit(pk, &it->ev[k], 1, &res);
		if (c < 0)
			return c;
		if (c == 1)
			note_uncounted(it, pk->events[it->ev[k]].spec.name);
	}
	return 0;
}

static int add_group_metrics(struct pmurt_pack *pk, const char *group, struct pmurt_error *err)
{
	int rc = 0, found = 0;
	for (int i = 0; i < pk->pmu->model.nmetrics && !rc; i++)
		if (pmu_metric_in_group(&pk->pmu->model.metrics[i], group)) {
			found++;
			rc = add_metric(pk, i, err);
		}
	return rc ? rc : found ? 0 : -ENOENT;
}

static int add_name(struct pmurt_pack *pk, const char *name, struct pmurt_error *err)
{
	int m = pmu_model_metric(&pk->pmu->model, name);
	if (m >= 0)
		return add_metric(pk, m, err);
	int rc = add_group_metrics(pk, name, err);
	if (rc != -ENOENT)
		return rc;
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	if (pmurt_parse_event(pk->pmu, name, &spec, NULL) != 0) {
		pmurt_set_error(err, -ENOENT, "'%s' is no metric, metric group or event of %s",
				name, pk->pmu->model.name ? pk->pmu->model.name : "the PMU");
		return -ENOENT;
	}
	int e = add_event(pk, name, err);
	if (e < 0)
		return e;
	struct pk_item *it = NULL;
	rc = new_item(pk, -1, name, &it);
	if (rc)
		return rc < 0 ? rc : 0;
	it->n = 1;
	it->ev[0] = e;
	struct pmurt_group_result res;
	rc = add_checked_unit(pk, &e, 1, &res);
	if (rc != 1)
		return rc;
	it->apart = true; /* no group holds it */
	snprintf(it->reason, sizeof(it->reason), "%s", res.reason);
	snprintf(it->message, sizeof(it->message), "%s", res.message);
	return 0;
}

/* Which group measures each item whole; for one apart, where its events are. */
static int first_group_with(const struct pmurt_pack *pk, const int *ev, int n)
{
	for (int g = 0; g < pk->ngroups; g++)
		if (contains(pk->groups[g].ev, pk->groups[g].n, ev, n))
			return g;
	return -1;
}

/* Counts on a programmable counter, whichever code the check picks. */
static bool programmable(const struct pmurt_pack *pk, int e)
{
	return !pk->events[e].flexible && (pk->events[e].pmc == 0 ||
					  pk->events[e].pmc <= pk->nprog);
}

/* The fewest groups programmable event h must be in: each metric measured
 * whole puts h in a group with each of its other programmable events (its
 * partners), one group holds at most nprog - 1 of them beside h, and no two
 * on one counter.  seen: nevents marks, h + 1 for a partner of h. */
static int copies_needed(const struct pmurt_pack *pk, int h, int *seen)
{
	int partners = 0, on[PACK_MAX_PMC] = {0}, copies = 1;
	for (int i = 0; i < pk->nitems; i++) {
		const struct pk_item *it = &pk->items[i];
		if (it->apart || !has_event(it->ev, it->n, h))
			continue;
		for (int k = 0; k < it->n; k++) {
			int e = it->ev[k];
			if (e == h || seen[e] == h + 1 || !programmable(pk, e))
				continue;
			seen[e] = h + 1;
			partners++;
			on[pk->events[e].pmc]++;
		}
	}
	if (pk->nprog > 1 && (partners + pk->nprog - 2) / (pk->nprog - 1) > copies)
		copies = (partners + pk->nprog - 2) / (pk->nprog - 1);
	for (int k = 1; k < PACK_MAX_PMC; k++)
		copies = on[k] > copies ? on[k] : copies;
	return copies;
}

/* No fewer groups can hold the events: the most one counter must take, or
 * the programmable ones over the programmable counters, each event counted
 * as often as copies_needed says (an event with an alternative code left
 * out: the check may move it); -ENOMEM. */
static int compute_bound(const struct pmurt_pack *pk)
{
	int *copies = calloc((size_t)pk->nevents + 1, sizeof(*copies));
	int *seen = calloc((size_t)pk->nevents + 1, sizeof(*seen));
	int load[PACK_MAX_PMC], prog, bound = 0;

	if (!copies || !seen) {
		free(copies);
		free(seen);
		return -ENOMEM;
	}
	for (int h = 0; h < pk->nevents; h++)
		copies[h] = programmable(pk, h) ? copies_needed(pk, h, seen) : 1;
	counter_load(pk, copies, load, &prog);
	free(copies);
	free(seen);
	for (int k = 1; k < PACK_MAX_PMC; k++)
		bound = load[k] > bound ? load[k] : bound;
	if (pk->nprog > 0 && (prog + pk->nprog - 1) / pk->nprog > bound)
		bound = (prog + pk->nprog - 1) / pk->nprog;
	return bound;
}

static int finish(struct pmurt_pack *pk, struct pmurt_error *err)
{
	pk->proofs = calloc((size_t)pk->ngroups + 1, sizeof(*pk->proofs));
	if (!pk->proofs)
		return -ENOMEM;
	for (int g = 0; g < pk->ngroups; g++) {
		struct pk_group *gr = &pk->groups[g];
		struct pk_proof *pr = &pk->proofs[g];
		for (int i = 0; i < gr->n; i++)
			pr->specs[i] = pk->events[gr->ev[i]].spec;
		int rc = check(pk, gr->ev, gr->n, &pr->res);
		if (rc) { /* every placed group was accepted: the proof must hold */
			pmurt_set_error(err, -EPROTO, "pmurt_pack: group %d no longer passes the "
					"group check: %s", g, pr->res.message);
			return -EPROTO;
		}
	}
	for (int i = 0; i < pk->nitems; i++)
		pk->items[i].group = pk->items[i].apart ? -1 :
			first_group_with(pk, pk->items[i].ev, pk->items[i].n);
	return 0;
}

static int count_programmable(const struct pmu_model *m)
{
	int n = 0;
	for (int i = 0; i < m->ncounters; i++)
		n += m->counters[i].programmable;
	return n;
}

int pmurt_pack(const struct pmurt_pmu *pmu, const char *const *names, int n,
	       const struct pmurt_check_opts *opts, struct pmurt_pack **out,
	       struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!pmu || !out || n < 0 || (n && !names)) {
		pmurt_set_error(err, -EINVAL, "pmurt_pack: missing argument");
		return -EINVAL;
	}
	if (pmu_opts_valid(opts, sizeof(struct pmurt_check_opts), "pmurt_pack", err))
		return -EINVAL;
	struct pmurt_pack *pk = calloc(1, sizeof(*pk));
	if (!pk) {
		pmurt_set_error(err, -ENOMEM, "pmurt_pack: out of memory");
		return -ENOMEM;
	}
	pk->pmu = pmu;
	pk->opts = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true, .lpar = true);
	pmu_opts_take(&pk->opts, sizeof(struct pmurt_check_opts), opts);
	pk->maxg = pmu->model.max_group < PMURT_MAX_GROUP ? (int)pmu->model.max_group
							  : PMURT_MAX_GROUP;
	pk->nprog = count_programmable(&pmu->model);
	int rc = 0;
	for (int i = 0; i < n && !rc; i++)
		rc = names[i] ? add_name(pk, names[i], err) : -EINVAL;
	if (!rc && (pk->bound = compute_bound(pk)) < 0)
		rc = pk->bound;
	if (!rc)
		rc = pack_units(pk);
	if (!rc)
		rc = finish(pk, err);
	if (rc) {
		if (err && !err->code)
			pmurt_set_error(err, rc, "pmurt_pack: %s", rc == -ENOMEM ? "out of memory"
										: "bad argument");
		pmurt_pack_free(pk);
		return rc;
	}
	*out = pk;
	return 0;
}

/* --- reading the answer ----------------------------------------------------------------- */
int pmurt_pack_info(const struct pmurt_pack *pk, struct pmurt_pack_info *info)
{
	if (!pk || !info || info->sz < sizeof(*info))
		return -EINVAL;
	int apart = 0;
	for (int i = 0; i < pk->nitems; i++)
		apart += pk->items[i].apart;
	*info = (struct pmurt_pack_info){.sz = sizeof(*info), .ngroups = pk->ngroups,
					 .nevents = pk->nevents, .nmetrics = pk->nitems,
					 .napart = apart, .bound = pk->bound};
	return 0;
}

int pmurt_pack_group(const struct pmurt_pack *pk, int g, const struct pmurt_event_spec **events,
		     int *n, const struct pmurt_group_result **res)
{
	if (!pk || g < 0 || !n)
		return -EINVAL;
	if (g >= pk->ngroups)
		return -ENOENT;
	*n = pk->groups[g].n;
	if (events)
		*events = pk->proofs[g].specs;
	if (res)
		*res = &pk->proofs[g].res;
	return 0;
}

int pmurt_pack_metric_get(const struct pmurt_pack *pk, int i, struct pmurt_pack_metric *m)
{
	if (!pk || !m || m->sz < sizeof(*m) || i < 0)
		return -EINVAL;
	if (i >= pk->nitems)
		return -ENOENT;
	const struct pk_item *it = &pk->items[i];
	struct pmurt_pack_metric full = {.sz = sizeof(full), .index = it->metric,
					 .name = it->name, .group = it->group,
					 .apart = it->apart, .nevents = it->n};
	snprintf(full.reason, sizeof(full.reason), "%s", it->reason);
	snprintf(full.message, sizeof(full.message), "%s", it->message);
	for (int k = 0; k < it->n; k++)
		full.event_group[k] = first_group_with(pk, &it->ev[k], 1);
	*m = full;
	return 0;
}
