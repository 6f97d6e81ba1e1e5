/*
 * internal.h - libpmurt's private types: the pmurt_pmu handle and the
 * functions the runtime's files share.  Not installed.
 */
#ifndef PMURT_INTERNAL_H
#define PMURT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu_model.h"
#include "pmu_tables.h"
#include "pmurt.h"
#include "sched.h"

struct pmurt_pmu {
	struct pmu_model model;
	/* event-name index (pmu_tables.h layout): the built-in table's own,
	 * or one built at load time */
	const uint64_t *name_index;
	uint32_t name_index_size;
	uint64_t *owned_index;
	uint32_t pvr;   /* pmurt_open_opts.pvr: replaces the model's, 0: keep it */
	/* last: pmu_alloc (pmu.c) zeroes only what comes before it, and
	 * pmu_engine_init sets all of it (it is most of the handle's size) */
	struct pmu_engine engine;
};

/* The oldest struct pmurt_event_spec a caller may hold (PMURT_0.1's, sz
 * through name, without branch_sample_type). */
#define PMURT_EVENT_SPEC_MIN_SZ (offsetof(struct pmurt_event_spec, name) + \
				 sizeof(((struct pmurt_event_spec *)0)->name))

/* tables_load.c */
PMURT_HIDDEN int pmurt_model_from_tables(const struct pmu_tables *t, struct pmu_model *m);
/* The built-in description whose processor versions (its tables' own
 * pvr_versions, else its pvr's version) hold PVR_VER(pvr), or NULL. */
PMURT_HIDDEN const char *pmurt_builtin_for_pvr(uint32_t pvr);
/* The platform at the end of a built-in description's chain of bases
 * (pmu_tables.base): "power10" for "power11" (any case) and for "power10";
 * platform itself when no built-in has that name. */
PMURT_HIDDEN const char *pmurt_builtin_root(const char *platform);
/* The built-in descriptions' names, "power10, power9, ...", into out
 * (for messages). */
PMURT_HIDDEN void pmu_builtin_names(char *out, size_t len);
/* The tables of built-in description i (pmurt_builtin_name order), or NULL. */
PMURT_HIDDEN const struct pmu_tables *pmurt_builtin_tables(int i);
/* For an unknown event name: what the other built-in descriptions make of
 * it (generations.c), as text to end an error with ("; power9 and power10
 * have it: 0x2505e, which here counts ..."), or "" (snprintf semantics). */
PMURT_HIDDEN int pmurt_generations_note(const struct pmurt_pmu *pmu, const char *name,
					size_t len, char *buf, size_t buflen);

/* devtree_load.c: a /proc/device-tree style directory as a DTB blob */
PMURT_HIDDEN int pmurt_devtree_to_dtb(const char *root, void **blob, size_t *size,
				      struct pmurt_error *err);

/* events.c */
PMURT_HIDDEN int pmurt_build_name_index(struct pmurt_pmu *pmu);
/* The event named name[0..len) without case (len = strlen(name)), or -ENOENT. */
PMURT_HIDDEN int pmurt_lookup_name(const struct pmurt_pmu *pmu, const char *name, size_t len);

PMURT_HIDDEN const char *pmurt_nearest_name(const struct pmurt_pmu *pmu, const char *name);

/* "Did you mean" search: the closest candidate by edit distance without case,
 * closer than a third of the word's length plus 2, the first on a tie
 * (events.c).  Callers offer every candidate once per pass:
 *     pmurt_nearest_init(&n, word, len);
 *     while (pmurt_nearest_pass(&n))
 *             for (each candidate) pmurt_nearest_try(&n, candidate);
 */
struct pmurt_nearest {
	char word[64];  /* lower case */
	size_t len;
	size_t limit;   /* the last pass's reach: len / 3 + 2 (0: no search) */
	size_t best;    /* candidates must come closer than this */
	char buf[64];   /* the best so far, "" if none */
};
PMURT_HIDDEN void pmurt_nearest_init(struct pmurt_nearest *n, const char *word, size_t len);
/* Starts the next pass; false when a candidate was found or none can be. */
PMURT_HIDDEN bool pmurt_nearest_pass(struct pmurt_nearest *n);
/* Offers a candidate (NULL is ignored); true when it is the best so far. */
PMURT_HIDDEN bool pmurt_nearest_try(struct pmurt_nearest *n, const char *cand);
#ifdef PMURT_COUNT_SUGGESTIONS
/* Test builds only (tests/parse/suggest_test.c compiles the runtime with
 * this defined): how many nearest-name searches ran in this thread. */
extern _Thread_local unsigned long pmurt_suggestion_searches;
#endif
/* Offers every event name of m, in order; the index of the best, or -1. */
PMURT_HIDDEN int pmurt_nearest_events(struct pmurt_nearest *n, const struct pmu_model *m);

/* parse.c: perf's name of a cache event ({cache, op, result}),
 * "L1-dcache-load-misses" (evsel.c __evsel__hw_cache_type_op_res_name). */
PMURT_HIDDEN void pmurt_cache_name(const int cache[3], char out[64]);

/* parse.c, for pmurt_parse_event and the perf side's event lists
 * (events/evparse.c): the core PMU's meaning of the event ev, which
 * pmu_grammar_event (evgrammar.h) read from str (offsets in messages
 * counted in str); perf's generic and cache names without a description
 * (-ENOENT when name is neither, -EINVAL for an op perf refuses).  With
 * sample_read (an event list's event), perf's S modifier is taken, as
 * PMU_SAMPLE_READ in spec->exclude (evgrammar.h), else refused. */
struct pmu_event_syntax;
PMURT_HIDDEN int pmurt_resolve_event(const struct pmurt_pmu *pmu, const char *str,
				     const struct pmu_event_syntax *ev, bool sample_read,
				     struct pmurt_event_spec *spec, struct pmurt_error *err);
PMURT_HIDDEN int pmurt_perf_legacy_event(const char *name, uint32_t *type, uint64_t *config);
/* Offers perf's generic hardware names and aliases to a nearest-name search. */
PMURT_HIDDEN void pmurt_perf_legacy_nearest(struct pmurt_nearest *n);

#endif /* PMURT_INTERNAL_H */
