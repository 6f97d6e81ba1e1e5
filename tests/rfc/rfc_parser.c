/*
 * rfc_parser.c - the kernel RFC's device-tree parser and constraint code as
 * a test model (rfc_parser.h).  Each function names the RFC or core-book3s
 * function it stands for; the behaviour follows their description in
 * schema/dts-layout.md and the project's reference notes, including what the
 * RFC does oddly (restricted codes overwritten with 0x500fa and 0x600f4, a
 * node without `condition` applied always, the cache nodes applied by unit
 * only).
 */
#include "rfc_parser.h"

#include <libfdt.h>
#include <stdio.h>
#include <string.h>

/* --- drivers/of readers over libfdt ----------------------------------------- */

/* of_get_child_by_name: the first child whose name before '@' is name. */
static int child_by_name(const void *fdt, int node, const char *name)
{
	int sub;
	size_t n = strlen(name);

	if (node < 0)
		return -1;
	fdt_for_each_subnode(sub, fdt, node) {
		const char *s = fdt_get_name(fdt, sub, NULL);

		if (s && strncmp(s, name, n) == 0 && (s[n] == '\0' || s[n] == '@'))
			return sub;
	}
	return -1;
}

/* of_property_read_u32_array(np, name, out, n): at least 4n bytes. */
static int read_u32s(const void *fdt, int node, const char *name, uint32_t *out, int n)
{
	int len;
	const fdt32_t *v = fdt_getprop(fdt, node, name, &len);

	if (!v || len < 4 * n)
		return -1;
	for (int i = 0; i < n; i++)
		out[i] = fdt32_ld(&v[i]);
	return 0;
}

static int read_u32(const void *fdt, int node, const char *name, uint32_t *out)
{
	return read_u32s(fdt, node, name, out, 1);
}

/* of_property_read_u64: the first 8 bytes, big-endian. */
static int read_u64(const void *fdt, int node, const char *name, uint64_t *out)
{
	uint32_t c[2];

	if (read_u32s(fdt, node, name, c, 2))
		return -1;
	*out = (uint64_t)c[0] << 32 | c[1];
	return 0;
}

static bool read_bool(const void *fdt, int node, const char *name)
{
	return fdt_getprop(fdt, node, name, NULL) != NULL;
}

/* of_device_is_available: status absent, "okay" or "ok". */
static bool available(const void *fdt, int node)
{
	int len;
	const char *s = fdt_getprop(fdt, node, "status", &len);

	return !s || (len > 0 && (strcmp(s, "okay") == 0 || strcmp(s, "ok") == 0));
}

/* --- parse_constraints ---------------------------------------------------------- */

/* parse_constraint_field: masks reset, condition kept (0 in the zeroed
 * global when absent), the node added to the generic list. */
static void parse_field(const void *fdt, int node, struct rfc_field *f, struct rfc_pmu *p)
{
	uint32_t v[2] = { 0, 0 };

	if (node < 0)
		return;
	f->event_mask = 0;
	f->event_shift = 0;
	f->constraint_mask = 0;
	f->constraint_shift = 0;
	if (!read_u32(fdt, node, "event-mask", &v[0]))
		f->event_mask = v[0];
	read_u32(fdt, node, "event-shift", &f->event_shift);
	if (!read_u32s(fdt, node, "constraint-mask", v, 2))
		f->constraint_mask = (uint64_t)v[0] << 32 | v[1];
	else if (!read_u32(fdt, node, "constraint-mask", &v[0]))
		f->constraint_mask = v[0];
	read_u32(fdt, node, "constraint-shift", &f->constraint_shift);
	read_u32(fdt, node, "condition", &f->condition);
	if (p->nmaps < RFC_MAX_MAPS) {
		snprintf(p->map_name[p->nmaps], sizeof(p->map_name[0]), "%s",
			 fdt_get_name(fdt, node, NULL));
		p->maps[p->nmaps++] = *f;
	}
}

static void parse_pmc_constraints(const void *fdt, int cons, struct rfc_pmu *p)
{
	int node = child_by_name(fdt, cons, "pmc-constraints"), sub, i = 0;

	if (node < 0)
		return;
	read_u32(fdt, node, "max-counter", &p->max_counter);
	fdt_for_each_subnode(sub, fdt, node) {
		if (i >= RFC_MAX_RESTRICTED)
			break;
		read_u32(fdt, sub, "pmc", &p->restricted[i].pmc);
		read_u64(fdt, sub, "valid-events", &p->restricted[i].event);
		i++;
	}
	p->restricted[0].event = 0x500fa;
	p->restricted[1].event = 0x600f4;
	p->num_restricted = i;
}

/* Not the RFC (which does not read this node): the [ext] alternatives
 * table, for kernel_alternatives.  Each alt-N's codes are 2-cell values. */
static void parse_ext_alternatives(const void *fdt, int node, struct rfc_pmu *p)
{
	int sub;

	if (node < 0)
		return;
	fdt_for_each_subnode(sub, fdt, node) {
		int len;
		const fdt32_t *v = fdt_getprop(fdt, sub, "codes", &len);

		if (!v || len < 16 || read_bool(fdt, sub, "per-task-only") ||
		    p->nalt_rows >= RFC_MAX_ALT_ROWS)
			continue;
		for (int j = 0; j < len / 8 && j < RFC_MAX_ALT; j++)
			p->alt_rows[p->nalt_rows][j] =
				(uint64_t)fdt32_ld(&v[2 * j]) << 32 | fdt32_ld(&v[2 * j + 1]);
		p->nalt_rows++;
	}
}

static void parse_constraints(const void *fdt, int pmu, struct rfc_pmu *p)
{
	int cons = child_by_name(fdt, pmu, "constraints"), node;

	if (cons < 0)
		return;
	parse_pmc_constraints(fdt, cons, p);
	parse_field(fdt, child_by_name(fdt, cons, "sample"), &p->sample, p);
	node = child_by_name(fdt, cons, "threshold");
	if (node >= 0) {
		parse_field(fdt, child_by_name(fdt, node, "thresh-sel"), &p->thresh_sel, p);
		parse_field(fdt, child_by_name(fdt, node, "thresh-cmp"), &p->thresh_cmp, p);
		parse_field(fdt, child_by_name(fdt, node, "thresh-ctl"), &p->thresh_ctl, p);
	}
	node = child_by_name(fdt, cons, "cache");
	if (node >= 0) {
		read_u32(fdt, node, "cache-selector-mask", &p->cache_selector_mask);
		p->require_cache_selector_zero = read_bool(fdt, node, "require-cache-selector-zero");
		parse_field(fdt, child_by_name(fdt, node, "cache-group"), &p->cache_group, p);
		parse_field(fdt, child_by_name(fdt, node, "cache-pmc4"), &p->cache_pmc4, p);
		parse_field(fdt, child_by_name(fdt, node, "l2l3-group"), &p->l2l3_group, p);
	}
	node = child_by_name(fdt, cons, "ebb");
	if (node >= 0) {
		parse_field(fdt, node, &p->ebb, p);
		p->require_pmc_for_ebb = read_bool(fdt, node, "require-pmc");
	}
	node = child_by_name(fdt, cons, "bhrb");
	if (node >= 0) {
		parse_field(fdt, node, &p->bhrb, p);
		p->bhrb_requires_ebb = read_bool(fdt, node, "requires-ebb");
	}
	parse_field(fdt, child_by_name(fdt, cons, "l1-qualifier"), &p->l1_qualifier, p);
	parse_field(fdt, child_by_name(fdt, cons, "fab-match"), &p->fab_match, p);
	parse_field(fdt, child_by_name(fdt, cons, "radix-scope"), &p->radix_scope, p);
	parse_ext_alternatives(fdt, child_by_name(fdt, cons, "alternatives"), p);
	node = child_by_name(fdt, cons, "nc");
	if (node >= 0) {
		read_u64(fdt, node, "mask", &p->nc.mask);
		read_u32(fdt, node, "shift", &p->nc.shift);
		read_u32(fdt, node, "increment", &p->nc.increment);
	}
}

/* --- pmu_dts_probe ------------------------------------------------------------------- */

static int fail(char *err, size_t len, const char *msg)
{
	snprintf(err, len, "%s", msg);
	return -1;
}

/* The events step: available children, 1, 2 or 4 cells, at most 32. */
static void read_events(const void *fdt, int events, struct rfc_pmu *p)
{
	int sub;

	fdt_for_each_subnode(sub, fdt, events) {
		int len;
		const fdt32_t *v;

		if (!available(fdt, sub))
			continue;
		v = fdt_getprop(fdt, sub, "event_code", &len);
		if (!v || len % 4 || (len != 4 && len != 8 && len != 16))
			continue; /* "invalid event_code" */
		uint64_t code = len == 4 ? fdt32_ld(&v[0]) :
				len == 8 ? (uint64_t)fdt32_ld(&v[0]) << 32 | fdt32_ld(&v[1]) :
					   (uint64_t)fdt32_ld(&v[1]) << 32 | fdt32_ld(&v[3]);
		snprintf(p->events[p->nevents].name, RFC_NAME_LEN, "%s",
			 fdt_get_name(fdt, sub, NULL));
		p->events[p->nevents++].code = code;
		if (p->nevents >= RFC_MAX_EVENTS)
			break;
	}
}

/* The evt_code_format step: a child without 2-cell bits or without mmcr is
 * skipped; PMCx and MMCRA (mmcr 4) fields take target_fields[0] only; at
 * most MAX_FIELDS. */
static void read_fields(const void *fdt, int fmt, struct rfc_pmu *p)
{
	int sub;

	fdt_for_each_subnode(sub, fdt, fmt) {
		struct rfc_fmap *f = &p->fields[p->nfields];
		uint32_t bits[2], pgm[2];

		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%s", fdt_get_name(fdt, sub, NULL));
		f->is_pmc = strcmp(f->name, "PMCx") == 0;
		if (read_u32s(fdt, sub, "bits", bits, 2) || read_u32(fdt, sub, "mmcr", &f->mmcr))
			continue;
		f->bits_start = bits[0];
		f->bits_end = bits[1];
		if (!f->is_pmc && f->mmcr != 4 &&
		    !read_u32(fdt, sub, "target_field_base", &f->target_field_base)) {
			read_u32(fdt, sub, "target_field_shift", &f->target_field_shift);
			f->use_target_field_shift = true;
		} else {
			f->pgm_start = read_u32s(fdt, sub, "target_fields", pgm, 2) ? 0 : pgm[0];
		}
		if (++p->nfields >= RFC_MAX_FIELDS)
			break;
	}
}

static bool has_mmcr_sprn(const void *fdt, int mmcr)
{
	int sub;
	uint32_t v;

	fdt_for_each_subnode(sub, fdt, mmcr)
		if (!read_u32(fdt, sub, "sprn", &v))
			return true;
	return false;
}

int rfc_probe(const void *fdt, bool arch31, struct rfc_pmu *p, char *err, size_t errlen)
{
	int np = fdt_node_offset_by_compatible(fdt, -1, "ibm,power-pmu"), sub, sprs, mmcr;

	memset(p, 0, sizeof(*p));
	p->arch31 = arch31;
	if (np < 0)
		return fail(err, errlen, "no node with compatible ibm,power-pmu");
	if (!fdt_getprop(fdt, np, "nr_pmc", NULL)) {
		fdt_for_each_subnode(sub, fdt, np) {
			if (fdt_getprop(fdt, sub, "nr_pmc", NULL)) {
				np = sub;
				break;
			}
		}
	}
	parse_constraints(fdt, np, p);
	if (read_u32(fdt, np, "nr_pmc", &p->nr_pmc))
		return fail(err, errlen, "nr_pmc not found");
	sprs = child_by_name(fdt, np, "sprs");
	mmcr = child_by_name(fdt, sprs, "mmcr");
	if (sprs < 0 || mmcr < 0)
		return fail(err, errlen, "no sprs or sprs/mmcr node");
	if (!has_mmcr_sprn(fdt, mmcr))
		return fail(err, errlen, "no MMCR SPRs found");
	sub = child_by_name(fdt, np, "evt_code_format");
	if (sub < 0)
		return fail(err, errlen, "no evt_code_format node");
	read_fields(fdt, sub, p);
	sub = child_by_name(fdt, np, "events");
	if (sub < 0)
		return fail(err, errlen, "no events node");
	read_events(fdt, sub, p);
	return 0;
}

/* --- isa207_get_constraint_dts ----------------------------------------------------- */

#define EV_PMC(e) (((e) >> 16) & 0xf)
#define EV_UNIT(e) (((e) >> 12) & 0xf)
#define EV_CACHE(e) (((e) >> 20) & 0xf)    /* EVENT_CACHE_SEL_MASK */
#define EV_EBB(e) (((e) >> 63) & 1)
#define EV_WANTS_BHRB(e) (((e) >> 62) & 1)
#define EV_LINUX_MASK 0xf000000000000000ull /* EBB, BHRB, IFM */
#define CNST_PMC_VAL(pmc) (1ull << (((pmc) - 1) * 2))
#define CNST_PMC_MASK(pmc) (2ull << (((pmc) - 1) * 2))
/* cpu_dts's group_constraint_mask/val, power9-pmu.c's too */
#define GRP_MASK (1ull << 54)             /* CNST_CACHE_PMC4_MASK */
#define GRP_VAL (1ull << 54)              /* CNST_CACHE_PMC4_VAL */

/* apply_constraint (a shift of 64 or more, undefined in C, taken as 0). */
static void apply(uint64_t event, const struct rfc_field *f, uint64_t *mask, uint64_t *value)
{
	uint64_t x = f->event_shift < 64 ? (event >> f->event_shift) & f->event_mask : 0;

	*mask |= f->constraint_mask;
	*value |= f->constraint_shift < 64 ? x << f->constraint_shift : 0;
}

/* constraint_enabled */
static bool enabled(const struct rfc_pmu *p, const struct rfc_field *f, uint64_t event)
{
	switch (f->condition) {
	case 0: return true;
	case 1: return (event >> 8) & 1;              /* is_event_marked */
	case 2: return (event >> 29) & 7;             /* event_is_threshold */
	case 3: return (event >> 22) & 1;             /* EVENT_IS_L1 */
	case 4: return EV_WANTS_BHRB(event);
	case 6: return p->arch31;
	default: return false;
	}
}

/* For kernel_scope: does isa207_get_constraint apply this node's rule to an
 * event on this counter and unit? */
static bool kernel_applies(const char *node, unsigned pmc, unsigned unit)
{
	if (strcmp(node, "ebb") == 0 || strcmp(node, "bhrb") == 0)
		return true;
	if (pmc >= 5)
		return false;
	return strcmp(node, "l1-qualifier") != 0 || unit < 6 || unit > 9;
}

static bool restricted_ok(const struct rfc_pmu *p, unsigned pmc, uint64_t base)
{
	for (int i = 0; i < p->num_restricted; i++)
		if (p->restricted[i].pmc == pmc && p->restricted[i].event == base)
			return true;
	return false;
}

int rfc_get_constraint(const struct rfc_pmu *p, uint64_t event, uint64_t *maskp,
		       uint64_t *valp)
{
	unsigned pmc = EV_PMC(event), unit = EV_UNIT(event);
	uint64_t mask = 0, value = 0;

	if (pmc > p->max_counter)
		return -1;
	if (pmc >= 5 && !restricted_ok(p, pmc, event & ~EV_LINUX_MASK))
		return -1;
	if (p->require_cache_selector_zero && (EV_CACHE(event) & p->cache_selector_mask))
		return -1;
	if (p->require_pmc_for_ebb && !pmc && EV_EBB(event))
		return -1;
	if (EV_WANTS_BHRB(event) && p->bhrb_requires_ebb && !EV_EBB(event))
		return -1;
	if (pmc) {
		mask |= CNST_PMC_MASK(pmc);
		value |= CNST_PMC_VAL(pmc);
	}
	if (pmc <= 4) {
		mask |= p->nc.mask;
		value |= p->nc.shift < 64 ? (uint64_t)p->nc.increment << p->nc.shift : 0;
		if (unit >= 6 && unit <= 9) {
			if (p->arch31) {
				apply(event, &p->l2l3_group, &mask, &value);
			} else if (p->kernel_pmc4) {
				apply(event, &p->cache_group, &mask, &value);
				mask |= GRP_MASK;
				value |= pmc == 4 ? GRP_VAL : 0;
			} else {
				apply(event, &p->cache_group, &mask, &value);
				if (pmc == 4)
					mask |= p->cache_pmc4.constraint_mask;
			}
		}
	}
	for (int i = 0; i < p->nmaps; i++) {
		bool on = enabled(p, &p->maps[i], event);

		if (p->kernel_scope)
			on = on && kernel_applies(p->map_name[i], pmc, unit);
		if (on)
			apply(event, &p->maps[i], &mask, &value);
	}
	*maskp = mask;
	*valp = value;
	return 0;
}

/* --- alternatives and the core-book3s group flow ------------------------------------- */

#define MAX_ALT RFC_MAX_ALT

static const uint64_t rfc_alt_row[1][RFC_MAX_ALT] = { { 0x600f4, 0x1001e } };

/* find_alternative: the row holding event in a table sorted by its first
 * column, or -1. */
static int find_alternative(uint64_t event, const uint64_t (*rows)[RFC_MAX_ALT], int nrows)
{
	for (int i = 0; i < nrows; i++) {
		if (event < rows[i][0])
			break;
		for (int j = 0; j < RFC_MAX_ALT && rows[i][j]; j++)
			if (event == rows[i][j])
				return i;
	}
	return -1;
}

/* isa207_get_alternatives over dts_event_alternatives = {{0x600f4, 0x1001e}}
 * (kernel_alternatives: the tree's table), with PPMU_ONLY_COUNT_RUN's RUN
 * equivalences for per-task events. */
static int alternatives(const struct rfc_pmu *p, uint64_t event, bool per_task,
			uint64_t alt[MAX_ALT])
{
	const uint64_t (*rows)[RFC_MAX_ALT] = p->kernel_alternatives ? p->alt_rows : rfc_alt_row;
	int n = 0, i = find_alternative(event, rows, p->kernel_alternatives ? p->nalt_rows : 1);

	alt[n++] = event;
	for (int j = 0; i >= 0 && j < MAX_ALT && n < MAX_ALT; j++)
		if (rows[i][j] && rows[i][j] != event)
			alt[n++] = rows[i][j];
	if (per_task) {
		int m = n;

		for (i = 0; i < n && m < MAX_ALT; i++) {
			switch (alt[i]) {
			case 0x1e: alt[m++] = 0x600f4; break;
			case 0x600f4: alt[m++] = 0x1e; break;
			case 0x2: alt[m++] = 0x500fa; break;
			case 0x500fa: alt[m++] = 0x2; break;
			}
		}
		n = m;
	}
	return n;
}

#define ADD_FIELDS (CNST_PMC_VAL(1) | CNST_PMC_VAL(2) | CNST_PMC_VAL(3) | \
		    CNST_PMC_VAL(4) | CNST_PMC_VAL(5) | CNST_PMC_VAL(6) | (1ull << 12))
#define TEST_ADDER (3ull << 12)           /* ISA207_TEST_ADDER */

static bool fits(uint64_t value, uint64_t mask, uint64_t am, uint64_t av, uint64_t *nv)
{
	*nv = (value | av) + (value & av & ADD_FIELDS);
	return ((((*nv + TEST_ADDER) ^ value) & mask) == 0 &&
		(((*nv + TEST_ADDER) ^ av) & am) == 0);
}

/* power_check_constraints: the as-is pass (group rule outside the pairwise
 * test), then the search over alternatives; ev[] gets the choice. */
static int check_constraints(const struct rfc_pmu *p, uint64_t ev[], int n, bool per_task)
{
	uint64_t am[RFC_MAX_GROUP][MAX_ALT], av[RFC_MAX_GROUP][MAX_ALT], alt[RFC_MAX_GROUP][MAX_ALT];
	uint64_t mask = 0, value = 0, nv = 0, smask[RFC_MAX_GROUP], svalue[RFC_MAX_GROUP];
	int nalt[RFC_MAX_GROUP], choice[RFC_MAX_GROUP], i, j;
	bool alt_ok[RFC_MAX_GROUP][MAX_ALT];

	if (n > RFC_N_COUNTER)
		return -1;
	for (i = 0; i < n; i++)
		if (rfc_get_constraint(p, ev[i], &am[i][0], &av[i][0]))
			return -1;
	for (i = 0; i < n; i++) {
		nv = (value | av[i][0]) + (value & av[i][0] & ADD_FIELDS);
		if (((((nv + TEST_ADDER) ^ value) & mask) & ~GRP_MASK) ||
		    ((((nv + TEST_ADDER) ^ av[i][0]) & am[i][0]) & ~GRP_MASK))
			break;
		value = nv;
		mask |= am[i][0];
	}
	if (i == n)
		return (value & mask & GRP_MASK) != (mask & GRP_VAL) ? -1 : 0;
	for (i = 0; i < n; i++) {
		choice[i] = 0;
		nalt[i] = alternatives(p, ev[i], per_task, alt[i]);
		alt_ok[i][0] = true;
		/* the kernel ignores get_constraint's result here; an
		 * alternative it refuses is left out instead of using stale words */
		for (j = 1; j < nalt[i]; j++)
			alt_ok[i][j] = !rfc_get_constraint(p, alt[i][j], &am[i][j], &av[i][j]);
	}
	i = 0;
	j = -1;
	value = mask = 0;
	while (i < n) {
		if (j >= 0) {
			value = svalue[i];
			mask = smask[i];
			j = choice[i];
		}
		while (++j < nalt[i])
			if (alt_ok[i][j] && fits(value, mask, am[i][j], av[i][j], &nv))
				break;
		if (j >= nalt[i]) {
			if (--i < 0)
				return -1;
		} else {
			choice[i] = j;
			svalue[i] = value;
			smask[i] = mask;
			value = nv;
			mask |= am[i][j];
			++i;
			j = -1;
		}
	}
	for (i = 0; i < n; i++)
		ev[i] = alt[i][choice[i]];
	return 0;
}

/* power_pmu_event_init for each member in turn: ebb_event_check (leader and
 * member agree on EBB), collect_events (at most n_counter events), then
 * power_check_constraints on the members so far, each earlier member at the
 * code its own open chose (hw.config).  config1 is passed to the RFC's
 * get_constraint, which does not read it. */
bool rfc_group_ok(const struct rfc_pmu *p, const struct rfc_event *ev, int n, bool per_task)
{
	uint64_t final[RFC_MAX_GROUP];

	return rfc_group_final(p, ev, n, per_task, final);
}

bool rfc_group_final(const struct rfc_pmu *p, const struct rfc_event *ev, int n,
		     bool per_task, uint64_t *chosen)
{
	uint64_t work[RFC_MAX_GROUP];

	if (n < 1 || n > RFC_MAX_GROUP)
		return false;
	for (int k = 0; k < n; k++) {
		if (p->refuses && p->refuses(p->refuses_ctx, ev[k].config, ev[k].config1))
			return false;
		if (EV_EBB(ev[0].config) != EV_EBB(ev[k].config))
			return false;
		if (k + 1 > RFC_N_COUNTER)
			return false;
		for (int i = 0; i < k; i++)
			work[i] = chosen[i];
		work[k] = ev[k].config;
		if (check_constraints(p, work, k + 1, per_task))
			return false;
		chosen[k] = work[k];
	}
	/* the first schedule (power_pmu_enable's check on each member's
	 * hw.config) picks the codes compute_mmcr gets */
	for (int i = 0; i < n; i++)
		work[i] = chosen[i];
	if (check_constraints(p, work, n, per_task) == 0)
		for (int i = 0; i < n; i++)
			chosen[i] = work[i];
	return true;
}

/* --- dts_compute_mmcr ---------------------------------------------------------------- */

#define MMCR0_PMC1CE 0x8000ull
#define MMCR0_PMCJCE 0x4000ull
#define MMCR0_FC56 0x10ull
#define MMCR0_PMCCEXT 0x200ull
#define MMCR0_C56RUN 0x100ull

/* extract_bits; a field of 64 bits or a shift of 64 or more (undefined in
 * C) taken as POWER's sld does: nothing shifted in. */
static uint64_t field_bits(uint64_t v, uint32_t start, uint32_t end)
{
	uint32_t w = end - start + 1;

	if (start > 63 || end < start)
		return 0;
	return w >= 64 ? v >> start : (v >> start) & ((1ull << w) - 1);
}

void rfc_compute_mmcr(const struct rfc_pmu *p, const uint64_t *ev, int n, struct rfc_mmcr *r)
{
	uint64_t val[5] = { 0 };
	uint32_t inuse = 0, pmc = 0;

	memset(r, 0, sizeof(*r));
	for (int e = 0; e < n; e++) {
		pmc = EV_PMC(ev[e]);
		r->pmc[e] = (int)pmc;
		if (pmc)
			inuse |= 1u << pmc;
	}
	if (n && !pmc) { /* the last event's pmc: only pmc_inuse learns of it */
		for (pmc = 1; pmc <= 4 && (inuse & (1u << pmc)); pmc++)
			;
		inuse |= 1u << pmc;
	}
	for (int e = 0; e < n; e++) {
		pmc = (uint32_t)r->pmc[e];
		if (pmc == 5 || pmc == 6)
			continue;
		for (int i = 0; i < p->nfields; i++) {
			const struct rfc_fmap *f = &p->fields[i];
			uint64_t v = field_bits(ev[e], f->bits_start, f->bits_end), shift;

			if (f->is_pmc || f->mmcr > 4)
				continue;
			shift = f->use_target_field_shift ?
					(uint64_t)f->target_field_base - (uint64_t)pmc * f->target_field_shift :
					f->pgm_start;
			val[f->mmcr] |= shift < 64 ? v << shift : 0;
		}
	}
	r->mmcr0 = (inuse & 2 ? MMCR0_PMC1CE : 0) | (inuse & 0x7c ? MMCR0_PMCJCE : 0) |
		   (inuse & 0x60 ? 0 : MMCR0_FC56) | (p->arch31 ? MMCR0_PMCCEXT : 0) | MMCR0_C56RUN;
	r->mmcr1 = val[1];
	r->mmcr2 = val[2];
	r->mmcr3 = val[3];
	r->mmcra = val[4];
}
