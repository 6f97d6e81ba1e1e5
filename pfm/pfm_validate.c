/*
 * pfm_validate.c - pfm_pmu_validate: a PMU's own checks, as libpfm4 4.13.0
 * makes them (lib/pfmlib_common.c pfm_pmu_validate, pfmlib_pmu_validate_encoding):
 * its name and description, no other present PMU of the same name or id,
 * its event table (names and descriptions; the perf table's types and unit
 * masks), then every event encoded as "PMU::EVENT" and, for an event with
 * unit masks, as "PMU::EVENT:UMASK" for each, at user and kernel level.
 * Each problem is a line on fp.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pfm_priv.h"

static int check_identity(const struct pfm_pmu *p, FILE *fp)
{
	if (!p->name[0] || !p->desc[0]) {
		fprintf(fp, "pmu: %s :: no %s\n", p->name, p->name[0] ? "description" : "name");
		return PFM_ERR_INVAL;
	}
	if (p->active && !p->nevents) {
		fprintf(fp, "pmu: %s :: no events\n", p->name);
		return PFM_ERR_INVAL;
	}
	for (int i = 0; i < pfm_state.npmus; i++) {
		const struct pfm_pmu *o = &pfm_state.pmus[i];
		if (o == p || !o->active)
			continue;
		if (strcasecmp(o->name, p->name) == 0 || o->id == p->id) {
			fprintf(fp, "pmu: %s :: duplicate %s\n", p->name,
				o->id == p->id ? "id" : "name");
			return PFM_ERR_INVAL;
		}
	}
	return PFM_SUCCESS;
}

static int check_table(const struct pfm_pmu *p, FILE *fp)
{
	if (p->kind == PFM_KIND_PERF)
		return pfm_perf_table_check(p->perf, p->name, fp);
	int rc = PFM_SUCCESS;
	for (int i = 0; i < p->nevents; i++) {
		struct pfm_event_view v;
		pfm_event_view(p, i, &v);
		if (!v.name || !v.name[0] || !v.desc || !v.desc[0]) {
			fprintf(fp, "pmu: %s event%d: %s :: no %s\n", p->name, i, v.name ? v.name : "",
				v.name && v.name[0] ? "description" : "name");
			rc = PFM_ERR_INVAL;
		}
	}
	return rc;
}

static int encode_one(const char *str, FILE *fp)
{
	uint64_t *codes = NULL;
	int count = 0;
	int rc = pfm_get_event_encoding(str, PFM_PLM3 | PFM_PLM0, NULL, NULL, &codes, &count);
	free(codes);
	if (rc && rc != PFM_ERR_NOTSUPP)
		fprintf(fp, "cannot encode event %s : %s\n", str, pfm_strerror(rc));
	return rc == PFM_ERR_NOTSUPP ? PFM_SUCCESS : rc;
}

static int check_encodings(const struct pfm_pmu *p, FILE *fp)
{
	int rc = PFM_SUCCESS;
	char buf[600];
	for (int i = 0; i < p->nevents; i++) {
		struct pfm_event_view v;
		pfm_event_view(p, i, &v);
		const struct pfm_perf_event *pe = p->kind == PFM_KIND_PERF ? &p->perf->events[i] : NULL;
		for (int u = 0; pe && u < pe->numasks; u++) {
			snprintf(buf, sizeof(buf), "%s::%s:%s", p->name, v.name, pe->umasks[u].name);
			int r = encode_one(buf, fp);
			rc = r ? r : rc;
		}
		if (pe && pe->numasks)
			continue;
		snprintf(buf, sizeof(buf), "%s::%s", p->name, v.name);
		int r = encode_one(buf, fp);
		rc = r ? r : rc;
	}
	return rc;
}

int pfm_pmu_validate(pfm_pmu_t pmu, FILE *fp)
{
	if (!fp)
		return PFM_ERR_INVAL;
	const struct pfm_pmu *p = pfm_state.initialized ? pfm_pmu_by_id(pmu) : NULL;
	if (!p)
		return PFM_ERR_INVAL;
	int rc = check_identity(p, fp);
	if (!rc)
		rc = check_table(p, fp);
	return rc ? rc : check_encodings(p, fp);
}
