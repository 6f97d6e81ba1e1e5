/*
 * metric.c - perf's metrics in the model: the expression grammar perf's
 * pmu-events JSON uses (tools/perf/util/expr.l and expr.y), compiled into a
 * small postfix program over the metric's events, and evaluated from their
 * counts exactly where it can be (reduced fractions of 64-bit integers, as
 * presets are: -ERANGE on overflow, -EDOM on division by zero) beside the
 * double perf itself computes.
 *
 * Grammar, lowest precedence first, as expr.y declares it:
 *   e IF e ELSE e;  |;  ^;  &;  < >;  + -;  * / %;  unary - and !;
 *   primary: number, event, metric name, #literal, ( e ), min(e, e),
 *   max(e, e), d_ratio(e, e).
 * A symbol is expr.l's {symbol}: runs of [0-9a-zA-Z_.:@?] and backslash
 * escapes ("hv_24x7@PM_PB_VG_PUMP01\,chip\=?@" is one symbol).  Another
 * metric named in an expression is inlined (perf resolves metric references
 * without case, metricgroup.c); a cycle is refused.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frac.h"
#include "pmu_model.h"

#define METRIC_MAX_DEPTH 8     /* metrics nested by reference */
#define METRIC_MAX_STACK 64    /* evaluation stack */
#define METRIC_MAX_NEST 64     /* parentheses */

/* perf's #literals (tools/perf/util/expr.c expr__get_literal), in the order
 * of enum pmu_metric_literal. */
static const char *const literal_names[PMU_METRIC_NLITERALS] = {
	"#smt_on", "#core_wide", "#num_cpus", "#num_cpus_online", "#num_cores",
	"#num_dies", "#num_packages", "#system_tsc_freq",
};

const char *pmu_metric_literal_name(int i)
{
	return i >= 0 && i < PMU_METRIC_NLITERALS ? literal_names[i] : "?";
}

int pmu_model_metric(const struct pmu_model *m, const char *name)
{
	for (int i = 0; i < m->nmetrics; i++)
		if (pmu_name_eq_nocase(m->metrics[i].name, name))
			return i;
	return -1;
}

bool pmu_metric_in_group(const struct pmu_metric *m, const char *group)
{
	size_t n = strlen(group);

	for (const char *g = m->groups; g && *g;) {
		size_t len = strcspn(g, ";");
		if (len == n && len > 0) {
			char buf[128];
			if (len < sizeof(buf)) {
				memcpy(buf, g, len);
				buf[len] = '\0';
				if (pmu_name_eq_nocase(buf, group))
					return true;
			}
		}
		g += len + (g[len] == ';');
	}
	return false;
}

/* --- the compiled program ---------------------------------------------------- */
void pmu_metric_prog_free(struct pmu_metric_prog *p)
{
	for (int i = 0; i < p->nevents; i++)
		free(p->events[i]);
	free(p->events);
	free(p->ins);
	memset(p, 0, sizeof(*p));
}

static int emit(struct pmu_metric_prog *p, struct pmu_metric_ins ins)
{
	if (p->nins % 32 == 0) {
		struct pmu_metric_ins *g = realloc(p->ins, (size_t)(p->nins + 32) * sizeof(*g));
		if (!g)
			return -ENOMEM;
		p->ins = g;
	}
	p->ins[p->nins++] = ins;
	return 0;
}

/* The index of event name (len bytes) in p's list, added when new. */
static int event_slot(struct pmu_metric_prog *p, const char *name, size_t len)
{
	for (int i = 0; i < p->nevents; i++)
		if (strlen(p->events[i]) == len && memcmp(p->events[i], name, len) == 0)
			return i;
	if (p->nevents % 16 == 0) {
		char **g = realloc(p->events, (size_t)(p->nevents + 16) * sizeof(*g));
		if (!g)
			return -ENOMEM;
		p->events = g;
	}
	char *copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, name, len);
	copy[len] = '\0';
	p->events[p->nevents] = copy;
	return p->nevents++;
}

/* --- tokens ------------------------------------------------------------------- */
enum tok { T_END, T_NUM, T_SYM, T_LIT, T_OP, T_IF, T_ELSE, T_MIN, T_MAX, T_DRATIO, T_BAD };

struct lexer {
	const char *s;
	size_t pos;           /* next unread byte */
	enum tok kind;        /* the current token */
	size_t off, len;      /* its place */
	char op;
};

static bool sym_char(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch && strchr("_.:@?", ch) != NULL);
}

static bool word_is(const struct lexer *l, const char *w)
{
	return strlen(w) == l->len && memcmp(l->s + l->off, w, l->len) == 0;
}

static void lex_symbol(struct lexer *l)
{
	size_t p = l->pos;
	while (l->s[p] && (sym_char(l->s[p]) || (l->s[p] == '\\' && l->s[p + 1])))
		p += l->s[p] == '\\' ? 2 : 1;
	l->len = p - l->off;
	l->pos = p;
	l->kind = T_SYM;
	if (word_is(l, "if"))
		l->kind = T_IF;
	else if (word_is(l, "else"))
		l->kind = T_ELSE;
	else if (word_is(l, "min"))
		l->kind = T_MIN;
	else if (word_is(l, "max"))
		l->kind = T_MAX;
	else if (word_is(l, "d_ratio"))
		l->kind = T_DRATIO;
}

/* expr.l's number: digits with an optional point and exponent */
static void lex_number(struct lexer *l)
{
	size_t p = l->pos;
	while ((l->s[p] >= '0' && l->s[p] <= '9') || l->s[p] == '.')
		p++;
	if ((l->s[p] == 'e' || l->s[p] == 'E') &&
	    ((l->s[p + 1] >= '0' && l->s[p + 1] <= '9') ||
	     ((l->s[p + 1] == '-' || l->s[p + 1] == '+') && l->s[p + 2] >= '0' && l->s[p + 2] <= '9'))) {
		p += 2;
		while (l->s[p] >= '0' && l->s[p] <= '9')
			p++;
	}
	l->kind = T_NUM;
	l->len = p - l->off;
	l->pos = p;
}

static void next(struct lexer *l)
{
	while (l->s[l->pos] == ' ' || l->s[l->pos] == '\t' || l->s[l->pos] == '\n')
		l->pos++;
	l->off = l->pos;
	char ch = l->s[l->pos];
	if (!ch) {
		l->kind = T_END;
		l->len = 0;
	} else if ((ch >= '0' && ch <= '9') || (ch == '.' && l->s[l->pos + 1] >= '0' &&
						l->s[l->pos + 1] <= '9')) {
		lex_number(l);
	} else if (ch == '#') {
		l->pos++;
		while (sym_char(l->s[l->pos]) || l->s[l->pos] == '-')
			l->pos++;
		l->kind = T_LIT;
		l->len = l->pos - l->off;
	} else if (sym_char(ch) || ch == '\\') {
		lex_symbol(l);
	} else if (strchr("+-*/%()<>|^&!,", ch)) {
		l->kind = T_OP;
		l->op = ch;
		l->len = 1;
		l->pos++;
	} else {
		l->kind = T_BAD;
		l->len = 1;
	}
}

/* --- numbers as fractions --------------------------------------------------------- */
/* A decimal such as "100", "1.063" or "2.5e-7" as num/den when both fit in
 * 64 bits; false when not (the value is then only a double). */
static bool decimal_fraction(const char *s, size_t len, int64_t *num, int64_t *den)
{
	int64_t n = 0, d = 1;
	size_t i = 0;
	bool point = false;

	for (; i < len && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] == '.') {
			if (point)
				return false;
			point = true;
			continue;
		}
		if (__builtin_mul_overflow(n, 10, &n) || __builtin_add_overflow(n, s[i] - '0', &n))
			return false;
		if (point && __builtin_mul_overflow(d, 10, &d))
			return false;
	}
	if (i < len && n == 0) {
		*num = 0;
		*den = 1;
		return true; /* 0e99999 */
	}
	if (i < len) {
		long e = strtol(s + i + 1, NULL, 10);
		if (e > 40 || e < -40)
			return false; /* no 64-bit fraction holds it */
		for (; e > 0; e--)
			if (__builtin_mul_overflow(n, 10, &n))
				return false;
		for (; e < 0; e++)
			if (__builtin_mul_overflow(d, 10, &d))
				return false;
	}
	*num = n;
	*den = d;
	return true;
}

/* --- parser -------------------------------------------------------------------- */
struct parser {
	const struct pmu_model *m;
	const struct pmu_metric *metric; /* the one compiled (its pmus) */
	struct lexer l;
	struct pmu_metric_prog *out;
	int depth, nest;
	int stack[METRIC_MAX_DEPTH];     /* metrics being inlined */
	char *why;
	size_t whylen, at;
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->depth > 1)
		snprintf(p->why, p->whylen, "in metric %s: %s", p->metric->name, msg);
	else
		snprintf(p->why, p->whylen, "%s", msg);
	if (p->depth <= 1)
		p->at = p->l.off;
	return -EINVAL;
}

static int put(struct parser *p, enum pmu_metric_opcode op, int32_t arg)
{
	return emit(p->out, (struct pmu_metric_ins){.op = op, .arg = arg}) ? -ENOMEM : 0;
}

static int parse_expr(struct parser *p);

/* name@terms@: an event of another PMU the metric names in its pmus */
static bool foreign_pmu(const struct parser *p, const char *s, size_t len)
{
	const char *at = memchr(s, '@', len);
	if (!at || !p->metric->pmus)
		return false;
	size_t n = (size_t)(at - s);
	for (const char *q = p->metric->pmus; *q;) {
		size_t w = strcspn(q, " ");
		if (w == n && memcmp(q, s, n) == 0)
			return true;
		q += w;
		while (*q == ' ')
			q++;
	}
	return false;
}

static int inline_metric(struct parser *p, int index);

static int parse_symbol(struct parser *p)
{
	const char *s = p->l.s + p->l.off;
	size_t len = p->l.len;
	char name[256];

	if (len >= sizeof(name))
		return fail(p, "a name of %zu characters (at most %zu)", len, sizeof(name) - 1);
	memcpy(name, s, len);
	name[len] = '\0';
	if (pmu_model_event(p->m, name) >= 0 || foreign_pmu(p, s, len)) {
		int slot = event_slot(p->out, s, len);
		if (slot < 0)
			return slot;
		next(&p->l);
		return put(p, PMU_MOP_EVENT, slot);
	}
	int mi = pmu_model_metric(p->m, name);
	if (mi >= 0) {
		int rc = inline_metric(p, mi);
		if (rc == 0)
			next(&p->l);
		return rc;
	}
	return fail(p, "'%s' is no event, metric or constant of the description", name);
}

static int inline_metric(struct parser *p, int index)
{
	for (int d = 0; d < p->depth; d++)
		if (p->stack[d] == index)
			return fail(p, "metric %s refers to itself", p->m->metrics[index].name);
	if (p->depth == METRIC_MAX_DEPTH)
		return fail(p, "metrics nested deeper than %d", METRIC_MAX_DEPTH);
	if (p->depth == 1)
		p->at = p->l.off; /* errors inside are reported at the reference */
	struct lexer saved = p->l;
	const struct pmu_metric *saved_metric = p->metric;
	p->stack[p->depth++] = index;
	p->metric = &p->m->metrics[index];
	p->l = (struct lexer){.s = p->metric->expr};
	next(&p->l);
	int rc = parse_expr(p);
	if (rc == 0 && p->l.kind != T_END)
		rc = fail(p, "'%.*s' where an operator or the end is expected",
			  (int)(p->l.len > 40 ? 40 : p->l.len), p->l.s + p->l.off);
	p->depth--;
	p->metric = saved_metric;
	p->l = saved;
	return rc;
}

static int parse_literal(struct parser *p)
{
	for (int i = 0; i < PMU_METRIC_NLITERALS; i++)
		if (word_is(&p->l, literal_names[i])) {
			next(&p->l);
			return put(p, PMU_MOP_LITERAL, i);
		}
	return fail(p, "'%.*s' is not one of perf's #literals", (int)(p->l.len > 40 ? 40 : p->l.len),
		    p->l.s + p->l.off);
}

static int parse_number(struct parser *p)
{
	struct pmu_metric_ins ins = {.op = PMU_MOP_NUM};
	char buf[64];
	if (p->l.len >= sizeof(buf))
		return fail(p, "a number of %zu characters", p->l.len);
	memcpy(buf, p->l.s + p->l.off, p->l.len);
	buf[p->l.len] = '\0';
	char *end;
	ins.value = strtod(buf, &end);
	if (*end)
		return fail(p, "'%s' is not a number", buf);
	ins.exact = decimal_fraction(buf, p->l.len, &ins.num, &ins.den);
	next(&p->l);
	return emit(p->out, ins) ? -ENOMEM : 0;
}

static int expect(struct parser *p, char op, const char *what)
{
	if (p->l.kind != T_OP || p->l.op != op)
		return fail(p, "expected '%c' %s", op, what);
	next(&p->l);
	return 0;
}

/* min(a, b), max(a, b), d_ratio(a, b) */
static int parse_call(struct parser *p, enum pmu_metric_opcode op)
{
	int rc;
	next(&p->l);
	if ((rc = expect(p, '(', "after the function's name")) || (rc = parse_expr(p)) ||
	    (rc = expect(p, ',', "between the function's arguments")) || (rc = parse_expr(p)) ||
	    (rc = expect(p, ')', "after the function's arguments")))
		return rc;
	return put(p, op, 0);
}

static int parse_unary(struct parser *p);

static int parse_primary(struct parser *p)
{
	switch (p->l.kind) {
	case T_NUM:
		return parse_number(p);
	case T_SYM:
		return parse_symbol(p);
	case T_LIT:
		return parse_literal(p);
	case T_MIN:
		return parse_call(p, PMU_MOP_MIN);
	case T_MAX:
		return parse_call(p, PMU_MOP_MAX);
	case T_DRATIO:
		return parse_call(p, PMU_MOP_DRATIO);
	case T_OP:
		if (p->l.op == '(') {
			int rc;
			if (++p->nest > METRIC_MAX_NEST)
				return fail(p, "parentheses nested deeper than %d", METRIC_MAX_NEST);
			next(&p->l);
			if ((rc = parse_expr(p)) || (rc = expect(p, ')', "to close '('")))
				return rc;
			p->nest--;
			return 0;
		}
		break;
	case T_END:
		return fail(p, "the expression ends where a value is expected");
	default:
		break;
	}
	return fail(p, "'%.*s' where a value is expected", (int)p->l.len, p->l.s + p->l.off);
}

static int parse_unary(struct parser *p)
{
	if (p->l.kind == T_OP && (p->l.op == '-' || p->l.op == '!')) {
		enum pmu_metric_opcode op = p->l.op == '-' ? PMU_MOP_NEG : PMU_MOP_NOT;
		int rc;
		if (++p->nest > METRIC_MAX_NEST)
			return fail(p, "operators nested deeper than %d", METRIC_MAX_NEST);
		next(&p->l);
		if ((rc = parse_unary(p)))
			return rc;
		p->nest--;
		return put(p, op, 0);
	}
	return parse_primary(p);
}

/* One level of left-associative binary operators. */
static const struct level {
	const char *ops;
	enum pmu_metric_opcode codes[3];
} levels[] = {
	{"|", {PMU_MOP_OR}},
	{"^", {PMU_MOP_XOR}},
	{"&", {PMU_MOP_AND}},
	{"<>", {PMU_MOP_LT, PMU_MOP_GT}},
	{"+-", {PMU_MOP_ADD, PMU_MOP_SUB}},
	{"*/%", {PMU_MOP_MUL, PMU_MOP_DIV, PMU_MOP_MOD}},
};
#define NLEVELS (int)(sizeof(levels) / sizeof(levels[0]))

static int parse_level(struct parser *p, int lv)
{
	if (lv == NLEVELS)
		return parse_unary(p);
	int rc = parse_level(p, lv + 1);
	while (!rc && p->l.kind == T_OP && strchr(levels[lv].ops, p->l.op)) {
		enum pmu_metric_opcode op = levels[lv].codes[strchr(levels[lv].ops, p->l.op) -
							     levels[lv].ops];
		next(&p->l);
		rc = parse_level(p, lv + 1);
		if (!rc)
			rc = put(p, op, 0);
	}
	return rc;
}

/* a if c else b: pushes a, c, b; IF picks */
static int parse_expr(struct parser *p)
{
	int rc = parse_level(p, 0);
	while (!rc && p->l.kind == T_IF) {
		next(&p->l);
		if ((rc = parse_level(p, 0)))
			return rc;
		if (p->l.kind != T_ELSE)
			return fail(p, "'if' without 'else'");
		next(&p->l);
		if ((rc = parse_level(p, 0)) || (rc = put(p, PMU_MOP_IF, 0)))
			return rc;
	}
	return rc;
}

/* The deepest the stack grows: the program is refused past the bound. */
static int stack_depth(const struct pmu_metric_prog *prog)
{
	int depth = 0, most = 0;
	for (int i = 0; i < prog->nins; i++) {
		enum pmu_metric_opcode op = prog->ins[i].op;
		if (op == PMU_MOP_NUM || op == PMU_MOP_EVENT || op == PMU_MOP_LITERAL)
			depth++;
		else if (op == PMU_MOP_IF)
			depth -= 2;
		else if (op != PMU_MOP_NEG && op != PMU_MOP_NOT)
			depth--;
		if (depth > most)
			most = depth;
	}
	return most;
}

int pmu_metric_compile(const struct pmu_model *m, int index, struct pmu_metric_prog *out,
		       size_t *at, char *why, size_t whylen)
{
	struct parser p = {.m = m, .metric = &m->metrics[index], .out = out, .why = why,
			   .whylen = whylen};

	memset(out, 0, sizeof(*out));
	*at = 0;
	if (!p.metric->expr)
		return snprintf(why, whylen, "metric %s has no expression", p.metric->name), -EINVAL;
	int rc = inline_metric(&p, index);
	if (rc == 0 && stack_depth(out) > METRIC_MAX_STACK)
		rc = fail(&p, "the expression needs more than %d values at once", METRIC_MAX_STACK);
	*at = p.at;
	if (rc)
		pmu_metric_prog_free(out);
	return rc;
}

/* --- evaluation ------------------------------------------------------------------ */
/* A value both ways: the double perf computes, and the exact fraction while
 * one exists (exact false once an operation overflowed or a number had no
 * 64-bit fraction). */
struct mval {
	double d;
	struct pmu_frac q;
	bool exact;
};

static bool make(struct mval *v, int64_t num, int64_t den)
{
	return pmu_frac_make(&v->q, num, den) == 0;
}

static bool frac_op(struct mval *r, char op, struct mval a, struct mval b)
{
	return pmu_frac_apply(op, a.q, b.q, &r->q) == 0;
}

static int cmp_frac(struct mval a, struct mval b, bool *ok)
{
	struct mval d;
	*ok = frac_op(&d, '-', a, b);
	return d.q.num < 0 ? -1 : d.q.num > 0;
}

static struct mval of_int(int64_t v)
{
	return (struct mval){(double)v, {v, 1}, true};
}

static struct mval truth(bool t)
{
	return of_int(t);
}

/* The binary operators, expr.y's actions: comparisons and | & ^ give 1 or 0,
 * '/' and '%' by zero give NAN, d_ratio by zero gives 0. */
static struct mval binary(enum pmu_metric_opcode op, struct mval a, struct mval b)
{
	struct mval r = {0};
	bool both = a.exact && b.exact, ok = both, zero = b.d == 0;
	int c = both ? cmp_frac(a, b, &ok) : 0;

	switch (op) {
	case PMU_MOP_ADD: r.d = a.d + b.d; ok = both && frac_op(&r, '+', a, b); break;
	case PMU_MOP_SUB: r.d = a.d - b.d; ok = both && frac_op(&r, '-', a, b); break;
	case PMU_MOP_MUL: r.d = a.d * b.d; ok = both && frac_op(&r, '*', a, b); break;
	case PMU_MOP_DIV:
	case PMU_MOP_DRATIO:
		if (zero)
			return op == PMU_MOP_DIV ? (struct mval){NAN, {0, 1}, false} : of_int(0);
		r.d = a.d / b.d;
		ok = both && frac_op(&r, '/', a, b);
		break;
	case PMU_MOP_MOD:
		if ((int64_t)b.d == 0)
			return (struct mval){NAN, {0, 1}, false};
		return of_int((int64_t)a.d % (int64_t)b.d);
	case PMU_MOP_MIN: return (ok ? c <= 0 : a.d <= b.d) ? a : b;
	case PMU_MOP_MAX: return (ok ? c >= 0 : a.d >= b.d) ? a : b;
	case PMU_MOP_LT: return truth(ok ? c < 0 : a.d < b.d);
	case PMU_MOP_GT: return truth(ok ? c > 0 : a.d > b.d);
	case PMU_MOP_AND: return truth(a.d != 0 && b.d != 0);
	case PMU_MOP_OR: return truth(a.d != 0 || b.d != 0);
	case PMU_MOP_XOR: return truth((a.d != 0) != (b.d != 0));
	default: break;
	}
	r.exact = ok;
	return r;
}

static struct mval number(const struct pmu_metric_ins *ins)
{
	struct mval v = {ins->value, {0, 1}, false};
	v.exact = ins->exact && make(&v, ins->num, ins->den);
	return v;
}

static struct mval mval_count(uint64_t c)
{
	return c > (uint64_t)INT64_MAX ? (struct mval){(double)c, {0, 1}, false} : of_int((int64_t)c);
}

int pmu_metric_eval(const struct pmu_metric_prog *prog, const uint64_t *counts,
		    const int64_t *literals, struct pmu_metric_result *out)
{
	struct mval st[METRIC_MAX_STACK + 1];
	int n = 0;

	if (!prog->nins || stack_depth(prog) > METRIC_MAX_STACK)
		return -EINVAL;
	for (int i = 0; i < prog->nins; i++) {
		const struct pmu_metric_ins *ins = &prog->ins[i];
		switch (ins->op) {
		case PMU_MOP_NUM: st[n++] = number(ins); break;
		case PMU_MOP_EVENT: st[n++] = mval_count(counts[ins->arg]); break;
		case PMU_MOP_LITERAL:
			if (!literals)
				return -ENOENT;
			st[n++] = of_int(literals[ins->arg]);
			break;
		case PMU_MOP_NEG:
			st[n - 1].d = -st[n - 1].d;
			st[n - 1].exact = st[n - 1].exact && make(&st[n - 1], -st[n - 1].q.num, st[n - 1].q.den);
			break;
		case PMU_MOP_NOT: st[n - 1] = truth(st[n - 1].d == 0); break;
		case PMU_MOP_IF: /* then, cond, else */
			n -= 2;
			if (st[n].d == 0)
				st[n - 1] = st[n + 1];
			break;
		default:
			n--;
			st[n - 1] = binary(ins->op, st[n - 1], st[n]);
			break;
		}
	}
	out->value = st[0].d;
	out->exact = st[0].exact && !isnan(st[0].d);
	out->num = out->exact ? st[0].q.num : 0;
	out->den = out->exact ? st[0].q.den : 1;
	return isnan(st[0].d) ? -EDOM : out->exact ? 0 : -ERANGE;
}
