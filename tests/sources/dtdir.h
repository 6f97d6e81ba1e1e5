/*
 * dtdir.h - test helpers for live device trees: write a DTB out as a
 * /proc/device-tree style directory, edit it, and remove it again.
 */
#ifndef DTDIR_H
#define DTDIR_H

#include <stddef.h>

/* Write node `node_path` of the DTB (and everything below it) into directory
 * `dir`: a directory per node, a file per property holding its raw bytes, a
 * "name" file per node as /proc has it.  Children are created in a scrambled
 * order.  0, or -1 after printing why. */
int dtdir_write(const void *fdt, const char *node_path, const char *dir);

/* Write `len` bytes into file `dir`/`rel` (created or replaced). */
int dtdir_put(const char *dir, const char *rel, const void *data, size_t len);

/* Remove `dir`/`rel` and everything below it. */
int dtdir_remove(const char *dir, const char *rel);

/* Read a whole file; NULL after printing why. */
void *dtdir_slurp(const char *path, size_t *len);

#endif /* DTDIR_H */
