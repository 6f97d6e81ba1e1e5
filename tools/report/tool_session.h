/*
 * tool_session.h - one pass over a perf.data file for pmutool report and
 * script: records in time order (as perf's ordered events deliver them),
 * threads and maps followed, each sample handed over with its comm, file
 * and function, a progress line on a terminal.
 */
#ifndef TOOL_SESSION_H
#define TOOL_SESSION_H

#include <linux/perf_event.h>

#include "elf_lib.h"
#include "pmutool.h"
#include "tool_symbols.h"
#include "tool_unwind.h"

struct session_sample {
	const struct pmurt_perf_record *rec;
	const char *event;          /* the event's name */
	uint32_t event_type;        /* its attr.type (PERF_TYPE_*) */
	uint64_t config;            /* its attr.config (a tracepoint's id) */
	uint64_t period;            /* the sample's, else its attr's sample_period
	                               (perf's evsel__parse_sample default) */
	struct resolved at;         /* where rec->ip is */
};

/* A sample id and its counter's value when it was last read. */
struct id_value {
	uint64_t id, value;
};

struct session {
	const struct tool *tool;
	const char *path;
	struct pmurt_perf_file *file;
	struct pmurt_perf_info info;
	const char **event_names;   /* per event index */
	uint32_t *event_types;      /* attr.type per event index */
	uint64_t *event_periods;    /* attr.sample_period per event index */
	uint64_t *event_configs;    /* attr.config per event index */
	struct id_value *last;      /* every event id's value at its last
	                               PERF_SAMPLE_READ sample, sorted by id */
	size_t nlast;
	struct symbols *syms;
	struct elf_lib elf;         /* opened by session_open for syms */
	struct unwinder *unwind;    /* --call-graph dwarf samples' user frames */
	uint64_t nsamples, nlost;   /* samples; PERF_RECORD_LOST's lost count */
	char *input;                /* -i -: standard input's bytes */
	uint64_t nunknown_id;       /* read values of no event (perf's
	                               nr_unknown_id): not delivered */
};

/* Called per sample; a non-zero return stops the pass with that code. */
typedef int (*session_fn)(void *ctx, struct session *s, const struct session_sample *smp);

/* Open path and its symbols, the file read from bytes[0..size) when bytes
 * is not NULL (fuzz targets), from standard input when path is "-" (perf's
 * pipe format, or a file); without path, standard input when it is a
 * pipe, else "perf.data", as perf's.  An exit code. */
int session_open(struct session *s, const struct tool *t, const char *path, const void *bytes,
		 size_t size);
/* Every record in time order; samples to fn.  An exit code. */
int session_run(struct session *s, session_fn fn, void *ctx);
void session_close(struct session *s);

/* perf's short name of a file into buf: its base name ("libc.so.6");
 * bracketed names ("[kernel.kallsyms]") as they are; a JIT's
 * "/tmp/perf-PID.map" as "[JIT] tid PID" (perf's dsos.c dso__set_basename). */
void session_dso_short(const char *dso, char *buf, size_t len);

/* A call graph's context marker (PERF_CONTEXT_*) as a record's cpumode,
 * 0 for none (machine.c thread__resolve_callchain_sample). */
uint16_t session_context_mode(uint64_t ip);
/* A call chain perf takes for corrupted: a context marker (an entry at or
 * above PERF_CONTEXT_MAX) that is none of the kernel's, met before the
 * walk from the chain's start has taken `walked` frames (perf's max_stack
 * in callee order; INT_MAX: the whole chain).  perf 6.1 discards such a
 * chain whole (machine.c add_callchain_ip: "It seems the callchain is
 * corrupted.  Discard all."): the sample counts, without its chain. */
bool session_chain_corrupt(const struct pmurt_perf_record *rec, int walked);

/* The frames of a call graph perf report and script walk at most, from
 * the kernel's chain and from a DWARF unwinding each (PERF_MAX_STACK_DEPTH,
 * their --max-stack default; machine.c thread__resolve_callchain). */
#define SESSION_MAX_STACK 127
/* The user frames of a --call-graph dwarf sample unwound from its user
 * registers and stack (tool_unwind.h), innermost first, into
 * ips[SESSION_MAX_STACK]: their count, 0 for a sample without them, or
 * -ENOMEM.  perf appends them to the kernel's chain (which then holds the
 * kernel's frames only: exclude_callchain_user), as user frames. */
int session_user_frames(struct session *s, const struct pmurt_perf_record *rec, uint64_t *ips);

/* One sample as `pmutool script` prints it (cmd_script.c), its event name
 * right-aligned in name_width columns (also used by `pmutool dtl script`). */
void script_print_sample(const struct session_sample *smp, int name_width);

#endif /* TOOL_SESSION_H */
