/*
 * features.c - the perf.data header features that describe the recording
 * host, as perf record writes them (tools/perf/util/header.c write_*,
 * tools/perf/util/cputopo.c, tools/perf/arch/{x86,powerpc}/util/header.c
 * get_cpuid), read from /proc and /sys under a root directory ("" for the
 * running system; a tree in the tests).  A feature whose source cannot be
 * read is left out, as perf leaves out a feature whose write fails
 * (perf_header__adds_write).  Also the byte buffer the writer builds
 * every feature in.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "errors.h"
#include "perfdata.h"

#define PD_NAME_ALIGN 64u   /* header.c NAME_ALIGN */
#define PD_MAX_CPUS 8192

/* --- the byte buffer ----------------------------------------------------------- */

void pd_bytes_put(struct pd_bytes *b, const void *p, size_t n)
{
	if (b->nomem || !n)
		return;
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->n + n)
			cap *= 2;
		uint8_t *grown = realloc(b->p, cap);
		if (!grown) {
			b->nomem = true;
			return;
		}
		b->p = grown;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

void pd_bytes_u32(struct pd_bytes *b, uint32_t v)
{
	pd_bytes_put(b, &v, 4);
}

void pd_bytes_u64(struct pd_bytes *b, uint64_t v)
{
	pd_bytes_put(b, &v, 8);
}

/* header.c do_write_string: u32 length padded to NAME_ALIGN, the string,
 * its NUL and zeros to that length. */
void pd_bytes_string(struct pd_bytes *b, const char *s)
{
	static const uint8_t zeros[PD_NAME_ALIGN];
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN);
	pd_bytes_u32(b, len);
	pd_bytes_put(b, s, n);
	pd_bytes_put(b, zeros, len - n);
}

void pd_bytes_free(struct pd_bytes *b)
{
	free(b->p);
	*b = (struct pd_bytes){0};
}

/* --- reading the host ------------------------------------------------------------ */

/* The first line of root/rel, without its newline: 0, or -1. */
static int read_line(const char *root, const char *rel, char *out, size_t len)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	FILE *fp = fopen(path, "re");
	if (!fp)
		return -1;
	bool got = fgets(out, (int)len, fp) != NULL;
	fclose(fp);
	if (!got)
		return -1;
	out[strcspn(out, "\n")] = 0;
	return 0;
}

static int read_int(const char *root, const char *rel, int *v)
{
	char line[64];
	if (read_line(root, rel, line, sizeof(line)) < 0)
		return -1;
	*v = atoi(line);
	return 0;
}

/* A kernel CPU list ("0-3,8"): the CPUs set in set[0..PD_MAX_CPUS); the
 * highest plus one, or -1 when it cannot be read. */
static int cpu_list(const char *root, const char *rel, bool *set)
{
	char line[4096];
	int max = -1;
	if (read_line(root, rel, line, sizeof(line)) < 0)
		return -1;
	for (char *p = line; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0 || a >= PD_MAX_CPUS)
			return -1;
		if (*end == '-' && (b = strtol(end + 1, &end, 10)) < a)
			return -1;
		if (b >= PD_MAX_CPUS)
			return -1;
		for (long c = a; c <= b; c++)
			set[c] = true;
		max = (int)b > max ? (int)b : max;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			break;
	}
	return max + 1;
}

/* cpu__max_present_cpu(): the highest present CPU plus one. */
static int max_present(const char *root)
{
	bool *present = calloc(PD_MAX_CPUS, sizeof(*present));
	int n = present ? cpu_list(root, "/sys/devices/system/cpu/present", present) : -1;
	free(present);
	return n;
}

/* The "key : value" line of /proc/cpuinfo starting with key: its value
 * (header.c __write_cpudesc takes what follows ": "). */
static int cpuinfo_value(const char *root, const char *key, char *out, size_t len)
{
	char path[1024], line[1024];
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	FILE *fp = fopen(path, "re");
	int rc = -1;
	if (!fp)
		return -1;
	while (rc < 0 && fgets(line, sizeof(line), fp)) {
		if (strncmp(line, key, strlen(key)))
			continue;
		char *colon = strchr(line, ':');
		char *v = colon && colon[1] == ' ' && colon[2] ? colon + 2 : line;
		v[strcspn(v, "\n")] = 0;
		snprintf(out, len, "%s", v);
		rc = 0;
	}
	fclose(fp);
	return rc;
}

/* --- the features ------------------------------------------------------------- */

static int host_uname(int bit, struct pd_bytes *b)
{
	struct utsname u;
	if (uname(&u) < 0)
		return 0;   /* write_hostname & co. fail: no feature */
	pd_bytes_string(b, bit == PD_FEAT_HOSTNAME ? u.nodename
			   : bit == PD_FEAT_OSRELEASE ? u.release : u.machine);
	return 1;
}

/* write_nrcpus: the highest present CPU plus one ("avail"), then the
 * online count (sysconf(_SC_NPROCESSORS_ONLN), which glibc reads from the
 * online list). */
static int host_nrcpus(const char *root, struct pd_bytes *b)
{
	bool *online = calloc(PD_MAX_CPUS, sizeof(*online));
	int avail = max_present(root), n = 0;
	if (!online || avail < 0 || cpu_list(root, "/sys/devices/system/cpu/online", online) < 0) {
		free(online);
		return 0;
	}
	for (int c = 0; c < PD_MAX_CPUS; c++)
		n += online[c];
	free(online);
	pd_bytes_u32(b, (uint32_t)avail);
	pd_bytes_u32(b, (uint32_t)n);
	return 1;
}

/* __write_cpudesc: the architecture's cpuinfo line, runs of spaces
 * squashed to one. */
static int host_cpudesc(const char *root, struct pd_bytes *b)
{
	struct utsname u;
	char text[1024];
	const char *key = uname(&u) == 0 && !strncmp(u.machine, "ppc", 3) ? "cpu" : "model name";
	if (cpuinfo_value(root, key, text, sizeof(text)) < 0)
		return 0;
	char *w = text;
	for (const char *r = text; *r; r++) {
		if (isspace((unsigned char)*r)) {
			*w++ = ' ';
			while (isspace((unsigned char)r[1]))
				r++;
		} else {
			*w++ = *r;
		}
	}
	*w = 0;
	pd_bytes_string(b, text);
	return 1;
}

/* get_cpuid: x86 "vendor,family,model,stepping" (the family and model with
 * their extended parts, as /proc/cpuinfo shows them); powerpc the PVR's
 * version and revision in decimal ("(pvr 0080 0200)" in cpuinfo). */
static int host_cpuid(const char *root, struct pd_bytes *b)
{
	char vendor[64], family[32], model[32], step[32], rev[256], text[256];
	if (!cpuinfo_value(root, "vendor_id", vendor, sizeof(vendor)) &&
	    !cpuinfo_value(root, "cpu family", family, sizeof(family)) &&
	    !cpuinfo_value(root, "model\t", model, sizeof(model)) &&
	    !cpuinfo_value(root, "stepping", step, sizeof(step))) {
		snprintf(text, sizeof(text), "%s,%s,%s,%s", vendor, family, model, step);
	} else {
		unsigned ver, r;
		const char *pvr;
		if (cpuinfo_value(root, "revision", rev, sizeof(rev)) < 0 ||
		    !(pvr = strstr(rev, "(pvr ")) || sscanf(pvr, "(pvr %x %x)", &ver, &r) != 2)
			return 0;
		snprintf(text, sizeof(text), "%u,%u", ver, r);
	}
	pd_bytes_string(b, text);
	return 1;
}

/* write_total_mem: MemTotal of /proc/meminfo in kB. */
static int host_total_mem(const char *root, struct pd_bytes *b)
{
	char path[1024], line[256];
	unsigned long long kb = 0;
	bool found = false;
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	FILE *fp = fopen(path, "re");
	if (!fp)
		return 0;
	while (!found && fgets(line, sizeof(line), fp))
		found = sscanf(line, "MemTotal: %llu", &kb) == 1;
	fclose(fp);
	if (found)
		pd_bytes_u64(b, kb);
	return found;
}

/* A list of distinct CPU-list strings, in the order first met. */
struct lists {
	char (*v)[256];
	uint32_t n;
};

static void add_distinct(struct lists *l, const char *s)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return;
	snprintf(l->v[l->n++], sizeof(l->v[0]), "%s", s);
}

/* One of a CPU's topology lists (cputopo.c build_cpu_topology): name, or
 * the older old_name when name is absent. */
static void topology_list(const char *root, int cpu, const char *name, const char *old_name,
			  struct lists *l)
{
	char rel[128], old[128], line[256];
	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	snprintf(old, sizeof(old), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu,
		 old_name ? old_name : name);
	if (read_line(root, rel, line, sizeof(line)) == 0 ||
	    (old_name && read_line(root, old, line, sizeof(line)) == 0))
		add_distinct(l, line);
}

/* A CPU's topology number (cpu__get_topology_int), -1 when unreadable. */
static uint32_t topology_id(const char *root, int cpu, const char *name)
{
	char rel[128];
	int v;
	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	return read_int(root, rel, &v) < 0 ? UINT32_MAX : (uint32_t)v;
}

static void put_lists(struct pd_bytes *b, const struct lists *l)
{
	pd_bytes_u32(b, l->n);
	for (uint32_t i = 0; i < l->n; i++)
		pd_bytes_string(b, l->v[i]);
}

/* write_cpu_topology: the distinct package and core CPU lists of the
 * online CPUs, each present CPU's core and socket id; on x86_64 with
 * die_cpus_list, the die lists and ids after them. */
static int host_cpu_topology(const char *root, struct pd_bytes *b)
{
	struct utsname u;
	char rel[128], line[8];
	int n = max_present(root);
	bool *online = calloc(PD_MAX_CPUS, sizeof(*online));
	struct lists pkg = {0}, core = {0}, die = {0};
	if (n > 0) {
		pkg.v = calloc((size_t)n, sizeof(*pkg.v));
		core.v = calloc((size_t)n, sizeof(*core.v));
		die.v = calloc((size_t)n, sizeof(*die.v));
	}
	int rc = 0;
	if (n <= 0 || !online || !pkg.v || !core.v || !die.v ||
	    cpu_list(root, "/sys/devices/system/cpu/online", online) < 0)
		goto out;
	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu0/topology/die_cpus_list");
	bool has_die = uname(&u) == 0 && (!strncmp(u.machine, "x86_64", 6) ||
					  !strncmp(u.machine, "s390x", 5)) &&
		       read_line(root, rel, line, sizeof(line)) == 0;
	for (int c = 0; c < n; c++) {
		if (!online[c])
			continue;
		topology_list(root, c, "package_cpus_list", "core_siblings_list", &pkg);
		if (has_die)
			topology_list(root, c, "die_cpus_list", NULL, &die);
		topology_list(root, c, "core_cpus_list", "thread_siblings_list", &core);
	}
	put_lists(b, &pkg);
	put_lists(b, &core);
	for (int c = 0; c < n; c++) {
		pd_bytes_u32(b, topology_id(root, c, "core_id"));
		pd_bytes_u32(b, topology_id(root, c, "physical_package_id"));
	}
	if (has_die && die.n) {
		put_lists(b, &die);
		for (int c = 0; c < n; c++)
			pd_bytes_u32(b, topology_id(root, c, "die_id"));
	}
	rc = 1;
out:
	free(online);
	free(pkg.v);
	free(core.v);
	free(die.v);
	return rc;
}

/* Each PMU of /sys/bus/event_source/devices, in the directory's order
 * (perf 6.1's pmu_read_sysfs order), offered to add_entry, which appends
 * its entry to out and says whether it wrote one; then their count and the
 * entries, as write_pmu_mappings and write_pmu_caps lay them out.  0
 * without the folder. */
static int pmu_entries(const char *root, struct pd_bytes *b,
		       bool (*add_entry)(const char *root, const char *pmu, struct pd_bytes *out))
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices", root);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct pd_bytes entries = {0};
	uint32_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n += add_entry(root, e->d_name, &entries);
	closedir(d);
	pd_bytes_u32(b, n);
	pd_bytes_put(b, entries.p, entries.n);
	b->nomem |= entries.nomem;
	pd_bytes_free(&entries);
	return 1;
}

/* write_pmu_mappings: a PMU's type and name. */
static bool mapping_entry(const char *root, const char *pmu, struct pd_bytes *out)
{
	char rel[512];
	int type;
	snprintf(rel, sizeof(rel), "/sys/bus/event_source/devices/%s/type", pmu);
	if (read_int(root, rel, &type) < 0)
		return false;
	pd_bytes_u32(out, (uint32_t)type);
	pd_bytes_string(out, pmu);
	return true;
}

static int host_pmu_mappings(const char *root, struct pd_bytes *b)
{
	return pmu_entries(root, b, mapping_entry);
}

/* write_numa_topology: each online node, its MemTotal and MemFree (kB,
 * nodeN/meminfo) and its CPU list. */
static int host_numa(const char *root, struct pd_bytes *b)
{
	bool *nodes = calloc(PD_MAX_CPUS, sizeof(*nodes));
	int n = nodes ? cpu_list(root, "/sys/devices/system/node/online", nodes) : -1;
	struct pd_bytes out = {0};
	uint32_t count = 0;
	int rc = n >= 0;
	for (int node = 0; rc && node < n; node++) {
		char path[1024], line[256], field[32], cpus[4096];
		unsigned long long kb, total = 0, free_kb = 0;
		if (!nodes[node])
			continue;
		snprintf(path, sizeof(path), "%s/sys/devices/system/node/node%d/meminfo", root, node);
		FILE *fp = fopen(path, "re");
		while (fp && fgets(line, sizeof(line), fp) && !(total && free_kb)) {
			if (strchr(line, ':') && sscanf(line, "%*s %*d %31s %llu", field, &kb) == 2) {
				total = !strcmp(field, "MemTotal:") ? kb : total;
				free_kb = !strcmp(field, "MemFree:") ? kb : free_kb;
			}
		}
		if (fp)
			fclose(fp);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		if (!fp || read_line(root, path, cpus, sizeof(cpus)) < 0) {
			rc = 0;
			break;
		}
		pd_bytes_u32(&out, (uint32_t)node);
		pd_bytes_u64(&out, total);
		pd_bytes_u64(&out, free_kb);
		pd_bytes_string(&out, cpus);
		count++;
	}
	if (rc) {
		pd_bytes_u32(b, count);
		pd_bytes_put(b, out.p, out.n);
		b->nomem |= out.nomem;
	}
	pd_bytes_free(&out);
	free(nodes);
	return rc;
}

/* One cache of cputopo's cpu_cache_level. */
struct cache {
	uint32_t level, line_size, sets, ways;
	char type[32], size[32], map[256];
};

/* cpu_cache_level__read: 1 when there is no such index, -1 on a file
 * that cannot be read. */
static int read_cache(const char *root, int cpu, int index, struct cache *c)
{
	char dir[128], rel[192];
	int v[4];
	static const char *const ints[4] = {"level", "coherency_line_size", "number_of_sets",
					    "ways_of_associativity"};
	snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu, index);
	snprintf(rel, sizeof(rel), "%s%s", root, dir);
	if (access(rel, F_OK) < 0)
		return 1;
	for (int i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "%s/%s", dir, ints[i]);
		if (read_int(root, rel, &v[i]) < 0)
			return -1;
	}
	*c = (struct cache){.level = (uint32_t)v[0], .line_size = (uint32_t)v[1],
			    .sets = (uint32_t)v[2], .ways = (uint32_t)v[3]};
	snprintf(rel, sizeof(rel), "%s/type", dir);
	if (read_line(root, rel, c->type, sizeof(c->type)) < 0)
		return -1;
	snprintf(rel, sizeof(rel), "%s/size", dir);
	if (read_line(root, rel, c->size, sizeof(c->size)) < 0)
		return -1;
	snprintf(rel, sizeof(rel), "%s/shared_cpu_list", dir);
	return read_line(root, rel, c->map, sizeof(c->map)) < 0 ? -1 : 0;
}

/* write_cache: version 1, then the distinct caches of every possible CPU
 * (indexes 0..3, MAX_CACHE_LVL), sorted by level keeping the order found
 * (glibc's qsort, a merge sort there), each level, line size, sets, ways,
 * type, size and shared CPU list. */
static int host_cache(const char *root, struct pd_bytes *b)
{
	bool *possible = calloc(PD_MAX_CPUS, sizeof(*possible));
	int n = possible ? cpu_list(root, "/sys/devices/system/cpu/possible", possible) : -1;
	struct cache *v = n > 0 ? calloc((size_t)n * 4, sizeof(*v)) : NULL;
	uint32_t count = 0;
	int rc = v != NULL;
	for (int cpu = 0; rc && cpu < n; cpu++) {
		for (int index = 0; index < 4; index++) {
			struct cache c;
			int got = read_cache(root, cpu, index, &c);
			if (got < 0)
				rc = 0;
			if (got)
				break;
			uint32_t k = 0;
			while (k < count && memcmp(&v[k], &c, sizeof(c)))
				k++;
			if (k == count)
				v[count++] = c;
		}
	}
	for (uint32_t i = 1; rc && i < count; i++) {   /* stable, by level */
		struct cache c = v[i];
		uint32_t k = i;
		for (; k > 0 && v[k - 1].level > c.level; k--)
			v[k] = v[k - 1];
		v[k] = c;
	}
	if (rc) {
		pd_bytes_u32(b, 1);
		pd_bytes_u32(b, count);
	}
	for (uint32_t i = 0; rc && i < count; i++) {
		pd_bytes_put(b, &v[i].level, 16);   /* level, line size, sets, ways */
		pd_bytes_string(b, v[i].type);
		pd_bytes_string(b, v[i].size);
		pd_bytes_string(b, v[i].map);
	}
	free(v);
	free(possible);
	return rc;
}

/* The memoryN entries of a node directory: the highest N plus one, and
 * their bitmap (words of 64) when bits is not NULL. */
static uint64_t memory_blocks(DIR *d, uint64_t *bits)
{
	uint64_t size = 0;
	unsigned idx;
	struct dirent *e;
	rewinddir(d);
	while ((e = readdir(d))) {
		if (sscanf(e->d_name, "memory%u", &idx) != 1)
			continue;
		size = idx + 1ull > size ? idx + 1ull : size;
		if (bits)
			bits[idx / 64] |= 1ull << (idx % 64);
	}
	return size;
}

/* write_mem_topology: version 1, the memory block size, the nodes sorted,
 * each its number, its bitmap's size in bits and the bitmap
 * (do_write_bitmap: the size again, then u64 words). */
static int host_mem_topology(const char *root, struct pd_bytes *b)
{
	char path[1024], line[64];
	if (read_line(root, "/sys/devices/system/memory/block_size_bytes", line,
		      sizeof(line)) < 0)
		return 0;
	bool *nodes = calloc(PD_MAX_CPUS, sizeof(*nodes));
	snprintf(path, sizeof(path), "%s/sys/devices/system/node", root);
	DIR *top = nodes ? opendir(path) : NULL;
	struct dirent *e;
	unsigned idx;
	uint64_t nr = 0;
	while (top && (e = readdir(top)))
		if (sscanf(e->d_name, "node%u", &idx) == 1 && idx < PD_MAX_CPUS && !nodes[idx])
			nodes[idx] = true, nr++;
	if (top)
		closedir(top);
	int rc = top != NULL;
	struct pd_bytes out = {0};
	for (unsigned node = 0; rc && node < PD_MAX_CPUS; node++) {
		if (!nodes[node])
			continue;
		snprintf(path, sizeof(path), "%s/sys/devices/system/node/node%u", root, node);
		DIR *d = opendir(path);
		uint64_t blocks = d ? memory_blocks(d, NULL) : 0;
		uint64_t size = d ? (blocks ? blocks : 1) : 0;   /* perf: the highest + 1, at least 1 */
		uint64_t *bits = size ? calloc((size_t)(size + 63) / 64, 8) : NULL;
		if (bits)
			memory_blocks(d, bits);
		if (d)
			closedir(d);
		if (!bits) {
			rc = 0;
			break;
		}
		pd_bytes_u64(&out, node);
		pd_bytes_u64(&out, size);
		pd_bytes_u64(&out, size);
		pd_bytes_put(&out, bits, (size_t)(size + 63) / 64 * 8);
		free(bits);
	}
	if (rc) {
		pd_bytes_u64(b, 1);
		pd_bytes_u64(b, strtoull(line, NULL, 16));
		pd_bytes_u64(b, nr);
		pd_bytes_put(b, out.p, out.n);
		b->nomem |= out.nomem;
	}
	pd_bytes_free(&out);
	free(nodes);
	return rc;
}

/* A PMU's capabilities (perf_pmu__caps_parse: each file of its caps
 * directory, its first line without the newline) as __write_pmu_caps
 * writes them: the count, then name and value each; -1 without the
 * directory. */
static int pmu_caps(const char *root, const char *pmu, struct pd_bytes *b)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s/caps", root, pmu);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct pd_bytes pairs = {0};
	uint32_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char rel[1024], value[256];
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "/sys/bus/event_source/devices/%s/caps/%s", pmu,
			 e->d_name);
		if (read_line(root, rel, value, sizeof(value)) < 0)
			continue;
		pd_bytes_string(&pairs, e->d_name);
		pd_bytes_string(&pairs, value);
		n++;
	}
	closedir(d);
	pd_bytes_u32(b, n);
	pd_bytes_put(b, pairs.p, pairs.n);
	b->nomem |= pairs.nomem;
	pd_bytes_free(&pairs);
	return (int)n;
}

/* write_cpu_pmu_caps: the "cpu" PMU's capabilities (an empty section
 * when it has none); no "cpu" PMU, no feature. */
static int host_cpu_pmu_caps(const char *root, struct pd_bytes *b)
{
	char rel[128];
	int type;
	snprintf(rel, sizeof(rel), "/sys/bus/event_source/devices/cpu/type");
	if (read_int(root, rel, &type) < 0)
		return 0;
	struct pd_bytes caps = {0};
	if (pmu_caps(root, "cpu", &caps) > 0)
		pd_bytes_put(b, caps.p, caps.n);
	b->nomem |= caps.nomem;
	pd_bytes_free(&caps);
	return 1;
}

/* write_pmu_caps (perf 6.1): a PMU other than "cpu" with capabilities:
 * its capabilities, then its name. */
static bool caps_entry(const char *root, const char *pmu, struct pd_bytes *out)
{
	struct pd_bytes caps = {0};
	bool wrote = strcmp(pmu, "cpu") && pmu_caps(root, pmu, &caps) > 0;
	if (wrote) {
		pd_bytes_put(out, caps.p, caps.n);
		pd_bytes_string(out, pmu);
	}
	out->nomem |= caps.nomem;
	pd_bytes_free(&caps);
	return wrote;
}

static int host_pmu_caps(const char *root, struct pd_bytes *b)
{
	return pmu_entries(root, b, caps_entry);
}

int pd_host_feature(int bit, const char *root, struct pd_bytes *b)
{
	switch (bit) {
	case PD_FEAT_HOSTNAME:
	case PD_FEAT_OSRELEASE:
	case PD_FEAT_ARCH: return host_uname(bit, b);
	case PD_FEAT_NRCPUS: return host_nrcpus(root, b);
	case PD_FEAT_CPUDESC: return host_cpudesc(root, b);
	case PD_FEAT_CPUID: return host_cpuid(root, b);
	case PD_FEAT_TOTAL_MEM: return host_total_mem(root, b);
	case PD_FEAT_CPU_TOPOLOGY: return host_cpu_topology(root, b);
	case PD_FEAT_PMU_MAPPINGS: return host_pmu_mappings(root, b);
	case PD_FEAT_NUMA_TOPOLOGY: return host_numa(root, b);
	case PD_FEAT_CACHE: return host_cache(root, b);
	case PD_FEAT_MEM_TOPOLOGY: return host_mem_topology(root, b);
	case PD_FEAT_CPU_PMU_CAPS: return host_cpu_pmu_caps(root, b);
	case PD_FEAT_PMU_CAPS: return host_pmu_caps(root, b);
	default: return 0;
	}
}
