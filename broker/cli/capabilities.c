/* SPDX-License-Identifier: MIT */
/*
 * capabilities_describe(): libcap-ng, loaded when asked (capabilities.h).
 * CAPNG_SONAME is the shared object the library's -dev package links,
 * found by configure.
 */
#include "config.h"

#include <cap-ng.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/capabilities.h"

/* The functions used, by their names in the library. */
struct capng_api {
	void (*clear)(capng_select_t set);
	int (*get_caps_process)(void);
	capng_results_t (*have_capabilities)(capng_select_t set);
	char *(*print_caps_text)(capng_print_t where, capng_type_t which);
};

/* Load the library into api; the handle stays loaded (doctor exits soon).
 * Returns 0, or -ENOENT with why in buf. */
static int capng_load(struct capng_api *api, char *buf, size_t len)
{
	void *h = dlopen(CAPNG_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(buf, len,
		         "libcap-ng could not be loaded: %s; install the Debian package libcap-ng0",
		         dlerror());
		return -ENOENT;
	}
	*(void **)&api->clear = dlsym(h, "capng_clear");
	*(void **)&api->get_caps_process = dlsym(h, "capng_get_caps_process");
	*(void **)&api->have_capabilities = dlsym(h, "capng_have_capabilities");
	*(void **)&api->print_caps_text = dlsym(h, "capng_print_caps_text");
	if (!api->clear || !api->get_caps_process || !api->have_capabilities ||
	    !api->print_caps_text) {
		snprintf(buf, len, "%s lacks a function sluice uses", CAPNG_SONAME);
		return -ENOENT;
	}
	return 0;
}

int capabilities_describe(char *buf, size_t len)
{
	struct capng_api api;
	int r = capng_load(&api, buf, len);
	if (r < 0)
		return r;
	api.clear(CAPNG_SELECT_BOTH);
	if (api.get_caps_process() < 0) {
		snprintf(buf, len, "they could not be read");
		return -EIO;
	}
	int held = api.have_capabilities(CAPNG_SELECT_CAPS);
	if (held == CAPNG_NONE) {
		snprintf(buf, len, "none");
	} else if (held == CAPNG_FULL) {
		snprintf(buf, len, "all (the launcher drops them before the command runs)");
	} else {
		char *text = api.print_caps_text(CAPNG_PRINT_BUFFER, CAPNG_EFFECTIVE);
		snprintf(buf, len, "%s (the launcher drops them before the command runs)",
		         text ? text : "some");
		free(text);
	}
	return 0;
}
