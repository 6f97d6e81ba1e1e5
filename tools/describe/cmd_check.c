/*
 * cmd_check.c - `pmutool check EVENT,...` and `pmutool check --batch FILE`:
 * a group through pmurt_group_check, answered as text or JSON (the counter
 * per event and the control registers, named by the description, or the
 * member that fails and why; check_answer.c writes the JSON).
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "describe_opts.h"
#include "check_answer.h"
#include "tool_batch.h"

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
