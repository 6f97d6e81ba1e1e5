/*
 * yaml_doc.h - small typed accessors over a libyaml document, shared by the
 * YAML loader's section readers.  Every accessor reports a problem at the
 * node's line:col and returns a negative errno.
 */
#ifndef PMU_YAML_DOC_H
#define PMU_YAML_DOC_H

#include <stdbool.h>
#include <stdint.h>
#include <yaml.h>

#include "pmu_diag.h"
#include "pmu_model.h"

/* Deepest nesting of YAML collections a description may use (it needs about
 * six levels); deeper input is rejected while parsing, before libyaml's cost
 * grows with the square of the depth (schema/description-format.md, Limits). */
#define Y_MAX_DEPTH 64
#define Y_MAX_DEPTH_TEXT "64"
/* Most YAML nodes (scalars and collections) one file may hold: an event takes
 * 9 (POWER10's 654 take 5,891), so a 30,000-event import takes 270,000 and
 * about 55,000 events fit.  Bounds the memory and time of any input (a node
 * costs 24 bytes and its scalar's text: 10 MB of keys stops here after about
 * 0.2 s of CPU and 26 MB; schema/description-format.md, Limits). */
#define Y_MAX_NODES 500000

/* One node of a composed document (y_compose): 20 bytes, where libyaml's
 * yaml_node_t takes 96 and an allocation of its own per scalar and per
 * collection (those were most of pmugen's fresh pages on POWER10). */
struct ydoc_node {
	uint8_t type;       /* yaml_node_type_t: scalar, sequence or mapping */
	uint8_t style;      /* scalars: yaml_scalar_style_t */
	uint32_t line, col; /* where it starts, 1-based */
	uint32_t at;        /* scalar: its value's offset in text (NUL-terminated);
			       collection: its children's first id in items */
	uint32_t len;       /* scalar: bytes; sequence: items; mapping: 2 per pair */
};

/* A composed document: node 0 is the root; no nodes for an empty one. */
struct ydoc {
	struct ydoc_node *nodes;
	uint32_t *items;    /* children's node ids, each collection's together,
			       a mapping's as key, value, key, value... */
	char *text;         /* every scalar's value */
	int nnodes;
};

/* One parsed file. */
struct ysrc {
	struct ydoc doc;
	const char *file; /* interned in the model */
};

/* A node and the file it lives in. */
struct ynode {
	struct ysrc *src;
	const struct ydoc_node *node;
};

struct yctx {
	struct pmu_model *m;
	struct pmu_diag *d;
};

/* Room for element n of an array of n elements: grows to 2n when n is a
 * power of two (the array's capacity is the power of two at or above n), so
 * appending n elements copies O(n) bytes even where realloc never grows in
 * place (ASan's allocator).  Returns arr, the grown array or NULL. */
void *y_grow(void *arr, int n, size_t elem);

/* Parse the one document of parser's input (input_len bytes, to size the
 * document's arrays) into doc, event by event: stops at Y_MAX_DEPTH or
 * Y_MAX_NODES, rejects anchors, aliases and a second document, reports at
 * file:line:col.  0, or a negative errno with doc left empty. */
int y_compose(yaml_parser_t *parser, size_t input_len, struct ydoc *doc,
	      const char *file, struct pmu_diag *d);
void y_doc_free(struct ydoc *doc);
/* The document's root, or a node with node == NULL when it is empty. */
struct ynode y_root(struct ysrc *src);

struct pmu_pos y_pos(const struct ynode *n);
bool y_is_map(const struct ynode *n);
bool y_is_seq(const struct ynode *n);
/* A scalar's value, NULL for anything else. */
const char *y_scalar(const struct ynode *n);
int y_seq_len(const struct ynode *n);
struct ynode y_seq_at(const struct ynode *n, int i);
/* Mapping entry i (key and value); false past the end. */
bool y_map_at(const struct ynode *n, int i, struct ynode *key, struct ynode *value);
/* Value for key, or a node with node == NULL. */
struct ynode y_get(const struct ynode *map, const char *key);

/* Report unknown keys (with the nearest valid key) and missing required ones.
 * keys and required are NULL-terminated. */
int y_check_keys(struct yctx *c, const struct ynode *map, const char *what,
		 const char *const *keys, const char *const *required);

int y_expect_map(struct yctx *c, const struct ynode *n, const char *what);
int y_expect_seq(struct yctx *c, const struct ynode *n, const char *what);
/* Scalars; the out value is left untouched when the node is absent. */
int y_str(struct yctx *c, const struct ynode *n, const char *what, const char **out);
int y_strdup(struct yctx *c, const struct ynode *n, const char *what, char **out);
int y_u64(struct yctx *c, const struct ynode *n, const char *what, uint64_t *out);
int y_u32(struct yctx *c, const struct ynode *n, const char *what, uint32_t *out);
int y_bool(struct yctx *c, const struct ynode *n, const char *what, bool *out);
/* A two-number sequence [lo, hi], each 0..63 (field-range when not). */
int y_bits(struct yctx *c, const struct ynode *n, const char *what,
	   uint32_t *lo, uint32_t *hi);

/* Nearest word in a NULL-terminated list by edit distance, or NULL. */
const char *y_nearest(const char *word, const char *const *words);

#endif /* PMU_YAML_DOC_H */
