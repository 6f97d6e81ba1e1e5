/*
 * perf_symtree.h - a file's symbols as perf 6.1 keeps them: in a red-black
 * tree by start (rbtree.h), its ends and duplicates fixed as perf fixes
 * them, looked up by perf's own walk.  Where symbols overlap (a size-0
 * symbol whose end perf stretched over PLT entries perf adds later), the
 * one perf names depends on the tree's shape; this tree has perf's shape,
 * so it names the same one.  pmutool builds it for the part of a file
 * where that happens (tool_symbols.c), not for every sample.
 */
#ifndef PMUTOOL_PERF_SYMTREE_H
#define PMUTOOL_PERF_SYMTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rbtree.h"

struct perf_sym {
	struct rbt_node node;
	uint64_t start, end;
	const char *name;      /* the caller's, not copied */
	int binding;           /* STB_* */
	bool in_file;          /* name as in the file: shown through shown() */
};

/* The name perf shows for a symbol's name in the file (demangled), NULL
 * when it cannot be had (out of memory: the name in the file is used). */
typedef const char *perf_shown_name(void *ctx, const char *name);

struct perf_symtree {
	struct rbt_root root;
	struct perf_sym *v;    /* room for cap symbols, allocated once */
	size_t n, cap;
	perf_shown_name *shown;  /* asked only where perf compares names */
	void *ctx;
};

/* Room for cap symbols: 0 or -ENOMEM. */
int perf_symtree_init(struct perf_symtree *t, size_t cap, perf_shown_name *shown, void *ctx);
void perf_symtree_free(struct perf_symtree *t);
/* symbol__new and symbols__insert: [start, start + len), a size-0 symbol
 * when len is 0; name as in the file (in_file) or as shown.  NULL when
 * the room is used up. */
const struct perf_sym *perf_symtree_insert(struct perf_symtree *t, uint64_t start, uint64_t len,
					   int binding, const char *name, bool in_file);
/* The name perf shows for f. */
const char *perf_symtree_name(const struct perf_symtree *t, const struct perf_sym *f);
/* What dso__load_sym does after loading a symbol table: symbols__fixup_end
 * (not kallsyms), then symbols__fixup_duplicate (which erases nodes). */
void perf_symtree_fixup(struct perf_symtree *t);
/* symbols__find: the symbol perf's walk finds at ip, NULL for none. */
const struct perf_sym *perf_symtree_find(const struct perf_symtree *t, uint64_t ip);
/* In order of start; NULL past the last. */
const struct perf_sym *perf_symtree_first(const struct perf_symtree *t);
const struct perf_sym *perf_symtree_next(const struct perf_sym *s);

#endif /* PMUTOOL_PERF_SYMTREE_H */
