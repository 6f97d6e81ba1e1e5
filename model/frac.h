/*
 * frac.h - exact arithmetic on reduced fractions of 64-bit integers: the
 * evaluation of PAPI presets (preset.c) and of metrics (metric.c), which
 * report an overflow instead of rounding.  Internal to the model.
 */
#ifndef PMU_FRAC_H
#define PMU_FRAC_H

#include <stdint.h>

struct pmu_frac {
	int64_t num, den; /* den > 0, gcd(|num|, den) = 1 */
};

/* num/den reduced, its sign on num: 0, -EDOM when den is 0, -ERANGE when
 * it has no such form (a part INT64_MIN). */
int pmu_frac_make(struct pmu_frac *f, int64_t num, int64_t den);

/* a op b for op '+', '-', '*' or '/': 0, -ERANGE on overflow, -EDOM for a
 * division by zero. */
int pmu_frac_apply(char op, struct pmu_frac a, struct pmu_frac b, struct pmu_frac *out);

#endif /* PMU_FRAC_H */
