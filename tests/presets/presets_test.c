/*
 * presets_test.c - PAPI presets through libpmurt's public API: look-up
 * without case, listing, members and formulas, exact evaluation of add, sub
 * and postfix presets against hand-computed values (with the overflow and
 * division-by-zero answers), presets in event strings (the cpc probe form
 * and perf modifiers) and the refusal of a derived one, the
 * overflow-counter-unknown flag, and the same answers from every source.
 *
 * usage: presets_test TOY.yaml TOY.dtb POWER10.yaml POWER10.dtb (the firmware set)
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

static struct pmurt_preset_info find(struct pmurt_pmu *pmu, const char *name, int *index)
{
	struct pmurt_preset_info info = {.sz = sizeof(info)};
	struct pmurt_error err;
	*index = pmurt_preset_find(pmu, name, &info, &err);
	CHECK(*index >= 0, "preset %s: %d %s", name, *index, err.message);
	return info;
}

/* eval preset name on counts: rc, and on success the value parts */
static int eval(struct pmurt_pmu *pmu, const char *name, const uint64_t *counts, int n,
		struct pmurt_preset_value *v)
{
	int index;
	find(pmu, name, &index);
	*v = (struct pmurt_preset_value){.sz = sizeof(*v)};
	struct pmurt_error err;
	return index < 0 ? index : pmurt_preset_eval(pmu, index, counts, n, v, &err);
}

static void expect_value(struct pmurt_pmu *pmu, const char *name, const uint64_t *counts,
			 int n, int64_t num, int64_t den)
{
	struct pmurt_preset_value v;
	int rc = eval(pmu, name, counts, n, &v);
	CHECK(rc == 0, "%s: rc %d", name, rc);
	CHECK(v.num == num && v.den == den, "%s: %lld/%lld, expected %lld/%lld", name,
	      (long long)v.num, (long long)v.den, (long long)num, (long long)den);
	CHECK(v.value == num / den && v.exact == (den == 1), "%s: value %lld exact %d", name,
	      (long long)v.value, v.exact);
}

static void expect_error(struct pmurt_pmu *pmu, const char *name, const uint64_t *counts,
			 int n, int want)
{
	struct pmurt_preset_value v;
	int rc = eval(pmu, name, counts, n, &v);
	CHECK(rc == want, "%s: rc %d, expected %d", name, rc, want);
}

/* The toy's presets, hand-computed. */
static void toy_values(struct pmurt_pmu *pmu)
{
	expect_value(pmu, "PAPI_ONE", (const uint64_t[]){42}, 1, 42, 1);
	expect_value(pmu, "papi_add", (const uint64_t[]){5, 7, 11}, 3, 23, 1);
	/* sub: the first minus the others, negative when they are larger */
	expect_value(pmu, "PAPI_SUB", (const uint64_t[]){100, 30, 50}, 3, 20, 1);
	expect_value(pmu, "PAPI_SUB", (const uint64_t[]){100, 30, 80}, 3, -10, 1);
	/* N0 * (512 / 128) + N1 = 3 * 4 + 10: exact, as PAPI's double gives it */
	expect_value(pmu, "PAPI_SCALE", (const uint64_t[]){3, 10}, 2, 22, 1);
	/* (3 + 4) / 2 = 7/2: value 3, not exact */
	expect_value(pmu, "PAPI_HALF", (const uint64_t[]){3, 4}, 2, 7, 2);
	/* 6 / 4 = 3/2, reduced */
	expect_value(pmu, "PAPI_RATIO", (const uint64_t[]){6, 4}, 2, 3, 2);
	/* (N1 - N0) * N2 = (4 - 10) * 3 = -18 */
	expect_value(pmu, "PAPI_NEST", (const uint64_t[]){10, 4, 3}, 3, -18, 1);
	/* (4 - 11) / 2 = -7/2 truncates toward zero: -3 */
	expect_value(pmu, "PAPI_NEGHALF", (const uint64_t[]){11, 4}, 2, -7, 2);
	int64_t big = INT64_MAX;
	expect_error(pmu, "PAPI_RATIO", (const uint64_t[]){5, 0}, 2, -EDOM);
	expect_error(pmu, "PAPI_ADD", (const uint64_t[]){(uint64_t)big, 1, 0}, 3, -ERANGE);
	expect_error(pmu, "PAPI_ONE", (const uint64_t[]){(uint64_t)big + 1}, 1, -ERANGE);
	expect_error(pmu, "PAPI_NEST", (const uint64_t[]){0, (uint64_t)big, 2}, 3, -ERANGE);
	expect_value(pmu, "PAPI_ADD", (const uint64_t[]){(uint64_t)big - 1, 1, 0}, 3, big, 1);
	/* the number of counts must be the preset's */
	expect_error(pmu, "PAPI_ADD", (const uint64_t[]){1, 2}, 2, -EINVAL);
}

static void toy_info(struct pmurt_pmu *pmu, const char *source)
{
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	CHECK(pmurt_pmu_info(pmu, &info) == 0, "info");
	CHECK(info.overflow_counter_unknown, "%s: the toy cannot tell which counter overflowed",
	      source);
	CHECK(info.npresets == 8, "%s: %d presets", source, info.npresets);
	/* a caller built against 0.2's struct (ending at max_group) gets only that */
	struct pmurt_pmu_info old;
	memset(&old, 0xa5, sizeof(old));
	old.sz = offsetof(struct pmurt_pmu_info, max_group) + sizeof(old.max_group);
	CHECK(pmurt_pmu_info(pmu, &old) == 0 && old.max_group == 3 &&
	      *(unsigned char *)&old.overflow_counter_unknown == 0xa5,
	      "%s: 0.2-sized info written past its size", source);
	int i;
	struct pmurt_preset_info p = find(pmu, "Papi_Nest", &i);
	CHECK(strcmp(p.name, "PAPI_NEST") == 0 && p.derived && p.kind == PMURT_PRESET_POSTFIX &&
	      p.nevents == 3 && strcmp(p.events[2], "cycles") == 0 && p.codes[2] == 0x300f4 &&
	      strcmp(p.postfix, "N1|N0|-|N2|*|") == 0,
	      "%s: PAPI_NEST %s %d %d", source, p.name, p.kind, p.nevents);
	CHECK(strcmp(p.formula, "(EV_B - EV_A) * cycles") == 0, "%s: formula '%s'", source,
	      p.formula);
	p = find(pmu, "PAPI_SUB", &i);
	CHECK(strcmp(p.formula, "(EV_A - EV_B) - cycles") == 0, "%s: formula '%s'", source,
	      p.formula);
	p = find(pmu, "papi_one", &i);
	CHECK(!p.derived && p.kind == PMURT_PRESET_EVENT && p.codes[0] == 0x200f2 &&
	      p.postfix == NULL && strcmp(p.description, "One event") == 0,
	      "%s: PAPI_ONE", source);
	/* listing: every index answers, then -ENOENT */
	int n = 0;
	while (pmurt_preset_get(pmu, n, &p) == 0)
		n++;
	CHECK(n == 8 && pmurt_preset_get(pmu, n, &p) == -ENOENT, "%s: listed %d", source, n);
}

static void expect_parse(struct pmurt_pmu *pmu, const char *str, uint64_t code,
			 uint64_t period, unsigned exclude, const char *name)
{
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	struct pmurt_error err;
	int rc = pmurt_parse_event(pmu, str, &spec, &err);
	CHECK(rc == 0, "%s: %d %s", str, rc, err.message);
	CHECK(spec.code == code && spec.config == code && spec.sample_period == period &&
	      spec.exclude == exclude && strcmp(spec.name, name) == 0,
	      "%s: code %#llx period %llu exclude %#x name %s", str,
	      (unsigned long long)spec.code, (unsigned long long)spec.sample_period,
	      spec.exclude, spec.name);
}

static void expect_refused(struct pmurt_pmu *pmu, const char *str, int code, const char *text)
{
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	struct pmurt_error err;
	int rc = pmurt_parse_event(pmu, str, &spec, &err);
	CHECK(rc == code && strstr(err.message, text), "%s: %d '%s' lacks '%s'", str, rc,
	      err.message, text);
}

static void power10(struct pmurt_pmu *pmu, const char *source, bool all_events)
{
	struct pmurt_pmu_info info = {.sz = sizeof(info)};
	CHECK(pmurt_pmu_info(pmu, &info) == 0 && !info.overflow_counter_unknown &&
	      info.npresets == 40, "%s: flag %d, %d presets", source,
	      info.overflow_counter_unknown, info.npresets);
	int i;
	struct pmurt_preset_info p = find(pmu, "papi_l1_dcm", &i);
	CHECK(p.kind == PMURT_PRESET_ADD && p.nevents == 2 &&
	      strcmp(p.events[0], "PM_LD_DEMAND_MISS_L1_FIN") == 0 && p.codes[0] == 0x400f0 &&
	      strcmp(p.events[1], "PM_ST_MISS_L1") == 0 && p.codes[1] == 0x300f0 &&
	      strcmp(p.formula, "PM_LD_DEMAND_MISS_L1_FIN + PM_ST_MISS_L1") == 0,
	      "%s: PAPI_L1_DCM %s", source, p.formula);
	/* PAPI_STL_ICY = PM_RUN_CYC - PM_1PLUS_PPC_DISP (N0|N1|-|) */
	expect_value(pmu, "PAPI_STL_ICY", (const uint64_t[]){1000, 600}, 2, 400, 1);
	expect_value(pmu, "PAPI_L1_DCR", (const uint64_t[]){900, 25}, 2, 875, 1);

	/* the cpc probe form and perf modifiers take a preset of one event */
	expect_parse(pmu, "PAPI_l2_dcm-all-10000", 0x200fe, 10000, 0, "PAPI_L2_DCM");
	expect_parse(pmu, "papi_tot_cyc-user-5000", 0x200f4, 5000, PMURT_EXCLUDE_KERNEL,
		     "PAPI_TOT_CYC");
	expect_parse(pmu, "PAPI_TOT_INS", 0x100fe, 0, 0, "PAPI_TOT_INS");
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	CHECK(pmurt_parse_event(pmu, "PAPI_L2_DCM:u", &spec, NULL) == 0 &&
	      spec.code == 0x200fe && (spec.exclude & PMURT_EXCLUDE_KERNEL) &&
	      !(spec.exclude & PMURT_EXCLUDE_USER), ":u on a preset");
	struct pmurt_event_info ev = {.sz = sizeof(ev)};
	/* the event it stands for; a firmware-only tree lacks it, and the
	 * preset still gives its code */
	CHECK(all_events ? spec.event_index >= 0 &&
			   pmurt_event_get(pmu, spec.event_index, &ev) == 0 &&
			   strcmp(ev.name, "PM_DATA_FROM_L2MISS") == 0 && ev.code == 0x200fe
			 : spec.event_index == -1,
	      "%s: the preset's event index %d", source, spec.event_index);
	struct pmurt_group_result res = {.sz = sizeof(res)};
	CHECK(pmurt_group_check(pmu, &spec, 1, sizeof(spec), NULL, &res, NULL) == 0 && res.ok,
	      "%s: a group of one preset: %s", source, res.reason);

	/* a derived preset is refused, saying why */
	expect_refused(pmu, "PAPI_L1_DCM-all-10000", -EOPNOTSUPP,
		       "preset 'PAPI_L1_DCM' at offset 0 is derived (PM_LD_DEMAND_MISS_L1_FIN + "
		       "PM_ST_MISS_L1): it is computed from 2 counts, so it cannot be opened or "
		       "sampled as one event");
	expect_refused(pmu, "papi_stl_icy", -EOPNOTSUPP, "(PM_RUN_CYC - PM_1PLUS_PPC_DISP)");
	CHECK(pmurt_parse_event(pmu, "PAPI_L1_DCM", &spec, NULL) == -EOPNOTSUPP,
	      "derived, without an error object");
	expect_refused(pmu, "PAPI_L1_DCMX-all-10000", -ENOENT, "did you mean 'PAPI_L1_DCM'?");

	/* a miss says so, with the nearest preset */
	struct pmurt_error err;
	CHECK(pmurt_preset_find(pmu, "PAPI_L2_DMC", NULL, &err) == -ENOENT &&
	      strstr(err.message, "did you mean 'PAPI_L2_DCM'?"), "miss: %s", err.message);
	CHECK(pmurt_preset_find(pmu, "PM_RUN_CYC", NULL, NULL) == -ENOENT, "an event is no preset");
}

/* Every source answers as the built-in tables do. */
static void same_presets(struct pmurt_pmu *a, struct pmurt_pmu *b, const char *source)
{
	struct pmurt_preset_info x = {.sz = sizeof(x)}, y = {.sz = sizeof(y)};
	for (int i = 0; pmurt_preset_get(a, i, &x) == 0; i++) {
		int j = pmurt_preset_find(b, x.name, &y, NULL);
		CHECK(j >= 0 && strcmp(x.name, y.name) == 0 && x.kind == y.kind &&
		      x.nevents == y.nevents && strcmp(x.formula, y.formula) == 0 &&
		      memcmp(x.codes, y.codes, sizeof(x.codes)) == 0,
		      "%s: preset %s differs", source, x.name);
	}
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s TOY.yaml TOY.dtb POWER10.yaml POWER10.dtb\n", argv[0]);
		return 2;
	}
	const char *toy_sources[] = {argv[1], argv[2]};
	for (int s = 0; s < 2; s++) {
		struct pmurt_pmu *toy = open_pmu(toy_sources[s]);
		if (!toy)
			return 1;
		toy_info(toy, toy_sources[s]);
		toy_values(toy);
		pmurt_pmu_close(toy);
	}
	struct pmurt_pmu *builtin = open_pmu("power10");
	if (!builtin)
		return 1;
	power10(builtin, "power10", true);
	for (int s = 3; s <= 4; s++) {
		struct pmurt_pmu *other = open_pmu(argv[s]);
		if (!other)
			return 1;
		power10(other, argv[s], s == 3);
		same_presets(builtin, other, argv[s]);
		same_presets(other, builtin, argv[s]);
		pmurt_pmu_close(other);
	}
	pmurt_pmu_close(builtin);
	if (failures)
		fprintf(stderr, "presets_test: %d checks failed\n", failures);
	else
		printf("presets_test: ok\n");
	return failures != 0;
}
