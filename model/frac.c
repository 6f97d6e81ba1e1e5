/*
 * frac.c - exact arithmetic on reduced 64-bit fractions (frac.h).
 */
#include <errno.h>

#include "frac.h"

static int64_t gcd64(int64_t a, int64_t b)
{
	if (a < 0)
		a = -a; /* never INT64_MIN: pmu_frac_make refuses it */
	while (b) {
		int64_t r = a % b;
		a = b;
		b = r;
	}
	return a ? a : 1;
}

int pmu_frac_make(struct pmu_frac *f, int64_t num, int64_t den)
{
	if (den == 0)
		return -EDOM;
	if (den < 0) {
		if (num == INT64_MIN || den == INT64_MIN)
			return -ERANGE;
		num = -num;
		den = -den;
	}
	if (num == INT64_MIN)
		return -ERANGE;
	int64_t g = gcd64(num, den);
	f->num = num / g;
	f->den = den / g;
	return 0;
}

int pmu_frac_apply(char op, struct pmu_frac a, struct pmu_frac b, struct pmu_frac *out)
{
	int64_t n1, n2, num, den;
	int64_t g = gcd64(a.den, b.den);

	switch (op) {
	case '+':
	case '-':
		if (__builtin_mul_overflow(a.num, b.den / g, &n1) ||
		    __builtin_mul_overflow(b.num, a.den / g, &n2) ||
		    (op == '+' ? __builtin_add_overflow(n1, n2, &num)
			       : __builtin_sub_overflow(n1, n2, &num)) ||
		    __builtin_mul_overflow(a.den, b.den / g, &den))
			return -ERANGE;
		return pmu_frac_make(out, num, den);
	case '*': {
		int64_t g1 = gcd64(a.num, b.den), g2 = gcd64(b.num, a.den);
		if (__builtin_mul_overflow(a.num / g1, b.num / g2, &num) ||
		    __builtin_mul_overflow(a.den / g2, b.den / g1, &den))
			return -ERANGE;
		return pmu_frac_make(out, num, den);
	}
	default: { /* '/' */
		struct pmu_frac inverse;
		if (b.num == 0)
			return -EDOM;
		if (pmu_frac_make(&inverse, b.den, b.num))
			return -ERANGE;
		return pmu_frac_apply('*', a, inverse, out);
	}
	}
}
