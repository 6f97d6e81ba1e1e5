/*
 * qg_probe.c - the QEMU group test's guest program (static ppc64le): opens
 * each group of a group file with the real perf_event_open, as perf does
 * (pid 0, cpu -1, the leader disabled, members attached to it), and prints
 * the kernel's answer: "R ID ok" or "R ID fail MEMBER ERRNO".
 *
 *   qg_probe GROUPS
 *
 * For a group marked for the MMCR read it enables the group and calls
 * qg_mmcr_point(ID) while the group counts: the host's debugger stops there
 * (a hardware breakpoint through QEMU's gdb stub) and reads the MMCRs the
 * kernel programmed.  First lines: "PVR HEX" and "PMU NAME"; last "DONE N".
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "qg_groups.h"

/* The debugger's stop: id arrives in r3 (the ELFv2 ABI's first argument).
 * A leaf without a TOC, so that callers enter it at its symbol's address. */
__attribute__((noinline, used)) void qg_mmcr_point(long id)
{
	__asm__ volatile("" : : "r"(id) : "memory");
}

static int open_member(const struct qg_member *m, int leader_fd)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = m->type;
	a.config = m->config;
	a.config1 = m->config1;
	a.disabled = leader_fd < 0;
	a.exclude_user = !!(m->exclude & QG_EXCLUDE_USER);
	a.exclude_kernel = !!(m->exclude & QG_EXCLUDE_KERNEL);
	a.exclude_hv = !!(m->exclude & QG_EXCLUDE_HV);
	a.exclude_idle = !!(m->exclude & QG_EXCLUDE_IDLE);
	a.pinned = !!(m->flags & QG_PINNED);
	a.exclusive = !!(m->flags & QG_EXCLUSIVE);
	if (m->period) {
		a.sample_period = m->period;
		a.sample_type = PERF_SAMPLE_IP;
	}
	return (int)syscall(__NR_perf_event_open, &a, 0, -1, leader_fd, 0);
}

/* Open g; print its answer; read its MMCRs through the debugger if asked. */
static void run_group(const struct qg_group *g)
{
	int fd[QG_MAX_MEMBERS], n = 0, errnum = 0;
	for (; n < g->n; n++) {
		fd[n] = open_member(&g->m[n], n ? fd[0] : -1);
		if (fd[n] < 0) {
			errnum = errno;
			break;
		}
	}
	if (n < g->n) {
		printf("R %ld fail %d %d\n", g->id, n, errnum);
	} else {
		printf("R %ld ok\n", g->id);
		if (g->mmcr) {
			ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0);
			qg_mmcr_point(g->id);
			ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0);
		}
	}
	while (n > 0)
		close(fd[--n]);
}

static void print_identity(void)
{
	char line[256];
	unsigned hi = 0, lo = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "(pvr ");
		if (p && sscanf(p, "(pvr %x %x)", &hi, &lo) == 2)
			break;
	}
	if (f)
		fclose(f);
	printf("\nPVR %04x%04x\n", hi, lo); /* after whatever the console printed */
	char name[64] = "none";
	f = fopen("/sys/bus/event_source/devices/cpu/caps/pmu_name", "r");
	if (f && fgets(name, sizeof(name), f))
		name[strcspn(name, "\n")] = '\0';
	if (f)
		fclose(f);
	printf("PMU %s\n", name);
}

int main(int argc, char **argv)
{
	static char line[4096];
	FILE *in = argc == 2 ? fopen(argv[1], "r") : NULL;
	if (!in) {
		fprintf(stderr, "usage: qg_probe GROUPS (a readable group file)\n");
		return 2;
	}
	print_identity();
	long done = 0;
	while (fgets(line, sizeof(line), in)) {
		struct qg_group g;
		if (!qg_parse_group(line, &g)) {
			printf("BAD line %ld\n", done + 1);
			return 2;
		}
		run_group(&g);
		if (++done % 256 == 0)
			fflush(stdout);
	}
	fclose(in);
	printf("DONE %ld\n", done);
	fflush(stdout);
	return 0;
}
