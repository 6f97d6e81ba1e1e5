/*
 * pmurt.h - libpmurt, the PMU description runtime.
 *
 * A profiler links libpmurt to learn, before any system call, whether a group
 * of events fits the PMU, on which counters, with which control-register
 * values, and if not, why.  Descriptions come from the built-in tables
 * ("power10"), a DTB file, a live device tree (/proc/device-tree layout) or a
 * YAML description; all four load into the same model.
 *
 * Conventions (as libfdt and libbpf keep theirs):
 * - Handles are opaque; every function returns 0 (or a count) on success and
 *   a negative errno on failure, filling the caller's struct pmurt_error.
 *   -ENOMEM always means out of memory, whichever source was being read.
 * - err may be NULL wherever a function takes one.  Every function taking
 *   err clears it on entry (code 0, message "", where PMURT_ERROR_NOWHERE),
 *   so a struct reused across calls reports the last call's outcome only;
 *   within one call the first error is the one reported.  An error about a
 *   place says where: bytes of an event string, or a description's file,
 *   line and column (struct pmurt_error).
 * - Option and result structs begin with their size (`sz`), set by the
 *   caller with PMURT_OPTS_INIT / sizeof, so the structs can grow without
 *   breaking callers built against an older header.  Every function checks
 *   an options struct as libbpf's OPTS_VALID does: a smaller one (an older
 *   header's) is taken with its missing fields at their defaults, a larger
 *   one (a newer header's) only when the bytes this library does not know
 *   are zero, else -EINVAL.  An array of them is passed with its element
 *   size (pmurt_group_check), as libbpf passes func_info_rec_size, never
 *   indexed at this library's sizeof.
 * - Ownership: what a function hands out through a pointer to a pointer
 *   (a pmurt_pmu, host, counter, pack, ...) is the caller's, released with
 *   its close or free function.  Whatever it takes by a plain pointer is
 *   borrowed and must outlive it: a counter and a DTL capture borrow their
 *   host, a pack its pmurt_pmu.  pmurt_host_pmu() lends the host's own
 *   description.  Strings and structs a handle hands out (names, specs,
 *   results) live as long as that handle.
 * - No global state: handles are independent and may be used from different
 *   threads; one handle is not safe for concurrent use.
 */
#ifndef PMURT_H
#define PMURT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; pmurt_version() gives the library's. */
#define PMURT_VERSION_MAJOR 0
#define PMURT_VERSION_MINOR 6
#define PMURT_VERSION_PATCH 0
#define PMURT_VERSION_CODE(major, minor, patch) \
	((uint32_t)(major) << 16 | (uint32_t)(minor) << 8 | (uint32_t)(patch))
#define PMURT_VERSION \
	PMURT_VERSION_CODE(PMURT_VERSION_MAJOR, PMURT_VERSION_MINOR, PMURT_VERSION_PATCH)

#if defined(__GNUC__)
#define PMURT_API __attribute__((visibility("default")))
#else
#define PMURT_API
#endif

/* The library's version (since 0.5), PMURT_VERSION_CODE(major, minor,
 * patch): the one linked, or loaded by the dynamic linker, which may be
 * newer than the header a program was built against.  Each minor release
 * is a version node of libpmurt.so.0's symbols (PMURT_0.5), so a program
 * using a function runs only with a library that has it. */
PMURT_API uint32_t pmurt_version(void);

/* Zero an options/result struct and set its size. */
#define PMURT_OPTS_INIT(type, ...) \
	((struct type){.sz = sizeof(struct type), __VA_ARGS__})

/* --- errors ---------------------------------------------------------------- */
/* Where an error is, when it is about a place (struct pmurt_error.where). */
enum pmurt_error_where {
	PMURT_ERROR_NOWHERE, /* no place (a system call, an argument, memory) */
	PMURT_ERROR_STRING,  /* bytes of the event string given: offset, length */
	PMURT_ERROR_FILE,    /* a description: source, line, column */
};

/* message is always NUL-terminated UTF-8 (as valid as the input it quotes).
 * A message too long for it (a long path or event name) is cut before the
 * last whole UTF-8 character that fits and ends with "...", so it is at most
 * 447 bytes and visibly shortened; the same holds for the reason and message
 * of struct pmurt_group_result.  The message names the place too, for
 * people; where and the fields after it give it to programs, as jansson's
 * json_error_t does (0.5; the struct kept its size: a caller built against
 * 0.4's header, whose message was 512 bytes, reads the same text). */
struct pmurt_error {
	int code;           /* negative errno, 0 when no error */
	char message[448];  /* names the place (file:line:col, node path, event) */
	enum pmurt_error_where where;
	int offset, length; /* STRING: the bytes at fault, 0-based */
	int line, column;   /* FILE: 1-based, 0 when unknown (a DTB, a node) */
	char source[44];    /* FILE: the file or device-tree path, its end kept
	                       ("...pmus/power10.yaml") when too long */
};

/* --- loading a description ------------------------------------------------- */
struct pmurt_pmu;

enum pmurt_source {
	PMURT_SOURCE_AUTO,    /* built-in name, DTB file, directory, or YAML */
	PMURT_SOURCE_BUILTIN, /* "power10" */
	PMURT_SOURCE_DTB,     /* a flattened device tree file */
	PMURT_SOURCE_DEVTREE, /* a /proc/device-tree style directory (its root) */
	PMURT_SOURCE_YAML,    /* a YAML description */
};

struct pmurt_open_opts {
	size_t sz;
	enum pmurt_source source;
	/* 0.4: the processor revision (the PVR, e.g. 0x004e1202 for a POWER9
	 * DD2.2) that chooses the description's revision-dependent checks
	 * (pvr-mask/pvr-value, such as the kernel's refused-code lists);
	 * 0: the description's own pvr. */
	uint32_t pvr;
};

/* Load a description: spec is a built-in name, a .dtb path, a device-tree
 * root directory (pmus/ nodes with compatible "ibm,power-pmu" are searched)
 * or a YAML path.  opts may be NULL (PMURT_SOURCE_AUTO).  On failure *pmu is
 * set to NULL (so pmurt_pmu_close(*pmu) is always safe); -ENOMEM when memory
 * ran out, -ENOENT for a missing file, -EINVAL for a bad description. */
PMURT_API int pmurt_pmu_open(struct pmurt_pmu **pmu, const char *spec,
			     const struct pmurt_open_opts *opts,
			     struct pmurt_error *err);
/* Load from a DTB in memory (copied); *pmu as for pmurt_pmu_open. */
PMURT_API int pmurt_pmu_open_dtb(struct pmurt_pmu **pmu, const void *blob,
				 size_t size, const char *name,
				 struct pmurt_error *err);
/* Free a handle; pmurt_pmu_close(NULL) does nothing. */
PMURT_API void pmurt_pmu_close(struct pmurt_pmu *pmu);

/* Built-in descriptions: the i-th name, or NULL past the end. */
PMURT_API const char *pmurt_builtin_name(int i);

struct pmurt_pmu_info {
	size_t sz;
	const char *name;       /* "POWER10 PMU" */
	const char *version;    /* "PowerISA 3.1" */
	const char *platform;   /* "power10" */
	const char *source;     /* where it was loaded from */
	int ncounters;
	int nregisters;
	int nevents;
	int max_group;          /* most events in one group */
	/* 0.3 */
	bool overflow_counter_unknown; /* the PMU cannot tell which counter
	                                  overflowed: a cpc-style sampler allows
	                                  one enabling only (false on POWER10) */
	int npresets;           /* pmurt_preset_get() indices 0 .. npresets-1 */
	/* 0.6: the platform of the description this one extends ("power10" for
	 * power11), NULL if none.  A description that extends another is the
	 * same PMU under another name, platform and processor versions: the
	 * same events, codes and rules (schema/description-format.md). */
	const char *extends;
	/* 0.6, too */
	int nfixed;             /* fixed-function counters among ncounters
	                           (POWER's PMC5/PMC6: 2) */
};
PMURT_API int pmurt_pmu_info(const struct pmurt_pmu *pmu, struct pmurt_pmu_info *info);
/* Name of control register i ("MMCR0" ...), NULL past the end. */
PMURT_API const char *pmurt_register_name(const struct pmurt_pmu *pmu, int i);

/* --- events ------------------------------------------------------------------ */
struct pmurt_event_info {
	size_t sz;
	const char *name;
	uint64_t code;
	const char *category;
	const char *event_class; /* "primary" | "alternative" */
	const char *description;
	bool firmware;           /* in the firmware device-tree set */
	const char *alias_of;    /* a firmware alias: the event with its code */
};

/* Event i (0 .. nevents-1).  Indices are positions in this handle's
 * description: the same description loaded from another source may order its
 * events differently (a live device tree lists nodes in hash order), so keep
 * names, not indices, across handles. */
PMURT_API int pmurt_event_get(const struct pmurt_pmu *pmu, int i,
			      struct pmurt_event_info *info);
/* By name, without case; returns the event index or -ENOENT (err suggests
 * the nearest name; with err NULL a miss costs no more than a hit, as no
 * suggestion is searched for). */
PMURT_API int pmurt_event_find(const struct pmurt_pmu *pmu, const char *name,
			       struct pmurt_event_info *info, struct pmurt_error *err);
/* By code; returns the event index or -ENOENT. */
PMURT_API int pmurt_event_find_code(const struct pmurt_pmu *pmu, uint64_t code,
				    struct pmurt_event_info *info);

/* --- other processor generations (PMURT_0.6) ---------------------------------
 * What the other built-in descriptions make of an event name or of a raw
 * code: a name of one generation may be missing from another, and a raw code
 * of one generation may count something else on another.  One entry per
 * built-in description whose PMU is not pmu's, in pmurt_builtin_name order
 * (so a new built-in description takes part without a change here).
 * Descriptions related by extends are one PMU: on power11 power10 is no
 * other generation (nor power11 on power10), and on power9 the power11 entry
 * gives POWER10's events, which are Power11's. */
struct pmurt_generation {
	const char *platform;   /* "power9" */
	const char *pmu_name;   /* "POWER9 PMU" */
	const char *event;      /* its event of that name or code, NULL if none */
	uint64_t code;          /* that event's code */
	bool firmware;          /* that event is a firmware event (no perf event
	                           has the code) */
};
/* name non-NULL: the event of that name, without case; name NULL: the first
 * event with code (a perf event before a firmware one).  None when pmu's
 * platform is no built-in description's (a toy, another vendor's PMU).  Fills out[0 ..
 * max-1], entries size bytes apart (sizeof(out[0]): a caller built against
 * an older header gets the fields it knows); returns how many entries there
 * are, which may exceed max, or -EINVAL. */
PMURT_API int pmurt_generations(const struct pmurt_pmu *pmu, const char *name, uint64_t code,
				struct pmurt_generation *out, int max, size_t size);

/* The exclude_* attributes, as bits of pmurt_event_spec.exclude. */
#define PMURT_EXCLUDE_USER   (1u << 0)
#define PMURT_EXCLUDE_KERNEL (1u << 1)
#define PMURT_EXCLUDE_HV     (1u << 3)
#define PMURT_EXCLUDE_IDLE   (1u << 4)

/* An event ready for perf_event_open: what one event string means. */
struct pmurt_event_spec {
	size_t sz;
	uint32_t type;          /* perf type: PERF_TYPE_RAW (4), HARDWARE, HW_CACHE */
	uint64_t config;        /* for RAW: the event code */
	uint64_t config1;       /* threshold compare (config1=) */
	uint64_t code;          /* the raw code the PMU will count */
	unsigned exclude;       /* PMURT_EXCLUDE_* */
	int precise;            /* perf's precise_ip, 0..3 (:p :pp :ppp) */
	uint64_t sample_period; /* 0 when counting */
	int event_index;        /* the named event, or -1 for a raw code */
	char name[64];          /* the event's name, or the string's code */
	uint64_t branch_sample_type; /* PERF_SAMPLE_BRANCH_* when sampling the
	                                branch stack, else 0 */
};

/*
 * Parse one event string (at most 1023 characters) into *spec, sized by the
 * caller (PMURT_OPTS_INIT); on success every field up to spec->sz is
 * written (branch_sample_type, which no string sets, to 0), on failure none.
 *   NAME             an event of the description, any case; perf's generic
 *                    names ("cycles", "cpu-cycles", "branches": type
 *                    PERF_TYPE_HARDWARE) and cache names
 *                    ("L1-dcache-load-misses", "l1d-loads": type
 *                    PERF_TYPE_HW_CACHE, config = cache | op << 8 |
 *                    result << 16), spelled exactly as perf spells them,
 *                    come first; code is the raw code they map to
 *   0xCODE, rCODE    a raw code (hex)
 *   TERM,TERM...     FIELD=N for the description's fields (decimal or 0x
 *                    hex, within the field's bits; config1 fields such as
 *                    thresh_cmp= go to config1), event= / config= for the
 *                    whole code, config1=, period=, name=, an event name
 *                    alone (the base code) or a field name alone (=1); also
 *                    inside perf's PMU wrapper "cpu/TERMS/"
 * followed by perf's modifiers :u :k :h :I :p (as perf combines them; also
 * right after "cpu/.../"), or the DTrace cpc form NAME-MODE[-MASK]-COUNT
 * (MODE user, kernel or all; MASK hex, into config1; COUNT the sampling
 * period).  Returns 0, -ENOENT (no such event), -EOPNOTSUPP (a generic or
 * cache event the PMU lacks, a perf modifier pmurt does not model) or
 * -EINVAL; the message quotes the part of the string that is wrong with its
 * offset and suggests the nearest name (with err NULL, neither the message
 * nor the suggestion is built).
 */
PMURT_API int pmurt_parse_event(const struct pmurt_pmu *pmu, const char *str,
				struct pmurt_event_spec *spec, struct pmurt_error *err);

/*
 * What perf_event_open would count for attr.type/attr.config, as the kernel's
 * power_pmu_event_init resolves it: PERF_TYPE_RAW (4) is the code itself;
 * PERF_TYPE_HARDWARE (0) goes through the description's generic events and
 * PERF_TYPE_HW_CACHE (3) through its cache table (config = cache | op << 8 |
 * result << 16).  Returns 0, -EOPNOTSUPP (the kernel's 0 entries, a generic
 * event the PMU lacks), -EINVAL (the kernel's -1 entries, out-of-range cache
 * ids) or -ENOENT (another type).  spec gets type, config, code and name.
 */
PMURT_API int pmurt_event_from_attr(const struct pmurt_pmu *pmu, uint32_t type,
				    uint64_t config, struct pmurt_event_spec *spec,
				    struct pmurt_error *err);

/* --- groups -------------------------------------------------------------------- */
/* Part of the ABI: struct pmurt_group_result's arrays are sized by them, so
 * they change only with a new version node. */
#define PMURT_MAX_GROUP 16
#define PMURT_MAX_REGS 8

struct pmurt_check_opts {
	size_t sz;
	bool per_task;  /* attached to a task (default true) */
	bool hv_mode;   /* the kernel runs in hypervisor mode (default false) */
	bool lpar;      /* under a hypervisor: exclude_hv honoured (default true) */
};

struct pmurt_group_result {
	size_t sz;
	bool ok;
	/* rejected */
	int reject_index;          /* the member whose perf_event_open fails */
	char reason[48];           /* "constraint_conflict", "pmc_gt_6", ... */
	char message[320];         /* names the events and the field in conflict */
	/* accepted */
	int n;
	bool alternatives_used;  /* some final code differs from the one asked for */
	uint64_t final_events[PMURT_MAX_GROUP];  /* codes after alternatives */
	int pmc[PMURT_MAX_GROUP];                /* counter per event, 1-based */
	int nregs;
	uint64_t regs[PMURT_MAX_REGS];           /* see pmurt_register_name() */
	/* 0.4, accepted groups: why the kernel refuses the group on its next
	 * schedule, "" when it does not.  The first schedule's commit writes
	 * final_events back into the members (power_pmu_commit_txn) and the
	 * next schedule checks them again as they are; where that check fails
	 * (POWER9's PMC4 group rule, which the search for alternatives never
	 * applies) every later schedule gets -EAGAIN and the group counts in
	 * its first time slice only. */
	char reschedule_reason[48];
	char reschedule_message[320];
};

/* Check a group (leader first) as the kernel's group flow does and compute
 * its control-register values as compute_mmcr returns them.  events is an
 * array of n specs, each event_sz bytes apart: pass sizeof(events[0]), as
 * libbpf's func_info_rec_size, so that a caller built against an older,
 * smaller struct pmurt_event_spec is read at its own stride.  Every spec's
 * sz must equal event_sz, and the bytes of a newer, larger spec beyond the
 * fields this library knows must be zero.  Returns 0 when the check ran
 * (res->ok tells the answer), or a negative errno (-EINVAL for a bad
 * argument, -E2BIG for unknown non-zero fields). */
PMURT_API int pmurt_group_check(const struct pmurt_pmu *pmu,
				const struct pmurt_event_spec *events, int n,
				size_t event_sz, const struct pmurt_check_opts *opts,
				struct pmurt_group_result *res, struct pmurt_error *err);


/* --- vpa_dtl: the Dispatch Trace Log -------------------------------------------
 * The vpa_dtl PMU (arch/powerpc/perf/vpa-dtl.c) copies the hypervisor's
 * Dispatch Trace Log into the AUX buffer in 48-byte slots: one header slot
 * written once per AUX buffer at offset 0 (boot_tb, tb_freq, a zero
 * timebase, in the kernel's byte order), then entries whose fields are
 * big-endian.  These functions decode such bytes wherever they come from
 * (a perf.data AUXTRACE record, a raw dump, a live AUX area). */
#define PMURT_DTL_SLOT_SIZE 48
/* Used for times when a stream carries no header (POWER's timebase runs at
 * 512 MHz on every POWER8/9/10 system). */
#define PMURT_DTL_DEFAULT_TB_FREQ 512000000ull

/* One entry (struct dtl_entry, arch/powerpc/include/asm/lppaca.h), fields
 * in host order.  The three times are timebase ticks. */
struct pmurt_dtl_entry {
	uint8_t dispatch_reason;
	uint8_t preempt_reason;
	uint16_t processor_id;
	uint32_t enqueue_to_dispatch_time;
	uint32_t ready_to_enqueue_time;
	uint32_t waiting_to_ready_time;
	uint64_t timebase;
	uint64_t fault_addr;
	uint64_t srr0;
	uint64_t srr1;
};

/* The header slot.  Its byte order is the kernel's: byte_swapped is true
 * when it was written in the other order than this host's, which is told
 * by tb_freq (the order giving the smaller non-zero value wins; a real
 * tb_freq such as 512000000 swapped is above 2^56).  boot_tb and tb_freq
 * are given in that detected order. */
struct pmurt_dtl_header {
	uint64_t boot_tb;
	uint64_t tb_freq;
	bool byte_swapped;
};

/* Decode a slot as an entry (big-endian fields). */
PMURT_API void pmurt_dtl_entry_decode(const void *slot, struct pmurt_dtl_entry *e);
/* A header slot is one whose timebase (bytes 16..23) is zero, as perf tells
 * it (powerpc-vpadtl.c); returns whether slot is one, filling h if so. */
PMURT_API bool pmurt_dtl_header_decode(const void *slot, struct pmurt_dtl_header *h);

/* The reason strings exactly as perf prints them (powerpc-vpadtl.c
 * dispatch_reasons[], preempt_reasons[]), or NULL for a code past perf's
 * arrays (dispatch > 10, preempt > 9: perf reads past the array there). */
PMURT_API const char *pmurt_dtl_dispatch_reason(unsigned code);
PMURT_API const char *pmurt_dtl_preempt_reason(unsigned code);
/* For printing: the string above, or our answer for a code out of range,
 * "unknown_<code>" written into buf (a word, like perf's strings, so
 * comma-separated output still splits). */
PMURT_API const char *pmurt_dtl_reason_text(bool preempt, unsigned code, char buf[16]);

/* Whether perf skips the entry: a timebase that is zero or negative as a
 * signed 64-bit value (powerpc-vpadtl.c powerpc_vpadtl_decode). */
PMURT_API bool pmurt_dtl_entry_skipped(const struct pmurt_dtl_entry *e);
/* A timebase in ns since boot, as perf computes it (powerpc_vpadtl_timestamp):
 * 0 for a zero timebase, else (u64)((double)(tb - boot_tb) / tb_freq * 1e9)
 * with u64 wraparound on the difference, so it can be 1 ns below the exact
 * value.  A tb_freq of 0 gives 0, a value past 2^64-1 saturates (where perf's
 * conversion is undefined). */
PMURT_API uint64_t pmurt_dtl_time_perf(uint64_t timebase, const struct pmurt_dtl_header *h);
/* The exact value, floor((tb - boot_tb) * 1e9 / tb_freq) in integers, with
 * the same zero, wraparound and saturation rules. */
PMURT_API uint64_t pmurt_dtl_time_exact(uint64_t timebase, const struct pmurt_dtl_header *h);

/* Walking a buffer of DTL bytes slot by slot. */
enum pmurt_dtl_slot_kind {
	PMURT_DTL_ENTRY,   /* an entry to use */
	PMURT_DTL_HEADER,  /* the header slot (cursor->header filled) */
	PMURT_DTL_SKIPPED, /* an entry perf skips (pmurt_dtl_entry_skipped) */
	PMURT_DTL_STALE,   /* the stale tail the driver reports at each wrap */
};

struct pmurt_dtl_slot {
	enum pmurt_dtl_slot_kind kind;
	size_t offset;                 /* in the buffer */
	size_t len;                    /* 48, or the stale bytes' length */
	struct pmurt_dtl_entry entry;  /* ENTRY and SKIPPED */
};

/* The position in one buffer: set it with pmurt_dtl_cursor_init, then call
 * pmurt_dtl_next until it returns 0; pos says how far it got, so a caller
 * may stop and resume.  Give aux_size (the AUX area's size, a power of two)
 * and aux_offset (the AUX position of data[0], PERF_RECORD_AUXTRACE's
 * offset) to have the stale tail split off at each wrap: the driver fills
 * (aux_size - 32) / 48 slots, then wraps and reports the bytes up to
 * aux_size too (vpa-dtl.c).  aux_size 0: no wrap is looked for.
 * first_chunk: data starts the AUX buffer's life, so a slot at 0 with a zero
 * timebase is the header. */
struct pmurt_dtl_cursor {
	const uint8_t *data;
	size_t len;
	size_t pos;
	uint64_t aux_offset;
	uint64_t aux_size;
	bool first_chunk;
	bool have_header;
	struct pmurt_dtl_header header;
};
PMURT_API void pmurt_dtl_cursor_init(struct pmurt_dtl_cursor *c, const void *data, size_t len,
				     uint64_t aux_offset, uint64_t aux_size, bool first_chunk);
/* The next slot: 1 with *slot filled, 0 at the end, or -EINVAL for data that
 * ends inside a slot ("offset 0x...: truncated DTL slot, N of 48 bytes";
 * pos then moves to the end) or an AUX position off the 48-byte grid. */
PMURT_API int pmurt_dtl_next(struct pmurt_dtl_cursor *c, struct pmurt_dtl_slot *slot,
			     struct pmurt_error *err);
/* --- presets: PAPI's generic names (PSARC 2008/334), since 0.3 ----------------
 * A description may give PAPI presets (papi_events.csv): a generic name for
 * one event ("PAPI_L2_DCM" is PM_DATA_FROM_L2MISS on POWER10), or for a
 * combination of events computed from their counts (derived).  Names match
 * without case.  pmurt_parse_event accepts a preset of one event wherever an
 * event name goes (also in the cpc form, "PAPI_l2_dcm-all-10000"); a derived
 * one is refused there with -EOPNOTSUPP, since it is no single event that can
 * be opened or sampled: count its events and combine them with
 * pmurt_preset_eval.
 */
#define PMURT_PRESET_MAX_EVENTS 8

enum pmurt_preset_kind {
	PMURT_PRESET_EVENT,   /* one event (PAPI's NOT_DERIVED) */
	PMURT_PRESET_ADD,     /* the sum of the events (DERIVED_ADD) */
	PMURT_PRESET_SUB,     /* the first minus the others (DERIVED_SUB) */
	PMURT_PRESET_POSTFIX, /* a postfix formula over them (DERIVED_POSTFIX) */
};

struct pmurt_preset_info {
	size_t sz;
	const char *name;        /* as the description spells it: "PAPI_L1_DCM" */
	const char *description; /* NULL when the description gives none */
	enum pmurt_preset_kind kind;
	bool derived;            /* kind != PMURT_PRESET_EVENT */
	int nevents;             /* 1 .. PMURT_PRESET_MAX_EVENTS */
	const char *events[PMURT_PRESET_MAX_EVENTS]; /* member names, N0 first */
	uint64_t codes[PMURT_PRESET_MAX_EVENTS];     /* their raw codes */
	const char *postfix;     /* POSTFIX: PAPI's formula ("N0|N1|-|"), else NULL */
	char formula[160];       /* in words: "PM_RUN_CYC - PM_1PLUS_PPC_DISP" */
};

/* Preset i (0 .. pmurt_pmu_info's npresets - 1); -ENOENT past the end,
 * -EINVAL for a bad argument.  info->sz as for every sized struct. */
PMURT_API int pmurt_preset_get(const struct pmurt_pmu *pmu, int i,
			       struct pmurt_preset_info *info);
/* By name, without case (ASCII); returns the preset's index or -ENOENT (err
 * suggests the nearest preset name).  info may be NULL. */
PMURT_API int pmurt_preset_find(const struct pmurt_pmu *pmu, const char *name,
				struct pmurt_preset_info *info, struct pmurt_error *err);

struct pmurt_preset_value {
	size_t sz;
	int64_t value;  /* num / den, truncated toward zero */
	bool exact;     /* den == 1: value is the formula's exact result */
	int64_t num;    /* the exact result as a reduced fraction, den > 0 */
	int64_t den;
};

/*
 * The value of preset index from its members' counts (counts[k] is event k's
 * count, ncounts its nevents; a non-derived preset's value is its one
 * count).  Computed exactly, in 64-bit integers: add and sub sum and
 * subtract, a postfix formula's constants and operators (+ - * /) work on
 * exact fractions, so "N0|512|128|/|*|" is N0 * 4 with nothing lost; a
 * non-integral result is reported as num/den and value truncates it toward
 * zero (PAPI computes in double).  A result may be negative (sub of counts
 * taken over different times).  Returns 0; -ERANGE when a count exceeds
 * INT64_MAX or any intermediate value does not fit 64 bits (no wrapped or
 * rounded value is returned); -EDOM when the formula divides by zero (a
 * member's count was 0); -EINVAL for a bad argument.
 */
PMURT_API int pmurt_preset_eval(const struct pmurt_pmu *pmu, int index,
				const uint64_t *counts, int ncounts,
				struct pmurt_preset_value *out, struct pmurt_error *err);

/* --- metrics: perf's metrics (PMURT_0.5) -------------------------------------
 * A description may carry perf's metrics (pmu-events' MetricName entries):
 * a value computed from events' counts by an expression in perf's grammar,
 * with a ';'-separated list of metric groups.  Names of metrics and groups
 * match without case.  A metric's events are its expression's, other
 * metrics named in it included, each once, in order of first use.
 */
#define PMURT_METRIC_MAX_EVENTS 32
#define PMURT_METRIC_NLITERALS 8  /* perf's #literals, in this order: */
/* #smt_on #core_wide #num_cpus #num_cpus_online #num_cores #num_dies
 * #num_packages #system_tsc_freq */

struct pmurt_metric_info {
	size_t sz;
	const char *name;        /* perf's MetricName */
	const char *expr;        /* perf's MetricExpr */
	const char *groups;      /* perf's MetricGroup (';'-separated), or NULL */
	const char *description; /* BriefDescription, or NULL */
	const char *scale_unit;  /* ScaleUnit ("1%", "5.24e-1MB"), or NULL */
	const char *threshold;   /* MetricThreshold, or NULL */
	const char *pmus;        /* nest metrics: the other PMUs whose events they
	                            name (space-separated), else NULL */
	int nevents;             /* the events the value needs */
	/* each event's index (pmurt_event_get), -1 for another PMU's event */
	int event_index[PMURT_METRIC_MAX_EVENTS];
	double scale;            /* ScaleUnit's factor (1 when none) */
	char unit[16];           /* ScaleUnit's unit ("%", "MB"; "" when none) */
};

/* Metric i (0 .. pmurt_metric_count() - 1); -ENOENT past the end, -E2BIG
 * when it needs more than PMURT_METRIC_MAX_EVENTS events. */
PMURT_API int pmurt_metric_get(const struct pmurt_pmu *pmu, int i,
			       struct pmurt_metric_info *info);
PMURT_API int pmurt_metric_count(const struct pmurt_pmu *pmu);
/* By name, without case: the first metric so named (perf's POWER10 gives
 * one twice, with the same expression); its index or -ENOENT (err suggests
 * the nearest metric name).  info may be NULL. */
PMURT_API int pmurt_metric_find(const struct pmurt_pmu *pmu, const char *name,
				struct pmurt_metric_info *info, struct pmurt_error *err);
/* Metric group i, in order of first appearance: its name (as first spelled)
 * into buf and the number of metrics in it; -ENOENT past the end. */
PMURT_API int pmurt_metric_group_get(const struct pmurt_pmu *pmu, int i, char *buf,
				     size_t len);
/* Whether metric index belongs to group (without case). */
PMURT_API bool pmurt_metric_in_group(const struct pmurt_pmu *pmu, int index,
				     const char *group);

struct pmurt_metric_value {
	size_t sz;
	double value;   /* perf's value, in double as perf computes it (NAN on
	                   a division by zero); ScaleUnit not applied */
	bool exact;     /* num/den hold the value exactly */
	int64_t num;    /* reduced, den > 0 */
	int64_t den;
};

/* The value of metric index from its events' counts (counts[k] for
 * info.event_index[k], ncounts = info.nevents) and perf's literals
 * (PMURT_METRIC_NLITERALS values, NULL when the metric names none).
 * Exact where 64-bit fractions hold it (numbers such as 1e-9 are exact
 * fractions), as pmurt_preset_eval: returns 0 with out->exact; -ERANGE
 * when no 64-bit fraction holds the value (out->value is still perf's
 * double); -EDOM on a division by zero (out->value NAN, as perf); -ENOENT
 * when a literal is needed and literals is NULL; -EINVAL. */
PMURT_API int pmurt_metric_eval(const struct pmurt_pmu *pmu, int index,
				const uint64_t *counts, int ncounts, const int64_t *literals,
				struct pmurt_metric_value *out, struct pmurt_error *err);

/*
 * Packing: events into the fewest groups the PMU accepts.  Given metric
 * names, metric group names and plain event strings (any case; a name is
 * tried as a metric, then a metric group, then an event), finds groups
 * such that every metric's events are together in at least one group (its
 * ratio is measured within one time slice), each event once per group,
 * PMC5/PMC6 events placed wherever they fit, and each group accepted by
 * pmurt_group_check with opts (alternatives allowed).  A metric whose
 * events no group can hold is measured apart (each event in some group)
 * and flagged with the group check's reason.  The result is an object read
 * with the accessors below and freed with pmurt_pack_free.
 */
struct pmurt_pack;

PMURT_API int pmurt_pack(const struct pmurt_pmu *pmu, const char *const *names, int n,
			 const struct pmurt_check_opts *opts, struct pmurt_pack **out,
			 struct pmurt_error *err);
PMURT_API void pmurt_pack_free(struct pmurt_pack *pack);

struct pmurt_pack_info {
	size_t sz;
	int ngroups;
	int nevents;    /* distinct events */
	int nmetrics;   /* metrics asked for (groups expanded, duplicates once) */
	int napart;     /* metrics no group holds whole */
	int bound;      /* no fewer groups can hold the events: the most events
	                   one counter must take, or the programmable events
	                   over the programmable counters (events with an
	                   alternative code left out), each event counted once
	                   per group it must be in (a metric measured whole
	                   puts an event beside each of its metric partners,
	                   at most one per counter and programmable counters
	                   less one per group) */
};
PMURT_API int pmurt_pack_info(const struct pmurt_pack *pack, struct pmurt_pack_info *info);

/* Group g: its events (as pmurt_parse_event gave them) and the group check's
 * answer (ok, final codes, counters, MMCRs). */
PMURT_API int pmurt_pack_group(const struct pmurt_pack *pack, int g,
			       const struct pmurt_event_spec **events, int *n,
			       const struct pmurt_group_result **check);

struct pmurt_pack_metric {
	size_t sz;
	int index;          /* the metric (pmurt_metric_get), -1 for a plain event */
	const char *name;   /* the metric's or the event's */
	int group;          /* the group measuring it whole, -1 when apart */
	bool apart;         /* no group can hold its events together */
	char reason[48];    /* apart: the group check's reason */
	char message[320];  /* apart: the group check's message */
	int nevents;
	int event_group[PMURT_METRIC_MAX_EVENTS]; /* apart: where each event is */
};
/* Metric (or plain event) i of the request, in request order. */
PMURT_API int pmurt_pack_metric_get(const struct pmurt_pack *pack, int i,
				    struct pmurt_pack_metric *m);

/* --- counting on a live host (PMURT_0.3) ------------------------------------- */
/*
 * A host is where events are opened: its sysfs PMUs
 * (SYSFS/bus/event_source/devices/NAME), its tracepoints (tracefs) and its
 * core PMU's description.  Event strings are perf's -e strings: "A,B",
 * groups "{A,B,C}", "cpu/TERMS/", bare POWER names and raw codes through the
 * description, "PMU/TERMS/" for any sysfs PMU ("msr/tsc/",
 * "vpa_dtl/dtl_all/"), software events ("task-clock"), perf's generic and
 * cache names, tracepoints ("sched:sched_switch") and perf's modifiers.
 */
struct pmurt_host;
struct pmurt_sys; /* pmurt_tool.h */

struct pmurt_host_opts {
	size_t sz;
	const char *sysfs;    /* stands for /sys; NULL: $PMURT_SYSFS, else /sys */
	const char *tracefs;  /* NULL: SYSFS/kernel/tracing, then
	                         SYSFS/kernel/debug/tracing */
	const char *pmu;      /* the core description as for pmurt_pmu_open;
	                         NULL: picked from the host (the device tree's
	                         pmus node, else the built-in matching the cpu
	                         PMU's pmu_name, the PVR by the descriptions'
	                         processor versions, or AT_PLATFORM); none on
	                         other hosts */
	const char *devtree;  /* NULL: /proc/device-tree (for the pick) */
	/* 0.5 */
	uint32_t pvr;         /* the processor revision choosing the core
	                         description's revision-dependent checks, as
	                         pmurt_open_opts.pvr; 0: the host's
	                         (/proc/cpuinfo) */
	const struct pmurt_sys *sys; /* the kernel it talks to (pmurt_tool.h):
	                         NULL, the real one; a tool's tests hand in a
	                         simulated one */
};

/* *host NULL on failure (a description that does not load).  A host whose
 * core description was not found still opens: its events then cannot name
 * core events, and the message saying so tells what the pick looked for. */
PMURT_API int pmurt_host_open(struct pmurt_host **host, const struct pmurt_host_opts *opts,
			      struct pmurt_error *err);
/* The core description, or NULL; it lives as long as the host. */
PMURT_API const struct pmurt_pmu *pmurt_host_pmu(const struct pmurt_host *host);
PMURT_API void pmurt_host_close(struct pmurt_host *host);

struct pmurt_host_info {
	size_t sz;
	const char *sysfs;    /* the roots in use */
	const char *tracefs;  /* "" when none was found at open (on the running
	                         system a tracepoint named in an event list
	                         mounts it then, as perf does) */
	const char *picked;   /* what picked the core description ("the cpu
	                         PMU's pmu_name 'Power11' (...)", "the device
	                         tree's pmus node (...)"), or without one what
	                         was looked for;
	                         "" when pmurt_host_opts.pmu named it */
};
/* Where the host's parts came from; strings live as long as the host.
 * (PMURT_0.5) */
PMURT_API int pmurt_host_info(const struct pmurt_host *host, struct pmurt_host_info *info);
/* 0 when host's sysfs has a PMU named name (bus/event_source/devices/NAME);
 * -ENOENT with err saying where it looked, and for vpa_dtl where such a PMU
 * exists (a shared-processor LPAR under PowerVM); -EINVAL for a bad
 * argument.  (PMURT_0.6) */
PMURT_API int pmurt_host_pmu_present(const struct pmurt_host *host, const char *name,
				     struct pmurt_error *err);

/* The events host names beyond its core description, as perf list shows
 * them (PMURT_0.6): perf's software events (alias: "cs" for
 * context-switches), each sysfs PMU's named events but the core PMU's
 * ("msr/tsc/"), the tracepoints ("sched:sched_switch"; tracefs mounted as
 * for a tracepoint in an event list), each kind sorted by name.  fn is
 * called for each; its non-zero return stops the walk and is returned.
 * Strings live for the call only.  0, or -EINVAL / -ENOMEM with err. */
enum pmurt_listed_kind {
	PMURT_LISTED_SOFTWARE,
	PMURT_LISTED_PMU_EVENT,
	PMURT_LISTED_TRACEPOINT,
};
struct pmurt_listed_event {
	size_t sz;
	enum pmurt_listed_kind kind;
	const char *name;
	const char *alias;   /* NULL when none */
};
PMURT_API int pmurt_host_events(const struct pmurt_host *host,
				int (*fn)(void *ctx, const struct pmurt_listed_event *e),
				void *ctx, struct pmurt_error *err);

/* --- event lists: a string parsed once (PMURT_0.5) ----------------------------
 * An event list is perf's evlist: the events of one or more -e strings, each
 * with its PMU, its struct perf_event_attr and its group, parsed once on a
 * host.  A profiler inspects it (pmurt_evlist_event), adjusts it
 * (pmurt_evlist_set_period), checks its groups (pmurt_evlist_group_check)
 * and opens it as often as it needs (pmurt_counter_open_list,
 * pmurt_record_open): libbpf's open, then load.  The list borrows its host;
 * what is opened from it borrows the list.  The string forms
 * (pmurt_counter_open) parse a list of their own.
 */
struct pmurt_evlist;

struct pmurt_evlist_opts {
	size_t sz;
	bool derived_presets; /* a derived PAPI preset written alone as an item
	                         ("PAPI_L1_TCM:u") is the group of its events
	                         ({N0,N1}:u), whose counts pmurt_preset_eval
	                         combines (pmurt_evsel_info.preset); without it
	                         such a preset is refused (-EOPNOTSUPP), as by
	                         pmurt_parse_event */
};

/* An empty list on host; *list NULL on failure. */
PMURT_API int pmurt_evlist_new(struct pmurt_evlist **list, struct pmurt_host *host,
			       const struct pmurt_evlist_opts *opts, struct pmurt_error *err);
/* Parse str, perf's -e syntax (see the counting section below: "A,B",
 * groups "{A,B}:u", "PMU/TERMS/", tracepoints, the description's names and
 * codes, generic and cache names, software events, modifiers), and append
 * its events: 0, or a negative errno with err naming the bytes of str at
 * fault (where PMURT_ERROR_STRING), the list as it was. */
PMURT_API int pmurt_evlist_add(struct pmurt_evlist *list, const char *str,
			       struct pmurt_error *err);
/* pmurt_evlist_new and pmurt_evlist_add. */
PMURT_API int pmurt_evlist_parse(struct pmurt_evlist **list, struct pmurt_host *host,
				 const char *str, const struct pmurt_evlist_opts *opts,
				 struct pmurt_error *err);
/* A pack's groups (pmurt_pack, of the host's description), each a group of
 * the list, as pmutool stat -M counts metrics. */
PMURT_API int pmurt_evlist_add_pack(struct pmurt_evlist *list, const struct pmurt_pack *pack,
				    struct pmurt_error *err);
/* pmurt_evlist_free(NULL) does nothing. */
PMURT_API void pmurt_evlist_free(struct pmurt_evlist *list);
PMURT_API int pmurt_evlist_nevents(const struct pmurt_evlist *list);

enum pmurt_evsel_kind {
	PMURT_EVSEL_CORE,       /* an event of the description (name, code, cpu/.../) */
	PMURT_EVSEL_HARDWARE,   /* perf's generic hardware events ("cycles") */
	PMURT_EVSEL_CACHE,      /* perf's generic cache events */
	PMURT_EVSEL_SOFTWARE,   /* "task-clock", "page-faults", ... */
	PMURT_EVSEL_TRACEPOINT, /* "sched:sched_switch" */
	PMURT_EVSEL_SYSFS,      /* another sysfs PMU's event ("msr/tsc/") */
	PMURT_EVSEL_BREAKPOINT, /* 0.6: "mem:0x601040:w", a hardware breakpoint */
	PMURT_EVSEL_TOOL,       /* 0.6: perf's tool events ("duration_time"; see
	                           pmurt_tool_event): the library measures them,
	                           they open no perf_event fd */
};

/* perf's tool events (tools/perf/util/evsel.h perf_tool_event, perf 6.1), in
 * nanoseconds (unit "ns"), pmu "tool".  Their attr is perf's, type
 * PERF_TYPE_SOFTWARE and config PERF_COUNT_SW_DUMMY, but nothing opens it:
 * pmurt_counter_read gives value = time_enabled = time_running (0: never
 * counted, as perf shows it), once however many CPUs or threads the counter
 * spans.  Modifiers are taken and ignored; alone only, not in a group. (0.6) */
enum pmurt_tool_event {
	PMURT_TOOL_NONE,          /* not a tool event */
	PMURT_TOOL_DURATION_TIME, /* "duration_time": wall-clock time since the
	                             counter was enabled (pmurt_counter_enable;
	                             with enable_on_exec, since the open) */
	PMURT_TOOL_USER_TIME,     /* "user_time": user CPU time of the caller's
	                             children reaped since the open (getrusage
	                             RUSAGE_CHILDREN: perf 6.1's wait4 rusage of
	                             its workload) */
	PMURT_TOOL_SYSTEM_TIME,   /* "system_time": their system CPU time */
};

struct perf_event_attr; /* <linux/perf_event.h> */

/* Event i of a list.  Pointers live until the list changes or is freed. */
struct pmurt_evsel_info {
	size_t sz;
	const char *name;       /* as written ("PM_LD_MISS_L1:u"), or its name= */
	const char *pmu;        /* "cpu", "software", "tracepoint", "msr", ... */
	enum pmurt_evsel_kind kind;
	const struct perf_event_attr *attr; /* as parsed: type, config, config1,
	                           config2, exclude bits, precise_ip and the
	                           event's own sample period; what counting or
	                           recording adds is pmurt_counter_attr's */
	uint32_t attr_size;     /* the library's sizeof(struct perf_event_attr) */
	int leader;             /* its group's leader (itself when it leads) */
	int group_size;         /* its group's events, itself included; 1 alone */
	unsigned exclude;       /* its modifiers, the group's included:
	                           PMURT_EXCLUDE_* bits ... */
	int precise;            /* ... and the precise level (:p, :pp, :ppp) */
	double scale;           /* count * scale is in unit (sysfs .scale; the
	                           clocks' ns in msec) */
	const char *unit;       /* sysfs .unit or "msec", "" for none */
	bool per_cpu_only;      /* its PMU counts CPUs only (a cpumask, vpa_dtl) */
	const char *cpumask;    /* that cpumask ("0-7"), "" when none */
	int string;             /* the pmurt_evlist_add call it came from, 0 for
	                           the first; -1 for a pack's group */
	int offset, length;     /* its bytes in that string (a preset's group:
	                           the preset's) */
	int preset;             /* the derived preset whose event it is
	                           (pmurt_preset_get's index), else -1 */
	int pack_group;         /* the pack's group it counts (pmurt_pack_group),
	                           else -1 */
	const struct pmurt_event_spec *spec; /* an event the description resolved
	                           (kind CORE, HARDWARE or CACHE on a host with
	                           one): its spec as pmurt_group_check takes it,
	                           else NULL */
	bool sample_read;       /* perf's :S ("{A,B}:S", leader sampling): a
	                           recording's samples of its group's leader read
	                           the group's counters (PERF_SAMPLE_READ), its
	                           members do not sample; counting ignores it, as
	                           perf stat does */
	enum pmurt_tool_event tool; /* 0.6: kind TOOL's event, else PMURT_TOOL_NONE */
};
/* 0, -ENOENT past the end, -EINVAL for a bad argument. */
PMURT_API int pmurt_evlist_event(const struct pmurt_evlist *list, int i,
				 struct pmurt_evsel_info *info);
/* Sample event i every period events (its attr's sample_period, freq off),
 * for sampling (pmurt_record_open) when the string could not say it. */
PMURT_API int pmurt_evlist_set_period(struct pmurt_evlist *list, int i, uint64_t period);
/* The group led by event leader as the kernel checks it before opening:
 * its events of the host's description through pmurt_group_check with
 * opts; res->n 0 and no reason when it has none.  0 when the check ran
 * (res->ok tells), -EINVAL when leader leads no group. */
PMURT_API int pmurt_evlist_group_check(const struct pmurt_evlist *list, int leader,
				       const struct pmurt_check_opts *opts,
				       struct pmurt_group_result *res, struct pmurt_error *err);

struct pmurt_counter;

struct pmurt_counter_opts {
	size_t sz;
	int pid;              /* the task (0: the caller), with cpus NULL */
	bool inherit;         /* count the task's children too */
	const int *cpus;      /* count these CPUs (all tasks) instead */
	int ncpus;
	bool enable_on_exec;  /* start counting when the task calls exec */
	bool skip_unsupported; /* leave out an event the host cannot count, as
	                          perf stat does (its open fails with EINVAL,
	                          ENOSYS, ENOENT, EOPNOTSUPP or ENXIO; a group
	                          member of a leader left out goes too): see
	                          pmurt_count.skipped.  Only when every event is
	                          left out is the open an error (the first
	                          failure's).  A caller's smaller struct (its
	                          sz short of this field) means false. */
};

/* Open a list's events (each group's leader disabled until
 * pmurt_counter_enable, or the task's exec with enable_on_exec); the
 * counter borrows the list, which must outlive it, and may be opened from
 * it again (each run of a command, each thread of a process).  A group of
 * core events goes through pmurt_group_check first: one that cannot fit is
 * refused (-EINVAL) with the check's reason before any system call.  A
 * failed perf_event_open is returned as its negative errno with a message
 * saying what to do about it (perf_event_paranoid, CAP_PERFMON, a PMU the
 * host lacks, per-CPU-only PMUs, groups spanning PMUs, sampling, EBUSY,
 * exclude bits).  *c NULL on failure.  (PMURT_0.5) */
PMURT_API int pmurt_counter_open_list(struct pmurt_counter **c, const struct pmurt_evlist *list,
				      const struct pmurt_counter_opts *opts,
				      struct pmurt_error *err);
/* The string form: events parsed into a list the counter owns, then
 * opened as pmurt_counter_open_list does. */
PMURT_API int pmurt_counter_open(struct pmurt_counter **c, struct pmurt_host *host,
				 const char *events, const struct pmurt_counter_opts *opts,
				 struct pmurt_error *err);
/* The attr pmurt_counter_open_list opens event i with under opts (NULL:
 * the defaults), into attr (attr_size bytes, the caller's
 * sizeof(struct perf_event_attr); a larger one zero past the library's),
 * for a dry run.  0 or -EINVAL; since 0.6, -ENOENT for a tool event, which
 * opens nothing (attr gets its parsed attr all the same).  (PMURT_0.5) */
PMURT_API int pmurt_counter_attr(const struct pmurt_evlist *list, int i,
				 const struct pmurt_counter_opts *opts, struct perf_event_attr *attr,
				 size_t attr_size);
/* What pmurt_counter_open_list refuses of list under opts by its events'
 * PMUs alone, before any system call, for a dry run: a vpa_dtl event
 * counted per task (the PMU has no task context; -EINVAL with the message
 * the open gives).  0 when it refuses none of them.  (PMURT_0.6) */
PMURT_API int pmurt_counter_refusal(const struct pmurt_evlist *list,
				    const struct pmurt_counter_opts *opts,
				    struct pmurt_error *err);
PMURT_API int pmurt_counter_enable(struct pmurt_counter *c, struct pmurt_error *err);
PMURT_API int pmurt_counter_disable(struct pmurt_counter *c, struct pmurt_error *err);
PMURT_API int pmurt_counter_reset(struct pmurt_counter *c, struct pmurt_error *err);

struct pmurt_count {
	size_t sz;
	const char *name;       /* as written in the event string */
	const char *pmu;        /* "cpu", "software", "tracepoint", "msr", ... */
	const char *unit;       /* the sysfs .unit or "msec", "" for none */
	double scale;           /* value * scale is in unit (sysfs .scale) */
	int leader;             /* index of its group's leader */
	uint64_t value;         /* counted, summed over the CPUs */
	uint64_t time_enabled;  /* ns, summed over the CPUs */
	uint64_t time_running;
	uint64_t scaled;        /* value * enabled / running (multiplexing),
	                           exact, saturating; 0 when it never ran */
	int skipped;            /* 0: opened; else the errno that left it out
	                           (skip_unsupported): its own open's (perf's
	                           <not supported>), or ECANCELED for a member
	                           of a group whose leader was left out;
	                           written when count_sz holds it */
};

/* Read every event (PERF_FORMAT_GROUP | PERF_FORMAT_ID, one read per group
 * and CPU) into counts[0..n), each count_sz bytes apart (sizeof counts[0]);
 * returns the number of events, or a negative errno. */
PMURT_API int pmurt_counter_read(struct pmurt_counter *c, struct pmurt_count *counts, int n,
				 size_t count_sz, struct pmurt_error *err);
/* Number of events opened. */
PMURT_API int pmurt_counter_nevents(const struct pmurt_counter *c);
/* Closes every fd; pmurt_counter_close(NULL) does nothing. */
PMURT_API void pmurt_counter_close(struct pmurt_counter *c);

/* value * enabled / running without overflow (128-bit product), at most
 * UINT64_MAX; value when running >= enabled, 0 when running is 0. */
PMURT_API uint64_t pmurt_count_scale(uint64_t value, uint64_t enabled, uint64_t running);

/* --- perf.data files (PMURT_0.3) ------------------------------------------ */
/*
 * Reading what `perf record` (or pmutool record) wrote: the header, the
 * events with their attrs and ids, the feature sections, and the records of
 * the data section one by one, each with its event found by sample id and its
 * sample fields parsed as the event's sample_type lays them out (samples) or
 * as its sample_id_all trailer does (other kernel records).  The file is
 * mapped read-only; pointers into a record stay valid until close.  A file
 * in the producer's opposite byte order, perf's pipe format and zstd
 * compressed records (`perf record -z`) are refused with a message.  Any
 * corrupt or truncated part is an -EINVAL naming the path and the file
 * offset ("perf.data: offset 0x1a8: ..."), never a crash.
 */
struct pmurt_perf_file;

struct pmurt_perf_info {
	size_t sz;
	int nevents;
	uint64_t data_offset, data_size;  /* the data section */
	uint64_t features[4];             /* HEADER_* feature bits present */
	/* feature sections (NULL / 0 when absent) */
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	const char *cmdline;              /* arguments joined by spaces */
	uint32_t nr_cpus_avail, nr_cpus_online;
	/* HEADER_TRACING_DATA: the tracepoints' formats, as perf record
	 * writes them (perf's util/trace-event-info.c) */
	const void *tracing_data;
	uint64_t tracing_data_size;
	/* 0.6: HEADER_SAMPLE_TIME, the first and last sample's times (0, 0
	 * when absent), what perf report --time 10%-20% is a share of */
	uint64_t first_sample_time, last_sample_time;
	/* 0.6: perf's pipe format (perf record -o -): attrs, features and
	 * names from records at the data's start */
	bool pipe_format;
};

struct pmurt_perf_event_info {
	size_t sz;
	const char *name;       /* from the event-description feature, or
	                           "TYPE:CONFIG" ("1:0") when the file has none */
	const void *attr;       /* struct perf_event_attr as written */
	uint32_t attr_size;     /* its bytes in the file */
	uint32_t type;
	uint64_t config, sample_type, read_format, sample_period;
	bool freq, sample_id_all;
	const uint64_t *ids;
	int nids;
	/* 0.6: its group, from HEADER_GROUP_DESC (perf record -e '{a,b}'):
	 * the index of the event leading it (e itself when it leads or is
	 * alone), for a leader the number of events in it (1 alone), and
	 * the group's name (perf's -e 'name{a,b}'; NULL for none) */
	int leader;
	int nr_members;
	const char *group_name;
};

/* One record.  has holds the PERF_SAMPLE_* bits of the fields that were
 * present: the event's sample_type for a PERF_RECORD_SAMPLE, the trailer's
 * bits (TID TIME ID STREAM_ID CPU IDENTIFIER) for other kernel records, 0
 * for perf's own (user) records. */
/* The offset of a record decompressed from a PERF_RECORD_COMPRESSED (perf
 * record -z) has this bit set; the rest is its place in the decompressed
 * data (for pmurt_perf_seek), not in the file. */
#define PMURT_PERF_OFFSET_DECOMPRESSED (1ull << 63)

struct pmurt_perf_record {
	size_t sz;
	uint64_t offset;        /* file offset of the record (or see
	                           PMURT_PERF_OFFSET_DECOMPRESSED) */
	uint32_t type;          /* PERF_RECORD_* */
	uint16_t misc;          /* cpumode in misc & 7 */
	uint16_t size;          /* header.size */
	const void *data;       /* the record, header included */
	const void *payload;    /* PERF_RECORD_AUXTRACE: the bytes after it */
	uint64_t payload_size;
	int event;              /* its event's index, -1 when none */
	uint64_t has;
	uint64_t ip, time, addr, id, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t nr_callchain;  /* PERF_SAMPLE_CALLCHAIN (context markers
	                           PERF_CONTEXT_* included, as the kernel
	                           writes them) */
	const uint64_t *callchain;
	uint32_t raw_size;      /* PERF_SAMPLE_RAW */
	const void *raw;
	uint64_t nr_branches;   /* PERF_SAMPLE_BRANCH_STACK: 24-byte entries */
	const void *branches;
	uint64_t weight, data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	const void *read;       /* PERF_SAMPLE_READ, as read_format lays it out */
	uint64_t read_size;
	/* PERF_SAMPLE_REGS_USER (perf record --call-graph dwarf; 0.6):
	 * the ABI (PERF_SAMPLE_REGS_ABI_*), and with one the event's
	 * sample_regs_user and a value per bit of it, lowest bit first (NULL
	 * and 0: none captured, a kernel thread) */
	uint64_t regs_user_abi, regs_user_mask;
	const uint64_t *regs_user;
	/* PERF_SAMPLE_STACK_USER: the bytes copied from the user stack pointer
	 * up (the dynamic size; NULL and 0: none) */
	const void *stack_user;
	uint64_t stack_user_size;
};

/* Open and check a perf.data file: header, attrs, ids and features.  On
 * failure *f is NULL (pmurt_perf_close(NULL) does nothing); -ENOENT and
 * the like for an unreadable file, -EINVAL for a bad one, -ENOMEM. */
PMURT_API int pmurt_perf_open(struct pmurt_perf_file **f, const char *path,
			      struct pmurt_error *err);
/* The same for a perf.data image held in memory (size bytes at data), name
 * standing for its path in messages.  data is borrowed: records and strings
 * point into it, so it must outlive *f and not change.  The bytes are read
 * as they are, never past size: a fuzz target hands its input this way, so
 * that a read past the end would be one AddressSanitizer sees.  (PMURT_0.6) */
PMURT_API int pmurt_perf_open_mem(struct pmurt_perf_file **f, const char *name,
				  const void *data, size_t size, struct pmurt_error *err);
PMURT_API int pmurt_perf_info(const struct pmurt_perf_file *f,
			      struct pmurt_perf_info *info);
/* Event i, 0 .. nevents-1; -ERANGE past the end. */
PMURT_API int pmurt_perf_event(const struct pmurt_perf_file *f, int i,
			       struct pmurt_perf_event_info *info);
/* The next record of the data section, in file order: 1 when *rec holds
 * one, 0 at the end, or a negative errno naming the record's offset (the
 * reader then stays at that record: the file cannot be read past it). */
PMURT_API int pmurt_perf_next(struct pmurt_perf_file *f, struct pmurt_perf_record *rec,
			      struct pmurt_error *err);
/* Continue at a record's offset (rec.offset of an earlier record, or
 * info.data_offset for the first): 0, or -EINVAL for an offset outside the
 * data section (or, decompressed, outside the data decompressed so far or
 * not 8-byte aligned).  The record found there is checked as every record
 * is.  A file of perf record -z holds PERF_RECORD_COMPRESSED records: they
 * are not handed out, the records decompressed from them are, in their
 * place, each valid until pmurt_perf_close. */
PMURT_API int pmurt_perf_seek(struct pmurt_perf_file *f, uint64_t offset);
/* One counter of a sample's PERF_SAMPLE_READ area: with the event's
 * read_format PERF_FORMAT_GROUP (leader sampling, perf's ":S" group), the
 * leader's and then each member's, else the event's own; as perf's
 * evsel__parse_sample reads them.  id and lost are 0 when read_format
 * lacks PERF_FORMAT_ID / PERF_FORMAT_LOST; event is the file's event of
 * that id, -1 when none has it (perf then drops the value). */
struct pmurt_perf_read_value {
	size_t sz;
	uint64_t value, id, lost;
	int event;
};
/* Value i (from 0) of sample rec's read area into *v: 1, 0 past the last
 * one, -EINVAL when rec is no sample with one.  Perf's report and script
 * count a member's value since the previous sample of the same id as its
 * period (session.c deliver_sample_value).  (PMURT_0.6) */
PMURT_API int pmurt_perf_read_value(const struct pmurt_perf_file *f,
				    const struct pmurt_perf_record *rec, uint64_t i,
				    struct pmurt_perf_read_value *v);
PMURT_API void pmurt_perf_close(struct pmurt_perf_file *f);

/* --- recording into perf.data (PMURT_0.6) --------------------------------------
 * A recording samples an event list into a perf.data file as perf record
 * does: the attrs as perf record sets them (sample id, ip, tid, time, cpu
 * and period; callchains on request), one ring per CPU, every event of a
 * task on each of its threads, children inherited; the records of what
 * already runs (COMM, MMAP2, FORK) synthesised first, the rings drained as
 * perf record drains them, the file's header and features (event names,
 * groups, build ids, the host's description, the tracepoints' formats)
 * written when it is finished.  With an AUX area (aux_pages) the list's
 * first event (vpa_dtl) gets one per CPU, its chunks written as AUXTRACE
 * records after an AUXTRACE_INFO.  The recording borrows the list.
 */
struct pmurt_record;

struct pmurt_record_opts {
	size_t sz;
	int pid;              /* the task (all its threads), or -1: CPUs */
	bool enable_on_exec;  /* pid is a command held before its exec (perf's
	                         workload): its events start at the exec, and
	                         its maps come from the kernel, not /proc */
	const int *cpus;      /* with pid -1: these CPUs; NULL: every online one */
	int ncpus;
	bool no_inherit;      /* a task only, not the children it starts */
	uint64_t period;      /* every event's period, or 0: each event's own
	                         (a cpc probe's COUNT, pmurt_evlist_set_period),
	                         else freq */
	uint64_t freq;        /* samples a second, or 0: 4000 without a period
	                         (perf's default) */
	bool callchain;       /* PERF_SAMPLE_CALLCHAIN */
	unsigned data_pages;  /* per ring, a power of two; 0: 128 */
	unsigned aux_pages;   /* an AUX area of this many pages (a power of two)
	                         per CPU for the first event; 0: none */
	uint32_t auxtrace_type; /* with aux_pages: PERF_RECORD_AUXTRACE_INFO's
	                         type (7 for vpa_dtl, perf's auxtrace.h); its
	                         priv[0] is the first event's perf type */
	bool buildid_cache;   /* when finished, the DSOs the file records kept in
	                         perf's build-id cache (perf's buildid.dir, else
	                         ~/.debug), as perf record keeps them, so that
	                         report finds their symbols after a rebuild; what
	                         cannot be kept is passed over, as in perf */
	uint32_t stack_user;  /* perf record --call-graph dwarf,SIZE (0.6): SIZE
	                         bytes of user stack (a multiple of 8, at most
	                         65528) and the user registers per sample for a
	                         DWARF unwinder, the kernel's callchain kernel
	                         frames only; with or without callchain; 0: none */
};

/* The attr event i is sampled with under opts, into attr (attr_size
 * bytes, as pmurt_counter_attr), for a dry run.  0 or -EINVAL. */
PMURT_API int pmurt_record_attr(const struct pmurt_evlist *list, int i,
				const struct pmurt_record_opts *opts, struct perf_event_attr *attr,
				size_t attr_size);
/* What a recording of list under opts would be refused, said before any
 * system call, for a dry run: what pmurt_record_open itself refuses (a
 * per-CPU-only PMU such as vpa_dtl recorded per task, a core event of
 * another processor's description), and a vpa_dtl config or exclude bit,
 * which the open leaves to the kernel's driver and explains the same way
 * when it refuses them; -EINVAL with that message, 0 when none is
 * refused. */
PMURT_API int pmurt_record_refusal(const struct pmurt_evlist *list,
				   const struct pmurt_record_opts *opts, struct pmurt_error *err);

/* The DTrace cpc provider's rules for a recording (Oracle's dcpc.c), which
 * pmutool record applies, checked before anything is opened:
 * - every event's period (opts->period when non-zero, as -c gives it, else
 *   the event's own, a cpc probe's COUNT) at least min_period (the provider's
 *   dcpc_min_overflow, 5000): a frequency-driven event has none, and a
 *   tracepoint's period (1: every hit) is not an overflow count;
 * - counters first come, first served: each group of core events must fit
 *   (pmurt_group_check) together with the groups before it, nothing is
 *   multiplexed; and where the description says the PMU cannot tell which
 *   counter overflowed (pmurt_pmu_info.overflow_counter_unknown), one such
 *   group at a time.
 * 0; -EINVAL naming the event and the minimum; -EBUSY naming the refused
 * group and the holders.  held, when not NULL, gets the check of all core
 * events together (held->n 0 when there are none): each one's counter. */
#define PMURT_CPC_MIN_PERIOD 5000  /* dcpc_min_overflow */
struct pmurt_cpc_opts {
	size_t sz;
	uint64_t period;      /* every event's period (-c), 0: each its own */
	uint64_t min_period;  /* 0: PMURT_CPC_MIN_PERIOD */
	bool per_cpu;         /* CPUs are recorded (-a, -C), not a task: the
	                         counters are checked without per-task rules */
};
PMURT_API int pmurt_evlist_cpc_check(const struct pmurt_evlist *list,
				     const struct pmurt_cpc_opts *opts,
				     struct pmurt_group_result *held, struct pmurt_error *err);

/* Open every event (disabled; with enable_on_exec they start at the exec)
 * and its rings, create the file at path with the events' attrs and ids,
 * and write what perf record writes before sampling starts.  *r NULL on
 * failure: a refused perf_event_open is its errno with a message that
 * begins "cannot open" and says what to do (-ESRCH for a pid that does not
 * exist); a file that cannot be written, its errno. */
PMURT_API int pmurt_record_open(struct pmurt_record **r, const struct pmurt_evlist *list,
				const char *path, const struct pmurt_record_opts *opts,
				struct pmurt_error *err);
/* Start sampling now (not needed with enable_on_exec). */
PMURT_API int pmurt_record_enable(struct pmurt_record *r, struct pmurt_error *err);
/* Wait up to timeout_ms for a ring to fill past its wake-up mark, for the
 * task's events to hang up or for pmurt_record_stop; then drain every ring
 * into the file.  0 or -errno. */
PMURT_API int pmurt_record_poll(struct pmurt_record *r, int timeout_ms,
				struct pmurt_error *err);
/* Async-signal-safe (a lock-free atomic store), for a SIGINT handler: a
 * running poll returns at once and pmurt_record_stopped says true. */
PMURT_API void pmurt_record_stop(struct pmurt_record *r);
/* Asked to stop, or every task event hung up (the task and its children
 * exited). */
PMURT_API bool pmurt_record_stopped(const struct pmurt_record *r);
/* Stop sampling, drain what the rings hold, write the file's header and
 * features: the file is complete (also after an error, which is
 * returned).  The events stay open until pmurt_record_close. */
PMURT_API int pmurt_record_finish(struct pmurt_record *r, struct pmurt_error *err);
/* Closes the events and frees r, writing the header of a file not
 * finished (with what was drained so far).  NULL does nothing. */
PMURT_API void pmurt_record_close(struct pmurt_record *r);

struct pmurt_record_stats {
	size_t sz;
	uint64_t records;        /* written into the file from the rings */
	uint64_t samples;        /* PERF_RECORD_SAMPLE */
	uint64_t lost;           /* the sum of PERF_RECORD_LOST's counts */
	uint64_t lost_records;   /* PERF_RECORD_LOST records */
	uint64_t lost_samples;   /* the sum of PERF_RECORD_LOST_SAMPLES' counts */
	uint64_t bytes;          /* bytes written from the rings */
	uint64_t aux_records;    /* PERF_RECORD_AUX, and with these flags: */
	uint64_t aux_truncated, aux_overwrite, aux_partial, aux_collision;
	/* the AUX areas' drain (aux_pages; as pmurt_dtl_capture_stats) */
	uint64_t aux_chunks;     /* AUXTRACE records written */
	uint64_t aux_bytes;      /* their payload */
	uint64_t aux_stale_bytes; /* stale tails skipped at the driver's wraps */
	uint64_t aux_lost_entries; /* slots overwritten before they were read */
	uint64_t aux_lost_headers; /* the header slot among them */
	uint64_t aux_overruns;   /* drains that found an area full */
	uint64_t aux_torn_bytes; /* bytes overwritten while being read */
	uint64_t aux_wrap_polls, aux_wrap_lost_min, aux_wrap_lost_max;
	uint64_t aux_cut_lost_max; /* the driver's own losses at its wraps */
	uint64_t aux_reopens;    /* the AUX event closed and opened anew */
	uint64_t aux_full_polls; /* polls that took all the driver takes (84) */
};
/* What the recording wrote and lost so far, up to stats->sz. */
PMURT_API int pmurt_record_stats(const struct pmurt_record *r, struct pmurt_record_stats *stats);

/* vpa_dtl's poll interval (arch/powerpc/perf/vpa-dtl.c: its hrtimer polls
 * every max(1 ms, sample_period) ns) and the defaults of the capture and of
 * pmutool dtl record (PMURT_0.6): they keep the driver's own losses under
 * 0.1% at 10,000 dispatches a second per CPU (bench/bench_dtl_loss.c:
 * 0.072%; perf's 128 KiB with a 10 ms poll loses 20%: 100 dispatches a poll
 * overflow the hypervisor's 84, and each of its wraps loses one or two
 * polls). */
#define PMURT_DTL_MIN_PERIOD_NS 1000000ull
#define PMURT_DTL_DEFAULT_PERIOD_NS 1000000ull
#define PMURT_DTL_AUX_DEFAULT_BYTES (1u << 20)
#define PMURT_DTL_DATA_DEFAULT_BYTES (256u << 10)

/* --- vpa_dtl capture, since 0.4 ---------------------------------------------------
 * The Dispatch Trace Log captured live through the vpa_dtl PMU's AUX area,
 * per CPU (the PMU has no task context).  Each drain hands out the bytes the
 * driver wrote, in whole 48-byte slots on its grid: the stale tail it
 * reports at each wrap is split off, slots it overwrote before they were
 * read (a slow reader) are counted, never handed out, and the entries the
 * driver itself loses at each wrap are counted or bounded.  A vpa_dtl event
 * is never enabled again once disabled (by the perf core for a full area,
 * or by pmurt_dtl_capture_disable): that crashes Linux up to at least 7.2
 * (vpa_dtl_event_add writes into the buffer vpa_dtl_event_del freed); it is
 * closed and opened anew, and what the old one left is handed out by the
 * next poll.  It is never opened per task either, and its events are
 * disabled before their areas are unmapped (pmurt_dtl_capture_close of an
 * enabled capture included): unmapping the AUX area of an active vpa_dtl
 * event calls its PMU's missing stop callback, an Oops on Linux 7.2.  The chunks decode
 * with pmurt_dtl_cursor_init (first_chunk when aux_offset is 0, aux_size 0)
 * and pmurt_dtl_next.  Errors are the driver's, explained: no vpa_dtl (not a
 * shared-processor LPAR, a KVM guest, off POWER), EACCES without
 * CAP_PERFMON, EBUSY while another DTL user holds the log. */
struct pmurt_dtl_capture;

struct pmurt_dtl_capture_opts {
	size_t sz;
	const int *cpus;        /* NULL: every online CPU */
	int ncpus;
	uint64_t config;        /* 0x1 dtl_cede, 0x2 dtl_preempt, 0x4 dtl_fault,
	                           0x7 dtl_all; 0: dtl_all */
	uint64_t period_ns;     /* the driver's poll interval, at least 1000000;
	                           0: 1000000 */
	unsigned aux_pages;     /* AUX pages per CPU, a power of two; 0: 1 MiB
	                           (with the 1 ms poll: under 0.1% lost at 10,000
	                           dispatches a second; 0.4 had 10 ms, 128 KiB) */
	unsigned data_pages;    /* data ring pages per CPU; 0: 256 KiB */
};

/* A chunk of DTL bytes from cpu's AUX area at AUX position aux_offset
 * (0: the area's start, with the header slot); a negative return stops the
 * poll with it. */
typedef int (*pmurt_dtl_chunk_fn)(void *arg, int cpu, uint64_t aux_offset, const void *data,
				  size_t len);

struct pmurt_dtl_capture_stats {
	size_t sz;
	uint64_t chunks, bytes;     /* handed out */
	uint64_t stale_bytes;       /* stale tails skipped at the driver's wraps */
	uint64_t lost_entries;      /* slots overwritten before they were read */
	uint64_t lost_headers;
	uint64_t overruns;          /* drains that found an area full */
	uint64_t aux_records;       /* PERF_RECORD_AUX seen (the driver sets no flag) */
	uint64_t aux_truncated;     /* ... with PERF_AUX_FLAG_TRUNCATED */
	uint64_t lost_records;      /* PERF_RECORD_LOST's counts (the data ring) */
	/* after 0.4.0 (sz says which fields a caller has): the driver's own losses at its wraps, seen in its
	 * PERF_RECORD_AUX records: polls whose entries it copied past the wrap
	 * and never reported, the entries they lost (exactly when known, else
	 * 1 to 84 a poll), and at most how many it dropped from the batches
	 * that reached the wrap; and the events closed and opened anew */
	uint64_t wrap_polls, wrap_lost_min, wrap_lost_max;
	uint64_t cut_lost_max;
	uint64_t reopens;
	uint64_t full_polls;        /* polls that took 84 entries, all the driver
	                               takes: the hypervisor may have dropped more
	                               (a shorter period_ns helps) */
};

/* Open vpa_dtl on the CPUs (disabled); *c NULL on failure. */
PMURT_API int pmurt_dtl_capture_open(struct pmurt_dtl_capture **c, struct pmurt_host *host,
				     const struct pmurt_dtl_capture_opts *opts,
				     struct pmurt_error *err);
PMURT_API int pmurt_dtl_capture_enable(struct pmurt_dtl_capture *c, struct pmurt_error *err);
PMURT_API int pmurt_dtl_capture_disable(struct pmurt_dtl_capture *c, struct pmurt_error *err);
/* Wait up to timeout_ms for an area past its watermark (or for
 * pmurt_dtl_capture_stop), then drain every CPU to fn.  0 or -errno. */
PMURT_API int pmurt_dtl_capture_poll(struct pmurt_dtl_capture *c, int timeout_ms,
				     pmurt_dtl_chunk_fn fn, void *arg, struct pmurt_error *err);
/* Async-signal-safe: the next poll returns at once. */
PMURT_API void pmurt_dtl_capture_stop(struct pmurt_dtl_capture *c);
/* Fills stats up to stats->sz. */
PMURT_API void pmurt_dtl_capture_stats(const struct pmurt_dtl_capture *c,
				       struct pmurt_dtl_capture_stats *stats);
PMURT_API void pmurt_dtl_capture_close(struct pmurt_dtl_capture *c);

#ifdef __cplusplus
}
#endif

#endif /* PMURT_H */
