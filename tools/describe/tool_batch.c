/*
 * tool_batch.c - `pmutool check --batch FILE`: each line of FILE is one
 * group, {"events":["0x...",...],"config1":["0x...",...],"exclude":["uk",...]},
 * answered by one JSON line.  Optional keys, one entry per event:
 *   config1              perf's attr.config1 (threshold compare)
 *   exclude              letters u, k, h, i: exclude_user, _kernel, _hv, _idle
 *   branch_sample_type   perf's PERF_SAMPLE_BRANCH_* bits, 0 for none
 *   type                 perf's attr.type: "raw" (4, the default), "hardware"
 *                        (0) or "hw_cache" (3); events then holds attr.config
 *                        and the description's generic or cache map gives the
 *                        code (pmurt_event_from_attr)
 * Blank lines and lines starting with '#' are skipped without output.  A
 * malformed line is answered {"ok":false,"line":N,"error":"..."} (and
 * reported on standard error, the first BATCH_MAX_REPORTED of them); the
 * remaining lines are still checked and the exit status is then 2.  A line
 * longer than BATCH_MAX_LINE bytes is answered so without being parsed, and
 * jansson stops at JSON_PARSER_MAX_DEPTH (2048) levels of nesting, so any
 * input costs time linear in its size.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_answer.h"
#include "tool_batch.h"

#define BATCH_MAX_LINE 65536     /* a group of 8 events takes well under 1 KiB */
#define BATCH_MAX_REPORTED 100   /* malformed lines echoed on standard error */
#define TOOL_STR_(x) #x
#define TOOL_STR(x) TOOL_STR_(x)

struct batch_line {
	const struct pmurt_pmu *pmu;
	struct pmurt_event_spec ev[PMURT_MAX_GROUP];
	int n;
	struct tool_bad_event bad;  /* a member perf_event_open refuses */
	char why[600];              /* why the line is malformed */
};

/* "0x..." (1 to 16 hex digits) or a non-negative JSON integer. */
static int parse_code(const json_t *v, uint64_t *out)
{
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	const char *s = json_string_value(v);
	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL;
	size_t digits = strspn(s + 2, "0123456789abcdefABCDEF");
	if (digits == 0 || digits > 16 || s[2 + digits])
		return -EINVAL;
	*out = strtoull(s + 2, NULL, 16);
	return 0;
}

/* Letters u, k, h, i: exclude_user, exclude_kernel, exclude_hv, exclude_idle. */
static int parse_exclude(const json_t *v, unsigned *out)
{
	const char *s = json_string_value(v);
	if (!s)
		return -EINVAL;
	*out = 0;
	for (; *s; s++) {
		switch (*s) {
		case 'u': *out |= PMURT_EXCLUDE_USER; break;
		case 'k': *out |= PMURT_EXCLUDE_KERNEL; break;
		case 'h': *out |= PMURT_EXCLUDE_HV; break;
		case 'i': *out |= PMURT_EXCLUDE_IDLE; break;
		default: return -EINVAL;
		}
	}
	return 0;
}

static int fail(struct batch_line *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct batch_line *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->why, sizeof(b->why), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* An optional per-event array: absent, or exactly one entry per event. */
static int per_event_array(struct batch_line *b, const json_t *o, const char *key,
			   const json_t **arr)
{
	*arr = json_object_get(o, key);
	if (!*arr)
		return 0;
	if (!json_is_array(*arr) || json_array_size(*arr) != (size_t)b->n)
		return fail(b, "'%s' must be an array with one entry per event (%d)", key, b->n);
	return 0;
}

static int check_keys(struct batch_line *b, json_t *o)
{
	static const char *const known[] = {"events", "config1", "exclude", "branch_sample_type",
					    "type"};
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v) {
		size_t k = 0;
		while (k < sizeof(known) / sizeof(known[0]) && strcmp(key, known[k]))
			k++;
		if (k == sizeof(known) / sizeof(known[0]))
			return fail(b, "unknown key '%s' (events, config1, exclude, "
				    "branch_sample_type, type)", key);
	}
	return 0;
}

static int parse_events(struct batch_line *b, const json_t *events)
{
	size_t n = json_array_size(events);
	if (!json_is_array(events) || n == 0)
		return fail(b, "'events' must be a non-empty array of codes");
	if (n > PMURT_MAX_GROUP)
		return fail(b, "'events' holds more than %d events", PMURT_MAX_GROUP);
	b->n = (int)n;
	for (size_t i = 0; i < n; i++) {
		struct pmurt_event_spec *e = &b->ev[i];
		*e = (struct pmurt_event_spec){.sz = sizeof(*e), .type = 4, .event_index = -1};
		if (parse_code(json_array_get(events, i), &e->code))
			return fail(b, "events[%zu]: not a code (\"0x...\" or an integer)", i);
		e->config = e->code;
	}
	return 0;
}

/* perf's attr.type: a number or "raw", "hardware", "hw_cache". */
static int parse_type(const json_t *v, uint32_t *out)
{
	static const struct {
		const char *name;
		uint32_t type;
	} types[] = {{"hardware", 0}, {"hw_cache", 3}, {"raw", 4}};
	if (json_is_integer(v) && json_integer_value(v) >= 0 &&
	    json_integer_value(v) <= UINT32_MAX) {
		*out = (uint32_t)json_integer_value(v);
		return 0;
	}
	for (size_t i = 0; json_is_string(v) && i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(json_string_value(v), types[i].name) == 0) {
			*out = types[i].type;
			return 0;
		}
	return -EINVAL;
}

/* Event i's type and config through pmurt_event_from_attr; an event the
 * kernel would refuse (-EOPNOTSUPP, -EINVAL) becomes the bad member. */
static int resolve_type(struct batch_line *b, int i, const json_t *type)
{
	uint32_t t;
	if (parse_type(type, &t))
		return fail(b, "type[%d]: not a perf type (raw, hardware, hw_cache or a number)", i);
	if (t == 4)
		return 0;
	struct pmurt_event_spec *e = &b->ev[i];
	struct pmurt_error err = {0};
	uint64_t config = e->config;
	int rc = pmurt_event_from_attr(b->pmu, t, config, e, &err);
	if (rc == -ENOENT || (rc < 0 && rc != -EOPNOTSUPP && rc != -EINVAL))
		return fail(b, "type[%d]: %s", i, err.message);
	if (rc < 0) {
		*e = (struct pmurt_event_spec){.sz = sizeof(*e), .type = t, .config = config,
					       .event_index = -1};
		snprintf(e->name, sizeof(e->name), "type %u config 0x%" PRIx64, t, config);
		if (b->bad.index < 0) {
			b->bad = (struct tool_bad_event){.index = i, .rc = rc};
			tool_copy(b->bad.message, sizeof(b->bad.message), err.message);
		}
	}
	return 0;
}

/* The per-event attributes, after the type has given each event its code. */
static int parse_attrs(struct batch_line *b, int i, const json_t *config1,
		       const json_t *exclude, const json_t *branch)
{
	struct pmurt_event_spec *e = &b->ev[i];
	if (config1 && parse_code(json_array_get(config1, i), &e->config1))
		return fail(b, "config1[%d]: not a value (\"0x...\" or an integer)", i);
	if (exclude && parse_exclude(json_array_get(exclude, i), &e->exclude))
		return fail(b, "exclude[%d]: not a string of the letters u, k, h, i", i);
	if (branch && parse_code(json_array_get(branch, i), &e->branch_sample_type))
		return fail(b, "branch_sample_type[%d]: not a value (\"0x...\" or an integer)", i);
	return 0;
}

static int parse_object(struct batch_line *b, json_t *o)
{
	const json_t *config1, *exclude, *branch, *type;
	if (!json_is_object(o))
		return fail(b, "a line must be a JSON object");
	if (check_keys(b, o) || parse_events(b, json_object_get(o, "events")) ||
	    per_event_array(b, o, "config1", &config1) ||
	    per_event_array(b, o, "exclude", &exclude) ||
	    per_event_array(b, o, "branch_sample_type", &branch) ||
	    per_event_array(b, o, "type", &type))
		return -EINVAL;
	for (int i = 0; i < b->n; i++) {
		if (type && resolve_type(b, i, json_array_get(type, i)))
			return -EINVAL;
		if (parse_attrs(b, i, config1, exclude, branch))
			return -EINVAL;
	}
	return 0;
}

static int parse_line(struct batch_line *b, const char *text, size_t len)
{
	json_error_t jerr;
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!o && json_error_code(&jerr) == json_error_out_of_memory)
		return -ENOMEM;
	if (!o) {
		snprintf(b->why, sizeof(b->why), "not JSON: %s (column %d)", jerr.text, jerr.column);
		return -EINVAL;
	}
	int rc = parse_object(b, o);
	json_decref(o);
	return rc;
}

/* Answers a malformed line: EXIT_USAGE, or EXIT_INTERNAL if the answer could
 * not be written. */
static int answer_error(const struct tool *t, const struct describe_opts *opts, long lineno,
			const char *why, long *nreported)
{
	const char *file = strcmp(opts->batch, "-") ? opts->batch : "<stdin>";
	if (++*nreported <= BATCH_MAX_REPORTED)
		tool_error(t, "%s:%ld: %s", file, lineno, why);
	else if (*nreported == BATCH_MAX_REPORTED + 1)
		tool_error(t, "%s: more than %d malformed lines; the rest are answered on "
			   "standard output only", file, BATCH_MAX_REPORTED);
	int rc = tool_print_line_error_json(lineno, why);
	return rc ? rc : EXIT_USAGE;
}

/* One line: 0 answered, EXIT_USAGE answered as malformed, or EXIT_INTERNAL. */
static int answer_line(const struct tool *t, const struct describe_opts *opts, const char *text,
		       size_t len, long lineno, long *nreported)
{
	struct batch_line b = {.pmu = t->pmu, .bad = {.index = -1}};
	int prc = parse_line(&b, text, len);
	if (prc == -ENOMEM) {
		tool_error(t, "out of memory");
		return EXIT_INTERNAL;
	}
	if (prc)
		return answer_error(t, opts, lineno, b.why, nreported);
	struct pmurt_group_result r;
	struct pmurt_error err = {0};
	int lrc = tool_group_check(t, opts, b.ev, b.n, &b.bad, &r, &err);
	if (lrc < 0)
		return answer_error(t, opts, lineno, err.message[0] ? err.message : strerror(-lrc),
				    nreported);
	return tool_print_result_json(t->pmu, &r);
}

static bool skipped(const char *line)
{
	line += strspn(line, " \t\r\n");
	return !*line || *line == '#';
}

/* Read one line of at most BATCH_MAX_LINE bytes into buf (which holds
 * BATCH_MAX_LINE + 1), NUL-terminated, setting *len; a longer line is read to
 * its end and dropped, *len then BATCH_MAX_LINE + 1.  false at end of input. */
static bool read_line(FILE *in, char *buf, size_t *len)
{
	size_t n = 0;
	int ch;
	while ((ch = getc_unlocked(in)) != EOF && ch != '\n')
		if (n <= BATCH_MAX_LINE)
			buf[n++] = (char)ch;
	if (ch == EOF && n == 0)
		return false;
	buf[n < BATCH_MAX_LINE ? n : BATCH_MAX_LINE] = '\0';
	*len = n;
	return true;
}

int tool_check_batch(const struct tool *t, const struct describe_opts *opts)
{
	FILE *in = strcmp(opts->batch, "-") ? fopen(opts->batch, "r") : stdin;
	if (!in) {
		tool_error(t, "%s: %s", opts->batch, strerror(errno));
		return EXIT_USAGE;
	}
	char *line = malloc(BATCH_MAX_LINE + 1);
	long lineno = 0, nreported = 0;
	int status = EXIT_OK;
	if (!line) {
		tool_error(t, "out of memory");
		status = EXIT_INTERNAL;
	}
	size_t len;
	while (line && read_line(in, line, &len)) {
		lineno++;
		int rc;
		if (len > BATCH_MAX_LINE)
			rc = answer_error(t, opts, lineno, "line longer than " TOOL_STR(BATCH_MAX_LINE)
					  " bytes", &nreported);
		else if (skipped(line))
			continue;
		else
			rc = answer_line(t, opts, line, len, lineno, &nreported);
		if (rc == EXIT_INTERNAL) {
			status = rc;
			break;
		}
		if (rc)
			status = rc;
	}
	if (ferror(in)) {
		tool_error(t, "%s: read error", opts->batch);
		status = EXIT_INTERNAL;
	}
	free(line);
	if (in != stdin)
		fclose(in);
	return status;
}
