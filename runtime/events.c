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
#include "name_lookup.h"

int pmurt_build_name_index(struct pmurt_pmu *pmu)
{
	const struct pmu_model *m = &pmu->model;
	uint32_t size = 16;
	while (size < 2u * (uint32_t)m->nevents)
		size *= 2;
	uint64_t *slots = calloc(size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (int i = 0; i < m->nevents; i++) {
		size_t len = strlen(m->events[i].name);
		uint64_t hash = pmu_tbl_name_hash_len(m->events[i].name, len);
		uint32_t h = (uint32_t)(hash & (size - 1));
		while (slots[h])
			h = (h + 1) & (size - 1);
		slots[h] = pmu_tbl_name_slot((uint32_t)i, m->events[i].name, hash, len);
	}
	pmu->owned_index = slots;
	pmu->name_index = slots;
	pmu->name_index_size = size;
	return 0;
}

static inline unsigned ascii_lower(unsigned char ch)
{
	return (unsigned)ch - 'A' < 26u ? ch | 0x20u : ch;
}

int pmurt_lookup_name(const struct pmurt_pmu *pmu, const char *name, size_t len)
{
	bool punct = false;
	return lookup_span(pmu, name, len, false, &punct);
}

/* The first byte where the 8-byte words at a (lower case) and b differ
 * without case, 8 if none. */
static inline size_t word_mismatch(const char *a, const char *b)
{
	uint64_t x, y;
	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	uint64_t diff = pmu_tbl_le64(x ^ pmu_tbl_lower64(y)); /* first byte lowest */
	return diff ? (size_t)__builtin_ctzll(diff) / 8 : 8;
}

/* How many of the first n bytes of a (lower case) and b agree without
 * case; eight at a time (pmu_tables.h's lowering), the last eight
 * overlapping the ones before, so b must hold n bytes before any NUL. */
static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0, k;
	if (n < 8) {
		while (i < n && (unsigned char)a[i] == ascii_lower((unsigned char)b[i]))
			i++;
		return i;
	}
	for (; i + 8 <= n; i += 8)
		if ((k = word_mismatch(a + i, b + i)) < 8)
			return i + k;
	if (i < n && (k = word_mismatch(a + n - 8, b + n - 8)) < 8)
		return n - 8 + k;
	return n;
}

/*
 * Suggestions: the closest candidate by edit distance without case, closer
 * than a third of the word's length plus 2, the first on a tie.  A scan
 * with reach L takes only candidates closer than L (and then only closer
 * than the best so far), so it finds the first candidate at the least
 * distance whenever that distance is below L.  The search scans twice at
 * most (pmurt_nearest_pass): with reach 2, where a candidate whose length
 * differs by 2 or more is skipped at once and the rest need no table (one
 * substitution, insertion or deletion after the common prefix), which finds
 * the usual typo for a few instructions per candidate; then, only when that
 * found nothing, with the full reach, the distance computed in a band of
 * width 2L - 1 and given up on as soon as a row reaches L.
 */
void pmurt_nearest_init(struct pmurt_nearest *n, const char *word, size_t len)
{
	n->len = len;
	n->limit = len > 63 ? 0 : len / 3 + 2; /* longer words are not compared */
	n->best = 0;
	for (size_t i = 0; i < len && i < 63; i++)
		n->word[i] = (char)tolower((unsigned char)word[i]);
	n->buf[0] = 0;
}

#define FIRST_REACH 2

#ifdef PMURT_COUNT_SUGGESTIONS
_Thread_local unsigned long pmurt_suggestion_searches;
#define COUNT_SEARCH(n) (pmurt_suggestion_searches += (n)->best == 0)
#else
#define COUNT_SEARCH(n) ((void)0)
#endif

bool pmurt_nearest_pass(struct pmurt_nearest *n)
{
	size_t reach = n->best ? n->limit : FIRST_REACH;
	if (reach > n->limit)
		reach = n->limit;
	if (n->buf[0] || reach <= n->best)
		return false;
	COUNT_SEARCH(n);
	n->best = reach;
	return true;
}

/* Coverage feedback from the distance loop's comparisons only slows a
 * fuzzer down (and error messages run it over every event). */
#if defined(__clang__)
#define NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define NO_COVERAGE
#endif

/* The edit distance of a (lower case) and b if it is 0 or 1, else 2: after
 * the common prefix, the rest must agree after one substitution, insertion
 * or deletion. */
static size_t distance_upto1(const char *a, size_t la, const char *b, size_t lb)
{
	size_t i = common_prefix(a, b, la < lb ? la : lb);
	if (i == la && i == lb)
		return 0;
	size_t agree;
	if (la == lb)          /* a substitution at i */
		agree = i + 1 + common_prefix(a + i + 1, b + i + 1, la - i - 1);
	else if (la + 1 == lb) /* b has one more letter, at i */
		agree = i + common_prefix(a + i, b + i + 1, la - i);
	else                   /* a has one more letter, at i */
		agree = i + 1 + common_prefix(a + i + 1, b + i, lb - i);
	return agree == la ? 1 : 2;
}

/* Edit distance between w (la bytes, lower case) and b (lb bytes), or
 * limit if it is not below it.  Only the band |i - j| < limit of the table
 * is computed: a cell outside it is at least the limit, and stands in as
 * the limit. */
NO_COVERAGE __attribute__((noinline)) static size_t
distance_banded(const char *w, size_t la, const char *b, size_t lb, size_t limit)
{
	/* a common prefix changes no distance */
	size_t skip = common_prefix(w, b, la < lb ? la : lb);
	w += skip;
	b += skip;
	la -= skip;
	lb -= skip;
	size_t row[64];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t lo = i >= limit ? i - limit + 1 : 1;
		size_t hi = i + limit - 1 < lb ? i + limit - 1 : lb;
		size_t diag = row[lo - 1];
		row[lo - 1] = lo == 1 ? i : limit;
		size_t low = row[lo - 1];
		unsigned a = (unsigned char)w[i - 1];
		for (size_t j = lo; j <= hi; j++) {
			size_t up = row[j];
			size_t best = diag + (a != ascii_lower((unsigned char)b[j - 1]));
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

/* Edit distance between n->word and b, or n->best (the limit) if it is not
 * below it: the length filter, then the one-edit test or the banded table. */
NO_COVERAGE static inline size_t distance_below(const struct pmurt_nearest *n, const char *b)
{
	size_t la = n->len, limit = n->best;
	size_t lb = strnlen(b, la + limit);
	if (lb > 63 || (la > lb ? la - lb : lb - la) >= limit)
		return limit;
	if (limit > FIRST_REACH)
		return distance_banded(n->word, la, b, lb, limit);
	size_t d = distance_upto1(n->word, la, b, lb);
	return d < limit ? d : limit;
}

static inline bool nearest_try(struct pmurt_nearest *n, const char *cand)
{
	if (!cand)
		return false;
	size_t d = distance_below(n, cand);
	if (d >= n->best)
		return false;
	n->best = d;
	snprintf(n->buf, sizeof(n->buf), "%s", cand);
	return true;
}

bool pmurt_nearest_try(struct pmurt_nearest *n, const char *cand)
{
	return nearest_try(n, cand);
}

int pmurt_nearest_events(struct pmurt_nearest *n, const struct pmu_model *m)
{
	int found = -1;
	for (int i = 0; i < m->nevents; i++)
		if (nearest_try(n, m->events[i].name))
			found = i;
	return found;
}

const char *pmurt_nearest_name(const struct pmurt_pmu *pmu, const char *name)
{
	struct pmurt_nearest n;
	int found = -1;
	pmurt_nearest_init(&n, name, strlen(name));
	while (pmurt_nearest_pass(&n))
		found = pmurt_nearest_events(&n, &pmu->model);
	/* the suggestion must outlive n: hand back the event's own name */
	return found >= 0 ? pmu->model.events[found].name : NULL;
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
	int i = pmurt_lookup_name(pmu, name, strlen(name));
	if (i < 0 && !err)
		return -ENOENT; /* nobody reads a suggestion: none is searched for */
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
