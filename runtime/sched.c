/*
 * sched.c - group constraint check, alternatives and control-register
 * computation, driven by the description (see sched.h).
 *
 * Followed: Linux arch/powerpc/perf/core-book3s.c (power_pmu_event_init,
 * power_check_constraints, power_pmu_commit_txn) for the group flow and the
 * backtracking search; isa207-common.c (isa207_get_constraint,
 * isa207_compute_mmcr, isa207_get_alternatives) for the constraint word, the
 * alternatives and the register values.  The POWER10 specifics (which bits,
 * which slots, which conditions) all come from the model.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pmu_checks.h"
#include "sched.h"

/* --- compile --------------------------------------------------------------- */
static void compile_alternatives(struct pmu_engine *e);

static int role_field(const struct pmu_model *m, enum pmu_field_role role)
{
	for (int i = 0; i < m->nfields; i++)
		if (m->fields[i].role == role)
			return i;
	return -1;
}

/* The adder slots: add_fields gets the low bit of every slot, test_adder the
 * bias that makes the slot's top bit flip once more than `limit` events add
 * one each (the kernel's CNST_NC_* with test_adder 3 << 12, CNST_PMC_*). */
static int add_adder_slot(struct pmu_engine *e, const struct pmu_constraint *c,
			  uint32_t lo, struct pmu_error *err)
{
	uint32_t width = c->slot_hi - c->slot_lo + 1;
	if (width < 2 || width > 16 || lo + width > 64 ||
	    (uint64_t)c->limit + 1 > (1ULL << (width - 1))) {
		pmu_error_set(err, -EINVAL, "constraint '%s': a %u-bit slot cannot count to %u",
			      c->name, width, c->limit);
		return -EINVAL;
	}
	uint64_t bias = (1ULL << (width - 1)) - 1 - c->limit;
	e->add_fields |= 1ULL << lo;
	e->test_adder |= bias << lo;
	return 0;
}

static uint64_t reg_field_mask(const struct pmu_reg_field *f, uint64_t pmc)
{
	if (f->layout == PMU_LAYOUT_FIXED)
		return pmu_bits_mask(f->lo, f->hi);
	int64_t lo = (int64_t)f->base - (int64_t)pmc * f->stride;
	if (lo < 0 || lo + f->width > 64 || f->width == 0)
		return 0;
	return pmu_bits_mask((uint32_t)lo, (uint32_t)lo + f->width - 1);
}

/* A register field's bits for every counter number. */
static struct pmu_creg_bits compile_ref(const struct pmu_model *m, struct pmu_reg_ref ref)
{
	struct pmu_creg_bits b = {.reg = ref.reg};
	if (ref.reg < 0)
		return b;
	const struct pmu_reg_field *f = &m->registers[ref.reg].fields[ref.field];
	for (int pmc = 0; pmc <= PMU_SCHED_MAX_PMC; pmc++)
		b.mask[pmc] = reg_field_mask(f, (uint64_t)pmc);
	return b;
}

static int compile_constraints(struct pmu_engine *e, struct pmu_error *err)
{
	const struct pmu_model *m = e->m;
	if (m->nconstraints > PMU_SCHED_MAX_CONS) {
		pmu_error_set(err, -E2BIG, "%s: more than %d constraints", m->name, PMU_SCHED_MAX_CONS);
		return -E2BIG;
	}
	for (int i = 0; i < m->nconstraints; i++) {
		const struct pmu_constraint *c = &m->constraints[i];
		struct pmu_ccons *k = &e->cons[e->ncons++];
		uint32_t width = c->slot_hi - c->slot_lo + 1;
		*k = (struct pmu_ccons){
			.kind = c->kind,
			.src = {pmu_bits_mask(c->src_lo, c->src_hi) >> (c->src_lo & 63),
				(uint8_t)(c->src_lo & 63), c->source == PMU_SRC_CONFIG1},
			.transform = c->transform,
			.transform_arg = c->transform_arg,
			.encoding = c->encoding,
			.slot_lo = c->slot_lo,
			.width = width,
			.slot_mask = pmu_bits_mask(c->slot_lo, c->slot_hi),
		};
		pmu_condition_compile(m, &c->when, &k->when);
		k->flag = -1;
		if (c->has_flag) {
			if (e->nflags == PMU_SCHED_MAX_FLAGS) {
				pmu_error_set(err, -E2BIG, "%s: more than %d flag constraints",
					      m->name, PMU_SCHED_MAX_FLAGS);
				return -E2BIG;
			}
			k->flag = e->nflags;
			pmu_condition_compile(m, &c->flag, &e->flags[e->nflags++]);
		}
		if (c->kind == PMU_CONS_EQUAL && c->group_reason) {
			e->grp_mask |= k->slot_mask;
			e->grp_val |= (c->group_require << c->slot_lo) & k->slot_mask;
		}
		int rc = 0;
		if (c->kind == PMU_CONS_COUNT)
			rc = add_adder_slot(e, c, c->slot_lo, err);
		for (int p = 0; c->kind == PMU_CONS_PER_PMC && p < m->ncounters && !rc; p++)
			rc = add_adder_slot(e, c, c->slot_lo + p * width, err);
		if (rc)
			return rc;
	}
	return 0;
}

static int compile_placements(struct pmu_engine *e, struct pmu_error *err)
{
	const struct pmu_model *m = e->m;
	for (int i = 0; i < m->nfields; i++) {
		const struct pmu_field *f = &m->fields[i];
		if (f->target_reg < 0 && f->clear_reg < 0)
			continue;
		if (e->nplaced == PMU_SCHED_MAX_PLACED) {
			pmu_error_set(err, -E2BIG, "%s: more than %d placed fields", m->name,
				      PMU_SCHED_MAX_PLACED);
			return -E2BIG;
		}
		struct pmu_cplace *p = &e->placed[e->nplaced++];
		pmu_condition_compile(m, &f->when, &p->when);
		p->src = pmu_field_extract(f);
		p->transform = f->transform;
		p->transform_arg = f->transform_arg;
		p->encoding = f->encoding;
		p->target = compile_ref(m, (struct pmu_reg_ref){f->target_reg, f->target_field});
		p->clear = compile_ref(m, (struct pmu_reg_ref){f->clear_reg, f->clear_field});
		e->placed_src[e->nplaced - 1] = p->src;
		e->placed_on_zero[e->nplaced - 1] = p->transform == PMU_XF_SDAR_MODE;
	}
	return 0;
}

static void compile_registers(struct pmu_engine *e)
{
	const struct pmu_model *m = e->m;
	for (int i = 0; i < m->nregisters; i++)
		e->reset[i] = m->registers[i].reset;
	for (int x = 0; x < PMU_EXCL_COUNT; x++)
		e->exclude[x] = compile_ref(m, m->exclude[x]);
	e->branch_clear = compile_ref(m, m->branch_stack_clears);
	e->branch_filter = compile_ref(m, m->branch_filter_target);
	e->sampling.reg = -1;
	if (e->mark_field >= 0) {
		const struct pmu_field *mk = &m->fields[e->mark_field];
		e->sampling = compile_ref(m, (struct pmu_reg_ref){mk->target_reg, mk->target_field});
	}
}

int pmu_engine_init(struct pmu_engine *e, const struct pmu_model *m,
		    struct pmu_error *err)
{
	memset(e, 0, sizeof(*e));
	e->m = m;
	e->pmc_field = role_field(m, PMU_ROLE_PMC);
	e->mark_field = role_field(m, PMU_ROLE_MARK);
	if (e->pmc_field < 0) {
		pmu_error_set(err, -EINVAL, "%s: no field has role pmc", m->name);
		return -EINVAL;
	}
	if (m->nregisters > PMU_SCHED_MAX_REGS || m->ncounters > PMU_SCHED_MAX_PMC ||
	    m->max_group == 0 || m->max_group > PMU_SCHED_MAX_EVENTS ||
	    pmu_check_ctx_init(&e->checks, m)) {
		pmu_error_set(err, -EINVAL, "%s: %d registers, %d counters, groups of %u, %d checks: "
			      "beyond what the scheduler handles", m->name, m->nregisters,
			      m->ncounters, m->max_group, m->nchecks);
		return -EINVAL;
	}
	e->pmc = pmu_field_extract(&m->fields[e->pmc_field]);
	if (e->mark_field >= 0)
		e->mark = pmu_field_extract(&m->fields[e->mark_field]);
	while (e->nprogrammable < m->ncounters && m->counters[e->nprogrammable].programmable)
		e->nprogrammable++;
	int rc = compile_constraints(e, err);
	if (!rc)
		rc = compile_placements(e, err);
	if (!rc) {
		compile_registers(e);
		compile_alternatives(e);
	}
	return rc;
}

/* --- constraint words ------------------------------------------------------ */
static uint64_t pmc_of(const struct pmu_engine *e, uint64_t config)
{
	return pmu_extract(&e->pmc, config, 0);
}

static uint64_t equal_value(const struct pmu_model *m, const struct pmu_constraint *c,
			    uint64_t config, uint64_t config1)
{
	if (c->has_flag)
		return pmu_condition_holds(m, &c->flag, config, config1);
	uint64_t word = c->source == PMU_SRC_CONFIG1 ? config1 : config;
	uint64_t v = (word & pmu_bits_mask(c->src_lo, c->src_hi)) >> c->src_lo;
	return pmu_transform_apply(c->transform, &c->encoding, v);
}

void pmu_engine_constraint(const struct pmu_engine *e, uint64_t config,
			   uint64_t config1, uint64_t *maskp, uint64_t *valuep)
{
	uint64_t mask = 0, value = 0, pmc = pmc_of(e, config);
	for (int i = 0; i < e->ncons; i++) {
		const struct pmu_ccons *c = &e->cons[i];
		if (!pmu_ccond_holds(&c->when, config, config1))
			continue;
		switch (c->kind) {
		case PMU_CONS_EQUAL: {
			uint64_t v = c->flag >= 0 ? pmu_ccond_holds(&e->flags[c->flag], config, config1)
						  : pmu_extract(&c->src, config, config1);
			if (c->transform != PMU_XF_NONE)
				v = pmu_transform_apply(c->transform, &c->encoding, v);
			mask |= c->slot_mask;
			value |= (v << c->slot_lo) & c->slot_mask;
			break;
		}
		case PMU_CONS_PER_PMC:
			if (pmc >= 1 && pmc <= (uint64_t)e->m->ncounters) {
				uint32_t lo = c->slot_lo + (uint32_t)(pmc - 1) * c->width;
				value |= 1ULL << lo;
				mask |= 1ULL << (lo + c->width - 1);
			}
			break;
		case PMU_CONS_COUNT:
			value |= 1ULL << c->slot_lo;
			mask |= 1ULL << (c->slot_lo + c->width - 1);
			break;
		}
	}
	*maskp = mask;
	*valuep = value;
}

/* The kernel's test: add (m, v) to the running (mask, value) or fail,
 * ignoring the slots in `ignore` (the as-is pass ignores the group-rule
 * slots, power_check_constraints' ~grp_mask; the search does not). */
static bool combine_ignoring(const struct pmu_engine *e, uint64_t *mask, uint64_t *value,
			     uint64_t m, uint64_t v, uint64_t ignore)
{
	uint64_t nv = (*value | v) + (*value & v & e->add_fields);
	if ((((nv + e->test_adder) ^ *value) & *mask & ~ignore) ||
	    (((nv + e->test_adder) ^ v) & m & ~ignore))
		return false;
	*value = nv;
	*mask |= m;
	return true;
}

static bool combine(const struct pmu_engine *e, uint64_t *mask, uint64_t *value,
		    uint64_t m, uint64_t v)
{
	return combine_ignoring(e, mask, value, m, v, 0);
}

/* The as-is pass's pairwise test. */
static bool combine_as_is(const struct pmu_engine *e, uint64_t *mask, uint64_t *value,
			  uint64_t m, uint64_t v)
{
	return combine_ignoring(e, mask, value, m, v, e->grp_mask);
}

/* The group rule on the as-is pass's combined words: -1 when it holds, else
 * the index of the first constraint whose slot breaks it. */
static int group_rule_broken(const struct pmu_engine *e, uint64_t mask, uint64_t value)
{
	uint64_t bad = (value & mask & e->grp_mask) ^ (mask & e->grp_val);
	for (int i = 0; bad && i < e->ncons; i++)
		if (bad & e->cons[i].slot_mask)
			return i;
	return -1;
}

/* --- alternatives ----------------------------------------------------------- */
static bool alt_has(const struct pmu_alternative *a, uint64_t code)
{
	for (int i = 0; i < a->ncodes; i++)
		if (a->codes[i] == code)
			return true;
	return false;
}

static int append_partners(const struct pmu_alternative *a, uint64_t code,
			   uint64_t *alt, int n)
{
	for (int j = 0; j < a->ncodes && n < PMU_SCHED_MAX_ALTS; j++)
		if (a->codes[j] != code)
			alt[n++] = a->codes[j];
	return n;
}

/* isa207_get_alternatives: the first table row holding the code gives its
 * partners (find_alternative stops at the first row whose first code is
 * above the code: the kernel's tables are sorted by their first column);
 * per-task rows then add a partner for each code found so far, in order,
 * duplicates included. */
static int compute_alternatives(const struct pmu_engine *e, uint64_t code, bool per_task,
				uint64_t alt[PMU_SCHED_MAX_ALTS])
{
	const struct pmu_model *m = e->m;
	int n = 0;
	alt[n++] = code;
	for (int i = 0; i < m->nalternatives; i++) {
		if (m->alternatives[i].per_task_only)
			continue;
		if (code < m->alternatives[i].codes[0])
			break;
		if (alt_has(&m->alternatives[i], code)) {
			n = append_partners(&m->alternatives[i], code, alt, n);
			break;
		}
	}
	int base = n;
	for (int k = 0; per_task && k < base; k++)
		for (int i = 0; i < m->nalternatives; i++)
			if (m->alternatives[i].per_task_only &&
			    alt_has(&m->alternatives[i], alt[k]))
				n = append_partners(&m->alternatives[i], alt[k], alt, n);
	return n;
}

_Static_assert(PMU_SCHED_MAX_ALT_CODES <= 127 && PMU_SCHED_MAX_ALT_CODES < PMU_SCHED_ALT_INDEX,
	       "alt_index holds int8_t entry numbers and keeps an empty slot");

/* A code's first slot in alt_index. */
static unsigned alt_slot(uint64_t code)
{
	return (unsigned)((code * 0x9e3779b97f4a7c15ull) >> (64 - PMU_SCHED_ALT_INDEX_BITS));
}

/* The compiled list of a code of the table, or NULL. */
static const struct pmu_alt_list *alt_list_of(const struct pmu_engine *e, uint64_t code)
{
	for (unsigned h = alt_slot(code); e->alt_index[h] >= 0; h = (h + 1) % PMU_SCHED_ALT_INDEX)
		if (e->alt_lists[e->alt_index[h]].code == code)
			return &e->alt_lists[e->alt_index[h]];
	return NULL;
}

int pmu_engine_alternatives(const struct pmu_engine *e, uint64_t code, bool per_task,
			    uint64_t alt[PMU_SCHED_MAX_ALTS])
{
	if (e->nalt_codes < 0)
		return compute_alternatives(e, code, per_task, alt);
	const struct pmu_alt_list *l = alt_list_of(e, code);
	if (!l) {
		alt[0] = code;
		return 1;
	}
	for (int i = 0; i < l->n[per_task]; i++)
		alt[i] = e->alt_lists[l->alt[per_task][i]].code;
	return l->n[per_task];
}

/* The entry of code in alt_lists, added when new; -1 when full. */
static int alt_entry(struct pmu_engine *e, uint64_t code)
{
	for (int k = 0; k < e->nalt_codes; k++)
		if (e->alt_lists[k].code == code)
			return k;
	if (e->nalt_codes == PMU_SCHED_MAX_ALT_CODES)
		return -1;
	struct pmu_alt_list *l = &e->alt_lists[e->nalt_codes];
	*l = (struct pmu_alt_list){.code = code};
	pmu_engine_constraint(e, code, 0, &l->mask, &l->value);
	unsigned h = alt_slot(code);
	while (e->alt_index[h] >= 0)
		h = (h + 1) % PMU_SCHED_ALT_INDEX;
	e->alt_index[h] = (int8_t)e->nalt_codes;
	return e->nalt_codes++;
}

/* The alternatives of every code the table names, once, as indices of
 * entries (every alternative is itself a code of the table). */
static void compile_alternatives(struct pmu_engine *e)
{
	const struct pmu_model *m = e->m;
	memset(e->alt_index, -1, sizeof(e->alt_index));
	for (int i = 0; i < m->nalternatives; i++)
		for (int j = 0; j < m->alternatives[i].ncodes; j++)
			if (alt_entry(e, m->alternatives[i].codes[j]) < 0)
				goto full;
	for (int k = 0; k < e->nalt_codes; k++) {
		struct pmu_alt_list *l = &e->alt_lists[k];
		for (int t = 0; t < 2; t++) {
			uint64_t alt[PMU_SCHED_MAX_ALTS];
			int n = compute_alternatives(e, l->code, t, alt);
			l->n[t] = (uint8_t)n;
			for (int a = 0; a < n; a++)
				l->alt[t][a] = (uint8_t)alt_entry(e, alt[a]);
		}
	}
	return;
full:
	e->nalt_codes = -1;
	memset(e->alt_index, -1, sizeof(e->alt_index));
}

/* --- power_check_constraints --------------------------------------------- */
/* Constraint words already computed in one schedule call: the search over
 * alternatives and the re-checks of the group flow ask for the same codes
 * again and again.  A small linear table; full means "compute, don't keep". */
#define WORD_CACHE_SIZE 48

struct word_cache {
	int n;
	struct { uint64_t code, config1, mask, value; } w[WORD_CACHE_SIZE];
};

static void cache_words(struct word_cache *c, uint64_t code, uint64_t config1,
			uint64_t mask, uint64_t value)
{
	if (c->n < WORD_CACHE_SIZE)
		c->w[c->n++] = (typeof(c->w[0])){code, config1, mask, value};
}

/* The constraint words of a code the alternatives table lists, compiled
 * once (config1 0); false for any other code. */
static bool listed_words(const struct pmu_engine *e, uint64_t code, uint64_t config1,
			 uint64_t *mask, uint64_t *value)
{
	const struct pmu_alt_list *l = config1 ? NULL : alt_list_of(e, code);
	if (!l)
		return false;
	*mask = l->mask;
	*value = l->value;
	return true;
}

/* The constraint words of a code: compiled when listed, else from the
 * cache, else computed and kept.  Listed codes never enter the cache, so
 * its linear scans stay short whichever alternatives the search picked. */
static void cached_constraint(const struct pmu_engine *e, struct word_cache *c,
			      uint64_t code, uint64_t config1, uint64_t *mask, uint64_t *value)
{
	if (listed_words(e, code, config1, mask, value))
		return;
	for (int i = 0; i < c->n; i++)
		if (c->w[i].code == code && c->w[i].config1 == config1) {
			*mask = c->w[i].mask;
			*value = c->w[i].value;
			return;
		}
	pmu_engine_constraint(e, code, config1, mask, value);
	cache_words(c, code, config1, *mask, *value);
}

struct group {
	int n;
	uint64_t code[PMU_SCHED_MAX_EVENTS];
	uint64_t config1[PMU_SCHED_MAX_EVENTS];
};

/* The group's constraint words combined in order as the as-is pass does;
 * false at the first event that does not fit. */
static bool combine_all(const struct pmu_engine *e, struct word_cache *c, const struct group *g,
			uint64_t *maskp, uint64_t *valuep)
{
	uint64_t mask = 0, value = 0;
	for (int i = 0; i < g->n; i++) {
		uint64_t m, v;
		cached_constraint(e, c, g->code[i], g->config1[i], &m, &v);
		if (!combine_as_is(e, &mask, &value, m, v))
			return false;
	}
	*maskp = mask;
	*valuep = value;
	return true;
}


/* Depth-first search over each event's alternatives in order; on success the
 * chosen codes replace g->code. */
static bool search_alternatives(const struct pmu_engine *e, struct word_cache *c,
				struct group *g, bool per_task)
{
	uint64_t alt[PMU_SCHED_MAX_EVENTS][PMU_SCHED_MAX_ALTS];
	uint64_t amask[PMU_SCHED_MAX_EVENTS][PMU_SCHED_MAX_ALTS];
	uint64_t avalue[PMU_SCHED_MAX_EVENTS][PMU_SCHED_MAX_ALTS];
	uint64_t smask[PMU_SCHED_MAX_EVENTS], svalue[PMU_SCHED_MAX_EVENTS];
	int nalt[PMU_SCHED_MAX_EVENTS], choice[PMU_SCHED_MAX_EVENTS];
	for (int i = 0; i < g->n; i++) {
		/* a listed code without config1: everything is compiled */
		const struct pmu_alt_list *l = g->config1[i] ? NULL : alt_list_of(e, g->code[i]);
		if (l) {
			nalt[i] = l->n[per_task];
			for (int j = 0; j < nalt[i]; j++) {
				const struct pmu_alt_list *x = &e->alt_lists[l->alt[per_task][j]];
				alt[i][j] = x->code;
				amask[i][j] = x->mask;
				avalue[i][j] = x->value;
			}
			continue;
		}
		nalt[i] = pmu_engine_alternatives(e, g->code[i], per_task, alt[i]);
		for (int j = 0; j < nalt[i]; j++)
			cached_constraint(e, c, alt[i][j], g->config1[i], &amask[i][j],
					  &avalue[i][j]);
	}
	int i = 0, j = -1;
	uint64_t mask = 0, value = 0;
	while (i < g->n) {
		if (j >= 0) { /* backtracking: restore the state before event i */
			value = svalue[i];
			mask = smask[i];
			j = choice[i];
		}
		uint64_t m = mask, v = value;
		while (++j < nalt[i]) {
			m = mask;
			v = value;
			if (combine(e, &m, &v, amask[i][j], avalue[i][j]))
				break;
		}
		if (j >= nalt[i]) {
			if (--i < 0)
				return false;
			continue;
		}
		choice[i] = j;
		svalue[i] = value;
		smask[i] = mask;
		value = v;
		mask = m;
		i++;
		j = -1;
	}
	for (int k = 0; k < g->n; k++)
		g->code[k] = alt[k][choice[k]];
	return true;
}

/* power_check_constraints: CHECK_FITS, CHECK_CONFLICT, or the index of the
 * group-rule constraint that refused the group on the as-is pass (which
 * then ends the check: no search). */
#define CHECK_FITS (-1)
#define CHECK_CONFLICT (-2)
static int check_constraints(const struct pmu_engine *e, struct word_cache *c,
			     struct group *g, bool per_task)
{
	if (g->n > (int)e->m->max_group)
		return CHECK_CONFLICT;
	uint64_t mask, value;
	if (combine_all(e, c, g, &mask, &value)) {
		int broken = group_rule_broken(e, mask, value);
		return broken >= 0 ? broken : CHECK_FITS;
	}
	return e->m->nalternatives > 0 && search_alternatives(e, c, g, per_task)
		       ? CHECK_FITS : CHECK_CONFLICT;
}

/* --- explaining a conflict ------------------------------------------------- */
static void event_label(const struct pmu_sched_event *ev, int i, char *buf, size_t len)
{
	if (ev[i].name)
		snprintf(buf, len, "event %d (%s)", i, ev[i].name);
	else
		snprintf(buf, len, "event %d (0x%" PRIx64 ")", i, ev[i].config);
}

static const char *constraint_label(const struct pmu_model *m, const struct pmu_constraint *c)
{
	for (int i = 0; i < m->nfields; i++)
		if (m->fields[i].source == c->source && m->fields[i].lo == c->src_lo &&
		    m->fields[i].hi == c->src_hi)
			return m->fields[i].name;
	return c->name;
}

static bool explain_equal(const struct pmu_engine *e, const struct pmu_sched_event *ev,
			  const struct group *g, int k, const struct pmu_constraint *c,
			  struct pmu_sched_result *r)
{
	const struct pmu_model *m = e->m;
	uint64_t mine = equal_value(m, c, g->code[k], g->config1[k]);
	for (int j = 0; j < k; j++) {
		if (!pmu_condition_holds(m, &c->when, g->code[j], g->config1[j]))
			continue;
		uint64_t theirs = equal_value(m, c, g->code[j], g->config1[j]);
		if (theirs == mine)
			continue;
		char a[96], b[96];
		event_label(ev, k, a, sizeof(a));
		event_label(ev, j, b, sizeof(b));
		const char *what = constraint_label(m, c);
		snprintf(r->message, sizeof(r->message),
			 "%s needs %s 0x%" PRIx64 " but %s set 0x%" PRIx64 " (%s)", a, what,
			 mine, b, theirs, c->description);
		return true;
	}
	return false;
}

static bool explain_adder(const struct pmu_engine *e, const struct pmu_sched_event *ev,
			  const struct group *g, int k, const struct pmu_constraint *c,
			  struct pmu_sched_result *r)
{
	const struct pmu_model *m = e->m;
	char a[96], b[96];
	event_label(ev, k, a, sizeof(a));
	uint64_t pmc = pmc_of(e, g->code[k]);
	uint32_t users = 0;
	for (int j = 0; j <= k; j++) {
		if (!pmu_condition_holds(m, &c->when, g->code[j], g->config1[j]))
			continue;
		if (c->kind == PMU_CONS_PER_PMC && pmc_of(e, g->code[j]) != pmc)
			continue;
		if (j < k && c->kind == PMU_CONS_PER_PMC) {
			event_label(ev, j, b, sizeof(b));
			snprintf(r->message, sizeof(r->message), "%s needs %s, already taken by %s",
				 a, pmc <= (uint64_t)m->ncounters ? m->counters[pmc - 1].name : "?", b);
			return true;
		}
		users++;
	}
	if (c->kind != PMU_CONS_COUNT || users <= c->limit)
		return false;
	snprintf(r->message, sizeof(r->message), "%s would be event %u under '%s', which allows %u (%s)",
		 a, users, c->name, c->limit, c->description);
	return true;
}

static void explain_conflict(const struct pmu_engine *e, const struct pmu_sched_event *ev,
			     const struct group *g, int k, struct pmu_sched_result *r)
{
	const struct pmu_model *m = e->m;
	for (int i = 0; i < m->nconstraints; i++) {
		const struct pmu_constraint *c = &m->constraints[i];
		if (!pmu_condition_holds(m, &c->when, g->code[k], g->config1[k]))
			continue;
		if (c->kind == PMU_CONS_EQUAL ? explain_equal(e, ev, g, k, c, r)
					      : explain_adder(e, ev, g, k, c, r))
			return;
	}
	char a[96];
	event_label(ev, k, a, sizeof(a));
	snprintf(r->message, sizeof(r->message), "%s does not fit with the events before it",
		 a);
}

/* --- compute_mmcr ------------------------------------------------------------ */
static uint64_t bits_for(const struct pmu_creg_bits *b, uint64_t pmc)
{
	return pmc <= PMU_SCHED_MAX_PMC ? b->mask[pmc] : 0;
}

static void place_value(uint64_t *reg, uint64_t mask, uint64_t v)
{
	if (mask)
		*reg |= (v << __builtin_ctzll(mask)) & mask;
}

/* mmcra_sdar_mode(): a marked event, or sampling already enabled by an earlier
 * event, clears the field; otherwise the event's value, or the default. */
static void place_sdar(const struct pmu_engine *e, uint64_t *regs, const struct pmu_cplace *p,
		       uint64_t mask, uint64_t config, uint64_t v)
{
	bool marked = e->mark_field >= 0 && pmu_extract(&e->mark, config, 0) != 0;
	bool sampling = e->sampling.reg >= 0 && (regs[e->sampling.reg] & e->sampling.mask[0]);
	uint64_t *reg = &regs[p->target.reg];
	if (marked || sampling)
		*reg &= ~mask;
	else
		place_value(reg, mask, v ? v : p->transform_arg);
}

static void place_fields(const struct pmu_engine *e, uint64_t *regs, uint64_t code,
			 uint64_t config1, uint64_t pmc)
{
	for (int k = 0; k < e->nplaced; k++) {
		uint64_t v = pmu_extract(&e->placed_src[k], code, config1);
		/* a zero value ORs in nothing and clears nothing (every transform
		 * maps 0 to 0), except the SDAR mode's default */
		if (!v && !e->placed_on_zero[k])
			continue;
		const struct pmu_cplace *p = &e->placed[k];
		if (!pmu_ccond_holds(&p->when, code, config1))
			continue;
		if (p->target.reg >= 0) {
			uint64_t mask = bits_for(&p->target, pmc);
			if (p->transform == PMU_XF_SDAR_MODE)
				place_sdar(e, regs, p, mask, code, v);
			else
				place_value(&regs[p->target.reg], mask,
					    p->transform == PMU_XF_NONE ? v :
					    pmu_transform_apply(p->transform, &p->encoding, v));
		}
		if (p->clear.reg >= 0 && v)
			regs[p->clear.reg] &= ~bits_for(&p->clear, pmc);
	}
}

static void place_excludes(const struct pmu_engine *e, uint64_t *regs,
			   const struct pmu_sched_event *ev, uint64_t pmc,
			   const struct pmu_sched_options *o)
{
	for (int x = 0; ev->exclude && x < PMU_EXCL_COUNT; x++) {
		if (x == PMU_EXCL_KERNEL_HV || !(ev->exclude & (1u << x)))
			continue;
		if (x == PMU_EXCL_HV && !o->lpar)
			continue; /* not under a hypervisor: the kernel clears exclude_hv */
		int which = (x == PMU_EXCL_KERNEL && o->hv_mode) ? PMU_EXCL_KERNEL_HV : x;
		const struct pmu_creg_bits *b = &e->exclude[which];
		if (b->reg >= 0)
			regs[b->reg] |= bits_for(b, pmc);
	}
	if (ev->branch_sample_type && e->branch_clear.reg >= 0)
		regs[e->branch_clear.reg] &= ~bits_for(&e->branch_clear, pmc);
}

/* The privilege bits of branch_sample_type (PERF_SAMPLE_BRANCH_PLM_ALL). */
#define BRANCH_PLM_ALL 0x7ULL

int pmu_engine_branch_filter(const struct pmu_engine *e, uint64_t branch_sample_type,
			     uint64_t *value)
{
	const struct pmu_model *m = e->m;
	uint64_t filters = branch_sample_type & ~BRANCH_PLM_ALL;
	if (__builtin_popcountll(filters) > 1)
		return -EOPNOTSUPP;
	for (int i = 0; i < m->nbranch_filters; i++) {
		const struct pmu_branch_filter *b = &m->branch_filters[i];
		if (!(filters & pmu_branch_filter_bit(b->name)))
			continue;
		if (b->state != PMU_MAP_SUPPORTED)
			return -EOPNOTSUPP;
		*value = b->value;
		return 0;
	}
	return -EOPNOTSUPP;
}

/* The filter of the last branch-stack event, as config_bhrb writes it into
 * the target field when the PMU is enabled. */
static void place_branch_filter(const struct pmu_engine *e, uint64_t *regs,
				const struct pmu_sched_event *ev, int n)
{
	for (int i = n - 1; i >= 0 && e->branch_filter.reg >= 0; i--) {
		uint64_t value;
		if (!ev[i].branch_sample_type ||
		    pmu_engine_branch_filter(e, ev[i].branch_sample_type, &value))
			continue;
		place_value(&regs[e->branch_filter.reg], e->branch_filter.mask[0], value);
		return;
	}
}

static void place_usage(const struct pmu_model *m, uint64_t *regs, uint32_t inuse)
{
	for (int i = 0; i < m->nusage; i++) {
		const struct pmu_usage_bit *u = &m->usage[i];
		bool used = (inuse & u->counters) != 0;
		bool set = u->when == PMU_WHEN_ALWAYS || (u->when == PMU_WHEN_USED) == used;
		if (set && u->target.reg >= 0)
			regs[u->target.reg] |=
				reg_field_mask(&m->registers[u->target.reg].fields[u->target.field], 0);
	}
}

/* Counters for the group into r->pmc: an event's own PMC, or for a pmc 0
 * event the first free programmable one (isa207_compute_mmcr's loop over
 * PMC1-4).  The kernel relies on its count constraint (CNST_NC) to leave
 * one free; a description without such a constraint could otherwise put a
 * pmc 0 event on a fixed counter, which counts only its own event.  Returns
 * the counters in use, or 0 with *failed the first pmc 0 event left
 * without a programmable counter. */
static uint32_t assign_counters(const struct pmu_engine *e, const struct group *g,
				struct pmu_sched_result *r, int *failed)
{
	uint32_t inuse = 0;
	for (int i = 0; i < g->n; i++) {
		uint64_t pmc = pmc_of(e, g->code[i]);
		if (pmc && pmc < 32)
			inuse |= 1u << pmc;
		r->pmc[i] = (int)pmc;
	}
	for (int i = 0; i < g->n; i++) {
		if (r->pmc[i])
			continue;
		int pmc = 1;
		while (pmc <= e->nprogrammable && (inuse & (1u << pmc)))
			pmc++;
		if (pmc > e->nprogrammable) {
			*failed = i;
			return 0;
		}
		inuse |= 1u << pmc;
		r->pmc[i] = pmc;
	}
	return inuse;
}

static void compute_registers(const struct pmu_engine *e, const struct group *g,
			      const struct pmu_sched_event *ev, uint32_t inuse,
			      const struct pmu_sched_options *o, struct pmu_sched_result *r)
{
	memcpy(r->regs, e->reset, sizeof(r->regs));
	for (int i = 0; i < g->n; i++) {
		uint64_t pmc = (uint64_t)r->pmc[i];
		place_fields(e, r->regs, g->code[i], g->config1[i], pmc);
		place_excludes(e, r->regs, &ev[i], pmc, o);
	}
	place_usage(e->m, r->regs, inuse);
	place_branch_filter(e, r->regs, ev, g->n);
}

/* --- the group flow --------------------------------------------------------- */
static void reject(struct pmu_sched_result *r, int index, const char *reason)
{
	r->ok = false;
	r->reject_index = index;
	r->reason = reason;
}

/* Member k refused with reason; the message names it, then what and why. */
static void reject_with(const struct pmu_sched_event *ev, int k, const char *reason,
			const char *what, const char *why, struct pmu_sched_result *r)
{
	char a[96];
	event_label(ev, k, a, sizeof(a));
	reject(r, k, reason);
	snprintf(r->message, sizeof(r->message), "%s: %s (%s)", a, what, why);
}

static void reject_check(const struct pmu_engine *e, const struct pmu_sched_event *ev,
			 int k, int check, struct pmu_sched_result *r)
{
	const struct pmu_check *c = &e->m->checks[check];
	reject_with(ev, k, c->name, c->description, c->name, r);
}

/* The as-is pass fitted but the group rule of constraint `cons` failed. */
static void reject_group_rule(const struct pmu_engine *e, const struct pmu_sched_event *ev,
			      int k, int cons, struct pmu_sched_result *r)
{
	const struct pmu_constraint *c = &e->m->constraints[cons];
	char what[160];
	snprintf(what, sizeof(what), "the group fails the rule of '%s'", c->name);
	reject_with(ev, k, c->group_reason, what, c->description, r);
}

/* A branch-stack request with more than one filter or one the PMU lacks:
 * power_pmu_event_init returns EOPNOTSUPP. */
static bool reject_branch_filter(const struct pmu_engine *e, const struct pmu_sched_event *ev,
				 int k, struct pmu_sched_result *r)
{
	uint64_t filter;
	if (!pmu_engine_branch_filter(e, ev[k].branch_sample_type, &filter))
		return false;
	char a[96];
	event_label(ev, k, a, sizeof(a));
	reject(r, k, "branch_filter_unsupported");
	snprintf(r->message, sizeof(r->message),
		 "%s: branch filter 0x%" PRIx64 " is not supported (one filter at a time, "
		 "from the PMU's branch-filters)", a, ev[k].branch_sample_type);
	return true;
}

/* The group's next schedule, after a commit that took the search: the
 * commit wrote the solution back (power_pmu_commit_txn: hw.config =
 * events[i]), so the next power_check_constraints starts from those codes.
 * They fit pairwise (the search's test is the as-is test with the group-rule
 * slots included), so the as-is pass now reaches the group rule, which the
 * search never applied.  A commit that fitted as-is needs no second look:
 * the same codes, the same check. */
static void check_reschedule(const struct pmu_engine *e, struct word_cache *c,
			     const struct group *final, bool per_task,
			     struct pmu_sched_result *r)
{
	struct group again = *final;
	int verdict = check_constraints(e, c, &again, per_task);
	if (verdict == CHECK_FITS)
		return;
	char why[160];
	if (verdict >= 0) {
		const struct pmu_constraint *k = &e->m->constraints[verdict];
		r->reschedule_reason = k->group_reason;
		snprintf(why, sizeof(why), "the group fails the rule of '%s' (%s)", k->name,
			 k->description);
	} else {
		r->reschedule_reason = "constraint_conflict";
		snprintf(why, sizeof(why), "no combination of alternatives fits");
	}
	snprintf(r->reschedule_message, sizeof(r->reschedule_message),
		 "the next schedule checks the written-back final codes as they are: %s; "
		 "EAGAIN from then on, the group counts in its first time slice only", why);
}

int pmu_engine_schedule(const struct pmu_engine *e, const struct pmu_sched_event *ev,
			int n, const struct pmu_sched_options *o, struct pmu_sched_result *r)
{
	r->ok = false;
	r->reject_index = -1;
	r->reason = NULL;
	r->message[0] = '\0';
	r->n = 0;
	r->alternatives_used = false;
	r->reschedule_reason = NULL;
	r->reschedule_message[0] = '\0';
	if (n < 1 || n > PMU_SCHED_MAX_EVENTS) {
		reject(r, n < 1 ? 0 : PMU_SCHED_MAX_EVENTS, "too_many_events");
		snprintf(r->message, sizeof(r->message), "a group holds 1 to %d events",
			 PMU_SCHED_MAX_EVENTS);
		return -EINVAL;
	}
	/* the leader's and siblings' stored codes, and their constraint words
	 * combined in order (what power_check_constraints' as-is pass computes
	 * for them, kept instead of recomputed: run_valid says it holds) */
	struct group stored = {0};
	struct word_cache cache;
	cache.n = 0;
	uint64_t run_mask = 0, run_value = 0;
	bool run_valid = true;
	for (int k = 0; k < n; k++) {
		/* power_pmu_event_init for member k */
		struct pmu_group_place place = {ev[0].config, k};
		int chk = pmu_event_first_failing_check(e->m, &e->checks, ev[k].config,
							ev[k].config1, &place);
		if (chk >= 0) {
			reject_check(e, ev, k, chk, r);
			return 0;
		}
		uint64_t mk, vk, tm = run_mask, tv = run_value;
		/* a member's own code is new to the call: compute, keep for a search */
		if (!listed_words(e, ev[k].config, ev[k].config1, &mk, &vk)) {
			pmu_engine_constraint(e, ev[k].config, ev[k].config1, &mk, &vk);
			cache_words(&cache, ev[k].config, ev[k].config1, mk, vk);
		}
		bool as_is = k < (int)e->m->max_group && run_valid &&
			     combine_as_is(e, &tm, &tv, mk, vk);
		struct group g;
		int verdict = as_is ? group_rule_broken(e, tm, tv) : CHECK_FITS;
		if (!as_is) { /* the search, on the stored codes and this event */
			g = stored;
			g.code[k] = ev[k].config;
			g.config1[k] = ev[k].config1;
			g.n = k + 1;
			verdict = check_constraints(e, &cache, &g, o->per_task);
		}
		if (ev[k].branch_sample_type && reject_branch_filter(e, ev, k, r))
			return 0;
		if (verdict >= 0) {
			reject_group_rule(e, ev, k, verdict, r);
			return 0;
		}
		if (verdict == CHECK_CONFLICT) {
			reject(r, k, "constraint_conflict");
			g.code[k] = ev[k].config;
			explain_conflict(e, ev, &g, k, r);
			return 0;
		}
		/* the kernel keeps only the new event's choice */
		stored.code[k] = as_is ? ev[k].config : g.code[k];
		stored.config1[k] = ev[k].config1;
		stored.n = k + 1;
		if (as_is) {
			run_mask = tm;
			run_value = tv;
		} else {
			run_valid = combine_all(e, &cache, &stored, &run_mask, &run_value);
		}
	}
	/* power_pmu_commit_txn: the whole group once more on the stored codes
	 * (as-is it fits pairwise exactly when the running words are valid) */
	int verdict = run_valid ? group_rule_broken(e, run_mask, run_value)
				: check_constraints(e, &cache, &stored, o->per_task);
	if (verdict >= 0) {
		reject_group_rule(e, ev, n - 1, verdict, r);
		return 0;
	}
	if (verdict == CHECK_CONFLICT) {
		reject(r, n - 1, "group_unschedulable");
		snprintf(r->message, sizeof(r->message),
			 "the events open one by one but do not fit together");
		return 0;
	}
	int failed = -1;
	uint32_t inuse = assign_counters(e, &stored, r, &failed);
	if (failed >= 0) {
		char a[96];
		event_label(ev, failed, a, sizeof(a));
		reject(r, failed, "no_programmable_counter");
		snprintf(r->message, sizeof(r->message),
			 "%s: any-counter (pmc 0) event, but PMC1-PMC%d are all taken and the "
			 "fixed counters count only their own events", a, e->nprogrammable);
		return 0;
	}
	r->ok = true;
	r->n = n;
	for (int i = 0; i < n; i++) {
		r->final_events[i] = stored.code[i];
		r->alternatives_used |= stored.code[i] != ev[i].config;
	}
	compute_registers(e, &stored, ev, inuse, o, r);
	if (!run_valid)
		check_reschedule(e, &cache, &stored, o->per_task, r);
	return 0;
}
