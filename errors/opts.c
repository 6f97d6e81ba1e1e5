/*
 * opts.c - the sized structs' one check and copies (opts.h).
 */
#include <errno.h>
#include <string.h>

#include "opts.h"

static size_t size_of(const void *opts)
{
	size_t sz;
	memcpy(&sz, opts, sizeof(sz));
	return sz;
}

static bool zero_bytes(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

int pmu_opts_valid(const void *opts, size_t known, const char *fn, struct pmurt_error *err)
{
	if (!opts)
		return 0;
	size_t sz = size_of(opts);
	if (sz < sizeof(size_t)) {
		pmurt_set_error(err, -EINVAL, "%s: opts->sz is %zu, smaller than the struct's own "
				"size member; set it with PMURT_OPTS_INIT or sizeof", fn, sz);
		return -EINVAL;
	}
	if (sz > known && !zero_bytes((const unsigned char *)opts + known, sz - known)) {
		pmurt_set_error(err, -EINVAL, "%s: opts (%zu bytes) sets fields past the %zu this "
				"library knows: built against a newer pmurt.h (pmurt_version() says "
				"which library runs)", fn, sz, known);
		return -EINVAL;
	}
	return 0;
}

void pmu_opts_take(void *dst, size_t known, const void *opts)
{
	if (!opts)
		return;
	size_t sz = size_of(opts);
	memcpy(dst, opts, sz < known ? sz : known);
	memcpy(dst, &known, sizeof(known));
}

void pmu_opts_give(void *out, const void *full, size_t known)
{
	size_t sz = size_of(out);
	if (sz < sizeof(sz))
		return;
	memcpy((unsigned char *)out + sizeof(sz), (const unsigned char *)full + sizeof(sz),
	       (sz < known ? sz : known) - sizeof(sz));
	if (sz > known)
		memset((unsigned char *)out + known, 0, sz - known);
}
