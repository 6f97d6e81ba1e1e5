/*
 * equal.c - do two models describe the same PMU? (pmu_model_equal)
 *
 * Used to show that YAML, DTB, device-tree directories and built-in tables
 * all load into the same description.  Where order carries meaning it is
 * compared (fields, in canonical order; checks, whose order decides the
 * reason; alternatives, searched in order).  Collections whose order means
 * nothing (counters, registers and their fields, constraints, counter-usage
 * bits, generic events, events, presets) are matched by name: a live device tree
 * (kernfs) lists nodes in hash order, not in the order they were written.
 * References are compared by the names they point to.  Source positions are
 * never compared.
 */
#include <stdio.h>
#include <string.h>

#include "pmu_model.h"

struct differ {
	char *buf;
	size_t len;
	bool same;
};

static bool note(struct differ *d, const char *what, const char *name)
{
	if (d->same && d->buf && d->len)
		snprintf(d->buf, d->len, "%s%s%s differs", what, name ? " " : "",
			 name ? name : "");
	d->same = false;
	return false;
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* --- names behind indices ------------------------------------------------- */
static const char *field_name(const struct pmu_model *m, int i)
{
	return i >= 0 && i < m->nfields ? m->fields[i].name : NULL;
}

static const char *reg_name(const struct pmu_model *m, int r)
{
	return r >= 0 && r < m->nregisters ? m->registers[r].name : NULL;
}

static const char *reg_field_name(const struct pmu_model *m, int r, int f)
{
	if (r < 0 || r >= m->nregisters || f < 0 || f >= m->registers[r].nfields)
		return NULL;
	return m->registers[r].fields[f].name;
}

static bool ref_eq(const struct pmu_model *a, int ra, int fa,
		   const struct pmu_model *b, int rb, int fb)
{
	return str_eq(reg_name(a, ra), reg_name(b, rb)) &&
	       str_eq(reg_field_name(a, ra, fa), reg_field_name(b, rb, fb));
}

static const char *class_name(const struct pmu_model *m, int i)
{
	return i >= 0 && i < m->ncode_classes ? m->code_classes[i].name : NULL;
}

/* What a term tests: a field's or a code class's name. */
static const char *term_subject(const struct pmu_model *m, const struct pmu_term *t)
{
	return t->code_class ? class_name(m, t->field) : field_name(m, t->field);
}

static bool cond_eq(const struct pmu_model *a, const struct pmu_condition *x,
		    const struct pmu_model *b, const struct pmu_condition *y)
{
	if (x->nterms != y->nterms)
		return false;
	for (int i = 0; i < x->nterms; i++) {
		const struct pmu_term *s = &x->terms[i], *t = &y->terms[i];
		if (s->code_class != t->code_class ||
		    !str_eq(term_subject(a, s), term_subject(b, t)) ||
		    s->negate != t->negate || s->lo != t->lo || s->hi != t->hi)
			return false;
	}
	return true;
}

/* --- items ---------------------------------------------------------------- */
static bool counter_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_counter *x = &a->counters[i], *y = &b->counters[j];
	return str_eq(x->name, y->name) && x->sprn == y->sprn && x->width == y->width &&
	       str_eq(x->privilege, y->privilege) && x->programmable == y->programmable &&
	       str_eq(x->event, y->event) && x->fixed_code == y->fixed_code;
}

static bool reg_field_eq(const struct pmu_reg_field *x, const struct pmu_reg_field *y)
{
	if (!str_eq(x->name, y->name) || !str_eq(x->description, y->description) ||
	    x->layout != y->layout)
		return false;
	if (x->layout == PMU_LAYOUT_FIXED)
		return x->lo == y->lo && x->hi == y->hi;
	return x->base == y->base && x->stride == y->stride && x->width == y->width;
}

static bool register_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_register *x = &a->registers[i], *y = &b->registers[j];
	if (!str_eq(x->name, y->name) || x->sprn != y->sprn || x->width != y->width ||
	    !str_eq(x->privilege, y->privilege) || x->index != y->index ||
	    x->reset != y->reset || x->nfields != y->nfields)
		return false;
	for (int f = 0; f < x->nfields; f++) {
		int g = pmu_model_reg_field(y, x->fields[f].name);
		if (g < 0 || !reg_field_eq(&x->fields[f], &y->fields[g]))
			return false;
	}
	return true;
}

static bool encoding_eq(const struct pmu_thresh_encoding *x, const struct pmu_thresh_encoding *y)
{
	for (int p = 0; p < PMU_ENC_NPARAMS; p++)
		if (pmu_thresh_param_get(x, (enum pmu_thresh_param)p) !=
		    pmu_thresh_param_get(y, (enum pmu_thresh_param)p))
			return false;
	return true;
}

static bool field_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_field *x = &a->fields[i], *y = &b->fields[j];
	return str_eq(x->name, y->name) && str_eq(x->dts_name, y->dts_name) &&
	       str_eq(x->description, y->description) && x->source == y->source &&
	       x->lo == y->lo && x->hi == y->hi &&
	       str_eq(field_name(a, x->parent), field_name(b, y->parent)) &&
	       x->role == y->role && x->linux_defined == y->linux_defined &&
	       ref_eq(a, x->target_reg, x->target_field, b, y->target_reg, y->target_field) &&
	       cond_eq(a, &x->when, b, &y->when) && x->transform == y->transform &&
	       x->transform_arg == y->transform_arg && encoding_eq(&x->encoding, &y->encoding) &&
	       ref_eq(a, x->clear_reg, x->clear_field, b, y->clear_reg, y->clear_field);
}

static bool constraint_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_constraint *x = &a->constraints[i], *y = &b->constraints[j];
	return str_eq(x->name, y->name) && str_eq(x->description, y->description) &&
	       x->kind == y->kind && x->source == y->source && x->src_lo == y->src_lo &&
	       x->src_hi == y->src_hi && x->transform == y->transform &&
	       x->transform_arg == y->transform_arg &&
	       encoding_eq(&x->encoding, &y->encoding) && x->slot_lo == y->slot_lo &&
	       x->slot_hi == y->slot_hi && x->limit == y->limit &&
	       cond_eq(a, &x->when, b, &y->when) && x->has_flag == y->has_flag &&
	       cond_eq(a, &x->flag, b, &y->flag) && str_eq(x->group_reason, y->group_reason) &&
	       x->group_require == y->group_require;
}

static bool check_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_check *x = &a->checks[i], *y = &b->checks[j];
	return str_eq(x->name, y->name) && str_eq(x->description, y->description) &&
	       x->kind == y->kind && cond_eq(a, &x->when, b, &y->when) &&
	       str_eq(field_name(a, x->field), field_name(b, y->field)) &&
	       x->pvr_mask == y->pvr_mask && x->pvr_value == y->pvr_value &&
	       x->ncodes == y->ncodes &&
	       (!x->ncodes || !memcmp(x->codes, y->codes, (size_t)x->ncodes * sizeof(*x->codes)));
}

static bool usage_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_usage_bit *x = &a->usage[i], *y = &b->usage[j];
	return ref_eq(a, x->target.reg, x->target.field, b, y->target.reg, y->target.field) &&
	       x->when == y->when && x->counters == y->counters;
}

static bool alt_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_alternative *x = &a->alternatives[i], *y = &b->alternatives[j];
	if (x->ncodes != y->ncodes || x->per_task_only != y->per_task_only)
		return false;
	for (int k = 0; k < x->ncodes; k++)
		if (x->codes[k] != y->codes[k])
			return false;
	return true;
}

static bool code_class_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_code_class *x = &a->code_classes[i], *y = &b->code_classes[j];
	return str_eq(x->name, y->name) && str_eq(x->description, y->description) &&
	       x->mask == y->mask && x->ncodes == y->ncodes &&
	       (!x->ncodes || !memcmp(x->codes, y->codes, (size_t)x->ncodes * sizeof(*x->codes)));
}

static bool generic_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_generic *x = &a->generic[i], *y = &b->generic[j];
	return str_eq(x->name, y->name) && x->state == y->state && x->code == y->code;
}

static bool branch_filter_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_branch_filter *x = &a->branch_filters[i], *y = &b->branch_filters[j];
	return str_eq(x->name, y->name) && x->state == y->state && x->value == y->value;
}

static bool event_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_event *x = &a->events[i], *y = &b->events[j];
	const char *xa = x->alias_of >= 0 ? a->events[x->alias_of].name : NULL;
	const char *ya = y->alias_of >= 0 ? b->events[y->alias_of].name : NULL;
	return str_eq(x->name, y->name) && x->code == y->code &&
	       str_eq(x->category, y->category) && str_eq(x->event_class, y->event_class) &&
	       str_eq(x->description, y->description) && str_eq(x->status, y->status) &&
	       x->firmware == y->firmware && str_eq(xa, ya);
}

static bool preset_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_preset *x = &a->presets[i], *y = &b->presets[j];
	if (!str_eq(x->name, y->name) || !str_eq(x->description, y->description) ||
	    x->kind != y->kind || x->nevents != y->nevents || !str_eq(x->postfix, y->postfix))
		return false;
	for (int k = 0; k < x->nevents; k++)
		if (!str_eq(x->events[k], y->events[k]) || x->codes[k] != y->codes[k])
			return false;
	return true;
}

/* Metrics in order: perf's JSON may give a name twice. */
static bool metric_eq(const struct pmu_model *a, int i, const struct pmu_model *b, int j)
{
	const struct pmu_metric *x = &a->metrics[i], *y = &b->metrics[j];
	return str_eq(x->name, y->name) && str_eq(x->expr, y->expr) &&
	       str_eq(x->groups, y->groups) && str_eq(x->description, y->description) &&
	       str_eq(x->scale_unit, y->scale_unit) && str_eq(x->threshold, y->threshold) &&
	       str_eq(x->aggregation, y->aggregation) && str_eq(x->pmus, y->pmus);
}

static const char *metric_key(const struct pmu_model *m, int i) { return m->metrics[i].name; }

/* --- collections ---------------------------------------------------------- */
typedef bool (*item_eq)(const struct pmu_model *, int, const struct pmu_model *, int);
typedef const char *(*item_key)(const struct pmu_model *, int);

static bool ordered_eq(struct differ *d, const char *what, const struct pmu_model *a,
		       int na, const struct pmu_model *b, int nb, item_eq eq, item_key key)
{
	if (na != nb)
		return note(d, what, "count");
	for (int i = 0; i < na; i++)
		if (!eq(a, i, b, i))
			return note(d, what, key ? key(a, i) : NULL);
	return true;
}

/* How many items of m (n of them) have a's item i's key and equal it. */
static int count_equal(const struct pmu_model *m, int n, const struct pmu_model *a, int i,
		       item_eq eq, item_key key)
{
	const char *k = key(a, i);
	int c = 0;
	for (int j = 0; j < n; j++)
		c += str_eq(key(m, j), k) && eq(a, i, m, j);
	return c;
}

/* The same items in a and b, in any order: each item of a as many times in
 * b as in a.  Keys are mostly unique, but not always (two counter-usage bits
 * may set the same field for different counters, as a tree may say). */
static bool keyed_eq(struct differ *d, const char *what, const struct pmu_model *a,
		     int na, const struct pmu_model *b, int nb, item_eq eq, item_key key)
{
	if (na != nb)
		return note(d, what, "count");
	for (int i = 0; i < na; i++)
		if (count_equal(b, nb, a, i, eq, key) != count_equal(a, na, a, i, eq, key))
			return note(d, what, key(a, i));
	return true;
}

static const char *counter_key(const struct pmu_model *m, int i) { return m->counters[i].name; }
static const char *register_key(const struct pmu_model *m, int i) { return m->registers[i].name; }
static const char *field_key(const struct pmu_model *m, int i) { return m->fields[i].name; }
static const char *constraint_key(const struct pmu_model *m, int i) { return m->constraints[i].name; }
static const char *check_key(const struct pmu_model *m, int i) { return m->checks[i].name; }
static const char *generic_key(const struct pmu_model *m, int i) { return m->generic[i].name; }
static const char *code_class_key(const struct pmu_model *m, int i) { return m->code_classes[i].name; }
static const char *event_key(const struct pmu_model *m, int i) { return m->events[i].name; }
static const char *preset_key(const struct pmu_model *m, int i) { return m->presets[i].name; }
static const char *branch_filter_key(const struct pmu_model *m, int i) { return m->branch_filters[i].name; }

static const char *usage_key(const struct pmu_model *m, int i)
{
	return reg_field_name(m, m->usage[i].target.reg, m->usage[i].target.field);
}

/* What a description that extends another names for itself (`extends`). */
static bool own_identity_eq(struct differ *d, const struct pmu_model *a,
			    const struct pmu_model *b)
{
	if (!str_eq(a->name, b->name) || !str_eq(a->version, b->version) ||
	    !str_eq(a->platform, b->platform) || a->pvr != b->pvr ||
	    !str_eq(a->extends, b->extends) || a->npvr_versions != b->npvr_versions ||
	    memcmp(a->pvr_versions, b->pvr_versions,
		   (size_t)a->npvr_versions * sizeof(a->pvr_versions[0])) != 0)
		return note(d, "identity", NULL);
	return true;
}

static bool identity_eq(struct differ *d, const struct pmu_model *a,
			const struct pmu_model *b)
{
	if (!str_eq(a->compatible, b->compatible) || a->max_group != b->max_group ||
	    a->overflow_counter_unknown != b->overflow_counter_unknown)
		return note(d, "identity", NULL);
	for (int i = 0; i < PMU_EXCL_COUNT; i++)
		if (!ref_eq(a, a->exclude[i].reg, a->exclude[i].field, b, b->exclude[i].reg,
			    b->exclude[i].field))
			return note(d, "privilege filter", pmu_exclude_name(i));
	if (!ref_eq(a, a->branch_stack_clears.reg, a->branch_stack_clears.field, b,
		    b->branch_stack_clears.reg, b->branch_stack_clears.field))
		return note(d, "branch-stack-clears", NULL);
	if (!ref_eq(a, a->branch_filter_target.reg, a->branch_filter_target.field, b,
		    b->branch_filter_target.reg, b->branch_filter_target.field))
		return note(d, "branch-filters target", NULL);
	return true;
}

static bool cache_eq(struct differ *d, const struct pmu_model *a, const struct pmu_model *b)
{
	if (a->has_cache_map != b->has_cache_map)
		return note(d, "cache-events", NULL);
	for (int c = 0; c < PMU_CACHE_NTYPES; c++)
		for (int o = 0; o < PMU_OP_NTYPES; o++)
			for (int r = 0; r < PMU_RESULT_NTYPES; r++) {
				const struct pmu_cache_entry *x = &a->cache[c][o][r];
				const struct pmu_cache_entry *y = &b->cache[c][o][r];
				if (x->state != y->state || x->code != y->code)
					return note(d, "cache event", pmu_cache_name(c));
			}
	return true;
}

static bool pmu_eq(struct differ *d, const struct pmu_model *a, const struct pmu_model *b)
{
	return identity_eq(d, a, b) &&
	       keyed_eq(d, "counter", a, a->ncounters, b, b->ncounters, counter_eq, counter_key) &&
	       keyed_eq(d, "register", a, a->nregisters, b, b->nregisters, register_eq, register_key) &&
	       keyed_eq(d, "code class", a, a->ncode_classes, b, b->ncode_classes, code_class_eq,
			code_class_key) &&
	       ordered_eq(d, "field", a, a->nfields, b, b->nfields, field_eq, field_key) &&
	       keyed_eq(d, "constraint", a, a->nconstraints, b, b->nconstraints, constraint_eq,
			constraint_key) &&
	       ordered_eq(d, "check", a, a->nchecks, b, b->nchecks, check_eq, check_key) &&
	       keyed_eq(d, "counter-usage bit", a, a->nusage, b, b->nusage, usage_eq, usage_key) &&
	       ordered_eq(d, "alternative", a, a->nalternatives, b, b->nalternatives, alt_eq, NULL) &&
	       keyed_eq(d, "generic event", a, a->ngeneric, b, b->ngeneric, generic_eq, generic_key) &&
	       ordered_eq(d, "branch filter", a, a->nbranch_filters, b, b->nbranch_filters,
			  branch_filter_eq, branch_filter_key) &&
	       keyed_eq(d, "event", a, a->nevents, b, b->nevents, event_eq, event_key) &&
	       keyed_eq(d, "preset", a, a->npresets, b, b->npresets, preset_eq, preset_key) &&
	       ordered_eq(d, "metric", a, a->nmetrics, b, b->nmetrics, metric_eq, metric_key) &&
	       cache_eq(d, a, b);
}

bool pmu_model_equal(const struct pmu_model *a, const struct pmu_model *b,
		     char *diff, size_t difflen)
{
	struct differ dd = {diff, difflen, true};
	if (diff && difflen)
		diff[0] = '\0';
	return own_identity_eq(&dd, a, b) && pmu_eq(&dd, a, b);
}

bool pmu_model_same_pmu(const struct pmu_model *a, const struct pmu_model *b,
			char *diff, size_t difflen)
{
	struct differ dd = {diff, difflen, true};
	if (diff && difflen)
		diff[0] = '\0';
	return pmu_eq(&dd, a, b);
}
