/*
 * metrics_test.c - perf's metrics through libpmurt's public API: look-up
 * and group listing without case, each metric's events and ScaleUnit,
 * evaluation against hand-computed values (exact fractions, perf's double,
 * -EDOM, -ERANGE, literals, metrics naming metrics), and pmurt_pack on the
 * toy PMU (the conflicting metric measured apart, the nest metric refused
 * as another PMU's; metrics of exactly a group's events, fitting and not,
 * and of one more) and on POWER10's and POWER9's metric groups (every
 * group accepted by the group check, every metric whose events fit measured
 * whole in the group the pack names, no more groups than the goal: POWER10's
 * nine core metric groups in 36 at most, issue 18's).
 *
 * usage: metrics_test TOY.yaml TOY-ALL-EVENTS.dtb
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "pmurt.h"

static int failures;

static struct pmurt_pmu *open_pmu(const char *spec)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err;
	int rc = pmurt_pmu_open(&pmu, spec, NULL, &err);
	CHECK(rc == 0, "open %s: %d %s", spec, rc, err.message);
	return pmu;
}

/* eval metric name on counts; the value in *v */
static int eval(struct pmurt_pmu *pmu, const char *name, const uint64_t *counts, int n,
		const int64_t *lit, struct pmurt_metric_value *v)
{
	struct pmurt_error err;
	int i = pmurt_metric_find(pmu, name, NULL, &err);
	CHECK(i >= 0, "metric %s: %s", name, err.message);
	*v = (struct pmurt_metric_value){.sz = sizeof(*v)};
	return i < 0 ? i : pmurt_metric_eval(pmu, i, counts, n, lit, v, &err);
}

static void expect_exact(struct pmurt_pmu *pmu, const char *name, const uint64_t *counts, int n,
			 int64_t num, int64_t den)
{
	struct pmurt_metric_value v;
	int rc = eval(pmu, name, counts, n, NULL, &v);
	CHECK(rc == 0 && v.exact && v.num == num && v.den == den &&
	      fabs(v.value - (double)num / (double)den) < 1e-9,
	      "%s: rc %d exact %d %lld/%lld (%g), expected %lld/%lld", name, rc, v.exact,
	      (long long)v.num, (long long)v.den, v.value, (long long)num, (long long)den);
}

static void test_lookup(struct pmurt_pmu *pmu)
{
	struct pmurt_metric_info info = {.sz = sizeof(info)};
	struct pmurt_error err;
	int i = pmurt_metric_find(pmu, "nested", &info, &err);
	CHECK(i == 3 && info.nevents == 2 && strcmp(info.name, "NESTED") == 0,
	      "nested: %d %d", i, info.nevents);
	struct pmurt_event_info ev = {.sz = sizeof(ev)};
	CHECK(i < 0 || (pmurt_event_get(pmu, info.event_index[0], &ev) == 0 &&
			strcmp(ev.name, "EV_A") == 0), "NESTED's first event");
	CHECK(pmurt_metric_find(pmu, "RATOI", NULL, &err) == -ENOENT &&
	      strstr(err.message, "did you mean 'RATIO'"), "suggestion: %s", err.message);
	i = pmurt_metric_find(pmu, "ratio", &info, NULL);
	CHECK(i == 0 && info.scale == 150 && strcmp(info.unit, "%") == 0,
	      "RATIO's ScaleUnit: %g '%s'", info.scale, info.unit);
	i = pmurt_metric_find(pmu, "NEST_BW", &info, NULL);
	CHECK(i == 6 && info.nevents == 1 && info.event_index[0] == -1 && info.pmus &&
	      strcmp(info.pmus, "hv_24x7") == 0 && fabs(info.scale - 6.1e-5) < 1e-12 &&
	      strcmp(info.unit, "MB") == 0, "NEST_BW: %d %d", i, info.nevents);
	char buf[32];
	/* groups in order of first appearance, matched without case: G1 has
	 * RATIO and NESTED ("g1") */
	CHECK(pmurt_metric_group_get(pmu, 0, buf, sizeof(buf)) == 2 && strcmp(buf, "G1") == 0,
	      "group 0: %s", buf);
	CHECK(pmurt_metric_group_get(pmu, 1, buf, sizeof(buf)) == 2 &&
	      strcmp(buf, "Ratios") == 0, "group 1: %s", buf);
	CHECK(pmurt_metric_group_get(pmu, 2, buf, sizeof(buf)) == -ENOENT, "two groups");
	CHECK(pmurt_metric_in_group(pmu, 3, "G1") && !pmurt_metric_in_group(pmu, 3, "G"),
	      "in group");
}

static void test_eval(struct pmurt_pmu *pmu)
{
	struct pmurt_metric_value v;
	expect_exact(pmu, "RATIO", (uint64_t[]){10, 4}, 2, 5, 2);
	CHECK(eval(pmu, "RATIO", (uint64_t[]){10, 0}, 2, NULL, &v) == -EDOM && isnan(v.value),
	      "RATIO by zero");
	expect_exact(pmu, "EXACT", (uint64_t[]){299}, 1, 1, 1);         /* 300 / 100 / 3 */
	expect_exact(pmu, "EXACT", (uint64_t[]){0}, 1, 1, 300);
	expect_exact(pmu, "FUNCS", (uint64_t[]){6, 3}, 2, 14, 1);       /* 2 + 3 - 2 + 9 + 2 */
	expect_exact(pmu, "FUNCS", (uint64_t[]){6, 0}, 2, 9, 1);        /* d_ratio by 0 is 0 */
	expect_exact(pmu, "FUNCS", (uint64_t[]){1, 3}, 2, 25, 3);       /* 1/3 + 1 - 2 + 7 + 2 */
	expect_exact(pmu, "NESTED", (uint64_t[]){10, 4}, 2, 250, 1);
	expect_exact(pmu, "NEG", (uint64_t[]){3}, 1, -6, 1);
	CHECK(eval(pmu, "SMT", (uint64_t[]){5}, 1, NULL, &v) == -ENOENT, "SMT without literals");
	int64_t lit[PMURT_METRIC_NLITERALS] = {1};
	CHECK(eval(pmu, "SMT", (uint64_t[]){5}, 1, lit, &v) == 0 && v.exact && v.num == 10,
	      "SMT on: %lld", (long long)v.num);
	lit[0] = 0;
	CHECK(eval(pmu, "SMT", (uint64_t[]){5}, 1, lit, &v) == 0 && v.num == 5, "SMT off");
	uint64_t big = 1ull << 40;
	CHECK(eval(pmu, "BIG", (uint64_t[]){big, big, big}, 3, NULL, &v) == -ERANGE && !v.exact &&
	      v.value == ldexp(1, 120), "BIG: %g", v.value);
	CHECK(eval(pmu, "RATIO", (uint64_t[]){10}, 1, NULL, &v) == -EINVAL, "count count");
}

static struct pmurt_pack *pack(struct pmurt_pmu *pmu, const char *const *names, int n)
{
	struct pmurt_pack *pk = NULL;
	struct pmurt_error err;
	int rc = pmurt_pack(pmu, names, n, NULL, &pk, &err);
	CHECK(rc == 0, "pack %s: %d %s", names[0], rc, err.message);
	return pk;
}

static bool group_has(const struct pmurt_pack *pk, int g, const char *event)
{
	const struct pmurt_event_spec *ev;
	int n;
	if (pmurt_pack_group(pk, g, &ev, &n, NULL))
		return false;
	for (int i = 0; i < n; i++)
		if (strcmp(ev[i].name, event) == 0)
			return true;
	return false;
}

/* Whether the group check accepts event e of the description by itself. */
static bool counts_alone(struct pmurt_pmu *pmu, int e)
{
	struct pmurt_event_info ev = {.sz = sizeof(ev)};
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	struct pmurt_group_result res = {.sz = sizeof(res)};
	struct pmurt_check_opts opts = {.sz = sizeof(opts), .per_task = true, .lpar = true};
	return pmurt_event_get(pmu, e, &ev) == 0 &&
	       pmurt_parse_event(pmu, ev.name, &spec, NULL) == 0 &&
	       pmurt_group_check(pmu, &spec, 1, sizeof(spec), &opts, &res, NULL) == 0 && res.ok;
}

/* Every group accepted (and its schedule kept past the first time slice);
 * every metric not apart has all its events in the
 * group named for it; the apart ones have each event in some group. */
static void check_pack(struct pmurt_pmu *pmu, const struct pmurt_pack *pk, const char *what)
{
	struct pmurt_pack_info info = {.sz = sizeof(info)};
	CHECK(pmurt_pack_info(pk, &info) == 0, "%s: info", what);
	for (int g = 0; g < info.ngroups; g++) {
		const struct pmurt_group_result *res;
		int n;
		CHECK(pmurt_pack_group(pk, g, NULL, &n, &res) == 0 && res->ok && n >= 1 &&
		      !res->reschedule_reason[0], "%s: group %d not accepted", what, g);
	}
	for (int i = 0; i < info.nmetrics; i++) {
		struct pmurt_pack_metric m = {.sz = sizeof(m)};
		struct pmurt_metric_info mi = {.sz = sizeof(mi)};
		CHECK(pmurt_pack_metric_get(pk, i, &m) == 0, "%s: metric %d", what, i);
		if (m.index < 0 || pmurt_metric_get(pmu, m.index, &mi) != 0)
			continue;
		CHECK(m.apart == (m.group < 0), "%s: %s apart %d group %d", what, m.name, m.apart,
		      m.group);
		for (int k = 0; k < mi.nevents && !mi.pmus; k++) {
			struct pmurt_event_info ev = {.sz = sizeof(ev)};
			pmurt_event_get(pmu, mi.event_index[k], &ev);
			int g = m.apart ? m.event_group[k] : m.group;
			if (m.apart && g < 0) { /* only an event no group holds, named */
				CHECK(!counts_alone(pmu, mi.event_index[k]) &&
				      strstr(m.message, ev.name), "%s: %s's %s in no group: %s",
				      what, m.name, ev.name, m.message);
				continue;
			}
			CHECK(g >= 0 && group_has(pk, g, ev.name), "%s: %s's %s not in group %d", what,
			      m.name, ev.name, g);
		}
	}
}

static void test_pack_toy(struct pmurt_pmu *pmu)
{
	const char *names[] = {"ratio", "g1", "CONFLICT", "EV_B", "nest_bw", "RATIO"};
	struct pmurt_pack *pk = pack(pmu, names, 6);
	if (!pk)
		return;
	check_pack(pmu, pk, "toy");
	struct pmurt_pack_info info = {.sz = sizeof(info)};
	pmurt_pack_info(pk, &info);
	/* RATIO, NESTED, CONFLICT, EV_B, NEST_BW (RATIO asked twice: once);
	 * EV_A, cycles, EV_B together; EV_C (PMC1 as EV_A) in a second group */
	CHECK(info.nmetrics == 5 && info.nevents == 4 && info.ngroups == 2 && info.bound == 2 &&
	      info.napart == 2, "toy: %d metrics %d events %d groups bound %d apart %d",
	      info.nmetrics, info.nevents, info.ngroups, info.bound, info.napart);
	struct pmurt_pack_metric m = {.sz = sizeof(m)};
	CHECK(pmurt_pack_metric_get(pk, 2, &m) == 0 && m.apart && strcmp(m.name, "CONFLICT") == 0 &&
	      m.reason[0] && m.message[0] && m.event_group[0] != m.event_group[1],
	      "CONFLICT: apart %d reason '%s'", m.apart, m.reason);
	CHECK(pmurt_pack_metric_get(pk, 3, &m) == 0 && m.index == -1 && !m.apart && m.group >= 0,
	      "EV_B plain");
	CHECK(pmurt_pack_metric_get(pk, 4, &m) == 0 && m.apart &&
	      strcmp(m.reason, "other_pmu") == 0, "NEST_BW: %s", m.reason);
	pmurt_pack_free(pk);
	/* EV_B (PMC2) divides three metrics and sits beside one of their other
	 * events a group (two programmable counters): it must be in three
	 * groups, so the bound is 3, not the 2 of the four distinct events */
	const char *shared[] = {"PER_B_A", "PER_B_D", "PER_B_E"};
	pk = pack(pmu, shared, 3);
	if (pk) {
		check_pack(pmu, pk, "shared");
		pmurt_pack_info(pk, &info);
		CHECK(info.nevents == 4 && info.ngroups == 3 && info.bound == 3 && info.napart == 0,
		      "shared: %d events %d groups bound %d apart %d", info.nevents, info.ngroups,
		      info.bound, info.napart);
		for (int g = 0; g < info.ngroups; g++)
			CHECK(group_has(pk, g, "EV_B"), "shared: EV_B not in group %d", g);
		pmurt_pack_free(pk);
	}
	struct pmurt_error err;
	const char *bad[] = {"NO_SUCH"};
	CHECK(pmurt_pack(pmu, bad, 1, NULL, &pk, &err) == -ENOENT &&
	      strstr(err.message, "NO_SUCH"), "unknown: %s", err.message);
}

/* Metrics at a group's size (the toy's max-group is 3): three events that
 * fit are measured whole in one group; three that conflict are apart for
 * the group check's reason, not for their number; four are too many, and
 * the message says how many each way. */
static void test_pack_bounds(struct pmurt_pmu *pmu)
{
	const char *names[] = {"BIG", "FULL_CONFLICT", "OVER"};
	struct pmurt_pack *pk = pack(pmu, names, 3);
	if (!pk)
		return;
	check_pack(pmu, pk, "bounds");
	struct pmurt_pack_metric big = {.sz = sizeof(big)}, full = {.sz = sizeof(full)},
				 over = {.sz = sizeof(over)};
	pmurt_pack_metric_get(pk, 0, &big);
	pmurt_pack_metric_get(pk, 1, &full);
	pmurt_pack_metric_get(pk, 2, &over);
	CHECK(!big.apart && big.group >= 0, "BIG (a group's worth that fits): apart %d '%s'",
	      big.apart, big.reason);
	/* the group check's own answer for the three together */
	struct pmurt_event_spec spec[3];
	const char *events[] = {"EV_A", "EV_C", "cycles"};
	for (int i = 0; i < 3; i++) {
		spec[i] = (struct pmurt_event_spec){.sz = sizeof(spec[i])};
		pmurt_parse_event(pmu, events[i], &spec[i], NULL);
	}
	struct pmurt_group_result res = {.sz = sizeof(res)};
	struct pmurt_check_opts opts = {.sz = sizeof(opts), .per_task = true, .lpar = true};
	CHECK(pmurt_group_check(pmu, spec, 3, sizeof(spec[0]), &opts, &res, NULL) == 0 && !res.ok &&
	      strcmp(res.reason, "too_many_events") != 0, "EV_A, EV_C, cycles: ok %d '%s'", res.ok,
	      res.reason);
	CHECK(full.apart && strcmp(full.reason, res.reason) == 0 &&
	      strcmp(full.message, res.message) == 0,
	      "FULL_CONFLICT (a group's worth that conflicts): apart %d '%s' '%s', the check's "
	      "'%s' '%s'", full.apart, full.reason, full.message, res.reason, res.message);
	CHECK(over.apart && strcmp(over.reason, "too_many_events") == 0 &&
	      strcmp(over.message, "OVER needs 4 events, a group holds 3") == 0,
	      "OVER (one more than a group holds): apart %d '%s' '%s'", over.apart, over.reason,
	      over.message);
	pmurt_pack_free(pk);
}

/* A real PMU's metric group: accepted groups, no more than `most`. */
static void test_pack_real(const char *spec, const char *group, int most, int bound,
			   const char *apart, const char *reason)
{
	struct pmurt_pmu *pmu = open_pmu(spec);
	if (!pmu)
		return;
	struct pmurt_pack *pk = pack(pmu, &group, 1);
	if (pk) {
		struct pmurt_pack_info info = {.sz = sizeof(info)};
		pmurt_pack_info(pk, &info);
		CHECK(info.ngroups <= most && info.bound == bound && info.ngroups >= info.bound,
		      "%s %s: %d groups, bound %d", spec, group, info.ngroups, info.bound);
		check_pack(pmu, pk, group);
		bool found = false;
		for (int i = 0; i < info.nmetrics; i++) {
			struct pmurt_pack_metric m = {.sz = sizeof(m)};
			pmurt_pack_metric_get(pk, i, &m);
			if (strcmp(m.name, apart) == 0)
				found = m.apart && strcmp(m.reason, reason) == 0;
		}
		CHECK(found, "%s %s: %s not flagged apart (%s)", spec, group, apart, reason);
		pmurt_pack_free(pk);
	}
	pmurt_pmu_close(pmu);
}

/* Every core metric of a real PMU (those naming no other PMU) at once: the
 * pack succeeds, every group passes the group check, every metric is
 * measured whole in its group or flagged apart with a reason and each of
 * its events in some group, and no more groups than `most`. */
static void test_pack_all_core(const char *spec, int most)
{
	struct pmurt_pmu *pmu = open_pmu(spec);
	if (!pmu)
		return;
	int count = pmurt_metric_count(pmu), n = 0;
	const char **names = calloc((size_t)(count > 0 ? count : 1), sizeof(*names));
	CHECK(names != NULL, "%s: no memory", spec);
	for (int i = 0; names && i < count; i++) { /* POWER10 has one name twice */
		struct pmurt_metric_info mi = {.sz = sizeof(mi)};
		if (pmurt_metric_get(pmu, i, &mi) != 0 || mi.pmus)
			continue;
		bool again = false;
		for (int k = 0; k < n && !again; k++)
			again = strcasecmp(names[k], mi.name) == 0;
		if (!again)
			names[n++] = mi.name;
	}
	struct pmurt_pack *pk = names && n ? pack(pmu, names, n) : NULL;
	CHECK(pk != NULL, "%s: all %d core metrics not packed", spec, n);
	if (pk) {
		struct pmurt_pack_info info = {.sz = sizeof(info)};
		pmurt_pack_info(pk, &info);
		CHECK(info.nmetrics == n && info.ngroups <= most && info.ngroups >= info.bound,
		      "%s all core: %d of %d metrics, %d groups (most %d), bound %d", spec,
		      info.nmetrics, n, info.ngroups, most, info.bound);
		check_pack(pmu, pk, spec);
		for (int i = 0; i < info.nmetrics; i++) {
			struct pmurt_pack_metric m = {.sz = sizeof(m)};
			pmurt_pack_metric_get(pk, i, &m);
			CHECK(!m.apart || (m.reason[0] && m.message[0]),
			      "%s: %s apart without a reason", spec, m.name);
		}
		pmurt_pack_free(pk);
	}
	free(names);
	pmurt_pmu_close(pmu);
}

/* The metric groups of a real PMU holding a core metric (not nest only), as
 * bench_pack takes them: their count. */
static int core_metric_groups(const struct pmurt_pmu *pmu, char names[][64], int max)
{
	int n = 0;
	char buf[64];
	for (int i = 0; n < max && pmurt_metric_group_get(pmu, i, buf, sizeof(buf)) >= 0; i++) {
		bool core = false;
		for (int m = 0; m < pmurt_metric_count(pmu) && !core; m++) {
			struct pmurt_metric_info mi = {.sz = sizeof(mi)};
			core = pmurt_metric_in_group(pmu, m, buf) &&
			       pmurt_metric_get(pmu, m, &mi) == 0 && !mi.pmus;
		}
		if (core)
			snprintf(names[n++], 64, "%s", buf);
	}
	return n;
}

/* All core metric groups of a real PMU asked for by group name (bench_pack's
 * request, issue 18's goal): ngroups of them, packed in no more than `most`
 * groups, with the bound the metrics force (an event shared by many metrics
 * counted once per group it must be in: above the distinct events' bound),
 * every group proven and every metric whole or flagged. */
static void test_pack_core_groups(const char *spec, int ngroups, int most, int bound)
{
	struct pmurt_pmu *pmu = open_pmu(spec);
	if (!pmu)
		return;
	char groups[64][64];
	const char *names[64];
	int n = core_metric_groups(pmu, groups, 64);
	CHECK(n == ngroups, "%s: %d core metric groups, not %d", spec, n, ngroups);
	for (int i = 0; i < n; i++)
		names[i] = groups[i];
	struct pmurt_pack *pk = n ? pack(pmu, names, n) : NULL;
	if (pk) {
		struct pmurt_pack_info info = {.sz = sizeof(info)};
		pmurt_pack_info(pk, &info);
		CHECK(info.ngroups <= most && info.bound == bound && info.ngroups >= info.bound,
		      "%s's %d core metric groups: %d groups (goal %d), bound %d (not %d)", spec, n,
		      info.ngroups, most, info.bound, bound);
		check_pack(pmu, pk, spec);
		pmurt_pack_free(pk);
	}
	pmurt_pmu_close(pmu);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: metrics_test TOY.yaml TOY.dtb\n");
		return 2;
	}
	for (int s = 1; s <= 2; s++) {
		struct pmurt_pmu *pmu = open_pmu(argv[s]);
		if (!pmu)
			continue;
		test_lookup(pmu);
		test_eval(pmu);
		test_pack_toy(pmu);
		test_pack_bounds(pmu);
		pmurt_pmu_close(pmu);
	}
	/* perf opens 59 groups for POWER10's CPI; the counters allow 16
	 * (PMC3's 16 events); PM_CYC and PM_INST_CMPL both need PMC1 */
	test_pack_real("power10", "cpi", 16, 16, "CYCLES_PER_INSTRUCTION", "constraint_conflict");
	/* other_stall_cpi subtracts five metrics from stall_cpi: more events than a group holds */
	test_pack_real("power9", "CPI_BREAKDOWN", 20, 20, "other_stall_cpi", "too_many_events");
	/* every core metric: POWER9's cache-pmc4 group rule must hold in every
	 * group the pack returns, POWER8's CNST_THRESH on every event too */
	test_pack_all_core("power10", 36);
	test_pack_all_core("power9", 64);
	test_pack_all_core("power8", 82);
	/* issue 18's goal: POWER10's nine core groups in 36 groups at most; the
	 * bound is 36, not the 33 of the distinct events, as PM_LD_DEMAND_MISS_L1
	 * divides 29 metrics and sits beside at most 3 of their events a group.
	 * POWER9's 16 core groups: 57, the bound (59 before the bound and the
	 * search knew of shared events).  POWER8's 17: 74, one above the lower
	 * bound of 73, which the search does not reach (doc/benchmarks.md) */
	test_pack_core_groups("power10", 9, 36, 36);
	test_pack_core_groups("power9", 16, 57, 57);
	test_pack_core_groups("power8", 17, 74, 73);
	return failures ? 1 : 0;
}
