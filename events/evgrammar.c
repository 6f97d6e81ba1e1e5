/*
 * evgrammar.c - the grammar of event strings, in one place: what `-e`
 * lists (events/evparse.c) and pmurt_parse_event (parse.c) accept, read into
 * spans of the string.  The readers give the parts their meaning; nothing
 * here knows an event, a field or a PMU.
 *
 * As perf 6.1 reads them (tools/perf/util/parse-events.l and .y), with
 * what this project takes of it:
 *
 *   list    := item (',' item)*                      -e lists only
 *   item    := event | '{' event (',' event)* '}' [':' MODS]
 *   event   := PMU '/' [terms] '/' [[':'] MODS]      wrapped
 *            | NAME [':' MODS]                       named
 *            | SYS ':' TPNAME [':' MODS]             a tracepoint
 *            | NAME '-' MODE ['-' MASK] '-' COUNT    a DTrace cpc probe name
 *            | term (',' term)* [':' MODS]           pmurt_parse_event only
 *   terms   := term (',' term)*
 *   term    := KEY '=' VALUE | NAME
 *   PMU     := [A-Za-z0-9_.-]+
 *   MODS    := modifier letters: u k h I p (ppp at most), S in event lists
 *              (leader sampling); perf's G H P D W (modifier_event) and
 *              later e b, and S in pmurt_parse_event, are known and refused
 *   VALUE   := DEC | 0xHEX (perf's num_dec, num_hex; name= takes printing
 *              characters)
 *   MODE    := user | kernel | all       MASK := [0x]HEX    COUNT := DEC
 *
 * - An item ends at the first ',', '{' or '}' outside a term list ('/'s
 *   toggle it, as perf's lexer rule event_pmu reads "[^,{}/]+/[^/]*\/").
 *   Groups do not nest; group modifiers go to members without their own.
 *   An empty item or one with blanks around it is refused.
 * - NAME is whatever the readers resolve: perf's generic and cache names,
 *   software events, the description's events (any case), PAPI presets,
 *   rHEX (perf's r{num_raw_hex}), 0xHEX, a sysfs alias of any PMU.  Which
 *   reading of NAME ':' X holds (modifiers or a tracepoint) is the perf
 *   side's call: a tracefs subsystem, or no known event with X not made of
 *   modifier letters, is a tracepoint (perf's lexer takes modifier letters
 *   first, {modifier_event} before {name}).
 * - A term that is a NAME alone is an event of that PMU (its base code;
 *   perf's PMU event alias, sysfs events/) or a format field set to 1.
 * - Not taken: named groups (NAME{...}), mem: breakpoints, BPF objects,
 *   name tags in quotes, term arrays ("[...]"), @driver terms, PMU globs.
 *
 * Who reads what: pmu_list_* cuts a list into events and group ends;
 * pmu_grammar_event cuts one event into PMU, body and modifiers;
 * pmu_terms_* cuts a term list; pmu_modifiers_scan (evgrammar.h, inline
 * for parse.c's fast path) and pmu_grammar_modifiers read modifiers;
 * pmu_grammar_cpc reads the cpc form; pmu_grammar_tracepoint reads NAME:X
 * as SYS:TPNAME[:MODS] when the perf side says it is one.  parse.c
 * resolves the core PMU's names, fields and presets (and reads NAME:MODS on
 * a fast path with the same modifier scan); events/evparse.c resolves
 * software events, sysfs PMUs, their aliases and tracepoints, and sets
 * groups' leaders and modifiers.
 *
 * Offsets in messages are 0-based bytes of the whole string.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "evgrammar.h"

/* --- numbers ---------------------------------------------------------------- */

static int hex_digit(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = tolower(ch);
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

int pmu_grammar_hex(const char *p, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int d = hex_digit((unsigned char)p[i]);
		if (d < 0)
			return -EINVAL;
		if (x >> 60)
			return -ERANGE;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return 0;
}

int pmu_grammar_dec(const char *p, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -EINVAL;
		unsigned d = (unsigned)(p[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

bool pmu_grammar_has_hex_prefix(const char *p, size_t n)
{
	return n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
}

int pmu_grammar_number(const char *p, size_t n, uint64_t *v)
{
	return pmu_grammar_has_hex_prefix(p, n) ? pmu_grammar_hex(p + 2, n - 2, v)
						: pmu_grammar_dec(p, n, v);
}

bool pmu_grammar_all_hex(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (hex_digit((unsigned char)p[i]) < 0)
			return false;
	return n > 0;
}

static bool all_digits(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return n > 0;
}

/* --- spans -------------------------------------------------------------------- */

const char *pmu_grammar_quote(const char *s, struct pmu_span sp, char buf[PMU_QUOTE_MAX + 4])
{
	size_t n = sp.len < PMU_QUOTE_MAX ? sp.len : PMU_QUOTE_MAX;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[sp.off + i];
		buf[i] = isprint(ch) ? (char)ch : '?';
	}
	if (n < sp.len)
		memcpy(buf + n, "...", 3), n += 3;
	buf[n] = 0;
	return buf;
}

bool pmu_grammar_span_is(const char *s, struct pmu_span sp, const char *word)
{
	const char *p = s + sp.off;
	return sp.len && word[0] == p[0] && strncmp(word, p, sp.len) == 0 && !word[sp.len];
}

/* --- modifiers ------------------------------------------------------------------ */

const unsigned char pmu_modifier_class[256] = {
	['u'] = PMU_MOD_U, ['k'] = PMU_MOD_K, ['h'] = PMU_MOD_H, ['I'] = PMU_MOD_I,
	['p'] = PMU_MOD_P,
	['G'] = PMU_MOD_PERF_ONLY, ['H'] = PMU_MOD_PERF_ONLY, ['P'] = PMU_MOD_PERF_ONLY,
	['S'] = PMU_MOD_S, ['D'] = PMU_MOD_PERF_ONLY, ['W'] = PMU_MOD_PERF_ONLY,
	['e'] = PMU_MOD_PERF_ONLY, ['b'] = PMU_MOD_PERF_ONLY,
};

/* Naming any of u, k, h excludes the other two; I excludes idle. */
#define EXCLUDE_UKH(set)                                                             \
	((set) & 7u ? (PMURT_EXCLUDE_USER | PMURT_EXCLUDE_KERNEL | PMURT_EXCLUDE_HV) &     \
			      ~(((set) & PMU_MOD_U ? PMURT_EXCLUDE_USER : 0) |                   \
				((set) & PMU_MOD_K ? PMURT_EXCLUDE_KERNEL : 0) |                 \
				((set) & PMU_MOD_H ? PMURT_EXCLUDE_HV : 0))                      \
		    : 0)
#define EXCLUDE(set) (EXCLUDE_UKH(set) | ((set) & PMU_MOD_I ? PMURT_EXCLUDE_IDLE : 0))
const unsigned char pmu_modifier_exclude[16] = {
	EXCLUDE(0),  EXCLUDE(1),  EXCLUDE(2),  EXCLUDE(3),  EXCLUDE(4),  EXCLUDE(5),
	EXCLUDE(6),  EXCLUDE(7),  EXCLUDE(8),  EXCLUDE(9),  EXCLUDE(10), EXCLUDE(11),
	EXCLUDE(12), EXCLUDE(13), EXCLUDE(14), EXCLUDE(15),
};

/* perf's names of its modifier letters (parse-events.l modifiers(),
 * struct parse_events_modifier), for messages. */
static const char *modifier_name(char ch)
{
	switch (ch) {
	case 'u': return "user";
	case 'k': return "kernel";
	case 'h': return "hypervisor";
	case 'I': return "non_idle";
	case 'G': return "guest";
	case 'H': return "host";
	case 'P': return "precise_max";
	case 'S': return "sample_read";
	case 'D': return "pinned";
	case 'W': return "weak";
	case 'e': return "exclusive";
	case 'b': return "bpf";
	default: return "";
	}
}

int pmu_grammar_modifiers(const char *s, struct pmu_span sp, bool sample_read, unsigned *exclude,
			  int *precise, struct pmurt_error *err)
{
	size_t i = 0;
	char q[PMU_QUOTE_MAX + 4];
	enum pmu_mods_fault fault = pmu_modifiers_scan(s + sp.off, sp.len, exclude, precise, &i);
	if (fault == PMU_MODS_OK && (*exclude & PMU_SAMPLE_READ) && !sample_read) {
		i = (size_t)((const char *)memchr(s + sp.off, 'S', sp.len) - (s + sp.off));
		fault = PMU_MODS_PERF_ONLY;
	}
	switch (fault) {
	case PMU_MODS_OK:
		return 0;
	case PMU_MODS_EMPTY:
		pmurt_set_error_at(err, -EINVAL, sp.off, 0, "empty modifier list at offset %zu",
				   sp.off);
		return -EINVAL;
	case PMU_MODS_PRECISE:
		pmurt_set_error_at(err, -EINVAL, sp.off + i, 1,
				   "maximum precise value is 3 (the 'p' at offset %zu)", sp.off + i);
		return -EINVAL;
	case PMU_MODS_DUPLICATE:
		pmurt_set_error_at(err, -EINVAL, sp.off + i, 1,
				   "duplicate modifier '%c' (%s) at offset %zu", s[sp.off + i],
				   modifier_name(s[sp.off + i]), sp.off + i);
		return -EINVAL;
	case PMU_MODS_PERF_ONLY:
		pmurt_set_error_at(err, -EOPNOTSUPP, sp.off + i, 1, "perf modifier '%c' (%s) at "
				   "offset %zu is not supported (only u, k, h, I, p%s)",
				   s[sp.off + i], modifier_name(s[sp.off + i]), sp.off + i,
				   sample_read ? " and S" : "; S in an event list");
		return -EOPNOTSUPP;
	default:
		pmurt_set_error_at(err, -EINVAL, sp.off + i, 1, "unknown modifier '%s' at offset %zu",
				   pmu_grammar_quote(s, (struct pmu_span){sp.off + i, 1}, q),
				   sp.off + i);
		return -EINVAL;
	}
}

bool pmu_grammar_modifier_letters(const char *s, struct pmu_span sp)
{
	for (size_t i = 0; i < sp.len; i++)
		if (!pmu_modifier_class[(unsigned char)s[sp.off + i]])
			return false;
	return true;
}

/* --- one event ---------------------------------------------------------------------- */

static bool pmu_name_char(unsigned char ch)
{
	return isalnum(ch) || ch == '_' || ch == '-' || ch == '.';
}

/* PMU/TERMS/ and the modifiers after it, with or without ':'. */
static int wrapped_event(const char *s, struct pmu_span sp, size_t slash,
			 struct pmu_event_syntax *ev, struct pmurt_error *err)
{
	char q[PMU_QUOTE_MAX + 4];
	size_t end = sp.off + sp.len;
	ev->pmu = (struct pmu_span){sp.off, slash - sp.off};
	if (!ev->pmu.len) {
		pmurt_set_error_at(err, -EINVAL, slash, 1, "no PMU name before the '/' at offset %zu",
				   slash);
		return -EINVAL;
	}
	for (size_t i = sp.off; i < slash; i++)
		if (!pmu_name_char((unsigned char)s[i])) {
			pmurt_set_error_at(err, -EINVAL, ev->pmu.off, ev->pmu.len,
					   "bad PMU name '%s' at offset %zu",
					   pmu_grammar_quote(s, ev->pmu, q), sp.off);
			return -EINVAL;
		}
	const char *close = memchr(s + slash + 1, '/', end - slash - 1);
	if (!close) {
		pmurt_set_error_at(err, -EINVAL, slash, end - slash,
				   "no closing '/' for the term list opened at offset %zu", slash);
		return -EINVAL;
	}
	size_t after = (size_t)(close - s) + 1;
	ev->whole = sp;
	ev->wrapped = true;
	ev->body = (struct pmu_span){slash + 1, after - slash - 2};
	ev->has_mods = after < end;
	after += ev->has_mods && s[after] == ':';
	ev->mods = (struct pmu_span){after, end - after};
	return 0;
}

int pmu_grammar_event(const char *s, struct pmu_span sp, struct pmu_event_syntax *ev,
		      struct pmurt_error *err)
{
	const char *slash = memchr(s + sp.off, '/', sp.len);
	if (slash)
		return wrapped_event(s, sp, (size_t)(slash - s), ev, err);
	const char *colon = memchr(s + sp.off, ':', sp.len);
	size_t body = colon ? (size_t)(colon - s) : sp.off + sp.len;
	*ev = (struct pmu_event_syntax){
		.whole = sp,
		.body = {sp.off, body - sp.off},
		.has_mods = colon != NULL,
		.mods = {colon ? body + 1 : body, colon ? sp.off + sp.len - body - 1 : 0},
	};
	return 0;
}

void pmu_grammar_tracepoint(const char *s, const struct pmu_event_syntax *ev,
			    struct pmu_tracepoint_syntax *tp)
{
	size_t end = ev->mods.off + ev->mods.len;
	const char *colon = memchr(s + ev->mods.off, ':', ev->mods.len);
	size_t name_end = colon ? (size_t)(colon - s) : end;
	*tp = (struct pmu_tracepoint_syntax){
		.sys = ev->body,
		.name = {ev->mods.off, name_end - ev->mods.off},
		.has_mods = colon != NULL,
		.mods = {colon ? name_end + 1 : end, colon ? end - name_end - 1 : 0},
	};
}

/* --- terms ---------------------------------------------------------------------------- */

void pmu_terms_begin(struct pmu_term_cursor *c, const char *s, struct pmu_span list)
{
	*c = (struct pmu_term_cursor){.s = s, .pos = list.off, .end = list.off + list.len,
				      .done = !list.len};
}

int pmu_terms_next(struct pmu_term_cursor *c, struct pmu_event_term *t, struct pmurt_error *err)
{
	if (c->done)
		return 0;
	const char *comma = memchr(c->s + c->pos, ',', c->end - c->pos);
	size_t stop = comma ? (size_t)(comma - c->s) : c->end;
	t->whole = (struct pmu_span){c->pos, stop - c->pos};
	c->done = !comma;
	c->pos = stop + 1;
	if (!t->whole.len) {
		pmurt_set_error_at(err, -EINVAL, t->whole.off, 0, "empty term at offset %zu",
				   t->whole.off);
		return -EINVAL;
	}
	const char *eq = memchr(c->s + t->whole.off, '=', t->whole.len);
	t->has_value = eq != NULL;
	if (!eq) {
		t->key = t->whole;
		t->value = (struct pmu_span){stop, 0};
		return 1;
	}
	t->key = (struct pmu_span){t->whole.off, (size_t)(eq - c->s) - t->whole.off};
	t->value = (struct pmu_span){t->key.off + t->key.len + 1, t->whole.len - t->key.len - 1};
	if (!t->key.len) {
		pmurt_set_error_at(err, -EINVAL, t->whole.off, t->whole.len,
				   "term at offset %zu has no name", t->whole.off);
		return -EINVAL;
	}
	if (!t->value.len) {
		pmurt_set_error_at(err, -EINVAL, t->whole.off, t->whole.len,
				   "term '%.*s' at offset %zu has no value", (int)t->key.len,
				   c->s + t->key.off, t->key.off);
		return -EINVAL;
	}
	return 1;
}

/* --- the DTrace cpc form ---------------------------------------------------------------- */

/* MODE of a cpc probe name, as Oracle Linux DTrace's decode_mode()
 * (libdtrace/dt_prov_cpc.c) sets perf_event_attr: user -> exclude_kernel,
 * kernel -> exclude_user, all -> neither (exclude_hv is left alone). */
static int cpc_mode(const char *s, struct pmu_span sp, unsigned *exclude)
{
	if (pmu_grammar_span_is(s, sp, "user"))
		*exclude = PMURT_EXCLUDE_KERNEL;
	else if (pmu_grammar_span_is(s, sp, "kernel"))
		*exclude = PMURT_EXCLUDE_USER;
	else if (pmu_grammar_span_is(s, sp, "all"))
		*exclude = 0;
	else
		return -1;
	return 0;
}

/* The last '-' in s[off, end), or SIZE_MAX. */
static size_t last_dash(const char *s, size_t off, size_t end)
{
	while (end > off)
		if (s[--end] == '-')
			return end;
	return SIZE_MAX;
}

int pmu_grammar_cpc(const char *s, struct pmu_span body, struct pmu_cpc_syntax *p)
{
	size_t end = body.off + body.len;
	size_t d3 = last_dash(s, body.off, end);
	if (d3 == SIZE_MAX || !all_digits(s + d3 + 1, end - d3 - 1))
		return -1;
	p->count = (struct pmu_span){d3 + 1, end - d3 - 1};
	size_t d2 = last_dash(s, body.off, d3);
	if (d2 == SIZE_MAX || d2 == body.off)
		return -1;
	struct pmu_span w2 = {d2 + 1, d3 - d2 - 1};
	p->has_mask = false;
	p->mode = w2;
	p->prefix = (struct pmu_span){body.off, d2 - body.off};
	if (cpc_mode(s, w2, &p->exclude) == 0)
		return 0;
	size_t d1 = last_dash(s, body.off, d2);
	bool hex = pmu_grammar_has_hex_prefix(s + w2.off, w2.len)
			   ? pmu_grammar_all_hex(s + w2.off + 2, w2.len - 2)
			   : pmu_grammar_all_hex(s + w2.off, w2.len);
	if (hex && d1 != SIZE_MAX && d1 > body.off) {
		struct pmu_span w1 = {d1 + 1, d2 - d1 - 1};
		if (cpc_mode(s, w1, &p->exclude) == 0) {
			p->mode = w1;
			p->mask = w2;
			p->has_mask = true;
			p->prefix = (struct pmu_span){body.off, d1 - body.off};
			return 0;
		}
	}
	return 1;
}

int pmu_grammar_cpc_numbers(const char *s, const struct pmu_cpc_syntax *p, uint64_t *count,
			    uint64_t *mask, struct pmurt_error *err)
{
	char q[PMU_QUOTE_MAX + 4];
	*mask = 0;
	if (pmu_grammar_dec(s + p->count.off, p->count.len, count)) {
		pmurt_set_error_at(err, -EINVAL, p->count.off, p->count.len,
				   "cpc count '%s' at offset %zu is larger than 64 bits",
				   pmu_grammar_quote(s, p->count, q), p->count.off);
		return -EINVAL;
	}
	if (!*count) {
		pmurt_set_error_at(err, -EINVAL, p->count.off, p->count.len,
				   "cpc count '0' at offset %zu must be at least 1", p->count.off);
		return -EINVAL;
	}
	if (!p->has_mask)
		return 0;
	size_t skip = pmu_grammar_has_hex_prefix(s + p->mask.off, p->mask.len) ? 2 : 0;
	if (pmu_grammar_hex(s + p->mask.off + skip, p->mask.len - skip, mask)) {
		pmurt_set_error_at(err, -EINVAL, p->mask.off, p->mask.len,
				   "cpc mask '%s' at offset %zu is larger than 64 bits",
				   pmu_grammar_quote(s, p->mask, q), p->mask.off);
		return -EINVAL;
	}
	return 0;
}

/* --- lists and groups --------------------------------------------------------------------- */

int pmu_list_begin(struct pmu_list_cursor *c, const char *s, size_t start, size_t len,
		   struct pmurt_error *err)
{
	*c = (struct pmu_list_cursor){.s = s, .pos = start, .end = start + len};
	if (len > PMU_LIST_MAX_LEN) {
		pmurt_set_error(err, -E2BIG, "event list of %zu characters, longer than %d",
				len, PMU_LIST_MAX_LEN);
		return -E2BIG;
	}
	return 0;
}

/* The end of the event that begins at s[off] (end: the list's): the first
 * ',', '{' or '}' outside a PMU's term list ("cpu/a=1,b=2/"). */
static size_t event_end(const struct pmu_list_cursor *c, size_t off)
{
	bool in_terms = false;
	for (size_t i = off; i < c->end; i++) {
		char ch = c->s[i];
		if (ch == '/')
			in_terms = !in_terms;
		else if (!in_terms && (ch == ',' || ch == '{' || ch == '}'))
			return i;
	}
	return c->end;
}

/* -EINVAL with a message about the len bytes at offset at (0: an empty
 * event there). */
static int list_fail(struct pmurt_error *err, const char *fmt, size_t at, size_t len)
	__attribute__((format(printf, 2, 0)));
static int list_fail(struct pmurt_error *err, const char *fmt, size_t at, size_t len)
{
	pmurt_set_error_at(err, -EINVAL, at, len, fmt, at);
	return -EINVAL;
}

/* The event s[off, end) as an item, unless it is empty or has blanks
 * around it. */
static int event_item(struct pmu_list_cursor *c, size_t end, struct pmu_list_item *it,
		      struct pmurt_error *err)
{
	char q[PMU_QUOTE_MAX + 4];
	struct pmu_span sp = {c->pos, end - c->pos};
	if (!sp.len)
		return list_fail(err, "empty event at offset %zu", sp.off, 0);
	if (isspace((unsigned char)c->s[sp.off]) || isspace((unsigned char)c->s[end - 1])) {
		pmurt_set_error_at(err, -EINVAL, sp.off, sp.len,
				   "blank around the event '%s' at offset %zu",
				   pmu_grammar_quote(c->s, sp, q), sp.off);
		return -EINVAL;
	}
	it->token = PMU_LIST_EVENT;
	it->span = sp;
	it->has_mods = false;
	it->group_off = c->group_off;
	c->pos = end;
	c->after_item = true;
	return 1;
}

/* The next event at c->pos, in a group or at the top. */
static int next_event(struct pmu_list_cursor *c, struct pmu_list_item *it,
		      struct pmurt_error *err)
{
	it->group_first = false;
	if (!c->in_group && c->pos < c->end && c->s[c->pos] == '{') {
		c->in_group = true;
		c->group_off = c->pos++;
		it->group_first = true;
	}
	size_t end = event_end(c, c->pos);
	if (end < c->end && c->in_group && c->s[end] == '{')
		return list_fail(err, "group inside a group at offset %zu", end, 1);
	if (end < c->end && !c->in_group && c->s[end] != ',') {
		pmurt_set_error_at(err, -EINVAL, end, 1, "unexpected '%c' at offset %zu",
				   c->s[end], end);
		return -EINVAL;
	}
	return event_item(c, end, it, err);
}

/* '}' at c->pos and the group's modifiers after it. */
static int group_end(struct pmu_list_cursor *c, struct pmu_list_item *it)
{
	size_t p = c->pos + 1;
	it->token = PMU_LIST_GROUP_END;
	it->group_first = false;
	it->group_off = c->group_off;
	it->has_mods = p < c->end && c->s[p] == ':';
	it->span = (struct pmu_span){p + it->has_mods, 0};
	if (it->has_mods) {
		size_t end = event_end(c, p + 1);
		it->span.len = end - it->span.off;
		p = end;
	}
	c->pos = p;
	c->in_group = false;
	return 1;
}

int pmu_list_next(struct pmu_list_cursor *c, struct pmu_list_item *it, struct pmurt_error *err)
{
	if (!c->after_item)
		return next_event(c, it, err);
	if (c->pos == c->end) {
		if (c->in_group)
			return list_fail(err, "no '}' for the group opened at offset %zu",
					 c->group_off, 1);
		return 0;
	}
	char ch = c->s[c->pos];
	if (c->in_group && ch == '}')
		return group_end(c, it);
	if (ch != ',')
		return list_fail(err, "expected ',' at offset %zu", c->pos, 1);
	c->pos++;
	if (!c->in_group && c->pos == c->end)
		return list_fail(err, "empty event at offset %zu", c->pos, 0);
	return next_event(c, it, err);
}
