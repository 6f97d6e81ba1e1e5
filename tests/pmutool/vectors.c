/*
 * vectors.c - runs pmutool over kernel-derived expectations and compares.
 *
 *   vectors tobatch VECTORS.json
 *       the vectors of p10_mmcr_sample.json as `check --batch` lines
 *   vectors mmcr PMUTOOL VECTORS.json COUNT [--absent=REG] [PMUTOOL-OPTION]...
 *       every vector through `pmutool check --batch`: ok, reject_index,
 *       reason, final_events, pmc and the five MMCRs; the file must hold
 *       exactly COUNT vectors.  --absent=mmcr3: the PMU has no such
 *       register (POWER9), so pmutool prints none and compute_mmcr's value
 *       must be 0; only that register may be missing, and only then
 *   vectors selftests PMUTOOL SELFTESTS.json CATEGORY COUNT [PMUTOOL-OPTION]...
 *       the COUNT cases of p10_selftests.json in CATEGORY: raw (raw codes),
 *       branch (branch_sample_type) or generic (PERF_TYPE_HARDWARE /
 *       HW_CACHE, through event names)
 *   vectors account SELFTESTS.json TOTAL CATEGORY:COUNT... not-tested:NAME...
 *       the file holds TOTAL cases: COUNT in each CATEGORY, and the named
 *       ones that cannot be modelled (state set at interrupt time), no more
 *   vectors cases PMUTOOL CASES.txt [--absent=REG] [PMUTOOL-OPTION]...
 *       hand-derived cases: "case NAME [OPTION]...", "in {batch line}",
 *       "out {expected keys}" ('#' starts a comment line); an accepted case
 *       must state final_events, pmc and all five MMCRs
 *
 * Prints one line per failure and a summary.  A run that checked nothing
 * fails.  Exit status: 0 all passed, 1 something failed (or nothing ran),
 * 2 bad usage or an unreadable file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "mmcr_bits.h"

struct ctx {
	const char *tool;
	char **opts;    /* extra pmutool options from the command line */
	int nopts;
	const char *absent; /* a register the PMU lacks ("mmcr3"), or NULL */
	int passed, failed;
};

/* --- running pmutool -------------------------------------------------------- */
static void append_quoted(char *cmd, size_t len, const char *arg)
{
	size_t n = strlen(cmd);
	if (n + 3 >= len)
		return;
	cmd[n++] = ' ';
	cmd[n++] = '\'';
	for (; *arg && n + 5 < len; arg++) {
		if (*arg == '\'') {
			memcpy(cmd + n, "'\\''", 4);
			n += 4;
		} else {
			cmd[n++] = *arg;
		}
	}
	cmd[n++] = '\'';
	cmd[n] = 0;
}

/* pmutool [command-line options] [args]: every stdout line parsed as JSON
 * into *out (an array); returns the exit status, or -1. */
static int run_tool(const struct ctx *c, const char *const *args, int nargs, json_t **out)
{
	char cmd[8192] = "";
	append_quoted(cmd, sizeof(cmd), c->tool);
	for (int i = 0; i < c->nopts; i++)
		append_quoted(cmd, sizeof(cmd), c->opts[i]);
	for (int i = 0; i < nargs; i++)
		append_quoted(cmd, sizeof(cmd), args[i]);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	*out = json_array();
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, p) >= 0) {
		json_error_t e;
		json_t *o = json_loads(line, 0, &e);
		json_array_append_new(*out, o ? o : json_pack("{s:s}", "unparsed", line));
	}
	free(line);
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Batch lines through `check --json --batch`; the results, one per line. */
static int run_batch(const struct ctx *c, const char *const *extra, int nextra,
		     const char *lines, json_t **out)
{
	char path[4096];
	const char *tmpdir = getenv("TMPDIR");
	snprintf(path, sizeof(path), "%s/pmutool-vectors.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	if (!f || fputs(lines, f) < 0 || fclose(f) != 0) {
		unlink(path);
		return -1;
	}
	const char *args[16];
	int n = 0;
	for (int i = 0; i < nextra && n < 12; i++)
		args[n++] = extra[i];
	args[n++] = "check";
	args[n++] = "--json";
	args[n++] = "--batch";
	args[n++] = path;
	int rc = run_tool(c, args, n, out);
	unlink(path);
	return rc;
}

/* --- reporting ---------------------------------------------------------------- */
static void fail(struct ctx *c, const char *id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct ctx *c, const char *id, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL %s: ", id);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	c->failed++;
}

static int finish(const struct ctx *c, const char *what)
{
	printf("%s: %d passed, %d failed\n", what, c->passed, c->failed);
	if (c->passed + c->failed == 0) {
		printf("FAIL %s: nothing was checked\n", what);
		return 1;
	}
	return c->failed ? 1 : 0;
}

/* COUNT from the command line: a whole number. */
static bool parse_count(const char *s, size_t *out)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);
	if (!*s || *end || *s == '-')
		return false;
	*out = n;
	return true;
}

/* The number of cases found must be the number pinned, and not zero. */
static bool count_as_pinned(const char *what, size_t found, size_t pinned)
{
	if (found == 0) {
		printf("FAIL %s: no cases\n", what);
		return false;
	}
	if (found != pinned) {
		printf("FAIL %s: %zu cases, expected %zu (a case was added or removed: "
		       "update the count in tests/pmutool.cmake)\n", what, found, pinned);
		return false;
	}
	return true;
}

/* --- values ------------------------------------------------------------------- */
/* "0x..." or an integer. */
static bool value_of(const json_t *v, uint64_t *out)
{
	if (json_is_integer(v)) {
		*out = (uint64_t)json_integer_value(v);
		return true;
	}
	const char *s = json_string_value(v);
	if (!s || strncmp(s, "0x", 2) != 0 || !s[2])
		return false;
	char *end;
	*out = strtoull(s + 2, &end, 16);
	return !*end;
}

static bool same_values(const json_t *a, const json_t *b)
{
	uint64_t x, y;
	if (!json_is_array(a) || !json_is_array(b) || json_array_size(a) != json_array_size(b))
		return false;
	for (size_t i = 0; i < json_array_size(a); i++)
		if (!value_of(json_array_get(a, i), &x) || !value_of(json_array_get(b, i), &y) ||
		    x != y)
			return false;
	return true;
}

/* Compact JSON of v in a static buffer: one use per message. */
static char *dump(const json_t *v)
{
	static char buf[1024];
	char *s = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	snprintf(buf, sizeof(buf), "%s", s ? s : "(none)");
	free(s);
	return buf;
}

static json_t *load_json(const char *path)
{
	json_error_t e;
	json_t *j = json_load_file(path, 0, &e);
	if (!j)
		fprintf(stderr, "vectors: %s:%d: %s\n", path, e.line, e.text);
	return j;
}

/* --- p10_mmcr_sample.json ------------------------------------------------------ */
static char *vectors_batch(const json_t *vectors)
{
	size_t len = 0, cap = 1 << 16;
	char *text = malloc(cap);
	const json_t *v;
	size_t i;
	json_array_foreach(vectors, i, v) {
		json_t *line = json_pack("{s:O}", "events", json_object_get(v, "events"));
		if (json_object_get(v, "config1"))
			json_object_set(line, "config1", json_object_get(v, "config1"));
		if (json_object_get(v, "exclude"))
			json_object_set(line, "exclude", json_object_get(v, "exclude"));
		char *s = json_dumps(line, JSON_COMPACT);
		json_decref(line);
		size_t n = strlen(s);
		if (len + n + 2 > cap) {
			cap = 2 * (len + n + 2);
			text = realloc(text, cap);
		}
		memcpy(text + len, s, n);
		len += n;
		text[len++] = '\n';
		free(s);
	}
	text[len] = 0;
	return text;
}

/* The result's value of key; for the register the PMU lacks, when the
 * result has none, "0x0" (compute_mmcr's value for it). */
static const json_t *result_value(const struct ctx *c, const json_t *r, const char *key)
{
	static json_t *zero;
	const json_t *v = json_object_get(r, key);
	if (v || !c->absent || strcmp(key, c->absent) != 0)
		return v;
	if (!zero)
		zero = json_string("0x0");
	return zero;
}

static void compare_accepted(struct ctx *c, const char *id, const json_t *v, const json_t *r)
{
	static const char *const regs[] = {"mmcr0", "mmcr1", "mmcr2", "mmcr3", "mmcra"};
	if (!same_values(json_object_get(v, "final_events"), json_object_get(r, "final_events")))
		return fail(c, id, "final_events %s", dump(json_object_get(r, "final_events")));
	if (!json_equal(json_object_get(v, "pmc"), json_object_get(r, "pmc")))
		return fail(c, id, "pmc %s", dump(json_object_get(r, "pmc")));
	for (int k = 0; k < 5; k++) {
		uint64_t want, got;
		if (!value_of(json_object_get(v, regs[k]), &want) ||
		    !value_of(result_value(c, r, regs[k]), &got) || want != got)
			return fail(c, id, "%s %s, expected %s", regs[k],
				    dump(result_value(c, r, regs[k])),
				    json_string_value(json_object_get(v, regs[k])));
	}
	/* Not compared: the vectors' alternatives_used says whether the final,
	 * commit-time check needed alternatives (false when an event's own
	 * event_init already stored its alternative, vectors 3870 and 4814);
	 * the batch output has no such key, final_events carries the answer. */
	c->passed++;
}

static void compare_vector(struct ctx *c, const json_t *v, const json_t *r)
{
	char id[32];
	snprintf(id, sizeof(id), "vector %" JSON_INTEGER_FORMAT,
		 json_integer_value(json_object_get(v, "id")));
	bool want_ok = strcmp(json_string_value(json_object_get(v, "result")), "ok") == 0;
	if (!json_is_boolean(json_object_get(r, "ok")))
		return fail(c, id, "no result: %s", dump(r));
	if (json_is_true(json_object_get(r, "ok")) != want_ok)
		return fail(c, id, "expected %s, got %s", want_ok ? "ok" : "reject", dump(r));
	if (want_ok)
		return compare_accepted(c, id, v, r);
	if (!json_equal(json_object_get(v, "reject_index"), json_object_get(r, "reject_index")) ||
	    !json_equal(json_object_get(v, "reason"), json_object_get(r, "reason")))
		return fail(c, id, "expected reject at %" JSON_INTEGER_FORMAT " (%s), got %s",
			    json_integer_value(json_object_get(v, "reject_index")),
			    json_string_value(json_object_get(v, "reason")), dump(r));
	c->passed++;
}

static int mode_mmcr(struct ctx *c, const char *path, size_t pinned)
{
	json_t *doc = load_json(path), *results = NULL;
	const json_t *vectors = json_object_get(doc, "vectors");
	int rc = 2;
	if (!json_is_array(vectors))
		goto out;
	rc = 1;
	if (!count_as_pinned("mmcr vectors", json_array_size(vectors), pinned))
		goto out;
	char *batch = vectors_batch(vectors);
	int tool_rc = run_batch(c, NULL, 0, batch, &results);
	free(batch);
	if (tool_rc != 0 || json_array_size(results) != json_array_size(vectors)) {
		printf("FAIL pmutool exited %d with %zu results for %zu vectors\n", tool_rc,
		       json_array_size(results), json_array_size(vectors));
		goto out;
	}
	for (size_t i = 0; i < json_array_size(vectors); i++)
		compare_vector(c, json_array_get(vectors, i), json_array_get(results, i));
	rc = finish(c, "mmcr vectors");
out:
	json_decref(results);
	json_decref(doc);
	return rc;
}

static int mode_tobatch(const char *path)
{
	json_t *doc = load_json(path);
	const json_t *vectors = json_object_get(doc, "vectors");
	if (!json_is_array(vectors))
		return 2;
	char *batch = vectors_batch(vectors);
	fputs(batch, stdout);
	free(batch);
	json_decref(doc);
	return 0;
}

/* --- p10_selftests.json ------------------------------------------------------- */
/* perf's branch_sample_type bits (include/uapi/linux/perf_event.h,
 * PERF_SAMPLE_BRANCH_*_SHIFT), by the names the selftests file uses. */
static const char *const branch_bits[] = {
	"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL", "ABORT_TX",
	"IN_TX", "NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL", "NO_FLAGS", "NO_CYCLES",
	"TYPE_SAVE", "HW_INDEX", "PRIV_SAVE", "COUNTERS"};
#define NBRANCH_BITS 20

static uint64_t branch_bit(const char *name, size_t len)
{
	for (int i = 0; i < NBRANCH_BITS; i++)
		if (strlen(branch_bits[i]) == len && strncmp(branch_bits[i], name, len) == 0)
			return 1ULL << i;
	return 0;
}

/* "ANY" or "ANY|ANY_CALL": the bits, 0 if a name is unknown. */
static uint64_t branch_mask(const char *s)
{
	uint64_t mask = 0;
	while (*s) {
		size_t len = strcspn(s, "|");
		uint64_t b = branch_bit(s, len);
		if (!b)
			return 0;
		mask |= b;
		s += len + (s[len] == '|');
	}
	return mask;
}

/* One run of a selftest case: a batch line and what it must give. */
struct variant {
	char label[96];
	uint64_t branch;  /* 0: no branch stack */
	bool want_ok;
};

#define MAX_VARIANTS 32

/* The two descriptive bhrb_filter_map_test entries expand to one run per
 * filter: "A, B, C (each alone)" all accepted; "every other single ... bit
 * ... and ANY|ANY_CALL" every bit but the four valid ones, and ANY|ANY_CALL,
 * all rejected (the test's own loop over PERF_SAMPLE_BRANCH_USER..MAX-1). */
static int branch_variants(const char *name, const char *bst, bool want_ok,
			   struct variant *v)
{
	int n = 0;
	if (strstr(bst, "each alone")) {
		char buf[128];
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(bst, "("), bst);
		for (char *tok = strtok(buf, ", "); tok && n < MAX_VARIANTS; tok = strtok(NULL, ", "))
			v[n++] = (struct variant){.branch = branch_mask(tok), .want_ok = want_ok};
	} else if (strncmp(bst, "every other single", 18) == 0) {
		uint64_t valid = branch_mask("ANY|ANY_CALL|IND_CALL|COND");
		for (int b = 0; b < NBRANCH_BITS; b++)
			if (!(valid & (1ULL << b)))
				v[n++] = (struct variant){.branch = 1ULL << b, .want_ok = want_ok};
		v[n++] = (struct variant){.branch = branch_mask("ANY|ANY_CALL"), .want_ok = want_ok};
	} else {
		v[n++] = (struct variant){.branch = branch_mask(bst), .want_ok = want_ok};
	}
	for (int i = 0; i < n; i++)
		snprintf(v[i].label, sizeof(v[i].label), "%s [branch 0x%" PRIx64 "]", name,
			 v[i].branch);
	return n;
}

/* raw, branch, generic, or not-tested: a case checking state set at
 * interrupt time (MMCR0 PMAO/PMAE: perf_event_interrupt, power_pmu_enable),
 * which is not compute_mmcr output, so nothing in a description or libpmurt
 * computes it. */
static const char *category(const json_t *t)
{
	if (json_object_get(t, "type"))
		return "generic";
	if (json_object_get(t, "branch_sample_type"))
		return "branch";
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)json_object_get(t, "mmcr"), key, v)
		if (mmcr_bits_runtime_only(key))
			return "not-tested";
	return "raw";
}

static json_t *selftest_line(const json_t *t, uint64_t branch)
{
	json_t *line = json_pack("{s:O}", "events", json_object_get(t, "events"));
	if (json_object_get(t, "config1"))
		json_object_set(line, "config1", json_object_get(t, "config1"));
	if (json_object_get(t, "exclude"))
		json_object_set(line, "exclude", json_object_get(t, "exclude"));
	if (branch) {
		json_t *b = json_array();
		for (size_t i = 0; i < json_array_size(json_object_get(t, "events")); i++)
			json_array_append_new(b, json_integer((json_int_t)branch));
		json_object_set_new(line, "branch_sample_type", b);
	}
	return line;
}

/* The "mmcr" expectations, read from the result's registers. */
static void check_mmcr_bits(struct ctx *c, const char *label, const json_t *t, const json_t *r)
{
	const char *key;
	const json_t *want;
	json_object_foreach((json_t *)json_object_get(t, "mmcr"), key, want) {
		struct mmcr_bits b;
		uint64_t reg, w;
		if (mmcr_bits_parse(key, &b) < 0)
			return fail(c, label, "cannot read expectation '%s'", key);
		if (!value_of(json_object_get(r, b.reg), &reg) || !value_of(want, &w))
			return fail(c, label, "no %s in %s", b.reg, dump(r));
		uint64_t got = (reg >> b.lsb) & ((1ULL << b.width) - 1);
		if (got != w)
			return fail(c, label, "%s is 0x%" PRIx64 ", expected 0x%" PRIx64
				    " (%s 0x%" PRIx64 ")", key, got, w, b.reg, reg);
	}
	c->passed++;
}

static void check_selftest_result(struct ctx *c, const struct variant *v, const json_t *t,
				  const json_t *r)
{
	if (!json_is_boolean(json_object_get(r, "ok")))
		return fail(c, v->label, "no result: %s", dump(r));
	if (json_is_true(json_object_get(r, "ok")) != v->want_ok)
		return fail(c, v->label, "expected %s, got %s", v->want_ok ? "ok" : "reject", dump(r));
	if (!v->want_ok && json_object_get(t, "reject_index") &&
	    !json_equal(json_object_get(t, "reject_index"), json_object_get(r, "reject_index")))
		return fail(c, v->label, "expected reject_index %" JSON_INTEGER_FORMAT ", got %s",
			    json_integer_value(json_object_get(t, "reject_index")), dump(r));
	if (v->want_ok && json_object_get(t, "mmcr"))
		return check_mmcr_bits(c, v->label, t, r);
	c->passed++;
}

static void run_selftest_batch(struct ctx *c, const json_t *t)
{
	const char *name = json_string_value(json_object_get(t, "name"));
	bool want_ok = strcmp(json_string_value(json_object_get(t, "expect")), "ok") == 0;
	const char *bst = json_string_value(json_object_get(t, "branch_sample_type"));
	struct variant v[MAX_VARIANTS];
	int n = 1;
	if (bst) {
		n = branch_variants(name, bst, want_ok, v);
	} else {
		v[0] = (struct variant){.want_ok = want_ok};
		snprintf(v[0].label, sizeof(v[0].label), "%s", name);
	}
	if (n == 0)
		fail(c, name, "branch_sample_type '%s' gives no run", bst);
	for (int i = 0; i < n; i++) {
		if (bst && !v[i].branch) {
			fail(c, v[i].label, "unknown branch_sample_type '%s'", bst);
			continue;
		}
		json_t *line = selftest_line(t, v[i].branch), *results = NULL;
		char *text = json_dumps(line, JSON_COMPACT);
		int rc = run_batch(c, NULL, 0, text, &results);
		if (rc != 0 || json_array_size(results) != 1)
			fail(c, v[i].label, "pmutool exited %d: %s", rc, dump(results));
		else
			check_selftest_result(c, &v[i], t, json_array_get(results, 0));
		free(text);
		json_decref(line);
		json_decref(results);
	}
}

/* The codes power10-pmu.c maps them to on DD2: power10_generic_events[] and
 * power10_cache_events[][][] (0: not supported, ~0: invalid), with the codes
 * of power10-events-list.h. */
static const uint64_t kernel_generic[] = {0x600f4, 0x500fa, 0x100fc, 0x400f0, 0x2f04a, 0x3e098};
#define NOSUP 0
#define INVAL UINT64_MAX
static const uint64_t kernel_cache[7][3][2] = {
	{{0x100fc, 0x3e054}, {NOSUP, 0x300f0}, {0x1002c, NOSUP}},                 /* L1D */
	{{0x04080, 0x200fc}, {0x03f00000001c040, INVAL}, {0x040a0, NOSUP}},       /* L1I */
	{{0x01340000001c040, 0x300fe}, {0x010000046080, 0x26880}, {0x100000016080, NOSUP}}, /* LL */
	{{NOSUP, 0x300fc}, {INVAL, INVAL}, {INVAL, INVAL}},                       /* DTLB */
	{{NOSUP, 0x400fc}, {INVAL, INVAL}, {INVAL, INVAL}},                       /* ITLB */
	{{0x4d05e, 0x400f6}, {INVAL, INVAL}, {INVAL, INVAL}},                     /* BPU */
	{{INVAL, INVAL}, {INVAL, INVAL}, {INVAL, INVAL}},                         /* NODE */
};

/* The kernel's code for a generic case, 0 when it has none. */
static uint64_t kernel_code(const json_t *t, uint64_t config)
{
	if (strcmp(json_string_value(json_object_get(t, "type")), "PERF_TYPE_HARDWARE") == 0)
		return config < 6 ? kernel_generic[config] : 0;
	uint64_t type = config & 0xff, op = (config >> 8) & 0xff, result = (config >> 16) & 0xff;
	if (type >= 7 || op >= 3 || result >= 2 || config >> 24)
		return 0; /* hw_perf_cache_event: -EINVAL */
	uint64_t c = kernel_cache[type][op][result];
	return c == INVAL ? 0 : c;
}

static uint64_t config_of(const json_t *t)
{
	uint64_t config = 0;
	value_of(json_object_get(t, "config"), &config);
	return config;
}

/* Alone in a group the event keeps its code: it must be the kernel's. */
static bool generic_code_matches(const json_t *t, const json_t *r)
{
	uint64_t got;
	return value_of(json_array_get(json_object_get(r, "final_events"), 0), &got) &&
	       got == kernel_code(t, config_of(t));
}

/* PERF_TYPE_HARDWARE / HW_CACHE cases as batch lines with "type": the
 * description's generic and cache maps through pmurt_event_from_attr. */
static void run_selftest_generic(struct ctx *c, const json_t *t)
{
	const char *name = json_string_value(json_object_get(t, "name"));
	bool want_ok = strcmp(json_string_value(json_object_get(t, "expect")), "ok") == 0;
	bool hw = strcmp(json_string_value(json_object_get(t, "type")), "PERF_TYPE_HARDWARE") == 0;
	char line[160];
	snprintf(line, sizeof(line), "{\"events\":[\"0x%" PRIx64 "\"],\"type\":[\"%s\"]}\n",
		 config_of(t), hw ? "hardware" : "hw_cache");
	json_t *results = NULL;
	int rc = run_batch(c, NULL, 0, line, &results);
	const json_t *r = json_array_get(results, 0);
	if (rc != 0 || !json_is_boolean(json_object_get(r, "ok")))
		fail(c, name, "pmutool exited %d: %s", rc, dump(results));
	else if (json_is_true(json_object_get(r, "ok")) != want_ok)
		fail(c, name, "expected %s, got %s", want_ok ? "ok" : "reject", dump(r));
	else if (want_ok && !generic_code_matches(t, r))
		fail(c, name, "counts %s, the kernel maps it to 0x%" PRIx64,
		     dump(json_object_get(r, "final_events")), kernel_code(t, config_of(t)));
	else if (!want_ok && json_integer_value(json_object_get(r, "reject_index")) != 0)
		fail(c, name, "expected reject_index 0, got %s", dump(r));
	else
		c->passed++;
	json_decref(results);
}

static size_t count_category(const json_t *doc, const char *cat)
{
	size_t n = 0, i;
	const json_t *t;
	json_array_foreach(doc, i, t)
		n += strcmp(category(t), cat) == 0;
	return n;
}

static int mode_selftests(struct ctx *c, const char *path, const char *cat, size_t pinned)
{
	if (strcmp(cat, "raw") != 0 && strcmp(cat, "branch") != 0 && strcmp(cat, "generic") != 0) {
		fprintf(stderr, "vectors: category '%s' is not raw, branch or generic\n", cat);
		return 2;
	}
	json_t *doc = load_json(path);
	if (!json_is_array(doc)) {
		json_decref(doc);
		return 2;
	}
	char what[64];
	snprintf(what, sizeof(what), "selftests (%s)", cat);
	if (!count_as_pinned(what, count_category(doc, cat), pinned)) {
		json_decref(doc);
		return 1;
	}
	const json_t *t;
	size_t i;
	json_array_foreach(doc, i, t) {
		if (strcmp(category(t), cat) != 0)
			continue;
		if (strcmp(cat, "generic") == 0)
			run_selftest_generic(c, t);
		else
			run_selftest_batch(c, t);
	}
	json_decref(doc);
	return finish(c, what);
}

/* How many cases of the file are called NAME. */
static size_t count_named(const json_t *doc, const char *name)
{
	size_t n = 0, i;
	const json_t *t;
	json_array_foreach(doc, i, t)
		n += json_is_string(json_object_get(t, "name")) &&
		     strcmp(json_string_value(json_object_get(t, "name")), name) == 0;
	return n;
}

/* Is the case NAME among the "not-tested:NAME" arguments? */
static bool named_not_tested(const char *name, char **args, int nargs)
{
	for (int i = 0; i < nargs; i++)
		if (strncmp(args[i], "not-tested:", 11) == 0 && strcmp(args[i] + 11, name) == 0)
			return true;
	return false;
}

/* Each CATEGORY:COUNT argument against the file. */
static bool categories_as_pinned(const json_t *doc, char **args, int nargs, size_t *sum)
{
	bool ok = true;
	for (int i = 0; i < nargs; i++) {
		size_t colon = strcspn(args[i], ":"), pinned;
		if (strncmp(args[i], "not-tested:", 11) == 0)
			continue;
		char cat[32], what[64];
		snprintf(cat, sizeof(cat), "%.*s", (int)colon, args[i]);
		snprintf(what, sizeof(what), "selftests (%s)", cat);
		if (!args[i][colon] || !parse_count(args[i] + colon + 1, &pinned)) {
			printf("FAIL %s: not CATEGORY:COUNT\n", args[i]);
			ok = false;
			continue;
		}
		ok = count_as_pinned(what, count_category(doc, cat), pinned) && ok;
		*sum += pinned;
	}
	return ok;
}

/* Every case is run by a category or named as not tested, and the numbers
 * add up to TOTAL: a case added to or removed from the file fails. */
static int mode_account(const char *path, size_t total, char **args, int nargs)
{
	json_t *doc = load_json(path);
	if (!json_is_array(doc)) {
		json_decref(doc);
		return 2;
	}
	size_t sum = 0, not_tested = 0, i;
	bool ok = categories_as_pinned(doc, args, nargs, &sum);
	const json_t *t;
	json_array_foreach(doc, i, t) {
		const char *name = json_string_value(json_object_get(t, "name"));
		bool listed = named_not_tested(name ? name : "", args, nargs);
		if (strcmp(category(t), "not-tested") != 0) {
			if (listed) {
				printf("FAIL %s: named not-tested but its category is %s\n", name,
				       category(t));
				ok = false;
			}
			continue;
		}
		if (!listed) {
			printf("FAIL %s: checks interrupt-time state and is not named not-tested\n",
			       name);
			ok = false;
			continue;
		}
		printf("not tested: %s (MMCR0 PMAO/PMAE are set at interrupt time, not by "
		       "compute_mmcr)\n", name);
		not_tested++;
	}
	for (int a = 0; a < nargs; a++)
		if (strncmp(args[a], "not-tested:", 11) == 0 && !count_named(doc, args[a] + 11)) {
			printf("FAIL %s: no such case in %s\n", args[a] + 11, path);
			ok = false;
		}
	printf("selftests: %zu cases, %zu in the categories, %zu not tested\n",
	       json_array_size(doc), sum, not_tested);
	if (json_array_size(doc) != total || sum + not_tested != total) {
		printf("FAIL selftests: %zu + %zu cases accounted for, %zu in the file, "
		       "expected %zu\n", sum, not_tested, json_array_size(doc), total);
		ok = false;
	}
	json_decref(doc);
	return ok ? 0 : 1;
}

/* --- hand-derived cases -------------------------------------------------------- */
struct hcase {
	char name[128];
	char *opts[8];
	int nopts;
	char in[2048];
	int line;       /* of the "case" line; 0 before the first */
	bool has_in, done;
};

/* What an accepted case must state: the final codes, the counters and every
 * MMCR, so that no register can be wrong unnoticed. */
static const char *const accepted_keys[] = {"final_events", "pmc", "mmcr0", "mmcr1",
					    "mmcr2", "mmcr3", "mmcra"};

static bool states_every_result(struct ctx *c, const struct hcase *h, const json_t *want)
{
	if (!json_is_true(json_object_get(want, "ok")))
		return true;
	for (size_t k = 0; k < sizeof(accepted_keys) / sizeof(accepted_keys[0]); k++)
		if (!json_object_get(want, accepted_keys[k])) {
			fail(c, h->name, "line %d: an accepted case must state %s", h->line,
			     accepted_keys[k]);
			return false;
		}
	return true;
}

static void run_case(struct ctx *c, struct hcase *h, const char *out, int lineno)
{
	json_error_t e;
	json_t *want = json_loads(out, 0, &e), *results = NULL;
	h->done = true;
	if (!h->has_in || !json_is_boolean(json_object_get(want, "ok"))) {
		fail(c, h->name, "line %d: a case needs an 'in' line, then an 'out' line "
			"with a JSON object holding \"ok\"", lineno);
		return json_decref(want);
	}
	if (!states_every_result(c, h, want))
		return json_decref(want);
	char text[2100];
	snprintf(text, sizeof(text), "%s\n", h->in);
	int rc = run_batch(c, (const char *const *)h->opts, h->nopts, text, &results);
	const json_t *r = json_array_get(results, 0);
	const char *key;
	const json_t *v;
	bool ok = rc == 0 && json_array_size(results) == 1;
	json_object_foreach(want, key, v) /* null: the key must be absent */
		ok = ok && (json_is_null(v) ? !json_object_get(r, key)
					    : json_equal(v, result_value(c, r, key)));
	if (ok)
		c->passed++;
	else
		fail(c, h->name, "got %s (exit %d), expected %s", dump(r), rc, out);
	json_decref(want);
	json_decref(results);
}

/* The case before a new "case" line, or the end of the file, must have
 * been run: an 'in' without its 'out' (or a bare "case") fails. */
static void close_case(struct ctx *c, const struct hcase *h)
{
	if (h->line && !h->done)
		fail(c, h->name, "line %d: the case has %s", h->line,
		     h->has_in ? "an 'in' line but no 'out' line" : "no 'in' and 'out' lines");
}

static void case_header(struct hcase *h, char *rest, int lineno)
{
	for (int i = 0; i < h->nopts; i++)
		free(h->opts[i]);
	*h = (struct hcase){.line = lineno};
	char *tok = strtok(rest, " \t\n");
	snprintf(h->name, sizeof(h->name), "%s", tok ? tok : "?");
	while ((tok = strtok(NULL, " \t\n")) && h->nopts < 8)
		h->opts[h->nopts++] = strdup(tok);
}

static void case_line(struct ctx *c, struct hcase *h, char *line, int lineno)
{
	if (strncmp(line, "case ", 5) == 0) {
		close_case(c, h);
		case_header(h, line + 5, lineno);
	} else if (strncmp(line, "in ", 3) == 0 && h->line && !h->has_in) {
		snprintf(h->in, sizeof(h->in), "%s", line + 3);
		h->has_in = true;
	} else if (strncmp(line, "out ", 4) == 0 && h->line && !h->done) {
		run_case(c, h, line + 4, lineno);
	} else if (line[0] && line[0] != '#') {
		fail(c, h->line ? h->name : "cases", "line %d: unexpected '%.40s'", lineno, line);
	}
}

static int mode_cases(struct ctx *c, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return perror(path), 2;
	struct hcase h = {0};
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		case_line(c, &h, line, lineno);
	}
	close_case(c, &h);
	case_header(&h, (char[]){""}, 0);
	free(line);
	fclose(f);
	return finish(c, "hand-derived cases");
}

/* Arguments: mode, then its fixed operands, then pmutool options. */
int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	size_t count = 0, total = 0;
	if (argc == 3 && strcmp(mode, "tobatch") == 0)
		return mode_tobatch(argv[2]);
	if (argc >= 4 && strcmp(mode, "account") == 0 && parse_count(argv[3], &total))
		return mode_account(argv[2], total, argv + 4, argc - 4);
	struct ctx c = {.tool = argc > 2 ? argv[2] : ""};
	int first = strcmp(mode, "selftests") == 0 ? 6 : strcmp(mode, "cases") == 0 ? 4 : 5;
	if (argc > first && strncmp(argv[first], "--absent=", 9) == 0) {
		c.absent = argv[first] + 9;
		memmove(argv + first, argv + first + 1, (size_t)(argc - first) * sizeof(*argv));
		argc--;
	}
	if (argc >= 5 && strcmp(mode, "mmcr") == 0 && parse_count(argv[4], &count)) {
		c.opts = argv + 5;
		c.nopts = argc - 5;
		return mode_mmcr(&c, argv[3], count);
	}
	if (argc >= 6 && strcmp(mode, "selftests") == 0 && parse_count(argv[5], &count)) {
		c.opts = argv + 6;
		c.nopts = argc - 6;
		return mode_selftests(&c, argv[3], argv[4], count);
	}
	if (argc >= 4 && strcmp(mode, "cases") == 0) {
		c.opts = argv + 4;
		c.nopts = argc - 4;
		return mode_cases(&c, argv[3]);
	}
	fprintf(stderr, "usage: vectors tobatch|mmcr|selftests|account|cases ... (see vectors.c)\n");
	return 2;
}
