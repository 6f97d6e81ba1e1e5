/*
 * elf_lib.h - elfutils (libelf, and libdw for the build id and the DWARF
 * unwinder of --call-graph dwarf samples and the source lines of report
 * --pprof, libdwfl) for pmutool
 * report and script, opened with dlopen when a session starts rather than
 * linked: the other subcommands (check, list, describe, stat) then pay no
 * dynamic loading for five libraries they never call.  The functions keep
 * their elfutils names and types, as members of struct elf_lib.
 */
#ifndef PMUTOOL_ELF_LIB_H
#define PMUTOOL_ELF_LIB_H

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>
#include <stddef.h>

/* Every elfutils function the symbolizer calls: X(library, name). */
#define ELF_LIB_FUNCS(X) \
	X(elf, elf_version) X(elf, elf_begin) X(elf, elf_memory) X(elf, elf_end) \
	X(elf, elf_kind) X(elf, elf_nextscn) X(elf, elf_getscn) X(elf, elf_getdata) \
	X(elf, elf_strptr) X(elf, elf_getphdrnum) X(elf, elf_getshdrstrndx) \
	X(elf, gelf_getehdr) X(elf, gelf_getphdr) X(elf, gelf_getshdr) X(elf, gelf_getsym) \
	X(elf, gelf_getrel) X(elf, gelf_getrela) X(elf, elf_ndxscn) X(dw, dwelf_elf_gnu_build_id) \
	X(dw, dwfl_begin) X(dw, dwfl_end) X(dw, dwfl_report_elf) X(dw, dwfl_addrmodule) \
	X(dw, dwfl_module_info) X(dw, dwfl_attach_state) X(dw, dwfl_getthread_frames) \
	X(dw, dwfl_thread_state_registers) X(dw, dwfl_thread_state_register_pc) \
	X(dw, dwfl_frame_pc) X(dw, dwfl_standard_find_debuginfo) \
	X(dw, dwfl_offline_section_address) X(dw, dwfl_module_getelf) X(dw, dwfl_module_getsrc) \
	X(dw, dwfl_lineinfo) X(dw, dwfl_module_addrdie) X(dw, dwarf_getscopes) X(dw, dwarf_tag) \
	X(dw, dwarf_decl_file) X(dw, dwarf_decl_line)

struct elf_lib {
	void *elf, *dw;   /* the dlopen handles */
#define ELF_LIB_MEMBER(lib, name) __typeof__(name) *name;
	ELF_LIB_FUNCS(ELF_LIB_MEMBER)
#undef ELF_LIB_MEMBER
};

/* 0, or -1 with a message naming the library and its Debian package. */
int elf_lib_open(struct elf_lib *l, char *err, size_t errlen);
void elf_lib_close(struct elf_lib *l);

#endif /* PMUTOOL_ELF_LIB_H */
