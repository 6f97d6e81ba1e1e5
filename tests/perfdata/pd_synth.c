/*
 * pd_synth.c - writes, through libpmurt's writer, a perf.data file built
 * from this very process: its COMM, the MMAP2 of its own executable (from
 * /proc/self/maps), the kernel's text map, and samples whose IPs lie in
 * functions it knows (synth_alpha, synth_beta) and in a kernel function of
 * /proc/kallsyms.  Two events (cpu-clock and task-clock) with their own ids,
 * sample_id_all trailers, FINISHED_ROUND.  perf must show exactly these.
 * With --jit, also what a JIT leaves: an anonymous executable mapping of
 * its own, the functions it "wrote" there listed in /tmp/perf-PID.map
 * (perf's jit-interface.txt), samples in jit_gamma, jit_delta and in a part
 * that file does not name.
 *
 * With --plt ELF, the file ELF mapped too, samples in its PLT entries
 * (perf names them from .rela.plt once it found any symbol in the file).
 * With --plt-sweep ELF, the same and one more sample every 4 bytes from
 * the start of its .init to the end of its .plt, .plt.got and .plt.sec:
 * every PLT entry, and whatever else perf may name there (_init).
 *
 * With --bounds, also one sample at each edge of the executable's text map
 * and of synth_alpha: the map's first and last byte, the bytes just before
 * and after it, synth_alpha's first and last byte and the byte after it
 * (perf 6.1: maps__find and symbols__find hold start <= ip < end).
 *
 * With --chains, every sample has a call chain (PERF_SAMPLE_CALLCHAIN):
 * user, kernel-then-user, and every third of synth_alpha's with a context
 * marker no kernel writes in its middle (a chain perf 6.1 takes for
 * corrupted and discards whole, machine.c add_callchain_ip).
 *
 * With --read, leader sampling (perf's "{cpu-clock,page-faults}:S"): the
 * second event is page-faults, a member that does not sample; every sample
 * reads the group (PERF_SAMPLE_READ, read_format GROUP with both times, ID
 * and LOST), on two CPUs of their own ids, with values whose growth is known:
 * the leader's by 100000 + 1000 * i at its CPU's i-th sample, the member's
 * by i % 3 (no page-faults sample when 0); one more sample, last, reads a
 * third value of an id no event has (perf drops it and warns).
 *
 * usage: pd_synth OUT [--jit | --plt ELF | --plt-sweep ELF | --bounds | --chains | --read] --
 *        prints "alpha N beta M kernel K SYMBOL", with --jit then "gamma G
 *        delta D unnamed U MAPFILE", with --plt then "plt P", with
 *        --plt-sweep then "plt P" and "sweep S FROM TO" (S samples over
 *        the file offsets FROM to TO, in hex), with --bounds then "bounds START
 *        END ALPHA SIZE" (the map's first byte and the byte after it,
 *        synth_alpha's address and size, in hex), with --chains then
 *        "corrupt C" (the samples whose chain is corrupted); with --read
 *        only "read S leader L LP member M MP" (S samples; L leader samples of
 *        total period LP, M member samples of total period MP)
 */
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata.h"
#include "record_buf.h"

__attribute__((noinline)) int synth_alpha(int x);
__attribute__((noinline)) int synth_beta(int x);
int synth_alpha(int x) { return x * 3 + 1; }
int synth_beta(int x) { return x * 5 + 2; }

enum { NALPHA = 7, NBETA = 4, NKERNEL = 3, NGAMMA = 5, NDELTA = 2, NUNNAMED = 1, NPLT = 3,
       NREAD = 20, SWEEP_STEP = 4 };

static int check(int rc, const struct pmurt_error *err)
{
	if (rc < 0) {
		fprintf(stderr, "pd_synth: %s\n", err->message);
		exit(1);
	}
	return rc;
}

/* The executable's text mapping: start, end, pgoff, path. */
static void self_text(uint64_t *start, uint64_t *end, uint64_t *pgoff, char *path)
{
	FILE *fp = fopen("/proc/self/maps", "r");
	char line[4608], perms[8];
	uintptr_t target = (uintptr_t)synth_alpha;
	while (fp && fgets(line, sizeof(line), fp)) {
		unsigned long long s, e, off;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perms, &off, path) == 5 &&
		    target >= s && target < e && strchr(perms, 'x')) {
			*start = s, *end = e, *pgoff = off;
			fclose(fp);
			return;
		}
	}
	fprintf(stderr, "pd_synth: own text mapping not found\n");
	exit(1);
}

/* A text symbol of /proc/kallsyms with a plain name, and _text. */
static void kernel_symbol(uint64_t *addr, char *name, uint64_t *text)
{
	FILE *fp = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	unsigned long long a;
	*addr = *text = 0;
	while (fp && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3 || !a)
			continue;
		if (!strcmp(sym, "_text"))
			*text = a;
		if (!strcmp(sym, "schedule") && type == 'T') {
			*addr = a;
			strcpy(name, sym);
		}
	}
	if (fp)
		fclose(fp);
	if (!*addr || !*text) {
		fprintf(stderr, "pd_synth: /proc/kallsyms has no readable schedule/_text (run as root)\n");
		exit(1);
	}
}

/* The JIT's code: an anonymous executable mapping (left empty: only its
 * addresses matter) and its perf map, two functions in it. */
static void *jit_region(uint32_t pid, size_t len, char *map_path, size_t map_len)
{
	void *code = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	snprintf(map_path, map_len, "/tmp/perf-%" PRIu32 ".map", pid);
	FILE *fp = code == MAP_FAILED ? NULL : fopen(map_path, "w");
	if (!fp || fprintf(fp, "%" PRIxPTR " 80 jit_gamma\n%" PRIxPTR " 40 jit_delta(int)\n",
			   (uintptr_t)code + 0x100, (uintptr_t)code + 0x1000) < 0 || fclose(fp)) {
		fprintf(stderr, "pd_synth: cannot map the JIT's code or write %s\n", map_path);
		exit(1);
	}
	return code;
}

/* The section headers of ELF (a 64-bit ELF of this machine's byte order)
 * and their count; exits when it is none. */
static const Elf64_Shdr *sections(const uint8_t *elf, size_t size, unsigned *n)
{
	const Elf64_Ehdr *eh = (const void *)elf;
	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum || eh->e_shstrndx >= eh->e_shnum) {
		fprintf(stderr, "pd_synth: not a 64-bit ELF file\n");
		exit(1);
	}
	*n = eh->e_shnum;
	return (const void *)(elf + eh->e_shoff);
}

/* The file offsets [*from, *to) that ELF's sections named in names (a
 * list ending in NULL) span, from the first one's start to the last one's
 * end; 0 when it has none of them. */
static int section_span(const uint8_t *elf, size_t size, const char *const *names,
			uint64_t *from, uint64_t *to)
{
	unsigned n;
	const Elf64_Shdr *sh = sections(elf, size, &n);
	const Elf64_Shdr *strings = &sh[((const Elf64_Ehdr *)elf)->e_shstrndx];
	int found = 0;
	for (unsigned i = 0; i < n; i++)
		for (const char *const *name = names; *name; name++) {
			size_t len = strlen(*name) + 1;
			if (strings->sh_offset + sh[i].sh_name + len > size ||
			    memcmp(elf + strings->sh_offset + sh[i].sh_name, *name, len))
				continue;
			if (!found++ || sh[i].sh_offset < *from)
				*from = sh[i].sh_offset;
			if (found == 1 || sh[i].sh_offset + sh[i].sh_size > *to)
				*to = sh[i].sh_offset + sh[i].sh_size;
		}
	return found > 0;
}

/* The file offset of ELF's .plt section; exits when there is none. */
static uint64_t plt_offset(const uint8_t *elf, size_t size)
{
	static const char *const plt[] = {".plt", NULL};
	uint64_t from, to;
	if (section_span(elf, size, plt, &from, &to))
		return from;
	fprintf(stderr, "pd_synth: no .plt section\n");
	exit(1);
}

/* ELF mapped into this process as the loader maps a file's text. */
static const uint8_t *map_file(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	void *p = fd < 0 || fstat(fd, &st) ? MAP_FAILED
		  : mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "pd_synth: cannot map %s\n", path);
		exit(1);
	}
	close(fd);
	*size = (size_t)st.st_size;
	return p;
}

/* The size of function name in ELF's symbol table; exits when it has none. */
static uint64_t symbol_size(const uint8_t *elf, size_t size, const char *name)
{
	unsigned n;
	const Elf64_Shdr *sh = sections(elf, size, &n);
	for (unsigned i = 0; i < n; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= n ||
		    sh[i].sh_offset + sh[i].sh_size > size)
			continue;
		const Elf64_Sym *sym = (const void *)(elf + sh[i].sh_offset);
		const Elf64_Shdr *str = &sh[sh[i].sh_link];
		for (size_t k = 0; k < sh[i].sh_size / sizeof(*sym); k++)
			if (str->sh_offset + sym[k].st_name + strlen(name) < size &&
			    !strcmp((const char *)elf + str->sh_offset + sym[k].st_name, name))
				return sym[k].st_size;
	}
	fprintf(stderr, "pd_synth: no symbol %s\n", name);
	exit(1);
}

/* MMAP2 of an executable mapping of this process (pgoff 0). */
static void add_mmap2(struct pd_writer *w, struct pd_sample_id *id, uintptr_t at,
		      uint64_t len, uint32_t flags, const char *name)
{
	struct pmurt_error err = {0};
	struct buf b;
	start(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32(&b, id->pid), put32(&b, id->tid);
	put64(&b, at);
	put64(&b, len);
	put64(&b, 0);                       /* pgoff */
	put32(&b, 0), put32(&b, 0);         /* maj, min */
	put64(&b, 0);                       /* ino */
	put64(&b, 0);                       /* ino generation */
	put32(&b, PROT_READ | PROT_EXEC), put32(&b, flags);
	done(&b, name);
	check(pd_writer_add_synth(w, b.b, id, &err), &err);
}

/* One cpu-clock sample of this process in user mode at ip, on CPU 0, 250
 * microseconds after the previous one (*t). */
static void add_user_sample(struct pd_writer *w, uint32_t pid, uint64_t ip, uint64_t *t)
{
	struct pmurt_error err = {0};
	struct buf b;
	start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(&b, 101);
	put64(&b, ip);
	put32(&b, pid), put32(&b, pid);
	put64(&b, *t += 250000);
	put32(&b, 0), put32(&b, 0);
	put64(&b, 100000);
	done(&b, NULL);
	check(pd_writer_add(w, b.b, &err), &err);
}

/* --chains: sample i of kind k's call chain, callee first (k 0: in
 * synth_alpha, called from synth_beta, every third with a marker no kernel
 * writes between them; k 1: in synth_beta, called from synth_alpha; k 2:
 * in the kernel, entered from synth_alpha); 1 when it is corrupted. */
static int put_chain(struct buf *b, int k, int i, uint64_t ip)
{
	const uint64_t alpha = (uintptr_t)synth_alpha + 1, beta = (uintptr_t)synth_beta + 2;
	const uint64_t garbage = (uint64_t)-1000;   /* >= PERF_CONTEXT_MAX, no context */
	uint64_t chain[5];
	int n = 0;
	bool bad = k == 0 && i % 3 == 0;
	if (k == 2) {
		chain[n++] = PERF_CONTEXT_KERNEL;
		chain[n++] = ip;
		chain[n++] = PERF_CONTEXT_USER;
		chain[n++] = alpha;
	} else {
		chain[n++] = PERF_CONTEXT_USER;
		chain[n++] = ip;
		if (bad)
			chain[n++] = garbage;
		chain[n++] = k == 0 ? beta : alpha;
	}
	put64(b, (uint64_t)n);
	for (int j = 0; j < n; j++)
		put64(b, chain[j]);
	return bad;
}

/* --read: n samples in synth_alpha, each reading the group on CPU i % 2
 * (leader id 101 or 102, member 201 or 202); the last also reads id 999.
 * Prints what perf must show. */
static void add_read_samples(struct pd_writer *w, uint32_t pid, uint64_t *t, int n)
{
	struct pmurt_error err = {0};
	struct buf b;
	uint64_t leader[2] = {0}, member[2] = {0}, lp = 0, mp = 0;
	int nl = 0, nm = 0;
	for (int i = 0; i < n; i++) {
		int cpu = i % 2, k = i / 2;
		leader[cpu] += 100000 + 1000 * (uint64_t)k;
		member[cpu] += (uint64_t)(k % 3);
		nl++, lp += 100000 + 1000 * (uint64_t)k;
		nm += k % 3 != 0, mp += (uint64_t)(k % 3);
		bool stray = i == n - 1;
		start(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(&b, 101 + (uint64_t)cpu);
		put64(&b, (uintptr_t)synth_alpha + 1);
		put32(&b, pid), put32(&b, pid);
		put64(&b, *t += 250000);
		put32(&b, (uint32_t)cpu), put32(&b, 0);
		put64(&b, 100000);                   /* the leader's period: not used */
		put64(&b, stray ? 3 : 2);            /* nr */
		put64(&b, *t), put64(&b, *t - 1000); /* enabled, running */
		put64(&b, leader[cpu]), put64(&b, 101 + (uint64_t)cpu), put64(&b, 0);
		put64(&b, member[cpu]), put64(&b, 201 + (uint64_t)cpu), put64(&b, 0);
		if (stray)
			put64(&b, 77), put64(&b, 999), put64(&b, 0);
		done(&b, NULL);
		check(pd_writer_add(w, b.b, &err), &err);
	}
	printf("read %d leader %d %" PRIu64 " member %d %" PRIu64 "\n", n, nl, lp, nm, mp);
}

int main(int argc, char **argv)
{
	bool jit = argc == 3 && !strcmp(argv[2], "--jit");
	bool bounds = argc == 3 && !strcmp(argv[2], "--bounds");
	bool chains = argc == 3 && !strcmp(argv[2], "--chains");
	bool read = argc == 3 && !strcmp(argv[2], "--read");
	bool sweep = argc == 4 && !strcmp(argv[2], "--plt-sweep");
	const char *plt_file = argc == 4 && (sweep || !strcmp(argv[2], "--plt")) ? argv[3] : NULL;
	if (argc != 2 && !jit && !bounds && !chains && !read && !plt_file)
		return 2;
	static const uint64_t ids0[] = {101, 102}, ids1[] = {201}, read_ids1[] = {201, 202};
	const uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			    (chains ? PERF_SAMPLE_CALLCHAIN : 0) | (read ? PERF_SAMPLE_READ : 0);
	const uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct pd_event ev[2] = {
		{.attr = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
			  .sample_period = 100000, .sample_type = st, .sample_id_all = 1,
			  .comm = 1, .mmap = 1, .mmap2 = 1},
		 .ids = ids0, .nids = 2, .name = "cpu-clock"},
		{.attr = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK,
			  .sample_period = 200000, .sample_type = st, .sample_id_all = 1},
		 .ids = ids1, .nids = 1, .name = "task-clock"},
	};
	if (read) {   /* a group: page-faults read with the leader, not sampling */
		ev[0].attr.read_format = ev[1].attr.read_format = rf;
		ev[1].attr.config = PERF_COUNT_SW_PAGE_FAULTS;
		ev[1].attr.sample_period = 0;
		ev[1].ids = read_ids1, ev[1].nids = 2, ev[1].name = "page-faults";
		ev[0].group_size = 2, ev[1].group_size = 1;
	}
	struct pmurt_error err = {0};
	struct pd_writer *w;
	struct buf b;
	uint32_t pid = (uint32_t)getpid();
	uint64_t text_start, text_end, pgoff, kaddr, ktext, t = 1000000000ull;
	char path[4096], ksym[256];
	self_text(&text_start, &text_end, &pgoff, path);
	kernel_symbol(&kaddr, ksym, &ktext);
	check(pd_writer_open(&w, argv[1], ev, 2, &err), &err);

	start(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);  /* the kernel's text */
	put32(&b, (uint32_t)-1), put32(&b, 0);
	put64(&b, ktext);
	put64(&b, ~0ull - ktext);
	put64(&b, ktext);
	done(&b, "[kernel.kallsyms]_text");
	check(pd_writer_add_synth(w, b.b, NULL, &err), &err);

	start(&b, PERF_RECORD_COMM, 0);
	put32(&b, pid), put32(&b, pid);
	done(&b, "pd_synth");
	struct pd_sample_id id = {pid, pid, t, 0};
	check(pd_writer_add_synth(w, b.b, &id, &err), &err);

	start(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32(&b, pid), put32(&b, pid);
	put64(&b, text_start);
	put64(&b, text_end - text_start);
	put64(&b, pgoff);
	put32(&b, 0), put32(&b, 0);      /* maj, min */
	put64(&b, 0);           /* ino */
	put64(&b, 0);           /* ino generation */
	put32(&b, PROT_READ | PROT_EXEC), put32(&b, MAP_PRIVATE);
	done(&b, path);
	id.time = ++t;
	check(pd_writer_add_synth(w, b.b, &id, &err), &err);

	char map_path[64];
	const size_t jit_len = 0x2000;
	uintptr_t code = jit ? (uintptr_t)jit_region(pid, jit_len, map_path, sizeof(map_path)) : 0;
	if (jit) {
		id.time = ++t;
		add_mmap2(w, &id, code, jit_len, MAP_PRIVATE | MAP_ANONYMOUS, "//anon");
	}
	size_t elf_size = 0;
	const uint8_t *elf = plt_file ? map_file(plt_file, &elf_size) : NULL;
	uintptr_t plt = elf ? (uintptr_t)elf + plt_offset(elf, elf_size) : 0;
	if (elf) {
		id.time = ++t;
		add_mmap2(w, &id, (uintptr_t)elf, elf_size, MAP_PRIVATE, plt_file);
	}

	int corrupt = 0;
	struct { uint64_t ip; uint16_t misc; uint64_t id; int n; } kinds[] = {
		{(uintptr_t)synth_alpha + 1, PERF_RECORD_MISC_USER, 101, NALPHA},
		{(uintptr_t)synth_beta + 2, PERF_RECORD_MISC_USER, 201, NBETA},
		{kaddr + 0x10, PERF_RECORD_MISC_KERNEL, 102, NKERNEL},
		{code + 0x108, PERF_RECORD_MISC_USER, 101, NGAMMA},   /* jit_gamma+0x8 */
		{code + 0x1004, PERF_RECORD_MISC_USER, 201, NDELTA},  /* jit_delta(int)+0x4 */
		{code + 0x800, PERF_RECORD_MISC_USER, 101, NUNNAMED}, /* named by none */
		{plt + 16 + 4, PERF_RECORD_MISC_USER, 101, NPLT},     /* the 1st entry +0x4 */
	};
	for (int k = 0; k < 7 && !read; k++) {
		if ((k >= 3 && k < 6 && !jit) || (k == 6 && !elf))
			continue;
		for (int i = 0; i < kinds[k].n; i++) {
			start(&b, PERF_RECORD_SAMPLE, kinds[k].misc);
			put64(&b, kinds[k].id);
			put64(&b, kinds[k].ip);
			put32(&b, pid), put32(&b, pid);
			put64(&b, t += 250000);
			put32(&b, (uint32_t)(i % 2)), put32(&b, 0);
			put64(&b, kinds[k].id == 201 ? 200000 : 100000);
			if (chains)
				corrupt += put_chain(&b, k, i, kinds[k].ip);
			done(&b, NULL);
			check(pd_writer_add(w, b.b, &err), &err);
		}
	}
	size_t exe_size = 0;
	const uint8_t *exe = bounds ? map_file("/proc/self/exe", &exe_size) : NULL;
	uint64_t alpha = (uintptr_t)synth_alpha,
		 alpha_size = exe ? symbol_size(exe, exe_size, "synth_alpha") : 0;
	const uint64_t edges[] = {text_start, text_end - 1, text_start - 1, text_end,
				  alpha, alpha + alpha_size - 1, alpha + alpha_size};
	for (size_t k = 0; bounds && k < sizeof(edges) / sizeof(edges[0]); k++)
		add_user_sample(w, pid, edges[k], &t);
	static const char *const stubs[] = {".init", ".plt", ".plt.got", ".plt.sec", NULL};
	uint64_t from = 0, to = 0;
	if (sweep && !section_span(elf, elf_size, stubs, &from, &to))
		return 1;
	for (uint64_t at = from; at < to; at += SWEEP_STEP)
		add_user_sample(w, pid, (uintptr_t)elf + at, &t);
	if (read)
		add_read_samples(w, pid, &t, NREAD);
	struct perf_event_header round = {PD_RECORD_FINISHED_ROUND, 0, 8};
	check(pd_writer_add(w, &round, &err), &err);
	check(pd_writer_finish(w, &err), &err);
	if (!read)
		printf("alpha %d beta %d kernel %d %s\n", NALPHA, NBETA, NKERNEL, ksym);
	if (jit)
		printf("gamma %d delta %d unnamed %d %s\n", NGAMMA, NDELTA, NUNNAMED, map_path);
	if (elf)
		printf("plt %d\n", NPLT);
	if (sweep)
		printf("sweep %" PRIu64 " %" PRIx64 " %" PRIx64 "\n", (to - from + SWEEP_STEP - 1) / SWEEP_STEP,
		       from, to);
	if (chains)
		printf("corrupt %d\n", corrupt);
	if (bounds)
		printf("bounds %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64 "\n", text_start, text_end,
		       alpha, alpha_size);
	return synth_alpha(0) + synth_beta(0) == 3 ? 0 : 1;
}
