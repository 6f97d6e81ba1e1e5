/*
 * sysfs.c - reads a PMU's sysfs directory (sysfs.h): type, format terms,
 * event aliases, cpumask, caps; and the kernel's CPU lists (cpumask files,
 * -C, pmurt_cpulist_parse).  The formats follow the kernel's
 * PMU_FORMAT_ATTR strings ("config:0-7,32-35", "config1:0-17", "config:5"),
 * as perf's pmu.y parses them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "pmurt_tool.h"
#include "sysfs.h"

#define DEVICES "bus/event_source/devices"

int pmu_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	int saved = errno;
	close(fd);
	if (n < 0)
		return -saved;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = 0;
	return 0;
}

static int pmu_path(char *out, size_t len, const char *sysfs, const char *pmu, const char *rest)
{
	int n = snprintf(out, len, "%s/" DEVICES "/%s%s%s", sysfs, pmu, rest[0] ? "/" : "", rest);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* "A-B" or "A" at *p, within 0..63. */
static int parse_range(const char **p, unsigned *lo, unsigned *hi)
{
	char *end;
	unsigned long a = strtoul(*p, &end, 10), b = a;
	if (end == *p)
		return -EINVAL;
	if (*end == '-') {
		const char *q = end + 1;
		b = strtoul(q, &end, 10);
		if (end == q)
			return -EINVAL;
	}
	if (a > b || b > 63)
		return -EINVAL;
	*lo = (unsigned)a, *hi = (unsigned)b;
	*p = end;
	return 0;
}

/* "configN:RANGE[,RANGE]..." */
static int parse_format(const char *text, struct pmu_format *f)
{
	static const char *const words[] = {"config", "config1", "config2"};
	const char *colon = strchr(text, ':');
	if (!colon)
		return -EINVAL;
	size_t wl = (size_t)(colon - text);
	f->word = -1;
	for (int i = 0; i < 3; i++)
		if (strlen(words[i]) == wl && strncmp(text, words[i], wl) == 0)
			f->word = i;
	if (f->word < 0)
		return -EINVAL;
	f->bits = 0;
	const char *p = colon + 1;
	for (;;) {
		unsigned lo, hi;
		if (parse_range(&p, &lo, &hi))
			return -EINVAL;
		f->bits |= (hi == 63 ? ~0ull : (1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1);
		if (*p != ',')
			break;
		p++;
	}
	return *p ? -EINVAL : 0;
}

static int load_formats(const char *sysfs, struct pmu_sysfs *pmu, struct pmurt_error *err)
{
	char dir[512], path[800], text[256];
	if (pmu_path(dir, sizeof(dir), sysfs, pmu->name, "format"))
		return -ENAMETOOLONG;
	DIR *d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	struct dirent *e;
	int rc = 0;
	while (!rc && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (pmu->nformat == PMU_FORMAT_MAX || strlen(e->d_name) >= sizeof(pmu->format[0].name)) {
			pmurt_set_error(err, -EINVAL, "%s/%s: too many or too long format names",
					dir, e->d_name);
			rc = -EINVAL;
			break;
		}
		struct pmu_format *f = &pmu->format[pmu->nformat];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rc = pmu_read_small(path, text, sizeof(text));
		if (!rc && parse_format(text, f)) {
			pmurt_set_error(err, -EINVAL, "%s: bad format '%s' (want configN:LO-HI[,LO-HI]...)",
					path, text);
			rc = -EINVAL;
		}
		if (!rc) {
			strcpy(f->name, e->d_name);
			pmu->nformat++;
		}
	}
	closedir(d);
	return rc;
}

static void load_caps(const char *sysfs, struct pmu_sysfs *pmu)
{
	char dir[512], path[800];
	if (pmu_path(dir, sizeof(dir), sysfs, pmu->name, "caps"))
		return;
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while (pmu->ncaps < PMU_CAPS_MAX && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(pmu->caps[0].name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (pmu_read_small(path, pmu->caps[pmu->ncaps].value,
				   sizeof(pmu->caps[0].value)) == 0)
			strcpy(pmu->caps[pmu->ncaps++].name, e->d_name);
	}
	closedir(d);
}

int pmu_sysfs_load(const char *sysfs, const char *name, struct pmu_sysfs *pmu,
		   struct pmurt_error *err)
{
	char path[512], text[64];
	memset(pmu, 0, sizeof(*pmu));
	if (strlen(name) >= sizeof(pmu->name) || strchr(name, '/') || name[0] == '.')
		return -ENOENT;
	strcpy(pmu->name, name);
	if (pmu_path(path, sizeof(path), sysfs, name, "type"))
		return -ENAMETOOLONG;
	int rc = pmu_read_small(path, text, sizeof(text));
	if (rc)
		return rc == -ENOTDIR ? -ENOENT : rc;
	char *end;
	unsigned long type = strtoul(text, &end, 10);
	if (end == text || *end || type > UINT32_MAX) {
		pmurt_set_error(err, -EINVAL, "%s: bad PMU type '%s'", path, text);
		return -EINVAL;
	}
	pmu->type = (uint32_t)type;
	if (!pmu_path(path, sizeof(path), sysfs, name, "cpumask") &&
	    pmu_read_small(path, pmu->cpumask, sizeof(pmu->cpumask)) == 0)
		pmu->has_cpumask = true;
	load_caps(sysfs, pmu);
	return load_formats(sysfs, pmu, err);
}

int pmu_sysfs_alias(const char *sysfs, const struct pmu_sysfs *pmu, const char *name,
		    char *terms, size_t len, double *scale, char unit[32])
{
	char rest[300], path[600], text[64];
	if (strchr(name, '/') || name[0] == '.' || strlen(name) > 255)
		return -ENOENT;
	snprintf(rest, sizeof(rest), "events/%s", name);
	if (pmu_path(path, sizeof(path), sysfs, pmu->name, rest))
		return -ENOENT;
	int rc = pmu_read_small(path, terms, len);
	if (rc)
		return rc == -ENOTDIR || rc == -EISDIR ? -ENOENT : rc;
	*scale = 1.0;
	unit[0] = 0;
	size_t n = strlen(path);
	snprintf(path + n, sizeof(path) - n, ".scale");
	if (pmu_read_small(path, text, sizeof(text)) == 0) {
		char *end;
		double v = strtod(text, &end);
		if (end != text && !*end)
			*scale = v;
	}
	snprintf(path + n, sizeof(path) - n, ".unit");
	if (pmu_read_small(path, text, 32) == 0)
		memcpy(unit, text, 32);
	return 0;
}

const struct pmu_format *pmu_sysfs_format(const struct pmu_sysfs *pmu, const char *key)
{
	for (int i = 0; i < pmu->nformat; i++)
		if (strcmp(pmu->format[i].name, key) == 0)
			return &pmu->format[i];
	return NULL;
}

int pmu_format_apply(const struct pmu_format *f, uint64_t value, uint64_t words[3])
{
	uint64_t placed = 0;
	int k = 0;
	for (int bit = 0; bit < 64; bit++) {
		if (!(f->bits >> bit & 1))
			continue;
		if (k < 64 && (value >> k & 1))
			placed |= 1ull << bit;
		k++;
	}
	if (k < 64 && value >> k)
		return -ERANGE;
	words[f->word] = (words[f->word] & ~f->bits) | placed;
	return 0;
}

const char *pmu_sysfs_cap(const struct pmu_sysfs *pmu, const char *name)
{
	for (int i = 0; i < pmu->ncaps; i++)
		if (strcmp(pmu->caps[i].name, name) == 0)
			return pmu->caps[i].value;
	return NULL;
}

int pmurt_cpulist_parse(const char *text, int **cpus, int *ncpus, struct pmurt_error *err)
{
	const char *p = text;
	pmurt_clear_error(err);
	*cpus = NULL;
	*ncpus = 0;
	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p || lo < 0 || lo > 65535)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo || hi > 65535)
				goto bad;
		}
		if (*end != ',' && *end != '\n' && *end)
			goto bad;
		for (long c = lo; c <= hi; c++) {
			int *v = realloc(*cpus, sizeof(int) * (size_t)(*ncpus + 1));
			if (!v) {
				pmurt_set_error(err, -ENOMEM, "CPU list '%s': out of memory", text);
				return -ENOMEM;
			}
			*cpus = v;
			(*cpus)[(*ncpus)++] = (int)c;
		}
		p = *end == ',' ? end + 1 : end;
	}
	if (*ncpus > 0)
		return 0;
bad:
	free(*cpus);
	*cpus = NULL;
	*ncpus = 0;
	pmurt_set_error(err, -EINVAL, "'%s' is not a CPU list (such as 0-3,8)", text);
	return -EINVAL;
}

bool pmu_cpulist_has(const char *list, int cpu)
{
	const char *p = list;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			return false;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return true;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return false;
	}
	return false;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

int pmu_sysfs_each(const char *sysfs, int (*fn)(const char *name, void *arg), void *arg)
{
	char dir[512];
	struct dirent **names;
	snprintf(dir, sizeof(dir), "%s/" DEVICES, sysfs);
	int n = scandir(dir, &names, not_dot, by_name);
	if (n < 0)
		return -errno;
	int rc = 0;
	for (int i = 0; i < n; i++) {
		if (!rc)
			rc = fn(names[i]->d_name, arg);
		free(names[i]);
	}
	free(names);
	return rc;
}
