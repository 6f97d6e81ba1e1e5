/*
 * perfdata.h - perf.data, written and read (the contract between the
 * perf.data code and its users: recording, reports, the vpa_dtl side).
 *
 * The layout follows tools/perf/Documentation/perf.data-file-format.txt:
 * the file header, the attrs with their ids, the data section of records
 * (each starting with struct perf_event_header), and the feature sections.
 * Reading is the public API (pmurt_perf_* in pmurt.h); writing is internal.
 * Not installed.
 */
#ifndef PMU_PERFDATA_H
#define PMU_PERFDATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmurt.h"

/* perf's own record types, which carry no sample_id trailer
 * (tools/lib/perf/include/perf/event.h, enum perf_user_event_type). */
enum {
	PD_RECORD_USER_START = 64,
	PD_RECORD_HEADER_ATTR = 64,
	PD_RECORD_HEADER_TRACING_DATA = 66,
	PD_RECORD_FINISHED_ROUND = 68,
	PD_RECORD_AUXTRACE_INFO = 70,
	PD_RECORD_AUXTRACE = 71,
	PD_RECORD_AUXTRACE_ERROR = 72,
	PD_RECORD_EVENT_UPDATE = 78,
	PD_RECORD_TIME_CONV = 79,
	PD_RECORD_HEADER_FEATURE = 80,
	PD_RECORD_COMPRESSED = 81,
};

/* Feature bits of the header (tools/perf/util/header.h, HEADER_*). */
enum {
	PD_FEAT_TRACING_DATA = 1,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CPUDESC = 8,
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_CPUID = 9,
	PD_FEAT_TOTAL_MEM = 10,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_CPU_TOPOLOGY = 13,
	PD_FEAT_NUMA_TOPOLOGY = 14,
	PD_FEAT_BRANCH_STACK = 15,
	PD_FEAT_PMU_MAPPINGS = 16,
	PD_FEAT_GROUP_DESC = 17,
	PD_FEAT_AUXTRACE = 18,
	PD_FEAT_CACHE = 20,
	PD_FEAT_SAMPLE_TIME = 21,
	PD_FEAT_MEM_TOPOLOGY = 22,
	PD_FEAT_CLOCKID = 23,
	PD_FEAT_BPF_PROG_INFO = 25,
	PD_FEAT_BPF_BTF = 26,
	PD_FEAT_COMPRESSED = 27,
	PD_FEAT_CPU_PMU_CAPS = 28,
	PD_FEAT_PMU_CAPS = 31,
	PD_FEAT_BITS = 256,
};

/* Unaligned native-endian loads from a record or a mapped file. */
static inline uint32_t pd_get32(const void *p)
{
	uint32_t v;
	__builtin_memcpy(&v, p, 4);
	return v;
}

static inline uint64_t pd_get64(const void *p)
{
	uint64_t v;
	__builtin_memcpy(&v, p, 8);
	return v;
}

/* One event of the file: its attr, the sample ids that name it in records,
 * and its name (the event description feature).  A group's leader gives
 * its number of members (itself included; its members follow it), which
 * the group description feature records for groups of two or more. */
struct pd_event {
	struct perf_event_attr attr;
	const uint64_t *ids;
	int nids;
	const char *name;
	int group_size;
};

/* Writing: open, add records in order, finish.  The header is written last
 * (as perf does), so a file whose writer died is recognisably unfinished
 * (its first bytes are zero, not the magic).  Records are written as given:
 * kernel records with the sample_id_all trailers the kernel put on them.
 * A FINISHED_ROUND record (header only, type PD_RECORD_FINISHED_ROUND)
 * should follow each drain of all rings, as perf record writes it; finish
 * adds one after the last records when they lack it.  An AUXTRACE record
 * is passed with its payload right after its 48 bytes (header.size
 * excludes the payload, as in the file) and is indexed in the AUXTRACE
 * feature. */
struct pd_writer;
int pd_writer_open(struct pd_writer **w, const char *path,
		   const struct pd_event *events, int nevents,
		   struct pmurt_error *err);
/* rec starts with a struct perf_event_header whose size covers it. */
int pd_writer_add(struct pd_writer *w, const void *rec, struct pmurt_error *err);
/* An AUXTRACE record (its 48 bytes, header.size 48, the payload size at
 * byte 8) whose payload lies elsewhere (a mapped AUX area): written as one
 * record, the payload padded to 8 with zeros, indexed like the above. */
int pd_writer_add_auxtrace(struct pd_writer *w, const void *rec, const void *payload,
			   struct pmurt_error *err);
/* Records laid out back to back as a kernel ring holds them (len the sum
 * of their sizes, each checked by the caller: pmu_ring_drain_spans), in one
 * write, as perf record writes the ring.  No AUXTRACE record among them
 * (the kernel's rings hold none). */
int pd_writer_add_span(struct pd_writer *w, const void *recs, size_t len,
		       struct pmurt_error *err);
/* The same, for a caller that walks the records itself (the session's
 * drain does): pd_writer_note hands the writer each record of the spans to
 * come, in order, once, before its span, for what finish needs of it (build
 * ids, sample times); pd_writer_add_noted_span then writes a span of such
 * records without walking it again. */
void pd_writer_note(struct pd_writer *w, const void *rec);
int pd_writer_add_noted_span(struct pd_writer *w, const void *recs, size_t len,
			     struct pmurt_error *err);
/* Writes the feature sections and the header, closes the file, frees w
 * (also on failure). */
int pd_writer_finish(struct pd_writer *w, struct pmurt_error *err);

/* The tracing-data feature (HEADER_TRACING_DATA) for the writer's
 * tracepoint events (attr.type PERF_TYPE_TRACEPOINT, the id in config):
 * the formats perf needs to decode their samples, read now from the tracefs
 * root (the directory standing for /sys/kernel/tracing) and written by
 * finish.  Without tracepoint events, nothing.  perf refuses a file with
 * tracepoints but without this feature.  -errno when tracefs lacks a file
 * perf must have (header_page, header_event, a format). */
int pd_writer_add_tracing(struct pd_writer *w, const char *tracefs, struct pmurt_error *err);
/* tracing.c: that feature's bytes for these events (*data NULL, *len 0
 * without tracepoints); the caller frees *data. */
int pd_tracing_data(const char *tracefs, const struct pd_event *events, int nevents,
		    uint8_t **data, size_t *len, struct pmurt_error *err);

/* The sample_id_all trailer of a record the caller synthesises (COMM, MMAP2,
 * FORK of processes that existed before recording): the fields the first
 * event's sample_type asks for (the id is that event's first id). */
struct pd_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
};
/* Appends the first event's trailer to rec (whose header.size excludes it)
 * and writes it; with the first event not sample_id_all, rec as it is.
 * id may be NULL: zeros, as perf's synthesised records carry. */
int pd_writer_add_synth(struct pd_writer *w, const void *rec,
			const struct pd_sample_id *id, struct pmurt_error *err);

/* Where the writer reads the host's description (/proc, /sys) from: root
 * ("" or NULL: the running system), for the tests' trees. */
void pd_writer_host_root(struct pd_writer *w, const char *root);

/* features.c: a feature's bytes built in memory (nomem set when a growth
 * failed), and the host-description features read under root: 1 when
 * written into b, 0 when its source could not be read (perf leaves such a
 * feature out). */
struct pd_bytes {
	uint8_t *p;
	size_t n, cap;
	bool nomem;
};
void pd_bytes_put(struct pd_bytes *b, const void *p, size_t n);
void pd_bytes_u32(struct pd_bytes *b, uint32_t v);
void pd_bytes_u64(struct pd_bytes *b, uint64_t v);
void pd_bytes_string(struct pd_bytes *b, const char *s);   /* header.c do_write_string */
void pd_bytes_free(struct pd_bytes *b);
int pd_host_feature(int bit, const char *root, struct pd_bytes *b);

/* buildid.c: an ELF file's GNU build id (its PT_NOTE segments): 0, or
 * -errno / -ENOENT (no note) / -ENOEXEC (not ELF). */
#define PD_BUILD_ID_MAX 20
int pd_elf_build_id(const char *path, uint8_t id[PD_BUILD_ID_MAX], size_t *id_len);
/* What perf record's pass over its written file finds (builtin-record.c
 * process_buildids), noted as the records go through the writer instead:
 * the BUILD_ID feature's bytes for the DSOs samples hit (root as for the
 * host features, for /sys/kernel/notes) and the first and last sample
 * times (0 without samples).  events stay the caller's until freed. */
struct pd_hits;
int pd_hits_new(struct pd_hits **h, const struct pd_event *events, int nevents);
void pd_hits_add(struct pd_hits *h, const void *rec);
/* Records back to back, each size checked by the caller. */
void pd_hits_add_span(struct pd_hits *h, const void *recs, size_t len);
/* 0, or -ENOMEM (some note could not be kept: the feature incomplete). */
int pd_hits_finish(struct pd_hits *h, const char *root, struct pd_bytes *build_ids,
		   uint64_t times[2]);
void pd_hits_free(struct pd_hits *h);
/* The running kernel's build id (root/sys/kernel/notes) and this process's
 * vDSO's, and the vDSO's image in memory (NULL: none): 0 or -ENOENT. */
int pd_kernel_build_id(const char *root, uint8_t id[PD_BUILD_ID_MAX], size_t *id_len);
int pd_vdso_build_id(uint8_t id[PD_BUILD_ID_MAX], size_t *id_len);
const void *pd_vdso_image(size_t *size);

/* buildid_cache.c: perf's build-id cache (DIR/.build-id/..., perf 6.1's
 * layout).  The directory perf would use: $PERF_BUILDID_DIR (perf sets it
 * for its children), perf config's buildid.dir, else $HOME/.debug (-ENOENT
 * without any).  add keeps DSO name (a file's path, "[vdso]" or
 * "[kernel.kallsyms]", read under root for /proc and /sys) under build id
 * id when it still has that id (-ESTALE: rebuilt or replaced since), as
 * perf record does at its end; find puts the cached file's path for name's
 * kind into path: 0, or -ENOENT when the cache does not hold it. */
int pd_build_id_cache_dir(char *out, size_t len);
int pd_build_id_cache_add(const char *dir, const char *root, const char *name,
			  const uint8_t *id, size_t id_len);
int pd_build_id_cache_find(const char *dir, const char *name, const uint8_t *id,
			   size_t id_len, char *path, size_t len);
/* Every DSO f's BUILD_ID feature records, added as perf record adds them
 * once its file is written (perf_session__cache_build_ids; a DSO that
 * cannot be kept is passed over): how many are in the cache now. */
int pd_build_id_cache_add_recorded(const char *dir, const char *root,
				   const struct pmurt_perf_file *f);
/* Every DSO the file's BUILD_ID feature records, to fn (a nonzero return
 * stops the walk and is returned). */
int pd_recorded_build_ids(const struct pmurt_perf_file *f,
			  int (*fn)(void *arg, const char *name, const uint8_t *id,
				    size_t id_len),
			  void *arg);

/* reader.c: the build id the file's BUILD_ID feature records for the DSO
 * of this name: 0, or -ENOENT. */
int pd_recorded_build_id(const struct pmurt_perf_file *f, const char *dso,
			 uint8_t id[PD_BUILD_ID_MAX], size_t *id_len);

/* sample.c: the layout rules shared by reader and writer
 * (kernel/events/core.c perf_output_sample, perf's evsel__parse_sample). */
/* Bytes of the sample_id_all trailer for this sample_type. */
size_t pd_trailer_size(uint64_t sample_type);
/* Where the sample id sits: in a sample, as an index of u64s from the
 * start (-1: none); in a trailer, counted from the end (1 = last; -1). */
int pd_sample_id_pos(uint64_t sample_type);
int pd_trailer_id_pos(uint64_t sample_type);
/* Parse a PERF_RECORD_SAMPLE body (after the header) of len bytes into rec;
 * 0, or -EINVAL with *why saying what overran or was malformed. */
int pd_parse_sample(const struct perf_event_attr *attr, const uint8_t *body,
		    size_t len, struct pmurt_perf_record *rec, const char **why);
/* PERF_SAMPLE_READ: value i of a sample's read area (rec->read,
 * rec->read_size) as read_format fmt lays it out: 1, 0 past the last,
 * -EINVAL when the area is too short for it. */
struct pd_read_value {
	uint64_t value, id, lost;
};
int pd_read_value(uint64_t fmt, const uint8_t *read, uint64_t size, uint64_t i,
		  struct pd_read_value *out);
/* Parse the trailer at the end of a non-sample kernel record body. */
int pd_parse_trailer(uint64_t sample_type, const uint8_t *body, size_t len,
		     struct pmurt_perf_record *rec, const char **why);

/* --- compressed records (compressed.c) ---------------------------------- */

/* One compressed record's records, decompressed after the rest the chunk
 * before left unread. */
struct pd_chunk {
	uint64_t record, next;   /* file offsets of the record and of the one after */
	uint8_t *buf;
	size_t len;
};

struct pd_decomp {
	void *zstd;              /* ZSTD_DStream, made for the first record */
	bool described;          /* the file has the COMPRESSED feature */
	uint32_t type, mmap_len; /* its compression type, bytes one record holds */
	struct pd_chunk *chunks; /* in file order */
	size_t n, cap;
	size_t cur, pos;         /* the chunk being read and the next record in it */
	bool inside;             /* records come from chunk cur, not the file */
};

int pd_decomp_feature(struct pd_decomp *z, const uint8_t *p, uint64_t size, char *why,
		      size_t len);
/* Decompresses the compressed record at file offset at (the next record
 * at next) into a new chunk, made the current one: 0, -ENOMEM, or -EINVAL
 * with the problem in why. */
int pd_decomp_add(struct pd_decomp *z, uint64_t at, uint64_t next, const uint8_t *payload,
		  size_t n, char *why, size_t len);
long pd_decomp_find(const struct pd_decomp *z, uint64_t at);
void pd_decomp_free(struct pd_decomp *z);

#endif /* PMU_PERFDATA_H */
