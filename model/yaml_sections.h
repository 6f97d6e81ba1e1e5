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
/* A section that may appear only once; out->node is NULL when absent. */
int ysec_single(const struct yloader_view *view, const char *name,
		struct ynode *out);

/* Read every section into view->c->m, in dependency order. */
int ysec_read_all(const struct yloader_view *view);

#endif /* PMU_YAML_SECTIONS_H */
