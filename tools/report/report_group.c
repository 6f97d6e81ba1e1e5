/*
 * report_group.c - which table each event's rows go to in pmutool report,
 * as perf 6.1's report decides: the groups of the file's group description
 * (HEADER_GROUP_DESC; builtin-report.c shows them together unless
 * --no-group), or with --group on a file without groups all its events as
 * one (evlist.c evlist__force_leader); and the room for each row's member
 * sums.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_group.h"

enum { BLOCK_VALUES = 4096 };

struct member_block {
	struct member_block *next;
	size_t used, cap;
	uint64_t v[];
};

/* perf's evsel__group_desc: "NAME { a, b }" ("anon group" without a
 * name), only "a, b" for the group --group forced. */
static char *group_title(const struct session *s, int leader, int size, const char *name,
			 bool forced)
{
	size_t len = 32 + (name ? strlen(name) : 0);
	for (int m = 0; m < size; m++)
		len += strlen(s->event_names[leader + m]) + 2;
	char *t = malloc(len);
	if (!t)
		return NULL;
	size_t at = forced ? 0 : (size_t)sprintf(t, "%s { ", name ? name : "anon group");
	for (int m = 0; m < size; m++)
		at += (size_t)sprintf(t + at, "%s%s", m ? ", " : "", s->event_names[leader + m]);
	if (!forced)
		strcpy(t + at, " }");
	return t;
}

/* Event e's group in the file: its leader and size (1 alone), its name. */
static int file_group(const struct session *s, int e, int *size, const char **name)
{
	struct pmurt_perf_event_info ev = {.sz = sizeof(ev)}, lead = {.sz = sizeof(lead)};
	if (pmurt_perf_event(s->file, e, &ev) || pmurt_perf_event(s->file, ev.leader, &lead))
		return *size = 1, *name = NULL, e;
	*size = lead.nr_members;
	*name = lead.group_name;
	return ev.leader;
}

/* Puts events leader..leader+size-1 into one table. */
static int join(struct report_groups *g, const struct session *s, int leader, int size,
		const char *name, bool forced)
{
	for (int m = 0; m < size; m++) {
		g->lead[leader + m] = leader;
		g->member[leader + m] = m;
		g->size[leader + m] = 0;
	}
	g->size[leader] = size;
	return size > 1 && !(g->title[leader] = group_title(s, leader, size, name, forced))
		       ? -ENOMEM : 0;
}

static int describe_file_groups(struct report_groups *g, const struct session *s,
				bool *any)
{
	*any = false;
	for (int e = 0; e < g->nevents; e++) {
		int size;
		const char *name;
		int leader = file_group(s, e, &size, &name);
		*any |= size > 1 && leader == e;
		if (size > 1 && !(g->file_group[e] = group_title(s, leader, size, name, false)))
			return -ENOMEM;
	}
	return 0;
}

int report_groups_init(struct report_groups *g, const struct session *s, int mode, bool view)
{
	int n = s->info.nevents;
	*g = (struct report_groups){.nevents = n};
	g->lead = calloc((size_t)n, sizeof(*g->lead));
	g->member = calloc((size_t)n, sizeof(*g->member));
	g->size = calloc((size_t)n, sizeof(*g->size));
	g->title = calloc((size_t)n, sizeof(*g->title));
	g->file_group = calloc((size_t)n, sizeof(*g->file_group));
	bool any;
	if (!g->lead || !g->member || !g->size || !g->title || !g->file_group ||
	    describe_file_groups(g, s, &any))
		return -ENOMEM;
	for (int e = 0; e < n; e++) {
		g->lead[e] = e;
		g->size[e] = 1;
	}
	if (!view || mode == 0 || (mode < 0 && !any))
		return 0;
	if (!any)   /* --group on a file without groups: one of them all */
		return join(g, s, 0, n, NULL, true);
	for (int e = 0; e < n; e++) {
		int size;
		const char *name;
		if (file_group(s, e, &size, &name) == e && size > 1 && join(g, s, e, size, name, false))
			return -ENOMEM;
	}
	return 0;
}

uint64_t *report_group_sums(struct report_groups *g, int size)
{
	size_t need = 3 * (size_t)(size - 1);
	if (!g->blocks || g->blocks->cap - g->blocks->used < need) {
		size_t cap = need > BLOCK_VALUES ? need : BLOCK_VALUES;
		struct member_block *b = calloc(1, sizeof(*b) + cap * sizeof(b->v[0]));
		if (!b)
			return NULL;
		b->cap = cap;
		b->next = g->blocks;
		g->blocks = b;
	}
	uint64_t *v = g->blocks->v + g->blocks->used;
	g->blocks->used += need;
	return v;
}

void report_groups_free(struct report_groups *g)
{
	for (int e = 0; g->title && e < g->nevents; e++)
		free(g->title[e]);
	for (int e = 0; g->file_group && e < g->nevents; e++)
		free(g->file_group[e]);
	while (g->blocks) {
		struct member_block *next = g->blocks->next;
		free(g->blocks);
		g->blocks = next;
	}
	free(g->lead);
	free(g->member);
	free(g->size);
	free(g->title);
	free(g->file_group);
}
