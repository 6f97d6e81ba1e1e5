/*
 * qg_gen.c - the QEMU group test's generator: groups of events for a real
 * POWER kernel to open, made deterministically from a seed out of a PMU
 * description loaded through libpmurt.
 *
 *   qg_gen --pmu NAME [--pvr HEX] --seed N --count N --mmcr N [--kinds legacy|all] > GROUPS
 *
 * Every event code of the description appears (named events are taken in a
 * shuffled cycle), and the groups mix every kind of code the description
 * knows: its alternatives, L2/L3 units, threshold events with their compare
 * value (config1 where the description puts it there), marked events with
 * the sample field, sampling events, EBB groups opened as perf must (leader
 * pinned and exclusive), exclude bits, perf's generic and cache events, the
 * fixed PMC5/6 codes, refused codes, and codes composed field by field at
 * random; groups have 1 to 8 members, so some fit and some do not.
 * --kinds all adds four kinds (the default keeps the twelve, so the groups
 * of a seed stay those measured before): cache selectors (unit 6-9 events
 * with their L2/L3 select, the L3 bank bit or neither; L1 events with their
 * qualifiers), the description's code classes (POWER8's fab-match events
 * with a match value, beside threshold events), threshold bits without a
 * threshold select, and values some generation refuses or reserves (the
 * other built-in descriptions' refused codes and reserved sampling values,
 * bits no field of this one covers, unnormalised threshold compares).
 * --mmcr marks that many accepted groups (as libpmurt answers) for the
 * debugger's MMCR read, taken evenly from every kind.  After them come the
 * groups pmurt_pack makes for every core metric of the description (kind
 * "metric-pack", each one's MMCRs read too), so that the real kernel
 * accepts what `pmutool stat -M` would open.  A summary of what was made
 * goes to stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "qg_expect.h"
#include "qg_groups.h"

#define PERF_TYPE_HARDWARE 0u
#define PERF_TYPE_HW_CACHE 3u
#define PERF_TYPE_RAW 4u

enum kind { K_NAMED, K_ALT, K_RAW, K_L2L3, K_THRESH, K_MARKED, K_SAMPLING, K_EBB,
	    K_EXCLUDE, K_GENERIC, K_PMC56, K_REFUSED, K_LEGACY,
	    K_CACHE_SEL = K_LEGACY, K_CODE_CLASS, K_THRESH_BITS, K_RESERVED, K_COUNT };
static const char *const kind_names[K_COUNT] = {
	"named", "alternative", "raw-fields", "l2l3", "threshold", "marked", "sampling",
	"ebb", "exclude", "generic-cache", "pmc56", "refused-code", "cache-sel",
	"code-class", "thresh-bits", "reserved"};

struct codes {
	int n;
	uint64_t *v;
};

struct gen {
	const struct pmurt_pmu *pmu;
	const struct pmu_model *m;
	uint64_t rng;
	int nkinds;             /* K_LEGACY, or K_COUNT with --kinds all */
	struct codes events, explicit_pmc, l2l3, alts, refused;
	struct codes foreign_refused, foreign_samples; /* other generations' */
	int next_event;
	int f_pmc, f_unit, f_ebb, f_bhrb, f_ifm, f_mark, f_sample, f_sdar, f_thresh_sel,
		f_thresh_ctl, f_thresh_cmp, f_l2l3, f_pmcxsel, f_cache_sel, f_thresh_exp;
};

static uint64_t rnd(struct gen *g) /* splitmix64 */
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t below(struct gen *g, uint64_t n)
{
	return n ? rnd(g) % n : 0;
}

static int chance(struct gen *g, int one_in)
{
	return below(g, (uint64_t)one_in) == 0;
}

static void add_code(struct codes *c, uint64_t code)
{
	for (int i = 0; i < c->n; i++)
		if (c->v[i] == code)
			return;
	uint64_t *v = realloc(c->v, sizeof(*v) * (size_t)(c->n + 1));
	if (!v) {
		fprintf(stderr, "qg_gen: out of memory\n");
		exit(2);
	}
	c->v = v;
	c->v[c->n++] = code;
}

static int field_index(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nfields; i++)
		if (!strcmp(m->fields[i].name, name))
			return i;
	return -1;
}

static uint64_t field_max(const struct pmu_field *f)
{
	unsigned w = f->hi - f->lo + 1;
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static uint64_t field_get(const struct gen *g, int fi, const struct qg_member *mb)
{
	if (fi < 0)
		return 0;
	const struct pmu_field *f = &g->m->fields[fi];
	uint64_t word = f->source == PMU_SRC_CONFIG1 ? mb->config1 : mb->config;
	return (word >> f->lo) & field_max(f);
}

/* Set field fi (absent: nothing) of a raw member to v (cut to its width). */
static void field_set(const struct gen *g, int fi, struct qg_member *mb, uint64_t v)
{
	if (fi < 0)
		return;
	const struct pmu_field *f = &g->m->fields[fi];
	uint64_t mask = field_max(f) << f->lo;
	uint64_t *word = f->source == PMU_SRC_CONFIG1 ? &mb->config1 : &mb->config;
	*word = (*word & ~mask) | ((v << f->lo) & mask);
}

static void field_random(struct gen *g, int fi, struct qg_member *mb)
{
	if (fi >= 0)
		field_set(g, fi, mb, rnd(g) & field_max(&g->m->fields[fi]));
}

static void shuffle(struct gen *g, struct codes *c)
{
	for (int i = c->n - 1; i > 0; i--) {
		int j = (int)below(g, (uint64_t)i + 1);
		uint64_t t = c->v[i];
		c->v[i] = c->v[j];
		c->v[j] = t;
	}
}

/* The pools of codes the description gives. */
static void collect_pools(struct gen *g)
{
	const struct pmu_model *m = g->m;
	for (int i = 0; i < m->nevents; i++) {
		struct qg_member mb = {.config = m->events[i].code};
		add_code(&g->events, mb.config);
		if (field_get(g, g->f_pmc, &mb))
			add_code(&g->explicit_pmc, mb.config);
		uint64_t unit = field_get(g, g->f_unit, &mb);
		if (unit >= 6 && unit <= 9)
			add_code(&g->l2l3, mb.config);
	}
	for (int i = 0; i < m->nalternatives; i++)
		for (int k = 0; k < m->alternatives[i].ncodes; k++)
			add_code(&g->alts, m->alternatives[i].codes[k]);
	for (int i = 0; i < m->nchecks; i++)
		if (m->checks[i].kind == PMU_CHECK_REFUSED_CODE)
			for (int k = 0; k < m->checks[i].ncodes; k++)
				add_code(&g->refused, m->checks[i].codes[k]);
	shuffle(g, &g->events);
}

static uint64_t pick(struct gen *g, const struct codes *c)
{
	return c->n ? c->v[below(g, (uint64_t)c->n)] : g->events.v[below(g, (uint64_t)g->events.n)];
}

static struct qg_member raw(uint64_t code)
{
	return (struct qg_member){.type = PERF_TYPE_RAW, .config = code};
}

/* The next event of the description, in a shuffled cycle over all. */
static struct qg_member named(struct gen *g)
{
	uint64_t code = g->events.v[g->next_event];
	g->next_event = (g->next_event + 1) % g->events.n;
	return raw(code);
}

/* A code composed at random field by field: most fields zero, each top-level
 * field set with a chance, the Linux-defined ones (EBB, BHRB, IFM) rarely. */
static struct qg_member composed(struct gen *g)
{
	struct qg_member mb = raw(0);
	for (int i = 0; i < g->m->nfields; i++) {
		const struct pmu_field *f = &g->m->fields[i];
		if (f->parent >= 0)
			continue;
		if (chance(g, f->linux_defined ? 25 : 3))
			field_random(g, i, &mb);
	}
	if (chance(g, 2))
		field_set(g, g->f_pmc, &mb, below(g, 7));
	if (chance(g, 2))
		field_random(g, g->f_pmcxsel, &mb);
	return mb;
}

static struct qg_member l2l3_member(struct gen *g)
{
	if (g->l2l3.n && chance(g, 2))
		return raw(pick(g, &g->l2l3));
	struct qg_member mb = raw(0);
	field_set(g, g->f_unit, &mb, 6 + below(g, 4));
	field_set(g, g->f_pmc, &mb, below(g, 5));
	field_random(g, g->f_pmcxsel, &mb);
	field_random(g, g->f_l2l3, &mb);
	return mb;
}

/* A threshold compare value of any magnitude, beyond its field too. */
static uint64_t thresh_value(struct gen *g)
{
	static const unsigned bits[] = {0, 4, 8, 10, 12, 18, 20, 32};
	unsigned b = bits[below(g, sizeof(bits) / sizeof(bits[0]))];
	return b ? rnd(g) & ((1ull << b) - 1) : 0;
}

static struct qg_member thresh_member(struct gen *g)
{
	struct qg_member mb = chance(g, 2) ? named(g) : composed(g);
	field_set(g, g->f_thresh_sel, &mb, 1 + below(g, 7));
	field_random(g, g->f_thresh_ctl, &mb);
	if (g->f_thresh_cmp >= 0) {
		const struct pmu_field *f = &g->m->fields[g->f_thresh_cmp];
		uint64_t v = thresh_value(g);
		if (f->source == PMU_SRC_CONFIG1)
			mb.config1 = v; /* beyond the field too: the kernel reads it all */
		else
			field_set(g, g->f_thresh_cmp, &mb, v);
	}
	return mb;
}

static struct qg_member marked_member(struct gen *g)
{
	struct qg_member mb = chance(g, 2) ? named(g) : composed(g);
	field_set(g, g->f_mark, &mb, 1);
	field_random(g, g->f_sample, &mb);
	if (chance(g, 2))
		field_random(g, g->f_sdar, &mb);
	return mb;
}

/* An EBB member: an explicit PMC (PMC5/6 with their codes), the EBB bit,
 * sometimes BHRB and IFM; now and then one without a PMC or without EBB,
 * which the kernel refuses. */
static struct qg_member ebb_member(struct gen *g)
{
	struct qg_member mb;
	unsigned r = (unsigned)below(g, 10);
	if (r < 6)
		mb = raw(pick(g, &g->explicit_pmc));
	else if (r < 8)
		mb = raw(chance(g, 2) ? 0x500fa : 0x600f4);
	else
		mb = composed(g);
	field_set(g, g->f_ebb, &mb, chance(g, 12) ? 0 : 1);
	if (chance(g, 15))
		field_set(g, g->f_pmc, &mb, 0);
	if (chance(g, 5)) {
		field_set(g, g->f_bhrb, &mb, 1);
		field_random(g, g->f_ifm, &mb);
	}
	return mb;
}

static struct qg_member generic_member(struct gen *g)
{
	unsigned r = (unsigned)below(g, 3);
	if (r == 0)
		return (struct qg_member){.type = PERF_TYPE_HARDWARE, .config = below(g, 11)};
	if (r == 1) {
		uint64_t cache = below(g, 8), op = below(g, 3), result = below(g, 2);
		return (struct qg_member){.type = PERF_TYPE_HW_CACHE,
					  .config = cache | op << 8 | result << 16};
	}
	return named(g);
}

static struct qg_member pmc56_member(struct gen *g)
{
	static const uint64_t codes[] = {0x500fa, 0x600f4, 0x500f4, 0x600fa, 0x5002e};
	if (chance(g, 3))
		return named(g);
	struct qg_member mb = raw(codes[below(g, sizeof(codes) / sizeof(codes[0]))]);
	if (chance(g, 6))
		field_random(g, g->f_sdar, &mb);
	return mb;
}

/* An L2/L3 event (unit 6-9) with its cache selector 0, the bank bit alone
 * (bit 3 of the field) or anything; or an event of another unit with the
 * L1 bit (bit 2) and its qualifiers, or anything. */
static struct qg_member cache_sel_member(struct gen *g)
{
	struct qg_member mb = chance(g, 2) ? l2l3_member(g) : named(g);
	uint64_t unit = field_get(g, g->f_unit, &mb);
	unsigned r = (unsigned)below(g, 4);
	if (unit >= 6 && unit <= 9)
		field_set(g, g->f_cache_sel, &mb, r < 2 ? 0 : r == 2 ? 8 : rnd(g));
	else
		field_set(g, g->f_cache_sel, &mb, r < 2 ? 4 | below(g, 4) : r == 2 ? 0 : rnd(g));
	return mb;
}

/* A code of one of the description's code classes: the class's code with
 * random bits outside its mask that a field covers, a random threshold
 * control (POWER8's fab-match value); or a threshold event beside it. */
static struct qg_member code_class_member(struct gen *g)
{
	const struct pmu_model *m = g->m;
	if (!m->ncode_classes || chance(g, 3))
		return chance(g, 2) ? thresh_member(g) : named(g);
	const struct pmu_code_class *k = &m->code_classes[below(g, (uint64_t)m->ncode_classes)];
	struct qg_member mb = raw(k->codes[below(g, (uint64_t)k->ncodes)]);
	uint64_t covered = 0;
	for (int i = 0; i < m->nfields; i++)
		if (m->fields[i].source == PMU_SRC_CONFIG && !m->fields[i].linux_defined)
			covered |= field_max(&m->fields[i]) << m->fields[i].lo;
	uint64_t free_bits = covered & ~k->mask & 0xfffull; /* edge, mark, combine */
	mb.config |= rnd(g) & free_bits;
	field_random(g, g->f_thresh_ctl, &mb);
	if (chance(g, 4))
		field_random(g, g->f_thresh_cmp, &mb);
	return mb;
}

/* Threshold control and compare bits without a threshold select: POWER8
 * makes every PMC1-4 event agree on them, POWER9 and POWER10 do not look. */
static struct qg_member thresh_bits_member(struct gen *g)
{
	struct qg_member mb = named(g);
	if (chance(g, 3))
		return mb;
	field_set(g, g->f_thresh_sel, &mb, 0);
	if (chance(g, 2))
		field_random(g, g->f_thresh_ctl, &mb);
	if (chance(g, 2) && g->f_thresh_cmp >= 0 &&
	    g->m->fields[g->f_thresh_cmp].source == PMU_SRC_CONFIG)
		field_random(g, g->f_thresh_cmp, &mb);
	return mb;
}

/* What some generation refuses: another description's refused codes, a
 * sampling value another reserves on a marked event, bits no field of this
 * description covers, a threshold compare with an exponent and no
 * normalised mantissa. */
static struct qg_member reserved_member(struct gen *g)
{
	unsigned r = (unsigned)below(g, 5);
	if (r == 0 && g->foreign_refused.n)
		return raw(pick(g, &g->foreign_refused));
	struct qg_member mb = named(g);
	if (r == 1 && g->foreign_samples.n) {
		field_set(g, g->f_mark, &mb, 1);
		field_set(g, g->f_sample, &mb, pick(g, &g->foreign_samples));
	} else if (r == 2) {
		uint64_t covered = 0;
		for (int i = 0; i < g->m->nfields; i++)
			if (g->m->fields[i].source == PMU_SRC_CONFIG)
				covered |= field_max(&g->m->fields[i]) << g->m->fields[i].lo;
		uint64_t spare = ~covered;
		for (uint64_t n = below(g, (uint64_t)__builtin_popcountll(spare)); spare && n; n--)
			spare &= spare - 1; /* drop the lowest until the chosen one is */
		if (spare)
			mb.config |= spare & -spare;
	} else if (r == 3 && g->f_thresh_exp >= 0) {
		field_set(g, g->f_thresh_cmp, &mb, rnd(g) & 0x1f);
		field_set(g, g->f_thresh_exp, &mb, 1 + below(g, 7));
		if (chance(g, 2))
			field_set(g, g->f_thresh_sel, &mb, 1 + below(g, 7));
	}
	return mb;
}

static struct qg_member member_of(struct gen *g, enum kind k)
{
	switch (k) {
	case K_ALT: return chance(g, 3) ? named(g) : raw(pick(g, &g->alts));
	case K_RAW: return composed(g);
	case K_L2L3: return chance(g, 4) ? named(g) : l2l3_member(g);
	case K_THRESH: return chance(g, 4) ? named(g) : thresh_member(g);
	case K_MARKED: return chance(g, 3) ? named(g) : marked_member(g);
	case K_EBB: return ebb_member(g);
	case K_GENERIC: return generic_member(g);
	case K_PMC56: return pmc56_member(g);
	case K_REFUSED: return chance(g, 2) ? named(g) : raw(pick(g, &g->refused));
	case K_CACHE_SEL: return cache_sel_member(g);
	case K_CODE_CLASS: return code_class_member(g);
	case K_THRESH_BITS: return thresh_bits_member(g);
	case K_RESERVED: return chance(g, 3) ? named(g) : reserved_member(g);
	default: return named(g);
	}
}

static unsigned random_exclude(struct gen *g)
{
	static const unsigned bits[] = {QG_EXCLUDE_USER, QG_EXCLUDE_KERNEL, QG_EXCLUDE_HV,
					QG_EXCLUDE_IDLE};
	unsigned x = 0;
	for (int i = 0; i < 4; i++)
		if (chance(g, 2))
			x |= bits[i];
	return x;
}

static void make_group(struct gen *g, long id, struct qg_group *grp)
{
	enum kind k = (enum kind)(id % g->nkinds);
	memset(grp, 0, sizeof(*grp));
	grp->id = id;
	snprintf(grp->kind, sizeof(grp->kind), "%s", kind_names[k]);
	grp->n = 1 + (int)below(g, QG_MAX_MEMBERS);
	for (int i = 0; i < grp->n; i++) {
		struct qg_member *mb = &grp->m[i];
		*mb = member_of(g, k);
		if (k == K_EXCLUDE || chance(g, 8))
			mb->exclude = random_exclude(g);
		if (k == K_SAMPLING && (i == 0 || chance(g, 2)))
			mb->period = 1000 + below(g, 1000000);
	}
	/* An EBB group is opened as perf must open one (ebb_event_check,
	 * core-book3s.c): the leader pinned and exclusive, no sampling. */
	if (field_get(g, g->f_ebb, &grp->m[0]) && grp->m[0].type == PERF_TYPE_RAW)
		grp->m[0].flags = QG_PINNED | QG_EXCLUSIVE;
	for (int i = 0; i < grp->n; i++)
		if (grp->m[i].type == PERF_TYPE_RAW && field_get(g, g->f_ebb, &grp->m[i]))
			grp->m[i].period = 0;
}

static int open_pmu(const char *name, uint32_t pvr, struct pmurt_pmu **pmu)
{
	struct pmurt_open_opts o = PMURT_OPTS_INIT(pmurt_open_opts, .pvr = pvr);
	struct pmurt_error err;
	int rc = pmurt_pmu_open(pmu, name, &o, &err);
	if (rc)
		fprintf(stderr, "qg_gen: %s: %s\n", name, err.message);
	return rc;
}

static void init_fields(struct gen *g)
{
	const struct pmu_model *m = g->m;
	g->f_pmc = field_index(m, "pmc");
	g->f_unit = field_index(m, "unit");
	g->f_ebb = field_index(m, "ebb");
	g->f_bhrb = field_index(m, "bhrb");
	g->f_ifm = field_index(m, "ifm");
	g->f_mark = field_index(m, "mark");
	g->f_sample = field_index(m, "sample");
	g->f_sdar = field_index(m, "sdar_mode");
	g->f_thresh_sel = field_index(m, "thresh_sel");
	g->f_thresh_ctl = field_index(m, "thresh_ctl");
	g->f_thresh_cmp = field_index(m, "thresh_cmp");
	g->f_l2l3 = field_index(m, "l2l3_sel");
	g->f_pmcxsel = field_index(m, "pmcxsel");
	g->f_cache_sel = field_index(m, "cache_sel");
	g->f_thresh_exp = field_index(m, "thresh_cmp_exp");
}

/* The codes the other built-in descriptions refuse, and the sampling values
 * their reject checks refuse on the sample field ("sample is N"). */
static void collect_foreign(struct gen *g)
{
	for (int b = 0; pmurt_builtin_name(b); b++) {
		struct pmurt_pmu *other;
		if (open_pmu(pmurt_builtin_name(b), 0, &other))
			continue;
		const struct pmu_model *m = &other->model;
		if (strcmp(m->platform, g->m->platform) != 0)
			for (int i = 0; i < m->nchecks; i++) {
				const struct pmu_check *c = &m->checks[i];
				for (int k = 0; c->kind == PMU_CHECK_REFUSED_CODE && k < c->ncodes; k++)
					add_code(&g->foreign_refused, c->codes[k]);
				if (c->kind == PMU_CHECK_REJECT_WHEN && c->when.nterms == 1 &&
				    !c->when.terms[0].code_class && !c->when.terms[0].negate &&
				    !strcmp(m->fields[c->when.terms[0].field].name, "sample"))
					for (uint64_t v = c->when.terms[0].lo; v <= c->when.terms[0].hi; v++)
						add_code(&g->foreign_samples, v);
			}
		pmurt_pmu_close(other);
	}
}

struct tally {
	long made[K_COUNT], accepted[K_COUNT], mmcr[K_COUNT];
};

/* Mark up to want accepted groups for the MMCR read, evenly over the kinds:
 * each kind gets its share first, then any accepted group fills the rest. */
static void choose_mmcr(struct qg_group *groups, const bool *ok, long count, long want,
			int nkinds, struct tally *t)
{
	long share = (want + nkinds - 1) / nkinds, chosen = 0;
	for (int pass = 0; pass < 2; pass++)
		for (long i = 0; i < count && chosen < want; i++) {
			int k = (int)(groups[i].id % nkinds);
			if (!ok[i] || groups[i].mmcr || (pass == 0 && t->mmcr[k] >= share))
				continue;
			groups[i].mmcr = 1;
			t->mmcr[k]++;
			chosen++;
		}
}

static void print_tally(const struct tally *t, const char *pmu, long count, int nkinds)
{
	fprintf(stderr, "qg_gen: %s: %ld groups\n", pmu, count);
	for (int k = 0; k < nkinds; k++)
		fprintf(stderr, "  %-14s %5ld made, %5ld accepted by libpmurt, %4ld for MMCRs\n",
			kind_names[k], t->made[k], t->accepted[k], t->mmcr[k]);
}

/* The groups pmurt_pack makes for every core metric (those naming no other
 * PMU), as members; their number in *n (at most max). */
static int packed_metrics(const struct pmurt_pmu *pmu, long first_id, struct qg_group *out,
			  int max, int *n)
{
	int count = pmurt_metric_count(pmu), names_n = 0, rc = 0;
	const char **names = calloc((size_t)(count > 0 ? count : 1), sizeof(*names));
	struct pmurt_pack *pack = NULL;
	struct pmurt_error err = {0};
	*n = 0;
	for (int i = 0; names && i < count; i++) {
		struct pmurt_metric_info info = PMURT_OPTS_INIT(pmurt_metric_info);
		if (pmurt_metric_get(pmu, i, &info) == 0 && !info.pmus)
			names[names_n++] = info.name;
	}
	if (!names || (names_n && pmurt_pack(pmu, names, names_n, NULL, &pack, &err) < 0)) {
		fprintf(stderr, "qg_gen: packing the metrics: %s\n", names ? err.message : "no memory");
		free(names);
		return 2;
	}
	struct pmurt_pack_info info = PMURT_OPTS_INIT(pmurt_pack_info);
	if (pack)
		pmurt_pack_info(pack, &info);
	for (int g = 0; pack && g < info.ngroups && g < max && !rc; g++) {
		const struct pmurt_event_spec *ev;
		const struct pmurt_group_result *check;
		int nev;
		if (pmurt_pack_group(pack, g, &ev, &nev, &check) < 0 || nev > QG_MAX_MEMBERS) {
			fprintf(stderr, "qg_gen: packed group %d: %d events\n", g, nev);
			rc = 2;
			break;
		}
		struct qg_group *grp = &out[(*n)++];
		memset(grp, 0, sizeof(*grp));
		grp->id = first_id + g;
		snprintf(grp->kind, sizeof(grp->kind), "metric-pack");
		grp->mmcr = 1;
		grp->n = nev;
		for (int i = 0; i < nev; i++)
			grp->m[i] = (struct qg_member){.type = ev[i].type, .config = ev[i].config,
						       .config1 = ev[i].config1,
						       .exclude = ev[i].exclude};
	}
	fprintf(stderr, "qg_gen: %d core metrics packed into %d groups (bound %d)\n", names_n,
		*n, info.bound);
	pmurt_pack_free(pack);
	free(names);
	return rc;
}

static int generate(const char *pmu_name, uint32_t pvr, uint64_t seed, long count, long mmcr,
		    int nkinds)
{
	struct pmurt_pmu *pmu;
	if (open_pmu(pmu_name, pvr, &pmu))
		return 2;
	struct gen g = {.pmu = pmu, .m = &pmu->model, .rng = seed, .nkinds = nkinds};
	init_fields(&g);
	collect_pools(&g);
	if (nkinds > K_LEGACY)
		collect_foreign(&g);
	struct qg_group *groups = calloc((size_t)count, sizeof(*groups));
	bool *ok = calloc((size_t)count, sizeof(*ok));
	struct tally t = {0};
	int rc = groups && ok && g.events.n ? 0 : 2;
	for (long i = 0; !rc && i < count; i++) {
		struct qg_expect e;
		struct pmurt_error err;
		make_group(&g, i, &groups[i]);
		if (qg_expect_group(pmu, &groups[i], &e, &err)) {
			fprintf(stderr, "qg_gen: group %ld: %s\n", i, err.message);
			rc = 2;
		}
		ok[i] = e.ok;
		t.made[i % nkinds]++;
		t.accepted[i % nkinds] += e.ok;
	}
	struct qg_group packed[128];
	int npacked = 0;
	if (!rc)
		rc = packed_metrics(pmu, count, packed, 128, &npacked);
	if (!rc) {
		choose_mmcr(groups, ok, count, mmcr, nkinds, &t);
		for (long i = 0; i < count; i++)
			qg_write_group(stdout, &groups[i]);
		for (int i = 0; i < npacked; i++)
			qg_write_group(stdout, &packed[i]);
		print_tally(&t, pmu_name, count, nkinds);
	}
	free(groups);
	free(ok);
	free(g.events.v);
	free(g.explicit_pmc.v);
	free(g.l2l3.v);
	free(g.alts.v);
	free(g.refused.v);
	free(g.foreign_refused.v);
	free(g.foreign_samples.v);
	pmurt_pmu_close(pmu);
	return rc;
}

int main(int argc, char **argv)
{
	const char *pmu = NULL;
	unsigned long pvr = 0;
	unsigned long long seed = 1;
	long count = 5000, mmcr = 0;
	int nkinds = K_LEGACY;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--pmu"))
			pmu = argv[i + 1];
		else if (!strcmp(argv[i], "--pvr"))
			pvr = strtoul(argv[i + 1], NULL, 16);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--count"))
			count = strtol(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--mmcr"))
			mmcr = strtol(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--kinds") && !strcmp(argv[i + 1], "all"))
			nkinds = K_COUNT;
		else if (!strcmp(argv[i], "--kinds") && !strcmp(argv[i + 1], "legacy"))
			nkinds = K_LEGACY;
		else
			pmu = NULL, i = argc;
	}
	if (!pmu || count < 1) {
		fprintf(stderr, "usage: qg_gen --pmu NAME [--pvr HEX] [--seed N] [--count N] "
				"[--mmcr N] [--kinds legacy|all]\n");
		return 2;
	}
	return generate(pmu, (uint32_t)pvr, seed, count, mmcr, nkinds);
}
