/*
 * pfm_abi_test.c - libpmurt's libpfm.so.4 as a libpfm4 caller sees it:
 * calls before pfm_initialize, the sized structs' rules, PMU presence off
 * POWER and under LIBPFM_FORCE_PMU / LIBPFM_DISABLED_PMUS /
 * LIBPFM_ENCODE_INACTIVE, POWER events' encodings, attributes and strings
 * (libpfm4 4.13.0's behaviour, read in its lib/pfmlib_common.c and
 * pfmlib_perf_event.c), pfm_pmu_validate, and the PFM_OS_PMURT_GROUP
 * extension.  The generic perf PMU is held against Debian's libpfm4 itself
 * by tests/pfm/perf_vs_libpfm4.sh.
 *   pfm_abi_test                 everything above (on a machine that is not POWER)
 *   pfm_abi_test power11 SYSFS   Power11 present through libpmurt's detection
 */
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

#include "check.h"
#include "perfmon/pfmlib_pmurt.h"

static int failures;

static void restart(const char *force, const char *disabled, const char *inactive)
{
	pfm_terminate();
	force ? setenv("LIBPFM_FORCE_PMU", force, 1) : unsetenv("LIBPFM_FORCE_PMU");
	disabled ? setenv("LIBPFM_DISABLED_PMUS", disabled, 1) : unsetenv("LIBPFM_DISABLED_PMUS");
	inactive ? setenv("LIBPFM_ENCODE_INACTIVE", inactive, 1) : unsetenv("LIBPFM_ENCODE_INACTIVE");
	CHECK(pfm_initialize() == PFM_SUCCESS, "pfm_initialize");
}

static int pmu_info(pfm_pmu_t id, pfm_pmu_info_t *p)
{
	memset(p, 0, sizeof(*p));
	p->size = sizeof(*p);
	return pfm_get_pmu_info(id, p);
}

static void before_init(void)
{
	pfm_pmu_info_t p;
	pfm_pmu_encode_arg_t arg = {.size = sizeof(arg)};
	CHECK(pmu_info(PFM_PMU_POWER10, &p) == PFM_ERR_NOINIT, "pmu info before init");
	CHECK(pfm_find_event("PM_CYC") == PFM_ERR_NOINIT, "find before init");
	CHECK(pfm_get_os_event_encoding("PM_CYC", PFM_PLM3, PFM_OS_NONE, &arg) == PFM_ERR_NOINIT,
	      "encode before init");
	CHECK(pfm_get_version() == LIBPFM_VERSION, "version 0x%x", pfm_get_version());
	CHECK(strcmp(pfm_strerror(PFM_ERR_NOTFOUND), "event not found") == 0, "strerror");
	CHECK(strcmp(pfm_strerror(1), "unknown error code") == 0, "strerror(1)");
	CHECK(strcmp(pfm_strerror(-13), "unknown error code") == 0, "strerror(-13)");
}

/* Off POWER: the POWER PMUs are there but not present; their events are
 * found only when named with their PMU under LIBPFM_ENCODE_INACTIVE. */
static void presence(void)
{
	pfm_pmu_info_t p;
	restart(NULL, NULL, NULL);
	CHECK(pmu_info(PFM_PMU_POWER10, &p) == PFM_SUCCESS && !p.is_present &&
	      strcmp(p.name, "power10") == 0 && strcmp(p.desc, "POWER10") == 0 &&
	      p.type == PFM_PMU_TYPE_CORE && p.num_cntrs == 4 && p.num_fixed_cntrs == 2 &&
	      p.size == sizeof(p), "power10 info");
	CHECK(pmu_info(PFM_PMU_POWER9, &p) == PFM_SUCCESS && !p.is_present, "power9 info");
	CHECK(pmu_info(PFM_PMU_POWER7, &p) == PFM_ERR_NOTSUPP, "no power7 description");
	CHECK(pmu_info((pfm_pmu_t)100000, &p) == PFM_ERR_INVAL, "id past the end");
	CHECK(pfm_find_event("PM_CYC") == PFM_ERR_NOTFOUND, "absent PMU searched");
	CHECK(pfm_find_event("power10::PM_CYC") == PFM_ERR_NOTFOUND, "inactive named");
	restart(NULL, NULL, "1");
	int idx = pfm_find_event("power10::pm_cyc");
	CHECK(idx >= 0 && (idx >> 21) == PFM_PMU_POWER10, "inactive encoded: %d", idx);
	/* the firmware set's names: kept unless they duplicate a perf event or
	 * name one of the perf PMU's ("cycles") */
	CHECK(pfm_find_event("power9::PM_LD_MISS_L1_ALT") >= 0, "kernel's _ALT name kept");
	CHECK(pfm_find_event("power10::cycles") == PFM_ERR_NOTFOUND, "skiboot's cycles dropped");
	restart("power10", NULL, NULL);
	CHECK(pmu_info(PFM_PMU_POWER10, &p) == PFM_SUCCESS && p.is_present, "forced present");
	CHECK(pmu_info(PFM_PMU_POWER9, &p) == PFM_SUCCESS && !p.is_present, "before the forced");
	CHECK(pmu_info(PFM_PMU_PERF_EVENT, &p) == PFM_ERR_NOTSUPP, "after the forced: none");
	CHECK(pfm_find_event("cycles") == PFM_ERR_NOTFOUND, "no perf PMU when forced");
	restart(NULL, "power9,perf_raw", NULL);
	CHECK(pmu_info(PFM_PMU_POWER9, &p) == PFM_ERR_NOTSUPP, "disabled power9");
	CHECK(pmu_info(PFM_PMU_PERF_EVENT_RAW, &p) == PFM_ERR_NOTSUPP, "disabled perf_raw");
	CHECK(pmu_info(PFM_PMU_POWER10, &p) == PFM_SUCCESS, "power10 kept");
}

static void sizes(void)
{
	unsigned char buf[sizeof(pfm_event_info_t) + 16];
	pfm_event_info_t *e = (pfm_event_info_t *)buf;
	int idx = pfm_find_event("PM_CYC");
	memset(buf, 0, sizeof(buf));
	CHECK(pfm_get_event_info(idx, PFM_OS_NONE, e) == PFM_SUCCESS && e->size == sizeof(*e),
	      "size 0 is ABI0");
	memset(buf, 0, sizeof(buf));
	e->size = PFM_EVENT_INFO_ABI0 - 8;
	CHECK(pfm_get_event_info(idx, PFM_OS_NONE, e) == PFM_ERR_INVAL, "too small");
	memset(buf, 0, sizeof(buf));
	e->size = sizeof(buf);
	CHECK(pfm_get_event_info(idx, PFM_OS_NONE, e) == PFM_SUCCESS && e->size == sizeof(*e),
	      "larger, zero tail");
	memset(buf, 0, sizeof(buf));
	e->size = sizeof(buf);
	buf[sizeof(buf) - 1] = 1;
	CHECK(pfm_get_event_info(idx, PFM_OS_NONE, e) == PFM_ERR_INVAL, "larger, non-zero tail");
	CHECK(pfm_get_event_info(idx, (pfm_os_t)PFM_OS_MAX, e) == PFM_ERR_INVAL, "bad os");
	CHECK(pfm_get_event_info(-1, PFM_OS_NONE, e) == PFM_ERR_INVAL, "bad index");
	pfm_event_attr_info_t a = {.size = 12};
	CHECK(pfm_get_event_attr_info(idx, 0, PFM_OS_PERF_EVENT, &a) == PFM_ERR_INVAL, "attr size");
	uint64_t code = 0, *codes = &code;
	int count = 0;
	CHECK(pfm_get_event_encoding("PM_CYC", PFM_PLM3, NULL, NULL, &codes, &count) ==
	      PFM_ERR_INVAL, "codes without count");
	pfm_pmu_encode_arg_t arg = {.codes = &code, .size = sizeof(arg)};
	CHECK(pfm_get_os_event_encoding("PM_CYC", PFM_PLM3, PFM_OS_NONE, &arg) == PFM_ERR_TOOSMALL,
	      "count 0 with a buffer");
	arg.count = 1;
	CHECK(pfm_get_os_event_encoding("PM_CYC", PFM_PLM3, PFM_OS_NONE, &arg) == PFM_SUCCESS &&
	      code == 0x100f0 && arg.idx == idx, "codes 0x%llx", (unsigned long long)code);
	CHECK(pfm_get_os_event_encoding("PM_CYC", 0x100, PFM_OS_NONE, &arg) == PFM_ERR_INVAL,
	      "bad plm");
	CHECK(pfm_get_os_event_encoding("PM_CYC", PFM_PLM3, (pfm_os_t)7, &arg) == PFM_ERR_NOTSUPP,
	      "unknown os");
}

/* POWER events: as libpfm4's pfm_gen_powerpc_* give them, perf_event's
 * modifiers less precise and hw_smpl */
static void power_events(void)
{
	static const char *const ext[] = {"u", "k", "h", "period", "freq", "excl", "mg", "mh",
					  "cpu", "pinned"};
	static const int ext_code[] = {0, 1, 2, 3, 4, 6, 7, 8, 9, 10};
	int idx = pfm_find_event("PM_RUN_INST_CMPL");
	pfm_event_info_t e = {.size = sizeof(e)};
	CHECK(pfm_get_event_info(idx, PFM_OS_PERF_EVENT_EXT, &e) == PFM_SUCCESS &&
	      e.code == 0x500fa && e.nattrs == 10 && e.pmu == PFM_PMU_POWER10 && !e.equiv &&
	      e.dtype == PFM_DTYPE_UINT64, "event info nattrs %d", e.nattrs);
	for (int i = 0; i < 10; i++) {
		pfm_event_attr_info_t a = {.size = sizeof(a)};
		CHECK(pfm_get_event_attr_info(idx, i, PFM_OS_PERF_EVENT_EXT, &a) == PFM_SUCCESS &&
		      strcmp(a.name, ext[i]) == 0 && a.code == (uint64_t)ext_code[i] && a.idx == i &&
		      a.ctrl == PFM_ATTR_CTRL_PERF_EVENT, "attr %d: %s", i, a.name);
	}
	pfm_event_attr_info_t a = {.size = sizeof(a)};
	CHECK(pfm_get_event_attr_info(idx, 10, PFM_OS_PERF_EVENT_EXT, &a) == PFM_ERR_INVAL, "past");
	CHECK(pfm_get_event_attr_info(idx, 0, PFM_OS_NONE, &a) == PFM_ERR_INVAL, "none under NONE");

	struct perf_event_attr attr = {.size = sizeof(attr)};
	char *fstr = NULL;
	CHECK(pfm_get_perf_event_encoding("pm_run_inst_cmpl:k:h=0", PFM_PLM3, &attr, &fstr, NULL) ==
	      PFM_SUCCESS && attr.type == PERF_TYPE_RAW && attr.config == 0x500fa &&
	      attr.exclude_user && !attr.exclude_kernel && attr.exclude_hv && attr.exclude_guest &&
	      !attr.exclude_host && attr.size == sizeof(attr), "k:h=0");
	CHECK(fstr && strcmp(fstr, "power10::PM_RUN_INST_CMPL:u=0:k=1:h=0:excl=0:mg=0:mh=1") == 0,
	      "fstr %s", fstr);
	free(fstr);
	struct {
		const char *s;
		int rc;
	} errs[] = {
		{"PM_CYC:precise=1", PFM_ERR_ATTR}, {"PM_CYC:u=2", PFM_ERR_ATTR_VAL},
		{"PM_CYC:u:u=0", PFM_ERR_ATTR_SET}, {"PM_CYC:period", PFM_ERR_ATTR_VAL},
		{"PM_CYC:period=0", PFM_ERR_ATTR_VAL}, {"PM_CYC:period=10:freq=5", PFM_ERR_ATTR_VAL},
		{"PM_CYC:", PFM_ERR_ATTR}, {"PM_CYC:0x1", PFM_ERR_ATTR}, {"PM_CYC,PM_RUN_CYC", PFM_ERR_INVAL},
		{"PM_NOSUCH", PFM_ERR_NOTFOUND}, {"nosuch::PM_CYC", PFM_ERR_NOTFOUND},
		{"PM_CYC:cpu=2147483647", PFM_ERR_ATTR_VAL}, {"PM_CYC:u=yes", PFM_ERR_ATTR_VAL},
	};
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		struct perf_event_attr x = {.size = sizeof(x)};
		int rc = pfm_get_perf_event_encoding(errs[i].s, PFM_PLM3, &x, NULL, NULL);
		CHECK(rc == errs[i].rc, "%s: %d, not %d", errs[i].s, rc, errs[i].rc);
	}
	pfm_perf_encode_arg_t parg = {.attr = &attr, .size = sizeof(parg)};
	memset(&attr, 0, sizeof(attr));
	CHECK(pfm_get_os_event_encoding("PM_CYC:cpu=3:pinned:period=1000", PFM_PLM0 | PFM_PLM3,
					PFM_OS_PERF_EVENT_EXT, &parg) == PFM_SUCCESS &&
	      parg.cpu == 3 && attr.pinned && attr.sample_period == 1000 && attr.size == 0,
	      "cpu/pinned/period");
	CHECK(pfm_get_os_event_encoding("PM_CYC:cpu=3", PFM_PLM3, PFM_OS_PERF_EVENT, &parg) ==
	      PFM_ERR_ATTR, "cpu is EXT only");
	int n = 0;
	pfm_pmu_info_t p = {.size = sizeof(p)};
	pfm_get_pmu_info(PFM_PMU_POWER10, &p);
	for (int i = p.first_event; i >= 0; i = pfm_get_event_next(i))
		n++;
	CHECK(n == p.nevents && n > 600, "iteration %d of %d", n, p.nevents);
	FILE *devnull = fopen("/dev/null", "w");
	CHECK(pfm_pmu_validate(PFM_PMU_POWER10, devnull) == PFM_SUCCESS, "validate power10");
	CHECK(pfm_pmu_validate(PFM_PMU_POWER10, NULL) == PFM_ERR_INVAL, "validate without fp");
	fclose(devnull);
}

static int group(const char *s, pfm_pmurt_group_arg_t *g)
{
	memset(g, 0, sizeof(*g));
	g->size = sizeof(*g);
	return pfm_get_os_event_encoding(s, PFM_PLM3, (pfm_os_t)PFM_OS_PMURT_GROUP, g);
}

static void groups(void)
{
	pfm_pmurt_group_arg_t g;
	CHECK(group("PM_RUN_INST_CMPL,PM_CYC:k", &g) == PFM_SUCCESS && g.fits && g.n == 2 &&
	      g.pmc[0] == 5 && g.reject_index == -1, "fits: pmc %d %d", g.pmc[0], g.pmc[1]);
	int rc = group("PM_LD_REF_L1,PM_LD_MISS_L1,PM_ST_MISS_L1,PM_BR_CMPL,PM_DATA_FROM_L3MISS", &g);
	CHECK(rc == PFM_ERR_FEATCOMB && !g.fits && g.reject_index >= 0 && g.reason[0] &&
	      g.message[0], "five on four counters: %d %s: %s", rc, g.reason, g.message);
	CHECK(group("PM_CYC,PM_NOSUCH", &g) == PFM_ERR_NOTFOUND && g.reject_index == 1 &&
	      strstr(g.message, "PM_NOSUCH"), "bad member: %s", g.message);
	CHECK(group("PM_CYC,cycles", &g) == PFM_ERR_NOTFOUND, "perf PMU absent when forced");
	g.size = 8;
	CHECK(pfm_get_os_event_encoding("PM_CYC", PFM_PLM3, (pfm_os_t)PFM_OS_PMURT_GROUP, &g) ==
	      PFM_ERR_INVAL, "group arg size");
}

/* Power11, which libpfm4 lacks: present when libpmurt's detection picks
 * the power11 description from the (fake) sysfs. */
static void power11(const char *sysfs)
{
	pfm_pmu_info_t p;
	setenv("PMURT_SYSFS", sysfs, 1);
	restart(NULL, NULL, NULL);
	CHECK(pmu_info((pfm_pmu_t)517, &p) == PFM_SUCCESS && p.is_present &&
	      strcmp(p.name, "power11") == 0 && p.type == PFM_PMU_TYPE_CORE, "power11 present");
	CHECK(pmu_info(PFM_PMU_POWER10, &p) == PFM_SUCCESS && !p.is_present,
	      "power10 absent on Power11 (libpfm4's PVR rule)");
	CHECK(pfm_find_event("PM_RUN_INST_CMPL") >> 21 == 517, "core events from power11");
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "power11") == 0) {
		power11(argv[2]);
	} else {
		before_init();
		presence();
		restart("power10", NULL, NULL);
		sizes();
		power_events();
		groups();
	}
	pfm_terminate();
	pfm_terminate();
	return failures != 0;
}
