/*
 * dt_old_layout.c - a tree pmugen wrote before its constraints used the
 * kernel RFC's vocabulary still loads, as it says (constraints pmc, ifm,
 * thresh-ctl-sel, ...), and each node the RFC would misread gets a warning
 * naming the node the RFC reads instead, or the property it lacks, and each
 * transform under its old name thresh-cmp-p10 one naming mantissa-exponent;
 * pmugen's tree of today writes and reads back the new name without one.
 *
 * usage: dt_old_layout OLD.dtb DESCRIPTION.yaml
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_util.h"

static int failures;

/* Load blob, the diagnostics into a string (free it). */
static int load_with_report(struct pmu_model *m, const char *name, const void *blob,
			    size_t len, char **report)
{
	struct pmu_diag d;
	size_t n = 0;
	FILE *out = open_memstream(report, &n);
	int rc;

	if (!out)
		return -1;
	pmu_diag_init(&d, out);
	rc = pmu_load_dtb(m, name, blob, len, &d);
	fclose(out);
	return rc;
}

/* Whether the blob holds the string with its NUL (a property value). */
static bool blob_has(const char *blob, size_t len, const char *s)
{
	size_t n = strlen(s) + 1;

	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(blob + i, s, n) == 0)
			return true;
	return false;
}

/* thresh_cmp and the thresh-cmp constraint carry mantissa-exponent with
 * POWER10's parameters, whichever name the tree gave the transform. */
static void check_transforms(const struct pmu_model *m, const char *what)
{
	int f = pmu_model_field(m, "thresh_cmp");
	bool cons = false;

	CHECK(f >= 0 && m->fields[f].transform == PMU_XF_MANTISSA_EXPONENT &&
	      m->fields[f].encoding.clamp == 261120, "%s: thresh_cmp's transform", what);
	for (int i = 0; i < m->nconstraints; i++)
		if (strcmp(m->constraints[i].name, "thresh-cmp") == 0)
			cons = m->constraints[i].transform == PMU_XF_MANTISSA_EXPONENT &&
			       m->constraints[i].encoding.mantissa_bits == 8;
	CHECK(cons, "%s: the thresh-cmp constraint's transform", what);
}

static void check_old(const char *path)
{
	struct pmu_model m;
	char *report = NULL, *blob = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "rb");
	static const char *const expected[] = {
		"constraints/pmc: warning: loaded as constraint 'pmc' (the old layout); the kernel RFC ignores it and reads constraints/pmc-constraints: rename the node",
		"constraints/ifm: warning: loaded as constraint 'ifm' (the old layout); the kernel RFC ignores it and reads constraints/bhrb",
		"constraints/thresh-ctl-sel: warning: loaded as constraint 'thresh-ctl-sel' (the old layout); the kernel RFC ignores it and reads constraints/threshold/thresh-sel and threshold/thresh-ctl",
		"constraints/thresh-cmp: warning: loaded, but the kernel RFC reads this constraint only as constraints/threshold/thresh-cmp: move the node there",
		"constraints/l2l3-group: warning: loaded, but the kernel RFC reads this constraint only as constraints/cache/l2l3-group: move the node there",
		"constraints/nc: warning: loaded, but the kernel RFC misreads it: it lacks the RFC's 'mask' (the layout before the RFC vocabulary); regenerate the tree",
		"constraints/sample: warning: loaded, but the kernel RFC misreads it: it lacks the RFC's 'condition' (the layout before the RFC vocabulary); regenerate the tree",
		"/thresh_cmp: warning: property 'transform': 'thresh-cmp-p10' is deprecated: it is named 'mantissa-exponent' now",
		"constraints/thresh-cmp: warning: property 'transform': 'thresh-cmp-p10' is deprecated: it is named 'mantissa-exponent' now",
	};

	CHECK(f != NULL, "cannot open %s", path);
	if (!f)
		return;
	blob = malloc(1 << 20);
	len = blob ? fread(blob, 1, 1 << 20, f) : 0;
	fclose(f);
	pmu_model_init(&m);
	CHECK(len > 0 && load_with_report(&m, "old.dtb", blob, len, &report) == 0,
	      "the old tree does not load: %s", report ? report : "");
	for (size_t i = 0; report && i < sizeof(expected) / sizeof(expected[0]); i++)
		CHECK(strstr(report, expected[i]) != NULL, "no warning '%s' in:\n%s", expected[i],
		      report);
	CHECK(pmu_model_field(&m, "ifm") >= 0, "fields");
	bool pmc = false, ifm = false;
	for (int i = 0; i < m.nconstraints; i++) {
		pmc = pmc || strcmp(m.constraints[i].name, "pmc") == 0;
		ifm = ifm || strcmp(m.constraints[i].name, "ifm") == 0;
	}
	CHECK(pmc && ifm, "the old constraints are loaded under their names");
	check_transforms(&m, "the old tree");
	pmu_model_free(&m);
	free(report);
	free(blob);
}

static void check_new(const char *yaml)
{
	struct pmu_model m, back;
	char *dtb = NULL, *report = NULL;
	size_t len = 0;

	pmu_model_init(&back);
	if (dt_load_yaml(&m, yaml)) {
		failures++;
		return;
	}
	CHECK(dt_emit_dtb(&m, false, &dtb, &len) == 0, "emit");
	CHECK(dtb && load_with_report(&back, "new.dtb", dtb, len, &report) == 0, "reload");
	CHECK(report && !strstr(report, "kernel RFC") && !strstr(report, "deprecated"),
	      "today's tree warns:\n%s", report ? report : "");
	CHECK(dtb && blob_has(dtb, len, "mantissa-exponent") && !blob_has(dtb, len, "thresh-cmp-p10"),
	      "today's tree names the transform mantissa-exponent, never thresh-cmp-p10");
	check_transforms(&back, "today's tree");
	pmu_model_free(&m);
	pmu_model_free(&back);
	free(dtb);
	free(report);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: dt_old_layout OLD.dtb DESCRIPTION.yaml\n");
		return 2;
	}
	check_old(argv[1]);
	check_new(argv[2]);
	if (failures)
		return 1;
	printf("old-layout tree loaded with its warnings; today's tree has none\n");
	return 0;
}
