/*
 * record.h - a sampling session over an event list, as perf record runs one.
 *
 * pmu_session_open opens every event of a struct pmu_evlist for sampling on
 * every target (the CPUs for -a / -C, or each thread of a task on each CPU,
 * children inherited), one ring per CPU with the other events of that CPU
 * redirected into it (PERF_EVENT_IOC_SET_OUTPUT).  Records leave through a
 * sink (pmu_record_fn, ring.h): the kernel's own from the rings, and COMM,
 * MMAP/MMAP2 and FORK synthesised for what already runs (synth.c), as perf's
 * synthesize.c does, so that processes and symbols resolve later.  The
 * perf.data writer is one sink; tests use others.  With an AUX area
 * (opts.aux_pages), the first event (vpa_dtl) has a ring of its own on each
 * CPU (the other events share a second one), and each drain of that ring is
 * followed by the drain of its AUX area (aux.h), whose PERF_RECORD_AUXTRACE
 * records reach the same sink as struct pmu_auxtrace (the payload by
 * pointer), as perf record's record__mmap_read_evlist reads each mmap's
 * ring, then its AUX area.  That event is never enabled again once
 * disabled (a full area, pmu_session_disable): it is closed and opened
 * anew, its old ring and area drained from copies (record.c aux_life).
 *
 * The cpc provider's rules (minimum period, counters first come first
 * served) are checked by the caller before opening (cpc.h).
 */
#ifndef PMU_RECORD_H
#define PMU_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "aux.h"
#include "evsel.h"
#include "ring.h"

/* --call-graph dwarf: the user registers perf samples by default
 * (PERF_REGS_MASK of tools/perf/arch/ARCH/include/perf_regs.h, which
 * evsel.c evsel__config_callchain sets through arch__user_reg_mask), and
 * the largest user stack it asks for (util/callchain.c get_stack_size:
 * USHRT_MAX rounded down to a multiple of 8). */
#if defined(__x86_64__)
#include <asm/perf_regs.h>
/* every register up to R15 but the segment registers DS, ES, FS, GS */
#define PMU_USER_REGS_MASK \
	(((1ull << PERF_REG_X86_64_MAX) - 1) & \
	 ~((1ull << PERF_REG_X86_DS) | (1ull << PERF_REG_X86_ES) | \
	   (1ull << PERF_REG_X86_FS) | (1ull << PERF_REG_X86_GS)))
#elif defined(__powerpc64__)
#include <asm/perf_regs.h>
#define PMU_USER_REGS_MASK ((1ull << PERF_REG_POWERPC_MAX) - 1)   /* R0 .. MMCRA */
#else
#define PMU_USER_REGS_MASK 0ull   /* not known here: refused */
#endif
#define PMU_STACK_USER_MAX 65528u

struct pmu_record_opts {
	pid_t pid;            /* the task (all its threads), or -1: CPU-wide */
	bool workload;        /* pid is a forked workload not yet exec'd:
	                         counting starts at its exec (enable_on_exec),
	                         its maps come from the kernel, not /proc */
	const int *cpus;      /* the CPUs, or NULL: every online one */
	int ncpus;
	bool no_inherit;      /* per task: not its future children */
	uint64_t period;      /* -c, or 0: each event's own period (a cpc
	                         probe's COUNT), else freq */
	uint64_t freq;        /* -F, or 0: 4000 Hz when no period is set (perf's
	                         default) */
	bool callchain;       /* -g: PERF_SAMPLE_CALLCHAIN */
	uint32_t stack_user;  /* --call-graph dwarf,SIZE: SIZE bytes of user
	                         stack and the user registers, or 0 */
	unsigned data_pages;  /* per ring, a power of two; 0: 128 */
	unsigned aux_pages;   /* an AUX area of this many pages (a power of
	                         two) on each CPU's ring; the first event is
	                         then the AUX event (vpa_dtl), its period set
	                         in its attr; 0: no AUX area */
	bool no_side_band;    /* no COMM/MMAP/task records (the first event
	                         asks for them otherwise) */
};

struct pmu_record_stats {
	uint64_t records;       /* all records passed to the sink */
	uint64_t samples;       /* PERF_RECORD_SAMPLE */
	uint64_t lost;          /* the sum of PERF_RECORD_LOST's counts */
	uint64_t lost_records;  /* PERF_RECORD_LOST records */
	uint64_t lost_samples;  /* the sum of PERF_RECORD_LOST_SAMPLES' counts */
	uint64_t bytes;         /* bytes passed to the sink */
	uint64_t aux_records;   /* PERF_RECORD_AUX */
	uint64_t aux_truncated; /* ... with PERF_AUX_FLAG_TRUNCATED */
	uint64_t aux_overwrite; /* ... OVERWRITE */
	uint64_t aux_partial;   /* ... PARTIAL */
	uint64_t aux_collision; /* ... COLLISION */
	struct pmu_aux_stats aux; /* every CPU's AUX drain (aux.h) */
};

/* The attr event i of list is opened with for sampling under o (what
 * pmu_session_open opens; for dry runs). */
void pmu_record_attr(const struct pmu_evlist *list, int i, const struct pmu_record_opts *o,
		     struct perf_event_attr *a);

/* What pmu_session_open refuses before any system call (and dry runs too):
 * a PMU without a task context (a cpumask: hv_24x7; vpa_dtl) under a
 * per-task o, and core events of a description not the host's; 0 or
 * -EINVAL with err naming the event. */
int pmu_record_refusal(const struct pmu_host *host, const struct pmu_evlist *list,
		       const struct pmu_record_opts *o, struct pmurt_error *err);

struct pmu_session;


/* Opens and maps every event (disabled; a workload's start at its exec).
 * list must outlive the session.  Returns 0 or a negative errno, err naming
 * the event and target that failed. */
int pmu_session_open(struct pmu_session **s, const struct pmu_host *host,
		     const struct pmu_evlist *list, const struct pmu_record_opts *opts,
		     struct pmurt_error *err);
/* Closes the fds, unmaps the rings, frees s; NULL does nothing. */
void pmu_session_close(struct pmu_session *s);

/* What the file's attr section needs: event i's attr as opened, and the ids
 * the kernel gave it (PERF_EVENT_IOC_ID), one per fd. */
const struct perf_event_attr *pmu_session_attr(const struct pmu_session *s, int i);
const uint64_t *pmu_session_ids(const struct pmu_session *s, int i, int *nids);
/* The size of the sample_id_all trailer every non-sample record carries. */
size_t pmu_session_id_hdr_size(const struct pmu_session *s);

/* COMM, MMAP/MMAP2 and FORK records for what runs before the recording:
 * the kernel's text map, then the task (or, CPU-wide, every process in
 * /proc).  Each goes to sink, counted in the stats. */
int pmu_session_synthesize(struct pmu_session *s, pmu_record_fn sink, void *arg,
			   struct pmurt_error *err);

/* Enable every event now (a workload's events wait for its exec instead);
 * an AUX event that ran before is reopened instead, enabled. */
int pmu_session_enable(struct pmu_session *s, struct pmurt_error *err);
int pmu_session_disable(struct pmu_session *s, struct pmurt_error *err);

/* Wait up to timeout_ms for a ring to fill past its wake-up mark, for every
 * task event to hang up, or for pmu_session_stop; then drain every ring to
 * sink, followed by one PERF_RECORD_FINISHED_ROUND when anything was
 * drained (perf's ordering barrier).  Returns 0, or a negative errno. */
int pmu_session_poll(struct pmu_session *s, int timeout_ms, pmu_record_fn sink,
		     void *arg, struct pmurt_error *err);
/* From now on the rings' records leave in spans, as the kernel laid them
 * out (pmu_ring_drain_spans), to span with the arg given to poll and drain,
 * each still counted in the stats; synthesised records and the round
 * markers still go to the record sink.  NULL: every record to the sink. */
void pmu_session_span_sink(struct pmu_session *s, pmu_span_fn span);
/* And with the drain's walk over the records shared: note (with the same
 * arg) sees each record of the spans once, in order, before its span goes
 * to span (pd_writer_note, for pd_writer_add_noted_span); its negative
 * return stops the drain before that record. */
void pmu_session_noted_span_sink(struct pmu_session *s, pmu_record_fn note, pmu_span_fn span);
/* Drain every ring once, then the FINISHED_ROUND as above. */
int pmu_session_drain(struct pmu_session *s, pmu_record_fn sink, void *arg,
		      struct pmurt_error *err);

/* Ask a running poll loop to stop: async-signal-safe (a lock-free atomic
 * store), for a SIGINT handler.  pmu_session_stopped tells whether it was
 * asked, or whether every task event hung up (the task and its children
 * exited). */
void pmu_session_stop(struct pmu_session *s);
bool pmu_session_stopped(const struct pmu_session *s);

const struct pmu_record_stats *pmu_session_stats(const struct pmu_session *s);
/* The CPUs of the session, in mmap (AUXTRACE idx) order. */
const int *pmu_session_cpus(const struct pmu_session *s, int *ncpus);

#endif /* PMU_RECORD_H */
