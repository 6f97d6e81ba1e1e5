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
	uint64_t w;
	memcpy(&w, p, 8);
	return pmu_tbl_le64(w);
}

/* The k < 8 bytes at p as a little-endian word, zero-filled; before bytes
 * before p may be read too (the last word of a longer name is read as the
 * eight bytes ending at its end). */
static inline uint64_t load_tail(const char *p, size_t k, size_t before)
{
	if (!k)
		return 0;
	if (before + k >= 8)
		return load64(p + k - 8) >> (8 * (8 - k));
	uint64_t w = 0;
	for (size_t i = 0; i < k; i++)
		w |= (uint64_t)(unsigned char)p[i] << (8 * i);
	return w;
}

/* The last n % 8 bytes of the n-byte name s as a little-endian word,
 * zero-filled (0 when n is a multiple of 8). */
static inline uint64_t tail_word(const char *s, size_t n)
{
	return load_tail(s + (n & ~(size_t)7), n & 7, n & ~(size_t)7);
}

/* The hash of s[0..n) (pmu_tbl_name_hash_len): the whole words, then the
 * tail. */
static inline uint64_t span_hash(const char *s, size_t n)
{
	uint64_t h = PMU_TBL_HASH_SEED;
	size_t whole = n & ~(size_t)7;
	for (size_t j = 0; j < whole; j += 8)
		h = pmu_tbl_hash_step(h, pmu_tbl_lower64(load64(s + j)));
	if (n & 7)
		h = pmu_tbl_hash_step(h, pmu_tbl_lower64(tail_word(s, n)));
	return pmu_tbl_hash_finish(h, n);
}

/* Words a (of the string looked up) and b (of a name) are equal without
 * case: compared as they are, lowered only when they differ. */
static inline bool words_match(uint64_t a, uint64_t b)
{
	return __builtin_expect(a == b, 1) || pmu_tbl_lower64(a) == pmu_tbl_lower64(b);
}

/* name equals s[0..n) without case; the slot's tag said that name is n
 * bytes long, unless that is the tag's maximum. */
static inline bool span_matches(const char *s, size_t n, const char *name)
{
	if (n >= PMU_TBL_TAG_LEN_MAX && strnlen(name, n + 1) != n)
		return false;
	size_t whole = n & ~(size_t)7;
	for (size_t j = 0; j < whole; j += 8)
		if (!words_match(load64(s + j), load64(name + j)))
			return false;
	return !(n & 7) || words_match(tail_word(s, n), tail_word(name, n));
}

/* The event named s[0..n) without case, or -ENOENT, in one pass that hashes
 * the name and one that compares it with the candidate's; *punct (if not
 * NULL) says whether the event's name holds one of PMU_TBL_PUNCT.  Inline:
 * it is most of the work of parse.c's fast path. */
static inline int pmurt_lookup_span(const struct pmurt_pmu *pmu, const char *s, size_t n,
				    bool *punct)
{
	uint64_t hash = span_hash(s, n);
	uint32_t mask = pmu->name_index_size - 1;
	uint32_t h = (uint32_t)hash & mask, tag = pmu_tbl_name_tag(hash, n);
	for (uint32_t probes = 0; probes <= mask; probes++, h = (h + 1) & mask) {
		uint64_t slot = pmu->name_index[h];
		if (!slot)
			return -ENOENT;
		uint32_t i = ((uint32_t)slot & PMU_TBL_SLOT_INDEX) - 1;
		if ((uint32_t)(slot >> 32) == tag && span_matches(s, n, pmu->model.events[i].name)) {
			if (punct)
				*punct = slot & PMU_TBL_SLOT_PUNCT;
			return (int)i;
		}
	}
	return -ENOENT;
}

#endif /* PMURT_NAME_LOOKUP_H */
