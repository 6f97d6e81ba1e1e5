/*
 * dtb_description.c - the DTB loader's reading of the PMU's hardware: sprs (counters,
 * registers and their bit fields), the event-code fields (evt_code_format and
 * constraints/fields), and compute_mmcr's other inputs (privilege filters,
 * mmcr0-setters), in pmugen's layout, calling dtb_skiboot.c where a skiboot
 * tree says it otherwise.
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

static int load_counter(struct dl *L, int node, struct pmu_counter *c)
{
	uint32_t prog = 0;
	int rc = 0;

	c->pos = dl_node_pos(L, node);
	c->name = dl_case_copy(L, node, true);
	if (!c->name)
		return -ENOMEM;
	rc |= dl_get_u32(L, node, "sprn", true, &c->sprn) < 0;
	rc |= dl_get_u32(L, node, "register-width", true, &c->width) < 0;
	rc |= dl_get_strdup(L, node, "privilege", false, &c->privilege) < 0;
	rc |= dl_get_u32(L, node, "programmable", true, &prog) < 0;
	if (prog > 1)
		rc |= dl_fail(L, node, "programmable", "must be 0 or 1, found %u", prog) < 0;
	c->programmable = prog == 1;
	rc |= dl_get_strdup(L, node, "event", false, &c->event) < 0;
	if (c->event && strcmp(c->event, "any") == 0) {
		free(c->event);
		c->event = NULL;
	}
	rc |= dl_get_u64(L, node, "fixed-code", !L->legacy && !c->programmable,
		      false, &c->fixed_code) < 0;
	return rc ? -EINVAL : 0;
}

static int load_counters(struct dl *L, int pmcs)
{
	int node, i = 0, rc = 0, n = dl_count_children(L, pmcs);

	L->m->counters = dl_alloc_array(L, n, sizeof(*L->m->counters));
	if (n && !L->m->counters)
		return -ENOMEM;
	L->m->ncounters = n;
	fdt_for_each_subnode(node, L->fdt, pmcs) {
		if (i >= n)
			break;
		rc |= load_counter(L, node, &L->m->counters[i++]);
	}
	for (int a = 0; a < n && !rc; a++)
		for (int b = a + 1; b < n; b++)
			if (strcmp(L->m->counters[a].name, L->m->counters[b].name) == 0)
				rc |= dl_fail(L, pmcs, NULL, "counter %s given twice",
					   L->m->counters[a].name);
	return rc ? -EINVAL : 0;
}

static int load_reg_field(struct dl *L, int node, struct pmu_reg_field *f)
{
	int rc = 0;

	f->pos = dl_node_pos(L, node);
	f->name = pmu_strdup(dl_node_name(L, node));
	if (!f->name)
		return dl_oom(L);
	rc |= dl_get_strdup(L, node, "description", false, &f->description) < 0;
	if (dl_has_prop(L, node, "bits")) {
		f->layout = PMU_LAYOUT_FIXED;
		rc |= dl_get_range(L, node, "bits", true, &f->lo, &f->hi) < 0;
	} else {
		f->layout = PMU_LAYOUT_PER_PMC;
		rc |= dl_get_u32(L, node, "target_field_base", true, &f->base) < 0;
		rc |= dl_get_u32(L, node, "target_field_shift", true, &f->stride) < 0;
		rc |= dl_get_u32(L, node, "length", true, &f->width) < 0;
	}
	return rc ? -EINVAL : 0;
}

static int load_register(struct dl *L, int node, int position,
			 struct pmu_register *r)
{
	int sub, i = 0, rc = 0, n = dl_count_children(L, node);

	r->pos = dl_node_pos(L, node);
	r->name = dl_case_copy(L, node, true);
	if (!r->name)
		return -ENOMEM;
	rc |= dl_get_u32(L, node, "sprn", true, &r->sprn) < 0;
	rc |= dl_get_u32(L, node, "register-width", true, &r->width) < 0;
	rc |= dl_get_strdup(L, node, "privilege", false, &r->privilege) < 0;
	/* skiboot trees have no mmcr-index: the RFC's index is the position
	 * (mmcr0 mmcr1 mmcr2 mmcr3 mmcra = 0..4) */
	r->index = (uint32_t)position;
	rc |= dl_get_u32(L, node, "mmcr-index", !L->legacy, &r->index) < 0;
	rc |= dl_get_u64(L, node, "reset-value", false, false, &r->reset) < 0;
	r->fields = dl_alloc_array(L, n, sizeof(*r->fields));
	if (n && !r->fields)
		return -ENOMEM;
	r->nfields = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_reg_field(L, sub, &r->fields[i++]);
	}
	return rc ? -EINVAL : 0;
}

static int load_registers(struct dl *L, int mmcr)
{
	int node, i = 0, rc = 0, n = dl_count_children(L, mmcr);

	L->m->registers = dl_alloc_array(L, n, sizeof(*L->m->registers));
	if (n && !L->m->registers)
		return -ENOMEM;
	L->m->nregisters = n;
	fdt_for_each_subnode(node, L->fdt, mmcr) {
		if (i >= n)
			break;
		rc |= load_register(L, node, i, &L->m->registers[i]);
		i++;
	}
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			if (L->m->registers[a].name && L->m->registers[b].name &&
			    strcmp(L->m->registers[a].name, L->m->registers[b].name) == 0)
				rc |= dl_fail(L, mmcr, NULL, "register %s given twice",
					   L->m->registers[a].name);
	if (n == 0)
		rc |= dl_fail(L, mmcr, NULL, "no control registers");
	return rc ? -EINVAL : 0;
}

int dl_load_sprs(struct dl *L)
{
	int sprs = dl_child(L, L->pmu, "sprs", true), pmcs, mmcr, rc = 0;

	if (sprs < 0)
		return -EINVAL;
	pmcs = dl_child(L, sprs, "pmcs", true);
	mmcr = dl_child(L, sprs, "mmcr", true);
	if (pmcs < 0 || mmcr < 0)
		return -EINVAL;
	rc |= load_counters(L, pmcs);
	rc |= load_registers(L, mmcr);
	return rc ? -EINVAL : 0;
}

static int load_code_class(struct dl *L, int node, struct pmu_code_class *k)
{
	int rc = 0;

	k->pos = dl_node_pos(L, node);
	k->name = pmu_strdup(dl_node_name(L, node));
	if (!k->name)
		return dl_oom(L);
	rc |= dl_get_u64(L, node, "mask", true, false, &k->mask) < 0;
	rc |= dl_get_strdup(L, node, "description", false, &k->description) < 0;
	int codes = dl_get_code_list(L, node, "codes", &k->codes, &k->ncodes);
	if (codes == 1)
		return dl_fail(L, node, "codes", "a code class lists its codes");
	if (codes < 0 || rc)
		return -EINVAL;
	if (k->ncodes > PMU_MAX_CLASS_CODES)
		return dl_fail(L, node, "codes", "%d codes, more than %d", k->ncodes,
			       PMU_MAX_CLASS_CODES);
	for (int i = 0; i < k->ncodes; i++)
		if (k->codes[i] & ~k->mask)
			return dl_fail(L, node, "codes", "0x%llx sets bits outside the mask 0x%llx",
				       (unsigned long long)k->codes[i], (unsigned long long)k->mask);
	return 0;
}

/* [ext] code-classes: read before the fields, whose conditions name them. */
int dl_load_code_classes(struct dl *L)
{
	int node = dl_child(L, L->pmu, "code-classes", false), sub, i = 0, rc = 0;

	if (node < 0)
		return 0;
	int n = dl_count_children(L, node);
	if (n > PMU_MAX_CODE_CLASSES)
		return dl_fail(L, node, NULL, "%d code classes, more than %d", n, PMU_MAX_CODE_CLASSES);
	L->m->code_classes = dl_alloc_array(L, n, sizeof(*L->m->code_classes));
	if (n && !L->m->code_classes)
		return -ENOMEM;
	L->m->ncode_classes = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_code_class(L, sub, &L->m->code_classes[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

static int field_target(struct dl *L, int node, struct pmu_field *f)
{
	struct pmu_reg_ref ref;
	int rc = dl_get_ref(L, node, "lands-in", false, &ref);

	if (rc == 0) {
		f->target_reg = ref.reg;
		f->target_field = ref.field;
	} else if (rc == 1 && L->legacy) {
		rc = skiboot_field_target(L, node, f);
	}
	if (rc < 0)
		return rc;
	rc = dl_get_ref(L, node, "clears", false, &ref);
	if (rc == 0) {
		f->clear_reg = ref.reg;
		f->clear_field = ref.field;
	}
	return rc < 0 ? rc : 0;
}

static int field_props(struct dl *L, int node, struct pmu_field *f)
{
	int rc = 0, v;
	uint32_t length;

	rc |= dl_get_strdup(L, node, "description", false, &f->description) < 0;
	rc |= dl_get_range(L, node, "bits", true, &f->lo, &f->hi) < 0;
	if (dl_get_u32(L, node, "length", false, &length) == 0 && rc == 0 &&
	    length != f->hi - f->lo + 1)
		rc |= dl_fail(L, node, "length", "%u does not match bits <%u %u>",
			   length, f->lo, f->hi) < 0;
	v = PMU_SRC_CONFIG;
	rc |= dl_get_enum(L, node, "source", false, dl_source_name, PMU_SRC_CONFIG1 + 1, &v) < 0;
	f->source = (enum pmu_source)v;
	{
		int role = L->legacy && !dl_has_prop(L, node, "field-name") ?
				   (int)skiboot_role(dl_node_name(L, node)) : PMU_ROLE_NONE;

		rc |= dl_get_enum(L, node, "role", false, dl_role_name, PMU_ROLE_UNIT + 1, &role) < 0;
		f->role = (enum pmu_field_role)role;
	}
	f->linux_defined = dl_has_prop(L, node, "linux-defined");
	rc |= dl_get_transform(L, node, &f->transform, &f->transform_arg, &f->encoding) < 0;
	rc |= field_target(L, node, f) < 0;
	return rc ? -EINVAL : 0;
}

/* One field node; in_ecf: under evt_code_format (dts name = node name). */
static int load_field(struct dl *L, int node, bool in_ecf, struct pmu_field *f)
{
	const char *fname = NULL;
	int rc;

	f->pos = dl_node_pos(L, node);
	f->parent = -1;
	f->target_reg = f->clear_reg = -1;
	rc = dl_get_str(L, node, "field-name", false, &fname);
	if (rc < 0)
		return rc;
	f->name = fname ? pmu_strdup(fname) : dl_case_copy(L, node, false);
	if (in_ecf)
		f->dts_name = pmu_strdup(dl_node_name(L, node));
	if (!f->name || (in_ecf && !f->dts_name))
		return dl_oom(L);
	return field_props(L, node, f);
}

static int load_field_list(struct dl *L, int parent, bool in_ecf, int *i)
{
	int node, rc = 0;

	fdt_for_each_subnode(node, L->fdt, parent) {
		if (*i >= L->m->nfields)
			break;
		L->field_node[*i] = node;
		rc |= load_field(L, node, in_ecf, &L->m->fields[*i]);
		(*i)++;
	}
	return rc ? -EINVAL : 0;
}

/* Pass two, once every field exists: parents and conditions. */
static int link_fields(struct dl *L)
{
	int rc = 0;

	for (int i = 0; i < L->m->nfields; i++) {
		struct pmu_field *f = &L->m->fields[i];
		int node = L->field_node[i];
		const char *parent;

		for (int j = 0; j < i; j++)
			if (f->name && L->m->fields[j].name &&
			    strcmp(f->name, L->m->fields[j].name) == 0)
				rc |= dl_fail(L, node, NULL, "field '%s' given twice", f->name);
		if (dl_get_str(L, node, "parent", false, &parent) == 0) {
			f->parent = pmu_model_field(L->m, parent);
			if (f->parent < 0 || f->parent == i)
				rc |= dl_fail(L, node, "parent", "no field '%s'", parent);
		}
		rc |= dl_get_condition(L, node, "when", &f->when);
	}
	return rc ? -EINVAL : 0;
}

int dl_load_fields(struct dl *L, int constraints)
{
	int ecf = dl_child(L, L->pmu, "evt_code_format", true);
	int extra = constraints >= 0 ? dl_child(L, constraints, "fields", false) : -1;
	int n, i = 0, rc = 0;

	if (ecf < 0)
		return -EINVAL;
	n = dl_count_children(L, ecf) + (extra >= 0 ? dl_count_children(L, extra) : 0);
	L->m->fields = dl_alloc_array(L, n, sizeof(*L->m->fields));
	L->field_node = dl_alloc_array(L, n, sizeof(*L->field_node));
	if (n && (!L->m->fields || !L->field_node))
		return -ENOMEM;
	L->m->nfields = n;
	rc |= load_field_list(L, ecf, true, &i);
	if (extra >= 0)
		rc |= load_field_list(L, extra, false, &i);
	if (rc)
		return -EINVAL;
	return link_fields(L);
}

static int load_privilege_filters(struct dl *L, int node)
{
	int rc = 0;

	for (int e = 0; e < PMU_EXCL_COUNT; e++)
		rc |= dl_get_ref(L, node, pmu_exclude_name((enum pmu_exclude)e), false,
			      &L->m->exclude[e]) < 0;
	rc |= dl_get_ref(L, node, "branch-stack-clears", false,
		      &L->m->branch_stack_clears) < 0;
	return rc ? -EINVAL : 0;
}

static int load_usage_bit(struct dl *L, int node, struct pmu_usage_bit *u)
{
	uint32_t pmcs[32];
	int n = 0, rc, when;

	u->pos = dl_node_pos(L, node);
	rc = dl_get_ref(L, node, "lands-in", !L->legacy, &u->target);
	if (rc == 1)
		rc = skiboot_usage_target(L, node, &u->target);
	if (rc < 0)
		return rc;
	rc = dl_get_cells(L, node, "trigger-pmc", false, pmcs, 1, 31, &n);
	if (rc < 0)
		return rc;
	for (int i = 0; i < n; i++) {
		if (pmcs[i] < 1 || pmcs[i] > (uint32_t)L->m->ncounters)
			return dl_fail(L, node, "trigger-pmc", "there is no PMC%u (%d counters)",
				    pmcs[i], L->m->ncounters);
		u->counters |= UINT32_C(1) << pmcs[i];
	}
	/* skiboot gives no `when`: a list of PMCs means "when used" */
	when = n ? PMU_WHEN_USED : PMU_WHEN_ALWAYS;
	rc = dl_get_enum(L, node, "when", !L->legacy, dl_usage_when_name, PMU_WHEN_ALWAYS + 1, &when);
	u->when = (enum pmu_usage_when)when;
	return rc < 0 ? rc : 0;
}

static int load_usage(struct dl *L, int setters)
{
	int node, i = 0, rc = 0, n = dl_count_children(L, setters);

	L->m->usage = dl_alloc_array(L, n, sizeof(*L->m->usage));
	if (n && !L->m->usage)
		return -ENOMEM;
	L->m->nusage = n;
	fdt_for_each_subnode(node, L->fdt, setters) {
		if (i >= n)
			break;
		rc |= load_usage_bit(L, node, &L->m->usage[i++]);
	}
	return rc ? -EINVAL : 0;
}

int dl_load_mmcr_inputs(struct dl *L)
{
	int pf = dl_child(L, L->pmu, "privilege-filters", false);
	int setters = dl_child(L, L->pmu, "mmcr0-setters", false);
	int mmcr2 = dl_child(L, L->pmu, "mmcr2", false);
	int rc = 0;

	if (pf >= 0)
		rc |= load_privilege_filters(L, pf);
	else if (L->legacy && mmcr2 >= 0)
		rc |= skiboot_load_freeze(L, mmcr2);
	if (setters >= 0)
		rc |= load_usage(L, setters);
	return rc ? -EINVAL : 0;
}
