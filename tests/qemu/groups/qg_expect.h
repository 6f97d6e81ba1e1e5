/*
 * qg_expect.h - libpmurt's answer for a group of the group file: what the
 * kernel's perf_event_open of each member, leader first, should give.
 */
#ifndef QG_EXPECT_H
#define QG_EXPECT_H

#include <stdbool.h>

#include "pmurt.h"
#include "qg_groups.h"

struct qg_expect {
	bool ok;
	int member;   /* refused: the member whose open fails */
	int errnum;   /* refused: its errno */
	char reason[64];
	struct pmurt_group_result res; /* the check of the members before it */
};

/* 0, or a negative errno when pmurt could not check the group at all. */
int qg_expect_group(const struct pmurt_pmu *pmu, const struct qg_group *g,
		    struct qg_expect *out, struct pmurt_error *err);

#endif
