/*
 * preset.c - PAPI presets in the model: kind names, look-up without case,
 * the postfix formula of DERIVED_POSTFIX (checked once by every loader,
 * evaluated by libpmurt), and a preset's formula in words.
 *
 * PAPI writes a derived preset in papi_events.csv as DERIVED_ADD (the sum
 * of the members), DERIVED_SUB (the first member minus the others) or
 * DERIVED_POSTFIX with a formula such as "N0|N1|-|" (src/papi_preset.c
 * reads it; src/papi_internal.c _papi_hwi_postfix_calc evaluates it, in
 * double).  Here the value is computed exactly, as a reduced fraction of
 * 64-bit integers, so that "N0|512|128|/|*|" loses nothing and an overflow
 * is reported instead of rounded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frac.h"
#include "pmu_model.h"

#define POSTFIX_MAX_LEN 256   /* longest formula */
#define POSTFIX_MAX_DEPTH 16  /* deepest evaluation stack */

static const char *const kind_names[PMU_PRESET_NKINDS] = {"none", "add", "sub", "postfix"};

const char *pmu_preset_kind_name(enum pmu_preset_kind k)
{
	return k >= 0 && k < PMU_PRESET_NKINDS ? kind_names[k] : "?";
}

int pmu_preset_kind_parse(const char *name, enum pmu_preset_kind *out)
{
	for (int k = 0; k < PMU_PRESET_NKINDS; k++)
		if (strcmp(name, kind_names[k]) == 0) {
			*out = (enum pmu_preset_kind)k;
			return 0;
		}
	return -EINVAL;
}

static int ascii_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* ASCII only, whatever the caller's locale (strcasecmp follows LC_CTYPE). */
bool pmu_name_eq_nocase(const char *a, const char *b)
{
	while (*a && ascii_lower((unsigned char)*a) == ascii_lower((unsigned char)*b))
		a++, b++;
	return *a == *b;
}

int pmu_model_preset(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->npresets; i++)
		if (pmu_name_eq_nocase(m->presets[i].name, name))
			return i;
	return -1;
}

/* --- tokens ----------------------------------------------------------------- */
enum tok_kind { TOK_EVENT, TOK_CONST, TOK_OP, TOK_BAD };

struct token {
	enum tok_kind kind;
	size_t off, len;
	int64_t value; /* TOK_EVENT: k; TOK_CONST: the constant */
	char op;       /* TOK_OP */
};

/* Decimal digits s[0..n) as a value <= INT64_MAX; -1 if not that. */
static int64_t decimal(const char *s, size_t n)
{
	int64_t v = 0;

	if (n == 0 || n > 18)
		return -1; /* 18 digits always fit */
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static struct token classify(const char *s, size_t off, size_t len)
{
	struct token t = {TOK_BAD, off, len, 0, 0};
	const char *p = s + off;

	if (len == 1 && strchr("+-*/", p[0])) {
		t.kind = TOK_OP;
		t.op = p[0];
	} else if (len > 1 && p[0] == 'N' && (t.value = decimal(p + 1, len - 1)) >= 0) {
		t.kind = TOK_EVENT;
	} else if ((t.value = decimal(p, len)) >= 0) {
		t.kind = TOK_CONST;
	}
	return t;
}

/* The token starting at *pos, and *pos moved past its '|'; false at the end
 * (a last '|' ends the formula, as PAPI writes "N0|N1|-|"). */
static bool next_token(const char *s, size_t *pos, struct token *t)
{
	size_t start = *pos, end = start;

	if (!s[start])
		return false;
	while (s[end] && s[end] != '|')
		end++;
	*t = classify(s, start, end - start);
	*pos = s[end] ? end + 1 : end;
	return true;
}

int pmu_postfix_check(const char *formula, int nevents, size_t *at, char *why,
		      size_t whylen)
{
	size_t pos = 0, len = strlen(formula);
	struct token t;
	unsigned used = 0;
	int depth = 0;

	*at = 0;
	if (len == 0 || len > POSTFIX_MAX_LEN) {
		snprintf(why, whylen, "a postfix formula has 1 to %d characters, found %zu",
			 POSTFIX_MAX_LEN, len);
		return -EINVAL;
	}
	while (next_token(formula, &pos, &t)) {
		*at = t.off;
		if (t.kind == TOK_BAD) {
			snprintf(why, whylen, "'%.*s' at offset %zu is not Nk, a decimal constant or "
				 "one of + - * /", (int)(t.len > 40 ? 40 : t.len), formula + t.off,
				 t.off);
			return -EINVAL;
		}
		if (t.kind == TOK_EVENT && t.value >= nevents) {
			snprintf(why, whylen, "N%lld at offset %zu names event %lld, but the preset "
				 "lists %d (N0..N%d)", (long long)t.value, t.off,
				 (long long)t.value + 1, nevents, nevents - 1);
			return -EINVAL;
		}
		if (t.kind == TOK_OP && depth < 2) {
			snprintf(why, whylen, "'%c' at offset %zu needs two values, the stack holds %d",
				 t.op, t.off, depth);
			return -EINVAL;
		}
		if (t.kind == TOK_EVENT)
			used |= 1u << t.value;
		depth += t.kind == TOK_OP ? -1 : 1;
		if (depth > POSTFIX_MAX_DEPTH) {
			snprintf(why, whylen, "the stack grows deeper than %d at offset %zu",
				 POSTFIX_MAX_DEPTH, t.off);
			return -EINVAL;
		}
	}
	*at = len;
	if (depth != 1) {
		snprintf(why, whylen, "the formula leaves %d values on the stack, not one", depth);
		return -EINVAL;
	}
	for (int k = 0; k < nevents; k++)
		if (!(used >> k & 1)) {
			snprintf(why, whylen, "the formula never uses N%d, the preset's event %d", k,
				 k + 1);
			return -EINVAL;
		}
	return 0;
}

/* --- exact evaluation ---------------------------------------------------------- */
static int member(const uint64_t *counts, int k, struct pmu_frac *out)
{
	if (counts[k] > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = (struct pmu_frac){(int64_t)counts[k], 1};
	return 0;
}

static int eval_postfix(const struct pmu_preset *p, const uint64_t *counts, struct pmu_frac *out)
{
	struct pmu_frac stack[POSTFIX_MAX_DEPTH + 1];
	size_t pos = 0, at;
	struct token t;
	int depth = 0, rc;
	char why[8];

	if (pmu_postfix_check(p->postfix, p->nevents, &at, why, sizeof(why)))
		return -EINVAL;
	while (next_token(p->postfix, &pos, &t)) {
		if (t.kind == TOK_OP) {
			depth--;
			/* b.den > 0 even for '/', whose zero b is refused */
			rc = pmu_frac_apply(t.op, stack[depth - 1], stack[depth], &stack[depth - 1]);
		} else if (t.kind == TOK_EVENT) {
			rc = member(counts, (int)t.value, &stack[depth++]);
		} else {
			stack[depth++] = (struct pmu_frac){t.value, 1};
			rc = 0;
		}
		if (rc)
			return rc;
	}
	*out = stack[0];
	return 0;
}

int pmu_preset_eval(const struct pmu_preset *p, const uint64_t *counts, int64_t *num,
		    int64_t *den)
{
	struct pmu_frac acc, next;
	int rc;

	if (p->nevents < 1 || p->nevents > PMU_PRESET_MAX_EVENTS)
		return -EINVAL;
	if (p->kind == PMU_PRESET_POSTFIX) {
		if (!p->postfix)
			return -EINVAL;
		rc = eval_postfix(p, counts, &acc);
	} else {
		rc = member(counts, 0, &acc);
		for (int k = 1; !rc && k < p->nevents; k++) {
			rc = member(counts, k, &next);
			if (!rc)
				rc = pmu_frac_apply(p->kind == PMU_PRESET_SUB ? '-' : '+', acc, next, &acc);
		}
	}
	if (rc)
		return rc;
	*num = acc.num;
	*den = acc.den;
	return 0;
}

/* --- in words ------------------------------------------------------------------ */
struct phrase {
	char text[160];
	bool compound; /* an operation: parenthesised inside another */
};

static void combine(struct phrase *a, const struct phrase *b, char op)
{
	char joined[2 * sizeof(a->text) + 16];

	snprintf(joined, sizeof(joined), "%s%s%s %c %s%s%s", a->compound ? "(" : "", a->text,
		 a->compound ? ")" : "", op, b->compound ? "(" : "", b->text,
		 b->compound ? ")" : "");
	size_t n = strnlen(joined, sizeof(a->text) - 1); /* a long formula is cut */
	memcpy(a->text, joined, n);
	a->text[n] = '\0';
	a->compound = true;
}

int pmu_preset_format(const struct pmu_preset *p, char *buf, size_t len)
{
	struct phrase stack[POSTFIX_MAX_DEPTH + 1];
	size_t pos = 0, at;
	struct token t;
	int depth = 0;
	char why[8];

	if (p->kind != PMU_PRESET_POSTFIX) {
		struct phrase acc = {"", false};
		for (int k = 0; k < p->nevents; k++) {
			struct phrase next = {"", false};
			snprintf(k ? next.text : acc.text, sizeof(acc.text), "%s", p->events[k]);
			if (k)
				combine(&acc, &next, p->kind == PMU_PRESET_SUB ? '-' : '+');
		}
		return snprintf(buf, len, "%s", acc.text);
	}
	if (!p->postfix || pmu_postfix_check(p->postfix, p->nevents, &at, why, sizeof(why)))
		return snprintf(buf, len, "%s", p->postfix ? p->postfix : "?");
	while (next_token(p->postfix, &pos, &t)) {
		if (t.kind == TOK_OP) {
			depth--;
			combine(&stack[depth - 1], &stack[depth], t.op);
			continue;
		}
		stack[depth] = (struct phrase){"", false};
		if (t.kind == TOK_EVENT)
			snprintf(stack[depth].text, sizeof(stack[depth].text), "%s",
				 p->events[t.value]);
		else
			snprintf(stack[depth].text, sizeof(stack[depth].text), "%lld",
				 (long long)t.value);
		depth++;
	}
	return snprintf(buf, len, "%s", stack[0].text);
}
