/*
 * sources_test.c - the four sources libpmurt reads load into the same model:
 * the built-in tables, a DTB (pmugen --all-events), a /proc/device-tree style
 * directory written from that DTB (children created in a scrambled order),
 * and the YAML description; the directory's pmus/ then moves below a root
 * that looks like /proc/device-tree (cpus/, model, ...) and is opened by the
 * root's path.  Every pair of models is pmu_model_equal, and
 * pmurt_group_check answers a set of groups identically on all of them.
 * Broken trees (a truncated property, a 3-cell event_code, no events node,
 * no pmus node) fail with messages that name the path.
 *
 * usage: sources_test WORKDIR POWER10.dtb POWER10.yaml
 * WORKDIR is an empty scratch directory (the caller removes it).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dtdir.h"
#include "check.h"
#include "internal.h"

#define NSOURCES 5
#define PMU_NODE "pmus/pmu_dts@0"

static int failures;


struct source {
	const char *what;
	char spec[4096];
	enum pmurt_source kind;
	struct pmurt_pmu *pmu;
};

/* --- opening ---------------------------------------------------------------- */
static struct pmurt_pmu *open_spec(const char *spec, enum pmurt_source kind,
				   struct pmurt_error *err)
{
	struct pmurt_open_opts opts = PMURT_OPTS_INIT(pmurt_open_opts, .source = kind);
	struct pmurt_pmu *pmu = NULL;
	*err = (struct pmurt_error){0};
	int rc = pmurt_pmu_open(&pmu, spec, kind == PMURT_SOURCE_AUTO ? NULL : &opts, err);
	if (rc) {
		CHECK(err->code == rc && err->message[0], "error %d not reported (%d, '%s')",
		      rc, err->code, err->message);
		return NULL;
	}
	return pmu;
}

static void open_source(struct source *s)
{
	struct pmurt_error err;
	s->pmu = open_spec(s->spec, s->kind, &err);
	CHECK(s->pmu, "%s (%s): %s", s->what, s->spec, err.message);
}

/* dir/rel into out; -1 when it does not fit. */
static int join(char *out, size_t size, const char *dir, const char *rel)
{
	int n = snprintf(out, size, "%s/%s", dir, rel);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* A /proc/device-tree look-alike: a root with the nodes a POWER10 LPAR has
 * beside pmus/; the pmus/ directory is then moved in from the plain tree. */
static int write_proc_root(const char *dir)
{
	static const char model[] = "IBM,9105-22A";
	static const char compat[] = "ibm,powernv\0ibm,power10";
	static const char cpu_compat[] = "ibm,power10";
	static const unsigned char cells[4] = {0, 0, 0, 2};
	char cpus[4096], cpu[4096];
	if (join(cpus, sizeof(cpus), dir, "cpus") || join(cpu, sizeof(cpu), cpus, "PowerPC,POWER10@0") ||
	    mkdir(dir, 0755) || mkdir(cpus, 0755) || mkdir(cpu, 0755))
		return -1;
	return dtdir_put(dir, "model", model, sizeof(model)) ||
	       dtdir_put(dir, "compatible", compat, sizeof(compat)) ||
	       dtdir_put(dir, "#address-cells", cells, 4) || dtdir_put(dir, "name", "", 1) ||
	       dtdir_put(cpus, "name", "cpus", 5) ||
	       dtdir_put(cpu, "compatible", cpu_compat, sizeof(cpu_compat)) ||
	       dtdir_put(cpu, "name", "PowerPC,POWER10", 16);
}

static int move(const char *from_dir, const char *from, const char *to_dir, const char *to)
{
	char a[4096], b[4096];
	if (join(a, sizeof(a), from_dir, from) || join(b, sizeof(b), to_dir, to) || rename(a, b)) {
		fprintf(stderr, "sources_test: cannot move %s/%s to %s/%s\n", from_dir, from, to_dir, to);
		return -1;
	}
	return 0;
}

/* --- the same model --------------------------------------------------------- */
static void compare_models(const struct source *s)
{
	for (int i = 0; i < NSOURCES; i++)
		for (int j = i + 1; j < NSOURCES; j++) {
			char diff[256];
			if (!s[i].pmu || !s[j].pmu)
				continue;
			CHECK(pmu_model_equal(&s[i].pmu->model, &s[j].pmu->model, diff, sizeof(diff)),
			      "%s and %s: %s", s[i].what, s[j].what, diff);
		}
}

static void compare_info(const struct source *s)
{
	struct pmurt_pmu_info a = {.sz = sizeof(a)}, b = {.sz = sizeof(b)};
	CHECK(pmurt_pmu_info(s[0].pmu, &a) == 0, "info");
	for (int i = 1; i < NSOURCES; i++) {
		if (!s[i].pmu || pmurt_pmu_info(s[i].pmu, &b))
			continue;
		CHECK(!strcmp(a.name, b.name) && !strcmp(a.version, b.version) &&
		      !strcmp(a.platform, b.platform) && a.ncounters == b.ncounters &&
		      a.nregisters == b.nregisters && a.nevents == b.nevents &&
		      a.max_group == b.max_group, "%s: pmurt_pmu_info differs", s[i].what);
		for (int r = 0; r < a.nregisters; r++)
			CHECK(!strcmp(pmurt_register_name(s[0].pmu, r),
				      pmurt_register_name(s[i].pmu, r)),
			      "%s: register %d is %s", s[i].what, r,
			      pmurt_register_name(s[i].pmu, r));
	}
}

/* Names in any case find the same code everywhere. */
static void compare_lookups(const struct source *s)
{
	static const char *const names[] = {"PM_CYC", "pm_inst_cmpl", "Pm_Ld_Miss_L1",
					    "cycles", "PM_RUN_INST_CMPL_CONC", "l3-DATA-hit"};
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		struct pmurt_event_info a = {.sz = sizeof(a)}, b = {.sz = sizeof(b)};
		int ia = pmurt_event_find(s[0].pmu, names[k], &a, NULL);
		CHECK(ia >= 0, "%s: no event %s", s[0].what, names[k]);
		for (int i = 1; ia >= 0 && i < NSOURCES; i++) {
			if (!s[i].pmu)
				continue;
			int ib = pmurt_event_find(s[i].pmu, names[k], &b, NULL);
			CHECK(ib >= 0 && a.code == b.code && !strcmp(a.name, b.name) &&
			      !strcmp(a.description, b.description),
			      "%s: event %s differs", s[i].what, names[k]);
		}
	}
}

/* --- the same answers ------------------------------------------------------- */
struct group {
	const char *what;
	int n;
	uint64_t codes[PMURT_MAX_GROUP];
	unsigned exclude;
};

static const struct group groups[] = {
	{"six counters", 6, {0x100fc, 0x200fa, 0x300fc, 0x400fc, 0x500fa, 0x600f4}, 0},
	{"alternative to PMC6", 6, {0x100fc, 0x200fa, 0x300fc, 0x400fc, 0x500fa, 0x0001e}, 0},
	{"alternative to any PMC", 2, {0x500fa, 0x500fa}, 0},
	{"user only", 3, {0x600f4, 0x500fa, 0x3e054},
	 PMURT_EXCLUDE_KERNEL | PMURT_EXCLUDE_HV},
	{"L2/L3 and thresholds", 3, {0x001340000001c040, 0x0000010000046080, 0x26880}, 0},
	{"PMC1 twice", 2, {0x100fc, 0x1002c}, 0},
	{"seven events", 7, {0x100fc, 0x200fa, 0x300fc, 0x400fc, 0x500fa, 0x600f4, 0x0001e}, 0},
	{"reserved sample", 1, {0x100100fc}, 0},
};

static int check_group(const struct pmurt_pmu *pmu, const struct group *g,
		       struct pmurt_group_result *res)
{
	struct pmurt_event_spec ev[PMURT_MAX_GROUP];
	for (int i = 0; i < g->n; i++) {
		ev[i] = (struct pmurt_event_spec){.sz = sizeof(ev[i]), .type = 4,
						  .config = g->codes[i], .code = g->codes[i],
						  .exclude = g->exclude, .event_index = -1};
		snprintf(ev[i].name, sizeof(ev[i].name), "0x%" PRIx64, g->codes[i]);
	}
	struct pmurt_check_opts opts = PMURT_OPTS_INIT(pmurt_check_opts, .per_task = true,
						       .lpar = true);
	struct pmurt_error err = {0};
	*res = (struct pmurt_group_result){.sz = sizeof(*res)};
	int rc = pmurt_group_check(pmu, ev, g->n, sizeof(ev[0]), &opts, res, &err);
	CHECK(rc == 0, "%s: pmurt_group_check = %d: %s", g->what, rc, err.message);
	return rc;
}

static bool same_result(const struct pmurt_group_result *a, const struct pmurt_group_result *b)
{
	if (a->ok != b->ok || a->reject_index != b->reject_index || strcmp(a->reason, b->reason) ||
	    strcmp(a->message, b->message) || a->n != b->n ||
	    a->alternatives_used != b->alternatives_used || a->nregs != b->nregs)
		return false;
	for (int i = 0; a->ok && i < a->n; i++)
		if (a->final_events[i] != b->final_events[i] || a->pmc[i] != b->pmc[i])
			return false;
	for (int i = 0; a->ok && i < a->nregs && i < PMURT_MAX_REGS; i++)
		if (a->regs[i] != b->regs[i])
			return false;
	return true;
}

static void print_result(const struct group *g, const struct pmurt_group_result *r)
{
	printf("%-24s %s", g->what, r->ok ? "ok  " : "rejected");
	if (!r->ok)
		printf(" #%d %s: %s", r->reject_index, r->reason, r->message);
	for (int i = 0; r->ok && i < r->n; i++)
		printf(" %#" PRIx64 "@PMC%d", r->final_events[i], r->pmc[i]);
	for (int i = 0; r->ok && i < r->nregs && i < PMURT_MAX_REGS; i++)
		printf(" R%d=%#" PRIx64, i, r->regs[i]);
	printf("\n");
}

static void compare_groups(const struct source *s)
{
	for (size_t k = 0; k < sizeof(groups) / sizeof(groups[0]); k++) {
		struct pmurt_group_result first, other;
		if (check_group(s[0].pmu, &groups[k], &first))
			continue;
		print_result(&groups[k], &first);
		for (int i = 1; i < NSOURCES; i++)
			if (s[i].pmu && check_group(s[i].pmu, &groups[k], &other) == 0)
				CHECK(same_result(&first, &other), "%s: group '%s' answered differently",
				      s[i].what, groups[k].what);
	}
	/* what the groups are expected to show, so the comparison is not vacuous */
	struct pmurt_group_result r;
	if (check_group(s[0].pmu, &groups[1], &r) == 0)
		CHECK(r.ok && r.alternatives_used && r.final_events[5] == 0x600f4 && r.pmc[5] == 6,
		      "0x1e is not moved to 0x600f4 on PMC6");
	if (check_group(s[0].pmu, &groups[5], &r) == 0)
		CHECK(!r.ok && r.reject_index == 1, "PMC1 twice accepted");
	if (check_group(s[0].pmu, &groups[6], &r) == 0)
		CHECK(!r.ok, "seven events accepted");
}

/* --- broken directories ----------------------------------------------------- */
struct broken {
	const char *what;
	const char *file;       /* below the tree root */
	const void *bytes;      /* new contents; NULL: remove `file` */
	size_t len;
	const char *want[2];    /* the message names these */
};

static const unsigned char three_cells[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x00, 0xfc};
static const unsigned char short_cell[3] = {0, 0, 3};

static const struct broken broken[] = {
	{"truncated property", PMU_NODE "/sprs/pmcs/pmc1/sprn", short_cell, 3,
	 {"/pmus/pmu_dts@0/sprs/pmcs/pmc1", "sprn"}},
	{"3-cell event_code", PMU_NODE "/events/PM_LD_HIT_L1/event_code", three_cells, 12,
	 {"/pmus/pmu_dts@0/events/PM_LD_HIT_L1", "event_code"}},
	{"no events node", PMU_NODE "/events", NULL, 0, {"/pmus/pmu_dts@0", "events"}},
	{"no pmus node", "pmus", NULL, 0, {"no node", "ibm,power-pmu"}},
};

/* Break the tree at `root` as b says, open it, and repair it. */
static void test_broken(const char *root, const char *work, const struct broken *b)
{
	char path[4096];
	size_t len = 0;
	void *orig = NULL;
	int rc = join(path, sizeof(path), root, b->file);
	if (!rc && b->bytes)
		rc = (orig = dtdir_slurp(path, &len)) ? dtdir_put(root, b->file, b->bytes, b->len) : -1;
	else if (!rc)
		rc = move(root, b->file, work, "stash");
	struct pmurt_error err = {0};
	struct pmurt_pmu *pmu = rc ? NULL : open_spec(root, PMURT_SOURCE_AUTO, &err);
	printf("%-20s -> %s\n", b->what, err.message);
	CHECK(!rc && !pmu && err.code < 0, "%s: opened", b->what);
	CHECK(strstr(err.message, root), "%s: '%s' does not name %s", b->what, err.message, root);
	for (int i = 0; i < 2; i++)
		CHECK(strstr(err.message, b->want[i]), "%s: '%s' does not name '%s'", b->what,
		      err.message, b->want[i]);
	pmurt_pmu_close(pmu);
	if (orig)
		CHECK(dtdir_put(root, b->file, orig, len) == 0, "cannot repair %s", path);
	else if (!rc)
		CHECK(move(work, "stash", root, b->file) == 0, "cannot repair %s", path);
	free(orig);
}

/* Repaired, the tree opens again: nothing was cached. */
static void test_repaired(const char *root)
{
	struct pmurt_error err;
	struct pmurt_pmu *pmu = open_spec(root, PMURT_SOURCE_DEVTREE, &err);
	CHECK(pmu, "the repaired tree does not open: %s", err.message);
	pmurt_pmu_close(pmu);
}

static void test_missing_dir(const char *work)
{
	char dir[4096];
	struct pmurt_error err;
	if (join(dir, sizeof(dir), work, "no-such-tree"))
		return;
	struct pmurt_pmu *pmu = open_spec(dir, PMURT_SOURCE_DEVTREE, &err);
	CHECK(!pmu && err.code == -ENOENT && strstr(err.message, dir),
	      "missing directory: %d '%s'", err.code, err.message);
	pmurt_pmu_close(pmu);
}

/* --- main --------------------------------------------------------------------- */
/* The sources, and the plain directory written from the DTB. */
static int setup(struct source *s, const char *work, const char *dtb_path, const char *yaml,
		 const char *builtin)
{
	size_t len;
	void *dtb = dtdir_slurp(dtb_path, &len);
	struct source all[NSOURCES] = {
		{.what = "built-in", .kind = PMURT_SOURCE_BUILTIN},
		{.what = "DTB", .kind = PMURT_SOURCE_AUTO},
		{.what = "directory", .kind = PMURT_SOURCE_DEVTREE},
		{.what = "YAML", .kind = PMURT_SOURCE_YAML},
		{.what = "/proc-like root", .kind = PMURT_SOURCE_AUTO},
	};
	snprintf(all[0].spec, sizeof(all[0].spec), "%s", builtin);
	snprintf(all[1].spec, sizeof(all[1].spec), "%s", dtb_path);
	snprintf(all[3].spec, sizeof(all[3].spec), "%s", yaml);
	memcpy(s, all, sizeof(all));
	int rc = !dtb || join(s[2].spec, sizeof(s[2].spec), work, "dt") ||
		 join(s[4].spec, sizeof(s[4].spec), work, "proc-device-tree") ||
		 dtdir_write(dtb, "/", s[2].spec) || write_proc_root(s[4].spec);
	if (rc)
		fprintf(stderr, "sources_test: cannot write the device-tree directories\n");
	free(dtb);
	return rc ? -1 : 0;
}

int main(int argc, char **argv)
{
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: %s WORKDIR PMU.dtb PMU.yaml [BUILT-IN, default power10]\n",
			argv[0]);
		return 2;
	}
	const char *work = argv[1];
	struct source s[NSOURCES];
	if (setup(s, work, argv[2], argv[3], argc == 5 ? argv[4] : "power10"))
		return 1;
	for (int i = 0; i < NSOURCES - 1; i++)
		open_source(&s[i]);
	/* the same files again, now below a /proc/device-tree like root */
	if (move(s[2].spec, "pmus", s[4].spec, "pmus") == 0)
		open_source(&s[4]);
	/* the look-ups and the broken trees name POWER10 events, which a
	 * description that extends POWER10's has too (power11); for another
	 * PMU the sources are compared as models and by their group answers */
	bool power10 = argc == 4 || strcmp(pmurt_builtin_root(argv[4]), "power10") == 0;
	if (s[0].pmu) {
		compare_models(s);
		compare_info(s);
		if (power10)
			compare_lookups(s);
		compare_groups(s);
	}
	for (size_t k = 0; power10 && k < sizeof(broken) / sizeof(broken[0]); k++)
		test_broken(s[4].spec, work, &broken[k]);
	if (power10)
		test_repaired(s[4].spec);
	test_missing_dir(work);
	for (int i = 0; i < NSOURCES; i++)
		pmurt_pmu_close(s[i].pmu);
	if (failures)
		fprintf(stderr, "sources_test: %d failures\n", failures);
	else
		printf("sources_test: %d sources load into the same model and answer alike\n",
		       NSOURCES);
	return failures ? 1 : 0;
}
