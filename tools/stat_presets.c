/*
 * stat_presets.c - derived PAPI presets in pmutool stat: `-e PAPI_L1_DCM`
 * is counted as a group of its events ({PM_LD_DEMAND_MISS_L1_FIN,
 * PM_ST_MISS_L1}, with the preset's modifiers on each), and after the runs
 * its value is computed from their counts (pmurt_preset_eval) and reported
 * as one more line, pmu "preset", in every output format.
 */
#include <stdlib.h>
#include <string.h>

#include "perf_int.h"
#include "stat.h"

/* Appends s[0..n) to the growing string *out (len, cap); -1 on no memory. */
static int put(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = (*cap ? *cap : 256);
		while (c < *len + n + 1)
			c *= 2;
		char *g = realloc(*out, c);
		if (!g)
			return -1;
		*out = g;
		*cap = c;
	}
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = 0;
	return 0;
}

/* The end of the token at s: the next ',' outside '/.../' and '{...}'. */
static size_t token_end(const char *s, size_t len, size_t i)
{
	bool slash = false;
	for (; i < len; i++)
		if (s[i] == '/')
			slash = !slash;
		else if (s[i] == ',' && !slash)
			return i;
	return len;
}

/* The derived preset a token names (NAME or NAME:MODS, braces aside), or -1. */
static int derived_preset(const struct pmurt_pmu *pmu, const char *tok, size_t n,
			  struct pmurt_preset_info *p, size_t *name_len)
{
	char name[128];
	const char *colon = memchr(tok, ':', n);
	*name_len = colon ? (size_t)(colon - tok) : n;
	if (!pmu || memchr(tok, '/', n) || *name_len >= sizeof(name))
		return -1;
	memcpy(name, tok, *name_len);
	name[*name_len] = 0;
	int i = pmurt_preset_find(pmu, name, p, NULL);
	return i >= 0 && p->derived ? i : -1;
}

/* Its events, each with the token's modifiers: "{M0:u,M1:u}" (no braces
 * when the token is already inside a group). */
static int put_members(char **out, size_t *len, size_t *cap, const struct pmurt_preset_info *p,
		       const char *mods, size_t nmods, bool in_group)
{
	int rc = in_group ? 0 : put(out, len, cap, "{", 1);
	for (int k = 0; !rc && k < p->nevents; k++)
		rc = (k && put(out, len, cap, ",", 1)) ||
		     put(out, len, cap, p->events[k], strlen(p->events[k])) ||
		     put(out, len, cap, mods, nmods);
	return rc || (!in_group && put(out, len, cap, "}", 1)) ? -1 : 0;
}

/* How many events the list before offset holds; inside: the expansion
 * goes into an open group, which the prefix's count must close. */
static int events_before(const struct tool *t, const char *s, size_t offset, bool inside)
{
	char *prefix = malloc(offset + 2);
	if (!prefix)
		return -1;
	size_t n = offset;
	memcpy(prefix, s, n);
	while (n && prefix[n - 1] == ',')
		n--;
	if (inside && n && prefix[n - 1] == '{') { /* the group's first member */
		n--;
		inside = false;
		while (n && prefix[n - 1] == ',')
			n--;
	}
	if (inside)
		prefix[n++] = '}';
	prefix[n] = 0;
	struct pmu_evlist list = {0};
	int count = n == 0 ? 0 : pmu_evlist_parse(&list, &t->host->h, prefix, NULL) < 0 ? -1 : list.n;
	pmu_evlist_free(&list);
	free(prefix);
	return count;
}

char *stat_expand_presets(const struct tool *t, const char *events, struct stat_presets *out)
{
	const struct pmurt_pmu *pmu = t->host ? t->host->h.core : NULL;
	size_t len = 0, cap = 0, n = strlen(events);
	char *s = NULL;
	int depth = 0;
	*out = (struct stat_presets){0};
	if (put(&s, &len, &cap, "", 0))
		return NULL;
	for (size_t i = 0; i <= n;) {
		size_t end = token_end(events, n, i), a = i, b = end, name_len;
		bool opens = a < b && events[a] == '{', closes = b > a && events[b - 1] == '}';
		a += opens;
		b -= closes && b > a;
		struct pmurt_preset_info p = {.sz = sizeof(p)};
		int k = derived_preset(pmu, events + a, b - a, &p, &name_len);
		int rc = i ? put(&s, &len, &cap, ",", 1) : 0;
		if (k >= 0) {
			struct stat_derived *d = realloc(out->d, (size_t)(out->n + 1) * sizeof(*d));
			rc |= !d;
			if (d) {
				out->d = d;
				d[out->n++] = (struct stat_derived){.preset = k, .nevents = p.nevents,
								    .offset = len + opens,
								    .inside = depth + opens > 0};
			}
			rc |= (opens && put(&s, &len, &cap, "{", 1)) ||
			      put_members(&s, &len, &cap, &p, events + a + name_len,
					  b - a - name_len, depth + opens > 0) ||
			      (closes && put(&s, &len, &cap, "}", 1));
		} else {
			rc |= put(&s, &len, &cap, events + i, end - i);
		}
		if (rc) {
			free(s);
			return NULL;
		}
		depth += opens - closes;
		i = end + 1;
		if (end == n)
			break;
	}
	for (int j = 0; j < out->n; j++)
		out->d[j].first = events_before(t, s, out->d[j].offset, out->d[j].inside);
	return s;
}

/* The derived presets' values, run by run, as more events of the report. */
int stat_add_presets(const struct tool *t, const struct stat_presets *ps, struct stat_report *r)
{
	const struct pmurt_pmu *pmu = t->host->h.core;
	int base = r->nevents;
	struct stat_event *ev = realloc(r->ev, (size_t)(base + ps->n) * sizeof(*ev));
	if (!ev)
		return -1;
	r->ev = ev;
	for (int j = 0; j < ps->n; j++) {
		const struct stat_derived *d = &ps->d[j];
		struct pmurt_preset_info p = {.sz = sizeof(p)};
		struct stat_event *e = &r->ev[r->nevents];
		*e = (struct stat_event){.unit = "", .pmu = "preset", .scale = 1.0,
					 .values = calloc((size_t)r->runs, sizeof(double))};
		if (!e->values || pmurt_preset_get(pmu, d->preset, &p) < 0)
			return -1;
		r->nevents++;
		e->name = p.name;
		bool ok = d->first >= 0 && d->first + d->nevents <= base;
		for (int k = 0; ok && k < r->runs; k++) {
			uint64_t counts[PMURT_PRESET_MAX_EVENTS];
			for (int m = 0; m < d->nevents; m++) {
				const struct stat_event *x = &r->ev[d->first + m];
				ok &= !x->not_counted && x->values[k] >= 0;
				counts[m] = (uint64_t)(x->values[k] + 0.5);
				e->enabled = x->enabled;
				e->running = x->running;
			}
			struct pmurt_preset_value v = {.sz = sizeof(v)};
			ok = ok && pmurt_preset_eval(pmu, d->preset, counts, d->nevents, &v, NULL) == 0;
			e->values[k] = ok ? (double)v.num / (double)v.den : 0;
		}
		e->not_counted = !ok;
	}
	return 0;
}

void stat_presets_free(struct stat_presets *ps)
{
	free(ps->d);
	*ps = (struct stat_presets){0};
}
