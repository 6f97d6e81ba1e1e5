/*
 * pfm_api.c - the functions libpfm.so.4 exports (pfm_pmu_validate apart, in
 * pfm_validate.c, pfm_strerror in pfm_abi.c), with libpfm4 4.13.0's
 * ABI: its prototypes (the installed <perfmon/pfmlib.h>), its sized structs
 * (a size of 0 means the first ABI's, a smaller one is refused, bytes past
 * ours must be zero, the size written back is ours), its error codes and its
 * checks in its order (lib/pfmlib_common.c, pfmlib_perf_event.c).
 *
 * libpfm4's ABI has no handle: the PMUs live in one state from
 * pfm_initialize to pfm_terminate, the one global state of the project's
 * code, guarded by a mutex while it is made or freed.  As in libpfm4, the
 * other calls only read it and may run in parallel; pfm_terminate must not
 * run beside them.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pfm_priv.h"
#include "perfmon/pfmlib_pmurt.h"

/* libpfm4's ABI0 sizes are ours: nothing before the size fields moved */
_Static_assert(sizeof(pfm_pmu_info_t) == PFM_PMU_INFO_ABI0, "pfm_pmu_info_t");
_Static_assert(sizeof(pfm_event_info_t) == PFM_EVENT_INFO_ABI0, "pfm_event_info_t");
_Static_assert(sizeof(pfm_event_attr_info_t) == PFM_ATTR_INFO_ABI0, "pfm_event_attr_info_t");
_Static_assert(sizeof(pfm_pmu_encode_arg_t) == PFM_RAW_ENCODE_ABI0, "pfm_pmu_encode_arg_t");
_Static_assert(sizeof(pfm_perf_encode_arg_t) == PFM_PERF_ENCODE_ABI0, "pfm_perf_encode_arg_t");

struct pfm_state pfm_state;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;

int pfm_initialize(void)
{
	pthread_mutex_lock(&state_lock);
	if (!pfm_state.initialized) {
		pfm_state.encode_inactive = getenv("LIBPFM_ENCODE_INACTIVE") != NULL;
		pfm_state.perf_os = access("/proc/sys/kernel/perf_event_paranoid", F_OK) == 0;
		int rc = pfm_pmus_init(&pfm_state);
		pfm_state.init_ret = rc == 0 ? PFM_SUCCESS : rc == -ENOMEM ? PFM_ERR_NOMEM : PFM_ERR_NOTSUPP;
		if (rc)
			pfm_pmus_free(&pfm_state);
		pfm_state.initialized = true;
	}
	int ret = pfm_state.init_ret;
	pthread_mutex_unlock(&state_lock);
	return ret;
}

void pfm_terminate(void)
{
	pthread_mutex_lock(&state_lock);
	if (pfm_state.initialized) {
		pfm_pmus_free(&pfm_state);
		memset(&pfm_state, 0, sizeof(pfm_state));
	}
	pthread_mutex_unlock(&state_lock);
}

int pfm_get_version(void)
{
	return LIBPFM_VERSION;
}

int pfm_get_pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *uinfo)
{
	if (!pfm_state.initialized)
		return PFM_ERR_NOINIT;
	if ((unsigned)pmu >= PFM_PMU_ID_END || !uinfo)
		return PFM_ERR_INVAL;
	size_t sz = pfm_check_size(uinfo, uinfo->size, PFM_PMU_INFO_ABI0, sizeof(*uinfo));
	if (!sz)
		return PFM_ERR_INVAL;
	const struct pfm_pmu *p = pfm_pmu_by_id(pmu);
	if (!p)
		return PFM_ERR_NOTSUPP;
	pfm_pmu_info_t info;
	memset(&info, 0, sizeof(info));
	info.name = p->name;
	info.desc = p->desc;
	info.size = sz;
	info.pmu = p->id;
	info.type = p->type;
	info.nevents = p->nevents;
	info.first_event = p->nevents ? pfm_event_index(p, 0) : -1;
	info.max_encoding = 1;
	info.num_cntrs = p->num_cntrs;
	info.num_fixed_cntrs = p->num_fixed_cntrs;
	info.is_present = p->active;
	memcpy(uinfo, &info, sz);
	return PFM_SUCCESS;
}

int pfm_get_event_next(int idx)
{
	int pidx;
	const struct pfm_pmu *p = pfm_pmu_of_index(idx, &pidx);
	if (!p || pidx + 1 >= p->nevents)
		return -1;
	return pfm_event_index(p, pidx + 1);
}

int pfm_find_event(const char *str)
{
	struct pfm_event e;
	if (!pfm_state.initialized)
		return PFM_ERR_NOINIT;
	if (!str)
		return PFM_ERR_INVAL;
	int rc = pfm_parse_event(str, PFM_OS_NONE, &e);
	if (rc)
		return rc;
	pfm_event_release(&e);
	return pfm_event_index(e.pmu, e.event);
}

/* The attributes of event idx under os, in e (release it). */
static int event_attrs(int idx, pfm_os_t os, struct pfm_event *e)
{
	int pidx;
	if (!pfm_state.initialized)
		return PFM_ERR_NOINIT;
	if ((unsigned)os >= PFM_OS_MAX)
		return PFM_ERR_INVAL;
	const struct pfm_pmu *p = pfm_pmu_of_index(idx, &pidx);
	if (!p)
		return PFM_ERR_INVAL;
	memset(e, 0, offsetof(struct pfm_event, inline_pattrs));
	e->pmu = p;
	e->event = pidx;
	e->os = os;
	return PFM_SUCCESS;
}

int pfm_get_event_info(int idx, pfm_os_t os, pfm_event_info_t *uinfo)
{
	struct pfm_event e;
	int rc = event_attrs(idx, os, &e);
	if (rc)
		return rc;
	if (!uinfo)
		return PFM_ERR_INVAL;
	size_t sz = pfm_check_size(uinfo, uinfo->size, PFM_EVENT_INFO_ABI0, sizeof(*uinfo));
	if (!sz)
		return PFM_ERR_INVAL;
	struct pfm_event_view v;
	pfm_event_view(e.pmu, e.event, &v);
	rc = pfm_build_pattrs(&e);
	if (rc)
		return rc;
	pfm_event_info_t info;
	memset(&info, 0, sizeof(info));
	info.name = v.name;
	info.desc = v.desc;
	info.equiv = v.equiv;
	info.size = sz;
	info.code = v.code;
	info.pmu = e.pmu->id;
	info.dtype = PFM_DTYPE_UINT64;
	info.idx = idx;
	info.nattrs = e.npattrs;
	info.is_precise = v.precise;
	info.is_speculative = PFM_EVENT_INFO_SPEC_NA;
	info.support_hw_smpl = v.precise;
	pfm_event_release(&e);
	memcpy(uinfo, &info, sz);
	return PFM_SUCCESS;
}

int pfm_get_event_attr_info(int idx, int attr_idx, pfm_os_t os, pfm_event_attr_info_t *uinfo)
{
	struct pfm_event e;
	if (pfm_state.initialized && attr_idx < 0)
		return PFM_ERR_INVAL;
	int rc = event_attrs(idx, os, &e);
	if (rc)
		return rc;
	if (!uinfo)
		return PFM_ERR_INVAL;
	size_t sz = pfm_check_size(uinfo, uinfo->size, PFM_ATTR_INFO_ABI0, sizeof(*uinfo));
	if (!sz)
		return PFM_ERR_INVAL;
	rc = pfm_build_pattrs(&e);
	if (rc)
		return rc;
	if (attr_idx >= e.npattrs) {
		pfm_event_release(&e);
		return PFM_ERR_INVAL;
	}
	const struct pfm_attr *a = &e.pattrs[attr_idx];
	/* field by field, as libpfm4: bytes of a larger caller struct stay */
	uinfo->name = a->name;
	uinfo->desc = a->desc;
	uinfo->equiv = NULL;
	uinfo->size = sz;
	uinfo->code = a->code;
	uinfo->type = a->type;
	uinfo->idx = attr_idx;
	uinfo->ctrl = a->ctrl;
	uinfo->is_dfl = 0;
	uinfo->is_precise = a->precise;
	uinfo->is_speculative = PFM_EVENT_INFO_SPEC_NA;
	uinfo->support_hw_smpl = a->precise;
	uinfo->reserved_bits = 0;
	uinfo->dfl_val64 = 0;
	pfm_event_release(&e);
	return PFM_SUCCESS;
}

int pfm_get_os_event_encoding(const char *str, int dfl_plm, pfm_os_t os, void *args)
{
	if (!pfm_state.initialized)
		return PFM_ERR_NOINIT;
	if (!args || !str || (dfl_plm & ~PFM_PLM_EVERY))
		return PFM_ERR_INVAL;
	if (os == PFM_OS_NONE)
		return pfm_encode_none(str, dfl_plm, args);
	if ((os == PFM_OS_PERF_EVENT || os == PFM_OS_PERF_EVENT_EXT) && pfm_os_active(os))
		return pfm_encode_perf(str, dfl_plm, os, args);
	if ((int)os == PFM_OS_PMURT_GROUP)
		return pfm_encode_group(str, dfl_plm, args);
	return PFM_ERR_NOTSUPP;
}

int pfm_get_event_encoding(const char *str, int dfl_plm, char **fstr, int *idx,
			   uint64_t **codes, int *count)
{
	if (!str || !codes || !count || (*codes && !*count) || (!*codes && *count))
		return PFM_ERR_INVAL;
	pfm_pmu_encode_arg_t arg;
	memset(&arg, 0, sizeof(arg));
	arg.fstr = fstr;
	arg.codes = *codes;
	arg.count = *count;
	arg.size = sizeof(arg);
	int rc = pfm_get_os_event_encoding(str, dfl_plm, PFM_OS_NONE, &arg);
	if (rc)
		return rc;
	*codes = arg.codes;
	*count = arg.count;
	if (idx)
		*idx = arg.idx;
	return PFM_SUCCESS;
}

int pfm_get_perf_event_encoding(const char *str, int dfl_plm, struct perf_event_attr *attr,
				char **fstr, int *idx)
{
	if (!pfm_state.initialized)
		return PFM_ERR_NOINIT;
	if (!attr || !str || (dfl_plm & ~PFM_PLM_EVERY))
		return PFM_ERR_INVAL;
	pfm_perf_encode_arg_t arg;
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.fstr = fstr;
	int rc = pfm_get_os_event_encoding(str, dfl_plm, PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc)
		return rc;
	if (idx)
		*idx = arg.idx;
	return PFM_SUCCESS;
}
