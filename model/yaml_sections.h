/*
 * yaml_sections.h - the YAML loader's section readers (yaml_sections.c) and
 * the view of gathered sections they read from (yaml_load.c).
 */
#ifndef PMU_YAML_SECTIONS_H
#define PMU_YAML_SECTIONS_H

#include "yaml_doc.h"

struct loader;

struct yloader_view {
	struct loader *loader;
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

/* The `pmu` section's `pvr-versions` list (n may be absent) into c->m, and
 * the check that its `pvr` is one of them; shared with yaml_extends.c. */
int ysec_read_pvr_versions(struct yctx *c, const struct ynode *n);
int ysec_check_pvr_version(struct yctx *c, const struct ynode *pmu);

/* Read every section into view->c->m, in dependency order. */
int ysec_read_all(const struct yloader_view *view);

#endif /* PMU_YAML_SECTIONS_H */
