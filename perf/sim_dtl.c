/*
 * sim_dtl.c - the vpa_dtl driver model (sim_dtl.h).  The rules are
 * arch/powerpc/perf/vpa-dtl.c's (vpa_dtl_capture_aux, the threshold and
 * "buffer full" wrap) and kernel/events/ring_buffer.c's
 * (perf_aux_output_begin's refusal when aux_head - aux_tail reaches the
 * size, perf_aux_output_end's PERF_RECORD_AUX and wake-up).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dtl_gen.h"
#include "sim_dtl.h"

#define HV_DTL_ENTRIES 85   /* 4096 / 48: the hypervisor's buffer */
#define MAX_EVENTS 1024
#define STALE_FILL 0xa5

struct dtl_cpu {
	int fd;
	struct dtl_gen gen;
	bool header_saved;       /* boottb_freq_saved */
	uint64_t wakeup;         /* aux_head at the last wake-up */
};

struct pmu_sim_dtl {
	struct pmu_sim *sim;
	uint32_t type;
	struct pmu_sim_dtl_opts o;
	struct dtl_cpu cpus[MAX_EVENTS];
	int ncpus;
	struct pmu_sim_dtl_stats st;
	uint8_t batch[(HV_DTL_ENTRIES + 1) * PMURT_DTL_SLOT_SIZE];
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

static struct dtl_cpu *cpu_of(struct pmu_sim_dtl *d, int fd)
{
	for (int i = 0; i < d->ncpus; i++)
		if (d->cpus[i].fd == fd)
			return &d->cpus[i];
	if (d->ncpus == MAX_EVENTS)
		return NULL;
	struct dtl_cpu *c = &d->cpus[d->ncpus++];
	int cpu = pmu_sim_cpu(d->sim, fd);
	*c = (struct dtl_cpu){.fd = fd};
	dtl_gen_init(&c->gen, d->o.seed + (uint64_t)cpu, d->o.boot_tb, d->o.tb_freq,
		     d->o.boot_tb + 1000);
	return c;
}

/* perf_aux_output_end: the record, then a wake-up past the watermark. */
static void output_end(struct pmu_sim_dtl *d, struct dtl_cpu *c, struct perf_event_mmap_page *pc,
		       uint64_t start, uint64_t end, uint64_t size)
{
	__atomic_store_n(&pc->aux_head, end, __ATOMIC_RELEASE);
	struct pmurt_dtl_header h = {.boot_tb = d->o.boot_tb, .tb_freq = d->o.tb_freq};
	uint64_t rec[4 + 6];
	struct perf_event_header hd = {.type = PERF_RECORD_AUX};
	rec[1] = start;
	rec[2] = end - start;
	rec[3] = 0; /* vpa-dtl.c sets no PERF_AUX_FLAG_* */
	size_t len = 32 + pmu_sim_trailer(d->sim, c->fd, 0, 0,
					  pmurt_dtl_time_exact(c->gen.tb, &h), rec + 4);
	hd.size = (uint16_t)len;
	memcpy(rec, &hd, sizeof(hd));
	if (pmu_sim_ring_write(d->sim, c->fd, rec, len) == 0)
		d->st.aux_records++;
	const struct perf_event_attr *a = pmu_sim_attr(d->sim, c->fd);
	uint64_t mark = a && a->aux_watermark ? a->aux_watermark : size / 2;
	if (end - c->wakeup >= mark) {
		c->wakeup = end;
		pmu_sim_wake(d->sim, c->fd);
	}
}

static void put_slot(struct pmu_sim_dtl *d, struct dtl_cpu *c, unsigned char *aux,
		     uint64_t size, uint64_t pos, const uint8_t *slot)
{
	memcpy(aux + (pos & (size - 1)), slot, PMURT_DTL_SLOT_SIZE);
	d->st.written++;
	if (d->o.on_write)
		d->o.on_write(d->o.arg, pmu_sim_cpu(d->sim, c->fd), pos, slot);
}

/* One expiry on one event: keep entries of the batch (the newest). */
static void capture(struct pmu_sim_dtl *d, struct dtl_cpu *c, const uint8_t *entries,
		    unsigned keep)
{
	struct perf_event_mmap_page *pc;
	unsigned char *aux;
	uint64_t size;
	if (keep == 0)
		return;
	if (pmu_sim_aux(d->sim, c->fd, &pc, &aux, &size) < 0) { /* not mapped yet */
		d->st.core_dropped += keep;
		return;
	}
	uint64_t pos = pc->aux_head, tail = __atomic_load_n(&pc->aux_tail, __ATOMIC_ACQUIRE);
	if (pos - tail >= size) { /* perf_aux_output_begin: no space */
		d->st.core_dropped += keep;
		d->st.refused++;
		pmu_sim_disable(d->sim, c->fd);
		pmu_sim_wake(d->sim, c->fd);
		return;
	}
	uint64_t start = pos, threshold = (size - 32) / PMURT_DTL_SLOT_SIZE;
	if (!c->header_saved) {
		uint8_t h[PMURT_DTL_SLOT_SIZE];
		dtl_gen_header(&c->gen, h, d->o.swapped_header);
		memcpy(aux + (pos & (size - 1)), h, sizeof(h));
		pos += PMURT_DTL_SLOT_SIZE;
		c->header_saved = true;
		d->st.headers++;
	}
	uint64_t lap = pos & ~(size - 1), fits = threshold - (pos - lap) / PMURT_DTL_SLOT_SIZE;
	unsigned n = keep < fits ? keep : (unsigned)fits;
	for (unsigned i = 0; i < n; i++, pos += PMURT_DTL_SLOT_SIZE)
		put_slot(d, c, aux, size, pos, entries + (size_t)i * PMURT_DTL_SLOT_SIZE);
	if (keep >= fits) { /* full: drop the rest, report the tail, wrap */
		d->st.batch_dropped += keep - n;
		d->st.wraps++;
		memset(aux + (pos & (size - 1)), STALE_FILL, (size_t)(lap + size - pos));
		pos = lap + size;
	}
	output_end(d, c, pc, start, pos, size);
}

void pmu_sim_dtl_tick(struct pmu_sim_dtl *d, unsigned n)
{
	int fds[MAX_EVENTS];
	int nfds = pmu_sim_fds_of(d->sim, d->type, fds, MAX_EVENTS);
	for (int i = 0; i < nfds; i++) {
		struct dtl_cpu *c = cpu_of(d, fds[i]);
		if (!c)
			continue;
		/* the hypervisor logs n entries; its buffer keeps the last 84
		 * when more than 85 piled up */
		unsigned keep = n > HV_DTL_ENTRIES ? HV_DTL_ENTRIES - 1 : n;
		for (unsigned k = 0; k < n; k++) {
			unsigned slot = k < n - keep ? 0 : k - (n - keep);
			dtl_gen_entry(&c->gen, d->batch + (size_t)slot * PMURT_DTL_SLOT_SIZE, NULL);
		}
		d->st.generated += n;
		d->st.hv_dropped += n - keep;
		if (!pmu_sim_enabled(d->sim, fds[i])) {
			d->st.core_dropped += keep;
			continue;
		}
		capture(d, c, d->batch, keep);
	}
}
