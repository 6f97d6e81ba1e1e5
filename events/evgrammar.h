/*
 * evgrammar.h - the one grammar of event strings (evgrammar.c says it in
 * full): lists and groups, PMU/TERMS/MODS, terms, perf's modifiers, the
 * cpc probe form and numbers, read into spans of the string.  What a name,
 * field or PMU means is the readers' business: the core PMU's description
 * (parse.c) and the perf side's software, sysfs and tracepoint events
 * (events/evparse.c).  Private to libpmurt.
 */
#ifndef PMURT_EVGRAMMAR_H
#define PMURT_EVGRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* A part of a string: s[off, off + len), offsets counted in the whole
 * string, as messages give them. */
struct pmu_span {
	size_t off, len;
};

/* --- numbers (perf's num_dec, num_hex, num_raw_hex) ----------------------- */

/* Each: 0, -EINVAL (empty, a wrong digit) or -ERANGE (beyond 64 bits). */
PMURT_HIDDEN int pmu_grammar_dec(const char *p, size_t n, uint64_t *v);
PMURT_HIDDEN int pmu_grammar_hex(const char *p, size_t n, uint64_t *v); /* digits only */
PMURT_HIDDEN int pmu_grammar_number(const char *p, size_t n, uint64_t *v); /* dec or 0xHEX */
PMURT_HIDDEN bool pmu_grammar_has_hex_prefix(const char *p, size_t n);
PMURT_HIDDEN bool pmu_grammar_all_hex(const char *p, size_t n);

/* s[sp] for a message: at most PMU_QUOTE_MAX bytes, non-printing bytes as
 * '?', "..." after a cut. */
#define PMU_QUOTE_MAX 60
PMURT_HIDDEN const char *pmu_grammar_quote(const char *s, struct pmu_span sp,
					   char buf[PMU_QUOTE_MAX + 4]);
/* s[sp] is word exactly. */
PMURT_HIDDEN bool pmu_grammar_span_is(const char *s, struct pmu_span sp, const char *word);

/* --- perf's modifiers ------------------------------------------------------ */

/* What each byte is to perf's modifier list: one of u k h I p S (a bit of
 * the set pmu_modifiers_scan gathers), a letter perf has that pmurt does
 * not model (G H P D W e b), or nothing.  S (perf's sample_read, leader
 * sampling) is an event list's (pmu_evsel.sample_read), which an event
 * spec cannot hold. */
enum {
	PMU_MOD_U = 1, PMU_MOD_K = 2, PMU_MOD_H = 4, PMU_MOD_I = 8, PMU_MOD_P = 16,
	PMU_MOD_PERF_ONLY = 32, PMU_MOD_S = 64,
};
/* S among the modifiers: a bit beside the PMURT_EXCLUDE_* ones that
 * pmu_modifiers_scan gives (none of the attr's exclude bits). */
#define PMU_SAMPLE_READ (1u << 8)
extern PMURT_HIDDEN const unsigned char pmu_modifier_class[256];
/* The exclude bits of each set of u, k, h, I. */
extern PMURT_HIDDEN const unsigned char pmu_modifier_exclude[16];

/* Why a modifier list did not read. */
enum pmu_mods_fault {
	PMU_MODS_OK, PMU_MODS_EMPTY, PMU_MODS_PRECISE, PMU_MODS_DUPLICATE, PMU_MODS_PERF_ONLY,
	PMU_MODS_UNKNOWN,
};

/*
 * perf's modifiers p[0, n) (n SIZE_MAX: up to the NUL): the exclude bits
 * and precise level, or the fault and *at, the index of the letter at
 * fault.  The rule (get_event_modifier(), tools/perf/util/parse-events.c):
 * the first of u, k, h sets exclude_user, exclude_kernel and exclude_hv,
 * and each of them clears its own (":u" excludes kernel and hv, ":uk" hv
 * only); I sets exclude_idle; each p adds one to precise_ip, at most 3; a
 * letter other than p given twice is an error (parse-events.l, "Duplicate
 * modifier").  Inline: the one-letter list is the parser's common case.
 */
static inline __attribute__((always_inline)) enum pmu_mods_fault
pmu_modifiers_scan(const char *p, size_t n, unsigned *exclude, int *precise, size_t *at)
{
	unsigned seen = n ? pmu_modifier_class[(unsigned char)p[0]] : 0, bit;
	int pcount = seen == PMU_MOD_P;
	if (__builtin_expect(seen && seen < PMU_MOD_PERF_ONLY && (n == 1 || !p[1]), 1)) {
		*exclude = pmu_modifier_exclude[seen & 15u];
		*precise = pcount;
		return PMU_MODS_OK;
	}
	*at = 0;
	if (!n || !p[0])
		return PMU_MODS_EMPTY;
	for (size_t i = 0; i < n && p[i]; i++) {
		*at = i;
		bit = pmu_modifier_class[(unsigned char)p[i]];
		if (!bit)
			return PMU_MODS_UNKNOWN;
		if (bit == PMU_MOD_PERF_ONLY)
			return PMU_MODS_PERF_ONLY;
		if (i == 0)
			continue; /* seen and pcount hold it */
		if (bit == PMU_MOD_P) {
			if (++pcount > 3)
				return PMU_MODS_PRECISE;
		} else if (seen & bit) {
			return PMU_MODS_DUPLICATE;
		}
		seen |= bit;
	}
	*exclude = pmu_modifier_exclude[seen & 15u] | (seen & PMU_MOD_S ? PMU_SAMPLE_READ : 0);
	*precise = pcount;
	return PMU_MODS_OK;
}

/* The modifiers s[sp] (no leading ':'): 0 with the exclude bits and the
 * precise level, or a negative errno with err naming the letter and its
 * offset.  S is taken (PMU_SAMPLE_READ in *exclude) where sample_read is
 * true (an event list's event or group), else refused as perf's. */
PMURT_HIDDEN int pmu_grammar_modifiers(const char *s, struct pmu_span sp, bool sample_read,
				       unsigned *exclude, int *precise, struct pmurt_error *err);
/* Whether s[sp] is made of perf's modifier letters only (any of them). */
PMURT_HIDDEN bool pmu_grammar_modifier_letters(const char *s, struct pmu_span sp);

/* --- one event --------------------------------------------------------------- */

struct pmu_event_syntax {
	struct pmu_span whole;
	bool wrapped;          /* PMU/TERMS/MODS */
	struct pmu_span pmu;   /* wrapped: the PMU's name */
	struct pmu_span body;  /* wrapped: the terms between the '/'s; else the
	                          text before the first ':' */
	bool has_mods;         /* a ':' (or text after the closing '/') */
	struct pmu_span mods;  /* after it (a ':' after the '/' skipped) */
};

/* The event s[sp] into its parts: 0, or a negative errno with err (no PMU
 * name, a bad one, no closing '/'). */
PMURT_HIDDEN int pmu_grammar_event(const char *s, struct pmu_span sp, struct pmu_event_syntax *ev,
				   struct pmurt_error *err);

/* NAME:X read as a tracepoint, SYS:TPNAME[:MODS] (ev not wrapped, with a
 * ':'): the subsystem, the tracepoint's name and its own modifiers. */
struct pmu_tracepoint_syntax {
	struct pmu_span sys, name;
	bool has_mods;
	struct pmu_span mods;
};
PMURT_HIDDEN void pmu_grammar_tracepoint(const char *s, const struct pmu_event_syntax *ev,
					 struct pmu_tracepoint_syntax *tp);

/* --- terms ------------------------------------------------------------------- */

struct pmu_event_term {
	struct pmu_span whole, key, value;
	bool has_value;        /* KEY=VALUE; else a name alone */
};

struct pmu_term_cursor {
	const char *s;
	size_t pos, end;
	bool done;
};

/* The terms of s[list] ("" has none). */
PMURT_HIDDEN void pmu_terms_begin(struct pmu_term_cursor *c, const char *s, struct pmu_span list);
/* 1 with the next term, 0 after the last, or a negative errno with err (an
 * empty term, KEY= or =VALUE). */
PMURT_HIDDEN int pmu_terms_next(struct pmu_term_cursor *c, struct pmu_event_term *t,
				struct pmurt_error *err);

/* --- the DTrace cpc probe form ------------------------------------------------- */

struct pmu_cpc_syntax {
	struct pmu_span prefix, mode, mask, count;
	bool has_mask;
	unsigned exclude;      /* MODE's exclude bits */
};

/* NAME-MODE[-MASK]-COUNT split from the right: 0; 1 when only MODE is not
 * user, kernel or all (mode holds that word, prefix what is before it);
 * -1 when s[body] has another shape. */
PMURT_HIDDEN int pmu_grammar_cpc(const char *s, struct pmu_span body, struct pmu_cpc_syntax *p);
/* COUNT (at least 1) and MASK (0 when none): 0 or -EINVAL with err. */
PMURT_HIDDEN int pmu_grammar_cpc_numbers(const char *s, const struct pmu_cpc_syntax *p,
					 uint64_t *count, uint64_t *mask, struct pmurt_error *err);

/* --- lists and groups ------------------------------------------------------------ */

/* A bound on work, far above what a command line holds (perf has none; one
 * argument is at most 128 KiB): many -e options join into one list. */
#define PMU_LIST_MAX_LEN ((1 << 20) - 1)

enum pmu_list_token {
	PMU_LIST_EVENT = 1,    /* an event: item.span; item.group_first when it opens a group */
	PMU_LIST_GROUP_END,    /* a '}': item.span the group modifiers, when item.has_mods */
};

struct pmu_list_item {
	enum pmu_list_token token;
	struct pmu_span span;
	bool group_first, has_mods;
	size_t group_off;      /* the group's '{' */
};

struct pmu_list_cursor {
	const char *s;
	size_t pos, end, group_off;
	bool in_group, after_item;
};

/* The list s[start, start + len): 0, or -E2BIG with err when it is longer
 * than PMU_LIST_MAX_LEN. */
PMURT_HIDDEN int pmu_list_begin(struct pmu_list_cursor *c, const char *s, size_t start,
				size_t len, struct pmurt_error *err);
/* 1 with the next item, 0 at the end, or a negative errno with err naming
 * the place (an empty event, blank around one, a group in a group, no '}',
 * a stray '{' or '}', no ',' after a group).  An event comes before any
 * fault of what follows it, so its own fault is reported first. */
PMURT_HIDDEN int pmu_list_next(struct pmu_list_cursor *c, struct pmu_list_item *it,
			       struct pmurt_error *err);

#endif /* PMURT_EVGRAMMAR_H */
