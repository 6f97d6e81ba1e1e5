/*
 * report_graph.h - the call graph under a row of pmutool report, built and
 * drawn as perf 6.1's report --stdio draws it by default (util/callchain.c,
 * ui/stdio/hist.c: graph, 0.5%, percentages of the whole).
 */
#ifndef REPORT_GRAPH_H
#define REPORT_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One frame: its file, and its function or, without one, its address
 * (perf's match_chain: the same file and function, else address). */
struct graph_frame {
	const char *dso;        /* NULL: in no mapped file */
	const char *sym;        /* NULL: unresolved, drawn as its address */
	uint64_t ip;
	uint64_t start;         /* the function's start, else ip: siblings of
	                           equal weight go by it, descending */
};

/* The nodes of every row's graph. */
struct graph_pool {
	struct graph_node *v;
	size_t n, cap;
};

/* Adds a chain of frames (in the order drawn) with its period to the
 * graph *root (0: none yet, made here).  0 or -ENOMEM. */
int graph_add(struct graph_pool *g, uint32_t *root, const struct graph_frame *frames, int n,
	      uint64_t period);
/* Draws graph root: percentages of total, nodes under min_percent of it
 * left out, parent the row's own period (its Children when shown),
 * skip_first when sorting on sym first. */
void graph_print(const struct graph_pool *g, uint32_t root, uint64_t total, uint64_t parent,
		 double min_percent, bool skip_first, FILE *out);
void graph_free(struct graph_pool *g);

#endif /* REPORT_GRAPH_H */
