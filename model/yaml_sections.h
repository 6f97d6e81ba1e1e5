/*
 * yaml_sections.h - the YAML loader's section readers (yaml_sections.c),
 * which read the sections yaml_load.c gathered (yaml_gather.h).
 */
#ifndef PMU_YAML_SECTIONS_H
#define PMU_YAML_SECTIONS_H

#include "yaml_gather.h"

/* The `pmu` section's `pvr-versions` list (n may be absent) into c->m, and
 * the check that its `pvr` is one of them; shared with yaml_extends.c. */
int ysec_read_pvr_versions(struct yctx *c, const struct ynode *n);
int ysec_check_pvr_version(struct yctx *c, const struct ynode *pmu);

/* Read every section into view->c->m, in dependency order. */
int ysec_read_all(const struct yloader_view *view);

#endif /* PMU_YAML_SECTIONS_H */
