/*
 * describe.c - pmurt_event_describe (pmurt_tool.h): one event decoded
 * against its description, as pmutool describe prints it: the counter it
 * gets alone in a group, each field of its code with where it lands
 * (register field and bits for that counter, under which condition), the
 * privilege filters of that counter, and its part of the kernel's
 * constraint word (sched.c's, shown term by term).  Everything is read from
 * the description; nothing here knows POWER10.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pmurt_tool.h"

struct describe {
	const struct pmurt_pmu *pmu;
	const struct pmu_model *m;
	const struct pmurt_check_opts *opts;
	struct pmurt_event_spec ev;
	uint64_t pmc;                   /* the counter the placement is shown for */
	struct pmurt_group_result alone;
	FILE *out;
};

/* One line without trailing blanks. */
static void line(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(FILE *out, const char *fmt, ...)
{
	char *buf = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t len = (size_t)n;
	while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\n'))
		len--;
	fprintf(out, "%.*s\n", (int)len, buf);
	free(buf);
}

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

/* --- the event's counter -------------------------------------------------- */
static void print_counter(const struct describe *d)
{
	const struct pmu_field *pf = &d->m->fields[d->pmu->engine.pmc_field];
	uint64_t requested = pmu_field_value(pf, d->ev.code, d->ev.config1);
	fprintf(d->out, "\ncounter: ");
	if (!d->alone.ok)
		fprintf(d->out, "none: alone in a group the event is rejected (%s)\n", d->alone.reason);
	else if (requested)
		fprintf(d->out, "PMC%d (field %s = %" PRIu64 ")\n", d->alone.pmc[0], pf->name, requested);
	else
		fprintf(d->out, "PMC%d (field %s = 0: the first free programmable counter; "
		       "PMC%d when alone)\n", d->alone.pmc[0], pf->name, d->alone.pmc[0]);
	if (d->alone.ok && d->alone.final_events[0] != d->ev.code)
		fprintf(d->out, "  counted as its alternative 0x%" PRIx64 "\n", d->alone.final_events[0]);
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
	fprintf(d->out, "\n");
	line(d->out, "%-22s %-14s %-10s %s", "field", "bits", "value", "lands in");
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
		line(d->out, "%-22s %-14s %-10s %s%s%s%s", name, bits, value, place,
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
		fprintf(d->out, "\nprivilege filters: none (the description has no PMC%" PRIu64 ")\n",
		       d->pmc);
		return;
	}
	fprintf(d->out, "\nprivilege filters for PMC%" PRIu64 ":\n", d->pmc);
	for (int x = 0; x < PMU_EXCL_COUNT; x++) {
		char where[96];
		if (m->exclude[x].reg < 0)
			continue;
		ref_text(d, m->exclude[x], d->pmc, where, sizeof(where));
		const char *state = exclude_state(d, x);
		line(d->out, "  %-20s -> %s%s%s%s", pmu_exclude_name(x), where, state ? "  (" : "",
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
	fprintf(d->out, "\nconstraint word:\n");
	line(d->out, "  %-16s %-8s %-6s %-20s %-20s %s", "constraint", "kind", "slot", "mask",
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
		line(d->out, "  %-16s %-8s %-6s %-20s %-20s %s", c->name,
			  pmu_constraint_kind_name(c->kind),
			  bits_text(c->slot_lo, c->slot_hi, slot, sizeof(slot)), mk, vl, cond);
	}
	pmu_engine_constraint(&d->pmu->engine, d->ev.code, d->ev.config1, &emask, &evalue);
	char mk[24], vl[24];
	snprintf(mk, sizeof(mk), "0x%" PRIx64, emask);
	snprintf(vl, sizeof(vl), "0x%" PRIx64, evalue);
	line(d->out, "  %-16s %-8s %-6s %-20s %s", "total", "", "", mk, vl);
	if (emask != tmask || evalue != tvalue)
		fprintf(d->out, "  (the parts above add up to mask 0x%" PRIx64 " value 0x%" PRIx64
		       ": pmutool and the scheduler disagree)\n", tmask, tvalue);
	fprintf(d->out, "  adder slots: add_fields 0x%" PRIx64 ", test_adder 0x%" PRIx64 "\n",
	       d->pmu->engine.add_fields, d->pmu->engine.test_adder);
}

int pmurt_event_describe(const struct pmurt_pmu *pmu, const struct pmurt_event_spec *ev,
			 const struct pmurt_check_opts *opts, char **text,
			 struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!pmu || !ev || !text) {
		pmurt_set_error(err, -EINVAL, "pmurt_event_describe: missing argument");
		return -EINVAL;
	}
	*text = NULL;
	struct pmurt_check_opts defaults = PMURT_OPTS_INIT(pmurt_check_opts);
	struct describe d = {.pmu = pmu, .m = &pmu->model, .opts = opts ? opts : &defaults,
			     .ev = *ev};
	d.alone = (struct pmurt_group_result){.sz = sizeof(d.alone)};
	int rc = pmurt_group_check(pmu, &d.ev, 1, sizeof(d.ev), d.opts, &d.alone, err);
	if (rc < 0)
		return rc;
	uint64_t requested = pmu_field_value(&d.m->fields[pmu->engine.pmc_field], d.ev.code, 0);
	d.pmc = d.alone.ok ? (uint64_t)d.alone.pmc[0] : requested ? requested : 1;
	size_t size = 0;
	d.out = open_memstream(text, &size);
	if (!d.out) {
		pmurt_set_error(err, -ENOMEM, "pmurt_event_describe: out of memory");
		return -ENOMEM;
	}
	print_counter(&d);
	print_fields(&d);
	print_excludes(&d);
	print_constraints(&d);
	if (fclose(d.out) != 0 || !*text) {
		free(*text);
		*text = NULL;
		pmurt_set_error(err, -ENOMEM, "pmurt_event_describe: out of memory");
		return -ENOMEM;
	}
	return 0;
}
