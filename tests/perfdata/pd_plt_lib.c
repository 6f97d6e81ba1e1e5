/*
 * pd_plt_lib.c - the shared library of perfdata/interop-plt-sweep and
 * interop-plt-record (interop.sh builds it with gcc and with clang): its
 * call to libc's memcmp goes through a PLT entry of its own.
 */
#include <stddef.h>
#include <string.h>

int plt_lib_compare(const void *a, const void *b, size_t n);

int plt_lib_compare(const void *a, const void *b, size_t n)
{
	return memcmp(a, b, n) + 1;
}
