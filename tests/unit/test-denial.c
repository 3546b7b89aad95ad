/* SPDX-License-Identifier: MIT */
/*
 * broker/run/result.c: which output gets the sandbox note. The rows are
 * what real tools printed inside the workspace-write sandbox with the
 * network refused and writes outside the workspace denied (npm 10, node
 * 22, curl 8, git 2.4x, Python 3.12, pip 24, bash), host names replaced
 * by example.org; and, as the negative rows, ordinary failures that name
 * no denial.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "run/result.h"

static const char *const denials[] = {
	/* curl, git: DNS in a network namespace with no name server */
	"curl: (6) Could not resolve host: example.org",
	"fatal: unable to access 'https://example.org/x.git/': Could not resolve host: example.org",
	/* node: DNS, then a server refused a port */
	"getaddrinfo EAI_AGAIN example.org",
	"Error: listen EACCES: permission denied 0.0.0.0:3000",
	"Error: connect EACCES 127.0.0.1:5432",
	"connect ENETUNREACH 93.184.215.14:443",
	"Error: connect ECONNREFUSED 127.0.0.1:3000",
	/* npm */
	"npm error errno EAI_AGAIN\n"
	"npm error request to https://example.org/left-pad failed, reason: getaddrinfo "
	"EAI_AGAIN example.org",
	"npm error code EROFS\nnpm error syscall mkdir\nnpm error path /home/u/.npm/_cacache\n"
	"npm error errno -30\nnpm error rofs EROFS: read-only file system, mkdir "
	"'/home/u/.npm/_cacache'",
	"npm error code EACCES\nnpm error syscall open\nnpm error errno -13",
	"npm warn Error: EPERM: operation not permitted, open '/usr/lib/node_modules/x'",
	/* Python, pip */
	"urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>",
	"WARNING: Retrying (Retry(total=0)) after connection broken by "
	"'NewConnectionError(': Failed to establish a new connection: [Errno 101] Network is "
	"unreachable')'",
	"socket.gaierror: [Errno -2] Name or service not known",
	"OSError: [Errno 30] Read-only file system: '/home/u/.cache/pip'",
	/* bash and coreutils */
	"bash: line 1: /etc/x: Read-only file system",
	"touch: cannot touch '/etc/x': Permission denied",
	"mkdir: cannot create directory '/opt/x': Operation not permitted",
	"ssh: connect to host example.org port 22: Network is unreachable",
	/* git 2.39 and husky 9 (core.hooksPath), the repository's config a
	 * mount point; Node renaming over one */
	"error: could not write config file /w/.git/config: Device or resource busy",
	"Error: EBUSY: resource busy or locked, rename '.mcp.json.tmp' -> '.mcp.json'",
	/* git 2.39, a push to a repository outside the workspace */
	"error: remote unpack failed: unable to create temporary object directory\n"
	"To /srv/git/x.git\n ! [remote rejected] HEAD -> day (unpacker error)",
	/* git 2.39, another worktree's index or HEAD bound read-only */
	"fatal: unable to write new index file",
	"fatal: update_ref failed for ref 'HEAD': couldn't set 'HEAD'",
};

static const char *const ordinary[] = {
	"error: pathspec 'nope' did not match any file(s) known to git",
	"npm error code ELIFECYCLE\nnpm error errno 1",
	"FAIL src/sleepermode.test.ts",       /* "eperm" inside a word */
	"src/KEEPERM.c:3: error: undeclared", /* "EPERM" inside a word */
	"TypeError: Cannot read properties of undefined (reading 'EACCESS_TOKEN')",
	"make: *** [Makefile:3: all] Error 2",
	"ModuleNotFoundError: No module named 'requests'",
};

Test(denial, real_messages_of_denials_are_recognised)
{
	for (size_t i = 0; i < sizeof(denials) / sizeof(denials[0]); i++)
		cr_expect(result_looks_like_denial(denials[i], strlen(denials[i])),
		          "not taken for a denial: %s", denials[i]);
}

Test(denial, ordinary_failures_are_not)
{
	for (size_t i = 0; i < sizeof(ordinary) / sizeof(ordinary[0]); i++)
		cr_expect_not(result_looks_like_denial(ordinary[i], strlen(ordinary[i])),
		              "taken for a denial: %s", ordinary[i]);
}

Test(denial, the_text_need_not_end_with_a_nul)
{
	char buf[] = { 'e', 'a', 'c', 'c', 'e', 's', ' ', 'P', 'E', 'R', 'M', 'I', 'S' };
	cr_expect_not(result_looks_like_denial(buf, sizeof(buf)));
	const char text[] = "x: Permission denied!";
	cr_expect_not(result_looks_like_denial(text, 10)); /* "x: Permiss" */
	cr_expect(result_looks_like_denial(text, sizeof(text) - 2));
}

/* The refused network's note: the rows of denials that name a host not
 * resolved or not reached, and none of the file system's. */
static const char *const network_failures[] = {
	"curl: (6) Could not resolve host: example.org",
	"getaddrinfo EAI_AGAIN example.org",
	"connect ENETUNREACH 93.184.215.14:443",
	"Error: connect ECONNREFUSED 127.0.0.1:3000",
	"socket.gaierror: [Errno -2] Name or service not known",
	"ssh: connect to host example.org port 22: Network is unreachable",
};
static const char *const file_denials[] = {
	"Error: listen EACCES: permission denied 0.0.0.0:3000",
	"OSError: [Errno 30] Read-only file system: '/home/u/.cache/pip'",
	"mkdir: cannot create directory '/opt/x': Operation not permitted",
};

Test(denial, network_failures_are_told_apart)
{
	for (size_t i = 0; i < sizeof(network_failures) / sizeof(network_failures[0]); i++)
		cr_expect(result_looks_like_network_failure(network_failures[i],
		                                            strlen(network_failures[i])),
		          "not taken for a network failure: %s", network_failures[i]);
	for (size_t i = 0; i < sizeof(file_denials) / sizeof(file_denials[0]); i++)
		cr_expect_not(
		        result_looks_like_network_failure(file_denials[i], strlen(file_denials[i])),
		        "taken for a network failure: %s", file_denials[i]);
}
