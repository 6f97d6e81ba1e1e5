/*
 * stat_events.c - pmutool stat's event list: the -e strings, each
 * top-level item (pmu_list_item_end, runtime/evgrammar.c) parsed in turn
 * (so that each event's index is known), and
 * the derived PAPI presets among them (pmurt_preset_find): such an item
 * counts its events as one group ({N0,N1}, with the item's modifiers) and
 * its value is computed from their counts with pmurt_preset_eval.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "evgrammar.h"
#include "perf_int.h"
#include "stat.h"

struct strbuf {
	char *s;
	size_t len, cap;
};

static int append(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *p = realloc(b->s, cap);
		if (!p)
			return -ENOMEM;
		b->s = p, b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
	return 0;
}

/* A derived preset's group "{N0,N1,...}[:MODS]" in out, or 0 when the item
 * str[at, at + len) is no derived preset (NAME[:MODS] as the grammar,
 * runtime/evgrammar.c, reads an event). */
static int preset_group(const struct pmurt_pmu *pmu, const char *str, size_t at, size_t len,
			struct pmurt_preset_info *info, struct strbuf *out)
{
	char name[128];
	struct pmu_event_syntax ev;
	const char *item = str + at;
	if (!pmu || memchr(item, '{', len) ||
	    pmu_grammar_event(str, (struct pmu_span){at, len}, &ev, NULL) || ev.wrapped ||
	    ev.body.len >= sizeof(name))
		return 0;
	size_t n = ev.body.len;
	const char *colon = ev.has_mods ? item + n : NULL;
	memcpy(name, item, n);
	name[n] = 0;
	if (pmurt_preset_find(pmu, name, info, NULL) < 0 || !info->derived)
		return 0;
	int rc = append(out, "{", 1);
	for (int k = 0; !rc && k < info->nevents; k++)
		rc = append(out, info->events[k], strlen(info->events[k])) ||
		     append(out, k + 1 < info->nevents ? "," : "}", 1);
	if (!rc && colon)
		rc = append(out, colon, len - n);
	return rc ? rc : 1;
}

static int add_derived(struct stat_report *r, const struct pmurt_preset_info *info, int index,
		       int first, int n)
{
	struct stat_derived *d = realloc(r->derived, (size_t)(r->nderived + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	r->derived = d;
	d = &r->derived[r->nderived++];
	*d = (struct stat_derived){.index = index, .first = first, .n = n,
				   .values = calloc((size_t)r->runs, sizeof(double))};
	snprintf(d->name, sizeof(d->name), "%s", info->name);
	snprintf(d->formula, sizeof(d->formula), "%s", info->formula);
	return d->values ? 0 : -ENOMEM;
}

/* One item, str[at, at + len): parsed onto list (offsets in messages
 * counted in str), its text onto out. */
static int add_item(struct tool *t, const char *str, size_t at, size_t len,
		    struct pmu_evlist *list, struct strbuf *out, struct stat_report *r)
{
	const char *item = str + at;
	const struct pmurt_pmu *pmu = pmurt_host_pmu(t->host);
	struct pmurt_preset_info info = {.sz = sizeof(info)};
	struct pmurt_error err = {0};
	size_t start = out->len;
	int first = list->n;
	int derived = preset_group(pmu, str, at, len, &info, out);
	if (derived < 0 || (!derived && append(out, item, len)))
		return EXIT_INTERNAL;
	int rc = derived ? pmu_evlist_parse(list, &t->host->h, out->s + start, &err)
			 : pmu_evlist_parse_at(list, &t->host->h, str, at, len, &err);
	if (rc < 0) {
		tool_error(t, "%s", err.message);
		return err.code == -ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	if (derived && add_derived(r, &info, pmurt_preset_find(pmu, info.name, NULL, NULL), first,
				   list->n - first))
		return EXIT_INTERNAL;
	return append(out, ",", 1) ? EXIT_INTERNAL : EXIT_OK;
}

/* The -e strings (perf stat's defaults without one). */
int stat_events(struct tool *t, struct pmu_evlist *list, char **events, struct stat_report *r)
{
	static const char *const defaults[] = {"task-clock,context-switches,cpu-migrations,"
					       "page-faults"};
	const char *const *strs = t->nevents ? t->events : defaults;
	int nstrs = t->nevents ? t->nevents : 1, rc = EXIT_OK;
	struct strbuf out = {0};
	for (int i = 0; !rc && i < nstrs; i++) {
		size_t n = strlen(strs[i]);
		for (size_t at = 0; !rc; at++) {
			size_t end = pmu_list_item_end(strs[i], at, n);
			rc = add_item(t, strs[i], at, end - at, list, &out, r);
			if (end == n)
				break;
			at = end;
		}
	}
	if (!rc && out.len)
		out.s[--out.len] = 0; /* the last ',' */
	if (!rc && out.len > PMU_LIST_MAX_LEN) { /* the -e options joined, as the library takes them */
		tool_error(t, "event list of %zu characters (the -e options joined), longer than %d",
			   out.len, PMU_LIST_MAX_LEN);
		rc = EXIT_USAGE;
	}
	if (rc) {
		free(out.s);
		return rc;
	}
	*events = out.s;
	return EXIT_OK;
}

void stat_compute_derived(const struct tool *t, struct stat_report *r,
			  const struct pmurt_count *counts, int run)
{
	for (int i = 0; i < r->nderived; i++) {
		struct stat_derived *d = &r->derived[i];
		uint64_t c[PMURT_PRESET_MAX_EVENTS];
		struct pmurt_preset_value v = {.sz = sizeof(v)};
		struct pmurt_error err = {0};
		for (int k = 0; k < d->n && k < PMURT_PRESET_MAX_EVENTS; k++)
			c[k] = counts[d->first + k].scaled;
		if (pmurt_preset_eval(pmurt_host_pmu(t->host), d->index, c, d->n, &v, &err) < 0) {
			d->failed = true;
			snprintf(d->why, sizeof(d->why), "%.120s", err.message);
			continue;
		}
		d->values[run] = (double)v.num / (double)v.den;
	}
}
