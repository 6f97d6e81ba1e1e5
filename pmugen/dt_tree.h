/*
 * dt_tree.h - the one walk of a model that produces the device tree of
 * schema/dts-layout.md.  The walk calls a small "sink" for every node and
 * property; emit_dts.c supplies a sink that prints DTS text and emit_dtb.c one
 * that writes the flattened tree, so the two outputs always
 * describe the same tree.
 */
#ifndef PMUGEN_DT_TREE_H
#define PMUGEN_DT_TREE_H

#include <stdint.h>

#include "emit.h"
#include "pmu_model.h"

/* How a cell list is printed in DTS (the DTB bytes are the same). */
enum dt_radix { DT_DEC, DT_HEX };

/* Every callback returns 0 or a negative errno (and fills err). */
struct dt_sink_ops {
	int (*begin_node)(void *ctx, const char *name, struct pmurt_error *err);
	int (*end_node)(void *ctx, struct pmurt_error *err);
	int (*prop_u32s)(void *ctx, const char *name, const uint32_t *cells,
			 int ncells, enum dt_radix radix, struct pmurt_error *err);
	/* A string list: strs[0..n-1], each written NUL-terminated. */
	int (*prop_strings)(void *ctx, const char *name,
			    const char *const *strs, int n,
			    struct pmurt_error *err);
	/* An empty (boolean) property. */
	int (*prop_flag)(void *ctx, const char *name, struct pmurt_error *err);
};

struct dt_sink {
	const struct dt_sink_ops *ops;
	void *ctx;
};

/* Walk the model (the root node and everything below it) into the sink.
 * Checks what the tree form needs (node-name characters, reserved names,
 * indices in range) and fails with -EINVAL and a message in err. */
int dt_tree_walk(const struct pmu_model *m, const struct emit_options *o,
		 const struct dt_sink *sink, struct pmurt_error *err);

#endif /* PMUGEN_DT_TREE_H */
