/*
 * symtree_test.c - tools/report/rbtree.c and perf_symtree.c on their own:
 *
 * - red-black invariants (a black root, no red child of a red node, one
 *   black height, parents that match children, the order of starts with
 *   equal starts in insertion order) through long pseudo-random sequences
 *   of inserts, of symbols__fixup_duplicate's erases and of erases of
 *   every kind;
 * - perf 6.1's answers on a file small enough to follow by hand: a size-0
 *   _init at 0x1000 and main at 0x1100, fixed up (_init reaches main,
 *   main the page after its own), then three PLT entries at 0x1030,
 *   0x1040, 0x1050.  The inserts rotate the tree to a at the root, _init
 *   on its left, c on its right with b and main under it; perf's walk then
 *   names the header _init, each entry its own PLT symbol, and the byte
 *   after the last entry nothing, though _init covers it;
 * - symbols__fixup_duplicate's choice between symbols at one start.
 *
 * The exact shapes perf's tree takes on real files are checked against
 * perf itself (perfdata/interop-plt-sweep, -record).
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "perf_symtree.h"

static int failures;

/* The black height of n's subtree, -1 when it breaks an invariant. */
static int black_height(const struct rbt_node *n, const struct rbt_node *parent)
{
	if (!n)
		return 1;
	if (n->parent != parent || (n->red && parent && parent->red))
		return -1;
	int l = black_height(n->child[0], n), r = black_height(n->child[1], n);
	if (l < 0 || l != r)
		return -1;
	return l + !n->red;
}

static void check_tree(const struct perf_symtree *t, size_t live, int step)
{
	CHECK(!t->root.top || !t->root.top->red, "step %d: red root", step);
	CHECK(black_height(t->root.top, NULL) > 0, "step %d: red-black invariants broken", step);
	size_t n = 0;
	const struct perf_sym *prev = NULL;
	for (const struct perf_sym *s = perf_symtree_first(t); s; prev = s, s = perf_symtree_next(s)) {
		/* equal starts in insertion order: their slots in t->v ascend */
		CHECK(!prev || prev->start < s->start || (prev->start == s->start && prev < s),
		      "step %d: out of order at %#llx", step, (unsigned long long)s->start);
		n++;
	}
	CHECK(n == live, "step %d: %zu symbols in order, %zu in the tree", step, n, live);
}

static const char *as_is(void *ctx, const char *name)
{
	(void)ctx;
	return name;
}

/* Inserts, and erases through fixup_duplicate (every start inserted twice
 * or more is reduced to one symbol): the invariants hold throughout. */
static void random_tree(void)
{
	enum { N = 3000 };
	struct perf_symtree t;
	CHECK(perf_symtree_init(&t, N, as_is, NULL) == 0, "init");
	uint32_t x = 12345;
	size_t starts = 0;
	char seen[N / 3] = {0};
	for (int i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		uint64_t start = (x >> 8) % (N / 3);
		perf_symtree_insert(&t, start * 16, (x & 1) ? 8 : 0, STB_GLOBAL, "f", true);
		starts += !seen[start];
		seen[start] = 1;
		if (i % 97 == 0)
			check_tree(&t, (size_t)i + 1, i);
	}
	check_tree(&t, N, N);
	perf_symtree_fixup(&t);
	check_tree(&t, starts, N + 1);
	perf_symtree_free(&t);

	/* erases of every kind: leaves, one child, two children (the
	 * successor moving up from near and from far) */
	CHECK(perf_symtree_init(&t, N, as_is, NULL) == 0, "init");
	for (int i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		perf_symtree_insert(&t, (x >> 8) % 100000, 4, STB_GLOBAL, "f", true);
	}
	size_t live = N;
	for (int i = 0; i < N; i += 2) {
		int k = (i * 7919) % N;          /* 7919 is prime to N: each once */
		if (!t.v[k].name)
			continue;
		rbt_erase(&t.v[k].node, &t.root);
		t.v[k].name = NULL;
		check_tree(&t, --live, N + 2 + i);
	}
	perf_symtree_free(&t);
}

static void plt_by_hand(void)
{
	struct perf_symtree t;
	CHECK(perf_symtree_init(&t, 8, as_is, NULL) == 0, "init");
	const struct perf_sym *init = perf_symtree_insert(&t, 0x1000, 0, STB_GLOBAL, "_init", true);
	const struct perf_sym *main = perf_symtree_insert(&t, 0x1100, 0x20, STB_GLOBAL, "main", true);
	perf_symtree_fixup(&t);
	CHECK(init->end == 0x1100, "_init ends at %#llx", (unsigned long long)init->end);
	CHECK(main->end == 0x1120, "main ends at %#llx", (unsigned long long)main->end);
	const struct perf_sym *a = perf_symtree_insert(&t, 0x1030, 16, STB_GLOBAL, "a@plt", false);
	const struct perf_sym *b = perf_symtree_insert(&t, 0x1040, 16, STB_GLOBAL, "b@plt", false);
	const struct perf_sym *c = perf_symtree_insert(&t, 0x1050, 16, STB_GLOBAL, "c@plt", false);
	check_tree(&t, 5, 0);
	CHECK(t.root.top == &a->node && a->node.child[0] == &init->node &&
	      a->node.child[1] == &c->node && c->node.child[0] == &b->node &&
	      c->node.child[1] == &main->node, "the tree's shape");
	struct { uint64_t ip; const struct perf_sym *want; } at[] = {
		{0x1000, init}, {0x1020, init}, {0x102f, init}, {0x1030, a}, {0x103f, a},
		{0x1040, b}, {0x1045, b}, {0x1050, c}, {0x105f, c},
		{0x1060, NULL}, {0x10ff, NULL},   /* _init covers them; the walk misses it */
		{0x1100, main}, {0x111f, main}, {0x1120, NULL}, {0xfff, NULL},
	};
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		const struct perf_sym *got = perf_symtree_find(&t, at[i].ip);
		CHECK(got == at[i].want, "at %#llx: %s, not %s", (unsigned long long)at[i].ip,
		      got ? got->name : "none", at[i].want ? at[i].want->name : "none");
	}
	perf_symtree_free(&t);
}

/* choose_best_symbol: sized over size-0, then not weak, then global, then
 * fewer leading underscores, then the longer name */
static void duplicates(void)
{
	struct { uint64_t len[2]; int bind[2]; const char *name[2]; int keep; } cases[] = {
		{{0, 4}, {STB_GLOBAL, STB_GLOBAL}, {"sized_not", "b"}, 1},
		{{4, 4}, {STB_WEAK, STB_LOCAL}, {"weak", "local"}, 1},
		{{4, 4}, {STB_LOCAL, STB_GLOBAL}, {"local", "global"}, 1},
		{{4, 4}, {STB_GLOBAL, STB_GLOBAL}, {"__two", "_one"}, 1},
		{{4, 4}, {STB_GLOBAL, STB_GLOBAL}, {"longer", "short"}, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_symtree t;
		CHECK(perf_symtree_init(&t, 3, as_is, NULL) == 0, "init");
		const struct perf_sym *s[2];
		for (int k = 0; k < 2; k++)
			s[k] = perf_symtree_insert(&t, 0x2000, cases[i].len[k], cases[i].bind[k],
						   cases[i].name[k], true);
		perf_symtree_insert(&t, 0x3000, 4, STB_GLOBAL, "next", true);
		perf_symtree_fixup(&t);
		CHECK(perf_symtree_find(&t, 0x2000) == s[cases[i].keep] &&
		      perf_symtree_first(&t) == s[cases[i].keep], "case %zu keeps %s", i,
		      perf_symtree_first(&t)->name);
		check_tree(&t, 2, (int)i);
		perf_symtree_free(&t);
	}
}

int main(void)
{
	random_tree();
	plt_by_hand();
	duplicates();
	return failures != 0;
}
