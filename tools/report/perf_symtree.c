/*
 * perf_symtree.c - perf 6.1's symbol tree (perf_symtree.h), as
 * tools/perf/util/symbol.c builds and searches it: __symbols__insert,
 * symbols__fixup_end, symbols__fixup_duplicate with choose_best_symbol,
 * symbols__find.
 */
#include <errno.h>
#include <elf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "perf_symtree.h"

static struct perf_sym *sym_of(const struct rbt_node *n)
{
	return n ? (struct perf_sym *)((char *)n - offsetof(struct perf_sym, node)) : NULL;
}

int perf_symtree_init(struct perf_symtree *t, size_t cap, perf_shown_name *shown, void *ctx)
{
	*t = (struct perf_symtree){.v = calloc(cap ? cap : 1, sizeof(*t->v)), .cap = cap,
				   .shown = shown, .ctx = ctx};
	return t->v ? 0 : -ENOMEM;
}

void perf_symtree_free(struct perf_symtree *t)
{
	free(t->v);
	*t = (struct perf_symtree){0};
}

/* An equal start goes right: after the symbols inserted before it. */
const struct perf_sym *perf_symtree_insert(struct perf_symtree *t, uint64_t start, uint64_t len,
					   int binding, const char *name, bool in_file)
{
	if (t->n == t->cap)
		return NULL;
	struct perf_sym *s = &t->v[t->n++];
	*s = (struct perf_sym){.start = start, .end = start + len, .name = name, .binding = binding,
			       .in_file = in_file};
	struct rbt_node **link = &t->root.top, *parent = NULL;
	while (*link) {
		parent = *link;
		link = &parent->child[start >= sym_of(parent)->start];
	}
	rbt_link(&s->node, parent, link);
	rbt_insert_color(&s->node, &t->root);
	return s;
}

const struct perf_sym *perf_symtree_first(const struct perf_symtree *t)
{
	return sym_of(rbt_first(&t->root));
}

const struct perf_sym *perf_symtree_next(const struct perf_sym *s)
{
	return sym_of(rbt_next(&s->node));
}

static size_t underscores(const char *name)
{
	size_t n = 0;
	while (name[n] == '_')
		n++;
	return n;
}

const char *perf_symtree_name(const struct perf_symtree *t, const struct perf_sym *f)
{
	const char *s = f->in_file ? t->shown(t->ctx, f->name) : f->name;
	return s ? s : f->name;
}

/* choose_best_symbol (and the weak arch__choose_best_symbol), on the names
 * perf shows: true when a is kept over b. */
static bool keep_first(const struct perf_symtree *t, const struct perf_sym *a,
		       const struct perf_sym *b)
{
	bool asz = a->end != a->start, bsz = b->end != b->start;
	if (asz != bsz)
		return asz;
	bool aw = a->binding == STB_WEAK, bw = b->binding == STB_WEAK;
	if (aw != bw)
		return bw;
	bool ag = a->binding == STB_GLOBAL, bg = b->binding == STB_GLOBAL;
	if (ag != bg)
		return ag;
	const char *an = perf_symtree_name(t, a), *bn = perf_symtree_name(t, b);
	size_t au = underscores(an), bu = underscores(bn);
	if (au != bu)
		return au < bu;
	size_t al = strlen(an), bl = strlen(bn);
	if (al != bl)
		return al > bl;
	return strncmp(an, "SyS", 3) != 0 && strncmp(an, "compat_SyS", 10) != 0;
}

/* symbols__fixup_end: a size-0 symbol reaches the next one's start, the
 * last one the page after the one holding its start. */
static void fixup_end(struct perf_symtree *t)
{
	struct perf_sym *curr = sym_of(rbt_first(&t->root));
	if (!curr)
		return;
	for (struct rbt_node *nd = rbt_next(&curr->node); nd; nd = rbt_next(nd)) {
		struct perf_sym *prev = curr;
		curr = sym_of(nd);
		if (prev->end == prev->start)
			prev->end = curr->start;
	}
	if (curr->end == curr->start)
		curr->end = (curr->start + 4095) / 4096 * 4096 + 4096;
}

/* symbols__fixup_duplicate: of symbols at one start, the best stays. */
static void fixup_duplicate(struct perf_symtree *t)
{
	struct rbt_node *nd = rbt_first(&t->root);
	while (nd) {
		struct perf_sym *curr = sym_of(nd);
		for (;;) {
			nd = rbt_next(&curr->node);
			struct perf_sym *next = sym_of(nd);
			if (!next || curr->start != next->start)
				break;
			if (keep_first(t, curr, next)) {
				rbt_erase(&next->node, &t->root);
				continue;
			}
			nd = rbt_next(&curr->node);
			rbt_erase(&curr->node, &t->root);
			break;
		}
	}
}

void perf_symtree_fixup(struct perf_symtree *t)
{
	fixup_end(t);
	fixup_duplicate(t);
}

const struct perf_sym *perf_symtree_find(const struct perf_symtree *t, uint64_t ip)
{
	const struct rbt_node *n = t->root.top;
	while (n) {
		const struct perf_sym *s = sym_of(n);
		if (ip < s->start)
			n = n->child[0];
		else if (ip > s->end || (ip == s->end && ip != s->start))
			n = n->child[1];
		else
			return s;
	}
	return NULL;
}
