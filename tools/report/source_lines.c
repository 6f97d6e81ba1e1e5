/*
 * source_lines.c - source files and lines of addresses (source_lines.h).
 *
 * Each file is one libdwfl session of its own, the file reported at base 0
 * so that its addresses are the ELF file's (as perf's srcline.c hands
 * addr2line the file's address, map__rip_2objdump): libdwfl finds a
 * stripped file's debug file by build id under /usr/lib/debug/.build-id or
 * by .gnu_debuglink (dwfl_standard_find_debuginfo, Debian's -dbg and
 * -dbgsym packages).  A file without DWARF has no lines.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elf_lib.h"
#include "source_lines.h"

struct source_file {
	const char *path;      /* the caller's */
	Dwfl *dwfl;            /* NULL: the file could not be reported */
	Dwfl_Module *mod;
};

struct source_lines {
	const struct elf_lib *lib;
	char *debuginfo_path;  /* libdwfl's default (NULL) */
	Dwfl_Callbacks callbacks;
	struct source_file *files;
	size_t n, cap;
};

struct source_lines *source_lines_new(const struct elf_lib *lib)
{
	struct source_lines *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->lib = lib;
	l->callbacks = (Dwfl_Callbacks){.find_debuginfo = lib->dwfl_standard_find_debuginfo,
					.section_address = lib->dwfl_offline_section_address,
					.debuginfo_path = &l->debuginfo_path};
	return l;
}

void source_lines_free(struct source_lines *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		if (l->files[i].dwfl)
			l->lib->dwfl_end(l->files[i].dwfl);
	free(l->files);
	free(l);
}

/* The session of path, made on first use; NULL when out of memory. */
static struct source_file *file_of(struct source_lines *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->files[i].path == path || !strcmp(l->files[i].path, path))
			return &l->files[i];
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct source_file *v = realloc(l->files, cap * sizeof(*v));
		if (!v)
			return NULL;
		l->files = v;
		l->cap = cap;
	}
	struct source_file *f = &l->files[l->n++];
	*f = (struct source_file){.path = path, .dwfl = l->lib->dwfl_begin(&l->callbacks)};
	/* add_p_vaddr: the module's addresses are the file's own (bias 0) */
	if (f->dwfl)
		f->mod = l->lib->dwfl_report_elf(f->dwfl, path, path, -1, 0, true);
	return f;
}

/* The ELF address of a file offset, through the PT_LOAD segment holding
 * it; false when none does. */
static bool file_address(const struct elf_lib *lib, Dwfl_Module *mod, uint64_t offset,
			 uint64_t *addr)
{
	Dwarf_Addr bias;
	Elf *e = lib->dwfl_module_getelf(mod, &bias);
	size_t n;
	if (!e || lib->elf_getphdrnum(e, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (lib->gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    offset >= ph.p_offset && offset - ph.p_offset < ph.p_filesz) {
			*addr = offset - ph.p_offset + ph.p_vaddr + bias;
			return true;
		}
	}
	return false;
}

/* The outermost function holding addr: its declaration's file and line. */
static void function_decl(const struct elf_lib *lib, Dwfl_Module *mod, uint64_t addr,
			  struct source_line *out)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = lib->dwfl_module_addrdie(mod, addr, &bias), *scopes = NULL;
	int n = cu ? lib->dwarf_getscopes(cu, addr - bias, &scopes) : 0;
	for (int i = 0; i < n; i++) {
		if (lib->dwarf_tag(&scopes[i]) != DW_TAG_subprogram)
			continue;
		out->function_file = lib->dwarf_decl_file(&scopes[i]);
		if (lib->dwarf_decl_line(&scopes[i], &out->function_line))
			out->function_line = 0;
		break;
	}
	free(scopes);
}

int source_lines_find(struct source_lines *l, const char *file, uint64_t offset,
		      struct source_line *out)
{
	const struct elf_lib *lib = l->lib;
	*out = (struct source_line){0};
	struct source_file *f = file_of(l, file);
	if (!f)
		return -ENOMEM;
	uint64_t addr;
	if (!f->mod || !file_address(lib, f->mod, offset, &addr))
		return 0;
	Dwfl_Line *line = lib->dwfl_module_getsrc(f->mod, addr);
	if (!line || !(out->file = lib->dwfl_lineinfo(line, NULL, &out->line, NULL, NULL, NULL)))
		return 0;
	function_decl(lib, f->mod, addr, out);
	return 1;
}
