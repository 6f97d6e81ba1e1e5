/*
 * dt_skiboot.c - the DTB loader on skiboot's tree (the reference DTS
 * compiled by dtc): it loads as far as the tree carries the description
 * (names from node names, register fields from target properties, the mmcr2
 * freeze bits as privilege filters, fixed-counter codes from the events),
 * warns about the constraint nodes it cannot express, and the model it gives
 * goes through pmugen's own tree form and back unchanged.
 *
 * usage: dt_skiboot SKIBOOT.dtb
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_util.h"

static int failures;

static const struct pmu_field *field(const struct pmu_model *m, const char *name)
{
	int i = pmu_model_field(m, name);

	CHECK(i >= 0, "no field %s", name);
	return i >= 0 ? &m->fields[i] : NULL;
}

static const struct pmu_reg_field *target(const struct pmu_model *m,
					  const struct pmu_field *f, const char *reg)
{
	if (!f || f->target_reg < 0) {
		CHECK(0, "field %s has no target", f ? f->name : "?");
		return NULL;
	}
	CHECK(strcmp(m->registers[f->target_reg].name, reg) == 0,
	      "field %s lands in %s, not %s", f->name,
	      m->registers[f->target_reg].name, reg);
	return &m->registers[f->target_reg].fields[f->target_field];
}

static void check_model(const struct pmu_model *m)
{
	const struct pmu_field *f;
	const struct pmu_reg_field *rf;
	int e;

	CHECK(strcmp(m->compatible, "ibm,power-pmu") == 0 && m->name &&
	      strcmp(m->name, "POWER10 PMU") == 0, "identity");
	CHECK(m->max_group == 6, "max_group %u", m->max_group);
	CHECK(m->ncounters == 6, "%d counters", m->ncounters);
	if (m->ncounters == 6) {
		CHECK(strcmp(m->counters[0].name, "PMC1") == 0 && m->counters[0].sprn == 787 &&
		      m->counters[0].programmable && !m->counters[0].event, "PMC1");
		CHECK(!m->counters[4].programmable && m->counters[4].fixed_code == 0x500fa,
		      "PMC5 code 0x%llx", (unsigned long long)m->counters[4].fixed_code);
		CHECK(m->counters[5].fixed_code == 0x600f4, "PMC6");
	}
	CHECK(m->nregisters == 5 && strcmp(m->registers[4].name, "MMCRA") == 0 &&
	      m->registers[4].index == 4 && m->registers[4].sprn == 786, "registers");
	CHECK(m->nfields == 17, "%d fields", m->nfields);
	f = field(m, "pmcx");
	CHECK(f && f->role == PMU_ROLE_PMC && f->lo == 16 && f->hi == 19 &&
	      f->target_reg < 0 && f->dts_name && strcmp(f->dts_name, "PMCx") == 0,
	      "the PMCx field");
	f = field(m, "mark");
	CHECK(f && f->role == PMU_ROLE_MARK, "MARK role");
	f = field(m, "pmcxsel");
	rf = target(m, f, "MMCR1");
	CHECK(rf && rf->layout == PMU_LAYOUT_PER_PMC && rf->base == 32 &&
	      rf->stride == 8 && rf->width == 8, "PMCxSEL target");
	f = field(m, "ifm");
	rf = target(m, f, "MMCRA");
	CHECK(rf && rf->layout == PMU_LAYOUT_FIXED && rf->lo == 30 && rf->hi == 31,
	      "IFM target");
	/* mmcr2 { fcp { pgm_base = <62>; stride = <9>; } }: PMC n at 71 - 9n */
	CHECK(m->exclude[PMU_EXCL_USER].reg == 2, "exclude_user register");
	if (m->exclude[PMU_EXCL_USER].reg == 2) {
		rf = &m->registers[2].fields[m->exclude[PMU_EXCL_USER].field];
		CHECK(strcmp(rf->name, "FCP") == 0 && rf->layout == PMU_LAYOUT_PER_PMC &&
		      rf->base == 71 && rf->stride == 9, "FCP layout");
	}
	CHECK(m->nusage == 3 && m->usage[1].counters == (1u << 2 | 1u << 3 | 1u << 4),
	      "mmcr0-setters");
	CHECK(m->nevents == 26, "%d events", m->nevents);
	e = pmu_model_event(m, "l1-instruction-miss");
	CHECK(e >= 0 && m->events[e].code == 0x003f00000001c040ull &&
	      m->events[e].firmware, "4-cell event_code");
	/* sample (marked), ebb and fab-match (always) have equivalents */
	CHECK(m->nconstraints == 3, "%d constraints", m->nconstraints);
	if (m->nconstraints >= 1) {
		const struct pmu_constraint *c = &m->constraints[0];

		CHECK(strcmp(c->name, "sample") == 0 && c->src_lo == 24 && c->src_hi == 28 &&
		      c->slot_lo == 16 && c->slot_hi == 20 && c->when.nterms == 1,
		      "sample constraint");
	}
}

/* pmugen's tree form of the skiboot model loads back equal. */
static void check_reemit(const struct pmu_model *m)
{
	struct pmu_model back;
	struct pmu_diag d;
	char *dtb = NULL, diff[256];
	size_t len = 0;

	if (dt_emit_dtb(m, true, &dtb, &len)) {
		failures++;
		return;
	}
	pmu_diag_init(&d, stderr);
	CHECK(pmu_load_dtb(&back, "again.dtb", dtb, len, &d) == 0, "reload: %s",
	      d.first.message);
	if (d.nerrors == 0) {
		CHECK(pmu_model_equal(m, &back, diff, sizeof(diff)), "differs: %s", diff);
		pmu_model_free(&back);
	}
	free(dtb);
}

int main(int argc, char **argv)
{
	struct pmu_model m;
	struct pmu_diag d;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SKIBOOT.dtb\n", argv[0]);
		return 2;
	}
	pmu_diag_init(&d, stderr);
	if (pmu_load_dtb_file(&m, argv[1], &d) != 0) {
		fprintf(stderr, "skiboot tree rejected\n");
		return 1;
	}
	CHECK(d.nwarnings == 1, "%d warnings (want 1: constraints not loaded)",
	      d.nwarnings);
	check_model(&m);
	check_reemit(&m);
	pmu_model_free(&m);
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	else
		printf("skiboot tree OK\n");
	return failures ? 1 : 0;
}
