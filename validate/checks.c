/*
 * checks.c - named semantic checks of a PMU description (pmu_checks.h).
 *
 * Shared by pmugen and libpmurt's DTB/device-tree loaders.  Each check
 * reports through pmu_report() under its name, so `-W no-NAME` silences it
 * and `-E NAME` makes it an error, as dtc's checks do.
 */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmu_checks.h"

/* RFC parser limits (arch/powerpc/perf/dts_pmu.c, see shared notes). */
#define KERNEL_MAX_FIELDS 17
#define KERNEL_MAX_EVENTS 32
#define KERNEL_MAX_NAME 31
#define KERNEL_MAX_MMCR 5
#define KERNEL_MAX_PMC 6

static uint64_t covered_bits(const struct pmu_model *m)
{
	uint64_t mask = 0;
	for (int i = 0; i < m->nfields; i++)
		if (m->fields[i].source == PMU_SRC_CONFIG)
			mask |= pmu_bits_mask(m->fields[i].lo, m->fields[i].hi);
	return mask;
}

static uint64_t linux_bits(const struct pmu_model *m)
{
	uint64_t mask = 0;
	for (int i = 0; i < m->nfields; i++)
		if (m->fields[i].linux_defined && m->fields[i].source == PMU_SRC_CONFIG)
			mask |= pmu_bits_mask(m->fields[i].lo, m->fields[i].hi);
	return mask;
}

static int pmc_field(const struct pmu_model *m)
{
	for (int i = 0; i < m->nfields; i++)
		if (m->fields[i].role == PMU_ROLE_PMC)
			return i;
	return -1;
}

/* One bit of a 64-bit Bloom filter per refused code. */
static unsigned refused_bloom_bit(uint64_t code)
{
	return (unsigned)((code * 0x9e3779b97f4a7c15ull) >> 58);
}

/* A condition that is not one masked compare: what must hold for it to
 * hold ("FIELD is N" and "FIELD is nonzero" terms); false when no term
 * narrows it (the screen then lets every event through). */
static bool guard_add(struct pmu_check_ctx *ctx, const struct pmu_ccond *c)
{
	if (ctx->nguarded == PMU_MAX_GUARDS)
		return false;
	typeof(ctx->guarded[0]) *g = &ctx->guarded[ctx->nguarded];
	*g = (typeof(*g)){0};
	for (int i = 0; i < c->n; i++) {
		const struct pmu_extract *x = &c->t[i].x;
		uint64_t m = x->mask << x->shift;
		if (c->t[i].span != 0 || c->t[i].cls)
			continue;
		if (!c->t[i].negate) {
			g->mask[x->word] |= m;
			g->value[x->word] |= (c->t[i].lo << x->shift) & m;
		} else if (c->t[i].lo == 0) {
			g->nonzero[g->nnonzero].mask = m;
			g->nonzero[g->nnonzero++].word = x->word;
		}
	}
	if (!g->mask[0] && !g->mask[1] && !g->nnonzero)
		return false;
	ctx->nguarded++;
	return true;
}

/* A simple condition on one contiguous config field of at most 6 bits goes
 * into that field's set of refused values; false for any other. */
static bool set_add(struct pmu_check_ctx *ctx, const struct pmu_ccond *c)
{
	uint64_t m = c->eq_mask[0];
	if (c->eq_mask[1] || !m)
		return false;
	unsigned shift = (unsigned)__builtin_ctzll(m);
	uint64_t field = m >> shift;
	if (field & (field + 1) || field > 63)
		return false;
	int i = 0;
	while (i < ctx->nsets && ctx->sets[i].mask != m)
		i++;
	if (i == PMU_MAX_SETS)
		return false;
	if (i == ctx->nsets)
		ctx->sets[ctx->nsets++] = (typeof(ctx->sets[0])){.mask = m, .shift = (uint8_t)shift};
	ctx->sets[i].values |= 1ull << (c->eq_value[0] >> shift);
	return true;
}

/* Put one compiled check into the quick screen. */
static void screen_add(struct pmu_check_ctx *ctx, const struct pmu_ccheck *c)
{
	switch (c->kind) {
	case PMU_CHECK_REJECT_WHEN:
		if (c->when.simple && set_add(ctx, &c->when)) {
			break;
		} else if (c->when.simple) {
			memcpy(ctx->simple[ctx->nsimple].mask, c->when.eq_mask, sizeof(c->when.eq_mask));
			memcpy(ctx->simple[ctx->nsimple++].value, c->when.eq_value,
			       sizeof(c->when.eq_value));
		} else if (!guard_add(ctx, &c->when)) {
			ctx->has_complex = true;
		}
		break;
	case PMU_CHECK_REFUSED_CODE:
		ctx->has_refused = true;
		for (int i = 0; i < c->ncodes; i++)
			ctx->refused_bloom |= 1ull << refused_bloom_bit(c->codes[i]);
		break;
	case PMU_CHECK_RESERVED_BITS: ctx->has_reserved = true; break;
	case PMU_CHECK_COUNTER_EXISTS: ctx->has_counter = true; break;
	case PMU_CHECK_FIXED_COUNTER: ctx->has_fixed = true; break;
	case PMU_CHECK_GROUP_SIZE: ctx->has_size = true; break;
	case PMU_CHECK_GROUP_AGREE: ctx->agree[ctx->nagree++] = c->field; break;
	case PMU_CHECK_KIND_COUNT: break;
	}
}

/* The guard of complex check i: can its condition hold? */
static bool guard_holds(const struct pmu_check_ctx *ctx, int i, uint64_t config,
			uint64_t config1)
{
	const uint64_t w[2] = {config, config1};
	const typeof(ctx->guarded[0]) *g = &ctx->guarded[i];
	if ((config & g->mask[0]) != g->value[0] || (config1 & g->mask[1]) != g->value[1])
		return false;
	for (int k = 0; k < g->nnonzero; k++)
		if (!(w[g->nonzero[k].word] & g->nonzero[k].mask))
			return false;
	return true;
}

/* Could any check fail?  false means the event passes them all; true sends
 * it through the ordered list to find the first one. */
static bool screen_may_fail(const struct pmu_model *m, const struct pmu_check_ctx *ctx,
			    uint64_t config, uint64_t config1, uint64_t pmc,
			    const struct pmu_group_place *place)
{
	if (ctx->has_complex || (ctx->has_reserved && (config & ~ctx->covered)) ||
	    (ctx->has_refused && (ctx->refused_bloom >> refused_bloom_bit(config) & 1)) ||
	    (ctx->has_size && place->index >= (int)m->max_group))
		return true;
	/* the counter checks fail exactly so: a counter past the last, or a
	 * fixed counter's code other than its own (Linux bits aside) */
	if (ctx->has_counter && pmc > (uint64_t)m->ncounters)
		return true;
	if (ctx->has_fixed && pmc && pmc <= (uint64_t)m->ncounters &&
	    !m->counters[pmc - 1].programmable &&
	    (config & ~ctx->linux_bits) != m->counters[pmc - 1].fixed_code)
		return true;
	for (int i = 0; i < ctx->nsets; i++)
		if (ctx->sets[i].values >> ((config & ctx->sets[i].mask) >> ctx->sets[i].shift) & 1)
			return true;
	for (int i = 0; i < ctx->nsimple; i++)
		if ((config & ctx->simple[i].mask[0]) == ctx->simple[i].value[0] &&
		    (config1 & ctx->simple[i].mask[1]) == ctx->simple[i].value[1])
			return true;
	for (int i = 0; i < ctx->nguarded; i++)
		if (guard_holds(ctx, i, config, config1))
			return true;
	for (int i = 0; i < ctx->nagree; i++)
		if (pmu_extract(&ctx->agree[i], config, config1) !=
		    pmu_extract(&ctx->agree[i], place->leader_config, 0))
			return true;
	return false;
}

int pmu_check_ctx_init(struct pmu_check_ctx *ctx, const struct pmu_model *m)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->covered = covered_bits(m);
	ctx->linux_bits = linux_bits(m);
	ctx->pmc_field = pmc_field(m);
	if (ctx->pmc_field >= 0)
		ctx->pmc = pmu_field_extract(&m->fields[ctx->pmc_field]);
	if (m->nchecks > PMU_MAX_CHECKS)
		return -E2BIG;
	ctx->nchecks = m->nchecks;
	for (int i = 0; i < m->nchecks; i++) {
		const struct pmu_check *k = &m->checks[i];
		struct pmu_ccheck *c = &ctx->checks[i];
		c->kind = k->kind;
		c->inactive = !pmu_check_applies(k, m->pvr);
		if (c->inactive)
			continue;
		pmu_condition_compile(m, &k->when, &c->when);
		if (k->field >= 0)
			c->field = pmu_field_extract(&m->fields[k->field]);
		c->codes = k->codes;
		c->ncodes = k->ncodes;
		screen_add(ctx, c);
	}
	return 0;
}

/* A linear scan, as the kernel's is_event_blacklisted: the lists are short
 * (16 codes on POWER9 DD2.2) and checked once per perf_event_open. */
static bool code_listed(const uint64_t *codes, int n, uint64_t code)
{
	for (int i = 0; i < n; i++)
		if (codes[i] == code)
			return true;
	return false;
}

static bool check_fails(const struct pmu_model *m, const struct pmu_check_ctx *ctx,
			const struct pmu_ccheck *k, uint64_t config, uint64_t config1,
			uint64_t pmc, const struct pmu_group_place *place)
{
	if (k->inactive)
		return false;
	switch (k->kind) {
	case PMU_CHECK_REFUSED_CODE:
		return (ctx->refused_bloom >> refused_bloom_bit(config) & 1) &&
		       code_listed(k->codes, k->ncodes, config);
	case PMU_CHECK_RESERVED_BITS:
		return (config & ~ctx->covered) != 0;
	case PMU_CHECK_REJECT_WHEN:
		return pmu_ccond_holds(&k->when, config, config1);
	case PMU_CHECK_COUNTER_EXISTS:
		return pmc > (uint64_t)m->ncounters;
	case PMU_CHECK_FIXED_COUNTER:
		return pmc >= 1 && pmc <= (uint64_t)m->ncounters &&
		       !m->counters[pmc - 1].programmable &&
		       (config & ~ctx->linux_bits) != m->counters[pmc - 1].fixed_code;
	case PMU_CHECK_GROUP_AGREE:
		return pmu_extract(&k->field, config, config1) !=
		       pmu_extract(&k->field, place->leader_config, 0);
	case PMU_CHECK_GROUP_SIZE:
		return place->index >= (int)m->max_group;
	case PMU_CHECK_KIND_COUNT:
		break;
	}
	return false;
}

int pmu_event_first_failing_check(const struct pmu_model *m,
				  const struct pmu_check_ctx *ctx, uint64_t config,
				  uint64_t config1, const struct pmu_group_place *place)
{
	uint64_t pmc = ctx->pmc_field >= 0 ? pmu_extract(&ctx->pmc, config, 0) : 0;
	if (!screen_may_fail(m, ctx, config, config1, pmc, place))
		return -1;
	for (int i = 0; i < ctx->nchecks; i++)
		if (check_fails(m, ctx, &ctx->checks[i], config, config1, pmc, place))
			return i;
	return -1;
}

/* --- fields ----------------------------------------------------------------- */
static bool ranges_overlap(uint32_t alo, uint32_t ahi, uint32_t blo, uint32_t bhi)
{
	return alo <= bhi && blo <= ahi;
}

static int check_fields(const struct pmu_model *m, struct pmu_diag *d)
{
	int rc = 0;
	for (int i = 0; i < m->nfields; i++) {
		const struct pmu_field *a = &m->fields[i];
		if (a->parent >= 0) {
			const struct pmu_field *p = &m->fields[a->parent];
			if (a->lo < p->lo || a->hi > p->hi)
				rc |= pmu_report(d, PMU_CHK_FIELD_OVERLAP, &a->pos,
						 "field '%s' [%u, %u] lies outside its parent '%s' [%u, %u]",
						 a->name, a->lo, a->hi, p->name, p->lo, p->hi) == PMU_SEV_ERROR;
		}
		for (int j = i + 1; j < m->nfields; j++) {
			const struct pmu_field *b = &m->fields[j];
			if (a->parent != b->parent || a->source != b->source ||
			    !ranges_overlap(a->lo, a->hi, b->lo, b->hi))
				continue;
			const struct pmu_field *later = a->pos.line > b->pos.line ? a : b;
			const struct pmu_field *other = later == a ? b : a;
			rc |= pmu_report(d, PMU_CHK_FIELD_OVERLAP, &later->pos,
					 "field '%s' [%u, %u] overlaps field '%s' [%u, %u]",
					 later->name, later->lo, later->hi, other->name, other->lo,
					 other->hi) == PMU_SEV_ERROR;
		}
	}
	return rc;
}

/* --- registers ------------------------------------------------------------ */
/* Bits a register field occupies for one PMC (or its fixed range); 0 when it
 * does not fit the register. */
static uint64_t reg_field_bits(const struct pmu_register *r, const struct pmu_reg_field *f,
			       int pmc, bool *fits)
{
	int64_t lo = f->layout == PMU_LAYOUT_FIXED ? f->lo
						   : (int64_t)f->base - (int64_t)pmc * f->stride;
	int64_t hi = f->layout == PMU_LAYOUT_FIXED ? f->hi : lo + (int64_t)f->width - 1;
	*fits = lo >= 0 && hi < (int64_t)r->width && hi < 64 && lo <= hi;
	return *fits ? pmu_bits_mask((uint32_t)lo, (uint32_t)hi) : 0;
}

static int programmable_counters(const struct pmu_model *m)
{
	int n = 0;
	for (int i = 0; i < m->ncounters; i++)
		n += m->counters[i].programmable;
	return n;
}

static int check_register(const struct pmu_model *m, const struct pmu_register *r,
			  struct pmu_diag *d)
{
	int rc = 0;
	int npmc = programmable_counters(m);
	uint64_t used = 0;
	if (r->width != 32 && r->width != 64)
		rc |= pmu_report(d, PMU_CHK_REGISTER_LAYOUT, &r->pos,
				 "register %s: width %u is neither 32 nor 64", r->name,
				 r->width) == PMU_SEV_ERROR;
	for (int i = 0; i < r->nfields; i++) {
		const struct pmu_reg_field *f = &r->fields[i];
		int last = f->layout == PMU_LAYOUT_FIXED ? 1 : npmc;
		for (int pmc = 1; pmc <= last; pmc++) {
			bool fits;
			uint64_t bits = reg_field_bits(r, f, pmc, &fits);
			if (!fits) {
				rc |= pmu_report(d, PMU_CHK_REGISTER_LAYOUT, &f->pos,
						 "%s.%s does not fit the %u-bit register (for PMC%d)",
						 r->name, f->name, r->width, pmc) == PMU_SEV_ERROR;
				break;
			}
			if (used & bits)
				rc |= pmu_report(d, PMU_CHK_REGISTER_LAYOUT, &f->pos,
						 "%s.%s overlaps another field of %s (for PMC%d)",
						 r->name, f->name, r->name, pmc) == PMU_SEV_ERROR;
			used |= bits;
		}
	}
	return rc;
}

static int check_registers(const struct pmu_model *m, struct pmu_diag *d)
{
	int rc = 0;
	for (int i = 0; i < m->nregisters; i++)
		rc |= check_register(m, &m->registers[i], d);
	return rc;
}

/* --- counters ------------------------------------------------------------- */
static int check_counters(const struct pmu_model *m, struct pmu_diag *d)
{
	int rc = 0;
	for (int i = 0; i < m->ncounters; i++) {
		const struct pmu_counter *k = &m->counters[i];
		if (k->width != 32 && k->width != 64)
			rc |= pmu_report(d, PMU_CHK_REGISTER_LAYOUT, &k->pos,
					 "counter %s: width %u is neither 32 nor 64", k->name,
					 k->width) == PMU_SEV_ERROR;
		if (k->programmable)
			continue;
		int e = pmu_model_event(m, k->event);
		int g = -1;
		for (int j = 0; j < m->ngeneric; j++)
			if (strcmp(m->generic[j].name, k->event) == 0)
				g = j;
		if (e < 0 && g < 0) {
			rc |= pmu_report(d, PMU_CHK_UNKNOWN_REF, &k->pos,
					 "counter %s counts '%s', which is no event", k->name,
					 k->event) == PMU_SEV_ERROR;
			continue;
		}
		uint64_t code = e >= 0 ? m->events[e].code : m->generic[g].code;
		if (code != k->fixed_code)
			rc |= pmu_report(d, PMU_CHK_FIXED_COUNTER, &k->pos,
					 "counter %s takes code 0x%llx but '%s' is 0x%llx", k->name,
					 (unsigned long long)k->fixed_code, k->event,
					 (unsigned long long)code) == PMU_SEV_ERROR;
	}
	return rc;
}

/* --- constraints ---------------------------------------------------------- */
static int check_constraints(const struct pmu_model *m, struct pmu_diag *d)
{
	int rc = 0;
	int npmc = m->ncounters;
	for (int i = 0; i < m->nconstraints; i++) {
		const struct pmu_constraint *a = &m->constraints[i];
		uint32_t a_hi = a->kind == PMU_CONS_PER_PMC
					? a->slot_lo + npmc * (a->slot_hi - a->slot_lo + 1) - 1
					: a->slot_hi;
		if (a_hi > 63)
			rc |= pmu_report(d, PMU_CHK_CONSTRAINT_FIELD, &a->pos,
					 "constraint '%s' needs constraint-word bits up to %u", a->name,
					 a_hi) == PMU_SEV_ERROR;
		uint32_t width = a->slot_hi - a->slot_lo + 1;
		if (a->kind != PMU_CONS_EQUAL &&
		    (width < 2 || width > 32 || a->limit < 1 ||
		     (uint64_t)a->limit > (1ULL << (width - 1)) - 1))
			rc |= pmu_report(d, PMU_CHK_CONSTRAINT_FIELD, &a->pos,
					 "constraint '%s': a %u-bit adder slot counts 1 to %llu users, not %u",
					 a->name, width,
					 width >= 2 && width <= 32 ? (unsigned long long)((1ULL << (width - 1)) - 1) : 0ULL,
					 a->limit) == PMU_SEV_ERROR;
		if (a->kind == PMU_CONS_EQUAL && a->transform == PMU_XF_NONE &&
		    a->src_hi - a->src_lo != a->slot_hi - a->slot_lo)
			rc |= pmu_report(d, PMU_CHK_CONSTRAINT_FIELD, &a->pos,
					 "constraint '%s' takes %u bits but its slot holds %u",
					 a->name, a->src_hi - a->src_lo + 1,
					 a->slot_hi - a->slot_lo + 1) == PMU_SEV_ERROR;
		for (int j = 0; j < i; j++) {
			const struct pmu_constraint *b = &m->constraints[j];
			uint32_t b_hi = b->kind == PMU_CONS_PER_PMC
						? b->slot_lo + npmc * (b->slot_hi - b->slot_lo + 1) - 1
						: b->slot_hi;
			if (ranges_overlap(a->slot_lo, a_hi, b->slot_lo, b_hi))
				rc |= pmu_report(d, PMU_CHK_CONSTRAINT_FIELD, &a->pos,
						 "constraint '%s' slot overlaps constraint '%s'",
						 a->name, b->name) == PMU_SEV_ERROR;
		}
	}
	return rc;
}

/* --- mantissa-exponent encodings ---------------------------------------------- */
/* The encoding of the clamp (the largest value, with the largest exponent)
 * must not be reserved and its exponent must fit; mantissa + exponent bits
 * must be as wide as where the encoding goes (dest_bits; 0: nowhere). */
static int check_encoding(const struct pmu_thresh_encoding *e, const char *what,
			  const char *name, uint32_t dest_bits, const char *dest,
			  const struct pmu_pos *pos, struct pmu_diag *d)
{
	int rc = 0;
	uint64_t top = pmu_thresh_encode(e, e->clamp), exp = top >> e->mantissa_bits;
	if (top == 0)
		rc |= pmu_report(d, PMU_CHK_TRANSFORM_ENCODING, pos,
				 "%s '%s': clamp %llu encodes as reserved (its mantissa has no "
				 "normalized-mask bit)", what, name,
				 (unsigned long long)e->clamp) == PMU_SEV_ERROR;
	else if (exp >> e->exponent_bits)
		rc |= pmu_report(d, PMU_CHK_TRANSFORM_ENCODING, pos,
				 "%s '%s': clamp %llu encodes with exponent %llu, more than %u "
				 "exponent bits hold", what, name, (unsigned long long)e->clamp,
				 (unsigned long long)exp, e->exponent_bits) == PMU_SEV_ERROR;
	uint32_t width = e->mantissa_bits + e->exponent_bits;
	if (dest_bits && dest_bits != width)
		rc |= pmu_report(d, PMU_CHK_TRANSFORM_ENCODING, pos,
				 "%s '%s': the encoding is %u bits (mantissa %u + exponent %u) "
				 "but %s holds %u", what, name, width, e->mantissa_bits,
				 e->exponent_bits, dest, dest_bits) == PMU_SEV_ERROR;
	return rc;
}

static int check_encodings(const struct pmu_model *m, struct pmu_diag *d)
{
	int rc = 0;
	for (int i = 0; i < m->nfields; i++) {
		const struct pmu_field *f = &m->fields[i];
		if (f->transform != PMU_XF_MANTISSA_EXPONENT)
			continue;
		uint32_t bits = 0;
		char dest[160] = "";
		if (f->target_reg >= 0 && f->target_reg < m->nregisters &&
		    f->target_field >= 0 && f->target_field < m->registers[f->target_reg].nfields) {
			const struct pmu_register *r = &m->registers[f->target_reg];
			const struct pmu_reg_field *t = &r->fields[f->target_field];
			bits = t->layout == PMU_LAYOUT_PER_PMC ? t->width : t->hi - t->lo + 1;
			snprintf(dest, sizeof(dest), "%s.%s", r->name, t->name);
		}
		rc |= check_encoding(&f->encoding, "field", f->name, bits, dest, &f->pos, d);
	}
	for (int i = 0; i < m->nconstraints; i++) {
		const struct pmu_constraint *c = &m->constraints[i];
		if (c->transform == PMU_XF_MANTISSA_EXPONENT)
			rc |= check_encoding(&c->encoding, "constraint", c->name,
					     c->kind == PMU_CONS_EQUAL ? c->slot_hi - c->slot_lo + 1 : 0,
					     "its slot", &c->pos, d);
	}
	return rc;
}

/* --- events --------------------------------------------------------------- */
static int check_event(const struct pmu_model *m, const struct pmu_check_ctx *ctx,
		       const struct pmu_event *e, struct pmu_diag *d)
{
	int rc = 0;
	uint64_t stray = e->code & ~ctx->covered;
	if (stray)
		rc |= pmu_report(d, PMU_CHK_UNCOVERED_BITS, &e->pos,
				 "event '%s' code 0x%llx sets bits 0x%llx that no field covers",
				 e->name, (unsigned long long)e->code,
				 (unsigned long long)stray) == PMU_SEV_ERROR;
	int pf = ctx->pmc_field;
	uint64_t pmc = pf >= 0 ? pmu_field_value(&m->fields[pf], e->code, 0) : 0;
	if (pmc > (uint64_t)m->ncounters)
		rc |= pmu_report(d, PMU_CHK_PMC_RANGE, &e->pos,
				 "event '%s' asks for PMC%llu but there are %d counters", e->name,
				 (unsigned long long)pmc, m->ncounters) == PMU_SEV_ERROR;
	else if (pmc && !m->counters[pmc - 1].programmable &&
		 (e->code & ~ctx->linux_bits) != m->counters[pmc - 1].fixed_code)
		rc |= pmu_report(d, PMU_CHK_FIXED_COUNTER, &e->pos,
				 "event '%s' (0x%llx) is put on fixed counter %s, which counts only 0x%llx",
				 e->name, (unsigned long long)e->code, m->counters[pmc - 1].name,
				 (unsigned long long)m->counters[pmc - 1].fixed_code) == PMU_SEV_ERROR;
	struct pmu_group_place alone = {e->code, 0};
	int k = pmu_event_first_failing_check(m, ctx, e->code, 0, &alone);
	/* a processor revision refusing an event on purpose is no fault of
	 * the description */
	if (k >= 0 && m->checks[k].kind != PMU_CHECK_REFUSED_CODE)
		rc |= pmu_report(d, PMU_CHK_UNSCHEDULABLE, &e->pos,
				 "event '%s' (0x%llx) cannot be scheduled even alone: %s (%s)",
				 e->name, (unsigned long long)e->code, m->checks[k].description,
				 m->checks[k].name) == PMU_SEV_ERROR;
	return rc;
}

/* Event indices sorted by name without case, or by (code, firmware), then by
 * index, so that duplicates sit next to each other, first one first. */
static int by_name(const void *x, const void *y, void *ctx)
{
	const struct pmu_event *ev = ctx;
	int a = *(const int *)x, b = *(const int *)y;
	int c = strcasecmp(ev[a].name, ev[b].name);
	return c ? c : a - b;
}

static int by_code(const void *x, const void *y, void *ctx)
{
	const struct pmu_event *ev = ctx;
	int a = *(const int *)x, b = *(const int *)y;
	if (ev[a].code != ev[b].code)
		return ev[a].code < ev[b].code ? -1 : 1;
	if (ev[a].firmware != ev[b].firmware)
		return ev[a].firmware ? 1 : -1;
	return a - b;
}

/* Report every event that repeats the name, or the code, of an earlier one
 * (a firmware event may share the code of an imported one: it is its alias). */
static int check_duplicates(const struct pmu_model *m, struct pmu_diag *d, bool names)
{
	int n = m->nevents, rc = 0;
	int *order = malloc((n ? n : 1) * sizeof(*order));
	if (!order)
		return pmu_report_oom(d, NULL) != 0;
	for (int i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), names ? by_name : by_code, m->events);
	for (int k = 1, first = 0; k < n; k++) {
		const struct pmu_event *a = &m->events[order[first]], *b = &m->events[order[k]];
		bool same = names ? strcasecmp(a->name, b->name) == 0
				  : a->code == b->code && a->firmware == b->firmware;
		/* a perf event declared the alias of one with its code (alias-of) */
		if (!names && same && !b->firmware && b->alias_of == order[first])
			continue;
		if (!same) {
			first = k;
			continue;
		}
		if (names)
			rc |= pmu_report(d, PMU_CHK_DUP_EVENT_NAME, &b->pos,
					 "event name '%s' is used twice (first at %s:%d:%d)", b->name,
					 a->pos.file ? a->pos.file : "?", a->pos.line, a->pos.col) ==
			      PMU_SEV_ERROR;
		else
			rc |= pmu_report(d, PMU_CHK_DUP_EVENT_CODE, &b->pos,
					 "event '%s' has the code 0x%llx of event '%s'", b->name,
					 (unsigned long long)b->code, a->name) == PMU_SEV_ERROR;
	}
	free(order);
	return rc;
}

static int check_events(const struct pmu_model *m, struct pmu_diag *d)
{
	struct pmu_pos top = {m->source, 0, 0};
	struct pmu_check_ctx *ctx = malloc(sizeof(*ctx));
	int rc = 0;
	if (!ctx)
		return pmu_report_oom(d, &top) != 0;
	if (pmu_check_ctx_init(ctx, m)) {
		free(ctx);
		return pmu_report(d, -1, &top, "more than %d checks", PMU_MAX_CHECKS) ==
		       PMU_SEV_ERROR;
	}
	for (int i = 0; i < m->nevents; i++)
		rc |= check_event(m, ctx, &m->events[i], d);
	free(ctx);
	rc |= check_duplicates(m, d, true);
	rc |= check_duplicates(m, d, false);
	return rc;
}

/* --- presets ---------------------------------------------------------------- */
/* A derived preset's value needs its events' counts over the same time, so
 * they must fit in one group (PAPI adds them to one event set): no more than
 * max-group of them, and no two asking for the same counter (the kernel's
 * per-PMC constraint) unless one has an alternative on another counter,
 * which power_check_constraints' search can take (POWER8's PM_LD_MISS_L1
 * 0x3e054 on PMC3 beside PM_ST_MISS_L1 moves to 0x400f0 on PMC4).  The full
 * group check is libpmurt's (pmutool describe shows it). */
static bool moves_off(const struct pmu_model *m, int pf, uint64_t code, uint64_t pmc)
{
	for (int i = 0; i < m->nalternatives; i++) {
		const struct pmu_alternative *a = &m->alternatives[i];
		bool listed = false, elsewhere = false;
		for (int k = 0; k < a->ncodes; k++) {
			listed |= a->codes[k] == code;
			elsewhere |= pmu_field_value(&m->fields[pf], a->codes[k], 0) != pmc;
		}
		if (listed && elsewhere)
			return true;
	}
	return false;
}

static int check_preset(const struct pmu_model *m, int pf, const struct pmu_preset *p,
			struct pmu_diag *d)
{
	if (p->kind == PMU_PRESET_EVENT)
		return 0;
	if ((uint32_t)p->nevents > m->max_group)
		return pmu_report(d, PMU_CHK_PRESET_MEMBERS, &p->pos,
				  "preset '%s' combines %d events, more than one group holds (%u)",
				  p->name, p->nevents, m->max_group) == PMU_SEV_ERROR;
	for (int a = 0; pf >= 0 && a < p->nevents; a++) {
		uint64_t pmc = pmu_field_value(&m->fields[pf], p->codes[a], 0);
		for (int b = a + 1; pmc && b < p->nevents; b++)
			if (pmu_field_value(&m->fields[pf], p->codes[b], 0) == pmc &&
			    !moves_off(m, pf, p->codes[a], pmc) && !moves_off(m, pf, p->codes[b], pmc))
				return pmu_report(d, PMU_CHK_PRESET_MEMBERS, &p->pos,
						  "preset '%s': events %s and %s both need PMC%llu, "
						  "so they cannot be counted together", p->name,
						  p->events[a], p->events[b],
						  (unsigned long long)pmc) == PMU_SEV_ERROR;
	}
	return 0;
}

static int check_presets(const struct pmu_model *m, struct pmu_diag *d)
{
	int rc = 0, pf = pmc_field(m);
	for (int i = 0; i < m->npresets; i++)
		rc |= check_preset(m, pf, &m->presets[i], d);
	return rc;
}

/* --- what the kernel RFC parser accepts ------------------------------------ */
static int check_kernel_limits(const struct pmu_model *m, struct pmu_diag *d,
			       bool all_events)
{
	int rc = 0, nfields = 0, nevents = 0;
	struct pmu_pos top = {m->source, 0, 0};
	for (int i = 0; i < m->nfields; i++) {
		const struct pmu_field *f = &m->fields[i];
		nfields += f->dts_name != NULL;
		if (f->role == PMU_ROLE_PMC && (!f->dts_name || strcmp(f->dts_name, "PMCx")))
			rc |= pmu_report(d, PMU_CHK_KERNEL_LIMITS, &f->pos,
					 "the counter field must be emitted as node 'PMCx' for the kernel to find it") ==
			      PMU_SEV_ERROR;
	}
	if (nfields > KERNEL_MAX_FIELDS)
		rc |= pmu_report(d, PMU_CHK_KERNEL_LIMITS, &top,
				 "%d evt_code_format fields; the kernel reads only the first %d",
				 nfields, KERNEL_MAX_FIELDS) == PMU_SEV_ERROR;
	if (m->nregisters > KERNEL_MAX_MMCR || m->ncounters > KERNEL_MAX_PMC)
		rc |= pmu_report(d, PMU_CHK_KERNEL_LIMITS, &top,
				 "%d registers and %d counters; the kernel handles %d and %d",
				 m->nregisters, m->ncounters, KERNEL_MAX_MMCR, KERNEL_MAX_PMC) ==
		      PMU_SEV_ERROR;
	/* one report for the long names, at the first: --all-events trees hold
	 * dozens, and the node names are cut anyway (event-name keeps them) */
	const struct pmu_event *first_long = NULL;
	int nlong = 0;
	for (int i = 0; i < m->nevents; i++) {
		const struct pmu_event *e = &m->events[i];
		if (!all_events && !e->firmware)
			continue;
		nevents += strcmp(e->status, "okay") == 0;
		if (strlen(e->name) > KERNEL_MAX_NAME && nlong++ == 0)
			first_long = e;
	}
	if (nlong == 1)
		rc |= pmu_report(d, PMU_CHK_KERNEL_LIMITS, &first_long->pos,
				 "event name '%s' is longer than %d characters", first_long->name,
				 KERNEL_MAX_NAME) == PMU_SEV_ERROR;
	else if (nlong > 1)
		rc |= pmu_report(d, PMU_CHK_KERNEL_LIMITS, &first_long->pos,
				 "%d event names are longer than %d characters, the first '%s'", nlong,
				 KERNEL_MAX_NAME, first_long->name) == PMU_SEV_ERROR;
	if (nevents > KERNEL_MAX_EVENTS)
		rc |= pmu_report(d, PMU_CHK_KERNEL_LIMITS, &top,
				 "%d events in the tree; the kernel reads only the first %d",
				 nevents, KERNEL_MAX_EVENTS) == PMU_SEV_ERROR;
	return rc;
}

int pmu_check_model(const struct pmu_model *m, struct pmu_diag *d, bool all_events)
{
	int rc = 0;
	rc |= check_fields(m, d);
	rc |= check_registers(m, d);
	rc |= check_counters(m, d);
	rc |= check_constraints(m, d);
	rc |= check_encodings(m, d);
	rc |= check_events(m, d);
	rc |= check_presets(m, d);
	rc |= check_kernel_limits(m, d, all_events);
	pmu_check_rfc(m, d, all_events);
	return rc ? -EINVAL : 0;
}
