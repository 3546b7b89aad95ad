/* SPDX-License-Identifier: MIT */
/*
 * broker/run/tool-caches.c and workspace-key.c: a workspace's tool caches'
 * folder is its own even when another workspace's root hashes to the same
 * key. The key is a 64-bit FNV-1a anyone can collide; the test build's
 * hook (SLUICE_TEST_HOOKS) forces every root to one hash instead of
 * searching for a collision.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/tool-caches.h"
#include "run/workspace-key.h"

static char top[] = "/tmp/sluice-test-tool-caches-XXXXXX";
static char jobs[sizeof(top) + 8];

/* Every root has the same names: its bytes count for nothing. */
static uint64_t one_hash_for_all(uint64_t h, const char *root)
{
	(void)root;
	return h;
}

/* Roots crafted so that FNV-1a gives them one hash, as is easily done:
 * their first name is one; whatever is hashed after is FNV-1a's own. */
static uint64_t crafted_collision(uint64_t h, const char *root)
{
	if (h == 0xcbf29ce484222325ULL) /* FNV-1a's offset basis: the first name */
		return 0x5eed5eed5eed5eedULL;
	for (const char *s = root; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static void setup(void)
{
	cr_assert_not_null(mkdtemp(top));
	snprintf(jobs, sizeof(jobs), "%s/jobs", top);
	workspace_key_hash_hook = one_hash_for_all;
}

static void teardown(void)
{
	workspace_key_hash_hook = NULL;
	char cmd[sizeof(top) + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)system(cmd);
}

/* Open workspace's folder: its path (owned); the hold closed. */
static char *open_caches(const char *workspace)
{
	char *path = NULL;
	int hold = -1;
	struct sluice_error err = { 0 };
	int r = tool_caches_open(jobs, workspace, &path, &hold, &err);
	cr_assert_geq(r, 0, "%s: %s", workspace, err.detail);
	close(hold);
	return path;
}

static bool file_in(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

TestSuite(tool_caches, .init = setup, .fini = teardown);

Test(tool_caches, colliding_workspaces_get_folders_of_their_own)
{
	/* positive control: the two roots have one key, the name both
	 * folders had before the claims */
	cr_assert_eq(workspace_key("/ws/alpha", 0), workspace_key("/ws/beta", 0));
	char shared[4096];
	snprintf(shared, sizeof(shared), "%s/caches/%016llx", top,
	         (unsigned long long)workspace_key("/ws/alpha", 0));

	char *alpha = open_caches("/ws/alpha");
	cr_assert_str_eq(alpha, shared, "the first workspace takes the first key");
	char planted[4096];
	snprintf(planted, sizeof(planted), "%s/planted", alpha);
	int fd = open(planted, O_WRONLY | O_CREAT | O_EXCL, 0600);
	cr_assert_geq(fd, 0);
	close(fd);

	char *beta = open_caches("/ws/beta");
	cr_assert_str_neq(beta, alpha, "the colliding workspace gets another folder");
	cr_assert_not(file_in(beta, "planted"),
	              "what one workspace's run left, the other never sees");

	/* each keeps its own on later runs */
	char *alpha_again = open_caches("/ws/alpha"), *beta_again = open_caches("/ws/beta");
	cr_assert_str_eq(alpha_again, alpha);
	cr_assert_str_eq(beta_again, beta);
	free(alpha);
	free(beta);
	free(alpha_again);
	free(beta_again);
}

Test(tool_caches, the_claim_names_the_workspace_and_is_private)
{
	char *path = open_caches("/ws/alpha");
	char claim[4096];
	snprintf(claim, sizeof(claim), "%s" WORKSPACE_CLAIM_SUFFIX, path);
	struct stat st;
	cr_assert_eq(stat(claim, &st), 0, "the claim is beside the folder, outside it");
	cr_assert_eq(st.st_mode & 07777, 0600);
	FILE *f = fopen(claim, "r");
	cr_assert_not_null(f);
	char text[256] = "";
	cr_assert_not_null(fgets(text, sizeof(text), f));
	fclose(f);
	cr_assert_str_eq(text, "/ws/alpha\n");
	free(path);
}

Test(tool_caches, every_probe_taken_is_an_error_naming_both_workspaces)
{
	char root[64];
	for (unsigned i = 0; i < WORKSPACE_KEY_PROBES; i++) {
		snprintf(root, sizeof(root), "/ws/%u", i);
		free(open_caches(root));
	}
	char *path = NULL;
	int hold = -1;
	struct sluice_error err = { 0 };
	int r = tool_caches_open(jobs, "/ws/one-too-many", &path, &hold, &err);
	cr_assert_eq(r, -EEXIST);
	cr_assert_null(path);
	snprintf(root, sizeof(root), "'/ws/%u'", WORKSPACE_KEY_PROBES - 1);
	cr_assert_not_null(strstr(err.detail, root), "%s", err.detail);
	cr_assert_not_null(strstr(err.detail, "'/ws/one-too-many'"), "%s", err.detail);
}

Test(tool_caches, roots_made_to_share_their_first_name_part_at_the_next)
{
	/* Roots crafted so that their hash is one (FNV-1a is easily made to
	 * collide) must not share their later names as well: then 8 of them
	 * would take every name a victim's root can have. */
	workspace_key_hash_hook = crafted_collision;
	cr_assert_eq(workspace_key("/ws/crafted-0", 0), workspace_key("/victim", 0),
	             "control: the first names are one");
	char root[64];
	for (unsigned i = 0; i < WORKSPACE_KEY_PROBES; i++) {
		snprintf(root, sizeof(root), "/ws/crafted-%u", i);
		free(open_caches(root));
	}
	char *victim = open_caches("/victim");
	cr_assert_not_null(victim, "the victim's root still gets a folder of its own");
	free(victim);
	for (unsigned probe = 1; probe < WORKSPACE_KEY_PROBES; probe++)
		cr_assert_neq(workspace_key("/ws/crafted-0", probe),
		              workspace_key("/victim", probe), "probe %u", probe);
}
