/*
 * dtb_constraints.c - the DTB loader's reading of constraints/: the constraint nodes
 * (directly there or under the kernel RFC's threshold and cache parents,
 * rfc_vocab.h), with a warning for a tree in the layout before the RFC
 * vocabulary; the alternatives and the per-event checks.
 */
#include <errno.h>
#include <libfdt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtb_internal.h"
#include "rfc_vocab.h"

/* The constraint's source: a field's bits, a bit range, or (skiboot) the
 * RFC's event-mask and event-shift. */
static int constraint_source(struct dl *L, int node, struct pmu_constraint *c)
{
	const char *fname;
	int src = PMU_SRC_CONFIG, rc;

	if (dl_get_enum(L, node, "source", false, dl_source_name, PMU_SRC_CONFIG1 + 1, &src) < 0)
		return -EINVAL;
	c->source = (enum pmu_source)src;
	rc = dl_get_str(L, node, "field", false, &fname);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		int f = pmu_model_field(L->m, fname);

		if (f < 0)
			return dl_fail(L, node, "field", "no field '%s'", fname);
		c->src_lo = L->m->fields[f].lo;
		c->src_hi = L->m->fields[f].hi;
		return 0;
	}
	rc = dl_get_range(L, node, "bits", false, &c->src_lo, &c->src_hi);
	if (rc <= 0)
		return rc;
	if (c->kind == PMU_CONS_EQUAL && !dl_has_prop(L, node, "flag"))
		return dl_fail(L, node, NULL, "an equal constraint needs 'field', 'bits' or 'flag'");
	return 0;
}

/* An equal constraint's `flag` condition and its group rule
 * (`group-require` and `group-reason` together). */
static int load_group_rule(struct dl *L, int node, struct pmu_constraint *c)
{
	bool req = dl_has_prop(L, node, "group-require"), why = dl_has_prop(L, node, "group-reason");

	c->has_flag = dl_has_prop(L, node, "flag");
	if ((c->has_flag || req || why) && c->kind != PMU_CONS_EQUAL)
		return dl_fail(L, node, c->has_flag ? "flag" : "group-require",
			    "only an equal constraint takes a flag or a group rule");
	if (c->has_flag && dl_get_condition(L, node, "flag", &c->flag) < 0)
		return -EINVAL;
	if (req != why)
		return dl_fail(L, node, req ? "group-reason" : "group-require",
			    "group-require and group-reason go together");
	if (!req)
		return 0;
	if (dl_get_u64(L, node, "group-require", true, false, &c->group_require) < 0 ||
	    dl_get_strdup(L, node, "group-reason", true, &c->group_reason) < 0)
		return -EINVAL;
	uint32_t width = c->slot_hi - c->slot_lo + 1;
	if (width < 64 && c->group_require >> width)
		return dl_fail(L, node, "group-require", "0x%llx does not fit the %u-bit slot",
			    (unsigned long long)c->group_require, width);
	return 0;
}

static int load_constraint(struct dl *L, int node, struct pmu_constraint *c)
{
	int kind = PMU_CONS_EQUAL, rc = 0;

	c->pos = dl_node_pos(L, node);
	c->name = pmu_strdup(dl_node_name(L, node));
	if (!c->name)
		return dl_oom(L);
	if (dl_get_enum(L, node, "kind", true, dl_cons_kind_name, PMU_CONS_COUNT + 1, &kind) < 0)
		return -EINVAL;
	c->kind = (enum pmu_constraint_kind)kind;
	rc |= constraint_source(L, node, c) < 0;
	rc |= dl_constraint_slot(L, node, c) < 0;
	rc |= dl_get_condition(L, node, "when", &c->when) < 0;
	rc |= dl_get_strdup(L, node, "description", false, &c->description) < 0;
	rc |= dl_get_transform(L, node, &c->transform, &c->transform_arg, &c->encoding) < 0;
	rc |= dl_get_u32(L, node, "limit", c->kind != PMU_CONS_EQUAL, &c->limit) < 0;
	rc |= load_group_rule(L, node, c) < 0;
	return rc ? -EINVAL : 0;
}

static bool reserved_constraint_child(struct dl *L, int node)
{
	const char *n = dl_node_name(L, node);

	return !dl_has_prop(L, node, "kind") &&
	       (strcmp(n, "fields") == 0 || strcmp(n, "alternatives") == 0 ||
		strcmp(n, "checks") == 0);
}

/* Constraint nodes: pmugen's (with `kind`, directly under `constraints` or
 * under the RFC's `threshold` and `cache` parents) or, in a skiboot tree,
 * the usable ones among its constraint nodes and their children. */
static int collect_constraints(struct dl *L, int parent, int depth, int *nodes,
			       int max)
{
	int node, n = 0;

	fdt_for_each_subnode(node, L->fdt, parent) {
		if (depth == 0 && reserved_constraint_child(L, node))
			continue;
		if (dl_has_prop(L, node, "kind") ||
		    (L->legacy && skiboot_constraint_usable(L, node))) {
			if (nodes && n < max)
				nodes[n] = node;
			n++;
		} else if (!L->legacy && depth == 0 && pmu_rfc_is_parent(dl_node_name(L, node))) {
			n += collect_constraints(L, node, 1, nodes ? nodes + n : NULL,
						 max - n);
		} else if (!L->legacy) {
			continue; /* not ours: ignored, as the kernel does */
		} else if (depth == 0 && fdt_first_subnode(L->fdt, node) >= 0) {
			n += collect_constraints(L, node, 1, nodes ? nodes + n : NULL,
						 max - n);
		} else if (!nodes) {
			L->legacy_skipped++; /* counted on the first pass only */
		}
	}
	return n;
}

/* Constraint names pmugen wrote before its trees used the RFC's vocabulary,
 * with the RFC node that now holds the same rule. */
static const char *const old_constraint_names[][2] = {
	{ "pmc", "pmc-constraints" },
	{ "ifm", "bhrb" },
	{ "thresh-ctl-sel", "threshold/thresh-sel and threshold/thresh-ctl" },
	{ "thresh", "threshold/thresh-sel, threshold/thresh-ctl and threshold/thresh-cmp" },
	{ "l2l3-psel", "cache/cache-group" },
	{ "l2l3-pmc4", "cache/cache-pmc4" },
};

static bool at_top(struct dl *L, int node)
{
	int parent = fdt_parent_offset(L->fdt, node);

	return parent >= 0 && strcmp(dl_node_name(L, parent), "constraints") == 0;
}

/* What the RFC reads on a node of its vocabulary is missing, or the node
 * is not where the RFC looks: pmugen wrote the tree before it used the RFC's
 * vocabulary (its nodes then had no condition, nc no mask). */
static bool rfc_node_stale(struct dl *L, int node)
{
	const struct pmu_rfc_node *r = pmu_rfc_node(dl_node_name(L, node));

	if (!r)
		return false;
	if (r->parent && at_top(L, node))
		return true;
	switch (r->form) {
	case PMU_RFC_FORM_FIELD: return !dl_has_prop(L, node, "condition");
	case PMU_RFC_FORM_NC: return !dl_has_prop(L, node, "mask");
	case PMU_RFC_FORM_PMC: return !dl_has_prop(L, node, "max-counter");
	}
	return false;
}

/* A tree in the layout before the RFC vocabulary still loads, as it says; a
 * warning names, for each node of it the RFC misreads, the node the RFC
 * looks for instead.  A name of the old layout (constraints/pmc, ...) is
 * such a node only in a tree that is in the old layout: elsewhere it is
 * just a constraint of that name. */
static void warn_old_layout(struct dl *L, int node, bool old_layout)
{
	const char *name = dl_node_name(L, node);
	const struct pmu_rfc_node *r = pmu_rfc_node(name);
	struct pmu_pos p = dl_node_pos(L, node);

	if (r && r->parent && at_top(L, node)) {
		pmu_report_warning(L->d, &p,
				   "loaded, but the kernel RFC reads this constraint only as constraints/%s/%s: move the node there",
				   r->parent, name);
		return;
	}
	if (r && rfc_node_stale(L, node)) {
		pmu_report_warning(L->d, &p,
				   "loaded, but the kernel RFC misreads it: it lacks the RFC's '%s' (the layout before the RFC vocabulary); regenerate the tree",
				   r->form == PMU_RFC_FORM_FIELD ? "condition" :
				   r->form == PMU_RFC_FORM_NC ? "mask" : "max-counter");
		return;
	}
	for (size_t i = 0; old_layout && at_top(L, node) &&
			   i < sizeof(old_constraint_names) / sizeof(old_constraint_names[0]); i++)
		if (strcmp(name, old_constraint_names[i][0]) == 0)
			pmu_report_warning(L->d, &p,
					   "loaded as constraint '%s' (the old layout); the kernel RFC ignores it and reads constraints/%s: rename the node",
					   name, old_constraint_names[i][1]);
}

static int load_constraint_list(struct dl *L, int constraints)
{
	int n = collect_constraints(L, constraints, 0, NULL, 0), rc = 0;
	int *nodes = dl_alloc_array(L, n, sizeof(int));

	if (n && !nodes)
		return -ENOMEM;
	collect_constraints(L, constraints, 0, nodes, n);
	L->m->constraints = dl_alloc_array(L, n, sizeof(*L->m->constraints));
	if (n && !L->m->constraints) {
		free(nodes);
		return -ENOMEM;
	}
	L->m->nconstraints = n;
	bool old_layout = false;
	for (int i = 0; i < n && !L->legacy; i++)
		old_layout = old_layout || rfc_node_stale(L, nodes[i]);
	for (int i = 0; i < n; i++) {
		if (!L->legacy)
			warn_old_layout(L, nodes[i], old_layout);
		rc |= (dl_has_prop(L, nodes[i], "kind") ?
			       load_constraint(L, nodes[i], &L->m->constraints[i]) :
			       skiboot_load_constraint(L, nodes[i], &L->m->constraints[i])) < 0;
	}
	/* a constraint under threshold or cache may repeat one outside */
	const char **names = dl_alloc_array(L, n, sizeof(*names));
	if (n && !names) {
		free(nodes);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		names[i] = L->m->constraints[i].name;
	if (rc == 0)
		rc |= dl_unique_names(L, "constraint", NULL, names, nodes, n) < 0;
	free(names);
	free(nodes);
	if (L->legacy_skipped) {
		struct pmu_pos p = dl_node_pos(L, constraints);

		pmu_report_warning(L->d, &p,
				   "%d skiboot constraint node%s with no equivalent in the description (kernel condition codes, counter limits) not loaded",
				   L->legacy_skipped, L->legacy_skipped == 1 ? "" : "s");
	}
	return rc ? -EINVAL : 0;
}

static int load_alternative(struct dl *L, int node, struct pmu_alternative *a)
{
	uint32_t c[8];
	int n = 0;

	a->pos = dl_node_pos(L, node);
	if (dl_get_cells(L, node, "codes", true, c, 2, 8, &n) < 0)
		return -EINVAL;
	if (n % 2)
		return dl_fail(L, node, "codes", "expected <hi lo> pairs, found %d cells", n);
	a->ncodes = n / 2;
	for (int i = 0; i < a->ncodes; i++)
		a->codes[i] = (uint64_t)c[2 * i] << 32 | c[2 * i + 1];
	a->per_task_only = dl_has_prop(L, node, "per-task-only");
	return 0;
}

static int load_alternatives(struct dl *L, int node)
{
	int sub, i = 0, rc = 0, n = dl_count_children(L, node);

	L->m->alternatives = dl_alloc_array(L, n, sizeof(*L->m->alternatives));
	if (n && !L->m->alternatives)
		return -ENOMEM;
	L->m->nalternatives = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_alternative(L, sub, &L->m->alternatives[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

/* A refused-code check's `codes`, <hi lo> pairs, with that kind only. */
static int load_check_codes(struct dl *L, int node, struct pmu_check *c)
{
	if (dl_has_prop(L, node, "codes") != (c->kind == PMU_CHECK_REFUSED_CODE))
		return dl_fail(L, node, "codes", "a refused-code check takes codes, the other kinds do not");
	int rc = dl_get_code_list(L, node, "codes", &c->codes, &c->ncodes);
	return rc < 0 ? rc : 0;
}

/* `pvr-mask` and `pvr-value` go together; the value lies in the mask. */
static int load_check_pvr(struct dl *L, int node, struct pmu_check *c)
{
	bool mask = dl_has_prop(L, node, "pvr-mask");

	if (mask != dl_has_prop(L, node, "pvr-value"))
		return dl_fail(L, node, mask ? "pvr-value" : "pvr-mask",
			    "pvr-mask and pvr-value go together");
	if (!mask)
		return 0;
	if (dl_get_u32(L, node, "pvr-mask", true, &c->pvr_mask) < 0 ||
	    dl_get_u32(L, node, "pvr-value", true, &c->pvr_value) < 0)
		return -EINVAL;
	if (c->pvr_value & ~c->pvr_mask)
		return dl_fail(L, node, "pvr-value", "0x%x sets bits outside pvr-mask 0x%x",
			    c->pvr_value, c->pvr_mask);
	return 0;
}

static int load_check(struct dl *L, int node, struct pmu_check *c)
{
	const char *fname;
	int kind = 0, rc = 0;

	c->pos = dl_node_pos(L, node);
	c->field = -1;
	rc |= dl_get_strdup(L, node, "reason", true, &c->name) < 0;
	rc |= dl_get_strdup(L, node, "description", false, &c->description) < 0;
	if (dl_get_enum(L, node, "kind", true, dl_check_kind_name, PMU_CHECK_KIND_COUNT, &kind) < 0)
		return -EINVAL;
	c->kind = (enum pmu_check_kind)kind;
	rc |= dl_get_condition(L, node, "when", &c->when) < 0;
	if (dl_get_str(L, node, "field", false, &fname) == 0) {
		c->field = pmu_model_field(L->m, fname);
		if (c->field < 0)
			rc |= dl_fail(L, node, "field", "no field '%s'", fname) < 0;
	}
	rc |= load_check_codes(L, node, c) < 0;
	rc |= load_check_pvr(L, node, c) < 0;
	return rc ? -EINVAL : 0;
}

static int load_checks(struct dl *L, int node)
{
	int sub, i = 0, rc = 0, n = dl_count_children(L, node);

	L->m->checks = dl_alloc_array(L, n, sizeof(*L->m->checks));
	if (n && !L->m->checks)
		return -ENOMEM;
	L->m->nchecks = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_check(L, sub, &L->m->checks[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

int dl_load_constraints(struct dl *L, int constraints)
{
	int alt, chk, rc = 0;

	if (constraints < 0)
		return 0;
	rc |= load_constraint_list(L, constraints);
	alt = dl_child(L, constraints, "alternatives", false);
	chk = dl_child(L, constraints, "checks", false);
	if (alt >= 0 && !dl_has_prop(L, alt, "kind"))
		rc |= load_alternatives(L, alt);
	if (chk >= 0 && !dl_has_prop(L, chk, "kind"))
		rc |= load_checks(L, chk);
	return rc ? -EINVAL : 0;
}
