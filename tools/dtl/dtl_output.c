/*
 * dtl_output.c - `pmutool dtl report`'s outputs from struct dtl_stats: a
 * text summary, JSON (version 1, keys documented in pmutool(1)), one
 * self-contained HTML page (inline SVG and script, no network) and Chrome
 * trace-event JSON for ui.perfetto.dev and chrome://tracing (the vCPUs'
 * intervals, and the other events' samples beside them).
 *
 * An entry is logged at a dispatch: its timebase is the dispatch, and the
 * vCPU was off for the three times before it (waiting to be ready, ready
 * until enqueued, enqueued until dispatched); from one dispatch to the next
 * entry's preemption it ran.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dtl_stats.h"

#define JSON_VERSION 1
#define TIMELINE_BINS 200

static int out_status(FILE *out)
{
	return ferror(out) ? -EIO : 0;
}

static double percent_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* From the first entry to the last (0 if the timebase went backwards). */
static uint64_t span_of(const struct dtl_cpu *c)
{
	return c->last_tb > c->first_tb ? c->last_tb - c->first_tb : 0;
}

static uint64_t off_ticks(const struct dtl_cpu *c, size_t i)
{
	return (uint64_t)c->times[DTL_ENQUEUE_TO_DISPATCH][i] +
	       c->times[DTL_READY_TO_ENQUEUE][i] + c->times[DTL_WAITING_TO_READY][i];
}

/* --- text ------------------------------------------------------------------ */
static void text_mix(FILE *out, const char *what, const uint64_t *mix, uint64_t total,
		     bool preempt)
{
	fprintf(out, "  %s reasons:\n", what);
	for (unsigned r = 0; r < 256; r++) {
		if (!mix[r])
			continue;
		char buf[16];
		fprintf(out, "    %-34s %3u %12" PRIu64 " %6.2f%%\n",
			pmurt_dtl_reason_text(preempt, r, buf), r, mix[r], percent_of(mix[r], total));
	}
}

static void text_cpu(const struct dtl_stats *s, const struct dtl_cpu *c, FILE *out)
{
	if (c->cpu < 0)
		fprintf(out, "all CPUs:\n");
	else
		fprintf(out, "CPU %d:\n", c->cpu);
	uint64_t span = span_of(c);
	fprintf(out, "  dispatches %" PRIu64 ", skipped %" PRIu64 ", stale bytes %" PRIu64 "\n",
		c->dispatches, c->skipped, c->stale_bytes);
	fprintf(out, "  steal %.3f us over %.3f us (%.2f%%)\n", dtl_us(s, c->steal), dtl_us(s, span),
		percent_of(c->steal, span));
	text_mix(out, "dispatch", c->dispatch_mix, c->dispatches, false);
	text_mix(out, "preempt", c->preempt_mix, c->dispatches, true);
	fprintf(out, "  %-22s %12s %12s %12s %12s\n", "time (us)", "p50", "p90", "p99", "max");
	for (int k = 0; k < DTL_NTIMES; k++) {
		const struct dtl_dist *d = &c->dist[k];
		fprintf(out, "  %-22s %12.3f %12.3f %12.3f %12.3f\n", dtl_time_names[k],
			dtl_us(s, d->p50), dtl_us(s, d->p90), dtl_us(s, d->p99), dtl_us(s, d->max));
	}
}

int dtl_report_text(const struct dtl_stats *s, FILE *out)
{
	fprintf(out, "vpa_dtl: %zu CPU%s, %" PRIu64 " dispatches, tb_freq %" PRIu64 " (%s)\n",
		s->ncpus, s->ncpus == 1 ? "" : "s", s->overall.dispatches, dtl_tb_freq(s),
		dtl_tb_freq_from(s));
	for (size_t i = 0; i < s->ncpus; i++)
		text_cpu(s, &s->cpus[i], out);
	text_cpu(s, &s->overall, out);
	return out_status(out);
}

/* --- JSON ------------------------------------------------------------------ */
static void json_mix(FILE *out, const char *key, const uint64_t *mix, bool preempt)
{
	fprintf(out, "\"%s\":[", key);
	const char *sep = "";
	for (unsigned r = 0; r < 256; r++) {
		if (!mix[r])
			continue;
		char buf[16];
		fprintf(out, "%s{\"code\":%u,\"reason\":\"%s\",\"count\":%" PRIu64 "}", sep, r,
			pmurt_dtl_reason_text(preempt, r, buf), mix[r]);
		sep = ",";
	}
	fputc(']', out);
}

static void json_dist(const struct dtl_stats *s, FILE *out, const struct dtl_dist *d)
{
	fprintf(out, "{\"count\":%" PRIu64 ",\"mean\":%.3f,\"p50\":%.3f,\"p90\":%.3f,"
		"\"p99\":%.3f,\"max\":%.3f,\"log2_histogram\":[",
		d->count, d->count ? dtl_us(s, d->sum) / (double)d->count : 0.0,
		dtl_us(s, d->p50), dtl_us(s, d->p90), dtl_us(s, d->p99), dtl_us(s, d->max));
	int last = DTL_HIST_BUCKETS - 1;
	while (last >= 0 && !d->hist[last])
		last--;
	for (int b = 0; b <= last; b++)
		fprintf(out, "%s{\"lo_us\":%llu,\"hi_us\":%llu,\"count\":%" PRIu64 "}",
			b ? "," : "", b ? 1ull << (b - 1) : 0ull, 1ull << b, d->hist[b]);
	fputs("]}", out);
}

static void json_cpu(const struct dtl_stats *s, const struct dtl_cpu *c, FILE *out)
{
	fputc('{', out);
	if (c->cpu >= 0)
		fprintf(out, "\"cpu\":%d,", c->cpu);
	uint64_t span = span_of(c);
	fprintf(out, "\"dispatches\":%" PRIu64 ",\"skipped\":%" PRIu64 ",\"stale_bytes\":%" PRIu64
		",\"span_us\":%.3f,\"steal_us\":%.3f,\"steal_percent\":%.2f,",
		c->dispatches, c->skipped, c->stale_bytes, dtl_us(s, span), dtl_us(s, c->steal),
		percent_of(c->steal, span));
	json_mix(out, "dispatch_reasons", c->dispatch_mix, false);
	fputc(',', out);
	json_mix(out, "preempt_reasons", c->preempt_mix, true);
	for (int k = 0; k < DTL_NTIMES; k++) {
		fprintf(out, ",\"%s_us\":", dtl_time_names[k]);
		json_dist(s, out, &c->dist[k]);
	}
	fputc('}', out);
}

/* "warning_count", the count per kind, and the first warnings kept */
static void json_warnings(const struct dtl_warnings *w, FILE *out)
{
	fprintf(out, ",\"warning_count\":%" PRIu64 ",\"warning_kinds\":{", w->total);
	for (int k = 0; k < DTL_NWARN; k++)
		fprintf(out, "%s\"%s\":%" PRIu64, k ? "," : "", dtl_warn_names[k], w->count[k]);
	fputs("},\"warnings\":[", out);
	for (size_t i = 0; i < w->nkept; i++) {
		const struct dtl_warning *k = &w->kept[i];
		fprintf(out, "%s{\"kind\":\"%s\",", i ? "," : "", dtl_warn_names[k->kind]);
		if (k->cpu >= 0)
			fprintf(out, "\"cpu\":%d,", k->cpu);
		fprintf(out, "\"offset\":%" PRIu64 ",\"message\":\"%s\"}", k->offset, k->text);
	}
	fputc(']', out);
}

int dtl_report_json(const struct dtl_stats *s, FILE *out)
{
	fprintf(out, "{\"version\":%d,\"tb_freq\":%" PRIu64 ",\"tb_freq_from\":\"%s\",\"cpus\":[",
		JSON_VERSION, dtl_tb_freq(s), dtl_tb_freq_from(s));
	for (size_t i = 0; i < s->ncpus; i++) {
		if (i)
			fputc(',', out);
		json_cpu(s, &s->cpus[i], out);
	}
	fputs("],\"overall\":", out);
	json_cpu(s, &s->overall, out);
	json_warnings(&s->warn, out);
	fputs("}\n", out);
	return out_status(out);
}

/* --- HTML ------------------------------------------------------------------ */
/* The tables are built by the page's script from the embedded JSON (the same
 * as --json), so the page shows the numbers the JSON holds; the timeline and
 * the histograms are SVG written here. */
static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<title>vpa_dtl report</title>\n<style>\n"
	"body{font-family:sans-serif;margin:1em 2em}table{border-collapse:collapse;margin:0 2em 1em 0}"
	"td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}"
	".mix{display:inline-block;vertical-align:top}td[data-key=reason]{text-align:left}"
	".hbar{background:#4a78b0;height:10px}td.barcell{width:120px;text-align:left}"
	".bar{fill:#4a78b0}.off{fill:#c0392b}.lbl,.tick,.count{font-size:10px}"
	".axis{font-size:12px}.grid{stroke:#ddd}.frame{stroke:#333}svg{background:#f8f8f8}\n"
	"</style></head><body>\n<h1>vpa_dtl: Dispatch Trace Log report</h1>\n"
	"<h2>Summary</h2>\n<p>Steal: the time a vCPU was ready but not running (enqueue to "
	"dispatch plus ready to enqueue), against the span from its first entry to its last.</p>\n"
	"<table id=\"summary\"><thead><tr><th>CPU</th><th>dispatches</th><th>span</th>"
	"<th>steal</th><th>steal %</th></tr></thead><tbody></tbody></table>\n"
	"<p id=\"warnings\" hidden></p>\n"
	"<h2>Reasons, all CPUs</h2>\n"
	"<table class=\"mix\" id=\"dispatch-reasons\"><thead><tr><th>dispatch reason</th>"
	"<th>code</th><th>count</th><th>%</th><th></th></tr></thead><tbody></tbody></table>\n"
	"<table class=\"mix\" id=\"preempt-reasons\"><thead><tr><th>preempt reason</th>"
	"<th>code</th><th>count</th><th>%</th><th></th></tr></thead><tbody></tbody></table>\n"
	"<h2>Times off the CPU</h2>\n<table id=\"times\"><thead><tr><th>CPU</th><th>time</th>"
	"<th>entries</th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>"
	"</thead><tbody></tbody></table>\n";

static const char html_script[] =
	"<script>\n\"use strict\";\n"
	"const data = JSON.parse(document.getElementById('dtl-data').textContent);\n"
	"const metrics = ['enqueue_to_dispatch_us', 'ready_to_enqueue_us', 'waiting_to_ready_us'];\n"
	"// microseconds in us, ms or s, whichever keeps the number below 1000\n"
	"function dur(us) {\n"
	"  if (us < 1e3) return us.toFixed(3) + ' \\u00b5s';\n"
	"  if (us < 1e6) return (us / 1e3).toFixed(3) + ' ms';\n"
	"  return (us / 1e6).toFixed(3) + ' s';\n}\n"
	"// a row of [key, text] cells; a key 'bar' is a bar of text percent\n"
	"function row(id, cells, attrs) {\n"
	"  const tr = document.createElement('tr');\n"
	"  for (const [key, text] of cells) {\n"
	"    const td = document.createElement('td');\n"
	"    td.dataset.key = key;\n"
	"    if (key === 'bar') {\n"
	"      const div = document.createElement('div');\n"
	"      div.className = 'hbar'; div.style.width = text + '%';\n"
	"      td.className = 'barcell'; td.appendChild(div);\n"
	"    } else {\n"
	"      td.textContent = text;\n    }\n"
	"    tr.appendChild(td);\n  }\n"
	"  Object.assign(tr.dataset, attrs);\n"
	"  document.querySelector('#' + id + ' tbody').appendChild(tr);\n}\n"
	"for (const c of data.cpus.concat([data.overall])) {\n"
	"  const cpu = c.cpu === undefined ? 'all' : String(c.cpu);\n"
	"  row('summary', [['cpu', cpu], ['dispatches', String(c.dispatches)],\n"
	"    ['span', dur(c.span_us)], ['steal', dur(c.steal_us)],\n"
	"    ['steal_percent', c.steal_percent.toFixed(2)]], {cpu: cpu});\n"
	"  for (const m of metrics) {\n"
	"    const d = c[m];\n"
	"    row('times', [['cpu', cpu], ['time', m.replace(/_us$/, '')], ['count', String(d.count)],\n"
	"      ['mean', dur(d.mean)], ['p50', dur(d.p50)], ['p90', dur(d.p90)], ['p99', dur(d.p99)],\n"
	"      ['max', dur(d.max)]], {cpu: cpu, metric: m});\n  }\n}\n"
	"for (const kind of ['dispatch', 'preempt']) {\n"
	"  for (const r of data.overall[kind + '_reasons']) {\n"
	"    const pct = 100 * r.count / data.overall.dispatches;\n"
	"    row(kind + '-reasons', [['reason', r.reason], ['code', String(r.code)],\n"
	"      ['count', String(r.count)], ['percent', pct.toFixed(2)], ['bar', pct.toFixed(2)]],\n"
	"      {code: String(r.code)});\n  }\n}\n"
	"if (data.warning_count) {\n"
	"  const p = document.getElementById('warnings');\n"
	"  p.textContent = 'Warning: ' + data.warning_count + ' values a hypervisor '\n"
	"    + 'cannot have logged (' + Object.entries(data.warning_kinds).filter(([k, n]) => n)\n"
	"    .map(([k, n]) => k + ' ' + n).join(', ') + '): the figures above include them.';\n"
	"  p.hidden = false;\n}\n"
	"document.body.dataset.rendered = 'yes';\n</script>\n";

/* Microseconds as the page's dur() writes them: us, ms or s by magnitude. */
static void html_duration(double us, char *buf, size_t n)
{
	if (us < 1e3)
		snprintf(buf, n, "%.3f \u00b5s", us);
	else if (us < 1e6)
		snprintf(buf, n, "%.3f ms", us / 1e3);
	else
		snprintf(buf, n, "%.3f s", us / 1e6);
}

/* A histogram's bucket edge (a power of two of microseconds), short. */
static void html_edge(uint64_t us, char *buf, size_t n)
{
	if (us < 1000)
		snprintf(buf, n, "%" PRIu64 " \u00b5s", us);
	else if (us < 1000000)
		snprintf(buf, n, "%g ms", (double)us / 1e3);
	else
		snprintf(buf, n, "%g s", (double)us / 1e6);
}

/* The count axis's step: 1, 2 or 5 times a power of ten, at most 5 steps. */
static uint64_t html_count_step(uint64_t top)
{
	for (uint64_t p = 1;; p *= 10)
		for (int k = 0; k < 3; k++) {
			uint64_t step = p * (uint64_t[]){1, 2, 5}[k];
			if (step * 5 >= top)
				return step;
		}
}

enum { HIST_BAR = 40, HIST_LEFT = 64, HIST_TOP = 18, HIST_PLOT = 150, HIST_BOTTOM = 84,
       HIST_MIN_WIDTH = 480 };

static void html_hist_axes(FILE *out, const char *name, int nb, uint64_t ymax, uint64_t step,
			   int width, int height)
{
	const int base = HIST_TOP + HIST_PLOT, right = HIST_LEFT + nb * HIST_BAR;
	for (uint64_t v = 0; v <= ymax; v += step) {
		int y = base - (int)((double)v * HIST_PLOT / (double)ymax);
		fprintf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
			"<text class=\"tick\" text-anchor=\"end\" x=\"%d\" y=\"%d\">%" PRIu64
			"</text>\n", HIST_LEFT, y, right, y, HIST_LEFT - 4, y + 3, v);
	}
	fprintf(out, "<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
		"<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		HIST_LEFT, HIST_TOP, HIST_LEFT, base, HIST_LEFT, base, right, base);
	for (int i = 0; i <= nb; i++) { /* edge i: bucket i's lower bound */
		char label[32];
		html_edge(i ? 1ull << (i - 1) : 0, label, sizeof(label));
		int x = HIST_LEFT + i * HIST_BAR;
		fprintf(out, "<line class=\"frame\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
			"<text class=\"tick\" text-anchor=\"end\" transform=\"translate(%d,%d) "
			"rotate(-45)\">%s</text>\n", x, base, x, base + 4, x + 3, base + 12, label);
	}
	fprintf(out, "<text class=\"axis\" text-anchor=\"middle\" x=\"%d\" y=\"%d\">%s "
		"(log2 buckets)</text>\n<text class=\"axis\" text-anchor=\"middle\" "
		"transform=\"translate(14,%d) rotate(-90)\">entries</text>\n",
		width / 2, height - 8, name, HIST_TOP + HIST_PLOT / 2);
}

static void html_histogram(FILE *out, const char *name, const struct dtl_dist *d)
{
	int last = DTL_HIST_BUCKETS - 1; /* the bars up to the last non-empty one */
	while (last >= 0 && !d->hist[last])
		last--;
	const int nb = last + 1;
	uint64_t top = 1;
	for (int b = 0; b < nb; b++)
		top = d->hist[b] > top ? d->hist[b] : top;
	const uint64_t step = html_count_step(top), ymax = (top + step - 1) / step * step;
	int width = HIST_LEFT + nb * HIST_BAR + 24;
	width = width < HIST_MIN_WIDTH ? HIST_MIN_WIDTH : width;
	const int height = HIST_TOP + HIST_PLOT + HIST_BOTTOM;
	fprintf(out, "<h3>%s: %" PRIu64 " entries</h3>\n<svg class=\"hist\" width=\"%d\" "
		"height=\"%d\" role=\"img\">\n", name, d->count, width, height);
	html_hist_axes(out, name, nb, ymax, step, width, height);
	for (int b = 0; b < nb; b++) {
		int bh = (int)((double)d->hist[b] * HIST_PLOT / (double)ymax);
		int x = HIST_LEFT + b * HIST_BAR, y = HIST_TOP + HIST_PLOT - bh;
		fprintf(out, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\">"
			"<title>[%llu, %llu) us: %" PRIu64 "</title></rect>\n", x + 2, y,
			HIST_BAR - 4, bh, b ? 1ull << (b - 1) : 0ull, 1ull << b, d->hist[b]);
		if (d->hist[b])
			fprintf(out, "<text class=\"count\" text-anchor=\"middle\" x=\"%d\" y=\"%d\">"
				"%" PRIu64 "</text>\n", x + HIST_BAR / 2, y - 3, d->hist[b]);
	}
	fputs("</svg>\n", out);
}

/* The share of each bin of [t0, t1) each CPU spent preempted. */
static void html_timeline(const struct dtl_stats *s, FILE *out)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	for (size_t i = 0; i < s->ncpus; i++)
		for (size_t j = 0; j < s->cpus[i].n; j++) {
			uint64_t tb = s->cpus[i].tb[j];
			t0 = tb < t0 ? tb : t0;
			t1 = tb > t1 ? tb : t1;
		}
	if (t1 <= t0)
		return;
	double bin = (double)(t1 - t0) / TIMELINE_BINS;
	char column[32], span[32];
	html_duration(dtl_us(s, (uint64_t)bin), column, sizeof(column));
	html_duration(dtl_us(s, t1 - t0), span, sizeof(span));
	fprintf(out, "<h2>Timeline: time preempted per CPU</h2>\n<p>%s from the first entry to "
		"the last, %s per column; the darker, the longer the CPU was off.</p>\n"
		"<svg width=\"%d\" height=\"%zu\">\n", span, column, TIMELINE_BINS * 4 + 60,
		s->ncpus * 16 + 4);
	for (size_t i = 0; i < s->ncpus; i++) {
		const struct dtl_cpu *c = &s->cpus[i];
		double off[TIMELINE_BINS] = {0};
		for (size_t j = 0; j < c->n; j++) {
			uint64_t o = off_ticks(c, j);
			double a = (double)(c->tb[j] - t0) - (double)o, b = (double)(c->tb[j] - t0);
			for (int k = a < 0 ? 0 : (int)(a / bin); k < TIMELINE_BINS && k * bin < b; k++) {
				double lo = k * bin > a ? k * bin : a, hi = (k + 1) * bin < b ? (k + 1) * bin : b;
				off[k] += hi - lo;
			}
		}
		fprintf(out, "<text class=\"lbl\" x=\"0\" y=\"%zu\">CPU %d</text>\n", i * 16 + 12, c->cpu);
		for (int k = 0; k < TIMELINE_BINS; k++)
			if (off[k] > 0)
				fprintf(out, "<rect class=\"off\" x=\"%d\" y=\"%zu\" width=\"4\" height=\"14\""
					" opacity=\"%.2f\"/>\n", 60 + k * 4, i * 16 + 2,
					off[k] / bin > 1 ? 1.0 : off[k] / bin);
	}
	fputs("</svg>\n", out);
}

int dtl_report_html(const struct dtl_stats *s, FILE *out)
{
	fputs(html_head, out);
	html_timeline(s, out);
	fputs("<h2>Distributions, all CPUs</h2>\n", out);
	for (int k = 0; k < DTL_NTIMES; k++)
		html_histogram(out, dtl_time_names[k], &s->overall.dist[k]);
	fputs("<script type=\"application/json\" id=\"dtl-data\">", out);
	dtl_report_json(s, out);
	fputs("</script>\n", out);
	fputs(html_script, out);
	fputs("</body></html>\n", out);
	return out_status(out);
}

/* --- Chrome trace events ------------------------------------------------------ */
static double trace_us(const struct dtl_stats *s, uint64_t tb)
{
	uint64_t boot = s->have_header ? s->header.boot_tb : 0;
	return dtl_us(s, tb - boot);
}

static void trace_cpu(const struct dtl_stats *s, const struct dtl_cpu *c, FILE *out)
{
	fprintf(out, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\","
		"\"args\":{\"name\":\"vCPU %d\"}}", c->cpu, c->cpu);
	double run_from = -1;
	for (size_t i = 0; i < c->n; i++) {
		uint64_t o = off_ticks(c, i);
		double end = trace_us(s, c->tb[i]), start = end - dtl_us(s, o);
		if (run_from >= 0 && start > run_from)
			fprintf(out, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"name\":\"running\","
				"\"ts\":%.3f,\"dur\":%.3f}", c->cpu, run_from, start - run_from);
		char db[16], pb[16];
		fprintf(out, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"name\":\"preempted: %s\","
			"\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"dispatch_reason\":\"%s\","
			"\"enqueue_to_dispatch_us\":%.3f,\"ready_to_enqueue_us\":%.3f,"
			"\"waiting_to_ready_us\":%.3f}}", c->cpu,
			pmurt_dtl_reason_text(true, c->reasons[2 * i + 1], pb), start, end - start,
			pmurt_dtl_reason_text(false, c->reasons[2 * i], db),
			dtl_us(s, c->times[DTL_ENQUEUE_TO_DISPATCH][i]),
			dtl_us(s, c->times[DTL_READY_TO_ENQUEUE][i]),
			dtl_us(s, c->times[DTL_WAITING_TO_READY][i]));
		run_from = end;
	}
}

/* The other events' samples as instant events on their CPU's track. */
static void trace_marks(const struct dtl_stats *s, FILE *out)
{
	for (size_t i = 0; i < s->nmarks; i++) {
		const struct dtl_mark *m = &s->marks[i];
		fprintf(out, ",\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%d,\"name\":\"",
			m->cpu);
		for (const char *c = m->name; *c; c++) /* JSON string: escape what needs it */
			fprintf(out, *c == '"' || *c == '\\' ? "\\%c" : (unsigned char)*c < 0x20 ?
				"\\u%04x" : "%c", *c);
		fprintf(out, "\",\"ts\":%.3f}", (double)m->time / 1000.0);
	}
}

int dtl_report_perfetto(const struct dtl_stats *s, FILE *out)
{
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1,"
	      "\"name\":\"process_name\",\"args\":{\"name\":\"vpa_dtl vCPUs\"}}", out);
	for (size_t i = 0; i < s->ncpus; i++)
		trace_cpu(s, &s->cpus[i], out);
	trace_marks(s, out);
	fputs("\n]}\n", out);
	return out_status(out);
}
