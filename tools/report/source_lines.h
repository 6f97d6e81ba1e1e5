/*
 * source_lines.h - the source file and line of an address of a mapped file,
 * from its DWARF line tables (or its separate debug file's, found by build
 * id or debuglink as libdwfl finds them), for report --pprof.
 */
#ifndef PMUTOOL_SOURCE_LINES_H
#define PMUTOOL_SOURCE_LINES_H

#include <stdint.h>

struct elf_lib;
struct source_lines;

/* Where an address is: the line table's file and line of it, and the
 * function holding it (its outermost subprogram, not an inlined one): the
 * file and line declaring it.  NULL and 0 for what the debug info lacks.
 * The strings live as long as the source_lines. */
struct source_line {
	const char *file;
	int line;
	const char *function_file;
	int function_line;
};

/* lib: opened, kept open by the caller until source_lines_free. */
struct source_lines *source_lines_new(const struct elf_lib *lib);
void source_lines_free(struct source_lines *l);
/* The source of the byte at file offset offset of file (an ELF file's
 * path): 1 when its debug info has a line for it, 0 when not (no DWARF,
 * not ELF, an offset in no segment), -ENOMEM.  Each file is read once. */
int source_lines_find(struct source_lines *l, const char *file, uint64_t offset,
		      struct source_line *out);

#endif /* PMUTOOL_SOURCE_LINES_H */
