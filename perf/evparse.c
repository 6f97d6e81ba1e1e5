/*
 * evparse.c - pmu_evlist_parse (evlist.h): perf's -e strings for every PMU.
 *
 *   A,B,C            events, each in its own group
 *   {A,B,C}[:MODS]   one group, A leading (perf's parse-events.y group rule)
 *   cpu/TERMS/MODS   the core PMU through the loaded description
 *   NAME[:MODS]      software, perf's generic/cache names, the description's
 *                    events, raw rHEX / 0xHEX, a sysfs alias of any PMU
 *   PMU/TERMS/MODS   any sysfs PMU: its format terms, config/config1/config2,
 *                    period=, name=, its event aliases (msr/tsc/)
 *   SYS:NAME         a tracepoint (its id from tracefs)
 *   NAME-MODE-COUNT  a DTrace cpc probe name of a software event (of the
 *                    core PMU's events: runtime/parse.c)
 *
 * Offsets in messages are 0-based bytes of the whole string.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "evlist.h"
#include "internal.h"
#include "perf_int.h"
#include "sysfs.h"

#define EVLIST_MAX_LEN 4095

struct ectx {
	struct pmu_evlist *list;
	const struct pmu_host *host;
	const char *s;
	size_t len;
	struct pmurt_error *err;
};

struct span {
	size_t off, len;
};

/* Sets the error (when the caller passed one) and gives its code. */
#define fail(c, code, ...) (pmurt_set_error((c)->err, (code), __VA_ARGS__), (code))

/* A part of the string for a message, at most 60 bytes. */
static const char *quote(const struct ectx *c, struct span sp, char buf[72])
{
	size_t n = sp.len < 60 ? sp.len : 60;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)c->s[sp.off + i];
		buf[i] = isprint(ch) ? (char)ch : '?';
	}
	strcpy(buf + n, n < sp.len ? "..." : "");
	return buf;
}

static void copy_span(const struct ectx *c, struct span sp, char *out, size_t size)
{
	size_t n = sp.len < size - 1 ? sp.len : size - 1;
	memcpy(out, c->s + sp.off, n);
	out[n] = 0;
}

static struct pmu_evsel *new_evsel(struct ectx *c, struct span sp, enum pmu_evsel_kind kind,
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
	copy_span(c, sp, e->name, sizeof(e->name));
	snprintf(e->pmu, sizeof(e->pmu), "%s", pmu);
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

/* perf's modifiers at sp (after the ':' or the closing '/'). */
static int apply_modifiers(struct ectx *c, struct pmu_evsel *e, struct span sp)
{
	unsigned ex;
	int precise;
	int rc = pmurt_parse_modifiers(c->s, sp.off, sp.len, &ex, &precise, c->err);
	if (!rc)
		set_exclude(&e->attr, ex, precise);
	return rc;
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

/* The last '-' in s[0, end), or -1. */
static long last_dash(const char *s, size_t end)
{
	while (end > 0)
		if (s[--end] == '-')
			return (long)end;
	return -1;
}

/* MODE of a cpc probe name: user -> exclude_kernel, kernel -> exclude_user,
 * all -> neither (runtime/parse.c cpc_mode, after Oracle Linux DTrace's
 * libdtrace/dt_prov_cpc.c decode_mode); -1 for another word. */
static int cpc_mode_word(const char *w, size_t n)
{
	if (n == 4 && !memcmp(w, "user", 4))
		return PMURT_EXCLUDE_KERNEL;
	if (n == 6 && !memcmp(w, "kernel", 6))
		return PMURT_EXCLUDE_USER;
	if (n == 3 && !memcmp(w, "all", 3))
		return 0;
	return -1;
}

/* Whether s[0, n) is a software event's name. */
static bool software_prefix(const char *s, size_t n)
{
	char name[64];
	if (n >= sizeof(name))
		return false;
	memcpy(name, s, n);
	name[n] = 0;
	return software_id(name) >= 0;
}

/* The DTrace cpc probe form on a software event, NAME-MODE-COUNT
 * (cpu-clock-user-20000; the core PMU's events are runtime/parse.c's):
 * COUNT the sample period, MODE the exclude bits.  A MASK has nowhere to
 * go on a software event and is refused.  1 when sp is not that form. */
static int software_cpc(struct ectx *c, struct span sp)
{
	const char *s = c->s + sp.off;
	char q[72];
	long d3 = last_dash(s, sp.len), d2 = d3 > 0 ? last_dash(s, (size_t)d3) : -1;
	size_t count_len = d3 >= 0 ? sp.len - (size_t)d3 - 1 : 0;
	if (d2 <= 0 || !count_len || strspn(s + d3 + 1, "0123456789") < count_len)
		return 1;
	int ex = cpc_mode_word(s + d2 + 1, (size_t)(d3 - d2 - 1));
	if (ex < 0) {
		long d1 = last_dash(s, (size_t)d2);
		if (d1 > 0 && cpc_mode_word(s + d1 + 1, (size_t)(d2 - d1 - 1)) >= 0 &&
		    software_prefix(s, (size_t)d1))
			return fail(c, -EINVAL, "cpc mask '%.*s' at offset %zu: only the PMU's own "
				    "events take a mask, not software event '%.*s'", (int)(d3 - d2 - 1),
				    s + d2 + 1, sp.off + (size_t)d2 + 1, (int)d1, s);
		return 1;
	}
	if (!software_prefix(s, (size_t)d2))
		return 1;
	errno = 0;
	char *end;
	unsigned long long count = strtoull(s + d3 + 1, &end, 10);
	if (errno || end != s + sp.len)
		return fail(c, -EINVAL, "cpc count '%s' at offset %zu is larger than 64 bits",
			    quote(c, (struct span){sp.off + (size_t)d3 + 1, count_len}, q),
			    sp.off + (size_t)d3 + 1);
	if (!count)
		return fail(c, -EINVAL, "cpc count '0' at offset %zu must be at least 1",
			    sp.off + (size_t)d3 + 1);
	char name[64];
	memcpy(name, s, (size_t)d2);
	name[d2] = 0;
	struct pmu_evsel *e = new_evsel(c, sp, PMU_EVSEL_SOFTWARE, "software");
	if (!e)
		return no_memory(c);
	software_event(e, software_id(name));
	set_exclude(&e->attr, (unsigned)ex, 0);
	e->attr.sample_period = count;
	c->list->n++;
	return 0;
}

/* --- the core PMU ------------------------------------------------------------ */

static void core_attr(struct pmu_evsel *e, const struct pmurt_event_spec *spec)
{
	e->spec = *spec;
	e->attr.type = spec->type;
	e->attr.config = spec->config;
	e->attr.config1 = spec->config1;
	e->attr.sample_period = spec->sample_period;
	set_exclude(&e->attr, spec->exclude, spec->precise);
}

static int core_event(struct ectx *c, struct span sp)
{
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	int rc = pmurt_parse_event_at(c->host->core, c->s, sp.off, sp.len, &spec, c->err);
	if (rc)
		return rc;
	enum pmu_evsel_kind kind = spec.type == PERF_TYPE_HARDWARE   ? PMU_EVSEL_HARDWARE
				   : spec.type == PERF_TYPE_HW_CACHE ? PMU_EVSEL_CACHE
								     : PMU_EVSEL_CORE;
	struct pmu_evsel *e = new_evsel(c, sp, kind, "cpu");
	if (!e)
		return no_memory(c);
	core_attr(e, &spec);
	c->list->n++;
	return 0;
}

/* --- sysfs PMUs ---------------------------------------------------------------- */

/* A term list: config=/config1=/config2= give whole words (base), format
 * terms their bits (set, words), which win whatever the order, as perf
 * applies format terms after config terms (util/pmu.c). */
struct sysfs_terms {
	uint64_t base[3], set[3], words[3];
	uint64_t period;
};

static int sysfs_term(struct ectx *c, const struct pmu_sysfs *pmu, struct pmu_evsel *e,
		      struct sysfs_terms *t, const char *term, size_t at, int depth);

/* An alias's terms ("event=0x07,umask=1"), applied in order. */
static int sysfs_alias_terms(struct ectx *c, const struct pmu_sysfs *pmu, struct pmu_evsel *e,
			     struct sysfs_terms *t, const char *alias, size_t at, int depth)
{
	char terms[256], unit[32];
	double scale;
	if (depth > 0 || pmu_sysfs_alias(c->host->sysfs, pmu, alias, terms, sizeof(terms), &scale,
					 unit))
		return -ENOENT;
	e->scale = scale;
	snprintf(e->unit, sizeof(e->unit), "%s", unit);
	for (char *save = NULL, *tok = strtok_r(terms, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int rc = sysfs_term(c, pmu, e, t, tok, at, depth + 1);
		if (rc)
			return rc == -ENOENT ? fail(c, -EINVAL, "%s/events/%s: unknown term '%s'",
						    pmu->name, alias, tok) : rc;
	}
	return 0;
}

static int parse_u64(const char *p, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(p, &end, 0);
	if (end == p || *end || errno || *p == '-')
		return -EINVAL;
	*v = x;
	return 0;
}

/* One term at offset at: KEY=VALUE, a format term alone (=1), an alias. */
static int sysfs_term(struct ectx *c, const struct pmu_sysfs *pmu, struct pmu_evsel *e,
		      struct sysfs_terms *t, const char *term, size_t at, int depth)
{
	char key[64];
	const char *eq = strchr(term, '=');
	size_t kl = eq ? (size_t)(eq - term) : strlen(term);
	if (!kl || kl >= sizeof(key))
		return fail(c, -EINVAL, "bad term '%s' at offset %zu", term, at);
	memcpy(key, term, kl);
	key[kl] = 0;
	uint64_t v = 1;
	if (eq && strcmp(key, "name") == 0) {
		snprintf(e->name, sizeof(e->name), "%s", eq + 1);
		return 0;
	}
	if (eq && parse_u64(eq + 1, &v))
		return fail(c, -EINVAL, "bad value '%s' for '%s' at offset %zu (decimal or 0x hex)",
			    eq + 1, key, at + kl + 1);
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
	if (f) {
		if (pmu_format_apply(f, v, t->words))
			return fail(c, -EINVAL, "value 0x%" PRIx64 " for '%s' at offset %zu does not fit "
				    "%s's format %s (%d bits)", v, key, at, pmu->name, key,
				    __builtin_popcountll(f->bits));
		t->set[f->word] |= f->bits;
		return 0;
	}
	int rc = eq ? -ENOENT : sysfs_alias_terms(c, pmu, e, t, key, at, depth);
	if (rc != -ENOENT)
		return rc;
	return depth ? -ENOENT
		     : fail(c, -EINVAL, "unknown term '%s' at offset %zu for PMU %s (not a format "
			    "term of %s/format, an event of %s/events, config, config1, config2, "
			    "period or name)", key, at, pmu->name, pmu->name, pmu->name);
}

static int load_pmu(struct ectx *c, const char *name, struct pmu_sysfs *pmu, size_t at)
{
	int rc = pmu_sysfs_load(c->host->sysfs, name, pmu, c->err);
	if (rc == -ENOENT)
		return fail(c, -ENOENT, "unknown PMU '%s' at offset %zu (no %s/bus/event_source/"
			    "devices/%s)", name, at, c->host->sysfs, name);
	if (rc && !(c->err && c->err->code))
		return fail(c, rc, "PMU '%s' at offset %zu: %s", name, at, strerror(-rc));
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

/* PMU/TERMS/[:]MODS with the PMU in sysfs. */
static int sysfs_wrapped(struct ectx *c, struct span sp, struct span name, struct span terms)
{
	char pname[64], term[256];
	struct pmu_sysfs pmu;
	copy_span(c, name, pname, sizeof(pname));
	int rc = load_pmu(c, pname, &pmu, name.off);
	if (rc)
		return rc;
	struct pmu_evsel *e = new_evsel(c, sp, PMU_EVSEL_SYSFS, pname);
	if (!e)
		return no_memory(c);
	struct sysfs_terms t = {.period = 0};
	size_t start = terms.off, end = terms.off + terms.len;
	while (terms.len && start <= end) {
		const char *comma = memchr(c->s + start, ',', end - start);
		size_t stop = comma ? (size_t)(comma - c->s) : end;
		if (stop == start || stop - start >= sizeof(term))
			return fail(c, -EINVAL, "empty or too long term at offset %zu", start);
		copy_span(c, (struct span){start, stop - start}, term, sizeof(term));
		if ((rc = sysfs_term(c, &pmu, e, &t, term, start, 0)) != 0)
			return rc;
		start = stop + 1;
	}
	sysfs_attr(e, &pmu, &t);
	size_t after = terms.off + terms.len + 1, stop = sp.off + sp.len;
	if (after < stop) {
		after += c->s[after] == ':';
		if ((rc = apply_modifiers(c, e, (struct span){after, stop - after})) != 0)
			return rc;
	}
	c->list->n++;
	return 0;
}

/* PMU/TERMS/...: the core PMU through the description, others through sysfs. */
static int wrapped_event(struct ectx *c, struct span sp, size_t slash)
{
	char q[72];
	struct span name = {sp.off, slash - sp.off};
	const char *close = memchr(c->s + slash + 1, '/', sp.off + sp.len - slash - 1);
	if (!name.len)
		return fail(c, -EINVAL, "no PMU name before the '/' at offset %zu", slash);
	if (!close)
		return fail(c, -EINVAL, "no closing '/' for the term list opened at offset %zu", slash);
	if (c->host->core && name.len == 3 && memcmp(c->s + name.off, "cpu", 3) == 0)
		return core_event(c, sp);
	for (size_t i = 0; i < name.len; i++) {
		unsigned char ch = (unsigned char)c->s[name.off + i];
		if (!isalnum(ch) && ch != '_' && ch != '-' && ch != '.')
			return fail(c, -EINVAL, "bad PMU name '%s' at offset %zu", quote(c, name, q),
				    name.off);
	}
	size_t end = (size_t)(close - c->s);
	return sysfs_wrapped(c, sp, name, (struct span){slash + 1, end - slash - 1});
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

static int bare_alias(struct ectx *c, struct span sp, struct span body)
{
	char alias[256];
	copy_span(c, body, alias, sizeof(alias));
	if (strchr(alias, '/') || alias[0] == '.')
		return -ENOENT;
	struct alias_search a = {.sysfs = c->host->sysfs, .alias = alias};
	if (pmu_sysfs_each(c->host->sysfs, has_alias, &a) <= 0)
		return -ENOENT;
	struct pmu_sysfs pmu;
	int rc = load_pmu(c, a.found, &pmu, sp.off);
	if (rc)
		return rc;
	struct pmu_evsel *e = new_evsel(c, sp, PMU_EVSEL_SYSFS, a.found);
	if (!e)
		return no_memory(c);
	struct sysfs_terms t = {.period = 0};
	if ((rc = sysfs_alias_terms(c, &pmu, e, &t, alias, body.off, 0)) != 0)
		return rc;
	sysfs_attr(e, &pmu, &t);
	size_t stop = sp.off + sp.len, after = body.off + body.len + 1;
	if (after <= stop && (rc = apply_modifiers(c, e, (struct span){after, stop - after})))
		return rc;
	c->list->n++;
	return 0;
}

/* --- tracepoints ------------------------------------------------------------------ */

static bool tracefs_has(const struct pmu_host *h, const char *sys, const char *name)
{
	char path[800];
	struct stat st;
	snprintf(path, sizeof(path), "%s/events/%s%s%s", h->tracefs, sys, name ? "/" : "",
		 name ? name : "");
	return h->tracefs[0] && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* SYS:NAME[:MODS]; colon is the first ':'. */
static int tracepoint(struct ectx *c, struct span sp, size_t colon)
{
	char sys[128], name[128], path[800], text[32], q[72];
	struct span ssys = {sp.off, colon - sp.off};
	const char *c2 = memchr(c->s + colon + 1, ':', sp.off + sp.len - colon - 1);
	size_t nend = c2 ? (size_t)(c2 - c->s) : sp.off + sp.len;
	struct span sname = {colon + 1, nend - colon - 1};
	copy_span(c, ssys, sys, sizeof(sys));
	copy_span(c, sname, name, sizeof(name));
	if (!c->host->tracefs[0])
		return fail(c, -ENOENT, "tracepoint '%s' at offset %zu: no tracefs (looked in "
			    "/sys/kernel/tracing and /sys/kernel/debug/tracing; mount tracefs or "
			    "give --tracefs)", quote(c, sp, q), sp.off);
	if (!sname.len || strchr(sys, '/') || strchr(name, '/') || !tracefs_has(c->host, sys, name))
		return fail(c, -ENOENT, "unknown tracepoint '%s:%s' at offset %zu (no %s/events/%s/%s)",
			    sys, name, sp.off, c->host->tracefs, sys, name);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", c->host->tracefs, sys, name);
	uint64_t id;
	int rc = pmu_read_small(path, text, sizeof(text));
	if (rc || parse_u64(text, &id))
		return fail(c, rc ? rc : -EINVAL, "tracepoint %s:%s: cannot read its id from %s", sys,
			    name, path);
	struct pmu_evsel *e = new_evsel(c, sp, PMU_EVSEL_TRACEPOINT, "tracepoint");
	if (!e)
		return no_memory(c);
	e->attr.type = PERF_TYPE_TRACEPOINT;
	e->attr.config = id;
	if (c2 && (rc = apply_modifiers(c, e, (struct span){nend + 1, sp.off + sp.len - nend - 1})))
		return rc;
	c->list->n++;
	return 0;
}

static int software_id(const char *name);
static bool is_raw_code(const char *name, uint64_t *code);

/* A name some PMU knows: then a ':' after it starts modifiers. */
static bool known_name(const struct ectx *c, struct span body, const char *name)
{
	uint32_t type;
	uint64_t config;
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	return software_id(name) >= 0 || pmurt_perf_legacy_event(name, &type, &config) == 0 ||
	       is_raw_code(name, &config) ||
	       (c->host->core &&
		pmurt_parse_event_at(c->host->core, c->s, body.off, body.len, &spec, NULL) == 0);
}

/* A ':' starts a tracepoint when the part before it is a tracefs subsystem,
 * or no event's name and the part after it is not made of modifier letters. */
static bool is_tracepoint(const struct ectx *c, struct span sp, size_t colon)
{
	char sys[128];
	struct span body = {sp.off, colon - sp.off};
	copy_span(c, body, sys, sizeof(sys));
	if (tracefs_has(c->host, sys, NULL))
		return true;
	if (known_name(c, body, sys))
		return false;
	for (size_t i = colon + 1; i < sp.off + sp.len; i++)
		if (!strchr("ukhIpGHPSDWeb", c->s[i]))
			return true;
	return false;
}

/* --- names without a description ------------------------------------------------- */

/* perf's rHEX (at most 16 digits). */
static bool is_raw_code(const char *name, uint64_t *code)
{
	size_t n = strlen(name);
	if (name[0] != 'r' || n < 2 || n > 17 || strspn(name + 1, "0123456789abcdefABCDEF") != n - 1)
		return false;
	*code = strtoull(name + 1, NULL, 16);
	return true;
}

static int legacy_event(struct ectx *c, struct span sp, struct span body)
{
	char name[256];
	uint32_t type;
	uint64_t config;
	copy_span(c, body, name, sizeof(name));
	int rc = pmurt_perf_legacy_event(name, &type, &config);
	if (rc == -ENOENT && is_raw_code(name, &config)) {
		rc = 0;
		type = PERF_TYPE_RAW;
	}
	if (rc == -EINVAL)
		return fail(c, -EINVAL, "cache event '%s' at offset %zu: perf accepts no such "
			    "operation on this cache", name, body.off);
	if (rc)
		return rc;
	struct pmu_evsel *e = new_evsel(c, sp, type == PERF_TYPE_HARDWARE ? PMU_EVSEL_HARDWARE
					: type == PERF_TYPE_HW_CACHE ? PMU_EVSEL_CACHE
								     : PMU_EVSEL_CORE, "cpu");
	if (!e)
		return no_memory(c);
	e->attr.type = type;
	e->attr.config = config;
	size_t stop = sp.off + sp.len, after = body.off + body.len + 1;
	if (after <= stop && (rc = apply_modifiers(c, e, (struct span){after, stop - after})))
		return rc;
	c->list->n++;
	return 0;
}

/* A name nothing knows: with a core description, its message (with the
 * nearest name); without, what the host pick looked for. */
static int unknown_name(struct ectx *c, struct span sp, struct span body)
{
	char q[72];
	if (c->host->core)
		return pmurt_parse_event_at(c->host->core, c->s, sp.off, sp.len,
					    &(struct pmurt_event_spec){.sz = sizeof(struct
										    pmurt_event_spec)},
					    c->err);
	return fail(c, -ENOENT, "unknown event '%s' at offset %zu: not a software, generic, cache "
		    "or sysfs event, and no core PMU description is loaded (%s)", quote(c, body, q),
		    body.off, c->host->pick[0] ? c->host->pick : "give --pmu");
}

static int named_event(struct ectx *c, struct span sp)
{
	char name[256];
	const char *colon = memchr(c->s + sp.off, ':', sp.len);
	struct span body = {sp.off, colon ? (size_t)(colon - c->s) - sp.off : sp.len};
	if (colon && is_tracepoint(c, sp, (size_t)(colon - c->s)))
		return tracepoint(c, sp, (size_t)(colon - c->s));
	copy_span(c, body, name, sizeof(name));
	int sw = body.len < sizeof(name) ? software_id(name) : -1;
	if (sw >= 0) {
		struct pmu_evsel *e = new_evsel(c, sp, PMU_EVSEL_SOFTWARE, "software");
		if (!e)
			return no_memory(c);
		software_event(e, sw);
		if (colon) {
			int rc = apply_modifiers(c, e, (struct span){body.off + body.len + 1,
								     sp.len - body.len - 1});
			if (rc)
				return rc;
		}
		c->list->n++;
		return 0;
	}
	if (!colon) {
		int rc = software_cpc(c, sp);
		if (rc <= 0)
			return rc;
	}
	if (c->host->core) {
		int rc = pmurt_parse_event_at(c->host->core, c->s, sp.off, sp.len,
					      &(struct pmurt_event_spec){.sz = sizeof(struct
										      pmurt_event_spec)},
					      NULL);
		if (rc != -ENOENT)
			return core_event(c, sp);
	} else {
		int rc = legacy_event(c, sp, body);
		if (rc != -ENOENT)
			return rc;
	}
	int rc = bare_alias(c, sp, body);
	return rc == -ENOENT ? unknown_name(c, sp, body) : rc;
}

static int one_event(struct ectx *c, struct span sp)
{
	char q[72];
	if (!sp.len)
		return fail(c, -EINVAL, "empty event at offset %zu", sp.off);
	if (isspace((unsigned char)c->s[sp.off]) || isspace((unsigned char)c->s[sp.off + sp.len - 1]))
		return fail(c, -EINVAL, "blank around the event '%s' at offset %zu", quote(c, sp, q),
			    sp.off);
	const char *slash = memchr(c->s + sp.off, '/', sp.len);
	if (slash)
		return wrapped_event(c, sp, (size_t)(slash - c->s));
	return named_event(c, sp);
}

/* --- lists and groups ------------------------------------------------------------------ */

/* The end of the event at off: the first ',' or '}' outside a PMU's term
 * list ("cpu/a=1,b=2/"). */
static size_t event_end(const struct ectx *c, size_t off)
{
	bool in_terms = false;
	for (size_t i = off; i < c->len; i++) {
		char ch = c->s[i];
		if (ch == '/')
			in_terms = !in_terms;
		else if (!in_terms && (ch == ',' || ch == '}' || ch == '{'))
			return i;
	}
	return c->len;
}

/* Group modifiers ({A,B}:u) apply to members that have none of their own. */
static int group_modifiers(struct ectx *c, int first, struct span mods)
{
	unsigned ex;
	int precise;
	int rc = pmurt_parse_modifiers(c->s, mods.off, mods.len, &ex, &precise, c->err);
	for (int i = first; !rc && i < c->list->n; i++) {
		struct perf_event_attr *a = &c->list->v[i].attr;
		if (!a->exclude_user && !a->exclude_kernel && !a->exclude_hv && !a->exclude_idle)
			set_exclude(a, ex, a->precise_ip > (unsigned)precise ? (int)a->precise_ip
									     : precise);
	}
	return rc;
}

/* {A,B,...}[:MODS] at c->s[off] == '{'; *next: just past it. */
static int group(struct ectx *c, size_t off, size_t *next)
{
	int first = c->list->n;
	size_t p = off + 1;
	for (;;) {
		size_t end = event_end(c, p);
		if (end < c->len && c->s[end] == '{')
			return fail(c, -EINVAL, "group inside a group at offset %zu", end);
		int rc = one_event(c, (struct span){p, end - p});
		if (rc)
			return rc;
		if (end == c->len)
			return fail(c, -EINVAL, "no '}' for the group opened at offset %zu", off);
		p = end + 1;
		if (c->s[end] == '}')
			break;
	}
	if (c->list->n - first > PMURT_MAX_GROUP)
		return fail(c, -EINVAL, "group at offset %zu has %d events (at most %d)", off,
			    c->list->n - first, PMURT_MAX_GROUP);
	for (int i = first; i < c->list->n; i++)
		c->list->v[i].leader = first;
	c->list->v[first].group_size = c->list->n - first;
	if (p < c->len && c->s[p] == ':') {
		size_t end = event_end(c, p + 1);
		int rc = group_modifiers(c, first, (struct span){p + 1, end - p - 1});
		if (rc)
			return rc;
		p = end;
	}
	*next = p;
	return 0;
}

int pmu_evlist_parse_at(struct pmu_evlist *list, const struct pmu_host *host, const char *str,
			size_t start, size_t len, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	struct ectx c = {.list = list, .host = host, .s = str, .len = start + len, .err = err};
	if (!list || !host || !str)
		return fail(&c, -EINVAL, "pmu_evlist_parse: missing argument");
	if (len > EVLIST_MAX_LEN)
		return fail(&c, -EINVAL, "event list longer than %d characters", EVLIST_MAX_LEN);
	int before = list->n;
	size_t p = start;
	int rc = 0;
	while (!rc) {
		size_t end = c.len;
		if (p < c.len && str[p] == '{') {
			rc = group(&c, p, &end);
		} else {
			end = event_end(&c, p);
			if (end < c.len && str[end] != ',')
				rc = fail(&c, -EINVAL, "unexpected '%c' at offset %zu", str[end], end);
			else
				rc = one_event(&c, (struct span){p, end - p});
		}
		if (rc || end >= c.len)
			break;
		if (str[end] != ',')
			rc = fail(&c, -EINVAL, "expected ',' at offset %zu", end);
		p = end + 1;
		if (!rc && p == c.len)
			rc = fail(&c, -EINVAL, "empty event at offset %zu", p);
	}
	if (rc)
		list->n = before;
	return rc;
}

int pmu_evlist_parse(struct pmu_evlist *list, const struct pmu_host *host, const char *str,
		     struct pmurt_error *err)
{
	return pmu_evlist_parse_at(list, host, str, 0, str ? strnlen(str, EVLIST_MAX_LEN + 1) : 0,
				   err);
}

void pmu_evlist_free(struct pmu_evlist *list)
{
	free(list->v);
	*list = (struct pmu_evlist){0};
}
