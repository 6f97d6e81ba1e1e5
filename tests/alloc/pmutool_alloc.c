/*
 * pmutool_alloc.c - the allocator pmutool_alloc (pmutool itself, built once
 * more by tests/alloc.cmake) runs with: the linker's --wrap sends malloc,
 * calloc, realloc, strdup, strndup and free of pmutool, libpmurt and the
 * static libyaml here, and jansson's allocations come here through
 * json_set_alloc_funcs.  PMUTOOL_FAIL_AT=N fails allocation N (1-based);
 * at exit, "pmutool_alloc: N allocations" goes to stderr, so that the
 * driver (tests/alloc/pmutool_enomem.sh) knows when every allocation of a
 * command has been failed once.  The state lives here, none in pmutool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "alloc_wrap.h"

static long fail_at; /* 0: none */
static long calls;


static int fail_now(void)
{
	return ++calls == fail_at;
}

void *__wrap_malloc(size_t size)
{
	return fail_now() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return fail_now() ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return fail_now() ? NULL : __real_strndup(s, n);
}

void __wrap_free(void *p)
{
	__real_free(p);
}

static void report(void)
{
	fprintf(stderr, "pmutool_alloc: %ld allocations\n", calls);
}

__attribute__((constructor)) static void arm(void)
{
	const char *at = getenv("PMUTOOL_FAIL_AT");
	fail_at = at ? atol(at) : 0;
	json_set_alloc_funcs(__wrap_malloc, __wrap_free);
	atexit(report);
}
