/*
 * equal.c - deep comparison of two PMU models (pmu_model_equal), used to show
 * that YAML, DTB, device-tree directories and built-in tables all load into
 * the same description.  Source positions are not compared.
 */
#include <stdio.h>
#include <string.h>

#include "pmu_model.h"

struct differ {
	char *buf;
	size_t len;
	bool same;
};

static bool note(struct differ *d, const char *what, int idx, const char *name)
{
	if (d->same && d->buf && d->len)
		snprintf(d->buf, d->len, "%s[%d]%s%s differs", what, idx,
			 name ? " " : "", name ? name : "");
	d->same = false;
	return false;
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

static bool cond_eq(const struct pmu_condition *a, const struct pmu_condition *b)
{
	if (a->nterms != b->nterms)
		return false;
	for (int i = 0; i < a->nterms; i++) {
		const struct pmu_term *x = &a->terms[i], *y = &b->terms[i];
		if (x->field != y->field || x->negate != y->negate ||
		    x->lo != y->lo || x->hi != y->hi)
			return false;
	}
	return true;
}

static bool counter_eq(const struct pmu_counter *a, const struct pmu_counter *b)
{
	return str_eq(a->name, b->name) && a->sprn == b->sprn &&
	       a->width == b->width && str_eq(a->privilege, b->privilege) &&
	       a->programmable == b->programmable && str_eq(a->event, b->event) &&
	       a->fixed_code == b->fixed_code;
}

static bool reg_field_eq(const struct pmu_reg_field *a, const struct pmu_reg_field *b)
{
	if (!str_eq(a->name, b->name) || !str_eq(a->description, b->description) ||
	    a->layout != b->layout)
		return false;
	if (a->layout == PMU_LAYOUT_FIXED)
		return a->lo == b->lo && a->hi == b->hi;
	return a->base == b->base && a->stride == b->stride && a->width == b->width;
}

static bool register_eq(const struct pmu_register *a, const struct pmu_register *b)
{
	if (!str_eq(a->name, b->name) || a->sprn != b->sprn || a->width != b->width ||
	    !str_eq(a->privilege, b->privilege) || a->index != b->index ||
	    a->reset != b->reset || a->nfields != b->nfields)
		return false;
	for (int i = 0; i < a->nfields; i++)
		if (!reg_field_eq(&a->fields[i], &b->fields[i]))
			return false;
	return true;
}

static bool field_eq(const struct pmu_field *a, const struct pmu_field *b)
{
	return str_eq(a->name, b->name) && str_eq(a->dts_name, b->dts_name) &&
	       str_eq(a->description, b->description) && a->source == b->source &&
	       a->lo == b->lo && a->hi == b->hi && a->parent == b->parent &&
	       a->role == b->role && a->linux_defined == b->linux_defined &&
	       a->target_reg == b->target_reg &&
	       (a->target_reg < 0 || a->target_field == b->target_field) &&
	       cond_eq(&a->when, &b->when) && a->transform == b->transform &&
	       a->transform_arg == b->transform_arg && a->clear_reg == b->clear_reg &&
	       (a->clear_reg < 0 || a->clear_field == b->clear_field);
}

static bool constraint_eq(const struct pmu_constraint *a, const struct pmu_constraint *b)
{
	return str_eq(a->name, b->name) && str_eq(a->description, b->description) &&
	       a->kind == b->kind && a->source == b->source &&
	       a->src_lo == b->src_lo && a->src_hi == b->src_hi &&
	       a->transform == b->transform && a->transform_arg == b->transform_arg &&
	       a->slot_lo == b->slot_lo && a->slot_hi == b->slot_hi &&
	       a->limit == b->limit && cond_eq(&a->when, &b->when);
}

static bool check_eq(const struct pmu_check *a, const struct pmu_check *b)
{
	return str_eq(a->name, b->name) && str_eq(a->description, b->description) &&
	       a->kind == b->kind && cond_eq(&a->when, &b->when) && a->field == b->field;
}

static bool usage_eq(const struct pmu_usage_bit *a, const struct pmu_usage_bit *b)
{
	return a->target.reg == b->target.reg && a->target.field == b->target.field &&
	       a->when == b->when && a->counters == b->counters;
}

static bool alt_eq(const struct pmu_alternative *a, const struct pmu_alternative *b)
{
	if (a->ncodes != b->ncodes || a->per_task_only != b->per_task_only)
		return false;
	for (int i = 0; i < a->ncodes; i++)
		if (a->codes[i] != b->codes[i])
			return false;
	return true;
}

static bool generic_eq(const struct pmu_generic *a, const struct pmu_generic *b)
{
	return str_eq(a->name, b->name) && a->state == b->state && a->code == b->code;
}

static bool event_eq(const struct pmu_event *a, const struct pmu_event *b)
{
	return str_eq(a->name, b->name) && a->code == b->code &&
	       str_eq(a->category, b->category) && str_eq(a->event_class, b->event_class) &&
	       str_eq(a->description, b->description) && str_eq(a->status, b->status) &&
	       a->firmware == b->firmware && a->alias_of == b->alias_of;
}

/* Compare two arrays element by element with eq(); name() labels a mismatch. */
#define LIST_EQ(d, what, na, a, nb, b, eq, namefield)                          \
	do {                                                                  \
		if ((na) != (nb))                                             \
			return note(d, what " count", (na), NULL);            \
		for (int i_ = 0; i_ < (na); i_++)                             \
			if (!eq(&(a)[i_], &(b)[i_]))                          \
				return note(d, what, i_, (a)[i_].namefield);  \
	} while (0)

static bool identity_eq(struct differ *d, const struct pmu_model *a,
			const struct pmu_model *b)
{
	if (!str_eq(a->name, b->name) || !str_eq(a->version, b->version) ||
	    !str_eq(a->platform, b->platform) || !str_eq(a->compatible, b->compatible) ||
	    a->max_group != b->max_group)
		return note(d, "identity", 0, NULL);
	for (int i = 0; i < PMU_EXCL_COUNT; i++)
		if (a->exclude[i].reg != b->exclude[i].reg ||
		    a->exclude[i].field != b->exclude[i].field)
			return note(d, "privilege-filters", i, pmu_exclude_name(i));
	if (a->branch_stack_clears.reg != b->branch_stack_clears.reg ||
	    a->branch_stack_clears.field != b->branch_stack_clears.field)
		return note(d, "branch-stack-clears", 0, NULL);
	return true;
}

static bool cache_eq(struct differ *d, const struct pmu_model *a,
		     const struct pmu_model *b)
{
	if (a->has_cache_map != b->has_cache_map)
		return note(d, "cache-events", 0, NULL);
	for (int c = 0; c < PMU_CACHE_NTYPES; c++)
		for (int o = 0; o < PMU_OP_NTYPES; o++)
			for (int r = 0; r < PMU_RESULT_NTYPES; r++) {
				const struct pmu_cache_entry *x = &a->cache[c][o][r];
				const struct pmu_cache_entry *y = &b->cache[c][o][r];
				if (x->state != y->state || x->code != y->code)
					return note(d, "cache-events", c, pmu_cache_name(c));
			}
	return true;
}

bool pmu_model_equal(const struct pmu_model *a, const struct pmu_model *b,
		     char *diff, size_t difflen)
{
	struct differ dd = {diff, difflen, true}, *d = &dd;
	if (diff && difflen)
		diff[0] = '\0';
	if (!identity_eq(d, a, b))
		return false;
	LIST_EQ(d, "counter", a->ncounters, a->counters, b->ncounters, b->counters, counter_eq, name);
	LIST_EQ(d, "register", a->nregisters, a->registers, b->nregisters, b->registers, register_eq, name);
	LIST_EQ(d, "field", a->nfields, a->fields, b->nfields, b->fields, field_eq, name);
	LIST_EQ(d, "constraint", a->nconstraints, a->constraints, b->nconstraints, b->constraints, constraint_eq, name);
	LIST_EQ(d, "check", a->nchecks, a->checks, b->nchecks, b->checks, check_eq, name);
	LIST_EQ(d, "generic event", a->ngeneric, a->generic, b->ngeneric, b->generic, generic_eq, name);
	LIST_EQ(d, "event", a->nevents, a->events, b->nevents, b->events, event_eq, name);
	if (a->nusage != b->nusage)
		return note(d, "counter-usage count", a->nusage, NULL);
	for (int i = 0; i < a->nusage; i++)
		if (!usage_eq(&a->usage[i], &b->usage[i]))
			return note(d, "counter-usage", i, NULL);
	if (a->nalternatives != b->nalternatives)
		return note(d, "alternatives count", a->nalternatives, NULL);
	for (int i = 0; i < a->nalternatives; i++)
		if (!alt_eq(&a->alternatives[i], &b->alternatives[i]))
			return note(d, "alternative", i, NULL);
	return cache_eq(d, a, b);
}
