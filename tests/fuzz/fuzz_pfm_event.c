/*
 * fuzz_pfm_event.c - libFuzzer target for libpfm.so.4's event strings (pfm/):
 * any string goes through pfm_find_event and pfm_get_os_event_encoding under
 * PFM_OS_NONE, PFM_OS_PERF_EVENT, PFM_OS_PERF_EVENT_EXT and the group
 * extension, with the POWER PMUs reachable ("power10::..." under
 * LIBPFM_ENCODE_INACTIVE) beside the generic perf and perf_raw PMUs.  Each
 * call returns a libpfm4 error code or succeeds with a well-formed answer
 * (one code, a fully qualified string naming a PMU), never crashes, leaks
 * or trips a sanitizer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

#include "perfmon/pfmlib_pmurt.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	if (pfm_initialize() != PFM_SUCCESS)
		abort();
	return 0;
}

static void check_rc(int rc)
{
	if (rc > 0 || rc < PFM_ERR_TOOSMALL)
		abort();
}

static void encode_none(const char *s)
{
	uint64_t *codes = NULL;
	char *fstr = NULL;
	int count = 0, idx = -1;
	int rc = pfm_get_event_encoding(s, PFM_PLM0 | PFM_PLM3, &fstr, &idx, &codes, &count);
	check_rc(rc);
	if (rc == PFM_SUCCESS && (count != 1 || !codes || !fstr || !strstr(fstr, "::") || idx < 0))
		abort();
	free(codes);
	free(fstr);
}

static void encode_perf(const char *s, pfm_os_t os)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	attr.size = sizeof(attr);
	arg.attr = &attr;
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	int rc = pfm_get_os_event_encoding(s, PFM_PLM3, os, &arg);
	check_rc(rc);
	if (rc == PFM_SUCCESS && (!fstr || attr.size != sizeof(attr) || attr.precise_ip > 3))
		abort();
	free(fstr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[512];
	if (size >= sizeof(s))
		size = sizeof(s) - 1;
	memcpy(s, data, size);
	s[size] = 0;
	int idx = pfm_find_event(s);
	if (idx < 0)
		check_rc(idx);
	encode_none(s);
	encode_perf(s, PFM_OS_PERF_EVENT);
	encode_perf(s, PFM_OS_PERF_EVENT_EXT);
	pfm_pmurt_group_arg_t g;
	memset(&g, 0, sizeof(g));
	g.size = sizeof(g);
	check_rc(pfm_get_os_event_encoding(s, PFM_PLM3, (pfm_os_t)PFM_OS_PMURT_GROUP, &g));
	return 0;
}
