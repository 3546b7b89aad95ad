/* SPDX-License-Identifier: MIT */
/*
 * sluice/policy.h as a plugin of several source files uses it: sluice_init
 * in one file serves the wrappers of every file. With a table per file, the
 * second file's wrappers would call through a pointer nobody set (the
 * plugin crashes, and sluice refuses every command naming it).
 * Not for: the loader (test-plugin-loader) or the chain (test-policy-chain).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "sluice/policy.h"

const char *second_file_name_of(const struct sluice_simple_command *sc);

static const char *fake_name(const struct sluice_simple_command *sc)
{
	(void)sc;
	return "from-the-host";
}

Test(plugin_header, one_sluice_init_serves_every_source_file)
{
	struct sluice_host host;
	memset(&host, 0, sizeof(host));
	host.abi_version = SLUICE_POLICY_ABI_VERSION;
	host.struct_size = sizeof(host);
	host.name = fake_name;
	sluice_init(&host);
	cr_assert_str_eq(sluice_name(NULL), "from-the-host");
	cr_assert_str_eq(second_file_name_of(NULL), "from-the-host",
	                 "the second file's wrapper reaches the host sluice_init set");
}
