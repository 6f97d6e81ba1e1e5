/*
 * fuzz_yaml.c - libFuzzer target for the YAML description loader and the
 * semantic checks: any input must load or fail with a diagnostic, never
 * crash, leak or trip a sanitizer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmu_checks.h"
#include "pmu_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmu_diag diag;
	struct pmu_model model;
	pmu_diag_init(&diag, NULL);
	/* a name in a directory without description files, so includes fail */
	if (pmu_load_yaml_buffer(&model, "/nonexistent/fuzz.yaml", data, size, &diag) == 0) {
		pmu_check_model(&model, &diag, false);
		pmu_model_free(&model);
	}
	return 0;
}
