/*
 * rfc_vocab.h - the constraint vocabulary of the kernel RFC "powerpc/perf:
 * Add Device Tree based PMU description framework" (patch 3,
 * arch/powerpc/perf/dts_pmu.c parse_constraints() and isa207-common.c
 * isa207_get_constraint_dts()), and how a model's constraints are said in it.
 *
 * The RFC looks its constraint nodes up by fixed names under `constraints`
 * (some under a `threshold` or `cache` parent) and applies each by a
 * `condition` code.  A model constraint whose name is one of those names is
 * written there (pmugen/dt_tree.c) and read back from there
 * (model/dtb_constraints.c); this file derives what the RFC reads for it, and
 * says where the RFC would read it differently from the description.
 */
#ifndef PMU_RFC_VOCAB_H
#define PMU_RFC_VOCAB_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu_model.h"

/* asm/dts_pmu.h DTS_COND_*: when a constraint node applies to an event. */
enum pmu_rfc_cond {
	PMU_RFC_ALWAYS = 0,
	PMU_RFC_MARKED = 1,    /* event bit 8 (EVENT_IS_MARKED) */
	PMU_RFC_THRESHOLD = 2, /* event bits 29-31 nonzero (event_is_threshold) */
	PMU_RFC_L1 = 3,        /* event bit 22 (EVENT_IS_L1) */
	PMU_RFC_BHRB = 4,      /* event bit 62 (EVENT_WANTS_BHRB) */
	PMU_RFC_CACHE = 5,     /* never by condition: the cache nodes are applied
	                          by unit in isa207_get_constraint_dts */
	PMU_RFC_RADIX = 6,     /* the processor is ISA 3.1 */
};

/* How the RFC reads a node. */
enum pmu_rfc_form {
	PMU_RFC_FORM_FIELD, /* parse_constraint_field: condition, event-mask,
	                       event-shift, constraint-mask, constraint-shift */
	PMU_RFC_FORM_PMC,   /* pmc-constraints: max-counter, restricted-counters-N */
	PMU_RFC_FORM_NC,    /* nc: mask (u64), shift, increment */
};

struct pmu_rfc_node {
	const char *name;   /* node name = model constraint name */
	const char *parent; /* "threshold", "cache", or NULL: under constraints */
	enum pmu_rfc_form form;
};

/* The RFC node a constraint of this name is, or NULL (not its vocabulary:
 * the node keeps its name under `constraints` and the RFC ignores it). */
const struct pmu_rfc_node *pmu_rfc_node(const char *constraint_name);

/* Is name one of the RFC's parent nodes ("threshold", "cache")? */
bool pmu_rfc_is_parent(const char *name);

/* The RFC form of one constraint. */
struct pmu_rfc_cons {
	const struct pmu_rfc_node *node; /* NULL: not RFC vocabulary */
	uint32_t condition;              /* enum pmu_rfc_cond */
	bool has_event;                  /* event-mask/event-shift written */
	uint32_t event_mask, event_shift;
	uint64_t constraint_mask;        /* FIELD: constraint-mask (0: none
	                                    written, a flag); NC: mask */
	uint32_t constraint_shift;       /* FIELD: constraint-shift; NC: shift */
	uint32_t increment;              /* NC */
	/* NULL when the RFC reads the node as the description means it; else
	 * what it does differently (a sentence, for pmugen -W rfc). */
	const char *differs;
};

/* Fill r for constraint c of m (r->node NULL when not RFC vocabulary). */
void pmu_rfc_constraint(const struct pmu_model *m, const struct pmu_constraint *c,
			struct pmu_rfc_cons *r);

/* The flags the RFC reads on `ebb` (require-pmc) and `bhrb` (requires-ebb):
 * whether the model refuses an EBB event with no PMC, and a BHRB event that
 * is not EBB (a reject check of exactly that condition). */
bool pmu_rfc_ebb_requires_pmc(const struct pmu_model *m);
bool pmu_rfc_bhrb_requires_ebb(const struct pmu_model *m);

/* The RFC's hard-coded event bits the conditions and flags test. */
#define PMU_RFC_BIT_EBB 63
#define PMU_RFC_BIT_BHRB 62
#define PMU_RFC_THRESH_LO 29
#define PMU_RFC_THRESH_HI 31
#define PMU_RFC_BIT_MARK 8
#define PMU_RFC_BIT_L1 22 /* EVENT_IS_L1: 4 << EVENT_CACHE_SEL_SHIFT */

/* cpu_dts's group_constraint_mask/_val (CNST_CACHE_PMC4): the one bit of
 * the constraint word whose group rule the RFC applies */
#define PMU_RFC_BIT_CACHE_PMC4 54

#endif /* PMU_RFC_VOCAB_H */
