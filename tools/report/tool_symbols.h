/*
 * tool_symbols.h - what a perf.data sample's pid and ip mean: the thread's
 * comm, the mapped file and the function.  Threads and maps come from the
 * file's COMM, FORK, MMAP and MMAP2 records (as perf's machine__process_*
 * keeps them); user functions from the mapped ELF files' symbol tables
 * through elfutils' libelf; kernel functions from /proc/kallsyms when it is
 * readable.  Comm and file names are interned (equal names, equal
 * pointers), a symbol's name is one pointer per symbol; all live until
 * symbols_free.
 */
#ifndef TOOL_SYMBOLS_H
#define TOOL_SYMBOLS_H

#include <stdint.h>

#include "pmurt.h"

struct symbols;

struct resolved {
	const char *comm;      /* the thread's command, ":TID" when unknown */
	const char *dso;       /* the mapped file's path, "[kernel.kallsyms]",
	                          "[MODULE]" or "[unknown]" */
	const char *sym;       /* the function, "[unknown]" when none */
	uint64_t sym_offset;   /* ip's offset into the function */
	uint64_t map_ip;       /* ip as an address of the file (perf's map_ip) */
	char mode;             /* 'k' kernel, '.' user, 'H' hypervisor, '?' */
	const char *sym_raw;   /* the function's name as the file has it
	                          (mangled), else as sym */
	uint64_t map_start, map_end, map_pgoff;  /* the user map holding ip
	                          (MMAP's start, start + len, pgoff); 0 else */
};

/* kallsyms: the kernel symbol file, NULL for none ("/proc/kallsyms");
 * lib: elfutils, opened, kept open by the caller until symbols_free. */
struct elf_lib;
struct symbols *symbols_new(const char *kallsyms, const struct elf_lib *lib);
void symbols_free(struct symbols *s);
/* Warn on standard error, once per file, when a mapped file's build id
 * differs from the one file f recorded for its path (HEADER_BUILD_ID):
 * the file was rebuilt or replaced since, its symbols may be wrong. */
void symbols_check_build_ids(struct symbols *s, const struct pmurt_perf_file *f,
			     const char *prog);
/* Follow one non-sample record (COMM, FORK, MMAP, MMAP2; others are
 * ignored).  Returns 0 or -ENOMEM. */
int symbols_track(struct symbols *s, const struct pmurt_perf_record *rec);
/* Resolve a sample's pid/tid and ip (with misc's cpumode). */
int symbols_resolve(struct symbols *s, uint32_t pid, uint32_t tid, uint64_t ip,
		    uint16_t misc, struct resolved *out);
/* The map of process pid holding user address ip: its bounds, its file
 * offset, and the ELF file read for its symbols (the build-id cache's copy
 * of the recorded one, else the file at its path; NULL: none read).  1 when
 * found, 0 when no map holds ip, or -ENOMEM. */
struct user_map {
	uint64_t start, end, pgoff;
	const char *file;
};
int symbols_user_map(struct symbols *s, uint32_t pid, uint64_t ip, struct user_map *out);
/* A count that changes whenever process pid's maps change (an mmap, a
 * fork's copy): what is built from them holds while it does not. */
uint64_t symbols_maps_generation(const struct symbols *s, uint32_t pid);
/* The comm of a thread alone. */
const char *symbols_comm(struct symbols *s, uint32_t tid);

#endif /* TOOL_SYMBOLS_H */
