/*
 * yaml_compose.c - builds one document (struct ydoc, yaml_doc.h) from
 * libyaml's event stream with bounded cost (see y_compose).
 *
 * libyaml's own composer (yaml_parser_load) has no nesting limit, and its
 * scanner spends time proportional to the flow depth on every token, so
 * `a: [[[[...]]]]` costs the square of the depth; its anchor table is a list
 * searched on every anchor and alias, so many anchors cost the square of
 * their number, and aliases let a small file stand for an exponential tree
 * ("billion laughs").  This composer counts depth on every collection start
 * and stops at Y_MAX_DEPTH before libyaml goes deeper, stops at Y_MAX_NODES
 * (libyaml's nodes cost over 100 bytes and a few allocations each: a 10 MB
 * file of keys took 355 MiB and 2.5 s), and rejects anchors and aliases,
 * which the description format does not use.
 *
 * The document is three arrays, not libyaml's yaml_document_t: 20-byte
 * nodes, every scalar's value in one text block, and every collection's
 * children's ids in one items block.  A child's id waits on the pending
 * stack until its collection ends, then the collection's children move to
 * items together, so that child i is items[at + i].  For POWER10's events
 * that is about a fifth of the memory (yaml_node_t is 96 bytes and each
 * scalar and collection had an allocation of its own), and a process's fresh
 * pages cost more than its instructions (README, bench_pmugen).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "yaml_doc.h"



struct composer {
	yaml_parser_t *parser;
	struct ydoc *doc;
	struct pmu_diag *d;
	const char *file;
	int depth;
	int node_cap;
	size_t text_len, text_cap, items_len, items_cap;
	/* children of the open collections, each one's above its parent's:
	 * moved into doc->items when the collection ends */
	uint32_t *pending;
	size_t npending, pending_cap;
	int open[Y_MAX_DEPTH];        /* node id of each open collection */
	size_t first[Y_MAX_DEPTH];    /* where its children start in pending */
};

static int fail_at(struct composer *c, const yaml_mark_t *mark, const char *msg,
		   const char *name)
{
	struct pmu_pos p = {c->file, (int)mark->line + 1, (int)mark->column + 1};
	pmu_report(c->d, -1, &p, msg, name);
	return -EINVAL;
}

/* libyaml names the problem of every reader, scanner and parser error; a
 * failed allocation sets YAML_MEMORY_ERROR (and no problem). */
static int syntax_error(struct composer *c)
{
	const yaml_parser_t *ps = c->parser;
	struct pmu_pos p = {c->file, (int)ps->problem_mark.line + 1,
			    (int)ps->problem_mark.column + 1};
	if (ps->error == YAML_MEMORY_ERROR || !ps->problem)
		return -ENOMEM;
	pmu_report(c->d, -1, &p, "YAML syntax: %s%s%s",
		   ps->problem ? ps->problem : "malformed input",
		   ps->context ? " " : "", ps->context ? ps->context : "");
	return -EINVAL;
}

/* Room for need elements of elem bytes in *arr (capacity *cap): exactly
 * need at first, then doubling; false when out of memory. */
static bool reserve(void *arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? 2 * *cap : need;
	if (n < need)
		n = need;
	void *grown = realloc(*(void **)arr, n * elem);
	if (!grown)
		return false;
	*(void **)arr = grown;
	*cap = n;
	return true;
}

/* Input bytes per node in the densest file we know (power10.yaml: 12.4;
 * the event files 21-26). */
#define INPUT_BYTES_PER_NODE 12

/* Arrays sized from the input (a node per INPUT_BYTES_PER_NODE, and no more
 * scalar bytes than input bytes, mostly), so that they are seldom copied as
 * they grow; the pages reserved beyond what is used are not touched.
 * Against sizes rounded up to powers of two, which left more of the freed
 * blocks untouched for the outputs to fault in, pmugen's POWER10 run takes
 * 300 page faults instead of 325. */
static bool reserve_for_input(struct composer *c, size_t input_len)
{
	size_t nodes = input_len / INPUT_BYTES_PER_NODE + 16;
	size_t cap = 0;
	if (nodes > Y_MAX_NODES + 1)
		nodes = Y_MAX_NODES + 1;
	if (!reserve(&c->doc->nodes, &cap, nodes, sizeof(*c->doc->nodes)))
		return false;
	c->node_cap = (int)cap;
	return reserve(&c->doc->items, &c->items_cap, nodes, sizeof(*c->doc->items)) &&
	       reserve(&c->doc->text, &c->text_cap, input_len + 1, 1) &&
	       reserve(&c->pending, &c->pending_cap, 256, sizeof(*c->pending));
}

static uint32_t mark_number(size_t n)
{
	return n < UINT32_MAX ? (uint32_t)n + 1 : UINT32_MAX;
}

/* A new node (node 0 is the root); its id, -1 when out of memory.  Every
 * node but the root becomes the next child of the innermost open
 * collection. */
static int push_node(struct composer *c, yaml_node_type_t type, const yaml_mark_t *mark)
{
	size_t cap = (size_t)c->node_cap;
	if (!reserve(&c->doc->nodes, &cap, (size_t)c->doc->nnodes + 1,
		     sizeof(*c->doc->nodes)))
		return -1;
	c->node_cap = (int)cap;
	if (c->depth && !reserve(&c->pending, &c->pending_cap, c->npending + 1,
				 sizeof(*c->pending)))
		return -1;
	int id = c->doc->nnodes++;
	c->doc->nodes[id] = (struct ydoc_node){.type = (uint8_t)type,
		.line = mark_number(mark->line), .col = mark_number(mark->column)};
	if (c->depth)
		c->pending[c->npending++] = (uint32_t)id;
	return id;
}

static int open_collection(struct composer *c, const yaml_event_t *ev)
{
	bool seq = ev->type == YAML_SEQUENCE_START_EVENT;
	if (c->depth == Y_MAX_DEPTH)
		return fail_at(c, &ev->start_mark, "%s nested deeper than "
			       Y_MAX_DEPTH_TEXT " levels", seq ? "sequence" : "mapping");
	int id = push_node(c, seq ? YAML_SEQUENCE_NODE : YAML_MAPPING_NODE, &ev->start_mark);
	if (id < 0)
		return -ENOMEM;
	c->open[c->depth] = id;
	c->first[c->depth++] = c->npending;
	return 0;
}

/* The innermost collection has ended: its children move from pending to
 * the document's items, together. */
static int close_collection(struct composer *c)
{
	size_t first = c->first[--c->depth], n = c->npending - first;
	if (!reserve(&c->doc->items, &c->items_cap, c->items_len + n, sizeof(*c->doc->items)))
		return -ENOMEM;
	memcpy(c->doc->items + c->items_len, c->pending + first, n * sizeof(*c->pending));
	struct ydoc_node *node = &c->doc->nodes[c->open[c->depth]];
	node->at = (uint32_t)c->items_len;
	node->len = (uint32_t)n;
	c->items_len += n;
	c->npending = first;
	return 0;
}

static int count_node(struct composer *c, const yaml_event_t *ev)
{
	if (c->doc->nnodes < Y_MAX_NODES)
		return 0;
	struct pmu_pos p = {c->file, (int)ev->start_mark.line + 1,
			    (int)ev->start_mark.column + 1};
	pmu_report(c->d, -1, &p, "more than %d YAML nodes in one file", Y_MAX_NODES);
	return -E2BIG;
}

/* The event's value is copied into the document's text (and freed with the
 * event, so libyaml's next scalar reuses its memory). */
static int add_scalar(struct composer *c, const yaml_event_t *ev)
{
	size_t len = ev->data.scalar.length;
	if (c->text_len + len + 1 > UINT32_MAX)
		return fail_at(c, &ev->start_mark, "%s: more than 4 GiB of YAML scalars "
			       "in one file", "scalar");
	if (!reserve(&c->doc->text, &c->text_cap, c->text_len + len + 1, 1))
		return -ENOMEM;
	int id = push_node(c, YAML_SCALAR_NODE, &ev->start_mark);
	if (id < 0)
		return -ENOMEM;
	struct ydoc_node *node = &c->doc->nodes[id];
	node->style = (uint8_t)ev->data.scalar.style;
	node->at = (uint32_t)c->text_len;
	node->len = (uint32_t)len;
	memcpy(c->doc->text + c->text_len, ev->data.scalar.value, len);
	c->doc->text[c->text_len + len] = '\0';
	c->text_len += len + 1;
	return 0;
}

/* Handle one event inside the document; 1 when the document has ended. */
static int take_event(struct composer *c, const yaml_event_t *ev)
{
	const yaml_char_t *anchor = NULL;
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		return fail_at(c, &ev->start_mark, "YAML alias '*%s': anchors and aliases "
			       "are not part of the description format",
			       (const char *)ev->data.alias.anchor);
	case YAML_SCALAR_EVENT:
		anchor = ev->data.scalar.anchor;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = ev->data.mapping_start.anchor;
		break;
	default:
		break;
	}
	if (anchor)
		return fail_at(c, &ev->start_mark, "YAML anchor '&%s': anchors and aliases "
			       "are not part of the description format", (const char *)anchor);
	int rc = ev->type == YAML_SCALAR_EVENT || ev->type == YAML_SEQUENCE_START_EVENT ||
			 ev->type == YAML_MAPPING_START_EVENT
		 ? count_node(c, ev) : 0;
	if (rc)
		return rc;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return add_scalar(c, ev);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		return open_collection(c, ev);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return close_collection(c);
	case YAML_DOCUMENT_END_EVENT:
		return 1;
	default:
		return 0;
	}
}

/* Next event; a syntax error is reported. */
static int next_event(struct composer *c, yaml_event_t *ev)
{
	return yaml_parser_parse(c->parser, ev) ? 0 : syntax_error(c);
}

static int compose_document(struct composer *c)
{
	for (;;) {
		yaml_event_t ev;
		int rc = next_event(c, &ev);
		if (rc)
			return rc;
		rc = take_event(c, &ev);
		yaml_event_delete(&ev);
		if (rc)
			return rc > 0 ? 0 : rc;
	}
}

/* After the document: only the end of the stream may follow. */
static int expect_stream_end(struct composer *c)
{
	yaml_event_t ev;
	int rc = next_event(c, &ev);
	if (rc)
		return rc;
	if (ev.type != YAML_STREAM_END_EVENT)
		rc = fail_at(c, &ev.start_mark,
			     "a second YAML document; a %s is one document", "description");
	yaml_event_delete(&ev);
	return rc;
}

static int compose_stream(struct composer *c)
{
	yaml_event_t ev;
	int rc = next_event(c, &ev); /* STREAM-START */
	yaml_event_delete(&ev);
	if (!rc)
		rc = next_event(c, &ev);
	if (rc)
		return rc;
	bool empty = ev.type == YAML_STREAM_END_EVENT;
	yaml_event_delete(&ev);
	if (empty)
		return 0;
	rc = compose_document(c);
	return rc ? rc : expect_stream_end(c);
}

void y_doc_free(struct ydoc *doc)
{
	free(doc->nodes);
	free(doc->items);
	free(doc->text);
	memset(doc, 0, sizeof(*doc));
}

int y_compose(yaml_parser_t *parser, size_t input_len, struct ydoc *doc,
	      const char *file, struct pmu_diag *d)
{
	struct composer c = {.parser = parser, .doc = doc, .d = d, .file = file};
	memset(doc, 0, sizeof(*doc));
	int rc = reserve_for_input(&c, input_len) ? compose_stream(&c) : -ENOMEM;
	free(c.pending);
	if (rc)
		y_doc_free(doc);
	return rc == -ENOMEM ? pmu_report_oom(d, NULL) : rc;
}
