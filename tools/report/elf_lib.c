/*
 * elf_lib.c - elfutils opened at run time (elf_lib.h).  The sonames are the
 * ones the build found (PMUTOOL_LIBELF_SONAME, PMUTOOL_LIBDW_SONAME), so the
 * library loaded is the one the headers describe; a static build links it
 * (PMUTOOL_ELFUTILS_LINKED).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "elf_lib.h"

#ifdef PMUTOOL_ELFUTILS_LINKED
/* A static pmutool (the ppc64le one of tests/qemu) links elfutils: a
 * static program has no dlopen to speak of, and no start-up cost to save. */
int elf_lib_open(struct elf_lib *l, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	memset(l, 0, sizeof(*l));
#define ELF_LIB_LINK(lib, name) l->name = name;
	ELF_LIB_FUNCS(ELF_LIB_LINK)
#undef ELF_LIB_LINK
	l->elf_version(EV_CURRENT);
	return 0;
}

void elf_lib_close(struct elf_lib *l)
{
	memset(l, 0, sizeof(*l));
}
#else
/* The Debian packages holding the libraries, for the error message. */
#define LIBELF_PACKAGE "libelf1"
#define LIBDW_PACKAGE "libdw1"

static void *open_one(const char *soname, const char *package, char *err, size_t errlen)
{
	/* kept mapped after dlclose: a second session (a fuzzer's next input)
	 * opens it again for nothing */
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!h)
		snprintf(err, errlen, "cannot load %s, which report and script read ELF files "
			 "with: %s (install the Debian package %s)", soname, dlerror(), package);
	return h;
}

int elf_lib_open(struct elf_lib *l, char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->elf = open_one(PMUTOOL_LIBELF_SONAME, LIBELF_PACKAGE, err, errlen);
	l->dw = l->elf ? open_one(PMUTOOL_LIBDW_SONAME, LIBDW_PACKAGE, err, errlen) : NULL;
	if (!l->dw) {
		elf_lib_close(l);
		return -1;
	}
	const char *missing = NULL;
#define ELF_LIB_BIND(lib, name) \
	if (!missing && !(*(void **)&l->name = dlsym(l->lib, #name))) \
		missing = #name;
	ELF_LIB_FUNCS(ELF_LIB_BIND)
#undef ELF_LIB_BIND
	if (missing) {
		snprintf(err, errlen, "%s or %s lacks %s (elfutils too old?)", PMUTOOL_LIBELF_SONAME,
			 PMUTOOL_LIBDW_SONAME, missing);
		elf_lib_close(l);
		return -1;
	}
	l->elf_version(EV_CURRENT);
	return 0;
}

void elf_lib_close(struct elf_lib *l)
{
	if (l->dw)
		dlclose(l->dw);
	if (l->elf)
		dlclose(l->elf);
	memset(l, 0, sizeof(*l));
}
#endif /* PMUTOOL_ELFUTILS_LINKED */
