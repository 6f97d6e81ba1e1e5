/*
 * pmu_model.h - the in-memory description of a PMU.
 *
 * One set of types shared by pmugen (which loads YAML and emits DTS, DTB, C
 * and JSON), the semantic checks in validate/, and libpmurt (which loads the
 * same model from built-in tables, a DTB or a live device tree).  Whatever the
 * source, a description loads into a struct pmu_model, and two models can be
 * compared with pmu_model_equal().
 *
 * Bit numbers are LSB = 0 everywhere (the kernel's shift convention), never
 * IBM's MSB = 0.  Strings are heap copies owned by the model and freed by
 * pmu_model_free(), except in a model whose owns_strings is false: there
 * they point into storage that outlives it (the built-in tables' constant
 * string pool, runtime/tables_load.c) and are never written or freed.
 */
#ifndef PMU_MODEL_H
#define PMU_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"

#define PMU_FORMAT_VERSION 1 /* "format: pmu-description/1" in YAML */
#define PMU_MAX_PVR_VERSIONS 8 /* processor versions one description may list */

/* Where a part of the description came from: a YAML mark or a DT node path. */
struct pmu_pos {
	const char *file; /* points into the model's string pool; may be NULL */
	int line;         /* 1-based; 0 when unknown (DTB, built-in) */
	int col;          /* 1-based; 0 when unknown */
};


/* --- code classes ----------------------------------------------------------
 * A named set of event codes compared under a mask: a code belongs to the
 * class when (code & mask) is one of codes.  The kernel's
 * event_is_fab_match() (isa207-common.c) is one: the pmc, unit and PMCxSEL
 * bits without the edge bit (mask 0xff0fe) against PM_MRK_FAB_RSP_MATCH
 * (0x30056) and PM_MRK_FAB_RSP_MATCH_CYC (0x4f052).  Conditions test a
 * class with the clause "code is [not] NAME".
 */
#define PMU_MAX_CODE_CLASSES 16
#define PMU_MAX_CLASS_CODES 64

struct pmu_code_class {
	char *name;         /* "fab-match" */
	char *description;
	uint64_t mask;
	int ncodes;         /* 1..PMU_MAX_CLASS_CODES */
	uint64_t *codes;    /* each within mask */
	struct pmu_pos pos;
};

/* Whether code belongs to class k. */
static inline bool pmu_code_class_has(const struct pmu_code_class *k, uint64_t code)
{
	uint64_t v = code & k->mask;
	for (int i = 0; i < k->ncodes; i++)
		if (k->codes[i] == v)
			return true;
	return false;
}

/* --- conditions ------------------------------------------------------------
 * A condition is a conjunction of terms over event-code fields, written in the
 * description as words: "always", "only when unit is 6", "only for marked
 * events", "only when thresh_sel is nonzero", "only when pmc is 0..4 and unit
 * is not 6..9", "only when code is not fab-match".  A term holds when the
 * field's value is in [lo, hi] (or not in it, when negate is set); a class
 * term reads 1 when the event's code belongs to the class, else 0, and
 * holds when that is in [lo, hi] = [1, 1] ("code is NAME") or, negated, not.
 */
#define PMU_MAX_TERMS 4

struct pmu_term {
	int field;       /* index into model->fields, or into model->code_classes
	                    when code_class is set */
	bool negate;     /* "is not" */
	uint64_t lo, hi; /* inclusive value range */
	bool code_class; /* "code is [not] CLASS" */
};

struct pmu_condition {
	int nterms; /* 0 = always */
	struct pmu_term terms[PMU_MAX_TERMS];
};

/* --- counters (PMC1..PMCn) ------------------------------------------------ */
struct pmu_counter {
	char *name;        /* "PMC1" */
	uint32_t sprn;
	uint32_t width;    /* 32 or 64 */
	char *privilege;   /* "hv", "supervisor", "user" */
	bool programmable; /* false: takes only fixed_code */
	char *event;       /* fixed counters: the event it counts ("instructions") */
	uint64_t fixed_code; /* fixed counters: the only code accepted (0x500fa) */
	struct pmu_pos pos;
};

/* --- control registers and their named bit fields ------------------------- */
enum pmu_layout {
	PMU_LAYOUT_FIXED,   /* bits [lo, hi] */
	PMU_LAYOUT_PER_PMC, /* width bits at lsb = base - pmc * stride, pmc 1-based */
};

struct pmu_reg_field {
	char *name; /* "PMCxSEL", "FC56", "THR_SEL" */
	char *description;
	enum pmu_layout layout;
	uint32_t lo, hi;             /* PMU_LAYOUT_FIXED */
	uint32_t base, stride, width; /* PMU_LAYOUT_PER_PMC */
	struct pmu_pos pos;
};

struct pmu_register {
	char *name;      /* "MMCR0", "MMCRA" */
	uint32_t sprn;
	uint32_t width;
	char *privilege;
	uint32_t index;  /* the kernel RFC's mmcr index: 0=MMCR0 1 2 3 4=MMCRA */
	uint64_t reset;  /* value compute_mmcr starts from (MMCRA BHRB_DISABLE) */
	int nfields;
	struct pmu_reg_field *fields;
	struct pmu_pos pos;
};

/* --- event-code fields ---------------------------------------------------- */
enum pmu_source {
	PMU_SRC_CONFIG,  /* perf attr.config (the event code) */
	PMU_SRC_CONFIG1, /* perf attr.config1 (POWER10 threshold compare) */
};

/*
 * Named procedural rules a field's placement may refer to, when the kernel's
 * rule is not a plain "OR the value in".  Each is documented in
 * schema/description-format.md with the kernel function it follows.
 */
enum pmu_transform {
	PMU_XF_NONE,
	PMU_XF_SDAR_MODE,      /* isa207 mmcra_sdar_mode(): marked or sampling
	                          already on -> clear; else value; else default */
	PMU_XF_MANTISSA_EXPONENT, /* p10_thresh_cmp_val(): mantissa/exponent encoding,
	                             parameters in struct pmu_thresh_encoding (named
	                             "thresh-cmp-p10" until its parameters became data) */
};

/*
 * The parameters of PMU_XF_MANTISSA_EXPONENT, the threshold-compare encoding of
 * p10_thresh_cmp_val() in arch/powerpc/perf/isa207-common.c (POWER10: 8, 3,
 * 2, 261120, 0xc0).  A nonzero value is clamped to `clamp`, then shifted right
 * by `exponent_step` bits, counting the shifts in an exponent e, until at most
 * `mantissa_bits` significant bits remain; the encoding is
 * (e << mantissa_bits) | mantissa, or 0 (reserved) when e > 0 and the mantissa
 * has none of the `normalized_mask` bits set.  All zero when unused.
 */
struct pmu_thresh_encoding {
	uint32_t mantissa_bits;   /* 1..63 */
	uint32_t exponent_bits;   /* 1..64 - mantissa_bits, above the mantissa */
	uint32_t exponent_step;   /* 1..63: bits shifted out per exponent step */
	uint64_t clamp;           /* >= 1: larger values encode as the clamp */
	uint64_t normalized_mask; /* within the mantissa; see above */
};

/* The encoding's parameters by their names in every format (YAML key;
 * "encoding-" + name is the DT property), in struct order. */
enum pmu_thresh_param {
	PMU_ENC_MANTISSA_BITS,
	PMU_ENC_EXPONENT_BITS,
	PMU_ENC_EXPONENT_STEP,
	PMU_ENC_CLAMP,
	PMU_ENC_NORMALIZED_MASK,
	PMU_ENC_NPARAMS
};

enum pmu_field_role {
	PMU_ROLE_NONE,
	PMU_ROLE_PMC,    /* the counter-select field (the RFC's "PMCx" node) */
	PMU_ROLE_MARK,   /* marked (random sampling) event */
	PMU_ROLE_UNIT,   /* PMCxUNIT, used in conditions */
};

struct pmu_field {
	char *name;        /* perf/sysfs style name: "pmcxsel", "thresh_sel" */
	char *dts_name;    /* node name in evt_code_format, NULL if not emitted */
	char *description;
	enum pmu_source source;
	uint32_t lo, hi;   /* bit range in the source word, inclusive */
	int parent;        /* index of the enclosing field, -1 at top level */
	enum pmu_field_role role;
	bool linux_defined; /* bits the kernel ignores when matching fixed-counter
	                       events (IFM, BHRB, EBB) */
	/* Placement into a control register by compute_mmcr (target_reg < 0: none) */
	int target_reg;    /* index into model->registers */
	int target_field;  /* index into that register's fields */
	struct pmu_condition when;     /* placement happens only when this holds */
	enum pmu_transform transform;
	uint64_t transform_arg;        /* SDAR_MODE: the default mode */
	struct pmu_thresh_encoding encoding; /* THRESH_CMP_P10 */
	/* When the field is nonzero, clear this register field (BHRB -> MMCRA
	 * BHRB_DISABLE).  clear_reg < 0: none. */
	int clear_reg, clear_field;
	struct pmu_pos pos;
};

/* --- constraints ---------------------------------------------------------- */
enum pmu_constraint_kind {
	PMU_CONS_EQUAL,   /* every event it applies to must carry the same value */
	PMU_CONS_PER_PMC, /* slot per requested PMC, at most `limit` users each */
	PMU_CONS_COUNT,   /* one slot counting events, at most `limit` of them */
};

struct pmu_constraint {
	char *name;        /* "sample", "l2l3-group", "nc" */
	char *description;
	enum pmu_constraint_kind kind;
	/* EQUAL: the value taken from the source word bits [src_lo, src_hi] */
	enum pmu_source source;
	uint32_t src_lo, src_hi;
	enum pmu_transform transform; /* applied to the value first */
	uint64_t transform_arg;
	struct pmu_thresh_encoding encoding; /* THRESH_CMP_P10 */
	/* position in the kernel's 64-bit constraint mask/value word */
	uint32_t slot_lo, slot_hi;  /* PER_PMC: slot of PMC1; slots are adjacent */
	uint32_t limit;             /* PER_PMC/COUNT: users allowed */
	struct pmu_condition when;
	/* EQUAL: when has_flag, the value is 1 when `flag` holds for the event,
	 * else 0 (instead of a field's or bits' value) */
	bool has_flag;
	struct pmu_condition flag;
	/* EQUAL, the group rule (power_check_constraints' group_constraint_mask
	 * and _val): when group_reason is set, the slot's combined value over
	 * the group must equal group_require whenever an event uses the slot.
	 * Tested on the as-is pass only, whose pairwise test ignores the slot
	 * there; failing it refuses the group with group_reason, without a
	 * search for alternatives. */
	char *group_reason;
	uint64_t group_require;
	struct pmu_pos pos;
};

/* Per-event validity checks, applied in order; the first failing one names the
 * reason an event (or a group member) is rejected. */
enum pmu_check_kind {
	PMU_CHECK_RESERVED_BITS,   /* code sets bits no field covers */
	PMU_CHECK_REJECT_WHEN,     /* the condition holds: invalid */
	PMU_CHECK_COUNTER_EXISTS,  /* the PMC field names a counter that exists */
	PMU_CHECK_FIXED_COUNTER,   /* a fixed counter takes only its own code */
	PMU_CHECK_GROUP_AGREE,     /* field must equal the group leader's */
	PMU_CHECK_GROUP_SIZE,      /* the group already holds max_group events */
	PMU_CHECK_REFUSED_CODE,    /* the code is one of `codes` (power_pmu_event_init's
	                              is_event_blacklisted: exact attr.config) */
	PMU_CHECK_KIND_COUNT
};

struct pmu_check {
	char *name; /* reason code: "pmc_gt_6", "ebb_without_pmc" */
	char *description;
	enum pmu_check_kind kind;
	struct pmu_condition when; /* REJECT_WHEN */
	int field;                 /* GROUP_AGREE */
	int ncodes;                /* REFUSED_CODE: the codes refused */
	uint64_t *codes;
	/* The check applies only to processors whose PVR p has
	 * (p & pvr_mask) == pvr_value (the model's pvr); 0, 0: to every one. */
	uint32_t pvr_mask, pvr_value;
	struct pmu_pos pos;
};

/* Does check c apply to the processor revision pvr? */
static inline bool pmu_check_applies(const struct pmu_check *c, uint32_t pvr)
{
	return (pvr & c->pvr_mask) == c->pvr_value;
}

/* --- scheduling data that compute_mmcr needs ------------------------------ */
enum pmu_exclude {
	PMU_EXCL_USER,
	PMU_EXCL_KERNEL,    /* not in hypervisor mode */
	PMU_EXCL_KERNEL_HV, /* exclude_kernel when running in hypervisor mode */
	PMU_EXCL_HV,
	PMU_EXCL_IDLE,
	PMU_EXCL_COUNT
};

struct pmu_reg_ref {
	int reg, field; /* -1, -1 when unset */
};

enum pmu_usage_when { PMU_WHEN_USED, PMU_WHEN_UNUSED, PMU_WHEN_ALWAYS };

/* Register bits set from which counters the group uses (MMCR0 PMC1CE, FC56..) */
struct pmu_usage_bit {
	struct pmu_reg_ref target;
	enum pmu_usage_when when;
	uint32_t counters; /* bit n set = PMCn (1-based) */
	struct pmu_pos pos;
};

struct pmu_alternative {
	int ncodes;
	uint64_t codes[4];
	bool per_task_only; /* PPMU_ONLY_COUNT_RUN: only for per-task events */
	struct pmu_pos pos;
};

/* --- generic and cache event maps ----------------------------------------- */
enum pmu_map_state {
	PMU_MAP_SUPPORTED,
	PMU_MAP_UNSUPPORTED, /* kernel table 0: EOPNOTSUPP */
	PMU_MAP_INVALID,     /* kernel table -1: EINVAL */
};

struct pmu_generic {
	char *name; /* perf's name: "cycles", "branch-misses" */
	enum pmu_map_state state;
	uint64_t code;
	struct pmu_pos pos;
};

enum { PMU_CACHE_L1D, PMU_CACHE_L1I, PMU_CACHE_LL, PMU_CACHE_DTLB,
       PMU_CACHE_ITLB, PMU_CACHE_BPU, PMU_CACHE_NODE, PMU_CACHE_NTYPES };
enum { PMU_OP_READ, PMU_OP_WRITE, PMU_OP_PREFETCH, PMU_OP_NTYPES };
enum { PMU_RESULT_ACCESS, PMU_RESULT_MISS, PMU_RESULT_NTYPES };

struct pmu_cache_entry {
	enum pmu_map_state state;
	uint64_t code;
};

/* --- branch-stack filters ------------------------------------------------- */
/* One entry of the PMU's branch filter map (power10_bhrb_filter_map): a
 * branch-stack request containing the perf filter `name` gets `value` in the
 * branch_filter target field, or is unsupported.  Entries are tried in order;
 * a filter that is not listed is unsupported. */
struct pmu_branch_filter {
	char *name;               /* perf's name: "any", "any_call", "ind_call", ... */
	enum pmu_map_state state; /* SUPPORTED or UNSUPPORTED */
	uint64_t value;
	struct pmu_pos pos;
};

/* --- events --------------------------------------------------------------- */
struct pmu_event {
	char *name;
	uint64_t code;
	char *category;    /* perf JSON file it came from, or skiboot's category */
	char *event_class; /* "primary" | "alternative" */
	char *description;
	char *status;      /* "okay" or "disabled" */
	bool firmware;     /* belongs in the firmware device tree */
	int alias_of;      /* index of the event with the same code, -1 if none */
	struct pmu_pos pos;
};

/* --- presets: PAPI's generic names (papi_events.csv) ------------------------
 * A preset names one event, or a combination of events computed from their
 * counts as PAPI's DERIVED_ADD (the sum), DERIVED_SUB (the first minus the
 * others) and DERIVED_POSTFIX (a formula such as "N0|N1|-|": Nk is the k-th
 * event's count, integers are constants, + - * / pop two values and push
 * one).  Members carry their event's name and code, so that a tree holding
 * only the firmware events still says what a preset counts. */
#define PMU_PRESET_MAX_EVENTS 8 /* PAPI's PAPI_EVENTS_IN_DERIVED_EVENT */

enum pmu_preset_kind {
	PMU_PRESET_EVENT,   /* one event, not derived (PAPI's NOT_DERIVED) */
	PMU_PRESET_ADD,
	PMU_PRESET_SUB,
	PMU_PRESET_POSTFIX,
	PMU_PRESET_NKINDS
};

struct pmu_preset {
	char *name;        /* "PAPI_L1_DCM" */
	char *description; /* may be NULL */
	enum pmu_preset_kind kind;
	int nevents;
	char *events[PMU_PRESET_MAX_EVENTS];    /* member event names */
	uint64_t codes[PMU_PRESET_MAX_EVENTS];  /* and their codes */
	char *postfix;     /* PMU_PRESET_POSTFIX: the formula, else NULL */
	struct pmu_pos pos;
};

/* --- metrics: perf's MetricName/MetricExpr entries -------------------------
 * A metric computes a value from events' counts with perf's expression
 * grammar (metric.c).  Every field keeps perf's own text, so that the JSON
 * written back is perf's byte for byte.  pmus: for nest metrics, the other
 * PMUs whose events ("hv_24x7@PM_X\,chip\=?@") the expression may name,
 * space-separated (perf's nest_metrics.json); NULL for core metrics. */
struct pmu_metric {
	char *name;        /* MetricName */
	char *expr;        /* MetricExpr */
	char *groups;      /* MetricGroup: ';'-separated, or NULL */
	char *description; /* BriefDescription, or NULL */
	char *scale_unit;  /* ScaleUnit: "1%", "5.24e-1MB", or NULL */
	char *threshold;   /* MetricThreshold, or NULL */
	char *aggregation; /* AggregationMode ("PerChip"), or NULL */
	char *pmus;        /* see above */
	struct pmu_pos pos;
};

/* perf's #literals (expr.c expr__get_literal) a metric may name. */
enum pmu_metric_literal {
	PMU_LIT_SMT_ON, PMU_LIT_CORE_WIDE, PMU_LIT_NUM_CPUS, PMU_LIT_NUM_CPUS_ONLINE,
	PMU_LIT_NUM_CORES, PMU_LIT_NUM_DIES, PMU_LIT_NUM_PACKAGES, PMU_LIT_SYSTEM_TSC_FREQ,
	PMU_METRIC_NLITERALS
};

enum pmu_metric_opcode {
	PMU_MOP_NUM, PMU_MOP_EVENT, PMU_MOP_LITERAL, PMU_MOP_ADD, PMU_MOP_SUB, PMU_MOP_MUL,
	PMU_MOP_DIV, PMU_MOP_MOD, PMU_MOP_NEG, PMU_MOP_NOT, PMU_MOP_LT, PMU_MOP_GT,
	PMU_MOP_AND, PMU_MOP_OR, PMU_MOP_XOR, PMU_MOP_MIN, PMU_MOP_MAX, PMU_MOP_DRATIO,
	PMU_MOP_IF
};

struct pmu_metric_ins {
	enum pmu_metric_opcode op;
	int32_t arg;       /* EVENT: index in events; LITERAL: enum pmu_metric_literal */
	bool exact;        /* NUM: num/den hold it */
	int64_t num, den;
	double value;      /* NUM */
};

/* A metric compiled: postfix instructions over its events (other metrics
 * inlined), each event once, in order of first use. */
struct pmu_metric_prog {
	int nins;    struct pmu_metric_ins *ins;
	int nevents; char **events;
};

struct pmu_metric_result {
	double value;     /* perf's double (NAN on division by zero) */
	bool exact;       /* num/den hold the value exactly */
	int64_t num, den; /* den > 0, reduced */
};

struct pmu_model {
	char *source;       /* file the model was loaded from */
	char *name;         /* "POWER10 PMU" */
	char *version;      /* "PowerISA 3.1" */
	char *platform;     /* "power10" */
	char *compatible;   /* "ibm,power-pmu" */
	uint32_t max_group; /* most events in one group (kernel n_counter) */
	/* The PMU cannot tell which counter overflowed (illumos'
	 * CPC_CAP_OVERFLOW_PRECISE unset): the DTrace cpc provider then allows
	 * one enabling only (dcpc.c dcpc_mult_ovf_cap).  false: it can tell. */
	bool overflow_counter_unknown;
	/* The processor revision (PVR) the description models by default: the
	 * checks with a pvr-mask apply by it.  0: none given. */
	uint32_t pvr;
	/* The processor versions this PMU is (PVR_VER, the PVR's high 16 bits:
	 * asm/reg.h's PVR_POWER10 0x0080, PVR_POWER11 0x0082), as the kernel's
	 * init_power*_pmu() test them; none given: pvr's, if any. */
	int npvr_versions;
	uint32_t pvr_versions[PMU_MAX_PVR_VERSIONS];
	/* The platform of the description this one extends (YAML `extends`):
	 * everything but the identity (name, version, platform, pvr,
	 * pvr_versions) is the base's.  NULL: none. */
	char *extends;

	int ncounters;      struct pmu_counter *counters;
	int nregisters;     struct pmu_register *registers;
	int nfields;        struct pmu_field *fields;
	int nconstraints;   struct pmu_constraint *constraints;
	int nchecks;        struct pmu_check *checks;
	int nusage;         struct pmu_usage_bit *usage;
	struct pmu_reg_ref exclude[PMU_EXCL_COUNT];
	struct pmu_reg_ref branch_stack_clears; /* has_branch_stack() effect */
	int nalternatives;  struct pmu_alternative *alternatives;
	int nbranch_filters; struct pmu_branch_filter *branch_filters;
	struct pmu_reg_ref branch_filter_target;   /* MMCRA.IFM */
	int ncode_classes;  struct pmu_code_class *code_classes;
	int ngeneric;       struct pmu_generic *generic;
	bool has_cache_map;
	struct pmu_cache_entry cache[PMU_CACHE_NTYPES][PMU_OP_NTYPES][PMU_RESULT_NTYPES];
	int nevents;        struct pmu_event *events;
	int npresets;       struct pmu_preset *presets;
	int nmetrics;       struct pmu_metric *metrics;

	/* every string the model owns that is not one of the fields above
	 * (source file names in pmu_pos) */
	int nstrings;       char **strings;

	/* true (pmu_model_init's default): the strings above are heap copies
	 * that pmu_model_free frees; false: they are borrowed, read-only */
	bool owns_strings;
};

/* --- functions (model.c) --------------------------------------------------- */
void pmu_model_init(struct pmu_model *m);
void pmu_model_free(struct pmu_model *m);
/* Free a preset's strings (heap copies; a model's own are freed with it). */
void pmu_preset_free_strings(struct pmu_preset *p);
/* Free a metric's strings, as a preset's. */
void pmu_metric_free_strings(struct pmu_metric *m);

/* Deep equality of the described PMU (positions and source names ignored).
 * On a difference, writes a short description of the first one into diff. */
bool pmu_model_equal(const struct pmu_model *a, const struct pmu_model *b,
		     char *diff, size_t difflen);
/* The same, but for the identity a description that extends another may
 * change (name, version, platform, pvr, pvr_versions, extends): whether a
 * and b are one PMU under two names, as Power11 and POWER10 are. */
bool pmu_model_same_pmu(const struct pmu_model *a, const struct pmu_model *b,
			char *diff, size_t difflen);
/* Whether the model is processor version ver (PVR_VER of a PVR): one of
 * its pvr_versions, or, when it lists none, its pvr's. */
bool pmu_model_has_pvr_version(const struct pmu_model *m, uint32_t ver);

/* Look-ups by name (exact, case-sensitive); -1 if absent. */
int pmu_model_field(const struct pmu_model *m, const char *name);
int pmu_model_register(const struct pmu_model *m, const char *name);
int pmu_model_reg_field(const struct pmu_register *r, const char *name);
int pmu_model_event(const struct pmu_model *m, const char *name);
int pmu_model_event_by_code(const struct pmu_model *m, uint64_t code);
int pmu_model_code_class(const struct pmu_model *m, const char *name);

/* Value of a field in an event (config, config1). */
uint64_t pmu_field_value(const struct pmu_field *f, uint64_t config,
			 uint64_t config1);
/* Bits [lo, hi] of a 64-bit word, as a mask. */
uint64_t pmu_bits_mask(uint32_t lo, uint32_t hi);
bool pmu_condition_holds(const struct pmu_model *m,
			 const struct pmu_condition *c, uint64_t config,
			 uint64_t config1);

/* A field's place in perf's attr words, ready for fast extraction. */
struct pmu_extract {
	uint64_t mask;   /* value mask after the shift */
	uint8_t shift;
	uint8_t word;    /* enum pmu_source: 0 config, 1 config1 */
};

static inline uint64_t pmu_extract(const struct pmu_extract *x, uint64_t config,
				   uint64_t config1)
{
	return ((x->word ? config1 : config) >> x->shift) & x->mask;
}

/* A condition compiled for the hot paths (group scheduling, checks).  When
 * every term is "FIELD is N", the whole condition is one masked compare per
 * attr word (simple); otherwise each term is a range test. */
struct pmu_ccond {
	int n;
	bool simple;
	uint64_t eq_mask[2], eq_value[2]; /* simple: per word (config, config1) */
	struct {
		struct pmu_extract x;
		uint64_t lo, span;  /* holds when (v - lo) <= span, unsigned */
		bool negate;
		const struct pmu_code_class *cls; /* a class term: v is membership */
	} t[PMU_MAX_TERMS];
};

struct pmu_extract pmu_field_extract(const struct pmu_field *f);
void pmu_condition_compile(const struct pmu_model *m, const struct pmu_condition *c,
			   struct pmu_ccond *out);

static inline bool pmu_ccond_holds(const struct pmu_ccond *c, uint64_t config,
				   uint64_t config1)
{
	if (c->simple)
		return (config & c->eq_mask[0]) == c->eq_value[0] &&
		       (config1 & c->eq_mask[1]) == c->eq_value[1];
	for (int i = 0; i < c->n; i++) {
		uint64_t v = c->t[i].cls ? pmu_code_class_has(c->t[i].cls, config)
					 : pmu_extract(&c->t[i].x, config, config1);
		if ((v - c->t[i].lo <= c->t[i].span) == c->t[i].negate)
			return false;
	}
	return true;
}

/* Canonical words for a condition ("always", "only when unit is 6 and ...").
 * Returns the length written (snprintf semantics). */
int pmu_condition_format(const struct pmu_model *m,
			 const struct pmu_condition *c, char *buf, size_t len);
/* Parse the words back; 0 or -EINVAL with a message in why. */
int pmu_condition_parse(const struct pmu_model *m, const char *text,
			struct pmu_condition *out, char *why, size_t whylen);

const char *pmu_transform_name(enum pmu_transform t);
/* The name a transform had before it was named for what it does, still read
 * (with a warning): "thresh-cmp-p10" for mantissa-exponent; NULL if none. */
const char *pmu_transform_old_name(enum pmu_transform t);
/* 0 for a current name, 1 for an old one (the caller warns, naming
 * pmu_transform_name(*out)), -EINVAL if unknown. */
int pmu_transform_parse(const char *name, enum pmu_transform *out);
/* A value-only transform applied to value (identity for NONE and SDAR_MODE,
 * which compute_mmcr applies itself).  enc: the field's or constraint's
 * encoding, its parameters within their domain (pmu_thresh_encoding_bad). */
uint64_t pmu_transform_apply(enum pmu_transform t, const struct pmu_thresh_encoding *enc,
			     uint64_t value);
/* The encoding of value (p10_thresh_cmp_val() with enc's parameters). */
uint64_t pmu_thresh_encode(const struct pmu_thresh_encoding *enc, uint64_t value);
/* A parameter's name: "mantissa-bits" ... "normalized-mask". */
const char *pmu_thresh_param_name(enum pmu_thresh_param p);
uint64_t pmu_thresh_param_get(const struct pmu_thresh_encoding *enc, enum pmu_thresh_param p);
/* Set a parameter; -ERANGE when a count does not fit 32 bits. */
int pmu_thresh_param_set(struct pmu_thresh_encoding *enc, enum pmu_thresh_param p,
			 uint64_t value);
/* The first parameter outside its domain (the ranges above, checked in
 * struct order), with why it is wrong in why; PMU_ENC_NPARAMS when all fit. */
enum pmu_thresh_param pmu_thresh_encoding_bad(const struct pmu_thresh_encoding *enc,
					      char *why, size_t whylen);

/* --- presets (preset.c) ---------------------------------------------------- */
/* "none" (not derived), "add", "sub", "postfix": the YAML `derived` values. */
const char *pmu_preset_kind_name(enum pmu_preset_kind k);
int pmu_preset_kind_parse(const char *name, enum pmu_preset_kind *out);
/* a and b equal without ASCII case (locale-independent). */
bool pmu_name_eq_nocase(const char *a, const char *b);
/* The preset named name without case (ASCII), or -1. */
int pmu_model_preset(const struct pmu_model *m, const char *name);
/* Check a postfix formula over nevents member events: '|'-separated tokens
 * Nk (k < nevents), decimal constants, + - * /; the stack never runs dry,
 * ends holding one value, and every member is used.  0, or -EINVAL with
 * the problem in why and the offset of the token at fault in *at. */
int pmu_postfix_check(const char *formula, int nevents, size_t *at, char *why,
		      size_t whylen);
/* A preset's value from its members' counts, in exact rational arithmetic
 * (num / den, den > 0, reduced): 0, -ERANGE when a count exceeds INT64_MAX
 * or an intermediate overflows 64 bits, -EDOM on division by zero, -EINVAL
 * for a formula pmu_postfix_check refuses. */
int pmu_preset_eval(const struct pmu_preset *p, const uint64_t *counts,
		    int64_t *num, int64_t *den);
/* A preset's formula in words: "PM_A + PM_B", "PM_A - PM_B", or the
 * postfix formula with member names for Nk.  snprintf semantics. */
int pmu_preset_format(const struct pmu_preset *p, char *buf, size_t len);

/* --- metrics (metric.c) ------------------------------------------------------ */
/* The first metric named name without case (ASCII), or -1. */
int pmu_model_metric(const struct pmu_model *m, const char *name);
/* Whether group (without case) is one of m's ';'-separated groups. */
bool pmu_metric_in_group(const struct pmu_metric *m, const char *group);
const char *pmu_metric_literal_name(int i);
/* Compile metric index of m: 0, or -EINVAL with the problem in why and its
 * byte offset in the metric's expression in *at (a name that is no event,
 * metric or #literal; bad syntax; a metric referring to itself), -ENOMEM. */
int pmu_metric_compile(const struct pmu_model *m, int index, struct pmu_metric_prog *out,
		       size_t *at, char *why, size_t whylen);
void pmu_metric_prog_free(struct pmu_metric_prog *p);
/* Evaluate from counts (counts[k]: prog->events[k]) and literals (indexed
 * by enum pmu_metric_literal; may be NULL when none is used).  out->value
 * is always perf's double; 0 and out->exact when num/den hold it exactly,
 * -ERANGE when no 64-bit fraction does, -EDOM when the value is a division
 * by zero (NAN), -ENOENT when a literal is used and literals is NULL. */
int pmu_metric_eval(const struct pmu_metric_prog *prog, const uint64_t *counts,
		    const int64_t *literals, struct pmu_metric_result *out);

/* Names used by every format for the enums above. */
const char *pmu_constraint_kind_name(enum pmu_constraint_kind k);
const char *pmu_check_kind_name(enum pmu_check_kind k);
const char *pmu_exclude_name(enum pmu_exclude e);   /* "exclude_user" ... */
const char *pmu_usage_when_name(enum pmu_usage_when w);
const char *pmu_map_state_name(enum pmu_map_state s);
const char *pmu_cache_name(int cache);   /* "L1D" ... perf's spelling: see .c */
const char *pmu_cache_op_name(int op);   /* "read" "write" "prefetch" */
const char *pmu_cache_result_name(int r);/* "access" "miss" */
const char *pmu_role_name(enum pmu_field_role r);
const char *pmu_source_name(enum pmu_source s);
/* perf's branch_sample_type filter names ("any", "ind_call", ...), as bits of
 * PERF_SAMPLE_BRANCH_*: the bit, or 0 for an unknown name; and back. */
uint64_t pmu_branch_filter_bit(const char *name);
const char *pmu_branch_filter_name(uint64_t bit);

/* Allocation helpers: abort-free, return NULL on failure. */
char *pmu_strdup(const char *s);
const char *pmu_model_intern(struct pmu_model *m, const char *s);

#endif /* PMU_MODEL_H */
