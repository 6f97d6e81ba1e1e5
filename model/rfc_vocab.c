/*
 * rfc_vocab.c - the kernel RFC's constraint vocabulary (rfc_vocab.h): its
 * node names and the condition codes, masks and shifts a model's constraint
 * becomes when written in it.  Followed: the RFC's dts_pmu.c
 * parse_constraints()/parse_constraint_field() and isa207-common.c
 * isa207_get_constraint_dts()/constraint_enabled()/apply_constraint()
 * (patch 3, as described in schema/dts-layout.md).
 */
#include "rfc_vocab.h"

#include <stddef.h>
#include <string.h>

static const struct pmu_rfc_node rfc_nodes[] = {
	{ "pmc-constraints", NULL, PMU_RFC_FORM_PMC },
	{ "sample", NULL, PMU_RFC_FORM_FIELD },
	{ "thresh-sel", "threshold", PMU_RFC_FORM_FIELD },
	{ "thresh-cmp", "threshold", PMU_RFC_FORM_FIELD },
	{ "thresh-ctl", "threshold", PMU_RFC_FORM_FIELD },
	{ "cache-group", "cache", PMU_RFC_FORM_FIELD },
	{ "cache-pmc4", "cache", PMU_RFC_FORM_FIELD },
	{ "l2l3-group", "cache", PMU_RFC_FORM_FIELD },
	{ "ebb", NULL, PMU_RFC_FORM_FIELD },
	{ "bhrb", NULL, PMU_RFC_FORM_FIELD },
	{ "l1-qualifier", NULL, PMU_RFC_FORM_FIELD },
	{ "fab-match", NULL, PMU_RFC_FORM_FIELD },
	{ "radix-scope", NULL, PMU_RFC_FORM_FIELD },
	{ "nc", NULL, PMU_RFC_FORM_NC },
};

const struct pmu_rfc_node *pmu_rfc_node(const char *name)
{
	for (size_t i = 0; name && i < sizeof(rfc_nodes) / sizeof(rfc_nodes[0]); i++)
		if (strcmp(rfc_nodes[i].name, name) == 0)
			return &rfc_nodes[i];
	return NULL;
}

bool pmu_rfc_is_parent(const char *name)
{
	return name && (strcmp(name, "threshold") == 0 || strcmp(name, "cache") == 0);
}

static bool field_is_bits(const struct pmu_model *m, int f, uint32_t lo, uint32_t hi)
{
	return f >= 0 && f < m->nfields && m->fields[f].source == PMU_SRC_CONFIG &&
	       m->fields[f].lo == lo && m->fields[f].hi == hi;
}

/* A term "FIELD is V" (one value, not negated). */
static bool term_is(const struct pmu_term *t, uint64_t v)
{
	return !t->negate && t->lo == v && t->hi == v;
}

/* A term "FIELD is nonzero" ("is not 0", or 1 up to the field's largest
 * value). */
static bool term_nonzero(const struct pmu_model *m, const struct pmu_term *t)
{
	const struct pmu_field *f = &m->fields[t->field];
	uint64_t max = pmu_bits_mask(0, f->hi - f->lo);

	if (t->negate)
		return t->lo == 0 && t->hi == 0;
	return t->lo == 1 && t->hi == max;
}

/* The condition code of one remaining term, or -1 when the RFC has none. */
static int term_condition(const struct pmu_model *m, const struct pmu_term *t)
{
	const struct pmu_field *f = &m->fields[t->field];

	if (f->role == PMU_ROLE_MARK && f->lo == PMU_RFC_BIT_MARK && term_is(t, 1))
		return PMU_RFC_MARKED;
	if (field_is_bits(m, t->field, PMU_RFC_THRESH_LO, PMU_RFC_THRESH_HI) &&
	    term_nonzero(m, t))
		return PMU_RFC_THRESHOLD;
	if (field_is_bits(m, t->field, PMU_RFC_BIT_BHRB, PMU_RFC_BIT_BHRB) && term_is(t, 1))
		return PMU_RFC_BHRB;
	if (field_is_bits(m, t->field, PMU_RFC_BIT_L1, PMU_RFC_BIT_L1) && term_is(t, 1))
		return PMU_RFC_L1;
	return -1;
}

/* A term on the counter field: the RFC decides counters itself (PMC5/6
 * events skip the unit, NC and cache rules), so it adds nothing. */
static bool counter_term(const struct pmu_model *m, const struct pmu_term *t)
{
	return m->fields[t->field].role == PMU_ROLE_PMC;
}

/* An "is not 6..9" on the unit field: the RFC applies the node anyway. */
static bool unit_excluded(const struct pmu_model *m, const struct pmu_term *t)
{
	return m->fields[t->field].role == PMU_ROLE_UNIT && t->negate;
}

static void set_condition(const struct pmu_model *m, const struct pmu_constraint *c,
			  struct pmu_rfc_cons *r)
{
	int code = PMU_RFC_ALWAYS, found = 0;

	if (r->node->parent && strcmp(r->node->parent, "cache") == 0) {
		r->condition = PMU_RFC_CACHE;
		return;
	}
	for (int i = 0; i < c->when.nterms; i++) {
		const struct pmu_term *t = &c->when.terms[i];
		int k;

		if (t->code_class) {
			r->differs = "the RFC has no condition on a code class ('code is ...')";
			continue;
		}
		if (t->field < 0 || t->field >= m->nfields || counter_term(m, t))
			continue;
		if (unit_excluded(m, t)) {
			r->differs = "the RFC applies it to every unit; the description excludes some";
			continue;
		}
		k = term_condition(m, t);
		if (k < 0 || found++) {
			r->differs = "the RFC has no condition code for this constraint's 'when'";
			continue;
		}
		code = k;
	}
	r->condition = (uint32_t)code;
}

/* --- POWER9's PMC4 rule, said through cache-group ------------------------------
 *
 * isa207_get_constraint_dts adds cache-pmc4's mask, with no value, to PMC4
 * events alone, so the node cannot carry the kernel's rule (the mask bit for
 * every unit 6-9 event on PMC0-4, the value bit for one on PMC4, which the
 * hard-coded group rule CNST_CACHE_PMC4 then requires).  cache-group, which
 * it applies to exactly those events, can: among the counters 0-4 that
 * reach that code (it sends PMC5/6 past it) only 4 has the pmc field's bit
 * 2 set, so one extraction takes the selector and that bit when the bit
 * lands on the flag's slot.  cache-group's value then sits flag_bit -
 * (pmc_lo + 2 - src_lo) up, and the RFC nodes it covers there move to free
 * bits of the RFC's word (widest first, lowest free run); the RFC keeps
 * each node's own mask and shift, so only where the values sit changes,
 * never which events agree.  The description's `slot`s, the kernel's
 * layout, stay as they are. */

#define RFC_MAX_MOVED 16

struct rfc_layout {
	const struct pmu_constraint *group, *flag; /* NULL: no merge */
	uint32_t event_bit; /* the pmc field's bit 2, counted from group's src_lo */
	uint32_t group_lo;  /* cache-group's place */
	int nmoved;
	const struct pmu_constraint *moved[RFC_MAX_MOVED];
	uint32_t moved_lo[RFC_MAX_MOVED];
};

static uint64_t slot_mask(const struct pmu_model *m, const struct pmu_constraint *c)
{
	uint32_t hi = c->slot_hi;

	if (c->kind == PMU_CONS_PER_PMC) /* one slot per counter, adjacent */
		hi = c->slot_lo + (c->slot_hi - c->slot_lo + 1) * (uint32_t)m->ncounters - 1;
	return hi < 64 ? pmu_bits_mask(c->slot_lo, hi) : ~0ull;
}

static const struct pmu_constraint *named(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nconstraints; i++)
		if (m->constraints[i].name && strcmp(m->constraints[i].name, name) == 0)
			return &m->constraints[i];
	return NULL;
}

/* The same `when`, term by term. */
static bool same_when(const struct pmu_condition *a, const struct pmu_condition *b)
{
	if (a->nterms != b->nterms)
		return false;
	for (int i = 0; i < a->nterms; i++)
		if (a->terms[i].field != b->terms[i].field ||
		    a->terms[i].code_class != b->terms[i].code_class ||
		    a->terms[i].negate != b->terms[i].negate || a->terms[i].lo != b->terms[i].lo ||
		    a->terms[i].hi != b->terms[i].hi)
			return false;
	return true;
}

/* cache-pmc4 as a flag "pmc is 4" on the RFC's group-rule bit, with a
 * group rule: the pmc field's bit 2 (absolute), or false. */
static bool pmc4_flag(const struct pmu_model *m, const struct pmu_constraint *f,
		      uint32_t *pmc_bit)
{
	const struct pmu_term *t = f->flag.terms;

	if (!f->has_flag || f->kind != PMU_CONS_EQUAL || f->slot_lo != PMU_RFC_BIT_CACHE_PMC4 ||
	    f->slot_hi != PMU_RFC_BIT_CACHE_PMC4 ||
	    !f->group_reason || f->flag.nterms != 1 || t->code_class || t->field < 0 || t->field >= m->nfields ||
	    m->fields[t->field].role != PMU_ROLE_PMC || !term_is(t, 4) ||
	    m->fields[t->field].hi < m->fields[t->field].lo + 2)
		return false;
	*pmc_bit = m->fields[t->field].lo + 2;
	return true;
}

/* Move the RFC field nodes cache-group's new place covers; false when
 * they do not fit. */
static bool move_covered(const struct pmu_model *m, struct rfc_layout *L, uint64_t used,
			 uint64_t place)
{
	const struct pmu_constraint *todo[RFC_MAX_MOVED];
	int n = 0;

	for (int i = 0; i < m->nconstraints; i++) {
		const struct pmu_constraint *c = &m->constraints[i];
		const struct pmu_rfc_node *nd = pmu_rfc_node(c->name);

		if (c == L->group || c == L->flag || !nd || !(slot_mask(m, c) & place))
			continue;
		if (nd->form != PMU_RFC_FORM_FIELD || n >= RFC_MAX_MOVED)
			return false;
		todo[n++] = c;
	}
	for (int k = 0; k < n; k++) { /* widest first, in description order */
		int best = -1;

		for (int i = 0; i < n; i++)
			if (todo[i] && (best < 0 || todo[i]->slot_hi - todo[i]->slot_lo >
							    todo[best]->slot_hi - todo[best]->slot_lo))
				best = i;
		uint32_t w = todo[best]->slot_hi - todo[best]->slot_lo;
		uint32_t lo = 0;

		while (lo + w < 64 && (pmu_bits_mask(lo, lo + w) & used))
			lo++;
		if (lo + w >= 64)
			return false;
		used |= pmu_bits_mask(lo, lo + w);
		L->moved[L->nmoved] = todo[best];
		L->moved_lo[L->nmoved++] = lo;
		todo[best] = NULL;
	}
	return true;
}

/* The RFC word's layout for m: L->group NULL when the PMC4 rule is not
 * said through cache-group (no such rule, or it does not fit). */
static void rfc_layout(const struct pmu_model *m, struct rfc_layout *L)
{
	const struct pmu_constraint *g = named(m, "cache-group"), *f = named(m, "cache-pmc4");
	uint32_t pmc_bit, w;
	uint64_t used = 0, place;

	memset(L, 0, sizeof(*L));
	if (!g || !f || !pmc4_flag(m, f, &pmc_bit) || g->kind != PMU_CONS_EQUAL ||
	    !same_when(&g->when, &f->when) || /* the flag applies where cache-group does */
	    g->has_flag || g->source != PMU_SRC_CONFIG || g->transform != PMU_XF_NONE ||
	    pmc_bit < g->src_lo || pmc_bit - g->src_lo >= 32 || f->slot_lo < pmc_bit - g->src_lo)
		return;
	w = g->src_hi - g->src_lo;
	L->group = g;
	L->flag = f;
	L->event_bit = pmc_bit - g->src_lo;
	L->group_lo = f->slot_lo - L->event_bit;
	if (w >= L->event_bit) /* the selector would reach the flag's bit */
		goto none;
	place = pmu_bits_mask(L->group_lo, L->group_lo + w);
	for (int i = 0; i < m->nconstraints; i++) {
		const struct pmu_constraint *c = &m->constraints[i];

		if (c != g && c != f && pmu_rfc_node(c->name) && !(slot_mask(m, c) & place))
			used |= slot_mask(m, c);
	}
	if (move_covered(m, L, used | place | 1ull << f->slot_lo, place))
		return;
none:
	memset(L, 0, sizeof(*L));
}

/* Where constraint c's value sits in the RFC's word. */
static uint32_t rfc_slot_lo(const struct rfc_layout *L, const struct pmu_constraint *c)
{
	if (c == L->group)
		return L->group_lo;
	for (int i = 0; i < L->nmoved; i++)
		if (L->moved[i] == c)
			return L->moved_lo[i];
	return c->slot_lo;
}

static void set_field_form(const struct pmu_model *m, const struct pmu_constraint *c,
			   struct pmu_rfc_cons *r)
{
	uint32_t width = c->src_hi - c->src_lo + 1;
	struct rfc_layout L;
	uint32_t lo;

	rfc_layout(m, &L);
	lo = rfc_slot_lo(&L, c);
	r->constraint_mask = pmu_bits_mask(lo, lo + (c->slot_hi - c->slot_lo));
	r->constraint_shift = lo;
	if (c->kind != PMU_CONS_EQUAL) {
		r->differs = "the RFC reads an equal constraint here";
		return;
	}
	if (c == L.flag) { /* said by cache-group; no mask of its own */
		r->constraint_mask = 0;
		r->constraint_shift = 0;
		return;
	}
	if (c->has_flag) {
		/* The RFC would add this mask, with no value, to PMC4 events
		 * alone; with its hard-coded group rule (CNST_CACHE_PMC4) that
		 * refuses exactly the groups the rule is there to accept (an
		 * L2/L3 event on PMC4).  Left out, the RFC lacks the rule. */
		r->constraint_mask = 0;
		r->constraint_shift = 0;
		r->differs = "its value is a flag, which the RFC cannot read (it adds the mask alone, to PMC4 events, and its hard-coded group rule CNST_CACHE_PMC4 then refuses every L2/L3 group with one on PMC4): the tree leaves constraint-mask out, so the RFC lacks the rule";
		return;
	}
	if (c->source != PMU_SRC_CONFIG || c->transform != PMU_XF_NONE || width > 32) {
		r->differs = c->source != PMU_SRC_CONFIG ?
				     "its value comes from config1, which the RFC does not read" :
				     "its value is not a plain field of the event code";
		return;
	}
	r->has_event = true;
	r->event_mask = (uint32_t)pmu_bits_mask(0, width - 1);
	r->event_shift = c->src_lo;
	if (c == L.group) { /* and the PMC4 flag, on the flag's bit */
		r->event_mask |= 1u << L.event_bit;
		r->constraint_mask |= 1ull << L.flag->slot_lo;
	}
}

/* ISA207's adder for the NC slot: 4 events in bits 12-15 (isa207-common.h
 * CNST_NC_*, ISA207_TEST_ADDER), which the RFC keeps. */
static void set_nc_form(const struct pmu_constraint *c, struct pmu_rfc_cons *r)
{
	r->constraint_mask = pmu_bits_mask(c->slot_hi, c->slot_hi);
	r->constraint_shift = c->slot_lo;
	r->increment = 1;
	if (c->kind != PMU_CONS_COUNT || c->slot_lo != 12 || c->slot_hi != 15 || c->limit != 4)
		r->differs = "the RFC's adder counts at most 4 events in bits 12-15";
}

void pmu_rfc_constraint(const struct pmu_model *m, const struct pmu_constraint *c,
			struct pmu_rfc_cons *r)
{
	memset(r, 0, sizeof(*r));
	r->node = pmu_rfc_node(c->name);
	if (!r->node)
		return;
	switch (r->node->form) {
	case PMU_RFC_FORM_FIELD:
		set_field_form(m, c, r);
		set_condition(m, c, r);
		break;
	case PMU_RFC_FORM_NC:
		set_nc_form(c, r);
		break;
	case PMU_RFC_FORM_PMC:
		if (c->kind != PMU_CONS_PER_PMC || c->slot_lo != 0 || c->limit != 1)
			r->differs = "the RFC's counter rule (CNST_PMC) is one event per counter in bits 0-1, 2-3, ...";
		break;
	}
}

/* A reject check whose condition is exactly "a is 1 and b is v" (either
 * order), a and b fields at the given bits or role. */
static bool rejects(const struct pmu_model *m, uint32_t bit_a, int role_b,
		    uint32_t bit_b, uint64_t vb)
{
	for (int i = 0; i < m->nchecks; i++) {
		const struct pmu_check *k = &m->checks[i];
		bool a = false, b = false;

		if (k->kind != PMU_CHECK_REJECT_WHEN || k->when.nterms != 2)
			continue;
		for (int j = 0; j < 2; j++) {
			const struct pmu_term *t = &k->when.terms[j];

			if (t->code_class || t->field < 0 || t->field >= m->nfields)
				continue;
			if (field_is_bits(m, t->field, bit_a, bit_a) && term_is(t, 1))
				a = true;
			else if ((role_b != PMU_ROLE_NONE ?
					  m->fields[t->field].role == (enum pmu_field_role)role_b :
					  field_is_bits(m, t->field, bit_b, bit_b)) &&
				 term_is(t, vb))
				b = true;
		}
		if (a && b)
			return true;
	}
	return false;
}

bool pmu_rfc_ebb_requires_pmc(const struct pmu_model *m)
{
	return rejects(m, PMU_RFC_BIT_EBB, PMU_ROLE_PMC, 0, 0);
}

bool pmu_rfc_bhrb_requires_ebb(const struct pmu_model *m)
{
	return rejects(m, PMU_RFC_BIT_BHRB, PMU_ROLE_NONE, PMU_RFC_BIT_EBB, 0);
}
