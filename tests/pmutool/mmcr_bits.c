/*
 * mmcr_bits.c - see mmcr_bits.h.  Every position below is a kernel macro,
 * named in the comment; "N" in a name is the 1-based PMC number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmcr_bits.h"

struct named {
	const char *reg, *name;
	int lsb, per_pmc, width; /* lsb - (N - 1) * per_pmc */
};

static const struct named table[] = {
	/* reg.h: MMCR0_FC56 0x10, MMCR0_PMC1CE 0x8000, MMCR0_PMCjCE 0x4000,
	 * MMCR0_C56RUN 0x100 (the selftest says cc56run), MMCR0_PMCCEXT 0x200 */
	{"mmcr0", "fc56", 4, 0, 1},
	{"mmcr0", "pmc1ce", 15, 0, 1},
	{"mmcr0", "pmcjce", 14, 0, 1},
	{"mmcr0", "cc56run", 8, 0, 1},
	{"mmcr0", "pmccext", 9, 0, 1},
	/* isa207-common.h: MMCR1_PMCSEL_SHIFT(pmc) 24 - 8(pmc-1), 8 bits;
	 * MMCR1_UNIT_SHIFT(pmc) 60 - 4(pmc-1), 4 bits; p9_MMCR1_COMBINE_SHIFT(pmc)
	 * 38 - 2(pmc-1), 2 bits; MMCR1_DC_IC_QUAL_SHIFT 46, mask 3 */
	{"mmcr1", "pmcNsel", 24, 8, 8},
	{"mmcr1", "pmcNunit", 60, 4, 4},
	{"mmcr1", "pmcNcomb", 38, 2, 2},
	{"mmcr1", "cache", 46, 0, 2},
	/* MMCR2_FCS(pmc) 1 << (63 - 9(pmc-1)), FCP 62, FCH 57, FCWAIT 58;
	 * p10_L2L3_SEL_SHIFT 3, p10_EVENT_L2L3_SEL_MASK 0x1f */
	{"mmcr2", "fcs", 63, 9, 1},
	{"mmcr2", "fcp", 62, 9, 1},
	{"mmcr2", "fch", 57, 9, 1},
	{"mmcr2", "fcwait", 58, 9, 1},
	{"mmcr2", "l2l3", 3, 0, 5},
	/* MMCR3_SHIFT(pmc) 49 - 15(pmc-1), p10_EVENT_MMCR3_MASK 0x7fff */
	{"mmcr3", "pmcNsrc", 49, 15, 15},
	/* MMCRA_IFM_SHIFT 30 (2 bits); MMCRA_BHRB_DISABLE 0x2000000000;
	 * p9_MMCRA_THR_CMP_SHIFT 45, 11 bits on P10 (3-bit exponent, 8-bit
	 * mantissa); MMCRA_THR_SEL_SHIFT 16 (3 bits); MMCRA_THR_CTL_SHIFT 8 with
	 * thresh_ctl = start << 4 | stop; MMCRA_SAMPLE_ENABLE 1;
	 * MMCRA_SAMP_ELIG_SHIFT 4 (3 bits), MMCRA_SAMP_MODE_SHIFT 1 (2 bits);
	 * MMCRA_SDAR_MODE_SHIFT 42 (2 bits) */
	{"mmcra", "ifm", 30, 0, 2},
	{"mmcra", "bhrb_disable", 37, 0, 1},
	{"mmcra", "thd_cmp", 45, 0, 11},
	{"mmcra", "thd_sel", 16, 0, 3},
	{"mmcra", "thd_start", 12, 0, 4},
	{"mmcra", "thd_stop", 8, 0, 4},
	{"mmcra", "marked", 0, 0, 1},
	{"mmcra", "rand_samp_elig", 4, 0, 3},
	{"mmcra", "sample_mode", 1, 0, 2},
	{"mmcra", "sdar_mode", 42, 0, 2},
};

bool mmcr_bits_runtime_only(const char *key)
{
	/* MMCR0_PMAO, MMCR0_PMAE: perf_event_interrupt / power_pmu_enable */
	return strncmp(key, "mmcr0.pmao", 10) == 0 || strncmp(key, "mmcr0.pmae", 10) == 0;
}

/* "pmc4comb" against "pmcNcomb": the N, or 0 for a plain match, -1 none. */
static int match_name(const char *pattern, const char *name, size_t len)
{
	const char *n = strchr(pattern, 'N');
	if (!n)
		return strlen(pattern) == len && strncmp(pattern, name, len) == 0 ? 0 : -1;
	size_t pre = (size_t)(n - pattern), post = strlen(n + 1);
	if (len != pre + 1 + post || strncmp(name, pattern, pre) != 0 ||
	    name[pre] < '1' || name[pre] > '6' || strncmp(name + pre + 1, n + 1, post) != 0)
		return -1;
	return name[pre] - '0';
}

/* The hint in parentheses: a mask, "bitN", "bitsA-B" or "pmcN". */
static int apply_hint(const char *hint, const struct mmcr_bits *b, int *pmc)
{
	int x, y;
	if (sscanf(hint, "pmc%d)", pmc) == 1)
		return 0;
	if (sscanf(hint, "bits%d-%d)", &x, &y) == 2)
		return x == b->lsb && y == b->lsb + b->width - 1 ? 0 : -1;
	if (sscanf(hint, "bit%d)", &x) == 1)
		return b->width == 1 && x == b->lsb ? 0 : -1;
	unsigned long long mask = strtoull(hint, NULL, 0);
	return mask == ((1ULL << b->width) - 1) << b->lsb ? 0 : -1;
}

int mmcr_bits_parse(const char *key, struct mmcr_bits *out)
{
	const char *dot = strchr(key, '.');
	if (!dot || dot - key >= (long)sizeof(out->reg))
		return -1;
	const char *paren = strchr(dot, '(');
	size_t len = paren ? (size_t)(paren - dot - 1) : strlen(dot + 1);
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct named *t = &table[i];
		int pmc = strlen(t->reg) == (size_t)(dot - key) && !strncmp(t->reg, key, dot - key)
				  ? match_name(t->name, dot + 1, len) : -1;
		if (pmc < 0)
			continue;
		snprintf(out->reg, sizeof(out->reg), "%s", t->reg);
		out->width = t->width;
		out->lsb = t->lsb;
		if (t->per_pmc && !pmc && !paren)
			return -1; /* "fcs" needs its counter: "fcs(pmc1)" */
		if (paren && t->per_pmc && !pmc) {
			/* "fcs(pmc1)": the counter is in the hint */
			if (apply_hint(paren + 1, out, &pmc) < 0 || pmc < 1)
				return -1;
			out->lsb = t->lsb - (pmc - 1) * t->per_pmc;
			return 0;
		}
		out->lsb = t->lsb - (pmc ? pmc - 1 : 0) * t->per_pmc;
		return paren ? apply_hint(paren + 1, out, &pmc) : 0;
	}
	return -1;
}
