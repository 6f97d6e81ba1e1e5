/*
 * qg_groups.h - the group file shared by the QEMU group test's three
 * programs: qg_gen (host: makes the groups), qg_probe (guest: opens them
 * with the real perf_event_open) and qg_compare (host: the kernel's answers
 * against pmurt_group_check's).
 *
 * One group a line, members leader first:
 *   G ID KIND MMCR N TYPE,CONFIG,CONFIG1,EXCLUDE,PERIOD,FLAGS ...
 * ID decimal; KIND a word naming what the generator made (tells the
 * coverage); MMCR 1 when the guest stops at qg_mmcr_point for this group
 * (the debugger reads the MMCRs there); numbers of a member in hex without
 * 0x: perf's attr.type, attr.config, attr.config1, the PMURT_EXCLUDE_* bits,
 * attr.sample_period (0: counting) and QG_PINNED|QG_EXCLUSIVE.
 *
 * The guest answers one line a group: "R ID ok" or "R ID fail MEMBER ERRNO",
 * after "PVR HEX" and "PMU NAME" (the guest's processor and its cpu PMU's
 * caps/pmu_name) and before "DONE COUNT".
 */
#ifndef QG_GROUPS_H
#define QG_GROUPS_H

#include <stdint.h>
#include <stdio.h>

#define QG_MAX_MEMBERS 8
#define QG_PINNED 1u
#define QG_EXCLUSIVE 2u

/* The PMURT_EXCLUDE_* bits, repeated here so that the guest probe needs no
 * libpmurt header. */
#define QG_EXCLUDE_USER 1u
#define QG_EXCLUDE_KERNEL 2u
#define QG_EXCLUDE_HV 8u
#define QG_EXCLUDE_IDLE 16u

struct qg_member {
	uint32_t type;
	uint64_t config, config1;
	unsigned exclude;
	uint64_t period;
	unsigned flags;
};

struct qg_group {
	long id;
	char kind[24];
	int mmcr;
	int n;
	struct qg_member m[QG_MAX_MEMBERS];
};

/* Write g as one line. */
static inline void qg_write_group(FILE *f, const struct qg_group *g)
{
	fprintf(f, "G %ld %s %d %d", g->id, g->kind, g->mmcr, g->n);
	for (int i = 0; i < g->n; i++) {
		const struct qg_member *m = &g->m[i];
		fprintf(f, " %x,%llx,%llx,%x,%llx,%x", m->type, (unsigned long long)m->config,
			(unsigned long long)m->config1, m->exclude,
			(unsigned long long)m->period, m->flags);
	}
	fputc('\n', f);
}

/* Parse one line into g: 1, or 0 when it is not a well-formed group. */
static inline int qg_parse_group(const char *line, struct qg_group *g)
{
	int pos = 0;
	if (sscanf(line, "G %ld %23s %d %d%n", &g->id, g->kind, &g->mmcr, &g->n, &pos) != 4 ||
	    g->n < 1 || g->n > QG_MAX_MEMBERS)
		return 0;
	const char *p = line + pos;
	for (int i = 0; i < g->n; i++) {
		struct qg_member *m = &g->m[i];
		unsigned long long config, config1, period;
		int used = 0;
		if (sscanf(p, " %x,%llx,%llx,%x,%llx,%x%n", &m->type, &config, &config1,
			   &m->exclude, &period, &m->flags, &used) != 6)
			return 0;
		m->config = config;
		m->config1 = config1;
		m->period = period;
		p += used;
	}
	return 1;
}

#endif
