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
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmu_load.h"
#include "pmu_model.h"
#include "pmu_tables.h"

/* Report a failure and count it in *fails. */
#define FAIL(...) (fprintf(stderr, __VA_ARGS__), (*fails)++)

/* --- look-up through the name index (as the runtime will do it) ----------- */

static int lookup(const struct pmu_tables *t, const char *name)
{
	uint32_t mask = t->name_index_size - 1;
	uint32_t j = (uint32_t)pmu_tbl_name_hash(name) & mask;

	for (uint32_t probes = 0; probes < t->name_index_size; probes++) {
		uint32_t slot = t->name_index[j];

		if (!slot)
			return -1;
		if (strcasecmp(t->pool + t->events[slot - 1].name, name) == 0)
			return (int)slot - 1;
		j = (j + 1) & mask;
	}
	return -1;
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

/* --- rebuilding a model from the tables ----------------------------------- */

struct rebuild {
	const struct pmu_tables *t;
	int bad;
};

static char *str(struct rebuild *r, pmu_str_t off)
{
	char *s;

	if (off == PMU_TBL_NOSTR)
		return NULL;
	if (off >= r->t->pool_size) {
		r->bad = 1;
		return NULL;
	}
	s = pmu_strdup(r->t->pool + off);
	if (!s)
		r->bad = 1;
	return s;
}

static void *array(struct rebuild *r, size_t n, size_t size)
{
	void *p = n ? calloc(n, size) : NULL;

	if (n && !p)
		r->bad = 1;
	return p;
}

static struct pmu_condition cond(struct rebuild *r, struct pmu_tbl_cond c)
{
	struct pmu_condition out = {0};

	if (c.nterms > PMU_MAX_TERMS || c.first + c.nterms > r->t->nterms) {
		r->bad = 1;
		return out;
	}
	out.nterms = (int)c.nterms;
	for (uint32_t i = 0; i < c.nterms; i++) {
		const struct pmu_tbl_term *x = &r->t->terms[c.first + i];

		out.terms[i] = (struct pmu_term){ x->field, x->negate != 0,
						  x->lo, x->hi };
	}
	return out;
}

static struct pmu_reg_ref ref(struct pmu_tbl_ref x)
{
	return (struct pmu_reg_ref){ x.reg, x.field };
}

static void rebuild_counters(struct rebuild *r, struct pmu_model *m)
{
	m->counters = array(r, r->t->ncounters, sizeof(*m->counters));
	for (uint32_t i = 0; m->counters && i < r->t->ncounters; i++) {
		const struct pmu_tbl_counter *x = &r->t->counters[i];
		struct pmu_counter *c = &m->counters[m->ncounters++];

		c->name = str(r, x->name);
		c->sprn = x->sprn;
		c->width = x->width;
		c->privilege = str(r, x->privilege);
		c->programmable = x->programmable;
		c->event = str(r, x->event);
		c->fixed_code = x->fixed_code;
	}
}

static void rebuild_register(struct rebuild *r, const struct pmu_tbl_register *x,
			     struct pmu_register *g)
{
	g->name = str(r, x->name);
	g->sprn = x->sprn;
	g->width = x->width;
	g->privilege = str(r, x->privilege);
	g->index = x->index;
	g->reset = x->reset;
	if (x->first_field + x->nfields > r->t->nreg_fields) {
		r->bad = 1;
		return;
	}
	g->fields = array(r, x->nfields, sizeof(*g->fields));
	for (uint32_t j = 0; g->fields && j < x->nfields; j++) {
		const struct pmu_tbl_reg_field *y = &r->t->reg_fields[x->first_field + j];
		struct pmu_reg_field *f = &g->fields[g->nfields++];

		f->name = str(r, y->name);
		f->description = str(r, y->description);
		f->layout = (enum pmu_layout)y->layout;
		f->lo = y->lo;
		f->hi = y->hi;
		f->base = y->base;
		f->stride = y->stride;
		f->width = y->width;
	}
}

static void rebuild_fields(struct rebuild *r, struct pmu_model *m)
{
	m->fields = array(r, r->t->nfields, sizeof(*m->fields));
	for (uint32_t i = 0; m->fields && i < r->t->nfields; i++) {
		const struct pmu_tbl_field *x = &r->t->fields[i];
		struct pmu_field *f = &m->fields[m->nfields++];

		f->name = str(r, x->name);
		f->dts_name = str(r, x->dts_name);
		f->description = str(r, x->description);
		f->source = (enum pmu_source)x->source;
		f->lo = x->lo;
		f->hi = x->hi;
		f->parent = x->parent;
		f->role = (enum pmu_field_role)x->role;
		f->linux_defined = x->linux_defined;
		f->target_reg = x->target_reg;
		f->target_field = x->target_field;
		f->when = cond(r, x->when);
		f->transform = (enum pmu_transform)x->transform;
		f->transform_arg = x->transform_arg;
		f->clear_reg = x->clear_reg;
		f->clear_field = x->clear_field;
	}
}

static void rebuild_constraints(struct rebuild *r, struct pmu_model *m)
{
	m->constraints = array(r, r->t->nconstraints, sizeof(*m->constraints));
	for (uint32_t i = 0; m->constraints && i < r->t->nconstraints; i++) {
		const struct pmu_tbl_constraint *x = &r->t->constraints[i];
		struct pmu_constraint *c = &m->constraints[m->nconstraints++];

		c->name = str(r, x->name);
		c->description = str(r, x->description);
		c->kind = (enum pmu_constraint_kind)x->kind;
		c->source = (enum pmu_source)x->source;
		c->src_lo = x->src_lo;
		c->src_hi = x->src_hi;
		c->transform = (enum pmu_transform)x->transform;
		c->transform_arg = x->transform_arg;
		c->slot_lo = x->slot_lo;
		c->slot_hi = x->slot_hi;
		c->limit = x->limit;
		c->when = cond(r, x->when);
	}
}

static void rebuild_checks_usage(struct rebuild *r, struct pmu_model *m)
{
	m->checks = array(r, r->t->nchecks, sizeof(*m->checks));
	for (uint32_t i = 0; m->checks && i < r->t->nchecks; i++) {
		const struct pmu_tbl_check *x = &r->t->checks[i];
		struct pmu_check *c = &m->checks[m->nchecks++];

		c->name = str(r, x->name);
		c->description = str(r, x->description);
		c->kind = (enum pmu_check_kind)x->kind;
		c->when = cond(r, x->when);
		c->field = x->field;
	}
	m->usage = array(r, r->t->nusage, sizeof(*m->usage));
	for (uint32_t i = 0; m->usage && i < r->t->nusage; i++) {
		const struct pmu_tbl_usage *x = &r->t->usage[i];
		struct pmu_usage_bit *u = &m->usage[m->nusage++];

		u->target = ref(x->target);
		u->when = (enum pmu_usage_when)x->when;
		u->counters = x->counters;
	}
	for (int i = 0; i < PMU_EXCL_COUNT; i++)
		m->exclude[i] = ref(r->t->exclude[i]);
	m->branch_stack_clears = ref(r->t->branch_stack_clears);
}

static void rebuild_maps(struct rebuild *r, struct pmu_model *m)
{
	m->alternatives = array(r, r->t->nalternatives, sizeof(*m->alternatives));
	for (uint32_t i = 0; m->alternatives && i < r->t->nalternatives; i++) {
		const struct pmu_tbl_alternative *x = &r->t->alternatives[i];
		struct pmu_alternative *a = &m->alternatives[m->nalternatives++];

		a->ncodes = (int)x->ncodes;
		memcpy(a->codes, x->codes, sizeof(a->codes));
		a->per_task_only = x->per_task_only;
	}
	m->generic = array(r, r->t->ngeneric, sizeof(*m->generic));
	for (uint32_t i = 0; m->generic && i < r->t->ngeneric; i++) {
		const struct pmu_tbl_generic *x = &r->t->generic[i];
		struct pmu_generic *g = &m->generic[m->ngeneric++];

		g->name = str(r, x->name);
		g->state = (enum pmu_map_state)x->state;
		g->code = x->code;
	}
	m->has_cache_map = r->t->has_cache_map;
	for (int c = 0; c < PMU_CACHE_NTYPES; c++)
		for (int o = 0; o < PMU_OP_NTYPES; o++)
			for (int s = 0; s < PMU_RESULT_NTYPES; s++) {
				m->cache[c][o][s].state = (enum pmu_map_state)
					r->t->cache[c][o][s].state;
				m->cache[c][o][s].code = r->t->cache[c][o][s].code;
			}
}

static void rebuild_events(struct rebuild *r, struct pmu_model *m)
{
	m->events = array(r, r->t->nevents, sizeof(*m->events));
	for (uint32_t i = 0; m->events && i < r->t->nevents; i++) {
		const struct pmu_tbl_event *x = &r->t->events[i];
		struct pmu_event *e = &m->events[m->nevents++];

		e->name = str(r, x->name);
		e->code = x->code;
		e->category = str(r, x->category);
		e->event_class = str(r, x->event_class);
		e->description = str(r, x->description);
		e->status = str(r, x->status);
		e->firmware = (x->flags & PMU_TBL_EV_FIRMWARE) != 0;
		e->alias_of = x->alias_of;
	}
}

static int rebuild(const struct pmu_tables *t, struct pmu_model *m)
{
	struct rebuild r = { t, 0 };

	pmu_model_init(m);
	m->source = str(&r, t->source);
	m->name = str(&r, t->name);
	m->version = str(&r, t->version);
	m->platform = str(&r, t->platform);
	m->compatible = str(&r, t->compatible);
	m->max_group = t->max_group;
	rebuild_counters(&r, m);
	m->registers = array(&r, t->nregisters, sizeof(*m->registers));
	for (uint32_t i = 0; m->registers && i < t->nregisters; i++)
		rebuild_register(&r, &t->registers[i],
				 &m->registers[m->nregisters++]);
	rebuild_fields(&r, m);
	rebuild_constraints(&r, m);
	rebuild_checks_usage(&r, m);
	rebuild_maps(&r, m);
	rebuild_events(&r, m);
	return r.bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	const struct pmu_tables *t = &pmu_tables_power10;
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
	if (t->tables_version != PMU_TABLES_VERSION)
		FAIL("tables version %u\n", t->tables_version);
	check_lookups(t, &yaml, fails);
	check_pool(t, fails);
	if (rebuild(t, &built) != 0)
		FAIL("tables: a reference is out of range\n");
	else if (!pmu_model_equal(&yaml, &built, diff, sizeof(diff)))
		FAIL("model from the tables differs from %s: %s\n", argv[1],
		     diff);
	if (!failures)
		printf("%u events, %u index slots, %u pool bytes: ok\n",
		       t->nevents, t->name_index_size, t->pool_size);
	pmu_model_free(&built);
	pmu_model_free(&yaml);
	return failures != 0;
}
