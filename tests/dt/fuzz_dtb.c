/*
 * fuzz_dtb.c - libFuzzer target for the DTB loader.  Any input must load or
 * fail cleanly; a model that loads and that pmugen can write as a tree must
 * load back from that tree unchanged (loader and emitter agree).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dt_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmu_model m, back;
	struct pmu_diag d;
	char *dtb = NULL;
	size_t len = 0;

	pmu_diag_init(&d, NULL);
	if (pmu_load_dtb(&m, "fuzz.dtb", data, size, &d) != 0) {
		if (d.nerrors == 0)
			__builtin_trap(); /* failed without saying why */
		return 0;
	}
	if (dt_emit_dtb_quiet(&m, true, &dtb, &len) == 0) {
		pmu_diag_init(&d, NULL);
		if (pmu_load_dtb(&back, "again.dtb", dtb, len, &d) != 0 ||
		    !pmu_model_equal(&m, &back, NULL, 0))
			__builtin_trap();
		pmu_model_free(&back);
		free(dtb);
	}
	pmu_model_free(&m);
	return 0;
}
