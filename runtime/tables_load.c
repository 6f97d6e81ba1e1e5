/*
 * tables_load.c - rebuilds a struct pmu_model from the built-in C tables that
 * `pmugen --format c` generated (tables/pmu_tables.h), so built-in, DTB,
 * device-tree and YAML descriptions all end up in the same model.  Offsets
 * and indices are checked even though the tables are compiled in.
 *
 * Zero-copy: the model's strings point into the tables' constant pool
 * (owns_strings false), so opening a built-in description allocates only
 * the model's arrays, and closing it frees only them.  A description that
 * extends another (pmu_tables.base) takes its identity from its own tables
 * and everything else from the base's, two pools.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct rebuild {
	const struct pmu_tables *t;
	int bad;
	int nomem; /* bad because an allocation failed */
};

/* A string of the pool, borrowed: the model's char * fields are never
 * written through when owns_strings is false, so const is cast away here
 * only. */
static char *str(struct rebuild *r, pmu_str_t off)
{
	if (off == PMU_TBL_NOSTR)
		return NULL;
	if (off >= r->t->pool_size) {
		r->bad = 1;
		return NULL;
	}
	return (char *)(uintptr_t)(r->t->pool + off);
}

/* Each element is set in full by the rebuild_* functions, where it is filled. */
static void *array(struct rebuild *r, size_t n, size_t size)
{
	void *p = n ? malloc(n * size) : NULL;

	if (n && !p)
		r->bad = r->nomem = 1;
	return p;
}

static struct pmu_condition cond(struct rebuild *r, struct pmu_tbl_cond c)
{
	struct pmu_condition out = {0};

	if (c.nterms > PMU_MAX_TERMS || c.first + c.nterms > r->t->nterms) {
		r->bad = 1;
		return out;
	}
	out.nterms = (int)c.nterms;
	for (uint32_t i = 0; i < c.nterms; i++) {
		const struct pmu_tbl_term *x = &r->t->terms[c.first + i];

		out.terms[i] = (struct pmu_term){ x->field, x->negate != 0,
						  x->lo, x->hi, x->code_class != 0 };
		if (x->code_class && (x->field < 0 || (uint32_t)x->field >= r->t->ncode_classes))
			r->bad = 1;
	}
	return out;
}

/* The code classes, their codes copied (the model owns its arrays). */
static void rebuild_code_classes(struct rebuild *r, struct pmu_model *m)
{
	m->code_classes = array(r, r->t->ncode_classes, sizeof(*m->code_classes));
	for (uint32_t i = 0; m->code_classes && i < r->t->ncode_classes; i++) {
		const struct pmu_tbl_code_class *x = &r->t->code_classes[i];
		struct pmu_code_class *k = &m->code_classes[m->ncode_classes++];
		*k = (struct pmu_code_class){.name = str(r, x->name),
					     .description = str(r, x->description),
					     .mask = x->mask};
		if (!k->name || x->ncodes < 1 || x->ncodes > PMU_MAX_CLASS_CODES ||
		    x->first_code > r->t->nclass_codes ||
		    x->ncodes > r->t->nclass_codes - x->first_code) {
			r->bad = 1;
			continue;
		}
		k->codes = array(r, x->ncodes, sizeof(*k->codes));
		if (!k->codes)
			continue;
		memcpy(k->codes, r->t->class_codes + x->first_code, x->ncodes * sizeof(*k->codes));
		k->ncodes = (int)x->ncodes;
	}
}

static struct pmu_reg_ref ref(struct pmu_tbl_ref x)
{
	return (struct pmu_reg_ref){ x.reg, x.field };
}

static void rebuild_counters(struct rebuild *r, struct pmu_model *m)
{
	m->counters = array(r, r->t->ncounters, sizeof(*m->counters));
	for (uint32_t i = 0; m->counters && i < r->t->ncounters; i++) {
		const struct pmu_tbl_counter *x = &r->t->counters[i];
		struct pmu_counter *c = &m->counters[m->ncounters++];
		*c = (struct pmu_counter){0};

		c->name = str(r, x->name);
		c->sprn = x->sprn;
		c->width = x->width;
		c->privilege = str(r, x->privilege);
		c->programmable = x->programmable;
		c->event = str(r, x->event);
		c->fixed_code = x->fixed_code;
	}
}

static void rebuild_register(struct rebuild *r, const struct pmu_tbl_register *x,
			     struct pmu_register *g)
{
	*g = (struct pmu_register){0};
	g->name = str(r, x->name);
	g->sprn = x->sprn;
	g->width = x->width;
	g->privilege = str(r, x->privilege);
	g->index = x->index;
	g->reset = x->reset;
	if (x->first_field + x->nfields > r->t->nreg_fields) {
		r->bad = 1;
		return;
	}
	g->fields = array(r, x->nfields, sizeof(*g->fields));
	for (uint32_t j = 0; g->fields && j < x->nfields; j++) {
		const struct pmu_tbl_reg_field *y = &r->t->reg_fields[x->first_field + j];
		struct pmu_reg_field *f = &g->fields[g->nfields++];
		*f = (struct pmu_reg_field){0};

		f->name = str(r, y->name);
		f->description = str(r, y->description);
		f->layout = (enum pmu_layout)y->layout;
		f->lo = y->lo;
		f->hi = y->hi;
		f->base = y->base;
		f->stride = y->stride;
		f->width = y->width;
	}
}

static struct pmu_thresh_encoding encoding(struct pmu_tbl_encoding x)
{
	return (struct pmu_thresh_encoding){x.mantissa_bits, x.exponent_bits, x.exponent_step,
					    x.clamp, x.normalized_mask};
}

static void rebuild_fields(struct rebuild *r, struct pmu_model *m)
{
	m->fields = array(r, r->t->nfields, sizeof(*m->fields));
	for (uint32_t i = 0; m->fields && i < r->t->nfields; i++) {
		const struct pmu_tbl_field *x = &r->t->fields[i];
		struct pmu_field *f = &m->fields[m->nfields++];
		*f = (struct pmu_field){0};

		f->name = str(r, x->name);
		f->dts_name = str(r, x->dts_name);
		f->description = str(r, x->description);
		f->source = (enum pmu_source)x->source;
		f->lo = x->lo;
		f->hi = x->hi;
		f->parent = x->parent;
		f->role = (enum pmu_field_role)x->role;
		f->linux_defined = x->linux_defined;
		f->target_reg = x->target_reg;
		f->target_field = x->target_field;
		f->when = cond(r, x->when);
		f->transform = (enum pmu_transform)x->transform;
		f->transform_arg = x->transform_arg;
		f->encoding = encoding(x->encoding);
		f->clear_reg = x->clear_reg;
		f->clear_field = x->clear_field;
	}
}

static void rebuild_constraints(struct rebuild *r, struct pmu_model *m)
{
	m->constraints = array(r, r->t->nconstraints, sizeof(*m->constraints));
	for (uint32_t i = 0; m->constraints && i < r->t->nconstraints; i++) {
		const struct pmu_tbl_constraint *x = &r->t->constraints[i];
		struct pmu_constraint *c = &m->constraints[m->nconstraints++];
		*c = (struct pmu_constraint){0};

		c->name = str(r, x->name);
		c->description = str(r, x->description);
		c->kind = (enum pmu_constraint_kind)x->kind;
		c->source = (enum pmu_source)x->source;
		c->src_lo = x->src_lo;
		c->src_hi = x->src_hi;
		c->transform = (enum pmu_transform)x->transform;
		c->transform_arg = x->transform_arg;
		c->encoding = encoding(x->encoding);
		c->slot_lo = x->slot_lo;
		c->slot_hi = x->slot_hi;
		c->limit = x->limit;
		c->when = cond(r, x->when);
		c->has_flag = x->has_flag != 0;
		c->flag = cond(r, x->flag);
		c->group_reason = str(r, x->group_reason);
		c->group_require = x->group_require;
	}
}

/* A refused-code check's codes, copied (the model owns its arrays). */
static void rebuild_check_codes(struct rebuild *r, const struct pmu_tbl_check *x,
				struct pmu_check *c)
{
	if (!x->ncodes)
		return;
	if (x->first_code > r->t->ncheck_codes || x->ncodes > r->t->ncheck_codes - x->first_code) {
		r->bad = 1;
		return;
	}
	c->codes = array(r, x->ncodes, sizeof(*c->codes));
	if (!c->codes)
		return;
	memcpy(c->codes, r->t->check_codes + x->first_code, x->ncodes * sizeof(*c->codes));
	c->ncodes = (int)x->ncodes;
}

static void rebuild_checks_usage(struct rebuild *r, struct pmu_model *m)
{
	m->checks = array(r, r->t->nchecks, sizeof(*m->checks));
	for (uint32_t i = 0; m->checks && i < r->t->nchecks; i++) {
		const struct pmu_tbl_check *x = &r->t->checks[i];
		struct pmu_check *c = &m->checks[m->nchecks++];
		*c = (struct pmu_check){0};

		c->name = str(r, x->name);
		c->description = str(r, x->description);
		c->kind = (enum pmu_check_kind)x->kind;
		c->when = cond(r, x->when);
		c->field = x->field;
		c->pvr_mask = x->pvr_mask;
		c->pvr_value = x->pvr_value;
		rebuild_check_codes(r, x, c);
	}
	m->usage = array(r, r->t->nusage, sizeof(*m->usage));
	for (uint32_t i = 0; m->usage && i < r->t->nusage; i++) {
		const struct pmu_tbl_usage *x = &r->t->usage[i];
		struct pmu_usage_bit *u = &m->usage[m->nusage++];
		*u = (struct pmu_usage_bit){0};

		u->target = ref(x->target);
		u->when = (enum pmu_usage_when)x->when;
		u->counters = x->counters;
	}
	for (int i = 0; i < PMU_EXCL_COUNT; i++)
		m->exclude[i] = ref(r->t->exclude[i]);
	m->branch_stack_clears = ref(r->t->branch_stack_clears);
}

static void rebuild_maps(struct rebuild *r, struct pmu_model *m)
{
	m->alternatives = array(r, r->t->nalternatives, sizeof(*m->alternatives));
	for (uint32_t i = 0; m->alternatives && i < r->t->nalternatives; i++) {
		const struct pmu_tbl_alternative *x = &r->t->alternatives[i];
		struct pmu_alternative *a = &m->alternatives[m->nalternatives++];
		*a = (struct pmu_alternative){0};

		a->ncodes = (int)x->ncodes;
		memcpy(a->codes, x->codes, sizeof(a->codes));
		a->per_task_only = x->per_task_only;
	}
	m->generic = array(r, r->t->ngeneric, sizeof(*m->generic));
	for (uint32_t i = 0; m->generic && i < r->t->ngeneric; i++) {
		const struct pmu_tbl_generic *x = &r->t->generic[i];
		struct pmu_generic *g = &m->generic[m->ngeneric++];
		*g = (struct pmu_generic){0};

		g->name = str(r, x->name);
		g->state = (enum pmu_map_state)x->state;
		g->code = x->code;
	}
	m->branch_filters = array(r, r->t->nbranch_filters, sizeof(*m->branch_filters));
	for (uint32_t i = 0; m->branch_filters && i < r->t->nbranch_filters; i++) {
		const struct pmu_tbl_branch_filter *x = &r->t->branch_filters[i];
		struct pmu_branch_filter *b = &m->branch_filters[m->nbranch_filters++];
		*b = (struct pmu_branch_filter){0};

		b->name = str(r, x->name);
		b->state = (enum pmu_map_state)x->state;
		b->value = x->value;
	}
	m->branch_filter_target = ref(r->t->branch_filter_target);
	m->has_cache_map = r->t->has_cache_map;
	for (int c = 0; c < PMU_CACHE_NTYPES; c++)
		for (int o = 0; o < PMU_OP_NTYPES; o++)
			for (int s = 0; s < PMU_RESULT_NTYPES; s++) {
				m->cache[c][o][s].state = (enum pmu_map_state)
					r->t->cache[c][o][s].state;
				m->cache[c][o][s].code = r->t->cache[c][o][s].code;
			}
}

static void rebuild_events(struct rebuild *r, struct pmu_model *m)
{
	m->events = array(r, r->t->nevents, sizeof(*m->events));
	for (uint32_t i = 0; m->events && i < r->t->nevents; i++) {
		const struct pmu_tbl_event *x = &r->t->events[i];
		struct pmu_event *e = &m->events[m->nevents++];
		*e = (struct pmu_event){0};

		e->name = str(r, x->name);
		e->code = x->code;
		e->category = str(r, x->category);
		e->event_class = str(r, x->event_class);
		e->description = str(r, x->description);
		e->status = str(r, x->status);
		e->firmware = (x->flags & PMU_TBL_EV_FIRMWARE) != 0;
		e->alias_of = x->alias_of;
	}
}

static void rebuild_presets(struct rebuild *r, struct pmu_model *m)
{
	m->presets = array(r, r->t->npresets, sizeof(*m->presets));
	for (uint32_t i = 0; m->presets && i < r->t->npresets; i++) {
		const struct pmu_tbl_preset *x = &r->t->presets[i];
		struct pmu_preset *p = &m->presets[m->npresets++];
		*p = (struct pmu_preset){0};

		p->name = str(r, x->name);
		p->description = str(r, x->description);
		p->kind = (enum pmu_preset_kind)x->kind;
		if (x->kind >= PMU_PRESET_NKINDS || x->nevents < 1 ||
		    x->nevents > PMU_PRESET_MAX_EVENTS) {
			r->bad = 1;
			continue;
		}
		p->nevents = (int)x->nevents;
		for (uint32_t k = 0; k < x->nevents; k++) {
			p->events[k] = str(r, x->events[k]);
			p->codes[k] = x->codes[k];
		}
		p->postfix = str(r, x->postfix);
	}
}

static void rebuild_metrics(struct rebuild *r, struct pmu_model *m)
{
	m->metrics = array(r, r->t->nmetrics, sizeof(*m->metrics));
	for (uint32_t i = 0; m->metrics && i < r->t->nmetrics; i++) {
		const struct pmu_tbl_metric *x = &r->t->metrics[i];
		m->metrics[m->nmetrics++] = (struct pmu_metric){
			.name = str(r, x->name), .expr = str(r, x->expr), .groups = str(r, x->groups),
			.description = str(r, x->description), .scale_unit = str(r, x->scale_unit),
			.threshold = str(r, x->threshold), .aggregation = str(r, x->aggregation),
			.pmus = str(r, x->pmus)};
		if (!m->metrics[i].name || !m->metrics[i].expr)
			r->bad = 1;
	}
}

/* The identity every table holds, an extension's too: its own name,
 * version, platform, processor versions and base. */
static void rebuild_identity(struct rebuild *r, struct pmu_model *m)
{
	const struct pmu_tables *t = r->t;

	m->source = str(r, t->source);
	m->name = str(r, t->name);
	m->version = str(r, t->version);
	m->platform = str(r, t->platform);
	m->extends = str(r, t->extends);
	m->pvr = t->pvr;
	if (t->npvr_versions > PMU_MAX_PVR_VERSIONS || (t->npvr_versions && !t->pvr_versions)) {
		r->bad = 1;
		return;
	}
	m->npvr_versions = (int)t->npvr_versions;
	for (uint32_t i = 0; i < t->npvr_versions; i++)
		m->pvr_versions[i] = t->pvr_versions[i];
}

/* Deepest chain of bases followed: as many as the YAML loader takes. */
#define MAX_BASE_DEPTH 8

int pmurt_model_from_tables(const struct pmu_tables *t, struct pmu_model *m)
{
	struct rebuild r = { t, 0, 0 };
	const struct pmu_tables *rules = t;

	pmu_model_init(m);
	for (int depth = 0; rules->base; depth++) {
		if (depth == MAX_BASE_DEPTH || rules->tables_version != PMU_TABLES_VERSION)
			return -EINVAL;
		rules = rules->base;
	}
	if (t->tables_version != PMU_TABLES_VERSION || rules->tables_version != PMU_TABLES_VERSION)
		return -EINVAL; /* tables built against another layout */
	m->owns_strings = false;
	rebuild_identity(&r, m);
	/* an extension's rules and events are its base's (pmu_tables.h) */
	r.t = t = rules;
	m->compatible = str(&r, t->compatible);
	m->max_group = t->max_group;
	rebuild_counters(&r, m);
	m->registers = array(&r, t->nregisters, sizeof(*m->registers));
	for (uint32_t i = 0; m->registers && i < t->nregisters; i++)
		rebuild_register(&r, &t->registers[i],
				 &m->registers[m->nregisters++]);
	rebuild_code_classes(&r, m);
	rebuild_fields(&r, m);
	rebuild_constraints(&r, m);
	rebuild_checks_usage(&r, m);
	rebuild_maps(&r, m);
	rebuild_events(&r, m);
	rebuild_presets(&r, m);
	rebuild_metrics(&r, m);
	m->overflow_counter_unknown = t->overflow_counter_unknown != 0;
	if (r.bad) {
		pmu_model_free(m);
		return r.nomem ? -ENOMEM : -EINVAL;
	}
	return 0;
}

