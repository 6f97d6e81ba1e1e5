/*
 * encoding_test.c - mantissa-exponent with another PMU's parameters, from the
 * description alone: tests/encoding/toy-thresh.yaml encodes with a 6-bit
 * mantissa, 3 bits per exponent step, clamp 160000 and normalized mask 0x20
 * (the rule of p10_thresh_cmp_val() in isa207-common.c, other numbers).
 * Each source given (the YAML, and the DTB pmugen writes from it) must put
 * the hand-computed encoding into the constraint word's slot (bits 40-49) and
 * into MMCRA.THR_CMP (bits 20-29) when the event is scheduled.
 *
 * usage: encoding_test SOURCE...   (a .yaml or .dtb path each)
 */
#include <inttypes.h>
#include <string.h>
#include <stdio.h>

#include "check.h"
#include "internal.h"

static int failures;

/* Worked by hand: shift right by 3 (exponent + 1) while the value has more
 * than 6 bits; reserved (0) when the exponent is nonzero and the mantissa
 * lacks 0x20; else (exponent << 6) | mantissa. */
static const struct {
	uint64_t config1, encoded;
	const char *why;
} cases[] = {
	{1, 0x1, "exponent 0"},
	{63, 0x3f, "the largest exponent-0 value"},
	{64, 0, "64 >> 3 = 8: exponent 1, mantissa 0b001000 lacks 0x20: reserved"},
	{300, 0x65, "300 >> 3 = 37 = 0b100101: (1 << 6) | 37"},
	{5000, 0, "625, 78, 9: exponent 3, mantissa 9 lacks 0x20: reserved"},
	{20000, 0xe7, "2500, 312, 39: (3 << 6) | 39"},
	{160000, 0x127, "the clamp: 20000, 2500, 312, 39: (4 << 6) | 39"},
	{1000000, 0x127, "clamped to 160000"},
};


#define TOY_EVENT 0x101f0 /* PMC1, thresh_sel 1, pmcxsel 0xf0 */

static uint64_t mmcra_thr_cmp(const struct pmurt_pmu *pmu, uint64_t config1)
{
	struct pmurt_error err = {0};
	struct pmurt_event_spec ev = {.sz = sizeof ev};
	struct pmurt_group_result res = {.sz = sizeof res};
	char str[96];
	snprintf(str, sizeof str, "cpu/event=0x%x,thresh_cmp=%" PRIu64 "/", TOY_EVENT, config1);
	if (pmurt_parse_event(pmu, str, &ev, &err) || pmurt_group_check(pmu, &ev, 1, sizeof ev, NULL, &res, &err) ||
	    !res.ok) {
		CHECK(0, "%s: %s%s", str, err.message, res.reason);
		return UINT64_MAX;
	}
	for (int i = 0; i < res.nregs; i++) {
		const char *name = pmurt_register_name(pmu, i);
		if (name && strcmp(name, "MMCRA") == 0)
			return (res.regs[i] >> 20) & 0x3ff;
	}
	CHECK(0, "%s: no MMCRA in the result", str);
	return UINT64_MAX;
}

static void check_source(const char *path)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, path, NULL, &err)) {
		CHECK(0, "open %s: %s", path, err.message);
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t mask = 0, value = 0, want = cases[i].encoded;
		pmu_engine_constraint(&pmu->engine, TOY_EVENT, cases[i].config1, &mask, &value);
		uint64_t slot = (value >> 40) & 0x3ff;
		CHECK(slot == want && ((mask >> 40) & 0x3ff) == 0x3ff,
		      "%s: config1 %" PRIu64 ": constraint slot 0x%" PRIx64 ", want 0x%" PRIx64 " (%s)",
		      path, cases[i].config1, slot, want, cases[i].why);
		uint64_t placed = mmcra_thr_cmp(pmu, cases[i].config1);
		CHECK(placed == want, "%s: config1 %" PRIu64 ": MMCRA.THR_CMP 0x%" PRIx64
		      ", want 0x%" PRIx64 " (%s)", path, cases[i].config1, placed, want, cases[i].why);
	}
	pmurt_pmu_close(pmu);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s SOURCE...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		check_source(argv[i]);
	if (failures)
		fprintf(stderr, "encoding_test: %d check(s) failed\n", failures);
	else
		printf("encoding_test: the toy encoding as worked by hand, from %d source(s)\n",
		       argc - 1);
	return failures != 0;
}
