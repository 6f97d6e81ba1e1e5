/*
 * suggest_test.c - the "did you mean" search of libpmurt, over the built-in
 * POWER10 description.  Built with the runtime compiled with
 * PMURT_COUNT_SUGGESTIONS (tests/parse.cmake), which counts the searches.
 *
 * 1. A miss without an error object searches for no suggestion, through
 *    pmurt_event_find and pmurt_parse_event (unknown name, unknown term,
 *    unknown event in a term list, the cpc form); with one, it does.
 * 2. The suggestion pmurt_event_find gives for typos of every event name (a
 *    letter dropped, changed, added, two letters swapped, case changed) and
 *    for words near nothing is the one an exhaustive search gives: the first
 *    event at the least edit distance without case, if that distance is
 *    below a third of the word's length plus 2.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "internal.h"

static int failures;

/* --- 1. no error object, no search ------------------------------------------ */

static void check_parse_searches(const struct pmurt_pmu *pmu, const char *str)
{
	struct pmurt_event_spec s = {.sz = sizeof(s)};
	struct pmurt_error err = {0};
	unsigned long before = pmurt_suggestion_searches;
	int rc = pmurt_parse_event(pmu, str, &s, NULL);
	CHECK(rc < 0, "'%s' parsed", str);
	CHECK(pmurt_suggestion_searches == before, "'%s' without err: %lu searches", str,
	      pmurt_suggestion_searches - before);
	CHECK(pmurt_parse_event(pmu, str, &s, &err) == rc, "'%s': rc differs with err", str);
	CHECK(pmurt_suggestion_searches > before, "'%s' with err: no search", str);
	CHECK(strstr(err.message, "did you mean"), "'%s': no suggestion in '%s'", str, err.message);
}

static void check_no_search_without_err(const struct pmurt_pmu *pmu)
{
	struct pmurt_error err = {0};
	unsigned long before = pmurt_suggestion_searches;
	CHECK(pmurt_event_find(pmu, "PM_LD_MIS_L1", NULL, NULL) == -ENOENT, "miss found");
	CHECK(pmurt_suggestion_searches == before, "miss without err: %lu searches",
	      pmurt_suggestion_searches - before);
	CHECK(pmurt_event_find(pmu, "PM_LD_MIS_L1", NULL, &err) == -ENOENT, "miss found with err");
	CHECK(pmurt_suggestion_searches == before + 1, "miss with err: %lu searches",
	      pmurt_suggestion_searches - before);
	CHECK(strcmp(err.message, "no event 'PM_LD_MIS_L1'; did you mean 'PM_LD_MISS_L1'?") == 0,
	      "message '%s'", err.message);
	/* a hit searches for nothing either way */
	err = (struct pmurt_error){0};
	CHECK(pmurt_event_find(pmu, "pm_ld_miss_l1", NULL, &err) >= 0 &&
	      pmurt_suggestion_searches == before + 1, "a hit searched");

	check_parse_searches(pmu, "PM_LD_MIS_L1:u");
	check_parse_searches(pmu, "cylces");
	check_parse_searches(pmu, "pmcsel=1");
	check_parse_searches(pmu, "PM_CYX,pmc=1");
	check_parse_searches(pmu, "cpu/PM_CYX/");
	check_parse_searches(pmu, "PM_CYCX-user-1000");
}

/* --- 2. the suggestion is the exhaustive search's ------------------------------ */

/* Plain Levenshtein distance without case, the whole table. */
static size_t full_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[256];
	if (la > 200 || lb > 200)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (tolower((unsigned char)a[i - 1]) !=
					      tolower((unsigned char)b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The first event at the least distance, if closer than len / 3 + 2. */
static const char *exhaustive_nearest(const struct pmu_model *m, const char *word)
{
	size_t len = strlen(word), best = len > 63 ? 0 : len / 3 + 2;
	const char *pick = NULL;
	for (int i = 0; i < m->nevents; i++) {
		size_t d = full_distance(word, m->events[i].name);
		if (d < best) {
			best = d;
			pick = m->events[i].name;
		}
	}
	return pick;
}

static int checked, suggested;

static void check_typo(const struct pmurt_pmu *pmu, const char *typo)
{
	struct pmurt_error err = {0};
	if (pmurt_event_find(pmu, typo, NULL, &err) >= 0)
		return; /* the typo is another event's name */
	const char *want = exhaustive_nearest(&pmu->model, typo);
	char expect[sizeof(err.message)];
	if (want)
		snprintf(expect, sizeof(expect), "no event '%s'; did you mean '%s'?", typo, want);
	else
		snprintf(expect, sizeof(expect), "no event '%s'", typo);
	CHECK(strcmp(err.message, expect) == 0, "'%s':\n  message '%s'\n  want    '%s'", typo,
	      err.message, expect);
	checked++;
	suggested += want != NULL;
}

static void check_typos_of(const struct pmurt_pmu *pmu, const char *name, unsigned seed)
{
	char t[128];
	size_t n = strlen(name), at = seed % n;
	if (n + 2 > sizeof(t))
		return;
	snprintf(t, sizeof(t), "%.*s%s", (int)at, name, name + at + 1); /* dropped */
	check_typo(pmu, t);
	snprintf(t, sizeof(t), "%s", name); /* changed, and case flipped */
	t[at] = t[at] == 'Q' ? 'Z' : 'Q';
	for (size_t i = 0; i < n; i += 3)
		t[i] = (char)(isupper((unsigned char)t[i]) ? tolower((unsigned char)t[i])
							   : toupper((unsigned char)t[i]));
	check_typo(pmu, t);
	snprintf(t, sizeof(t), "%.*sX%s", (int)at, name, name + at); /* added */
	check_typo(pmu, t);
	if (at + 1 < n && name[at] != name[at + 1]) { /* swapped: two edits */
		snprintf(t, sizeof(t), "%s", name);
		t[at] = name[at + 1];
		t[at + 1] = name[at];
		check_typo(pmu, t);
	}
}

static void check_suggestions(const struct pmurt_pmu *pmu)
{
	const struct pmu_model *m = &pmu->model;
	for (int i = 0; i < m->nevents; i += 5)
		check_typos_of(pmu, m->events[i].name, (unsigned)i * 2654435761u);
	static const char *const far[] = {
		"x", "zz", "PM_", "nothing_near_here", "PM_QQQQQQQQQQQQQQQQQQQQ",
		"PM_LD_MISS_L1_PM_LD_MISS_L1", "PM_MRK_INST_CMPL_WITH_A_TAIL", "",
	};
	for (size_t i = 0; i < sizeof(far) / sizeof(far[0]); i++)
		check_typo(pmu, far[i]);
	CHECK(suggested > checked / 2, "only %d of %d typos got a suggestion", suggested, checked);
}

int main(void)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, "power10", NULL, &err)) {
		fprintf(stderr, "FAIL: cannot open power10: %s\n", err.message);
		return 1;
	}
	check_no_search_without_err(pmu);
	check_suggestions(pmu);
	pmurt_pmu_close(pmu);
	printf("%d misses checked against the exhaustive search (%d with a suggestion), "
	       "%d failures\n", checked, suggested, failures);
	return failures ? 1 : 0;
}
