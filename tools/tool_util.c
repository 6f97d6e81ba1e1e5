/*
 * tool_util.c - the small helpers pmutool's subcommands share: messages,
 * bounded copies, output lines, event strings, register keys.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmutool.h"

void tool_error(const struct tool *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: error: ", t->prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void tool_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);
	memcpy(dst, src, n);
	dst[n] = 0;
}

void tool_line(const char *fmt, ...)
{
	char small[512], *buf = small;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(small) && (buf = malloc((size_t)n + 1)) != NULL) {
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	if (!buf) /* out of memory: the line as far as it fitted */
		buf = small;
	size_t len = strlen(buf);
	while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\n'))
		len--;
	printf("%.*s\n", (int)len, buf);
	if (buf != small)
		free(buf);
}

int tool_parse_event(const struct tool *t, const char *str, struct pmurt_event_spec *spec)
{
	struct pmurt_error err = {0};
	*spec = (struct pmurt_event_spec){.sz = sizeof(*spec)};
	int rc = pmurt_parse_event(t->pmu, str, spec, &err);
	if (rc < 0) {
		tool_error(t, "%s", err.message[0] ? err.message : strerror(-rc));
		return EXIT_USAGE;
	}
	return 0;
}

const char *tool_reg_key(const struct pmurt_pmu *pmu, int i, char *buf, size_t len)
{
	const char *name = pmurt_register_name(pmu, i);
	size_t k = 0;
	for (; name && name[k] && k + 1 < len; k++)
		buf[k] = (char)tolower((unsigned char)name[k]);
	buf[k] = 0;
	return buf;
}

int tool_check_cpus(const struct tool *t, const char *what, const char *list, const int *cpus,
		    int n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	for (int i = 0; i < n; i++)
		if (cpus[i] >= ncpu) {
			tool_error(t, "%s-C '%s': CPU %d does not exist (this host has %ld)", what,
				   list, cpus[i], ncpu);
			return EXIT_USAGE;
		}
	return EXIT_OK;
}

bool tool_host_has_counters(const struct tool *t)
{
	return pmurt_host_pmu(t->host) || pmurt_host_pmu_present(t->host, "cpu", NULL) == 0;
}

bool tool_read_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		return false;
	*v = n;
	return true;
}

int tool_parse_pages(const struct tool *t, const char *what, const char *opt, const char *s,
		     unsigned *pages)
{
	uint64_t n;
	if (!tool_read_u64(s, &n) || n == 0 || n > (1u << 20) || (n & (n - 1))) {
		tool_error(t, "%s%s: '%s' pages is not a power of two up to 1048576", what, opt, s);
		return EXIT_USAGE;
	}
	*pages = (unsigned)n;
	return EXIT_OK;
}
