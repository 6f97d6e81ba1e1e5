/*
 * pmu_load.h - loading a description into a struct pmu_model.
 *
 * The YAML loader keeps libyaml's line:col marks on every part of the model;
 * the DTB loader checks an untrusted blob (fdt_check_full, sizes, cell
 * counts) before reading it.  Both report through a struct pmu_diag and
 * return 0 or a negative errno; on failure the model is left freed.
 */
#ifndef PMU_LOAD_H
#define PMU_LOAD_H

#include <stddef.h>

#include "pmu_diag.h"
#include "pmu_model.h"

/* Load a YAML description (and the files it includes). */
int pmu_load_yaml_file(struct pmu_model *m, const char *path,
		       struct pmu_diag *d);
/* Load from a buffer; name is used in messages and to resolve includes
 * relative to its directory. */
int pmu_load_yaml_buffer(struct pmu_model *m, const char *name,
			 const unsigned char *buf, size_t len,
			 struct pmu_diag *d);

/* Load the first pmus/ node with compatible "ibm,power-pmu" from a DTB. */
int pmu_load_dtb(struct pmu_model *m, const char *name, const void *blob,
		 size_t size, struct pmu_diag *d);
int pmu_load_dtb_file(struct pmu_model *m, const char *path,
		      struct pmu_diag *d);

/* Replace dst by src (src is left empty), keeping the strings dst interned
 * (pmu_model_intern: the file names its positions point to) alive in the
 * result: an extension's loader takes its base's model this way.  0 or
 * -ENOMEM (both models unchanged). */
int pmu_model_take(struct pmu_model *dst, struct pmu_model *src);

/* Sort fields into canonical order and resolve derived data (alias_of).
 * Called by every loader after filling the model. */
int pmu_model_finish(struct pmu_model *m);

#endif /* PMU_LOAD_H */
