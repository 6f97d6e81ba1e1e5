/*
 * tool_unwind.c - user frames of --call-graph dwarf samples (tool_unwind.h).
 *
 * Followed: perf 6.1's util/unwind-libdw.c and
 * arch/{x86,powerpc}/util/unwind-libdw.c.  libdwfl is handed the mapped
 * files as modules at their load bias (map start less its file offset), the
 * sample's user registers as the first frame's and, as the thread's memory,
 * the stack bytes the sample copied from the stack pointer up (elsewhere the
 * mapped file's bytes); it walks the CFI (.eh_frame, .debug_frame).  Each
 * frame is reported by its PC, less one when it is a return address (the
 * call instruction, dwfl_frame_pc's isactivation), and checked against the
 * maps as perf's entry() does: a frame in a file the unwinder cannot open
 * ends the walk.
 *
 * Unlike perf, which builds a libdwfl session per sample, the session of a
 * process is kept while its maps stay the same (symbols_maps_generation):
 * the files' CFI is then parsed once, not once per sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "elf_lib.h"
#include "tool_symbols.h"
#include "tool_unwind.h"

/* One architecture's registers: DWARF's number of each register the first
 * frame needs and perf's (the bit of sample_regs_user: asm/perf_regs.h),
 * as perf's libdw__arch_set_initial_registers sets them. */
struct reg_pair {
	uint16_t dwarf;
	uint8_t perf;
};

struct unwind_arch {
	const char *names[2];       /* HEADER_ARCH (uname -m) values */
	uint8_t sp, ip;             /* perf's stack pointer and instruction pointer */
	bool pc_apart;              /* the IP set as the PC (dwfl_thread_state_register_pc),
	                               not through a DWARF register */
	uint8_t nregs;
	struct reg_pair regs[35];
};

static const struct unwind_arch arches[] = {
	/* x86_64 (64-bit ABI): DWARF 0-16 are rax rdx rcx rbx rsi rdi rbp rsp
	 * r8-r15 and the return address column, rip; perf's are AX BX CX DX SI
	 * DI BP SP IP FLAGS CS SS DS ES FS GS R8-R15 */
	{{"x86_64", NULL}, 7, 8, false, 17,
	 {{0, 0}, {1, 3}, {2, 2}, {3, 1}, {4, 4}, {5, 5}, {6, 6}, {7, 7}, {8, 16}, {9, 17},
	  {10, 18}, {11, 19}, {12, 20}, {13, 21}, {14, 22}, {15, 23}, {16, 8}}},
	/* ppc64: r0-r31 alike in both, then lr (DWARF 65, perf LINK 36), xer
	 * (101, 37), ctr (109, 35); the PC from NIP (32); the stack pointer r1 */
	{{"ppc64le", "ppc64"}, 1, 32, true, 35,
	 {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 7}, {8, 8}, {9, 9},
	  {10, 10}, {11, 11}, {12, 12}, {13, 13}, {14, 14}, {15, 15}, {16, 16}, {17, 17},
	  {18, 18}, {19, 19}, {20, 20}, {21, 21}, {22, 22}, {23, 23}, {24, 24}, {25, 25},
	  {26, 26}, {27, 27}, {28, 28}, {29, 29}, {30, 30}, {31, 31}, {65, 36}, {101, 37},
	  {109, 35}}},
};

struct unwinder {
	const struct elf_lib *lib;
	struct symbols *syms;
	const struct unwind_arch *arch;   /* NULL: not unwound */
	char *debuginfo_path;             /* libdwfl's default (NULL) */
	Dwfl_Callbacks callbacks;
	Dwfl_Thread_Callbacks thread_callbacks;
	/* the session of one process, while its maps stay the same */
	Dwfl *dwfl;
	bool attached;
	uint32_t pid;
	uint64_t generation;
	/* the sample being unwound */
	const struct pmurt_perf_record *rec;
	uint64_t sp;
	uint64_t *ips;
	int n, left;
	int error;                        /* -ENOMEM met */
};

/* perf's register r of the sample (perf_reg_value): 0 when not sampled. */
static bool reg_value(const struct pmurt_perf_record *rec, unsigned r, uint64_t *v)
{
	*v = 0;
	if (r >= 64 || !(rec->regs_user_mask & (1ull << r)))
		return false;
	*v = rec->regs_user[__builtin_popcountll(rec->regs_user_mask & ((1ull << r) - 1))];
	return true;
}

static const struct unwind_arch *arch_named(const char *name)
{
	struct utsname u;
	if (!name || !*name)
		name = uname(&u) ? "" : u.machine;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		for (int j = 0; j < 2; j++)
			if (arches[i].names[j] && !strcmp(arches[i].names[j], name))
				return &arches[i];
	return NULL;
}

/* The mapped file holding ip reported to libdwfl at the map's load bias,
 * unless it is already (perf's __report_module): 0 when so or when ip is
 * in no file (its frame then shows [unknown]), -1 when the file cannot be
 * reported, -ENOMEM. */
static int report_module(struct unwinder *u, uint64_t ip)
{
	const struct elf_lib *l = u->lib;
	struct user_map m;
	int rc = symbols_user_map(u->syms, u->pid, ip, &m);
	if (rc <= 0)
		return rc;
	if (!m.file)
		return -1;
	uint64_t bias = m.start - m.pgoff;
	Dwfl_Module *mod = l->dwfl_addrmodule(u->dwfl, ip);
	Dwarf_Addr start;
	if (mod && (!l->dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL) ||
		    start != bias))
		mod = NULL;
	if (!mod)
		mod = l->dwfl_report_elf(u->dwfl, m.file, m.file, -1, bias, false);
	return mod && l->dwfl_addrmodule(u->dwfl, ip) == mod ? 0 : -1;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
	(void)dwfl;
	struct unwinder *u = arg;
	if (*thread_arg)
		return 0;   /* the sample's thread alone */
	*thread_arg = u;
	return (pid_t)u->rec->tid;
}

/* A word of the mapped file at addr (perf's access_dso_mem). */
static bool file_word(struct unwinder *u, uint64_t addr, Dwarf_Word *out)
{
	struct user_map m;
	if (symbols_user_map(u->syms, u->pid, addr, &m) <= 0 || !m.file || m.end - addr < 8)
		return false;
	int fd = open(m.file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok = pread(fd, out, 8, (off_t)(addr - m.start + m.pgoff)) == 8;
	close(fd);
	return ok;
}

/* The thread's memory: the stack copy from the sampled stack pointer up,
 * else the mapped files (perf's memory_read). */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out, void *arg)
{
	(void)dwfl;
	struct unwinder *u = arg;
	uint64_t size = u->rec->stack_user_size;
	if (addr + sizeof(*out) < addr)
		return false;
	if (addr < u->sp || addr - u->sp > size || size - (addr - u->sp) < sizeof(*out))
		return file_word(u, addr, out);
	memcpy(out, (const uint8_t *)u->rec->stack_user + (addr - u->sp), sizeof(*out));
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	const struct elf_lib *l = u->lib;
	for (int i = 0; i < u->arch->nregs; i++) {
		Dwarf_Word v;
		reg_value(u->rec, u->arch->regs[i].perf, &v);
		if (!l->dwfl_thread_state_registers(thread, u->arch->regs[i].dwarf, 1, &v))
			return false;
	}
	if (u->arch->pc_apart) {
		Dwarf_Word pc;
		reg_value(u->rec, u->arch->ip, &pc);
		l->dwfl_thread_state_register_pc(thread, pc);
	}
	return true;
}

/* One frame (perf's frame_callback and entry): its module reported first,
 * a return address made the call's; a frame in a file that cannot be
 * reported stops the walk, as does the last one wanted. */
static int frame(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	const struct elf_lib *l = u->lib;
	Dwarf_Addr pc;
	bool activation;
	if (!l->dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	int rc = report_module(u, pc);
	if (rc == -ENOMEM || !l->dwfl_frame_pc(state, &pc, &activation)) {
		u->error = rc == -ENOMEM ? rc : 0;
		return DWARF_CB_ABORT;
	}
	if (!activation)
		pc--;
	u->ips[u->n++] = 0;   /* perf's entry: a slot taken, filled once checked */
	rc = report_module(u, pc);
	if (rc) {
		u->error = rc == -ENOMEM ? rc : 0;
		return DWARF_CB_ABORT;
	}
	u->ips[u->n - 1] = pc;
	return --u->left ? DWARF_CB_OK : DWARF_CB_ABORT;
}

struct unwinder *unwinder_new(const struct elf_lib *lib, struct symbols *syms, const char *arch)
{
	struct unwinder *u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->lib = lib;
	u->syms = syms;
	u->arch = arch_named(arch);
	u->callbacks = (Dwfl_Callbacks){.find_debuginfo = lib->dwfl_standard_find_debuginfo,
					.section_address = lib->dwfl_offline_section_address,
					.debuginfo_path = &u->debuginfo_path};
	u->thread_callbacks = (Dwfl_Thread_Callbacks){.next_thread = next_thread,
						      .memory_read = memory_read,
						      .set_initial_registers = set_initial_registers};
	return u;
}

static void session_end(struct unwinder *u)
{
	if (u->dwfl)
		u->lib->dwfl_end(u->dwfl);
	u->dwfl = NULL;
	u->attached = false;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	session_end(u);
	free(u);
}

/* The session of the sample's process, its maps as they are: the one kept
 * when they did not change, else a new one. */
static int session_for(struct unwinder *u, uint32_t pid)
{
	uint64_t generation = symbols_maps_generation(u->syms, pid);
	if (u->dwfl && u->pid == pid && u->generation == generation)
		return 0;
	session_end(u);
	u->pid = pid;
	u->generation = generation;
	u->dwfl = u->lib->dwfl_begin(&u->callbacks);
	return u->dwfl ? 0 : -ENOMEM;
}

int unwinder_frames(struct unwinder *u, const struct pmurt_perf_record *rec, uint64_t *ips,
		    int max)
{
	uint64_t ip;
	if (!u->arch || max < 1 || !rec->regs_user || !rec->stack_user_size ||
	    rec->regs_user_abi != PERF_SAMPLE_REGS_ABI_64 || !reg_value(rec, u->arch->ip, &ip) ||
	    !reg_value(rec, u->arch->sp, &u->sp))
		return 0;
	int rc = session_for(u, rec->pid);
	if (rc)
		return rc;
	u->rec = rec;
	u->ips = ips;
	u->n = 0;
	u->left = max;
	u->error = 0;
	rc = report_module(u, ip);
	if (rc)
		return rc == -ENOMEM ? rc : 0;
	/* libdwfl takes the architecture from the modules reported so far */
	if (!u->attached &&
	    !(u->attached = u->lib->dwfl_attach_state(u->dwfl, NULL, (pid_t)rec->pid,
						      &u->thread_callbacks, u)))
		return 0;
	rc = u->lib->dwfl_getthread_frames(u->dwfl, (pid_t)rec->tid, frame, u);
	if (u->error)
		return u->error;
	/* a walk that failed before its first frame gives none (perf's
	 * unwind__get_entries); the slots of frames not checked are 0 */
	if (rc && u->left == max)
		return 0;
	int n = 0;
	for (int i = 0; i < u->n; i++)
		if (ips[i])
			ips[n++] = ips[i];
	return n;
}
