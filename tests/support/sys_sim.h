/*
 * sys_sim.h - a simulated kernel behind struct pmurt_sys (sys.h), for tests and
 * benches: PMUs from a table (with the kernel's refusals: unknown types,
 * per-CPU-only PMUs opened per task, exclude bits, sampling, groups spanning
 * PMUs), errnos injected into the next open, counts and times that advance
 * when told (multiplexed when a PMU has fewer counters than enabled events:
 * by a proportional share, or, for a PMU that opts in with struct
 * pmu_sim_mux, as the kernel schedules and rotates groups),
 * a data ring for mmap (1+2^n pages) that records can be written into, an
 * AUX area mapped at the control page's aux_offset (a driver model writes
 * into it: sim_dtl.h), and poll with readiness and wake-ups.
 * Not installed.
 */
#ifndef PMU_SYS_SIM_H
#define PMU_SYS_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys.h"

/*
 * Multiplexing as the kernel does it (kernel/events/core.c), for a PMU that
 * opts in: its groups of each context (per task, cpu -1, or per CPU) on one
 * flexible list in the order they were opened; at every change (an open,
 * an enable) and at every rotation the list is scheduled in order, a group
 * going on only when every group before it did (group_can_go_on) and the
 * PMU takes it together with the groups already on (group_sched_in's
 * transaction: power_pmu_commit_txn checks every event on the PMU), the
 * others staying inactive; when one could not go on, the mux timer runs
 * (perf_mux_hrtimer_restart) and each interval moves the first group that
 * went on (else the first group) to the tail and schedules again
 * (perf_rotate_context, ctx_event_to_rotate, rotate_ctx); time_enabled
 * grows while an event and its leader are enabled, time_running while it
 * is on (__perf_update_times).  A disable takes its group off without
 * scheduling the others (__perf_event_disable).  Simplified: a closed
 * leader's members stop counting (the kernel would make them groups of
 * their own), a group runs on its leader's PMU (a member on another
 * pmu_sim_mux PMU never runs), a per-task context and a CPU's are not
 * scheduled together, and the codes power_pmu_commit_txn writes back into
 * the events are not kept (fits sees the codes opened).
 */
struct pmu_sim_mux {
	/* Whether the PMU holds these events together: the events on the PMU
	 * and those of the group being added, in list order (what
	 * power_pmu_commit_txn hands power_check_constraints).  NULL: at most
	 * the PMU's counters events (0: any number). */
	bool (*fits)(void *arg, const struct perf_event_attr *const *attrs, int n);
	/* The counts of attr's event in [from_ns, to_ns) of simulated time
	 * (pmu_sim_now), called only for time it runs: a workload whose rates
	 * change in phases integrates its rate over the span.  NULL: the
	 * PMU's per_ms. */
	uint64_t (*counts)(void *arg, const struct perf_event_attr *attr, uint64_t from_ns,
			   uint64_t to_ns);
	void *arg;
	/* perf_event_mux_interval_ms in ns; 0: 4 ms (PERF_CPU_HRTIMER, 1000 / HZ
	 * at HZ=250; the fake sysfs trees say 4) */
	uint64_t interval_ns;
};

struct pmu_sim_pmu {
	uint32_t type;
	const char *name;
	bool per_cpu_only;    /* perf_invalid_context: a per-task open is -EINVAL */
	bool no_exclude;      /* PERF_PMU_CAP_NO_EXCLUDE: exclude bits are -EINVAL */
	bool no_sampling;     /* PERF_PMU_CAP_NO_INTERRUPT: a period is -EOPNOTSUPP */
	bool sampling_only;   /* counting without a period is -EOPNOTSUPP */
	bool vpa_dtl;         /* arch/powerpc/perf/vpa-dtl.c: its event_init's
	                         refusals, then the core's, in their order, and
	                         its two crashes (pmu_sim_set_perfmon,
	                         pmu_sim_set_dtl_user); the flags above unused */
	int counters;         /* enabled events beyond this multiplex; 0: no limit */
	uint64_t per_ms;      /* counts per millisecond of running time */
	const struct pmu_sim_mux *mux; /* non-NULL: the kernel's multiplexing
	                                  (it must outlive the simulator) */
};

#define PMU_SIM_ANY_TYPE UINT32_MAX

struct pmu_sim;

int pmu_sim_new(struct pmu_sim **sim, const struct pmu_sim_pmu *pmus, int npmus);
void pmu_sim_free(struct pmu_sim *sim);
const struct pmurt_sys *pmu_sim_sys(struct pmu_sim *sim);

/* The next perf_event_open of an event of that type (or any) fails with the
 * negative errno code, once. */
void pmu_sim_inject(struct pmu_sim *sim, uint32_t type, int code);

/* Whether the opener is perfmon_capable() (default true), and whether
 * another Dispatch Trace Log user (debugfs dtl, vcpudispatch_stats) holds
 * dtl_access_lock (default false): vpa_dtl_event_init's EACCES and EBUSY. */
void pmu_sim_set_perfmon(struct pmu_sim *sim, bool capable);
void pmu_sim_set_dtl_user(struct pmu_sim *sim, bool held);

/* ns nanoseconds pass: enabled events gain time_enabled, time_running (their
 * share of the PMU's counters, or the time their group was on for a PMU
 * with pmu_sim_mux, rotating at each interval) and counts at their PMU's
 * rate. */
void pmu_sim_advance(struct pmu_sim *sim, uint64_t ns);
/* The simulated time: the nanoseconds advanced since pmu_sim_new. */
uint64_t pmu_sim_now(const struct pmu_sim *sim);
/* Whether fd's event is on its PMU now (PERF_EVENT_STATE_ACTIVE). */
bool pmu_sim_active(const struct pmu_sim *sim, int fd);

/* perf_event_open calls made, and fds open now. */
int pmu_sim_opens(const struct pmu_sim *sim);
int pmu_sim_open_fds(const struct pmu_sim *sim);

/* The attr an open fd was opened with, or NULL. */
const struct perf_event_attr *pmu_sim_attr(const struct pmu_sim *sim, int fd);

/* Appends a record (starting with struct perf_event_header) to fd's mapped
 * ring as the kernel does: at data_head, then data_head stored with release
 * semantics; an fd redirected with PERF_EVENT_IOC_SET_OUTPUT writes into
 * the ring of the fd it names.  -ENOSPC (counted as lost) when the reader has not made room,
 * -EINVAL when fd has no ring. */
int pmu_sim_ring_write(struct pmu_sim *sim, int fd, const void *rec, size_t len);
/* Records dropped for want of room. */
uint64_t pmu_sim_ring_lost(const struct pmu_sim *sim, int fd);

/* For a driver model (sim_dtl.c). */
/* The sample_id_all trailer of fd's event for a record of the kernel's
 * (the fields its sample_type asks for) into out (at most 48 bytes);
 * returns its size. */
size_t pmu_sim_trailer(const struct pmu_sim *sim, int fd, uint32_t pid, uint32_t tid,
		       uint64_t time, void *out);
/* The open fds of events of that PMU type, at most max. */
int pmu_sim_fds_of(const struct pmu_sim *sim, uint32_t type, int *fds, int max);
/* fd's control page and AUX area, once both are mapped; -EINVAL before. */
int pmu_sim_aux(struct pmu_sim *sim, int fd, struct perf_event_mmap_page **ctl,
		unsigned char **aux, uint64_t *size);
int pmu_sim_cpu(const struct pmu_sim *sim, int fd);
/* Whether fd's event counts (it and its leader enabled); the perf core's
 * disabling (perf_event_disable_inatomic).  A vpa_dtl event disabled after
 * it ran has lost its DTL buffer (vpa_dtl_event_del): enabling it again
 * aborts the process with the kernel's Oops, as the kernel dies. */
bool pmu_sim_enabled(const struct pmu_sim *sim, int fd);
void pmu_sim_disable(struct pmu_sim *sim, int fd);
/* The next poll reports fd readable (perf_output_wakeup). */
void pmu_sim_wake(struct pmu_sim *sim, int fd);
/* fn runs at the start of every poll: simulated time passing. */
void pmu_sim_on_poll(struct pmu_sim *sim, void (*fn)(void *arg), void *arg);

#endif /* PMU_SYS_SIM_H */
