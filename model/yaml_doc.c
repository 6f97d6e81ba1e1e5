/*
 * yaml_doc.c - typed accessors over libyaml documents with line:col errors
 * (see yaml_doc.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "yaml_doc.h"

void *y_grow(void *arr, int n, size_t elem)
{
	if (n > 0 && (n & (n - 1)) != 0)
		return arr;
	return realloc(arr, (n ? 2 * (size_t)n : 1) * elem);
}

struct pmu_pos y_pos(const struct ynode *n)
{
	struct pmu_pos p = {n->src->file, 0, 0};
	if (n->node) {
		p.line = (int)n->node->line;
		p.col = (int)n->node->col;
	}
	return p;
}

struct ynode y_root(struct ysrc *src)
{
	return (struct ynode){src, src->doc.nnodes ? &src->doc.nodes[0] : NULL};
}

bool y_is_map(const struct ynode *n)
{
	return n->node && n->node->type == YAML_MAPPING_NODE;
}

bool y_is_seq(const struct ynode *n)
{
	return n->node && n->node->type == YAML_SEQUENCE_NODE;
}

int y_seq_len(const struct ynode *n)
{
	return y_is_seq(n) ? (int)n->node->len : 0;
}

static struct ynode child(const struct ynode *n, uint32_t i)
{
	const struct ydoc *doc = &n->src->doc;
	return (struct ynode){n->src, &doc->nodes[doc->items[n->node->at + i]]};
}

struct ynode y_seq_at(const struct ynode *n, int i)
{
	return child(n, (uint32_t)i);
}

bool y_map_at(const struct ynode *n, int i, struct ynode *key, struct ynode *value)
{
	if (!y_is_map(n) || i < 0 || (uint32_t)i >= n->node->len / 2)
		return false;
	*key = child(n, 2 * (uint32_t)i);
	*value = child(n, 2 * (uint32_t)i + 1);
	return true;
}

const char *y_scalar(const struct ynode *n)
{
	if (!n->node || n->node->type != YAML_SCALAR_NODE)
		return NULL;
	return n->src->doc.text + n->node->at;
}

struct ynode y_get(const struct ynode *map, const char *key)
{
	struct ynode k, v;
	for (int i = 0; y_map_at(map, i, &k, &v); i++) {
		const char *s = y_scalar(&k);
		if (s && strcmp(s, key) == 0)
			return v;
	}
	return (struct ynode){map->src, NULL};
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return 64;
	size_t prev[64], cur[64];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (tolower((unsigned char)a[i - 1]) !=
						    tolower((unsigned char)b[j - 1]));
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(size_t));
	}
	return prev[lb];
}

const char *y_nearest(const char *word, const char *const *words)
{
	const char *best = NULL;
	size_t best_d = strlen(word) / 2 + 2;
	for (int i = 0; words[i]; i++) {
		size_t dist = edit_distance(word, words[i]);
		if (dist < best_d) {
			best_d = dist;
			best = words[i];
		}
	}
	return best;
}

static const char *node_kind(const struct ynode *n)
{
	if (!n->node)
		return "nothing";
	switch (n->node->type) {
	case YAML_MAPPING_NODE: return "a mapping";
	case YAML_SEQUENCE_NODE: return "a sequence";
	default: return "a scalar";
	}
}

struct key_at {
	const char *key;
	int index;
};

static int key_order(const void *a, const void *b)
{
	const struct key_at *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* first[i] = index of the first entry with the same key as entry i, or -1:
 * sorted, so a mapping of n keys costs n log n, not n squared. */
static int earlier_keys(const struct ynode *map, int n, int *first)
{
	struct key_at *keys = malloc((size_t)n * sizeof(*keys) + 1);
	if (!keys)
		return -ENOMEM;
	int nkeys = 0;
	struct ynode k, v;
	for (int i = 0; i < n && y_map_at(map, i, &k, &v); i++) {
		first[i] = -1;
		if (y_scalar(&k))
			keys[nkeys++] = (struct key_at){y_scalar(&k), i};
	}
	qsort(keys, (size_t)nkeys, sizeof(*keys), key_order);
	for (int i = 1, run = 0; i < nkeys; i++) {
		if (strcmp(keys[i].key, keys[run].key) != 0)
			run = i;
		else
			first[keys[i].index] = keys[run].index;
	}
	free(keys);
	return 0;
}

/* The same for a mapping of at most SMALL_MAP keys (an event has four to
 * six), compared pairwise: no allocation and no sort for the thousands of
 * small mappings of an events file. */
enum { SMALL_MAP = 16 };

static void earlier_keys_small(const struct ynode *map, int n, int *first)
{
	const char *key[SMALL_MAP];
	struct ynode k, v;
	for (int i = 0; i < n && y_map_at(map, i, &k, &v); i++) {
		key[i] = y_scalar(&k);
		first[i] = -1;
		for (int j = 0; key[i] && j < i && first[i] < 0; j++)
			if (key[j] && strcmp(key[j], key[i]) == 0)
				first[i] = j;
	}
}

/* first_of for map's n keys, in small when they fit; NULL when out of
 * memory. */
static int *first_keys(const struct ynode *map, int n, int *small)
{
	if (n <= SMALL_MAP) {
		earlier_keys_small(map, n, small);
		return small;
	}
	int *first_of = malloc((size_t)n * sizeof(*first_of));
	if (first_of && earlier_keys(map, n, first_of)) {
		free(first_of);
		first_of = NULL;
	}
	return first_of;
}

static int y_map_len(const struct ynode *n)
{
	return y_is_map(n) ? (int)(n->node->len / 2) : 0;
}

static bool in_list(const char *s, const char *const *list)
{
	for (int i = 0; list && list[i]; i++)
		if (strcmp(s, list[i]) == 0)
			return true;
	return false;
}

int y_check_keys(struct yctx *c, const struct ynode *map, const char *what,
		 const char *const *keys, const char *const *required)
{
	int small[SMALL_MAP];
	int *first_of = first_keys(map, y_map_len(map), small);
	if (!first_of)
		return pmu_report_oom(c->d, NULL);
	int rc = 0;
	struct ynode k, v;
	for (int i = 0; y_map_at(map, i, &k, &v); i++) {
		const char *s = y_scalar(&k);
		struct pmu_pos p = y_pos(&k);
		if (!s) {
			pmu_report(c->d, -1, &p, "%s: keys must be plain words", what);
			rc = -EINVAL;
			continue;
		}
		int first = first_of[i];
		if (first >= 0) {
			struct ynode fk, fv;
			y_map_at(map, first, &fk, &fv);
			struct pmu_pos fp = y_pos(&fk);
			pmu_report(c->d, -1, &p, "key '%s' given twice in %s (first at line %d)",
				   s, what, fp.line);
			rc = -EINVAL;
			continue;
		}
		if (in_list(s, keys))
			continue;
		const char *near = pmu_diag_shows_errors(c->d) ? y_nearest(s, keys) : NULL;
		if (near)
			pmu_report(c->d, -1, &p, "unknown key '%s' in %s; did you mean '%s'?",
				   s, what, near);
		else
			pmu_report(c->d, -1, &p, "unknown key '%s' in %s", s, what);
		rc = -EINVAL;
	}
	if (first_of != small)
		free(first_of);
	for (int i = 0; required && required[i]; i++) {
		if (!y_get(map, required[i]).node) {
			struct pmu_pos p = y_pos(map);
			pmu_report(c->d, -1, &p, "%s lacks required key '%s'", what, required[i]);
			rc = -EINVAL;
		}
	}
	return rc;
}

int y_expect_map(struct yctx *c, const struct ynode *n, const char *what)
{
	if (y_is_map(n))
		return 0;
	struct pmu_pos p = y_pos(n);
	pmu_report(c->d, -1, &p, "%s must be a mapping, found %s", what, node_kind(n));
	return -EINVAL;
}

int y_expect_seq(struct yctx *c, const struct ynode *n, const char *what)
{
	if (y_is_seq(n))
		return 0;
	struct pmu_pos p = y_pos(n);
	pmu_report(c->d, -1, &p, "%s must be a sequence, found %s", what, node_kind(n));
	return -EINVAL;
}

int y_str(struct yctx *c, const struct ynode *n, const char *what, const char **out)
{
	if (!n->node)
		return 0;
	const char *s = y_scalar(n);
	struct pmu_pos p = y_pos(n);
	if (!s) {
		pmu_report(c->d, -1, &p, "%s must be a string, found %s", what, node_kind(n));
		return -EINVAL;
	}
	if (!s[0] && n->node->style == YAML_PLAIN_SCALAR_STYLE) {
		pmu_report(c->d, -1, &p, "%s has no value (write \"\" for an empty string)", what);
		return -EINVAL;
	}
	*out = s;
	return 0;
}

int y_strdup(struct yctx *c, const struct ynode *n, const char *what, char **out)
{
	const char *s = NULL;
	int rc = y_str(c, n, what, &s);
	if (rc || !s)
		return rc;
	free(*out);
	*out = strdup(s);
	return *out ? 0 : pmu_report_oom(c->d, NULL);
}

int y_u64(struct yctx *c, const struct ynode *n, const char *what, uint64_t *out)
{
	const char *s = NULL;
	int rc = y_str(c, n, what, &s);
	if (rc || !s)
		return rc;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (!isdigit((unsigned char)s[0]) || errno || *end) {
		struct pmu_pos p = y_pos(n);
		pmu_report(c->d, -1, &p, "%s must be an unsigned number, found '%s'",
			   what, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int y_u32(struct yctx *c, const struct ynode *n, const char *what, uint32_t *out)
{
	uint64_t v = 0;
	if (!n->node)
		return 0;
	int rc = y_u64(c, n, what, &v);
	if (rc)
		return rc;
	if (v > UINT32_MAX) {
		struct pmu_pos p = y_pos(n);
		pmu_report(c->d, -1, &p, "%s must fit in 32 bits, found 0x%llx", what,
			   (unsigned long long)v);
		return -ERANGE;
	}
	*out = (uint32_t)v;
	return 0;
}

int y_bool(struct yctx *c, const struct ynode *n, const char *what, bool *out)
{
	const char *s = NULL;
	int rc = y_str(c, n, what, &s);
	if (rc || !s)
		return rc;
	if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
		*out = s[0] == 't';
		return 0;
	}
	struct pmu_pos p = y_pos(n);
	pmu_report(c->d, -1, &p, "%s must be true or false, found '%s'", what, s);
	return -EINVAL;
}

int y_bits(struct yctx *c, const struct ynode *n, const char *what,
	   uint32_t *lo, uint32_t *hi)
{
	struct pmu_pos p = y_pos(n);
	if (!y_is_seq(n) || y_seq_len(n) != 2) {
		pmu_report(c->d, -1, &p, "%s must be a bit range [lo, hi]", what);
		return -EINVAL;
	}
	struct ynode a = y_seq_at(n, 0), b = y_seq_at(n, 1);
	if (y_u32(c, &a, what, lo) || y_u32(c, &b, what, hi))
		return -EINVAL;
	if (*lo > *hi) {
		pmu_report(c->d, -1, &p, "%s [%u, %u]: low bit is above high bit", what, *lo, *hi);
		return -EINVAL;
	}
	if (*hi > 63) {
		if (pmu_report(c->d, PMU_CHK_FIELD_RANGE, &p,
			       "%s [%u, %u] lies outside the 64-bit word", what, *lo, *hi) ==
		    PMU_SEV_ERROR)
			return -EINVAL;
	}
	return 0;
}
