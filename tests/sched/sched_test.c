/*
 * sched_test.c - runtime/sched.c called directly on the built-in POWER10
 * description: the kernel's constraint words (mask, value) for single
 * events, the adder constants, the alternatives lists and the branch filter
 * map, each expected value worked out by hand from the Linux source (the
 * reasoning is beside each case), not taken from the library.
 *
 * Sources: arch/powerpc/perf/isa207-common.h (CNST_* macros, ISA207_ADD_FIELDS,
 * ISA207_TEST_ADDER), isa207-common.c (isa207_get_constraint,
 * isa207_get_alternatives, p10_thresh_cmp_val), power10-pmu.c
 * (power10_event_alternatives, power10_bhrb_filter_map), core-book3s.c
 * (power_pmu_event_init: more than one branch filter is -EOPNOTSUPP).
 *
 * usage: sched_test (exit 0 when every check passes)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "internal.h"

static int failures;


/* Constraint words.  The pieces, from isa207-common.h:
 *   CNST_PMC_VAL(n) = 1 << 2(n-1), CNST_PMC_MASK(n) = 2 << 2(n-1)
 *   CNST_NC_VAL = 1 << 12, CNST_NC_MASK = 8 << 12     (pmc 0..4)
 *   CNST_L1_QUAL: 3 << 22, value cache_sel << 22      (unit not 6..9)
 *   CNST_RADIX_SCOPE_GROUP: 1 << 21                   (P10, pmc 0..4)
 *   CNST_SAMPLE: 0x1f << 16, value sample << 16       (marked)
 *   CNST_EBB: mask 1 << 24, value ebb << 24           (every event)
 *   CNST_IFM: 3 << 25, value ifm << 25                (BHRB bit)
 *   CNST_THRESH_CTL_SEL: 0x7ff << 32, value (event >> 29) & 0x7ff
 *   p10_CNST_THRESH_CMP: 0x7ff << 43, value p10_thresh_cmp_val(config1)
 *   CNST_L2L3_GROUP: 0x1f << 55, value l2l3_sel << 55  (unit 6)
 * PMC5/6 events stop after their CNST_PMC bits (goto ebb_bhrb). */
struct word_case {
	const char *what;
	uint64_t config, config1;
	uint64_t mask, value;
};

static const struct word_case words[] = {
	/* PMC6: P6 (2 << 10, 1 << 10) and EBB only */
	{"0x600f4 (PMC6)", 0x600f4, 0, 0x800 | 0x1000000, 0x400},
	/* pmc 0: NC, L1 qualifier (unit 0), radix, EBB */
	{"0x1e (pmc 0)", 0x1e, 0, 0x8000 | 0xc00000 | 0x200000 | 0x1000000, 0x1000},
	/* cache_sel 1 on PMC1: P1, NC, L1 value 1 << 22 */
	{"0x1100fc (cache_sel 1)", 0x1100fc, 0, 0x2 | 0x8000 | 0xc00000 | 0x200000 | 0x1000000,
	 0x1 | 0x1000 | 0x400000},
	/* unit 6 on PMC2: L2L3 group instead of the L1 qualifier, l2l3_sel 0 */
	{"0x26880 (unit 6)", 0x26880, 0,
	 0x8 | 0x8000 | 0x200000 | 0x1000000 | 0xf80000000000000, 0x4 | 0x1000},
	/* unit 6 on PMC4 with l2l3_sel 1: value 1 << 55 */
	{"0x010000046080 (l2l3_sel 1)", 0x010000046080, 0,
	 0x80 | 0x8000 | 0x200000 | 0x1000000 | 0xf80000000000000,
	 0x40 | 0x1000 | 0x80000000000000},
	/* radix_scope 1 (bit 9) on PMC1, unit 4 */
	{"0x14242 (radix scope)", 0x14242, 0, 0x2 | 0x8000 | 0xc00000 | 0x200000 | 0x1000000,
	 0x1 | 0x1000 | 0x200000},
	/* marked threshold event on PMC4, config1 1000: sample 0x14 << 16;
	 * (0x35340401e0 >> 29) & 0x7ff = 0x1a9 << 32; 1000 -> exp 1, mantissa
	 * 0xfa = 0x1fa << 43 */
	{"0x35340401e0, config1 1000", 0x35340401e0, 1000,
	 0x80 | 0x8000 | 0xc00000 | 0x200000 | 0x1f0000 | 0x1000000 | 0x7ff00000000 |
		 0x3ff80000000000,
	 0x40 | 0x1000 | 0x140000 | 0x1a900000000 | 0xfd00000000000},
	/* get_constraint reads config1 unmasked: 300000 > 261120 clamps to
	 * 261120 = 0x5ff (exp 5, mantissa 0xff) */
	{"0x35340401e0, config1 300000", 0x35340401e0, 300000,
	 0x80 | 0x8000 | 0xc00000 | 0x200000 | 0x1f0000 | 0x1000000 | 0x7ff00000000 |
		 0x3ff80000000000,
	 0x40 | 0x1000 | 0x140000 | 0x1a900000000 | (0x5ffULL << 43)},
	/* not a threshold event: config1 contributes nothing */
	{"0x401e0, config1 1000", 0x401e0, 1000,
	 0x80 | 0x8000 | 0xc00000 | 0x200000 | 0x1f0000 | 0x1000000, 0x40 | 0x1000},
	/* EBB + BHRB + IFM 2 on PMC1: IFM value 2 << 25, EBB value 1 << 24 */
	{"0xe0000000000100fc (EBB, BHRB, IFM 2)", 0xe0000000000100fcULL, 0,
	 0x2 | 0x8000 | 0xc00000 | 0x200000 | 0x6000000 | 0x1000000,
	 0x1 | 0x1000 | 0x4000000 | 0x1000000},
};

static void check_words(const struct pmu_engine *e)
{
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const struct word_case *w = &words[i];
		uint64_t mask, value;
		pmu_engine_constraint(e, w->config, w->config1, &mask, &value);
		CHECK(mask == w->mask && value == w->value,
		      "%s: mask 0x%" PRIx64 " value 0x%" PRIx64 ", expected 0x%" PRIx64
		      " 0x%" PRIx64, w->what, mask, value, w->mask, w->value);
	}
	/* ISA207_ADD_FIELDS = CNST_PMC_VAL(1..6) | CNST_NC_VAL = 0x555 | 0x1000;
	 * ISA207_TEST_ADDER = 3 << 12 */
	CHECK(e->add_fields == 0x1555, "add_fields 0x%" PRIx64, e->add_fields);
	CHECK(e->test_adder == 0x3000, "test_adder 0x%" PRIx64, e->test_adder);
}

/* isa207_get_alternatives: alt[0] is the event, then the other codes of its
 * power10_event_alternatives row; with PPMU_ONLY_COUNT_RUN the switch adds,
 * for every code found so far, 0x1e <-> 0x600f4 and 0x2 <-> 0x500fa again. */
struct alt_case {
	uint64_t code;
	bool per_task;
	int n;
	uint64_t alt[4];
};

static const struct alt_case alts[] = {
	{0x1e, false, 2, {0x1e, 0x600f4}},
	{0x1e, true, 4, {0x1e, 0x600f4, 0x600f4, 0x1e}},
	{0x600f4, true, 4, {0x600f4, 0x1e, 0x1e, 0x600f4}},
	{0x500fa, false, 2, {0x500fa, 0x2}},
	{0x2, true, 4, {0x2, 0x500fa, 0x500fa, 0x2}},
	{0x100fc, true, 1, {0x100fc}},
};

static void check_alternatives(const struct pmu_engine *e)
{
	for (size_t i = 0; i < sizeof(alts) / sizeof(alts[0]); i++) {
		const struct alt_case *a = &alts[i];
		uint64_t got[PMU_SCHED_MAX_ALTS];
		int n = pmu_engine_alternatives(e, a->code, a->per_task, got);
		bool same = n == a->n;
		for (int k = 0; same && k < n; k++)
			same = got[k] == a->alt[k];
		CHECK(same, "alternatives of 0x%" PRIx64 " (%s): %d codes, first 0x%" PRIx64,
		      a->code, a->per_task ? "per task" : "cpu-wide", n, got[0]);
	}
}

/* power10_bhrb_filter_map, in its order (ANY first, ANY_RETURN -1, IND_CALL
 * IFM2, COND IFM3, CALL -1, ANY_CALL IFM1, else -1); privilege bits
 * (PERF_SAMPLE_BRANCH_USER/KERNEL/HV, bits 0-2) ignored; two filters at once
 * -EOPNOTSUPP in power_pmu_event_init.  Bits: ANY 1 << 3, ANY_CALL 1 << 4,
 * ANY_RETURN 1 << 5, IND_CALL 1 << 6, COND 1 << 10, CALL 1 << 13. */
struct filter_case {
	uint64_t bst;
	int rc;
	uint64_t ifm;
};

static const struct filter_case filters[] = {
	{1 << 3, 0, 0},
	{(1 << 3) | 0x7, 0, 0},
	{1 << 4, 0, 1},
	{1 << 6, 0, 2},
	{(1 << 10) | 0x1, 0, 3},
	{1 << 5, -EOPNOTSUPP, 0},
	{1 << 13, -EOPNOTSUPP, 0},
	{1 << 7, -EOPNOTSUPP, 0},
	{(1 << 3) | (1 << 4), -EOPNOTSUPP, 0},
	{0x1, -EOPNOTSUPP, 0},
};

static void check_filters(const struct pmu_engine *e)
{
	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		const struct filter_case *f = &filters[i];
		uint64_t ifm = UINT64_MAX;
		int rc = pmu_engine_branch_filter(e, f->bst, &ifm);
		CHECK(rc == f->rc && (rc || ifm == f->ifm),
		      "branch_sample_type 0x%" PRIx64 ": rc %d ifm 0x%" PRIx64, f->bst, rc, ifm);
	}
}

int main(void)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, "power10", NULL, &err)) {
		fprintf(stderr, "sched_test: %s\n", err.message);
		return 1;
	}
	check_words(&pmu->engine);
	check_alternatives(&pmu->engine);
	check_filters(&pmu->engine);
	pmurt_pmu_close(pmu);
	if (failures)
		fprintf(stderr, "sched_test: %d check(s) failed\n", failures);
	else
		printf("sched_test: constraint words, alternatives and branch filters as the kernel\n");
	return failures != 0;
}
