/*
 * opts.h - the one check of the structs a caller passes by size (the
 * options and result structs that begin with `size_t sz`), as libbpf's
 * OPTS_VALID and OPTS_GET do: a smaller struct from an older header is
 * taken, its missing fields keeping their defaults; a larger one from a
 * newer header is taken when the bytes this library does not know are
 * zero, and refused otherwise (a field the caller set would be ignored).
 * "What this library knows" is its sizeof of the struct, padding included:
 * a caller's padding need not be zero (a compound literal leaves it as it
 * was), so a field is only ever added past the struct's size in the
 * release before, never in its padding.  Not installed.
 */
#ifndef PMU_OPTS_H
#define PMU_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "errors.h"

/* opts (NULL, or a struct whose first member is its size) as fn may take
 * it: 0, or -EINVAL with err naming fn and what is wrong (a size smaller
 * than its sz member, unknown non-zero bytes past known). */
PMURT_HIDDEN int pmu_opts_valid(const void *opts, size_t known, const char *fn,
				struct pmurt_error *err);

/* The caller's opts over the defaults in *dst (known bytes, dst's own sz
 * set): the fields a smaller struct lacks keep the defaults.  opts checked
 * by pmu_opts_valid first; NULL leaves dst as it is. */
PMURT_HIDDEN void pmu_opts_take(void *dst, size_t known, const void *opts);

/* A result struct filled for the caller: full (known bytes, this
 * library's) into out, at most out's sz bytes, and zeros past known up to
 * out's sz (a newer header's fields this library cannot fill); out's sz is
 * kept. */
PMURT_HIDDEN void pmu_opts_give(void *out, const void *full, size_t known);

#endif /* PMU_OPTS_H */
