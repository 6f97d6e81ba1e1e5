/*
 * api_test.c - libpmurt's public API is safe to grow and to reuse:
 * pmurt_group_check reads an event array at the caller's element size (a
 * caller built against the older, smaller struct pmurt_event_spec gets the
 * right answer, a newer one with unknown fields set gets -E2BIG); every
 * function taking a struct pmurt_error clears it on entry, so a reused one
 * reports this call's outcome; a failed open leaves *pmu NULL; a message
 * longer than its buffer ends with "..." after whole UTF-8 characters; an
 * any-counter event never lands on a fixed counter (tests/api/no-count.yaml);
 * the reschedule fields say when the next schedule refuses a group.
 *
 * usage: api_test POWER10.dtb NO-COUNT.yaml
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pmurt.h"

static int failures;

/* PMURT_0.1's struct pmurt_event_spec, before branch_sample_type: what a
 * caller built against that header holds. */
struct old_event_spec {
	size_t sz;
	uint32_t type;
	uint64_t config;
	uint64_t config1;
	uint64_t code;
	unsigned exclude;
	int precise;
	uint64_t sample_period;
	int event_index;
	char name[64];
};

/* A later header's struct: one field this library does not know. */
struct new_event_spec {
	struct pmurt_event_spec spec;
	uint64_t future_field;
};

static struct old_event_spec old_raw(uint64_t code)
{
	struct old_event_spec e = {.sz = sizeof(e), .type = 4, .config = code, .code = code,
				   .event_index = -1};
	snprintf(e.name, sizeof(e.name), "0x%" PRIx64, code);
	return e;
}

static struct pmurt_event_spec raw(uint64_t code)
{
	struct pmurt_event_spec e = {.sz = sizeof(e), .type = 4, .config = code, .code = code,
				     .event_index = -1};
	snprintf(e.name, sizeof(e.name), "0x%" PRIx64, code);
	return e;
}

static int check_old(struct pmurt_pmu *pmu, const struct old_event_spec *ev, int n,
		     struct pmurt_group_result *res)
{
	struct pmurt_error err = {0};
	*res = (struct pmurt_group_result){.sz = sizeof(*res)};
	int rc = pmurt_group_check(pmu, (const struct pmurt_event_spec *)(const void *)ev, n,
				   sizeof(ev[0]), NULL, res, &err);
	CHECK(rc == 0 && err.code == 0, "older-layout group: rc %d: %s", rc, err.message);
	return rc;
}

/* The older layout is smaller: with the library's own stride its second
 * event would be read from the middle of the first. */
static void test_older_layout(struct pmurt_pmu *pmu)
{
	CHECK(sizeof(struct old_event_spec) < sizeof(struct pmurt_event_spec),
	      "old layout %zu bytes, current %zu", sizeof(struct old_event_spec),
	      sizeof(struct pmurt_event_spec));
	struct pmurt_group_result res;
	struct old_event_spec fits[3] = {old_raw(0x100f0), old_raw(0x200f4), old_raw(0x300fc)};
	if (!check_old(pmu, fits, 3, &res)) {
		CHECK(res.ok && res.n == 3, "PMC1+PMC2+PMC3 events: ok %d n %d (%s)", res.ok,
		      res.n, res.message);
		for (int i = 0; i < 3 && res.ok; i++)
			CHECK(res.pmc[i] == i + 1 && res.final_events[i] == fits[i].code,
			      "event %d on PMC%d as 0x%" PRIx64, i, res.pmc[i],
			      res.final_events[i]);
	}
	/* two events both needing PMC1: the kernel refuses the second */
	struct old_event_spec clash[3] = {old_raw(0x200f4), old_raw(0x100f0), old_raw(0x100fc)};
	if (!check_old(pmu, clash, 3, &res))
		CHECK(!res.ok && res.reject_index == 2 &&
		      strcmp(res.reason, "constraint_conflict") == 0,
		      "two PMC1 events: ok %d reject_index %d reason %s", res.ok,
		      res.reject_index, res.reason);
}

static void test_newer_layout(struct pmurt_pmu *pmu)
{
	struct new_event_spec ev[2] = {{raw(0x100f0), 0}, {raw(0x200f4), 0}};
	for (int i = 0; i < 2; i++)
		ev[i].spec.sz = sizeof(ev[i]);
	struct pmurt_group_result res = {.sz = sizeof(res)};
	struct pmurt_error err = {0};
	int rc = pmurt_group_check(pmu, &ev[0].spec, 2, sizeof(ev[0]), NULL, &res, &err);
	CHECK(rc == 0 && res.ok && res.pmc[1] == 2, "newer layout, unknown field 0: rc %d ok %d: %s",
	      rc, res.ok, err.message);
	ev[1].future_field = 1;
	rc = pmurt_group_check(pmu, &ev[0].spec, 2, sizeof(ev[0]), NULL, &res, &err);
	CHECK(rc == -E2BIG && err.code == -E2BIG && strstr(err.message, "event 1"),
	      "newer layout, unknown field set: rc %d: %s", rc, err.message);
}

static void test_element_size_errors(struct pmurt_pmu *pmu)
{
	struct pmurt_event_spec ev[2] = {raw(0x100f0), raw(0x200f4)};
	struct pmurt_group_result res = {.sz = sizeof(res)};
	struct pmurt_error err = {0};
	int rc = pmurt_group_check(pmu, ev, 2, offsetof(struct pmurt_event_spec, name), NULL, &res,
				   &err);
	CHECK(rc == -EINVAL && strstr(err.message, "element size"),
	      "element size below the oldest struct: rc %d: %s", rc, err.message);
	ev[1].sz = sizeof(struct old_event_spec);
	rc = pmurt_group_check(pmu, ev, 2, sizeof(ev[0]), NULL, &res, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "event 1 has sz"),
	      "an element whose sz differs from the stride: rc %d: %s", rc, err.message);
}

/* --- errors ------------------------------------------------------------------ */
static const struct pmurt_error stale = {.code = -EIO, .message = "stale: an earlier call"};

/* After a call that succeeded: the stale error is gone. */
static void check_cleared(const char *call, int rc, const struct pmurt_error *err)
{
	CHECK(rc >= 0 && err->code == 0 && err->message[0] == '\0',
	      "%s on a reused error: rc %d, code %d, message '%s'", call, rc, err->code,
	      err->message);
}

/* After a call that failed: this call's code and message, not the stale ones. */
static void check_replaced(const char *call, int rc, const struct pmurt_error *err,
			   const char *expect)
{
	CHECK(rc < 0 && err->code == rc && strstr(err->message, expect),
	      "%s on a reused error: rc %d, code %d, message '%s' (want '%s')", call, rc,
	      err->code, err->message, expect);
}

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = f ? malloc(1 << 20) : NULL;
	*size = buf ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

static void test_open_resets(const char *dtb_path)
{
	struct pmurt_error err = stale;
	struct pmurt_pmu *pmu = NULL;
	check_cleared("pmurt_pmu_open", pmurt_pmu_open(&pmu, "power10", NULL, &err), &err);
	pmurt_pmu_close(pmu);
	err = stale;
	pmu = (struct pmurt_pmu *)&err; /* any non-NULL value: a failure sets NULL */
	check_replaced("pmurt_pmu_open", pmurt_pmu_open(&pmu, "/nonexistent.yaml", NULL, &err),
		       &err, "/nonexistent.yaml");
	CHECK(pmu == NULL, "failed pmurt_pmu_open leaves *pmu %p", (void *)pmu);

	size_t size = 0;
	void *blob = read_file(dtb_path, &size);
	CHECK(blob && size > 0, "cannot read %s", dtb_path);
	err = stale;
	pmu = NULL;
	check_cleared("pmurt_pmu_open_dtb", pmurt_pmu_open_dtb(&pmu, blob, size, "p10", &err),
		      &err);
	pmurt_pmu_close(pmu);
	err = stale;
	pmu = (struct pmurt_pmu *)&err;
	check_replaced("pmurt_pmu_open_dtb", pmurt_pmu_open_dtb(&pmu, blob, 16, "short", &err),
		       &err, "short");
	CHECK(pmu == NULL, "failed pmurt_pmu_open_dtb leaves *pmu %p", (void *)pmu);
	free(blob);
	pmurt_pmu_close(NULL); /* documented as safe */
}

static void test_calls_reset(struct pmurt_pmu *pmu)
{
	struct pmurt_event_info info = {.sz = sizeof(info)};
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	struct pmurt_error err = stale;
	check_cleared("pmurt_event_find", pmurt_event_find(pmu, "PM_CYC", &info, &err), &err);
	err = stale;
	check_replaced("pmurt_event_find", pmurt_event_find(pmu, "PM_CYX", &info, &err), &err,
		       "no event 'PM_CYX'");
	err = stale;
	check_cleared("pmurt_parse_event", pmurt_parse_event(pmu, "PM_CYC:u", &spec, &err), &err);
	err = stale;
	check_replaced("pmurt_parse_event", pmurt_parse_event(pmu, "PM_CYC:q", &spec, &err), &err,
		       "offset");
	err = stale;
	check_cleared("pmurt_event_from_attr", pmurt_event_from_attr(pmu, 4, 0x100f0, &spec, &err),
		      &err);
	err = stale;
	check_replaced("pmurt_event_from_attr", pmurt_event_from_attr(pmu, 99, 0, &spec, &err),
		       &err, "perf type 99");

	struct pmurt_event_spec ev[2] = {raw(0x100f0), raw(0x100fc)};
	struct pmurt_group_result res = {.sz = sizeof(res)};
	err = stale;
	int rc = pmurt_group_check(pmu, ev, 2, sizeof(ev[0]), NULL, &res, &err);
	check_cleared("pmurt_group_check (a rejected group)", rc, &err);
	CHECK(!res.ok, "two PMC1 events accepted");
	err = stale;
	check_replaced("pmurt_group_check", pmurt_group_check(pmu, ev, 0, sizeof(ev[0]), NULL, &res,
							      &err),
		       &err, "1 to 16 events");
}

/* --- truncation ---------------------------------------------------------------- */
/* Well-formed UTF-8: each lead byte followed by its continuation bytes. */
static bool valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int more = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2
			 : (*p & 0xf8) == 0xf0 ? 3 : -1;
		if (more < 0)
			return false;
		p++;
		for (int i = 0; i < more; i++, p++)
			if ((*p & 0xc0) != 0x80)
				return false;
	}
	return true;
}

/* An event name of 2-byte and 3-byte characters, far longer than the
 * message: whichever byte the buffer ends on, the message is cut before a
 * whole character and ends with "...". */
static void test_truncation(struct pmurt_pmu *pmu)
{
	for (int shift = 0; shift < 6; shift++) {
		char name[1100];
		size_t len = (size_t)snprintf(name, sizeof(name), "%.*s", shift, "PM_xyz");
		while (len + 5 < sizeof(name))
			len += (size_t)snprintf(name + len, sizeof(name) - len, "\xc3\xa9\xe2\x82\xac");
		struct pmurt_event_info info = {.sz = sizeof(info)};
		struct pmurt_error err = {0};
		int rc = pmurt_event_find(pmu, name, &info, &err);
		size_t mlen = strlen(err.message);
		CHECK(rc == -ENOENT && mlen < sizeof(err.message) && mlen >= sizeof(err.message) - 4 &&
		      strcmp(err.message + mlen - 3, "...") == 0 && valid_utf8(err.message),
		      "shift %d: rc %d, %zu bytes, ends '%s', valid UTF-8 %d", shift, rc, mlen,
		      err.message + (mlen > 8 ? mlen - 8 : 0), valid_utf8(err.message));
	}
	/* a message that fits is left whole */
	struct pmurt_error err = {0};
	struct pmurt_event_info info = {.sz = sizeof(info)};
	pmurt_event_find(pmu, "PM_\xc3\xa9", &info, &err);
	CHECK(strcmp(err.message, "no event 'PM_\xc3\xa9'") == 0, "short message '%s'", err.message);
}

/* --- counters ----------------------------------------------------------------- */
static void check_named(struct pmurt_pmu *pmu, const char *group, bool ok, int reject_index,
			const int *pmc)
{
	struct pmurt_event_spec ev[PMURT_MAX_GROUP];
	char copy[128];
	snprintf(copy, sizeof(copy), "%s", group);
	int n = 0;
	for (char *save, *name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		ev[n] = (struct pmurt_event_spec){.sz = sizeof(ev[n])};
		struct pmurt_error err = {0};
		CHECK(pmurt_parse_event(pmu, name, &ev[n], &err) == 0, "%s: %s", name, err.message);
		n++;
	}
	struct pmurt_group_result res = {.sz = sizeof(res)};
	struct pmurt_error err = {0};
	int rc = pmurt_group_check(pmu, ev, n, sizeof(ev[0]), NULL, &res, &err);
	CHECK(rc == 0 && res.ok == ok, "%s: rc %d ok %d: %s %s", group, rc, res.ok, err.message,
	      res.message);
	if (rc || res.ok != ok)
		return;
	if (!ok) {
		CHECK(res.reject_index == reject_index &&
		      strcmp(res.reason, "no_programmable_counter") == 0 &&
		      strstr(res.message, "PMC1-PMC2 are all taken"),
		      "%s: rejected at %d (%s): %s", group, res.reject_index, res.reason, res.message);
		return;
	}
	for (int i = 0; i < n; i++)
		CHECK(res.pmc[i] == pmc[i], "%s: event %d on PMC%d, not PMC%d", group, i, res.pmc[i],
		      pmc[i]);
}

static void test_no_count_constraint(const char *yaml)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, yaml, NULL, &err)) {
		CHECK(0, "%s", err.message);
		return;
	}
	check_named(pmu, "ANY_A,ANY_B", true, -1, (const int[]){1, 2});
	check_named(pmu, "CYC,ANY_A,ANY_B", true, -1, (const int[]){3, 1, 2});
	/* the third any-counter event would have landed on the fixed PMC3 */
	check_named(pmu, "ANY_A,ANY_B,ANY_C", false, 2, NULL);
	check_named(pmu, "ANY_A,CYC,ANY_B,ANY_C", false, 3, NULL);
	pmurt_pmu_close(pmu);
}

/* The 0.4 reschedule fields (POWER9's second schedule): set for a group the
 * next schedule refuses, empty for one it takes; a caller built before them
 * (sz ending at regs) gets its smaller struct filled and nothing beyond. */
static void check_reschedule(struct pmurt_pmu *p9, const uint64_t *codes, int n,
			     const char *want)
{
	struct pmurt_event_spec ev[6];
	for (int i = 0; i < n; i++)
		ev[i] = raw(codes[i]);
	struct pmurt_group_result res = {.sz = sizeof(res)};
	int rc = pmurt_group_check(p9, ev, n, sizeof(ev[0]), NULL, &res, NULL);
	CHECK(rc == 0 && res.ok && strcmp(res.reschedule_reason, want) == 0 &&
		      (want[0] != '\0') == (res.reschedule_message[0] != '\0'),
	      "reschedule: rc %d ok %d reason '%s' (want '%s') message '%s'", rc, res.ok,
	      res.reschedule_reason, want, res.reschedule_message);
	unsigned char old[sizeof(res)];
	size_t old_sz = offsetof(struct pmurt_group_result, reschedule_reason);
	memset(old, 0xaa, sizeof(old));
	memcpy(old, &old_sz, sizeof(old_sz));
	rc = pmurt_group_check(p9, ev, n, sizeof(ev[0]), NULL,
			       (struct pmurt_group_result *)(void *)old, NULL);
	bool untouched = true;
	for (size_t i = old_sz; i < sizeof(old); i++)
		untouched = untouched && old[i] == 0xaa;
	CHECK(rc == 0 && untouched, "reschedule: an older result struct written past its sz");
}

static void test_reschedule(void)
{
	struct pmurt_pmu *p9 = NULL;
	if (pmurt_pmu_open(&p9, "power9", NULL, NULL)) {
		CHECK(false, "reschedule: cannot open the built-in power9");
		return;
	}
	static const uint64_t refused[] = {0x600f4, 0x2, 0x400f0, 0x20036, 0x300f2, 0xe19022};
	static const uint64_t fine[] = {0x2, 0x100f0, 0x200f2, 0x300fc, 0x400fc};
	check_reschedule(p9, refused, 6, "group_constraint_pmc4");
	check_reschedule(p9, fine, 5, "");
	pmurt_pmu_close(p9);
}

/* pmurt_generations: what the other built-in descriptions make of a name
 * and of a raw code, in pmurt_builtin_name order without the handle's own;
 * an older caller's smaller entries are written to their size only. */
static const struct pmurt_generation *generation_of(const struct pmurt_generation *g, int n,
						    const char *platform)
{
	for (int i = 0; i < n; i++)
		if (g[i].platform && strcmp(g[i].platform, platform) == 0)
			return &g[i];
	return NULL;
}

static void test_generations(void)
{
	struct pmurt_pmu *p8 = NULL;
	if (pmurt_pmu_open(&p8, "power8", NULL, NULL)) {
		CHECK(false, "generations: cannot open the built-in power8");
		return;
	}
	struct pmurt_generation g[4];
	int n = pmurt_generations(p8, "pm_back_br_cmpl", 0, g, 4, sizeof(g[0]));
	const struct pmurt_generation *p9 = generation_of(g, n < 4 ? n : 4, "power9");
	const struct pmurt_generation *p10 = generation_of(g, n < 4 ? n : 4, "power10");
	const struct pmurt_generation *p11 = generation_of(g, n < 4 ? n : 4, "power11");
	CHECK(n == 3 && !generation_of(g, n, "power8"), "generations: %d entries, power8 among them", n);
	CHECK(p9 && p9->event && !strcmp(p9->event, "PM_BACK_BR_CMPL") && p9->code == 0x2505e &&
	      !p9->firmware, "generations: power9's PM_BACK_BR_CMPL");
	CHECK(p10 && !p10->event, "generations: power10 has no PM_BACK_BR_CMPL");
	CHECK(p11 && !p11->event && p11->pmu_name && !strcmp(p11->pmu_name, "Power11 PMU"),
	      "generations: power11 (POWER10's events) has no PM_BACK_BR_CMPL");
	n = pmurt_generations(p8, NULL, 0x100f8, g, 4, sizeof(g[0]));
	p9 = generation_of(g, n, "power9");
	p10 = generation_of(g, n, "power10");
	p11 = generation_of(g, n, "power11");
	CHECK(n == 3 && p9 && p9->event && !strcmp(p9->event, "PM_ICT_NOSLOT_CYC"),
	      "generations: 0x100f8 on power9");
	/* Power11's events are its base's: the same answer as POWER10's */
	CHECK(p10 && p11 && p10->event && p11->event && !strcmp(p10->event, p11->event) &&
	      p10->code == p11->code, "generations: 0x100f8 on power11 as on power10 (%s, %s)",
	      p10 && p10->event ? p10->event : "none", p11 && p11->event ? p11->event : "none");
	/* entries of the first two fields only, that far apart: the second
	 * names its platform, nothing past it is written */
	struct pmurt_generation small[2];
	memset(small, 0xaa, sizeof(small));
	size_t part = offsetof(struct pmurt_generation, event);
	const char *second;
	CHECK(pmurt_generations(p8, NULL, 0x100f8, small, 2, part) == 3, "generations: sized");
	memcpy(&second, (unsigned char *)small + part, sizeof(second));
	CHECK(second && !strcmp(second, "power9") &&
	      ((unsigned char *)small)[2 * part] == 0xaa, "generations: the second entry at size");
	CHECK(pmurt_generations(p8, NULL, 0, NULL, 2, sizeof(g[0])) == -EINVAL &&
	      pmurt_generations(NULL, NULL, 0, g, 2, sizeof(g[0])) == -EINVAL,
	      "generations: bad arguments");
	pmurt_pmu_close(p8);
	/* POWER10 and Power11 are one PMU: neither is another generation of the
	 * other, and a POWER10 name or code has no note on Power11 */
	struct pmurt_pmu *p11pmu = NULL, *p10pmu = NULL;
	CHECK(pmurt_pmu_open(&p11pmu, "power11", NULL, NULL) == 0 &&
	      pmurt_pmu_open(&p10pmu, "power10", NULL, NULL) == 0, "generations: open power10/11");
	n = pmurt_generations(p11pmu, "PM_BACK_BR_CMPL", 0, g, 4, sizeof(g[0]));
	CHECK(n == 2 && generation_of(g, n, "power9") && generation_of(g, n, "power8") &&
	      !generation_of(g, n, "power10"), "generations on power11: power9 and power8 (%d)", n);
	n = pmurt_generations(p10pmu, NULL, 0x100f8, g, 4, sizeof(g[0]));
	CHECK(n == 2 && !generation_of(g, n, "power11"), "generations on power10: no power11 (%d)", n);
	struct pmurt_event_spec spec = {.sz = sizeof(spec)};
	struct pmurt_error err;
	CHECK(pmurt_parse_event(p11pmu, "PM_BACK_BR_CMPL", &spec, &err) < 0 &&
	      strstr(err.message, "; power9 and power8 (0x2505e, no event here) have this name, "
				  "power11 does not") && !strstr(err.message, "power10"),
	      "power11's note on a POWER9 name: %s", err.message);
	pmurt_pmu_close(p11pmu);
	pmurt_pmu_close(p10pmu);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: api_test POWER10.dtb NO-COUNT.yaml\n");
		return 2;
	}
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err = {0};
	if (pmurt_pmu_open(&pmu, "power10", NULL, &err)) {
		fprintf(stderr, "api_test: %s\n", err.message);
		return 1;
	}
	test_older_layout(pmu);
	test_newer_layout(pmu);
	test_element_size_errors(pmu);
	test_open_resets(argv[1]);
	test_calls_reset(pmu);
	test_truncation(pmu);
	test_no_count_constraint(argv[2]);
	test_reschedule();
	test_generations();
	pmurt_pmu_close(pmu);
	if (failures)
		fprintf(stderr, "api_test: %d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
