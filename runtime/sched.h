/*
 * sched.h - the group scheduler: constraint check, alternatives search, PMC
 * assignment and control-register values for a group of events, computed
 * from a description alone, the way the Linux powerpc perf core does it
 * (core-book3s.c power_pmu_event_init / power_check_constraints,
 * isa207-common.c isa207_get_constraint / isa207_compute_mmcr).
 *
 * Nothing here knows POWER10: every rule comes from struct pmu_model.
 */
#ifndef PMURT_SCHED_H
#define PMURT_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu_checks.h"
#include "pmu_model.h"

#define PMU_SCHED_MAX_EVENTS 16   /* more than any group a PMU can hold */
#define PMU_SCHED_MAX_ALTS 8      /* MAX_EVENT_ALTERNATIVES */
#define PMU_SCHED_MAX_REGS 8
#define PMU_SCHED_MAX_PMC 15      /* counters the compiled tables cover */
#define PMU_SCHED_MAX_CONS 32
#define PMU_SCHED_MAX_FLAGS 4     /* constraints with a flag value */
#define PMU_SCHED_MAX_PLACED 64
#define PMU_SCHED_MAX_ALT_CODES 32 /* distinct codes of alternatives kept compiled
                                      (POWER8's table names 24) */
#define PMU_SCHED_ALT_INDEX_BITS 7
#define PMU_SCHED_ALT_INDEX (1 << PMU_SCHED_ALT_INDEX_BITS) /* hash slots for them:
                                                              a quarter full at most */

/* Register bits per counter: mask[pmc], pmc 0..PMU_SCHED_MAX_PMC (a fixed
 * field has the same mask for every pmc). */
struct pmu_creg_bits {
	int reg;                /* -1: none */
	uint64_t mask[PMU_SCHED_MAX_PMC + 1];
};

/* A constraint compiled: the slot of the kernel's constraint word. */
struct pmu_ccons {
	enum pmu_constraint_kind kind;
	struct pmu_ccond when;
	struct pmu_extract src;         /* EQUAL */
	int flag;                       /* EQUAL: the value is the truth of
	                                   engine->flags[flag]; -1: none */
	enum pmu_transform transform;
	uint64_t transform_arg;
	struct pmu_thresh_encoding encoding;
	uint32_t slot_lo, width;
	uint64_t slot_mask;
};

/* A field placement compiled (compute_mmcr's per-event writes). */
struct pmu_cplace {
	struct pmu_ccond when;
	struct pmu_extract src;
	enum pmu_transform transform;
	uint64_t transform_arg;
	struct pmu_thresh_encoding encoding;
	struct pmu_creg_bits target;
	struct pmu_creg_bits clear;
};

/* The description compiled for fast repeated scheduling. */
struct pmu_engine {
	const struct pmu_model *m;
	struct pmu_check_ctx checks;
	int pmc_field;          /* role pmc */
	int mark_field;         /* role mark, -1 if none */
	struct pmu_extract pmc, mark;
	uint64_t add_fields;    /* the kernel's ppmu->add_fields */
	uint64_t test_adder;    /* the kernel's ppmu->test_adder */
	uint64_t grp_mask;      /* ppmu->group_constraint_mask: group-rule slots */
	uint64_t grp_val;       /* ppmu->group_constraint_val */
	int nprogrammable;      /* PMC1..PMCn take any event */
	int ncons;
	struct pmu_ccons cons[PMU_SCHED_MAX_CONS];
	int nflags;
	struct pmu_ccond flags[PMU_SCHED_MAX_FLAGS]; /* flag constraints' conditions */
	int nplaced;            /* fields with a register target, in order */
	struct pmu_cplace placed[PMU_SCHED_MAX_PLACED];
	/* each placement's source and whether it acts on a zero value, kept
	 * apart and small: most fields of most events are zero */
	struct pmu_extract placed_src[PMU_SCHED_MAX_PLACED];
	bool placed_on_zero[PMU_SCHED_MAX_PLACED];
	struct pmu_creg_bits sampling;           /* the mark field's target */
	struct pmu_creg_bits exclude[PMU_EXCL_COUNT];
	struct pmu_creg_bits branch_clear;
	struct pmu_creg_bits branch_filter;
	uint64_t reset[PMU_SCHED_MAX_REGS];
	/* every code of the alternatives table with its alternatives, computed
	 * once (isa207_get_alternatives), [0] not per task, [1] per task; a code
	 * not listed has only itself.  nalt_codes < 0: the table has more
	 * codes than fit, alternatives are computed on each call.  alt_index
	 * finds a code's entry in a constant number of probes whatever the
	 * table's size (open addressing on a hash of the code; -1: empty). */
	int nalt_codes;
	int8_t alt_index[PMU_SCHED_ALT_INDEX];
	struct pmu_alt_list {
		uint64_t code;
		uint64_t mask, value;   /* its constraint words with config1 0 */
		uint8_t n[2];
		uint8_t alt[2][PMU_SCHED_MAX_ALTS]; /* indices into alt_lists */
	} alt_lists[PMU_SCHED_MAX_ALT_CODES];
};

/* One group member as perf_event_attr describes it. */
struct pmu_sched_event {
	uint64_t config;
	uint64_t config1;
	unsigned exclude;       /* bit (1 << enum pmu_exclude) per exclude_* set */
	uint64_t branch_sample_type; /* PERF_SAMPLE_BRANCH_* bits; 0: no branch stack */
	const char *name;       /* for messages; NULL: the code is shown */
};

struct pmu_sched_options {
	bool per_task;   /* attached to a task: the per-task-only alternatives apply */
	bool hv_mode;    /* kernel runs in hypervisor mode (exclude_kernel -> HV bits) */
	bool lpar;       /* running under a hypervisor: exclude_hv honoured */
};

struct pmu_sched_result {
	bool ok;
	/* rejected */
	int reject_index;       /* the member whose perf_event_open would fail */
	const char *reason;     /* a check's name, or "constraint_conflict" */
	char message[320];
	/* accepted */
	int n;
	bool alternatives_used;
	uint64_t final_events[PMU_SCHED_MAX_EVENTS];
	int pmc[PMU_SCHED_MAX_EVENTS];          /* 1-based */
	uint64_t regs[PMU_SCHED_MAX_REGS];      /* by model register index */
	/* accepted: the group's next schedule.  power_pmu_commit_txn writes
	 * final_events back into the members' hw.config, and the next
	 * power_check_constraints runs on them; NULL when they fit again, else
	 * why not (the kernel then returns -EAGAIN on every later schedule). */
	const char *reschedule_reason;
	char reschedule_message[320];
};

/* The branch filter value for a branch-stack request (the first listed
 * filter it holds), or -EOPNOTSUPP: more than one filter (core-book3s.c
 * power_pmu_event_init), or a filter the PMU does not support. */
int pmu_engine_branch_filter(const struct pmu_engine *e, uint64_t branch_sample_type,
			     uint64_t *value);

/* Compile a model; 0 or -EINVAL when it lacks what scheduling needs. */
int pmu_engine_init(struct pmu_engine *e, const struct pmu_model *m,
		    struct pmu_error *err);

/* The kernel's (mask, value) constraint words for one event. */
void pmu_engine_constraint(const struct pmu_engine *e, uint64_t config,
			   uint64_t config1, uint64_t *mask, uint64_t *value);

/* Alternatives of a code, alt[0] = the code itself; returns how many. */
int pmu_engine_alternatives(const struct pmu_engine *e, uint64_t code,
			    bool per_task, uint64_t alt[PMU_SCHED_MAX_ALTS]);

/* Schedule a group (leader first), as successive perf_event_open calls and
 * the final schedule would.  Always fills r; returns 0 (accepted or not) or
 * -EINVAL for bad arguments. */
int pmu_engine_schedule(const struct pmu_engine *e, const struct pmu_sched_event *ev,
			int n, const struct pmu_sched_options *o,
			struct pmu_sched_result *r);

#endif /* PMURT_SCHED_H */
