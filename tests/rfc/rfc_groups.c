/*
 * rfc_groups.c - how the kernel RFC's parser would answer from pmugen's tree.
 *
 * The RFC model runs at the description's ISA level (its version,
 * "PowerISA 3.1" or later: cpu_has_feature(CPU_FTR_ARCH_31) true).
 *
 *   rfc_groups groups TREE.dtb DESCRIPTION N MIN
 *       N groups, generated deterministically (a fixed-seed
 *       xorshift64*) from the description's events, some changed in their
 *       sampling, threshold, cache, radix and EBB fields, and some made up
 *       field by field; each is answered by the RFC model reading TREE
 *       (tests/rfc/rfc_parser.c) and by libpmurt's pmurt_group_check (the
 *       kernel's answer).  Prints how many agree, and the disagreements by
 *       the kernel's reason and by which of the RFC's own gaps explains
 *       them (classify); fails below MIN or on a disagreement none explains.  MIN -1:
 *       a control tree, which must show such a disagreement.  With
 *       RFC_GROUPS_SHOW in the environment each disagreeing group is
 *       printed on standard error (CODE/CONFIG1 per member).
 *   rfc_groups vectors TREE.dtb DESCRIPTION VECTORS.json MIN
 *       the groups of a file of kernel-derived vectors
 *       (tests/data/kernel/p10_mmcr_sample.json: 500 of the issue's own
 *       6,000 groups, ids 8-5973; p9_mmcr_sample.json: 500 POWER9 DD2.2
 *       groups), each answered by the RFC model and
 *       compared with the kernel's recorded answer ("result"); libpmurt
 *       must give that answer too.  Prints and fails as "groups" does.
 *   rfc_groups events TREE.dtb DESCRIPTION
 *       the events the RFC registers from TREE: every firmware event of
 *       the description among them, no two sysfs names alike.
 *   rfc_groups show TREE.dtb DESCRIPTION CODE[/CONFIG1]...
 *       one group: the kernel's answer and registers (libpmurt), and the
 *       RFC's (its compute_mmcr_dts on the codes it chose), for
 *       schema/rfc-conformance.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pmurt.h"
#include "rfc_parser.h"

#define MAX_POOL 4096
#define MAX_REASONS 32

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static uint64_t set_bits(uint64_t code, int lo, int width, uint64_t v)
{
	uint64_t m = ((1ull << width) - 1) << lo;

	return (code & ~m) | ((v << lo) & m);
}

/* One member: mostly a listed event, some changed, some made up. */
static struct rfc_event gen_event(const uint64_t *pool, int npool)
{
	struct rfc_event e = { pool[rnd() % (uint64_t)npool], 0 };
	unsigned u = (unsigned)(rnd() % 100);

	if (u < 72)
		return e;
	if (u < 80) { /* marked, with a sampling mode */
		e.config = set_bits(e.config, 8, 1, 1);
		e.config = set_bits(e.config, 24, 5, rnd() % 32);
	} else if (u < 88) { /* threshold, compare in config1 */
		e.config = set_bits(e.config, 29, 3, 1 + rnd() % 7);
		e.config = set_bits(e.config, 32, 8, rnd() % 256);
		e.config1 = rnd() % 2 ? 0 : rnd() % 3 ? (rnd() % 256) : rnd() % (1u << 18);
	} else if (u < 94) { /* cache, L2/L3 select, radix qualifiers */
		e.config = set_bits(e.config, 20, 2, rnd() % 4);
		e.config = set_bits(e.config, 9, 1, rnd() % 2);
		if (rnd() % 2)
			e.config = set_bits(e.config, 40, 5, rnd() % 32);
	} else if (u < 97) { /* made up, field by field */
		e.config = set_bits(0, 16, 4, rnd() % 7);
		e.config = set_bits(e.config, 12, 4, rnd() % 16);
		e.config = set_bits(e.config, 0, 8, rnd() % 256);
		e.config = set_bits(e.config, 20, 2, rnd() % 4);
	} else { /* EBB, sometimes with BHRB */
		e.config = set_bits(e.config, 63, 1, 1);
		if (rnd() % 2)
			e.config = set_bits(e.config, 62, 1, 1) | set_bits(0, 60, 2, rnd() % 4);
	}
	return e;
}

/* Sizes 1-7, small ones more often (7 is one more than the counters). */
static int group_size(void)
{
	static const int weight[7] = { 20, 25, 20, 15, 10, 8, 2 };
	int u = (int)(rnd() % 100);

	for (int n = 0; n < 7; n++) {
		if (u < weight[n])
			return n + 1;
		u -= weight[n];
	}
	return 1;
}

/* Member i: three times in four, one whose counter (if it names one) the
 * group does not use yet, so that many groups fit. */
static struct rfc_event gen_member(const uint64_t *pool, int npool,
				   const struct rfc_event *ev, int i)
{
	struct rfc_event e = gen_event(pool, npool);
	bool spread = rnd() % 4 != 0;

	for (int tries = 0; spread && tries < 8; tries++) {
		uint64_t pmc = (e.config >> 16) & 0xf;
		bool used = false;

		for (int j = 0; j < i && pmc; j++)
			used = used || ((ev[j].config >> 16) & 0xf) == pmc;
		if (!used)
			break;
		e = gen_event(pool, npool);
	}
	return e;
}

/* The RFC's own gaps, each a kernel rule the model can add back
 * (rfc_parser.h): the per-event checks it lacks (named by the reason the
 * kernel's refusal reports), the scope of its generic list, its
 * hard-coded alternatives, the PMC4 group rule of ISA 3.0. */
enum gap {
	GAP_ATTR_CONFIG,
	GAP_EVENT_VALID,
	GAP_BLACKLIST,
	GAP_THRESH_CMP,
	GAP_CACHE_SEL,
	GAP_SCOPE,
	GAP_ALTERNATIVES,
	GAP_PMC4,
	NGAPS
};

static const struct {
	const char *reason; /* the per-event check's refusal, or NULL */
	const char *text;
} gap_info[NGAPS] = {
	{ "attr_config_reserved_value", "reserved codes (no check_attr_config)" },
	{ "invalid_event_bits", "bits outside the valid mask (no is_event_valid)" },
	{ "blacklisted_event", "the revision's refused codes (no blacklist_ev)" },
	{ "thresh_cmp_invalid", "threshold compares (no is_thresh_cmp_valid)" },
	{ "l2l3_cache_sel_nonzero", "L2/L3 cache selectors (ISA 2.07; require-cache-selector-zero "
	  "would refuse L1 events too)" },
	{ NULL, "rules applied by condition (PMC5/6 events, L1 qualifier on units 6-9)" },
	{ NULL, "the hard-coded alternatives table {0x600f4, 0x1001e}" },
	{ NULL, "the PMC4 rule of L2/L3 groups, not said (cache-pmc4 cannot)" },
};

struct tally {
	int agree, total, rfc_only, kernel_only, kernel_ok;
	int gap[NGAPS], several, unexplained;
	char pmu_name[64]; /* the description's, for the report */
	int nreasons;
	struct { char reason[48]; int count; } reasons[MAX_REASONS];
};

static void count_reason(struct tally *t, const char *reason)
{
	for (int i = 0; i < t->nreasons; i++) {
		if (strcmp(t->reasons[i].reason, reason) == 0) {
			t->reasons[i].count++;
			return;
		}
	}
	if (t->nreasons < MAX_REASONS) {
		snprintf(t->reasons[t->nreasons].reason, sizeof(t->reasons[0].reason), "%s", reason);
		t->reasons[t->nreasons++].count = 1;
	}
}

static int kernel_answer(const struct pmurt_pmu *pmu, const struct rfc_event *ev, int n,
			 struct pmurt_group_result *res);

/* A per-event check of the kernel's, as libpmurt answers the event opened
 * alone: refused for the gap's reason. */
struct check_ctx {
	const struct pmurt_pmu *pmu;
	const char *reason;
};

static bool check_refuses(void *ctx, uint64_t config, uint64_t config1)
{
	const struct check_ctx *c = ctx;
	struct rfc_event e = { config, config1 };
	struct pmurt_group_result res;

	return kernel_answer(c->pmu, &e, 1, &res) == 0 && !res.ok &&
	       strcmp(res.reason, c->reason) == 0;
}

/* Switch gap g's kernel rule on (or off) in the model. */
static void set_gap(struct rfc_pmu *rfc, enum gap g, bool on, struct check_ctx *ctx)
{
	switch (g) {
	case GAP_SCOPE: rfc->kernel_scope = on; break;
	case GAP_ALTERNATIVES: rfc->kernel_alternatives = on; break;
	case GAP_PMC4: rfc->kernel_pmc4 = on; break;
	default:
		rfc->refuses = on ? check_refuses : NULL;
		rfc->refuses_ctx = ctx;
		ctx->reason = gap_info[g].reason;
		break;
	}
}

static void show_gap(const char *text)
{
	if (getenv("RFC_GROUPS_SHOW"))
		fprintf(stderr, "  the RFC's gap: %s\n", text);
}

/* Which of the RFC's own gaps a disagreement comes from: the first whose
 * kernel rule, added to the model alone, turns the RFC's answer into the
 * kernel's; "several" when only the rules together do (every rule but the
 * per-event checks, with each of those in turn); anything else is
 * unexplained. */
static void classify(struct tally *t, struct rfc_pmu *rfc, const struct pmurt_pmu *pmu,
		     const struct rfc_event *ev, int n, const struct pmurt_group_result *res)
{
	struct check_ctx ctx = { pmu, NULL };
	struct rfc_pmu all = *rfc;

	for (int g = 0; g < NGAPS; g++) {
		bool with_rule;

		set_gap(rfc, (enum gap)g, true, &ctx);
		with_rule = rfc_group_ok(rfc, ev, n, true);
		set_gap(rfc, (enum gap)g, false, &ctx);
		if (with_rule == res->ok) {
			t->gap[g]++;
			show_gap(gap_info[g].text);
			return;
		}
	}
	all.kernel_scope = all.kernel_alternatives = all.kernel_pmc4 = true;
	for (int g = GAP_ATTR_CONFIG; g <= GAP_CACHE_SEL; g++) {
		set_gap(&all, (enum gap)g, true, &ctx);
		if (rfc_group_ok(&all, ev, n, true) == res->ok) {
			t->several++;
			show_gap("several");
			return;
		}
	}
	t->unexplained++;
	if (getenv("RFC_GROUPS_SHOW")) {
		fprintf(stderr, "unexplained (%s):", res->ok ? "kernel accepts" : res->reason);
		for (int i = 0; i < n; i++)
			fprintf(stderr, " 0x%llx/0x%llx", (unsigned long long)ev[i].config,
				(unsigned long long)ev[i].config1);
		fprintf(stderr, "\n");
	}
}

static int kernel_answer(const struct pmurt_pmu *pmu, const struct rfc_event *ev, int n,
			 struct pmurt_group_result *res)
{
	struct pmurt_event_spec spec[RFC_MAX_GROUP];
	struct pmurt_check_opts opts = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true,
							 .lpar = true);
	struct pmurt_error err = { 0 };

	for (int i = 0; i < n; i++) {
		spec[i] = PMURT_OPTS_INIT(pmurt_event_spec, .type = 4, .config = ev[i].config,
					  .config1 = ev[i].config1, .code = ev[i].config,
					  .event_index = -1);
		snprintf(spec[i].name, sizeof(spec[i].name), "0x%llx",
			 (unsigned long long)ev[i].config);
	}
	*res = PMURT_OPTS_INIT(pmurt_group_result);
	if (pmurt_group_check(pmu, spec, n, sizeof(spec[0]), &opts, res, &err)) {
		fprintf(stderr, "pmurt_group_check: %s\n", err.message);
		return -1;
	}
	return 0;
}

/* cpu_has_feature(CPU_FTR_ARCH_31) on the machine the description is for:
 * its ISA level ("PowerISA 3.1" and later; POWER9's "PowerISA 3.0" not). */
static int isa_is_31(const struct pmurt_pmu *pmu, const char *desc, bool *arch31)
{
	struct pmurt_pmu_info info = PMURT_OPTS_INIT(pmurt_pmu_info);
	unsigned major, minor;

	if (pmurt_pmu_info(pmu, &info) || !info.version ||
	    sscanf(info.version, "PowerISA %u.%u", &major, &minor) != 2) {
		fprintf(stderr, "%s: no ISA level ('PowerISA X.Y') in the description's version\n",
			desc);
		return -1;
	}
	*arch31 = major > 3 || (major == 3 && minor >= 1);
	return 0;
}

static int load(const char *dtb, const char *desc, struct rfc_pmu *rfc,
		struct pmurt_pmu **pmu)
{
	size_t len = 0;
	unsigned char *blob;
	struct pmurt_error err = { 0 };
	char why[256];
	bool arch31;

	if (pmurt_pmu_open(pmu, desc, NULL, &err)) {
		fprintf(stderr, "%s: %s\n", desc, err.message);
		return -1;
	}
	if (isa_is_31(*pmu, desc, &arch31))
		goto fail;
	blob = read_file(dtb, &len);
	if (!blob) {
		fprintf(stderr, "%s: cannot read the tree\n", dtb);
		goto fail;
	}
	if (rfc_probe(blob, arch31, rfc, why, sizeof(why))) {
		fprintf(stderr, "%s: the RFC's probe fails: %s\n", dtb, why);
		free(blob);
		goto fail;
	}
	free(blob);
	return 0;
fail:
	pmurt_pmu_close(*pmu);
	*pmu = NULL;
	return -1;
}

/* One group: the kernel's answer (libpmurt's, which must equal the
 * recorded one when recorded >= 0) against the RFC's, tallied. */
static int tally_group(struct tally *t, struct rfc_pmu *rfc, const struct pmurt_pmu *pmu,
		       const struct rfc_event *ev, int n, int recorded)
{
	struct pmurt_group_result res;

	if (kernel_answer(pmu, ev, n, &res))
		return -1;
	if (recorded >= 0 && res.ok != recorded) {
		fprintf(stderr, "libpmurt %s a group the kernel %s (0x%llx...)\n",
			res.ok ? "accepts" : "refuses", recorded ? "accepts" : "refuses",
			(unsigned long long)ev[0].config);
		return -1;
	}
	bool rfc_ok = rfc_group_ok(rfc, ev, n, true);

	t->total++;
	t->kernel_ok += res.ok;
	if (rfc_ok == res.ok) {
		t->agree++;
		return 0;
	}
	if (getenv("RFC_GROUPS_SHOW")) {
		fprintf(stderr, "%s:", res.ok ? "kernel-accepts" : res.reason);
		for (int i = 0; i < n; i++)
			fprintf(stderr, " 0x%llx/0x%llx", (unsigned long long)ev[i].config,
				(unsigned long long)ev[i].config1);
		fprintf(stderr, "\n");
	}
	if (rfc_ok)
		t->rfc_only++;
	else
		t->kernel_only++;
	classify(t, rfc, pmu, ev, n, &res);
	count_reason(t, res.ok ? "(kernel accepts)" : res.reason);
	return 0;
}

static void name_tally(struct tally *t, const struct pmurt_pmu *pmu)
{
	struct pmurt_pmu_info info = PMURT_OPTS_INIT(pmurt_pmu_info);

	snprintf(t->pmu_name, sizeof(t->pmu_name), "%s",
		 pmurt_pmu_info(pmu, &info) == 0 && info.name ? info.name : "PMU");
}

/* The tally printed; fails below min_agree or on an unexplained
 * disagreement (min_agree < 0: a control, see run_groups). */
static int report(const struct tally *t, const char *dtb, int min_agree)
{
	printf("the RFC reading %s answers %d of %d %s groups as the kernel does\n",
	       dtb, t->agree, t->total, t->pmu_name);
	printf("  the kernel accepts %d; RFC accepts, kernel refuses: %d; RFC refuses, kernel accepts: %d\n",
	       t->kernel_ok, t->rfc_only, t->kernel_only);
	for (int i = 0; i < t->nreasons; i++)
		printf("  disagreements where the kernel says %-32s %d\n", t->reasons[i].reason,
		       t->reasons[i].count);
	printf("  of the disagreements, the RFC's own gaps (each verified by adding the kernel's rule):\n");
	for (int g = 0; g < NGAPS; g++)
		if (t->gap[g])
			printf("    %-72s %d\n", gap_info[g].text, t->gap[g]);
	if (t->several)
		printf("    %-72s %d\n", "several of these together", t->several);
	printf("  %d unexplained\n", t->unexplained);
	if (min_agree < 0) {
		if (!t->unexplained) {
			fprintf(stderr, "FAIL: the control tree is read as the description means\n");
			return 1;
		}
		return 0;
	}
	if (t->unexplained) {
		fprintf(stderr, "FAIL: %d disagreements are not the RFC's own computation\n",
			t->unexplained);
		return 1;
	}
	if (t->agree < min_agree) {
		fprintf(stderr, "FAIL: %d agree, below %d\n", t->agree, min_agree);
		return 1;
	}
	return 0;
}

/* min_agree < 0: a control, which passes when some disagreements are not
 * the RFC's own computation (the tree is misread). */
static int run_groups(const char *dtb, const char *desc, int ngroups, int min_agree)
{
	static uint64_t pool[MAX_POOL];
	struct rfc_pmu rfc;
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_pmu_info info = PMURT_OPTS_INIT(pmurt_pmu_info);
	struct tally t = { 0 };
	int npool = 0;

	if (load(dtb, desc, &rfc, &pmu) || pmurt_pmu_info(pmu, &info))
		return 2;
	name_tally(&t, pmu);
	for (int i = 0; i < info.nevents && npool < MAX_POOL; i++) {
		struct pmurt_event_info e = PMURT_OPTS_INIT(pmurt_event_info);

		if (pmurt_event_get(pmu, i, &e) == 0)
			pool[npool++] = e.code;
	}
	for (int g = 0; g < ngroups; g++) {
		struct rfc_event ev[RFC_MAX_GROUP];
		int n = group_size();

		for (int i = 0; i < n; i++)
			ev[i] = gen_member(pool, npool, ev, i);
		if (tally_group(&t, &rfc, pmu, ev, n, -1)) {
			pmurt_pmu_close(pmu);
			return 2;
		}
	}
	pmurt_pmu_close(pmu);
	return report(&t, dtb, min_agree);
}

/* One vector's members (hex strings in "events", "config1" when given). */
static int vector_members(json_t *v, struct rfc_event *ev, int *n)
{
	json_t *events = json_object_get(v, "events"), *c1 = json_object_get(v, "config1");

	*n = (int)json_array_size(events);
	if (*n < 1 || *n > RFC_MAX_GROUP)
		return -1;
	for (int i = 0; i < *n; i++) {
		const char *code = json_string_value(json_array_get(events, i));
		const char *cfg1 = c1 ? json_string_value(json_array_get(c1, i)) : "0";

		if (!code || !cfg1)
			return -1;
		ev[i].config = strtoull(code, NULL, 16);
		ev[i].config1 = strtoull(cfg1, NULL, 16);
	}
	return 0;
}

static int run_vectors(const char *dtb, const char *desc, const char *file, int min_agree)
{
	struct rfc_pmu rfc;
	struct pmurt_pmu *pmu = NULL;
	struct tally t = { 0 };
	json_error_t jerr;
	json_t *root = json_load_file(file, 0, &jerr), *v;
	size_t i;
	int rc = 0;

	if (!root) {
		fprintf(stderr, "%s:%d:%d: %s\n", file, jerr.line, jerr.column, jerr.text);
		return 2;
	}
	if (load(dtb, desc, &rfc, &pmu)) {
		json_decref(root);
		return 2;
	}
	name_tally(&t, pmu);
	json_array_foreach(json_object_get(root, "vectors"), i, v) {
		struct rfc_event ev[RFC_MAX_GROUP];
		const char *result = json_string_value(json_object_get(v, "result"));
		int n;

		if (vector_members(v, ev, &n) || !result) {
			fprintf(stderr, "%s: vector %zu: bad events or result\n", file, i);
			rc = 2;
			break;
		}
		if (tally_group(&t, &rfc, pmu, ev, n, strcmp(result, "ok") == 0)) {
			rc = 2;
			break;
		}
	}
	pmurt_pmu_close(pmu);
	json_decref(root);
	return rc ? rc : report(&t, dtb, min_agree);
}

static int run_events(const char *dtb, const char *desc)
{
	struct rfc_pmu rfc;
	struct pmurt_pmu *pmu = NULL;
	struct pmurt_pmu_info info = PMURT_OPTS_INIT(pmurt_pmu_info);
	int fails = 0, nfw = 0;

	if (load(dtb, desc, &rfc, &pmu) || pmurt_pmu_info(pmu, &info))
		return 2;
	for (int i = 0; i < rfc.nevents; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(rfc.events[i].name, rfc.events[j].name) == 0) {
				fprintf(stderr, "FAIL: two events named '%s' in sysfs\n",
					rfc.events[i].name);
				fails++;
			}
	for (int i = 0; i < info.nevents; i++) {
		struct pmurt_event_info e = PMURT_OPTS_INIT(pmurt_event_info);
		bool seen = false;

		if (pmurt_event_get(pmu, i, &e) || !e.firmware)
			continue;
		nfw++;
		for (int j = 0; j < rfc.nevents && !seen; j++)
			seen = strncmp(rfc.events[j].name, e.name, RFC_NAME_LEN - 1) == 0 &&
			       rfc.events[j].code == e.code;
		if (!seen) {
			fprintf(stderr, "FAIL: firmware event '%s' is not among the %d the RFC reads\n",
				e.name, rfc.nevents);
			fails++;
		}
	}
	pmurt_pmu_close(pmu);
	printf("the RFC reads %d events from %s; all %d firmware events among them\n",
	       rfc.nevents, dtb, nfw);
	return fails ? 1 : 0;
}

/* CODE or CODE/CONFIG1, hex. */
static int parse_member(const char *s, struct rfc_event *e)
{
	char *end;

	e->config = strtoull(s, &end, 16);
	e->config1 = 0;
	if (*end == '/')
		e->config1 = strtoull(end + 1, &end, 16);
	return *end ? -1 : 0;
}

#define SHOW_REGS 5

/* A group's codes, counters and registers (names lower-cased). */
static void print_regs(const char *who, const int *pmc, int n, const uint64_t *final,
		       const char *const *names, const uint64_t *regs)
{
	printf("%-6s codes", who);
	for (int i = 0; i < n; i++)
		printf(" 0x%llx@pmc%d", (unsigned long long)final[i], pmc[i]);
	printf("\n      ");
	for (int i = 0; i < SHOW_REGS && names[i]; i++) {
		printf(" ");
		for (const char *c = names[i]; *c; c++)
			putchar(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
		printf(" 0x%llx", (unsigned long long)regs[i]);
	}
	printf("\n");
}

/* One group, both answers with the registers each would program. */
static int run_show(const char *dtb, const char *desc, int n, char **codes)
{
	struct rfc_pmu rfc;
	struct pmurt_pmu *pmu = NULL;
	struct rfc_event ev[RFC_MAX_GROUP];
	struct pmurt_group_result res;
	uint64_t final[RFC_MAX_GROUP];
	struct rfc_mmcr r;

	if (n < 1 || n > RFC_MAX_GROUP || load(dtb, desc, &rfc, &pmu))
		return 2;
	for (int i = 0; i < n; i++)
		if (parse_member(codes[i], &ev[i])) {
			fprintf(stderr, "bad member '%s' (CODE or CODE/CONFIG1, hex)\n", codes[i]);
			pmurt_pmu_close(pmu);
			return 2;
		}
	if (kernel_answer(pmu, ev, n, &res)) {
		pmurt_pmu_close(pmu);
		return 2;
	}
	if (res.ok) {
		const char *names[SHOW_REGS + 1] = { NULL };

		for (int i = 0; i < SHOW_REGS; i++)
			names[i] = pmurt_register_name(pmu, i);
		print_regs("kernel", res.pmc, n, res.final_events, names, res.regs);
	} else {
		printf("kernel refuses member %d: %s\n", res.reject_index, res.reason);
	}
	pmurt_pmu_close(pmu);
	if (rfc_group_final(&rfc, ev, n, true, final)) {
		static const char *const names[SHOW_REGS] = { "mmcr0", "mmcr1", "mmcr2", "mmcr3",
								"mmcra" };

		rfc_compute_mmcr(&rfc, final, n, &r);
		print_regs("rfc", r.pmc, n, final, names,
			   (const uint64_t[SHOW_REGS]){ r.mmcr0, r.mmcr1, r.mmcr2, r.mmcr3, r.mmcra });
	} else {
		printf("rfc    refuses\n");
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && strcmp(argv[1], "show") == 0)
		return run_show(argv[2], argv[3], argc - 4, argv + 4);
	if (argc == 6 && strcmp(argv[1], "groups") == 0)
		return run_groups(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
	if (argc == 6 && strcmp(argv[1], "vectors") == 0)
		return run_vectors(argv[2], argv[3], argv[4], atoi(argv[5]));
	if (argc == 4 && strcmp(argv[1], "events") == 0)
		return run_events(argv[2], argv[3]);
	fprintf(stderr, "usage: rfc_groups groups TREE.dtb DESCRIPTION N MIN\n"
			"       rfc_groups vectors TREE.dtb DESCRIPTION VECTORS.json MIN\n"
			"       rfc_groups events TREE.dtb DESCRIPTION\n"
			"       rfc_groups show TREE.dtb DESCRIPTION CODE[/CONFIG1]...\n");
	return 2;
}
