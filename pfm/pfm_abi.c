/*
 * pfm_abi.c - libpfm4's ABI rules that every entry point shares
 * (pfm_api.c, pfm_encode.c, pfm_group.c): the check of a caller's sized
 * struct, and the text of each error code (pfm_strerror, libpfm4 4.13.0's
 * lib/pfmlib_common.c strings).
 */
#include <stddef.h>

#include "pfm_priv.h"

size_t pfm_check_size(const void *st, size_t user_sz, size_t abi0_sz, size_t our_sz)
{
	if (user_sz == 0)
		user_sz = abi0_sz;
	if (user_sz < abi0_sz)
		return 0;
	for (size_t i = our_sz; i < user_sz; i++)
		if (((const unsigned char *)st)[i])
			return 0;
	return our_sz;
}

const char *pfm_strerror(int code)
{
	static const char *const messages[] = {
		"success", "not supported", "invalid parameters", "pfmlib not initialized",
		"event not found", "invalid combination of model specific features",
		"invalid or missing unit mask", "out of memory", "invalid event attribute",
		"invalid event attribute value", "attribute value already set",
		"too many parameters", "parameter is too small",
	};
	if (code > 0 || code <= -(int)(sizeof(messages) / sizeof(messages[0])))
		return "unknown error code";
	return messages[-code];
}
