/*
 * check_answer.h - a group's check as `pmutool check` and `check --batch`
 * answer it (check_answer.c): a member refused before the group logic, and
 * the answers as compact JSON lines.
 */
#ifndef CHECK_ANSWER_H
#define CHECK_ANSWER_H

#include <jansson.h>

#include "describe_opts.h"

/* Print the result as one compact JSON line:
 * {"ok":true,"final_events":[...],"pmc":[...],"mmcr0":...} or
 * {"ok":false,"reject_index":N,"reason":"...","message":"..."}; an exit code. */
int tool_print_result_json(const struct pmurt_pmu *pmu, const struct pmurt_group_result *r);

/* Print the answer to a malformed line: {"ok":false,"line":N,"error":"..."}.
 * why is UTF-8 (jansson decodes the input lines; the library cuts its
 * messages at whole characters). */
int tool_print_line_error_json(long lineno, const char *why);

/* Print o compactly on one line and drop the reference; an exit code. */
int tool_print_json_line(json_t *o);
/* o as compact JSON text (malloc'd), NULL when out of memory. */
char *tool_json_compact(const json_t *o);

/* A member perf_event_open refuses before any group logic (an unsupported
 * or invalid generic/cache event): its index (-1: none), errno and message. */
struct tool_bad_event {
	int index;
	int rc;
	char message[320];
};

/* pmurt_group_check, except that a bad member rejects the group at its
 * index, after the members before it were checked as their own
 * perf_event_open calls would be.  0 or a negative errno (err filled). */
int tool_group_check(const struct tool *t, const struct describe_opts *opts,
		     const struct pmurt_event_spec *ev, int n,
		     const struct tool_bad_event *bad, struct pmurt_group_result *r,
		     struct pmurt_error *err);

#endif /* CHECK_ANSWER_H */
