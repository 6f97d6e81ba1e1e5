/*
 * dt_util.h - helpers shared by the device-tree tests: load a YAML
 * description and turn a model into a DTB in memory with pmugen's emitter.
 */
#ifndef DT_UTIL_H
#define DT_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu_load.h"

/* Load path; on failure print why and return nonzero. */
int dt_load_yaml(struct pmu_model *m, const char *path);
/* emit_dtb() into a malloc'd buffer (free it); 0 or a negative errno. */
int dt_emit_dtb(const struct pmu_model *m, bool all_events, char **buf,
		size_t *len);
/* The same without printing the emitter's error (fuzzing). */
int dt_emit_dtb_quiet(const struct pmu_model *m, bool all_events, char **buf,
		      size_t *len);
/* emit_dts() into a malloc'd, NUL-terminated buffer. */
int dt_emit_dts(const struct pmu_model *m, bool all_events, char **buf,
		size_t *len);


#include "check.h"

#endif /* DT_UTIL_H */
