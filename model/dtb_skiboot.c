/*
 * dtb_skiboot.c - what the DTB loader does differently for a skiboot-style tree
 * (no `description-format`): register fields made up from the target_*
 * properties, roles from the RFC's node names, the mmcr2 freeze-bit nodes as
 * privilege filters, mmcr0-setters named by their node, the constraint nodes
 * with kernel condition codes 0 and 1, fixed-counter codes from the events.
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

static int register_by_index(struct dl *L, int node, const char *prop,
			     uint32_t index)
{
	for (int i = 0; i < L->m->nregisters; i++)
		if (L->m->registers[i].index == index)
			return i;
	return dl_fail(L, node, prop, "no register has mmcr index %u", index);
}

/* The register field of register r laid out as want, added (named name)
 * when there is none. Returns its index or -EINVAL. */
static int find_or_add_reg_field(struct dl *L, int node, int r,
				 const struct pmu_reg_field *want,
				 const char *name)
{
	struct pmu_register *reg = &L->m->registers[r];
	struct pmu_reg_field *grown, *f;

	for (int i = 0; i < reg->nfields; i++) {
		f = &reg->fields[i];
		if (f->layout != want->layout)
			continue;
		if (f->layout == PMU_LAYOUT_FIXED ? f->lo == want->lo && f->hi == want->hi
		    : f->base == want->base && f->stride == want->stride &&
		      f->width == want->width)
			return i;
	}
	if (pmu_model_reg_field(reg, name) >= 0)
		return dl_fail(L, node, NULL, "register %s already has a field %s with another layout",
			    reg->name, name);
	grown = realloc(reg->fields, (size_t)(reg->nfields + 1) * sizeof(*grown));
	if (!grown)
		return dl_oom(L);
	reg->fields = grown;
	f = &reg->fields[reg->nfields];
	*f = *want;
	f->name = pmu_strdup(name);
	f->description = NULL;
	f->pos = dl_node_pos(L, node);
	if (!f->name)
		return dl_oom(L);
	return reg->nfields++;
}

/* A skiboot evt_code_format node's target: mmcr + target_fields or
 * target_field_base/target_field_shift. */
int skiboot_field_target(struct dl *L, int node, struct pmu_field *f)
{
	struct pmu_reg_field want = { 0 };
	uint32_t index, base = 0, shift = 0;
	int r, rf;

	if (!dl_has_prop(L, node, "target_fields") &&
	    !dl_has_prop(L, node, "target_field_base"))
		return 0;
	if (dl_get_u32(L, node, "mmcr", true, &index) < 0)
		return -EINVAL;
	r = register_by_index(L, node, "mmcr", index);
	if (r < 0)
		return r;
	if (dl_has_prop(L, node, "target_fields")) {
		want.layout = PMU_LAYOUT_FIXED;
		if (dl_get_range(L, node, "target_fields", true, &want.lo, &want.hi) < 0)
			return -EINVAL;
	} else {
		if (dl_get_u32(L, node, "target_field_base", true, &base) < 0 ||
		    dl_get_u32(L, node, "target_field_shift", false, &shift) < 0)
			return -EINVAL;
		want.layout = PMU_LAYOUT_PER_PMC;
		want.base = base;
		want.stride = shift;
		want.width = f->hi - f->lo + 1;
	}
	rf = find_or_add_reg_field(L, node, r, &want, dl_node_name(L, node));
	if (rf < 0)
		return rf;
	f->target_reg = r;
	f->target_field = rf;
	return 0;
}

/* skiboot names the counter-select field PMCx (the RFC's rule) and has
 * MARK and PMCxUNIT. */
enum pmu_field_role skiboot_role(const char *node)
{
	if (strcmp(node, "PMCx") == 0)
		return PMU_ROLE_PMC;
	if (strcmp(node, "MARK") == 0)
		return PMU_ROLE_MARK;
	if (strcmp(node, "PMCxUNIT") == 0)
		return PMU_ROLE_UNIT;
	return PMU_ROLE_NONE;
}

/* skiboot's mmcr2 { fcs fcp fch }: freeze bit for PMC n at
 * pgm_base - (n - 1) * stride, i.e. a per-PMC field with base pgm_base +
 * stride.  The kernel (isa207_compute_mmcr) sets FCP for exclude_user, FCS
 * for exclude_kernel (FCH in HV mode) and FCH for exclude_hv. */
int skiboot_load_freeze(struct dl *L, int mmcr2)
{
	int node, rc = 0;

	fdt_for_each_subnode(node, L->fdt, mmcr2) {
		struct pmu_reg_field want = { 0 };
		uint32_t index, base, stride = 0;
		char *name = dl_case_copy(L, node, true);
		int r, f = -1;

		if (!name)
			return -ENOMEM;
		if (dl_get_u32(L, node, "mmcr", true, &index) < 0 ||
		    dl_get_u32(L, node, "pgm_base", true, &base) < 0 ||
		    dl_get_u32(L, node, "stride", false, &stride) < 0 ||
		    (r = register_by_index(L, node, "mmcr", index)) < 0) {
			free(name);
			rc = -EINVAL;
			continue;
		}
		want.layout = dl_has_prop(L, node, "use_stride") ? PMU_LAYOUT_PER_PMC :
								PMU_LAYOUT_FIXED;
		want.lo = want.hi = base;
		want.base = base + stride;
		want.stride = stride;
		want.width = 1;
		f = find_or_add_reg_field(L, node, r, &want, name);
		if (f >= 0) {
			struct pmu_reg_ref ref = { r, f };

			if (strcmp(name, "FCP") == 0)
				L->m->exclude[PMU_EXCL_USER] = ref;
			if (strcmp(name, "FCS") == 0)
				L->m->exclude[PMU_EXCL_KERNEL] = ref;
			if (strcmp(name, "FCH") == 0)
				L->m->exclude[PMU_EXCL_HV] =
					L->m->exclude[PMU_EXCL_KERNEL_HV] = ref;
		}
		free(name);
		if (f < 0)
			rc = -EINVAL;
	}
	return rc;
}

/* A skiboot mmcr0-setters node: mmcr + bit, named by the node. */
int skiboot_usage_target(struct dl *L, int node, struct pmu_reg_ref *out)
{
	struct pmu_reg_field want = { 0 };
	uint32_t index, bit;
	char *name;
	int r, f;

	if (dl_get_u32(L, node, "mmcr", true, &index) < 0 ||
	    dl_get_u32(L, node, "bit", true, &bit) < 0)
		return -EINVAL;
	if (bit > 63)
		return dl_fail(L, node, "bit", "%u is not a bit of a 64-bit register", bit);
	r = register_by_index(L, node, "mmcr", index);
	if (r < 0)
		return r;
	want.layout = PMU_LAYOUT_FIXED;
	want.lo = want.hi = bit;
	name = dl_case_copy(L, node, true);
	if (!name)
		return -ENOMEM;
	f = find_or_add_reg_field(L, node, r, &want, name);
	free(name);
	if (f < 0)
		return f;
	out->reg = r;
	out->field = f;
	return 0;
}

/* skiboot's constraint nodes carry the kernel's condition codes; only
 * 0 (always) and 1 (marked) have an equivalent in the description. */
int skiboot_load_constraint(struct dl *L, int node, struct pmu_constraint *c)
{
	uint32_t cond, emask, eshift;
	char why[128];

	if (dl_get_u32(L, node, "condition", true, &cond) < 0 ||
	    dl_get_u32(L, node, "event-mask", true, &emask) < 0 ||
	    dl_get_u32(L, node, "event-shift", true, &eshift) < 0)
		return -EINVAL;
	if ((emask & (emask + 1)) != 0 || emask == 0 ||
	    eshift + (uint32_t)__builtin_popcount(emask) > 64)
		return dl_fail(L, node, "event-mask", "0x%x at shift %u is not a field of the event code",
			    emask, eshift);
	c->pos = dl_node_pos(L, node);
	c->name = pmu_strdup(dl_node_name(L, node));
	if (!c->name)
		return dl_oom(L);
	c->kind = PMU_CONS_EQUAL;
	c->src_lo = eshift;
	c->src_hi = eshift + (uint32_t)__builtin_popcount(emask) - 1;
	if (dl_constraint_slot(L, node, c) < 0)
		return -EINVAL;
	if (cond == 1 &&
	    pmu_condition_parse(L->m, "only for marked events", &c->when, why, sizeof(why)))
		return dl_fail(L, node, "condition", "%s", why);
	return 0;
}

/* Whether a skiboot constraint node is one skiboot_load_constraint reads. */
bool skiboot_constraint_usable(struct dl *L, int node)
{
	uint32_t cond;
	int len;
	const fdt32_t *v = fdt_getprop(L->fdt, node, "condition", &len);

	if (!v || len != 4 || !dl_has_prop(L, node, "event-mask"))
		return false;
	cond = fdt32_ld(v);
	return cond == 0 || cond == 1;
}

/* skiboot's fixed counters name their event but give no code: take the
 * code of the event with that name. */
int skiboot_fixed_codes(struct dl *L)
{
	int rc = 0;

	for (int i = 0; i < L->m->ncounters; i++) {
		struct pmu_counter *c = &L->m->counters[i];
		int e;

		if (c->programmable || c->fixed_code)
			continue;
		e = c->event ? pmu_model_event(L->m, c->event) : -1;
		if (e >= 0) {
			c->fixed_code = L->m->events[e].code;
			continue;
		}
		rc = dl_fail(L, -1, NULL, "fixed counter %s counts '%s', which is not among the events and has no fixed-code",
			  c->name, c->event ? c->event : "(nothing)");
	}
	return rc;
}
