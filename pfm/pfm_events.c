/*
 * pfm_events.c - one event of any PMU as libpfm4 shows it (name, description,
 * equivalent, code, unit masks), finding an event by name, and the
 * attributes an event accepts under each OS layer: its unit masks, then
 * perf_event's modifiers less those the PMU drops (libpfm4's
 * validate_pattrs: pfmlib_powerpc_perf_event.c drops precise and hw_smpl on
 * POWER; pfmlib_perf_event_pmu.c drops h and precise on software events and
 * tracepoints and hw_smpl everywhere; perf_raw drops none).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/perf_event.h>

#include "pfm_priv.h"

/* perf_event's modifiers (libpfm4's perf_event_ext_mods; PFM_OS_PERF_EVENT
 * offers the five marked basic) */
static const struct {
	const char *name, *desc;
	pfm_attr_t type;
	bool basic;
} perf_attrs[PFM_PA_COUNT] = {
	[PFM_PA_U] = {"u", "monitor at user level", PFM_ATTR_MOD_BOOL, true},
	[PFM_PA_K] = {"k", "monitor at kernel level", PFM_ATTR_MOD_BOOL, true},
	[PFM_PA_H] = {"h", "monitor at hypervisor level", PFM_ATTR_MOD_BOOL, true},
	[PFM_PA_PERIOD] = {"period", "sampling period", PFM_ATTR_MOD_INTEGER, false},
	[PFM_PA_FREQ] = {"freq", "sampling frequency (Hz)", PFM_ATTR_MOD_INTEGER, false},
	[PFM_PA_PRECISE] = {"precise", "precise event sampling", PFM_ATTR_MOD_INTEGER, false},
	[PFM_PA_EXCL] = {"excl", "exclusive access", PFM_ATTR_MOD_BOOL, false},
	[PFM_PA_MG] = {"mg", "monitor guest execution", PFM_ATTR_MOD_BOOL, true},
	[PFM_PA_MH] = {"mh", "monitor host execution", PFM_ATTR_MOD_BOOL, true},
	[PFM_PA_CPU] = {"cpu", "CPU to program", PFM_ATTR_MOD_INTEGER, false},
	[PFM_PA_PINNED] = {"pinned", "pin event to counters", PFM_ATTR_MOD_BOOL, false},
	[PFM_PA_HW_SMPL] = {"hw_smpl", "enable hardware sampling", PFM_ATTR_MOD_BOOL, false},
};

bool pfm_os_active(pfm_os_t os)
{
	return os == PFM_OS_NONE ||
	       ((os == PFM_OS_PERF_EVENT || os == PFM_OS_PERF_EVENT_EXT) && pfm_state.perf_os);
}

int pfm_event_view(const struct pfm_pmu *pmu, int pidx, struct pfm_event_view *v)
{
	memset(v, 0, sizeof(*v));
	if (pidx < 0 || pidx >= pmu->nevents)
		return PFM_ERR_INVAL;
	if (pmu->kind == PFM_KIND_CORE) {
		struct pmurt_event_info info = {.sz = sizeof(info)};
		if (pmurt_event_get(pmu->pmurt, pmu->to_pmurt[pidx], &info))
			return PFM_ERR_INVAL;
		*v = (struct pfm_event_view){.name = info.name, .desc = info.description,
					     .code = info.code};
	} else if (pmu->kind == PFM_KIND_PERF) {
		const struct pfm_perf_event *e = &pmu->perf->events[pidx];
		*v = (struct pfm_event_view){.name = e->name, .desc = e->desc, .equiv = e->equiv,
					     .code = e->id, .precise = e->precise,
					     .numasks = e->numasks};
	} else {
		*v = (struct pfm_event_view){.name = "r0000",
					     .desc = "perf_events raw event syntax: r[0-9a-fA-F]+"};
	}
	return PFM_SUCCESS;
}

/* perf's raw syntax as libpfm4 reads it: 'r' then hex digits to the end */
static int raw_code(const char *s, uint64_t *code)
{
	char *end = NULL;
	if (s[0] != 'r' || !isxdigit((unsigned char)s[1]))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s + 1, &end, 16);
	if (v == ULLONG_MAX || errno == ERANGE || *end)
		return -1;
	*code = v;
	return 0;
}

/* The PMU's own index of the event so named (without case), or -1. */
int pfm_event_lookup(const struct pfm_pmu *pmu, const char *name, uint64_t *raw)
{
	if (pmu->kind == PFM_KIND_CORE) {
		int i = pmurt_event_find(pmu->pmurt, name, NULL, NULL);
		return i >= 0 ? pmu->from_pmurt[i] : -1;
	}
	if (pmu->kind == PFM_KIND_RAW)
		return raw_code(name, raw) == 0 ? 0 : -1;
	for (int i = 0; i < pmu->perf->n; i++)
		if (strcasecmp(pmu->perf->events[i].name, name) == 0)
			return i;
	return -1;
}

/* Whether the PMU keeps modifier a for event pidx (validate_pattrs). */
static bool keeps(const struct pfm_pmu *pmu, int pidx, int a)
{
	if (pmu->kind == PFM_KIND_RAW)
		return true;
	if (a == PFM_PA_HW_SMPL)
		return false;
	if (pmu->kind == PFM_KIND_CORE)
		return a != PFM_PA_PRECISE;
	uint32_t type = pmu->perf->events[pidx].type;
	unsigned plm = pmu->supported_plm;
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE)
		return !(a == PFM_PA_H && !(plm & PFM_PLMH)) && !(a == PFM_PA_U && !(plm & PFM_PLM3)) &&
		       !(a == PFM_PA_K && !(plm & PFM_PLM0));
	return a != PFM_PA_PRECISE && a != PFM_PA_H;
}

int pfm_build_pattrs(struct pfm_event *e)
{
	const struct pfm_pmu *pmu = e->pmu;
	const struct pfm_perf_event *pe = pmu->kind == PFM_KIND_PERF ? &pmu->perf->events[e->event]
								      : NULL;
	int numasks = pe ? pe->numasks : 0;
	if (!pfm_os_active(e->os))
		return PFM_ERR_NOTSUPP;
	e->pattrs = e->inline_pattrs;
	if (numasks + PFM_PA_COUNT > PFM_INLINE_PATTRS) {
		e->pattrs = calloc((size_t)numasks + PFM_PA_COUNT, sizeof(*e->pattrs));
		if (!e->pattrs) {
			e->pattrs = e->inline_pattrs;
			return PFM_ERR_NOMEM;
		}
	}
	int n = 0;
	for (int u = 0; u < numasks; u++)
		e->pattrs[n++] = (struct pfm_attr){.name = pe->umasks[u].name,
						   .desc = pe->umasks[u].desc, .type = PFM_ATTR_UMASK,
						   .ctrl = PFM_ATTR_CTRL_PMU, .code = pe->umasks[u].code,
						   .idx = u, .umask = &pe->umasks[u]};
	for (int a = 0; e->os != PFM_OS_NONE && a < PFM_PA_COUNT; a++) {
		if ((e->os == PFM_OS_PERF_EVENT && !perf_attrs[a].basic) || !keeps(pmu, e->event, a))
			continue;
		e->pattrs[n++] = (struct pfm_attr){.name = perf_attrs[a].name,
						   .desc = perf_attrs[a].desc,
						   .type = perf_attrs[a].type,
						   .ctrl = PFM_ATTR_CTRL_PERF_EVENT, .code = (uint64_t)a,
						   .idx = a};
	}
	e->npattrs = n;
	return PFM_SUCCESS;
}

void pfm_event_release(struct pfm_event *e)
{
	if (e->pattrs && e->pattrs != e->inline_pattrs)
		free(e->pattrs);
	e->pattrs = NULL;
}

const char *pfm_perf_attr_name(int a)
{
	return perf_attrs[a].name;
}
