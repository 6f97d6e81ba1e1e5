/*
 * c_tables_test.c - checks the built-in C tables (libpmutables) against the
 * YAML description they were generated from.
 *
 *   c_tables_test pmus/power10.yaml
 *
 * 1. Every event name (aliases included) is found through the name hash
 *    index in its own, upper and lower case, and the event found has the
 *    model's code; unknown names miss.  The index is a power of two with load
 *    factor <= 0.5.
 * 2. The pool holds every string once, and every reference is in range.
 * 3. A struct pmu_model rebuilt from the tables equals the YAML's
 *    (pmu_model_equal): the tables carry the whole description.
 * 4. That model is zero-copy: it owns no strings, and its strings are the
 *    pool's own (the event names side by side at the pool's start).
 * 5. Tables of another PMU_TABLES_VERSION are refused.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmu_load.h"
#include "pmu_model.h"
#include "pmu_tables.h"
#include "internal.h"

/* Report a failure and count it in *fails. */
#define FAIL(...) (fprintf(stderr, __VA_ARGS__), (*fails)++)

/* --- look-up through the name index (as the runtime will do it) ----------- */

static int lookup(const struct pmu_tables *t, const char *name)
{
	uint32_t mask = t->name_index_size - 1;
	uint32_t j = (uint32_t)pmu_tbl_name_hash(name) & mask;

	for (uint32_t probes = 0; probes < t->name_index_size; probes++) {
		uint64_t slot = t->name_index[j];
		uint32_t i = ((uint32_t)slot & PMU_TBL_SLOT_INDEX) - 1;

		if (!slot)
			return -1;
		if (strcasecmp(t->pool + t->events[i].name, name) == 0) {
			const char *own = t->pool + t->events[i].name;

			/* the tag is the event's own name's */
			if (slot != pmu_tbl_name_slot(i, own, pmu_tbl_name_hash(own), strlen(own)))
				return -2;
			return (int)i;
		}
		j = (j + 1) & mask;
	}
	return -1;
}

/* Tables of another layout (an older PMU_TABLES_VERSION: another name
 * hash, say) are refused, not read. */
static void check_version_refused(const struct pmu_tables *t, int *fails)
{
	struct pmu_tables other = *t;
	struct pmu_model m;

	for (uint32_t v = PMU_TABLES_VERSION - 1; v <= PMU_TABLES_VERSION + 1; v += 2) {
		other.tables_version = v;
		if (pmurt_model_from_tables(&other, &m) != -EINVAL)
			FAIL("tables version %u (not %u) accepted\n", v, PMU_TABLES_VERSION);
		pmu_model_free(&m);
	}
	if (!t->base)
		return;
	/* an extension whose base is of another layout */
	struct pmu_tables base = *t->base;
	other = *t;
	other.base = &base;
	base.tables_version = PMU_TABLES_VERSION + 1;
	if (pmurt_model_from_tables(&other, &m) != -EINVAL)
		FAIL("an extension of tables version %u accepted\n", base.tables_version);
	pmu_model_free(&m);
}

static void recase(char *dst, const char *src, int how)
{
	for (; *src; src++)
		*dst++ = (char)(how > 0 ? toupper((unsigned char)*src) :
				tolower((unsigned char)*src));
	*dst = '\0';
}

/* The first model event whose name equals name without case. */
static int first_event(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nevents; i++)
		if (strcasecmp(m->events[i].name, name) == 0)
			return i;
	return -1;
}

static void check_lookups(const struct pmu_tables *t, const struct pmu_model *m,
			  int *fails)
{
	static const char *const unknown[] = {
		"PM_NO_SUCH_EVENT", "", "cycles ", "PM_CY", "pm_inst_cmpl_x",
	};
	char buf[512];

	if (!t->name_index_size || (t->name_index_size & (t->name_index_size - 1)) ||
	    t->name_index_size < 2 * t->nevents)
		FAIL("name index: size %u for %u events\n", t->name_index_size,
		     t->nevents);
	for (int i = 0; i < m->nevents; i++) {
		const struct pmu_event *e = &m->events[i];
		int want = first_event(m, e->name);

		for (int how = -1; how <= 1; how++) {
			int got;

			if (strlen(e->name) >= sizeof(buf))
				continue;
			if (how)
				recase(buf, e->name, how);
			else
				strcpy(buf, e->name);
			got = lookup(t, buf);
			if (got < 0)
				FAIL("%s: not found\n", buf);
			else if (got != want ||
				 t->events[got].code != m->events[want].code)
				FAIL("%s: found event %d (0x%llx), want %d "
				     "(0x%llx)\n", buf, got,
				     (unsigned long long)t->events[got].code,
				     want, (unsigned long long)e->code);
		}
	}
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		if (lookup(t, unknown[i]) >= 0)
			FAIL("'%s': found, but no such event\n", unknown[i]);
}

/* --- the pool ------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void check_pool(const struct pmu_tables *t, int *fails)
{
	const char **all;
	size_t n = 0, off = 0;

	if (!t->pool_size || t->pool[t->pool_size - 1] != '\0') {
		FAIL("pool: not NUL-terminated\n");
		return;
	}
	all = malloc(t->pool_size * sizeof(*all));
	if (!all) {
		FAIL("out of memory\n");
		return;
	}
	while (off < t->pool_size) {
		all[n++] = t->pool + off;
		off += strlen(t->pool + off) + 1;
	}
	qsort(all, n, sizeof(*all), cmp_str);
	for (size_t i = 1; i < n; i++)
		if (strcmp(all[i - 1], all[i]) == 0)
			FAIL("pool: \"%s\" twice\n", all[i]);
	free(all);
}

/* --- zero-copy: the rebuilt model's strings are the pool's ---------------- */

static int in_pool(const struct pmu_tables *t, const char *s)
{
	return !s || (s >= t->pool && s < t->pool + t->pool_size);
}

/* id: the tables of the description (its identity), t: those of its
 * rules and events (the same, or the base's for an extension). */
static void check_borrowed(const struct pmu_tables *id, const struct pmu_tables *t,
			   const struct pmu_model *m, int *fails)
{
	const char *names_end = t->pool;

	if (m->owns_strings)
		FAIL("model from the tables owns its strings\n");
	if (!in_pool(id, m->name) || !in_pool(id, m->source) || !in_pool(id, m->platform) ||
	    !in_pool(id, m->extends))
		FAIL("model identity is not in the pool\n");
	for (int i = 0; i < m->nfields; i++)
		if (!in_pool(t, m->fields[i].name) || !in_pool(t, m->fields[i].description))
			FAIL("field %d: a string is not in the pool\n", i);
	for (int i = 0; i < m->nregisters; i++)
		for (int j = 0; j < m->registers[i].nfields; j++)
			if (!in_pool(t, m->registers[i].fields[j].name))
				FAIL("register %d field %d: not in the pool\n", i, j);
	for (int i = 0; i < m->nevents; i++) {
		const struct pmu_event *e = &m->events[i];

		if (!in_pool(t, e->name) || !in_pool(t, e->description) ||
		    !in_pool(t, e->category) || !in_pool(t, e->status))
			FAIL("event %s: a string is not in the pool\n", e->name);
		if (e->name > names_end)
			names_end = e->name;
	}
	/* the names follow the identity: nothing else between them */
	for (int i = 0; i < m->nevents; i++) {
		const char *d = m->events[i].description;

		if (d && d < names_end && d != m->events[i].name)
			FAIL("event %s: its description lies among the names\n",
			     m->events[i].name);
	}
}

/* The built-in tables of the description's platform. */
static const struct pmu_tables *builtin_of(const struct pmu_model *m)
{
	static const struct pmu_tables *const all[] = {&pmu_tables_power10, &pmu_tables_power9,
							&pmu_tables_power8, &pmu_tables_power11};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (m->platform && strcmp(m->platform, all[i]->pool + all[i]->platform) == 0)
			return all[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct pmu_tables *t;
	struct pmu_model yaml, built;
	struct pmu_diag d;
	char diff[512] = "";
	int failures = 0, *fails = &failures;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DESCRIPTION.yaml\n", argv[0]);
		return 2;
	}
	pmu_diag_init(&d, stderr);
	if (pmu_load_yaml_file(&yaml, argv[1], &d) != 0)
		return 1;
	t = builtin_of(&yaml);
	if (!t) {
		fprintf(stderr, "%s: no built-in tables for platform '%s'\n", argv[1],
			yaml.platform ? yaml.platform : "");
		pmu_model_free(&yaml);
		return 1;
	}
	if (t->tables_version != PMU_TABLES_VERSION)
		FAIL("tables version %u\n", t->tables_version);
	/* an extension's tables hold its identity only and point at its
	 * base's, whose name index finds its events */
	const struct pmu_tables *rules = t;
	while (rules->base)
		rules = rules->base;
	if (!yaml.extends != (rules == t) ||
	    (yaml.extends && strcmp(yaml.extends, t->base->pool + t->base->platform) != 0))
		FAIL("%s extends '%s', its tables' base is %s\n", argv[1],
		     yaml.extends ? yaml.extends : "", t->base ? t->base->pool + t->base->platform : "none");
	if (rules != t && (t->nevents || t->events || t->name_index || t->ncounters ||
			   t->nfields || t->nconstraints || t->nchecks || t->nmetrics ||
			   t->npresets || t->pool_size > 256))
		FAIL("the extension's tables repeat their base's (%u events, %u pool bytes)\n",
		     t->nevents, t->pool_size);
	check_version_refused(t, fails);
	check_lookups(rules, &yaml, fails);
	check_pool(t, fails);
	if (pmurt_model_from_tables(t, &built) != 0)
		FAIL("tables: a reference is out of range\n");
	else if (!pmu_model_equal(&yaml, &built, diff, sizeof(diff)))
		FAIL("model from the tables differs from %s: %s\n", argv[1],
		     diff);
	else
		check_borrowed(t, rules, &built, fails);
	if (!failures)
		printf("%u events, %u index slots, %u pool bytes%s%s: ok\n", rules->nevents,
		       rules->name_index_size, t->pool_size, rules != t ? ", the events of " : "",
		       rules != t ? rules->pool + rules->platform : "");
	pmu_model_free(&built);
	pmu_model_free(&yaml);
	return failures != 0;
}
