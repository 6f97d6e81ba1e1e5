/*
 * yaml_extends.h - descriptions that extend another (`extends: FILE`,
 * schema/description-format.md "Extending a description"): the chain of
 * files being loaded, for cycles and for the identities an extension must
 * not repeat, and the reader that puts an extension's identity over its
 * base's model.
 */
#ifndef PMU_YAML_EXTENDS_H
#define PMU_YAML_EXTENDS_H

#include "yaml_sections.h"

/* Longest chain of extensions: a description, its base, the base's base... */
#define YEXT_MAX_DEPTH 8

/* One loaded description's identity, which no extension of it may repeat. */
struct yext_ident {
	char *file, *name, *platform;
	int nversions;
	uint32_t versions[PMU_MAX_PVR_VERSIONS];
};

struct yext_chain {
	int depth;                       /* files being loaded, outermost first */
	char *files[YEXT_MAX_DEPTH];     /* their real paths */
	int nids;                        /* descriptions loaded completely */
	struct yext_ident ids[YEXT_MAX_DEPTH];
	/* The YAML loader's entry for a base (yaml_load.c sets it): the file
	 * at path into m, with this chain. */
	int (*load_file)(struct pmu_model *m, const char *path, struct pmu_diag *d,
			 struct yext_chain *chain);
};

void yext_chain_free(struct yext_chain *chain);
/* Record the identity of a description loaded completely (m). */
int yext_chain_note(struct yext_chain *chain, const struct pmu_model *m, struct pmu_diag *d);

/* Load the base named by `extends` (the node at) into view->c->m, then read
 * the extension's own `pmu` section over it; every other section of the
 * extension is an error.  Reports at file:line:col. */
int yext_apply(const struct yloader_view *view, const struct ynode *at,
	       struct yext_chain *chain);

#endif /* PMU_YAML_EXTENDS_H */
