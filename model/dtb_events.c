/*
 * dtb_events.c - the DTB loader's reading of the event sets: perf's generic and
 * cache event maps, the branch filters, the events (back in model order) and
 * the PAPI presets.
 */
#include <errno.h>
#include <libfdt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtb_internal.h"

static int load_generic_event(struct dl *L, int node, struct pmu_generic *g)
{
	g->pos = dl_node_pos(L, node);
	g->name = pmu_strdup(dl_node_name(L, node));
	if (!g->name)
		return dl_oom(L);
	if (dl_has_prop(L, node, "unsupported")) {
		g->state = PMU_MAP_UNSUPPORTED;
		return 0;
	}
	if (dl_has_prop(L, node, "invalid")) {
		g->state = PMU_MAP_INVALID;
		return 0;
	}
	g->state = PMU_MAP_SUPPORTED;
	return dl_get_u64(L, node, "event_code", true, true, &g->code) < 0 ? -EINVAL : 0;
}

int dl_load_generic(struct dl *L)
{
	int node = dl_child(L, L->pmu, "generic-events", false), sub, i = 0, rc = 0, n;

	if (node < 0)
		return 0;
	n = dl_count_children(L, node);
	L->m->generic = dl_alloc_array(L, n, sizeof(*L->m->generic));
	if (n && !L->m->generic)
		return -ENOMEM;
	L->m->ngeneric = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_generic_event(L, sub, &L->m->generic[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

/* [ext] branch-filters { lands-in; filter-N { filter; value | unsupported } } */
static int load_branch_filter(struct dl *L, int node, struct pmu_branch_filter *b)
{
	b->pos = dl_node_pos(L, node);
	if (dl_get_strdup(L, node, "filter", true, &b->name) < 0)
		return -EINVAL;
	if (!pmu_branch_filter_bit(b->name))
		return dl_fail(L, node, "filter", "'%s' is not one of perf's branch filters", b->name);
	if (dl_has_prop(L, node, "unsupported")) {
		b->state = PMU_MAP_UNSUPPORTED;
		return 0;
	}
	b->state = PMU_MAP_SUPPORTED;
	return dl_get_u64(L, node, "value", true, false, &b->value) < 0 ? -EINVAL : 0;
}

int dl_load_branch_filters(struct dl *L)
{
	int node = dl_child(L, L->pmu, "branch-filters", false), sub, i = 0, rc = 0, n;

	if (node < 0)
		return 0;
	if (dl_get_ref(L, node, "lands-in", true, &L->m->branch_filter_target) < 0)
		return -EINVAL;
	n = dl_count_children(L, node);
	L->m->branch_filters = dl_alloc_array(L, n, sizeof(*L->m->branch_filters));
	if (n && !L->m->branch_filters)
		return -ENOMEM;
	L->m->nbranch_filters = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_branch_filter(L, sub, &L->m->branch_filters[i++]) < 0;
	}
	return rc ? -EINVAL : 0;
}

/* "read-access" -> op, result; -1 when name is no such word. */
static int cache_word(const char *name, int *op, int *res)
{
	char word[64];

	for (*op = 0; *op < PMU_OP_NTYPES; (*op)++) {
		for (*res = 0; *res < PMU_RESULT_NTYPES; (*res)++) {
			snprintf(word, sizeof(word), "%s-%s", pmu_cache_op_name(*op),
				 pmu_cache_result_name(*res));
			if (strcmp(word, name) == 0)
				return 0;
		}
	}
	return -1;
}

/* Mark one entry of cache c, once. */
static int cache_set(struct dl *L, int node, const char *prop, int c,
		     const char *word, enum pmu_map_state state, uint64_t code,
		     bool seen[PMU_OP_NTYPES][PMU_RESULT_NTYPES])
{
	int op, res;

	if (cache_word(word, &op, &res) < 0)
		return dl_fail(L, node, prop, "'%s' is not an operation-result pair", word);
	if (seen[op][res])
		return dl_fail(L, node, prop, "'%s' given twice", word);
	seen[op][res] = true;
	L->m->cache[c][op][res].state = state;
	L->m->cache[c][op][res].code = code;
	return 0;
}

static int cache_list(struct dl *L, int node, const char *prop, int c,
		      enum pmu_map_state state,
		      bool seen[PMU_OP_NTYPES][PMU_RESULT_NTYPES])
{
	int n = fdt_stringlist_count(L->fdt, node, prop), rc = 0;

	if (n == -FDT_ERR_NOTFOUND)
		return 0;
	if (n < 0)
		return dl_fail(L, node, prop, "expected a list of strings");
	for (int i = 0; i < n; i++) {
		const char *w = fdt_stringlist_get(L->fdt, node, prop, i, NULL);

		if (!w)
			return dl_fail(L, node, prop, "expected a list of strings");
		rc |= cache_set(L, node, prop, c, w, state, 0, seen) < 0;
	}
	return rc ? -EINVAL : 0;
}

static int load_cache(struct dl *L, int node, int c)
{
	bool seen[PMU_OP_NTYPES][PMU_RESULT_NTYPES] = { { false } };
	int prop, rc = 0;

	rc |= cache_list(L, node, "unsupported-ops", c, PMU_MAP_UNSUPPORTED, seen) < 0;
	rc |= cache_list(L, node, "invalid-ops", c, PMU_MAP_INVALID, seen) < 0;
	fdt_for_each_property_offset(prop, L->fdt, node) {
		const char *name;
		int len;
		const fdt32_t *v = fdt_getprop_by_offset(L->fdt, prop, &name, &len);
		uint64_t code;

		if (!v || !name)
			return dl_fail(L, node, NULL, "unreadable property");
		if (strcmp(name, "unsupported-ops") == 0 || strcmp(name, "invalid-ops") == 0 ||
		    strcmp(name, "phandle") == 0)
			continue;
		if (dl_decode_u64(v, len, true, &code) < 0) {
			rc |= dl_fail(L, node, name, "expected 1, 2 or 4 cells, found %d bytes",
				   len) < 0;
			continue;
		}
		rc |= cache_set(L, node, name, c, name, PMU_MAP_SUPPORTED, code, seen) < 0;
	}
	/* entries the tree does not name: the kernel's -1 */
	for (int op = 0; op < PMU_OP_NTYPES; op++)
		for (int r = 0; r < PMU_RESULT_NTYPES; r++)
			if (!seen[op][r])
				L->m->cache[c][op][r].state = PMU_MAP_INVALID;
	return rc ? -EINVAL : 0;
}

int dl_load_cache_events(struct dl *L)
{
	int node = dl_child(L, L->pmu, "cache-events", false), sub, rc = 0;
	bool seen[PMU_CACHE_NTYPES] = { false };

	if (node < 0)
		return 0;
	L->m->has_cache_map = true;
	fdt_for_each_subnode(sub, L->fdt, node) {
		int c;

		for (c = 0; c < PMU_CACHE_NTYPES; c++)
			if (strcmp(dl_node_name(L, sub), pmu_cache_name(c)) == 0)
				break;
		if (c == PMU_CACHE_NTYPES) {
			rc |= dl_fail(L, sub, NULL, "not one of perf's cache names") < 0;
			continue;
		}
		if (seen[c]) {
			rc |= dl_fail(L, sub, NULL, "cache given twice") < 0;
			continue;
		}
		seen[c] = true;
		rc |= load_cache(L, sub, c) < 0;
	}
	for (int c = 0; c < PMU_CACHE_NTYPES; c++)
		if (!seen[c])
			for (int op = 0; op < PMU_OP_NTYPES; op++)
				for (int r = 0; r < PMU_RESULT_NTYPES; r++)
					L->m->cache[c][op][r].state = PMU_MAP_INVALID;
	return rc ? -EINVAL : 0;
}

static int load_event(struct dl *L, int node, struct pmu_event *e)
{
	int rc = 0;

	e->pos = dl_node_pos(L, node);
	e->alias_of = -1;
	/* [ext] event-name: the full name, when the node name (at most 31
	 * characters, as the RFC keeps them) is shortened */
	rc |= dl_get_strdup(L, node, "event-name", false, &e->name) < 0;
	if (!e->name)
		e->name = pmu_strdup(dl_node_name(L, node));
	if (!e->name)
		return dl_oom(L);
	rc |= dl_get_u64(L, node, "event_code", true, true, &e->code) < 0;
	rc |= dl_get_strdup(L, node, "event-category", false, &e->category) < 0;
	rc |= dl_get_strdup(L, node, "event-class", false, &e->event_class) < 0;
	rc |= dl_get_strdup(L, node, "description", false, &e->description) < 0;
	rc |= dl_get_strdup(L, node, "status", false, &e->status) < 0;
	/* a skiboot tree is the firmware set */
	e->firmware = L->legacy || dl_has_prop(L, node, "firmware");
	if (!e->event_class)
		e->event_class = pmu_strdup("primary");
	if (!e->status)
		e->status = pmu_strdup("okay");
	if (!e->event_class || !e->status)
		return dl_oom(L);
	return rc ? -EINVAL : 0;
}

/* [ext] alias-of: a perf event with the code of an earlier one (the YAML's
 * alias-of); a firmware event's alias follows from its code. */
static int load_alias_of(struct dl *L, int node, int k)
{
	struct pmu_event *e = &L->m->events[k];
	const char *name;

	if (dl_get_str(L, node, "alias-of", false, &name) != 0)
		return 0;
	if (e->firmware)
		return dl_fail(L, node, "alias-of", "a firmware event's alias follows from its code");
	for (int j = 0; j < k; j++) {
		const struct pmu_event *a = &L->m->events[j];

		if (a->firmware || strcmp(a->name, name) != 0)
			continue;
		if (a->code != e->code)
			return dl_fail(L, node, "alias-of", "'%s' has the code 0x%llx, not 0x%llx",
				       name, (unsigned long long)a->code,
				       (unsigned long long)e->code);
		e->alias_of = a->alias_of >= 0 ? a->alias_of : j;
		return 0;
	}
	return dl_fail(L, node, "alias-of", "'%s' is no perf event before this one", name);
}

int dl_load_events(struct dl *L)
{
	int node = dl_child(L, L->pmu, "events", true), sub, i = 0, rc = 0, n;

	if (node < 0)
		return -EINVAL;
	n = dl_count_children(L, node);
	L->m->events = dl_alloc_array(L, n, sizeof(*L->m->events));
	if (n && !L->m->events)
		return -ENOMEM;
	L->m->nevents = n;
	int *nodes = dl_alloc_array(L, n, sizeof(int));
	const char **names = dl_alloc_array(L, n, sizeof(*names));

	if (n && (!nodes || !names)) {
		free(nodes);
		free(names);
		return -ENOMEM;
	}
	/* The tree lists the firmware set first (the RFC reads the first 32
	 * events); the model, as the YAML loader builds it, has the events
	 * before the firmware events: each keeps its order. */
	for (int pass = 0; pass < 2; pass++) {
		fdt_for_each_subnode(sub, L->fdt, node) {
			bool fw = L->legacy || dl_has_prop(L, sub, "firmware");

			if (i >= n)
				break;
			if (fw != (pass == 1))
				continue;
			nodes[i] = sub;
			rc |= load_event(L, sub, &L->m->events[i]) < 0;
			names[i] = L->m->events[i].name;
			i++;
		}
	}
	/* event-name may give two nodes one name */
	if (rc == 0)
		rc |= dl_unique_names(L, "event", "event-name", names, nodes, i) < 0;
	for (int k = 0; rc == 0 && k < i; k++)
		rc |= load_alias_of(L, nodes[k], k) < 0;
	free(nodes);
	free(names);
	return rc ? -EINVAL : 0;
}

/* [ext] presets { NAME { events; event-codes; derived; postfix; description } } */
static int preset_events(struct dl *L, int node, struct pmu_preset *p)
{
	uint32_t cells[2 * PMU_PRESET_MAX_EVENTS];
	int n = fdt_stringlist_count(L->fdt, node, "events"), ncells;

	if (n < 1 || n > PMU_PRESET_MAX_EVENTS)
		return dl_fail(L, node, "events", "expected 1 to %d strings", PMU_PRESET_MAX_EVENTS);
	if (dl_get_cells(L, node, "event-codes", true, cells, 2 * n, 2 * n, &ncells))
		return -EINVAL;
	for (int k = 0; k < n; k++) {
		p->events[k] = pmu_strdup(fdt_stringlist_get(L->fdt, node, "events", k, NULL));
		if (!p->events[k])
			return dl_oom(L);
		p->codes[k] = (uint64_t)cells[2 * k] << 32 | cells[2 * k + 1];
		p->nevents++;
	}
	return 0;
}

/* The members against `derived` and `postfix`, as the YAML loader checks them. */
static int preset_shape(struct dl *L, int node, struct pmu_preset *p)
{
	char why[160];
	size_t at;

	if (p->kind == PMU_PRESET_EVENT && p->nevents != 1)
		return dl_fail(L, node, "events", "%d events but no 'derived'", p->nevents);
	if ((p->kind == PMU_PRESET_ADD || p->kind == PMU_PRESET_SUB) && p->nevents < 2)
		return dl_fail(L, node, "events", "a derived %s preset combines at least 2 events",
			    pmu_preset_kind_name(p->kind));
	if (!!p->postfix != (p->kind == PMU_PRESET_POSTFIX))
		return dl_fail(L, node, "postfix", p->postfix ? "needs derived = \"postfix\""
						       : "missing (derived = \"postfix\")");
	if (p->postfix && pmu_postfix_check(p->postfix, p->nevents, &at, why, sizeof(why)))
		return dl_fail(L, node, "postfix", "%s", why);
	return 0;
}

static int load_preset(struct dl *L, int node, struct pmu_preset *p)
{
	const char *kind = NULL;
	int rc;

	p->pos = dl_node_pos(L, node);
	p->name = pmu_strdup(dl_node_name(L, node));
	if (!p->name)
		return dl_oom(L);
	rc = dl_get_str(L, node, "derived", false, &kind);
	if (rc < 0)
		return rc;
	if (rc == 0 && (pmu_preset_kind_parse(kind, &p->kind) || p->kind == PMU_PRESET_EVENT))
		return dl_fail(L, node, "derived", "must be add, sub or postfix, found '%s'", kind);
	if (preset_events(L, node, p) < 0 ||
	    dl_get_strdup(L, node, "postfix", false, &p->postfix) < 0 ||
	    dl_get_strdup(L, node, "description", false, &p->description) < 0)
		return -EINVAL;
	return preset_shape(L, node, p);
}

int dl_load_presets(struct dl *L)
{
	int node = dl_child(L, L->pmu, "presets", false), sub, i = 0, rc = 0, n;

	if (node < 0)
		return 0;
	n = dl_count_children(L, node);
	L->m->presets = dl_alloc_array(L, n, sizeof(*L->m->presets));
	if (n && !L->m->presets)
		return -ENOMEM;
	L->m->npresets = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_preset(L, sub, &L->m->presets[i]) < 0;
		for (int j = 0; j < i && !rc; j++)
			if (pmu_name_eq_nocase(L->m->presets[j].name, L->m->presets[i].name))
				rc = dl_fail(L, sub, NULL, "duplicate preset name (ignoring case)") < 0;
		i++;
	}
	return rc ? -EINVAL : 0;
}

/* [ext] metrics { metric-N { metric-name; expr; groups; description; scale-unit;
 * threshold; aggregation; pmus } } */
static int load_metric(struct dl *L, int node, struct pmu_metric *mt)
{
	mt->pos = dl_node_pos(L, node);
	if (dl_get_strdup(L, node, "metric-name", true, &mt->name) < 0 ||
	    dl_get_strdup(L, node, "expr", true, &mt->expr) < 0 ||
	    dl_get_strdup(L, node, "groups", false, &mt->groups) < 0 ||
	    dl_get_strdup(L, node, "description", false, &mt->description) < 0 ||
	    dl_get_strdup(L, node, "scale-unit", false, &mt->scale_unit) < 0 ||
	    dl_get_strdup(L, node, "threshold", false, &mt->threshold) < 0 ||
	    dl_get_strdup(L, node, "aggregation", false, &mt->aggregation) < 0 ||
	    dl_get_strdup(L, node, "pmus", false, &mt->pmus) < 0)
		return -EINVAL;
	return 0;
}

/* Every expression compiles against the events and the other metrics. */
static int check_metric_exprs(struct dl *L, int node)
{
	int sub, i = 0, rc = 0;

	fdt_for_each_subnode(sub, L->fdt, node) {
		struct pmu_metric_prog prog;
		char why[320];
		size_t at;
		int r;

		if (i >= L->m->nmetrics)
			break;
		r = pmu_metric_compile(L->m, i++, &prog, &at, why, sizeof(why));
		if (r == -ENOMEM)
			return dl_oom(L);
		if (r)
			rc = dl_fail(L, sub, "expr", "offset %zu: %s", at, why);
		else
			pmu_metric_prog_free(&prog);
	}
	return rc;
}

int dl_load_metrics(struct dl *L)
{
	int node = dl_child(L, L->pmu, "metrics", false), sub, i = 0, rc = 0, n;

	if (node < 0)
		return 0;
	n = dl_count_children(L, node);
	L->m->metrics = dl_alloc_array(L, n, sizeof(*L->m->metrics));
	if (n && !L->m->metrics)
		return -ENOMEM;
	L->m->nmetrics = n;
	fdt_for_each_subnode(sub, L->fdt, node) {
		if (i >= n)
			break;
		rc |= load_metric(L, sub, &L->m->metrics[i++]) < 0;
	}
	if (rc)
		return -EINVAL;
	return check_metric_exprs(L, node) < 0 ? -EINVAL : 0;
}
