/*
 * yaml_sections.c - one reader per section of a YAML PMU description
 * (schema/description-format.md).  Readers fill the model; references by
 * name (register fields, event fields) are resolved here and reported at the
 * referring node when unknown.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_load.h"
#include "yaml_sections.h"

#define MAX_PARTS 64

/* Append one zeroed element to a model array; NULL on allocation failure. */
#define APPEND(arr, n)                                                        \
	({                                                                    \
		__typeof__(arr) grown_ = y_grow((arr), (n), sizeof(*(arr)));  \
		__typeof__(arr) slot_ = NULL;                                 \
		if (grown_) {                                                 \
			(arr) = grown_;                                       \
			slot_ = &(arr)[(n)++];                                \
			memset(slot_, 0, sizeof(*slot_));                     \
		}                                                             \
		slot_;                                                        \
	})

static int oom(struct yctx *c)
{
	return pmu_report_oom(c->d, NULL);
}

/* Counts a description may hold, so that the pairwise checks (overlapping
 * fields, constraint slots, register layout) stay cheap on any input: a
 * 64-bit word has room for no more (schema/description-format.md, Limits). */
#define MAX_COUNTERS 64
#define MAX_REGISTERS 64
#define MAX_REG_FIELDS 64
#define MAX_FIELDS 256
#define MAX_CONSTRAINTS 64

/* Report an item past its section's limit; -E2BIG ends the section. */
static int too_many(struct yctx *c, const struct ynode *n, int count, int max,
		    const char *what)
{
	if (count < max)
		return 0;
	struct pmu_pos p = y_pos(n);
	pmu_report(c->d, -1, &p, "more than %d %s", max, what);
	return -E2BIG;
}

/* --- identity ------------------------------------------------------------- */
int ysec_read_pvr_versions(struct yctx *c, const struct ynode *n)
{
	struct pmu_model *m = c->m;
	if (!n->node)
		return 0;
	int len = y_seq_len(n);
	if (y_expect_seq(c, n, "pvr-versions") || len < 1 || len > PMU_MAX_PVR_VERSIONS) {
		struct pmu_pos p = y_pos(n);
		pmu_report(c->d, -1, &p, "'pvr-versions' lists 1 to %d processor versions",
			   PMU_MAX_PVR_VERSIONS);
		return -EINVAL;
	}
	int rc = 0;
	for (int i = 0; i < len; i++) {
		struct ynode item = y_seq_at(n, i);
		uint32_t v = 0;
		struct pmu_pos p = y_pos(&item);
		if (y_u32(c, &item, "a processor version", &v)) {
			rc = -EINVAL;
		} else if (v > 0xffff) {
			pmu_report(c->d, -1, &p, "processor version 0x%x is more than the PVR's 16 "
				   "version bits (PVR_VER: 0x0082 for a PVR 0x0082xxxx)", v);
			rc = -EINVAL;
		} else if (pmu_model_has_pvr_version(m, v) && m->npvr_versions) {
			pmu_report(c->d, -1, &p, "processor version 0x%04x is listed twice", v);
			rc = -EINVAL;
		} else {
			m->pvr_versions[m->npvr_versions++] = v;
		}
	}
	return rc;
}

/* A `pvr` with `pvr-versions` must be one of them. */
int ysec_check_pvr_version(struct yctx *c, const struct ynode *pmu)
{
	const struct pmu_model *m = c->m;
	if (!m->pvr || !m->npvr_versions || pmu_model_has_pvr_version(m, m->pvr >> 16))
		return 0;
	struct ynode v = y_get(pmu, "pvr");
	struct pmu_pos p = y_pos(&v);
	pmu_report(c->d, -1, &p, "pvr 0x%08x is processor version 0x%04x, which 'pvr-versions' "
		   "does not list", m->pvr, m->pvr >> 16);
	return -EINVAL;
}

static int read_pmu(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"name", "version", "platform", "compatible",
					   "max-group", "overflow-counter-unknown", "pvr",
					   "pvr-versions", NULL};
	static const char *const req[] = {"name", "platform", "compatible", "max-group", NULL};
	if (y_expect_map(c, n, "pmu") || y_check_keys(c, n, "pmu", keys, req))
		return -EINVAL;
	struct pmu_model *m = c->m;
	struct ynode v;
	int rc = 0;
	v = y_get(n, "name");       rc |= y_strdup(c, &v, "pmu name", &m->name);
	v = y_get(n, "version");    rc |= y_strdup(c, &v, "pmu version", &m->version);
	v = y_get(n, "platform");   rc |= y_strdup(c, &v, "pmu platform", &m->platform);
	v = y_get(n, "compatible"); rc |= y_strdup(c, &v, "pmu compatible", &m->compatible);
	v = y_get(n, "max-group");  rc |= y_u32(c, &v, "max-group", &m->max_group);
	v = y_get(n, "overflow-counter-unknown");
	rc |= y_bool(c, &v, "overflow-counter-unknown", &m->overflow_counter_unknown);
	v = y_get(n, "pvr");        rc |= y_u32(c, &v, "pvr", &m->pvr);
	v = y_get(n, "pvr-versions"); rc |= ysec_read_pvr_versions(c, &v);
	if (!rc)
		rc = ysec_check_pvr_version(c, n);
	return rc ? -EINVAL : 0;
}

/* --- counters ------------------------------------------------------------- */
static int read_counter(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"name", "sprn", "width", "privilege",
					   "programmable", "event", "code", NULL};
	static const char *const req[] = {"name", "sprn", "width", "privilege",
					  "programmable", NULL};
	if (y_expect_map(c, n, "a counter") || y_check_keys(c, n, "a counter", keys, req))
		return -EINVAL;
	struct pmu_model *m = c->m;
	if (too_many(c, n, c->m->ncounters, MAX_COUNTERS, "counters"))
		return -E2BIG;
	struct pmu_counter *k = APPEND(m->counters, m->ncounters);
	if (!k)
		return oom(c);
	k->pos = y_pos(n);
	struct ynode v;
	int rc = 0;
	v = y_get(n, "name");         rc |= y_strdup(c, &v, "counter name", &k->name);
	v = y_get(n, "sprn");         rc |= y_u32(c, &v, "sprn", &k->sprn);
	v = y_get(n, "width");        rc |= y_u32(c, &v, "width", &k->width);
	v = y_get(n, "privilege");    rc |= y_strdup(c, &v, "privilege", &k->privilege);
	v = y_get(n, "programmable"); rc |= y_bool(c, &v, "programmable", &k->programmable);
	v = y_get(n, "event");        rc |= y_strdup(c, &v, "event", &k->event);
	v = y_get(n, "code");         rc |= y_u64(c, &v, "code", &k->fixed_code);
	if (!rc && !k->programmable && (!k->event || !y_get(n, "code").node)) {
		pmu_report(c->d, -1, &k->pos,
			   "fixed counter %s needs the 'event' it counts and its 'code'", k->name);
		rc = -EINVAL;
	}
	return rc ? -EINVAL : 0;
}

/* --- registers ------------------------------------------------------------ */
static int read_per_pmc(struct yctx *c, const struct ynode *n, struct pmu_reg_field *f)
{
	static const char *const keys[] = {"base", "stride", "width", NULL};
	if (y_expect_map(c, n, "per-pmc") || y_check_keys(c, n, "per-pmc", keys, keys))
		return -EINVAL;
	struct ynode v;
	int rc = 0;
	f->layout = PMU_LAYOUT_PER_PMC;
	v = y_get(n, "base");   rc |= y_u32(c, &v, "base", &f->base);
	v = y_get(n, "stride"); rc |= y_u32(c, &v, "stride", &f->stride);
	v = y_get(n, "width");  rc |= y_u32(c, &v, "width", &f->width);
	return rc ? -EINVAL : 0;
}

static int check_length(struct yctx *c, const struct ynode *n, uint32_t lo, uint32_t hi)
{
	struct ynode v = y_get(n, "length");
	uint32_t len = 0;
	if (!v.node)
		return 0;
	if (y_u32(c, &v, "length", &len))
		return -EINVAL;
	if (len != hi - lo + 1) {
		struct pmu_pos p = y_pos(&v);
		if (pmu_report(c->d, PMU_CHK_BITS_LENGTH, &p,
			       "length %u disagrees with bits [%u, %u] (%u bits)", len, lo,
			       hi, hi - lo + 1) == PMU_SEV_ERROR)
			return -EINVAL;
	}
	return 0;
}

static int read_reg_field(struct yctx *c, const struct ynode *n, struct pmu_register *r)
{
	static const char *const keys[] = {"name", "bits", "length", "per-pmc",
					   "description", NULL};
	static const char *const req[] = {"name", "description", NULL};
	if (y_expect_map(c, n, "a register field") ||
	    y_check_keys(c, n, "a register field", keys, req))
		return -EINVAL;
	if (too_many(c, n, r->nfields, MAX_REG_FIELDS, "fields in one register"))
		return -E2BIG;
	struct pmu_reg_field *f = APPEND(r->fields, r->nfields);
	if (!f)
		return oom(c);
	f->pos = y_pos(n);
	struct ynode v, bits = y_get(n, "bits"), per = y_get(n, "per-pmc");
	int rc = 0;
	v = y_get(n, "name");        rc |= y_strdup(c, &v, "field name", &f->name);
	v = y_get(n, "description"); rc |= y_strdup(c, &v, "description", &f->description);
	if (!!bits.node == !!per.node) {
		pmu_report(c->d, -1, &f->pos,
			   "register field %s needs exactly one of 'bits' and 'per-pmc'",
			   f->name ? f->name : "?");
		return -EINVAL;
	}
	if (bits.node) {
		f->layout = PMU_LAYOUT_FIXED;
		rc |= y_bits(c, &bits, "bits", &f->lo, &f->hi);
		if (!rc)
			rc |= check_length(c, n, f->lo, f->hi);
	} else {
		rc |= read_per_pmc(c, &per, f);
		if (!rc && f->width)
			rc |= check_length(c, n, 0, f->width - 1);
	}
	return rc ? -EINVAL : 0;
}

/* A reset item: a fixed field's name (all ones), or {field: NAME, value: N}
 * (POWER8's MMCRA SDAR mode 0b01, MMCRA_SDAR_MODE_TLB). */
static int read_reset_item(struct yctx *c, const struct ynode *item, const char **name, uint64_t *value, bool *all_ones)
{
	static const char *const keys[] = {"field", "value", NULL};
	*all_ones = !y_is_map(item);
	if (*all_ones)
		return y_str(c, item, "reset field", name);
	if (y_check_keys(c, item, "a reset value", keys, keys))
		return -EINVAL;
	struct ynode f = y_get(item, "field"), v = y_get(item, "value");
	if (y_str(c, &f, "reset field", name) || y_u64(c, &v, "reset value", value))
		return -EINVAL;
	return 0;
}

static int resolve_reset(struct yctx *c, const struct ynode *n, struct pmu_register *r)
{
	struct ynode reset = y_get(n, "reset");
	if (!reset.node)
		return 0;
	if (y_expect_seq(c, &reset, "reset"))
		return -EINVAL;
	for (int i = 0; i < y_seq_len(&reset); i++) {
		struct ynode item = y_seq_at(&reset, i);
		const char *name = NULL;
		uint64_t value = 0;
		bool all_ones;
		if (read_reset_item(c, &item, &name, &value, &all_ones))
			return -EINVAL;
		int f = pmu_model_reg_field(r, name);
		struct pmu_pos p = y_pos(&item);
		if (f < 0 || r->fields[f].layout != PMU_LAYOUT_FIXED) {
			if (pmu_report(c->d, PMU_CHK_UNKNOWN_REF, &p,
				       "reset names '%s', not a fixed field of %s", name,
				       r->name) == PMU_SEV_ERROR)
				return -EINVAL;
			continue;
		}
		uint64_t mask = pmu_bits_mask(r->fields[f].lo, r->fields[f].hi);
		if (!all_ones && value > mask >> r->fields[f].lo) {
			pmu_report(c->d, -1, &p, "reset value 0x%llx does not fit %s.%s (%u bits)",
				   (unsigned long long)value, r->name, name,
				   r->fields[f].hi - r->fields[f].lo + 1);
			return -EINVAL;
		}
		r->reset |= all_ones ? mask : value << r->fields[f].lo;
	}
	return 0;
}

static int read_register(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"name", "sprn", "width", "privilege", "index",
					   "reset", "fields", NULL};
	static const char *const req[] = {"name", "sprn", "width", "privilege", "index",
					  NULL};
	if (y_expect_map(c, n, "a register") || y_check_keys(c, n, "a register", keys, req))
		return -EINVAL;
	struct pmu_model *m = c->m;
	if (too_many(c, n, c->m->nregisters, MAX_REGISTERS, "registers"))
		return -E2BIG;
	struct pmu_register *r = APPEND(m->registers, m->nregisters);
	if (!r)
		return oom(c);
	r->pos = y_pos(n);
	struct ynode v;
	int rc = 0;
	v = y_get(n, "name");      rc |= y_strdup(c, &v, "register name", &r->name);
	v = y_get(n, "sprn");      rc |= y_u32(c, &v, "sprn", &r->sprn);
	v = y_get(n, "width");     rc |= y_u32(c, &v, "width", &r->width);
	v = y_get(n, "privilege"); rc |= y_strdup(c, &v, "privilege", &r->privilege);
	v = y_get(n, "index");     rc |= y_u32(c, &v, "index", &r->index);
	struct ynode fields = y_get(n, "fields");
	if (fields.node && !y_expect_seq(c, &fields, "fields"))
		for (int i = 0; i < y_seq_len(&fields); i++) {
			struct ynode f = y_seq_at(&fields, i);
			rc |= read_reg_field(c, &f, r);
		}
	if (!rc)
		rc |= resolve_reset(c, n, r);
	return rc ? -EINVAL : 0;
}

/* --- code classes ----------------------------------------------------------
 * Read before the fields: their conditions may name a class. */
/* A list of 1 to max u64 codes at key "codes" of n into *codes (*ncodes
 * counts them); what names the list in the message. */
static int read_code_list(struct yctx *c, const struct ynode *n, int max, const char *what,
			  uint64_t **codes, int *ncodes)
{
	struct ynode list = y_get(n, "codes");
	int len = y_seq_len(&list);
	if (y_expect_seq(c, &list, "codes") || len < 1 || len > max) {
		struct pmu_pos p = y_pos(&list);
		pmu_report(c->d, -1, &p, "%s lists 1 to %d codes", what, max);
		return -EINVAL;
	}
	*codes = calloc((size_t)len, sizeof(**codes));
	if (!*codes)
		return oom(c);
	int rc = 0;
	for (int i = 0; i < len; i++) {
		struct ynode item = y_seq_at(&list, i);
		rc |= y_u64(c, &item, "code", &(*codes)[(*ncodes)++]);
	}
	return rc ? -EINVAL : 0;
}

/* A class's codes, each within its mask. */
static int read_class_codes(struct yctx *c, const struct ynode *n, struct pmu_code_class *k)
{
	int rc = read_code_list(c, n, PMU_MAX_CLASS_CODES, "a code class", &k->codes, &k->ncodes);
	struct ynode list = y_get(n, "codes");
	for (int i = 0; !rc && i < k->ncodes; i++) {
		if (!(k->codes[i] & ~k->mask))
			continue;
		struct ynode item = y_seq_at(&list, i);
		struct pmu_pos p = y_pos(&item);
		pmu_report(c->d, -1, &p, "code 0x%llx of class %s sets bits outside its mask 0x%llx: "
			   "no code would match it", (unsigned long long)k->codes[i],
			   k->name ? k->name : "?", (unsigned long long)k->mask);
		rc = -EINVAL;
	}
	return rc;
}

static int read_code_class(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"name", "mask", "codes", "description", NULL};
	if (y_expect_map(c, n, "a code class") || y_check_keys(c, n, "a code class", keys, keys))
		return -EINVAL;
	if (too_many(c, n, c->m->ncode_classes, PMU_MAX_CODE_CLASSES, "code classes"))
		return -E2BIG;
	struct pmu_code_class *k = APPEND(c->m->code_classes, c->m->ncode_classes);
	if (!k)
		return oom(c);
	k->pos = y_pos(n);
	struct ynode v;
	int rc = 0;
	v = y_get(n, "name");        rc |= y_strdup(c, &v, "code class name", &k->name);
	v = y_get(n, "description"); rc |= y_strdup(c, &v, "description", &k->description);
	v = y_get(n, "mask");        rc |= y_u64(c, &v, "mask", &k->mask);
	if (rc)
		return -EINVAL;
	for (int i = 0; i < c->m->ncode_classes - 1; i++)
		if (strcmp(c->m->code_classes[i].name, k->name) == 0) {
			v = y_get(n, "name");
			struct pmu_pos p = y_pos(&v);
			pmu_report(c->d, -1, &p, "code class '%s' given twice", k->name);
			return -EINVAL;
		}
	return read_class_codes(c, n, k);
}

/* The nearest of count names got by name(i), for "did you mean" hints. */
static const char *nearest_of(const char *word, int count,
			      const char *(*name)(const void *, int), const void *ctx)
{
	const char *list[257];
	int n = 0;
	for (int i = 0; i < count && n < 256; i++)
		list[n++] = name(ctx, i);
	list[n] = NULL;
	return y_nearest(word, list);
}

static const char *register_name_at(const void *m, int i)
{
	return ((const struct pmu_model *)m)->registers[i].name;
}

static const char *reg_field_name_at(const void *r, int i)
{
	return ((const struct pmu_register *)r)->fields[i].name;
}

static const char *field_name_at(const void *m, int i)
{
	return ((const struct pmu_model *)m)->fields[i].name;
}

/* Report a reference to nothing.  Returns -EINVAL when that is an error, or
 * 1 when the check is off or a warning: the caller then drops the item that
 * holds the reference and the description loads without it. */
static int report_unknown(struct yctx *c, int check, const struct pmu_pos *p,
			  const char *what, const char *name, const char *near)
{
	enum pmu_severity sev;
	if (near)
		sev = pmu_report(c->d, check, p, "%s: no %s; did you mean '%s'?", what, name, near);
	else
		sev = pmu_report(c->d, check, p, "%s: no %s", what, name);
	return sev == PMU_SEV_ERROR ? -EINVAL : 1;
}

/* "MMCR1.PMCxSEL" -> register and field indices; 1: unknown but tolerated */
static int resolve_reg_ref(struct yctx *c, const struct ynode *n, const char *what,
			   struct pmu_reg_ref *out)
{
	const char *s = NULL;
	if (y_str(c, n, what, &s))
		return -EINVAL;
	const char *dot = strchr(s, '.');
	struct pmu_pos p = y_pos(n);
	char reg[64];
	if (!dot || (size_t)(dot - s) >= sizeof(reg)) {
		pmu_report(c->d, -1, &p, "%s must read REGISTER.FIELD, found '%s'", what, s);
		return -EINVAL;
	}
	memcpy(reg, s, (size_t)(dot - s));
	reg[dot - s] = '\0';
	int r = pmu_model_register(c->m, reg);
	int f = r >= 0 ? pmu_model_reg_field(&c->m->registers[r], dot + 1) : -1;
	char label[128], missing[96];
	snprintf(label, sizeof(label), "%s '%s'", what, s);
	if (r < 0) {
		snprintf(missing, sizeof(missing), "register %s", reg);
		return report_unknown(c, PMU_CHK_UNKNOWN_REF, &p, label, missing,
				      nearest_of(reg, c->m->nregisters, register_name_at, c->m));
	}
	if (f < 0) {
		const struct pmu_register *rg = &c->m->registers[r];
		snprintf(missing, sizeof(missing), "field %s in %s", dot + 1, rg->name);
		return report_unknown(c, PMU_CHK_UNKNOWN_REF, &p, label, missing,
				      nearest_of(dot + 1, rg->nfields, reg_field_name_at, rg));
	}
	*out = (struct pmu_reg_ref){r, f};
	return 0;
}

/* --- event-code fields ---------------------------------------------------- */
struct field_nodes {
	struct ynode *node; /* YAML node of each field, by model index */
	int n;
};

static int read_field(struct yctx *c, const struct ynode *n, int parent,
		      struct field_nodes *fn);

static int read_parts(struct yctx *c, const struct ynode *parts, int parent,
		      struct field_nodes *fn)
{
	if (y_expect_seq(c, parts, "parts"))
		return -EINVAL;
	int rc = 0;
	for (int i = 0; i < y_seq_len(parts); i++) {
		struct ynode p = y_seq_at(parts, i);
		rc |= read_field(c, &p, parent, fn);
	}
	return rc;
}

static int read_field_role(struct yctx *c, const struct ynode *n, struct pmu_field *f)
{
	const char *s = NULL;
	if (y_str(c, n, "role", &s) || !s)
		return s ? 0 : -EINVAL;
	for (int r = PMU_ROLE_PMC; r <= PMU_ROLE_UNIT; r++)
		if (strcmp(s, pmu_role_name(r)) == 0) {
			f->role = r;
			return 0;
		}
	struct pmu_pos p = y_pos(n);
	pmu_report(c->d, -1, &p, "role must be pmc, mark or unit, found '%s'", s);
	return -EINVAL;
}

static int read_source(struct yctx *c, const struct ynode *n, enum pmu_source *out)
{
	const char *s = NULL;
	if (!n->node)
		return 0;
	if (y_str(c, n, "source", &s))
		return -EINVAL;
	if (strcmp(s, "config") == 0 || strcmp(s, "config1") == 0) {
		*out = s[6] == '1' ? PMU_SRC_CONFIG1 : PMU_SRC_CONFIG;
		return 0;
	}
	struct pmu_pos p = y_pos(n);
	pmu_report(c->d, -1, &p, "source must be config or config1, found '%s'", s);
	return -EINVAL;
}

/* `encoding:` of mantissa-exponent: every parameter, each in its domain
 * (pmu_thresh_encoding_bad), reported at the key whose value is wrong. */
static int read_encoding(struct yctx *c, const struct ynode *n, struct pmu_thresh_encoding *enc)
{
	static const char *const keys[] = {"mantissa-bits", "exponent-bits", "exponent-step",
					   "clamp", "normalized-mask", NULL};
	if (y_expect_map(c, n, "encoding") || y_check_keys(c, n, "encoding", keys, keys))
		return -EINVAL;
	for (int p = 0; p < PMU_ENC_NPARAMS; p++) {
		struct ynode v = y_get(n, keys[p]);
		uint64_t value = 0;
		if (y_u64(c, &v, keys[p], &value))
			return -EINVAL;
		if (pmu_thresh_param_set(enc, (enum pmu_thresh_param)p, value)) {
			struct pmu_pos at = y_pos(&v);
			pmu_report(c->d, -1, &at, "%s must fit in 32 bits, found %llu", keys[p],
				   (unsigned long long)value);
			return -EINVAL;
		}
	}
	char why[160];
	enum pmu_thresh_param bad = pmu_thresh_encoding_bad(enc, why, sizeof(why));
	if (bad == PMU_ENC_NPARAMS)
		return 0;
	struct ynode v = y_get(n, keys[bad]);
	struct pmu_pos at = y_pos(&v);
	pmu_report(c->d, -1, &at, "%s", why);
	return -EINVAL;
}

/* `transform` and what parameterises it: `transform-arg` (sdar-mode) or
 * `encoding` (mantissa-exponent, formerly thresh-cmp-p10). */
static int read_transform(struct yctx *c, const struct ynode *owner, enum pmu_transform *t,
			  uint64_t *arg, struct pmu_thresh_encoding *enc)
{
	struct ynode v = y_get(owner, "transform");
	struct ynode a = y_get(owner, "transform-arg"), e = y_get(owner, "encoding");
	const char *s = NULL;
	if (!v.node) {
		if (!a.node && !e.node)
			return 0;
		struct pmu_pos p = y_pos(a.node ? &a : &e);
		pmu_report(c->d, -1, &p, "'%s' without a 'transform'",
			   a.node ? "transform-arg" : "encoding");
		return -EINVAL;
	}
	if (y_str(c, &v, "transform", &s))
		return -EINVAL;
	int old = pmu_transform_parse(s, t);
	if (old < 0 || *t == PMU_XF_NONE) {
		struct pmu_pos p = y_pos(&v);
		pmu_report(c->d, -1, &p, "unknown transform '%s' (known: sdar-mode, mantissa-exponent)", s);
		return -EINVAL;
	}
	if (old) {
		struct pmu_pos p = y_pos(&v);
		pmu_report_warning(c->d, &p, "transform '%s' is deprecated: it is named '%s' now",
				   s, pmu_transform_name(*t));
	}
	if (*t == PMU_XF_SDAR_MODE && !e.node)
		return y_u64(c, &a, "transform-arg", arg);
	if (*t == PMU_XF_MANTISSA_EXPONENT && e.node && !a.node)
		return read_encoding(c, &e, enc);
	struct pmu_pos p = y_pos(&v);
	pmu_report(c->d, -1, &p, *t == PMU_XF_SDAR_MODE ?
		   "transform sdar-mode takes its default in 'transform-arg', not an 'encoding'" :
		   "transform mantissa-exponent needs an 'encoding' (mantissa-bits, exponent-bits, "
		   "exponent-step, clamp, normalized-mask) and takes no 'transform-arg'");
	return -EINVAL;
}

static int read_field(struct yctx *c, const struct ynode *n, int parent,
		      struct field_nodes *fn)
{
	static const char *const keys[] = {"name", "dts", "bits", "length", "source",
					   "role", "linux-defined", "lands-in", "when",
					   "transform", "transform-arg", "encoding", "clears",
					   "description", "parts", NULL};
	static const char *const req[] = {"name", "bits", "description", NULL};
	if (y_expect_map(c, n, "a field") || y_check_keys(c, n, "a field", keys, req))
		return -EINVAL;
	struct pmu_model *m = c->m;
	if (too_many(c, n, c->m->nfields, MAX_FIELDS, "fields"))
		return -E2BIG;
	struct pmu_field *f = APPEND(m->fields, m->nfields);
	struct ynode *slot = f ? APPEND(fn->node, fn->n) : NULL;
	if (!slot)
		return oom(c);
	*slot = *n;
	int self = m->nfields - 1;
	f->pos = y_pos(n);
	f->parent = parent;
	f->target_reg = f->clear_reg = -1;
	struct ynode v;
	int rc = 0;
	v = y_get(n, "name");          rc |= y_strdup(c, &v, "field name", &f->name);
	v = y_get(n, "dts");           rc |= y_strdup(c, &v, "dts", &f->dts_name);
	v = y_get(n, "description");   rc |= y_strdup(c, &v, "description", &f->description);
	v = y_get(n, "linux-defined"); rc |= y_bool(c, &v, "linux-defined", &f->linux_defined);
	v = y_get(n, "source");        rc |= read_source(c, &v, &f->source);
	v = y_get(n, "role");          rc |= v.node ? read_field_role(c, &v, f) : 0;
	v = y_get(n, "bits");
	if (y_bits(c, &v, "bits", &f->lo, &f->hi) || check_length(c, n, f->lo, f->hi))
		rc = -EINVAL;
	rc |= read_transform(c, n, &f->transform, &f->transform_arg, &f->encoding);
	v = y_get(n, "parts");
	if (v.node)
		rc |= read_parts(c, &v, self, fn);
	return rc ? -EINVAL : 0;
}

/* Second pass, once every field is known: placements and conditions. */
static int read_condition_key(struct yctx *c, const struct ynode *owner, const char *key,
			      struct pmu_condition *out)
{
	struct ynode v = y_get(owner, key);
	const char *s = NULL;
	char why[256];
	if (!v.node)
		return 0;
	if (y_str(c, &v, key, &s))
		return -EINVAL;
	if (pmu_condition_parse(c->m, s, out, why, sizeof(why))) {
		struct pmu_pos p = y_pos(&v);
		pmu_report(c->d, -1, &p, "%s", why);
		return -EINVAL;
	}
	return 0;
}

static int read_condition(struct yctx *c, const struct ynode *owner,
			  struct pmu_condition *out)
{
	return read_condition_key(c, owner, "when", out);
}

static int link_field(struct yctx *c, int i, const struct ynode *n)
{
	struct pmu_field *f = &c->m->fields[i];
	struct ynode v = y_get(n, "lands-in");
	struct pmu_reg_ref ref;
	int rc = 0;
	int r = v.node ? resolve_reg_ref(c, &v, "lands-in", &ref) : 1;
	if (r < 0)
		rc = -EINVAL;
	else if (r == 0)
		f->target_reg = ref.reg, f->target_field = ref.field;
	v = y_get(n, "clears");
	r = v.node ? resolve_reg_ref(c, &v, "clears", &ref) : 1;
	if (r < 0)
		rc = -EINVAL;
	else if (r == 0)
		f->clear_reg = ref.reg, f->clear_field = ref.field;
	rc |= read_condition(c, n, &f->when);
	return rc;
}

static int read_fields(struct yctx *c, const struct ynode *lists, int nlists)
{
	struct field_nodes fn = {NULL, 0};
	int rc = 0;
	for (int l = 0; l < nlists; l++) {
		if (y_expect_seq(c, &lists[l], "fields")) {
			rc = -EINVAL;
			continue;
		}
		for (int i = 0; i < y_seq_len(&lists[l]); i++) {
			struct ynode f = y_seq_at(&lists[l], i);
			int frc = read_field(c, &f, -1, &fn);
			if (frc == -E2BIG) {
				free(fn.node);
				return -EINVAL;
			}
			rc |= frc;
		}
	}
	if (!rc)
		for (int i = 0; i < fn.n; i++)
			rc |= link_field(c, i, &fn.node[i]);
	free(fn.node);
	return rc ? -EINVAL : 0;
}

/* --- compute_mmcr inputs -------------------------------------------------- */
static int read_privilege_filters(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"exclude_user", "exclude_kernel",
					   "exclude_kernel_hv", "exclude_hv",
					   "exclude_idle", NULL};
	if (y_expect_map(c, n, "privilege-filters") ||
	    y_check_keys(c, n, "privilege-filters", keys, NULL))
		return -EINVAL;
	int rc = 0;
	for (int e = 0; e < PMU_EXCL_COUNT; e++) {
		struct ynode v = y_get(n, pmu_exclude_name(e));
		if (v.node && resolve_reg_ref(c, &v, pmu_exclude_name(e), &c->m->exclude[e]) < 0)
			rc = -EINVAL;
	}
	return rc ? -EINVAL : 0;
}

static int read_counter_set(struct yctx *c, const struct ynode *n, uint32_t *mask)
{
	if (y_expect_seq(c, n, "counters"))
		return -EINVAL;
	for (int i = 0; i < y_seq_len(n); i++) {
		struct ynode item = y_seq_at(n, i);
		uint32_t pmc = 0;
		if (y_u32(c, &item, "counter", &pmc))
			return -EINVAL;
		if (pmc < 1 || pmc > (uint32_t)c->m->ncounters || pmc > 31) {
			struct pmu_pos p = y_pos(&item);
			if (pmu_report(c->d, PMU_CHK_PMC_RANGE, &p, "there is no PMC%u (%d counters)",
				       pmc, c->m->ncounters) == PMU_SEV_ERROR)
				return -EINVAL;
			continue;
		}
		*mask |= 1u << pmc;
	}
	return 0;
}

static int read_usage(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"set", "when", "counters", NULL};
	static const char *const req[] = {"set", "when", NULL};
	if (y_expect_map(c, n, "a counter-usage entry") ||
	    y_check_keys(c, n, "a counter-usage entry", keys, req))
		return -EINVAL;
	struct pmu_usage_bit *u = APPEND(c->m->usage, c->m->nusage);
	if (!u)
		return oom(c);
	u->pos = y_pos(n);
	struct ynode v = y_get(n, "set");
	int rc = resolve_reg_ref(c, &v, "set", &u->target);
	if (rc == 1) { /* tolerated: the bit is dropped */
		c->m->nusage--;
		return 0;
	}
	const char *when = NULL;
	v = y_get(n, "when");
	if (y_str(c, &v, "when", &when))
		return -EINVAL;
	int w;
	for (w = PMU_WHEN_USED; w <= PMU_WHEN_ALWAYS; w++)
		if (strcmp(when, pmu_usage_when_name(w)) == 0)
			break;
	struct pmu_pos p = y_pos(&v);
	if (w > PMU_WHEN_ALWAYS) {
		pmu_report(c->d, -1, &p, "when must be used, unused or always, found '%s'", when);
		return -EINVAL;
	}
	u->when = w;
	v = y_get(n, "counters");
	if (!!v.node != (w != PMU_WHEN_ALWAYS)) {
		pmu_report(c->d, -1, &p, "'counters' is needed with used/unused and only then");
		return -EINVAL;
	}
	if (v.node)
		rc |= read_counter_set(c, &v, &u->counters);
	return rc;
}

/* --- checks and constraints ----------------------------------------------- */
static int field_ref(struct yctx *c, const struct ynode *v, int check, int *out)
{
	const char *s = NULL;
	if (y_str(c, v, "field", &s))
		return -EINVAL;
	*out = pmu_model_field(c->m, s);
	if (*out >= 0)
		return 0;
	struct pmu_pos p = y_pos(v);
	char missing[96];
	snprintf(missing, sizeof(missing), "event-code field %s", s);
	return report_unknown(c, check, &p, "field", missing,
			      nearest_of(s, c->m->nfields, field_name_at, c->m));
}

/* A refused-code check's `codes`: a list of 1 to PMU_MAX_REFUSED codes,
 * given with that kind only. */
#define PMU_MAX_REFUSED 4096
static int read_check_codes(struct yctx *c, const struct ynode *n, struct pmu_check *k)
{
	struct ynode codes = y_get(n, "codes");
	if (!codes.node != (k->kind != PMU_CHECK_REFUSED_CODE)) {
		pmu_report(c->d, -1, &k->pos, "a refused-code check takes 'codes', the other "
			   "kinds do not");
		return -EINVAL;
	}
	if (!codes.node)
		return 0;
	return read_code_list(c, n, PMU_MAX_REFUSED, "'codes' of a refused-code check", &k->codes,
			      &k->ncodes);
}

/* `pvr-mask` and `pvr-value` go together; the value must lie in the mask. */
static int read_check_pvr(struct yctx *c, const struct ynode *n, struct pmu_check *k)
{
	struct ynode mask = y_get(n, "pvr-mask"), value = y_get(n, "pvr-value");
	if (!mask.node != !value.node) {
		pmu_report(c->d, -1, &k->pos, "'pvr-mask' and 'pvr-value' go together");
		return -EINVAL;
	}
	if (y_u32(c, &mask, "pvr-mask", &k->pvr_mask) ||
	    y_u32(c, &value, "pvr-value", &k->pvr_value))
		return -EINVAL;
	if (k->pvr_value & ~k->pvr_mask) {
		struct pmu_pos p = y_pos(&value);
		pmu_report(c->d, -1, &p, "pvr-value 0x%x sets bits outside pvr-mask 0x%x",
			   k->pvr_value, k->pvr_mask);
		return -EINVAL;
	}
	return 0;
}

static int read_check(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"name", "kind", "when", "field", "codes",
					   "pvr-mask", "pvr-value", "description", NULL};
	static const char *const req[] = {"name", "kind", "description", NULL};
	if (y_expect_map(c, n, "a check") || y_check_keys(c, n, "a check", keys, req))
		return -EINVAL;
	struct pmu_check *k = APPEND(c->m->checks, c->m->nchecks);
	if (!k)
		return oom(c);
	k->pos = y_pos(n);
	k->field = -1;
	struct ynode v;
	const char *kind = NULL;
	int rc = 0;
	v = y_get(n, "name");        rc |= y_strdup(c, &v, "name", &k->name);
	v = y_get(n, "description"); rc |= y_strdup(c, &v, "description", &k->description);
	v = y_get(n, "kind");
	if (y_str(c, &v, "kind", &kind))
		return -EINVAL;
	int kk;
	for (kk = 0; kk < PMU_CHECK_KIND_COUNT; kk++)
		if (strcmp(kind, pmu_check_kind_name(kk)) == 0)
			break;
	struct pmu_pos p = y_pos(&v);
	if (kk == PMU_CHECK_KIND_COUNT) {
		pmu_report(c->d, -1, &p, "unknown check kind '%s' (reserved-bits, reject, "
			   "counter-exists, fixed-counter, group-agree, group-size, refused-code)",
			   kind);
		return -EINVAL;
	}
	k->kind = kk;
	bool has_when = y_get(n, "when").node, has_field = y_get(n, "field").node;
	if (has_when != (kk == PMU_CHECK_REJECT_WHEN) ||
	    has_field != (kk == PMU_CHECK_GROUP_AGREE)) {
		pmu_report(c->d, -1, &k->pos, "a reject check takes 'when', a group-agree "
			   "check takes 'field', the other kinds neither");
		return -EINVAL;
	}
	rc |= read_condition(c, n, &k->when);
	rc |= read_check_codes(c, n, k);
	rc |= read_check_pvr(c, n, k);
	v = y_get(n, "field");
	int r = v.node ? field_ref(c, &v, PMU_CHK_UNKNOWN_REF, &k->field) : 0;
	if (r == 1 && !rc) { /* tolerated: the check is dropped */
		free(k->name);
		free(k->description);
		free(k->codes);
		c->m->nchecks--;
		return 0;
	}
	return rc || r ? -EINVAL : 0;
}

static int read_constraint_kind(struct yctx *c, const struct ynode *v,
				enum pmu_constraint_kind *out)
{
	const char *s = NULL;
	if (y_str(c, v, "kind", &s))
		return -EINVAL;
	for (int k = PMU_CONS_EQUAL; k <= PMU_CONS_COUNT; k++)
		if (strcmp(s, pmu_constraint_kind_name(k)) == 0) {
			*out = k;
			return 0;
		}
	struct pmu_pos p = y_pos(v);
	pmu_report(c->d, -1, &p, "constraint kind must be equal, per-pmc or count, found '%s'", s);
	return -EINVAL;
}

static int read_constraint_source(struct yctx *c, const struct ynode *n,
				  struct pmu_constraint *k)
{
	struct ynode field = y_get(n, "field"), bits = y_get(n, "bits"), flag = y_get(n, "flag");
	if (k->kind != PMU_CONS_EQUAL) {
		if (!field.node && !bits.node && !flag.node && !y_get(n, "source").node)
			return 0;
		pmu_report(c->d, -1, &k->pos,
			   "only equal constraints take 'field', 'bits', 'flag' or 'source'");
		return -EINVAL;
	}
	if (!!field.node + !!bits.node + !!flag.node != 1) {
		pmu_report(c->d, -1, &k->pos,
			   "an equal constraint needs exactly one of 'field', 'bits' and 'flag'");
		return -EINVAL;
	}
	if (flag.node) {
		if (y_get(n, "source").node) {
			pmu_report(c->d, -1, &k->pos, "'source' goes with 'bits', not with 'flag'");
			return -EINVAL;
		}
		k->has_flag = true;
		return read_condition_key(c, n, "flag", &k->flag);
	}
	if (field.node && y_get(n, "source").node) {
		pmu_report(c->d, -1, &k->pos, "'source' goes with 'bits'; a field has its own source");
		return -EINVAL;
	}
	if (bits.node) {
		struct ynode src = y_get(n, "source");
		return read_source(c, &src, &k->source) ||
		       y_bits(c, &bits, "bits", &k->src_lo, &k->src_hi) ? -EINVAL : 0;
	}
	int f, r = field_ref(c, &field, PMU_CHK_CONSTRAINT_FIELD, &f);
	if (r)
		return r; /* 1: tolerated, the caller drops the constraint */
	k->source = c->m->fields[f].source;
	k->src_lo = c->m->fields[f].lo;
	k->src_hi = c->m->fields[f].hi;
	return 0;
}

/* The group rule: `group-require` and `group-reason` go together, on an
 * equal constraint, and the required value fits the slot. */
static int read_group_rule(struct yctx *c, const struct ynode *n, struct pmu_constraint *k)
{
	struct ynode req = y_get(n, "group-require"), why = y_get(n, "group-reason");
	if (!req.node && !why.node)
		return 0;
	if (!req.node || !why.node || k->kind != PMU_CONS_EQUAL) {
		pmu_report(c->d, -1, &k->pos, "'group-require' and 'group-reason' go together, "
			   "on an equal constraint");
		return -EINVAL;
	}
	if (y_u64(c, &req, "group-require", &k->group_require) ||
	    y_strdup(c, &why, "group-reason", &k->group_reason))
		return -EINVAL;
	uint32_t width = k->slot_hi - k->slot_lo + 1;
	if (width < 64 && (k->group_require >> width)) {
		struct pmu_pos p = y_pos(&req);
		pmu_report(c->d, -1, &p, "group-require 0x%llx does not fit the %u-bit slot",
			   (unsigned long long)k->group_require, width);
		return -EINVAL;
	}
	return 0;
}

static int read_constraint(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"name", "kind", "field", "bits", "source", "flag",
					   "transform", "transform-arg", "encoding", "slot", "limit",
					   "when", "group-require", "group-reason", "description",
					   NULL};
	static const char *const req[] = {"name", "kind", "slot", "description", NULL};
	if (y_expect_map(c, n, "a constraint") ||
	    y_check_keys(c, n, "a constraint", keys, req))
		return -EINVAL;
	if (too_many(c, n, c->m->nconstraints, MAX_CONSTRAINTS, "constraints"))
		return -E2BIG;
	struct pmu_constraint *k = APPEND(c->m->constraints, c->m->nconstraints);
	if (!k)
		return oom(c);
	k->pos = y_pos(n);
	struct ynode v;
	int rc = 0;
	v = y_get(n, "name");        rc |= y_strdup(c, &v, "name", &k->name);
	v = y_get(n, "description"); rc |= y_strdup(c, &v, "description", &k->description);
	v = y_get(n, "kind");        rc |= read_constraint_kind(c, &v, &k->kind);
	v = y_get(n, "slot");        rc |= y_bits(c, &v, "slot", &k->slot_lo, &k->slot_hi);
	v = y_get(n, "limit");       rc |= y_u32(c, &v, "limit", &k->limit);
	if (rc)
		return -EINVAL;
	if ((k->kind == PMU_CONS_EQUAL) == !!y_get(n, "limit").node) {
		pmu_report(c->d, -1, &k->pos, "per-pmc and count constraints need a 'limit', "
			   "equal constraints take none");
		return -EINVAL;
	}
	int r = read_constraint_source(c, n, k);
	if (r == 1) {
		free(k->name);
		free(k->description);
		c->m->nconstraints--;
		return 0;
	}
	rc |= r;
	rc |= read_transform(c, n, &k->transform, &k->transform_arg, &k->encoding);
	rc |= read_condition(c, n, &k->when);
	rc |= read_group_rule(c, n, k);
	return rc ? -EINVAL : 0;
}

/* --- alternatives, generic and cache maps ---------------------------------- */
static int read_alternative(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"codes", "per-task-only", NULL};
	static const char *const req[] = {"codes", NULL};
	if (y_expect_map(c, n, "an alternative") ||
	    y_check_keys(c, n, "an alternative", keys, req))
		return -EINVAL;
	struct pmu_alternative *a = APPEND(c->m->alternatives, c->m->nalternatives);
	if (!a)
		return oom(c);
	a->pos = y_pos(n);
	struct ynode codes = y_get(n, "codes"), v = y_get(n, "per-task-only");
	int rc = y_bool(c, &v, "per-task-only", &a->per_task_only);
	int len = y_seq_len(&codes);
	if (y_expect_seq(c, &codes, "codes") || len < 2 || len > 4) {
		pmu_report(c->d, -1, &a->pos, "an alternative lists 2 to 4 codes");
		return -EINVAL;
	}
	for (int i = 0; i < len; i++) {
		struct ynode item = y_seq_at(&codes, i);
		rc |= y_u64(c, &item, "code", &a->codes[a->ncodes++]);
	}
	return rc ? -EINVAL : 0;
}

static int read_map_value(struct yctx *c, const struct ynode *v, const char *what,
			  enum pmu_map_state *state, uint64_t *code)
{
	const char *s = NULL;
	if (y_str(c, v, what, &s))
		return -EINVAL;
	if (strcmp(s, "unsupported") == 0 || strcmp(s, "invalid") == 0) {
		*state = s[0] == 'u' ? PMU_MAP_UNSUPPORTED : PMU_MAP_INVALID;
		*code = 0;
		return 0;
	}
	*state = PMU_MAP_SUPPORTED;
	return y_u64(c, v, what, code);
}

static int read_generic(struct yctx *c, const struct ynode *n)
{
	if (y_expect_map(c, n, "generic-events"))
		return -EINVAL;
	struct ynode k, v;
	int rc = 0;
	for (int i = 0; y_map_at(n, i, &k, &v); i++) {
		struct pmu_generic *g = APPEND(c->m->generic, c->m->ngeneric);
		if (!g)
			return oom(c);
		g->pos = y_pos(&k);
		rc |= y_strdup(c, &k, "generic event name", &g->name);
		rc |= read_map_value(c, &v, "generic event", &g->state, &g->code);
	}
	return rc ? -EINVAL : 0;
}

static int read_cache_op(struct yctx *c, const struct ynode *n, struct pmu_cache_entry *e)
{
	if (!y_is_seq(n) || y_seq_len(n) != 2) {
		struct pmu_pos p = y_pos(n);
		pmu_report(c->d, -1, &p, "a cache operation is [access, miss]");
		return -EINVAL;
	}
	int rc = 0;
	for (int r = 0; r < PMU_RESULT_NTYPES; r++) {
		struct ynode item = y_seq_at(n, r);
		rc |= read_map_value(c, &item, "cache event", &e[r].state, &e[r].code);
	}
	return rc;
}

static int read_cache(struct yctx *c, const struct ynode *n)
{
	static const char *const caches[] = {"L1-dcache", "L1-icache", "LLC", "dTLB",
					     "iTLB", "branch", "node", NULL};
	static const char *const ops[] = {"read", "write", "prefetch", NULL};
	if (y_expect_map(c, n, "cache-events") ||
	    y_check_keys(c, n, "cache-events", caches, caches))
		return -EINVAL;
	int rc = 0;
	c->m->has_cache_map = true;
	for (int ci = 0; ci < PMU_CACHE_NTYPES; ci++) {
		struct ynode cn = y_get(n, caches[ci]);
		if (y_expect_map(c, &cn, caches[ci]) ||
		    y_check_keys(c, &cn, caches[ci], ops, ops)) {
			rc = -EINVAL;
			continue;
		}
		for (int o = 0; o < PMU_OP_NTYPES; o++) {
			struct ynode on = y_get(&cn, ops[o]);
			rc |= read_cache_op(c, &on, c->m->cache[ci][o]);
		}
	}
	return rc ? -EINVAL : 0;
}

/* --- branch-stack filters ------------------------------------------------- */
static int read_branch_filter(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"filter", "value", NULL};
	if (y_expect_map(c, n, "a branch filter") ||
	    y_check_keys(c, n, "a branch filter", keys, keys))
		return -EINVAL;
	struct pmu_model *m = c->m;
	struct pmu_branch_filter *b = APPEND(m->branch_filters, m->nbranch_filters);
	if (!b)
		return oom(c);
	b->pos = y_pos(n);
	struct ynode v = y_get(n, "filter");
	if (y_strdup(c, &v, "filter", &b->name))
		return -EINVAL;
	if (!pmu_branch_filter_bit(b->name)) {
		struct pmu_pos p = y_pos(&v);
		pmu_report(c->d, -1, &p, "'%s' is not one of perf's branch filters (any, "
			   "any_call, any_ret, ind_call, cond, call, ind_jmp, ...)", b->name);
		return -EINVAL;
	}
	v = y_get(n, "value");
	if (read_map_value(c, &v, "branch filter value", &b->state, &b->value))
		return -EINVAL;
	if (b->state == PMU_MAP_INVALID) {
		struct pmu_pos p = y_pos(&v);
		pmu_report(c->d, -1, &p, "a branch filter is a value or 'unsupported'");
		return -EINVAL;
	}
	return 0;
}

static int read_branch_filters(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"lands-in", "filters", NULL};
	if (y_expect_map(c, n, "branch-filters") ||
	    y_check_keys(c, n, "branch-filters", keys, keys))
		return -EINVAL;
	struct ynode v = y_get(n, "lands-in");
	int rc = resolve_reg_ref(c, &v, "lands-in", &c->m->branch_filter_target);
	if (rc < 0)
		return rc;
	v = y_get(n, "filters");
	if (y_expect_seq(c, &v, "filters"))
		return -EINVAL;
	for (int i = 0; i < y_seq_len(&v); i++) {
		struct ynode item = y_seq_at(&v, i);
		rc |= read_branch_filter(c, &item);
	}
	return rc ? -EINVAL : 0;
}

/* --- events --------------------------------------------------------------- */
/* A perf event's `alias-of`: an earlier perf event with the same code (perf's
 * POWER8 JSON gives 0x200301ea both as PM_L1MISS_LAT_EXC_1024 and as
 * PM_RC_LIFETIME_EXC_1024).  A firmware event's alias is found by its code. */
static int read_alias_of(struct yctx *c, const struct ynode *n, struct pmu_event *e)
{
	struct ynode v = y_get(n, "alias-of");
	const char *name = NULL;
	if (!v.node)
		return 0;
	struct pmu_pos p = y_pos(&v);
	if (e->firmware) {
		pmu_report(c->d, -1, &p, "a firmware event takes no 'alias-of': it is the alias "
			   "of the perf event with its code");
		return -EINVAL;
	}
	if (y_str(c, &v, "alias-of", &name))
		return -EINVAL;
	for (int i = 0; i < c->m->nevents - 1; i++) {
		const struct pmu_event *a = &c->m->events[i];
		if (a->firmware || strcmp(a->name, name) != 0)
			continue;
		if (a->code != e->code) {
			pmu_report(c->d, -1, &p, "event %s is the alias of %s, whose code is 0x%llx, "
				   "not 0x%llx", e->name ? e->name : "?", name,
				   (unsigned long long)a->code, (unsigned long long)e->code);
			return -EINVAL;
		}
		e->alias_of = a->alias_of >= 0 ? a->alias_of : i;
		return 0;
	}
	pmu_report(c->d, PMU_CHK_UNKNOWN_REF, &p, "alias-of names '%s', which is no perf event "
		   "listed before %s", name, e->name ? e->name : "this one");
	return -EINVAL;
}

static int read_event(struct yctx *c, const struct ynode *n, bool firmware)
{
	static const char *const keys[] = {"name", "code", "category", "class",
					   "description", "status", "alias-of", NULL};
	static const char *const req[] = {"name", "code", "category", "description", NULL};
	const char *what = firmware ? "a firmware event" : "an event";
	if (y_expect_map(c, n, what) || y_check_keys(c, n, what, keys, req))
		return -EINVAL;
	struct pmu_event *e = APPEND(c->m->events, c->m->nevents);
	if (!e)
		return oom(c);
	e->pos = y_pos(n);
	e->firmware = firmware;
	e->alias_of = -1;
	struct ynode v;
	int rc = 0;
	v = y_get(n, "name");        rc |= y_strdup(c, &v, "event name", &e->name);
	v = y_get(n, "code");        rc |= y_u64(c, &v, "event code", &e->code);
	v = y_get(n, "category");    rc |= y_strdup(c, &v, "category", &e->category);
	v = y_get(n, "description"); rc |= y_strdup(c, &v, "description", &e->description);
	v = y_get(n, "class");       rc |= y_strdup(c, &v, "class", &e->event_class);
	v = y_get(n, "status");      rc |= y_strdup(c, &v, "status", &e->status);
	if (!e->event_class)
		e->event_class = pmu_strdup("primary");
	if (!e->status)
		e->status = pmu_strdup("okay");
	if (!e->event_class || !e->status)
		return oom(c);
	if (strcmp(e->event_class, "primary") && strcmp(e->event_class, "alternative")) {
		v = y_get(n, "class");
		struct pmu_pos p = y_pos(&v);
		pmu_report(c->d, -1, &p, "class must be primary or alternative, found '%s'",
			   e->event_class);
		rc = -EINVAL;
	}
	if (strcmp(e->status, "okay") && strcmp(e->status, "disabled")) {
		v = y_get(n, "status");
		struct pmu_pos p = y_pos(&v);
		pmu_report(c->d, -1, &p, "status must be okay or disabled, found '%s'", e->status);
		rc = -EINVAL;
	}
	if (!rc)
		rc |= read_alias_of(c, n, e);
	return rc ? -EINVAL : 0;
}

/* --- presets (PAPI generic names) ----------------------------------------- */
static const char *event_name_at(const void *m, int i)
{
	return ((const struct pmu_model *)m)->events[i].name;
}

/* The nearest event name of all of them (nearest_of stops at 256). */
static const char *nearest_event(struct yctx *c, const char *word)
{
	int n = c->m->nevents;
	const char **list = malloc(((size_t)n + 1) * sizeof(*list));
	if (!list)
		return NULL;
	for (int i = 0; i < n; i++)
		list[i] = event_name_at(c->m, i);
	list[n] = NULL;
	const char *near = y_nearest(word, list);
	free(list);
	return near;
}

/* One member: an event of the description, by its exact name. */
static int read_preset_event(struct yctx *c, const struct ynode *item, struct pmu_preset *p)
{
	const char *name = NULL;
	if (y_str(c, item, "preset event", &name))
		return -EINVAL;
	int e = pmu_model_event(c->m, name);
	if (e < 0) {
		struct pmu_pos at = y_pos(item);
		char label[160];
		snprintf(label, sizeof(label), "preset %s", p->name ? p->name : "?");
		const char *near = pmu_diag_shows_errors(c->d) ? nearest_event(c, name) : NULL;
		char missing[96];
		snprintf(missing, sizeof(missing), "event %s", name);
		return report_unknown(c, PMU_CHK_UNKNOWN_REF, &at, label, missing, near);
	}
	p->codes[p->nevents] = c->m->events[e].code;
	p->events[p->nevents] = pmu_strdup(name);
	if (!p->events[p->nevents])
		return oom(c);
	p->nevents++;
	return 0;
}

/* `events` against `derived`: one for a plain preset, two or more for add
 * and sub, what the formula uses for postfix (checked with it). */
static int check_preset_shape(struct yctx *c, const struct ynode *n, struct pmu_preset *p,
			      int listed)
{
	struct ynode ev = y_get(n, "events");
	struct pmu_pos at = y_pos(&ev);
	if (listed < 1 || listed > PMU_PRESET_MAX_EVENTS) {
		pmu_report(c->d, -1, &at, "preset %s lists %d events (1 to %d)", p->name, listed,
			   PMU_PRESET_MAX_EVENTS);
		return -EINVAL;
	}
	if (p->kind == PMU_PRESET_EVENT && listed != 1) {
		pmu_report(c->d, -1, &at, "preset %s lists %d events but no 'derived' "
			   "(add, sub or postfix) says how to combine them", p->name, listed);
		return -EINVAL;
	}
	if ((p->kind == PMU_PRESET_ADD || p->kind == PMU_PRESET_SUB) && listed < 2) {
		pmu_report(c->d, -1, &at, "a derived %s preset combines at least 2 events; "
			   "preset %s lists 1 (leave out 'derived')", pmu_preset_kind_name(p->kind),
			   p->name);
		return -EINVAL;
	}
	return 0;
}

/* `postfix`: only with derived: postfix, checked over the listed events;
 * the problem is reported at the formula's own column plus the offset. */
static int read_postfix(struct yctx *c, const struct ynode *n, struct pmu_preset *p, int listed)
{
	struct ynode v = y_get(n, "postfix");
	struct pmu_pos at = y_pos(v.node ? &v : n);
	if (!!v.node != (p->kind == PMU_PRESET_POSTFIX)) {
		pmu_report(c->d, -1, &at, v.node ? "'postfix' needs 'derived: postfix'"
						 : "a derived postfix preset needs its 'postfix' formula");
		return -EINVAL;
	}
	if (!v.node)
		return 0;
	if (y_strdup(c, &v, "postfix", &p->postfix))
		return -EINVAL;
	char why[160];
	size_t off;
	if (pmu_postfix_check(p->postfix, listed, &off, why, sizeof(why)) == 0)
		return 0;
	bool plain = v.node->style == YAML_PLAIN_SCALAR_STYLE;
	if (at.col > 0 && off < 1000)
		at.col += (int)off + (plain ? 0 : 1);
	pmu_report(c->d, -1, &at, "bad postfix formula of preset %s: %s", p->name, why);
	return -EINVAL;
}

/* A preset name is unique without case (look-ups ignore it) and is no
 * event's name (events are looked up first and would hide it). */
static int check_preset_name(struct yctx *c, const struct ynode *n, const struct pmu_preset *p)
{
	struct ynode v = y_get(n, "name");
	struct pmu_pos at = y_pos(&v);
	for (int i = 0; i < c->m->npresets - 1; i++) {
		const struct pmu_preset *q = &c->m->presets[i];
		if (pmu_name_eq_nocase(q->name, p->name)) {
			pmu_report(c->d, -1, &at, "duplicate preset name '%s' (first at %s:%d:%d)",
				   p->name, q->pos.file ? q->pos.file : "?", q->pos.line, q->pos.col);
			return -EINVAL;
		}
	}
	for (int i = 0; i < c->m->nevents; i++)
		if (pmu_name_eq_nocase(c->m->events[i].name, p->name)) {
			pmu_report(c->d, -1, &at, "preset name '%s' is also the name of event %s",
				   p->name, c->m->events[i].name);
			return -EINVAL;
		}
	return 0;
}

static void drop_last_preset(struct pmu_model *m)
{
	pmu_preset_free_strings(&m->presets[--m->npresets]);
}

static int read_preset_fields(struct yctx *c, const struct ynode *n, struct pmu_preset *p)
{
	struct ynode v;
	const char *kind = NULL;
	int rc = 0;
	v = y_get(n, "name");        rc |= y_strdup(c, &v, "preset name", &p->name);
	v = y_get(n, "description"); rc |= y_strdup(c, &v, "description", &p->description);
	if (rc)
		return -EINVAL;
	v = y_get(n, "derived");
	if (v.node && (y_str(c, &v, "derived", &kind) || pmu_preset_kind_parse(kind, &p->kind) ||
		       p->kind == PMU_PRESET_EVENT)) {
		struct pmu_pos at = y_pos(&v);
		pmu_report(c->d, -1, &at, "derived must be add, sub or postfix, found '%s'",
			   kind ? kind : "?");
		return -EINVAL;
	}
	return check_preset_name(c, n, p);
}

/* Fills p, the last preset; 1 when a member is unknown but tolerated. */
static int read_preset_body(struct yctx *c, const struct ynode *n, struct pmu_preset *p)
{
	int rc = read_preset_fields(c, n, p);
	struct ynode ev = y_get(n, "events");
	if (rc || y_expect_seq(c, &ev, "events"))
		return -EINVAL;
	int listed = y_seq_len(&ev), unknown = 0;
	if (check_preset_shape(c, n, p, listed) || read_postfix(c, n, p, listed))
		return -EINVAL;
	for (int i = 0; i < listed; i++) {
		struct ynode item = y_seq_at(&ev, i);
		int r = read_preset_event(c, &item, p);
		if (r < 0)
			return r;
		unknown |= r;
	}
	return unknown;
}

static int read_preset(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"name", "events", "derived", "postfix",
					   "description", NULL};
	static const char *const req[] = {"name", "events", NULL};
	if (y_expect_map(c, n, "a preset") || y_check_keys(c, n, "a preset", keys, req))
		return -EINVAL;
	struct pmu_preset *p = APPEND(c->m->presets, c->m->npresets);
	if (!p)
		return oom(c);
	p->pos = y_pos(n);
	int rc = read_preset_body(c, n, p);
	/* a failed preset is dropped, so that later ones compare their names
	 * only with whole ones; a tolerated unknown member drops it too */
	if (rc)
		drop_last_preset(c->m);
	return rc < 0 ? rc : 0;
}

/* --- metrics (perf's MetricName entries) ----------------------------------- */
/* A name is unique without case, except that perf's own JSON gives one
 * metric twice with the same expression (POWER10 DISPATCH_STALL_FETCH_CPI),
 * which is kept so that the JSON written back is perf's; no event has it. */
static int check_metric_name(struct yctx *c, const struct ynode *n, const struct pmu_metric *mt)
{
	struct ynode v = y_get(n, "name");
	struct pmu_pos at = y_pos(&v);
	for (int i = 0; i < c->m->nmetrics - 1; i++) {
		const struct pmu_metric *q = &c->m->metrics[i];
		if (pmu_name_eq_nocase(q->name, mt->name) && strcmp(q->expr, mt->expr) != 0) {
			pmu_report(c->d, -1, &at, "metric name '%s' is given to another expression "
				   "at %s:%d:%d", mt->name, q->pos.file ? q->pos.file : "?",
				   q->pos.line, q->pos.col);
			return -EINVAL;
		}
	}
	if (pmu_model_event(c->m, mt->name) >= 0) {
		pmu_report(c->d, -1, &at, "metric name '%s' is also the name of an event", mt->name);
		return -EINVAL;
	}
	return 0;
}

static int read_metric(struct yctx *c, const struct ynode *n)
{
	static const char *const keys[] = {"name", "expr", "groups", "description", "scale-unit",
					   "threshold", "aggregation", "pmus", NULL};
	static const char *const req[] = {"name", "expr", NULL};
	if (y_expect_map(c, n, "a metric") || y_check_keys(c, n, "a metric", keys, req))
		return -EINVAL;
	struct pmu_metric *mt = APPEND(c->m->metrics, c->m->nmetrics);
	if (!mt)
		return oom(c);
	mt->pos = y_pos(n);
	struct ynode v;
	int rc = 0;
	v = y_get(n, "name");        rc |= y_strdup(c, &v, "metric name", &mt->name);
	v = y_get(n, "expr");        rc |= y_strdup(c, &v, "metric expr", &mt->expr);
	v = y_get(n, "groups");      rc |= y_strdup(c, &v, "metric groups", &mt->groups);
	v = y_get(n, "description"); rc |= y_strdup(c, &v, "description", &mt->description);
	v = y_get(n, "scale-unit");  rc |= y_strdup(c, &v, "scale-unit", &mt->scale_unit);
	v = y_get(n, "threshold");   rc |= y_strdup(c, &v, "threshold", &mt->threshold);
	v = y_get(n, "aggregation"); rc |= y_strdup(c, &v, "aggregation", &mt->aggregation);
	v = y_get(n, "pmus");        rc |= y_strdup(c, &v, "pmus", &mt->pmus);
	if (rc || check_metric_name(c, n, mt)) {
		pmu_metric_free_strings(&c->m->metrics[--c->m->nmetrics]);
		return -EINVAL;
	}
	return 0;
}

/* Every expression compiles against the whole description (metrics may name
 * later ones); a problem is reported at its own column in the YAML text. */
static int check_metric_exprs(struct yctx *c, const struct ynode *lists, int nlists)
{
	int rc = 0, k = 0;
	for (int l = 0; l < nlists; l++) {
		if (!y_is_seq(&lists[l]))
			continue;
		for (int i = 0; i < y_seq_len(&lists[l]) && k < c->m->nmetrics; i++) {
			struct ynode item = y_seq_at(&lists[l], i), v = y_get(&item, "expr");
			struct pmu_pos at = y_pos(&item);
			if (!v.node || at.line != c->m->metrics[k].pos.line ||
			    at.col != c->m->metrics[k].pos.col || at.file != c->m->metrics[k].pos.file)
				continue; /* dropped when read */
			struct pmu_metric_prog prog;
			char why[320];
			size_t off;
			int r = pmu_metric_compile(c->m, k, &prog, &off, why, sizeof(why));
			if (r == -ENOMEM)
				return oom(c);
			if (r == 0) {
				pmu_metric_prog_free(&prog);
			} else {
				struct pmu_pos p = y_pos(&v);
				bool plain = v.node->style == YAML_PLAIN_SCALAR_STYLE;
				if (p.col > 0 && off < 10000 && !strchr(c->m->metrics[k].expr, '\\'))
					p.col += (int)off + (plain ? 0 : 1);
				pmu_report(c->d, -1, &p, "bad expression of metric %s: %s",
					   c->m->metrics[k].name, why);
				rc = -EINVAL;
			}
			k++;
		}
	}
	return rc;
}

static int read_metrics(const struct yloader_view *view);

/* --- driver --------------------------------------------------------------- */
typedef int (*item_reader)(struct yctx *c, const struct ynode *n);

/* Read every item of every occurrence of a list section. */
static int read_list(const struct yloader_view *view, const char *name, item_reader fn)
{
	struct ynode lists[16];
	int n = ysec_list(view, name, lists, 16), rc = 0;
	if (n < 0)
		return -EINVAL;
	for (int l = 0; l < n; l++) {
		if (y_expect_seq(view->c, &lists[l], name)) {
			rc = -EINVAL;
			continue;
		}
		for (int i = 0; i < y_seq_len(&lists[l]); i++) {
			struct ynode item = y_seq_at(&lists[l], i);
			int irc = fn(view->c, &item);
			if (irc == -E2BIG)
				return -EINVAL;
			rc |= irc;
		}
	}
	return rc ? -EINVAL : 0;
}

static int read_single(const struct yloader_view *view, const char *name, item_reader fn)
{
	struct ynode n;
	if (ysec_single(view, name, &n))
		return -EINVAL;
	return n.node ? fn(view->c, &n) : 0;
}

static int read_event_plain(struct yctx *c, const struct ynode *n)
{
	return read_event(c, n, false);
}

static int read_event_firmware(struct yctx *c, const struct ynode *n)
{
	return read_event(c, n, true);
}

static int read_branch_stack(struct yctx *c, const struct ynode *n)
{
	int rc = resolve_reg_ref(c, n, "branch-stack-clears", &c->m->branch_stack_clears);
	return rc < 0 ? rc : 0;
}

int ysec_read_all(const struct yloader_view *view)
{
	struct yctx *c = view->c;
	struct ynode pmu;
	if (ysec_single(view, "pmu", &pmu))
		return -EINVAL;
	if (!pmu.node) {
		pmu_report(c->d, -1, NULL, "%s: the description has no 'pmu' section",
			   c->m->source ? c->m->source : "input");
		return -EINVAL;
	}
	int rc = read_pmu(c, &pmu);
	rc |= read_list(view, "counters", read_counter);
	rc |= read_list(view, "registers", read_register);
	rc |= read_list(view, "code-classes", read_code_class);
	if (rc)
		return -EINVAL; /* everything below refers to these */
	struct ynode lists[16];
	int nlists = ysec_list(view, "fields", lists, 16);
	if (nlists < 0 || read_fields(c, lists, nlists))
		return -EINVAL;
	rc |= read_single(view, "privilege-filters", read_privilege_filters);
	rc |= read_single(view, "branch-stack-clears", read_branch_stack);
	rc |= read_list(view, "counter-usage", read_usage);
	rc |= read_list(view, "checks", read_check);
	rc |= read_list(view, "constraints", read_constraint);
	rc |= read_list(view, "alternatives", read_alternative);
	rc |= read_single(view, "generic-events", read_generic);
	rc |= read_single(view, "cache-events", read_cache);
	rc |= read_single(view, "branch-filters", read_branch_filters);
	rc |= read_list(view, "events", read_event_plain);
	rc |= read_list(view, "firmware-events", read_event_firmware);
	if (!rc) /* members are events, found by name */
		rc |= read_list(view, "presets", read_preset);
	if (!rc) /* expressions name events and other metrics */
		rc |= read_metrics(view);
	return rc ? -EINVAL : 0;
}

static int read_metrics(const struct yloader_view *view)
{
	struct ynode lists[16];
	int n = ysec_list(view, "metrics", lists, 16);
	if (n < 0)
		return -EINVAL;
	int rc = read_list(view, "metrics", read_metric);
	return check_metric_exprs(view->c, lists, n) || rc ? -EINVAL : 0;
}
