/*
 * pmurt_tool.h - what a tool built on libpmurt needs beyond pmurt.h, as
 * pmutool does: the kernel interface the perf side calls (to run a tool's
 * own code on a simulated kernel in its tests), the kernel's CPU list
 * format, and build ids with perf's build-id cache (to resolve a
 * recording's samples to the very files it ran, as perf report does).
 * Versioned with pmurt.h: its functions are in libpmurt.map's nodes too,
 * under the release that brought them.
 */
#ifndef PMURT_TOOL_H
#define PMURT_TOOL_H

#include <linux/perf_event.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pmurt.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The narrow interface between libpmurt's perf side and the kernel
 * (PMURT_0.5): every system call it makes on a perf event goes through one
 * struct pmurt_sys, the kernel's own by default (pmurt_host_opts.sys NULL).
 * A tool's tests hand in a simulated kernel instead, which answers from a
 * table of events and injected errnos, so that the tool's own paths
 * (opening, reading, mapping the ring, explaining an errno) run where the
 * real kernel cannot produce what they need.  Each operation returns what
 * the system call returns, except that failures come back as a negative
 * errno instead of -1 and errno.  The struct is never extended: a new
 * operation would come as a new struct and version node.
 */
struct pmurt_sys {
	/* perf_event_open(2): a file descriptor or -errno */
	int (*event_open)(void *ctx, struct perf_event_attr *attr, pid_t pid,
			  int cpu, int group_fd, unsigned long flags);
	/* ioctl(2) on an event fd (PERF_EVENT_IOC_*): >= 0 or -errno */
	int (*ioctl)(void *ctx, int fd, unsigned long request, unsigned long arg);
	/* read(2): bytes read or -errno */
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t len);
	/* mmap(2) of an event fd (shared, read/write): NULL with *err = -errno
	 * on failure */
	void *(*mmap)(void *ctx, int fd, size_t len, off_t offset, int *err);
	int (*munmap)(void *ctx, void *addr, size_t len);
	int (*close)(void *ctx, int fd);
	/* poll(2) on event fds (a ring with data past its wakeup mark is
	 * readable; a task event whose task exited gives POLLHUP): the number
	 * of ready fds or -errno.  May be NULL: a recording then drains on a
	 * timer instead of waiting for the kernel's wake-up. */
	int (*poll)(void *ctx, struct pollfd *fds, nfds_t nfds, int timeout_ms);
	void *ctx;
};

/* The kernel's CPU list format ("0-3,8,10-11"), as -C and
 * /sys/devices/system/cpu/online write it, into a malloc'd array (*cpus,
 * *ncpus; the caller frees it).  0, -EINVAL with err quoting the text, or
 * -ENOMEM.  (PMURT_0.5) */
PMURT_API int pmurt_cpulist_parse(const char *text, int **cpus, int *ncpus,
				  struct pmurt_error *err);

/* One event of pmu decoded against its description, as pmutool describe
 * prints it (PMURT_0.6): the counter it gets alone in a group (checked
 * under opts, NULL: the defaults), every field of its code and config1 with
 * its value and where it lands (the register field and bits for that
 * counter, under which condition, with its transform), the privilege
 * filters of that counter and which of them the event's exclude bits set,
 * and each constraint's part of the kernel's constraint word with their
 * total and the adder slots.  Lines of text into *text (malloc'd, the
 * caller frees it; their layout is for people and may change).  0, or
 * -EINVAL / -ENOMEM with err. */
PMURT_API int pmurt_event_describe(const struct pmurt_pmu *pmu,
				   const struct pmurt_event_spec *ev,
				   const struct pmurt_check_opts *opts, char **text,
				   struct pmurt_error *err);

/*
 * A command a tool profiles, forked and held before its exec until its
 * events are open (PMURT_0.6), as perf's evlist__prepare_workload and
 * evlist__start_workload hold theirs: events opened on its pid with
 * enable_on_exec (pmurt_record_opts, pmurt_counter_opts) start at the exec,
 * not in the forked copy of the tool.
 */
struct pmurt_workload;

/* Fork argv[0] (searched in PATH, as execvp), held before its exec.  *w
 * NULL on failure. */
PMURT_API int pmurt_workload_prepare(struct pmurt_workload **w, char *const argv[],
				     struct pmurt_error *err);
/* Its process id. */
PMURT_API pid_t pmurt_workload_pid(const struct pmurt_workload *w);
/* Let it exec: 0, or the failed exec's -errno with err naming the
 * command. */
PMURT_API int pmurt_workload_start(struct pmurt_workload *w, struct pmurt_error *err);
/* Whether it has exited (it stays a zombie for pmurt_workload_finish). */
PMURT_API bool pmurt_workload_exited(const struct pmurt_workload *w);
/* Reap it, terminating it (SIGTERM) first if it still runs, and free w: its
 * status as a shell gives it (128 + signal when killed); 0 for NULL. */
PMURT_API int pmurt_workload_finish(struct pmurt_workload *w);

/* --- build ids (PMURT_0.6) -----------------------------------------------------
 * A GNU build id names one build of an ELF file (its NT_GNU_BUILD_ID note),
 * as perf keys DSOs by it: perf record writes the build ids of the DSOs its
 * samples hit into the file (HEADER_BUILD_ID) and keeps a copy of each DSO
 * in its build-id cache, so that perf report takes a DSO's symbols from the
 * build that ran, not from a file rebuilt since.  These functions read
 * build ids as perf 6.1 does and look DSOs up in that cache, in perf's own
 * layout (tools/perf/util/build-id.c), so that pmutool and perf share it.
 * A DSO is named as perf names it in a file: a path, "[kernel.kallsyms]"
 * or "[vdso]". */

/* perf's BUILD_ID_SIZE: a SHA-1's 20 bytes, the longest a note gives */
#define PMURT_BUILD_ID_MAX 20

/* A build id: its first len bytes (at most PMURT_BUILD_ID_MAX; an MD5 or
 * UUID style id is shorter).  A value, not an options struct: never
 * extended. */
struct pmurt_build_id {
	uint8_t id[PMURT_BUILD_ID_MAX];
	size_t len;
};

struct pmurt_build_id_opts {
	size_t sz;
	const char *root;       /* stands for / where the running system is
	                           read (ROOT/sys/kernel/notes); NULL or "":
	                           the running system itself */
	const char *cache_dir;  /* perf's build-id cache; NULL: the one perf
	                           would use (pmurt_build_id_cache_dir) */
};

/* The build id of the ELF file at path, from its PT_NOTE segments as perf
 * reads it (util/symbol-elf.c filename__read_build_id): 0; -ENOEXEC (not
 * ELF), -ENOENT (no such file, or no build-id note: the message says
 * which), or the -errno of opening it; err names the file. */
PMURT_API int pmurt_build_id_elf(const char *path, struct pmurt_build_id *id,
				 struct pmurt_error *err);
/* The running kernel's, from ROOT/sys/kernel/notes (opts->root) as perf
 * record reads it (sysfs__read_build_id): 0, -ENOENT (no such file, or no
 * build-id note in it), the -errno of opening it, or -EINVAL for bad opts;
 * err names the file. */
PMURT_API int pmurt_build_id_kernel(struct pmurt_build_id *id,
				    const struct pmurt_build_id_opts *opts,
				    struct pmurt_error *err);
/* This process's vDSO's (the image the kernel maps into every process,
 * which perf records as "[vdso]" from its own): 0, or -ENOENT when the
 * process has no vDSO or it carries no build id. */
PMURT_API int pmurt_build_id_vdso(struct pmurt_build_id *id);
/* This process's vDSO's ELF image in memory, its whole pages as perf keeps
 * them (util/vdso.c), with its size in *size; NULL when the process has
 * none.  The image is the kernel's mapping: read-only, lives as long as the
 * process. */
PMURT_API const void *pmurt_vdso_image(size_t *size);
/* The build id f's HEADER_BUILD_ID feature records for the DSO named dso
 * (its first entry of that name, as perf reads them): 0, -ENOENT when the
 * file records none for it, -EINVAL for a NULL argument. */
PMURT_API int pmurt_perf_build_id(const struct pmurt_perf_file *f, const char *dso,
				  struct pmurt_build_id *id);
/* The build-id cache directory perf 6.1 uses (util/config.c
 * set_buildid_dir): $PERF_BUILDID_DIR (which perf sets for the commands it
 * runs), else perf config's buildid.dir (/etc/perfconfig, then
 * $PERF_CONFIG or ~/.perfconfig, the later winning), else $HOME/.debug;
 * into buf[len]: 0, -ENOENT with none of them set, -ENAMETOOLONG. */
PMURT_API int pmurt_build_id_cache_dir(char *buf, size_t len, struct pmurt_error *err);
/* The cache's copy of DSO dso with build id id, found through
 * DIR/.build-id/HE/X.../ as perf report looks it up (build-id.c
 * build_id_cache__linkname; the file is "elf", "kallsyms" for
 * "[kernel.kallsyms]", "vdso" for "[vdso]"): its path into path[len] and
 * 0; -ENOENT when the cache does not hold it (path then says where it was
 * looked for), -ENAMETOOLONG, -EINVAL for an id of no bytes or more than
 * PMURT_BUILD_ID_MAX or bad opts, or pmurt_build_id_cache_dir's error when
 * opts names no cache_dir. */
PMURT_API int pmurt_build_id_cache_find(const char *dso, const struct pmurt_build_id *id,
					char *path, size_t len,
					const struct pmurt_build_id_opts *opts,
					struct pmurt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PMURT_TOOL_H */
