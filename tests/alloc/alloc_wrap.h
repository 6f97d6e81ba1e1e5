/*
 * alloc_wrap.h - the allocator functions the linker's --wrap renames
 * (tests/alloc.cmake): each test defines the __wrap_ ones and reaches libc's
 * through the __real_ ones.
 */
#ifndef ALLOC_WRAP_H
#define ALLOC_WRAP_H

#include <stddef.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
void __wrap_free(void *p);

#endif /* ALLOC_WRAP_H */
