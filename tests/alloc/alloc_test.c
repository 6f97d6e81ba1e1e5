/*
 * alloc_test.c - out of memory reaches the caller as -ENOMEM.  The test is
 * linked with the linker's --wrap for malloc, calloc, realloc, strdup,
 * strndup and free (tests/alloc.cmake; libyaml linked statically so its
 * allocations are wrapped too): the state that fails the Nth allocation
 * lives here, none in the library.  For N = 1, 2, ... over every allocation
 * pmurt_pmu_open makes on each source, the open must succeed or return
 * -ENOMEM with err saying so and *pmu NULL, and leave no allocation behind;
 * likewise every allocation of pmurt_pack on two POWER10 metric groups.
 * The one exception: libyaml's yaml_parser_load (also wrapped, to know when
 * it runs) itself loses a block when some of its allocations fail, after
 * the loader has called yaml_parser_delete; those are counted and printed,
 * not failed, as they are not libpmurt's to free.
 *
 * usage: alloc_test SPEC...   (a YAML file, a DTB file, "power10")
 * ALLOC_TEST_AT=N fails allocation N only (to debug one case under valgrind).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "alloc_wrap.h"
#include "check.h"
#include "pmurt.h"

static int failures;

/* --- the allocator wrappers ----------------------------------------------------- */
static long fail_at;  /* the allocation to fail, 1-based; 0: none */
static long calls;    /* allocations since arming */
static long live;     /* allocations not yet freed */
static bool in_yaml_load;      /* inside libyaml's yaml_parser_load */
static bool failed_in_yaml;    /* the failed allocation was libyaml's */


static bool fail_now(void)
{
	if (!fail_at || ++calls != fail_at)
		return false;
	failed_in_yaml = in_yaml_load;
	return true;
}

int __real_yaml_parser_load(yaml_parser_t *parser, yaml_document_t *doc);
int __wrap_yaml_parser_load(yaml_parser_t *parser, yaml_document_t *doc);

int __wrap_yaml_parser_load(yaml_parser_t *parser, yaml_document_t *doc)
{
	in_yaml_load = true;
	int ok = __real_yaml_parser_load(parser, doc);
	in_yaml_load = false;
	return ok;
}

static void *counted(void *p)
{
	if (p)
		live++;
	return p;
}

void *__wrap_malloc(size_t size)
{
	return fail_now() ? NULL : counted(__real_malloc(size));
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : counted(__real_calloc(n, size));
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : counted(__real_strdup(s));
}

char *__wrap_strndup(const char *s, size_t n)
{
	return fail_now() ? NULL : counted(__real_strndup(s, n));
}

void *__wrap_realloc(void *p, size_t size)
{
	if (fail_now())
		return NULL;
	void *q = __real_realloc(p, size);
	if (!p)
		return counted(q);
	if (!size && !q) /* realloc(p, 0) freed p */
		live--;
	return q;
}

void __wrap_free(void *p)
{
	if (p)
		live--;
	__real_free(p);
}

/* --- the test --------------------------------------------------------------------- */
/* Open spec with allocation n failing; true once an open made fewer than n
 * allocations (every one has been failed). */
static long libyaml_leaks; /* cases where yaml_parser_load lost memory */

static bool open_failing(const char *spec, long n)
{
	struct pmurt_pmu *pmu = (struct pmurt_pmu *)&pmu;
	struct pmurt_error err = {0};
	long before = live;
	calls = 0;
	failed_in_yaml = false;
	fail_at = n;
	int rc = pmurt_pmu_open(&pmu, spec, NULL, &err);
	fail_at = 0;
	bool done = calls < n;
	CHECK(rc == 0 || rc == -ENOMEM, "%s, allocation %ld failed: rc %d (%s): %s", spec, n, rc,
	      strerror(-rc), err.message);
	CHECK(err.code == rc, "%s, allocation %ld failed: rc %d, err.code %d", spec, n, rc,
	      err.code);
	if (rc) {
		CHECK(pmu == NULL, "%s, allocation %ld failed: *pmu not NULL", spec, n);
		CHECK(strstr(err.message, "out of memory"), "%s, allocation %ld: message '%s'", spec,
		      n, err.message);
	}
	CHECK(rc == 0 || !done, "%s: -ENOMEM with no allocation failed", spec);
	pmurt_pmu_close(rc ? NULL : pmu);
	if (live != before && failed_in_yaml && rc == -ENOMEM)
		libyaml_leaks++;
	else
		CHECK(live == before, "%s, allocation %ld failed: %ld allocation(s) leaked", spec,
		      n, live - before);
	live = before;
	return done;
}

/* pmurt_pack of a POWER10 metric group with allocation n failing: 0 or
 * -ENOMEM saying so, nothing leaked; true once it made fewer than n. */
static bool pack_failing(const struct pmurt_pmu *pmu, const char *group, long n)
{
	struct pmurt_pack *pk = (struct pmurt_pack *)&pk;
	struct pmurt_error err = {0};
	long before = live;
	calls = 0;
	fail_at = n;
	int rc = pmurt_pack(pmu, &group, 1, NULL, &pk, &err);
	fail_at = 0;
	bool done = calls < n;
	CHECK(rc == 0 || (rc == -ENOMEM && err.code == rc && strstr(err.message, "out of memory")),
	      "pack, allocation %ld failed: rc %d: %s", n, rc, err.message);
	CHECK(rc == 0 || pk == (struct pmurt_pack *)&pk, "pack, allocation %ld: *out set", n);
	if (rc == 0)
		pmurt_pack_free(pk);
	CHECK(live == before, "pack, allocation %ld failed: %ld allocation(s) leaked", n,
	      live - before);
	live = before;
	return done;
}

static void pack_enomem(void)
{
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_error err;
	if (pmurt_pmu_open(&pmu, "power10", NULL, &err)) {
		CHECK(0, "power10: %s", err.message);
		return;
	}
	/* CPI packs at its bound at once; Translation (4 groups, bound 3) goes
	 * through the ruin-and-recreate rounds too */
	const char *const groups[] = {"CPI", "Translation"};
	for (int g = 0; g < 2; g++) {
		int before = failures;
		long n = 1;
		while (!pack_failing(pmu, groups[g], n) && failures - before < 10)
			n++;
		printf("pmurt_pack %s: each of %ld allocations failed in turn\n", groups[g], n - 1);
	}
	pmurt_pmu_close(pmu);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: alloc_test SPEC...\n");
		return 2;
	}
	const char *at = getenv("ALLOC_TEST_AT");
	for (int i = 1; i < argc && at; i++)
		open_failing(argv[i], atol(at));
	for (int i = 1; i < argc && !at; i++) {
		int before = failures;
		long n = 1;
		while (!open_failing(argv[i], n) && failures - before < 10)
			n++;
		printf("%s: each of %ld allocations failed in turn (libyaml's yaml_parser_load "
		       "leaked in %ld of them)\n", argv[i], n - 1, libyaml_leaks);
		libyaml_leaks = 0;
		CHECK(n > 1, "%s: pmurt_pmu_open allocated nothing", argv[i]);
	}
	if (!at)
		pack_enomem();
	if (failures)
		fprintf(stderr, "alloc_test: %d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
