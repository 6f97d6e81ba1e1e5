/*
 * evparse.c - pmu_evlist_parse (evsel.h): what perf's -e strings mean for
 * every PMU.  The grammar (lists, groups, PMU/TERMS/MODS, terms, modifiers,
 * the cpc form) is events/evgrammar.c's, written down there; here each
 * event it gives is resolved to its PMU and attr:
 *
 *   {A,B,C}[:MODS]   one group, A leading (perf's parse-events.y group rule)
 *   cpu/TERMS/MODS   the core PMU through the loaded description
 *                    (events/parse.c), else the cpu PMU's sysfs aliases
 *                    (cpu/mem-stores/)
 *   NAME[:MODS]      software, perf's generic/cache names, the description's
 *                    events, raw rHEX / 0xHEX, a sysfs alias of any PMU
 *   PMU/TERMS/MODS   any sysfs PMU: its format terms, config/config1/config2,
 *                    period=, name=, its event aliases (msr/tsc/)
 *   SYS:NAME         a tracepoint (its id from tracefs)
 *   NAME-MODE-COUNT  a DTrace cpc probe name of a software event (of the
 *                    core PMU's events: events/parse.c)
 *
 * Offsets in messages are 0-based bytes of the whole string.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "evgrammar.h"
#include "evsel.h"
#include "internal.h"
#include "sysfs.h"
#include "tracefs.h"

struct ectx {
	struct pmu_evlist *list;
	const struct pmu_host *host;
	const char *s;
	struct pmurt_error *err;
};

/* Sets the error (when the caller passed one) and gives its code; fail_at
 * about the bytes [off, off + len) of the string. */
#define fail(c, code, ...) (pmurt_set_error((c)->err, (code), __VA_ARGS__), (code))
#define fail_at(c, code, off, len, ...) \
	(pmurt_set_error_at((c)->err, (code), (off), (len), __VA_ARGS__), (code))

static void copy_span(const char *s, struct pmu_span sp, char *out, size_t size)
{
	size_t n = sp.len < size - 1 ? sp.len : size - 1;
	memcpy(out, s + sp.off, n);
	out[n] = 0;
}

static struct pmu_evsel *new_evsel(struct ectx *c, struct pmu_span sp, enum pmu_evsel_kind kind,
				   const char *pmu)
{
	struct pmu_evlist *l = c->list;
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 8;
		struct pmu_evsel *v = realloc(l->v, (size_t)cap * sizeof(*v));
		if (!v)
			return NULL;
		l->v = v, l->cap = cap;
	}
	struct pmu_evsel *e = &l->v[l->n];
	memset(e, 0, sizeof(*e));
	e->attr.size = sizeof(e->attr);
	e->kind = kind;
	e->leader = l->n;
	e->group_size = 1;
	e->scale = 1.0;
	copy_span(c->s, sp, e->name, sizeof(e->name));
	snprintf(e->pmu, sizeof(e->pmu), "%s", pmu);
	e->string = l->nstrings;
	e->offset = sp.off;
	e->length = sp.len;
	e->preset = -1;
	e->pack_group = -1;
	return e;
}

static int no_memory(struct ectx *c)
{
	return fail(c, -ENOMEM, "out of memory parsing the event list");
}

static void set_exclude(struct perf_event_attr *a, unsigned ex, int precise)
{
	a->exclude_user = !!(ex & PMURT_EXCLUDE_USER);
	a->exclude_kernel = !!(ex & PMURT_EXCLUDE_KERNEL);
	a->exclude_hv = !!(ex & PMURT_EXCLUDE_HV);
	a->exclude_idle = !!(ex & PMURT_EXCLUDE_IDLE);
	a->precise_ip = (unsigned)precise & 3;
}

/* perf's modifiers mods (after the ':' or the closing '/'). */
static int apply_modifiers(struct ectx *c, struct pmu_evsel *e, struct pmu_span mods)
{
	unsigned ex;
	int precise;
	int rc = pmu_grammar_modifiers(c->s, mods, true, &ex, &precise, c->err);
	if (!rc) {
		set_exclude(&e->attr, ex, precise);
		e->sample_read = ex & PMU_SAMPLE_READ;
	}
	return rc;
}

/* The event's own modifiers, when it has some. */
static int event_modifiers(struct ectx *c, struct pmu_evsel *e, const struct pmu_event_syntax *ev)
{
	return ev->has_mods ? apply_modifiers(c, e, ev->mods) : 0;
}

/* The event is in: it counts in the list. */
static int added(struct ectx *c)
{
	c->list->n++;
	return 0;
}

/* --- software events ------------------------------------------------------ */

/* tools/perf/util/parse-events.c event_symbols_sw[]: symbol, alias. */
static const struct {
	const char *symbol, *alias;
} perf_sw[] = {
	[PERF_COUNT_SW_CPU_CLOCK] = {"cpu-clock", NULL},
	[PERF_COUNT_SW_TASK_CLOCK] = {"task-clock", NULL},
	[PERF_COUNT_SW_PAGE_FAULTS] = {"page-faults", "faults"},
	[PERF_COUNT_SW_CONTEXT_SWITCHES] = {"context-switches", "cs"},
	[PERF_COUNT_SW_CPU_MIGRATIONS] = {"cpu-migrations", "migrations"},
	[PERF_COUNT_SW_PAGE_FAULTS_MIN] = {"minor-faults", NULL},
	[PERF_COUNT_SW_PAGE_FAULTS_MAJ] = {"major-faults", NULL},
	[PERF_COUNT_SW_ALIGNMENT_FAULTS] = {"alignment-faults", NULL},
	[PERF_COUNT_SW_EMULATION_FAULTS] = {"emulation-faults", NULL},
	[PERF_COUNT_SW_DUMMY] = {"dummy", NULL},
	[PERF_COUNT_SW_BPF_OUTPUT] = {"bpf-output", NULL},
	[PERF_COUNT_SW_CGROUP_SWITCHES] = {"cgroup-switches", NULL},
};
#define NPERF_SW ((int)(sizeof(perf_sw) / sizeof(perf_sw[0])))

const char *pmu_software_event(int i, const char **alias)
{
	if (i < 0 || i >= NPERF_SW)
		return NULL;
	*alias = perf_sw[i].alias;
	return perf_sw[i].symbol;
}

static int software_id(const char *name)
{
	for (int i = 0; i < NPERF_SW; i++)
		if (strcmp(name, perf_sw[i].symbol) == 0 ||
		    (perf_sw[i].alias && strcmp(name, perf_sw[i].alias) == 0))
			return i;
	return -1;
}

/* The clocks count nanoseconds; perf stat shows them in msec. */
static void software_event(struct pmu_evsel *e, int id)
{
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = (uint64_t)id;
	if (id == PERF_COUNT_SW_CPU_CLOCK || id == PERF_COUNT_SW_TASK_CLOCK) {
		e->scale = 1e-6;
		strcpy(e->unit, "msec");
	}
}

/* perf's tool events (parse-events.l, perf 6.1: duration_time, user_time,
 * system_time), by pmurt_tool_event; PMURT_TOOL_NONE for another name. */
static enum pmurt_tool_event tool_id(const char *name)
{
	static const char *const tools[] = {[PMURT_TOOL_DURATION_TIME] = "duration_time",
					    [PMURT_TOOL_USER_TIME] = "user_time",
					    [PMURT_TOOL_SYSTEM_TIME] = "system_time"};
	for (int i = PMURT_TOOL_DURATION_TIME; i <= PMURT_TOOL_SYSTEM_TIME; i++)
		if (strcmp(name, tools[i]) == 0)
			return (enum pmurt_tool_event)i;
	return PMURT_TOOL_NONE;
}

/* A tool event as perf's add_event_tool makes it: a software dummy's
 * attr, unit "ns"; nothing opens it. */
static void tool_event(struct pmu_evsel *e, enum pmurt_tool_event id)
{
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_DUMMY;
	e->tool = id;
	strcpy(e->unit, "ns");
}

/* Whether s[sp] is a software event's name. */
static bool software_name(const char *s, struct pmu_span sp)
{
	char name[64];
	if (sp.len >= sizeof(name))
		return false;
	copy_span(s, sp, name, sizeof(name));
	return software_id(name) >= 0;
}

/* The DTrace cpc probe form on a software event, NAME-MODE-COUNT
 * (cpu-clock-user-20000; the core PMU's events are events/parse.c's):
 * COUNT the sample period, MODE the exclude bits.  A MASK has nowhere to
 * go on a software event and is refused.  1 when ev is not that form. */
static int software_cpc(struct ectx *c, const struct pmu_event_syntax *ev)
{
	struct pmu_cpc_syntax p;
	uint64_t count, mask;
	char name[64];
	if (pmu_grammar_cpc(c->s, ev->body, &p) != 0 || !software_name(c->s, p.prefix))
		return 1;
	if (p.has_mask)
		return fail_at(c, -EINVAL, p.mask.off, p.mask.len,
			       "cpc mask '%.*s' at offset %zu: only the PMU's own events "
			       "take a mask, not software event '%.*s'", (int)p.mask.len,
			       c->s + p.mask.off, p.mask.off, (int)p.prefix.len,
			       c->s + p.prefix.off);
	int rc = pmu_grammar_cpc_numbers(c->s, &p, &count, &mask, c->err);
	if (rc)
		return rc;
	struct pmu_evsel *e = new_evsel(c, ev->whole, PMU_EVSEL_SOFTWARE, "software");
	if (!e)
		return no_memory(c);
	copy_span(c->s, p.prefix, name, sizeof(name));
	software_event(e, software_id(name));
	set_exclude(&e->attr, p.exclude, 0);
	e->attr.sample_period = count;
	return added(c);
}

/* --- the core PMU ------------------------------------------------------------ */

/* The event the description resolved. */
static int core_evsel(struct ectx *c, const struct pmu_event_syntax *ev,
		      const struct pmurt_event_spec *spec)
{
	enum pmu_evsel_kind kind = spec->type == PERF_TYPE_HARDWARE   ? PMU_EVSEL_HARDWARE
				   : spec->type == PERF_TYPE_HW_CACHE ? PMU_EVSEL_CACHE
								      : PMU_EVSEL_CORE;
	struct pmu_evsel *e = new_evsel(c, ev->whole, kind, "cpu");
	if (!e)
		return no_memory(c);
	e->spec = *spec;
	e->sample_read = spec->exclude & PMU_SAMPLE_READ;
	e->spec.exclude &= ~PMU_SAMPLE_READ;
	e->attr.type = spec->type;
	e->attr.config = spec->config;
	e->attr.config1 = spec->config1;
	e->attr.sample_period = spec->sample_period;
	set_exclude(&e->attr, spec->exclude, spec->precise);
	return added(c);
}

/* The description's answer for ev without a message: 0 with *spec, or a
 * negative errno (-ENOENT: a name it does not know). */
static int core_probe(const struct ectx *c, const struct pmu_event_syntax *ev,
		      struct pmurt_event_spec *spec)
{
	*spec = (struct pmurt_event_spec){.sz = sizeof(*spec)};
	return pmurt_resolve_event(c->host->core, c->s, ev, true, spec, NULL);
}

/* The description's message for an event it refused. */
static int core_refusal(struct ectx *c, const struct pmu_event_syntax *ev)
{
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	return pmurt_resolve_event(c->host->core, c->s, ev, true, &spec, c->err);
}

/* --- sysfs PMUs ---------------------------------------------------------------- */

/* A term list: config=/config1=/config2= give whole words (base), format
 * terms their bits (set, words), which win whatever the order, as perf
 * applies format terms after config terms (util/pmu.c). */
struct sysfs_terms {
	uint64_t base[3], set[3], words[3];
	uint64_t period;
};

/* Where a term comes from: the event string, or (depth 1) the text of an
 * alias that a term of the string at offset at named. */
struct term_source {
	const char *text;
	size_t at;
	int depth;
};

static int sysfs_term(struct ectx *c, const struct pmu_sysfs *pmu, struct pmu_evsel *e,
		      struct sysfs_terms *t, struct term_source src, const struct pmu_event_term *term);

/* An alias's terms ("event=0x07,umask=1"), applied in order. */
static int sysfs_alias_terms(struct ectx *c, const struct pmu_sysfs *pmu, struct pmu_evsel *e,
			     struct sysfs_terms *t, const char *alias, size_t at)
{
	char terms[256], unit[32];
	double scale;
	struct pmu_term_cursor cur;
	struct pmu_event_term term;
	int rc;
	if (pmu_sysfs_alias(c->host->sysfs, pmu, alias, terms, sizeof(terms), &scale, unit))
		return -ENOENT;
	e->scale = scale;
	snprintf(e->unit, sizeof(e->unit), "%s", unit);
	pmu_terms_begin(&cur, terms, (struct pmu_span){0, strlen(terms)});
	while ((rc = pmu_terms_next(&cur, &term, NULL)) > 0)
		if ((rc = sysfs_term(c, pmu, e, t, (struct term_source){terms, at, 1}, &term)) != 0)
			return rc == -ENOENT ? fail(c, -EINVAL, "%s/events/%s: unknown term '%.*s'",
						    pmu->name, alias, (int)term.whole.len,
						    terms + term.whole.off)
					     : rc;
	return rc ? fail(c, -EINVAL, "%s/events/%s: bad term list '%s'", pmu->name, alias, terms)
		  : 0;
}

/* KEY=VALUE (or KEY alone, =1) into the term list; -ENOENT for a key that
 * is none of the PMU's. */
static int sysfs_value(struct ectx *c, const struct pmu_sysfs *pmu, struct sysfs_terms *t,
		       const char *key, uint64_t v, size_t at)
{
	static const char *const words[] = {"config", "config1", "config2"};
	for (int w = 0; w < 3; w++)
		if (strcmp(key, words[w]) == 0) {
			t->base[w] = v;
			return 0;
		}
	if (strcmp(key, "period") == 0) {
		t->period = v;
		return 0;
	}
	const struct pmu_format *f = pmu_sysfs_format(pmu, key);
	if (!f)
		return -ENOENT;
	if (pmu_format_apply(f, v, t->words))
		return fail_at(c, -EINVAL, at, strlen(key),
			       "value 0x%" PRIx64 " for '%s' at offset %zu does not fit "
			       "%s's format %s (%d bits)", v, key, at, pmu->name, key,
			       __builtin_popcountll(f->bits));
	t->set[f->word] |= f->bits;
	return 0;
}

/* One term: KEY=VALUE, name=, a format term alone (=1), an alias. */
static int sysfs_term(struct ectx *c, const struct pmu_sysfs *pmu, struct pmu_evsel *e,
		      struct sysfs_terms *t, struct term_source src, const struct pmu_event_term *term)
{
	char key[64], value[256];
	size_t at = src.depth ? src.at : term->whole.off;
	copy_span(src.text, term->value, value, sizeof(value));
	if (term->key.len >= sizeof(key))
		return fail_at(c, -EINVAL, at, src.depth ? 0 : term->whole.len,
			       "bad term '%.*s' at offset %zu", (int)term->whole.len,
			       src.text + term->whole.off, at);
	copy_span(src.text, term->key, key, sizeof(key));
	if (term->has_value && strcmp(key, "name") == 0) {
		snprintf(e->name, sizeof(e->name), "%s", value);
		return 0;
	}
	uint64_t v = 1;
	if (term->has_value && pmu_grammar_number(src.text + term->value.off, term->value.len, &v))
		return fail_at(c, -EINVAL, at + term->key.len + 1, src.depth ? 0 : term->value.len,
			       "bad value '%s' for '%s' at offset %zu (decimal or 0x hex)", value,
			       key, at + term->key.len + 1);
	int rc = sysfs_value(c, pmu, t, key, v, at);
	if (rc == -ENOENT && !term->has_value && !src.depth)
		rc = sysfs_alias_terms(c, pmu, e, t, key, at);
	if (rc != -ENOENT || src.depth)
		return rc;
	return fail_at(c, -EINVAL, at, strlen(key),
		       "unknown term '%s' at offset %zu for PMU %s (not a format term of "
		       "%s/format, an event of %s/events, config, config1, config2, period or "
		       "name)", key, at, pmu->name, pmu->name, pmu->name);
}

static int load_pmu(struct ectx *c, const char *name, struct pmu_sysfs *pmu, size_t at)
{
	int rc = pmu_sysfs_load(c->host->sysfs, name, pmu, c->err);
	if (rc == -ENOENT)
		return fail_at(c, -ENOENT, at, strlen(name),
			       "unknown PMU '%s' at offset %zu (no %s/bus/event_source/"
			       "devices/%s)", name, at, c->host->sysfs, name);
	if (rc && !(c->err && c->err->code))
		return fail_at(c, rc, at, strlen(name), "PMU '%s' at offset %zu: %s", name, at,
			       strerror(-rc));
	return rc;
}

static void sysfs_attr(struct pmu_evsel *e, const struct pmu_sysfs *pmu, const struct sysfs_terms *t)
{
	uint64_t w[3];
	for (int i = 0; i < 3; i++)
		w[i] = (t->base[i] & ~t->set[i]) | (t->words[i] & t->set[i]);
	e->attr.type = pmu->type;
	e->attr.config = w[0];
	e->attr.config1 = w[1];
	e->attr.config2 = w[2];
	e->attr.sample_period = t->period;
	e->per_cpu_only = pmu->has_cpumask || pmu_is_vpa_dtl(pmu->name);
	snprintf(e->cpumask, sizeof(e->cpumask), "%s", pmu->cpumask);
}

/* PMU/TERMS/ with the PMU pname in sysfs: the event, *e, not yet in the
 * list nor given its modifiers. */
static int sysfs_terms_event(struct ectx *c, const struct pmu_event_syntax *ev, const char *pname,
			     struct pmu_evsel **e)
{
	struct pmu_sysfs pmu;
	struct pmu_term_cursor cur;
	struct pmu_event_term term;
	int rc = load_pmu(c, pname, &pmu, ev->pmu.off);
	if (rc)
		return rc;
	if (!(*e = new_evsel(c, ev->whole, PMU_EVSEL_SYSFS, pname)))
		return no_memory(c);
	struct sysfs_terms t = {.period = 0};
	pmu_terms_begin(&cur, c->s, ev->body);
	while ((rc = pmu_terms_next(&cur, &term, c->err)) > 0)
		if ((rc = sysfs_term(c, &pmu, *e, &t, (struct term_source){c->s, 0, 0}, &term)) != 0)
			return rc;
	if (!rc)
		sysfs_attr(*e, &pmu, &t);
	return rc;
}

/* PMU/TERMS/MODS with the PMU pname in sysfs. */
static int sysfs_wrapped(struct ectx *c, const struct pmu_event_syntax *ev, const char *pname)
{
	struct pmu_evsel *e;
	int rc = sysfs_terms_event(c, ev, pname, &e);
	if (!rc)
		rc = event_modifiers(c, e, ev);
	return rc ? rc : added(c);
}

/* cpu/TERMS/MODS with a description: its events and fields, else (as perf
 * reads a term that is a bare name, parse-events.c: a sysfs event alias of
 * that PMU) the cpu PMU's sysfs aliases, cpu/mem-stores/; the description's
 * message when neither knows the terms. */
static int core_wrapped(struct ectx *c, const struct pmu_event_syntax *ev)
{
	struct pmurt_event_spec spec;
	struct pmu_evsel *e;
	int rc = core_probe(c, ev, &spec);
	if (!rc)
		return core_evsel(c, ev, &spec);
	struct ectx quiet = *c;
	quiet.err = NULL;
	if (rc != -ENOENT || sysfs_terms_event(&quiet, ev, "cpu", &e))
		return core_refusal(c, ev);
	rc = event_modifiers(c, e, ev);
	return rc ? rc : added(c);
}

/* One term of a software event's: period=N, freq=N, name=TEXT (perf's
 * config terms on a legacy event, parse-events.c: cpu-clock/period=1000/). */
static int software_term(struct ectx *c, struct pmu_evsel *e, const struct pmu_event_term *term)
{
	char key[32], value[256];
	uint64_t v;
	copy_span(c->s, term->key, key, sizeof(key));
	copy_span(c->s, term->value, value, sizeof(value));
	if (term->has_value && strcmp(key, "name") == 0) {
		snprintf(e->name, sizeof(e->name), "%s", value);
		return 0;
	}
	bool period = strcmp(key, "period") == 0, freq = strcmp(key, "freq") == 0;
	if (!term->has_value || !(period || freq))
		return fail_at(c, -EINVAL, term->whole.off, term->whole.len,
			       "unknown term '%.*s' at offset %zu for a software event (period=N, "
			       "freq=N or name=TEXT)", (int)term->whole.len, c->s + term->whole.off,
			       term->whole.off);
	if (pmu_grammar_number(c->s + term->value.off, term->value.len, &v) || !v)
		return fail_at(c, -EINVAL, term->value.off, term->value.len,
			       "bad value '%s' for '%s' at offset %zu (a number above 0)", value,
			       key, term->value.off);
	e->attr.sample_period = v;   /* a union with sample_freq */
	e->attr.freq = freq;
	return 0;
}

/* SOFTWARE/TERMS/MODS: a software event with perf's config terms. */
static int software_wrapped(struct ectx *c, const struct pmu_event_syntax *ev, int id)
{
	struct pmu_term_cursor cur;
	struct pmu_event_term term;
	struct pmu_evsel *e = new_evsel(c, ev->whole, PMU_EVSEL_SOFTWARE, "software");
	if (!e)
		return no_memory(c);
	software_event(e, id);
	int rc;
	pmu_terms_begin(&cur, c->s, ev->body);
	while ((rc = pmu_terms_next(&cur, &term, c->err)) > 0)
		if ((rc = software_term(c, e, &term)) != 0)
			return rc;
	if (!rc)
		rc = event_modifiers(c, e, ev);
	return rc ? rc : added(c);
}

/* PMU/TERMS/...: the core PMU through the description, a software event
 * with its terms, others through sysfs. */
static int wrapped_event(struct ectx *c, const struct pmu_event_syntax *ev)
{
	char pname[64];
	copy_span(c->s, ev->pmu, pname, sizeof(pname));
	if (c->host->core && strcmp(pname, "cpu") == 0)
		return core_wrapped(c, ev);
	if (software_id(pname) >= 0)
		return software_wrapped(c, ev, software_id(pname));
	return sysfs_wrapped(c, ev, pname);
}

/* A bare name that is an alias in some PMU's events/: the first in name
 * order, as perf's parse_events_multi_pmu_add takes all (one here). */
struct alias_search {
	const char *sysfs, *alias;
	char found[64];
};

static int has_alias(const char *name, void *arg)
{
	struct alias_search *a = arg;
	char path[800];
	struct stat st;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/events/%s", a->sysfs, name,
		 a->alias);
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	snprintf(a->found, sizeof(a->found), "%s", name);
	return 1;
}

static int bare_alias(struct ectx *c, const struct pmu_event_syntax *ev)
{
	char alias[256];
	copy_span(c->s, ev->body, alias, sizeof(alias));
	if (strchr(alias, '/') || alias[0] == '.')
		return -ENOENT;
	struct alias_search a = {.sysfs = c->host->sysfs, .alias = alias};
	if (pmu_sysfs_each(c->host->sysfs, has_alias, &a) <= 0)
		return -ENOENT;
	struct pmu_sysfs pmu;
	int rc = load_pmu(c, a.found, &pmu, ev->whole.off);
	if (rc)
		return rc;
	struct pmu_evsel *e = new_evsel(c, ev->whole, PMU_EVSEL_SYSFS, a.found);
	if (!e)
		return no_memory(c);
	struct sysfs_terms t = {.period = 0};
	if ((rc = sysfs_alias_terms(c, &pmu, e, &t, alias, ev->body.off)) != 0)
		return rc;
	sysfs_attr(e, &pmu, &t);
	return (rc = event_modifiers(c, e, ev)) != 0 ? rc : added(c);
}

/* --- tracepoints ------------------------------------------------------------------ */

/* No tracefs to read tracepoint ev from: why, and what to do. */
static int no_tracefs(struct ectx *c, const struct pmu_event_syntax *ev, int mount_errno)
{
	char q[PMU_QUOTE_MAX + 4];
	pmu_grammar_quote(c->s, ev->whole, q);
	if (mount_errno)
		return fail_at(c, -ENOENT, ev->whole.off, ev->whole.len,
			       "tracepoint '%s' at offset %zu: tracefs is not mounted, and mounting "
			       "it at /sys/kernel/tracing failed: %s (perf mounts it when run as "
			       "root; as root: mount -t tracefs nodev /sys/kernel/tracing; or give "
			       "--tracefs)", q, ev->whole.off, strerror(mount_errno));
	return fail_at(c, -ENOENT, ev->whole.off, ev->whole.len,
		       "tracepoint '%s' at offset %zu: no tracefs (looked in %s/kernel/tracing "
		       "and %s/kernel/debug/tracing; mount tracefs or give --tracefs)", q,
		       ev->whole.off, c->host->sysfs, c->host->sysfs);
}

/* One tracepoint sys:name (its id read from tracefs) as an event of the
 * list, named sys:name; 0, 1 when it has no id, or an error. */
static int add_tracepoint(struct ectx *c, const struct pmu_event_syntax *ev,
			  const struct pmu_tracepoint_syntax *tp, const char *tracefs, const char *sys,
			  const char *name, bool named_so)
{
	char path[800], text[32];
	uint64_t id;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, name);
	int rc = pmu_read_small(path, text, sizeof(text));
	if (rc == -ENOENT && !named_so)
		return 1;   /* a glob's match without an id: not an event (ftrace's) */
	if (rc || pmu_grammar_number(text, strlen(text), &id))
		return fail(c, rc ? rc : -EINVAL, "tracepoint %s:%s: cannot read its id from %s", sys,
			    name, path);
	struct pmu_evsel *e = new_evsel(c, ev->whole, PMU_EVSEL_TRACEPOINT, "tracepoint");
	if (!e)
		return no_memory(c);
	if (!named_so)
		snprintf(e->name, sizeof(e->name), "%s:%s", sys, name);
	e->attr.type = PERF_TYPE_TRACEPOINT;
	e->attr.config = id;
	if (tp->has_mods && (rc = apply_modifiers(c, e, tp->mods)) != 0)
		return rc;
	return added(c);
}

/* SYS:NAME with a glob in either part (sched:sched_wak*, *:sys_enter_open):
 * every tracepoint that matches, in tracefs's order, as perf's
 * parse-events.c add_tracepoint_multi_sys/_event (fnmatch) takes them. */
struct glob_match {
	struct ectx *c;
	const struct pmu_event_syntax *ev;
	const struct pmu_tracepoint_syntax *tp;
	const char *tracefs;
	int found;
};

static int glob_matched(void *ctx, const char *sys, const char *name)
{
	struct glob_match *g = ctx;
	int rc = add_tracepoint(g->c, g->ev, g->tp, g->tracefs, sys, name, false);
	g->found += rc == 0;
	return rc > 0 ? 0 : rc;
}

static int tracepoint_glob(struct ectx *c, const struct pmu_event_syntax *ev,
			   const struct pmu_tracepoint_syntax *tp, const char *tracefs,
			   const char *sys, const char *name)
{
	struct glob_match g = {.c = c, .ev = ev, .tp = tp, .tracefs = tracefs};
	int rc = pmu_tracefs_each(tracefs, sys, name, glob_matched, &g);
	if (!rc && !g.found)
		return fail_at(c, -ENOENT, ev->whole.off, ev->whole.len,
			       "no tracepoint matches '%s:%s' at offset %zu (in %s/events)", sys, name,
			       ev->whole.off, tracefs);
	return rc;
}

/* mem:ADDR[:ACCESS], perf's hardware breakpoint (parse-events.c
 * parse_events_add_breakpoint): ACCESS of r, w, x (rw when none), its
 * length sizeof(long) for x, else 4, a sample each hit (period 1).  perf's
 * mem:ADDR/LEN reads as a PMU's terms here (perf itself refuses it per
 * task). */
static int breakpoint(struct ectx *c, const struct pmu_event_syntax *ev,
		      const struct pmu_tracepoint_syntax *tp)
{
	char q[PMU_QUOTE_MAX + 4];
	uint64_t addr;
	bool bad = pmu_grammar_number(c->s + tp->name.off, tp->name.len, &addr) != 0;
	unsigned type = 0;
	for (size_t i = 0; !bad && tp->has_mods && i < tp->mods.len; i++) {
		const char *at = strchr("rwx", c->s[tp->mods.off + i]);
		bad = !at || (type & (1u << (at - "rwx")));
		type |= at ? 1u << (at - "rwx") : 0;
	}
	if (bad || (type & 4 && type != 4))
		return fail_at(c, -EINVAL, ev->whole.off, ev->whole.len,
			       "breakpoint '%s' at offset %zu: not mem:ADDR[:ACCESS] (ACCESS r, w, rw "
			       "or x)", pmu_grammar_quote(c->s, ev->whole, q),
			       ev->whole.off);
	struct pmu_evsel *e = new_evsel(c, ev->whole, PMU_EVSEL_BREAKPOINT, "breakpoint");
	if (!e)
		return no_memory(c);
	e->attr.type = PERF_TYPE_BREAKPOINT;
	e->attr.bp_type = type ? type : 3;   /* HW_BREAKPOINT_R 1, W 2, X 4 */
	e->attr.bp_addr = addr;
	e->attr.bp_len = e->attr.bp_type == 4 ? sizeof(long) : 4;
	e->attr.sample_period = 1;
	return added(c);
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* SYS:NAME[:MODS]. */
static int tracepoint(struct ectx *c, const struct pmu_event_syntax *ev)
{
	char sys[128], name[128];
	struct pmu_tracepoint_syntax tp;
	pmu_grammar_tracepoint(c->s, ev, &tp);
	copy_span(c->s, tp.sys, sys, sizeof(sys));
	copy_span(c->s, tp.name, name, sizeof(name));
	if (strcmp(sys, "mem") == 0)
		return breakpoint(c, ev, &tp);
	int mount_errno;
	const char *tracefs = pmu_host_tracefs(c->host, &mount_errno);
	if (!tracefs[0])
		return no_tracefs(c, ev, mount_errno);
	if (tp.name.len && !strchr(sys, '/') && !strchr(name, '/') && (has_glob(sys) || has_glob(name)))
		return tracepoint_glob(c, ev, &tp, tracefs, sys, name);
	if (!tp.name.len || strchr(sys, '/') || strchr(name, '/') ||
	    !pmu_tracefs_has(tracefs, sys, name))
		return fail_at(c, -ENOENT, ev->whole.off, ev->whole.len,
			       "unknown tracepoint '%s:%s' at offset %zu (no %s/events/%s/%s)",
			       sys, name, ev->whole.off, tracefs, sys, name);
	return add_tracepoint(c, ev, &tp, tracefs, sys, name, true);
}

/* perf's rHEX (at most 16 digits). */
static bool is_raw_code(const char *name, uint64_t *code)
{
	return name[0] == 'r' && pmu_grammar_hex(name + 1, strlen(name + 1), code) == 0;
}

/* A name some PMU knows: then a ':' after it starts modifiers. */
static bool known_name(const struct ectx *c, struct pmu_span body, const char *name)
{
	uint32_t type;
	uint64_t config;
	struct pmurt_event_spec spec;
	struct pmu_event_syntax alone = {.whole = body, .body = body};
	return software_id(name) >= 0 || pmurt_perf_legacy_event(name, &type, &config) == 0 ||
	       is_raw_code(name, &config) || (c->host->core && core_probe(c, &alone, &spec) == 0);
}

/* A ':' starts a tracepoint when the part before it is a tracefs subsystem,
 * or no event's name and the part after it is not made of modifier letters. */
static bool is_tracepoint(const struct ectx *c, const struct pmu_event_syntax *ev)
{
	char sys[128];
	copy_span(c->s, ev->body, sys, sizeof(sys));
	if (pmu_tracefs_has(pmu_host_tracefs(c->host, NULL), sys, NULL) || has_glob(sys))
		return true;
	if (known_name(c, ev->body, sys))
		return false;
	return !pmu_grammar_modifier_letters(c->s, ev->mods);
}

/* --- names without a description ------------------------------------------------- */

static int legacy_event(struct ectx *c, const struct pmu_event_syntax *ev)
{
	char name[256];
	uint32_t type;
	uint64_t config;
	copy_span(c->s, ev->body, name, sizeof(name));
	int rc = pmurt_perf_legacy_event(name, &type, &config);
	if (rc == -ENOENT && is_raw_code(name, &config)) {
		rc = 0;
		type = PERF_TYPE_RAW;
	}
	if (rc == -EINVAL)
		return fail_at(c, -EINVAL, ev->body.off, ev->body.len,
			       "cache event '%s' at offset %zu: perf accepts no such "
			       "operation on this cache", name, ev->body.off);
	if (rc)
		return rc;
	struct pmu_evsel *e = new_evsel(c, ev->whole, type == PERF_TYPE_HARDWARE ? PMU_EVSEL_HARDWARE
					: type == PERF_TYPE_HW_CACHE ? PMU_EVSEL_CACHE
								     : PMU_EVSEL_CORE, "cpu");
	if (!e)
		return no_memory(c);
	e->attr.type = type;
	e->attr.config = config;
	return (rc = event_modifiers(c, e, ev)) != 0 ? rc : added(c);
}

/* The software or generic hardware name nearest to name ("tsk-clock":
 * task-clock), copied to out, or "". */
static void nearest_generic(const char *name, char out[64])
{
	struct pmurt_nearest n;
	pmurt_nearest_init(&n, name, strlen(name));
	while (pmurt_nearest_pass(&n)) {
		for (int id = 0; id < NPERF_SW; id++) {
			pmurt_nearest_try(&n, perf_sw[id].symbol);
			pmurt_nearest_try(&n, perf_sw[id].alias);
		}
		pmurt_perf_legacy_nearest(&n);
	}
	snprintf(out, 64, "%s", n.buf);
}

/* r followed by more hex digits than 64 bits hold (is_raw_code refused it). */
static bool is_raw_too_large(const char *name)
{
	size_t digits = strspn(name + 1, "0123456789abcdefABCDEF");
	return name[0] == 'r' && digits == strlen(name + 1) && digits > 16;
}

/* A name nothing knows: with a core description, its message (with the
 * nearest name); without, the nearest software or generic name if one is
 * close, else what the host pick looked for. */
static int unknown_name(struct ectx *c, const struct pmu_event_syntax *ev)
{
	char q[PMU_QUOTE_MAX + 4], name[256], near[64];
	copy_span(c->s, ev->body, name, sizeof(name));
	if (is_raw_too_large(name))
		return fail_at(c, -ERANGE, ev->body.off, ev->body.len,
			       "raw event '%s' at offset %zu: too large (a raw code has at most 16 "
			       "hex digits, 64 bits)", pmu_grammar_quote(c->s, ev->body, q),
			       ev->body.off);
	nearest_generic(name, near);
	if (c->host->core) {
		int rc = core_refusal(c, ev);
		/* the description had nothing close: perf's software and generic names */
		if (c->err && rc == -ENOENT && near[0] && !strstr(c->err->message, "did you mean")) {
			size_t len = strlen(c->err->message);
			snprintf(c->err->message + len, sizeof(c->err->message) - len,
				 "; did you mean '%s'?", near);
		}
		return rc;
	}
	if (near[0])
		return fail_at(c, -ENOENT, ev->body.off, ev->body.len,
			       "unknown event '%s' at offset %zu; did you mean '%s'?",
			       pmu_grammar_quote(c->s, ev->body, q), ev->body.off, near);
	return fail_at(c, -ENOENT, ev->body.off, ev->body.len,
		       "unknown event '%s' at offset %zu: not a software, generic, cache "
		       "or sysfs event, and no core PMU description is loaded (%s)",
		       pmu_grammar_quote(c->s, ev->body, q), ev->body.off,
		       c->host->pick[0] ? c->host->pick : "give --pmu");
}

static int named_event(struct ectx *c, const struct pmu_event_syntax *ev)
{
	char name[256];
	if (ev->has_mods && is_tracepoint(c, ev))
		return tracepoint(c, ev);
	copy_span(c->s, ev->body, name, sizeof(name));
	enum pmurt_tool_event tool = ev->body.len < sizeof(name) ? tool_id(name) : PMURT_TOOL_NONE;
	if (tool != PMURT_TOOL_NONE) {
		struct pmu_evsel *e = new_evsel(c, ev->whole, PMU_EVSEL_TOOL, "tool");
		if (!e)
			return no_memory(c);
		tool_event(e, tool);
		int rc = event_modifiers(c, e, ev);   /* taken and ignored, as perf does */
		return rc ? rc : added(c);
	}
	int sw = ev->body.len < sizeof(name) ? software_id(name) : -1;
	if (sw >= 0) {
		struct pmu_evsel *e = new_evsel(c, ev->whole, PMU_EVSEL_SOFTWARE, "software");
		if (!e)
			return no_memory(c);
		software_event(e, sw);
		int rc = event_modifiers(c, e, ev);
		return rc ? rc : added(c);
	}
	if (!ev->has_mods) {
		int rc = software_cpc(c, ev);
		if (rc <= 0)
			return rc;
	}
	if (c->host->core) {
		struct pmurt_event_spec spec;
		int rc = core_probe(c, ev, &spec);
		if (!rc)
			return core_evsel(c, ev, &spec);
		if (rc != -ENOENT)
			return core_refusal(c, ev);
	} else {
		int rc = legacy_event(c, ev);
		if (rc != -ENOENT)
			return rc;
	}
	int rc = bare_alias(c, ev);
	return rc == -ENOENT ? unknown_name(c, ev) : rc;
}

static int one_event(struct ectx *c, struct pmu_span sp)
{
	struct pmu_event_syntax ev;
	int rc = pmu_grammar_event(c->s, sp, &ev, c->err);
	if (rc)
		return rc;
	return ev.wrapped ? wrapped_event(c, &ev) : named_event(c, &ev);
}

/* --- groups ------------------------------------------------------------------------ */

struct pmurt_event_spec pmu_evsel_spec(const struct pmu_evsel *e)
{
	struct pmurt_event_spec s = e->spec;
	const struct perf_event_attr *a = &e->attr;
	s.exclude = (a->exclude_user ? PMURT_EXCLUDE_USER : 0) |
		    (a->exclude_kernel ? PMURT_EXCLUDE_KERNEL : 0) |
		    (a->exclude_hv ? PMURT_EXCLUDE_HV : 0) | (a->exclude_idle ? PMURT_EXCLUDE_IDLE : 0);
	s.precise = (int)a->precise_ip;
	s.sample_period = a->sample_period;
	return s;
}

/* The group list->v[first..] ends: its leader, and its modifiers ({A,B}:u)
 * for the members that have none of their own. */
static int close_group(struct ectx *c, int first, const struct pmu_list_item *end)
{
	unsigned ex;
	int precise;
	if (c->list->n - first > PMURT_MAX_GROUP)
		return fail_at(c, -EINVAL, end->group_off, 1,
			       "group at offset %zu has %d events (at most %d)",
			       end->group_off, c->list->n - first, PMURT_MAX_GROUP);
	for (int i = first; c->list->n - first > 1 && i < c->list->n; i++)
		if (c->list->v[i].kind == PMU_EVSEL_TOOL)
			/* perf 6.1 takes it and reads its group's other members as
			 * <not counted>: a group needs a counter to lead it */
			return fail_at(c, -EINVAL, c->list->v[i].offset, c->list->v[i].length,
				       "tool event '%s' at offset %zu in the group at offset %zu: "
				       "a tool event opens no counter, so it is counted alone, "
				       "never in a group", c->list->v[i].name, c->list->v[i].offset,
				       end->group_off);
	for (int i = first; i < c->list->n; i++)
		c->list->v[i].leader = first;
	c->list->v[first].group_size = c->list->n - first;
	if (!end->has_mods)
		return 0;
	int rc = pmu_grammar_modifiers(c->s, end->span, true, &ex, &precise, c->err);
	for (int i = first; !rc && i < c->list->n; i++) {
		struct pmu_evsel *e = &c->list->v[i];
		struct perf_event_attr *a = &e->attr;
		/* perf's parse_events__modifier_group: S on every member */
		e->sample_read |= !!(ex & PMU_SAMPLE_READ);
		if (!a->exclude_user && !a->exclude_kernel && !a->exclude_hv && !a->exclude_idle)
			set_exclude(a, ex, a->precise_ip > (unsigned)precise ? (int)a->precise_ip
									     : precise);
		e->spec = pmu_evsel_spec(e); /* a core event's spec says what its attr does */
	}
	return rc;
}

static int top_event(struct ectx *c, struct pmu_span sp);

/* Every item of c->s[0, len) onto the list. */
static int parse_items(struct ectx *c, size_t len)
{
	struct pmu_list_cursor cur;
	struct pmu_list_item it;
	int first = c->list->n;
	int rc = pmu_list_begin(&cur, c->s, 0, len, c->err);
	while (!rc && (rc = pmu_list_next(&cur, &it, c->err)) > 0) {
		if (it.token == PMU_LIST_GROUP_END) {
			rc = close_group(c, first, &it);
			continue;
		}
		if (it.group_first)
			first = c->list->n;
		rc = cur.in_group || !c->list->derived_presets ? one_event(c, it.span)
							       : top_event(c, it.span);
	}
	return rc;
}

/* --- derived presets ------------------------------------------------------------------ */

/* A derived preset's group written out, {N0,N1,...}[:MODS]: a few event
 * names and the item's modifiers (the list's own bound, a mebibyte, is
 * too much for the stack). */
#define PMU_PRESET_GROUP_MAX 4096

/* The derived preset info (index) written at sp as NAME[:MODS] (ev): the
 * group of its events, {N0,N1,...}[:MODS], each event marked with the
 * preset and the item's place, as pmutool stat counts such a preset. */
static int preset_group(struct ectx *c, struct pmu_span sp, const struct pmu_event_syntax *ev,
			int index, const struct pmurt_preset_info *info)
{
	char text[PMU_PRESET_GROUP_MAX];
	unsigned ex;
	int precise, first = c->list->n;
	if (ev->has_mods && pmu_grammar_modifiers(c->s, ev->mods, true, &ex, &precise, c->err))
		return -EINVAL;
	size_t n = 0;
	for (int k = 0; k < info->nevents && n < sizeof(text); k++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s", k ? "," : "{",
				      info->events[k]);
	if (n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n, "}%s%.*s", ev->has_mods ? ":" : "",
				      (int)ev->mods.len, c->s + ev->mods.off);
	if (n >= sizeof(text))
		return fail_at(c, -E2BIG, sp.off, sp.len, "preset '%s' at offset %zu has too long "
			       "an event list", info->name, sp.off);
	struct ectx group = *c;
	group.s = text;
	int rc = parse_items(&group, n);
	for (int i = first; !rc && i < c->list->n; i++) {
		c->list->v[i].preset = index;
		c->list->v[i].offset = sp.off;
		c->list->v[i].length = sp.len;
	}
	return rc;
}

/* A top-level event; a derived PAPI preset there is its events' group. */
static int top_event(struct ectx *c, struct pmu_span sp)
{
	struct pmu_event_syntax ev;
	struct pmurt_preset_info info = PMURT_OPTS_INIT(pmurt_preset_info);
	char name[128];
	if (!c->host->core || pmu_grammar_event(c->s, sp, &ev, NULL) || ev.wrapped ||
	    ev.body.len >= sizeof(name))
		return one_event(c, sp);
	copy_span(c->s, ev.body, name, sizeof(name));
	int index = pmurt_preset_find(c->host->core, name, &info, NULL);
	if (index < 0 || !info.derived)
		return one_event(c, sp);
	return preset_group(c, sp, &ev, index, &info);
}

/* --- the list ---------------------------------------------------------------------------- */

int pmu_evlist_parse(struct pmu_evlist *list, const struct pmu_host *host, const char *str,
		     struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct ectx c = {.list = list, .host = host, .s = str, .err = err};
	if (!list || !host || !str)
		return fail(&c, -EINVAL, "pmu_evlist_parse: missing argument");
	int before = list->n;
	int rc = parse_items(&c, strnlen(str, PMU_LIST_MAX_LEN + 1));
	if (rc)
		list->n = before;
	else
		list->nstrings++;
	return rc;
}

void pmu_evlist_free(struct pmu_evlist *list)
{
	free(list->v);
	*list = (struct pmu_evlist){0};
}
