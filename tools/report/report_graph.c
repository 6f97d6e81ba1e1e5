/*
 * report_graph.c - call graphs under pmutool report's rows (report_graph.h),
 * built and drawn as perf 6.1's report --stdio draws them by default:
 *
 *   - a tree of frames, one chain a sample, frames equal when of one file
 *     and one function (else one address: util/callchain.c match_chain);
 *   - drawn in perf's nodes: a run of frames that neither branches nor
 *     ends a chain is one node (append_chain's splits);
 *   - a node under 0.5% of the whole left out (min_percent, graph mode;
 *     -g graph,0.1 another share);
 *     siblings by their weight, heaviest first;
 *   - ui/stdio/hist.c callchain__fprintf_graph: a 12-column margin, "---"
 *     before a single first node that holds the whole row, "--P%--" before
 *     each branch, "|" down the levels still open.
 *
 * Siblings of equal weight come as perf's match_chain_dso_addresses
 * orders them where it can be told: within a file by address, descending,
 * frames in no file last; between two files perf goes by where its dso
 * objects lie in memory, which cannot be told: by name here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_graph.h"

struct graph_node {
	struct graph_frame frame;
	uint64_t hit;           /* chains ending here */
	uint64_t cumul;         /* hit and the children's, set when drawn */
	uint32_t child, next;   /* first child, next sibling (0: none) */
};

static uint32_t new_node(struct graph_pool *g, const struct graph_frame *f)
{
	if (!g->n)
		g->n = 1;   /* 0 stands for none */
	if (g->n >= g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 1024;
		struct graph_node *v = realloc(g->v, cap * sizeof(*v));
		if (!v)
			return 0;
		g->v = v;
		g->cap = cap;
	}
	g->v[g->n] = (struct graph_node){.frame = f ? *f : (struct graph_frame){0}};
	return (uint32_t)g->n++;
}

static bool same_frame(const struct graph_frame *a, const struct graph_frame *b)
{
	if (a->dso != b->dso)
		return false;
	if (a->sym && b->sym)
		return a->sym == b->sym;
	return !a->sym && !b->sym && a->ip == b->ip;
}

int graph_add(struct graph_pool *g, uint32_t *root, const struct graph_frame *frames, int n,
	      uint64_t period)
{
	if (!*root && !(*root = new_node(g, NULL)))
		return -ENOMEM;
	uint32_t cur = *root;
	for (int i = 0; i < n; i++) {
		uint32_t c = g->v[cur].child;
		while (c && !same_frame(&g->v[c].frame, &frames[i]))
			c = g->v[c].next;
		if (!c) {
			if (!(c = new_node(g, &frames[i])))
				return -ENOMEM;
			g->v[c].next = g->v[cur].child;
			g->v[cur].child = c;
		}
		cur = c;
	}
	g->v[cur].hit += period;
	return 0;
}

static uint64_t set_cumul(struct graph_node *v, uint32_t i)
{
	uint64_t sum = v[i].hit;
	for (uint32_t c = v[i].child; c; c = v[c].next)
		sum += set_cumul(v, c);
	return v[i].cumul = sum;
}

/* The last frame of the node starting at i (perf's node ends where a chain
 * ends or the tree branches). */
static uint32_t node_end(const struct graph_node *v, uint32_t i)
{
	while (!v[i].hit && v[i].child && !v[v[i].child].next)
		i = v[i].child;
	return i;
}

struct drawing {
	const struct graph_node *v;
	uint64_t total, min_hit;
	FILE *out;
	bool printed;
};

/* Whether frame a comes after frame b among siblings of equal weight. */
static bool tie_after(const struct graph_frame *a, const struct graph_frame *b)
{
	if (!a->dso != !b->dso)
		return !a->dso;
	int c = a->dso ? strcmp(a->dso, b->dso) : 0;
	return c ? c < 0 : a->start < b->start;
}

/* The children of node end i worth drawing, heaviest first: up to max. */
static int sorted_children(const struct drawing *d, uint32_t i, uint32_t *out, int max)
{
	int n = 0;
	for (uint32_t c = d->v[i].child; c && n < max; c = d->v[c].next)
		if (d->v[c].cumul >= d->min_hit)
			out[n++] = c;
	for (int a = 1; a < n; a++) {   /* insertion sort: few siblings */
		uint32_t x = out[a];
		int b = a - 1;
		while (b >= 0) {
			const struct graph_node *p = &d->v[out[b]], *q = &d->v[x];
			bool before = p->cumul > q->cumul ||
				      (p->cumul == q->cumul && !tie_after(&p->frame, &q->frame));
			if (before)
				break;
			out[b + 1] = out[b];
			b--;
		}
		out[b + 1] = x;
	}
	return n;
}

static void margin(const struct drawing *d, int left)
{
	fprintf(d->out, "            %*s", left, "");
}

static void frame_name(const struct graph_frame *f, FILE *out)
{
	if (f->sym)
		fputs(f->sym, out);
	else
		fprintf(out, "%#" PRIx64, f->ip);
}

/* ipchain__fprintf_graph_line */
static void graph_line(const struct drawing *d, int depth, int mask, int left)
{
	margin(d, left);
	for (int i = 0; i < depth; i++)
		fputs(mask & (1 << i) ? "|          " : "           ", d->out);
	fputc('\n', d->out);
}

/* ipchain__fprintf_graph: one frame of node i; the first with its share */
static void graph_frame_line(const struct drawing *d, uint32_t node, uint32_t frame, int depth,
			     int mask, bool first, int left)
{
	margin(d, left);
	for (int i = 0; i < depth; i++) {
		fputc(mask & (1 << i) ? '|' : ' ', d->out);
		if (first && i == depth - 1)
			fprintf(d->out, "--%.2f%%--", d->total ? (double)d->v[node].cumul * 100.0 /
							       (double)d->total : 0.0);
		else
			fputs("          ", d->out);
	}
	frame_name(&d->v[frame].frame, d->out);
	fputc('\n', d->out);
}

/* __callchain__fprintf_graph over the children of node end i */
static void draw_level(struct drawing *d, uint32_t i, int depth, int mask, int left)
{
	uint32_t kids[256];
	int n = sorted_children(d, i, kids, 256);
	int new_mask = mask;
	for (int k = 0; k < n && depth < 31; k++) {
		if (k == n - 1)
			new_mask &= ~(1 << (depth - 1));
		graph_line(d, depth, mask, left);
		uint32_t end = node_end(d->v, kids[k]);
		bool first = true;
		for (uint32_t f = kids[k];; f = d->v[f].child) {
			graph_frame_line(d, kids[k], f, depth, new_mask, first, left);
			first = false;
			if (f == end)
				break;
		}
		d->printed = true;
		draw_level(d, end, depth + 1, new_mask | (1 << depth), left);
	}
}

void graph_print(const struct graph_pool *g, uint32_t root, uint64_t total, uint64_t parent,
		 double min_percent, bool skip_first, FILE *out)
{
	if (!root)
		return;
	set_cumul(g->v, root);
	struct drawing d = {.v = g->v, .total = total, .out = out,
			    .min_hit = (uint64_t)((double)total * (min_percent / 100))};
	uint32_t first[2];
	int n = sorted_children(&d, root, first, 2);
	int left = 0;
	uint32_t from = root;
	/* one node holding the whole row: drawn after "---", without its share */
	if (n == 1 && g->v[first[0]].cumul == parent) {
		uint32_t end = node_end(g->v, first[0]);
		bool printed = false;
		int i = 0;
		for (uint32_t f = first[0];; f = g->v[f].child) {
			if (!(i++ == 0 && skip_first)) {
				margin(&d, left);
				if (!printed) {
					fputs("|\n", out);
					margin(&d, left);
					fputs("---", out);
					left += 3;
					printed = true;
				}
				frame_name(&g->v[f].frame, out);
				fputc('\n', out);
				d.printed = true;
			}
			if (f == end)
				break;
		}
		from = end;
	}
	draw_level(&d, from, 1, 1, left);
	if (d.printed)
		fputc('\n', out);
}

void graph_free(struct graph_pool *g)
{
	free(g->v);
	*g = (struct graph_pool){0};
}
