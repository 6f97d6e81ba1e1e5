/*
 * yaml_gather.h - the sections gathered from a description's files
 * (yaml_gather.c), and the view of them the section readers take.
 */
#ifndef PMU_YAML_GATHER_H
#define PMU_YAML_GATHER_H

#include "yaml_doc.h"

/* Every top-level (key, value) of a description in encounter order,
 * includes expanded. */
struct ysections {
	struct ynode *keys, *values;
	int n;
};

/* Appends (key, value); 0, or -ENOMEM reported through c. */
int ysections_add(struct ysections *s, struct yctx *c, struct ynode key, struct ynode value);
void ysections_free(struct ysections *s);

/* What a section reader reads from: the gathered sections, and the model
 * and diagnostics it reads them into. */
struct yloader_view {
	const struct ysections *sections;
	struct yctx *c;
};

/* Values of every top-level section called name (lists may be split across
 * included files), at most max; returns how many. */
int ysec_list(const struct yloader_view *view, const char *name,
	      struct ynode *out, int max);
/* The key of gathered section i (encounter order); false past the end. */
bool ysec_key_at(const struct yloader_view *view, int i, struct ynode *key);
/* A section that may appear only once; out->node is NULL when absent. */
int ysec_single(const struct yloader_view *view, const char *name,
		struct ynode *out);

#endif /* PMU_YAML_GATHER_H */
