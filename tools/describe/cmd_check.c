/*
 * cmd_check.c - `pmutool check EVENT,...` and `pmutool check --batch FILE`:
 * a group through pmurt_group_check, answered as text or JSON (the counter
 * per event and the control registers, named by the description, or the
 * member that fails and why).
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "describe_opts.h"
#include "tool_batch.h"

/* --- the result as JSON ---------------------------------------------------- */
/*
 * The lines a batch answers most (accepted groups, malformed lines) are written
 * straight into a buffer, in the order and spacing json_dumps(JSON_COMPACT)
 * gives the same object: building and dumping jansson objects cost three
 * times the group check itself.  Strings are escaped as jansson escapes them
 * by default (quote, backslash, control characters; UTF-8 as it is).
 */
struct json_buf {
	char text[2048];
	size_t len;
	bool overflow;
};

static void jb_raw(struct json_buf *b, const char *s, size_t n)
{
	if (b->len + n >= sizeof(b->text)) {
		b->overflow = true;
		return;
	}
	memcpy(b->text + b->len, s, n);
	b->len += n;
}

#define jb_lit(b, literal) jb_raw((b), (literal), sizeof(literal) - 1)

static void jb_string(struct json_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	jb_lit(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" :
				  c == '\t' ? "\\t" : c == '\r' ? "\\r" : c == '\b' ? "\\b" :
				  c == '\f' ? "\\f" : NULL;
		if (esc) {
			jb_raw(b, esc, 2);
		} else if (c < 0x20) {
			char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
			jb_raw(b, u, sizeof(u));
		} else {
			jb_raw(b, (const char *)s, 1);
		}
	}
	jb_lit(b, "\"");
}

static void jb_hex(struct json_buf *b, uint64_t v)
{
	char digits[16];
	int n = 0;
	do {
		digits[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	jb_lit(b, "\"0x");
	while (n)
		jb_raw(b, &digits[--n], 1);
	jb_lit(b, "\"");
}

static void jb_long(struct json_buf *b, long v)
{
	char num[24];
	jb_raw(b, num, (size_t)snprintf(num, sizeof(num), "%ld", v));
}

static int jb_print(const struct json_buf *b)
{
	if (b->overflow) {
		fputs("pmutool: error: result longer than its line buffer\n", stderr);
		return EXIT_INTERNAL;
	}
	fwrite(b->text, 1, b->len, stdout);
	return EXIT_OK;
}

static int print_accepted_json(const struct pmurt_pmu *pmu, const struct pmurt_group_result *r)
{
	struct json_buf b = {.len = 0};
	jb_lit(&b, "{\"ok\":true,\"final_events\":[");
	for (int i = 0; i < r->n; i++) {
		if (i)
			jb_lit(&b, ",");
		jb_hex(&b, r->final_events[i]);
	}
	jb_lit(&b, "],\"pmc\":[");
	for (int i = 0; i < r->n; i++) {
		if (i)
			jb_lit(&b, ",");
		jb_long(&b, r->pmc[i]);
	}
	jb_lit(&b, "]");
	for (int i = 0; i < r->nregs && i < PMURT_MAX_REGS; i++) {
		char key[32];
		jb_lit(&b, ",");
		jb_string(&b, tool_reg_key(pmu, i, key, sizeof(key)));
		jb_lit(&b, ":");
		jb_hex(&b, r->regs[i]);
	}
	if (r->reschedule_reason[0]) { /* the next schedule refuses the group */
		jb_lit(&b, ",\"reschedule\":{\"error\":\"EAGAIN\",\"reason\":");
		jb_string(&b, r->reschedule_reason);
		jb_lit(&b, ",\"message\":");
		jb_string(&b, r->reschedule_message);
		jb_lit(&b, "}");
	}
	jb_lit(&b, "}\n");
	return jb_print(&b); /* 16 events, 8 registers with 31-byte names and the
			      * reschedule message fit */
}

int tool_print_line_error_json(long lineno, const char *why)
{
	struct json_buf b = {.len = 0};
	jb_lit(&b, "{\"ok\":false,\"line\":");
	jb_long(&b, lineno);
	jb_lit(&b, ",\"error\":");
	jb_string(&b, why);
	jb_lit(&b, "}\n");
	return jb_print(&b);
}

static json_t *rejected_json(const struct pmurt_group_result *r)
{
	return json_pack("{s:b, s:i, s:s, s:s}", "ok", 0, "reject_index", r->reject_index,
			 "reason", r->reason, "message", r->message);
}

int tool_print_result_json(const struct pmurt_pmu *pmu, const struct pmurt_group_result *r)
{
	return r->ok ? print_accepted_json(pmu, r) : tool_print_json_line(rejected_json(r));
}

/*
 * json_dumps(o, JSON_COMPACT), but sure: jansson 2.14's json_dumps returns a
 * string with an object key left out when an allocation fails while it
 * dumps (tests/alloc, pmutool-list-json), so the text is dumped into a buffer
 * of our own, sized by a first dump, and a short dump counts as a failure.
 */
char *tool_json_compact(const json_t *o)
{
	size_t len = o ? json_dumpb(o, NULL, 0, JSON_COMPACT) : 0;
	char *s = len ? malloc(len + 1) : NULL;
	if (s && json_dumpb(o, s, len, JSON_COMPACT) != len) {
		free(s);
		return NULL;
	}
	if (s)
		s[len] = 0;
	return s;
}

int tool_print_json_line(json_t *o)
{
	char *s = tool_json_compact(o);
	json_decref(o);
	if (!s) {
		fputs("pmutool: error: out of memory\n", stderr);
		return EXIT_INTERNAL;
	}
	puts(s);
	free(s);
	return EXIT_OK;
}

/* --- checking ------------------------------------------------------------------ */
int tool_group_check(const struct tool *t, const struct describe_opts *opts,
		     const struct pmurt_event_spec *ev, int n,
		     const struct tool_bad_event *bad, struct pmurt_group_result *r,
		     struct pmurt_error *err)
{
	*r = (struct pmurt_group_result){.sz = sizeof(*r)};
	int upto = bad && bad->index >= 0 ? bad->index : n;
	if (upto > 0) {
		int rc = pmurt_group_check(t->pmu, ev, upto, sizeof(ev[0]), &opts->check, r, err);
		if (rc < 0 || !r->ok || upto == n)
			return rc;
	}
	*r = (struct pmurt_group_result){.sz = sizeof(*r), .reject_index = bad->index};
	snprintf(r->reason, sizeof(r->reason), "%s",
		 bad->rc == -EOPNOTSUPP ? "unsupported_event" : "invalid_event");
	tool_copy(r->message, sizeof(r->message), bad->message);
	return 0;
}

/* --- the result as text ------------------------------------------------------ */
static int name_width(const struct pmurt_event_spec *ev, int n)
{
	int width = 5;
	for (int i = 0; i < n; i++)
		if ((int)strlen(ev[i].name) > width)
			width = (int)strlen(ev[i].name);
	return width;
}

static void print_accepted(const struct pmurt_pmu *pmu, const struct pmurt_event_spec *ev,
			   const struct pmurt_group_result *r)
{
	int w = name_width(ev, r->n);
	printf("group fits: %d event%s\n", r->n, r->n == 1 ? "" : "s");
	tool_line("  #  %-*s  %-18s  %-18s  counter", w, "event", "code", "counts as");
	for (int i = 0; i < r->n; i++) {
		char code[24], final[24];
		snprintf(code, sizeof(code), "0x%" PRIx64, ev[i].code);
		snprintf(final, sizeof(final), "0x%" PRIx64, r->final_events[i]);
		tool_line("  %-2d %-*s  %-18s  %-18s  PMC%d", i, w, ev[i].name, code, final,
			  r->pmc[i]);
	}
	for (int i = 0; i < r->nregs && i < PMURT_MAX_REGS; i++)
		printf("  %-6s 0x%016" PRIx64 "\n", pmurt_register_name(pmu, i), r->regs[i]);
	if (r->reschedule_reason[0])
		printf("warning: refused on its next schedule (%s): %s\n", r->reschedule_reason,
		       r->reschedule_message);
}

/* "PM_X, 0x1e" or, when the name is the code or the event never got one
 * (a member the kernel refuses outright), the name alone. */
static void event_text(const struct pmurt_event_spec *e, bool with_code, char *buf, size_t len)
{
	char code[24];
	snprintf(code, sizeof(code), "0x%" PRIx64, e->code);
	if (with_code && strcmp(e->name, code) != 0)
		snprintf(buf, len, "%s, %s", e->name, code);
	else
		snprintf(buf, len, "%s", e->name);
}

static void print_rejected(const struct pmurt_event_spec *ev, int n,
			   const struct tool_bad_event *bad, const struct pmurt_group_result *r)
{
	int k = r->reject_index;
	char what[128];
	if (k >= 0 && k < n) {
		event_text(&ev[k], k != bad->index, what, sizeof(what));
		printf("group rejected at event %d (%s): %s\n", k, what, r->reason);
	} else {
		printf("group rejected: %s\n", r->reason);
	}
	printf("  %s\n", r->message);
}

/* --- the operands --------------------------------------------------------- */
/* A term ("config1=1000", "pmc=1") rather than an event: a name, '=',
 * and no '/' or ':' before the '='. */
static bool is_term(const char *piece)
{
	size_t name = strcspn(piece, "=/:");
	return name > 0 && piece[name] == '=';
}

/* Split an operand into events at commas outside cpu/.../ terms; an outer
 * pair of braces (perf's group syntax) is dropped.  A piece that is a term
 * continues the event before it ("PM_MRK_INST_CMPL,config1=1000" is one
 * event; write "A,cpu/pmc=1/" for two).  An empty piece ("A,,B", "A,") is
 * refused, as perf's event lists refuse it.  Returns the count, or -1 when
 * more than max, -2 for an empty event (*empty_at its offset). */
static int split_events(char *arg, char **out, int n, int max, size_t *empty_at)
{
	const char *whole = arg;
	size_t len = strlen(arg);
	if (len >= 2 && arg[0] == '{' && arg[len - 1] == '}') {
		arg[len - 1] = 0;
		arg++;
	}
	int first = n;
	bool in_slash = false;
	char *start = arg;
	for (char *p = arg;; p++) {
		if (*p == '/')
			in_slash = !in_slash;
		if (*p && (*p != ',' || in_slash))
			continue;
		bool end = !*p;
		*p = 0;
		if (!*start && (p != arg || !end)) {
			*empty_at = (size_t)(start - whole);
			return -2;
		}
		if (n > first && is_term(start) && start == out[n - 1] + strlen(out[n - 1]) + 1)
			start[-1] = ','; /* rejoin: a term of the previous event */
		else if (*start && n >= max)
			return -1;
		else if (*start)
			out[n++] = start;
		if (end)
			return n;
		start = p + 1;
	}
}

#define PRESET_EVENT_LEN 160 /* a preset's member name and its modifiers */

/* A derived PAPI preset among the operands becomes its events, with its
 * modifiers, checked in the group as stat counts them (stat_events.c);
 * store holds their strings.  The count, or -1 when more than max. */
static int expand_derived(const struct tool *t, const struct describe_opts *opts, char **strs,
			  int n, int max, char store[][PRESET_EVENT_LEN])
{
	char *in[PMURT_MAX_GROUP];
	memcpy(in, strs, (size_t)n * sizeof(*in));
	int m = 0;
	for (int i = 0; i < n; i++) {
		struct pmurt_preset_info info = {.sz = sizeof(info)};
		char name[PRESET_EVENT_LEN];
		size_t len = strcspn(in[i], ":");
		bool preset = len < sizeof(name) && !strchr(in[i], '/');
		if (preset) {
			memcpy(name, in[i], len);
			name[len] = 0;
			preset = pmurt_preset_find(t->pmu, name, &info, NULL) >= 0 && info.derived;
		}
		if (!preset) {
			if (m >= max)
				return -1;
			strs[m++] = in[i];
			continue;
		}
		if (!opts->json)
			printf("%s = %s: its %d events checked as a group\n", info.name, info.formula,
			       info.nevents);
		for (int k = 0; k < info.nevents; k++) {
			if (m >= max)
				return -1;
			snprintf(store[m], sizeof(store[m]), "%s%s", info.events[k], in[i] + len);
			strs[m] = store[m];
			m++;
		}
	}
	return m;
}

/* One operand event: 0, or EXIT_USAGE after reporting.  An event the PMU
 * does not support (-EOPNOTSUPP: a generic or cache event it lacks) is not a
 * usage error: perf_event_open would refuse it, so it becomes *bad. */
static int parse_one(const struct tool *t, const char *str, int i,
		     struct pmurt_event_spec *ev, struct tool_bad_event *bad)
{
	struct pmurt_error err = {0};
	*ev = (struct pmurt_event_spec){.sz = sizeof(*ev), .event_index = -1};
	int rc = pmurt_parse_event(t->pmu, str, ev, &err);
	if (rc == -EOPNOTSUPP) {
		*ev = (struct pmurt_event_spec){.sz = sizeof(*ev), .event_index = -1};
		snprintf(ev->name, sizeof(ev->name), "%.*s", (int)sizeof(ev->name) - 1, str);
		if (bad->index < 0) {
			*bad = (struct tool_bad_event){.index = i, .rc = rc};
			tool_copy(bad->message, sizeof(bad->message), err.message);
		}
		return 0;
	}
	if (rc < 0) {
		tool_error(t, "%s", err.message[0] ? err.message : strerror(-rc));
		return EXIT_USAGE;
	}
	return 0;
}

static int parse_group(const struct tool *t, const struct describe_opts *opts,
		       struct pmurt_event_spec *ev, int *nev, struct tool_bad_event *bad)
{
	char *strs[PMURT_MAX_GROUP];
	char store[PMURT_MAX_GROUP][PRESET_EVENT_LEN];
	int n = 0;
	for (int a = 0; a < t->nargs && n >= 0; a++) {
		size_t empty_at = 0;
		char shown[256];
		tool_copy(shown, sizeof(shown), t->args[a]);
		n = split_events(t->args[a], strs, n, PMURT_MAX_GROUP, &empty_at);
		if (n == -2) {
			tool_error(t, "empty event at offset %zu of '%s'", empty_at, shown);
			return EXIT_USAGE;
		}
	}
	if (n >= 0)
		n = expand_derived(t, opts, strs, n, PMURT_MAX_GROUP, store);
	if (n < 0) {
		tool_error(t, "a group holds at most %d events", PMURT_MAX_GROUP);
		return EXIT_USAGE;
	}
	if (n == 0) {
		tool_error(t, "usage: %s check [--json] EVENT[,EVENT]...", t->prog);
		return EXIT_USAGE;
	}
	bad->index = -1;
	for (int i = 0; i < n; i++) {
		int rc = parse_one(t, strs[i], i, &ev[i], bad);
		if (rc)
			return rc;
	}
	*nev = n;
	return EXIT_OK;
}

static int check_group(const struct tool *t, const struct describe_opts *opts)
{
	struct pmurt_event_spec ev[PMURT_MAX_GROUP];
	struct tool_bad_event bad;
	int n = 0;
	int rc = parse_group(t, opts, ev, &n, &bad);
	if (rc)
		return rc;
	tool_note_raw_codes(t->pmu, ev, n);
	struct pmurt_group_result r;
	struct pmurt_error err = {0};
	int lrc = tool_group_check(t, opts, ev, n, &bad, &r, &err);
	if (lrc < 0) {
		tool_error(t, "%s", err.message[0] ? err.message : strerror(-lrc));
		return EXIT_INTERNAL;
	}
	if (opts->json)
		rc = tool_print_result_json(t->pmu, &r);
	else if (r.ok)
		print_accepted(t->pmu, ev, &r);
	else
		print_rejected(ev, n, &bad, &r);
	return rc ? rc : r.ok ? EXIT_OK : EXIT_REJECTED;
}

int cmd_check(const struct tool *t, const struct describe_opts *opts)
{
	if (opts->batch) {
		if (t->nargs) {
			tool_error(t, "check --batch takes no EVENT operands");
			return EXIT_USAGE;
		}
		return tool_check_batch(t, opts);
	}
	return check_group(t, opts);
}
