/*
 * model.c - life cycle, look-ups, equality and canonical ordering of the PMU
 * description model (pmu_model.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_load.h"
#include "pmu_model.h"

void pmu_model_init(struct pmu_model *m)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < PMU_EXCL_COUNT; i++)
		m->exclude[i] = (struct pmu_reg_ref){-1, -1};
	m->branch_stack_clears = (struct pmu_reg_ref){-1, -1};
	m->branch_filter_target = (struct pmu_reg_ref){-1, -1};
	m->owns_strings = true;
}

static void free_register_strings(struct pmu_model *m)
{
	for (int i = 0; i < m->nregisters; i++) {
		struct pmu_register *r = &m->registers[i];
		for (int j = 0; j < r->nfields; j++) {
			free(r->fields[j].name);
			free(r->fields[j].description);
		}
		free(r->name);
		free(r->privilege);
	}
}

static void free_list_strings(struct pmu_model *m)
{
	for (int i = 0; i < m->ncounters; i++) {
		free(m->counters[i].name);
		free(m->counters[i].privilege);
		free(m->counters[i].event);
	}
	for (int i = 0; i < m->nfields; i++) {
		free(m->fields[i].name);
		free(m->fields[i].dts_name);
		free(m->fields[i].description);
	}
	for (int i = 0; i < m->nconstraints; i++) {
		free(m->constraints[i].name);
		free(m->constraints[i].description);
		free(m->constraints[i].group_reason);
	}
	for (int i = 0; i < m->nchecks; i++) {
		free(m->checks[i].name);
		free(m->checks[i].description);
	}
	for (int i = 0; i < m->ncode_classes; i++) {
		free(m->code_classes[i].name);
		free(m->code_classes[i].description);
	}
	for (int i = 0; i < m->ngeneric; i++)
		free(m->generic[i].name);
	for (int i = 0; i < m->nbranch_filters; i++)
		free(m->branch_filters[i].name);
	for (int i = 0; i < m->nevents; i++) {
		struct pmu_event *e = &m->events[i];
		free(e->name);
		free(e->category);
		free(e->event_class);
		free(e->description);
		free(e->status);
	}
	for (int i = 0; i < m->npresets; i++)
		pmu_preset_free_strings(&m->presets[i]);
	for (int i = 0; i < m->nmetrics; i++)
		pmu_metric_free_strings(&m->metrics[i]);
	for (int i = 0; i < m->nstrings; i++)
		free(m->strings[i]);
	free(m->source);
	free(m->name);
	free(m->version);
	free(m->platform);
	free(m->compatible);
	free(m->extends);
}

void pmu_metric_free_strings(struct pmu_metric *m)
{
	free(m->name);
	free(m->expr);
	free(m->groups);
	free(m->description);
	free(m->scale_unit);
	free(m->threshold);
	free(m->aggregation);
	free(m->pmus);
}

void pmu_preset_free_strings(struct pmu_preset *p)
{
	free(p->name);
	free(p->description);
	free(p->postfix);
	for (int k = 0; k < p->nevents; k++)
		free(p->events[k]);
}

/* Borrowed strings (owns_strings false) are left alone: only the arrays,
 * which every source allocates, are freed. */
void pmu_model_free(struct pmu_model *m)
{
	if (m->owns_strings) {
		free_register_strings(m);
		free_list_strings(m);
	}
	for (int i = 0; i < m->nregisters; i++)
		free(m->registers[i].fields);
	free(m->registers);
	free(m->counters);
	free(m->fields);
	free(m->constraints);
	for (int i = 0; i < m->nchecks; i++)
		free(m->checks[i].codes);
	free(m->checks);
	free(m->usage);
	free(m->alternatives);
	for (int i = 0; i < m->ncode_classes; i++)
		free(m->code_classes[i].codes);
	free(m->code_classes);
	free(m->generic);
	free(m->branch_filters);
	free(m->events);
	free(m->presets);
	free(m->metrics);
	free(m->strings);
	pmu_model_init(m);
}

char *pmu_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Strings interned last, searched for a copy to share: callers intern the same
 * file or node path in runs.  Not the whole pool, which made loading a DTB
 * of n nodes cost n squared string compares. */
#define INTERN_RECENT 8

const char *pmu_model_intern(struct pmu_model *m, const char *s)
{
	for (int i = m->nstrings - 1; i >= 0 && i >= m->nstrings - INTERN_RECENT; i--)
		if (strcmp(m->strings[i], s) == 0)
			return m->strings[i];
	/* the pool's capacity is the power of two at or above nstrings */
	if ((m->nstrings & (m->nstrings - 1)) == 0) {
		size_t cap = m->nstrings ? 2 * (size_t)m->nstrings : 1;
		char **grown = realloc(m->strings, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		m->strings = grown;
	}
	char *copy = strdup(s);
	if (!copy)
		return NULL;
	m->strings[m->nstrings++] = copy;
	return copy;
}

int pmu_model_take(struct pmu_model *dst, struct pmu_model *src)
{
	size_t n = (size_t)src->nstrings + (size_t)dst->nstrings, cap = 1;
	while (cap < n)
		cap *= 2;
	char **grown = n ? realloc(src->strings, cap * sizeof(*grown)) : src->strings;
	if (n && !grown)
		return -ENOMEM;
	src->strings = grown;
	for (int i = 0; i < dst->nstrings; i++)
		src->strings[src->nstrings++] = dst->strings[i];
	dst->nstrings = 0;
	pmu_model_free(dst);
	*dst = *src;
	pmu_model_init(src);
	return 0;
}

/* --- look-ups ------------------------------------------------------------- */
int pmu_model_field(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nfields; i++)
		if (strcmp(m->fields[i].name, name) == 0)
			return i;
	return -1;
}

int pmu_model_register(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nregisters; i++)
		if (strcmp(m->registers[i].name, name) == 0)
			return i;
	return -1;
}

int pmu_model_reg_field(const struct pmu_register *r, const char *name)
{
	for (int i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].name, name) == 0)
			return i;
	return -1;
}

int pmu_model_event(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nevents; i++)
		if (strcmp(m->events[i].name, name) == 0)
			return i;
	return -1;
}

int pmu_model_code_class(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->ncode_classes; i++)
		if (strcmp(m->code_classes[i].name, name) == 0)
			return i;
	return -1;
}

int pmu_model_event_by_code(const struct pmu_model *m, uint64_t code)
{
	for (int i = 0; i < m->nevents; i++)
		if (m->events[i].code == code)
			return i;
	return -1;
}

bool pmu_model_has_pvr_version(const struct pmu_model *m, uint32_t ver)
{
	for (int i = 0; i < m->npvr_versions; i++)
		if (m->pvr_versions[i] == ver)
			return true;
	return !m->npvr_versions && m->pvr && m->pvr >> 16 == ver;
}

uint64_t pmu_bits_mask(uint32_t lo, uint32_t hi)
{
	if (lo > 63 || hi > 63 || lo > hi)
		return 0;
	uint64_t width_mask = (hi - lo == 63) ? ~0ULL : ((1ULL << (hi - lo + 1)) - 1);
	return width_mask << lo;
}

uint64_t pmu_field_value(const struct pmu_field *f, uint64_t config,
			 uint64_t config1)
{
	uint64_t word = f->source == PMU_SRC_CONFIG1 ? config1 : config;
	return (word & pmu_bits_mask(f->lo, f->hi)) >> (f->lo & 63);
}

/* --- names shared by every format ----------------------------------------- */
static const char *name_at(const char *const *names, int n, int i)
{
	return (i >= 0 && i < n) ? names[i] : "?";
}

#define NAME_TABLE(fn, type, ...)                                             \
	const char *fn(type v)                                                \
	{                                                                     \
		static const char *const names[] = {__VA_ARGS__};             \
		return name_at(names, (int)(sizeof(names) / sizeof(names[0])), \
			       (int)v);                                       \
	}

NAME_TABLE(pmu_constraint_kind_name, enum pmu_constraint_kind, "equal", "per-pmc", "count")
NAME_TABLE(pmu_check_kind_name, enum pmu_check_kind, "reserved-bits", "reject",
	   "counter-exists", "fixed-counter", "group-agree", "group-size", "refused-code")
NAME_TABLE(pmu_exclude_name, enum pmu_exclude, "exclude_user", "exclude_kernel",
	   "exclude_kernel_hv", "exclude_hv", "exclude_idle")
NAME_TABLE(pmu_usage_when_name, enum pmu_usage_when, "used", "unused", "always")
NAME_TABLE(pmu_map_state_name, enum pmu_map_state, "supported", "unsupported", "invalid")
NAME_TABLE(pmu_cache_name, int, "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB",
	   "branch", "node")
NAME_TABLE(pmu_cache_op_name, int, "read", "write", "prefetch")
NAME_TABLE(pmu_cache_result_name, int, "access", "miss")
NAME_TABLE(pmu_role_name, enum pmu_field_role, "none", "pmc", "mark", "unit")
NAME_TABLE(pmu_source_name, enum pmu_source, "config", "config1")
NAME_TABLE(pmu_transform_name, enum pmu_transform, "none", "sdar-mode", "mantissa-exponent")

/* perf's branch_sample_type bits (the ABI in <linux/perf_event.h>,
 * PERF_SAMPLE_BRANCH_*_SHIFT order), by the names perf's --branch-filter uses. */
static const char *const branch_filter_names[] = {
	"u", "k", "hv", "any", "any_call", "any_ret", "ind_call", "abort_tx", "in_tx",
	"no_tx", "cond", "call_stack", "ind_jmp", "call", "no_flags", "no_cycles",
	"save_type", "hw_index", "priv", "counter"};

uint64_t pmu_branch_filter_bit(const char *name)
{
	for (size_t i = 0; i < sizeof(branch_filter_names) / sizeof(branch_filter_names[0]); i++)
		if (strcmp(name, branch_filter_names[i]) == 0)
			return 1ULL << i;
	return 0;
}

const char *pmu_branch_filter_name(uint64_t bit)
{
	for (size_t i = 0; i < sizeof(branch_filter_names) / sizeof(branch_filter_names[0]); i++)
		if (bit == 1ULL << i)
			return branch_filter_names[i];
	return NULL;
}

const char *pmu_transform_old_name(enum pmu_transform t)
{
	return t == PMU_XF_MANTISSA_EXPONENT ? "thresh-cmp-p10" : NULL;
}

int pmu_transform_parse(const char *name, enum pmu_transform *out)
{
	for (int t = PMU_XF_NONE; t <= PMU_XF_MANTISSA_EXPONENT; t++) {
		const char *old = pmu_transform_old_name(t);

		if (strcmp(name, pmu_transform_name(t)) == 0 || (old && strcmp(name, old) == 0)) {
			*out = t;
			return strcmp(name, pmu_transform_name(t)) != 0;
		}
	}
	return -EINVAL;
}

/*
 * The threshold-compare encoding, generic over its parameters: this follows
 * p10_thresh_cmp_val() in arch/powerpc/perf/isa207-common.c, where POWER10's
 * parameters are the constants 261120 (clamp), 8 (mantissa bits: shift while
 * the value has more than 8 significant bits), 2 (bits per exponent step) and
 * 0xc0 (a mantissa with neither top bit set and a nonzero exponent is
 * invalid; pmudt encodes it as 0, which cannot arise from a nonzero input
 * with POWER10's parameters).
 */
uint64_t pmu_thresh_encode(const struct pmu_thresh_encoding *enc, uint64_t value)
{
	if (value == 0)
		return 0;
	if (value > enc->clamp)
		value = enc->clamp;
	uint64_t exp = 0;
	while (value >> enc->mantissa_bits) {
		exp++;
		value >>= enc->exponent_step;
	}
	if (exp && !(value & enc->normalized_mask))
		return 0;
	return (exp << enc->mantissa_bits) | value;
}

/* PMU_XF_SDAR_MODE depends on the group being built and is applied by the
 * MMCR computation, not here. */
uint64_t pmu_transform_apply(enum pmu_transform t, const struct pmu_thresh_encoding *enc,
			     uint64_t value)
{
	return t == PMU_XF_MANTISSA_EXPONENT ? pmu_thresh_encode(enc, value) : value;
}

NAME_TABLE(pmu_thresh_param_name, enum pmu_thresh_param, "mantissa-bits", "exponent-bits",
	   "exponent-step", "clamp", "normalized-mask")

uint64_t pmu_thresh_param_get(const struct pmu_thresh_encoding *enc, enum pmu_thresh_param p)
{
	switch (p) {
	case PMU_ENC_MANTISSA_BITS: return enc->mantissa_bits;
	case PMU_ENC_EXPONENT_BITS: return enc->exponent_bits;
	case PMU_ENC_EXPONENT_STEP: return enc->exponent_step;
	case PMU_ENC_CLAMP: return enc->clamp;
	default: return enc->normalized_mask;
	}
}

int pmu_thresh_param_set(struct pmu_thresh_encoding *enc, enum pmu_thresh_param p,
			 uint64_t value)
{
	uint32_t *count = p == PMU_ENC_MANTISSA_BITS ? &enc->mantissa_bits :
			  p == PMU_ENC_EXPONENT_BITS ? &enc->exponent_bits :
			  p == PMU_ENC_EXPONENT_STEP ? &enc->exponent_step : NULL;
	if (count) {
		if (value > UINT32_MAX)
			return -ERANGE;
		*count = (uint32_t)value;
	} else if (p == PMU_ENC_CLAMP) {
		enc->clamp = value;
	} else {
		enc->normalized_mask = value;
	}
	return 0;
}

enum pmu_thresh_param pmu_thresh_encoding_bad(const struct pmu_thresh_encoding *enc,
					      char *why, size_t whylen)
{
	if (enc->mantissa_bits < 1 || enc->mantissa_bits > 63) {
		snprintf(why, whylen, "mantissa-bits must be 1 to 63, found %u", enc->mantissa_bits);
		return PMU_ENC_MANTISSA_BITS;
	}
	if (enc->exponent_bits < 1 || enc->exponent_bits > 64 - enc->mantissa_bits) {
		snprintf(why, whylen, "exponent-bits must be 1 to %u (64 - mantissa-bits), found %u",
			 64 - enc->mantissa_bits, enc->exponent_bits);
		return PMU_ENC_EXPONENT_BITS;
	}
	if (enc->exponent_step < 1 || enc->exponent_step > 63) {
		snprintf(why, whylen, "exponent-step must be 1 to 63, found %u", enc->exponent_step);
		return PMU_ENC_EXPONENT_STEP;
	}
	if (enc->clamp == 0) {
		snprintf(why, whylen, "clamp must be at least 1");
		return PMU_ENC_CLAMP;
	}
	if (enc->normalized_mask >> enc->mantissa_bits) {
		snprintf(why, whylen, "normalized-mask 0x%llx has bits outside the %u-bit mantissa",
			 (unsigned long long)enc->normalized_mask, enc->mantissa_bits);
		return PMU_ENC_NORMALIZED_MASK;
	}
	return PMU_ENC_NPARAMS;
}

/* --- canonical ordering ---------------------------------------------------- */
/* Fields sort by source (config first), then high bit descending, then low bit
 * ascending, so an enclosing field comes right before its parts. */
static int field_order(const struct pmu_field *a, const struct pmu_field *b)
{
	if (a->source != b->source)
		return a->source < b->source ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi > b->hi ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void remap_condition(struct pmu_condition *c, const int *newpos)
{
	for (int i = 0; i < c->nterms; i++)
		if (c->terms[i].field >= 0 && !c->terms[i].code_class)
			c->terms[i].field = newpos[c->terms[i].field];
}

static int sort_fields(struct pmu_model *m)
{
	int n = m->nfields;
	if (n == 0)
		return 0;
	int *order = malloc(n * sizeof(*order));
	int *newpos = malloc(n * sizeof(*newpos));
	struct pmu_field *sorted = malloc(n * sizeof(*sorted));
	if (!order || !newpos || !sorted) {
		free(order);
		free(newpos);
		free(sorted);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		order[i] = i;
	/* insertion sort: stable, n is small */
	for (int i = 1; i < n; i++) {
		int v = order[i], j = i - 1;
		while (j >= 0 && field_order(&m->fields[order[j]], &m->fields[v]) > 0) {
			order[j + 1] = order[j];
			j--;
		}
		order[j + 1] = v;
	}
	for (int i = 0; i < n; i++) {
		newpos[order[i]] = i;
		sorted[i] = m->fields[order[i]];
	}
	memcpy(m->fields, sorted, n * sizeof(*sorted));
	for (int i = 0; i < n; i++) {
		if (m->fields[i].parent >= 0)
			m->fields[i].parent = newpos[m->fields[i].parent];
		remap_condition(&m->fields[i].when, newpos);
	}
	for (int i = 0; i < m->nconstraints; i++) {
		remap_condition(&m->constraints[i].when, newpos);
		remap_condition(&m->constraints[i].flag, newpos);
	}
	for (int i = 0; i < m->nchecks; i++) {
		remap_condition(&m->checks[i].when, newpos);
		if (m->checks[i].field >= 0)
			m->checks[i].field = newpos[m->checks[i].field];
	}
	free(order);
	free(newpos);
	free(sorted);
	return 0;
}

/* A firmware event is the alias of the perf event with its code; a perf
 * event's alias is the one its description declares (alias-of), kept. */
static void resolve_aliases(struct pmu_model *m)
{
	for (int i = 0; i < m->nevents; i++) {
		if (!m->events[i].firmware)
			continue;
		m->events[i].alias_of = -1;
		for (int j = 0; j < m->nevents; j++) {
			if (!m->events[j].firmware && m->events[j].code == m->events[i].code) {
				m->events[i].alias_of = j;
				break;
			}
		}
	}
}

int pmu_model_finish(struct pmu_model *m)
{
	int rc = sort_fields(m);
	resolve_aliases(m);
	return rc;
}
