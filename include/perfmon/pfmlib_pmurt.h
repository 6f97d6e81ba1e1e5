/*
 * pfmlib_pmurt.h - what libpmurt's libpfm.so.4 adds to libpfm4's ABI
 * (doc/libpfm.md), without a new function: one more OS layer for
 * pfm_get_os_event_encoding.
 *
 * PFM_OS_PMURT_GROUP: str is a group, events separated by ',' (leader
 * first, each as pfm_get_os_event_encoding takes it: "PM_RUN_CYC:u",
 * "power10::PM_LD_MISS_L1"), args a pfm_pmurt_group_arg_t.  The group is
 * checked as the kernel's group flow checks it (libpmurt's
 * pmurt_group_check: constraints, alternatives, counters), before any
 * system call.  Returns PFM_SUCCESS when it fits, with each event's counter
 * and final code; PFM_ERR_FEATCOMB when it does not, with the member the
 * kernel refuses and why ("constraint_conflict", ...) and a sentence naming
 * the events and the field in conflict; the errors of single events
 * otherwise (PFM_ERR_NOTFOUND, PFM_ERR_ATTR ...), with the failing member's
 * index.  Events of the generic perf PMUs in the group are not checked
 * (PFM_ERR_NOTSUPP).  Debian's libpfm4 returns PFM_ERR_NOTSUPP for this OS
 * layer: a program can tell which library it runs on.
 */
#ifndef PFMLIB_PMURT_H
#define PFMLIB_PMURT_H

#include <stddef.h>
#include <stdint.h>

#include <perfmon/pfmlib.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PFM_OS_PMURT_GROUP 0x706d /* 'pm': outside libpfm4's pfm_os_t */
#define PFM_PMURT_GROUP_MAX 16

typedef struct {
	size_t size;        /* sizeof(pfm_pmurt_group_arg_t) */
	int n;              /* out: events in the group */
	int fits;           /* out: 1 when the kernel accepts the group */
	int reject_index;   /* out: the member whose perf_event_open fails, -1 */
	int pad0;
	char reason[48];    /* out: "constraint_conflict", "pmc_gt_6", ... */
	char message[320];  /* out: the events and the field in conflict */
	int pmc[PFM_PMURT_GROUP_MAX];          /* out: each event's counter, 1-based */
	uint64_t final_codes[PFM_PMURT_GROUP_MAX]; /* out: codes after alternatives */
} pfm_pmurt_group_arg_t;

#ifdef __cplusplus
}
#endif

#endif /* PFMLIB_PMURT_H */
