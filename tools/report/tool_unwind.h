/*
 * tool_unwind.h - the user frames of a sample recorded with perf record
 * --call-graph dwarf (PERF_SAMPLE_REGS_USER and STACK_USER): the user
 * registers and a copy of the stack unwound with elfutils' libdwfl and the
 * mapped files' CFI, as perf 6.1 does it (util/unwind-libdw.c).
 */
#ifndef TOOL_UNWIND_H
#define TOOL_UNWIND_H

#include <stdint.h>

#include "pmurt.h"

struct elf_lib;
struct symbols;
struct unwinder;

/* An unwinder for a file recorded on arch (its HEADER_ARCH, "x86_64";
 * NULL: this machine's), the maps and files of syms; NULL without memory.
 * lib and syms must outlive it. */
struct unwinder *unwinder_new(const struct elf_lib *lib, struct symbols *syms, const char *arch);
void unwinder_free(struct unwinder *u);

/* The user frames of sample rec, innermost first: its user IP, then each
 * caller's return address less one (the call), at most max into ips.  The
 * count: 0 when the sample has no user registers or stack, the file's
 * architecture is not one this unwinder knows, or the first frame cannot be
 * unwound (perf's unwind__get_entries then gives none either); what came
 * before a frame that cannot be unwound otherwise.  -ENOMEM. */
int unwinder_frames(struct unwinder *u, const struct pmurt_perf_record *rec, uint64_t *ips,
		    int max);

#endif /* TOOL_UNWIND_H */
