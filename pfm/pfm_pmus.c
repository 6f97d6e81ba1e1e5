/*
 * pfm_pmus.c - which PMUs libpfm.so.4 offers and which are present.
 *
 * The core PMUs are libpmurt's built-in descriptions under libpfm4's names
 * (power8, power9, power10; power11, which libpfm4 lacks): a description
 * named so among pmurt_builtin_name() makes the PMU, so a new description
 * appears here without code.  Presence is libpfm4's (pfm_power*_detect):
 * the processor version in the PVR, read with mfspr as libpfm4 reads it, so
 * never off POWER; Power11, for which libpfm4 has no rule, is present when
 * libpmurt's own detection (pmurt_host_open: device tree, AT_PLATFORM, the
 * cpu PMU's caps/pmu_name, the PVR) picks the power11 description.  Then
 * libpfm4's generic "perf" and "perf_raw" PMUs, present where perf_event is
 * (/proc/sys/kernel/perf_event_paranoid).  The environment variables
 * LIBPFM_FORCE_PMU, LIBPFM_DISABLED_PMUS and LIBPFM_ENCODE_INACTIVE act as in
 * libpfm4's pfmlib_init_pmus (lib/pfmlib_common.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pfm_priv.h"

/* libpfm4's names, ids and processor versions (pfmlib_power_priv.h PV_*) */
static const struct core_pmu {
	const char *name;
	pfm_pmu_t id;
	uint16_t pvr_versions[3]; /* none: libpmurt's detection decides */
} core_pmus[] = {
	{"power8", PFM_PMU_POWER8, {0x004b, 0x004c, 0x004d}},
	{"power9", PFM_PMU_POWER9, {0x004e}},
	{"power10", PFM_PMU_POWER10, {0x0080}},
	{"power11", (pfm_pmu_t)PFM_PMU_ID_POWER11, {0}},
};

/* The processor version (PVR bits 16-31) as libpfm4 reads it: mfspr of the
 * PVR, which Linux emulates for user space; 0 on other machines. */
static unsigned pvr_version(void)
{
#if defined(__powerpc__) || defined(__powerpc64__)
	unsigned long pvr;
	__asm__ volatile("mfspr %0, 0x11f" : "=r"(pvr));
	return (unsigned)(pvr >> 16) & 0xffff;
#else
	return 0;
#endif
}

/* libpmurt's pick of the host's description: its platform, "" for none. */
static void detected_platform(char *out, size_t len)
{
	struct pmurt_host *host = NULL;
	out[0] = 0;
	if (pmurt_host_open(&host, NULL, NULL) == 0) {
		struct pmurt_pmu_info info = {.sz = sizeof(info)};
		const struct pmurt_pmu *p = pmurt_host_pmu(host);
		if (p && pmurt_pmu_info(p, &info) == 0 && info.platform)
			snprintf(out, len, "%s", info.platform);
	}
	pmurt_host_close(host);
}

static bool core_detect(const struct core_pmu *c, const char *platform)
{
	if (!c->pvr_versions[0])
		return strcasecmp(platform, c->name) == 0;
	unsigned v = pvr_version();
	for (int i = 0; i < 3 && c->pvr_versions[i]; i++)
		if (v == c->pvr_versions[i])
			return true;
	return false;
}

static bool perf_event_there(void)
{
	return access("/proc/sys/kernel/perf_event_paranoid", F_OK) == 0 ||
	       access("/proc/sys/kernel/perf_counter_paranoid", F_OK) == 0;
}

/* "POWER10 PMU" -> "POWER10": libpfm4's description of its POWER PMUs */
static void core_desc(const struct pmurt_pmu_info *info, char *out, size_t len)
{
	snprintf(out, len, "%s", info->name ? info->name : "");
	size_t n = strlen(out);
	if (n > 4 && strcmp(out + n - 4, " PMU") == 0)
		out[n - 4] = 0;
}

static bool names_perf_event(const struct pfm_perf_table *perf, const char *name)
{
	for (int i = 0; i < perf->n; i++)
		if (strcasecmp(perf->events[i].name, name) == 0)
			return true;
	return false;
}

/* The description's events as libpfm4's way offers them: all but the
 * firmware set's duplicates (an alias of a perf event under skiboot's name)
 * and its names of the generic perf PMU's events ("cycles", "branches"),
 * which would shadow perf:: where libpfm4 resolves them.  Kept: the
 * firmware set's other names, such as POWER9's PM_LD_MISS_L1_ALT, the
 * kernel's name PAPI's presets use. */
static int index_events(struct pfm_pmu *p, int n, const struct pfm_perf_table *perf)
{
	p->to_pmurt = malloc(sizeof(int) * (size_t)(n ? n : 1));
	p->from_pmurt = malloc(sizeof(int) * (size_t)(n ? n : 1));
	if (!p->to_pmurt || !p->from_pmurt)
		return -ENOMEM;
	p->nevents = 0;
	for (int i = 0; i < n; i++) {
		struct pmurt_event_info info = {.sz = sizeof(info)};
		p->from_pmurt[i] = -1;
		if (pmurt_event_get(p->pmurt, i, &info) == 0 &&
		    !(info.firmware && (info.alias_of || names_perf_event(perf, info.name)))) {
			p->from_pmurt[i] = p->nevents;
			p->to_pmurt[p->nevents++] = i;
		}
	}
	return 0;
}

static int open_core(const struct core_pmu *c, struct pfm_pmu *p, const struct pfm_perf_table *perf)
{
	for (int i = 0; pmurt_builtin_name(i); i++) {
		if (strcasecmp(pmurt_builtin_name(i), c->name) != 0)
			continue;
		struct pmurt_pmu_info info = {.sz = sizeof(info)};
		int rc = pmurt_pmu_open(&p->pmurt, pmurt_builtin_name(i), NULL, NULL);
		if (rc == 0)
			rc = pmurt_pmu_info(p->pmurt, &info);
		if (rc)
			return rc;
		*p = (struct pfm_pmu){.id = c->id, .name = c->name, .type = PFM_PMU_TYPE_CORE,
				      .kind = PFM_KIND_CORE, .pmurt = p->pmurt,
				      .num_cntrs = info.ncounters - info.nfixed,
				      .num_fixed_cntrs = info.nfixed, .nevents = info.nevents,
				      .supported_plm = PFM_PERF_PLM};
		core_desc(&info, p->desc, sizeof(p->desc));
		return index_events(p, info.nevents, perf);
	}
	return 1; /* no description of that name: no such PMU */
}

static void pfm_pmu_release(struct pfm_pmu *p)
{
	pmurt_pmu_close(p->pmurt);
	free(p->to_pmurt);
	free(p->from_pmurt);
	p->pmurt = NULL;
	p->to_pmurt = p->from_pmurt = NULL;
}

/* LIBPFM_FORCE_PMU's match: the name's first characters against the value
 * up to a comma, without case (pfmlib_match_forced_pmu) */
static bool forced_match(const char *forced, const char *name)
{
	const char *comma = strchr(forced, ',');
	size_t l = comma ? (size_t)(comma - forced) : strlen(forced);
	return strncasecmp(name, forced, l) == 0;
}

/* LIBPFM_DISABLED_PMUS: a comma-separated list, each a substring of the
 * names it disables (pfmlib_is_blacklisted_pmu) */
static bool disabled(const char *list, const char *name)
{
	if (!list)
		return false;
	const char *p = list;
	while (*p) {
		size_t l = strcspn(p, ",");
		if (l) {
			char item[128];
			snprintf(item, sizeof(item), "%.*s", (int)(l < 127 ? l : 127), p);
			if (strstr(name, item))
				return true;
		}
		p += l + (p[l] == ',');
	}
	return false;
}

/* Every candidate PMU in libpfm4's order, made (not yet activated). */
static int candidates(struct pfm_state *st, struct pfm_pmu *v, int *n)
{
	*n = 0;
	for (size_t i = 0; i < sizeof(core_pmus) / sizeof(core_pmus[0]); i++) {
		int rc = open_core(&core_pmus[i], &v[*n], &st->perf);
		if (rc < 0) {
			pfm_pmu_release(&v[*n]);
			return rc;
		}
		if (rc == 0)
			(*n)++;
	}
	v[(*n)++] = (struct pfm_pmu){.id = PFM_PMU_PERF_EVENT, .name = "perf",
				     .desc = "perf_events generic PMU",
				     .type = PFM_PMU_TYPE_OS_GENERIC, .kind = PFM_KIND_PERF,
				     .supported_plm = PFM_PERF_PLM, .perf = &st->perf};
	v[(*n)++] = (struct pfm_pmu){.id = PFM_PMU_PERF_EVENT_RAW, .name = "perf_raw",
				     .desc = "perf_events raw PMU",
				     .type = PFM_PMU_TYPE_OS_GENERIC, .kind = PFM_KIND_RAW,
				     .supported_plm = PFM_PERF_PLM, .nevents = 1};
	return 0;
}

static bool detect(const struct pfm_pmu *p, const char *platform)
{
	for (size_t i = 0; i < sizeof(core_pmus) / sizeof(core_pmus[0]); i++)
		if (core_pmus[i].id == p->id)
			return core_detect(&core_pmus[i], platform);
	return perf_event_there();
}

/* Activate as libpfm4 does: detected (or forced) PMUs become present;
 * disabled ones are dropped; with a forced PMU the later ones are dropped
 * too.  Returns the number kept. */
static int activate(struct pfm_state *st, struct pfm_pmu *v, int n)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	const char *off = getenv("LIBPFM_DISABLED_PMUS");
	char platform[64] = "";
	int kept = 0;
	if (!forced)
		detected_platform(platform, sizeof(platform));
	for (int i = 0; i < n; i++) {
		struct pfm_pmu p = v[i];
		if (disabled(off, p.name)) {
			pfm_pmu_release(&p);
			continue;
		}
		p.active = forced ? forced_match(forced, p.name) : detect(&p, platform);
		v[kept++] = p;
		if (forced && p.active) {
			for (int j = i + 1; j < n; j++)
				pfm_pmu_release(&v[j]);
			break;
		}
	}
	(void)st;
	return kept;
}

int pfm_pmus_init(struct pfm_state *st)
{
	int n = 0, rc;
	st->pmus = calloc(sizeof(core_pmus) / sizeof(core_pmus[0]) + 2, sizeof(*st->pmus));
	if (!st->pmus)
		return -ENOMEM;
	rc = pfm_perf_table_init(&st->perf);
	if (!rc)
		rc = candidates(st, st->pmus, &n);
	if (rc) {
		st->npmus = n;
		return rc;
	}
	st->npmus = activate(st, st->pmus, n);
	for (int i = 0; i < st->npmus; i++) {
		struct pfm_pmu *p = &st->pmus[i];
		if (p->kind != PFM_KIND_PERF)
			continue;
		rc = p->active ? pfm_perf_table_add_tracepoints(&st->perf) : 0;
		if (rc)
			return rc;
		p->nevents = st->perf.n;
	}
	return 0;
}

void pfm_pmus_free(struct pfm_state *st)
{
	for (int i = 0; st->pmus && i < st->npmus; i++)
		pfm_pmu_release(&st->pmus[i]);
	free(st->pmus);
	pfm_perf_table_free(&st->perf);
	st->pmus = NULL;
	st->npmus = 0;
}

const struct pfm_pmu *pfm_pmu_by_id(pfm_pmu_t id)
{
	for (int i = 0; i < pfm_state.npmus; i++)
		if (pfm_state.pmus[i].id == id)
			return &pfm_state.pmus[i];
	return NULL;
}

int pfm_event_index(const struct pfm_pmu *pmu, int pidx)
{
	return (int)pmu->id << PFM_PMU_SHIFT | pidx;
}

/* The PMU and its own index of a public event index, or NULL. */
const struct pfm_pmu *pfm_pmu_of_index(int idx, int *pidx)
{
	if (!pfm_state.initialized || idx < 0)
		return NULL;
	const struct pfm_pmu *p = pfm_pmu_by_id((pfm_pmu_t)(idx >> PFM_PMU_SHIFT));
	*pidx = idx & PFM_PIDX_MASK;
	return p && *pidx < p->nevents ? p : NULL;
}
