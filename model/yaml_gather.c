/*
 * yaml_gather.c - the sections gathered from a YAML description and the
 * files it includes (yaml_load.c gathers them, in encounter order), and
 * the questions the section readers (yaml_sections.c, yaml_extends.c) ask
 * of them: every value of a section, the one value of a section given once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "yaml_gather.h"

int ysections_add(struct ysections *s, struct yctx *c, struct ynode key, struct ynode value)
{
	struct ynode *k = y_grow(s->keys, s->n, sizeof(*k));
	if (!k)
		return pmu_report_oom(c->d, NULL);
	s->keys = k;
	struct ynode *v = y_grow(s->values, s->n, sizeof(*v));
	if (!v)
		return pmu_report_oom(c->d, NULL);
	s->values = v;
	s->keys[s->n] = key;
	s->values[s->n++] = value;
	return 0;
}

void ysections_free(struct ysections *s)
{
	free(s->keys);
	free(s->values);
}

bool ysec_key_at(const struct yloader_view *view, int i, struct ynode *key)
{
	if (i < 0 || i >= view->sections->n)
		return false;
	*key = view->sections->keys[i];
	return true;
}

/* All values of one section name, in encounter order. */
int ysec_list(const struct yloader_view *view, const char *name,
	      struct ynode *out, int max)
{
	const struct ysections *s = view->sections;
	int n = 0;
	for (int i = 0; i < s->n; i++) {
		if (strcmp(y_scalar(&s->keys[i]), name) != 0)
			continue;
		if (n == max) {
			struct pmu_pos p = y_pos(&s->keys[i]);
			pmu_report(view->c->d, -1, &p, "section '%s' appears more than %d times",
				   name, max);
			return -E2BIG;
		}
		out[n++] = s->values[i];
	}
	return n;
}

/* The one value of a section that may appear once; reports a repeat. */
int ysec_single(const struct yloader_view *view, const char *name, struct ynode *out)
{
	const struct ysections *s = view->sections;
	int found = -1;
	for (int i = 0; i < s->n; i++) {
		if (strcmp(y_scalar(&s->keys[i]), name) != 0)
			continue;
		if (found >= 0) {
			struct pmu_pos p = y_pos(&s->keys[i]);
			struct pmu_pos first = y_pos(&s->keys[found]);
			pmu_report(view->c->d, -1, &p,
				   "section '%s' given twice (first at %s:%d:%d)", name,
				   first.file, first.line, first.col);
			return -EINVAL;
		}
		found = i;
	}
	if (found < 0) {
		out->node = NULL;
		return 0;
	}
	*out = s->values[found];
	return 0;
}
