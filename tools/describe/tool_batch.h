/*
 * tool_batch.h - `pmutool check --batch`: JSON groups in, JSON results out,
 * one per line (the answers: check_answer.h).
 */
#ifndef TOOL_BATCH_H
#define TOOL_BATCH_H

#include "describe_opts.h"

/* Check every group of t->batch; an exit code (EXIT_USAGE if a line was
 * malformed, after answering every other line). */
int tool_check_batch(const struct tool *t, const struct describe_opts *opts);

#endif /* TOOL_BATCH_H */
