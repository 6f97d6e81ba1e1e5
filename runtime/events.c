/*
 * events.c - event look-up: by name without case through the name-hash index
 * (the built-in tables' generation-time index, or one built at load time
 * with the same layout and hash), by code, and the nearest name for
 * suggestions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
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

/*
 * Suggestions: the closest candidate by edit distance without case, within
 * a third of the word's length, plus 2, the first on
 * a tie.  The distance is cut off at the best so far, so looking through
 * every event stays cheap on the error path.
 */
void pmurt_nearest_init(struct pmurt_nearest *n, const char *word, size_t len)
{
	n->len = len;
	n->best = len > 63 ? 0 : len / 3 + 2; /* longer words are not compared */
	for (size_t i = 0; i < len && i < 63; i++)
		n->word[i] = (char)tolower((unsigned char)word[i]);
	n->buf[0] = 0;
}

/* Coverage feedback from the distance loop's comparisons only slows a
 * fuzzer down (and error messages run it over every event). */
#if defined(__clang__)
#define NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define NO_COVERAGE
#endif

/* Edit distance between n->word and b, or n->best (the limit) if it is not
 * below it.  Only the band |i - j| < limit of the table is computed: a cell
 * outside it is at least the limit, and stands in as the limit. */
NO_COVERAGE static size_t distance_below(const struct pmurt_nearest *n, const char *b)
{
	size_t la = n->len, lb = strlen(b), limit = n->best;
	if (lb > 63 || (la > lb ? la - lb : lb - la) >= limit)
		return limit;
	char lower[64];
	size_t row[64];
	for (size_t j = 0; j < lb; j++)
		lower[j] = (char)tolower((unsigned char)b[j]);
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t lo = i >= limit ? i - limit + 1 : 1;
		size_t hi = i + limit - 1 < lb ? i + limit - 1 : lb;
		size_t diag = row[lo - 1];
		row[lo - 1] = lo == 1 ? i : limit;
		size_t low = row[lo - 1];
		for (size_t j = lo; j <= hi; j++) {
			size_t up = row[j];
			size_t best = diag + (n->word[i - 1] != lower[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
			if (best < low)
				low = best;
		}
		if (low >= limit)
			return limit;
	}
	return row[lb] < limit ? row[lb] : limit;
}

void pmurt_nearest_try(struct pmurt_nearest *n, const char *cand)
{
	if (!cand)
		return;
	size_t d = distance_below(n, cand);
	if (d < n->best) {
		n->best = d;
		snprintf(n->buf, sizeof(n->buf), "%s", cand);
	}
}

const char *pmurt_nearest_name(const struct pmurt_pmu *pmu, const char *name)
{
	struct pmurt_nearest n;
	pmurt_nearest_init(&n, name, strlen(name));
	for (int i = 0; i < pmu->model.nevents; i++)
		pmurt_nearest_try(&n, pmu->model.events[i].name);
	/* the suggestion must outlive n: hand back the event's own name */
	for (int i = 0; n.buf[0] && i < pmu->model.nevents; i++)
		if (strcmp(pmu->model.events[i].name, n.buf) == 0)
			return pmu->model.events[i].name;
	return NULL;
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
	pmurt_clear_error(err);
	if (!pmu || !name) {
		pmurt_set_error(err, -EINVAL, "pmurt_event_find: missing argument");
		return -EINVAL;
	}
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
