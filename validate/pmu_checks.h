/*
 * pmu_checks.h - semantic checks of a loaded description, shared by pmugen
 * and libpmurt's DTB and device-tree loaders.  Each check has a name
 * (pmu_check_name) and reports through struct pmu_diag.
 */
#ifndef PMU_CHECKS_H
#define PMU_CHECKS_H

#include <stdint.h>

#include "pmu_diag.h"
#include "pmu_model.h"

/* Run every enabled check; returns 0, or -EINVAL when any error was reported.
 * all_events: the output will hold every event (kernel-limits counts them). */
int pmu_check_model(const struct pmu_model *m, struct pmu_diag *d,
		    bool all_events);

/* The `rfc` check (rfc_check.c), run by pmu_check_model: warnings only. */
void pmu_check_rfc(const struct pmu_model *m, struct pmu_diag *d, bool all_events);

/* Where an event stands in the group being built, for the group checks. */
struct pmu_group_place {
	uint64_t leader_config; /* the leader's code (the event's own when it leads) */
	int index;              /* 0 for the leader */
};

#define PMU_MAX_CHECKS 64
#define PMU_MAX_GUARDS 8 /* screened complex checks; more are walked */
#define PMU_MAX_SETS 8   /* fields of screened value sets; more are compared */

/* What the per-event checks need, compiled once per model: they run for
 * every group member the runtime schedules. */
struct pmu_check_ctx {
	uint64_t covered;    /* bits some config field covers */
	uint64_t linux_bits; /* linux-defined bits, ignored for fixed counters */
	int pmc_field;       /* the role-pmc field, -1 if none */
	struct pmu_extract pmc;
	/* the quick screen: can any check fail?  (simple reject-when checks are
	 * one masked compare each; the rest are few) */
	int nsimple;
	struct { uint64_t mask[2], value[2]; } simple[PMU_MAX_CHECKS];
	/* simple checks on one config field of at most 6 bits, gathered by
	 * field: bit v of values is set when the field's value v is refused
	 * (POWER's reserved sampling values: one test instead of eight) */
	int nsets;
	struct { uint64_t mask, values; uint8_t shift; } sets[PMU_MAX_SETS];
	bool has_complex; /* reject-when checks the screen cannot narrow */
	/* reject-when checks that are not simple but have terms that must hold
	 * for them to fail: "FIELD is N" terms as one masked compare per word,
	 * "FIELD is nonzero" terms as fields that must not be zero */
	int nguarded;
	struct {
		uint64_t mask[2], value[2];
		int nnonzero;
		struct { uint64_t mask; uint8_t word; } nonzero[PMU_MAX_TERMS];
	} guarded[PMU_MAX_GUARDS];
	bool has_reserved, has_counter, has_fixed, has_size, has_refused;
	uint64_t refused_bloom; /* bit pmu_refused_bloom_bit(code) per refused code */
	int nagree;
	struct pmu_extract agree[PMU_MAX_CHECKS];
	int nchecks;
	struct pmu_ccheck {
		enum pmu_check_kind kind;
		struct pmu_ccond when;    /* REJECT_WHEN */
		struct pmu_extract field; /* GROUP_AGREE */
		bool inactive;            /* not for the model's processor revision */
		int ncodes;               /* REFUSED_CODE: the model's codes */
		const uint64_t *codes;
	} checks[PMU_MAX_CHECKS];
};

/* 0, or -E2BIG when the model has more than PMU_MAX_CHECKS checks.  Checks
 * whose pvr-mask/pvr-value do not match the model's pvr are left out.  The
 * context points into the model (refused codes). */
int pmu_check_ctx_init(struct pmu_check_ctx *ctx, const struct pmu_model *m);

/*
 * Per-event validity as the kernel's event_init and get_constraint see it:
 * the description's checks in order.  Returns -1 when valid, else the index
 * of the first failing check in m->checks (its name is the reason).
 */
int pmu_event_first_failing_check(const struct pmu_model *m,
				  const struct pmu_check_ctx *ctx, uint64_t config,
				  uint64_t config1, const struct pmu_group_place *place);

#endif /* PMU_CHECKS_H */
