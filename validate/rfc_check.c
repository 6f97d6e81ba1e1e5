/*
 * rfc_check.c - the `rfc` check (pmugen -W rfc): each rule of a description
 * that the kernel RFC "powerpc/perf: Add Device Tree based PMU description
 * framework" (patch 3) cannot express in its tree, or reads differently,
 * reported as a warning naming the RFC function concerned.  The RFC's side
 * is its dts_pmu.c (parse_constraints, pmu_dts_probe, the cpu_dts PMU) and
 * its isa207-common.c additions (isa207_get_constraint_dts,
 * compute_mmcr_dts); the vocabulary is model/rfc_vocab.c.  Off unless asked
 * for: on POWER10 and POWER9 it always has something to say.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pmu_checks.h"
#include "rfc_vocab.h"

#define RFC_MAX_EVENTS 32
#define RFC_NAME_MAX 31

struct rc {
	const struct pmu_model *m;
	struct pmu_diag *d;
	struct pmu_pos top;
};

static void warn(struct rc *c, const struct pmu_pos *pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void warn(struct rc *c, const struct pmu_pos *pos, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pmu_report(c->d, PMU_CHK_RFC, pos ? pos : &c->top, "%s", msg);
}

static const char *when_words(const struct pmu_model *m, const struct pmu_condition *w,
			      char *buf, size_t len)
{
	if (pmu_condition_format(m, w, buf, len) < 0)
		snprintf(buf, len, "(condition)");
	return buf;
}

/* --- constraints: parse_constraints, isa207_get_constraint_dts ------------- */

/* Does the condition keep the rule off PMC5/6 events (a counter term not
 * covering 5 and 6)? */
static bool excludes_fixed(const struct pmu_model *m, const struct pmu_condition *w)
{
	for (int i = 0; i < w->nterms; i++) {
		const struct pmu_term *t = &w->terms[i];

		if (!t->code_class && t->field >= 0 && t->field < m->nfields &&
		    m->fields[t->field].role == PMU_ROLE_PMC && !t->negate && t->hi < 5)
			return true;
	}
	return false;
}

/* A unit term other than "unit is 6..9" (the units the RFC's cache nodes
 * apply to). */
static bool unit_not_6_to_9(const struct pmu_model *m, const struct pmu_condition *w)
{
	for (int i = 0; i < w->nterms; i++) {
		const struct pmu_term *t = &w->terms[i];

		if (!t->code_class && t->field >= 0 && t->field < m->nfields &&
		    m->fields[t->field].role == PMU_ROLE_UNIT &&
		    (t->negate || t->lo != 6 || t->hi != 9))
			return true;
	}
	return false;
}

static void check_constraint(struct rc *c, const struct pmu_constraint *k)
{
	struct pmu_rfc_cons r;
	char w[256];

	pmu_rfc_constraint(c->m, k, &r);
	if (!r.node) {
		warn(c, &k->pos, "constraint '%s': the RFC reads no node of this name (parse_constraints), so it never applies it",
		     k->name);
		return;
	}
	if (r.differs)
		warn(c, &k->pos, "constraint '%s': %s (isa207_get_constraint_dts)", k->name, r.differs);
	if (r.node->form == PMU_RFC_FORM_FIELD && r.node->parent &&
	    strcmp(r.node->parent, "cache") == 0 && unit_not_6_to_9(c->m, &k->when))
		warn(c, &k->pos, "constraint '%s': the RFC applies the cache nodes to every unit 6-9 event (isa207_get_constraint_dts); the description %s",
		     k->name, when_words(c->m, &k->when, w, sizeof(w)));
	if (r.node->form == PMU_RFC_FORM_FIELD && !r.node->parent &&
	    (r.condition == PMU_RFC_ALWAYS || r.condition == PMU_RFC_RADIX) &&
	    excludes_fixed(c->m, &k->when))
		warn(c, &k->pos, "constraint '%s': the RFC applies it to PMC5/6 events too, after their counter check (isa207_get_constraint_dts); the description %s",
		     k->name, when_words(c->m, &k->when, w, sizeof(w)));
}

/* --- checks: power_pmu_event_init, isa207_get_constraint ----------------- */

static void check_check(struct rc *c, const struct pmu_check *k)
{
	const char *name = k->name ? k->name : "?";

	switch (k->kind) {
	case PMU_CHECK_REJECT_WHEN:
	case PMU_CHECK_RESERVED_BITS:
		if (k->kind == PMU_CHECK_REJECT_WHEN && k->when.nterms == 2 &&
		    ((pmu_rfc_ebb_requires_pmc(c->m) && strcmp(name, "ebb_without_pmc") == 0) ||
		     (pmu_rfc_bhrb_requires_ebb(c->m) && strcmp(name, "bhrb_without_ebb") == 0)))
			return; /* the ebb and bhrb flags say it */
		if (strcmp(name, "thresh_cmp_invalid") == 0) {
			warn(c, &k->pos, "check '%s' (%s): the RFC takes these events; isa207_get_constraint_dts has no is_thresh_cmp_valid",
			     name, pmu_check_kind_name(k->kind));
			return;
		}
		warn(c, &k->pos, "check '%s' (%s): the RFC takes these events; cpu_dts has no check_attr_config and isa207_get_constraint_dts no is_event_valid",
		     name, pmu_check_kind_name(k->kind));
		return;
	case PMU_CHECK_REFUSED_CODE:
		warn(c, &k->pos, "check '%s': cpu_dts has no blacklist of codes (is_event_blacklisted)",
		     name);
		return;
	case PMU_CHECK_GROUP_SIZE:
		if (c->m->max_group != 6)
			warn(c, &k->pos, "check '%s': cpu_dts takes MAX_PMU_COUNTERS (6) events in a group",
			     name);
		return;
	case PMU_CHECK_FIXED_COUNTER:
		for (int i = 0; i < c->m->ncounters; i++) {
			const struct pmu_counter *n = &c->m->counters[i];

			if (!n->programmable &&
			    !((i == 4 && n->fixed_code == 0x500fa) || (i == 5 && n->fixed_code == 0x600f4)))
				warn(c, &n->pos, "counter %s: parse_constraints replaces the restricted codes with 0x500fa (PMC5) and 0x600f4 (PMC6)",
				     n->name);
		}
		return;
	default:
		return; /* counter-exists: max-counter; group-agree: ebb_event_check */
	}
}

/* --- alternatives: dts_get_alternatives, isa207_get_alternatives ---------- */

static bool codes_are(const struct pmu_alternative *a, uint64_t x, uint64_t y)
{
	return a->ncodes == 2 && ((a->codes[0] == x && a->codes[1] == y) ||
				  (a->codes[0] == y && a->codes[1] == x));
}

static void check_alternatives(struct rc *c)
{
	for (int i = 0; i < c->m->nalternatives; i++) {
		const struct pmu_alternative *a = &c->m->alternatives[i];
		char codes[96] = "";
		size_t n = 0;

		if (a->per_task_only ? codes_are(a, 0x1e, 0x600f4) || codes_are(a, 0x2, 0x500fa) :
				       codes_are(a, 0x600f4, 0x1001e))
			continue;
		for (int j = 0; j < a->ncodes && n < sizeof(codes); j++)
			n += (size_t)snprintf(codes + n, sizeof(codes) - n, "%s0x%llx", j ? ", " : "",
					      (unsigned long long)a->codes[j]);
		warn(c, &a->pos, a->per_task_only ?
				 "alternative {%s}: isa207_get_alternatives swaps per-task codes only between 0x1e/0x600f4 and 0x2/0x500fa" :
				 "alternative {%s}: the RFC's table is {0x600f4, 0x1001e} alone (dts_get_alternatives)",
		     codes);
	}
}

/* --- fields and registers: compute_mmcr_dts -------------------------------- */

/* A condition holding for every event on PMC1-4 (none, or only a counter
 * term): compute_mmcr_dts writes fields for all of those. */
static bool only_counter_terms(const struct pmu_model *m, const struct pmu_condition *w)
{
	for (int i = 0; i < w->nterms; i++)
		if (w->terms[i].code_class || w->terms[i].field < 0 || w->terms[i].field >= m->nfields ||
		    m->fields[w->terms[i].field].role != PMU_ROLE_PMC)
			return false;
	return true;
}

static void check_field(struct rc *c, const struct pmu_field *f)
{
	char w[256];

	if (f->role == PMU_ROLE_PMC)
		warn(c, &f->pos, "field '%s': compute_mmcr_dts gives an event with %s 0 no counter and places its per-PMC fields at counter 0",
		     f->name, f->name);
	if (f->target_reg < 0)
		return;
	if (f->source != PMU_SRC_CONFIG) {
		warn(c, &f->pos, "field '%s' (from %s): compute_mmcr_dts reads only the event code and never writes it",
		     f->name, pmu_source_name(f->source));
		return;
	}
	if (!f->dts_name) {
		warn(c, &f->pos, "field '%s' has no evt_code_format node: compute_mmcr_dts never writes it",
		     f->name);
		return;
	}
	if (f->transform == PMU_XF_SDAR_MODE)
		warn(c, &f->pos, "field '%s': compute_mmcr_dts writes it as the code has it, without mmcra_sdar_mode's default for 0 and clearing for marked events",
		     f->name);
	if (!only_counter_terms(c->m, &f->when))
		warn(c, &f->pos, "field '%s': compute_mmcr_dts writes it for every event on PMC1-4; the description %s",
		     f->name, when_words(c->m, &f->when, w, sizeof(w)));
}

/* The fixed fields a register's reset value sets, "A, B". */
static const char *reset_fields(const struct pmu_register *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < r->nfields && n < len; i++) {
		const struct pmu_reg_field *f = &r->fields[i];

		if (f->layout == PMU_LAYOUT_FIXED && (r->reset & pmu_bits_mask(f->lo, f->hi)))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", f->name);
	}
	return n ? buf : "bits of no named field";
}

static void check_registers(struct rc *c)
{
	const struct pmu_model *m = c->m;
	char names[256];

	for (int i = 0; i < m->nregisters; i++)
		if (m->registers[i].reset)
			warn(c, &m->registers[i].pos, "register %s: compute_mmcr_dts starts it at 0, so what it holds at reset (%s) is never set",
			     m->registers[i].name, reset_fields(&m->registers[i], names, sizeof(names)));
	if (m->exclude[PMU_EXCL_IDLE].reg >= 0)
		warn(c, NULL, "privilege filter exclude_idle: compute_mmcr_dts sets no bit for it");
	if (m->nbranch_filters)
		warn(c, &m->branch_filters[0].pos, "branch filters: cpu_dts has no bhrb_filter_map");
	if (m->ngeneric || m->has_cache_map)
		warn(c, NULL, "generic and cache events: cpu_dts has no generic_events or cache_events");
}

/* --- events: pmu_dts_probe ---------------------------------------------------- */

static void check_events(struct rc *c, bool all_events)
{
	int n = 0, cut = 0;

	for (int i = 0; i < c->m->nevents; i++) {
		const struct pmu_event *e = &c->m->events[i];

		if (!all_events && !e->firmware)
			continue;
		n++;
		cut += strlen(e->name) > RFC_NAME_MAX;
	}
	if (n > RFC_MAX_EVENTS)
		warn(c, NULL, "%d events in the tree: pmu_dts_probe registers the first %d (the firmware set comes first)",
		     n, RFC_MAX_EVENTS);
	if (cut)
		warn(c, NULL, "%d event names are longer than 31 characters: their nodes, and the RFC's sysfs names, are cut (event-name keeps the name)",
		     cut);
}

void pmu_check_rfc(const struct pmu_model *m, struct pmu_diag *d, bool all_events)
{
	struct rc c = { m, d, { m->source, 0, 0 } };

	if (d->level[PMU_CHK_RFC] == PMU_SEV_OFF)
		return;
	for (int i = 0; i < m->nconstraints; i++)
		check_constraint(&c, &m->constraints[i]);
	for (int i = 0; i < m->nchecks; i++)
		check_check(&c, &m->checks[i]);
	check_alternatives(&c);
	for (int i = 0; i < m->nfields; i++)
		check_field(&c, &m->fields[i]);
	check_registers(&c);
	check_events(&c, all_events);
}
