/*
 * report_group.h - the groups of a perf.data file as pmutool report shows
 * them: perf report's group view (--group, and by default on a file whose
 * events were recorded in groups), where each group's events share one
 * table with a column per event.
 */
#ifndef PMUTOOL_REPORT_GROUP_H
#define PMUTOOL_REPORT_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "tool_session.h"

struct member_block;

struct report_groups {
	int nevents;
	int *lead;        /* per event: the event whose table its rows are in
	                     (its group's leader in the group view, else itself) */
	int *member;      /* per event: its place in that table's group, 0 leading */
	int *size;        /* per event: the events of the table it leads (1:
	                     alone, 0: it leads none) */
	char **title;     /* per leading event of 2+: perf's group description
	                     ("anon group { cpu-clock, page-faults }") */
	char **file_group; /* per event: the description of the group the
	                      file puts it in, NULL alone (for --json) */
	struct member_block *blocks;   /* the members' sums, see report_group_sums */
};

/* The view of session s's events: mode 1 --group, 0 --no-group, -1 perf's
 * default (the group view when the file has groups); view false keeps
 * every event in a table of its own (--json).  0 or -ENOMEM. */
int report_groups_init(struct report_groups *g, const struct session *s, int mode, bool view);
/* Zeroed room for the sums (samples, period, children) of a row's events
 * after its leader: 3 * (size - 1) values, valid until report_groups_free;
 * NULL when out of memory. */
uint64_t *report_group_sums(struct report_groups *g, int size);
void report_groups_free(struct report_groups *g);

#endif /* PMUTOOL_REPORT_GROUP_H */
