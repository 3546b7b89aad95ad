/* SPDX-License-Identifier: MIT */
/*
 * devices: refuse writes to block devices and raw memory (`> /dev/sda`,
 * `dd of=/dev/nvme0n1`, `tee /dev/sdb`, `cp x /dev/vda`), making or wiping
 * a filesystem on a device (mkfs, mkfs.*, mke2fs, mkswap, wipefs -a/-o),
 * partition tables and discards on a device (fdisk, sfdisk, gdisk, sgdisk,
 * cfdisk, parted but for print and unit, blkdiscard; listing and backups
 * pass), and the classic fork bomb (a function that calls itself in a
 * background pipeline). The tools are judged by their target, never by
 * their name: a block device, or a path under /dev that may be one, is
 * refused; a path only known when it runs asks; an image or swap file
 * passes (`mkfs.ext4 disk.img`, `mkswap swapfile`).
 * Not for: character devices such as /dev/null, /dev/tty, /dev/ttyUSB0;
 * recursive chmod/chown of the root (system_trees).
 */
#include <fnmatch.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "plugin-util.h"
#include "sluice/policy.h"

/* Block devices and raw memory, as glob patterns. */
static const char *const device_patterns[] = {
	"/dev/sd*",      "/dev/hd*",    "/dev/vd*",     "/dev/xvd*",  "/dev/nvme*",
	"/dev/mmcblk*",  "/dev/dm-*",   "/dev/md*",     "/dev/loop*", "/dev/sr*",
	"/dev/mapper/*", "/dev/disk/*", "/dev/mem",     "/dev/kmem",  "/dev/port",
	"/dev/zram*",    "/dev/rbd*",   "/dev/block/*", NULL,
};

static const char *const mkfs_names[] = { "mkfs",    "mke2fs", "mkswap", "wipefs",
	                                  "mkdosfs", "mkntfs", NULL };

/* Commands whose plain operands are written to. */
static const char *const writers[] = { "tee", "cp", "shred", "truncate", "install", NULL };

/* Partition table editors and discards, with the options that only read
 * (any other option, or none, may write: fdisk and gdisk then take their
 * commands from stdin). */
static const char *const fdisk_reads[] = { "-l", "--list", NULL };
static const char *const sfdisk_reads[] = {
	"-l", "--list",      "-d", "--dump",       "-J", "--json",
	"-s", "--show-size", "-V", "--verify",     "-g", "--show-geometry",
	"-F", "--list-free", "-T", "--list-types", NULL,
};
static const char *const sgdisk_reads[] = {
	"-p", "--print",     "-i", "--info",   "-v", "--verify",
	"-O", "--print-mbr", "-b", "--backup", NULL,
};
static const char *const reads_nothing[] = { NULL };
static const struct {
	const char *name;
	const char *const *reads;
} partitioners[] = {
	{ "fdisk", fdisk_reads },   { "sfdisk", sfdisk_reads },  { "gdisk", fdisk_reads },
	{ "sgdisk", sgdisk_reads }, { "cfdisk", reads_nothing }, { "blkdiscard", reads_nothing },
};

/* parted's commands (and their words) that only read; parted takes any
 * unique prefix of a command, and with none it reads commands from stdin. */
static const char *const parted_reads[] = {
	"print", "p",    "unit",    "s",    "b",       "kb",          "mb",  "gb",      "tb",
	"kib",   "mib",  "gib",     "tib",  "%",       "cyl",         "chs", "compact", "free",
	"all",   "list", "devices", "help", "version", "align-check", "opt", "min",     NULL,
};

/* Does every command word of parted (operands but the device, split at
 * blanks, any case) only read, and is there one at least? */
static bool parted_only_reads(const struct sluice_simple_command *sc, const char *dev)
{
	size_t words = 0;
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (a == dev || a[0] == '-')
			continue;
		for (const char *c = a; *c;) {
			size_t n = strcspn(c, " \t\n");
			if (n > 0) {
				char w[32];
				size_t k = 0;
				for (; k < n && k + 1 < sizeof(w); k++)
					w[k] = (char)(c[k] >= 'A' && c[k] <= 'Z' ? c[k] - 'A' + 'a'
					                                         : c[k]);
				w[k] = '\0';
				if (n >= sizeof(w) ||
				    (!str_in(w, parted_reads) && strspn(w, "0123456789") != k))
					return false;
				words++;
			}
			c += n;
			c += strspn(c, " \t\n");
		}
	}
	return words > 0;
}

/* Character devices and special files under /dev that no filesystem or
 * partition tool is pointed at: anything else there may be a block device
 * (/dev/nbd0, /dev/ubda ...), whatever its name. */
static const char *const not_block_devices[] = {
	"/dev/null",   "/dev/zero",        "/dev/full", "/dev/random",  "/dev/urandom",
	"/dev/tty*",   "/dev/pts/*",       "/dev/ptmx", "/dev/console", "/dev/stdin",
	"/dev/stdout", "/dev/stderr",      "/dev/fd/*", "/dev/shm/*",   "/dev/mqueue/*",
	"/dev/kmsg",   "/dev/hugepages/*", NULL,
};

/* What path (relative to the literal cd before sc, if any) is. */
enum device_kind {
	NOT_A_DEVICE,
	MAYBE_DEVICE, /* under /dev, neither a known block device nor one of the above */
	BLOCK_DEVICE, /* a block device or raw memory (device_patterns) */
};

static enum device_kind device_kind(const struct sluice_simple_command *sc, const char *path)
{
	/* /dev//sda, /dev/./sda, /dev/../dev/sda, `cd /dev && ... sda` and
	 * /proc/self/root/dev/sda are the same file */
	char p[PATH_CAP], joined[PATH_CAP];
	const char *cwd = sluice_cwd(sc);
	if (path[0] != '/' && cwd && cwd[0] == '/') {
		snprintf(joined, sizeof(joined), "%s/%s", cwd, path);
		path = joined;
	}
	if (!path_normalise(path, p, sizeof(p)))
		return path[0] == '/' ? BLOCK_DEVICE
		                      : NOT_A_DEVICE; /* too long to judge: refused */
	path_collapse(p);
	const char *t = p;
	if (strncmp(t, "/proc/", 6) == 0) {
		const char *root = strchr(t + 6, '/');
		if (root && strncmp(root, "/root/", 6) == 0)
			t = root + 5; /* /proc/PID/root/dev/sda */
	}
	for (const char *const *d = device_patterns; *d; d++)
		if (fnmatch(*d, t, 0) == 0)
			return BLOCK_DEVICE;
	if (strncmp(t, "/dev/", 5) != 0)
		return NOT_A_DEVICE;
	for (const char *const *d = not_block_devices; *d; d++)
		if (fnmatch(*d, t, 0) == 0)
			return NOT_A_DEVICE;
	return MAYBE_DEVICE;
}

/* Is path a block device? (What a write to may destroy: a write to any
 * other file under /dev, a serial port say, is an ordinary thing to do.) */
static bool is_device(const struct sluice_simple_command *sc, const char *path)
{
	return device_kind(sc, path) == BLOCK_DEVICE;
}

/* May path be a block device? (What a filesystem or partition tool is
 * judged by: such a tool is pointed at nothing else under /dev.) */
static bool may_be_device(const struct sluice_simple_command *sc, const char *path)
{
	return device_kind(sc, path) != NOT_A_DEVICE;
}

static int refuse(struct sluice_verdict *v, const char *what, const char *suggestion)
{
	return sluice_verdict_add(v, SLUICE_DENY, what, suggestion);
}

static int check_redirects(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	static const char *const writes[] = { ">", ">>", ">|", "&>", "&>>", "<>", NULL };
	for (size_t i = 0; i < sluice_redirect_count(sc); i++) {
		const char *op = sluice_redirect_op(sc, i);
		const char *t = sluice_redirect_target(sc, i);
		if (op && t && str_in(op, writes) && is_device(sc, t)) {
			char msg[256];
			snprintf(msg, sizeof(msg),
			         "writing to the block device '%s' destroys its data", t);
			return refuse(v, msg, "write to a regular file instead");
		}
	}
	return SLUICE_ALLOW;
}

/* The first operand of sc that may be a block device, or NULL. */
static const char *device_operand(const struct sluice_simple_command *sc)
{
	for (size_t i = 1; i < sluice_argc(sc); i++)
		if (may_be_device(sc, sluice_arg(sc, i)))
			return sluice_arg(sc, i);
	return NULL;
}

/* The first operand of sc whose path is only known when it runs ($DEV,
 * $(losetup -f)), or NULL. */
static const char *dynamic_operand(const struct sluice_simple_command *sc)
{
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (a[0] != '-' &&
		    (sluice_arg_flags(sc, i) &
		     (SLUICE_WORD_PARAM | SLUICE_WORD_CMDSUBST | SLUICE_WORD_UNKNOWN)))
			return a;
	}
	return NULL;
}

/* Are sc's options (the text before any '=') all in reads, and is there
 * one at least? */
static bool only_reading(const struct sluice_simple_command *sc, const char *const *reads)
{
	size_t options = 0;
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--") == 0)
			break;
		if (a[0] != '-' || a[1] == '\0')
			continue;
		char opt[64];
		snprintf(opt, sizeof(opt), "%.*s", (int)strcspn(a, "="), a);
		if (!str_in(opt, reads))
			return false;
		options++;
	}
	return options > 0;
}

/* A partition table editor or discard that would change a device. */
static int check_partitioner(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	const char *name = sluice_name(sc);
	const char *const *reads = NULL;
	for (size_t i = 0; i < sizeof(partitioners) / sizeof(partitioners[0]); i++)
		if (strcmp(name, partitioners[i].name) == 0)
			reads = partitioners[i].reads;
	bool parted = strcmp(name, "parted") == 0;
	if (!reads && !parted)
		return SLUICE_ALLOW; /* before the operands: every command comes here */
	const char *dev = device_operand(sc);
	if (!dev || (parted ? parted_only_reads(sc, dev) : only_reading(sc, reads)))
		return SLUICE_ALLOW;
	char msg[256];
	snprintf(msg, sizeof(msg),
	         "'%s' on the block device '%s' rewrites its partition table or discards its "
	         "data",
	         name, dev);
	return refuse(v, msg,
	              "this is never needed for a coding task; to look, list only (fdisk -l, "
	              "parted DEVICE print)");
}

/* Does this wipefs write (-a, -o; without -n)? With none of them it lists
 * the signatures it finds. */
static bool wipefs_writes(const struct sluice_simple_command *sc)
{
	/* its options that take a value (wipefs(8)): "-tntfs" holds no -n */
	static const char *const o[] = {
		"-O", "-o", "-t", "--output", "--offset", "--types", NULL
	};
	if (short_option_given(sc, 1, 'n', o) || long_option_given(sc, 1, "no-act", 3, o))
		return false;
	return short_option_given(sc, 1, 'a', o) || long_option_given(sc, 1, "all", 1, o) ||
	       short_option_given(sc, 1, 'o', o) || long_option_given(sc, 1, "offset", 2, o);
}

/* A tool that makes or wipes a filesystem, judged by what it is pointed
 * at: a block device (or a path under /dev that may be one) is refused, a
 * path only known when it runs asks, an image or swap file passes. */
static int check_filesystem_tool(const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	const char *name = sluice_name(sc);
	if (!str_in(name, mkfs_names) && strncmp(name, "mkfs.", 5) != 0)
		return SLUICE_ALLOW;
	if (strcmp(name, "wipefs") == 0 && !wipefs_writes(sc))
		return SLUICE_ALLOW;
	char msg[256];
	const char *dev = device_operand(sc);
	if (dev) {
		snprintf(msg, sizeof(msg),
		         "'%s' on the block device '%s' makes or wipes a filesystem, destroying "
		         "what was on it",
		         name, dev);
		return refuse(v, msg,
		              "this is never needed for a coding task; to try it, use an image "
		              "file (truncate -s 64M disk.img && mkfs.ext4 disk.img)");
	}
	const char *dynamic = dynamic_operand(sc);
	if (dynamic) {
		snprintf(msg, sizeof(msg),
		         "'%s' on '%s', a path only known when it runs: it may be a block device",
		         name, dynamic);
		return sluice_verdict_add(v, SLUICE_ASK, msg,
		                          "name the image file it makes (mkfs.ext4 disk.img)");
	}
	return SLUICE_ALLOW;
}

static int check_one(const void *state, const struct sluice_simple_command *sc,
                     struct sluice_verdict *v)
{
	(void)state;
	int r = check_redirects(sc, v);
	if (r)
		return r;
	const char *name = sluice_name(sc);
	char msg[256];
	r = check_filesystem_tool(sc, v);
	if (r)
		return r;
	r = check_partitioner(sc, v);
	if (r)
		return r;
	if (strcmp(name, "dd") == 0) {
		for (size_t i = 1; i < sluice_argc(sc); i++) {
			const char *a = sluice_arg(sc, i);
			if (strncmp(a, "of=", 3) == 0 && is_device(sc, a + 3)) {
				snprintf(msg, sizeof(msg),
				         "dd to the block device '%s' destroys its data", a + 3);
				return refuse(v, msg, "write to a regular file: dd of=image.bin");
			}
		}
	}
	if (str_in(name, writers)) {
		for (size_t i = 1; i < sluice_argc(sc); i++)
			if (is_device(sc, sluice_arg(sc, i))) {
				snprintf(msg, sizeof(msg),
				         "'%s' would write to the block device '%s'", name,
				         sluice_arg(sc, i));
				return refuse(v, msg, "write to a regular file instead");
			}
	}
	/* the fork bomb: a function calling itself in a background or piped call */
	const char *fn = sluice_function(sc);
	if (fn && strcmp(fn, name) == 0 &&
	    ((sluice_flags(sc) & SLUICE_CMD_BACKGROUND) || sluice_frame(sc, 0) != 0)) {
		bool piped = false;
		for (size_t i = 0; i < sluice_depth(sc); i++)
			piped |= sluice_frame(sc, i) == SLUICE_FRAME_PIPELINE;
		if (piped || (sluice_flags(sc) & SLUICE_CMD_BACKGROUND)) {
			snprintf(
			        msg, sizeof(msg),
			        "the function '%s' calls itself in a pipeline or the background: a "
			        "fork bomb",
			        fn);
			return refuse(v, msg, "do not start unbounded numbers of processes");
		}
	}
	return SLUICE_ALLOW;
}

/* Does s hold pat, blanks in s ignored? */
static bool contains_ignoring_blanks(const char *s, const char *pat)
{
	for (; *s; s++) {
		const char *a = s, *b = pat;
		while (*a && *b) {
			if (*a == ' ' || *a == '\t') {
				a++;
				continue;
			}
			if (*a != *b)
				break;
			a++;
			b++;
		}
		if (!*b)
			return true;
	}
	return false;
}

static int dv_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	int verdict = SLUICE_ALLOW;
	/* The bomb's text, in case the parse of the definition was partial. */
	if (contains_ignoring_blanks(sluice_command_source(cmd), ":(){:|:&};:"))
		verdict = refuse(v, "the classic fork bomb",
		                 "do not start unbounded numbers of processes");
	if (verdict == SLUICE_ALLOW)
		verdict = check_each(state, cmd, v, check_one);
	return verdict;
}

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "devices",
	.description =
	        "refuses writes to block devices, mkfs and partitioning of devices, fork bombs",
	.open = open_keep_settings,
	.check = dv_check,
};
