/* SPDX-License-Identifier: MIT */
/*
 * broker/run/git-defuse.c and git-sweep.c: config keys that run programs
 * or send the repository elsewhere (judged against the remotes the file
 * had before) and todo exec lines are commented out (and nothing else); the sweep moves
 * symbolic links, FIFOs and hard links out of a gitdir into the quarantine
 * folder, leaves git's own files and hard-linked objects alone, looks only
 * at what changed since it began, and disables a nested repository's
 * fsmonitor and hooks.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "scratch.h"
#include "run/git-defuse.h"
#include "run/git-sweep.h"

static char names[256];
static void collect(const char *what, void *userdata)
{
	(void)userdata;
	strncat(names, what, sizeof(names) - strlen(names) - 2);
	strcat(names, "|");
}

static int defused(const char *text, char **out)
{
	size_t len;
	return git_defuse_config(text, strlen(text), out, &len, NULL, NULL);
}

/* keep: asked about core.worktree only here, and keeps "../../../lib" */
static int keep_asked;
static bool keep_lib(const char *section, bool has_sub, const char *key, const char *value,
                     void *userdata)
{
	(void)userdata;
	keep_asked++;
	return !has_sub && strcmp(section, "core") == 0 && strcmp(key, "worktree") == 0 &&
	       strcmp(value, "../../../lib") == 0;
}

Test(git_defuse, an_entry_the_caller_keeps_stays_the_rest_goes)
{
	const char *text = "[core]\n\tworktree = \"../../../lib\" # git's\n"
	                   "\tfsmonitor = touch /x\n[core]\n\tworktree = /home/u\n"
	                   "\tworktree = ../../../lib\\\n/more\n";
	char *out = NULL;
	size_t len;
	names[0] = '\0';
	keep_asked = 0;
	cr_assert_eq(git_defuse_config_keeping(text, strlen(text), NULL, 0, keep_lib, &out, &len,
	                                       collect, NULL),
	             3);
	/* the quoted value with a comment reads as git reads it: kept; a
	 * continued one is not asked about */
	cr_assert_str_eq(names, "core.fsmonitor|core.worktree|core.worktree|");
	cr_assert_eq(keep_asked, 3);
	cr_assert(strstr(out, "\n\tworktree = \"../../../lib\" # git's\n"));
	cr_assert(strstr(out, GIT_DEFUSE_MARK "worktree = /home/u\n"));
	free(out);
	/* no keep: as git_defuse_config_since() */
	cr_assert_eq(git_defuse_config_keeping(text, strlen(text), NULL, 0, NULL, &out, &len, NULL,
	                                       NULL),
	             4);
	free(out);
}

/* The config reader reads as git's does: a backslash before a CRLF goes
 * on to the next line (git reads CRLF as a newline), a byte order mark at
 * the start is skipped (and kept), and \f or \v are no blanks. */
Test(git_defuse, the_reader_reads_crlf_a_bom_and_form_feeds_as_git_does)
{
	char *out = NULL;
	size_t len;
	/* for git, "[other]" is part of x's value: fsmonitor is core's */
	const char *crlf = "[core]\r\n\tx = y\\\r\n[other]\r\n\tfsmonitor = touch /x\r\n";
	names[0] = '\0';
	cr_assert_eq(git_defuse_config(crlf, strlen(crlf), &out, &len, collect, NULL), 1);
	cr_assert_str_eq(names, "core.fsmonitor|");
	free(out);
	const char *bom = "\xef\xbb\xbf[core]\n\tfsmonitor = touch /x\n";
	names[0] = '\0';
	cr_assert_eq(git_defuse_config(bom, strlen(bom), &out, &len, collect, NULL), 1);
	cr_assert_str_eq(names, "core.fsmonitor|");
	cr_assert_eq(
	        memcmp(out, "\xef\xbb\xbf[core]\n\t" GIT_DEFUSE_MARK, 10 + strlen(GIT_DEFUSE_MARK)),
	        0);
	free(out);
	/* a value ending in a form feed is not the value without it */
	const char *ff = "[core]\n\tworktree = ../../../lib\f\n";
	keep_asked = 0;
	cr_assert_eq(git_defuse_config_keeping(ff, strlen(ff), NULL, 0, keep_lib, &out, &len, NULL,
	                                       NULL),
	             1);
	cr_assert_eq(keep_asked, 1);
	free(out);
}

Test(git_defuse, a_plain_clone_config_is_left_alone)
{
	const char *text = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
	                   "[remote \"origin\"]\n\turl = https://example.org/r.git\n"
	                   "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	                   "[branch \"main\"]\n\tremote = origin\n[alias]\n\tst = status\n";
	char *out = NULL;
	cr_assert_eq(defused(text, &out), 0);
	cr_assert_null(out);
}

Test(git_defuse, keys_that_run_programs_are_commented_out)
{
	const char *text = "[core]\n\tfsmonitor = /tmp/x\n\tbare = false\n"
	                   "[alias]\n\tst = status\n\tpwn = \"!sh -c evil\"\n"
	                   "[filter \"lfs\"]\n\tclean = evil %f\n\trequired = true\n"
	                   "[diff.pdf]\n\ttextconv = evil\n"
	                   "[Core] SshCommand = evil\n"
	                   "[includeIf \"gitdir:/\"]\n\tpath = ../x\n";
	char *out = NULL;
	cr_assert_eq(defused(text, &out), 6);
	cr_assert(strstr(out, "\t" GIT_DEFUSE_MARK "fsmonitor = /tmp/x\n"));
	cr_assert(strstr(out, "\tbare = false\n"));
	cr_assert(strstr(out, "\tst = status\n"));
	cr_assert(strstr(out, GIT_DEFUSE_MARK "pwn ="));
	cr_assert(strstr(out, GIT_DEFUSE_MARK "clean = evil"));
	cr_assert(strstr(out, "\trequired = true\n"));
	cr_assert(strstr(out, GIT_DEFUSE_MARK "textconv"));
	cr_assert(strstr(out, "[Core] " GIT_DEFUSE_MARK "SshCommand = evil\n"));
	cr_assert(strstr(out, GIT_DEFUSE_MARK "path = ../x"));
	free(out);
}

Test(git_defuse, a_continued_value_is_disabled_whole_and_hides_no_key)
{
	/* the second line is the value's, never a key: disabled with it */
	const char *text = "[core]\n\tpager = less \\\n-R\n\teditor = vi\n";
	char *out = NULL;
	cr_assert_eq(defused(text, &out), 2);
	cr_assert(strstr(out, GIT_DEFUSE_MARK "pager = less \\\n" GIT_DEFUSE_MARK "-R\n"));
	free(out);
	/* a kept value's continuation that looks like a key stays value text */
	text = "[user]\n\tname = a \\\nfsmonitor = x\n";
	cr_assert_eq(defused(text, &out), 0);
}

Test(git_defuse, a_hash_inside_quotes_is_not_a_comment)
{
	const char *text = "[core]\n\tfsmonitor = \"x # y\" ; z\n";
	char *out = NULL;
	cr_assert_eq(defused(text, &out), 1);
	free(out);
}

Test(git_defuse, what_the_file_held_before_stays_the_rest_is_disabled)
{
	const char *before = "[core]\n\tpager = less \\\n-R\n[alias]\n\tlast = !git log -1\n";
	/* the user's keys, as they were; the same text under another header,
	 * a continuation changed, and a new key are not the user's */
	const char *text = "[core]\n\tpager = less \\\n-R\n[alias]\n\tlast = !git log -1\n"
	                   "[user]\n\tname = U\n[core]\n\tfsmonitor = evil\n"
	                   "[pager]\n\tlast = !git log -1\n"
	                   "[core]\n\tpager = less \\\n-R evil\n";
	char *out = NULL;
	size_t len;
	cr_assert_eq(git_defuse_config_since(text, strlen(text), before, strlen(before), &out, &len,
	                                     NULL, NULL),
	             3);
	cr_assert(strncmp(out, before, strlen(before)) == 0, "%s", out);
	cr_assert(strstr(out, "\tname = U\n"));
	cr_assert(strstr(out, GIT_DEFUSE_MARK "fsmonitor = evil\n"));
	cr_assert(strstr(out, "[pager]\n\t" GIT_DEFUSE_MARK "last = !git log -1\n"));
	cr_assert(strstr(out, GIT_DEFUSE_MARK "pager = less \\\n" GIT_DEFUSE_MARK "-R evil\n"));
	free(out);
	/* nothing before: as git_defuse_config() */
	cr_assert_eq(git_defuse_config_since(text, strlen(text), NULL, 0, &out, &len, NULL, NULL),
	             5);
	free(out);
}

/* The user's repository before a run: origin, a fork chosen as the push
 * remote, a branch tracking origin, and "old", a remote an earlier run
 * added and nothing chose. */
static const char user_config[] = "[core]\n\tbare = false\n"
                                  "[remote \"origin\"]\n\turl = /srv/origin.git\n"
                                  "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
                                  "[remote \"fork\"]\n\turl = /srv/fork.git\n"
                                  "[remote \"old\"]\n\turl = /srv/old.git\n"
                                  "[remote]\n\tpushDefault = fork\n"
                                  "[branch \"main\"]\n\tremote = origin\n"
                                  "\tmerge = refs/heads/main\n";

/* since(added): user_config with added appended, swept against
 * user_config; the number disabled, their names in names[]. */
static int since(const char *added, char **out)
{
	char text[2048];
	size_t len;
	snprintf(text, sizeof(text), "%s%s", user_config, added);
	names[0] = '\0';
	*out = NULL;
	return git_defuse_config_since(text, strlen(text), user_config, strlen(user_config), out,
	                               &len, collect, NULL);
}

static const struct {
	const char *added;
	int disabled;
	const char *names;
	const char *why;
} sends_rows[] = {
	/* disabled whatever the remotes */
	{ "[url \"/elsewhere.git\"]\n\tinsteadOf = /srv/origin.git\n", 1,
	  "url./elsewhere.git.insteadof|", "every fetch and push of origin goes elsewhere" },
	{ "[url \"/e.git\"]\n\tpushInsteadOf = /srv/\n", 1, "url./e.git.pushinsteadof|",
	  "pushes go elsewhere" },
	{ "[http]\n\tproxy = http://example.org:3128\n", 1, "http.proxy|", "through a proxy" },
	{ "[http \"https://example.org/\"]\n\tproxy = x\n\tsslVerify = false\n", 2,
	  "http.https://example.org/.proxy|http.https://example.org/.sslverify|",
	  "per-URL proxy and TLS" },
	{ "[http]\n\tsslCAInfo = /tmp/ca.pem\n\tsslCAPath = /tmp\n\tcurloptResolve = "
	  "example.org:443:192.0.2.1\n",
	  3, "http.sslcainfo|http.sslcapath|http.curloptresolve|", "a man in the middle" },
	{ "[http]\n\tcookieFile = /root/.bashrc\n\tsaveCookies = true\n", 2,
	  "http.cookiefile|http.savecookies|", "a file outside written" },
	{ "[remote \"upstream\"]\n\turl = /u.git\n\tproxy = http://example.org\n", 1,
	  "remote.upstream.proxy|", "a new remote's proxy; its url stays" },
	/* where a remote of the user's goes */
	{ "[remote \"origin\"]\n\turl = /elsewhere.git\n", 1, "remote.origin.url|",
	  "origin's url changed (or a second one added)" },
	{ "[remote \"origin\"]\n\tpushurl = /elsewhere.git\n", 1, "remote.origin.pushurl|",
	  "origin pushed elsewhere" },
	{ "[remote \"fork\"]\n\tmirror = true\n\tpush = :refs/heads/main\n", 2,
	  "remote.fork.mirror|remote.fork.push|", "the next push deletes refs" },
	{ "[remote.origin]\n\turl = /elsewhere.git\n", 1, "remote.origin.url|",
	  "the old header form" },
	{ "[remote \"orig\\in\"]\n\turl = /elsewhere.git\n", 1, "remote.origin.url|",
	  "an escaped subsection" },
	/* the remote a plain push or fetch uses */
	{ "[remote \"evil\"]\n\turl = /elsewhere.git\n[branch \"main\"]\n\tpushRemote = evil\n", 1,
	  "branch.main.pushremote|", "main's push to a remote added now" },
	{ "[branch \"topic\"]\n\tremote = upstream\n", 1, "branch.topic.remote|",
	  "a remote that is not there" },
	{ "[branch \"topic\"]\n\tremote = old\n", 1, "branch.topic.remote|",
	  "a remote configured before but never chosen: an earlier run's, maybe" },
	{ "[remote \"old\"]\n\turl = /elsewhere.git\n", 1, "remote.old.url|",
	  "a remote configured before has its url changed" },
	{ "[remote]\n\tpushDefault = /elsewhere.git\n", 1, "remote.pushdefault|",
	  "a URL as the push default" },
	{ "[branch \"topic\"]\n\tremote = \"origin\\n\"\n", 1, "branch.topic.remote|",
	  "a value not read simply" },
	{ "[branch \"topic\"]\n\tremote\n", 1, "branch.topic.remote|", "no value" },
	/* kept: the everyday workflow */
	{ "[remote \"upstream\"]\n\turl = /u.git\n\tfetch = +refs/heads/*:refs/remotes/upstream/*\n",
	  0, "", "git remote add upstream: used where the user names it" },
	{ "[branch \"topic\"]\n\tremote = origin\n\tmerge = refs/heads/topic\n", 0, "",
	  "git push -u origin HEAD" },
	{ "[branch \"topic\"]\n\tremote = \"origin\" ; tracking\n", 0, "",
	  "quoted, with a comment" },
	{ "[branch \"topic\"]\n\tpushRemote = fork\n", 0, "", "the fork the user chose" },
	{ "[branch \"topic\"]\n\tremote = .\n\tmerge = refs/heads/main\n", 0, "",
	  "tracking a local branch" },
	{ "[remote \"origin\"]\n\tfetch = +refs/tags/*:refs/tags/*\n[user]\n\tname = U\n", 0, "",
	  "a fetch refspec sends nothing" },
	{ "[http]\n\tpostBuffer = 524288000\n", 0, "", "a buffer's size" },
};

Test(git_defuse, keys_that_send_the_repository_elsewhere_are_disabled_when_added)
{
	for (size_t i = 0; i < sizeof(sends_rows) / sizeof(sends_rows[0]); i++) {
		char *out = NULL;
		int n = since(sends_rows[i].added, &out);
		cr_expect_eq(n, sends_rows[i].disabled, "%s: %d disabled, %s", sends_rows[i].why, n,
		             names);
		cr_expect_str_eq(names, sends_rows[i].names, "%s", sends_rows[i].why);
		/* what the user had is kept, always */
		if (out)
			cr_expect(strncmp(out, user_config, strlen(user_config)) == 0, "%s: %s",
			          sends_rows[i].why, out);
		free(out);
	}
}

Test(git_defuse, the_users_own_remote_keys_stay_and_new_ones_need_a_baseline)
{
	/* the same text as before: nothing changes */
	char *out = NULL;
	cr_assert_eq(since("", &out), 0);
	/* origin counts as the user's even when it was not configured: it is
	 * what a plain push uses */
	const char *text = "[remote \"origin\"]\n\turl = /elsewhere.git\n"
	                   "[branch \"main\"]\n\tremote = origin\n";
	size_t len;
	names[0] = '\0';
	cr_assert_eq(git_defuse_config_since(text, strlen(text), "", 0, &out, &len, collect, NULL),
	             2);
	cr_assert_str_eq(names, "remote.origin.url|branch.main.remote|");
	free(out);
	/* no text before (a repository the run cloned): its remote and
	 * tracking branch stay, an insteadOf does not */
	text = "[remote \"origin\"]\n\turl = /o.git\n[branch \"main\"]\n\tremote = origin\n"
	       "[url \"/e.git\"]\n\tinsteadOf = /o.git\n";
	names[0] = '\0';
	cr_assert_eq(
	        git_defuse_config_since(text, strlen(text), NULL, 0, &out, &len, collect, NULL), 1);
	cr_assert_str_eq(names, "url./e.git.insteadof|");
	free(out);
	/* a remote name longer than the reader holds is never a known one */
	char before[512], now[1024];
	snprintf(before, sizeof(before),
	         "[remote \"%070d\"]\n\turl = /a.git\n"
	         "[branch \"main\"]\n\tremote = %070d\n",
	         1, 1);
	snprintf(now, sizeof(now), "%s[branch \"t\"]\n\tremote = %070d\n", before, 2);
	cr_assert_eq(git_defuse_config_since(now, strlen(now), before, strlen(before), &out, &len,
	                                     NULL, NULL),
	             1);
	free(out);
}

Test(git_defuse, a_value_git_replaced_in_place_is_disabled_and_the_users_put_back)
{
	/* git remote set-url origin, git config branch.main.remote, git
	 * config core.pager: the user's line replaced where it stood */
	const char *before = "[core]\n\tpager = less\n[remote \"origin\"]\n\turl = /srv/o.git\n"
	                     "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	                     "[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main";
	const char *text = "[core]\n\tpager = evil\n[remote \"origin\"]\n\turl = /e.git\n"
	                   "\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	                   "[branch \"main\"]\n\tremote = /e.git\n\tmerge = refs/heads/main";
	char *out = NULL;
	size_t len;
	names[0] = '\0';
	cr_assert_eq(git_defuse_config_since(text, strlen(text), before, strlen(before), &out, &len,
	                                     collect, NULL),
	             3);
	cr_assert_str_eq(names, "core.pager|remote.origin.url|branch.main.remote|");
	cr_assert_str_eq(out, "[core]\n\t" GIT_DEFUSE_MARK "pager = evil\n\tpager = less\n"
	                      "[remote \"origin\"]\n\t" GIT_DEFUSE_MARK "url = /e.git\n"
	                      "\turl = /srv/o.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	                      "[branch \"main\"]\n\t" GIT_DEFUSE_MARK "remote = /e.git\n"
	                      "\tremote = origin\n\tmerge = refs/heads/main");
	free(out);
	/* a line added beside the user's (a second url): nothing to put back;
	 * two added lines put the user's back once */
	text = "[remote \"origin\"]\n\turl = /e.git\n\turl = /f.git\n";
	before = "[remote \"origin\"]\n\turl = /srv/o.git\n";
	cr_assert_eq(git_defuse_config_since(text, strlen(text), before, strlen(before), &out, &len,
	                                     NULL, NULL),
	             2);
	cr_assert_str_eq(out, "[remote \"origin\"]\n\t" GIT_DEFUSE_MARK "url = /e.git\n"
	                      "\turl = /srv/o.git\n\t" GIT_DEFUSE_MARK "url = /f.git\n");
	free(out);
}

Test(git_defuse, todo_exec_lines_are_disabled)
{
	const char *text = "pick 1234 one\nexec make test\n  x rm -rf ~\n"
	                   "# exec in a comment\nbreak\npick 5678 exec\n";
	char *out = NULL;
	size_t len;
	names[0] = '\0';
	cr_assert_eq(git_defuse_todo(text, strlen(text), &out, &len, collect, NULL), 2);
	cr_assert_str_eq(out, "pick 1234 one\n" GIT_DEFUSE_MARK "exec make test\n" GIT_DEFUSE_MARK
	                      "  x rm -rf ~\n# exec in a comment\nbreak\npick 5678 exec\n");
	cr_assert_str_eq(names, "exec make test|exec rm -rf ~|");
	free(out);
}

/* The sweep, on a gitdir made by hand. */
static char root[1024], jobs[1100], ws[1100];

static void setup(void)
{
	scratch_make(root, sizeof(root), "git-sweep");
	snprintf(ws, sizeof(ws), "%s/ws", root);
	snprintf(jobs, sizeof(jobs), "%s/jobs", root);
	cr_assert_eq(mkdir(ws, 0700), 0);
	cr_assert_eq(mkdir(jobs, 0700), 0);
}

static void teardown(void)
{
	scratch_remove(root);
}

TestSuite(git_sweep, .init = setup, .fini = teardown);

static void at(char *buf, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s/%s", ws, rel);
}

static void make_dir(const char *rel)
{
	char p[PATH_MAX];
	at(p, rel);
	cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s", p);
}

static void make_file(const char *rel, const char *text, mode_t mode)
{
	char p[PATH_MAX];
	at(p, rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static bool exists(const char *rel)
{
	char p[PATH_MAX];
	struct stat st;
	at(p, rel);
	return lstat(p, &st) == 0;
}

/* The text of a file of the workspace (malloc'd). */
static char *read_text(const char *rel)
{
	char p[PATH_MAX];
	at(p, rel);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f, "%s", p);
	char *text = calloc(1, 65536);
	cr_assert_not_null(text);
	(void)fread(text, 1, 65535, f);
	fclose(f);
	return text;
}

/* The workspace's index: one gitlink, at "sub" (version 2, no extensions). */
static void write_gitlink_index(void)
{
	unsigned char index[12 + 72] = { 'D', 'I', 'R', 'C', 0, 0, 0, 2, 0, 0, 0, 1 };
	unsigned char *e = index + 12;
	e[26] = 0xE0; /* mode 0160000 */
	e[61] = 3;    /* the name's length */
	memcpy(e + 62, "sub", 3);
	char p[PATH_MAX];
	at(p, ".git/index");
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, index, sizeof(index)), (ssize_t)sizeof(index));
	close(fd);
}

/* A repository as git init leaves it, made before the sweep begins. */
static void make_repository(void)
{
	make_dir(".git");
	make_dir(".git/objects");
	make_dir(".git/objects/ab");
	make_dir(".git/refs");
	make_dir(".git/refs/heads");
	make_dir(".git/logs");
	make_dir(".git/hooks");
	make_dir(".git/info");
	make_file(".git/HEAD", "ref: refs/heads/main\n", 0644);
	make_file(".git/config", "[core]\n\tbare = false\n", 0644);
	make_file(".git/objects/ab/cdef", "blob", 0444);
	make_file(".git/info/exclude", "# git ls-files\n", 0644);
}

/* Begin the sweep as if the run started now: what was made before counts
 * as the user's (the margin for coarse clocks set aside). */
static void begin(struct git_sweep *s)
{
	cr_assert_eq(git_sweep_begin(s, ws), 0);
	cr_assert_eq(s->n_roots, 1);
	s->since.tv_sec += 10; /* everything made so far is older */
}

Test(git_sweep, planted_links_and_fifos_go_to_the_quarantine)
{
	make_repository();
	struct git_sweep s;
	begin(&s);
	s.since.tv_sec -= 10; /* from here on, everything is the run's */
	char p[PATH_MAX], t[PATH_MAX];
	at(p, ".git/COMMIT_EDITMSG");
	cr_assert_eq(symlink("/etc/passwd", p), 0);
	at(p, ".git/logs/HEAD");
	cr_assert_eq(symlink("../../outside", p), 0);
	at(p, ".git/info/attributes");
	cr_assert_eq(mkfifo(p, 0644), 0);
	at(p, "outside");
	make_file("outside", "text\n", 0644);
	at(t, ".git/FETCH_HEAD");
	cr_assert_eq(link(p, t), 0);
	/* what git writes is left alone, a hard-linked object too */
	make_file(".git/ORIG_HEAD", "1234\n", 0644);
	at(p, ".git/objects/ab/cdef");
	at(t, "object-copy");
	cr_assert_eq(link(p, t), 0);

	cr_assert_eq(git_sweep_run(&s, jobs), 4);
	cr_assert_not(exists(".git/COMMIT_EDITMSG"));
	cr_assert_not(exists(".git/logs/HEAD"));
	cr_assert_not(exists(".git/info/attributes"));
	cr_assert_not(exists(".git/FETCH_HEAD"));
	cr_assert(exists("outside"), "the other name of a hard link stays");
	cr_assert(exists(".git/ORIG_HEAD"));
	cr_assert(exists(".git/objects/ab/cdef"));
	cr_assert_not_null(s.quarantine);
	cr_assert_eq(strncmp(s.quarantine, jobs, strlen(jobs)), 0);
	bool link_kept = false;
	for (size_t i = 0; i < s.n_items; i++) {
		struct stat st;
		if (strstr(s.items[i].path, "COMMIT_EDITMSG")) {
			cr_assert(strstr(s.items[i].what, "symbolic link to /etc/passwd"));
			cr_assert_not_null(s.items[i].kept);
			cr_assert_eq(lstat(s.items[i].kept, &st), 0);
			link_kept = S_ISLNK(st.st_mode);
		}
	}
	cr_assert(link_kept, "the link itself is kept, never followed");
	snprintf(p, sizeof(p), "%s/MANIFEST", s.quarantine);
	cr_assert(access(p, R_OK) == 0);
	git_sweep_done(&s);
}

/* Outside the object store's fan-out folders every entry is looked at,
 * whenever it was made (a link left by a run killed before its sweep);
 * a fan-out folder the run did not change is not read at all. */
Test(git_sweep, only_unchanged_fanout_folders_are_not_read)
{
	make_repository();
	char p[PATH_MAX];
	at(p, ".git/logs/HEAD");
	cr_assert_eq(symlink("/etc/passwd", p), 0);
	at(p, ".git/objects/ab/fifo");
	cr_assert_eq(mkfifo(p, 0644), 0);
	struct git_sweep s;
	begin(&s);
	cr_assert_eq(git_sweep_run(&s, jobs), 1);
	cr_assert_not(exists(".git/logs/HEAD"));
	cr_assert(exists(".git/objects/ab/fifo"), "an unchanged fan-out folder is not read");
	git_sweep_done(&s);
}

Test(git_sweep, a_new_nested_repository_is_disabled_and_keeps_working)
{
	make_repository();
	struct git_sweep s;
	begin(&s);
	s.since.tv_sec -= 10;
	make_dir("sub");
	make_dir("sub/.git");
	make_dir("sub/.git/hooks");
	make_dir("sub/.git/refs");
	make_dir("sub/.git/objects");
	make_file("sub/.git/HEAD", "ref: refs/heads/main\n", 0644);
	make_file("sub/.git/config",
	          "[core]\n\tbare = false\n\tfsmonitor = \"touch /tmp/mark\"\n"
	          "[remote \"origin\"]\n\turl = /srv/r\n",
	          0644);
	make_file("sub/.git/hooks/pre-commit.sample", "#!/bin/sh\n", 0755);
	make_file("sub/.git/hooks/post-checkout", "#!/bin/sh\n", 0755);
	write_gitlink_index();

	cr_assert_eq(git_sweep_run(&s, jobs), 2);
	cr_assert_not(exists("sub/.git/hooks/post-checkout"));
	cr_assert(exists("sub/.git/hooks/pre-commit.sample"));
	char p[PATH_MAX];
	at(p, "sub/.git/config");
	FILE *f = fopen(p, "r");
	char text[512] = "";
	cr_assert_not_null(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	cr_assert(strstr(text, GIT_DEFUSE_MARK "fsmonitor"));
	cr_assert(strstr(text, "\turl = /srv/r\n"), "the rest of the config stays");
	git_sweep_done(&s);
}

Test(git_sweep, a_paused_rebase_loses_its_exec_lines)
{
	make_repository();
	struct git_sweep s;
	begin(&s);
	s.since.tv_sec -= 10;
	make_dir(".git/rebase-merge");
	make_file(".git/rebase-merge/git-rebase-todo", "pick 1 a\nexec touch /tmp/m\n", 0644);
	cr_assert_eq(git_sweep_run(&s, jobs), 1);
	cr_assert_eq(s.n_items, 1);
	cr_assert(strstr(s.items[0].what, "exec touch /tmp/m"));
	cr_assert_not_null(s.items[0].kept);
	git_sweep_done(&s);
}

Test(git_sweep, the_users_own_config_and_hooks_are_left_alone)
{
	make_repository();
	make_file(".git/config", "[credential]\n\thelper = store\n[alias]\n\thi = !echo hi\n",
	          0644);
	make_file(".git/hooks/pre-commit", "#!/bin/sh\n", 0755);
	make_dir("sub");
	make_dir("sub/.git");
	make_dir("sub/.git/hooks");
	make_file("sub/.git/HEAD", "ref: refs/heads/main\n", 0644);
	make_file("sub/.git/config", "[core]\n\tpager = less\n", 0644);
	make_file("sub/.git/hooks/pre-push", "#!/bin/sh\n", 0755);
	write_gitlink_index();
	usleep(50 * 1000); /* past a tick of the coarse clock */
	struct git_sweep s;
	cr_assert_eq(git_sweep_begin(&s, ws), 0);
	clock_gettime(CLOCK_REALTIME_COARSE, &s.since); /* no margin: the files are older */
	/* the run changes both gitdirs' entries, as a commit does */
	make_file(".git/ORIG_HEAD", "1\n", 0644);
	make_file("sub/.git/ORIG_HEAD", "1\n", 0644);
	cr_assert_eq(git_sweep_run(&s, jobs), 0);
	cr_assert(exists(".git/hooks/pre-commit"));
	cr_assert(exists("sub/.git/hooks/pre-push"));
	cr_assert_null(s.quarantine);
	git_sweep_done(&s);
}

Test(git_sweep, a_root_config_replaced_during_the_run_keeps_only_the_users_keys)
{
	/* the launcher keeps .git/config read-only by a bind, which the
	 * user's git renaming a new file onto it detaches: what the command
	 * then added is disabled, the user's keys, old and new, stay */
	make_repository();
	make_file(".git/config", "[alias]\n\thi = !echo hi\n", 0644);
	make_file(".git/hooks/pre-commit", "#!/bin/sh\n", 0755);
	usleep(50 * 1000);
	struct git_sweep s;
	cr_assert_eq(git_sweep_begin(&s, ws), 0);
	clock_gettime(CLOCK_REALTIME_COARSE, &s.since);
	make_file(".git/config.new",
	          "[alias]\n\thi = !echo hi\n[user]\n\tname = U\n[core]\n\tfsmonitor = evil\n",
	          0644);
	char from[PATH_MAX], to[PATH_MAX];
	snprintf(from, sizeof(from), "%s/.git/config.new", ws);
	snprintf(to, sizeof(to), "%s/.git/config", ws);
	cr_assert_eq(rename(from, to), 0);
	cr_assert_eq(git_sweep_run(&s, jobs), 1);
	cr_assert(strstr(s.items[0].what, "core.fsmonitor"), "%s", s.items[0].what);
	_cleanup_free_ char *text = read_text(".git/config");
	cr_assert(strstr(text, "\thi = !echo hi\n"), "%s", text);
	cr_assert(strstr(text, "\tname = U\n"));
	cr_assert(strstr(text, GIT_DEFUSE_MARK "fsmonitor = evil"));
	cr_assert(exists(".git/hooks/pre-commit"));
	git_sweep_done(&s);
}

Test(git_sweep, legacy_remote_files_the_run_made_go_the_users_stay)
{
	/* git reads remotes/NAME and branches/NAME for a remote its config
	 * lacks ("origin" in a repository without one): a plain push goes
	 * where they say */
	make_repository();
	make_dir(".git/remotes");
	make_dir(".git/branches");
	make_file(".git/remotes/old", "URL: /srv/old.git\n", 0644);
	usleep(50 * 1000);
	struct git_sweep s;
	cr_assert_eq(git_sweep_begin(&s, ws), 0);
	clock_gettime(CLOCK_REALTIME_COARSE, &s.since);
	make_file(".git/remotes/origin", "URL: /elsewhere.git\nPush: refs/heads/main\n", 0644);
	make_file(".git/branches/up", "/elsewhere.git#main\n", 0644);
	cr_assert_eq(git_sweep_run(&s, jobs), 2);
	cr_assert_not(exists(".git/remotes/origin"));
	cr_assert_not(exists(".git/branches/up"));
	cr_assert(exists(".git/remotes/old"), "the user's own, older than the run, stays");
	cr_assert(strstr(s.items[0].what, "legacy remote file"), "%s", s.items[0].what);
	git_sweep_done(&s);
}

Test(git_sweep, no_repository_nothing_to_do)
{
	struct git_sweep s;
	cr_assert_eq(git_sweep_begin(&s, ws), 0);
	cr_assert_eq(s.n_roots, 0);
	cr_assert_eq(git_sweep_run(&s, jobs), 0);
	git_sweep_done(&s);
}

Test(git_sweep, a_kept_core_worktree_is_judged_again_in_every_sweep)
{
	/* two submodules' gitdirs, older than the run: lib's folder was
	 * replaced by a link out of the workspace since (a later run), its
	 * core.worktree (in config.worktree) goes; lib2's still leads to its
	 * folder, and its file stays whole, the user's continued alias too */
	make_repository();
	make_dir(".git/modules");
	make_dir(".git/modules/lib");
	make_file(".git/modules/lib/HEAD", "ref: refs/heads/main\n", 0644);
	make_file(".git/modules/lib/config", "[core]\n\tbare = false\n", 0644);
	make_file(".git/modules/lib/config.worktree", "[core]\n\tworktree = ../../../lib\n", 0644);
	make_dir(".git/modules/lib2");
	make_file(".git/modules/lib2/HEAD", "ref: refs/heads/main\n", 0644);
	const char *lib2 =
	        "[core]\n\tworktree = ../../../lib2\n[alias]\n\tst = !git \\\n\tstatus\n";
	make_file(".git/modules/lib2/config", lib2, 0644);
	make_dir("lib2");
	make_file("lib2/.git", "gitdir: ../.git/modules/lib2\n", 0644);
	char p[PATH_MAX];
	at(p, "lib");
	cr_assert_eq(symlink("/", p), 0);
	struct git_sweep s;
	begin(&s);
	cr_assert_eq(git_sweep_run(&s, jobs), 1);
	cr_assert(strstr(s.items[0].what, "core.worktree"), "%s", s.items[0].what);
	_cleanup_free_ char *text = read_text(".git/modules/lib/config.worktree");
	cr_assert(strstr(text, GIT_DEFUSE_MARK "worktree = ../../../lib"), "%s", text);
	_cleanup_free_ char *text2 = read_text(".git/modules/lib2/config");
	cr_assert_str_eq(text2, lib2);
	git_sweep_done(&s);
}
