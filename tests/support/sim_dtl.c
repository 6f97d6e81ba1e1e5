/*
 * sim_dtl.c - the vpa_dtl driver in the simulated kernel (sim_dtl.h).  The
 * functions follow arch/powerpc/perf/vpa-dtl.c one for one
 * (vpa_dtl_dump_sample_data, vpa_dtl_capture_aux, vpa_dtl_event_add's
 * registration, vpa_dtl_setup_aux's threshold) and kernel/events/
 * ring_buffer.c (perf_aux_output_begin, perf_aux_output_end,
 * rb_need_aux_wakeup); tests/dtl/check_driver_model.py checks them against
 * a separate model written from the same source.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dtl_gen.h"
#include "sim_dtl.h"

#define N_DISPATCH_LOG 85   /* 4096 / 48: the DTL buffer (asm/lppaca.h) */
#define SLOT PMURT_DTL_SLOT_SIZE
#define MAX_CPUS 256

struct dtl_cpu {
	bool seen;
	struct dtl_gen gen;          /* this CPU's dispatches */
	int fd;                      /* the event whose state follows */
	/* vpa_dtl_event_add: the DTL buffer registered, lppaca.dtl_idx */
	bool registered;
	uint8_t log[N_DISPATCH_LOG][SLOT];
	uint64_t dtl_idx, last_idx;  /* lppaca.dtl_idx, struct vpa_dtl.last_idx */
	/* struct vpa_pmu_buf (vpa_dtl_setup_aux) and rb->aux_wakeup */
	uint64_t head, head_size, threshold;
	bool full, boottb_freq_saved;
	uint64_t aux_wakeup;
	/* this poll: the buffer offset and bytes of each slot copied */
	uint64_t copied_off[N_DISPATCH_LOG];
	const uint8_t *copied[N_DISPATCH_LOG];
	unsigned ncopied;
};

struct pmu_sim_dtl {
	struct pmu_sim *sim;
	uint32_t type;
	struct pmu_sim_dtl_opts o;
	struct dtl_cpu cpus[MAX_CPUS];
	struct pmu_sim_dtl_stats st;
	uint8_t header[SLOT];
};

int pmu_sim_dtl_new(struct pmu_sim_dtl **out, struct pmu_sim *sim, uint32_t type,
		    const struct pmu_sim_dtl_opts *o)
{
	struct pmu_sim_dtl *d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->sim = sim;
	d->type = type;
	d->o = *o;
	if (!d->o.boot_tb)
		d->o.boot_tb = 1000000;
	if (!d->o.tb_freq)
		d->o.tb_freq = PMURT_DTL_DEFAULT_TB_FREQ;
	*out = d;
	return 0;
}

void pmu_sim_dtl_free(struct pmu_sim_dtl *d)
{
	free(d);
}

const struct pmu_sim_dtl_stats *pmu_sim_dtl_stats(const struct pmu_sim_dtl *d)
{
	return &d->st;
}

/* The CPU of event fd; a new event there has a new AUX area (setup_aux:
 * head, head_size, boottb_freq_saved all 0) and is not registered yet. */
static struct dtl_cpu *cpu_of(struct pmu_sim_dtl *d, int fd, int cpu)
{
	if (cpu < 0 || cpu >= MAX_CPUS)
		return NULL;
	struct dtl_cpu *c = &d->cpus[cpu];
	if (!c->seen) {
		c->seen = true;
		dtl_gen_init(&c->gen, d->o.seed + (uint64_t)cpu, d->o.boot_tb, d->o.tb_freq,
			     d->o.boot_tb + 1000);
		c->fd = -1;
	}
	if (c->fd != fd) {
		c->fd = fd;
		c->registered = false;
		c->head = c->head_size = c->threshold = c->aux_wakeup = 0;
		c->full = c->boottb_freq_saved = false;
	}
	return c;
}

/* vpa_dtl_capture_aux: n entries from the DTL buffer at index to the AUX
 * base at head; once head + n reaches the threshold, what fits, then head
 * 0 (head_size kept by the caller). */
static void capture_aux(struct pmu_sim_dtl *d, struct dtl_cpu *c, unsigned char *base,
			uint64_t *n, uint64_t index)
{
	if (c->head + *n >= c->threshold) {
		d->st.batch_dropped += *n - (c->threshold - c->head);
		*n = c->threshold - c->head;
		c->full = true;
	}
	for (uint64_t k = 0; k < *n; k++) {
		memcpy(base + (c->head + k) * SLOT, c->log[index + k], SLOT);
		c->copied_off[c->ncopied] = (c->head + k) * SLOT;
		c->copied[c->ncopied++] = c->log[index + k];
	}
	d->st.written += *n;
	if (c->full) {
		c->head = 0;
		return;
	}
	c->head += *n;
}

/* perf_aux_output_end: the record, aux_head, the wake-up; and which of
 * this poll's slots the output covers (reported) or not (lost past the
 * wrap: the driver reports other bytes for them). */
static void output_end(struct pmu_sim_dtl *d, struct dtl_cpu *c, struct perf_event_mmap_page *pc,
		       uint64_t aux_size, uint64_t size)
{
	uint64_t start = pc->aux_head, at = start & (aux_size - 1);
	for (unsigned k = 0; k < c->ncopied; k++) {
		bool covered = c->copied_off[k] >= at && c->copied_off[k] + SLOT <= at + size;
		if (!covered) {
			d->st.wrap_lost++;
			continue;
		}
		d->st.reported++;
		if (d->o.on_write)
			d->o.on_write(d->o.arg, pmu_sim_cpu(d->sim, c->fd),
				      start + c->copied_off[k] - at, c->copied[k]);
	}
	c->ncopied = 0;
	if (size == 0)
		return; /* no record: nothing useful (size 0, no flags) */
	d->st.tail_outputs += at >= c->threshold * SLOT;
	__atomic_store_n(&pc->aux_head, start + size, __ATOMIC_RELEASE);
	struct pmurt_dtl_header h = {.boot_tb = d->o.boot_tb, .tb_freq = d->o.tb_freq};
	uint64_t rec[4 + 6];
	struct perf_event_header hd = {.type = PERF_RECORD_AUX};
	rec[1] = start;
	rec[2] = size;
	rec[3] = 0; /* vpa-dtl.c sets no PERF_AUX_FLAG_* */
	size_t len = 32 + pmu_sim_trailer(d->sim, c->fd, 0, 0,
					  pmurt_dtl_time_exact(c->gen.tb, &h), rec + 4);
	hd.size = (uint16_t)len;
	memcpy(rec, &hd, sizeof(hd));
	if (pmu_sim_ring_write(d->sim, c->fd, rec, len) == 0)
		d->st.aux_records++;
	if (d->o.on_output)
		d->o.on_output(d->o.arg, pmu_sim_cpu(d->sim, c->fd), start, size);
	const struct perf_event_attr *a = pmu_sim_attr(d->sim, c->fd);
	uint64_t mark = a && a->aux_watermark ? a->aux_watermark : aux_size / 2;
	uint64_t head = start + size;
	if (head - c->aux_wakeup >= mark) {   /* rb_need_aux_wakeup */
		c->aux_wakeup = head - head % mark;
		pmu_sim_wake(d->sim, c->fd);
	}
}

/* The size vpa_dtl_dump_sample_data ends an output with: past the area,
 * the rest of the lap (its stale tail) and a new lap. */
static void end_output(struct pmu_sim_dtl *d, struct dtl_cpu *c, struct perf_event_mmap_page *pc,
		       uint64_t aux_size, uint64_t entries)
{
	uint64_t size = entries * SLOT;
	if (size + c->head_size > aux_size) {
		size = aux_size - c->head_size;
		output_end(d, c, pc, aux_size, size);
		c->head = 0;
		c->head_size = 0;
		d->st.wraps++;
	} else {
		c->head_size += size;
		output_end(d, c, pc, aux_size, size);
	}
}

/* perf_aux_output_begin: the area, unless it is full (the event disabled,
 * the reader woken) or not mapped. */
static unsigned char *output_begin(struct pmu_sim_dtl *d, struct dtl_cpu *c,
				   struct perf_event_mmap_page **pc, uint64_t *size)
{
	unsigned char *aux;
	if (pmu_sim_aux(d->sim, c->fd, pc, &aux, size) < 0)
		return NULL;
	uint64_t tail = __atomic_load_n(&(*pc)->aux_tail, __ATOMIC_ACQUIRE);
	if ((*pc)->aux_head - tail >= *size) {
		d->st.refused++;
		pmu_sim_disable(d->sim, c->fd);
		pmu_sim_wake(d->sim, c->fd);
		return NULL;
	}
	if (!c->threshold)
		c->threshold = (*size - 32) / SLOT;   /* vpa_dtl_setup_aux */
	return aux;
}

/* vpa_dtl_dump_sample_data, line for line. */
static void dump_sample_data(struct pmu_sim_dtl *d, struct dtl_cpu *c)
{
	uint64_t cur_idx = c->dtl_idx, last_idx = c->last_idx;
	if (last_idx + N_DISPATCH_LOG <= cur_idx) {
		d->st.hv_dropped += cur_idx - N_DISPATCH_LOG + 1 - last_idx;
		last_idx = cur_idx - N_DISPATCH_LOG + 1;
	}
	uint64_t n_req = cur_idx - last_idx, n_read = 0;
	if (n_req == 0)
		return;
	c->last_idx = last_idx + n_req;
	uint64_t i = last_idx % N_DISPATCH_LOG, aux_size;
	struct perf_event_mmap_page *pc;
	unsigned char *base = output_begin(d, c, &pc, &aux_size);
	if (!base) {
		d->st.core_dropped += n_req;
		return;
	}
	c->ncopied = 0;
	if (!c->boottb_freq_saved) {
		dtl_gen_header(&c->gen, d->header, d->o.swapped_header);
		memcpy(base, d->header, SLOT);
		c->head += 1;
		c->boottb_freq_saved = true;
		n_read += 1;
		d->st.headers++;
	}
	if (i + n_req > N_DISPATCH_LOG) {  /* read the tail of the buffer if we've wrapped */
		uint64_t read_size = N_DISPATCH_LOG - i, asked = read_size;
		capture_aux(d, c, base, &read_size, i);
		n_req -= read_size;
		n_read += read_size;
		i = 0;
		if (c->full) {
			/* the rest (n_req still holds what capture_aux cut, counted there) */
			d->st.batch_dropped += n_req - (asked - read_size);
			end_output(d, c, pc, aux_size, n_read);
			c->full = false;
			return;
		}
	}
	capture_aux(d, c, base, &n_req, i);   /* .. and now the head */
	end_output(d, c, pc, aux_size, n_req + n_read);
	c->full = false;
}

void pmu_sim_dtl_tick(struct pmu_sim_dtl *d, unsigned n)
{
	int fds[MAX_CPUS];
	int nfds = pmu_sim_fds_of(d->sim, d->type, fds, MAX_CPUS);
	for (int k = 0; k < nfds; k++) {
		struct dtl_cpu *c = cpu_of(d, fds[k], pmu_sim_cpu(d->sim, fds[k]));
		if (!c)
			continue;
		bool on = pmu_sim_enabled(d->sim, fds[k]);
		if (on && !c->registered) {     /* vpa_dtl_event_add */
			c->registered = true;
			c->dtl_idx = c->last_idx = 0;
		}
		c->registered = on;             /* vpa_dtl_event_del unregisters */
		for (unsigned e = 0; e < n; e++) {
			uint8_t discard[SLOT];
			dtl_gen_entry(&c->gen, on ? c->log[c->dtl_idx % N_DISPATCH_LOG] : discard, NULL);
			c->dtl_idx += on;
		}
		if (!on) {
			d->st.unlogged += n;
			continue;
		}
		d->st.generated += n;
		dump_sample_data(d, c);
	}
}
