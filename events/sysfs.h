/*
 * sysfs.h - PMUs as the kernel lists them under
 * SYSFS/bus/event_source/devices/NAME: the perf type, the format terms
 * (format/NAME, "config:0-7,32-35"), the event aliases (events/NAME, with .scale
 * and .unit), the cpumask and caps/.  SYSFS stands for /sys, so tests point
 * it at trees they build (tests/fakesys/).  Not installed.
 */
#ifndef PMU_SYSFS_H
#define PMU_SYSFS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmurt.h"

#define PMU_FORMAT_MAX 32
#define PMU_CAPS_MAX 8

/* One format term: which attr word (0 config, 1 config1, 2 config2) and
 * which bits of it, as perf's pmu_format_value scatters a value into them. */
struct pmu_format {
	char name[32];
	int word;
	uint64_t bits;
};

struct pmu_sysfs {
	char name[64];
	uint32_t type;
	bool has_cpumask;       /* counts per CPU only (uncore-like; vpa_dtl has
	                           none, evsel.h pmu_is_vpa_dtl) */
	char cpumask[128];      /* "0-3", "" when none */
	struct pmu_format format[PMU_FORMAT_MAX];
	int nformat;
	struct {
		char name[32], value[64];
	} caps[PMU_CAPS_MAX];
	int ncaps;
};

/* Reads DIR/bus/event_source/devices/NAME (DIR: sysfs).  -ENOENT when the
 * PMU does not exist, -EINVAL with err naming the file for bad contents. */
int pmu_sysfs_load(const char *sysfs, const char *name, struct pmu_sysfs *pmu,
		   struct pmurt_error *err);

/* An event alias events/NAME: its terms ("event=0x07"), its .scale (1.0
 * when none) and .unit ("" when none).  -ENOENT when there is none. */
int pmu_sysfs_alias(const char *sysfs, const struct pmu_sysfs *pmu, const char *name,
		    char *terms, size_t len, double *scale, char unit[32]);

/* The format term named key, or NULL. */
const struct pmu_format *pmu_sysfs_format(const struct pmu_sysfs *pmu, const char *key);

/* Places value into the bits of f in *words (config, config1, config2), as
 * perf's pmu_format_value does: value's low bits go to f's lowest bits.
 * -ERANGE when value has more bits than f. */
int pmu_format_apply(const struct pmu_format *f, uint64_t value, uint64_t words[3]);

/* The value of caps/NAME, or NULL. */
const char *pmu_sysfs_cap(const struct pmu_sysfs *pmu, const char *name);

/* Calls fn for every PMU directory name under SYSFS/bus/event_source/devices
 * in name order; stops when fn returns non-zero and returns that. */
int pmu_sysfs_each(const char *sysfs, int (*fn)(const char *name, void *arg), void *arg);

/* Whether cpu is in a CPU list ("0-3,8"; sysfs cpumask files). */
bool pmu_cpulist_has(const char *list, int cpu);

/* Reads a small file into buf (trailing newline dropped); -errno. */
int pmu_read_small(const char *path, char *buf, size_t len);

#endif /* PMU_SYSFS_H */
