/*
 * parse.c - pmurt_parse_event: the meaning of an event string for the core
 * PMU, resolved against the description alone.  The grammar (which part is
 * a name, a term list, modifiers or the cpc form) is evgrammar.c's; here
 * are what the parts mean: event names, field names and the generic and
 * cache maps come from struct pmu_model; only perf's ABI (type numbers, the
 * generic and cache spellings and encodings) is written down here.
 *
 * Forms this side gives a meaning (one event per string; offsets in
 * messages are 0-based bytes):
 *   NAME[:MODS]                 a named event (any case), a perf generic
 *                               event ("cycles") or cache event
 *                               ("L1-dcache-load-misses"), a PAPI preset
 *   0xHEX[:MODS]  rHEX[:MODS]   a raw code
 *   TERM,TERM...[:MODS]         terms: FIELD=N, event=N, config=N,
 *                               config1=N, period=N, name=S, an event name
 *                               (the base code), a field name (=1)
 *   PMU/TERM,.../[MODS|:MODS]   the same terms in perf's PMU wrapper
 *   NAME-MODE[-MASK]-COUNT      a DTrace cpc probe name
 *
 * The common path allocates nothing: parts of the string are (offset,
 * length) spans, and names are copied into bounded stack buffers for the
 * NUL-terminated look-ups.
 */
#define _GNU_SOURCE /* strchrnul */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "evgrammar.h"
#include "internal.h"
#include "name_lookup.h"

#define PARSE_MAX_LEN 1023  /* longest event string */
#define NAME_MAX_LEN 255    /* longest name looked up */

struct pctx {
	const struct pmurt_pmu *pmu;
	const char *s;   /* the whole string */
	struct pmurt_error *err;
	struct pmurt_event_spec out;
	bool sample_read;   /* S taken (an event list's event) */
};

/* --- perf's names ---------------------------------------------------------
 * tools/perf/util/parse-events.c event_symbols_hw[]: each PERF_COUNT_HW_*
 * event's symbol and alias. */
static const struct {
	const char *symbol, *alias;
} perf_hw[] = {
	[PERF_COUNT_HW_CPU_CYCLES] = {"cpu-cycles", "cycles"},
	[PERF_COUNT_HW_INSTRUCTIONS] = {"instructions", NULL},
	[PERF_COUNT_HW_CACHE_REFERENCES] = {"cache-references", NULL},
	[PERF_COUNT_HW_CACHE_MISSES] = {"cache-misses", NULL},
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = {"branch-instructions", "branches"},
	[PERF_COUNT_HW_BRANCH_MISSES] = {"branch-misses", NULL},
	[PERF_COUNT_HW_BUS_CYCLES] = {"bus-cycles", NULL},
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = {"stalled-cycles-frontend", "idle-cycles-frontend"},
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = {"stalled-cycles-backend", "idle-cycles-backend"},
	[PERF_COUNT_HW_REF_CPU_CYCLES] = {"ref-cycles", NULL},
};
#define NPERF_HW ((int)(sizeof(perf_hw) / sizeof(perf_hw[0])))

/* tools/perf/util/evsel.c evsel__hw_cache, evsel__hw_cache_op,
 * evsel__hw_cache_result: PERF_COUNT_HW_CACHE_* order (the model's
 * PMU_CACHE_*, PMU_OP_*, PMU_RESULT_* follow it), the first entry canonical. */
_Static_assert((int)PMU_CACHE_NODE == (int)PERF_COUNT_HW_CACHE_NODE &&
	       (int)PMU_OP_PREFETCH == (int)PERF_COUNT_HW_CACHE_OP_PREFETCH &&
	       (int)PMU_RESULT_MISS == (int)PERF_COUNT_HW_CACHE_RESULT_MISS,
	       "the model's cache indices are perf's");
#define CACHE_ALIASES 5
typedef const char *const alias_row[CACHE_ALIASES];

static alias_row hw_cache[PMU_CACHE_NTYPES] = {
	{"L1-dcache", "l1-d", "l1d", "L1-data"},
	{"L1-icache", "l1-i", "l1i", "L1-instruction"},
	{"LLC", "L2"},
	{"dTLB", "d-tlb", "Data-TLB"},
	{"iTLB", "i-tlb", "Instruction-TLB"},
	{"branch", "branches", "bpu", "btb", "bpc"},
	{"node"},
};
/* The first letters of hw_cache's names: a quick "not a cache name". */
#define CACHE_FIRST_LETTERS "LldDiIbn"
static alias_row hw_cache_op[PMU_OP_NTYPES] = {
	{"load", "loads", "read"},
	{"store", "stores", "write"},
	{"prefetch", "prefetches", "speculative-read", "speculative-load"},
};
static alias_row hw_cache_result[PMU_RESULT_NTYPES] = {
	{"refs", "Reference", "ops", "access"},
	{"misses", "miss"},
};
/* evsel.c evsel__hw_cache_stat: the ops perf accepts per cache (bit = op);
 * L1I read and prefetch only, ITLB and BPU read only. */
static const unsigned hw_cache_ops_valid[PMU_CACHE_NTYPES] = {7, 5, 7, 7, 1, 1, 7};

/* --- messages -------------------------------------------------------------- */

static const char *pmu_label(const struct pctx *c)
{
	return c->pmu->model.name ? c->pmu->model.name : "this PMU";
}

/* A part of the string for a message: bounded, non-printing bytes as '?'. */
static const char *quote(const struct pctx *c, struct pmu_span sp, char buf[PMU_QUOTE_MAX + 4])
{
	return pmu_grammar_quote(c->s, sp, buf);
}

static int fail(struct pctx *c, int code, struct pmu_span at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The error about the bytes at of the string.  Without an error object no
 * message is formatted (nor, by the callers, any suggestion searched for). */
static int fail(struct pctx *c, int code, struct pmu_span at, const char *fmt, ...)
{
	if (!c->err)
		return code;
	char msg[sizeof(c->err->message)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pmurt_set_error_at(c->err, code, at.off, at.len, "%s", msg);
	return code;
}

/* ", did you mean" text for a message ("" when nothing is close). */
static const char *did_you_mean(const struct pmurt_nearest *n, char *out, size_t len)
{
	if (n->buf[0])
		snprintf(out, len, "; did you mean '%s'?", n->buf);
	else
		out[0] = 0;
	return out;
}

/* --- names ----------------------------------------------------------------- */

/* Why a name did not resolve (0: it did). */
enum resolve_fail {
	RF_NOT_MINE = -1,    /* internal: not this kind of name */
	RF_OK = 0,
	RF_NOTFOUND,
	RF_BADHEX,
	RF_BIG,
	RF_GENERIC,          /* map state says unsupported/invalid */
	RF_CACHE_PERF,       /* perf refuses the op for the cache */
	RF_CACHE,            /* map state says unsupported/invalid */
	RF_NO_CACHE_MAP,
	RF_DERIVED,          /* a derived preset: no single event */
};

struct resolved {
	uint32_t type;
	uint64_t config, code;
	int event_index;
	bool legacy;               /* a generic or cache event */
	enum pmu_map_state state;  /* RF_GENERIC, RF_CACHE */
	int cache[3];              /* type, op, result */
	char name[64];
	int preset;                /* RF_DERIVED: the preset's index */
};

static void copy_name(char dst[64], const char *src, size_t n)
{
	if (n > 63)
		n = 63;
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* "0x" and the code in lower-case hex (printf's %#lx, without printf). */
static void hex_name(char out[64], uint64_t v)
{
	char digits[16];
	int n = 0;
	do {
		digits[n++] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v);
	out[0] = '0', out[1] = 'x';
	for (int i = 0; i < n; i++)
		out[2 + i] = digits[n - 1 - i];
	out[2 + n] = 0;
}

static void set_raw(struct resolved *r, uint64_t code)
{
	*r = (struct resolved){.type = PERF_TYPE_RAW, .config = code, .code = code,
			       .event_index = -1};
	hex_name(r->name, code);
}

static int resolve_hex_code(const char *digits, size_t n, struct resolved *r)
{
	uint64_t v;
	int rc = pmu_grammar_hex(digits, n, &v);
	if (rc == -ERANGE)
		return RF_BIG;
	if (rc)
		return RF_BADHEX;
	set_raw(r, v);
	return RF_OK;
}

/* The first letters of perf_hw's names: a quick "not a generic name". */
#define HW_FIRST_LETTERS "bcirs"

static bool perf_hw_is(int id, const char *name)
{
	const char *sym = perf_hw[id].symbol, *alias = perf_hw[id].alias;
	return (sym[0] == name[0] && strcmp(name, sym) == 0) ||
	       (alias && alias[0] == name[0] && strcmp(name, alias) == 0);
}

/* perf's generic hardware names, spelled exactly (perf's lexer is
 * case-sensitive for them), through the description's generic map. */
static int resolve_generic(const struct pmu_model *m, const char *name, struct resolved *r)
{
	int id = 0;
	if (!name[0] || !strchr(HW_FIRST_LETTERS, name[0]))
		return RF_NOT_MINE;
	while (id < NPERF_HW && !perf_hw_is(id, name))
		id++;
	if (id == NPERF_HW)
		return RF_NOT_MINE;
	*r = (struct resolved){.type = PERF_TYPE_HARDWARE, .config = (uint64_t)id,
			       .event_index = -1, .legacy = true,
			       .state = PMU_MAP_UNSUPPORTED};
	for (int i = 0; i < m->ngeneric; i++) {
		const struct pmu_generic *g = &m->generic[i];
		if (!g->name || !perf_hw_is(id, g->name))
			continue;
		copy_name(r->name, g->name, strlen(g->name));
		r->state = g->state;
		if (g->state != PMU_MAP_SUPPORTED)
			return RF_GENERIC;
		r->code = g->code;
		return RF_OK;
	}
	copy_name(r->name, perf_hw[id].symbol, strlen(perf_hw[id].symbol));
	return RF_GENERIC; /* the description maps no such generic event */
}

/* The row of the longest alias that s starts with, followed by '-' or the
 * end (perf's lexer tokens, exact case); -1 if none. */
static int cache_token(const char *s, alias_row *rows, int nrows, size_t *len)
{
	int row = -1;
	size_t best = 0;
	for (int i = 0; i < nrows; i++)
		for (int j = 0; j < CACHE_ALIASES && rows[i][j]; j++) {
			if (rows[i][j][0] != s[0])
				continue;
			size_t n = strlen(rows[i][j]);
			if (n > best && strncmp(s, rows[i][j], n) == 0 &&
			    (s[n] == 0 || s[n] == '-')) {
				best = n;
				row = i;
			}
		}
	*len = best;
	return row;
}

/* One op-or-result word of a cache name: kind 0 op, 1 result. */
static int cache_word(const char *s, int *kind, size_t *len)
{
	size_t lop, lres;
	int op = cache_token(s, hw_cache_op, PMU_OP_NTYPES, &lop);
	int res = cache_token(s, hw_cache_result, PMU_RESULT_NTYPES, &lres);
	if (op >= 0 && lop >= lres) {
		*kind = 0, *len = lop;
		return op;
	}
	*kind = 1, *len = lres;
	return res;
}

/*
 * perf's legacy cache names.  The lexer (tools/perf/util/parse-events.l
 * lc_type, lc_op_result) takes TYPE, TYPE-W or TYPE-W-W, words spelled
 * exactly; parse_events__decode_legacy_cache() (parse-events.c) then reads
 * the first word as an op, else a result, and the second as whichever is
 * still missing, so the first op and the first result count and a second
 * word of a kind already given is ignored, as in perf
 * ("L1-dcache-load-store" is L1-dcache-loads).  The op defaults to read,
 * the result to access; an op evsel__is_cache_op_valid() refuses is an
 * error.
 */
static int decode_cache(const char *name, int cache[3])
{
	size_t n;
	if (!name[0] || !strchr(CACHE_FIRST_LETTERS, name[0]))
		return RF_NOT_MINE;
	int type = cache_token(name, hw_cache, PMU_CACHE_NTYPES, &n);
	if (type < 0)
		return RF_NOT_MINE;
	int word[2], kind[2], nwords = 0;
	const char *p = name + n;
	while (*p && nwords < 2) {
		word[nwords] = cache_word(p + 1, &kind[nwords], &n);
		if (word[nwords] < 0)
			return RF_NOT_MINE;
		p += n + 1;
		nwords++;
	}
	if (*p)
		return RF_NOT_MINE;
	int op = -1, res = -1;
	for (int i = 0; i < nwords; i++) {
		if (kind[i] == 0 && op < 0)
			op = word[i];
		else if (kind[i] == 1 && res < 0)
			res = word[i];
	}
	if (op >= 0 && !(hw_cache_ops_valid[type] >> op & 1)) {
		cache[0] = type, cache[1] = op, cache[2] = 0;
		return RF_CACHE_PERF;
	}
	cache[0] = type;
	cache[1] = op < 0 ? PMU_OP_READ : op;
	cache[2] = res < 0 ? PMU_RESULT_ACCESS : res;
	return RF_OK;
}

/* Appends word to out[*n] (the names here are far shorter than 64). */
static void append(char out[64], size_t *n, const char *word)
{
	while (*word && *n < 63)
		out[(*n)++] = *word++;
	out[*n] = 0;
}

/* perf's name for a cache event (evsel.c __evsel__hw_cache_type_op_res_name):
 * "L1-dcache-load-misses", or with the access result "L1-dcache-loads". */
void pmurt_cache_name(const int cache[3], char out[64])
{
	size_t n = 0;
	append(out, &n, hw_cache[cache[0]][0]);
	append(out, &n, "-");
	append(out, &n, hw_cache_op[cache[1]][cache[2] ? 0 : 1]);
	if (cache[2]) {
		append(out, &n, "-");
		append(out, &n, hw_cache_result[cache[2]][0]);
	}
}

/* A cache name through the description's cache map, as hw_perf_cache_event()
 * (core-book3s.c) reads the kernel's table: no table -EINVAL, 0 -EOPNOTSUPP,
 * -1 -EINVAL. */
static int resolve_cache(const struct pmu_model *m, const char *name, struct resolved *r)
{
	int cache[3];
	int rc = decode_cache(name, cache);
	if (rc == RF_NOT_MINE)
		return rc;
	*r = (struct resolved){.type = PERF_TYPE_HW_CACHE, .event_index = -1, .legacy = true};
	memcpy(r->cache, cache, sizeof(cache));
	if (rc != RF_OK)
		return rc;
	r->config = (uint64_t)cache[0] | (uint64_t)cache[1] << 8 | (uint64_t)cache[2] << 16;
	pmurt_cache_name(cache, r->name);
	if (!m->has_cache_map)
		return RF_NO_CACHE_MAP;
	const struct pmu_cache_entry *e = &m->cache[cache[0]][cache[1]][cache[2]];
	r->state = e->state;
	if (e->state != PMU_MAP_SUPPORTED)
		return RF_CACHE;
	r->code = e->code;
	return RF_OK;
}

static int resolve_event(const struct pmurt_pmu *pmu, const char *name, size_t len,
			 struct resolved *r)
{
	int i = pmurt_lookup_name(pmu, name, len);
	if (i < 0)
		return RF_NOT_MINE;
	const struct pmu_event *e = &pmu->model.events[i];
	*r = (struct resolved){.type = PERF_TYPE_RAW, .config = e->code, .code = e->code,
			       .event_index = i};
	copy_name(r->name, e->name, len); /* it matched name, so it is len long */
	return RF_OK;
}

/* A PAPI preset (any case): a preset of one event resolves to that event's
 * code under the preset's name; a derived one is RF_DERIVED. */
static int resolve_preset(const struct pmurt_pmu *pmu, const char *name, struct resolved *r)
{
	int i = pmu_model_preset(&pmu->model, name);
	if (i < 0)
		return RF_NOT_MINE;
	const struct pmu_preset *p = &pmu->model.presets[i];
	int e = pmurt_lookup_name(pmu, p->events[0], strlen(p->events[0]));
	*r = (struct resolved){.type = PERF_TYPE_RAW, .config = p->codes[0], .code = p->codes[0],
			       .event_index = e < 0 ? -1 : e, .preset = i};
	copy_name(r->name, p->name, strlen(p->name));
	return p->kind == PMU_PRESET_EVENT ? RF_OK : RF_DERIVED;
}

/*
 * A name: 0xHEX, a perf generic name, a perf cache name, an event of the
 * description, rHEX (perf's raw syntax; after the event names, so that no
 * event name made of r and hex digits is hidden), a PAPI preset (last: the
 * miss path of everything else).  Generic and cache names
 * come before the description's events, as perf reads a bare "cycles" or
 * "branch-misses" as PERF_TYPE_HARDWARE; the PMU's own event of that name is
 * "cpu/branch-misses/" or any other case ("BRANCH-MISSES").
 */
static int resolve(const struct pctx *c, struct pmu_span sp, struct resolved *r)
{
	char buf[NAME_MAX_LEN + 1];
	if (sp.len > NAME_MAX_LEN)
		return RF_NOTFOUND;
	memcpy(buf, c->s + sp.off, sp.len);
	buf[sp.len] = 0;
	if (pmu_grammar_has_hex_prefix(buf, sp.len))
		return resolve_hex_code(buf + 2, sp.len - 2, r);
	int rc = resolve_generic(&c->pmu->model, buf, r);
	if (rc == RF_NOT_MINE)
		rc = resolve_cache(&c->pmu->model, buf, r);
	if (rc == RF_NOT_MINE)
		rc = resolve_event(c->pmu, buf, sp.len, r);
	if (rc == RF_NOT_MINE && buf[0] == 'r' && pmu_grammar_all_hex(buf + 1, sp.len - 1))
		rc = resolve_hex_code(buf + 1, sp.len - 1, r);
	if (rc == RF_NOT_MINE)
		rc = resolve_preset(c->pmu, buf, r);
	return rc == RF_NOT_MINE ? RF_NOTFOUND : rc;
}

/* The generic and cache names the description supports. */
static void nearest_legacy(const struct pmu_model *m, struct pmurt_nearest *n)
{
	for (int i = 0; i < m->ngeneric; i++)
		if (m->generic[i].state == PMU_MAP_SUPPORTED)
			pmurt_nearest_try(n, m->generic[i].name);
	if (!m->has_cache_map)
		return;
	for (int t = 0; t < PMU_CACHE_NTYPES; t++)
		for (int o = 0; o < PMU_OP_NTYPES; o++)
			for (int res = 0; res < PMU_RESULT_NTYPES; res++) {
				int cache[3] = {t, o, res};
				char name[64];
				if (m->cache[t][o][res].state != PMU_MAP_SUPPORTED ||
				    !(hw_cache_ops_valid[t] >> o & 1))
					continue;
				pmurt_cache_name(cache, name);
				pmurt_nearest_try(n, name);
			}
}

/* Suggestions for an unknown name: the description's events and the
 * generic and cache names it supports, searched for only when an error
 * object will carry them. */
static void suggest_name(const struct pctx *c, struct pmu_span sp, struct pmurt_nearest *n)
{
	pmurt_nearest_init(n, c->s + sp.off, sp.len);
	while (c->err && pmurt_nearest_pass(n)) {
		pmurt_nearest_events(n, &c->pmu->model);
		nearest_legacy(&c->pmu->model, n);
		for (int i = 0; i < c->pmu->model.npresets; i++)
			pmurt_nearest_try(n, c->pmu->model.presets[i].name);
	}
}

static int map_state_errno(enum pmu_map_state s)
{
	return s == PMU_MAP_INVALID ? -EINVAL : -EOPNOTSUPP;
}

/* When every event of the description is a firmware event, as in a device
 * tree pmugen wrote without --all-events: a note saying so, else "". */
static const char *firmware_only(const struct pmu_model *m, char *out, size_t len)
{
	out[0] = 0;
	for (int i = 0; i < m->nevents; i++)
		if (!m->events[i].firmware)
			return out;
	if (m->nevents)
		snprintf(out, len, " (this description holds only its %d firmware events: a DTB "
			 "or device tree from pmugen holds the others with --all-events)", m->nevents);
	return out;
}

/* Unknown name sp; whole: the cpc probe name it begins, or len 0. */
static int report_unknown(struct pctx *c, struct pmu_span sp, struct pmu_span whole)
{
	char q[PMU_QUOTE_MAX + 4], q2[PMU_QUOTE_MAX + 4], in[PMU_QUOTE_MAX + 32], hint[96];
	char only[160], other[200] = "";
	struct pmurt_nearest n;
	suggest_name(c, sp, &n);
	in[0] = 0;
	if (whole.len)
		snprintf(in, sizeof(in), " in the cpc probe name '%s'", quote(c, whole, q2));
	if (c->err)
		pmurt_generations_note(c->pmu, c->s + sp.off, sp.len, other, sizeof(other));
	return fail(c, -ENOENT, sp, "unknown event '%s' at offset %zu%s%s%s%s", quote(c, sp, q),
		    sp.off, in, other, firmware_only(&c->pmu->model, only, sizeof(only)),
		    did_you_mean(&n, hint, sizeof(hint)));
}

static int report_cache(struct pctx *c, struct pmu_span sp, const struct resolved *r, int why)
{
	char q[PMU_QUOTE_MAX + 4];
	const char *what = quote(c, sp, q);
	const char *cache = hw_cache[r->cache[0]][0];
	if (why == RF_CACHE_PERF)
		return fail(c, -EINVAL, sp, "cache event '%s' at offset %zu: perf accepts no %s "
			    "operation on %s", what, sp.off, hw_cache_op[r->cache[1]][0], cache);
	if (why == RF_NO_CACHE_MAP)
		return fail(c, -EINVAL, sp, "cache event '%s' at offset %zu: %s has no cache event "
			    "map", what, sp.off, pmu_label(c));
	return fail(c, map_state_errno(r->state), sp,
		    "cache event '%s' at offset %zu (%s %s %s) %s %s", what, sp.off, cache,
		    pmu_cache_op_name(r->cache[1]), pmu_cache_result_name(r->cache[2]),
		    r->state == PMU_MAP_INVALID ? "is invalid on" : "is not supported by",
		    pmu_label(c));
}

/* A derived preset where one event must go (perf_event_open, sampling). */
static int report_derived(struct pctx *c, struct pmu_span sp, const struct resolved *r)
{
	char q[PMU_QUOTE_MAX + 4], formula[160];
	const struct pmu_preset *p = &c->pmu->model.presets[r->preset];
	pmu_preset_format(p, formula, sizeof(formula));
	return fail(c, -EOPNOTSUPP, sp, "preset '%s' at offset %zu is derived (%s): it is computed "
		    "from %d counts, so it cannot be opened or sampled as one event (record "
		    "takes only a preset of one event); count its events and combine them "
		    "(pmutool stat, pmurt_preset_eval)", quote(c, sp, q), sp.off, formula,
		    p->nevents);
}

/* The message for a name resolve() refused. */
static int report_resolve(struct pctx *c, struct pmu_span sp, const struct resolved *r, int why)
{
	char q[PMU_QUOTE_MAX + 4];
	switch (why) {
	case RF_BADHEX:
		return fail(c, -EINVAL, sp, "bad hexadecimal code '%s' at offset %zu",
			    quote(c, sp, q), sp.off);
	case RF_BIG:
		return fail(c, -EINVAL, sp, "code '%s' at offset %zu is larger than 64 bits",
			    quote(c, sp, q), sp.off);
	case RF_GENERIC:
		return fail(c, map_state_errno(r->state), sp,
			    "generic event '%s' at offset %zu %s %s", quote(c, sp, q), sp.off,
			    r->state == PMU_MAP_INVALID ? "is invalid on" : "is not supported by",
			    pmu_label(c));
	case RF_CACHE_PERF:
	case RF_CACHE:
	case RF_NO_CACHE_MAP:
		return report_cache(c, sp, r, why);
	case RF_DERIVED:
		return report_derived(c, sp, r);
	default:
		return report_unknown(c, sp, (struct pmu_span){0, 0});
	}
}

static void take_resolved(struct pctx *c, const struct resolved *r)
{
	c->out.type = r->type;
	c->out.config = r->config;
	c->out.code = r->code;
	c->out.event_index = r->event_index;
	memcpy(c->out.name, r->name, sizeof(c->out.name));
}

/* --- terms ----------------------------------------------------------------- */

/* What a term list has said so far. */
struct terms {
	uint64_t base[2];           /* config, config1 from event=/config=/config1=/a name */
	uint64_t set[2], val[2];    /* field bits given, per source */
	bool have_code;             /* something named the event code */
	bool code_terms;            /* a term that changes config or config1 */
	int alias;                  /* the event named in the list, or -1 */
	struct pmu_span alias_at;
	bool have_legacy;           /* a generic or cache event named */
	struct resolved legacy;
	uint64_t period;
	struct pmu_span name;           /* name=, len 0 if none */
};

static const char *const term_keywords[] = {"event", "config", "config1", "period", "name"};
#define NKEYWORDS ((int)(sizeof(term_keywords) / sizeof(term_keywords[0])))

static bool span_is(const struct pctx *c, struct pmu_span sp, const char *word)
{
	return pmu_grammar_span_is(c->s, sp, word);
}

static int find_field(const struct pctx *c, struct pmu_span key)
{
	const struct pmu_model *m = &c->pmu->model;
	for (int i = 0; i < m->nfields; i++)
		if (m->fields[i].name && span_is(c, key, m->fields[i].name))
			return i;
	return -1;
}

static void set_field(struct terms *t, const struct pmu_field *f, uint64_t v)
{
	int src = f->source == PMU_SRC_CONFIG1;
	uint64_t mask = pmu_bits_mask(f->lo, f->hi);
	t->set[src] |= mask;
	t->val[src] = (t->val[src] & ~mask) | ((v << f->lo) & mask);
	t->have_code |= !src;
	t->code_terms = true;
}

static uint64_t field_max(const struct pmu_field *f)
{
	return pmu_bits_mask(f->lo, f->hi) >> f->lo;
}

static int unknown_term(struct pctx *c, struct pmu_span key, bool valueless)
{
	const struct pmu_model *m = &c->pmu->model;
	char q[PMU_QUOTE_MAX + 4], hint[96];
	struct pmurt_nearest n;
	pmurt_nearest_init(&n, c->s + key.off, key.len);
	while (c->err && pmurt_nearest_pass(&n)) {
		for (int i = 0; i < m->nfields; i++)
			pmurt_nearest_try(&n, m->fields[i].name);
		for (int i = 0; i < NKEYWORDS && !valueless; i++)
			pmurt_nearest_try(&n, term_keywords[i]);
		if (valueless)
			pmurt_nearest_events(&n, &c->pmu->model);
	}
	return fail(c, valueless ? -ENOENT : -EINVAL, key, "unknown %s '%s' at offset %zu%s",
		    valueless ? "event or term" : "term", quote(c, key, q), key.off,
		    did_you_mean(&n, hint, sizeof(hint)));
}

/* A term without '=': an event of the description (the base code, perf's
 * PMU event alias), a field set to 1, or a generic or cache event alone. */
static int term_flag(struct pctx *c, struct terms *t, struct pmu_span key)
{
	char buf[NAME_MAX_LEN + 1], q[PMU_QUOTE_MAX + 4];
	struct resolved r;
	if (key.len <= NAME_MAX_LEN) {
		memcpy(buf, c->s + key.off, key.len);
		buf[key.len] = 0;
		if (resolve_event(c->pmu, buf, key.len, &r) == RF_OK) {
			if (t->alias >= 0 || t->have_legacy)
				return fail(c, -EINVAL, key, "second event '%s' at offset %zu in one "
					    "term list", quote(c, key, q), key.off);
			t->alias = r.event_index;
			t->alias_at = key;
			t->base[0] = r.code;
			t->have_code = true;
			return 0;
		}
	}
	int f = find_field(c, key);
	if (f >= 0) {
		set_field(t, &c->pmu->model.fields[f], 1);
		return 0;
	}
	if (key.len <= NAME_MAX_LEN) {
		int rc = resolve_generic(&c->pmu->model, buf, &r);
		if (rc == RF_NOT_MINE)
			rc = resolve_cache(&c->pmu->model, buf, &r);
		if (rc > 0)
			return report_resolve(c, key, &r, rc);
		if (rc == RF_OK) {
			if (t->alias >= 0 || t->have_legacy)
				return fail(c, -EINVAL, key, "second event '%s' at offset %zu in one "
					    "term list", quote(c, key, q), key.off);
			t->have_legacy = true;
			t->legacy = r;
			return 0;
		}
	}
	return unknown_term(c, key, true);
}

static int term_name(struct pctx *c, struct terms *t, struct pmu_span key, struct pmu_span val)
{
	char q[PMU_QUOTE_MAX + 4];
	bool ok = val.len > 0 && val.len < 64;
	for (size_t i = 0; ok && i < val.len; i++) {
		unsigned char ch = (unsigned char)c->s[val.off + i];
		ok = isgraph(ch) && ch != ',' && ch != '/' && ch != '=';
	}
	if (!ok)
		return fail(c, -EINVAL, val, "bad value '%s' for '%.*s' at offset %zu (1 to 63 "
			    "printing characters)", quote(c, val, q), (int)key.len, c->s + key.off,
			    val.off);
	t->name = val;
	return 0;
}

/* KEY=VALUE with a numeric value. */
static int term_value(struct pctx *c, struct terms *t, struct pmu_span key, struct pmu_span val)
{
	char q[PMU_QUOTE_MAX + 4];
	uint64_t v;
	int f = -1;
	bool keyword = span_is(c, key, "event") || span_is(c, key, "config") ||
		       span_is(c, key, "config1") || span_is(c, key, "period");
	if (!keyword && (f = find_field(c, key)) < 0)
		return unknown_term(c, key, false);
	int rc = pmu_grammar_number(c->s + val.off, val.len, &v);
	if (rc == -ERANGE)
		return fail(c, -EINVAL, val, "value '%s' for '%.*s' at offset %zu is larger than 64 "
			    "bits", quote(c, val, q), (int)key.len, c->s + key.off, val.off);
	if (rc)
		return fail(c, -EINVAL, val, "bad value '%s' for '%.*s' at offset %zu (decimal or 0x "
			    "hex)", quote(c, val, q), (int)key.len, c->s + key.off, val.off);
	if (f >= 0) {
		const struct pmu_field *fd = &c->pmu->model.fields[f];
		if (v > field_max(fd))
			return fail(c, -EINVAL, val, "value '%s' for '%s' at offset %zu does not fit "
				    "its %u bits (at most 0x%" PRIx64 ")", quote(c, val, q), fd->name,
				    val.off, fd->hi - fd->lo + 1, field_max(fd));
		set_field(t, fd, v);
	} else if (span_is(c, key, "period")) {
		t->period = v;
	} else if (span_is(c, key, "config1")) {
		t->base[1] = v;
		t->code_terms = true;
	} else {
		t->base[0] = v;
		t->have_code = t->code_terms = true;
	}
	return 0;
}

static int parse_term(struct pctx *c, struct terms *t, const struct pmu_event_term *term)
{
	if (!term->has_value)
		return term_flag(c, t, term->key);
	if (span_is(c, term->key, "name"))
		return term_name(c, t, term->key, term->value);
	return term_value(c, t, term->key, term->value);
}

/* The spec a term list describes. */
static int finish_terms(struct pctx *c, struct terms *t, struct pmu_span sp)
{
	char q[PMU_QUOTE_MAX + 4];
	if (t->have_legacy) {
		if (t->code_terms)
			return fail(c, -EINVAL, sp, "terms in '%s' at offset %zu change the code of "
				    "%s event '%s'", quote(c, sp, q), sp.off,
				    t->legacy.type == PERF_TYPE_HARDWARE ? "generic" : "cache",
				    t->legacy.name);
		take_resolved(c, &t->legacy);
	} else {
		if (!t->have_code)
			return fail(c, -EINVAL, sp, "terms '%s' at offset %zu name no event (give an "
				    "event name, event=, config= or a field)", quote(c, sp, q),
				    sp.off);
		uint64_t code = (t->base[0] & ~t->set[0]) | t->val[0];
		struct resolved r;
		set_raw(&r, code);
		if (t->alias >= 0 && code == c->pmu->model.events[t->alias].code) {
			const char *n = c->pmu->model.events[t->alias].name;
			r.event_index = t->alias;
			copy_name(r.name, n, strlen(n));
		}
		take_resolved(c, &r);
		c->out.config1 = (t->base[1] & ~t->set[1]) | t->val[1];
	}
	c->out.sample_period = t->period;
	if (t->name.len)
		copy_name(c->out.name, c->s + t->name.off, t->name.len);
	return 0;
}

/* TERM,TERM,...: perf's terms (tools/perf/util/parse-events.y event_config)
 * with the description's field names; field terms win over event=/config=
 * whatever their order, as perf applies format terms after config terms. */
static int parse_terms(struct pctx *c, struct pmu_span sp)
{
	struct terms t = {.alias = -1};
	struct pmu_term_cursor cur;
	struct pmu_event_term term;
	int rc;
	if (!sp.len)
		return fail(c, -EINVAL, sp, "empty term list at offset %zu", sp.off);
	pmu_terms_begin(&cur, c->s, sp);
	while ((rc = pmu_terms_next(&cur, &term, c->err)) > 0)
		if ((rc = parse_term(c, &t, &term)) != 0)
			return rc;
	return rc ? rc : finish_terms(c, &t, sp);
}

/* --- the DTrace cpc form --------------------------------------------------- */

#define NOT_CPC 1

/*
 * cpc:::NAME-MODE[-MASK]-COUNT (Oracle DTrace cpc provider): COUNT the
 * sampling period (decimal), MODE user|kernel|all.  MASK, the cpc provider's
 * optional attribute value ("interpreted as a mask value ... commonly
 * referred to as a unit mask or event mask"; hex), has no event-select
 * field to go to on POWER, whose event codes carry no unit mask; it goes to
 * perf_event_attr.config1, the only other per-event word POWER10 reads (the
 * threshold compare), and only the description's own events (named or raw)
 * take one.  Returns NOT_CPC when the string does not have that shape.
 */
static int parse_cpc(struct pctx *c, struct pmu_span body, bool has_mods)
{
	char q[PMU_QUOTE_MAX + 4];
	struct pmu_cpc_syntax p;
	struct resolved r;
	int shape = pmu_grammar_cpc(c->s, body, &p);
	if (shape < 0)
		return NOT_CPC;
	int why = resolve(c, p.prefix, &r);
	if (shape == 1)
		return why == RF_OK ? fail(c, -EINVAL, p.mode, "cpc mode '%s' at offset %zu must be "
					   "user, kernel or all", quote(c, p.mode, q), p.mode.off)
				    : NOT_CPC;
	if (has_mods)
		return fail(c, -EINVAL, body, "perf modifiers cannot follow the cpc form '%s' at "
			    "offset %zu", quote(c, body, q), body.off);
	if (why == RF_NOTFOUND)
		return report_unknown(c, p.prefix, body);
	if (why != RF_OK)
		return report_resolve(c, p.prefix, &r, why);
	uint64_t count, mask;
	int rc = pmu_grammar_cpc_numbers(c->s, &p, &count, &mask, c->err);
	if (rc)
		return rc;
	if (p.has_mask && r.legacy)
		return fail(c, -EINVAL, p.mask, "cpc mask '%s' at offset %zu: only the PMU's own "
			    "events take a mask, not %s event '%s'", quote(c, p.mask, q), p.mask.off,
			    r.type == PERF_TYPE_HARDWARE ? "generic" : "cache", r.name);
	take_resolved(c, &r);
	c->out.exclude = p.exclude;
	c->out.sample_period = count;
	c->out.config1 = mask;
	return 0;
}

/* --- the string ------------------------------------------------------------ */

/* The part before the modifiers: terms, a name, or the cpc form. */
static int parse_body(struct pctx *c, struct pmu_span body, bool has_mods)
{
	if (!body.len)
		return fail(c, -EINVAL, body, "no event before ':' at offset %zu", body.off);
	const char *p = c->s + body.off;
	if (memchr(p, '=', body.len) || memchr(p, ',', body.len))
		return parse_terms(c, body);
	struct resolved r;
	int why = resolve(c, body, &r);
	if (why == RF_OK) {
		take_resolved(c, &r);
		return 0;
	}
	if (why == RF_NOTFOUND || why == RF_BADHEX) {
		int rc = parse_cpc(c, body, has_mods);
		if (rc != NOT_CPC)
			return rc;
	}
	return report_resolve(c, body, &r, why);
}

static int parse_modifiers(struct pctx *c, struct pmu_span sp)
{
	return pmu_grammar_modifiers(c->s, sp, c->sample_read, &c->out.exclude, &c->out.precise,
				     c->err);
}

/* The event evgrammar.c cut into its parts: a term list in perf's PMU
 * wrapper (whatever the PMU's name), or the body before the modifiers. */
static int parse_event(struct pctx *c, const struct pmu_event_syntax *ev)
{
	int rc = ev->wrapped ? parse_terms(c, ev->body) : parse_body(c, ev->body, ev->has_mods);
	return rc || !ev->has_mods ? rc : parse_modifiers(c, ev->mods);
}

/* --- the fast path: NAME or NAME:MODS -------------------------------------- */

/* First bytes of names that resolve() tries before the description's
 * events: 1 for "0x" codes, 2 for HW_FIRST_LETTERS and CACHE_FIRST_LETTERS
 * (perf_name_prefix() looks further). */
static const unsigned char plain_name_other[256] = {
	['0'] = 1, ['b'] = 2, ['c'] = 2, ['i'] = 2, ['r'] = 2, ['s'] = 2,
	['L'] = 2, ['l'] = 2, ['d'] = 2, ['D'] = 2, ['I'] = 2, ['n'] = 2,
};

/* s[0..n) is word exactly. */
static bool span_equals(const char *s, size_t n, const char *word)
{
	return word[0] == s[0] && strncmp(s, word, n) == 0 && word[n] == 0;
}

/* Whether s[0..n) may be a perf generic or cache name, which resolve()
 * tries before the description's events: one of perf_hw's names, or one
 * of hw_cache's followed by '-' or the end (decode_cache() reads the rest).
 * Far cheaper than resolve_generic() and resolve_cache() failing, so that
 * the description's events named in lower case ("l1-loads",
 * "dispatch-stall-cycles") stay on the fast path. */
static bool perf_name_prefix(const char *s, size_t n)
{
	for (int id = 0; id < NPERF_HW; id++)
		if (span_equals(s, n, perf_hw[id].symbol) ||
		    (perf_hw[id].alias && span_equals(s, n, perf_hw[id].alias)))
			return true;
	for (int i = 0; i < PMU_CACHE_NTYPES; i++)
		for (int j = 0; j < CACHE_ALIASES && hw_cache[i][j]; j++) {
			const char *a = hw_cache[i][j];
			if (a[0] != s[0])
				continue;
			size_t k = strlen(a);
			if (k <= n && memcmp(s, a, k) == 0 && (k == n || s[k] == '-'))
				return true;
		}
	return false;
}

/* The 8 <= n <= 63 bytes of a name into name[64], the rest zero, eight
 * bytes at a time as span_differs() read them. */
static inline void copy_name_words(char dst[64], const char *src, size_t n)
{
	size_t w1 = pmu_tbl_fixed_word(n, 8), w2 = pmu_tbl_fixed_word(n, 16), last = n - 8;
	memset(dst, 0, 64);
	memcpy(dst, src, 8);
	memcpy(dst + w1, src + w1, 8);
	memcpy(dst + w2, src + w2, 8);
	for (size_t j = 24; __builtin_expect(j < last, 0); j += 8)
		memcpy(dst + j, src + j, 8);
	memcpy(dst + last, src + last, 8);
}

/* The n bytes of an event's name (n as its index tag said; at most 63
 * kept) into name[64], the rest zero. */
static inline void copy_event_name(char dst[64], const char *src, size_t n)
{
	if (n > 63)
		n = 63;
	if (n >= 8) {
		copy_name_words(dst, src, n);
		return;
	}
	uint64_t w = pmu_tbl_le64(pmu_tbl_short_word(src, n)); /* bytes in string order */
	memset(dst, 0, 64);
	memcpy(dst, &w, 8);
}

/*
 * The common string, an event of the description with perf's privilege
 * modifiers ("PM_RUN_INST_CMPL:u"), in one pass over it: the same answer as
 * parse_event() gives, without its spans, copies and generic and cache
 * look-ups, written into *o field by field (no block fill or struct copy,
 * whose wide stores a caller's narrow read of a field would wait for).
 * False (nothing written) when the string is anything else, an error
 * included; the full parser then reads it again.  The modifiers are read
 * by the grammar's own scan (evgrammar.h), inline.
 *
 * With exact, the cheapest case only: a name of 8 to 63 bytes spelled as
 * the description spells it (lookup_span()'s exact look-up), for which the
 * hash, the compare and the copy take no branch on the length up to 32
 * bytes; false for the others, which the same function without exact then
 * takes (parse_event_slow).
 */
static inline __attribute__((always_inline)) bool
parse_plain(const struct pmurt_pmu *pmu, const char *str, struct pmurt_event_spec *o, bool exact)
{
	/* one pass to the ':' or the end; the modifiers after it are a few
	 * letters at most, so the whole string is far below PARSE_MAX_LEN */
	const char *end = strchrnul(str, ':');
	size_t n = (size_t)(end - str);
	unsigned other = plain_name_other[(unsigned char)str[0]];
	if ((exact ? n - 8 > 63 - 8 : n - 1 >= NAME_MAX_LEN) || /* they wrap for n < 8, n = 0 */
	    (other && (other == 1 || perf_name_prefix(str, n))))
		return false;
	bool punct = false;
	int i = lookup_span(pmu, str, n, exact, &punct);
	unsigned exclude = 0;
	int precise = 0;
	size_t at;
	if (i < 0 || punct ||
	    (*end && (pmu_modifiers_scan(end + 1, SIZE_MAX, &exclude, &precise, &at) != PMU_MODS_OK ||
		      (exclude & PMU_SAMPLE_READ))))
		return false; /* punct: the full parser reads it as terms or PMU/.../;
		                 S: it refuses it */
	const struct pmu_event *e = &pmu->model.events[i];
	o->sz = sizeof(*o);
	o->type = PERF_TYPE_RAW;
	o->config = o->code = e->code;
	o->config1 = 0;
	o->exclude = exclude;
	o->precise = precise;
	o->sample_period = 0;
	o->event_index = i;
	if (exact) /* 8 to 63 bytes */
		copy_name_words(o->name, e->name, n);
	else
		copy_event_name(o->name, e->name, n);
	o->branch_sample_type = 0;
	return true;
}

int pmurt_resolve_event(const struct pmurt_pmu *pmu, const char *str,
			const struct pmu_event_syntax *ev, bool sample_read,
			struct pmurt_event_spec *spec, struct pmurt_error *err)
{
	struct pctx c = {.pmu = pmu, .s = str, .err = err, .sample_read = sample_read,
			 .out = {.type = PERF_TYPE_RAW, .event_index = -1}};
	if (ev->whole.len > PARSE_MAX_LEN)
		return fail(&c, -EINVAL, ev->whole, "event string longer than %d characters",
			    PARSE_MAX_LEN);
	int rc = parse_event(&c, ev);
	if (rc)
		return rc;
	size_t sz = spec->sz < sizeof(*spec) ? spec->sz : sizeof(*spec);
	c.out.sz = sz;
	memcpy(spec, &c.out, sz); /* a caller built against an older, smaller struct */
	return 0;
}

/* pmurt_parse_event's other paths: its arguments refused, the strings
 * parse_plain() takes only without exact, and every other string.  Out of
 * line, so that the common path saves and restores few registers. */
static __attribute__((noinline)) int parse_event_slow(const struct pmurt_pmu *pmu,
						      const char *str,
						      struct pmurt_event_spec *spec,
						      struct pmurt_error *err)
{
	if (!pmu || !str || !spec) {
		pmurt_set_error(err, -EINVAL, "pmurt_parse_event: missing argument");
		return -EINVAL;
	}
	if (spec->sz < PMURT_EVENT_SPEC_MIN_SZ) {
		pmurt_set_error(err, -EINVAL, "pmurt_parse_event: spec->sz is %zu; set it with "
				"PMURT_OPTS_INIT or sizeof", spec->sz);
		return -EINVAL;
	}
	struct pmurt_event_spec out = {0};
	if (parse_plain(pmu, str, &out, false)) {
		out.sz = spec->sz < sizeof(*spec) ? spec->sz : sizeof(*spec);
		memcpy(spec, &out, out.sz); /* a caller built against an older, smaller struct */
		return 0;
	}
	size_t len = strnlen(str, PARSE_MAX_LEN + 1);
	struct pmu_event_syntax ev;
	if (!len) {
		pmurt_set_error_at(err, -EINVAL, 0, 0, "empty event string");
		return -EINVAL;
	}
	int rc = pmu_grammar_event(str, (struct pmu_span){0, len}, &ev, err);
	return rc ? rc : pmurt_resolve_event(pmu, str, &ev, false, spec, err);
}

int pmurt_parse_event(const struct pmurt_pmu *pmu, const char *str,
		      struct pmurt_event_spec *spec, struct pmurt_error *err)
{
	pmurt_clear_error(err);
	/* a caller built against this header, the common string: straight in */
	if (__builtin_expect(pmu && str && spec && spec->sz >= sizeof(*spec), 1) &&
	    parse_plain(pmu, str, spec, true))
		return 0;
	return parse_event_slow(pmu, str, spec, err);
}

/* Offers perf's generic hardware names and aliases to a nearest-name search. */
void pmurt_perf_legacy_nearest(struct pmurt_nearest *n)
{
	for (int id = 0; id < NPERF_HW; id++) {
		pmurt_nearest_try(n, perf_hw[id].symbol);
		pmurt_nearest_try(n, perf_hw[id].alias);
	}
}

/* perf's generic hardware and cache names without a description: type
 * PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE and perf's config, or -ENOENT
 * (not such a name), -EINVAL (a cache op perf refuses). */
int pmurt_perf_legacy_event(const char *name, uint32_t *type, uint64_t *config)
{
	if (name[0] && strchr(HW_FIRST_LETTERS, name[0]))
		for (int id = 0; id < NPERF_HW; id++)
			if (perf_hw_is(id, name)) {
				*type = PERF_TYPE_HARDWARE;
				*config = (uint64_t)id;
				return 0;
			}
	int cache[3];
	int rc = decode_cache(name, cache);
	if (rc == RF_NOT_MINE)
		return -ENOENT;
	if (rc != RF_OK)
		return -EINVAL;
	*type = PERF_TYPE_HW_CACHE;
	*config = (uint64_t)cache[0] | (uint64_t)cache[1] << 8 | (uint64_t)cache[2] << 16;
	return 0;
}
