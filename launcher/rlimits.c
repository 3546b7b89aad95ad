/* SPDX-License-Identifier: MIT */
/*
 * The --rlimit table (name, resource, how its value is written) and the two
 * steps that set the limits. Soft and hard limits are both set, so the
 * program cannot raise them again; a limit is never raised above the hard
 * limit the launcher inherited.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cleanup.h"
#include "fd-util.h"
#include "protections.h"
#include "launch-spec.h"
#include "options.h"
#include "parse-number.h"
#include "rlimits.h"

enum rlimit_unit {
	UNIT_SIZE,    /* bytes, "512MiB" */
	UNIT_SECONDS, /* a duration, rounded up to whole seconds */
	UNIT_COUNT,   /* a plain number */
};

struct rlimit_def {
	const char *name;
	int resource;
	enum rlimit_unit unit;
};

/* In enum rlimit_index order. */
static const struct rlimit_def rlimit_defs[RLIMIT_INDEX_N] = {
	[RLIMIT_INDEX_AS] = { LAUNCH_RLIMIT_AS, RLIMIT_AS, UNIT_SIZE },
	[RLIMIT_INDEX_CPU] = { LAUNCH_RLIMIT_CPU, RLIMIT_CPU, UNIT_SECONDS },
	[RLIMIT_INDEX_NPROC] = { LAUNCH_RLIMIT_NPROC, RLIMIT_NPROC, UNIT_COUNT },
	[RLIMIT_INDEX_FSIZE] = { LAUNCH_RLIMIT_FSIZE, RLIMIT_FSIZE, UNIT_SIZE },
	[RLIMIT_INDEX_NOFILE] = { LAUNCH_RLIMIT_NOFILE, RLIMIT_NOFILE, UNIT_COUNT },
	[RLIMIT_INDEX_CORE] = { LAUNCH_RLIMIT_CORE, RLIMIT_CORE, UNIT_SIZE },
	[RLIMIT_INDEX_PIDS] = { LAUNCH_RLIMIT_PIDS, -1, UNIT_COUNT },
};

/* The pid numbers a PID namespace keeps below what it hands out once it
 * wrapped around (the kernel's RESERVED_PIDS), and its largest pid_max
 * (PID_MAX_LIMIT on 64-bit). */
#define PIDS_RESERVED 300
#define PIDS_MAX_LIMIT (4u * 1024 * 1024)

int rlimits_parse(const char *text, enum rlimit_index *ret_index, uint64_t *ret_value,
                  struct sluice_error *err)
{
	const char *eq = strchr(text, '=');
	if (!eq)
		return sluice_error_set(err, -EINVAL, "'%s' is not NAME=VALUE", text);
	size_t len = (size_t)(eq - text);
	for (size_t i = 0; i < ELEMENTSOF(rlimit_defs); i++) {
		const struct rlimit_def *d = &rlimit_defs[i];
		if (strlen(d->name) != len || strncmp(d->name, text, len) != 0)
			continue;
		/* RLIM_INFINITY is ~0; keep every value below it. */
		const uint64_t max = (uint64_t)RLIM_INFINITY - 1;
		uint64_t v = 0;
		int r;
		switch (d->unit) {
		case UNIT_SIZE:
			r = parse_size(eq + 1, max, &v);
			break;
		case UNIT_SECONDS:
			r = parse_duration_ms(eq + 1, max, &v);
			v = v / 1000 + (v % 1000 != 0);
			break;
		case UNIT_COUNT:
		default:
			r = parse_uint64(eq + 1, max, &v);
			break;
		}
		if (r < 0)
			return sluice_error_set(err, r, "bad value '%s' for %s", eq + 1, d->name);
		if (i == RLIMIT_INDEX_PIDS && v == 0)
			return sluice_error_set(err, -EINVAL, "%s must be at least 1", d->name);
		*ret_index = (enum rlimit_index)i;
		*ret_value = v;
		return 0;
	}
	return sluice_error_set(err, -EINVAL, "unknown limit '%.*s'", (int)len, text);
}

/* Set soft and hard to value, capped at the inherited hard limit. */
static int rlimit_lower(const struct rlimit_def *d, uint64_t value, struct sluice_error *err)
{
	struct rlimit rl;
	if (getrlimit(d->resource, &rl) < 0)
		return sluice_error_set(err, neg_errno(), "getrlimit %s", d->name);
	rlim_t v = (rlim_t)value;
	if (rl.rlim_max != RLIM_INFINITY && v > rl.rlim_max)
		v = rl.rlim_max;
	rl.rlim_cur = rl.rlim_max = v;
	if (setrlimit(d->resource, &rl) < 0)
		return sluice_error_set(err, neg_errno(), "setrlimit %s=%llu", d->name,
		                        (unsigned long long)v);
	return 0;
}

bool rlimits_pids_possible(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;
	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 14);
}

/* Write value to /proc/sys/kernel/NAME, whole. */
static int write_sysctl(const char *name, uint64_t value, struct sluice_error *err)
{
	char path[64], text[32];
	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	snprintf(text, sizeof(text), "%llu", (unsigned long long)value);
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return sluice_error_set(err, neg_errno(), "opening %s", path);
	int r = write_full(fd, text, strlen(text));
	return r < 0 ? sluice_error_set(err, r, "writing %s to %s", text, path) : 0;
}

/* --rlimit pids=N: this PID namespace's pid_max, written through its own
 * /proc (the kernel checks CAP_SYS_ADMIN in the namespace's owner). Pids
 * are handed out cyclically from the last one up to pid_max - 1, and from
 * the first wrap-around on from PIDS_RESERVED: with the last pid set past
 * PIDS_RESERVED now, the numbers below are never used, and N + 300 as
 * pid_max leaves N (the init holds pid 1, below them). */
static int pids_limit(uint64_t n, struct sluice_error *err)
{
	uint64_t max = n + PIDS_RESERVED < PIDS_MAX_LIMIT ? n + PIDS_RESERVED : PIDS_MAX_LIMIT;
	int r = write_sysctl("pid_max", max, err);
	if (r >= 0)
		r = write_sysctl("ns_last_pid", PIDS_RESERVED, err);
	return r;
}

int apply_rlimits(const struct launch_spec *spec, struct launch_state *state,
                  struct sluice_error *err)
{
	if (spec->rlimit_set[RLIMIT_INDEX_PIDS] && state->init && rlimits_pids_possible()) {
		int r = pids_limit(spec->rlimit_value[RLIMIT_INDEX_PIDS], err);
		if (r < 0)
			return r;
		state->enforced |= PROT_PIDS_LIMIT;
	}
	for (size_t i = 0; i < ELEMENTSOF(rlimit_defs); i++) {
		if (i == RLIMIT_INDEX_AS || i == RLIMIT_INDEX_PIDS)
			continue; /* the "address-space" step, just before exec; pid_max above */
		bool set = spec->rlimit_set[i];
		uint64_t value = spec->rlimit_value[i];
		if (i == RLIMIT_INDEX_CORE && !set) {
			set = true; /* no core dumps unless asked for */
			value = 0;
		}
		if (!set)
			continue;
		int r = rlimit_lower(&rlimit_defs[i], value, err);
		if (r < 0)
			return r;
	}
	/* The process limit binds only for a uid other than 0 (see protections.c);
	 * the privileges step switches uid, so the bit is set there. */
	return 0;
}

int apply_rlimit_as(const struct launch_spec *spec, struct launch_state *state,
                    struct sluice_error *err)
{
	(void)state;
	if (!spec->rlimit_set[RLIMIT_INDEX_AS])
		return 0;
	return rlimit_lower(&rlimit_defs[RLIMIT_INDEX_AS], spec->rlimit_value[RLIMIT_INDEX_AS],
	                    err);
}
