/*
 * generations.c - what the other built-in descriptions (the other processor
 * generations) make of an event name or a raw code: pmurt_generations, and
 * the note libpmurt's parser ends an unknown name's error with.  It reads
 * the built-in tables as they are (their name index, their events), so it
 * builds no model and knows no PMU: a new built-in description takes part
 * by being built in.  Descriptions related by `extends` are one PMU (Power11
 * is POWER10's): neither is another generation of the other, and an
 * extension's events are its base's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

static const char *pool_str(const struct pmu_tables *t, pmu_str_t s)
{
	return s == PMU_TBL_NOSTR || s >= t->pool_size ? NULL : t->pool + s;
}

/* The event of t named name[0..len) without case, or -1. */
static int tables_find_name(const struct pmu_tables *t, const char *name, size_t len)
{
	if (!t->name_index_size || len > PMU_TBL_TAG_LEN_MAX)
		return -1;
	uint64_t hash = pmu_tbl_name_hash_len(name, len);
	uint32_t tag = pmu_tbl_name_tag(hash, len), mask = t->name_index_size - 1;
	for (uint32_t h = (uint32_t)(hash & mask), probes = 0; probes < t->name_index_size;
	     h = (h + 1) & mask, probes++) {
		uint64_t slot = t->name_index[h];
		uint32_t index = (uint32_t)slot & PMU_TBL_SLOT_INDEX;
		if (!index)
			return -1;
		if ((uint32_t)(slot >> 32) != tag || index > t->nevents)
			continue;
		const char *n = pool_str(t, t->events[index - 1].name);
		if (n && strlen(n) == len && strncasecmp(n, name, len) == 0)
			return (int)index - 1;
	}
	return -1;
}

/* The first event of t with code, a perf event before a firmware one, or -1. */
static int tables_find_code(const struct pmu_tables *t, uint64_t code)
{
	int firmware = -1;
	for (uint32_t i = 0; i < t->nevents; i++) {
		if (t->events[i].code != code)
			continue;
		if (!(t->events[i].flags & PMU_TBL_EV_FIRMWARE))
			return (int)i;
		if (firmware < 0)
			firmware = (int)i;
	}
	return firmware;
}

/* The tables that hold t's events: t's own, or, for a description that
 * extends another (Power11's, pmu_tables.base), its base's at the end of the
 * chain: an extension is its base's PMU under another identity. */
static const struct pmu_tables *events_of(const struct pmu_tables *t)
{
	for (int depth = 0; t->base && depth < 8; depth++)
		t = t->base;
	return t;
}

/* The built-in tables of pmu's own platform, or NULL: a description of
 * another platform (a toy, another vendor's PMU) has no generations. */
static const struct pmu_tables *own_builtin(const struct pmurt_pmu *pmu)
{
	for (int b = 0; pmurt_builtin_tables(b); b++) {
		const struct pmu_tables *t = pmurt_builtin_tables(b);
		const char *platform = pool_str(t, t->platform);
		if (platform && pmu->model.platform && strcasecmp(platform, pmu->model.platform) == 0)
			return t;
	}
	return NULL;
}

static int generations(const struct pmurt_pmu *pmu, const char *name, size_t len,
		       uint64_t code, void *out, int max, size_t size)
{
	const struct pmu_tables *own = own_builtin(pmu);
	int n = 0;
	if (!own)
		return 0;
	for (int b = 0; pmurt_builtin_tables(b); b++) {
		const struct pmu_tables *t = pmurt_builtin_tables(b);
		const struct pmu_tables *ev = events_of(t);
		const char *platform = pool_str(t, t->platform);
		/* the same PMU is no other generation: pmu's own description, and
		 * one that extends it or that it extends (Power11 and POWER10) */
		if (!platform || ev == events_of(own))
			continue;
		if (n < max) {
			struct pmurt_generation g = {.platform = platform,
						     .pmu_name = pool_str(t, t->name)};
			int e = name ? tables_find_name(ev, name, len) : tables_find_code(ev, code);
			if (e >= 0) {
				g.event = pool_str(ev, ev->events[e].name);
				g.code = ev->events[e].code;
				g.firmware = (ev->events[e].flags & PMU_TBL_EV_FIRMWARE) != 0;
			}
			memcpy((char *)out + (size_t)n * size, &g, size < sizeof(g) ? size : sizeof(g));
		}
		n++;
	}
	return n;
}

int pmurt_generations(const struct pmurt_pmu *pmu, const char *name, uint64_t code,
		      struct pmurt_generation *out, int max, size_t size)
{
	if (!pmu || (max > 0 && (!out || size < sizeof(const char *))))
		return -EINVAL;
	return generations(pmu, name, name ? strlen(name) : 0, code, out, max < 0 ? 0 : max, size);
}

/* Whether the built-in description of pmu's own platform names the event:
 * then pmu is a part of it (a DTB of its firmware events), not another
 * generation. */
static bool own_builtin_has(const struct pmurt_pmu *pmu, const char *name, size_t len)
{
	const struct pmu_tables *t = own_builtin(pmu);
	return t && tables_find_name(events_of(t), name, len) >= 0;
}

int pmurt_generations_note(const struct pmurt_pmu *pmu, const char *name, size_t len,
			   char *buf, size_t buflen)
{
	struct pmurt_generation g[8];
	buf[0] = 0;
	if (own_builtin_has(pmu, name, len))
		return 0;
	int n = generations(pmu, name, len, 0, g, 8, sizeof(g[0])), used = 0, found = 0;
	bool told[8] = {false};
	n = n < 8 ? n : 8;
	for (int i = 0; i < n; i++) {
		if (!g[i].event || told[i])
			continue;
		/* the generations that give the same code, named together
		 * ("power10 and power11 (0x100f8, ...)"): Power11 is POWER10's PMU */
		int same[8], nsame = 0;
		for (int j = i; j < n; j++)
			if (g[j].event && !told[j] && g[j].code == g[i].code) {
				told[j] = true;
				same[nsame++] = j;
			}
		for (int k = 0; k < nsame; k++) {
			size_t at = (size_t)used < buflen ? (size_t)used : buflen;
			used += snprintf(buf + at, buflen - at, "%s%s",
					 k ? (k == nsame - 1 ? " and " : ", ") : found ? ", " : "; ",
					 g[same[k]].platform);
			found++;
		}
		size_t at = (size_t)used < buflen ? (size_t)used : buflen;
		used += snprintf(buf + at, buflen - at, " (0x%llx", (unsigned long long)g[i].code);
		struct pmurt_event_info here = {.sz = sizeof(here)};
		at = (size_t)used < buflen ? (size_t)used : buflen;
		if (pmurt_event_find_code(pmu, g[i].code, &here) >= 0)
			used += snprintf(buf + at, buflen - at, ", which here counts %s)", here.name);
		else
			used += snprintf(buf + at, buflen - at, ", no event here)");
	}
	if (found) {
		size_t at = (size_t)used < buflen ? (size_t)used : buflen;
		used += snprintf(buf + at, buflen - at, " %s this name, %s does not",
				 found > 1 ? "have" : "has",
				 pmu->model.platform ? pmu->model.platform : "this description");
	}
	return used;
}
