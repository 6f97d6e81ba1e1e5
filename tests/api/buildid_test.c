/*
 * buildid_test.c - pmurt_tool.h's build ids and perf's build-id cache, and
 * pmurt.h's perf.data opened from memory, as a tool linking libpmurt.so
 * uses them (pmutool report and script do; the code under them is
 * perfdata/, tested on its own by tests/perfdata/buildid_test.c):
 * - a perf.data image in memory reads as the file does; cut short, it is
 *   refused naming the name given;
 * - the build ids that file records, as perf 6.1's `perf buildid-list -i`
 *   prints them;
 * - an ELF file's build id as binutils' readelf reads it (this program's
 *   own), a missing file, one not ELF and one without a note told apart;
 * - the kernel's from a root of the test's (ROOT/sys/kernel/notes);
 * - the vDSO's, from its image in memory and from that image written out;
 * - the build-id cache's directory (perf's environment and config) and
 *   DSOs, the kernel's kallsyms and the vDSO found in a cache laid out
 *   here as perf 6.1 lays it out;
 * - the options structs checked as pmurt.h says (an older, smaller one
 *   taken, a newer one with unknown fields set refused).
 *
 * usage: buildid_test DIR PERF.DATA HEX   (scratch files in DIR;
 * tests/perfdata/corpus/pmutool-group.data; this program's build id)
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pmurt.h"
#include "pmurt_tool.h"

static int failures;
static char dir[512];

static void hex(const struct pmurt_build_id *id, char out[2 * PMURT_BUILD_ID_MAX + 1])
{
	for (size_t i = 0; i < id->len && i < PMURT_BUILD_ID_MAX; i++)
		sprintf(out + 2 * i, "%02x", id->id[i]);
	out[2 * (id->len < PMURT_BUILD_ID_MAX ? id->len : PMURT_BUILD_ID_MAX)] = 0;
}

static struct pmurt_build_id from_hex(const char *text)
{
	struct pmurt_build_id id = {.len = 0};
	while (id.len < PMURT_BUILD_ID_MAX && sscanf(text + 2 * id.len, "%2hhx", &id.id[id.len]) == 1)
		id.len++;
	return id;
}

static void check_id(const struct pmurt_build_id *id, const char *want, const char *what)
{
	char have[2 * PMURT_BUILD_ID_MAX + 1];
	hex(id, have);
	CHECK(!strcmp(have, want), "%s: build id %s, want %s", what, have, want);
}

static void scratch(char *path, size_t len, const char *name)
{
	snprintf(path, len, "%s/%s", dir, name);
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *fp = fopen(path, "wb");
	CHECK(fp && fwrite(p, 1, n, fp) == n, "cannot write %s", path);
	if (fp)
		fclose(fp);
}

/* mkdir -p */
static void make_dirs(const char *path)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size = -1;
	if (fp && fseek(fp, 0, SEEK_END) == 0 && (size = ftell(fp)) > 0 && fseek(fp, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)size)) && fread(buf, 1, (size_t)size, fp) != (size_t)size) {
		free(buf);
		buf = NULL;
	}
	if (fp)
		fclose(fp);
	CHECK(buf, "cannot read %s", path);
	*n = buf ? (size_t)size : 0;
	return buf;
}

/* Every record's offset and type from f, to compare two readings. */
static int records(struct pmurt_perf_file *f, uint64_t *out, int cap)
{
	struct pmurt_perf_record rec = PMURT_OPTS_INIT(pmurt_perf_record);
	struct pmurt_error err;
	int n = 0, rc;
	while ((rc = pmurt_perf_next(f, &rec, &err)) == 1)
		if (n < cap)
			out[n++] = rec.offset << 8 | rec.type;
	CHECK(rc == 0, "pmurt_perf_next = %d: %s", rc, err.message);
	return n;
}

/* The file's image in a heap block of its exact size (ASan sees a read
 * past it), read as pmurt_perf_open reads the file; cut short, refused. */
static void perf_in_memory(const char *path)
{
	size_t size;
	uint8_t *image = slurp(path, &size);
	struct pmurt_perf_file *mem = NULL, *file = NULL;
	struct pmurt_error err;
	int rc = pmurt_perf_open_mem(&mem, "in-memory.data", image, size, &err);
	CHECK(rc == 0 && mem, "pmurt_perf_open_mem = %d: %s", rc, err.message);
	rc = pmurt_perf_open(&file, path, &err);
	CHECK(rc == 0 && file, "pmurt_perf_open(%s) = %d: %s", path, rc, err.message);
	if (mem && file) {
		struct pmurt_perf_info a = PMURT_OPTS_INIT(pmurt_perf_info);
		struct pmurt_perf_info b = PMURT_OPTS_INIT(pmurt_perf_info);
		pmurt_perf_info(mem, &a);
		pmurt_perf_info(file, &b);
		CHECK(a.nevents == b.nevents && a.nevents > 0 && a.data_size == b.data_size &&
		      !memcmp(a.features, b.features, sizeof(a.features)),
		      "in memory: %d events, %llu data bytes; the file: %d, %llu", a.nevents,
		      (unsigned long long)a.data_size, b.nevents, (unsigned long long)b.data_size);
		static uint64_t ra[4096], rb[4096];
		int na = records(mem, ra, 4096), nb = records(file, rb, 4096);
		CHECK(na == nb && na > 0 && !memcmp(ra, rb, (size_t)na * sizeof(ra[0])),
		      "in memory %d records, the file %d, or other offsets and types", na, nb);
	}
	pmurt_perf_close(mem);
	pmurt_perf_close(file);
	/* its header and attrs, without the rest */
	rc = pmurt_perf_open_mem(&mem, "in-memory.data", image, size / 2, &err);
	CHECK(rc == -EINVAL && !mem && !strncmp(err.message, "in-memory.data: ", 16),
	      "half the image: %d, \"%s\"", rc, err.message);
	free(image);
}

/* As Debian's perf 6.1 prints them: `perf buildid-list -i pmutool-group.data`. */
static void recorded(const char *path)
{
	static const char *const want[][2] = {
		{"/work/wt/perfdata/build/bin/pd_spin", "50e16aa9dcdf3c573f1fab2495c187b1fda0026b"},
		{"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
		 "7ebc65e52f2bbea498b4040fa92f7238377aaba9"},
		{"[kernel.kallsyms]", "4a5a9b0affb66c437abcd455d2738af879985fa9"},
	};
	struct pmurt_perf_file *f;
	struct pmurt_build_id id;
	if (pmurt_perf_open(&f, path, NULL)) {
		CHECK(0, "cannot open %s", path);
		return;
	}
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int rc = pmurt_perf_build_id(f, want[i][0], &id);
		CHECK(rc == 0, "pmurt_perf_build_id(%s) = %d", want[i][0], rc);
		if (rc == 0)
			check_id(&id, want[i][1], want[i][0]);
	}
	int rc = pmurt_perf_build_id(f, "/usr/bin/true", &id);
	CHECK(rc == -ENOENT, "a DSO the file does not record: %d", rc);
	rc = pmurt_perf_build_id(f, NULL, &id);
	CHECK(rc == -EINVAL, "no DSO: %d", rc);
	pmurt_perf_close(f);
}

/* An ELF64 file of one PT_NOTE segment holding note (n bytes). */
static void make_elf(const char *path, const void *note, size_t n)
{
	uint8_t buf[512] = {0};
	Elf64_Ehdr eh = {.e_phoff = sizeof(Elf64_Ehdr), .e_phnum = 1,
			 .e_phentsize = sizeof(Elf64_Phdr), .e_ehsize = sizeof(Elf64_Ehdr)};
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	Elf64_Phdr ph = {.p_type = PT_NOTE, .p_offset = sizeof(eh) + sizeof(ph), .p_filesz = n};
	memcpy(buf, &eh, sizeof(eh));
	memcpy(buf + sizeof(eh), &ph, sizeof(ph));
	memcpy(buf + sizeof(eh) + sizeof(ph), note, n);
	write_file(path, buf, sizeof(eh) + sizeof(ph) + n);
}

static void elf_files(const char *self, const char *self_hex)
{
	struct pmurt_build_id id;
	struct pmurt_error err;
	char path[600];
	int rc = pmurt_build_id_elf(self, &id, &err);
	CHECK(rc == 0, "pmurt_build_id_elf(%s) = %d: %s", self, rc, err.message);
	if (rc == 0)
		check_id(&id, self_hex, self);
	scratch(path, sizeof(path), "missing");
	rc = pmurt_build_id_elf(path, &id, &err);
	CHECK(rc == -ENOENT && strstr(err.message, path) && strstr(err.message, strerror(ENOENT)),
	      "a missing file: %d, \"%s\"", rc, err.message);
	scratch(path, sizeof(path), "text");
	write_file(path, "not an ELF file at all\n", 23);
	rc = pmurt_build_id_elf(path, &id, &err);
	CHECK(rc == -ENOEXEC && strstr(err.message, "not an ELF file"), "a text file: %d, \"%s\"",
	      rc, err.message);
	/* an ELF file whose only note is not a build id (an ABI tag) */
	static const uint8_t abi_tag[32] = {4, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, 'G', 'N', 'U', 0};
	scratch(path, sizeof(path), "no-note");
	make_elf(path, abi_tag, sizeof(abi_tag));
	rc = pmurt_build_id_elf(path, &id, &err);
	CHECK(rc == -ENOENT && strstr(err.message, "no GNU build-id note"),
	      "an ELF file without a build id: %d, \"%s\"", rc, err.message);
	/* an MD5 style id of 16 bytes after that note */
	uint8_t notes[32 + 32] = {0};
	static const uint8_t md5[16] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
	memcpy(notes, abi_tag, sizeof(abi_tag));
	memcpy(notes + 32, (const uint8_t[]){4, 0, 0, 0, 16, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0}, 16);
	memcpy(notes + 48, md5, sizeof(md5));
	scratch(path, sizeof(path), "md5");
	make_elf(path, notes, sizeof(notes));
	rc = pmurt_build_id_elf(path, &id, &err);
	CHECK(rc == 0, "a 16-byte build id: %d, \"%s\"", rc, err.message);
	if (rc == 0)
		check_id(&id, "deadbeef0102030405060708090a0b0c", path);
	rc = pmurt_build_id_elf(NULL, &id, &err);
	CHECK(rc == -EINVAL && err.code == -EINVAL, "no path: %d", rc);
}

/* A kernel of the test's: ROOT/sys/kernel/notes holding a Linux note and
 * then the build id, as the kernel's notes section does. */
static void kernel(void)
{
	char root[600], path[700];
	uint8_t notes[24 + 36] = {6, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 'L', 'i', 'n', 'u', 'x', 0};
	memcpy(notes + 24, (const uint8_t[]){4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0}, 16);
	for (int i = 0; i < 20; i++)
		notes[40 + i] = (uint8_t)(0x11 * (i % 16));
	scratch(root, sizeof(root), "root");
	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	make_dirs(path);
	snprintf(path, sizeof(path), "%s/sys/kernel/notes", root);
	write_file(path, notes, sizeof(notes));
	struct pmurt_build_id_opts opts = PMURT_OPTS_INIT(pmurt_build_id_opts, .root = root);
	struct pmurt_build_id id;
	struct pmurt_error err;
	int rc = pmurt_build_id_kernel(&id, &opts, &err);
	CHECK(rc == 0, "pmurt_build_id_kernel(%s) = %d: %s", root, rc, err.message);
	if (rc == 0)
		check_id(&id, "00112233445566778899aabbccddeeff00112233", path);
	/* a root without the file */
	opts.root = dir;
	rc = pmurt_build_id_kernel(&id, &opts, &err);
	CHECK(rc == -ENOENT && strstr(err.message, "/sys/kernel/notes"),
	      "no notes: %d, \"%s\"", rc, err.message);
	/* a newer header's opts, a field this library does not know set */
	struct {
		struct pmurt_build_id_opts o;
		uint64_t later;
	} newer = {.o = {.sz = sizeof(newer), .root = root}, .later = 1};
	rc = pmurt_build_id_kernel(&id, &newer.o, &err);
	CHECK(rc == -EINVAL && strstr(err.message, "pmurt_build_id_kernel"),
	      "unknown options: %d, \"%s\"", rc, err.message);
	newer.later = 0;
	rc = pmurt_build_id_kernel(&id, &newer.o, &err);
	CHECK(rc == 0 && err.code == 0, "unknown options all zero: %d, \"%s\"", rc, err.message);
}

/* The vDSO's build id from its image in memory and from the image
 * written out as an ELF file: the same. */
static void vdso(void)
{
	size_t size = 0;
	const uint8_t *image = pmurt_vdso_image(&size);
	CHECK(image && size >= SELFMAG && !memcmp(image, ELFMAG, SELFMAG),
	      "the vDSO's image: %p, %zu bytes", (const void *)image, size);
	if (!image)
		return;
	char path[600], a[2 * PMURT_BUILD_ID_MAX + 1], b[2 * PMURT_BUILD_ID_MAX + 1];
	scratch(path, sizeof(path), "vdso.so");
	write_file(path, image, size);
	struct pmurt_build_id mem, file;
	int rc_mem = pmurt_build_id_vdso(&mem), rc_file = pmurt_build_id_elf(path, &file, NULL);
	CHECK(rc_mem == rc_file, "the vDSO: %d in memory, %d written out", rc_mem, rc_file);
	if (rc_mem == 0 && rc_file == 0) {
		hex(&mem, a);
		hex(&file, b);
		CHECK(!strcmp(a, b) && mem.len > 0, "the vDSO's build id: %s in memory, %s written "
		      "out", a, b);
	}
	CHECK(pmurt_vdso_image(NULL) == NULL, "no size");
}

/* DIR/NAME/HEX/FILE and its link DIR/.build-id/HE/X... -> ../../NAME/HEX,
 * as perf 6.1's build_id_cache__add writes them. */
static void cache_put(const char *cache, const char *name, const char *id_hex, const char *file)
{
	char path[1200], link_dir[1024], target[1024];
	snprintf(path, sizeof(path), "%s/%s/%s", cache, name, id_hex);
	make_dirs(path);
	snprintf(path, sizeof(path), "%s/%s/%s/%s", cache, name, id_hex, file);
	write_file(path, "cached\n", 7);
	snprintf(link_dir, sizeof(link_dir), "%s/.build-id/%.2s", cache, id_hex);
	make_dirs(link_dir);
	snprintf(target, sizeof(target), "../..%s%s/%s", name[0] == '/' ? "" : "/", name, id_hex);
	snprintf(path, sizeof(path), "%s/%s", link_dir, id_hex + 2);
	CHECK(symlink(target, path) == 0, "cannot link %s", path);
}

static void find(const char *cache, const char *dso, const char *id_hex, const char *file)
{
	struct pmurt_build_id id = from_hex(id_hex);
	struct pmurt_build_id_opts opts = PMURT_OPTS_INIT(pmurt_build_id_opts, .cache_dir = cache);
	struct pmurt_error err;
	char path[1024], want[1024];
	int rc = pmurt_build_id_cache_find(dso, &id, path, sizeof(path), &opts, &err);
	snprintf(want, sizeof(want), "%s/.build-id/%.2s/%s/%s", cache, id_hex, id_hex + 2, file);
	CHECK(rc == 0 && !strcmp(path, want), "%s in %s: %d, %s (want %s): %s", dso, cache, rc,
	      path, want, err.message);
}

static void cache(void)
{
	char cache[600], other[600], path[1024];
	static const char lib_id[] = "0123456789abcdef0123456789abcdef01234567";
	static const char kernel_id[] = "fedcba9876543210fedcba9876543210fedcba98";
	static const char vdso_id[] = "a1b2c3d4e5f60718293a4b5c6d7e8f90";   /* 16 bytes */
	scratch(cache, sizeof(cache), "cache");
	scratch(other, sizeof(other), "other-cache");
	make_dirs(other);
	cache_put(cache, "/usr/lib/libfoo.so.1", lib_id, "elf");
	cache_put(cache, "[kernel.kallsyms]", kernel_id, "kallsyms");
	cache_put(cache, "[vdso]", vdso_id, "vdso");
	find(cache, "/usr/lib/libfoo.so.1", lib_id, "elf");
	find(cache, "[kernel.kallsyms]", kernel_id, "kallsyms");
	find(cache, "[vdso]", vdso_id, "vdso");

	struct pmurt_build_id id = from_hex(lib_id);
	struct pmurt_build_id_opts opts = PMURT_OPTS_INIT(pmurt_build_id_opts, .cache_dir = other);
	struct pmurt_error err;
	int rc = pmurt_build_id_cache_find("/usr/lib/libfoo.so.1", &id, path, sizeof(path), &opts,
					   &err);
	CHECK(rc == -ENOENT && strstr(err.message, "not in the build-id cache") &&
	      !strncmp(path, other, strlen(other)),
	      "a cache without it: %d, %s, \"%s\"", rc, path, err.message);
	/* without cache_dir, perf's: $PERF_BUILDID_DIR first */
	setenv("PERF_BUILDID_DIR", cache, 1);
	rc = pmurt_build_id_cache_find("/usr/lib/libfoo.so.1", &id, path, sizeof(path), NULL, &err);
	CHECK(rc == 0, "in $PERF_BUILDID_DIR: %d, \"%s\"", rc, err.message);
	/* an older header's opts, before cache_dir: its default */
	opts.sz = sizeof(size_t);
	rc = pmurt_build_id_cache_find("/usr/lib/libfoo.so.1", &id, path, sizeof(path), &opts, &err);
	CHECK(rc == 0, "opts without cache_dir: %d, \"%s\"", rc, err.message);
	opts.sz = sizeof(opts);
	rc = pmurt_build_id_cache_find("[kernel.kallsyms]", &id, path, sizeof(path), NULL, &err);
	CHECK(rc == -ENOENT, "the library's id for the kernel: %d", rc);
	rc = pmurt_build_id_cache_find("/usr/lib/libfoo.so.1", &id, path, 20, NULL, &err);
	CHECK(rc == -ENAMETOOLONG && err.code == rc, "a short buffer: %d, \"%s\"", rc, err.message);
	id.len = 0;
	rc = pmurt_build_id_cache_find("/usr/lib/libfoo.so.1", &id, path, sizeof(path), NULL, &err);
	CHECK(rc == -EINVAL && err.code == rc, "an empty id: %d, \"%s\"", rc, err.message);
}

/* Where perf 6.1 keeps its cache: $PERF_BUILDID_DIR, else buildid.dir of
 * perf's config ($PERF_CONFIG), else $HOME/.debug. */
static void cache_dir(void)
{
	char buf[1024], config[600], home[600], want[700];
	struct pmurt_error err;
	setenv("PERF_BUILDID_DIR", "/from/the/environment", 1);
	int rc = pmurt_build_id_cache_dir(buf, sizeof(buf), &err);
	CHECK(rc == 0 && !strcmp(buf, "/from/the/environment"), "$PERF_BUILDID_DIR: %d, %s", rc,
	      buf);
	unsetenv("PERF_BUILDID_DIR");
	scratch(config, sizeof(config), "perfconfig");
	static const char text[] = "[report]\n\tdir = /not/this\n[buildid]\n\tdir = /from/config\n";
	write_file(config, text, sizeof(text) - 1);
	setenv("PERF_CONFIG", config, 1);
	rc = pmurt_build_id_cache_dir(buf, sizeof(buf), &err);
	CHECK(rc == 0 && !strcmp(buf, "/from/config"), "buildid.dir: %d, %s", rc, buf);
	setenv("PERF_CONFIG", "/nonexistent", 1);
	scratch(home, sizeof(home), "home");
	setenv("HOME", home, 1);
	snprintf(want, sizeof(want), "%s/.debug", home);
	rc = pmurt_build_id_cache_dir(buf, sizeof(buf), &err);
	if (access("/etc/perfconfig", F_OK) != 0)   /* (which could name another) */
		CHECK(rc == 0 && !strcmp(buf, want), "$HOME: %d, %s", rc, buf);
	rc = pmurt_build_id_cache_dir(buf, 8, &err);
	CHECK(rc == -ENAMETOOLONG && err.code == rc, "a short buffer: %d, \"%s\"", rc, err.message);
	unsetenv("HOME");
	rc = pmurt_build_id_cache_dir(buf, sizeof(buf), &err);
	if (access("/etc/perfconfig", F_OK) != 0)
		CHECK(rc == -ENOENT && strstr(err.message, "$HOME"), "none: %d, \"%s\"", rc,
		      err.message);
	unsetenv("PERF_CONFIG");
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: buildid_test DIR PERF.DATA HEX\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	perf_in_memory(argv[2]);
	recorded(argv[2]);
	elf_files(argv[0], argv[3]);
	kernel();
	vdso();
	cache();
	cache_dir();
	if (failures)
		fprintf(stderr, "buildid_test: %d checks failed\n", failures);
	return failures != 0;
}
