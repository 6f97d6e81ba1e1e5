/*
 * rbtree.h - a red-black tree that takes, for the same inserts and erases,
 * the very shapes Linux's lib/rbtree.c (v6.1; perf links its copy,
 * tools/lib/rbtree.c) gives: the same rebalancing on insert, the same
 * successor taking an erased node's place.  pmutool needs the shapes, not
 * only the order: perf's symbol lookup walks its tree and, where symbols
 * overlap, finds the one the walk meets first (perf_symtree.c).
 *
 * As in Linux, the caller walks down, links the node at the leaf it found
 * (rbt_link) and then rebalances (rbt_insert_color).
 */
#ifndef PMUTOOL_RBTREE_H
#define PMUTOOL_RBTREE_H

#include <stdbool.h>

struct rbt_node {
	struct rbt_node *parent;
	struct rbt_node *child[2];   /* [0] left (smaller), [1] right */
	bool red;
};

struct rbt_root {
	struct rbt_node *top;
};

/* rb_link_node: node, red, becomes the child *link of parent (NULL: the root). */
void rbt_link(struct rbt_node *node, struct rbt_node *parent, struct rbt_node **link);
/* rb_insert_color: rebalance after rbt_link. */
void rbt_insert_color(struct rbt_node *node, struct rbt_root *root);
/* rb_erase */
void rbt_erase(struct rbt_node *node, struct rbt_root *root);
/* rb_first, rb_next: in order; NULL past the end. */
struct rbt_node *rbt_first(const struct rbt_root *root);
struct rbt_node *rbt_next(const struct rbt_node *node);

#endif /* PMUTOOL_RBTREE_H */
