/*
 * name_lookup.h - the event-name look-up through the name-hash index
 * (pmu_tables.h's layout and hash), inline for the two callers that matter:
 * pmurt_lookup_name (events.c) and the parser's fast path (parse.c).
 * Private to libpmurt.
 */
#ifndef PMURT_NAME_LOOKUP_H
#define PMURT_NAME_LOOKUP_H

#include <errno.h>
#include <string.h>

#include "internal.h"

static inline uint64_t load64(const char *p)
{
	return pmu_tbl_word(p);
}

/* Words a (of the string looked up) and b (of a name) are equal without
 * case: compared as they are, lowered only when they differ. */
static inline bool words_match(uint64_t a, uint64_t b)
{
	return a == b || pmu_tbl_lower64(a) == pmu_tbl_lower64(b);
}

/* span_matches() for names of 8 bytes or more that differ in case: word by
 * word, the last eight bytes overlapping. */
static inline bool span_matches_nocase(const char *s, size_t n, const char *name)
{
	size_t last = n - 8;
	for (size_t j = 0; j < last; j += 8)
		if (!words_match(load64(s + j), load64(name + j)))
			return false;
	return words_match(load64(s + last), load64(name + last));
}

/* Whether the n >= 8 bytes at s and at name differ as they are: the four
 * fixed words the hash reads at once (all of a name of up to 32 bytes),
 * then the words between. */
static inline __attribute__((always_inline)) bool span_differs(const char *s, size_t n,
								const char *name)
{
	size_t w1 = pmu_tbl_fixed_word(n, 8), w2 = pmu_tbl_fixed_word(n, 16), last = n - 8;
	uint64_t diff = (load64(s) ^ load64(name)) | (load64(s + w1) ^ load64(name + w1)) |
			(load64(s + w2) ^ load64(name + w2)) | (load64(s + last) ^ load64(name + last));
	for (size_t j = 24; __builtin_expect(j < last, 0) && !diff; j += 8)
		diff = load64(s + j) ^ load64(name + j);
	return diff != 0;
}

/* name equals s[0..n): without case, or (exact) spelled alike, which the
 * caller asks only for n below the tag's maximum.  Otherwise the slot's tag
 * said that name is n bytes long, unless that is the tag's maximum. */
static inline __attribute__((always_inline)) bool span_matches(const char *s, size_t n,
								const char *name, bool exact)
{
	if (__builtin_expect(n < 8, 0))
		return exact ? pmu_tbl_short_word(s, n) == pmu_tbl_short_word(name, n)
			     : words_match(pmu_tbl_short_word(s, n), pmu_tbl_short_word(name, n));
	if (exact)
		return !span_differs(s, n, name);
	if (n >= PMU_TBL_TAG_LEN_MAX && strnlen(name, n + 1) != n)
		return false;
	return __builtin_expect(!span_differs(s, n, name), 1) || span_matches_nocase(s, n, name);
}

/* The event named s[0..n) without case, or -ENOENT, in one pass that hashes
 * the name and one that compares it with the candidate's; *punct says
 * whether the event's name holds one of PMU_TBL_PUNCT.  With exact (n below
 * the tag's maximum), the first candidate whose tag is s's must be spelled
 * as s is, else -ENOENT: a look-up that calls nothing and takes the same
 * event as the one without case whenever it takes one (parse.c's fast
 * path; the first candidate equal without case is the answer). */
static inline __attribute__((always_inline)) int
lookup_span(const struct pmurt_pmu *pmu, const char *s, size_t n, bool exact, bool *punct)
{
	uint64_t hash = pmu_tbl_name_hash_len(s, n);
	uint32_t mask = pmu->name_index_size - 1;
	uint32_t h = (uint32_t)hash & mask, tag = pmu_tbl_name_tag(hash, n);
	for (uint32_t probes = 0; probes <= mask; probes++, h = (h + 1) & mask) {
		uint64_t slot = pmu->name_index[h];
		if (!slot)
			return -ENOENT;
		if ((uint32_t)(slot >> 32) != tag)
			continue;
		uint32_t i = ((uint32_t)slot & PMU_TBL_SLOT_INDEX) - 1;
		if (span_matches(s, n, pmu->model.events[i].name, exact)) {
			*punct = slot & PMU_TBL_SLOT_PUNCT;
			return (int)i;
		}
		if (exact)
			return -ENOENT;
	}
	return -ENOENT;
}

#endif /* PMURT_NAME_LOOKUP_H */
