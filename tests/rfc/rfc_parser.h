/*
 * rfc_parser.h - a model, for tests, of what the kernel RFC "powerpc/perf:
 * Add Device Tree based PMU description framework" (patch 3) reads from a
 * DTB and how it answers a group: dts_pmu.c pmu_dts_probe() and
 * parse_constraints(), isa207-common.c isa207_get_constraint_dts() and
 * isa207_get_alternatives() with the RFC's one-row table, and the
 * core-book3s.c group flow it runs under (power_pmu_event_init,
 * power_check_constraints).  Written from schema/dts-layout.md's and the
 * reference notes' description of that code; the of_* readers behave as
 * drivers/of/property.c's do (a u32 needs at least 4 bytes, an array of n
 * at least 4n, a u64 at least 8, and none has an upper size limit).
 */
#ifndef RFC_PARSER_H
#define RFC_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RFC_MAX_RESTRICTED 8
#define RFC_MAX_MAPS 16       /* constraint_maps kcalloc(16) */
#define RFC_MAX_EVENTS 32     /* MAX_DTS_EVENTS */
#define RFC_NAME_LEN 32       /* struct pmu_dts_event name[32] */
#define RFC_N_COUNTER 6       /* MAX_PMU_COUNTERS */
#define RFC_MAX_GROUP 16

#define RFC_MAX_FIELDS 17     /* MAX_FIELDS */
#define RFC_MAX_ALT 8         /* MAX_EVENT_ALTERNATIVES */
#define RFC_MAX_ALT_ROWS 16

/* struct dts_field_map, as pmu_dts_probe fills it from evt_code_format */
struct rfc_fmap {
	char name[32];
	bool is_pmc;
	uint32_t bits_start, bits_end, mmcr;
	bool use_target_field_shift;
	uint32_t target_field_base, target_field_shift, pgm_start;
};

/* struct dts_constraint_field */
struct rfc_field {
	uint32_t event_mask, event_shift;
	uint64_t constraint_mask;
	uint32_t constraint_shift;
	uint32_t condition;
};

struct rfc_pmu {
	uint32_t nr_pmc;
	/* dts_constraints */
	uint32_t max_counter;
	int num_restricted;
	struct { uint32_t pmc; uint64_t event; } restricted[RFC_MAX_RESTRICTED];
	struct rfc_field sample, thresh_sel, thresh_cmp, thresh_ctl;
	struct rfc_field cache_group, cache_pmc4, l2l3_group, ebb, bhrb;
	struct rfc_field l1_qualifier, fab_match, radix_scope;
	uint32_t cache_selector_mask;
	bool require_cache_selector_zero, require_pmc_for_ebb, bhrb_requires_ebb;
	struct { uint64_t mask; uint32_t shift, increment; } nc;
	/* the generic list every parsed constraint node joins */
	int nmaps;
	struct rfc_field maps[RFC_MAX_MAPS];
	char map_name[RFC_MAX_MAPS][16]; /* the node each came from */
	int nfields;
	struct rfc_fmap fields[RFC_MAX_FIELDS];
	/* the events it registers, in tree order */
	int nevents;
	struct { char name[RFC_NAME_LEN]; uint64_t code; } events[RFC_MAX_EVENTS];
	/* cpu_has_feature(CPU_FTR_ARCH_31) on the machine (the description's
	 * ISA level; cpu_dts's own PPMU_ARCH_31 flag changes no answer here).
	 * The RFC (patch 3, isa207-common.c) tests it in three places, all
	 * modelled: isa207_get_constraint_dts's l2l3-group or cache-group and
	 * cache-pmc4 branch for units 6-9, constraint_enabled's DTS_COND_RADIX,
	 * and compute_mmcr_dts's MMCR0_PMCCEXT (its MMCRA_BHRB_DISABLE is
	 * overwritten, see schema/rfc-conformance.md section 1). */
	bool arch31;
	/* For classifying disagreements, not the RFC: each of the kernel's
	 * rules the RFC lacks, switched on alone or together.
	 * kernel_scope: apply the generic list where the kernel's
	 * isa207_get_constraint applies the same rules (PMC5/6 events get
	 * only ebb and bhrb; l1-qualifier only for units other than 6-9), on
	 * top of each node's condition. */
	bool kernel_scope;
	/* kernel_alternatives: the alternatives table the tree carries in
	 * its [ext] constraints/alternatives (rows without per-task-only;
	 * the per-task RUN equivalences are isa207_get_alternatives' own)
	 * instead of the RFC's one row. */
	bool kernel_alternatives;
	int nalt_rows;
	uint64_t alt_rows[RFC_MAX_ALT_ROWS][RFC_MAX_ALT];
	/* kernel_pmc4 (ISA 3.0): isa207_get_constraint's CNST_CACHE_PMC4,
	 * the mask bit for every unit 6-9 event on PMC1-4 (or none) and the
	 * value bit for one on PMC4, which power9-pmu.c's
	 * group_constraint_mask/val then require in the group. */
	bool kernel_pmc4;
	/* refuses: a per-event check of the kernel's (power_pmu_event_init's
	 * blacklist and check_attr_config, isa207_get_constraint's
	 * is_event_valid and is_thresh_cmp_valid) the RFC lacks; true when
	 * it refuses the event. */
	bool (*refuses)(void *ctx, uint64_t config, uint64_t config1);
	void *refuses_ctx;
};

/* Probe the first node with compatible "ibm,power-pmu": 0, or -1 where the
 * RFC's probe fails (why in err). */
int rfc_probe(const void *fdt, bool arch31, struct rfc_pmu *p, char *err, size_t errlen);

/* isa207_get_constraint_dts: 0 and the words, or -1. */
int rfc_get_constraint(const struct rfc_pmu *p, uint64_t event, uint64_t *mask,
		       uint64_t *value);

struct rfc_event {
	uint64_t config, config1;
};

/* The group (leader first) opened member by member as core-book3s does:
 * true when every perf_event_open succeeds. */
bool rfc_group_ok(const struct rfc_pmu *p, const struct rfc_event *ev, int n,
		  bool per_task);

/* The registers dts_compute_mmcr (compute_mmcr_dts, then MMCR0_C56RUN)
 * returns for a group's final codes, and each event's counter (hwc + 1;
 * 0 for an event it gives none). */
struct rfc_mmcr {
	uint64_t mmcr0, mmcr1, mmcr2, mmcr3, mmcra;
	int pmc[RFC_MAX_GROUP];
};
void rfc_compute_mmcr(const struct rfc_pmu *p, const uint64_t *ev, int n, struct rfc_mmcr *r);

/* rfc_group_ok, also giving the codes the first schedule hands
 * compute_mmcr (after alternatives). */
bool rfc_group_final(const struct rfc_pmu *p, const struct rfc_event *ev, int n,
		     bool per_task, uint64_t *final);

#endif /* RFC_PARSER_H */
