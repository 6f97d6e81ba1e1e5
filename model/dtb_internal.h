/*
 * dtb_internal.h - what the parts of the DTB loader share: the loading
 * context, the checked reading of an untrusted blob (dtb_read.c), the
 * sections of pmugen's layout (dtb_description.c, dtb_constraints.c,
 * dtb_events.c) and what differs in skiboot's (dtb_skiboot.c).  The driver
 * is dtb_load.c.
 */
#ifndef DTB_INTERNAL_H
#define DTB_INTERNAL_H

#include <libfdt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu_load.h"

#define PATH_LEN 512

struct node_path {
	int offset;
	char *path;
};

/* Loading context: the checked blob and where problems go. */
struct dl {
	const void *fdt;
	const char *name;  /* blob name for messages */
	struct pmu_model *m;
	struct pmu_diag *d;
	int errors;
	bool legacy;       /* no description-format: a skiboot-style tree */
	int pmu;           /* offset of the PMU node */
	int *field_node;   /* node offset of each model field, for pass two */
	int legacy_skipped; /* skiboot constraint nodes that could not be read */
	/* the path of every node, by offset (fdt_get_path walks the whole
	 * tree on each call) */
	struct node_path *paths;
	int npaths;
};

/* --- dtb_read.c: the blob, positions, reports and property access ---------
 * Each getter returns 0 when the property was read, 1 when it is absent and
 * not required, and -EINVAL (reported) when it is malformed or missing. */
int dl_build_paths(struct dl *L);
void dl_free_paths(struct dl *L);
struct pmu_pos dl_node_pos(struct dl *L, int node);
int dl_fail(struct dl *L, int node, const char *prop, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int dl_oom(struct dl *L);
int dl_check_unique_paths(struct dl *L);
int dl_get_cells(struct dl *L, int node, const char *name, bool required,
		     uint32_t *out, int min, int max, int *n);
int dl_get_u32(struct dl *L, int node, const char *name, bool required,
		   uint32_t *out);
int dl_get_range(struct dl *L, int node, const char *name, bool required,
		     uint32_t *lo, uint32_t *hi);
int dl_decode_u64(const fdt32_t *v, int len, bool one_cell, uint64_t *out);
int dl_get_u64(struct dl *L, int node, const char *name, bool required,
		   bool one_cell, uint64_t *out);
int dl_get_str(struct dl *L, int node, const char *name, bool required,
		   const char **out);
int dl_get_strdup(struct dl *L, int node, const char *name, bool required,
		      char **out);
/* A list of 64-bit codes as <hi lo> pairs, allocated into *codes (n of
 * them): 0, 1 when absent, -EINVAL (reported) or -ENOMEM. */
int dl_get_code_list(struct dl *L, int node, const char *name, uint64_t **codes, int *n);
bool dl_has_prop(struct dl *L, int node, const char *name);
/* A constraint's <lo hi> in the constraint word: `slot`, else the RFC's
 * constraint-mask (then required, one run of bits); 0 or a negative errno
 * (reported). */
int dl_constraint_slot(struct dl *L, int node, struct pmu_constraint *c);
int dl_get_ref(struct dl *L, int node, const char *name, bool required,
		   struct pmu_reg_ref *out);
int dl_get_enum(struct dl *L, int node, const char *name, bool required,
		    const char *(*fn)(int), int n, int *out);
int dl_get_condition(struct dl *L, int node, const char *name,
			 struct pmu_condition *out);
const char *dl_role_name(int i);
const char *dl_source_name(int i);
const char *dl_cons_kind_name(int i);
const char *dl_check_kind_name(int i);
const char *dl_usage_when_name(int i);
int dl_get_transform(struct dl *L, int node, enum pmu_transform *t, uint64_t *arg,
			 struct pmu_thresh_encoding *enc);
const char *dl_node_name(struct dl *L, int node);
int dl_child(struct dl *L, int parent, const char *name, bool required);
int dl_count_children(struct dl *L, int parent);
char *dl_case_copy(struct dl *L, int node, bool upper);
void *dl_alloc_array(struct dl *L, int n, size_t size);
int dl_check_blob(struct dl *L, const void *blob, size_t size);

/* Two of names[0..n-1] alike (the nodes a tree gives the same model name,
 * through event-name or the RFC's parents): each repeat reported at its
 * node (property prop, or none), naming the first; -EINVAL, or 0. */
int dl_unique_names(struct dl *L, const char *what, const char *prop,
		    const char *const *names, const int *nodes, int n);

/* --- dtb_description.c: counters, registers, fields, compute_mmcr inputs -- */
int dl_load_sprs(struct dl *L);
int dl_load_code_classes(struct dl *L);
int dl_load_fields(struct dl *L, int constraints);
int dl_load_mmcr_inputs(struct dl *L);

/* --- dtb_constraints.c: constraints, alternatives, checks ----------------- */
int dl_load_constraints(struct dl *L, int constraints);

/* --- dtb_events.c: generic and cache maps, branch filters, events, presets */
int dl_load_generic(struct dl *L);
int dl_load_branch_filters(struct dl *L);
int dl_load_cache_events(struct dl *L);
int dl_load_events(struct dl *L);
int dl_load_presets(struct dl *L);
/* after the events: expressions name them */
int dl_load_metrics(struct dl *L);

/* --- dtb_skiboot.c: what skiboot's tree says differently ------------------- */
int skiboot_field_target(struct dl *L, int node, struct pmu_field *f);
enum pmu_field_role skiboot_role(const char *node);
int skiboot_load_freeze(struct dl *L, int mmcr2);
int skiboot_usage_target(struct dl *L, int node, struct pmu_reg_ref *out);
int skiboot_load_constraint(struct dl *L, int node, struct pmu_constraint *c);
bool skiboot_constraint_usable(struct dl *L, int node);
int skiboot_fixed_codes(struct dl *L);

#endif /* DTB_INTERNAL_H */
