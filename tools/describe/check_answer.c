/*
 * check_answer.c - what `pmutool check` and `check --batch` share: the
 * group check with a member refused before the group logic, and the
 * answers as compact JSON lines (also tool_json_compact, for list and
 * metrics).
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_answer.h"

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
