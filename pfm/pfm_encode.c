/*
 * pfm_encode.c - an event string encoded for each OS layer:
 *   PFM_OS_NONE            the raw codes (pfm_pmu_encode_arg_t): a POWER
 *                          event's code, perf's id (cache events with their
 *                          op and result), a tracepoint's id, a raw code;
 *   PFM_OS_PERF_EVENT(_EXT) a struct perf_event_attr (pfm_perf_encode_arg_t):
 *                          POWER events as PERF_TYPE_RAW with the code in
 *                          config, as the kernel's power_pmu_event_init takes
 *                          them, perf's events with their own type, and the
 *                          modifiers applied as libpfm4 applies them.
 * The fully qualified string ("power10::PM_CYC:u=1:k=0:h=0...") and every
 * rule follow libpfm4 4.13.0's pfmlib_raw_pmu_encode, pfmlib_perf_event_encode,
 * pfm_perf_get_encoding and pfm_gen_powerpc_get_encoding, quirks included:
 * a perf_raw event's string under perf_event has no event name
 * ("perf_raw:::u=1..."), as pfm_perf_raw_get_perf_encoding writes none.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "pfm_priv.h"

static void fstr_cat(struct pfm_event *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fstr_cat(struct pfm_event *e, const char *fmt, ...)
{
	size_t len = strlen(e->fstr);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->fstr + len, sizeof(e->fstr) - len, fmt, ap);
	va_end(ap);
}

static bool is_set(const struct pfm_event *e, int id)
{
	for (int i = 0; i < e->nset; i++)
		if (e->set[i].id == id)
			return true;
	return false;
}

/* A cache event: its id, one op and one result (each group at most once,
 * a missing one its default), named in table order. */
static int encode_cache(struct pfm_event *e, const struct pfm_perf_event *pe)
{
	unsigned groups = (1u << pe->ngroups) - 1;
	e->codes[0] = pe->id;
	for (int i = 0; i < e->nset; i++) {
		const struct pfm_attr *a = &e->pattrs[e->set[i].id];
		if (a->ctrl != PFM_ATTR_CTRL_PMU)
			continue;
		unsigned bit = 1u << a->umask->group;
		if (!(groups & bit))
			return PFM_ERR_UMASK;
		groups &= ~bit;
		e->codes[0] |= a->code;
	}
	for (int g = 0; groups; g++, groups >>= 1) {
		if (!(groups & 1))
			continue;
		int found = -1;
		for (int u = 0; u < pe->numasks && found < 0; u++)
			if (pe->umasks[u].group == g && pe->umasks[u].dflt)
				found = u;
		if (found < 0 || e->nset == PFM_MAX_SET_ATTRS)
			return PFM_ERR_UMASK;
		e->set[e->nset].id = found; /* unit masks come first in pattrs */
		e->set[e->nset++].value = 0;
		e->codes[0] |= pe->umasks[found].code;
	}
	fstr_cat(e, "%s", pe->name);
	for (int u = 0; u < pe->numasks; u++)
		if (is_set(e, u))
			fstr_cat(e, ":%s", pe->umasks[u].name);
	return PFM_SUCCESS;
}

/* A tracepoint: its subsystem with at most one tracepoint. */
static int encode_tracepoint(struct pfm_event *e, const struct pfm_perf_event *pe)
{
	int n = 0;
	fstr_cat(e, "%s", pe->name);
	for (int i = 0; i < e->nset; i++) {
		const struct pfm_attr *a = &e->pattrs[e->set[i].id];
		if (a->ctrl != PFM_ATTR_CTRL_PMU)
			continue;
		if (++n > 1)
			return PFM_ERR_FEATCOMB;
		e->codes[0] = a->code;
		fstr_cat(e, ":%s", a->name);
	}
	return PFM_SUCCESS;
}

int pfm_encode_pmu(struct pfm_event *e)
{
	e->count = 1;
	e->fstr[0] = 0;
	if (e->pmu->kind == PFM_KIND_RAW) {
		if (e->os == PFM_OS_NONE)
			fstr_cat(e, "r%" PRIx64, e->codes[0]);
		return PFM_SUCCESS;
	}
	if (e->pmu->kind == PFM_KIND_CORE) {
		struct pfm_event_view v;
		pfm_event_view(e->pmu, e->event, &v);
		e->codes[0] = v.code;
		fstr_cat(e, "%s", v.name);
		return PFM_SUCCESS;
	}
	const struct pfm_perf_event *pe = &e->pmu->perf->events[e->event];
	switch (pe->type) {
	case PERF_TYPE_HW_CACHE:
		return encode_cache(e, pe);
	case PERF_TYPE_TRACEPOINT:
		return encode_tracepoint(e, pe);
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_SOFTWARE:
	case PERF_TYPE_RAW:
		e->codes[0] = pe->id;
		fstr_cat(e, "%s", pe->name);
		return PFM_SUCCESS;
	}
	return PFM_ERR_NOTSUPP;
}

int pfm_full_name(const struct pfm_event *e, char **fstr)
{
	if (!fstr)
		return PFM_SUCCESS;
	size_t len = strlen(e->pmu->name) + 2 + strlen(e->fstr) + 1;
	*fstr = malloc(len);
	if (!*fstr)
		return PFM_ERR_NOMEM;
	snprintf(*fstr, len, "%s::%s", e->pmu->name, e->fstr);
	return PFM_SUCCESS;
}

int pfm_encode_none(const char *str, int dfl_plm, void *args)
{
	pfm_pmu_encode_arg_t arg, *uarg = args;
	struct pfm_event e;
	(void)dfl_plm; /* no privilege levels in a raw code */
	size_t sz = pfm_check_size(uarg, uarg->size, PFM_RAW_ENCODE_ABI0, sizeof(arg));
	if (!sz)
		return PFM_ERR_INVAL;
	memset(&arg, 0, sizeof(arg));
	memcpy(&arg, uarg, sz);
	int rc = pfm_parse_event(str, PFM_OS_NONE, &e);
	if (rc)
		return rc;
	rc = pfm_encode_pmu(&e);
	bool allocated = false;
	if (!rc && !arg.codes) {
		arg.codes = malloc(sizeof(uint64_t) * (size_t)e.count);
		allocated = arg.codes != NULL;
		rc = allocated ? PFM_SUCCESS : PFM_ERR_NOMEM;
	} else if (!rc && arg.count < e.count) {
		rc = PFM_ERR_TOOSMALL;
	}
	if (!rc) {
		arg.idx = pfm_event_index(e.pmu, e.event);
		arg.count = e.count;
		memcpy(arg.codes, e.codes, sizeof(uint64_t) * (size_t)e.count);
		rc = pfm_full_name(&e, arg.fstr);
	}
	if (rc && allocated)
		free(arg.codes);
	if (!rc)
		memcpy(uarg, &arg, sz);
	pfm_event_release(&e);
	return rc;
}

/* The privilege levels and perf_event fields the string's modifiers set. */
struct perf_mods {
	int plm, vmx_plm;
	bool has_plm, has_vmx;
	int cpu;
	bool pinned;
};

static int apply_modifier(struct perf_event_attr *attr, int a, uint64_t v, struct perf_mods *m)
{
	switch (a) {
	case PFM_PA_U: m->plm |= v ? PFM_PLM3 : 0; m->has_plm = true; break;
	case PFM_PA_K: m->plm |= v ? PFM_PLM0 : 0; m->has_plm = true; break;
	case PFM_PA_H: m->plm |= v ? PFM_PLMH : 0; m->has_plm = true; break;
	case PFM_PA_PERIOD:
		if (!v || attr->freq)
			return PFM_ERR_ATTR_VAL;
		attr->sample_period = v;
		break;
	case PFM_PA_FREQ:
		if (!v || attr->sample_period)
			return PFM_ERR_ATTR_VAL;
		attr->sample_freq = v;
		attr->freq = 1;
		break;
	case PFM_PA_PRECISE:
		if (v > 3)
			return PFM_ERR_ATTR_VAL;
		attr->precise_ip = v & 3;
		break;
	case PFM_PA_EXCL: attr->exclusive = attr->exclusive || v; break;
	/* libpfm4 turns guest or host monitoring on whatever the value */
	case PFM_PA_MG: m->vmx_plm |= PFM_PLM3; m->has_vmx = true; break;
	case PFM_PA_MH: m->vmx_plm |= PFM_PLM0; m->has_vmx = true; break;
	case PFM_PA_CPU:
		if (v >= INT_MAX)
			return PFM_ERR_ATTR_VAL;
		m->cpu = (int)v;
		break;
	case PFM_PA_PINNED: m->pinned = v != 0; break;
	case PFM_PA_HW_SMPL: attr->precise_ip = v != 0; break;
	}
	return PFM_SUCCESS;
}

static void perf_type_config(const struct pfm_event *e, struct perf_event_attr *attr)
{
	attr->config = e->codes[0];
	if (e->pmu->kind == PFM_KIND_PERF) {
		attr->type = e->pmu->perf->events[e->event].type;
		return;
	}
	attr->type = PERF_TYPE_RAW;
	if (e->pmu->kind == PFM_KIND_RAW) {
		attr->config1 = e->codes[1];
		attr->config2 = e->codes[2];
	}
}

static void perf_fstr(struct pfm_event *e, const struct perf_event_attr *attr, int plm)
{
	for (int i = 0; i < e->npattrs; i++) {
		const struct pfm_attr *a = &e->pattrs[i];
		if (a->ctrl != PFM_ATTR_CTRL_PERF_EVENT)
			continue;
		const char *n = pfm_perf_attr_name(a->idx);
		switch (a->idx) {
		case PFM_PA_K: fstr_cat(e, ":%s=%d", n, !!(plm & PFM_PLM0)); break;
		case PFM_PA_U: fstr_cat(e, ":%s=%d", n, !!(plm & PFM_PLM3)); break;
		case PFM_PA_H: fstr_cat(e, ":%s=%d", n, !!(plm & PFM_PLMH)); break;
		case PFM_PA_PRECISE:
		case PFM_PA_HW_SMPL: fstr_cat(e, ":%s=%d", n, (int)attr->precise_ip); break;
		case PFM_PA_PERIOD:
		case PFM_PA_FREQ:
			if (attr->sample_period)
				fstr_cat(e, ":%s=%" PRIu64, n, (uint64_t)attr->sample_period);
			break;
		case PFM_PA_MG: fstr_cat(e, ":%s=%d", n, !attr->exclude_guest); break;
		case PFM_PA_MH: fstr_cat(e, ":%s=%d", n, !attr->exclude_host); break;
		case PFM_PA_EXCL: fstr_cat(e, ":%s=%d", n, (int)attr->exclusive); break;
		}
	}
}

/* Modifiers onto attr; the final privilege mask into *plm_out. */
static int apply_modifiers(struct pfm_event *e, struct perf_event_attr *attr, int dfl_plm,
			   struct perf_mods *m, int *plm_out)
{
	for (int i = 0; i < e->nset; i++) {
		const struct pfm_attr *a = &e->pattrs[e->set[i].id];
		if (a->ctrl != PFM_ATTR_CTRL_PERF_EVENT)
			continue;
		int rc = apply_modifier(attr, a->idx, e->set[i].value, m);
		if (rc)
			return rc;
	}
	int plm = m->has_plm ? m->plm : dfl_plm;
	int vmx = m->has_vmx ? m->vmx_plm : PFM_PLM0; /* exclude_guest by default */
	/* perf_event excludes: a level the PMU cannot tell apart is never excluded */
	int unsupported = (int)(~e->pmu->supported_plm & PFM_PLM_EVERY);
	plm |= unsupported;
	vmx |= unsupported;
	attr->exclude_user = !(plm & PFM_PLM3);
	attr->exclude_kernel = !(plm & PFM_PLM0);
	attr->exclude_hv = !(plm & PFM_PLMH);
	attr->exclude_guest = !(vmx & PFM_PLM3);
	attr->exclude_host = !(vmx & PFM_PLM0);
	attr->pinned = m->pinned;
	*plm_out = plm;
	return PFM_SUCCESS;
}

int pfm_encode_perf(const char *str, int dfl_plm, pfm_os_t os, void *args)
{
	pfm_perf_encode_arg_t arg, *uarg = args;
	struct perf_event_attr attr;
	struct pfm_event e;
	size_t sz = pfm_check_size(uarg, uarg->size, PFM_PERF_ENCODE_ABI0, sizeof(arg));
	if (!sz || !uarg->attr)
		return PFM_ERR_INVAL;
	memset(&arg, 0, sizeof(arg));
	memcpy(&arg, uarg, sz);
	/* the caller's attr at its own size (0: the first ABI's), kept where
	 * the encoding does not write */
	uint32_t user_size = arg.attr->size;
	size_t asz = user_size == 0 ? PERF_ATTR_SIZE_VER0
				    : user_size < sizeof(attr) ? user_size : sizeof(attr);
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, arg.attr, asz);
	attr.size = sizeof(attr);
	int rc = pfm_parse_event(str, os, &e);
	if (rc)
		return rc;
	struct perf_mods m = {.cpu = -1};
	int plm = 0;
	rc = pfm_encode_pmu(&e);
	if (!rc) {
		perf_type_config(&e, &attr);
		rc = apply_modifiers(&e, &attr, dfl_plm, &m, &plm);
	}
	if (!rc) {
		arg.idx = pfm_event_index(e.pmu, e.event);
		arg.cpu = m.cpu;
		memcpy(arg.attr, &attr, asz);
		arg.attr->size = user_size;
		if (arg.fstr) {
			perf_fstr(&e, &attr, plm);
			rc = pfm_full_name(&e, arg.fstr);
		}
	}
	if (!rc)
		memcpy(uarg, &arg, sz);
	pfm_event_release(&e);
	return rc;
}
