/*
 * sample.c - the layout of PERF_RECORD_SAMPLE and of the sample_id_all
 * trailer, as the kernel writes them (kernel/events/core.c,
 * perf_output_sample and __perf_event_header__init_id) and perf reads them
 * (tools/perf/util/evsel.c, evsel__parse_sample and perf_evsel__parse_id_sample).
 * Every read is bounds-checked against the record: a field that would run
 * past it is an error, never a read outside the record.
 */
#include <errno.h>
#include <string.h>

#include "perfdata.h"

#define TRAILER_BITS (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

size_t pd_trailer_size(uint64_t sample_type)
{
	return 8u * (size_t)__builtin_popcountll(sample_type & TRAILER_BITS);
}

int pd_sample_id_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return __builtin_popcountll(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					  PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
}

int pd_trailer_id_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return 1 + __builtin_popcountll(st & (PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID));
}

/* A cursor over one record body. */
struct cursor {
	const uint8_t *p, *end;
	const char *why;
};

static int take(struct cursor *c, size_t n, const void **out, const char *what)
{
	if ((size_t)(c->end - c->p) < n) {
		c->why = what;
		return -EINVAL;
	}
	*out = c->p;
	c->p += n;
	return 0;
}

static int u64(struct cursor *c, uint64_t *v, const char *what)
{
	const void *q;
	if (take(c, 8, &q, what))
		return -EINVAL;
	memcpy(v, q, 8);
	return 0;
}

static int u32pair(struct cursor *c, uint32_t *a, uint32_t *b, const char *what)
{
	const uint8_t *q;
	if (take(c, 8, (const void **)&q, what))
		return -EINVAL;
	memcpy(a, q, 4);
	memcpy(b, q + 4, 4);
	return 0;
}

/* n u64 elements, n read from the record: n * 8 must fit what is left
 * (checked by division, so a huge n cannot wrap). */
static int array(struct cursor *c, uint64_t n, size_t elem, const void **out,
		 const char *what)
{
	if (n > (uint64_t)(c->end - c->p) / elem) {
		c->why = what;
		return -EINVAL;
	}
	return take(c, (size_t)n * elem, out, what);
}

static int read_values(struct cursor *c, uint64_t fmt, struct pmurt_perf_record *rec)
{
	const uint8_t *start = c->p;
	uint64_t per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	uint64_t times = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr = 1, skip;
	const void *q;
	if ((fmt & PERF_FORMAT_GROUP) && u64(c, &nr, "the read area's group count"))
		return -EINVAL;
	if (array(c, times, 8, &q, "the read area's times"))
		return -EINVAL;
	if (nr > UINT64_MAX / 8 / per)
		skip = UINT64_MAX;
	else
		skip = nr * per;
	if (array(c, skip, 8, &q, "the read area (PERF_SAMPLE_READ)"))
		return -EINVAL;
	rec->read = start;
	rec->read_size = (uint64_t)(c->p - start);
	return 0;
}

/* Value i of a read area of size bytes (read_values checked it, but a
 * caller's record is checked again: nothing is read past size).  The
 * layout (kernel/events/core.c perf_output_read_one / _group): without
 * GROUP, value [enabled] [running] [id] [lost]; with it, nr [enabled]
 * [running], then nr times value [id] [lost]. */
int pd_read_value(uint64_t fmt, const uint8_t *read, uint64_t size, uint64_t i,
		  struct pd_read_value *out)
{
	uint64_t times = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	uint64_t nr = 1, at, words = size / 8;
	if (fmt & PERF_FORMAT_GROUP) {
		if (words < 1 + times)
			return -EINVAL;
		nr = pd_get64(read);
		if (i >= nr)
			return 0;
		if (i >= (words - 1 - times) / per)
			return -EINVAL;
		at = 1 + times + i * per;
	} else {
		if (i)
			return 0;
		if (words < per + times)
			return -EINVAL;
		at = 0;
	}
	const uint8_t *p = read + at * 8;
	out->value = pd_get64(p);
	p += 8 * ((fmt & PERF_FORMAT_GROUP) ? 1 : 1 + times);
	out->id = (fmt & PERF_FORMAT_ID) ? pd_get64(p) : 0;
	p += (fmt & PERF_FORMAT_ID) ? 8 : 0;
	out->lost = (fmt & PERF_FORMAT_LOST) ? pd_get64(p) : 0;
	return 1;
}

/* PERF_SAMPLE_REGS_USER / REGS_INTR: abi, then one u64 per mask bit (none
 * when abi is PERF_SAMPLE_REGS_ABI_NONE: a kernel thread's user registers). */
static int regs(struct cursor *c, uint64_t mask, const char *what, uint64_t *abi,
		const uint64_t **values)
{
	const void *q = NULL;
	if (u64(c, abi, what))
		return -EINVAL;
	if (*abi && array(c, (uint64_t)__builtin_popcountll(mask), 8, &q, what))
		return -EINVAL;
	*values = q;
	return 0;
}

/* PERF_SAMPLE_STACK_USER: size, the bytes, and when size is not 0 the
 * dynamic size, the bytes the kernel could copy: what the sample holds
 * (evsel.c evsel__parse_sample, which refuses a dynamic size past size as
 * "user stack dump failure"). */
static int stack_user(struct cursor *c, struct pmurt_perf_record *rec)
{
	uint64_t size, dyn;
	const void *q;
	if (u64(c, &size, "the user stack's size") ||
	    array(c, size, 1, &q, "the user stack"))
		return -EINVAL;
	if (!size)
		return 0;
	if (u64(c, &dyn, "the user stack's dynamic size"))
		return -EINVAL;
	if (dyn > size) {
		c->why = "the user stack's dynamic size (larger than its size)";
		return -EINVAL;
	}
	rec->stack_user = q;
	rec->stack_user_size = dyn;
	return 0;
}

/* The fields up to PERIOD, in the kernel's order. */
static int sample_head(struct cursor *c, uint64_t st, struct pmurt_perf_record *rec)
{
	uint32_t res;
	if ((st & PERF_SAMPLE_IDENTIFIER) && u64(c, &rec->id, "the sample identifier"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_IP) && u64(c, &rec->ip, "the sample ip"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TID) && u32pair(c, &rec->pid, &rec->tid, "the sample pid/tid"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TIME) && u64(c, &rec->time, "the sample time"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ADDR) && u64(c, &rec->addr, "the sample addr"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_ID) && u64(c, &rec->id, "the sample id"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_STREAM_ID) && u64(c, &rec->stream_id, "the sample stream id"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CPU) && u32pair(c, &rec->cpu, &res, "the sample cpu"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_PERIOD) && u64(c, &rec->period, "the sample period"))
		return -EINVAL;
	return 0;
}

static int sample_stacks(struct cursor *c, const struct perf_event_attr *attr,
			 struct pmurt_perf_record *rec)
{
	uint64_t st = attr->sample_type, hw_idx;
	const void *q;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (u64(c, &rec->nr_callchain, "the callchain's length") ||
		    array(c, rec->nr_callchain, 8, &q, "the callchain"))
			return -EINVAL;
		rec->callchain = q;
	}
	if (st & PERF_SAMPLE_RAW) {
		const uint8_t *sz;
		if (take(c, 4, (const void **)&sz, "the raw data's size"))
			return -EINVAL;
		memcpy(&rec->raw_size, sz, 4);
		if (array(c, rec->raw_size, 1, &rec->raw, "the raw data"))
			return -EINVAL;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (u64(c, &rec->nr_branches, "the branch stack's length"))
			return -EINVAL;
		if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		    u64(c, &hw_idx, "the branch stack's hw index"))
			return -EINVAL;
		if (array(c, rec->nr_branches, 24, &rec->branches, "the branch stack"))
			return -EINVAL;
	}
	if ((st & PERF_SAMPLE_REGS_USER) &&
	    regs(c, attr->sample_regs_user, "the user registers", &rec->regs_user_abi,
		 &rec->regs_user))
		return -EINVAL;
	rec->regs_user_mask = rec->regs_user ? attr->sample_regs_user : 0;
	if ((st & PERF_SAMPLE_STACK_USER) && stack_user(c, rec))
		return -EINVAL;
	return 0;
}

static int sample_tail(struct cursor *c, const struct perf_event_attr *attr,
		       struct pmurt_perf_record *rec)
{
	uint64_t st = attr->sample_type, aux, intr_abi;
	const uint64_t *intr;
	const void *q;
	if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) &&
	    u64(c, &rec->weight, "the sample weight"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_DATA_SRC) && u64(c, &rec->data_src, "the data source"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_TRANSACTION) && u64(c, &rec->transaction, "the transaction"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_REGS_INTR) &&
	    regs(c, attr->sample_regs_intr, "the interrupt registers", &intr_abi, &intr))
		return -EINVAL;
	if ((st & PERF_SAMPLE_PHYS_ADDR) && u64(c, &rec->phys_addr, "the physical address"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CGROUP) && u64(c, &rec->cgroup, "the cgroup"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) && u64(c, &rec->data_page_size, "the data page size"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) && u64(c, &rec->code_page_size, "the code page size"))
		return -EINVAL;
	if ((st & PERF_SAMPLE_AUX) &&
	    (u64(c, &aux, "the aux sample's size") || array(c, aux, 1, &q, "the aux sample")))
		return -EINVAL;
	return 0;
}

int pd_parse_sample(const struct perf_event_attr *attr, const uint8_t *body,
		    size_t len, struct pmurt_perf_record *rec, const char **why)
{
	struct cursor c = {body, body + len, NULL};
	rec->has = attr->sample_type;
	if (sample_head(&c, attr->sample_type, rec) ||
	    ((attr->sample_type & PERF_SAMPLE_READ) && read_values(&c, attr->read_format, rec)) ||
	    sample_stacks(&c, attr, rec) || sample_tail(&c, attr, rec)) {
		*why = c.why;
		return -EINVAL;
	}
	return 0;
}

int pd_parse_trailer(uint64_t st, const uint8_t *body, size_t len,
		     struct pmurt_perf_record *rec, const char **why)
{
	size_t size = pd_trailer_size(st);
	if (size > len) {
		*why = "the sample_id_all trailer";
		return -EINVAL;
	}
	struct cursor c = {body + len - size, body + len, NULL};
	uint32_t res;
	uint64_t identifier;
	rec->has = st & TRAILER_BITS;
	if ((st & PERF_SAMPLE_TID) && u32pair(&c, &rec->pid, &rec->tid, NULL))
		return -EINVAL;
	if (st & PERF_SAMPLE_TIME)
		u64(&c, &rec->time, NULL);
	if (st & PERF_SAMPLE_ID)
		u64(&c, &rec->id, NULL);
	if (st & PERF_SAMPLE_STREAM_ID)
		u64(&c, &rec->stream_id, NULL);
	if (st & PERF_SAMPLE_CPU)
		u32pair(&c, &rec->cpu, &res, NULL);
	if ((st & PERF_SAMPLE_IDENTIFIER) && !u64(&c, &identifier, NULL))
		rec->id = identifier;
	return 0;
}
