/*
 * qg_compare.c - the QEMU group test's judge: a real POWER kernel's answers
 * (qg_probe's output from the guest) and the MMCRs it programmed (read by
 * gdb-multiarch through QEMU's gdb stub) against libpmurt's.
 *
 *   qg_compare --pmu NAME --groups FILE --guest FILE [--mmcr FILE]
 *              [--min-groups N] [--min-mmcr N] [--min-pvr-dependent N]
 *
 * libpmurt is opened with the PVR the guest reported, so the refused-code
 * lists that apply are those of the guest's processor; --min-pvr-dependent
 * asks that so many groups be answered otherwise at the description's own
 * PVR (POWER9: DD2.2's refused codes, which QEMU's DD2.0 must accept).  Every group must
 * have an answer, and the answer must be libpmurt's: accepted, or refused at
 * the same member with the same errno.  Each MMCR read ("M ID MMCR0 MMCR1
 * MMCR2 MMCRA", hex) must equal libpmurt's values except for state the
 * kernel adds outside compute_mmcr, each kind named and allowed only where
 * it applies (see mmcr_verdict).  Any disagreement prints the group and
 * fails; a summary of the agreements is printed at the end.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h" /* the description's own PVR (pmu_model.pvr) */
#include "qg_expect.h"
#include "qg_groups.h"

/* MMCR bits the kernel sets outside compute_mmcr (arch/powerpc/include/asm/
 * reg.h names; arch/powerpc/perf/core-book3s.c sets them). */
#define MMCR0_FC 0x80000000ull
#define MMCR0_PMXE 0x04000000ull   /* power_pmu_enable */
#define MMCR0_FCECE 0x02000000ull  /* power_pmu_enable */
#define MMCR0_EBE 0x00100000ull    /* ebb_switch_in */
#define MMCR0_BHRBA 0x00200000ull  /* ebb_switch_in */
#define MMCR0_PMCC_U6 0x00080000ull /* ebb_switch_in */
#define MMCR0_PMAO 0x00000080ull
#define MMCR0_PMAE MMCR0_PMXE
#define MMCR0_USER_MASK (MMCR0_FC | MMCR0_PMXE | MMCR0_PMAO)
#define MMCR2_USER_MASK 0x4020100804020000ull /* FC1P..FC6P */
#define MMCRA_SAMPLE_ENABLE 0x1ull

enum diff_kind {
	D_ENABLE,       /* PMXE|FCECE in MMCR0 (power_pmu_enable) */
	D_EBB_MMCR0,    /* EBE|BHRBA|PMCC_U6 and the thread's MMCR0 user bits (ebb_switch_in) */
	D_EBB_MMCR2,    /* the thread's own MMCR2 user bits merged (ebb_switch_in) */
	D_FROZEN,       /* FC set at the stop, MMCRA's sample enable cleared (power_pmu_disable) */
	D_RESCHEDULE,   /* the same, for a group whose next schedule the kernel refuses */
	D_OVERFLOW,     /* FC|PMAO: the PMU froze itself at a counter's overflow */
	D_COUNT
};
static const char *const diff_names[D_COUNT] = {
	"MMCR0 PMXE|FCECE (power_pmu_enable)",
	"MMCR0 EBE|BHRBA|PMCC and the thread's FC|PMAE|PMAO, EBB groups (ebb_switch_in)",
	"MMCR2 the thread's FCnP bits, EBB groups (ebb_switch_in)",
	"MMCR0 FC set and MMCRA SAMPLE_ENABLE cleared, a sampling group's PMU frozen at the stop "
	"(power_pmu_disable)",
	"MMCR0 FC set and MMCRA SAMPLE_ENABLE cleared, a group whose next schedule libpmurt "
	"says the kernel refuses (reschedule_reason; power_pmu_disable, then -EAGAIN)",
	"MMCR0 FC|PMAO in place of FCECE|PMXE, MMCRA as programmed: a counter overflowed while "
	"the group counted and the PMU froze itself (QEMU delivers no PMU interrupt, and its "
	"cycles follow the host's clock, so a busy host overflows them)",
};

struct answer {
	int seen;
	int ok;
	int member, errnum;
};

struct run {
	const char *label;
	struct pmurt_pmu *pmu;
	long ngroups;
	struct qg_group *groups;
	struct answer *answers;
	unsigned long pvr;
	char pmu_name[64];
	long done;
	int reg[4]; /* indices of MMCR0, MMCR1, MMCR2, MMCRA in libpmurt's result */
	long failures;
	long agreed_ok, agreed_refused, mmcr_reads, mmcr_agreed, diff_count[D_COUNT];
	/* per kind of group (qg_gen's words): groups and MMCR reads agreed */
	int nkinds;
	char kinds[32][24];
	long kind_agreed[32], kind_mmcr[32];
	/* the groups whose answer differs under the description's own PVR */
	struct pmurt_pmu *own_pvr;
	long pvr_dependent;
	unsigned own_pvr_value;
};

static int read_groups(struct run *r, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "qg_compare: %s: %s\n", path, strerror(errno));
		return -1;
	}
	static char line[4096];
	long cap = 0;
	while (fgets(line, sizeof(line), f)) {
		if (r->ngroups == cap) {
			cap = cap ? cap * 2 : 1024;
			struct qg_group *g = realloc(r->groups, sizeof(*g) * (size_t)cap);
			if (!g)
				break;
			r->groups = g;
		}
		if (!qg_parse_group(line, &r->groups[r->ngroups]) ||
		    r->groups[r->ngroups].id != r->ngroups) {
			fprintf(stderr, "qg_compare: %s:%ld: not a group line\n", path, r->ngroups + 1);
			fclose(f);
			return -1;
		}
		r->ngroups++;
	}
	fclose(f);
	r->answers = calloc((size_t)r->ngroups + 1, sizeof(*r->answers));
	return r->answers ? 0 : -1;
}

/* The guest's lines; a console may add \r and other lines between them. */
static int read_guest(struct run *r, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "qg_compare: %s: %s\n", path, strerror(errno));
		return -1;
	}
	static char line[4096];
	r->done = -1;
	while (fgets(line, sizeof(line), f)) {
		long id;
		int member, errnum;
		char word[8];
		line[strcspn(line, "\r\n")] = '\0';
		const char *pvr = strstr(line, "PVR ");
		if ((pvr && sscanf(pvr, "PVR %lx", &r->pvr) == 1) ||
		    sscanf(line, "PMU %63s", r->pmu_name) == 1 || sscanf(line, "DONE %ld", &r->done) == 1)
			continue;
		if (sscanf(line, "R %ld %7s", &id, word) != 2 || id < 0 || id >= r->ngroups)
			continue;
		struct answer *a = &r->answers[id];
		a->seen = 1;
		a->ok = !strcmp(word, "ok");
		if (!a->ok && sscanf(line, "R %ld fail %d %d", &id, &member, &errnum) == 3) {
			a->member = member;
			a->errnum = errnum;
		}
	}
	fclose(f);
	return 0;
}

static void print_group(const struct qg_group *g)
{
	fprintf(stderr, "    ");
	qg_write_group(stderr, g);
}

static void fail(struct run *r, const struct qg_group *g, const char *fmt, const char *a,
		 const char *b)
{
	fprintf(stderr, "%s: group %ld (%s): ", r->label, g->id, g->kind);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	print_group(g);
	r->failures++;
}

static void describe_answer(char *buf, size_t len, int ok, int member, int errnum,
			    const char *reason)
{
	if (ok)
		snprintf(buf, len, "accepted");
	else
		snprintf(buf, len, "refused at member %d with %s%s%s", member, strerror(errnum),
			 reason ? ", " : "", reason ? reason : "");
}

/* The index of kind in r->kinds, added when new (the last slot takes the rest). */
static int kind_index(struct run *r, const char *kind)
{
	for (int i = 0; i < r->nkinds; i++)
		if (!strcmp(r->kinds[i], kind))
			return i;
	if (r->nkinds == 32)
		return 31;
	snprintf(r->kinds[r->nkinds], sizeof(r->kinds[0]), "%s", kind);
	return r->nkinds++;
}

/* Count a group whose answer under the description's own PVR differs from
 * the one under the guest's: what the guest's revision changes. */
static void count_pvr_dependent(struct run *r, const struct qg_group *g, const struct qg_expect *e)
{
	struct qg_expect own;
	if (r->own_pvr && !qg_expect_group(r->own_pvr, g, &own, NULL) &&
	    (own.ok != e->ok || own.member != e->member))
		r->pvr_dependent++;
}

static void compare_answer(struct run *r, const struct qg_group *g, const struct qg_expect *e)
{
	const struct answer *a = &r->answers[g->id];
	char kernel[160], pmurt[160];
	if (!a->seen) {
		fail(r, g, "the guest printed no answer%s%s", "", "");
		return;
	}
	describe_answer(kernel, sizeof(kernel), a->ok, a->member, a->errnum, NULL);
	describe_answer(pmurt, sizeof(pmurt), e->ok, e->member, e->errnum, e->reason);
	if (a->ok != e->ok || (!a->ok && (a->member != e->member || a->errnum != e->errnum))) {
		fail(r, g, "the kernel: %s; libpmurt: %s", kernel, pmurt);
		return;
	}
	r->kind_agreed[kind_index(r, g->kind)]++;
	if (a->ok)
		r->agreed_ok++;
	else
		r->agreed_refused++;
}

static int is_ebb_group(const struct qg_group *g)
{
	return g->m[0].type == 4 && (g->m[0].config >> 63) & 1;
}

static int is_sampling_group(const struct qg_group *g)
{
	for (int i = 0; i < g->n; i++)
		if (g->m[i].period)
			return 1;
	return 0;
}

/*
 * The read registers v[] against libpmurt's e[] (MMCR0, MMCR1, MMCR2,
 * MMCRA) for group g (libpmurt's answer x): 1 when equal but for the named
 * kinds of state outside compute_mmcr, each where it applies (kinds[]
 * tells those used); else 0.  A frozen PMU (power_pmu_disable set FC and
 * cleared the sample enable) is allowed for a sampling group (its counter
 * overflowed: QEMU delivers no PMU interrupt) and for a group whose next
 * schedule the kernel refuses (libpmurt's reschedule_reason), nowhere else.
 * A PMU that froze itself is allowed for any group: power_pmu_enable armed
 * it (PMXE|FCECE) and one of its counters overflowed, so the hardware
 * turned FCECE into FC and PMAE (PMXE) into PMAO (Power ISA 3.1 Book III,
 * the MMCR0 fields; QEMU's target/ppc/power8-pmu.c fire_PMC_interrupt),
 * MMCRA untouched; QEMU delivers no PMU interrupt to re-arm it.
 */
static int mmcr_verdict(const struct qg_group *g, const struct qg_expect *x, const uint64_t e[4],
			const uint64_t v[4], int kinds[D_COUNT])
{
	int ebb = is_ebb_group(g);
	uint64_t extra0 = v[0] & ~e[0], extra2 = v[2] & ~e[2];
	int sampling = is_sampling_group(g), refused_next = x->res.reschedule_reason[0] != '\0';
	int frozen = (v[0] & MMCR0_FC) && (sampling || refused_next);
	memset(kinds, 0, sizeof(int) * D_COUNT);
	if (e[0] & ~v[0] || e[1] != v[1] || e[2] & ~v[2])
		return 0;
	kinds[D_ENABLE] = (extra0 & (MMCR0_PMXE | MMCR0_FCECE)) != 0;
	extra0 &= ~(MMCR0_PMXE | MMCR0_FCECE);
	if (ebb && extra0 & (MMCR0_EBE | MMCR0_BHRBA | MMCR0_PMCC_U6 | MMCR0_USER_MASK)) {
		kinds[D_EBB_MMCR0] = 1;
		extra0 &= ~(MMCR0_EBE | MMCR0_BHRBA | MMCR0_PMCC_U6 | MMCR0_USER_MASK);
	}
	if (frozen) {
		kinds[sampling ? D_FROZEN : D_RESCHEDULE] = 1;
		extra0 &= ~(MMCR0_FC | MMCR0_PMAO);
	} else if ((extra0 & (MMCR0_FC | MMCR0_PMAO)) == (MMCR0_FC | MMCR0_PMAO) &&
		   /* An enabled condition (a PMC's bit 31 with PMC1CE/PMCjCE)
		    * reached before the stop: the hardware sets FC and PMAO and
		    * clears PMAE and FCECE (ISA 3.1 MMCR0; QEMU's
		    * target/ppc/power8-pmu.c, fire_PMC_interrupt), and the kernel's
		    * interrupt has not run.  QEMU's PMC6 counts its 1 GHz clock
		    * whenever FC56 is clear, also in a group that does not use it,
		    * and QEMU 7.2 delivers no PMU interrupt to reset it
		    * (perf_event_interrupt writes 0 to an overflowed unused PMC). */
		   !(v[0] & (MMCR0_PMXE | MMCR0_FCECE)) && v[3] == e[3]) {
		kinds[D_OVERFLOW] = 1;
		extra0 &= ~(MMCR0_FC | MMCR0_PMAO);
	}
	if (extra0)
		return 0;
	if (extra2) {
		if (!ebb || extra2 & ~MMCR2_USER_MASK)
			return 0;
		kinds[D_EBB_MMCR2] = 1;
	}
	if (v[3] != e[3] &&
	    !(frozen && (e[3] & MMCRA_SAMPLE_ENABLE) && v[3] == (e[3] & ~MMCRA_SAMPLE_ENABLE)))
		return 0;
	return 1;
}

static void compare_mmcr(struct run *r, long id, const uint64_t v[4])
{
	if (id < 0 || id >= r->ngroups || !r->groups[id].mmcr) {
		fprintf(stderr, "%s: an MMCR read for group %ld, which was not marked for one\n",
			r->label, id);
		r->failures++;
		return;
	}
	const struct qg_group *g = &r->groups[id];
	struct qg_expect e;
	struct pmurt_error err;
	if (qg_expect_group(r->pmu, g, &e, &err) || !e.ok) {
		fail(r, g, "an MMCR read for a group libpmurt refuses%s%s", "", "");
		return;
	}
	uint64_t want[4];
	for (int k = 0; k < 4; k++)
		want[k] = r->reg[k] >= 0 ? e.res.regs[r->reg[k]] : 0;
	int kinds[D_COUNT];
	r->mmcr_reads++;
	if (!mmcr_verdict(g, &e, want, v, kinds)) {
		char got[200], exp[200];
		snprintf(got, sizeof(got), "MMCR0 %llx MMCR1 %llx MMCR2 %llx MMCRA %llx",
			 (unsigned long long)v[0], (unsigned long long)v[1],
			 (unsigned long long)v[2], (unsigned long long)v[3]);
		snprintf(exp, sizeof(exp), "MMCR0 %llx MMCR1 %llx MMCR2 %llx MMCRA %llx",
			 (unsigned long long)want[0], (unsigned long long)want[1],
			 (unsigned long long)want[2], (unsigned long long)want[3]);
		fail(r, g, "the kernel programmed %s; libpmurt: %s", got, exp);
		return;
	}
	r->mmcr_agreed++;
	r->kind_mmcr[kind_index(r, g->kind)]++;
	for (int k = 0; k < D_COUNT; k++)
		r->diff_count[k] += kinds[k];
}

static int read_mmcr(struct run *r, const char *path, long *reads)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "qg_compare: %s: %s\n", path, strerror(errno));
		return -1;
	}
	static char line[512];
	char *seen = calloc((size_t)r->ngroups, 1);
	while (seen && fgets(line, sizeof(line), f)) {
		long id;
		unsigned long long v[4];
		if (sscanf(line, "M %ld %llx %llx %llx %llx", &id, &v[0], &v[1], &v[2], &v[3]) != 5)
			continue;
		uint64_t regs[4] = {v[0], v[1], v[2], v[3]};
		compare_mmcr(r, id, regs);
		if (id >= 0 && id < r->ngroups)
			seen[id] = 1;
		(*reads)++;
	}
	fclose(f);
	for (long i = 0; seen && i < r->ngroups; i++)
		if (r->groups[i].mmcr && r->answers[i].ok && !seen[i])
			fail(r, &r->groups[i], "the debugger read no MMCRs for this group%s%s", "", "");
	free(seen);
	return seen ? 0 : -1;
}

static int open_pmu(struct run *r, const char *name)
{
	struct pmurt_open_opts o = PMURT_OPTS_INIT(pmurt_open_opts, .pvr = (uint32_t)r->pvr);
	struct pmurt_error err;
	if (pmurt_pmu_open(&r->pmu, name, &o, &err)) {
		fprintf(stderr, "qg_compare: %s: %s\n", name, err.message);
		return -1;
	}
	if (pmurt_pmu_open(&r->own_pvr, name, NULL, &err)) {
		fprintf(stderr, "qg_compare: %s: %s\n", name, err.message);
		return -1;
	}
	r->own_pvr_value = r->own_pvr->model.pvr;
	static const char *const names[4] = {"MMCR0", "MMCR1", "MMCR2", "MMCRA"};
	for (int k = 0; k < 4; k++) {
		r->reg[k] = -1;
		for (int i = 0; pmurt_register_name(r->pmu, i); i++)
			if (!strcmp(pmurt_register_name(r->pmu, i), names[k]))
				r->reg[k] = i;
	}
	return 0;
}

/* The guest's cpu PMU must be the one described: the kernel's name for it
 * is the description's platform without case ("POWER10" for power10,
 * "Power11" for power11), and the guest's PVR one of the description's
 * processor versions. */
static int check_identity(struct run *r, const char *pmu_name)
{
	const struct pmu_model *m = &r->pmu->model;
	if (!r->pvr || strcasecmp(r->pmu_name, pmu_name) ||
	    !pmu_model_has_pvr_version(m, (uint32_t)(r->pvr >> 16))) {
		fprintf(stderr, "%s: the guest reported PVR %lx and cpu PMU \"%s\", not a %s\n",
			r->label, r->pvr, r->pmu_name, pmu_name);
		return -1;
	}
	if (r->done != r->ngroups) {
		fprintf(stderr, "%s: the guest's probe did not finish (DONE %ld of %ld groups)\n",
			r->label, r->done, r->ngroups);
		r->failures++;
	}
	return 0;
}

static void print_summary(const struct run *r, long mmcr_lines)
{
	printf("%s: PVR %08lx: %ld groups, %ld agreed (%ld accepted, %ld refused at the same "
	       "member); %ld MMCR reads, %ld agreed\n",
	       r->label, r->pvr, r->ngroups, r->agreed_ok + r->agreed_refused, r->agreed_ok,
	       r->agreed_refused, mmcr_lines, r->mmcr_agreed);
	for (int k = 0; k < D_COUNT; k++)
		printf("  allowed difference, %ld reads: %s\n", r->diff_count[k], diff_names[k]);
	for (int i = 0; i < r->nkinds; i++)
		printf("  %-14s %5ld groups agreed, %4ld MMCR reads agreed\n", r->kinds[i],
		       r->kind_agreed[i], r->kind_mmcr[i]);
	printf("  %ld groups would be answered otherwise at the description's own PVR %08x "
	       "(its refused-code list)\n", r->pvr_dependent, r->own_pvr_value);
}

static const char *arg(int argc, char **argv, const char *name)
{
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], name))
			return argv[i + 1];
	return NULL;
}

int main(int argc, char **argv)
{
	const char *pmu = arg(argc, argv, "--pmu"), *groups = arg(argc, argv, "--groups");
	const char *guest = arg(argc, argv, "--guest"), *mmcr = arg(argc, argv, "--mmcr");
	const char *label = arg(argc, argv, "--label");
	long min_groups = arg(argc, argv, "--min-groups") ? atol(arg(argc, argv, "--min-groups")) : 0;
	long min_mmcr = arg(argc, argv, "--min-mmcr") ? atol(arg(argc, argv, "--min-mmcr")) : 0;
	const char *min_pvr_arg = arg(argc, argv, "--min-pvr-dependent");
	long min_pvr = min_pvr_arg ? atol(min_pvr_arg) : 0;
	if (!pmu || !groups || !guest) {
		fprintf(stderr, "usage: qg_compare --pmu NAME --groups FILE --guest FILE [--mmcr FILE] "
				"[--label TEXT] [--min-groups N] [--min-mmcr N] "
				"[--min-pvr-dependent N]\n");
		return 2;
	}
	struct run r = {.label = label ? label : pmu};
	if (read_groups(&r, groups) || read_guest(&r, guest) || open_pmu(&r, pmu) ||
	    check_identity(&r, pmu)) {
		pmurt_pmu_close(r.pmu);
		pmurt_pmu_close(r.own_pvr);
		free(r.groups);
		free(r.answers);
		return 1;
	}
	for (long i = 0; i < r.ngroups; i++) {
		struct qg_expect e;
		struct pmurt_error err;
		if (qg_expect_group(r.pmu, &r.groups[i], &e, &err)) {
			fail(&r, &r.groups[i], "libpmurt could not check it: %s%s", err.message, "");
			continue;
		}
		compare_answer(&r, &r.groups[i], &e);
		count_pvr_dependent(&r, &r.groups[i], &e);
	}
	long mmcr_lines = 0;
	if (mmcr && read_mmcr(&r, mmcr, &mmcr_lines))
		r.failures++;
	print_summary(&r, mmcr_lines);
	if (r.ngroups < min_groups || r.mmcr_agreed < min_mmcr) {
		fprintf(stderr, "%s: %ld groups and %ld agreed MMCR reads, fewer than the %ld and %ld "
				"asked for\n", r.label, r.ngroups, r.mmcr_agreed, min_groups, min_mmcr);
		r.failures++;
	}
	if (r.pvr_dependent < min_pvr) {
		fprintf(stderr, "%s: %ld groups depend on the PVR (the description's refused codes), "
				"fewer than the %ld asked for: the guest's revision was not put to the "
				"test\n", r.label, r.pvr_dependent, min_pvr);
		r.failures++;
	}
	pmurt_pmu_close(r.pmu);
	pmurt_pmu_close(r.own_pvr);
	free(r.groups);
	free(r.answers);
	return r.failures ? 1 : 0;
}
