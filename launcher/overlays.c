/* SPDX-License-Identifier: MIT */
/*
 * See overlays.h. Each overlay's upper and work folders are
 * STATE/overlay-HASH/{upper,work}, HASH naming the folder overlaid, so
 * that a folder keeps its layer whichever others exist. The layer is the
 * command's to write (it is in a --rw path, as every tool cache is): it
 * may put anything there that the next run of the workspace then meets,
 * as in any cache, and nothing that leaves the sandbox. Redirects and
 * metacopy are off, so that nothing written into the layer makes the
 * overlay show another part of the folder beneath it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/mount.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "namespaces.h"
#include "options.h"
#include "overlays.h"
#include "path-text.h"
#include "protections.h"

_Static_assert(sizeof(((struct launch_state *)0)->overlaid) / sizeof(char *) >= LAUNCH_MAX_OVERLAY,
               "room for every --overlay folder");

/* Whether the folder (as given, and canonical) holds a --hide or --cover
 * path, or lies in one: the overlay would show what the mounts covered. */
static bool meets_hidden(const struct launch_spec *spec, const char *given, const char *canonical)
{
	for (unsigned i = 0; i < spec->n_hide + spec->n_cover; i++) {
		const char *h = i < spec->n_hide ? spec->hide[i] : spec->cover[i - spec->n_hide];
		if (path_within(h, given) || path_within(h, canonical) || path_within(given, h) ||
		    path_within(canonical, h))
			return true;
	}
	return false;
}

/*
 * STATE/overlay-HASH/NAME, made (0700) when missing, opened (O_PATH) into
 * *fd. The caches' folder is the command's to write, and any run of the
 * workspace (a background job too, while the next run starts) may have put
 * a symlink at overlay-HASH or NAME: the overlay would then take a folder
 * of the command's choosing as its layer, in the workspace say, and its
 * lookups there do not cross mount points, so the read-only binds below
 * it (a core.hooksPath folder, .config/lefthook.yml, a hidden path) would
 * not be met. So each component is opened without following a symlink,
 * and the overlay is given the folder opened, not its name.
 */
static int layer_folder(int state_fd, const char *canonical, const char *name, int *fd)
{
	uint64_t h = 14695981039346656037ull;
	for (const char *p = canonical; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	char hashed[32];
	snprintf(hashed, sizeof(hashed), "overlay-%016llx", (unsigned long long)h);
	if (mkdirat(state_fd, hashed, 0700) < 0 && errno != EEXIST)
		return -1;
	_cleanup_close_ int parent =
	        openat(state_fd, hashed, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (parent < 0 || (mkdirat(parent, name, 0700) < 0 && errno != EEXIST))
		return -1;
	*fd = openat(parent, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return *fd < 0 ? -1 : 0;
}

/* The overlay of canonical (an existing folder) mounted on it: 0, or -1. */
static int overlay_one(const char *canonical, const char *state, bool user_namespace)
{
	/* the overlay's options are a comma-separated list, its folders
	 * colon-separated: a name with either is left read-only */
	if (strpbrk(canonical, ",:\\") || strpbrk(state, ",:\\"))
		return -1;
	/* state itself is the broker's (a bind mount's root here, which no
	 * command can rename); only what lies in it is the command's */
	_cleanup_close_ int state_fd = open(state, O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int upper_fd = -1, work_fd = -1;
	if (state_fd < 0 || layer_folder(state_fd, canonical, "upper", &upper_fd) < 0 ||
	    layer_folder(state_fd, canonical, "work", &work_fd) < 0)
		return -1;
	/* the folders opened, by the magic links of the procfs mounted (the
	 * PID namespace's own comes after this step; the host's shows this
	 * process too): the overlay follows them to the very folders, never
	 * to a name the command changed since. No /proc: left read-only */
	char upper[64], work[64];
	snprintf(upper, sizeof(upper), "/proc/self/fd/%d", upper_fd);
	snprintf(work, sizeof(work), "/proc/self/fd/%d", work_fd);
	_cleanup_close_ int fs = (int)syscall(SYS_fsopen, "overlay", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -1;
	const char *const keys[] = { "lowerdir", "upperdir", "workdir", "redirect_dir",
		                     "metacopy" };
	const char *const values[] = { canonical, upper, work, "nofollow", "off" };
	for (size_t i = 0; i < ELEMENTSOF(keys); i++)
		if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, keys[i], values[i], 0) < 0)
			return -1;
	/* in a user namespace the layer's own attributes are user.overlay.* */
	if (user_namespace &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_FLAG, "userxattr", NULL, 0) < 0)
		return -1;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -1;
	_cleanup_close_ int mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC,
	                                       MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (mnt < 0)
		return -1;
	return (int)syscall(SYS_move_mount, mnt, "", AT_FDCWD, canonical, MOVE_MOUNT_F_EMPTY_PATH) <
	                       0
	               ? -1
	               : 0;
}

int apply_overlays(const struct launch_spec *spec, struct launch_state *state,
                   struct sluice_error *err)
{
	if (state->namespace == NAMESPACE_NONE || !(state->enforced & PROT_MOUNT_NAMESPACE) ||
	    !spec->overlay_state || spec->profile->workspace != WORKSPACE_WRITABLE)
		return 0;
	for (unsigned i = 0; i < spec->n_overlay; i++) {
		struct stat st;
		if (lstat(spec->overlay[i], &st) < 0 || !S_ISDIR(st.st_mode))
			continue; /* missing, or a symlink (whose target is not the tool's) */
		char *canonical = realpath(spec->overlay[i], NULL);
		if (!canonical)
			return errno == ENOMEM
			               ? sluice_error_set(err, -ENOMEM, "'%s'", spec->overlay[i])
			               : 0;
		if (meets_hidden(spec, spec->overlay[i], canonical) ||
		    overlay_one(canonical, spec->overlay_state,
		                state->namespace == NAMESPACE_USER) < 0) {
			free(canonical);
			continue;
		}
		state->overlaid[state->n_overlaid++] = canonical;
	}
	return 0;
}
