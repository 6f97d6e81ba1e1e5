/*
 * tool_trace.c - the tracing-data feature read into Debian's libtraceevent
 * (tool_trace.h), as perf's util/trace-event-read.c (trace_report) reads it:
 *
 *   "\027\010\104tracing"  version "0.6\0"  u8 big-endian?  u8 sizeof(long)
 *   u32 page size; "header_page\0" u64 size, bytes; "header_event\0" u64 size,
 *   bytes; u32 count, per ftrace event u64 size, format; u32 systems, per
 *   system "name\0" u32 count, per event u64 size, format; u32 size,
 *   kallsyms; u32 size, printk formats; (0.6) u64 size, saved cmdlines.
 *
 * The numbers are in the file's byte order.  Every length is checked
 * against the feature's end; a bad one is an error naming its offset.
 * libtraceevent is opened by its soname (PMUTOOL_LIBTRACEEVENT_SONAME, the
 * one the build found), or linked (PMUTOOL_TRACEEVENT_LINKED).
 */
#include <dlfcn.h>
#include <endian.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <trace-seq.h>

#include "tool_trace.h"

#define TRACEEVENT_PACKAGE "libtraceevent1"

/* Every libtraceevent function used: X(name). */
#define TRACE_FUNCS(X) \
	X(tep_alloc) X(tep_free) X(tep_set_long_size) X(tep_set_page_size) \
	X(tep_set_file_bigendian) X(tep_set_local_bigendian) X(tep_parse_header_page) \
	X(tep_parse_event) X(tep_parse_kallsyms) X(tep_parse_printk_formats) \
	X(tep_parse_saved_cmdlines) X(tep_find_event) X(tep_print_event) \
	X(tep_set_function_resolver) \
	X(trace_seq_init) X(trace_seq_terminate) X(trace_seq_destroy)

struct tool_trace {
	void *lib;
	struct tep_handle *tep;
	uint8_t *scratch;       /* a sample's raw data, zero-padded */
	size_t scratch_len;
	tool_trace_resolve_fn *resolve;
	void *resolve_priv;
#define TRACE_MEMBER(name) __typeof__(name) *name;
	TRACE_FUNCS(TRACE_MEMBER)
#undef TRACE_MEMBER
};

/* A cursor over the feature's bytes. */
struct reader {
	const uint8_t *p;
	uint64_t len, at;
	bool big;
	int long_size;
	char *err;
	size_t errlen;
};

static int bad(struct reader *r, const char *what)
{
	snprintf(r->err, r->errlen, "tracing-data feature: offset %llu: %s runs past its end "
		 "(%llu bytes)", (unsigned long long)r->at, what, (unsigned long long)r->len);
	return -1;
}

static int take(struct reader *r, uint64_t n, const char *what, const uint8_t **out)
{
	if (n > r->len - r->at)
		return bad(r, what);
	*out = r->p + r->at;
	r->at += n;
	return 0;
}

static int get32(struct reader *r, const char *what, uint32_t *v)
{
	const uint8_t *p;
	if (take(r, 4, what, &p))
		return -1;
	memcpy(v, p, 4);
	*v = r->big ? be32toh(*v) : le32toh(*v);
	return 0;
}

static int get64(struct reader *r, const char *what, uint64_t *v)
{
	const uint8_t *p;
	if (take(r, 8, what, &p))
		return -1;
	memcpy(v, p, 8);
	*v = r->big ? be64toh(*v) : le64toh(*v);
	return 0;
}

/* A NUL-terminated string within the feature. */
static int get_string(struct reader *r, const char *what, const char **s)
{
	const uint8_t *end = memchr(r->p + r->at, 0, r->len - r->at);
	if (!end)
		return bad(r, what);
	*s = (const char *)r->p + r->at;
	r->at = (uint64_t)(end - r->p) + 1;
	return 0;
}

/* n bytes copied and NUL-terminated, for the parsers wanting a C string. */
static int get_copy(struct reader *r, uint64_t n, const char *what, char **out)
{
	const uint8_t *p;
	if (take(r, n, what, &p))
		return -1;
	if (!(*out = malloc(n + 1))) {
		snprintf(r->err, r->errlen, "out of memory");
		return -1;
	}
	memcpy(*out, p, n);
	(*out)[n] = 0;
	return 0;
}

/* "\027\010\104tracing", the version, byte order, long and page sizes. */
static int read_head(struct tool_trace *tr, struct reader *r, bool *v06)
{
	static const char magic[10] = "\027\010\104tracing";
	const uint8_t *p;
	const char *version;
	if (take(r, sizeof(magic), "the magic", &p) || get_string(r, "the version", &version))
		return -1;
	if (memcmp(p, magic, sizeof(magic))) {
		snprintf(r->err, r->errlen, "tracing-data feature: no \\027\\010\\104tracing magic");
		return -1;
	}
	if (take(r, 2, "the byte order and long size", &p))
		return -1;
	r->big = p[0];
	tr->tep_set_file_bigendian(tr->tep, r->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tr->tep_set_local_bigendian(tr->tep, BYTE_ORDER == BIG_ENDIAN ? TEP_BIG_ENDIAN
					     : TEP_LITTLE_ENDIAN);
	r->long_size = p[1];
	tr->tep_set_long_size(tr->tep, p[1]);
	uint32_t page;
	if (get32(r, "the page size", &page))
		return -1;
	tr->tep_set_page_size(tr->tep, (int)page);
	*v06 = strcmp(version, "0.5") > 0;
	return 0;
}

/* "header_page" (parsed, as perf does) and "header_event" (skipped). */
static int read_headers(struct tool_trace *tr, struct reader *r)
{
	const char *name;
	uint64_t size;
	char *buf;
	if (get_string(r, "header_page", &name) || get64(r, "header_page's size", &size) ||
	    get_copy(r, size, "header_page", &buf))
		return -1;
	tr->tep_parse_header_page(tr->tep, buf, size, r->long_size);
	free(buf);
	const uint8_t *skip;
	return get_string(r, "header_event", &name) || get64(r, "header_event's size", &size) ||
	       take(r, size, "header_event", &skip) ? -1 : 0;
}

/* count formats of system sys, each u64 size and text. */
static int read_formats(struct tool_trace *tr, struct reader *r, uint32_t count, const char *sys)
{
	for (uint32_t i = 0; i < count; i++) {
		uint64_t size;
		const uint8_t *fmt;
		if (get64(r, "an event format's size", &size) ||
		    take(r, size, "an event format", &fmt))
			return -1;
		/* a format libtraceevent cannot parse leaves that event's
		 * samples without fields, as in perf */
		tr->tep_parse_event(tr->tep, (const char *)fmt, size, sys);
	}
	return 0;
}

static int read_events(struct tool_trace *tr, struct reader *r)
{
	uint32_t count, systems;
	if (get32(r, "the ftrace event count", &count) || read_formats(tr, r, count, "ftrace") ||
	    get32(r, "the system count", &systems))
		return -1;
	for (uint32_t s = 0; s < systems; s++) {
		const char *sys;
		if (get_string(r, "a system's name", &sys) || get32(r, "a system's count", &count) ||
		    read_formats(tr, r, count, sys))
			return -1;
	}
	return 0;
}

/* kallsyms, printk formats and (0.6) the saved cmdlines: C strings. */
static int read_tables(struct tool_trace *tr, struct reader *r, bool v06)
{
	uint32_t size32;
	uint64_t size;
	char *buf;
	if (get32(r, "the kallsyms size", &size32) || get_copy(r, size32, "kallsyms", &buf))
		return -1;
	if (size32)
		tr->tep_parse_kallsyms(tr->tep, buf);
	free(buf);
	if (get32(r, "the printk formats' size", &size32) ||
	    get_copy(r, size32, "the printk formats", &buf))
		return -1;
	if (size32)
		tr->tep_parse_printk_formats(tr->tep, buf);
	free(buf);
	if (!v06)
		return 0;
	if (get64(r, "the saved cmdlines' size", &size) ||
	    get_copy(r, size, "the saved cmdlines", &buf))
		return -1;
	if (size)
		tr->tep_parse_saved_cmdlines(tr->tep, buf);
	free(buf);
	return 0;
}

/* libtraceevent's function resolver calling the caller's. */
static char *resolve_kernel(void *priv, unsigned long long *addrp, char **modp)
{
	struct tool_trace *tr = priv;
	uint64_t start;
	const char *name = tr->resolve(tr->resolve_priv, *addrp, &start);
	if (name) {
		*addrp = start;
		*modp = NULL;
	}
	return (char *)name;
}

#ifdef PMUTOOL_TRACEEVENT_LINKED
/* A static pmutool (the ppc64le one of tests/qemu) links libtraceevent: a
 * static program has no dlopen to speak of, and no start-up cost to save. */
static int bind(struct tool_trace *tr, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
#define TRACE_LINK(name) tr->name = name;
	TRACE_FUNCS(TRACE_LINK)
#undef TRACE_LINK
	return 0;
}

static void unbind(struct tool_trace *tr)
{
	(void)tr;
}
#else
static int bind(struct tool_trace *tr, char *err, size_t errlen)
{
	tr->lib = dlopen(PMUTOOL_LIBTRACEEVENT_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!tr->lib) {
		snprintf(err, errlen, "cannot load %s, which script decodes tracepoints with: %s "
			 "(install the Debian package %s)", PMUTOOL_LIBTRACEEVENT_SONAME, dlerror(),
			 TRACEEVENT_PACKAGE);
		return -1;
	}
#define TRACE_BIND(name) \
	if (!(*(void **)&tr->name = dlsym(tr->lib, #name))) { \
		snprintf(err, errlen, "%s lacks %s (libtraceevent too old?)", \
			 PMUTOOL_LIBTRACEEVENT_SONAME, #name); \
		return -1; \
	}
	TRACE_FUNCS(TRACE_BIND)
#undef TRACE_BIND
	return 0;
}

static void unbind(struct tool_trace *tr)
{
	if (tr->lib)
		dlclose(tr->lib);
}
#endif

static int load(struct tool_trace *tr, char *err, size_t errlen)
{
	if (bind(tr, err, errlen))
		return -1;
	if (!(tr->tep = tr->tep_alloc())) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (tr->resolve)
		tr->tep_set_function_resolver(tr->tep, resolve_kernel, tr);
	return 0;
}

int tool_trace_open(struct tool_trace **out, const void *data, uint64_t len,
		    tool_trace_resolve_fn *resolve, void *priv, char *err, size_t errlen)
{
	struct tool_trace *tr = calloc(1, sizeof(*tr));
	*out = NULL;
	if (!tr) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	tr->resolve = resolve;
	tr->resolve_priv = priv;
	struct reader r = { .p = data, .len = len, .err = err, .errlen = errlen };
	bool v06 = false;
	if (load(tr, err, errlen) || read_head(tr, &r, &v06) ||
	    read_headers(tr, &r) || read_events(tr, &r) ||
	    read_tables(tr, &r, v06)) {
		tool_trace_close(tr);
		return -1;
	}
	*out = tr;
	return 0;
}

void tool_trace_close(struct tool_trace *tr)
{
	if (!tr)
		return;
	if (tr->tep)
		tr->tep_free(tr->tep);
	unbind(tr);
	free(tr->scratch);
	free(tr);
}

/* The end of the event's last fixed field: where its raw data must reach. */
static size_t fields_end(const struct tep_event *ev)
{
	size_t end = 0;
	const struct tep_format_field *f;
	for (f = ev->format.common_fields; f; f = f->next)
		end = (size_t)f->offset + (size_t)f->size > end ? (size_t)f->offset + (size_t)f->size : end;
	for (f = ev->format.fields; f; f = f->next)
		end = (size_t)f->offset + (size_t)f->size > end ? (size_t)f->offset + (size_t)f->size : end;
	return end;
}

/* libtraceevent reads the fields where the format puts them, whatever the
 * sample's size: the raw data is copied into zeros reaching past the last
 * fixed field and past any __data_loc (16-bit offset and length), so a
 * short or corrupt sample prints zeros, never reads out of bounds. */
static const void *padded(struct tool_trace *tr, const struct tep_event *ev, const void *raw,
			  uint32_t raw_size)
{
	size_t need = (raw_size > fields_end(ev) ? raw_size : fields_end(ev)) + 2 * 65536;
	if (need > tr->scratch_len) {
		uint8_t *p = realloc(tr->scratch, need);
		if (!p)
			return NULL;
		tr->scratch = p;
		tr->scratch_len = need;
	}
	memcpy(tr->scratch, raw, raw_size);
	memset(tr->scratch + raw_size, 0, need - raw_size);
	return tr->scratch;
}

void tool_trace_print(struct tool_trace *tr, uint64_t id, uint32_t cpu, const void *raw,
		      uint32_t raw_size, FILE *fp)
{
	struct tep_event *ev = id <= INT32_MAX ? tr->tep_find_event(tr->tep, (int)id) : NULL;
	const void *data = ev && raw ? padded(tr, ev, raw, raw_size) : NULL;
	if (!data)
		return;
	struct tep_record rec = { .cpu = (int)cpu, .size = (int)raw_size, .data = (void *)data };
	struct trace_seq s;
	tr->trace_seq_init(&s);
	tr->tep_print_event(tr->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	tr->trace_seq_terminate(&s);
	fwrite(s.buffer, 1, s.len, fp);
	tr->trace_seq_destroy(&s);
}
