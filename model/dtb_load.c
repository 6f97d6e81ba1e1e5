/*
 * dtb_load.c - loads a PMU description from a DTB (schema/dts-layout.md) into
 * a struct pmu_model: finds the PMU node, tells pmugen's layout from
 * skiboot's, and runs the section loaders (dtb_description.c,
 * dtb_constraints.c, dtb_events.c, dtb_skiboot.c) over the blob dtb_read.c
 * checked.  The blob is untrusted: it is copied and checked whole first.  The
 * loader goes on after an error to report as many as it can, then fails with
 * -EINVAL.
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

#define DTB_MAX_FILE (256L * 1024 * 1024)

static int find_pmu(struct dl *L)
{
	int first = -1;

	for (int off = fdt_node_offset_by_compatible(L->fdt, -1, "ibm,power-pmu");
	     off >= 0;
	     off = fdt_node_offset_by_compatible(L->fdt, off, "ibm,power-pmu")) {
		int parent = fdt_parent_offset(L->fdt, off);

		if (first < 0)
			first = off;
		if (parent > 0 && strcmp(dl_node_name(L, parent), "pmus") == 0 &&
		    fdt_parent_offset(L->fdt, parent) == 0)
			return off;
	}
	if (first < 0)
		return dl_fail(L, 0, NULL, "no node with compatible \"ibm,power-pmu\"");
	return first;
}

/* [ext] pvr-versions: 1 to PMU_MAX_PVR_VERSIONS processor versions of
 * 16 bits, each once; a pvr among them when both are given. */
static int load_pvr_versions(struct dl *L)
{
	struct pmu_model *m = L->m;
	int rc = dl_get_cells(L, L->pmu, "pvr-versions", false, m->pvr_versions, 1,
			      PMU_MAX_PVR_VERSIONS, &m->npvr_versions);
	if (rc)
		return rc;
	for (int i = 0; i < m->npvr_versions; i++) {
		if (m->pvr_versions[i] > 0xffff)
			return dl_fail(L, L->pmu, "pvr-versions", "0x%x is more than the PVR's 16 "
				       "version bits", m->pvr_versions[i]);
		for (int j = 0; j < i; j++)
			if (m->pvr_versions[j] == m->pvr_versions[i])
				return dl_fail(L, L->pmu, "pvr-versions", "0x%04x is listed twice",
					       m->pvr_versions[i]);
	}
	if (m->pvr && !pmu_model_has_pvr_version(m, m->pvr >> 16))
		return dl_fail(L, L->pmu, "pvr", "0x%08x is processor version 0x%04x, which "
			       "pvr-versions does not list", m->pvr, m->pvr >> 16);
	return 0;
}

static int load_identity(struct dl *L)
{
	struct pmu_model *m = L->m;
	const char *compat;
	uint32_t format = 0;
	int len, rc = 0;

	compat = fdt_stringlist_get(L->fdt, L->pmu, "compatible", 0, &len);
	m->compatible = pmu_strdup(compat ? compat : "ibm,power-pmu");
	if (!m->compatible)
		return dl_oom(L);
	rc = dl_get_u32(L, L->pmu, "description-format", false, &format);
	if (rc == 0 && format != PMU_FORMAT_VERSION)
		rc = dl_fail(L, L->pmu, "description-format",
			  "version %u (this loader reads %d)", format,
			  PMU_FORMAT_VERSION);
	L->legacy = rc == 1;
	if (dl_get_strdup(L, L->pmu, "pmu-name", false, &m->name) < 0 ||
	    dl_get_strdup(L, L->pmu, "pmu-version", false, &m->version) < 0 ||
	    dl_get_strdup(L, L->pmu, "platform", false, &m->platform) < 0 ||
	    dl_get_u32(L, L->pmu, "max-group", !L->legacy, &m->max_group) < 0)
		rc = -EINVAL;
	m->overflow_counter_unknown = dl_has_prop(L, L->pmu, "overflow-counter-unknown");
	if (dl_get_u32(L, L->pmu, "pvr", false, &m->pvr) < 0 ||
	    load_pvr_versions(L) < 0 ||
	    dl_get_strdup(L, L->pmu, "extends", false, &m->extends) < 0)
		rc = -EINVAL;
	return rc < 0 ? rc : 0;
}

/* nr_pmc (required, as for the kernel) and nr_mmcr must match the lists. */
static int check_counts(struct dl *L)
{
	uint32_t nr_pmc, nr_mmcr;
	int rc = dl_get_u32(L, L->pmu, "nr_pmc", true, &nr_pmc);

	if (rc == 0 && nr_pmc != (uint32_t)L->m->ncounters)
		rc = dl_fail(L, L->pmu, "nr_pmc", "says %u counters, sprs/pmcs has %d",
			  nr_pmc, L->m->ncounters);
	if (dl_get_u32(L, L->pmu, "nr_mmcr", false, &nr_mmcr) == 0 &&
	    nr_mmcr != (uint32_t)L->m->nregisters)
		rc = dl_fail(L, L->pmu, "nr_mmcr", "says %u registers, sprs/mmcr has %d",
			  nr_mmcr, L->m->nregisters);
	if (L->legacy && L->m->max_group == 0)
		L->m->max_group = (uint32_t)L->m->ncounters;
	return rc < 0 ? rc : 0;
}

static int load_all(struct dl *L)
{
	int constraints, rc;

	L->pmu = find_pmu(L);
	if (L->pmu < 0)
		return -EINVAL;
	rc = load_identity(L);
	if (dl_load_sprs(L) < 0)
		return -EINVAL; /* everything below refers to these */
	rc |= check_counts(L);
	if (dl_load_code_classes(L) < 0)
		return -EINVAL; /* conditions name them */
	constraints = dl_child(L, L->pmu, "constraints", false);
	if (dl_load_fields(L, constraints) < 0)
		return -EINVAL;
	rc |= dl_load_mmcr_inputs(L);
	rc |= dl_load_constraints(L, constraints);
	rc |= dl_load_generic(L);
	rc |= dl_load_cache_events(L);
	rc |= dl_load_branch_filters(L);
	rc |= dl_load_events(L);
	rc |= dl_load_presets(L);
	if (rc == 0) /* expressions name the events */
		rc |= dl_load_metrics(L);
	if (L->legacy && rc == 0)
		rc |= skiboot_fixed_codes(L);
	return rc ? -EINVAL : 0;
}

/* Check, then load the private copy in L->fdt. */
static int load_checked(struct dl *L, size_t size)
{
	int rc = dl_check_blob(L, L->fdt ? L->fdt : "", L->fdt ? size : 0);

	if (rc == 0)
		rc = dl_build_paths(L) ? dl_oom(L) : dl_check_unique_paths(L);
	if (rc == 0)
		rc = load_all(L);
	if (rc == 0 && L->errors)
		rc = -EINVAL;
	return rc;
}

int pmu_load_dtb(struct pmu_model *m, const char *name, const void *blob,
		 size_t size, struct pmu_diag *d)
{
	struct pmu_diag quiet;
	struct dl L = { 0 };
	void *copy = NULL;
	int rc = 0;

	if (!d) {
		pmu_diag_init(&quiet, NULL);
		d = &quiet;
	}
	pmu_model_init(m);
	L.name = name ? name : "(dtb)";
	L.m = m;
	L.d = d;
	m->source = pmu_strdup(L.name);
	/* a private, suitably aligned copy: the caller's buffer may be neither */
	if (blob && size && (copy = malloc(size)) != NULL)
		memcpy(copy, blob, size);
	if (!m->source || (blob && size && !copy))
		rc = dl_oom(&L);
	L.fdt = copy;
	if (rc == 0)
		rc = load_checked(&L, size);
	if (rc == 0)
		rc = pmu_model_finish(m);
	free(L.field_node);
	dl_free_paths(&L);
	free(copy);
	if (rc)
		pmu_model_free(m);
	return pmu_diag_rc(d, rc);
}

/* The whole file, at most DTB_MAX_FILE bytes. */
static int read_whole(const char *path, unsigned char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, got;
	int rc = 0;

	*len = 0;
	if (!f)
		return -errno;
	do {
		if (*len == cap) {
			unsigned char *grown = NULL;

			cap = cap ? cap * 2 : 65536;
			if (cap <= (size_t)DTB_MAX_FILE)
				grown = realloc(buf, cap);
			if (!grown) {
				rc = -EFBIG;
				break;
			}
			buf = grown;
		}
		got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
	} while (got > 0);
	if (rc == 0 && ferror(f))
		rc = -EIO;
	fclose(f);
	if (rc)
		free(buf);
	else
		*out = buf;
	return rc;
}

int pmu_load_dtb_file(struct pmu_model *m, const char *path,
		      struct pmu_diag *d)
{
	struct pmu_diag quiet;
	unsigned char *buf = NULL;
	size_t len;
	int rc;

	if (!d) {
		pmu_diag_init(&quiet, NULL);
		d = &quiet;
	}
	rc = read_whole(path, &buf, &len);
	if (rc) {
		struct pmu_pos p = { path, 0, 0 };

		pmu_model_init(m);
		pmu_report(d, -1, &p, "cannot read: %s", strerror(-rc));
		return rc;
	}
	rc = pmu_load_dtb(m, path, buf, len, d);
	free(buf);
	return rc;
}
