/*
 * tool_trace.h - tracepoint samples' raw fields decoded as perf script
 * prints them, by Debian's libtraceevent (perf's own decoder), which is
 * opened with dlopen only when a file holds tracepoints: the other
 * subcommands pay nothing for it.  The formats come from the file's
 * tracing-data feature (HEADER_TRACING_DATA).
 */
#ifndef TOOL_TRACE_H
#define TOOL_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tool_trace;

/* A kernel address's function (NULL: none) and its start in *start: how
 * %ps and %pS fields print, as perf's machine__resolve_kernel_addr. */
typedef const char *tool_trace_resolve_fn(void *priv, uint64_t addr, uint64_t *start);

/* Loads libtraceevent and parses the feature's bytes (data, len) into it.
 * 0, or -1 with a message in err naming the library and its Debian
 * package, or the place in the feature that cannot be read. */
int tool_trace_open(struct tool_trace **tr, const void *data, uint64_t len,
		    tool_trace_resolve_fn *resolve, void *priv, char *err, size_t errlen);
void tool_trace_close(struct tool_trace *tr);

/* Prints to fp the fields of a sample of tracepoint id (its attr.config),
 * as perf's event_format__fprintf (util/trace-event-parse.c) does:
 * "prev_comm=sh prev_pid=...".  Nothing for an id the feature lacks. */
void tool_trace_print(struct tool_trace *tr, uint64_t id, uint32_t cpu, const void *raw,
		      uint32_t raw_size, FILE *fp);

#endif /* TOOL_TRACE_H */
