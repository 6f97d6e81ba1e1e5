/*
 * dt_tree.c - walks a struct pmu_model into the device tree described by
 * schema/dts-layout.md, calling a sink (DTS text or libfdt) for each node and
 * property.  All layout decisions live here, so the DTS and DTB emitters
 * cannot disagree.  Node and property order follows the schema; lists are in
 * model order.
 */
#include "dt_tree.h"
#include "rfc_vocab.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(expr)                          \
	do {                                   \
		int rc_ = (expr);                  \
		if (rc_ < 0)                       \
			return rc_;                    \
	} while (0)

#define NAME_MAX_LEN 256 /* longest node or property value we build */

struct walk {
	const struct pmu_model *m;
	const struct emit_options *o;
	const struct dt_sink *s;
	struct pmu_error *err;
};

/* --- small helpers over the sink ----------------------------------------- */

static bool name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == ',' || c == '.' || c == '_' ||
	       c == '+' || c == '-';
}

/* A node name taken from the model: non-empty, device-tree characters only
 * (no '@': the unit address is ours to give). */
static int check_node_name(struct walk *w, const char *what, const char *name)
{
	if (!name || !*name) {
		pmu_error_set(w->err, -EINVAL, "%s has no name", what);
		return -EINVAL;
	}
	for (const char *p = name; *p; p++) {
		if (!name_char_ok(*p)) {
			pmu_error_set(w->err, -EINVAL,
				      "%s name '%s' has a character a device-tree node name cannot hold ('%c')",
				      what, name, *p);
			return -EINVAL;
		}
	}
	return 0;
}

static int begin_raw(struct walk *w, const char *name)
{
	return w->s->ops->begin_node(w->s->ctx, name, w->err);
}

static int begin(struct walk *w, const char *what, const char *name)
{
	TRY(check_node_name(w, what, name));
	return begin_raw(w, name);
}

static int end(struct walk *w)
{
	return w->s->ops->end_node(w->s->ctx, w->err);
}

static int cells(struct walk *w, const char *name, const uint32_t *c, int n,
		 enum dt_radix radix)
{
	return w->s->ops->prop_u32s(w->s->ctx, name, c, n, radix, w->err);
}

static int u32p(struct walk *w, const char *name, uint32_t v,
		enum dt_radix radix)
{
	return cells(w, name, &v, 1, radix);
}

static int pair(struct walk *w, const char *name, uint32_t a, uint32_t b)
{
	uint32_t c[2] = { a, b };

	return cells(w, name, c, 2, DT_DEC);
}

/* A 64-bit value as <hi lo>. */
static int u64p(struct walk *w, const char *name, uint64_t v)
{
	uint32_t c[2] = { (uint32_t)(v >> 32), (uint32_t)v };

	return cells(w, name, c, 2, DT_HEX);
}

/* event_code: one cell when the high word is 0, else <hi lo>. */
static int codep(struct walk *w, const char *name, uint64_t v)
{
	if (v >> 32)
		return u64p(w, name, v);
	return u32p(w, name, (uint32_t)v, DT_HEX);
}

/* A string property; nothing when s is NULL. */
static int strp(struct walk *w, const char *name, const char *s)
{
	if (!s)
		return 0;
	return w->s->ops->prop_strings(w->s->ctx, name, &s, 1, w->err);
}

static int flagp(struct walk *w, const char *name)
{
	return w->s->ops->prop_flag(w->s->ctx, name, w->err);
}

/* Lower-case copy of a model name for a node name. */
static int lower_name(struct walk *w, const char *what, const char *name,
		      char *buf, size_t len)
{
	size_t i;

	TRY(check_node_name(w, what, name));
	for (i = 0; name[i]; i++) {
		if (i + 1 >= len) {
			pmu_error_set(w->err, -EINVAL, "%s name '%.40s...' is too long",
				      what, name);
			return -EINVAL;
		}
		buf[i] = (name[i] >= 'A' && name[i] <= 'Z') ?
				 (char)(name[i] - 'A' + 'a') : name[i];
	}
	buf[i] = '\0';
	return 0;
}

/* Counter and register names come back as the node name in upper case, so
 * they must not hold lower-case letters. */
static int check_upper(struct walk *w, const char *what, const char *name)
{
	for (const char *p = name; p && *p; p++) {
		if (*p >= 'a' && *p <= 'z') {
			pmu_error_set(w->err, -EINVAL,
				      "%s name '%s' must be upper case: the device tree stores it as a lower-case node name",
				      what, name);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_range(struct walk *w, const char *what, const char *name,
		       uint32_t lo, uint32_t hi)
{
	if (lo > hi || hi > 63) {
		pmu_error_set(w->err, -EINVAL, "%s '%s' has bit range %u..%u outside 0..63",
			      what, name ? name : "?", lo, hi);
		return -EINVAL;
	}
	return 0;
}

/* The register field a reference points at, or NULL (and an error). */
static const struct pmu_reg_field *reg_field(struct walk *w, int reg, int field,
					     const char *what)
{
	const struct pmu_register *r;

	if (reg < 0 || reg >= w->m->nregisters)
		goto bad;
	r = &w->m->registers[reg];
	if (field < 0 || field >= r->nfields)
		goto bad;
	return &r->fields[field];
bad:
	pmu_error_set(w->err, -EINVAL, "%s refers to register %d field %d, which does not exist",
		      what, reg, field);
	return NULL;
}

/* "REG.FIELD" for a register-field reference. */
static int ref_string(struct walk *w, int reg, int field, const char *what,
		      char *buf, size_t len)
{
	const struct pmu_reg_field *f = reg_field(w, reg, field, what);
	int n;

	if (!f)
		return -EINVAL;
	n = snprintf(buf, len, "%s.%s", w->m->registers[reg].name, f->name);
	if (n < 0 || (size_t)n >= len) {
		pmu_error_set(w->err, -EINVAL, "%s: register field name too long", what);
		return -EINVAL;
	}
	return 0;
}

static int refp(struct walk *w, const char *prop, int reg, int field,
		const char *what)
{
	char buf[NAME_MAX_LEN];

	TRY(ref_string(w, reg, field, what, buf, sizeof(buf)));
	return strp(w, prop, buf);
}

/* A condition in words as property prop; "always" is omitted unless
 * keep_always. */
static int condp(struct walk *w, const char *prop, const struct pmu_condition *c,
		 const char *what, bool keep_always)
{
	char buf[512];
	int n;

	if (c->nterms == 0 && !keep_always)
		return 0;
	if (c->nterms < 0 || c->nterms > PMU_MAX_TERMS) {
		pmu_error_set(w->err, -EINVAL, "%s: condition has %d terms", what,
			      c->nterms);
		return -EINVAL;
	}
	for (int i = 0; i < c->nterms; i++) {
		int n_of = c->terms[i].code_class ? w->m->ncode_classes : w->m->nfields;
		if (c->terms[i].field < 0 || c->terms[i].field >= n_of) {
			pmu_error_set(w->err, -EINVAL, "%s: condition refers to a %s that does not exist",
				      what, c->terms[i].code_class ? "code class" : "field");
			return -EINVAL;
		}
	}
	n = pmu_condition_format(w->m, c, buf, sizeof(buf));
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		pmu_error_set(w->err, -EINVAL, "%s: condition too long", what);
		return -EINVAL;
	}
	return strp(w, prop, buf);
}

/* `when = "..."`, omitted when the condition is "always". */
static int whenp(struct walk *w, const struct pmu_condition *c, const char *what)
{
	return condp(w, "when", c, what, false);
}

/* A list of 64-bit codes as <hi lo> pairs. */
static int codesp(struct walk *w, const char *name, const uint64_t *codes, int n)
{
	uint32_t *c = malloc((size_t)(n ? n : 1) * 2 * sizeof(*c));

	if (!c) {
		pmu_error_set(w->err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		c[2 * i] = (uint32_t)(codes[i] >> 32);
		c[2 * i + 1] = (uint32_t)codes[i];
	}
	int rc = cells(w, name, c, 2 * n, DT_HEX);
	free(c);
	return rc;
}

/* `transform`, then sdar-mode's `transform-arg` or mantissa-exponent's
 * `encoding-NAME` properties: bit counts in one cell, clamp and mask <hi lo>. */
static int transformp(struct walk *w, enum pmu_transform t, uint64_t arg,
		      const struct pmu_thresh_encoding *enc)
{
	char prop[64];

	if (t != PMU_XF_NONE)
		TRY(strp(w, "transform", pmu_transform_name(t)));
	if (t == PMU_XF_SDAR_MODE || arg != 0)
		TRY(u64p(w, "transform-arg", arg));
	for (int p = 0; t == PMU_XF_MANTISSA_EXPONENT && p < PMU_ENC_NPARAMS; p++) {
		uint64_t v = pmu_thresh_param_get(enc, (enum pmu_thresh_param)p);

		snprintf(prop, sizeof(prop), "encoding-%s", pmu_thresh_param_name(p));
		if (p < PMU_ENC_CLAMP)
			TRY(u32p(w, prop, (uint32_t)v, DT_DEC));
		else
			TRY(u64p(w, prop, v));
	}
	return 0;
}

/* --- sprs ------------------------------------------------------------------ */

/* The start of a counter's or register's node: its name in lower case, then
 * the properties the two share (sprn, register-width, privilege). */
static int begin_spr(struct walk *w, const char *what, const char *spr_name,
		     uint32_t sprn, uint32_t width, const char *privilege)
{
	char name[NAME_MAX_LEN];

	TRY(check_upper(w, what, spr_name));
	TRY(lower_name(w, what, spr_name, name, sizeof(name)));
	TRY(begin_raw(w, name));
	TRY(u32p(w, "sprn", sprn, DT_DEC));
	TRY(u32p(w, "register-width", width, DT_DEC));
	return strp(w, "privilege", privilege);
}

static int walk_counter(struct walk *w, const struct pmu_counter *c)
{
	TRY(begin_spr(w, "counter", c->name, c->sprn, c->width, c->privilege));
	TRY(u32p(w, "programmable", c->programmable ? 1 : 0, DT_DEC));
	TRY(strp(w, "event", c->event ? c->event : "any"));
	TRY(strp(w, "status", "okay"));
	if (!c->programmable)
		TRY(u64p(w, "fixed-code", c->fixed_code));
	return end(w);
}

static int walk_reg_field(struct walk *w, const struct pmu_reg_field *f)
{
	TRY(begin(w, "register field", f->name));
	TRY(strp(w, "description", f->description));
	if (f->layout == PMU_LAYOUT_FIXED) {
		TRY(check_range(w, "register field", f->name, f->lo, f->hi));
		TRY(pair(w, "bits", f->lo, f->hi));
	} else {
		TRY(u32p(w, "target_field_base", f->base, DT_DEC));
		TRY(u32p(w, "target_field_shift", f->stride, DT_DEC));
		TRY(u32p(w, "length", f->width, DT_DEC));
	}
	return end(w);
}

static int walk_register(struct walk *w, const struct pmu_register *r)
{
	TRY(begin_spr(w, "register", r->name, r->sprn, r->width, r->privilege));
	TRY(strp(w, "status", "okay"));
	TRY(u32p(w, "mmcr-index", r->index, DT_DEC));
	if (r->reset)
		TRY(u64p(w, "reset-value", r->reset));
	for (int i = 0; i < r->nfields; i++)
		TRY(walk_reg_field(w, &r->fields[i]));
	return end(w);
}

static int walk_sprs(struct walk *w)
{
	TRY(begin_raw(w, "sprs"));
	TRY(begin_raw(w, "pmcs"));
	for (int i = 0; i < w->m->ncounters; i++)
		TRY(walk_counter(w, &w->m->counters[i]));
	TRY(end(w));
	TRY(begin_raw(w, "mmcr"));
	for (int i = 0; i < w->m->nregisters; i++)
		TRY(walk_register(w, &w->m->registers[i]));
	TRY(end(w));
	return end(w);
}

/* --- event-code fields ----------------------------------------------------- */

/* mmcr and the target_* properties of a field that lands in a register. */
static int field_target(struct walk *w, const struct pmu_field *f,
			bool in_evt_code_format)
{
	const struct pmu_reg_field *rf;

	if (f->target_reg < 0) {
		/* The RFC parser skips evt_code_format nodes without `mmcr`
		 * (so would lose PMCx); index 0 is never written back. */
		if (in_evt_code_format)
			TRY(u32p(w, "mmcr", 0, DT_DEC));
		return 0;
	}
	rf = reg_field(w, f->target_reg, f->target_field, f->name);
	if (!rf)
		return -EINVAL;
	TRY(u32p(w, "mmcr", w->m->registers[f->target_reg].index, DT_DEC));
	if (rf->layout == PMU_LAYOUT_FIXED)
		return pair(w, "target_fields", rf->lo, rf->hi);
	TRY(u32p(w, "target_field_base", rf->base, DT_DEC));
	return u32p(w, "target_field_shift", rf->stride, DT_DEC);
}

static int walk_field(struct walk *w, const struct pmu_field *f,
		      bool in_evt_code_format)
{
	const char *node = in_evt_code_format ? f->dts_name : f->name;

	TRY(check_range(w, "field", f->name, f->lo, f->hi));
	TRY(begin(w, "field", node));
	TRY(strp(w, "description", f->description));
	TRY(pair(w, "bits", f->lo, f->hi));
	TRY(u32p(w, "length", f->hi - f->lo + 1, DT_DEC));
	TRY(field_target(w, f, in_evt_code_format));
	TRY(strp(w, "field-name", f->name));
	if (f->target_reg >= 0)
		TRY(refp(w, "lands-in", f->target_reg, f->target_field, f->name));
	TRY(whenp(w, &f->when, f->name));
	if (f->parent >= 0) {
		if (f->parent >= w->m->nfields) {
			pmu_error_set(w->err, -EINVAL, "field '%s' has a parent that does not exist",
				      f->name);
			return -EINVAL;
		}
		TRY(strp(w, "parent", w->m->fields[f->parent].name));
	}
	if (f->role != PMU_ROLE_NONE)
		TRY(strp(w, "role", pmu_role_name(f->role)));
	if (f->source != PMU_SRC_CONFIG)
		TRY(strp(w, "source", pmu_source_name(f->source)));
	if (f->linux_defined)
		TRY(flagp(w, "linux-defined"));
	TRY(transformp(w, f->transform, f->transform_arg, &f->encoding));
	if (f->clear_reg >= 0)
		TRY(refp(w, "clears", f->clear_reg, f->clear_field, f->name));
	return end(w);
}

static int walk_evt_code_format(struct walk *w)
{
	TRY(begin_raw(w, "evt_code_format"));
	TRY(strp(w, "compatible", "ibm,pmus"));
	for (int i = 0; i < w->m->nfields; i++)
		if (w->m->fields[i].dts_name)
			TRY(walk_field(w, &w->m->fields[i], true));
	return end(w);
}

/* --- compute_mmcr's other inputs -------------------------------------------- */

static int walk_privilege_filters(struct walk *w)
{
	const struct pmu_model *m = w->m;
	bool any = m->branch_stack_clears.reg >= 0;

	for (int e = 0; e < PMU_EXCL_COUNT; e++)
		any = any || m->exclude[e].reg >= 0;
	if (!any)
		return 0;
	TRY(begin_raw(w, "privilege-filters"));
	for (int e = 0; e < PMU_EXCL_COUNT; e++) {
		const struct pmu_reg_ref *r = &m->exclude[e];

		if (r->reg >= 0)
			TRY(refp(w, pmu_exclude_name((enum pmu_exclude)e), r->reg,
				 r->field, pmu_exclude_name((enum pmu_exclude)e)));
	}
	if (m->branch_stack_clears.reg >= 0)
		TRY(refp(w, "branch-stack-clears", m->branch_stack_clears.reg,
			 m->branch_stack_clears.field, "branch-stack-clears"));
	return end(w);
}

/* Node name of usage bit i: the register field in lower case, with "-N"
 * when an earlier usage bit already took that name. */
static int usage_node_name(struct walk *w, int i, char *buf, size_t len)
{
	const struct pmu_usage_bit *u = &w->m->usage[i];
	const struct pmu_reg_field *f;
	char other[NAME_MAX_LEN];
	int dups = 0;

	f = reg_field(w, u->target.reg, u->target.field, "counter-usage");
	if (!f)
		return -EINVAL;
	TRY(lower_name(w, "register field", f->name, buf, len));
	for (int j = 0; j < i; j++) {
		const struct pmu_usage_bit *v = &w->m->usage[j];
		const struct pmu_reg_field *g =
			reg_field(w, v->target.reg, v->target.field, "counter-usage");

		if (!g)
			return -EINVAL;
		TRY(lower_name(w, "register field", g->name, other, sizeof(other)));
		if (strcmp(other, buf) == 0)
			dups++;
	}
	if (dups) {
		size_t n = strlen(buf);

		if (snprintf(buf + n, len - n, "-%d", dups) >= (int)(len - n)) {
			pmu_error_set(w->err, -EINVAL, "register field name too long");
			return -EINVAL;
		}
	}
	return 0;
}

static int walk_usage_bit(struct walk *w, int i)
{
	const struct pmu_usage_bit *u = &w->m->usage[i];
	const struct pmu_reg_field *f;
	char name[NAME_MAX_LEN];
	uint32_t pmcs[32];
	int n = 0;

	TRY(usage_node_name(w, i, name, sizeof(name)));
	f = &w->m->registers[u->target.reg].fields[u->target.field];
	TRY(begin_raw(w, name));
	TRY(u32p(w, "mmcr", w->m->registers[u->target.reg].index, DT_DEC));
	if (f->layout == PMU_LAYOUT_FIXED)
		TRY(u32p(w, "bit", f->lo, DT_DEC));
	for (int pmc = 1; pmc <= 31; pmc++)
		if (u->counters & (UINT32_C(1) << pmc))
			pmcs[n++] = (uint32_t)pmc;
	if (n)
		TRY(cells(w, "trigger-pmc", pmcs, n, DT_DEC));
	TRY(refp(w, "lands-in", u->target.reg, u->target.field, "counter-usage"));
	TRY(strp(w, "when", pmu_usage_when_name(u->when)));
	return end(w);
}

static int walk_usage(struct walk *w)
{
	if (w->m->nusage == 0)
		return 0;
	for (int i = 0; i < w->m->nusage; i++) {
		if (w->m->usage[i].counters & 1u) {
			pmu_error_set(w->err, -EINVAL, "counter-usage %d names counter 0 (counters are 1-based)",
				      i);
			return -EINVAL;
		}
	}
	TRY(begin_raw(w, "mmcr0-setters"));
	for (int i = 0; i < w->m->nusage; i++)
		TRY(walk_usage_bit(w, i));
	return end(w);
}

/* --- constraints ------------------------------------------------------------ */

static bool has_constraint_fields(const struct pmu_model *m)
{
	for (int i = 0; i < m->nfields; i++)
		if (!m->fields[i].dts_name)
			return true;
	return false;
}

/* The first field whose bits are exactly the constraint's source range. */
static int constraint_source_field(const struct pmu_model *m,
				   const struct pmu_constraint *c)
{
	for (int i = 0; i < m->nfields; i++) {
		const struct pmu_field *f = &m->fields[i];

		if (f->source == c->source && f->lo == c->src_lo &&
		    f->hi == c->src_hi)
			return i;
	}
	return -1;
}

static int constraint_source(struct walk *w, const struct pmu_constraint *c)
{
	int f;

	if ((c->kind != PMU_CONS_EQUAL || c->has_flag) && c->src_lo == 0 && c->src_hi == 0)
		return 0;
	TRY(check_range(w, "constraint", c->name, c->src_lo, c->src_hi));
	f = constraint_source_field(w->m, c);
	if (f >= 0)
		return strp(w, "field", w->m->fields[f].name);
	return pair(w, "bits", c->src_lo, c->src_hi);
}

/* What the RFC reads in a node of its vocabulary (rfc_vocab.h): the
 * condition and masks of parse_constraint_field, nc's mask/shift/increment,
 * or pmc-constraints' max-counter (its restricted-counters-N children come
 * after the node's properties, walk_restricted). */
static int constraint_rfc(struct walk *w, const struct pmu_constraint *c,
			  const struct pmu_rfc_cons *r)
{
	switch (r->node->form) {
	case PMU_RFC_FORM_PMC:
		return u32p(w, "max-counter", (uint32_t)w->m->ncounters, DT_DEC);
	case PMU_RFC_FORM_NC:
		TRY(u64p(w, "mask", r->constraint_mask));
		TRY(u32p(w, "shift", r->constraint_shift, DT_DEC));
		return u32p(w, "increment", r->increment, DT_DEC);
	case PMU_RFC_FORM_FIELD:
		break;
	}
	TRY(u32p(w, "condition", r->condition, DT_DEC));
	if (strcmp(c->name, "ebb") == 0 && pmu_rfc_ebb_requires_pmc(w->m))
		TRY(flagp(w, "require-pmc"));
	if (strcmp(c->name, "bhrb") == 0 && pmu_rfc_bhrb_requires_ebb(w->m))
		TRY(flagp(w, "requires-ebb"));
	if (r->has_event) {
		TRY(u32p(w, "event-mask", r->event_mask, DT_HEX));
		TRY(u32p(w, "event-shift", r->event_shift, DT_DEC));
	}
	if (!r->constraint_mask) /* a flag the RFC cannot read (rfc_vocab.c) */
		return 0;
	TRY(u64p(w, "constraint-mask", r->constraint_mask));
	return u32p(w, "constraint-shift", r->constraint_shift, DT_DEC);
}

/* pmc-constraints' restricted-counters-N { pmc; valid-events }: each fixed
 * counter and its one code, in counter order (the RFC then overwrites the
 * first two codes with 0x500fa and 0x600f4, PMC5's and PMC6's). */
static int walk_restricted(struct walk *w)
{
	char name[32];

	for (int i = 0; i < w->m->ncounters; i++) {
		if (w->m->counters[i].programmable)
			continue;
		snprintf(name, sizeof(name), "restricted-counters-%d", i + 1);
		TRY(begin_raw(w, name));
		TRY(u32p(w, "pmc", (uint32_t)(i + 1), DT_DEC));
		TRY(u64p(w, "valid-events", w->m->counters[i].fixed_code));
		TRY(end(w));
	}
	return 0;
}

static int check_constraint_name(struct walk *w, const struct pmu_constraint *c)
{
	static const char *const reserved[] = { "fields", "alternatives", "checks",
						"threshold", "cache" };

	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		if (c->name && strcmp(c->name, reserved[i]) == 0) {
			pmu_error_set(w->err, -EINVAL,
				      "constraint name '%s' is reserved in the device-tree form",
				      c->name);
			return -EINVAL;
		}
	}
	return 0;
}

static int walk_constraint(struct walk *w, const struct pmu_constraint *c)
{
	struct pmu_rfc_cons r;

	TRY(check_constraint_name(w, c));
	TRY(check_range(w, "constraint slot", c->name, c->slot_lo, c->slot_hi));
	pmu_rfc_constraint(w->m, c, &r);
	TRY(begin(w, "constraint", c->name));
	TRY(strp(w, "kind", pmu_constraint_kind_name(c->kind)));
	TRY(constraint_source(w, c));
	TRY(pair(w, "slot", c->slot_lo, c->slot_hi));
	TRY(whenp(w, &c->when, c->name));
	TRY(strp(w, "description", c->description));
	if (r.node)
		TRY(constraint_rfc(w, c, &r));
	TRY(transformp(w, c->transform, c->transform_arg, &c->encoding));
	if (c->source != PMU_SRC_CONFIG)
		TRY(strp(w, "source", pmu_source_name(c->source)));
	if (c->kind != PMU_CONS_EQUAL || c->limit != 0)
		TRY(u32p(w, "limit", c->limit, DT_DEC));
	if (c->has_flag)
		TRY(condp(w, "flag", &c->flag, c->name, true));
	if (c->group_reason) {
		TRY(u64p(w, "group-require", c->group_require));
		TRY(strp(w, "group-reason", c->group_reason));
	}
	if (r.node && r.node->form == PMU_RFC_FORM_PMC)
		TRY(walk_restricted(w));
	return end(w);
}

static const char *rfc_parent(const struct pmu_constraint *c)
{
	const struct pmu_rfc_node *n = pmu_rfc_node(c->name);

	return n ? n->parent : NULL;
}

/* The RFC's parent node (threshold, cache) with every constraint that goes
 * under it, in model order; written where its first constraint comes. */
static int walk_rfc_parent(struct walk *w, const char *parent)
{
	TRY(begin_raw(w, parent));
	if (strcmp(parent, "threshold") == 0)
		TRY(flagp(w, "supported"));
	for (int i = 0; i < w->m->nconstraints; i++) {
		const char *p = rfc_parent(&w->m->constraints[i]);

		if (p && strcmp(p, parent) == 0)
			TRY(walk_constraint(w, &w->m->constraints[i]));
	}
	return end(w);
}

/* Constraint i, or its RFC parent when i is the parent's first child. */
static int walk_constraint_at(struct walk *w, int i)
{
	const char *p = rfc_parent(&w->m->constraints[i]);

	if (!p)
		return walk_constraint(w, &w->m->constraints[i]);
	for (int j = 0; j < i; j++) {
		const char *q = rfc_parent(&w->m->constraints[j]);

		if (q && strcmp(q, p) == 0)
			return 0; /* written with the first */
	}
	return walk_rfc_parent(w, p);
}

static int walk_alternatives(struct walk *w)
{
	char name[32];

	TRY(begin_raw(w, "alternatives"));
	TRY(flagp(w, "supported"));
	for (int i = 0; i < w->m->nalternatives; i++) {
		const struct pmu_alternative *a = &w->m->alternatives[i];
		uint32_t c[8];

		if (a->ncodes < 1 || a->ncodes > 4) {
			pmu_error_set(w->err, -EINVAL, "alternative %d has %d codes (1..4 allowed)",
				      i, a->ncodes);
			return -EINVAL;
		}
		for (int j = 0; j < a->ncodes; j++) {
			c[2 * j] = (uint32_t)(a->codes[j] >> 32);
			c[2 * j + 1] = (uint32_t)a->codes[j];
		}
		snprintf(name, sizeof(name), "alt-%d", i);
		TRY(begin_raw(w, name));
		TRY(cells(w, "codes", c, 2 * a->ncodes, DT_HEX));
		if (a->per_task_only)
			TRY(flagp(w, "per-task-only"));
		TRY(end(w));
	}
	return end(w);
}

static int walk_check(struct walk *w, int i)
{
	const struct pmu_check *c = &w->m->checks[i];
	char name[32];

	snprintf(name, sizeof(name), "check-%d", i);
	TRY(begin_raw(w, name));
	TRY(strp(w, "reason", c->name));
	TRY(strp(w, "kind", pmu_check_kind_name(c->kind)));
	if (c->kind == PMU_CHECK_REJECT_WHEN)
		TRY(whenp(w, &c->when, c->name ? c->name : name));
	if (c->kind == PMU_CHECK_GROUP_AGREE && c->field >= 0) {
		if (c->field >= w->m->nfields) {
			pmu_error_set(w->err, -EINVAL, "check %d refers to a field that does not exist",
				      i);
			return -EINVAL;
		}
		TRY(strp(w, "field", w->m->fields[c->field].name));
	}
	if (c->kind == PMU_CHECK_REFUSED_CODE)
		TRY(codesp(w, "codes", c->codes, c->ncodes));
	if (c->pvr_mask) {
		TRY(u32p(w, "pvr-mask", c->pvr_mask, DT_HEX));
		TRY(u32p(w, "pvr-value", c->pvr_value, DT_HEX));
	}
	TRY(strp(w, "description", c->description));
	return end(w);
}

static int walk_constraints(struct walk *w)
{
	const struct pmu_model *m = w->m;

	if (!has_constraint_fields(m) && m->nconstraints == 0 &&
	    m->nalternatives == 0 && m->nchecks == 0)
		return 0;
	TRY(begin_raw(w, "constraints"));
	if (has_constraint_fields(m)) {
		TRY(begin_raw(w, "fields"));
		for (int i = 0; i < m->nfields; i++)
			if (!m->fields[i].dts_name)
				TRY(walk_field(w, &m->fields[i], false));
		TRY(end(w));
	}
	for (int i = 0; i < m->nconstraints; i++)
		TRY(walk_constraint_at(w, i));
	if (m->nalternatives)
		TRY(walk_alternatives(w));
	if (m->nchecks) {
		TRY(begin_raw(w, "checks"));
		for (int i = 0; i < m->nchecks; i++)
			TRY(walk_check(w, i));
		TRY(end(w));
	}
	return end(w);
}

/* --- code classes ------------------------------------------------------------ */

static int walk_code_classes(struct walk *w)
{
	if (w->m->ncode_classes == 0)
		return 0;
	TRY(begin_raw(w, "code-classes"));
	for (int i = 0; i < w->m->ncode_classes; i++) {
		const struct pmu_code_class *k = &w->m->code_classes[i];

		TRY(begin(w, "code class", k->name));
		TRY(u64p(w, "mask", k->mask));
		TRY(codesp(w, "codes", k->codes, k->ncodes));
		TRY(strp(w, "description", k->description));
		TRY(end(w));
	}
	return end(w);
}

/* --- generic and cache events ---------------------------------------------- */

static int walk_generic(struct walk *w)
{
	if (w->m->ngeneric == 0)
		return 0;
	TRY(begin_raw(w, "generic-events"));
	for (int i = 0; i < w->m->ngeneric; i++) {
		const struct pmu_generic *g = &w->m->generic[i];

		TRY(begin(w, "generic event", g->name));
		if (g->state == PMU_MAP_SUPPORTED)
			TRY(codep(w, "event_code", g->code));
		else
			TRY(flagp(w, g->state == PMU_MAP_UNSUPPORTED ?
					     "unsupported" : "invalid"));
		TRY(end(w));
	}
	return end(w);
}

/* The unsupported or invalid entries of one cache, as "op-result" words. */
static int cache_state_list(struct walk *w, int c, enum pmu_map_state state,
			    const char *prop)
{
	char words[PMU_OP_NTYPES * PMU_RESULT_NTYPES][32];
	const char *list[PMU_OP_NTYPES * PMU_RESULT_NTYPES];
	int n = 0;

	for (int op = 0; op < PMU_OP_NTYPES; op++) {
		for (int r = 0; r < PMU_RESULT_NTYPES; r++) {
			if (w->m->cache[c][op][r].state != state)
				continue;
			snprintf(words[n], sizeof(words[n]), "%s-%s",
				 pmu_cache_op_name(op), pmu_cache_result_name(r));
			list[n] = words[n];
			n++;
		}
	}
	if (n == 0)
		return 0;
	return w->s->ops->prop_strings(w->s->ctx, prop, list, n, w->err);
}

static int walk_cache(struct walk *w, int c)
{
	char prop[32];

	TRY(begin(w, "cache", pmu_cache_name(c)));
	for (int op = 0; op < PMU_OP_NTYPES; op++) {
		for (int r = 0; r < PMU_RESULT_NTYPES; r++) {
			const struct pmu_cache_entry *e = &w->m->cache[c][op][r];

			if (e->state != PMU_MAP_SUPPORTED)
				continue;
			snprintf(prop, sizeof(prop), "%s-%s", pmu_cache_op_name(op),
				 pmu_cache_result_name(r));
			TRY(u64p(w, prop, e->code));
		}
	}
	TRY(cache_state_list(w, c, PMU_MAP_UNSUPPORTED, "unsupported-ops"));
	TRY(cache_state_list(w, c, PMU_MAP_INVALID, "invalid-ops"));
	return end(w);
}

static int walk_cache_events(struct walk *w)
{
	if (!w->m->has_cache_map)
		return 0;
	TRY(begin_raw(w, "cache-events"));
	for (int c = 0; c < PMU_CACHE_NTYPES; c++)
		TRY(walk_cache(w, c));
	return end(w);
}

/* [ext] branch-filters { lands-in; filter-N { filter; value | unsupported } } */
static int walk_branch_filters(struct walk *w)
{
	const struct pmu_model *m = w->m;
	char name[32];

	if (m->nbranch_filters == 0 && m->branch_filter_target.reg < 0)
		return 0;
	TRY(begin_raw(w, "branch-filters"));
	if (m->branch_filter_target.reg >= 0)
		TRY(refp(w, "lands-in", m->branch_filter_target.reg,
			 m->branch_filter_target.field, "branch-filters lands-in"));
	for (int i = 0; i < m->nbranch_filters; i++) {
		const struct pmu_branch_filter *b = &m->branch_filters[i];

		snprintf(name, sizeof(name), "filter-%d", i);
		TRY(begin_raw(w, name));
		TRY(strp(w, "filter", b->name));
		if (b->state == PMU_MAP_SUPPORTED)
			TRY(u64p(w, "value", b->value));
		else
			TRY(flagp(w, "unsupported"));
		TRY(end(w));
	}
	return end(w);
}

/* --- events ----------------------------------------------------------------- */

/* The RFC keeps an event's node name as its sysfs name, cut to 31
 * characters (struct pmu_dts_event name[32]); the devicetree specification
 * also limits node names to 31. */
#define DT_EVENT_NAME_MAX 31

struct event_names {
	int n;
	int *index;                           /* model index, in tree order */
	char (*node)[DT_EVENT_NAME_MAX + 1];  /* node name of each */
};

/* Does one of the first upto events already have this node name? */
static bool node_name_taken(const struct event_names *t, int upto, const char *name)
{
	for (int i = 0; i < upto; i++)
		if (strcmp(t->node[i], name) == 0)
			return true;
	return false;
}

/* A name no other event of the tree has as its node name: the first 31
 * characters, else the first 31 - len("-K") and "-K" for K = 2, 3, ... */
static void short_node_name(const struct event_names *t, int i, const char *name,
			    const struct pmu_model *m)
{
	char *out = t->node[i];

	memcpy(out, name, DT_EVENT_NAME_MAX);
	out[DT_EVENT_NAME_MAX] = '\0';
	for (int k = 2;; k++) {
		bool clash = node_name_taken(t, i, out);

		for (int j = i + 1; j < t->n && !clash; j++)
			clash = strcmp(m->events[t->index[j]].name, out) == 0;
		if (!clash)
			return;
		char sfx[16];
		int ls = snprintf(sfx, sizeof(sfx), "-%d", k);

		snprintf(out, DT_EVENT_NAME_MAX + 1, "%.*s%s", DT_EVENT_NAME_MAX - ls, name, sfx);
	}
}

/* The events of the tree in order: the firmware set first (the RFC reads the
 * first 32 available children of `events`), then, with --all-events, the
 * rest, each in model order; and their node names. */
static int event_names_build(struct walk *w, struct event_names *t)
{
	const struct pmu_model *m = w->m;
	bool all = w->o && w->o->all_events;

	t->n = 0;
	t->index = malloc(sizeof(*t->index) * (size_t)(m->nevents ? m->nevents : 1));
	t->node = malloc(sizeof(*t->node) * (size_t)(m->nevents ? m->nevents : 1));
	if (!t->index || !t->node) {
		pmu_error_set(w->err, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < m->nevents; i++)
			if (pass == 0 ? m->events[i].firmware : all && !m->events[i].firmware)
				t->index[t->n++] = i;
	for (int i = 0; i < t->n; i++) {
		const char *name = m->events[t->index[i]].name;

		TRY(check_node_name(w, "event", name));
		if (strlen(name) <= DT_EVENT_NAME_MAX)
			snprintf(t->node[i], DT_EVENT_NAME_MAX + 1, "%s", name);
		else
			short_node_name(t, i, name, m);
	}
	return 0;
}

static int walk_event(struct walk *w, const struct pmu_event *e, const char *node)
{
	TRY(begin(w, "event", node));
	TRY(codep(w, "event_code", e->code));
	TRY(strp(w, "event-category", e->category));
	TRY(strp(w, "event-class", e->event_class));
	TRY(strp(w, "description", e->description));
	TRY(strp(w, "status", e->status));
	if (e->firmware)
		TRY(flagp(w, "firmware"));
	if (strcmp(node, e->name) != 0)
		TRY(strp(w, "event-name", e->name));
	if (!e->firmware && e->alias_of >= 0)
		TRY(strp(w, "alias-of", w->m->events[e->alias_of].name));
	return end(w);
}

static int walk_events(struct walk *w)
{
	struct event_names t = { 0 };
	int rc = event_names_build(w, &t);

	if (rc == 0)
		rc = begin_raw(w, "events");
	for (int i = 0; rc == 0 && i < t.n; i++)
		rc = walk_event(w, &w->m->events[t.index[i]], t.node[i]);
	if (rc == 0)
		rc = end(w);
	free(t.index);
	free(t.node);
	return rc;
}

/* --- presets ----------------------------------------------------------------- */

/* [ext] presets { NAME { events; event-codes; derived; postfix; description } } */
static int walk_preset(struct walk *w, const struct pmu_preset *p)
{
	uint32_t codes[2 * PMU_PRESET_MAX_EVENTS];
	const char *events[PMU_PRESET_MAX_EVENTS];

	if (p->nevents < 1 || p->nevents > PMU_PRESET_MAX_EVENTS) {
		pmu_error_set(w->err, -EINVAL, "preset '%s' has %d events (1..%d allowed)",
			      p->name ? p->name : "?", p->nevents, PMU_PRESET_MAX_EVENTS);
		return -EINVAL;
	}
	for (int k = 0; k < p->nevents; k++) {
		events[k] = p->events[k];
		codes[2 * k] = (uint32_t)(p->codes[k] >> 32);
		codes[2 * k + 1] = (uint32_t)p->codes[k];
	}
	TRY(begin(w, "preset", p->name));
	TRY(w->s->ops->prop_strings(w->s->ctx, "events", events, p->nevents, w->err));
	TRY(cells(w, "event-codes", codes, 2 * p->nevents, DT_HEX));
	if (p->kind != PMU_PRESET_EVENT)
		TRY(strp(w, "derived", pmu_preset_kind_name(p->kind)));
	TRY(strp(w, "postfix", p->postfix));
	TRY(strp(w, "description", p->description));
	return end(w);
}

static int walk_presets(struct walk *w)
{
	if (w->m->npresets == 0)
		return 0;
	TRY(begin_raw(w, "presets"));
	for (int i = 0; i < w->m->npresets; i++)
		TRY(walk_preset(w, &w->m->presets[i]));
	return end(w);
}

/* --- metrics ------------------------------------------------------------------ */

/* [ext] metrics { metric-N { metric-name; expr; groups; description; scale-unit;
 * threshold; aggregation; pmus } }: by index, as perf may give a name twice.
 * Only in a tree with every event (--all-events): metrics name perf's
 * events, which the firmware set lacks. */
static int walk_metrics(struct walk *w)
{
	char node[32];

	if (w->m->nmetrics == 0 || !w->o || !w->o->all_events)
		return 0;
	TRY(begin_raw(w, "metrics"));
	for (int i = 0; i < w->m->nmetrics; i++) {
		const struct pmu_metric *mt = &w->m->metrics[i];

		snprintf(node, sizeof(node), "metric-%d", i);
		TRY(begin_raw(w, node));
		TRY(strp(w, "metric-name", mt->name));
		TRY(strp(w, "expr", mt->expr));
		TRY(strp(w, "groups", mt->groups));
		TRY(strp(w, "description", mt->description));
		TRY(strp(w, "scale-unit", mt->scale_unit));
		TRY(strp(w, "threshold", mt->threshold));
		TRY(strp(w, "aggregation", mt->aggregation));
		TRY(strp(w, "pmus", mt->pmus));
		TRY(end(w));
	}
	return end(w);
}

/* --- the PMU node and the root ---------------------------------------------- */

static int walk_pmu(struct walk *w)
{
	const struct pmu_model *m = w->m;

	TRY(begin_raw(w, "pmu_dts@0"));
	TRY(strp(w, "compatible", m->compatible ? m->compatible : "ibm,power-pmu"));
	TRY(u32p(w, "reg", 0, DT_DEC));
	TRY(strp(w, "pmu-name", m->name));
	TRY(strp(w, "pmu-version", m->version));
	TRY(strp(w, "platform", m->platform));
	TRY(strp(w, "status", "okay"));
	TRY(u32p(w, "nr_pmc", (uint32_t)m->ncounters, DT_DEC));
	TRY(u32p(w, "nr_mmcr", (uint32_t)m->nregisters, DT_DEC));
	TRY(u32p(w, "max-group", m->max_group, DT_DEC));
	TRY(u32p(w, "description-format", PMU_FORMAT_VERSION, DT_DEC));
	if (m->overflow_counter_unknown)
		TRY(flagp(w, "overflow-counter-unknown"));
	if (m->pvr)
		TRY(u32p(w, "pvr", m->pvr, DT_HEX));
	if (m->npvr_versions)
		TRY(cells(w, "pvr-versions", m->pvr_versions, m->npvr_versions, DT_HEX));
	TRY(strp(w, "extends", m->extends));
	TRY(walk_sprs(w));
	TRY(walk_code_classes(w));
	TRY(walk_evt_code_format(w));
	TRY(walk_privilege_filters(w));
	TRY(walk_usage(w));
	TRY(walk_constraints(w));
	TRY(walk_generic(w));
	TRY(walk_cache_events(w));
	TRY(walk_branch_filters(w));
	TRY(walk_events(w));
	TRY(walk_presets(w));
	TRY(walk_metrics(w));
	return end(w);
}

int dt_tree_walk(const struct pmu_model *m, const struct emit_options *o,
		 const struct dt_sink *sink, struct pmu_error *err)
{
	struct walk w = { .m = m, .o = o, .s = sink, .err = err };

	TRY(begin_raw(&w, ""));
	TRY(u32p(&w, "#address-cells", 2, DT_DEC));
	TRY(u32p(&w, "#size-cells", 2, DT_DEC));
	TRY(begin_raw(&w, "pmus"));
	TRY(u32p(&w, "#address-cells", 1, DT_DEC));
	TRY(u32p(&w, "#size-cells", 0, DT_DEC));
	TRY(walk_pmu(&w));
	TRY(end(&w));
	return end(&w);
}
