/*
 * mmcr_bits.h - the named register bits p10_selftests.json checks
 * ("mmcr0.fc56(0x10)", "mmcr1.pmc1sel", "mmcr2.fcs(pmc1)", ...), located from
 * the Linux headers (arch/powerpc/include/asm/reg.h, perf/isa207-common.h),
 * not from the PMU description, so a wrong description cannot pass.
 */
#ifndef MMCR_BITS_H
#define MMCR_BITS_H

#include <stdbool.h>

struct mmcr_bits {
	char reg[8];   /* result key: "mmcr0" ... "mmcra" */
	int lsb;       /* LSB = 0 */
	int width;
};

/* Locate a key; 0, or -1 when unknown or when its explicit hint ("(0x10)",
 * "(bit15)", "(bits45-55)") disagrees with the table. */
int mmcr_bits_parse(const char *key, struct mmcr_bits *out);

/* Keys that name state set at interrupt time, not by compute_mmcr. */
bool mmcr_bits_runtime_only(const char *key);

#endif /* MMCR_BITS_H */
