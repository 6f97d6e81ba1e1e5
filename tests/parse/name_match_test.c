/*
 * name_match_test.c - the event-name hash (tables/pmu_tables.h) and the
 * look-up's compare (runtime/name_lookup.h) on names of every length from 1
 * to 80 bytes, against strncasecmp:
 *   - the hash ignores ASCII case and reads only the name's bytes (each
 *     string is a malloc'ed block of exactly its length, no NUL, so that the
 *     sanitizer build reports a read past it);
 *   - a name matches itself in any case, and (exact) only as spelled;
 *   - a change of one byte anywhere, case aside, changes the hash and makes
 *     the compare fail, in both modes, so that no byte goes unread, the
 *     ones between the hash's fixed words included.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "name_lookup.h"

static int failures;

#define MAX_LEN 80

static const char charset[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.";

/* A copy of name[0..n) in a block of exactly n bytes, no NUL. */
static char *span_copy(const char *name, size_t n)
{
	char *s = malloc(n ? n : 1);
	if (!s) {
		perror("malloc");
		exit(1);
	}
	memcpy(s, name, n);
	return s;
}

/* s with every letter in upper (how > 0) or lower case, or flipped (0). */
static void recase(char *dst, const char *src, size_t n, int how)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)src[i];
		dst[i] = (char)(how > 0 ? toupper(c) : how < 0 ? tolower(c)
			       : isupper(c) ? tolower(c) : toupper(c));
	}
}

/* The same name spelled otherwise: equal hash, a match without case, a
 * match with exact only when spelled the same. */
static void check_case(const char *name, size_t n, int how)
{
	char buf[MAX_LEN];
	recase(buf, name, n, how);
	char *s = span_copy(buf, n);
	bool same = memcmp(buf, name, n) == 0;
	CHECK(pmu_tbl_name_hash_len(s, n) == pmu_tbl_name_hash_len(name, n),
	      "'%.*s' (%zu bytes): hash differs in another case", (int)n, name, n);
	CHECK(span_matches(s, n, name, false), "'%.*s' (%zu bytes): no match in another case",
	      (int)n, name, n);
	CHECK(span_matches(s, n, name, true) == same, "'%.*s' (%zu bytes): exact match %s", (int)n,
	      name, n, same ? "missed" : "of another case");
	free(s);
}

/* name with byte at changed to another character that is not the same
 * letter in another case: no match, another hash. */
static void check_change(const char *name, size_t n, size_t at, uint64_t hash)
{
	char buf[MAX_LEN];
	memcpy(buf, name, n);
	for (const char *c = charset; *c; c++) {
		if (tolower((unsigned char)*c) == tolower((unsigned char)name[at]))
			continue;
		buf[at] = *c;
		break;
	}
	char *s = span_copy(buf, n);
	CHECK(strncasecmp(buf, name, n) != 0, "test: no change at %zu", at);
	CHECK(!span_matches(s, n, name, false) && !span_matches(s, n, name, true),
	      "'%.*s' (%zu bytes) matches with byte %zu changed", (int)n, name, n, at);
	CHECK(pmu_tbl_name_hash_len(s, n) != hash,
	      "'%.*s' (%zu bytes): the same hash with byte %zu changed", (int)n, name, n, at);
	free(s);
}

int main(void)
{
	unsigned seed = 12345;
	int names = 0;
	for (size_t n = 1; n <= MAX_LEN; n++) {
		for (int k = 0; k < 8; k++, names++) {
			char name[MAX_LEN + 1];
			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				name[i] = charset[(seed >> 16) % (sizeof(charset) - 1)];
			}
			name[n] = 0; /* names are NUL-terminated, the strings looked up need not be */
			check_case(name, n, 1);
			check_case(name, n, -1);
			check_case(name, n, 0);
			uint64_t hash = pmu_tbl_name_hash_len(name, n);
			CHECK(hash == pmu_tbl_name_hash(name), "'%s': hash of a span != of the string",
			      name);
			for (size_t at = 0; at < n; at++)
				check_change(name, n, at, hash);
		}
	}
	printf("%d names of 1 to %d bytes, %d failures\n", names, MAX_LEN, failures);
	return failures != 0;
}
