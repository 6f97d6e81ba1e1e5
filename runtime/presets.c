/*
 * presets.c - PAPI presets through the public API: list, look up without
 * case, evaluate a derived preset from its members' counts (exactly, in
 * model/preset.c).  pmurt_parse_event resolves a preset name on its miss
 * path (parse.c resolve_preset).
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

_Static_assert(PMURT_PRESET_MAX_EVENTS == PMU_PRESET_MAX_EVENTS, "preset members");
_Static_assert((int)PMURT_PRESET_POSTFIX == (int)PMU_PRESET_POSTFIX, "preset kinds");

/* The oldest struct pmurt_preset_info a caller may hold (0.3's). */
#define PRESET_INFO_MIN_SZ sizeof(struct pmurt_preset_info)
#define PRESET_VALUE_MIN_SZ sizeof(struct pmurt_preset_value)

static void fill_preset(const struct pmu_preset *p, struct pmurt_preset_info *info)
{
	struct pmurt_preset_info full = {
		.sz = sizeof(full),
		.name = p->name,
		.description = p->description,
		.kind = (enum pmurt_preset_kind)p->kind,
		.derived = p->kind != PMU_PRESET_EVENT,
		.nevents = p->nevents,
		.postfix = p->postfix,
	};
	for (int k = 0; k < p->nevents; k++) {
		full.events[k] = p->events[k];
		full.codes[k] = p->codes[k];
	}
	pmu_preset_format(p, full.formula, sizeof(full.formula));
	*info = full;
}

int pmurt_preset_get(const struct pmurt_pmu *pmu, int i, struct pmurt_preset_info *info)
{
	if (!pmu || !info || info->sz < PRESET_INFO_MIN_SZ || i < 0)
		return -EINVAL;
	if (i >= pmu->model.npresets)
		return -ENOENT;
	fill_preset(&pmu->model.presets[i], info);
	return 0;
}

int pmurt_preset_find(const struct pmurt_pmu *pmu, const char *name,
		      struct pmurt_preset_info *info, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!pmu || !name || (info && info->sz < PRESET_INFO_MIN_SZ)) {
		pmurt_set_error(err, -EINVAL, "pmurt_preset_find: missing argument or "
				"info->sz not set");
		return -EINVAL;
	}
	int i = pmu_model_preset(&pmu->model, name);
	if (i >= 0) {
		if (info)
			fill_preset(&pmu->model.presets[i], info);
		return i;
	}
	if (err) {
		struct pmurt_nearest n;
		pmurt_nearest_init(&n, name, strlen(name));
		while (pmurt_nearest_pass(&n))
			for (int k = 0; k < pmu->model.npresets; k++)
				pmurt_nearest_try(&n, pmu->model.presets[k].name);
		pmurt_set_error(err, -ENOENT, "no preset '%s' in %s%s%s%s", name,
				pmu->model.name ? pmu->model.name : "the description",
				n.buf[0] ? "; did you mean '" : "", n.buf, n.buf[0] ? "'?" : "");
	}
	return -ENOENT;
}

int pmurt_preset_eval(const struct pmurt_pmu *pmu, int index, const uint64_t *counts,
		      int ncounts, struct pmurt_preset_value *out, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	if (!pmu || !counts || !out || out->sz < PRESET_VALUE_MIN_SZ || index < 0 ||
	    index >= pmu->model.npresets) {
		pmurt_set_error(err, -EINVAL, "pmurt_preset_eval: bad argument (preset index %d "
				"of %d, or out->sz not set)", index, pmu ? pmu->model.npresets : 0);
		return -EINVAL;
	}
	const struct pmu_preset *p = &pmu->model.presets[index];
	if (ncounts != p->nevents) {
		pmurt_set_error(err, -EINVAL, "pmurt_preset_eval: preset %s takes %d counts, "
				"given %d", p->name, p->nevents, ncounts);
		return -EINVAL;
	}
	int64_t num, den;
	int rc = pmu_preset_eval(p, counts, &num, &den);
	if (rc == -ERANGE)
		pmurt_set_error(err, rc, "preset %s: a count or an intermediate value does not "
				"fit in 64 bits", p->name);
	else if (rc == -EDOM)
		pmurt_set_error(err, rc, "preset %s: the formula %s divides by zero", p->name,
				p->postfix ? p->postfix : "");
	else if (rc)
		pmurt_set_error(err, rc, "preset %s: bad formula", p->name);
	if (rc)
		return rc;
	*out = (struct pmurt_preset_value){.sz = sizeof(*out), .value = num / den,
					   .exact = den == 1, .num = num, .den = den};
	return 0;
}
