/*
 * emit_c.c - the description as data-only C tables for libpmurt.
 *
 * Writes one translation unit defining `const struct pmu_tables
 * pmu_tables_<platform>` (tables/pmu_tables.h, schema/c-tables.md): a pool
 * holding every string once, integer tables that refer to strings by pool
 * offset and to each other by index, the conditions' terms, and an
 * open-addressing hash index over the lower-cased event names, built here
 * with the same pmu_tbl_name_hash() the runtime uses.  The tables carry the
 * whole model (positions aside), so the runtime can rebuild an equal
 * struct pmu_model.  That is also why every event is written (pmugen refuses
 * --all-events when no DTS or DTB is written: it selects the tree's events).  Output depends on the model only (the source file's
 * directory is dropped), and compiles cleanly with -Wall -Wextra.
 *
 * The body is written to a memory stream while strings are added to the
 * pool; the pool is then written first, the body after it.
 */
#define _GNU_SOURCE /* fputs_unlocked, fputc_unlocked */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tables/pmu_tables.h"
#include "emit.h"

_Static_assert(PMU_TBL_EXCL_COUNT == PMU_EXCL_COUNT, "exclude table size");
_Static_assert(PMU_TBL_CACHE_TYPES == PMU_CACHE_NTYPES, "cache types");
_Static_assert(PMU_TBL_CACHE_OPS == PMU_OP_NTYPES, "cache ops");
_Static_assert(PMU_TBL_CACHE_RESULTS == PMU_RESULT_NTYPES, "cache results");
_Static_assert(PMU_MAX_TERMS <= 255, "terms per condition");
_Static_assert(PMU_TBL_PRESET_EVENTS == PMU_PRESET_MAX_EVENTS, "preset members");

/* --- string pool ---------------------------------------------------------- */

struct pool {
	char *data;       /* NUL-separated strings, in first-use order */
	size_t len, cap;
	uint32_t *slots;  /* hash set of offset + 1, 0 = empty */
	size_t nslots, count;
	int error;        /* first allocation failure */
};

/* A hash of s for the pool's set, eight bytes at a time (the strings are
 * mostly sentence-long descriptions). */
static uint64_t hash_bytes(const char *s)
{
	size_t n = strlen(s), i = 0;
	uint64_t h = 0xcbf29ce484222325ull ^ n, w;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s + i, n - i);
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 32);
}

static int pool_grow_set(struct pool *p)
{
	size_t n = p->nslots ? 2 * p->nslots : 1024;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < p->nslots; i++) {
		uint32_t v = p->slots[i];
		size_t j;

		if (!v)
			continue;
		j = hash_bytes(p->data + v - 1) & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = v;
	}
	free(p->slots);
	p->slots = slots;
	p->nslots = n;
	return 0;
}

static int pool_append(struct pool *p, const char *s, size_t n)
{
	if (p->len + n + 1 > UINT32_MAX - 1)
		return -EOVERFLOW;
	if (p->len + n + 1 > p->cap) {
		size_t cap = p->cap ? p->cap : 65536;
		char *d;

		while (cap < p->len + n + 1)
			cap *= 2;
		d = realloc(p->data, cap);
		if (!d)
			return -ENOMEM;
		p->data = d;
		p->cap = cap;
	}
	memcpy(p->data + p->len, s, n + 1);
	p->len += n + 1;
	return 0;
}

/* Offset of s in the pool (added on first use); PMU_TBL_NOSTR for NULL. */
static pmu_str_t pool_str(struct pool *p, const char *s)
{
	size_t j;
	uint32_t off;

	if (!s || p->error)
		return PMU_TBL_NOSTR;
	if (2 * (p->count + 1) > p->nslots && (p->error = pool_grow_set(p)))
		return PMU_TBL_NOSTR;
	j = hash_bytes(s) & (p->nslots - 1);
	for (; p->slots[j]; j = (j + 1) & (p->nslots - 1))
		if (strcmp(p->data + p->slots[j] - 1, s) == 0)
			return p->slots[j] - 1;
	off = (uint32_t)p->len;
	p->error = pool_append(p, s, strlen(s));
	if (p->error)
		return PMU_TBL_NOSTR;
	p->slots[j] = off + 1;
	p->count++;
	return off;
}

static void pool_free(struct pool *p)
{
	free(p->data);
	free(p->slots);
}

/* --- output helpers ------------------------------------------------------- */

/* One C string literal; octal escapes are always 3 digits, so a digit after
 * one cannot extend it, and "??" never forms a trigraph. */
/* putc_unlocked: the stream is pmugen's own, and this is the hot loop */
static void put_c_string(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\' || c == '"')
			fprintf(out, "\\%c", c);
		else if (c == 0 && i + 1 == n)
			fputs("\\0", out); /* last in its literal: cannot merge */
		else if (c == '?' && i > 0 && s[i - 1] == '?')
			fputs("\\077", out);
		else if (c >= 0x20 && c < 0x7f)
			putc_unlocked(c, out);
		else
			fprintf(out, "\\%03o", c);
	}
	fputc('"', out);
}

/* s, if it can go in a C comment as it is; else "". */
static const char *comment_text(const char *s)
{
	if (!s || strstr(s, "*/") || strstr(s, "/*"))
		return "";
	for (const char *p = s; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return "";
	return s;
}

/* v in decimal, right-aligned in width columns (printf's %5zu for 5). */
static void put_padded(FILE *out, uint64_t v, int width)
{
	for (uint64_t tens = 10; --width > 0; tens *= 10)
		if (v < tens)
			fputc_unlocked(' ', out);
	emit_digits(out, v, 10);
}

static void put_int(FILE *out, int v)
{
	if (v < 0)
		fputc('-', out);
	emit_digits(out, v < 0 ? -(uint64_t)v : (uint64_t)v, 10);
}

/* A string reference: its pool offset, or PMU_TBL_NOSTR. */
static void put_str(FILE *out, struct pool *p, const char *s)
{
	pmu_str_t off = pool_str(p, s);

	if (off == PMU_TBL_NOSTR)
		fputs("PMU_TBL_NOSTR", out);
	else
		emit_digits(out, off, 10);
}

static void put_u64(FILE *out, uint64_t v)
{
	fputs("0x", out);
	emit_digits(out, v, 16);
	fputs("ull", out);
}

/* The platform as a C identifier: lower case, [a-z0-9_]. */
static void platform_ident(const struct pmu_model *m, char *buf, size_t len)
{
	const char *s = m->platform && m->platform[0] ? m->platform : "unknown";
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[i] = isalnum(c) && c < 0x80 ? (char)tolower(c) : '_';
	}
	buf[i] = '\0';
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* --- condition terms ------------------------------------------------------ */

struct terms {
	struct pmu_term *t;
	size_t n, cap;
	int error;
};

static struct pmu_tbl_cond add_cond(struct terms *ts,
				    const struct pmu_condition *c)
{
	struct pmu_tbl_cond r = { (uint32_t)ts->n, 0 };
	int n = c->nterms < 0 ? 0 : c->nterms > PMU_MAX_TERMS ? PMU_MAX_TERMS :
		c->nterms;

	if (n == 0) {
		r.first = 0; /* "always" */
		return r;
	}
	if (ts->n + (size_t)n > ts->cap) {
		size_t cap = ts->cap ? 2 * ts->cap : 64;
		struct pmu_term *t;

		while (cap < ts->n + (size_t)n)
			cap *= 2;
		t = realloc(ts->t, cap * sizeof(*t));
		if (!t) {
			ts->error = -ENOMEM;
			return r;
		}
		ts->t = t;
		ts->cap = cap;
	}
	memcpy(ts->t + ts->n, c->terms, (size_t)n * sizeof(*c->terms));
	ts->n += (size_t)n;
	r.nterms = (uint32_t)n;
	return r;
}

static void put_cond(FILE *out, struct pmu_tbl_cond c)
{
	fprintf(out, "{%" PRIu32 ", %" PRIu32 "}", c.first, c.nterms);
}

struct ctx {
	const struct pmu_model *m;
	FILE *out;          /* the body (memory stream) */
	struct pool pool;
	struct terms terms;
};

/* "static const struct pmu_tbl_X name[] = {" or nothing for an empty table */
static bool table_open(struct ctx *c, const char *type, const char *name,
		       int n)
{
	if (n <= 0)
		return false;
	fprintf(c->out, "\nstatic const struct %s %s[%d] = {\n", type, name, n);
	return true;
}

static void table_close(struct ctx *c)
{
	fputs("};\n", c->out);
}

/* --- the tables ----------------------------------------------------------- */

static void emit_counters(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_counter", "counters", c->m->ncounters))
		return;
	fputs("\t/* name, sprn, width, privilege, programmable, event, "
	      "fixed_code */\n", c->out);
	for (int i = 0; i < c->m->ncounters; i++) {
		const struct pmu_counter *k = &c->m->counters[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, k->name);
		fprintf(c->out, ", %" PRIu32 ", %" PRIu32 ", ", k->sprn,
			k->width);
		put_str(c->out, &c->pool, k->privilege);
		fprintf(c->out, ", %d, ", k->programmable);
		put_str(c->out, &c->pool, k->event);
		fputs(", ", c->out);
		put_u64(c->out, k->fixed_code);
		fprintf(c->out, "}, /* %s */\n", comment_text(k->name));
	}
	table_close(c);
}

static int count_reg_fields(const struct pmu_model *m)
{
	int n = 0;

	for (int i = 0; i < m->nregisters; i++)
		n += m->registers[i].nfields;
	return n;
}

static void emit_registers(struct ctx *c)
{
	uint32_t first = 0;

	if (!table_open(c, "pmu_tbl_register", "registers", c->m->nregisters))
		return;
	fputs("\t/* name, sprn, width, privilege, index, reset, first_field, "
	      "nfields */\n", c->out);
	for (int i = 0; i < c->m->nregisters; i++) {
		const struct pmu_register *r = &c->m->registers[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, r->name);
		fprintf(c->out, ", %" PRIu32 ", %" PRIu32 ", ", r->sprn,
			r->width);
		put_str(c->out, &c->pool, r->privilege);
		fprintf(c->out, ", %" PRIu32 ", ", r->index);
		put_u64(c->out, r->reset);
		fprintf(c->out, ", %" PRIu32 ", %d}, /* %s */\n", first,
			r->nfields, comment_text(r->name));
		first += (uint32_t)r->nfields;
	}
	table_close(c);
}

static void emit_reg_fields(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_reg_field", "reg_fields",
			count_reg_fields(c->m)))
		return;
	fputs("\t/* name, description, layout, lo, hi, base, stride, width */\n",
	      c->out);
	for (int i = 0; i < c->m->nregisters; i++) {
		const struct pmu_register *r = &c->m->registers[i];

		for (int j = 0; j < r->nfields; j++) {
			const struct pmu_reg_field *f = &r->fields[j];

			fputs("\t{", c->out);
			put_str(c->out, &c->pool, f->name);
			fputs(", ", c->out);
			put_str(c->out, &c->pool, f->description);
			fprintf(c->out, ", %d, %" PRIu32 ", %" PRIu32 ", %"
				PRIu32 ", %" PRIu32 ", %" PRIu32 "}, "
				"/* %s.%s */\n", (int)f->layout, f->lo, f->hi,
				f->base, f->stride, f->width,
				comment_text(r->name), comment_text(f->name));
		}
	}
	table_close(c);
}

/* struct pmu_tbl_encoding: {mantissa, exponent bits, step, clamp, mask} */
static void put_encoding(FILE *out, const struct pmu_thresh_encoding *e)
{
	fprintf(out, "{%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", ", e->mantissa_bits,
		e->exponent_bits, e->exponent_step);
	put_u64(out, e->clamp);
	fputs(", ", out);
	put_u64(out, e->normalized_mask);
	fputs("}", out);
}

static void emit_fields(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_field", "fields", c->m->nfields))
		return;
	fputs("\t/* name, dts_name, description, source, lo, hi, parent, role, "
	      "linux_defined,\n\t * target_reg, target_field, when, transform, "
	      "transform_arg, encoding,\n\t * clear_reg, clear_field */\n", c->out);
	for (int i = 0; i < c->m->nfields; i++) {
		const struct pmu_field *f = &c->m->fields[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, f->name);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, f->dts_name);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, f->description);
		fprintf(c->out, ", %d, %" PRIu32 ", %" PRIu32 ", %d, %d, %d, "
			"%d, %d, ", (int)f->source, f->lo, f->hi, f->parent,
			(int)f->role, f->linux_defined, f->target_reg,
			f->target_field);
		put_cond(c->out, add_cond(&c->terms, &f->when));
		fprintf(c->out, ", %d, ", (int)f->transform);
		put_u64(c->out, f->transform_arg);
		fputs(", ", c->out);
		put_encoding(c->out, &f->encoding);
		fprintf(c->out, ", %d, %d}, /* %d %s */\n", f->clear_reg,
			f->clear_field, i, comment_text(f->name));
	}
	table_close(c);
}

static void emit_constraints(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_constraint", "constraints",
			c->m->nconstraints))
		return;
	fputs("\t/* name, description, kind, source, src_lo, src_hi, "
	      "transform, transform_arg, encoding,\n\t * slot_lo, slot_hi, limit, "
	      "when, has_flag, flag, group_reason, group_require */\n", c->out);
	for (int i = 0; i < c->m->nconstraints; i++) {
		const struct pmu_constraint *k = &c->m->constraints[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, k->name);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, k->description);
		fprintf(c->out, ", %d, %d, %" PRIu32 ", %" PRIu32 ", %d, ",
			(int)k->kind, (int)k->source, k->src_lo, k->src_hi,
			(int)k->transform);
		put_u64(c->out, k->transform_arg);
		fputs(", ", c->out);
		put_encoding(c->out, &k->encoding);
		fprintf(c->out, ", %" PRIu32 ", %" PRIu32 ", %" PRIu32 ", ",
			k->slot_lo, k->slot_hi, k->limit);
		put_cond(c->out, add_cond(&c->terms, &k->when));
		fprintf(c->out, ", %d, ", k->has_flag);
		put_cond(c->out, add_cond(&c->terms, &k->flag));
		fputs(", ", c->out);
		put_str(c->out, &c->pool, k->group_reason);
		fputs(", ", c->out);
		put_u64(c->out, k->group_require);
		fprintf(c->out, "}, /* %s */\n", comment_text(k->name));
	}
	table_close(c);
}

static void emit_checks(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_check", "checks", c->m->nchecks))
		return;
	fputs("\t/* name, description, kind, when, field, first_code, ncodes, "
	      "pvr_mask, pvr_value */\n", c->out);
	uint32_t first = 0;
	for (int i = 0; i < c->m->nchecks; i++) {
		const struct pmu_check *k = &c->m->checks[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, k->name);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, k->description);
		fprintf(c->out, ", %d, ", (int)k->kind);
		put_cond(c->out, add_cond(&c->terms, &k->when));
		fprintf(c->out, ", %d, %" PRIu32 ", %d, 0x%" PRIx32 ", 0x%" PRIx32 "},\n",
			k->field, first, k->ncodes, k->pvr_mask, k->pvr_value);
		first += (uint32_t)k->ncodes;
	}
	table_close(c);
}

static int count_check_codes(const struct pmu_model *m)
{
	int n = 0;

	for (int i = 0; i < m->nchecks; i++)
		n += m->checks[i].ncodes;
	return n;
}

/* The refused-code checks' codes, one table in check order. */
static void emit_check_codes(struct ctx *c)
{
	int n = count_check_codes(c->m);

	if (n <= 0)
		return;
	fprintf(c->out, "\nstatic const uint64_t check_codes[%d] = {\n", n);
	for (int i = 0; i < c->m->nchecks; i++) {
		const struct pmu_check *k = &c->m->checks[i];

		for (int j = 0; j < k->ncodes; j++) {
			fputs(j ? " " : "\t", c->out);
			put_u64(c->out, k->codes[j]);
			fputs(",", c->out);
		}
		if (k->ncodes)
			fprintf(c->out, " /* check %d */\n", i);
	}
	table_close(c);
}

static int count_class_codes(const struct pmu_model *m)
{
	int n = 0;

	for (int i = 0; i < m->ncode_classes; i++)
		n += m->code_classes[i].ncodes;
	return n;
}

/* The code classes, their codes in one table in class order. */
static void emit_code_classes(struct ctx *c)
{
	const struct pmu_model *m = c->m;
	uint32_t first = 0;

	if (!table_open(c, "pmu_tbl_code_class", "code_classes", m->ncode_classes))
		return;
	fputs("\t/* name, description, mask, first_code, ncodes */\n", c->out);
	for (int i = 0; i < m->ncode_classes; i++) {
		const struct pmu_code_class *k = &m->code_classes[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, k->name);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, k->description);
		fputs(", ", c->out);
		put_u64(c->out, k->mask);
		fprintf(c->out, ", %" PRIu32 ", %d},\n", first, k->ncodes);
		first += (uint32_t)k->ncodes;
	}
	table_close(c);
	fprintf(c->out, "\nstatic const uint64_t class_codes[%d] = {\n", count_class_codes(m));
	for (int i = 0; i < m->ncode_classes; i++) {
		for (int j = 0; j < m->code_classes[i].ncodes; j++) {
			fputs(j ? " " : "\t", c->out);
			put_u64(c->out, m->code_classes[i].codes[j]);
			fputs(",", c->out);
		}
		fprintf(c->out, " /* %s */\n", comment_text(m->code_classes[i].name));
	}
	table_close(c);
}

static void emit_terms(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_term", "terms", (int)c->terms.n))
		return;
	fputs("\t/* field, negate, lo, hi, code_class */\n", c->out);
	for (size_t i = 0; i < c->terms.n; i++) {
		const struct pmu_term *t = &c->terms.t[i];

		fprintf(c->out, "\t{%d, %d, ", t->field, t->negate);
		put_u64(c->out, t->lo);
		fputs(", ", c->out);
		put_u64(c->out, t->hi);
		fprintf(c->out, ", %d}, /* %zu */\n", t->code_class, i);
	}
	table_close(c);
}

static void emit_usage(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_usage", "usage", c->m->nusage))
		return;
	fputs("\t/* {reg, field}, when, counters */\n", c->out);
	for (int i = 0; i < c->m->nusage; i++) {
		const struct pmu_usage_bit *u = &c->m->usage[i];

		fprintf(c->out, "\t{{%d, %d}, %d, 0x%" PRIx32 "},\n",
			u->target.reg, u->target.field, (int)u->when,
			u->counters);
	}
	table_close(c);
}

static void emit_alternatives(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_alternative", "alternatives",
			c->m->nalternatives))
		return;
	fputs("\t/* ncodes, codes, per_task_only */\n", c->out);
	for (int i = 0; i < c->m->nalternatives; i++) {
		const struct pmu_alternative *a = &c->m->alternatives[i];

		fprintf(c->out, "\t{%d, {", a->ncodes);
		for (int j = 0; j < 4; j++) {
			put_u64(c->out, a->codes[j]);
			fputs(j < 3 ? ", " : "", c->out);
		}
		fprintf(c->out, "}, %d},\n", a->per_task_only);
	}
	table_close(c);
}

static void emit_generic(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_generic", "generic", c->m->ngeneric))
		return;
	fputs("\t/* name, state, code */\n", c->out);
	for (int i = 0; i < c->m->ngeneric; i++) {
		const struct pmu_generic *g = &c->m->generic[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, g->name);
		fprintf(c->out, ", %d, ", (int)g->state);
		put_u64(c->out, g->code);
		fprintf(c->out, "}, /* %s */\n", comment_text(g->name));
	}
	table_close(c);
}

static void emit_branch_filters(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_branch_filter", "branch_filters", c->m->nbranch_filters))
		return;
	fputs("\t/* name, state, value */\n", c->out);
	for (int i = 0; i < c->m->nbranch_filters; i++) {
		const struct pmu_branch_filter *b = &c->m->branch_filters[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, b->name);
		fprintf(c->out, ", %d, ", (int)b->state);
		put_u64(c->out, b->value);
		fputs("},\n", c->out);
	}
	table_close(c);
}

static void emit_presets(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_preset", "presets", c->m->npresets))
		return;
	fputs("\t/* name, description, kind, nevents, events, codes, postfix */\n", c->out);
	for (int i = 0; i < c->m->npresets; i++) {
		const struct pmu_preset *p = &c->m->presets[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, p->name);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, p->description);
		fprintf(c->out, ", %d, %d, {", (int)p->kind, p->nevents);
		for (int k = 0; k < PMU_PRESET_MAX_EVENTS; k++) {
			fputs(k ? ", " : "", c->out);
			put_str(c->out, &c->pool, k < p->nevents ? p->events[k] : NULL);
		}
		fputs("}, {", c->out);
		for (int k = 0; k < PMU_PRESET_MAX_EVENTS; k++) {
			fputs(k ? ", " : "", c->out);
			put_u64(c->out, k < p->nevents ? p->codes[k] : 0);
		}
		fputs("}, ", c->out);
		put_str(c->out, &c->pool, p->postfix);
		fprintf(c->out, "}, /* %s */\n", comment_text(p->name));
	}
	table_close(c);
}

static void emit_metrics(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_metric", "metrics", c->m->nmetrics))
		return;
	fputs("\t/* name, expr, groups, description, scale_unit, threshold, aggregation, "
	      "pmus */\n", c->out);
	for (int i = 0; i < c->m->nmetrics; i++) {
		const struct pmu_metric *mt = &c->m->metrics[i];
		const char *v[] = {mt->name, mt->expr, mt->groups, mt->description,
				   mt->scale_unit, mt->threshold, mt->aggregation, mt->pmus};

		fputs("\t{", c->out);
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
			fputs(k ? ", " : "", c->out);
			put_str(c->out, &c->pool, v[k]);
		}
		fprintf(c->out, "}, /* %s */\n", comment_text(mt->name));
	}
	table_close(c);
}

static void emit_events(struct ctx *c)
{
	if (!table_open(c, "pmu_tbl_event", "events", c->m->nevents))
		return;
	fputs("\t/* name, code, category, class, description, status, flags, "
	      "alias_of */\n", c->out);
	for (int i = 0; i < c->m->nevents; i++) {
		const struct pmu_event *e = &c->m->events[i];

		fputs("\t{", c->out);
		put_str(c->out, &c->pool, e->name);
		fputs(", ", c->out);
		put_u64(c->out, e->code);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, e->category);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, e->event_class);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, e->description);
		fputs(", ", c->out);
		put_str(c->out, &c->pool, e->status);
		fputs(e->firmware ? ", PMU_TBL_EV_FIRMWARE, " : ", 0, ", c->out);
		put_int(c->out, e->alias_of);
		fputs("}, /* ", c->out);
		put_int(c->out, i);
		fputc(' ', c->out);
		fputs(comment_text(e->name), c->out);
		fputs(" */\n", c->out);
	}
	table_close(c);
}

/* --- name index ----------------------------------------------------------- */

static uint32_t index_size(int nevents)
{
	uint32_t size = 2;

	while (size < 2 * (uint32_t)nevents)
		size *= 2;
	return size;
}

static int emit_name_index(struct ctx *c, uint32_t *size_out)
{
	uint32_t size = index_size(c->m->nevents);
	uint64_t *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (int i = 0; i < c->m->nevents; i++) {
		const char *name = c->m->events[i].name ? c->m->events[i].name : "";
		size_t len = strlen(name);
		uint64_t hash = pmu_tbl_name_hash_len(name, len);
		uint32_t j = (uint32_t)hash & (size - 1);

		while (slots[j])
			j = (j + 1) & (size - 1);
		slots[j] = pmu_tbl_name_slot((uint32_t)i, name, hash, len);
	}
	fprintf(c->out, "\n/* pmu_tbl_name_slot() by pmu_tbl_name_hash(lower-case "
		"name) & %" PRIu32 ", linear probing */\n"
		"static const uint64_t name_index[%" PRIu32 "] = {", size - 1,
		size);
	for (uint32_t j = 0; j < size; j++) {
		fputs(j % 8 ? " " : "\n\t", c->out);
		if (slots[j]) /* %#x: "0x" before all but 0 */
			fputs("0x", c->out);
		emit_digits(c->out, slots[j], 16);
		fputc(',', c->out);
	}
	fputs("\n};\n", c->out);
	free(slots);
	*size_out = size;
	return 0;
}

/* --- the top-level struct ------------------------------------------------- */

static void put_table_ref(FILE *out, const char *name, const char *count,
			  int n)
{
	if (n > 0)
		fprintf(out, "\t.%s = %s,\n\t.%s = %d,\n", name, name, count, n);
	else
		fprintf(out, "\t.%s = NULL,\n\t.%s = 0,\n", name, count);
}

static void put_ref(FILE *out, struct pmu_reg_ref r)
{
	fprintf(out, "{%d, %d}", r.reg, r.field);
}

static void emit_cache(struct ctx *c)
{
	fprintf(c->out, "\t.has_cache_map = %d,\n\t.cache = {\n",
		c->m->has_cache_map);
	for (int t = 0; t < PMU_CACHE_NTYPES; t++) {
		fputs("\t\t{ ", c->out);
		for (int op = 0; op < PMU_OP_NTYPES; op++) {
			fputs("{ ", c->out);
			for (int r = 0; r < PMU_RESULT_NTYPES; r++) {
				const struct pmu_cache_entry *e =
					&c->m->cache[t][op][r];

				fprintf(c->out, "{%d, ", (int)e->state);
				put_u64(c->out, e->code);
				fputs(r + 1 < PMU_RESULT_NTYPES ? "}, " : "} ",
				      c->out);
			}
			fputs(op + 1 < PMU_OP_NTYPES ? "}, " : "} ", c->out);
		}
		fputs("},\n", c->out);
	}
	fputs("\t},\n", c->out);
}

/* The processor versions, when the description lists any. */
static void emit_pvr_versions(struct ctx *c)
{
	const struct pmu_model *m = c->m;

	if (!m->npvr_versions)
		return;
	fputs("\nstatic const uint32_t pvr_versions[] = {", c->out);
	for (int i = 0; i < m->npvr_versions; i++)
		fprintf(c->out, "%s0x%04" PRIx32, i ? ", " : "", m->pvr_versions[i]);
	fputs("};\n", c->out);
}

/* The identity every table has, an extension's too: the first members. */
static void emit_identity(struct ctx *c, const char *ident)
{
	const struct pmu_model *m = c->m;
	FILE *out = c->out;

	fprintf(out, "\nconst struct pmu_tables pmu_tables_%s = {\n"
		"\t.tables_version = PMU_TABLES_VERSION,\n"
		"\t.format_version = %d,\n\t.pool = pool,\n"
		"\t.pool_size = sizeof(pool),\n\t.source = ", ident,
		PMU_FORMAT_VERSION);
	put_str(out, &c->pool, base_name(m->source));
	fputs(",\n\t.name = ", out);
	put_str(out, &c->pool, m->name);
	fputs(",\n\t.version = ", out);
	put_str(out, &c->pool, m->version);
	fputs(",\n\t.platform = ", out);
	put_str(out, &c->pool, m->platform);
	fputs(",\n\t.compatible = ", out);
	put_str(out, &c->pool, m->compatible);
	fprintf(out, ",\n\t.max_group = %" PRIu32 ",\n", m->max_group);
}

/* Version 8's members: processor versions, the base. */
static void emit_relation(struct ctx *c, const char *base_ident)
{
	const struct pmu_model *m = c->m;
	FILE *out = c->out;

	fprintf(out, "\t.pvr = 0x%" PRIx32 ",\n", m->pvr);
	put_table_ref(out, "pvr_versions", "npvr_versions", m->npvr_versions);
	fputs("\t.extends = ", out);
	put_str(out, &c->pool, m->extends);
	if (base_ident)
		fprintf(out, ",\n\t.base = &pmu_tables_%s,\n", base_ident);
	else
		fputs(",\n\t.base = NULL,\n", out);
}

static void emit_top(struct ctx *c, const char *ident, uint32_t index_size_)
{
	const struct pmu_model *m = c->m;
	FILE *out = c->out;

	emit_identity(c, ident);
	put_table_ref(out, "counters", "ncounters", m->ncounters);
	put_table_ref(out, "registers", "nregisters", m->nregisters);
	put_table_ref(out, "reg_fields", "nreg_fields", count_reg_fields(m));
	put_table_ref(out, "fields", "nfields", m->nfields);
	put_table_ref(out, "terms", "nterms", (int)c->terms.n);
	put_table_ref(out, "constraints", "nconstraints", m->nconstraints);
	put_table_ref(out, "checks", "nchecks", m->nchecks);
	put_table_ref(out, "usage", "nusage", m->nusage);
	fputs("\t.exclude = {", out);
	for (int i = 0; i < PMU_EXCL_COUNT; i++) {
		fputs(i ? ", " : "", out);
		put_ref(out, m->exclude[i]);
	}
	fputs("},\n\t.branch_stack_clears = ", out);
	put_ref(out, m->branch_stack_clears);
	fputs(",\n", out);
	put_table_ref(out, "alternatives", "nalternatives", m->nalternatives);
	put_table_ref(out, "generic", "ngeneric", m->ngeneric);
	emit_cache(c);
	put_table_ref(out, "branch_filters", "nbranch_filters", m->nbranch_filters);
	fputs("\t.branch_filter_target = ", out);
	put_ref(out, m->branch_filter_target);
	fputs(",\n", out);
	put_table_ref(out, "events", "nevents", m->nevents);
	fprintf(out, "\t.name_index = name_index,\n"
		"\t.name_index_size = %" PRIu32 ",\n", index_size_);
	fprintf(out, "\t.overflow_counter_unknown = %d,\n", m->overflow_counter_unknown);
	put_table_ref(out, "presets", "npresets", m->npresets);
	put_table_ref(out, "check_codes", "ncheck_codes", count_check_codes(m));
	put_table_ref(out, "metrics", "nmetrics", m->nmetrics);
	put_table_ref(out, "code_classes", "ncode_classes", m->ncode_classes);
	put_table_ref(out, "class_codes", "nclass_codes", count_class_codes(m));
	emit_relation(c, NULL);
	fputs("};\n", out);
}

/*
 * A description that extends another (m->extends): its identity and a
 * pointer to the base's tables, pmu_tables_<base platform>, which must be
 * linked in too (libpmutables has both); the runtime takes everything else
 * from the base (schema/c-tables.md).  No event, rule or name index is
 * written twice.
 */
static void emit_extension(struct ctx *c, const char *ident)
{
	struct pmu_model base_only = {.platform = c->m->extends};
	char base_ident[64];

	platform_ident(&base_only, base_ident, sizeof(base_ident));
	emit_pvr_versions(c);
	fprintf(c->out, "\n/* the base: %s */\nextern const struct pmu_tables pmu_tables_%s;\n",
		comment_text(c->m->extends), base_ident);
	emit_identity(c, ident);
	emit_relation(c, base_ident);
	fputs("};\n", c->out);
}

/* --- putting it together -------------------------------------------------- */

static void write_pool(FILE *out, const struct pool *p)
{
	size_t off = 0;

	fprintf(out, "\n/* %zu strings, %zu bytes */\nstatic const char pool[] =",
		p->count, p->len ? p->len : 1);
	if (p->len == 0)
		fputs(" \"\"", out);
	while (off < p->len) {
		size_t n = strlen(p->data + off);

		fputs_unlocked("\n\t/* ", out);
		put_padded(out, off, 5);
		fputs_unlocked(" */ ", out);
		/* the last string's NUL is the literal's own */
		put_c_string(out, p->data + off,
			     off + n + 1 < p->len ? n + 1 : n);
		off += n + 1;
	}
	fputs(";\n", out);
}

static void write_header(FILE *out, const struct pmu_model *m,
			 const struct emit_options *o, const char *ident)
{
	const char *in = base_name(o && o->input_name ? o->input_name :
				   m->source);

	fprintf(out, "/*\n * Generated by pmugen%s%s: built-in tables of the "
		"%s (pmu_tables_%s).\n * Layout: tables/pmu_tables.h, "
		"schema/c-tables.md.  Do not edit.\n */\n"
		"#include <stddef.h>\n#include <stdint.h>\n\n"
		"#include \"pmu_tables.h\"\n",
		in && comment_text(in)[0] ? " from " : "",
		in ? comment_text(in) : "",
		m->name && comment_text(m->name)[0] ? comment_text(m->name) :
		"PMU", ident);
}

/* All tables into c->out; the pool fills as strings are referenced. */
static int emit_body(struct ctx *c, const char *ident)
{
	const struct pmu_model *m = c->m;
	uint32_t isize;
	int rc;

	/* the identity first, so that it opens the pool */
	pool_str(&c->pool, base_name(m->source));
	pool_str(&c->pool, m->name);
	pool_str(&c->pool, m->version);
	pool_str(&c->pool, m->platform);
	pool_str(&c->pool, m->compatible);
	if (m->extends) {
		pool_str(&c->pool, m->extends);
		emit_extension(c, ident);
		return c->pool.error;
	}
	/* then every event name, side by side: a name look-up reads only them,
	 * and the descriptions would scatter them over the whole pool */
	for (int i = 0; i < m->nevents; i++)
		pool_str(&c->pool, m->events[i].name);
	emit_counters(c);
	emit_registers(c);
	emit_reg_fields(c);
	emit_fields(c);
	emit_constraints(c);
	emit_checks(c);
	emit_check_codes(c);
	emit_code_classes(c);
	emit_terms(c);
	emit_usage(c);
	emit_alternatives(c);
	emit_generic(c);
	emit_branch_filters(c);
	emit_events(c);
	emit_presets(c);
	emit_metrics(c);
	emit_pvr_versions(c);
	rc = emit_name_index(c, &isize);
	if (rc)
		return rc;
	emit_top(c, ident, isize);
	if (c->pool.error)
		return c->pool.error;
	return c->terms.error;
}

int emit_c(const struct pmu_model *m, const struct emit_options *o,
	   FILE *out, struct pmu_error *err)
{
	struct ctx c = { .m = m };
	char ident[64], *body = NULL;
	size_t body_len = 0;
	int rc;

	platform_ident(m, ident, sizeof(ident));
	c.out = open_memstream(&body, &body_len);
	if (!c.out) {
		pmu_error_set(err, -ENOMEM, "c: error: out of memory");
		return -ENOMEM;
	}
	rc = emit_body(&c, ident);
	if (fclose(c.out) != 0 && rc == 0)
		rc = -ENOMEM;
	if (rc == 0) {
		write_header(out, m, o, ident);
		write_pool(out, &c.pool);
		fwrite(body, 1, body_len, out);
		if (fflush(out) != 0 || ferror(out))
			rc = -EIO;
	}
	if (rc)
		pmu_error_set(err, rc, "c: error: %s", rc == -EIO ?
			      "write failed" : rc == -EOVERFLOW ?
			      "string pool exceeds 4 GiB" : "out of memory");
	free(body);
	free(c.terms.t);
	pool_free(&c.pool);
	return rc;
}
