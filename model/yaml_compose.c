/*
 * yaml_compose.c - builds one libyaml document from the parser's event stream
 * with bounded cost (see yaml_doc.h, y_compose).
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
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "yaml_doc.h"

struct composer {
	yaml_parser_t *parser;
	yaml_document_t *doc;
	struct pmu_diag *d;
	const char *file;
	int depth;
	int nodes;
	int open[Y_MAX_DEPTH];   /* node id of each open collection */
	int key[Y_MAX_DEPTH];    /* mappings: the key awaiting its value, 0 if none */
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

/* Hang a finished node under the innermost open collection (or make it the
 * root, which yaml_document_t takes to be node 1). */
static int attach(struct composer *c, int id)
{
	if (!id)
		return -ENOMEM;
	if (c->depth == 0)
		return 0;
	int parent = c->open[c->depth - 1];
	yaml_node_t *pn = yaml_document_get_node(c->doc, parent);
	int ok;
	if (pn->type == YAML_SEQUENCE_NODE) {
		ok = yaml_document_append_sequence_item(c->doc, parent, id);
	} else if (!c->key[c->depth - 1]) {
		c->key[c->depth - 1] = id;
		ok = 1;
	} else {
		ok = yaml_document_append_mapping_pair(c->doc, parent, c->key[c->depth - 1], id);
		c->key[c->depth - 1] = 0;
	}
	return ok ? 0 : -ENOMEM;
}

/*
 * The document's nodes are pushed here rather than through
 * yaml_document_add_*(), which copy the event's value, check its UTF-8 again
 * (libyaml's reader has) and store a copy of the default tag in every node:
 * a scalar node takes over the event's value, and nodes keep no tag (the
 * description format has none; yaml_document_delete() frees what there is,
 * with free(), as libyaml allocates with malloc()).  Returns the node's id,
 * 0 when out of memory.
 */
static int push_node(yaml_document_t *doc, const yaml_node_t *node)
{
	if (doc->nodes.top == doc->nodes.end) {
		size_t n = (size_t)(doc->nodes.end - doc->nodes.start);
		size_t used = (size_t)(doc->nodes.top - doc->nodes.start);
		yaml_node_t *grown = realloc(doc->nodes.start, (n ? 2 * n : 64) * sizeof(*grown));
		if (!grown)
			return 0;
		doc->nodes.start = grown;
		doc->nodes.top = grown + used;
		doc->nodes.end = grown + (n ? 2 * n : 64);
	}
	*doc->nodes.top++ = *node;
	return (int)(doc->nodes.top - doc->nodes.start);
}

/* An empty stack of n items as libyaml keeps them (start, top, end);
 * false when out of memory. */
#define STACK_INIT(stack, n)                                                   \
	(((stack).start = (stack).top = malloc((n) * sizeof(*(stack).start))) && \
	 ((stack).end = (stack).start + (n), true))

/* A collection node with libyaml's own item stack (yaml_document_add_*). */
static int push_collection(yaml_document_t *doc, bool seq, const yaml_event_t *ev)
{
	enum { INITIAL_ITEMS = 16 };
	yaml_node_t node = {.type = seq ? YAML_SEQUENCE_NODE : YAML_MAPPING_NODE,
			    .start_mark = ev->start_mark, .end_mark = ev->start_mark};
	if (seq) {
		node.data.sequence.style = ev->data.sequence_start.style;
		if (!STACK_INIT(node.data.sequence.items, INITIAL_ITEMS))
			return 0;
	} else {
		node.data.mapping.style = ev->data.mapping_start.style;
		if (!STACK_INIT(node.data.mapping.pairs, INITIAL_ITEMS))
			return 0;
	}
	int id = push_node(doc, &node);
	if (!id)
		free(seq ? (void *)node.data.sequence.items.start : (void *)node.data.mapping.pairs.start);
	return id;
}

static int open_collection(struct composer *c, const yaml_event_t *ev)
{
	bool seq = ev->type == YAML_SEQUENCE_START_EVENT;
	if (c->depth == Y_MAX_DEPTH)
		return fail_at(c, &ev->start_mark, "%s nested deeper than "
			       Y_MAX_DEPTH_TEXT " levels", seq ? "sequence" : "mapping");
	int id = push_collection(c->doc, seq, ev);
	int rc = attach(c, id);
	if (rc)
		return rc;
	c->open[c->depth] = id;
	c->key[c->depth++] = 0;
	return 0;
}

static int count_node(struct composer *c, const yaml_event_t *ev)
{
	if (++c->nodes <= Y_MAX_NODES)
		return 0;
	struct pmu_pos p = {c->file, (int)ev->start_mark.line + 1,
			    (int)ev->start_mark.column + 1};
	pmu_report(c->d, -1, &p, "more than %d YAML nodes in one file", Y_MAX_NODES);
	return -E2BIG;
}

/* The event's value moves into the node (the event is left without one). */
static int add_scalar(struct composer *c, yaml_event_t *ev)
{
	yaml_node_t node = {.type = YAML_SCALAR_NODE, .start_mark = ev->start_mark,
			    .end_mark = ev->start_mark};
	node.data.scalar.value = ev->data.scalar.value;
	node.data.scalar.length = ev->data.scalar.length;
	node.data.scalar.style = ev->data.scalar.style;
	int id = push_node(c->doc, &node);
	if (id)
		ev->data.scalar.value = NULL;
	return attach(c, id);
}

/* Handle one event inside the document; 1 when the document has ended. */
static int take_event(struct composer *c, yaml_event_t *ev)
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
		c->depth--;
		return 0;
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

static int compose_document(struct composer *c, const yaml_event_t *start)
{
	const yaml_event_t *s = start;
	if (!yaml_document_initialize(c->doc, s->data.document_start.version_directive,
				      s->data.document_start.tag_directives.start,
				      s->data.document_start.tag_directives.end,
				      s->data.document_start.implicit, 1))
		return -ENOMEM;
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
	if (ev.type == YAML_STREAM_END_EVENT) {
		yaml_event_delete(&ev);
		return yaml_document_initialize(c->doc, NULL, NULL, NULL, 1, 1) ? 0 : -ENOMEM;
	}
	rc = compose_document(c, &ev);
	yaml_event_delete(&ev);
	return rc ? rc : expect_stream_end(c);
}

int y_compose(yaml_parser_t *parser, yaml_document_t *doc, const char *file,
	      struct pmu_diag *d)
{
	struct composer c = {.parser = parser, .doc = doc, .d = d, .file = file};
	memset(doc, 0, sizeof(*doc));
	int rc = compose_stream(&c);
	if (rc && doc->nodes.start)
		yaml_document_delete(doc);
	return rc == -ENOMEM ? pmu_report_oom(d, NULL) : rc;
}
