/*
 * check.h - the CHECK() assertion the C tests share: report the failed
 * condition with its place and a message, count it in the test's own
 * `failures`, and go on (the test exits non-zero at the end).
 */
#ifndef PMU_TESTS_CHECK_H
#define PMU_TESTS_CHECK_H

#include <stdio.h>

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, \
				__LINE__, #cond);                              \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			failures++;                                            \
		}                                                              \
	} while (0)

#endif /* PMU_TESTS_CHECK_H */
