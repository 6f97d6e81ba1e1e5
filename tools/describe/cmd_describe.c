/*
 * cmd_describe.c - `pmutool describe EVENT|PRESET`: for a PAPI preset, what
 * it counts (its events, its formula, whether its events fit in one group and
 * whether record can sample it), then, for a preset of one event and for an
 * event, every field of the description
 * decoded for one event, where each lands (register field and bits for the
 * event's counter, under which condition), the privilege filters for that
 * counter, the event's contribution to the kernel's constraint word, and the
 * registers it gets alone in a group.
 *
 * The only part of pmutool that reads the model itself: it includes the
 * runtime's private header and links the static libpmurt.  Everything is
 * read from the description; nothing here knows POWER10.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "pmutool.h"

struct describe {
	const struct pmurt_pmu *pmu;
	const struct pmu_model *m;
	const struct pmurt_check_opts *opts;
	struct pmurt_event_spec ev;
	uint64_t pmc;                   /* the counter the placement is shown for */
	struct pmurt_group_result alone;
};

/* --- formatting helpers ---------------------------------------------------- */
static const char *bits_text(uint32_t lo, uint32_t hi, char *buf, size_t len)
{
	if (lo == hi)
		snprintf(buf, len, "%u", lo);
	else
		snprintf(buf, len, "%u-%u", lo, hi);
	return buf;
}

/* Bits of a register field for counter pmc; false when it has none there. */
static bool reg_field_bits(const struct pmu_reg_field *f, uint64_t pmc, uint32_t *lo,
			   uint32_t *hi)
{
	if (f->layout == PMU_LAYOUT_FIXED) {
		*lo = f->lo;
		*hi = f->hi;
		return true;
	}
	int64_t l = (int64_t)f->base - (int64_t)pmc * f->stride;
	if (pmc == 0 || f->width == 0 || l < 0 || l + f->width > 64)
		return false;
	*lo = (uint32_t)l;
	*hi = (uint32_t)l + f->width - 1;
	return true;
}

/* "MMCR1.PMC3SEL bits 8-15": a per-counter field's 'x' becomes the number,
 * or the counter is added in brackets ("MMCR2.FCS(PMC3)"). */
static const char *ref_text(const struct describe *d, struct pmu_reg_ref ref, uint64_t pmc,
			    char *buf, size_t len)
{
	const struct pmu_register *r = &d->m->registers[ref.reg];
	const struct pmu_reg_field *f = &r->fields[ref.field];
	char name[64], bits[16];
	const char *x = strstr(f->name, "PMCx");
	if (f->layout == PMU_LAYOUT_FIXED)
		snprintf(name, sizeof(name), "%s", f->name);
	else if (x)
		snprintf(name, sizeof(name), "%.*sPMC%" PRIu64 "%s", (int)(x - f->name), f->name,
			 pmc, x + 4);
	else
		snprintf(name, sizeof(name), "%s(PMC%" PRIu64 ")", f->name, pmc);
	uint32_t lo, hi;
	if (reg_field_bits(f, pmc, &lo, &hi))
		snprintf(buf, len, "%s.%s bit%s %s", r->name, name, lo == hi ? "" : "s",
			 bits_text(lo, hi, bits, sizeof(bits)));
	else
		snprintf(buf, len, "%s.%s: none for PMC%" PRIu64, r->name, f->name, pmc);
	return buf;
}

static void condition_text(const struct describe *d, const struct pmu_condition *c,
			   char *buf, size_t len)
{
	char words[160];
	pmu_condition_format(d->m, c, words, sizeof(words));
	bool holds = pmu_condition_holds(d->m, c, d->ev.code, d->ev.config1);
	snprintf(buf, len, "%s%s", words, holds ? "" : " (not met)");
}

/* --- the event and its counter -------------------------------------------- */
static void print_header(const struct describe *d)
{
	struct pmurt_event_info e = {.sz = sizeof(e)};
	int index = d->ev.event_index >= 0 ? d->ev.event_index
					   : pmurt_event_find_code(d->pmu, d->ev.code, NULL);
	if (index >= 0 && pmurt_event_get(d->pmu, index, &e) == 0) {
		printf("%s  0x%" PRIx64 "  [%s, %s%s]\n", e.name, e.code, e.category ? e.category : "",
		       e.event_class ? e.event_class : "", e.firmware ? ", firmware" : "");
		if (e.alias_of)
			printf("  alias of %s\n", e.alias_of);
		if (e.description && e.description[0])
			printf("  %s\n", e.description);
	} else {
		char code[24];
		snprintf(code, sizeof(code), "0x%" PRIx64, d->ev.code);
		if (strcmp(code, d->ev.name) != 0)
			printf("%s  ", d->ev.name);
		printf("%s  [no event of the description has this code]\n", code);
	}
	printf("code 0x%" PRIx64 ", config1 0x%" PRIx64 " (bit numbers: LSB = 0)\n", d->ev.code,
	       d->ev.config1);
}

static void print_counter(const struct describe *d)
{
	const struct pmu_field *pf = &d->m->fields[d->pmu->engine.pmc_field];
	uint64_t requested = pmu_field_value(pf, d->ev.code, d->ev.config1);
	printf("\ncounter: ");
	if (!d->alone.ok)
		printf("none: alone in a group the event is rejected (%s)\n", d->alone.reason);
	else if (requested)
		printf("PMC%d (field %s = %" PRIu64 ")\n", d->alone.pmc[0], pf->name, requested);
	else
		printf("PMC%d (field %s = 0: the first free programmable counter; "
		       "PMC%d when alone)\n", d->alone.pmc[0], pf->name, d->alone.pmc[0]);
	if (d->alone.ok && d->alone.final_events[0] != d->ev.code)
		printf("  counted as its alternative 0x%" PRIx64 "\n", d->alone.final_events[0]);
}

/* --- fields ----------------------------------------------------------------- */
static int field_depth(const struct pmu_model *m, int i)
{
	int depth = 0;
	for (int p = m->fields[i].parent; p >= 0 && depth < 8; p = m->fields[p].parent)
		depth++;
	return depth;
}

/* A register field by name only ("MMCR1.PMCxUNIT"), for a placement that
 * does not happen: its bits for this counter would mean nothing. */
static const char *ref_name(const struct describe *d, struct pmu_reg_ref ref, char *buf,
			    size_t len)
{
	const struct pmu_register *r = &d->m->registers[ref.reg];
	snprintf(buf, len, "%s.%s", r->name, r->fields[ref.field].name);
	return buf;
}

static void placement_text(const struct describe *d, const struct pmu_field *f, uint64_t v,
			   char *buf, size_t len)
{
	char where[96], cond[192], clear[96];
	size_t n = 0;
	bool placed = pmu_condition_holds(d->m, &f->when, d->ev.code, d->ev.config1);
	buf[0] = 0;
	if (f->target_reg >= 0) {
		struct pmu_reg_ref ref = {f->target_reg, f->target_field};
		if (placed)
			ref_text(d, ref, d->pmc, where, sizeof(where));
		else
			ref_name(d, ref, where, sizeof(where));
		n += (size_t)snprintf(buf + n, len - n, "-> %s", where);
		if (f->transform == PMU_XF_MANTISSA_EXPONENT && n < len)
			n += (size_t)snprintf(buf + n, len - n, " as 0x%" PRIx64 " (%s)",
					      pmu_transform_apply(f->transform, &f->encoding, v),
					      pmu_transform_name(f->transform));
		else if (f->transform != PMU_XF_NONE && n < len)
			n += (size_t)snprintf(buf + n, len - n, " (%s, default %" PRIu64 ")",
					      pmu_transform_name(f->transform), f->transform_arg);
	}
	if (f->clear_reg >= 0 && n < len) {
		struct pmu_reg_ref ref = {f->clear_reg, f->clear_field};
		if (placed)
			ref_text(d, ref, d->pmc, clear, sizeof(clear));
		else
			ref_name(d, ref, clear, sizeof(clear));
		n += (size_t)snprintf(buf + n, len - n, "%sclears %s when nonzero", n ? "; " : "",
				      clear);
	}
	if ((f->target_reg >= 0 || f->clear_reg >= 0) && f->when.nterms && n < len) {
		condition_text(d, &f->when, cond, sizeof(cond));
		snprintf(buf + n, len - n, ", %s", cond);
	}
}

static void print_fields(const struct describe *d)
{
	const struct pmu_model *m = d->m;
	printf("\n");
	tool_line("%-22s %-14s %-10s %s", "field", "bits", "value", "lands in");
	for (int i = 0; i < m->nfields; i++) {
		const struct pmu_field *f = &m->fields[i];
		uint64_t v = pmu_field_value(f, d->ev.code, d->ev.config1);
		char name[40], bits[32], b[16], value[24], place[400];
		snprintf(name, sizeof(name), "%*s%s", 2 * field_depth(m, i), "", f->name);
		snprintf(bits, sizeof(bits), "%s%s", f->source == PMU_SRC_CONFIG1 ? "config1:" : "",
			 bits_text(f->lo, f->hi, b, sizeof(b)));
		snprintf(value, sizeof(value), "0x%" PRIx64, v);
		placement_text(d, f, v, place, sizeof(place));
		const char *role = f->role != PMU_ROLE_NONE ? pmu_role_name(f->role) : NULL;
		if (!place[0] && !role)
			snprintf(place, sizeof(place), "-");
		tool_line("%-22s %-14s %-10s %s%s%s%s", name, bits, value, place,
			  role ? (place[0] ? " [role " : "[role ") : "", role ? role : "",
			  role ? "]" : "");
	}
}

/* --- privilege filters ------------------------------------------------------ */
/* Whether the event's exclude_* bits set filter x, as compute_mmcr applies
 * them: exclude_kernel picks the hypervisor-mode filter in --hv-mode, and
 * exclude_hv counts only under a hypervisor. */
static const char *exclude_state(const struct describe *d, int x)
{
	unsigned ex = d->ev.exclude;
	switch (x) {
	case PMU_EXCL_USER: return ex & PMURT_EXCLUDE_USER ? "set" : NULL;
	case PMU_EXCL_KERNEL:
		return ex & PMURT_EXCLUDE_KERNEL && !d->opts->hv_mode ? "set" : NULL;
	case PMU_EXCL_KERNEL_HV:
		return ex & PMURT_EXCLUDE_KERNEL && d->opts->hv_mode ? "set" : NULL;
	case PMU_EXCL_HV:
		if (!(ex & PMURT_EXCLUDE_HV))
			return NULL;
		return d->opts->lpar ? "set" : "requested; ignored when not under a hypervisor";
	case PMU_EXCL_IDLE: return ex & PMURT_EXCLUDE_IDLE ? "set" : NULL;
	}
	return NULL;
}

static void print_excludes(const struct describe *d)
{
	const struct pmu_model *m = d->m;
	if (d->pmc < 1 || d->pmc > (uint64_t)m->ncounters) {
		printf("\nprivilege filters: none (the description has no PMC%" PRIu64 ")\n",
		       d->pmc);
		return;
	}
	printf("\nprivilege filters for PMC%" PRIu64 ":\n", d->pmc);
	for (int x = 0; x < PMU_EXCL_COUNT; x++) {
		char where[96];
		if (m->exclude[x].reg < 0)
			continue;
		ref_text(d, m->exclude[x], d->pmc, where, sizeof(where));
		const char *state = exclude_state(d, x);
		tool_line("  %-20s -> %s%s%s%s", pmu_exclude_name(x), where, state ? "  (" : "",
			  state ? state : "", state ? ")" : "");
	}
}

/* --- constraint word ---------------------------------------------------------- */
/* One constraint's (mask, value), as pmu_engine_constraint adds them up. */
static void constraint_part(const struct describe *d, const struct pmu_constraint *c,
			    uint64_t *mask, uint64_t *value)
{
	uint64_t pmc = pmu_field_value(&d->m->fields[d->pmu->engine.pmc_field], d->ev.code, 0);
	uint32_t width = c->slot_hi - c->slot_lo + 1;
	*mask = *value = 0;
	if (c->kind == PMU_CONS_EQUAL) {
		uint64_t word = c->source == PMU_SRC_CONFIG1 ? d->ev.config1 : d->ev.code;
		uint64_t v = (word & pmu_bits_mask(c->src_lo, c->src_hi)) >> c->src_lo;
		*mask = pmu_bits_mask(c->slot_lo, c->slot_hi);
		*value = (pmu_transform_apply(c->transform, &c->encoding, v) << c->slot_lo) & *mask;
	} else if (c->kind == PMU_CONS_PER_PMC && pmc >= 1 && pmc <= (uint64_t)d->m->ncounters) {
		uint32_t lo = c->slot_lo + (uint32_t)(pmc - 1) * width;
		*value = 1ULL << lo;
		*mask = 1ULL << (lo + width - 1);
	} else if (c->kind == PMU_CONS_COUNT) {
		*value = 1ULL << c->slot_lo;
		*mask = 1ULL << c->slot_hi;
	}
}

static void print_constraints(const struct describe *d)
{
	const struct pmu_model *m = d->m;
	uint64_t tmask = 0, tvalue = 0, emask, evalue;
	printf("\nconstraint word:\n");
	tool_line("  %-16s %-8s %-6s %-20s %-20s %s", "constraint", "kind", "slot", "mask",
		  "value", "applies");
	for (int i = 0; i < m->nconstraints; i++) {
		const struct pmu_constraint *c = &m->constraints[i];
		char slot[16], cond[192], mk[24] = "-", vl[24] = "-";
		bool holds = pmu_condition_holds(m, &c->when, d->ev.code, d->ev.config1);
		uint64_t mask = 0, value = 0;
		if (holds)
			constraint_part(d, c, &mask, &value);
		if (holds && mask) {
			snprintf(mk, sizeof(mk), "0x%" PRIx64, mask);
			snprintf(vl, sizeof(vl), "0x%" PRIx64, value);
		}
		tmask |= mask;
		tvalue |= value;
		condition_text(d, &c->when, cond, sizeof(cond));
		tool_line("  %-16s %-8s %-6s %-20s %-20s %s", c->name,
			  pmu_constraint_kind_name(c->kind),
			  bits_text(c->slot_lo, c->slot_hi, slot, sizeof(slot)), mk, vl, cond);
	}
	pmu_engine_constraint(&d->pmu->engine, d->ev.code, d->ev.config1, &emask, &evalue);
	char mk[24], vl[24];
	snprintf(mk, sizeof(mk), "0x%" PRIx64, emask);
	snprintf(vl, sizeof(vl), "0x%" PRIx64, evalue);
	tool_line("  %-16s %-8s %-6s %-20s %s", "total", "", "", mk, vl);
	if (emask != tmask || evalue != tvalue)
		printf("  (the parts above add up to mask 0x%" PRIx64 " value 0x%" PRIx64
		       ": pmutool and the scheduler disagree)\n", tmask, tvalue);
	printf("  adder slots: add_fields 0x%" PRIx64 ", test_adder 0x%" PRIx64 "\n",
	       d->pmu->engine.add_fields, d->pmu->engine.test_adder);
}

/* --- alone in a group ------------------------------------------------------- */
static void print_alone(const struct describe *d)
{
	if (!d->alone.ok) {
		printf("\nalone in a group: rejected (%s)\n  %s\n", d->alone.reason,
		       d->alone.message);
		return;
	}
	printf("\nalone in a group: PMC%d\n", d->alone.pmc[0]);
	for (int i = 0; i < d->alone.nregs && i < PMURT_MAX_REGS; i++)
		printf("  %-6s 0x%016" PRIx64 "\n", pmurt_register_name(d->pmu, i), d->alone.regs[i]);
}

/* A PAPI preset: its members, formula, and whether they fit one group (as
 * stat opens them).  Returns true when it is derived (nothing more to show). */
static bool describe_preset(const struct tool *t, const struct pmurt_preset_info *p)
{
	static const char *const kinds[] = {"one event", "derived: add (the sum)",
					    "derived: sub (the first minus the others)",
					    "derived: postfix formula"};
	printf("%s  [PAPI preset, %s]\n", p->name, kinds[p->kind & 3]);
	if (p->description && p->description[0])
		printf("  %s\n", p->description);
	printf("  = %s%s%s%s\n", p->formula, p->postfix ? "  (postfix " : "",
	       p->postfix ? p->postfix : "", p->postfix ? ")" : "");
	struct pmurt_event_spec ev[PMURT_PRESET_MAX_EVENTS];
	for (int k = 0; k < p->nevents; k++) {
		printf("  N%d  %-28s 0x%" PRIx64 "\n", k, p->events[k], p->codes[k]);
		ev[k] = (struct pmurt_event_spec){.sz = sizeof(ev[k]), .type = 4 /* RAW */,
						  .config = p->codes[k],
						  .code = p->codes[k], .event_index = -1};
	}
	if (!p->derived) {
		printf("  record samples it as its event (%s-all-10000)\n\n", p->name);
		return false;
	}
	struct pmurt_group_result res = {.sz = sizeof(res)};
	if (pmurt_group_check(t->pmu, ev, p->nevents, sizeof(ev[0]), &t->check, &res, NULL) == 0) {
		if (res.ok) {
			printf("  its events in one group:");
			for (int k = 0; k < res.n; k++)
				printf(" PMC%d", res.pmc[k]);
			printf("\n");
		} else {
			printf("  its events do not fit in one group: %s (%s)\n", res.reason,
			       res.message);
		}
	}
	printf("  derived: stat counts its events and computes it; record cannot sample it\n");
	return true;
}

int cmd_describe(struct tool *t)
{
	if (t->nargs != 1 || t->batch || t->json) {
		tool_error(t, "usage: %s describe EVENT (no --json, no --batch)", t->prog);
		return EXIT_USAGE;
	}
	struct pmurt_preset_info preset = {.sz = sizeof(preset)};
	if (pmurt_preset_find(t->pmu, t->args[0], &preset, NULL) >= 0 &&
	    describe_preset(t, &preset))
		return EXIT_OK;
	if (pmurt_event_find(t->pmu, t->args[0], NULL, NULL) < 0 && describe_metric(t, t->args[0]))
		return EXIT_OK;
	struct describe d = {.pmu = t->pmu, .m = &t->pmu->model, .opts = &t->check};
	int rc = tool_parse_event(t, t->args[0], &d.ev);
	if (rc)
		return rc;
	struct pmurt_error err = {0};
	d.alone = (struct pmurt_group_result){.sz = sizeof(d.alone)};
	if (pmurt_group_check(t->pmu, &d.ev, 1, sizeof(d.ev), &t->check, &d.alone, &err) < 0) {
		tool_error(t, "%s", err.message);
		return EXIT_INTERNAL;
	}
	uint64_t requested = pmu_field_value(&d.m->fields[t->pmu->engine.pmc_field], d.ev.code, 0);
	d.pmc = d.alone.ok ? (uint64_t)d.alone.pmc[0] : requested ? requested : 1;
	print_header(&d);
	tool_print_generations(t->pmu, d.ev.event_index >= 0 ? d.ev.name : NULL, d.ev.code);
	print_counter(&d);
	print_fields(&d);
	print_excludes(&d);
	print_constraints(&d);
	print_alone(&d);
	return EXIT_OK;
}
