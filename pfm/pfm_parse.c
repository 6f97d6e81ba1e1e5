/*
 * pfm_parse.c - libpfm4's event strings: [PMU::]EVENT[:ATTR[=VALUE]]...
 * (attributes separated by ':' or '.'), one event per string.  Without a
 * PMU the present PMUs are searched in order and the first event of that
 * name (without case) wins; with one, an absent PMU is searched only under
 * LIBPFM_ENCODE_INACTIVE.  An event with an equivalent (perf's CYCLES is
 * PERF_COUNT_HW_CPU_CYCLES, L1-DCACHE-LOADS is PERF_COUNT_HW_CACHE_L1D:READ:
 * ACCESS) is parsed as its equivalent with the string's attributes after
 * the equivalent's.  Attribute rules and error codes are those of libpfm4
 * 4.13.0's pfmlib_parse_event and pfmlib_parse_event_attr: a boolean
 * without value is set, y/t/1 and n/f/0 are its values; an integer needs
 * one (strtoull base 0, all of it); a unit mask takes none; the same
 * attribute twice must agree.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pfm_priv.h"

#define ATTR_DELIMS ":."

/* Split s at its first attribute delimiter: s keeps the head, the rest
 * (or NULL) is returned. */
static char *split_attrs(char *s)
{
	char *d = s + strcspn(s, ATTR_DELIMS);
	if (!*d)
		return NULL;
	*d = 0;
	return d + 1;
}

static int bool_value(const char *v, uint64_t *out)
{
	if (strlen(v) != 1)
		return PFM_ERR_ATTR_VAL;
	int c = tolower((unsigned char)*v);
	if (c == 'y' || c == 't' || c == '1')
		*out = 1;
	else if (c == 'n' || c == 'f' || c == '0')
		*out = 0;
	else
		return PFM_ERR_ATTR_VAL;
	return PFM_SUCCESS;
}

/* One "NAME[=VALUE]" token. */
static int parse_attr(char *tok, struct pfm_event *e)
{
	char *value = strchr(tok, '=');
	if (value)
		*value++ = 0;
	if (tok[0] == '0' && tolower((unsigned char)tok[1]) == 'x')
		return PFM_ERR_ATTR; /* raw unit masks: no PMU here takes them */
	int id = -1;
	for (int i = 0; i < e->npattrs && id < 0; i++) {
		/* a value picks the modifier over a unit mask of the same name */
		if (strcasecmp(e->pattrs[i].name, tok) == 0 &&
		    !(value && e->pattrs[i].type == PFM_ATTR_UMASK))
			id = i;
	}
	if (id < 0)
		return PFM_ERR_ATTR;
	const struct pfm_attr *a = &e->pattrs[id];
	uint64_t v = 0;
	if (a->type == PFM_ATTR_UMASK) {
		if (value)
			return PFM_ERR_ATTR_VAL;
	} else if (!value) {
		if (a->type != PFM_ATTR_MOD_BOOL)
			return PFM_ERR_ATTR_VAL;
		v = 1;
	} else if (!*value) {
		return PFM_ERR_ATTR_VAL;
	} else if (a->type == PFM_ATTR_MOD_BOOL) {
		if (bool_value(value, &v))
			return PFM_ERR_ATTR_VAL;
	} else {
		char *end = NULL;
		v = strtoull(value, &end, 0);
		if (*end)
			return PFM_ERR_ATTR_VAL;
	}
	if (e->nset == PFM_MAX_SET_ATTRS)
		return PFM_ERR_TOOMANY;
	e->set[e->nset].id = id;
	e->set[e->nset].value = v;
	e->nset++;
	return PFM_SUCCESS;
}

static int parse_attrs(char *s, struct pfm_event *e)
{
	while (s) {
		char *next = split_attrs(s);
		int rc = parse_attr(s, e);
		if (rc)
			return rc;
		s = next;
	}
	return PFM_SUCCESS;
}

/* A repeated attribute goes once when the values agree, else
 * PFM_ERR_ATTR_SET (pfmlib_sanitize_event). */
static int drop_repeats(struct pfm_event *e)
{
	for (int i = 0; i < e->nset; i++) {
		for (int j = i + 1; j < e->nset; j++) {
			const struct pfm_attr *a = &e->pattrs[e->set[i].id];
			const struct pfm_attr *b = &e->pattrs[e->set[j].id];
			if (a->idx != b->idx || a->type != b->type || a->ctrl != b->ctrl)
				continue;
			if (e->set[i].value != e->set[j].value)
				return PFM_ERR_ATTR_SET;
			memmove(&e->set[j], &e->set[j + 1], (size_t)(e->nset - j - 1) * sizeof(e->set[0]));
			e->nset--;
			j--;
		}
	}
	return PFM_SUCCESS;
}

/* The equivalent's own event and attributes ("NAME:ATTR:ATTR"). */
static int parse_equiv(const char *equiv, struct pfm_event *e)
{
	char *copy = strdup(equiv);
	if (!copy)
		return PFM_ERR_NOMEM;
	char *attrs = split_attrs(copy);
	uint64_t raw;
	int rc = PFM_ERR_NOTFOUND;
	int i = pfm_event_lookup(e->pmu, copy, &raw);
	if (i >= 0) {
		e->event = i;
		rc = pfm_build_pattrs(e);
		if (!rc)
			rc = parse_attrs(attrs, e);
		if (!rc)
			rc = drop_repeats(e);
	}
	free(copy);
	return rc;
}

/* The first PMU in search order with an event so named. */
static int find_event(const char *pmu_name, const char *name, struct pfm_event *e)
{
	for (int p = 0; p < pfm_state.npmus; p++) {
		const struct pfm_pmu *pmu = &pfm_state.pmus[p];
		if (pmu_name ? strcasecmp(pmu_name, pmu->name) != 0 : !pmu->active)
			continue;
		if (pmu_name && !pmu->active && !pfm_state.encode_inactive)
			continue;
		uint64_t raw = 0;
		int i = pfm_event_lookup(pmu, name, &raw);
		if (i < 0)
			continue;
		e->pmu = pmu;
		e->event = i;
		if (pmu->kind == PFM_KIND_RAW) {
			e->codes[0] = raw;
			e->count = 1;
		}
		return PFM_SUCCESS;
	}
	return PFM_ERR_NOTFOUND;
}

int pfm_parse_event(const char *str, pfm_os_t os, struct pfm_event *e)
{
	memset(e, 0, offsetof(struct pfm_event, inline_pattrs));
	e->os = os;
	if (strpbrk(str, ", \t\n"))
		return PFM_ERR_INVAL; /* one event at a time */
	char *copy = strdup(str);
	if (!copy)
		return PFM_ERR_NOMEM;
	char *pmu_name = NULL, *name = copy;
	char *sep = strstr(copy, "::");
	if (sep) {
		*sep = 0;
		pmu_name = copy;
		name = sep + 2;
	}
	char *attrs = split_attrs(name);
	int rc = find_event(pmu_name, name, e);
	if (!rc) {
		struct pfm_event_view v;
		pfm_event_view(e->pmu, e->event, &v);
		rc = v.equiv ? parse_equiv(v.equiv, e) : pfm_build_pattrs(e);
	}
	if (!rc)
		rc = parse_attrs(attrs, e);
	if (!rc)
		rc = drop_repeats(e);
	free(copy);
	if (rc)
		pfm_event_release(e);
	return rc;
}
