/*
 * tool_symbols.c - threads, maps and functions of a perf.data file for
 * pmutool report and script (see tool_symbols.h).
 *
 * The rules are perf's, so that both name a sample alike:
 * - an ip of a mapped file is looked up at ip - map start + pgoff, the file
 *   offset, turned into the ELF address through the PT_LOAD segment holding
 *   it (tools/perf/util/map.c map__map_ip, symbol-elf.c);
 * - function symbols (STT_FUNC, STT_GNU_IFUNC, named, defined) and labels
 *   in executable sections, from .symtab, else the .symtab of the debug
 *   file found by build id, else .dynsym (symbol-elf.c dso__load_sym);
 * - symbols at one address: the best by choose_best_symbol's order (sized,
 *   not weak, global, fewer leading underscores, longer name); a size-0
 *   symbol reaches the next one (symbol.c symbols__fixup_duplicate,
 *   symbols__fixup_end);
 * - PLT entries "NAME@plt", or what perf's symbol tree finds there instead
 *   (_init, nothing), from a model of that tree (plt_names, perf_symtree.h);
 * - executable memory without a file (a JIT's) is "/tmp/perf-PID.map", its
 *   ips looked up as they are in the functions that file lists (map.c
 *   map__new, symbol.c dso__load_perf_map);
 * - /proc/kallsyms: types T W D B (symbol.c symbol_type__filter), module
 *   symbols in "[module]", every symbol reaching the next one; kept in a
 *   cache file per boot and module set, as perf keeps it in ~/.debug.
 * - a DSO the recording has a build id for: its symbols from perf's
 *   build-id cache by that id, else from its path only when the file there
 *   still has it (symbol.c binary_type_symtab, symbol-elf.c symsrc__init);
 *   the vdso's from the cache, else from this process's own.
 */
#include <ctype.h>
#include <libiberty/demangle.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_lib.h"
#include "perf_symtree.h"
#include "pmurt_tool.h"
#include "tool_symbols.h"

/* --- small hash tables --------------------------------------------------- */

struct hmap {              /* key (u64 or string) -> value, open addressing */
	uint64_t *ukeys;
	const char **skeys;
	void **vals;
	size_t cap, n;
};

static uint64_t hash_u64(uint64_t k)
{
	return k * 0x9e3779b97f4a7c15ull;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static size_t hmap_slot(const struct hmap *m, uint64_t ukey, const char *skey)
{
	size_t i = (size_t)((skey ? hash_str(skey) : hash_u64(ukey)) >> 7) & (m->cap - 1);
	while (m->vals[i] && (skey ? strcmp(m->skeys[i], skey) != 0 : m->ukeys[i] != ukey))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void *hmap_get(const struct hmap *m, uint64_t ukey, const char *skey)
{
	return m->cap ? m->vals[hmap_slot(m, ukey, skey)] : NULL;
}

static int hmap_grow(struct hmap *m, bool strings)
{
	struct hmap big = {.cap = m->cap ? 2 * m->cap : 256};
	big.vals = calloc(big.cap, sizeof(*big.vals));
	if (strings)
		big.skeys = calloc(big.cap, sizeof(*big.skeys));
	else
		big.ukeys = calloc(big.cap, sizeof(*big.ukeys));
	if (!big.vals || (!big.skeys && !big.ukeys)) {
		free(big.vals);
		free(big.skeys);
		free(big.ukeys);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->vals[i])
			continue;
		size_t j = hmap_slot(&big, strings ? 0 : m->ukeys[i], strings ? m->skeys[i] : NULL);
		big.vals[j] = m->vals[i];
		if (strings)
			big.skeys[j] = m->skeys[i];
		else
			big.ukeys[j] = m->ukeys[i];
	}
	big.n = m->n;
	free(m->vals);
	free(m->skeys);
	free(m->ukeys);
	*m = big;
	return 0;
}

/* Insert or replace; skey (when not NULL) must outlive the table. */
static int hmap_put(struct hmap *m, uint64_t ukey, const char *skey, void *val)
{
	if ((m->n + 1) * 2 > m->cap && hmap_grow(m, skey != NULL))
		return -ENOMEM;
	size_t i = hmap_slot(m, ukey, skey);
	if (!m->vals[i])
		m->n++;
	m->vals[i] = val;
	if (skey)
		m->skeys[i] = skey;
	else
		m->ukeys[i] = ukey;
	return 0;
}

static void hmap_free(struct hmap *m, void (*free_val)(void *))
{
	for (size_t i = 0; free_val && i < m->cap; i++)
		if (m->vals[i])
			free_val(m->vals[i]);
	free(m->vals);
	free(m->skeys);
	free(m->ukeys);
}

/* --- the state ------------------------------------------------------------- */

struct sym {
	uint64_t start, end;
	uint64_t origin;       /* where the function starts: offsets count from
	                          there (start, but for a part of a function,
	                          plt_names) */
	const char *name;      /* in the ELF file's or kallsyms' text; NULL: a
	                          part of the file perf names nothing in */
	const char *raw;       /* as the file names it (name, demangled) */
	int binding;           /* STB_* */
	uint32_t seq;          /* the order it was read in */
	const char *dso;       /* kernel symbols: "[kernel.kallsyms]", "[mod]" */
};

struct symtab {
	struct sym *v;
	size_t n, cap;
};

struct segment {              /* a PT_LOAD */
	uint64_t offset, vaddr, filesz, memsz;
};

struct dso {
	const char *path;      /* interned */
	bool loaded;
	struct symtab syms;
	struct segment *segs;
	size_t nsegs;
	const struct elf_lib *lib;
	Elf *elf[2];           /* the file and its debug file, kept open: */
	int fd[2];             /* symbol names point into their string tables */
	char *text;            /* a JIT's perf-PID.map: its symbols' names */
	const char *file;      /* the ELF file read for it (interned), NULL: none */
};

struct map {
	uint64_t start, end, pgoff;
	struct dso *dso;
};

struct proc {
	struct map *maps;
	size_t n, cap;
	uint64_t generation;   /* counts the changes of maps */
};

struct thread {
	uint32_t pid;
	const char *comm;      /* interned */
};

#define KCACHE_MAGIC "PMUKSYM2"   /* 2: kernel aliases as perf 6.1 picks them */

struct kcache_head {
	char magic[8];
	uint64_t n, strings_size;
};

struct kcache_sym {
	uint64_t start, end;
	uint32_t name, dso, binding, pad;
};

struct symbols {
	struct hmap strings;   /* interned names */
	struct hmap demangled; /* a C++ name in an ELF file's text -> demangled:
	                          plt_names reads a table pmutool read before */
	struct hmap threads;   /* tid -> struct thread */
	struct hmap procs;     /* pid -> struct proc */
	struct hmap dsos;      /* path -> struct dso */
	const char *kallsyms_path;
	bool kallsyms_loaded;
	char *kallsyms_text;   /* the file, holding the kernel symbols' names */
	void *kcache_map;      /* or the cache file: symbols looked up in it */
	size_t kcache_size;
	const struct kcache_sym *kc_syms;
	size_t kc_n;
	const char *kc_strings;
	uint32_t kc_dso_at;    /* the last file name looked up, interned */
	const char *kc_dso;
	struct symtab kernel;
	const char *unknown, *kernel_name;
	const struct elf_lib *lib; /* the caller's, opened */
	const struct pmurt_perf_file *recorded;   /* build ids to check against */
	const char *prog;
};

static const char *intern(struct symbols *s, const char *str)
{
	const char *have = hmap_get(&s->strings, 0, str);
	if (have)
		return have;
	char *copy = strdup(str);
	if (!copy || hmap_put(&s->strings, 0, copy, copy)) {
		free(copy);
		return NULL;
	}
	return copy;
}

/* A function's name as perf 6.1 shows it: a C++ name demangled without
 * its parameters (util/symbol-elf.c demangle_sym: cplus_demangle with
 * DMGL_NO_OPTS, from libiberty as Debian's perf is built), others as they
 * are; interned, NULL when out of memory. */
static const char *demangled(struct symbols *s, const char *name)
{
	if (name[0] != '_' || name[1] != 'Z')
		return name;
	const char *have = hmap_get(&s->demangled, (uintptr_t)name, NULL);
	if (have)
		return have;
	char *d = cplus_demangle(name, DMGL_NO_OPTS);
	const char *shown = d ? intern(s, d) : name;
	free(d);
	if (shown && hmap_put(&s->demangled, (uintptr_t)name, NULL, (void *)shown))
		return NULL;
	return shown;
}

static void free_dso(void *p)
{
	struct dso *d = p;
	const struct elf_lib *lib = d->lib;
	for (int k = 0; k < 2; k++) {
		lib->elf_end(d->elf[k]);
		if (d->fd[k] > 0)
			close(d->fd[k]);
	}
	free(d->syms.v);
	free(d->segs);
	free(d->text);
	free(d);
}

static void free_proc(void *p)
{
	struct proc *pr = p;
	free(pr->maps);
	free(pr);
}

struct symbols *symbols_new(const char *kallsyms, const struct elf_lib *lib)
{
	struct symbols *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->kallsyms_path = kallsyms;
	s->lib = lib;
	s->unknown = intern(s, "[unknown]");
	s->kernel_name = intern(s, "[kernel.kallsyms]");
	if (!s->unknown || !s->kernel_name) {
		symbols_free(s);
		return NULL;
	}
	return s;
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	hmap_free(&s->threads, free);
	hmap_free(&s->procs, free_proc);
	hmap_free(&s->dsos, free_dso);
	hmap_free(&s->strings, free);
	hmap_free(&s->demangled, NULL);
	free(s->kernel.v);
	free(s->kallsyms_text);
	if (s->kcache_map)
		munmap(s->kcache_map, s->kcache_size);
	free(s);
}

/* --- symbol tables ----------------------------------------------------------- */

static int symtab_add(struct symtab *t, uint64_t start, uint64_t size, const char *name,
		      int binding)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct sym *v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n] = (struct sym){start, start + size, start, name, name, binding, (uint32_t)t->n,
				  NULL};
	t->n++;
	return 0;
}

/* By address, then in the order read (perf's rbtree puts an equal start
 * after those inserted before it). */
static int by_start(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int underscores(const char *name)
{
	int n = 0;
	while (name[n] == '_')
		n++;
	return n;
}

/* symbol.c choose_best_symbol: true when a is to be kept over b. */
static bool better(const struct sym *a, const struct sym *b)
{
	bool asz = a->end > a->start, bsz = b->end > b->start;
	if (asz != bsz)
		return asz;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	if (underscores(a->name) != underscores(b->name))
		return underscores(a->name) < underscores(b->name);
	return strlen(a->name) >= strlen(b->name);
}

/* Sort and keep the best symbol of each address. */
static void symtab_dedupe(struct symtab *t)
{
	size_t k = 0;
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), by_start);
	for (size_t i = 0; i < t->n; i++) {
		if (k && t->v[k - 1].start == t->v[i].start) {
			if (better(&t->v[i], &t->v[k - 1]) && !better(&t->v[k - 1], &t->v[i]))
				t->v[k - 1] = t->v[i];
			continue;
		}
		t->v[k++] = t->v[i];
	}
	t->n = k;
}

/* Size-0 symbols reach the next one (the last one, the end of the file). */
static void symtab_fixup_end(struct symtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].end == t->v[i].start)
			t->v[i].end = i + 1 < t->n ? t->v[i + 1].start : UINT64_MAX;
}

static const struct sym *symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= t->v[lo - 1].end)
		return NULL;
	return &t->v[lo - 1];
}

/* --- ELF files through libelf ------------------------------------------------ */

static int elf_segments(Elf *e, struct dso *d)
{
	const struct elf_lib *lib = d->lib;
	size_t n;
	if (lib->elf_getphdrnum(e, &n) != 0 || !n)
		return 0;
	d->segs = calloc(n, sizeof(*d->segs));
	if (!d->segs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (lib->gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			d->segs[d->nsegs++] = (struct segment){ph.p_offset, ph.p_vaddr, ph.p_filesz,
								 ph.p_memsz};
	}
	return 0;
}

/* .symtab when the file has one, else .dynsym (else NULL). */
static Elf_Scn *symbol_section(const struct elf_lib *lib, Elf *e, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr dynshdr;
	while ((scn = lib->elf_nextscn(e, scn)) != NULL) {
		if (!lib->gelf_getshdr(scn, shdr))
			continue;
		if (shdr->sh_type == SHT_SYMTAB)
			return scn;
		if (shdr->sh_type == SHT_DYNSYM && !dyn) {
			dyn = scn;
			dynshdr = *shdr;
		}
	}
	if (dyn)
		*shdr = dynshdr;
	return dyn;
}

static int debug_file_functions(struct symbols *s, Elf *e, struct dso *d);

/* symbol-elf.c: functions, and labels (named untyped symbols, not hidden)
 * in executable sections. */
static bool is_function(const struct elf_lib *lib, Elf *e, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info), vis = GELF_ST_VISIBILITY(sym->st_other);
	if (!sym->st_name || sym->st_shndx == SHN_UNDEF)
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC)
		return true;
	if (type != STT_NOTYPE || sym->st_shndx == SHN_ABS || vis == STV_HIDDEN ||
	    vis == STV_INTERNAL || sym->st_shndx >= SHN_LORESERVE)
		return false;
	GElf_Shdr shdr;
	Elf_Scn *scn = lib->elf_getscn(e, sym->st_shndx);
	return scn && lib->gelf_getshdr(scn, &shdr) && (shdr.sh_flags & SHF_EXECINSTR);
}

static int elf_functions(struct symbols *s, Elf *e, struct dso *d)
{
	const struct elf_lib *lib = s->lib;
	GElf_Shdr shdr;
	Elf_Scn *scn = symbol_section(lib, e, &shdr);
	Elf_Data *data = scn ? lib->elf_getdata(scn, NULL) : NULL;
	if (!data || !shdr.sh_entsize)
		return 0;
	int rc = shdr.sh_type == SHT_DYNSYM ? debug_file_functions(s, e, d) : 0;
	if (rc)
		return rc < 0 ? rc : 0;
	size_t n = shdr.sh_size / shdr.sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!lib->gelf_getsym(data, (int)i, &sym))
			break;
		if (!is_function(lib, e, &sym))
			continue;
		const char *raw = lib->elf_strptr(e, shdr.sh_link, sym.st_name), *name = raw;
		if (name && (!(name = demangled(s, name)) ||
			     symtab_add(&d->syms, sym.st_value, sym.st_size, name,
					GELF_ST_BIND(sym.st_info))))
			return -ENOMEM;
		if (raw)
			d->syms.v[d->syms.n - 1].raw = raw;
	}
	symtab_dedupe(&d->syms);
	symtab_fixup_end(&d->syms);
	return 0;
}

/* A stripped file's .symtab from its separate debug file, found by build
 * id under /usr/lib/debug/.build-id (Debian's -dbg and -dbgsym packages;
 * perf's DSO_BINARY_TYPE__BUILDID_DEBUGINFO).  1 when one was read, 0 when
 * there is none, -ENOMEM. */
static int debug_file_functions(struct symbols *s, Elf *e, struct dso *d)
{
	const struct elf_lib *lib = s->lib;
	const void *id;
	ssize_t n = lib->dwelf_elf_gnu_build_id(e, &id);
	if (n < 2 || n > 64)
		return 0;
	char path[256];
	int len = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/",
			   ((const uint8_t *)id)[0]);
	for (ssize_t i = 1; i < n; i++)
		len += snprintf(path + len, sizeof(path) - (size_t)len, "%02x",
				((const uint8_t *)id)[i]);
	snprintf(path + len, sizeof(path) - (size_t)len, ".debug");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	Elf *dbg = lib->elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Shdr shdr;
	bool found = dbg && lib->elf_kind(dbg) == ELF_K_ELF && symbol_section(lib, dbg, &shdr) &&
		     shdr.sh_type == SHT_SYMTAB;
	int rc = found ? elf_functions(s, dbg, d) : 0;
	d->elf[1] = dbg;
	d->fd[1] = fd;
	return rc < 0 ? rc : found;
}

static Elf_Scn *section_named(const struct elf_lib *lib, Elf *e, const char *name,
				GElf_Shdr *shdr)
{
	size_t strndx;
	Elf_Scn *scn = NULL;
	if (lib->elf_getshdrstrndx(e, &strndx) != 0)
		return NULL;
	while ((scn = lib->elf_nextscn(e, scn)) != NULL) {
		const char *n = lib->gelf_getshdr(scn, shdr) ? lib->elf_strptr(e, strndx, shdr->sh_name) : NULL;
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* The ELF address of a file offset: through the PT_LOAD segment holding it. */
static uint64_t dso_address(const struct dso *d, uint64_t offset)
{
	for (size_t i = 0; i < d->nsegs; i++) {
		const struct segment *g = &d->segs[i];
		if (offset >= g->offset && offset - g->offset < g->filesz)
			return offset - g->offset + g->vaddr;
	}
	return offset;
}

/* --- PLT entries, named as perf 6.1 names them ------------------------------ */

/* perf 6.1 synthesizes "NAME@plt" symbols for a file's PLT entries after it
 * loaded (and fixed the ends of) the file's own symbols; a size-0 symbol
 * before .plt (_init) then already reaches over the entries, and which of
 * the two perf names at an entry is the first its tree walk meets.  So the
 * tree is built here as perf builds it (perf_symtree.h): its symbols in
 * perf's order, with perf's filters, at perf's addresses (file offsets),
 * fixed as perf fixes them, then the PLT symbols; what its walk finds over
 * .plt (and up to the next symbol after it: .plt.got, .plt.sec) replaces
 * that part of the file's table.  Once per file, not per sample. */
struct perf_model {
	struct symbols *s;
	struct dso *d;
	Elf *syms, *run;       /* perf's syms_ss and runtime_ss */
	size_t syms_strndx, run_strndx;
	GElf_Ehdr eh;          /* syms' */
	struct perf_symtree tree;
};

/* dso__load_sym_internal: every user DSO's symbol is moved to its file
 * offset (symsrc__init sets adjust_symbols), through the runtime file's
 * PT_LOAD holding it (elf_read_program_header: p_vaddr up to the larger of
 * p_memsz and p_filesz), else through its section. */
static uint64_t perf_symbol_offset(const struct dso *d, uint64_t value, const GElf_Shdr *sec)
{
	for (size_t i = 0; i < d->nsegs; i++) {
		const struct segment *g = &d->segs[i];
		uint64_t size = g->memsz > g->filesz ? g->memsz : g->filesz;
		if (size && value >= g->vaddr && value - g->vaddr < size)
			return value - (g->vaddr - g->offset);
	}
	return value - (sec->sh_addr - sec->sh_offset);
}

/* The tree's names are the file's, demangled where perf compares or
 * shows them. */
static const char *perf_shown(void *s, const char *name)
{
	return demangled(s, name);
}

/* elf_sym__is_label, elf_sym__is_function, elf_sym__is_object */
static bool perf_takes(const GElf_Sym *sym, bool *label)
{
	int type = GELF_ST_TYPE(sym->st_info), vis = GELF_ST_VISIBILITY(sym->st_other);
	bool named = sym->st_name && sym->st_shndx != SHN_UNDEF;
	*label = named && type == STT_NOTYPE && sym->st_shndx != SHN_ABS && vis != STV_HIDDEN &&
		 vis != STV_INTERNAL;
	return *label || (named && (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT));
}

/* ARM's and AArch64's mapping symbols ($a, $d, $t, $x, "$d.1"), dropped */
static bool arm_mapping_symbol(const GElf_Ehdr *eh, const char *name)
{
	return (eh->e_machine == EM_ARM || eh->e_machine == EM_AARCH64) && name[0] == '$' &&
	       name[1] && strchr("adtx", name[1]) && (name[2] == 0 || name[2] == '.');
}

/* The section of sym, as perf reads it: the runtime file's when the
 * symbol file's is NOBITS (a debug file's .text).  Its name through
 * *name.  1: taken, 0: skipped (not allocated), -1: perf fails the load. */
static int perf_symbol_section(struct perf_model *m, const GElf_Sym *sym, GElf_Shdr *sh,
			       const char **name)
{
	const struct elf_lib *lib = m->s->lib;
	Elf_Scn *scn = lib->elf_getscn(m->syms, sym->st_shndx);
	if (!scn || !lib->gelf_getshdr(scn, sh))
		return -1;
	if (!(sh->sh_flags & SHF_ALLOC))
		return 0;
	if (sh->sh_type != SHT_NOBITS) {
		*name = lib->elf_strptr(m->syms, m->syms_strndx, sh->sh_name);
		return 1;
	}
	scn = lib->elf_getscn(m->run, sym->st_shndx);
	if (!scn || !lib->gelf_getshdr(scn, sh))
		return -1;
	*name = lib->elf_strptr(m->run, m->run_strndx, sh->sh_name);
	return 1;
}

/* One symbol of dso__load_sym_internal's loop: 1 inserted, 0 skipped,
 * -1 perf's load fails, -ENOMEM. */
static int perf_symbol(struct perf_model *m, const GElf_Sym *sym, const char *name)
{
	bool label;
	if (!perf_takes(sym, &label) || !name || arm_mapping_symbol(&m->eh, name) ||
	    sym->st_shndx == SHN_ABS)
		return 0;
	GElf_Shdr sh;
	const char *section = NULL;
	int rc = perf_symbol_section(m, sym, &sh, &section);
	if (rc <= 0)
		return rc;
	if (label && (!section || (!strstr(section, "text") && !strstr(section, "data"))))
		return 0;
	uint64_t value = sym->st_value;
	if (m->eh.e_machine == EM_ARM && GELF_ST_TYPE(sym->st_info) == STT_FUNC && (value & 1))
		value--;   /* a Thumb function's flag */
	if (!perf_symtree_insert(&m->tree, perf_symbol_offset(m->d, value, &sh), sym->st_size,
				 GELF_ST_BIND(sym->st_info), name, true))
		return -ENOMEM;
	return 1;
}

/* A section by name, of the type perf requires of it (symsrc__init). */
static Elf_Scn *section_typed(const struct elf_lib *lib, Elf *e, const char *name, uint32_t type,
			      GElf_Shdr *sh)
{
	Elf_Scn *scn = section_named(lib, e, name, sh);
	return scn && sh->sh_type == type && sh->sh_entsize ? scn : NULL;
}

/* The entries a table section holds (none without scn): as many as its
 * data has room for, whatever its header claims. */
static size_t entries(const struct elf_lib *lib, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = scn && sh->sh_entsize ? lib->elf_getdata(scn, NULL) : NULL;
	if (!data)
		return 0;
	size_t n = data->d_size / sh->sh_entsize, claimed = sh->sh_size / sh->sh_entsize;
	return n < claimed ? n : claimed;
}

/* One symbol table into the tree, then perf's fix-ups when it added any.
 * The count added (perf's nr), -1 when perf's load fails, -ENOMEM. */
static long perf_load_table(struct perf_model *m, Elf_Scn *scn, const GElf_Shdr *sh)
{
	const struct elf_lib *lib = m->s->lib;
	Elf_Data *data = lib->elf_getdata(scn, NULL);
	if (!data)
		return -1;
	long nr = 0;
	size_t n = entries(lib, scn, sh);
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!lib->gelf_getsym(data, (int)i, &sym))
			break;
		int rc = perf_symbol(m, &sym, lib->elf_strptr(m->syms, sh->sh_link, sym.st_name));
		if (rc < 0)
			return rc;
		nr += rc;
	}
	if (nr)
		perf_symtree_fixup(&m->tree);
	return nr;
}

/* dso__load_sym: .symtab, then .dynsym, of the symbol file (the debug
 * file found by build id when pmutool read its .symtab, else the file).
 * The symbols perf counted (dso__load's ret), -1 when its load fails,
 * -ENOMEM.  Sizes the tree for them and extra more. */
static long perf_load(struct perf_model *m, size_t extra)
{
	const struct elf_lib *lib = m->s->lib;
	GElf_Shdr symtab = {0}, dynsym = {0};
	Elf_Scn *st = section_typed(lib, m->syms, ".symtab", SHT_SYMTAB, &symtab);
	Elf_Scn *dy = section_typed(lib, m->syms, ".dynsym", SHT_DYNSYM, &dynsym);
	size_t cap = extra + entries(lib, st, &symtab) + entries(lib, dy, &dynsym);
	if (!lib->gelf_getehdr(m->syms, &m->eh) ||
	    lib->elf_getshdrstrndx(m->syms, &m->syms_strndx) ||
	    lib->elf_getshdrstrndx(m->run, &m->run_strndx))
		return -1;
	if (perf_symtree_init(&m->tree, cap, perf_shown, m->s))
		return -ENOMEM;
	long nr = st ? perf_load_table(m, st, &symtab) : 0, more = 0;
	if (nr >= 0 && dy)
		more = perf_load_table(m, dy, &dynsym);
	return nr < 0 ? nr : more < 0 ? more : nr + more;
}

/* dso__synthesize_plt_symbols: the PLT's header and entry sizes */
static void plt_layout(const GElf_Ehdr *eh, const GElf_Shdr *plt, uint64_t *header,
		       uint64_t *entry)
{
	switch (eh->e_machine) {
	case EM_ARM:
		*header = 20, *entry = 12;
		break;
	case EM_AARCH64:
		*header = 32, *entry = 16;
		break;
	case EM_SPARC:
		*header = 48, *entry = 12;
		break;
	case EM_SPARCV9:
		*header = 128, *entry = 32;
		break;
	default:
		*header = *entry = plt->sh_entsize;
	}
}

/* "NAME@plt" of one relocation, interned, NAME demangled, "" for none
 * (IRELATIVE: "@plt"), whole however long. */
static const char *plt_name(struct symbols *s, Elf *e, Elf_Data *rdata, const GElf_Shdr *rel,
			    Elf_Data *syms, const GElf_Shdr *dynsym, size_t i)
{
	const struct elf_lib *lib = s->lib;
	GElf_Rela ra;
	GElf_Rel r;
	uint64_t info = rel->sh_type == SHT_RELA ? (lib->gelf_getrela(rdata, (int)i, &ra) ? ra.r_info : 0)
						 : (lib->gelf_getrel(rdata, (int)i, &r) ? r.r_info : 0);
	GElf_Sym sym;
	const char *name = lib->gelf_getsym(syms, (int)GELF_R_SYM(info), &sym)
				   ? lib->elf_strptr(e, dynsym->sh_link, sym.st_name) : NULL;
	if (name && !(name = demangled(s, name)))
		return NULL;
	size_t len = name ? strlen(name) : 0;
	char *stub = malloc(len + sizeof("@plt"));
	if (stub)
		snprintf(stub, len + sizeof("@plt"), "%s@plt", name ? name : "");
	const char *interned = stub ? intern(s, stub) : NULL;
	free(stub);
	return interned;
}

/* The PLT symbols into the tree, one per .rela.plt (or .rel.plt) entry,
 * at their file offsets after the header.  0 or -ENOMEM. */
static int perf_plt(struct perf_model *m, Elf_Scn *rscn, const GElf_Shdr *rel,
		    Elf_Scn *dscn, const GElf_Shdr *dynsym, const GElf_Shdr *plt)
{
	const struct elf_lib *lib = m->s->lib;
	Elf_Data *rdata = lib->elf_getdata(rscn, NULL), *syms = lib->elf_getdata(dscn, NULL);
	GElf_Ehdr eh;
	uint64_t header, entry;
	if (!rdata || !syms || !lib->gelf_getehdr(m->run, &eh))
		return 0;
	plt_layout(&eh, plt, &header, &entry);
	size_t n = entries(lib, rscn, rel);
	for (size_t i = 0; i < n; i++) {
		const char *name = plt_name(m->s, m->run, rdata, rel, syms, dynsym, i);
		if (!name || !perf_symtree_insert(&m->tree, plt->sh_offset + header + i * entry, entry,
						  STB_GLOBAL, name, false))
			return -ENOMEM;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Add [from, to) of file offsets, where perf finds f (NULL: none), to
 * pieces in the table's addresses, merged with the last one when it is
 * the same symbol's. */
static void add_piece(const struct perf_model *m, struct symtab *pieces, uint64_t from,
		      uint64_t to, const struct perf_sym *f)
{
	struct sym *last = pieces->n ? &pieces->v[pieces->n - 1] : NULL;
	uint64_t at = dso_address(m->d, from);
	const char *name = f ? perf_symtree_name(&m->tree, f) : NULL;
	if (last && last->end == at && last->name == name &&
	    (!f || last->origin == at - (from - f->start))) {
		last->end = at + (to - from);
		return;
	}
	pieces->v[pieces->n++] = (struct sym){at, at + (to - from), f ? at - (from - f->start) : 0,
					      name, name, STB_GLOBAL, 0, NULL};
}

/* The places in [lo, hi) where a symbol of the tree starts or ends, lo
 * and hi, sorted (duplicates kept), in *b; their count, or 0 when out of
 * memory. */
static size_t boundaries(const struct perf_model *m, uint64_t lo, uint64_t hi, uint64_t **b)
{
	size_t nb = 0, cap = 64;
	*b = malloc(cap * sizeof(**b));
	if (*b)
		(*b)[nb++] = lo, (*b)[nb++] = hi;
	for (const struct perf_sym *f = perf_symtree_first(&m->tree); *b && f;
	     f = perf_symtree_next(f)) {
		const uint64_t at[2] = {f->start, f->end};
		for (int k = 0; k < 2 && *b; k++) {
			if (at[k] <= lo || at[k] >= hi)
				continue;
			uint64_t *more = nb < cap ? *b : realloc(*b, (cap *= 2) * sizeof(**b));
			if (!more)
				free(*b);
			*b = more;
			if (more)
				more[nb++] = at[k];
		}
	}
	if (!*b)
		return 0;
	qsort(*b, nb, sizeof(**b), cmp_u64);
	return nb;
}

/* What perf's walk finds over [lo, hi) of file offsets, as pieces of the
 * table: it changes only where a symbol starts or ends (and at a size-0
 * symbol's one byte), so it is asked once at each such place and once
 * just after it.  0 or -ENOMEM. */
static int perf_pieces(const struct perf_model *m, uint64_t lo, uint64_t hi, struct symtab *pieces)
{
	uint64_t *b;
	size_t nb = boundaries(m, lo, hi, &b);
	pieces->v = nb ? calloc(2 * nb, sizeof(*pieces->v)) : NULL;
	if (!pieces->v) {
		free(b);
		return -ENOMEM;
	}
	for (size_t k = 0; k + 1 < nb; k++) {
		if (b[k] == b[k + 1])
			continue;
		add_piece(m, pieces, b[k], b[k] + 1, perf_symtree_find(&m->tree, b[k]));
		if (b[k] + 1 < b[k + 1])
			add_piece(m, pieces, b[k] + 1, b[k + 1], perf_symtree_find(&m->tree, b[k] + 1));
	}
	free(b);
	return 0;
}

/* The table (sorted) with [pieces' start, their end) replaced by the
 * pieces: a symbol reaching into it is cut at its edge, its part after it
 * kept (counting offsets from the symbol's start still).  0 or -ENOMEM. */
static int symtab_overlay(struct symtab *t, const struct symtab *pieces)
{
	uint64_t lo = pieces->v[0].start, hi = pieces->v[pieces->n - 1].end;
	size_t cap = 2 * t->n + pieces->n, i = 0;
	struct symtab out = {calloc(cap, sizeof(*t->v)), 0, cap};
	if (!out.v)
		return -ENOMEM;
	for (; i < t->n && t->v[i].start < lo; i++) {      /* before: cut at lo */
		out.v[out.n] = t->v[i];
		out.v[out.n++].end = t->v[i].end < lo ? t->v[i].end : lo;
	}
	memcpy(out.v + out.n, pieces->v, pieces->n * sizeof(*out.v));
	out.n += pieces->n;
	for (size_t k = 0; k < i; k++)                     /* their parts after hi */
		if (t->v[k].end > hi)
			out.v[out.n++] = (struct sym){hi, t->v[k].end, t->v[k].origin, t->v[k].name,
						      t->v[k].raw, t->v[k].binding, 0, NULL};
	for (; i < t->n; i++) {                             /* within: after hi only */
		struct sym y = t->v[i];
		if (y.start < hi)
			y.start = hi;
		if (y.start < y.end)
			out.v[out.n++] = y;
	}
	for (size_t k = 0; k < out.n; k++)
		out.v[k].seq = (uint32_t)k;
	free(t->v);
	*t = out;
	return 0;
}

/* The tree's answers over .plt and on to the next symbol after it, into
 * the file's table.  0 or -ENOMEM. */
static int perf_plt_overlay(struct perf_model *m, const GElf_Shdr *plt)
{
	uint64_t lo = plt->sh_offset, hi = plt->sh_offset + plt->sh_size, next = UINT64_MAX;
	for (const struct perf_sym *f = perf_symtree_first(&m->tree); f; f = perf_symtree_next(f))
		if (f->start >= hi && f->start < next)
			next = f->start;
	if (next != UINT64_MAX)
		hi = next;
	struct symtab pieces = {0};
	int rc = lo < hi ? perf_pieces(m, lo, hi, &pieces) : 0;
	if (!rc && pieces.n)
		rc = symtab_overlay(&m->d->syms, &pieces);
	free(pieces.v);
	return rc;
}

/* symbol.c dso__load, its end: the PLT named (symbol-elf.c
 * dso__synthesize_plt_symbols, from the file itself, not from a debug
 * file) when perf found symbols in the file, data symbols included
 * (/usr/bin/dash exports only environ).  0 or -ENOMEM. */
static int plt_names(struct symbols *s, Elf *e, struct dso *d)
{
	const struct elf_lib *lib = s->lib;
	GElf_Shdr rel, plt, dynsym, sh;
	Elf_Scn *dscn = section_typed(lib, e, ".dynsym", SHT_DYNSYM, &dynsym);
	Elf_Scn *rscn = section_named(lib, e, ".rela.plt", &rel);
	if (!rscn)
		rscn = section_named(lib, e, ".rel.plt", &rel);
	if (!dscn || !rscn || !rel.sh_entsize || lib->elf_ndxscn(dscn) != rel.sh_link ||
	    !section_named(lib, e, ".plt", &plt))
		return 0;
	Elf *dbg = d->elf[1];
	struct perf_model m = {.s = s, .d = d, .run = e,
			       .syms = dbg && section_typed(lib, dbg, ".symtab", SHT_SYMTAB, &sh) ? dbg : e};
	long nr = perf_load(&m, entries(lib, rscn, &rel));
	int rc = nr == -ENOMEM ? -ENOMEM : 0;
	if (nr > 0)
		rc = perf_plt(&m, rscn, &rel, dscn, &dynsym, &plt);
	if (nr > 0 && !rc)
		rc = perf_plt_overlay(&m, &plt);
	perf_symtree_free(&m.tree);
	return rc;
}

static int elf_load(struct symbols *s, Elf *e, struct dso *d)
{
	const struct elf_lib *lib = s->lib;
	int rc = 0;
	if (e && lib->elf_kind(e) == ELF_K_ELF) {
		rc = elf_segments(e, d);
		if (!rc)
			rc = elf_functions(s, e, d);
		if (!rc)
			rc = plt_names(s, e, d);
	}
	return rc;
}

/* "[vdso]" maps without a cached image: perf reads the vdso of its own
 * process (vdso.c writes the running image out as their file); so does
 * this, in memory. */
static int vdso_load(struct symbols *s, struct dso *d)
{
	size_t size;
	const void *image = pmurt_vdso_image(&size);
	Elf *e = image ? s->lib->elf_memory((char *)image, size) : NULL;
	d->elf[0] = e;
	return elf_load(s, e, d);
}

/* One line of a JIT's /tmp/perf-PID.map (tools/perf/Documentation/
 * jit-interface.txt), "START SIZE NAME", as perf 6.1's dso__load_perf_map
 * reads it: hex numbers as strtoull reads them, one character between the
 * fields, a line whose name would be shorter than 3 characters skipped. */
static int perf_map_line(struct dso *d, char *line, size_t line_len)
{
	char *end;
	unsigned long long start = strtoull(line, &end, 16);
	size_t at = (size_t)(end - line) + 1;
	if (at + 2 >= line_len)
		return 0;
	unsigned long long size = strtoull(line + at, &end, 16);
	at = (size_t)(end - line) + 1;
	if (at + 2 >= line_len)
		return 0;
	return symtab_add(&d->syms, start, size, line + at, STB_GLOBAL);
}

static char *read_text(const char *path);

/* The file's lines, each without its last character (perf drops it as the
 * newline, also on a last line without one); the names stay in the file's
 * text, kept with the dso.  Symbols are taken as written: perf does not
 * fix their ends up. */
static int perf_map_load(struct dso *d)
{
	d->text = read_text(d->path);
	for (char *line = d->text; line && *line;) {
		size_t n = strcspn(line, "\n");
		bool newline = line[n] == '\n';
		char *next = line + n + newline;
		size_t line_len = newline ? n : n - 1;
		line[line_len] = 0;
		if (perf_map_line(d, line, line_len))
			return -ENOMEM;
		line = next;
	}
	symtab_dedupe(&d->syms);
	return 0;
}

void symbols_check_build_ids(struct symbols *s, const struct pmurt_perf_file *f,
			     const char *prog)
{
	s->recorded = f;
	s->prog = prog;
}

static void hex(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

/* The build id the file records for d, and the one d has here (the file's
 * at its path, this process's vDSO's): 1 when they differ, else 0 (also
 * when either is unknown). */
static int rebuilt(const struct dso *d, const struct pmurt_build_id *want, char a[], char b[])
{
	struct pmurt_build_id have;
	bool vdso = !strcmp(d->path, "[vdso]");
	if ((vdso ? pmurt_build_id_vdso(&have) : pmurt_build_id_elf(d->path, &have, NULL)) < 0)
		return 0;
	if (have.len == want->len && !memcmp(have.id, want->id, have.len))
		return 0;
	hex(have.id, have.len, a);
	hex(want->id, want->len, b);
	return 1;
}

/* Where d's symbols come from, as perf 6.1's dso__load tries its
 * candidates (symbol.c binary_type_symtab: the build-id cache before the
 * file's own path) and refuses an image whose build id is not the
 * recorded one (symbol-elf.c symsrc__init): the cached copy of the
 * recorded build id (path), else d's own file (1) unless it was rebuilt or
 * replaced since (warned; 0: no symbols, its samples "[unknown]" as in
 * perf). */
static int dso_source(const struct symbols *s, const struct dso *d, char *path, size_t len)
{
	struct pmurt_build_id want;
	char a[2 * PMURT_BUILD_ID_MAX + 1], b[2 * PMURT_BUILD_ID_MAX + 1];
	path[0] = 0;
	if (!s->recorded || pmurt_perf_build_id(s->recorded, d->path, &want) < 0)
		return 1;
	if (pmurt_build_id_cache_find(d->path, &want, path, len, NULL, NULL) == 0)
		return 1;
	path[0] = 0;
	if (!rebuilt(d, &want, a, b))
		return 1;
	fprintf(stderr, "%s: warning: %s has build id %s, the recording's had %s: rebuilt or "
		"replaced since, and the build-id cache does not hold the recorded one: its "
		"samples show [unknown], as in perf\n", s->prog, d->path, a, b);
	return 0;
}

/* A file that cannot be read or is not ELF has no symbols: its samples
 * show "[unknown]", as in perf. */
static int dso_load(struct symbols *s, struct dso *d)
{
	const struct elf_lib *lib = s->lib;
	char cached[4096];
	d->loaded = true;
	if (!strncmp(d->path, "/tmp/perf-", 10))   /* symbol.c dso__load: by name */
		return perf_map_load(d);
	if (!dso_source(s, d, cached, sizeof(cached)))
		return 0;
	if (!cached[0] && !strcmp(d->path, "[vdso]"))
		return vdso_load(s, d);
	const char *file = cached[0] ? cached : d->path;
	int fd = file[0] == '/' ? open(file, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return 0;
	Elf *e = lib->elf_begin(fd, ELF_C_READ_MMAP, NULL);
	d->elf[0] = e;
	d->fd[0] = fd;
	if (!(d->file = intern(s, file)))
		return -ENOMEM;
	return elf_load(s, e, d);
}

static struct dso *dso_get(struct symbols *s, const char *path)
{
	struct dso *d = hmap_get(&s->dsos, 0, path);
	if (d)
		return d;
	const char *name = intern(s, path);
	d = calloc(1, sizeof(*d));
	if (!name || !d || hmap_put(&s->dsos, 0, name, d)) {
		free(d);
		return NULL;
	}
	d->path = name;
	d->lib = s->lib;
	return d;
}

/* --- /proc/kallsyms ------------------------------------------------------------ */

static bool kernel_type(char type)
{
	type = (char)toupper((unsigned char)type);
	return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

/* One line "ADDR TYPE NAME[\t[MODULE]]", cut in place: the name stays in
 * the file's text (kept until symbols_free). */
static int kallsyms_line(struct symbols *s, char *line)
{
	char *p;
	unsigned long long addr = strtoull(line, &p, 16);
	if (p == line || *p++ != ' ' || !*p || p[1] != ' ')
		return 0;
	char type = *p;
	char *name = p + 2, *end = name + strcspn(name, " \t");
	char *module = *end == '\t' && end[1] == '[' ? end + 1 : NULL;
	*end = 0;
	if (!kernel_type(type) || !addr || !*name)
		return 0;
	const char *dso = s->kernel_name;
	if (module) {
		module[strcspn(module, "]")] = 0;
		char tagged[300];
		snprintf(tagged, sizeof(tagged), "%s]", module);
		if (!(dso = intern(s, tagged)))
			return -ENOMEM;
	}
	int binding = type == 'W' || type == 'w' ? STB_WEAK
		      : isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
	int rc = symtab_add(&s->kernel, addr, 0, name, binding);
	if (!rc)
		s->kernel.v[s->kernel.n - 1].dso = dso;
	return rc;
}

/* The whole file (/proc files report size 0: read to the end). */
static char *read_text(const char *path)
{
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	size_t n = 0, cap = 1 << 20;
	char *text = fd >= 0 ? malloc(cap) : NULL;
	ssize_t got = 1;
	while (text && got > 0) {
		if (n + 1 == cap) {
			char *bigger = realloc(text, cap *= 2);
			if (!bigger) {
				free(text);
				text = NULL;
				break;
			}
			text = bigger;
		}
		got = read(fd, text + n, cap - n - 1);
		n += got > 0 ? (size_t)got : 0;
	}
	if (text)
		text[n] = 0;
	if (fd >= 0)
		close(fd);
	return text;
}

/* symbols__fixup_end for kallsyms: each symbol reaches the next, except
 * across the kernel/module boundary and at the end, where it reaches the
 * end of the next page. */
static void kernel_fixup_end(struct symtab *t, const char *kernel_name)
{
	for (size_t i = 0; i < t->n; i++) {
		struct sym *k = &t->v[i];
		bool same_kind = i + 1 < t->n &&
				 (t->v[i + 1].dso == kernel_name) == (k->dso == kernel_name);
		k->end = same_kind ? t->v[i + 1].start : (k->start + 4096 + 4095) / 4096 * 4096;
	}
}

/* --- a cache of the kernel's symbols ------------------------------------------ */
/*
 * Reading /proc/kallsyms makes the kernel print some 100,000 lines, most of
 * a report's time; perf keeps a copy in its build-id cache (~/.debug) for
 * the same reason.  pmutool keeps the symbols it took from it, sorted, in
 * $XDG_CACHE_HOME/pmutool (else ~/.cache/pmutool), one file per boot
 * (/proc/sys/kernel/random/boot_id) and set of loaded modules (a hash of
 * /proc/modules, whose load addresses move module symbols): a header, the
 * symbols, their names.  A cache file that does not check out is ignored
 * and rewritten.
 */
static bool kcache_path(char *path, size_t len)
{
	char *boot = read_text("/proc/sys/kernel/random/boot_id");
	char *modules = read_text("/proc/modules");  /* absent: no modules */
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	bool ok = boot && ((xdg && *xdg) || (home && *home));
	if (ok) {
		boot[strcspn(boot, "\n")] = 0;
		int n = xdg && *xdg ? snprintf(path, len, "%s/pmutool", xdg)
				    : snprintf(path, len, "%s/.cache/pmutool", home);
		ok = n > 0 && (size_t)n + 80 < len;
		if (ok)
			snprintf(path + n, len - (size_t)n, "/kallsyms-%.36s-%016llx", boot,
				 (unsigned long long)hash_str(modules ? modules : ""));
	}
	free(boot);
	free(modules);
	return ok;
}

/* Map the cache and check its sizes: its symbols are then looked up in
 * place, each checked when used (kcache_find), so that loading costs no
 * pass over them.  False when the file is absent or does not check out. */
static bool kcache_load(struct symbols *s, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return false;
	void *map = fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(struct kcache_head)
		    ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (map == MAP_FAILED)
		return false;
	const struct kcache_head *h = map;
	const struct kcache_sym *v = (const void *)(h + 1);
	size_t size = (size_t)st.st_size;
	bool ok = !memcmp(h->magic, KCACHE_MAGIC, 8) && h->n < size / sizeof(*v) &&
		  sizeof(*h) + h->n * sizeof(*v) + h->strings_size == size && h->strings_size;
	const char *strings = (const char *)(v + (ok ? h->n : 0));
	ok = ok && strings[h->strings_size - 1] == 0;
	if (!ok) {
		munmap(map, size);
		return false;
	}
	s->kcache_map = map;
	s->kcache_size = size;
	s->kc_syms = v;
	s->kc_n = (size_t)h->n;
	s->kc_strings = strings;
	return true;
}

/* The index of the dso name in names[] (added when new). */
static uint32_t dso_index(const char **names, uint32_t *n, const char *dso)
{
	for (uint32_t i = *n; i-- > 0;)
		if (names[i] == dso)
			return i;
	names[*n] = dso;
	return (*n)++;
}

/* Written to a temporary file renamed into place; failures leave no cache.
 * The strings: every file name once (the kernel, its modules), then the
 * symbols' names. */
static void kcache_store(const struct symbols *s, const char *path)
{
	char tmp[4200], *slash = strrchr(path, '/');
	snprintf(tmp, sizeof(tmp), "%.*s", (int)(slash - path), path);
	char *parent = strrchr(tmp, '/');
	if (parent) {   /* ~/.cache, then ~/.cache/pmutool */
		*parent = 0;
		mkdir(tmp, 0700);
		*parent = '/';
	}
	mkdir(tmp, 0700);
	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	const char **dsos = malloc((s->kernel.n + 1) * sizeof(*dsos));
	uint32_t *dso_of = malloc((s->kernel.n + 1) * sizeof(*dso_of)), ndsos = 0;
	FILE *fp = dsos && dso_of ? fopen(tmp, "wbe") : NULL;
	struct kcache_head h = {KCACHE_MAGIC, s->kernel.n, 0};
	for (size_t i = 0; fp && i < s->kernel.n; i++) {
		uint32_t before = ndsos;
		dso_of[i] = dso_index(dsos, &ndsos, s->kernel.v[i].dso);
		if (ndsos != before)
			h.strings_size += strlen(s->kernel.v[i].dso) + 1;
		h.strings_size += strlen(s->kernel.v[i].name) + 1;
	}
	bool ok = fp && h.strings_size < UINT32_MAX && fwrite(&h, sizeof(h), 1, fp) == 1;
	uint32_t *dso_at = malloc((ndsos + 1) * sizeof(*dso_at)), at = 0;
	for (uint32_t d = 0; ok && dso_at && d < ndsos; d++) {
		dso_at[d] = at;
		at += (uint32_t)strlen(dsos[d]) + 1;
	}
	ok = ok && dso_at;
	for (size_t i = 0; ok && i < s->kernel.n; i++) {
		const struct sym *k = &s->kernel.v[i];
		struct kcache_sym c = {k->start, k->end, at, dso_at[dso_of[i]], (uint32_t)k->binding, 0};
		at += (uint32_t)strlen(k->name) + 1;
		ok = fwrite(&c, sizeof(c), 1, fp) == 1;
	}
	for (uint32_t d = 0; ok && d < ndsos; d++)
		ok = fwrite(dsos[d], strlen(dsos[d]) + 1, 1, fp) == 1;
	for (size_t i = 0; ok && i < s->kernel.n; i++)
		ok = fwrite(s->kernel.v[i].name, strlen(s->kernel.v[i].name) + 1, 1, fp) == 1;
	ok = fp && fclose(fp) == 0 && ok && s->kernel.n;
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
	free(dsos);
	free(dso_of);
	free(dso_at);
}

/* Kernel aliases (__x64_sys_vfork and __ia32_sys_vfork): perf's
 * __dso__load_kallsyms fixes the ends before it drops duplicates, so all
 * but the last read of an address are empty, and the last one stays
 * (choose_best_symbol prefers a symbol with a size). */
static void kernel_keep_last(struct symtab *t)
{
	size_t k = 0;
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), by_start);
	for (size_t i = 0; i < t->n; i++) {
		if (k && t->v[k - 1].start == t->v[i].start)
			k--;
		t->v[k++] = t->v[i];
	}
	t->n = k;
}

static int kallsyms_parse(struct symbols *s)
{
	s->kallsyms_text = read_text(s->kallsyms_path);
	int rc = 0;
	for (char *line = s->kallsyms_text, *next; line && *line && !rc; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = 0;
		rc = kallsyms_line(s, line);
	}
	kernel_keep_last(&s->kernel);
	kernel_fixup_end(&s->kernel, s->kernel_name);
	return rc;
}

/* The recording's kernel when it is not the running one: its kallsyms
 * from perf's build-id cache (symbol.c dso__find_kallsyms), else none
 * (NULL: the kernel's samples unresolved, as in perf); the running
 * kernel's /proc/kallsyms otherwise. */
static const char *recorded_kallsyms(const struct symbols *s, char *path, size_t len)
{
	struct pmurt_build_id want, have;
	if (!s->recorded || pmurt_perf_build_id(s->recorded, "[kernel.kallsyms]", &want) < 0 ||
	    pmurt_build_id_kernel(&have, NULL, NULL) < 0 ||
	    (have.len == want.len && !memcmp(have.id, want.id, have.len)))
		return s->kallsyms_path;
	if (pmurt_build_id_cache_find("[kernel.kallsyms]", &want, path, len, NULL, NULL) == 0)
		return path;
	return NULL;
}

/* /proc/kallsyms through the cache; another file (PMUTOOL_KALLSYMS, a
 * recorded kernel's from the build-id cache) as it is. */
static int kallsyms_load(struct symbols *s)
{
	char path[4096], recorded[4096];
	s->kallsyms_loaded = true;
	if (s->kallsyms_path && !strcmp(s->kallsyms_path, "/proc/kallsyms")) {
		const char *k = recorded_kallsyms(s, recorded, sizeof(recorded));
		s->kallsyms_path = k == recorded ? intern(s, recorded) : k;
	}
	if (!s->kallsyms_path)
		return 0;
	bool cached = !strcmp(s->kallsyms_path, "/proc/kallsyms") &&
		      kcache_path(path, sizeof(path));
	if (cached && kcache_load(s, path))
		return 0;
	int rc = kallsyms_parse(s);
	if (!rc && cached)
		kcache_store(s, path);
	return rc;
}

/* --- threads and maps ------------------------------------------------------------ */

static struct thread *thread_get(struct symbols *s, uint32_t tid, uint32_t pid)
{
	struct thread *t = hmap_get(&s->threads, tid, NULL);
	if (t)
		return t;
	char name[24];   /* machine.c: the idle thread is "swapper" */
	snprintf(name, sizeof(name), tid ? ":%d" : "swapper", (int)tid);
	t = malloc(sizeof(*t));
	if (!t || !(t->comm = intern(s, name)) || hmap_put(&s->threads, tid, NULL, t)) {
		free(t);
		return NULL;
	}
	t->pid = pid;
	return t;
}

static struct proc *proc_get(struct symbols *s, uint32_t pid)
{
	struct proc *p = hmap_get(&s->procs, pid, NULL);
	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p || hmap_put(&s->procs, pid, NULL, p)) {
		free(p);
		return NULL;
	}
	return p;
}

static int proc_add_map(struct proc *p, struct map m)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		struct map *v = realloc(p->maps, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		p->maps = v;
		p->cap = cap;
	}
	p->maps[p->n++] = m;
	p->generation++;
	return 0;
}



/* A record's string field at offset at, cut at the record's end. */
static const char *record_string(const struct pmurt_perf_record *rec, size_t at, char *buf,
				 size_t len)
{
	size_t room = rec->size > at ? rec->size - at : 0;
	size_t n = strnlen((const char *)rec->data + at, room < len - 1 ? room : len - 1);
	memcpy(buf, (const char *)rec->data + at, n);
	buf[n] = 0;
	return buf;
}

/* A record's fields, unaligned, in this host's order (the kernel's, as
 * the reader checked). */
static uint32_t record_u32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t record_u64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static int track_comm(struct symbols *s, const struct pmurt_perf_record *rec)
{
	char name[64];
	if (rec->size < 16)
		return 0;
	const uint8_t *p = rec->data;
	struct thread *t = thread_get(s, record_u32(p + 12), record_u32(p + 8));
	const char *comm = intern(s, record_string(rec, 16, name, sizeof(name)));
	if (!t || !comm)
		return -ENOMEM;
	t->comm = comm;
	return 0;
}

/* FORK: the child takes the parent's comm, and a new process a copy of
 * its maps (perf's thread__fork). */
static int track_fork(struct symbols *s, const struct pmurt_perf_record *rec)
{
	if (rec->size < 24)
		return 0;
	const uint8_t *p = rec->data;
	uint32_t pid = record_u32(p + 8), ppid = record_u32(p + 12), tid = record_u32(p + 16),
		 ptid = record_u32(p + 20);
	struct thread *parent = thread_get(s, ptid, ppid), *child = thread_get(s, tid, pid);
	if (!parent || !child)
		return -ENOMEM;
	child->comm = parent->comm;
	child->pid = pid;
	if (pid == ppid)
		return 0;
	struct proc *from = proc_get(s, ppid), *to = proc_get(s, pid);
	if (!from || !to)
		return -ENOMEM;
	to->n = 0;
	for (size_t i = 0; i < from->n; i++)
		if (proc_add_map(to, from->maps[i]))
			return -ENOMEM;
	return 0;
}

/* Executable memory without a file (anonymous, /dev/zero, huge pages,
 * the heap, a stack, SysV shared memory): where a JIT writes code.  perf
 * names it /tmp/perf-PID.map, the file in which a JIT lists the functions
 * it wrote, and looks its ips up as they are (tools/perf/util/map.c
 * map__new, is_anon_memory and is_no_dso_memory in map.h; identity__map_ip). */
static bool without_file(const char *name, uint32_t mmap_flags)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14) || (mmap_flags & MAP_HUGETLB) ||
	       !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

/* MMAP (1) and MMAP2 (10): executable maps of a process (data maps, which
 * perf record --data adds, are left out). */
static int track_mmap(struct symbols *s, const struct pmurt_perf_record *rec)
{
	const uint8_t *p = rec->data;
	bool v2 = rec->type == PERF_RECORD_MMAP2;
	size_t name_at = v2 ? 72 : 40;
	char path[4096], jit_map[32];
	if (rec->size < name_at || (rec->misc & PERF_RECORD_MISC_MMAP_DATA))
		return 0;
	if (v2 && !(record_u32(p + 64) & PROT_EXEC))
		return 0;
	int32_t pid = (int32_t)record_u32(p + 8);
	if (pid < 0)
		return 0;   /* the kernel's own maps: kallsyms answers */
	const char *name = record_string(rec, name_at, path, sizeof(path));
	uint64_t start = record_u64(p + 16), len = record_u64(p + 24), pgoff = record_u64(p + 32);
	if (without_file(name, v2 ? record_u32(p + 68) : 0)) {
		snprintf(jit_map, sizeof(jit_map), "/tmp/perf-%d.map", pid);
		name = jit_map;
		pgoff = start;   /* ip - start + pgoff: the ip itself */
	}
	struct dso *d = dso_get(s, name);
	struct proc *pr = proc_get(s, (uint32_t)pid);
	if (!d || !pr)
		return -ENOMEM;
	return proc_add_map(pr, (struct map){start, start + len, pgoff, d});
}

int symbols_track(struct symbols *s, const struct pmurt_perf_record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_COMM: return track_comm(s, rec);
	case PERF_RECORD_FORK: return track_fork(s, rec);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: return track_mmap(s, rec);
	default: return 0;
	}
}

const char *symbols_comm(struct symbols *s, uint32_t tid)
{
	struct thread *t = thread_get(s, tid, tid);
	return t ? t->comm : s->unknown;
}

/* The cache's symbol holding ip, in place (binary search). */
static bool kcache_find(struct symbols *s, uint64_t ip, struct resolved *out)
{
	size_t lo = 0, hi = s->kc_n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->kc_syms[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct kcache_sym *k = lo ? &s->kc_syms[lo - 1] : NULL;
	size_t strings_size = s->kcache_size - (size_t)(s->kc_strings - (const char *)s->kcache_map);
	if (!k || ip >= k->end || k->name >= strings_size || k->dso >= strings_size)
		return true;   /* none, or a damaged entry: "[unknown]" */
	if (k->dso != s->kc_dso_at || !s->kc_dso) {
		s->kc_dso = intern(s, s->kc_strings + k->dso);
		s->kc_dso_at = k->dso;
		if (!s->kc_dso)
			return false;
	}
	out->sym = out->sym_raw = s->kc_strings + k->name;
	out->sym_offset = ip - k->start;
	out->dso = s->kc_dso;
	return true;
}

static int resolve_kernel(struct symbols *s, uint64_t ip, struct resolved *out)
{
	if (!s->kallsyms_loaded) {
		int rc = kallsyms_load(s);
		if (rc)
			return rc;
	}
	out->dso = s->kernel_name;
	out->map_ip = ip;
	if (s->kc_syms)
		return kcache_find(s, ip, out) ? 0 : -ENOMEM;
	const struct sym *k = symtab_find(&s->kernel, ip);
	if (k) {
		out->sym = out->sym_raw = k->name;
		out->sym_offset = ip - k->start;
		out->dso = k->dso;
	}
	return 0;
}

/* The map of process pid holding ip, the latest mapped first; NULL: none. */
static const struct map *map_find(const struct symbols *s, uint32_t pid, uint64_t ip)
{
	const struct proc *p = hmap_get(&s->procs, pid, NULL);
	for (size_t i = p ? p->n : 0; i-- > 0;)
		if (ip >= p->maps[i].start && ip < p->maps[i].end)
			return &p->maps[i];
	return NULL;
}

int symbols_user_map(struct symbols *s, uint32_t pid, uint64_t ip, struct user_map *out)
{
	const struct map *m = map_find(s, pid, ip);
	if (!m)
		return 0;
	if (!m->dso->loaded) {
		int rc = dso_load(s, m->dso);
		if (rc)
			return rc;
	}
	*out = (struct user_map){.start = m->start, .end = m->end, .pgoff = m->pgoff,
				 .file = m->dso->file};
	return 1;
}

uint64_t symbols_maps_generation(const struct symbols *s, uint32_t pid)
{
	const struct proc *p = hmap_get(&s->procs, pid, NULL);
	return p ? p->generation : 0;
}

static int resolve_user(struct symbols *s, uint32_t pid, uint64_t ip, struct resolved *out)
{
	const struct map *m = map_find(s, pid, ip);
	if (!m)
		return 0;
	out->dso = m->dso->path;
	out->map_ip = ip - m->start + m->pgoff;
	out->map_start = m->start;
	out->map_end = m->end;
	out->map_pgoff = m->pgoff;
	if (!m->dso->loaded) {
		int rc = dso_load(s, m->dso);
		if (rc)
			return rc;
	}
	uint64_t addr = dso_address(m->dso, out->map_ip);
	const struct sym *f = symtab_find(&m->dso->syms, addr);
	if (f && f->name) {
		out->sym = f->name;
		out->sym_raw = f->raw;
		out->sym_offset = addr - f->origin;
	}
	return 0;
}

int symbols_resolve(struct symbols *s, uint32_t pid, uint32_t tid, uint64_t ip, uint16_t misc,
		    struct resolved *out)
{
	uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	*out = (struct resolved){.comm = symbols_comm(s, tid), .dso = s->unknown,
				 .sym = s->unknown, .sym_raw = s->unknown, .map_ip = ip, .mode = '?'};
	switch (mode) {
	case PERF_RECORD_MISC_KERNEL:
	case PERF_RECORD_MISC_GUEST_KERNEL:
		out->mode = 'k';
		return resolve_kernel(s, ip, out);
	case PERF_RECORD_MISC_USER:
	case PERF_RECORD_MISC_GUEST_USER:
		out->mode = '.';
		return resolve_user(s, pid, ip, out);
	case PERF_RECORD_MISC_HYPERVISOR:
		out->mode = 'H';
		return 0;
	default:
		return 0;
	}
}
