/*
 * yaml_extends.c - a description that extends another (`extends: FILE`):
 * "the base's PMU, under this name, version, platform and processor
 * versions" (schema/description-format.md, "Extending a description";
 * Power11 is POWER10's PMU as Linux's init_power11_pmu() registers it, a
 * copy of power10_pmu with its own name).
 *
 * The base is loaded whole (it may extend another in turn), then the
 * extension's `pmu` section is read over its identity.  Everything else is
 * the base's: an extension that gives another section, or a `pmu` key that
 * would change the PMU (max-group, compatible, overflow-counter-unknown)
 * otherwise than the base has it, is refused at that key; so is an identity
 * that repeats one of its bases' (platform, name, a processor version), a
 * base that cannot be read or loaded, and a chain that comes back to a file
 * already in it.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_load.h"
#include "yaml_extends.h"

void yext_chain_free(struct yext_chain *chain)
{
	for (int i = 0; i < chain->depth; i++)
		free(chain->files[i]);
	for (int i = 0; i < chain->nids; i++) {
		free(chain->ids[i].file);
		free(chain->ids[i].name);
		free(chain->ids[i].platform);
	}
	memset(chain, 0, sizeof(*chain));
}

/* The processor versions a model says it is: its list, or its pvr's. */
static int model_versions(const struct pmu_model *m, uint32_t *out)
{
	if (m->npvr_versions) {
		memcpy(out, m->pvr_versions, (size_t)m->npvr_versions * sizeof(*out));
		return m->npvr_versions;
	}
	if (!m->pvr)
		return 0;
	out[0] = m->pvr >> 16;
	return 1;
}

int yext_chain_note(struct yext_chain *chain, const struct pmu_model *m, struct pmu_diag *d)
{
	if (chain->nids == YEXT_MAX_DEPTH)
		return 0; /* the outermost description: no extension of it follows */
	struct yext_ident *id = &chain->ids[chain->nids];
	*id = (struct yext_ident){pmu_strdup(m->source), pmu_strdup(m->name),
				  pmu_strdup(m->platform), 0, {0}};
	if (!id->file || !id->name || !id->platform) {
		free(id->file);
		free(id->name);
		free(id->platform);
		return pmu_report_oom(d, NULL);
	}
	id->nversions = model_versions(m, id->versions);
	chain->nids++;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* "a.yaml -> b.yaml -> a.yaml": the chain back to path, for the message. */
static void cycle_text(const struct yext_chain *chain, int from, const char *path,
		       char *out, size_t len)
{
	size_t n = 0;
	out[0] = 0;
	for (int i = from; i < chain->depth && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s -> ", base_name(chain->files[i]));
	if (n < len)
		snprintf(out + n, len - n, "%s", base_name(path));
}

/* The base's path, relative to the extending file, and its real path. */
static int base_path(struct yctx *c, const struct ynode *at, const char *rel, char *path,
		     size_t len, char **real)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", at->src->file);
	if (rel[0] == '/')
		snprintf(path, len, "%s", rel);
	else
		snprintf(path, len, "%s/%s", dirname(dir), rel);
	char resolved[PATH_MAX];
	int rc = realpath(path, resolved) ? 0 : -errno;
	struct pmu_pos p = y_pos(at);
	if (!rc && !(*real = pmu_strdup(resolved)))
		rc = -ENOMEM;
	if (!rc)
		return 0;
	if (rc == -ENOMEM)
		return pmu_report_oom(c->d, &p);
	pmu_report(c->d, -1, &p, "cannot read the base description '%s' (%s): %s", rel, path,
		   strerror(-rc));
	return rc;
}

/* Load the base named at `at` into *base, with the chain one longer. */
static int load_base(struct yctx *c, const struct ynode *at, struct yext_chain *chain,
		     struct pmu_model *base)
{
	const char *rel = NULL;
	char path[8192], cycle[1024];
	char *real;
	pmu_model_init(base);
	if (y_str(c, at, "extends", &rel) || !rel)
		return -EINVAL;
	int rc = base_path(c, at, rel, path, sizeof(path), &real);
	if (rc)
		return rc;
	struct pmu_pos p = y_pos(at);
	for (int i = 0; i < chain->depth; i++) {
		if (strcmp(chain->files[i], real) == 0) {
			cycle_text(chain, i, real, cycle, sizeof(cycle));
			pmu_report(c->d, -1, &p, "'%s' extends itself: %s", rel, cycle);
			free(real);
			return -ELOOP;
		}
	}
	if (chain->depth == YEXT_MAX_DEPTH) {
		pmu_report(c->d, -1, &p, "more than %d descriptions extend one another",
			   YEXT_MAX_DEPTH);
		free(real);
		return -ELOOP;
	}
	chain->files[chain->depth++] = real;
	int errors = c->d->nerrors;
	rc = chain->load_file(base, path, c->d, chain);
	free(chain->files[--chain->depth]);
	if (rc == -ENOMEM || c->d->out_of_memory)
		return pmu_report_oom(c->d, &p);
	if (rc && c->d->nerrors == errors) /* unreadable: nothing said yet */
		pmu_report(c->d, -1, &p, "cannot read the base description '%s' (%s): %s", rel,
			   path, strerror(-rc));
	else if (rc)
		pmu_report(c->d, -1, &p, "the base description '%s' did not load (the errors "
			   "above)", rel);
	return rc;
}

/* Every section of the extension's file but `pmu` would change its base's
 * PMU (an included file's are refused with the include). */
static int only_identity(const struct yloader_view *view, const struct ynode *at,
			 const char *base)
{
	struct ynode key;
	int rc = 0;
	for (int i = 0; ysec_key_at(view, i, &key); i++) {
		const char *name = y_scalar(&key);
		if (strcmp(name, "pmu") == 0 || key.src != at->src)
			continue;
		struct pmu_pos p = y_pos(&key);
		pmu_report(view->c->d, -1, &p, "section '%s' in a description that extends '%s': "
			   "an extension holds only its own identity (its 'pmu' section); the "
			   "base's %s stand", name, base, name);
		rc = -EINVAL;
	}
	return rc;
}

/* A `pmu` key the extension gave otherwise than its base has it. */
static int conflict(struct yctx *c, const struct ynode *pmu, const char *key,
		    const char *base_text, const char *base_file)
{
	struct ynode v = y_get(pmu, key);
	struct pmu_pos p = y_pos(&v);
	pmu_report(c->d, -1, &p, "%s '%s' conflicts with the base's '%s' (%s): an extension is "
		   "its base's PMU under another name, version, platform and processor versions",
		   key, y_scalar(&v) ? y_scalar(&v) : "", base_text, base_file);
	return -EINVAL;
}

/* max-group, overflow-counter-unknown and compatible describe the PMU: an
 * extension may repeat them, not change them. */
static int fixed_keys(struct yctx *c, const struct ynode *pmu, const char *base_file)
{
	const struct pmu_model *m = c->m;
	uint32_t max_group = m->max_group;
	bool overflow = m->overflow_counter_unknown;
	const char *compatible = NULL;
	struct ynode v = y_get(pmu, "max-group");
	int rc = y_u32(c, &v, "max-group", &max_group);
	v = y_get(pmu, "overflow-counter-unknown");
	rc |= y_bool(c, &v, "overflow-counter-unknown", &overflow);
	v = y_get(pmu, "compatible");
	rc |= y_str(c, &v, "pmu compatible", &compatible);
	if (rc)
		return -EINVAL;
	char text[16];
	snprintf(text, sizeof(text), "%u", m->max_group);
	if (max_group != m->max_group)
		rc |= conflict(c, pmu, "max-group", text, base_file);
	if (overflow != m->overflow_counter_unknown)
		rc |= conflict(c, pmu, "overflow-counter-unknown",
			       m->overflow_counter_unknown ? "true" : "false", base_file);
	if (compatible && strcmp(compatible, m->compatible ? m->compatible : "") != 0)
		rc |= conflict(c, pmu, "compatible", m->compatible ? m->compatible : "", base_file);
	return rc;
}

/* The extension's name, version and platform replace the base's; version
 * stays the base's when not given. */
static int own_identity(struct yctx *c, const struct ynode *pmu)
{
	struct pmu_model *m = c->m;
	char *name = NULL, *platform = NULL, *version = NULL;
	struct ynode v = y_get(pmu, "name");
	int rc = y_strdup(c, &v, "pmu name", &name);
	v = y_get(pmu, "platform");
	rc |= y_strdup(c, &v, "pmu platform", &platform);
	v = y_get(pmu, "version");
	rc |= y_strdup(c, &v, "pmu version", &version);
	if (rc) {
		free(name);
		free(platform);
		free(version);
		return -EINVAL;
	}
	free(m->extends);
	m->extends = m->platform;
	m->platform = platform;
	free(m->name);
	m->name = name;
	if (version) {
		free(m->version);
		m->version = version;
	}
	return 0;
}

/* The processor the extension is: its pvr and pvr-versions, never the
 * base's. */
static int own_versions(struct yctx *c, const struct ynode *pmu)
{
	struct pmu_model *m = c->m;
	m->pvr = 0;
	m->npvr_versions = 0;
	struct ynode v = y_get(pmu, "pvr");
	int rc = y_u32(c, &v, "pvr", &m->pvr);
	v = y_get(pmu, "pvr-versions");
	rc |= ysec_read_pvr_versions(c, &v);
	return rc ? -EINVAL : ysec_check_pvr_version(c, pmu);
}

/* The node of the extension's pmu section that says processor version ver. */
static struct ynode version_node(const struct ynode *pmu, uint32_t ver)
{
	struct ynode list = y_get(pmu, "pvr-versions");
	for (int i = 0; i < y_seq_len(&list); i++) {
		struct ynode item = y_seq_at(&list, i);
		uint64_t v;
		const char *s = y_scalar(&item);
		char *end;
		if (s && (v = strtoull(s, &end, 0), !*end) && v == ver)
			return item;
	}
	return y_get(pmu, "pvr");
}

/* An extension names itself otherwise than every description below it. */
static int new_identity(struct yctx *c, const struct ynode *pmu, const struct yext_chain *chain)
{
	const struct pmu_model *m = c->m;
	uint32_t mine[PMU_MAX_PVR_VERSIONS];
	int nmine = model_versions(m, mine), rc = 0;
	for (int i = 0; i < chain->nids; i++) {
		const struct yext_ident *id = &chain->ids[i];
		struct ynode v = y_get(pmu, "platform");
		struct pmu_pos p = y_pos(&v);
		if (pmu_name_eq_nocase(m->platform, id->platform)) {
			pmu_report(c->d, -1, &p, "platform '%s' is already %s's: an extension names "
				   "a platform of its own", m->platform, base_name(id->file));
			rc = -EINVAL;
		}
		v = y_get(pmu, "name");
		p = y_pos(&v);
		if (strcmp(m->name, id->name) == 0) {
			pmu_report(c->d, -1, &p, "name '%s' is already %s's: an extension names "
				   "itself", m->name, base_name(id->file));
			rc = -EINVAL;
		}
		for (int j = 0; j < nmine; j++)
			for (int k = 0; k < id->nversions; k++) {
				if (mine[j] != id->versions[k])
					continue;
				v = version_node(pmu, mine[j]);
				p = y_pos(&v);
				pmu_report(c->d, -1, &p, "processor version 0x%04x is already %s's: a "
					   "processor has one PMU description", mine[j],
					   base_name(id->file));
				rc = -EINVAL;
			}
	}
	return rc;
}

int yext_apply(const struct yloader_view *view, const struct ynode *at,
	       struct yext_chain *chain)
{
	struct yctx *c = view->c;
	struct pmu_model base;
	int rc = load_base(c, at, chain, &base);
	if (rc) {
		pmu_model_free(&base);
		return rc;
	}
	char base_file[256];
	snprintf(base_file, sizeof(base_file), "%s", base_name(base.source ? base.source : "?"));
	int bad = only_identity(view, at, y_scalar(at));
	struct ynode pmu;
	if (ysec_single(view, "pmu", &pmu)) {
		pmu.node = NULL;
	} else if (!pmu.node) {
		struct pmu_pos p = y_pos(at);
		pmu_report(c->d, -1, &p, "a description that extends another needs a 'pmu' section "
			   "of its own: at least its name and platform");
	}
	static const char *const keys[] = {"name", "version", "platform", "compatible",
					   "max-group", "overflow-counter-unknown", "pvr",
					   "pvr-versions", NULL};
	static const char *const req[] = {"name", "platform", NULL};
	if (!pmu.node || y_expect_map(c, &pmu, "pmu") || y_check_keys(c, &pmu, "pmu", keys, req)) {
		pmu_model_free(&base);
		return -EINVAL;
	}
	/* the extension's model takes the base's, with the file names it
	 * interned for its positions */
	char *source = c->m->source;
	c->m->source = NULL;
	rc = pmu_model_take(c->m, &base);
	if (rc) {
		free(source);
		pmu_model_free(&base);
		return pmu_report_oom(c->d, NULL);
	}
	free(c->m->source);
	c->m->source = source;
	bad |= fixed_keys(c, &pmu, base_file);
	bad |= own_versions(c, &pmu);
	if (own_identity(c, &pmu))
		return -EINVAL;
	return new_identity(c, &pmu, chain) || bad ? -EINVAL : 0;
}
