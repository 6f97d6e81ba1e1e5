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
	/* a name among the check cases (FUZZ_YAML_DIR, tests/checks), so that
	 * `include: mini.yaml` and `extends: mini.yaml` read a real part or
	 * base and the extension's reading is fuzzed too */
	if (pmu_load_yaml_buffer(&model, FUZZ_YAML_DIR "/fuzz-input.yaml", data, size,
				 &diag) == 0) {
		pmu_check_model(&model, &diag, false);
		pmu_model_free(&model);
	}
	return 0;
}
