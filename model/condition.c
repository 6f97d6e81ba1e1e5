/*
 * condition.c - conditions written as words.
 *
 * The description never uses numeric condition codes: a condition reads
 * "always", "only for marked events", "only when unit is 6",
 * "only when thresh_sel is nonzero" or a conjunction such as
 * "only when pmc is 0..4 and unit is not 6..9".  This file parses those words
 * into terms over event-code fields and code classes, formats terms back into
 * canonical words (what the DTS and JSON outputs carry) and evaluates them.
 *
 *   condition := "always" | "only" ("when" | "for") clause { "and" clause }
 *   clause    := "marked events"
 *              | "code" "is" [ "not" ] CLASS
 *              | FIELD "is" [ "not" ] ( "nonzero" | "zero" | N | N ".." M )
 *
 * "code is CLASS" holds when the event's code belongs to the code class
 * (pmu_model.h); a field named "code" is read as a field unless the word
 * after "is" (and "not") names a class.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_model.h"

#define MAX_WORDS 32

struct words {
	int n;
	char *w[MAX_WORDS];
	char buf[256];
};

static int split_words(const char *text, struct words *ws)
{
	if (strlen(text) >= sizeof(ws->buf))
		return -E2BIG;
	strcpy(ws->buf, text);
	ws->n = 0;
	for (char *tok = strtok(ws->buf, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (ws->n == MAX_WORDS)
			return -E2BIG;
		ws->w[ws->n++] = tok;
	}
	return 0;
}

static int parse_number(const char *s, uint64_t *out)
{
	char *end;
	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

static uint64_t field_max(const struct pmu_field *f)
{
	return pmu_bits_mask(f->lo, f->hi) >> f->lo;
}

static int mark_field(const struct pmu_model *m)
{
	for (int i = 0; i < m->nfields; i++)
		if (m->fields[i].role == PMU_ROLE_MARK)
			return i;
	return -1;
}

/* "N" or "N..M" */
static int parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	char tmp[64];
	const char *dots = strstr(s, "..");
	if (!dots)
		return parse_number(s, lo) ? -EINVAL : (*hi = *lo, 0);
	size_t n = (size_t)(dots - s);
	if (n == 0 || n >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (parse_number(tmp, lo) || parse_number(dots + 2, hi) || *lo > *hi)
		return -EINVAL;
	return 0;
}

static int parse_value_words(const struct words *ws, int *i, struct pmu_term *t,
			     char *why, size_t whylen)
{
	if (*i < ws->n && strcmp(ws->w[*i], "not") == 0) {
		t->negate = true;
		(*i)++;
	}
	if (*i >= ws->n) {
		snprintf(why, whylen, "expected a value after 'is'");
		return -EINVAL;
	}
	const char *v = ws->w[(*i)++];
	if (strcmp(v, "nonzero") == 0 || strcmp(v, "zero") == 0) {
		if (t->negate) {
			snprintf(why, whylen, "write 'is %s' without 'not'",
				 strcmp(v, "zero") == 0 ? "nonzero" : "zero");
			return -EINVAL;
		}
		t->negate = strcmp(v, "nonzero") == 0;
		t->lo = t->hi = 0;
		return 0;
	}
	if (parse_range(v, &t->lo, &t->hi)) {
		snprintf(why, whylen, "'%s' is not a number, a range N..M, 'zero' or 'nonzero'", v);
		return -EINVAL;
	}
	return 0;
}

/* "code is [not] CLASS" at word *i: 1 and the term when it is one, else 0
 * (nothing read). */
static int parse_class_clause(const struct pmu_model *m, const struct words *ws, int *i,
			      struct pmu_term *t)
{
	int at = *i;
	if (at + 2 >= ws->n || strcmp(ws->w[at], "code") != 0 || strcmp(ws->w[at + 1], "is") != 0)
		return 0;
	bool negate = strcmp(ws->w[at + 2], "not") == 0;
	if (negate && at + 3 >= ws->n)
		return 0;
	int k = pmu_model_code_class(m, ws->w[at + 2 + negate]);
	if (k < 0)
		return 0;
	*t = (struct pmu_term){.field = k, .negate = negate, .lo = 1, .hi = 1, .code_class = true};
	*i = at + 3 + negate;
	return 1;
}

static int parse_clause(const struct pmu_model *m, const struct words *ws, int *i,
			struct pmu_term *t, char *why, size_t whylen)
{
	memset(t, 0, sizeof(*t));
	if (parse_class_clause(m, ws, i, t))
		return 0;
	if (*i + 1 < ws->n && strcmp(ws->w[*i], "marked") == 0 &&
	    strcmp(ws->w[*i + 1], "events") == 0) {
		*i += 2;
		t->field = mark_field(m);
		t->negate = true;
		if (t->field < 0) {
			snprintf(why, whylen, "'marked events' needs a field with role mark");
			return -EINVAL;
		}
		return 0;
	}
	const char *name = ws->w[(*i)++];
	t->field = pmu_model_field(m, name);
	if (t->field < 0 && strcmp(name, "code") == 0) {
		int at = *i + (*i < ws->n && strcmp(ws->w[*i], "is") == 0);
		at += at < ws->n && strcmp(ws->w[at], "not") == 0;
		snprintf(why, whylen, "'code is' names a code class, and '%s' is none%s",
			 at < ws->n ? ws->w[at] : "", m->ncode_classes ? "" : " (the description "
			 "has no code-classes)");
		return -EINVAL;
	}
	if (t->field < 0) {
		snprintf(why, whylen, "unknown field '%s' in condition", name);
		return -EINVAL;
	}
	if (*i >= ws->n || strcmp(ws->w[*i], "is") != 0) {
		snprintf(why, whylen, "expected 'is' after field '%s'", name);
		return -EINVAL;
	}
	(*i)++;
	if (parse_value_words(ws, i, t, why, whylen))
		return -EINVAL;
	if (t->hi > field_max(&m->fields[t->field])) {
		snprintf(why, whylen, "value 0x%llx does not fit field '%s' (%u bits)",
			 (unsigned long long)t->hi, name,
			 m->fields[t->field].hi - m->fields[t->field].lo + 1);
		return -EINVAL;
	}
	return 0;
}

int pmu_condition_parse(const struct pmu_model *m, const char *text,
			struct pmu_condition *out, char *why, size_t whylen)
{
	struct words ws;
	memset(out, 0, sizeof(*out));
	if (split_words(text, &ws)) {
		snprintf(why, whylen, "condition is too long");
		return -EINVAL;
	}
	if (ws.n == 1 && strcmp(ws.w[0], "always") == 0)
		return 0;
	if (ws.n < 3 || strcmp(ws.w[0], "only") != 0 ||
	    (strcmp(ws.w[1], "when") != 0 && strcmp(ws.w[1], "for") != 0)) {
		snprintf(why, whylen, "a condition reads 'always', 'only when FIELD is VALUE' "
			 "or 'only for marked events', not '%s'", text);
		return -EINVAL;
	}
	int i = 2;
	for (;;) {
		if (out->nterms == PMU_MAX_TERMS) {
			snprintf(why, whylen, "at most %d clauses joined by 'and'", PMU_MAX_TERMS);
			return -EINVAL;
		}
		if (i >= ws.n) {
			snprintf(why, whylen, "condition ends early: '%s'", text);
			return -EINVAL;
		}
		if (parse_clause(m, &ws, &i, &out->terms[out->nterms++], why, whylen))
			return -EINVAL;
		if (i == ws.n)
			return 0;
		if (strcmp(ws.w[i], "and") != 0) {
			snprintf(why, whylen, "expected 'and' before '%s'", ws.w[i]);
			return -EINVAL;
		}
		i++;
	}
}

static int format_number(char *buf, size_t len, uint64_t v)
{
	return v < 10 ? snprintf(buf, len, "%llu", (unsigned long long)v)
		      : snprintf(buf, len, "0x%llx", (unsigned long long)v);
}

static int format_term(const struct pmu_model *m, const struct pmu_term *t,
		       char *buf, size_t len)
{
	if (t->code_class)
		return snprintf(buf, len, "code is %s%s", t->negate ? "not " : "",
				t->field >= 0 && t->field < m->ncode_classes
					? m->code_classes[t->field].name : "?");
	const char *name = (t->field >= 0 && t->field < m->nfields)
				   ? m->fields[t->field].name : "?";
	if (t->negate && t->lo == 0 && t->hi == 0)
		return snprintf(buf, len, "%s is nonzero", name);
	char lo[32], hi[32];
	format_number(lo, sizeof(lo), t->lo);
	format_number(hi, sizeof(hi), t->hi);
	if (t->lo == t->hi)
		return snprintf(buf, len, "%s is %s%s", name, t->negate ? "not " : "", lo);
	return snprintf(buf, len, "%s is %s%s..%s", name, t->negate ? "not " : "", lo, hi);
}

static bool is_marked_term(const struct pmu_model *m, const struct pmu_term *t)
{
	return !t->code_class && t->field >= 0 && t->field < m->nfields &&
	       m->fields[t->field].role == PMU_ROLE_MARK && t->negate &&
	       t->lo == 0 && t->hi == 0;
}

int pmu_condition_format(const struct pmu_model *m, const struct pmu_condition *c,
			 char *buf, size_t len)
{
	if (c->nterms == 0)
		return snprintf(buf, len, "always");
	if (c->nterms == 1 && is_marked_term(m, &c->terms[0]))
		return snprintf(buf, len, "only for marked events");
	size_t used = (size_t)snprintf(buf, len, "only when ");
	for (int i = 0; i < c->nterms; i++) {
		char term[128];
		format_term(m, &c->terms[i], term, sizeof(term));
		used += (size_t)snprintf(buf + (used < len ? used : len),
					 used < len ? len - used : 0, "%s%s",
					 i ? " and " : "", term);
	}
	return (int)used;
}

bool pmu_condition_holds(const struct pmu_model *m, const struct pmu_condition *c,
			 uint64_t config, uint64_t config1)
{
	for (int i = 0; i < c->nterms; i++) {
		const struct pmu_term *t = &c->terms[i];
		uint64_t v = t->code_class ? pmu_code_class_has(&m->code_classes[t->field], config)
					   : pmu_field_value(&m->fields[t->field], config, config1);
		bool in = v >= t->lo && v <= t->hi;
		if (in == t->negate)
			return false;
	}
	return true;
}

struct pmu_extract pmu_field_extract(const struct pmu_field *f)
{
	struct pmu_extract x = {
		.mask = pmu_bits_mask(f->lo, f->hi) >> (f->lo & 63),
		.shift = (uint8_t)(f->lo & 63),
		.word = f->source == PMU_SRC_CONFIG1,
	};
	return x;
}

void pmu_condition_compile(const struct pmu_model *m, const struct pmu_condition *c,
			   struct pmu_ccond *out)
{
	memset(out, 0, sizeof(*out));
	out->n = c->nterms;
	out->simple = true;
	for (int i = 0; i < c->nterms; i++) {
		const struct pmu_term *t = &c->terms[i];
		out->t[i].lo = t->lo;
		out->t[i].span = t->hi - t->lo;
		out->t[i].negate = t->negate;
		if (t->code_class) { /* membership, not a masked compare */
			out->t[i].cls = &m->code_classes[t->field];
			out->simple = false;
			continue;
		}
		struct pmu_extract x = pmu_field_extract(&m->fields[t->field]);
		out->t[i].x = x;
		if (t->negate || t->lo != t->hi) {
			out->simple = false;
			continue;
		}
		uint64_t mask = x.mask << x.shift;
		uint64_t value = (t->lo << x.shift) & mask;
		/* two terms on overlapping bits that disagree never both hold */
		if ((out->eq_mask[x.word] & mask) &&
		    ((out->eq_value[x.word] ^ value) & out->eq_mask[x.word] & mask))
			out->simple = false;
		out->eq_mask[x.word] |= mask;
		out->eq_value[x.word] |= value;
	}
}
