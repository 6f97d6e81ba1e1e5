/*
 * rbtree.c - the red-black tree of rbtree.h, following Linux v6.1's
 * lib/rbtree.c and include/linux/rbtree_augmented.h step for step (without
 * the augmented callbacks): __rb_insert, __rb_erase_augmented and
 * ____rb_erase_color.  Linux writes each case twice, once per side; here a
 * case is written once for a side d (0 left, 1 right), 1 - d the other.
 */
#include <stddef.h>

#include "rbtree.h"

/* __rb_change_child */
static void change_child(struct rbt_node *old, struct rbt_node *new, struct rbt_node *parent,
			 struct rbt_root *root)
{
	if (!parent)
		root->top = new;
	else if (parent->child[0] == old)
		parent->child[0] = new;
	else
		parent->child[1] = new;
}

/* __rb_rotate_set_parents: new takes old's parent and color, old goes
 * under new with color red. */
static void rotate_set_parents(struct rbt_node *old, struct rbt_node *new, struct rbt_root *root,
			       bool red)
{
	struct rbt_node *parent = old->parent;
	new->parent = old->parent;
	new->red = old->red;
	old->parent = new;
	old->red = red;
	change_child(old, new, parent, root);
}

static void set_parent_black(struct rbt_node *node, struct rbt_node *parent)
{
	node->parent = parent;
	node->red = false;
}

void rbt_link(struct rbt_node *node, struct rbt_node *parent, struct rbt_node **link)
{
	node->parent = parent;
	node->red = true;
	node->child[0] = node->child[1] = NULL;
	*link = node;
}

void rbt_insert_color(struct rbt_node *node, struct rbt_root *root)
{
	struct rbt_node *parent = node->parent;
	for (;;) {
		if (!parent) {
			set_parent_black(node, NULL);
			return;
		}
		if (!parent->red)
			return;
		struct rbt_node *gparent = parent->parent;
		int d = parent == gparent->child[1];     /* parent's side */
		struct rbt_node *uncle = gparent->child[1 - d];
		if (uncle && uncle->red) {               /* recolor, go up two */
			set_parent_black(uncle, gparent);
			set_parent_black(parent, gparent);
			node = gparent;
			parent = node->parent;
			node->red = true;
			continue;
		}
		struct rbt_node *tmp = parent->child[1 - d];
		if (node == tmp) {                       /* rotate at parent */
			tmp = node->child[d];
			parent->child[1 - d] = tmp;
			node->child[d] = parent;
			if (tmp)
				set_parent_black(tmp, parent);
			parent->parent = node;
			parent->red = true;
			parent = node;
			tmp = node->child[1 - d];
		}
		gparent->child[d] = tmp;                 /* rotate at gparent */
		parent->child[1 - d] = gparent;
		if (tmp)
			set_parent_black(tmp, gparent);
		rotate_set_parents(gparent, parent, root, true);
		return;
	}
}

/* ____rb_erase_color: a black node was taken from under parent. */
static void erase_color(struct rbt_node *parent, struct rbt_root *root)
{
	struct rbt_node *node = NULL;
	for (;;) {
		int d = node == parent->child[1];       /* node's side */
		struct rbt_node *sibling = parent->child[1 - d], *tmp1, *tmp2;
		if (sibling->red) {
			tmp1 = sibling->child[d];
			parent->child[1 - d] = tmp1;
			sibling->child[d] = parent;
			set_parent_black(tmp1, parent);
			rotate_set_parents(parent, sibling, root, true);
			sibling = tmp1;
		}
		tmp1 = sibling->child[1 - d];
		if (!tmp1 || !tmp1->red) {
			tmp2 = sibling->child[d];
			if (!tmp2 || !tmp2->red) {
				sibling->parent = parent;
				sibling->red = true;
				if (parent->red) {
					parent->red = false;
				} else {
					node = parent;
					parent = node->parent;
					if (parent)
						continue;
				}
				return;
			}
			tmp1 = tmp2->child[1 - d];
			sibling->child[d] = tmp1;
			tmp2->child[1 - d] = sibling;
			parent->child[1 - d] = tmp2;
			if (tmp1)
				set_parent_black(tmp1, sibling);
			tmp1 = sibling;
			sibling = tmp2;
		}
		tmp2 = sibling->child[d];
		parent->child[1 - d] = tmp2;
		sibling->child[d] = parent;
		set_parent_black(tmp1, sibling);
		if (tmp2)
			tmp2->parent = parent;
		rotate_set_parents(parent, sibling, root, false);
		return;
	}
}

/* __rb_erase_augmented, then the rebalance it asks for */
void rbt_erase(struct rbt_node *node, struct rbt_root *root)
{
	struct rbt_node *child = node->child[1], *left = node->child[0], *parent,
			*rebalance = NULL;
	if (!left) {                       /* at most a right child: it moves up */
		parent = node->parent;
		change_child(node, child, parent, root);
		if (child) {
			child->parent = node->parent;
			child->red = node->red;
		} else if (!node->red) {
			rebalance = parent;
		}
	} else if (!child) {               /* a left child only: it moves up */
		left->parent = node->parent;
		left->red = node->red;
		change_child(node, left, node->parent, root);
	} else {                           /* the successor takes node's place */
		struct rbt_node *successor = child, *child2, *tmp = child->child[0];
		if (!tmp) {
			parent = successor;
			child2 = successor->child[1];
		} else {
			do {
				parent = successor;
				successor = tmp;
				tmp = tmp->child[0];
			} while (tmp);
			child2 = successor->child[1];
			parent->child[0] = child2;
			successor->child[1] = child;
			child->parent = successor;
		}
		successor->child[0] = left;
		left->parent = successor;
		change_child(node, successor, node->parent, root);
		bool successor_red = successor->red;
		successor->parent = node->parent;
		successor->red = node->red;
		if (child2)
			set_parent_black(child2, parent);
		else if (!successor_red)
			rebalance = parent;
	}
	if (rebalance)
		erase_color(rebalance, root);
}

struct rbt_node *rbt_first(const struct rbt_root *root)
{
	struct rbt_node *n = root->top;
	while (n && n->child[0])
		n = n->child[0];
	return n;
}

struct rbt_node *rbt_next(const struct rbt_node *node)
{
	if (node->child[1]) {
		node = node->child[1];
		while (node->child[0])
			node = node->child[0];
		return (struct rbt_node *)node;
	}
	struct rbt_node *parent;
	while ((parent = node->parent) && node == parent->child[1])
		node = parent;
	return parent;
}
