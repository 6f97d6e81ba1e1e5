/*
 * events.c - event look-up: by name without case through the name-hash index
 * (the built-in tables' generation-time index, or one built at load time
 * with the same layout and hash), by code, and the nearest name for
 * suggestions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

int pmurt_build_name_index(struct pmurt_pmu *pmu)
{
	const struct pmu_model *m = &pmu->model;
	uint32_t size = 16;
	while (size < 2u * (uint32_t)m->nevents)
		size *= 2;
	uint32_t *slots = calloc(size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (int i = 0; i < m->nevents; i++) {
		uint32_t h = (uint32_t)(pmu_tbl_name_hash(m->events[i].name) & (size - 1));
		while (slots[h])
			h = (h + 1) & (size - 1);
		slots[h] = (uint32_t)i + 1;
	}
	pmu->owned_index = slots;
	pmu->name_index = slots;
	pmu->name_index_size = size;
	return 0;
}

int pmurt_build_lower_names(struct pmurt_pmu *pmu)
{
	const struct pmu_model *m = &pmu->model;
	size_t total = 0;
	for (int i = 0; i < m->nevents; i++)
		total += strlen(m->events[i].name) + 1;
	pmu->lower_pool = malloc(total ? total : 1);
	pmu->lower_off = malloc((m->nevents ? m->nevents : 1) * sizeof(uint32_t));
	pmu->lower_len = malloc((m->nevents ? m->nevents : 1) * sizeof(uint32_t));
	if (!pmu->lower_pool || !pmu->lower_off || !pmu->lower_len || total > UINT32_MAX)
		return -ENOMEM;
	size_t at = 0;
	for (int i = 0; i < m->nevents; i++) {
		size_t len = strlen(m->events[i].name);
		pmu_tbl_name_hash_len(m->events[i].name, len, pmu->lower_pool + at);
		pmu->lower_pool[at + len] = '\0';
		pmu->lower_off[i] = (uint32_t)at;
		pmu->lower_len[i] = (uint32_t)len;
		at += len + 1;
	}
	return 0;
}

#define LOOKUP_MAX_NAME 256

int pmurt_lookup_name(const struct pmurt_pmu *pmu, const char *name)
{
	size_t len = strlen(name);
	if (len >= LOOKUP_MAX_NAME)
		return -ENOENT; /* no event name is that long */
	char lowered[LOOKUP_MAX_NAME];
	uint32_t mask = pmu->name_index_size - 1;
	uint32_t h = (uint32_t)(pmu_tbl_name_hash_len(name, len, lowered) & mask);
	for (uint32_t probes = 0; probes <= mask; probes++, h = (h + 1) & mask) {
		uint32_t slot = pmu->name_index[h];
		if (!slot)
			return -ENOENT;
		uint32_t i = slot - 1;
		if (pmu->lower_len[i] == len &&
		    memcmp(pmu->lower_pool + pmu->lower_off[i], lowered, len) == 0)
			return (int)i;
	}
	return -ENOENT;
}

static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return 64;
	size_t prev[64], cur[64];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = strncasecmp(a + i - 1, b + j - 1, 1) != 0;
			size_t best = prev[j - 1] + cost;
			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			cur[j] = best;
		}
		memcpy(prev, cur, (lb + 1) * sizeof(size_t));
	}
	return prev[lb];
}

const char *pmurt_nearest_name(const struct pmurt_pmu *pmu, const char *name)
{
	const struct pmu_model *m = &pmu->model;
	const char *best = NULL;
	size_t best_d = strlen(name) / 3 + 2;
	for (int i = 0; i < m->nevents; i++) {
		size_t d = distance(name, m->events[i].name);
		if (d < best_d) {
			best_d = d;
			best = m->events[i].name;
		}
	}
	return best;
}

static void fill_info(const struct pmurt_pmu *pmu, int i, struct pmurt_event_info *info)
{
	if (!info)
		return;
	const struct pmu_event *e = &pmu->model.events[i];
	struct pmurt_event_info full = {
		.sz = sizeof(full),
		.name = e->name,
		.code = e->code,
		.category = e->category,
		.event_class = e->event_class,
		.description = e->description,
		.firmware = e->firmware,
		.alias_of = e->alias_of >= 0 ? pmu->model.events[e->alias_of].name : NULL,
	};
	if (info->sz >= sizeof(full)) { /* built against this header: no size games */
		*info = full;
		return;
	}
	size_t sz = info->sz;
	memcpy(info, &full, sz);
	info->sz = sz;
}

int pmurt_event_get(const struct pmurt_pmu *pmu, int i, struct pmurt_event_info *info)
{
	if (!pmu || i < 0 || i >= pmu->model.nevents)
		return -EINVAL;
	fill_info(pmu, i, info);
	return 0;
}

int pmurt_event_find(const struct pmurt_pmu *pmu, const char *name,
		     struct pmurt_event_info *info, struct pmurt_error *err)
{
	if (!pmu || !name)
		return -EINVAL;
	int i = pmurt_lookup_name(pmu, name);
	if (i < 0) {
		const char *near = pmurt_nearest_name(pmu, name);
		if (near)
			pmurt_set_error(err, -ENOENT, "no event '%s'; did you mean '%s'?", name, near);
		else
			pmurt_set_error(err, -ENOENT, "no event '%s'", name);
		return -ENOENT;
	}
	fill_info(pmu, i, info);
	return i;
}

int pmurt_event_find_code(const struct pmurt_pmu *pmu, uint64_t code,
			  struct pmurt_event_info *info)
{
	if (!pmu)
		return -EINVAL;
	int i = pmu_model_event_by_code(&pmu->model, code);
	if (i < 0)
		return -ENOENT;
	fill_info(pmu, i, info);
	return i;
}
