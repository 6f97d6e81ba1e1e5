/*
 * pfm_priv.h - the libpfm4 ABI room's own types: the PMUs libpfm.so.4 offers
 * (POWER core PMUs from libpmurt's descriptions, libpfm4's generic "perf" and
 * "perf_raw"), their events and attributes, and a parsed event string.
 *
 * The ABI (pfm_*_info_t, pfm_*_encode_arg_t, PFM_* codes) is the installed
 * <perfmon/pfmlib.h>; the behaviour follows Debian's libpfm4 4.13.0
 * (lib/pfmlib_common.c, pfmlib_perf_event.c, pfmlib_perf_event_pmu.c,
 * pfmlib_perf_event_raw.c, pfmlib_powerpc.c), read and written anew.
 * Only pmurt.h's public API reaches libpmurt.
 */
#ifndef PFM_PRIV_H
#define PFM_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

#include "pmurt.h"

/* event index = PMU id << 21 | the PMU's own index (libpfm4's encoding) */
#define PFM_PMU_SHIFT 21
#define PFM_PIDX_MASK ((1 << PFM_PMU_SHIFT) - 1)
/* libpfm4's limits: attributes set in one string, codes per event, the
 * fully qualified string */
#define PFM_MAX_SET_ATTRS 64
#define PFM_MAX_CODES 4
#define PFM_FSTR_LEN 256
/* all privilege levels perf_event can exclude, as libpfm4's PERF_PLM_ALL */
#define PFM_PERF_PLM (PFM_PLM0 | PFM_PLM3 | PFM_PLMH)
#define PFM_PLM_EVERY (PFM_PLM0 | PFM_PLM1 | PFM_PLM2 | PFM_PLM3 | PFM_PLMH)
/* Power11 has no id in libpfm4 4.13.0: it takes the first id past that
 * version's PFM_PMU_MAX (517); PAPI walks ids until PFM_ERR_INVAL, so it
 * finds it.  Callers name PMUs, never their ids. */
#define PFM_PMU_ID_POWER11 517
#define PFM_PMU_ID_END 518

/* The perf_event attributes, indexed as libpfm4's PERF_ATTR_* (the index is
 * also the attribute's code in pfm_event_attr_info_t). */
enum pfm_perf_attr {
	PFM_PA_U, PFM_PA_K, PFM_PA_H, PFM_PA_PERIOD, PFM_PA_FREQ, PFM_PA_PRECISE,
	PFM_PA_EXCL, PFM_PA_MG, PFM_PA_MH, PFM_PA_CPU, PFM_PA_PINNED, PFM_PA_HW_SMPL,
	PFM_PA_COUNT
};

enum pfm_pmu_kind { PFM_KIND_CORE, PFM_KIND_PERF, PFM_KIND_RAW };

/* A unit mask of a generic perf event (cache op/result, tracepoint). */
struct pfm_umask {
	const char *name;
	const char *desc;
	uint64_t code;
	int group;       /* cache events: 0 op, 1 result */
	bool dflt;       /* the group's default */
};

/* An event of the generic perf PMU. */
struct pfm_perf_event {
	const char *name;
	const char *desc;
	const char *equiv;   /* "PERF_COUNT_HW_CACHE_L1D:READ:ACCESS", or NULL */
	uint32_t type;       /* PERF_TYPE_* */
	uint64_t id;
	bool precise;
	int ngroups;         /* unit-mask groups (cache events: 2) */
	int numasks;
	const struct pfm_umask *umasks;
};

struct pfm_perf_table {
	struct pfm_perf_event *events;
	int n, cap;
	/* tracepoints read at initialisation own their strings */
	char **owned;
	int nowned;
	struct pfm_umask **owned_umasks;
	int nowned_umasks;
};

struct pfm_pmu {
	pfm_pmu_t id;
	const char *name;       /* libpfm4's name: "power10", "perf" */
	char desc[64];
	pfm_pmu_type_t type;
	enum pfm_pmu_kind kind;
	int num_cntrs, num_fixed_cntrs;
	unsigned supported_plm;
	bool active;            /* is_present */
	int nevents;
	struct pmurt_pmu *pmurt; /* core PMUs: the description */
	int *to_pmurt;          /* core PMUs: our index -> the description's */
	int *from_pmurt;        /* ... and back (-1: not offered) */
	const struct pfm_perf_table *perf; /* the generic perf PMU */
};

/* One attribute an event accepts (a unit mask or a perf_event modifier). */
struct pfm_attr {
	const char *name;
	const char *desc;
	pfm_attr_t type;
	pfm_attr_ctrl_t ctrl;
	uint64_t code;
	int idx;                /* umask index, or enum pfm_perf_attr */
	bool precise;
	const struct pfm_umask *umask;
};

/* Attributes held in the event itself; an event with more (a tracepoint
 * subsystem has hundreds of unit masks) gets them from the heap. */
#define PFM_INLINE_PATTRS (PFM_PA_COUNT + 8)

/* An event string parsed against one PMU; pfm_event_release frees it. */
struct pfm_event {
	const struct pfm_pmu *pmu;
	int event;                 /* the PMU's own index */
	pfm_os_t os;
	int npattrs;               /* what the event accepts */
	struct pfm_attr *pattrs;   /* inline_pattrs or the heap */
	int nset;                  /* what the string set, in order */
	struct { int id; uint64_t value; } set[PFM_MAX_SET_ATTRS];
	uint64_t codes[PFM_MAX_CODES];
	int count;
	char fstr[PFM_FSTR_LEN];
	struct pfm_attr inline_pattrs[PFM_INLINE_PATTRS]; /* last: not cleared */
};

/* The library's state: libpfm4's ABI has no handle, so the PMUs live here
 * from pfm_initialize to pfm_terminate (pfm_api.c). */
struct pfm_state {
	bool initialized;
	int init_ret;
	bool encode_inactive;      /* LIBPFM_ENCODE_INACTIVE */
	bool perf_os;              /* perf_event's OS layers are there */
	struct pfm_pmu *pmus;      /* in libpfm4's search order */
	int npmus;
	struct pfm_perf_table perf;
};

extern struct pfm_state pfm_state;

/* pfm_pmus.c */
int pfm_pmus_init(struct pfm_state *st);
void pfm_pmus_free(struct pfm_state *st);
const struct pfm_pmu *pfm_pmu_by_id(pfm_pmu_t id);
const struct pfm_pmu *pfm_pmu_of_index(int idx, int *pidx);
int pfm_event_index(const struct pfm_pmu *pmu, int pidx);

/* pfm_events.c: one event of a PMU, whatever its kind */
struct pfm_event_view {
	const char *name, *desc, *equiv;
	uint64_t code;
	bool precise;
	int numasks;
};
int pfm_event_view(const struct pfm_pmu *pmu, int pidx, struct pfm_event_view *v);
int pfm_event_lookup(const struct pfm_pmu *pmu, const char *name, uint64_t *raw_code);
/* Fill e->pattrs for e->pmu, e->event and e->os: the event's unit masks, then
 * the OS layer's modifiers the PMU keeps (libpfm4's validate_pattrs). */
int pfm_build_pattrs(struct pfm_event *e);
void pfm_event_release(struct pfm_event *e);
bool pfm_os_active(pfm_os_t os);
const char *pfm_perf_attr_name(int attr);

/* pfm_perf_table.c: the generic perf PMU's events; the host's tracepoints
 * are added when the PMU is present, as libpfm4's pfm_perf_init adds them */
int pfm_perf_table_init(struct pfm_perf_table *t);
int pfm_perf_table_add_tracepoints(struct pfm_perf_table *t);
void pfm_perf_table_free(struct pfm_perf_table *t);
int pfm_perf_table_check(const struct pfm_perf_table *t, const char *pmu, FILE *fp);

/* pfm_parse.c */
int pfm_parse_event(const char *str, pfm_os_t os, struct pfm_event *e);

/* pfm_encode.c */
int pfm_encode_pmu(struct pfm_event *e);
int pfm_encode_none(const char *str, int dfl_plm, void *args);
int pfm_encode_perf(const char *str, int dfl_plm, pfm_os_t os, void *args);
int pfm_full_name(const struct pfm_event *e, char **fstr);

/* pfm_group.c: the group extension (include/perfmon/pfmlib_pmurt.h) */
int pfm_encode_group(const char *str, int dfl_plm, void *args);

/* the size rule of libpfm4's sized structs: 0 means the ABI0 size, less
 * than ABI0 is refused, bytes past ours must be zero; returns our size or 0 */
size_t pfm_check_size(const void *st, size_t user_sz, size_t abi0_sz, size_t our_sz);

#endif /* PFM_PRIV_H */
