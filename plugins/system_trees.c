/* SPDX-License-Identifier: MIT */
/*
 * system_trees: refuse changes of whole system trees -- the root, the
 * top-level system directories (/usr, /etc, /var ...), home directories --
 * by other commands than rm (rm_targets judges rm): a recursive chmod,
 * chown or chgrp (rule permissions; of a home directory, rule
 * home_permissions asks; of the keys and credentials in one, ~/.ssh,
 * ~/.aws ..., rule key_permissions asks unless chmod only takes the
 * group's and others' permissions away or chown gives them back to the
 * user), mv of such a tree (rule move), and find that
 * deletes in one (-delete, or -exec/-execdir/-ok/-okdir of rm, unlink,
 * shred, truncate or mv: rule find; of chmod, chown or chgrp: the
 * permissions rules). Every spelling rm_targets knows is known here
 * (path-targets.h): ~, $HOME, //, /./, .., globs, defaults of unset
 * variables, a literal cd before it.
 * find piped into an xargs that runs one of those (`find ~ -print0 |
 * xargs -0 rm -rf`) is judged as find running it would be.
 * Any chmod, chown, chattr or setfacl -m, recursive or not, is judged by what it does
 * to what the path is (check_access(): `chmod 000 /`, `chmod -x
 * ~/.local/bin/tool`, `chmod 777 ~/.ssh/id_ed25519`, `chattr +i ~/.bashrc`),
 * by the rule of the system's, the home's or the keys' permissions; so is
 * a set-id bit given to a program (`chmod u+s /usr/bin/find`), a file of
 * the system named by itself (system_file_rule(): `chmod 600 /etc/passwd`,
 * `chmod 666 /etc/shadow`) and --reference onto any of them (asks).
 * Not for: chown or chattr of a file of the system named by itself
 * (`chown -R www-data /var/www/html`), chgrp but recursive.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "file-modes.h"
#include "path-targets.h"
#include "plugin-util.h"
#include "run-time-values.h"
#include "sluice/policy.h"

/* The rules an administrator can switch (deny, ask, or allow: off). */
#define TREE_RULES(X)                                       \
	X(PERMISSIONS, "permissions", SLUICE_DENY)          \
	X(HOME_PERMISSIONS, "home_permissions", SLUICE_ASK) \
	X(KEY_PERMISSIONS, "key_permissions", SLUICE_ASK)   \
	X(MOVE, "move", SLUICE_DENY)                        \
	X(FIND, "find", SLUICE_DENY)

enum { TREE_RULES(RULE_ENUM) N_TREE_RULES };
static const struct rule_switch tree_rules[] = { TREE_RULES(RULE_SWITCH) };

static const char *const owners[] = { "chmod", "chown", "chgrp", NULL };

/* What find may run on each file it finds that deletes or moves it. */
static const char *const deleters[] = { "rm", "unlink", "shred", "truncate", "mv", NULL };

/* What a path rule needs: the rule for the root and the system
 * directories, the one for home directories and the one for the keys and
 * credentials in a home (guarded_path(): ~/.ssh, ~/.aws ...); each may be
 * off. */
struct tree_rule {
	int tree_verdict;
	int home_verdict;
	int key_verdict;
};

/* path_rule_fn: a system tree gets its rule's verdict. */
static int tree_path_rule(const void *ctx, const char *t, const char **ret_what)
{
	const struct tree_rule *r = ctx;
	switch (system_tree(t, ret_what)) {
	case TREE_ROOT:
	case TREE_SYSTEM:
		return r->tree_verdict;
	case TREE_HOME:
		return r->home_verdict;
	case TREE_NONE:
		break;
	}
	if (r->key_verdict != SLUICE_ALLOW && guarded_path(t, true, ret_what) == GUARDED_KEYS)
		return r->key_verdict;
	return SLUICE_ALLOW;
}

/* Is chown's owner operand the user who runs it ($USER, $(whoami), $(id
 * -u), with a group after a colon or not)? `chown -R $USER ~/.ssh` puts
 * back what a sudo copy took; only another owner makes ssh refuse. */
static bool owner_is_self(const char *owner)
{
	static const char *const self[] = { "$USER",    "${USER}",   "$(whoami)",
		                            "$(id -u)", "$(id -un)", NULL };
	size_t n = strcspn(owner, ":.");
	for (const char *const *p = self; *p; p++)
		if (strlen(*p) == n && strncmp(owner, *p, n) == 0)
			return true;
	return false;
}

/* Is the group chgrp or chown (after its colon or dot) gives the user's own
 * (none, $USER, $(id -gn), $(id -g))? A key handed to another group,
 * `chgrp nogroup ~/.ssh/id_rsa`, gives its group bits to other users:
 * whether they read it depends on a mode not known here, so it asks. */
static bool group_is_self(const char *change, bool chgrp)
{
	static const char *const self[] = { "$USER",     "${USER}",   "$(id -gn)", "$(id -g)",
		                            "$(whoami)", "$(id -un)", NULL };
	const char *g = chgrp ? change : change + strcspn(change, ":.");
	if (!chgrp && *g)
		g++;
	return !*g || str_in(g, self);
}

/* Is a, a word that begins with '-', chmod's mode rather than an option?
 * chmod(1): MODE may be given "as the first non-option"; GNU chmod reads
 * a word whose letter after the dash is a mode's (`-r`, `-w`, `-x`, `-rwx`,
 * `-X`, `-s`, `-t`, `-w,o+r`) as the mode, so `chmod -R -w /` takes the
 * write bits off every file. Its options are c, f, v and R (`-Rv`). */
static bool option_like_mode(const char *a)
{
	return a[0] == '-' && a[1] && strchr("rwxXstugoa,+=01234567", a[1]) &&
	       a[strspn(a + 1, "rwxXstugoa,+-=01234567") + 1] == '\0';
}

/* How a refusal reads: "DOING 'PATH' [after 'cd DIR'] EFFECT WHAT TAIL". */
struct refusal {
	const char *doing, *effect, *tail, *suggestion;
};

/* Judge operand a of sc by rule (with ctx); when the rule refuses it,
 * add the reason as *how says, read after the rule ran (a rule may write
 * it). Returns the verdict. */
static int judge_by(const struct sluice_simple_command *sc, const char *a, path_rule_fn rule,
                    const void *ctx, const struct refusal *how, struct sluice_verdict *v)
{
	struct path_finding f;
	if (!operand_judge(sc, a, rule, ctx, &f))
		return sluice_verdict_add(v, SLUICE_ASK, "a path too long to judge",
		                          "name a shorter path");
	if (f.verdict == SLUICE_ALLOW)
		return SLUICE_ALLOW;
	/* the operand as written, and the literal cd it was joined to */
	char msg[640];
	snprintf(msg, sizeof(msg), "%s '%s'%s%s%s %s %s%s", how->doing, a,
	         f.after_cd ? " after 'cd " : "", f.after_cd ? sluice_cwd(sc) : "",
	         f.after_cd ? "'" : "", how->effect, f.what, how->tail);
	return sluice_verdict_add(v, f.verdict, msg, how->suggestion);
}

/* Judge operand a of sc by the tree rule r (judge_by()). */
static int judge(const struct sluice_simple_command *sc, const char *a, const struct tree_rule *r,
                 const struct refusal *how, struct sluice_verdict *v)
{
	if (r->tree_verdict == SLUICE_ALLOW && r->home_verdict == SLUICE_ALLOW &&
	    r->key_verdict == SLUICE_ALLOW)
		return SLUICE_ALLOW;
	return judge_by(sc, a, tree_path_rule, r, how, v);
}

/* chmod -R MODE FILE..., chown -R OWNER FILE..., chgrp -R GROUP FILE... */
static int check_owner(const struct rule_state *st, const struct sluice_simple_command *sc,
                       struct sluice_verdict *v)
{
	const char *name = sluice_name(sc);
	if (!str_in(name, owners))
		return SLUICE_ALLOW;
	if (!sluice_has_short_flag(sc, 1, 'R') && !long_option_prefix(sc, 1, "recursive", 3))
		return SLUICE_ALLOW;
	struct tree_rule r = { st->verdict[RULE_PERMISSIONS], st->verdict[RULE_HOME_PERMISSIONS],
		               st->verdict[RULE_KEY_PERMISSIONS] };
	/* the first operand is the mode, owner or group, unless --reference */
	char doing[64];
	snprintf(doing, sizeof(doing), "recursive %s of", name);
	const struct refusal how = {
		doing, "changes every file of",
		": programs, logins and ssh stop trusting them, and the old owners and modes "
		"cannot be put back",
		"change only the files of the project, by name (chmod -R u+w build/)"
	};
	bool skip_first = !long_option_prefix(sc, 1, "reference", 3);
	bool dashdash = false;
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = true;
			continue;
		}
		bool mode = skip_first && strcmp(name, "chmod") == 0 && option_like_mode(a);
		if (!dashdash && a[0] == '-' && a[1] && !mode)
			continue;
		if (skip_first) {
			skip_first = false;
			if ((strcmp(name, "chmod") == 0 && mode_only_tightens(a)) ||
			    (strcmp(name, "chown") == 0 && owner_is_self(a)))
				r.key_verdict = SLUICE_ALLOW;
			continue;
		}
		int verdict = judge(sc, a, &r, &how, v);
		if (verdict != SLUICE_ALLOW)
			return verdict;
	}
	return SLUICE_ALLOW;
}

/* ------------------------------------------ what the user's tools need
 *
 * Any chmod, chown or chattr, recursive or not, of what access_path()
 * names (the root, system directories and programs; a home directory, its
 * programs and configuration; keys and credentials), judged by what the
 * change does to it rather than by how far it reaches: */
enum access_harm {
	HARM_NONE = 0,
	HARM_LOCKED_OUT, /* a class can no longer read it, or enter or run it */
	HARM_SHARED,     /* the group or others can change it, or read a secret */
	HARM_OWNER,      /* another owner */
	HARM_GROUP,      /* another group: the group's bits are for other users now */
	HARM_IMMUTABLE,  /* chattr +i / +a: nothing can change it until root undoes it */
	HARM_SETID,      /* a program that runs as its owner or group, whoever starts it */
	HARM_UNKNOWN,    /* --reference: another file's mode or owner, not known here */
};

/* What a change of sc does, for access_rule(): chmod's mode (its effect),
 * chown's new owner, chattr's attributes; the verdicts of the rules; and
 * the harm found, written back for the message. */
struct access_change {
	bool recursive;
	const struct mode_effect *mode; /* chmod: NULL when the mode is not read */
	bool other_owner;               /* chown: an owner other than the user */
	bool root_owner;                /* chown: root, who owns the system's files */
	bool other_group;               /* chgrp, chown :GROUP: a group not the user's */
	bool immutable;                 /* chattr: +i, +a, =...i */
	bool reference;                 /* chmod/chown --reference=FILE */
	int ref_kind;        /* what FILE is: an access_kind, or 10 + a system_file_kind */
	int verdict[3];      /* ACCESS_SYSTEM, ACCESS_HOME, ACCESS_KEYS - 1 */
	struct refusal *how; /* its effect and tail written by access_rule() */
};

/* The harm chmod's mode e does to a path of kind k (entered: its x bit
 * lets programs enter or run it). The system's trees are everyone's:
 * any class locked out of them, or any given the right to change them,
 * harms; a home's things are the user's: the owner locked out, or the
 * group or others given write (sshd and gpg refuse a home, ~/.ssh or a
 * key others can change); a secret is also harmed by anyone else reading
 * it (ssh refuses a private key others can read). */
static enum access_harm mode_harm(const struct mode_effect *e, enum access_kind k, bool entered,
                                  bool public_file)
{
	unsigned needed = MODE_R | (entered ? MODE_X : 0);
	int locked = k == ACCESS_SYSTEM ? N_MODE_CLASSES : MODE_OWNER + 1;
	for (int c = 0; c < locked; c++)
		if (e->lacks[c] & needed)
			return HARM_LOCKED_OUT;
	unsigned shared = (e->has[MODE_GROUP] | e->has[MODE_OTHERS]);
	if (shared & MODE_W)
		return HARM_SHARED;
	if (k == ACCESS_KEYS && !entered && !public_file && (shared & MODE_R))
		return HARM_SHARED;
	return HARM_NONE;
}

static const char *const harm_effects[] = {
	[HARM_LOCKED_OUT] = "takes read or run access away from",
	[HARM_SHARED] = "lets other users change or read",
	[HARM_OWNER] = "hands to another owner",
	[HARM_GROUP] = "hands to another group",
	[HARM_IMMUTABLE] = "freezes",
	[HARM_SETID] = "makes a set-user-ID or set-group-ID program of",
	[HARM_UNKNOWN] = "copies another file's mode or owner, which sluice cannot read, onto",
};

static const char *const harm_tails[] = {
	[HARM_LOCKED_OUT] = ": the programs and logins that need it stop working",
	[HARM_SHARED] = ": ssh, gpg and sshd refuse what others can change or read, and others "
	                "could run code as you",
	[HARM_OWNER] = ": ssh, gpg and your tools stop reading or trusting it",
	[HARM_GROUP] = ": whatever its group bits allow, everyone in that group now has (its mode "
	               "is not known here)",
	[HARM_IMMUTABLE] = ": nothing can write it, your tools included, until root undoes it",
	[HARM_SETID] = ": whoever runs it runs it as its owner (or group), a way in for anyone "
	               "who can start it",
	[HARM_UNKNOWN] = "",
};

/* The harm chmod's mode e does to a file of the system named by itself
 * (system_file(): /etc/passwd, /etc/shadow, /var/run/docker.sock), which
 * is not a program or a tree: the owner locked out, the group or others
 * given write, every user's programs locked out of a file they all read,
 * a secret given to others to read, a set-id bit. A mode that only keeps
 * a file of the system from others (`chmod 600 /etc/app/token`) passes:
 * an administrator tightens such files. */
static enum access_harm system_file_harm(const struct mode_effect *e, enum system_file_kind f,
                                         bool entered)
{
	if (e->lacks[MODE_OWNER] & (MODE_R | (entered ? MODE_X : 0)))
		return HARM_LOCKED_OUT;
	if (f == SYSTEM_FILE_PUBLIC && ((e->lacks[MODE_GROUP] | e->lacks[MODE_OTHERS]) & MODE_R))
		return HARM_LOCKED_OUT;
	unsigned shared = (e->has[MODE_GROUP] | e->has[MODE_OTHERS]);
	if ((shared & MODE_W) || (f == SYSTEM_FILE_SECRET && (e->has[MODE_OTHERS] & MODE_R)))
		return HARM_SHARED;
	return e->setid ? HARM_SETID : HARM_NONE;
}

/* access_rule() for a file of the system named by itself: chmod's mode
 * as system_file_harm() says, --reference asks; a new owner or attributes
 * pass (`chown -R www-data /var/www/html` is how a server's files are
 * handed to it; `chattr +i /etc/resolv.conf` how an administrator keeps
 * a network manager from rewriting it), by the rule permissions. */
static int system_file_rule(const struct access_change *ch, const char *t, const char **ret_what)
{
	enum system_file_kind f = system_file(t);
	int rule = ch->verdict[ACCESS_SYSTEM - 1];
	if (f == SYSTEM_FILE_NONE || rule == SLUICE_ALLOW || !(ch->mode || ch->reference))
		return SLUICE_ALLOW;
	if (ch->reference && ch->ref_kind == 10 + (int)f)
		return SLUICE_ALLOW; /* the mode of a file of the same kind */
	enum access_harm harm =
	        ch->reference ? HARM_UNKNOWN : system_file_harm(ch->mode, f, ch->recursive);
	if (harm == HARM_NONE)
		return SLUICE_ALLOW;
	*ret_what = f == SYSTEM_FILE_PUBLIC   ? "a file of the system every user's programs read"
	            : f == SYSTEM_FILE_SECRET ? "a secret of the system"
	                                      : "a file of the system";
	ch->how->effect = harm_effects[harm];
	ch->how->tail = harm == HARM_SHARED
	                        ? ": other users could change what the system reads or runs, or "
	                          "read its secrets"
	                        : harm_tails[harm];
	return harm == HARM_UNKNOWN && rule == SLUICE_DENY ? SLUICE_ASK : rule;
}

/* path_rule_fn of a change of permissions, owner or attributes. */
static int access_rule(const void *ctx, const char *t, const char **ret_what)
{
	const struct access_change *ch = ctx;
	bool entered;
	enum access_kind k = access_path(t, &entered, ret_what);
	if (k == ACCESS_NONE)
		return system_file_rule(ch, t, ret_what);
	if (ch->verdict[k - 1] == SLUICE_ALLOW)
		return SLUICE_ALLOW;
	enum access_harm harm = HARM_NONE;
	if (ch->reference)
		/* the mode or owner of a file of the same kind (another key's)
		 * is one such a file has; any other is not known */
		harm = ch->ref_kind == (int)k ? HARM_NONE : HARM_UNKNOWN;
	else if (ch->mode)
		harm = mode_harm(ch->mode, k, entered || ch->recursive, public_key_file(t));
	/* a program of the system's or of the home's that runs as its owner */
	if (harm == HARM_NONE && ch->mode && ch->mode->setid && k != ACCESS_KEYS)
		harm = HARM_SETID;
	else if (ch->other_owner && !(k == ACCESS_SYSTEM && ch->root_owner))
		harm = HARM_OWNER;
	else if (ch->other_group && k == ACCESS_KEYS && !public_key_file(t))
		harm = HARM_GROUP;
	else if (ch->immutable)
		harm = HARM_IMMUTABLE;
	if (harm == HARM_NONE)
		return SLUICE_ALLOW;
	ch->how->effect = harm_effects[harm];
	ch->how->tail = harm_tails[harm];
	/* what --reference gives is not known: ask, never refuse on a guess */
	if (harm == HARM_UNKNOWN && ch->verdict[k - 1] == SLUICE_DENY)
		return SLUICE_ASK;
	return ch->verdict[k - 1];
}

/* Is chown's owner operand root (root, 0, with a group or not)? */
static bool owner_is_root(const char *owner)
{
	size_t n = strcspn(owner, ":.");
	return (n == 4 && strncmp(owner, "root", 4) == 0) || (n == 1 && owner[0] == '0');
}

/* Does chattr's mode word a ("+i", "=ai", "-a") make a file immutable or
 * append-only? */
static bool attributes_freeze(const char *a)
{
	return (a[0] == '+' || a[0] == '=') && strpbrk(a + 1, "ia");
}

/* The first operand of sc (chmod's mode, chown's owner), past options and
 * the values of with_value; 0 when there is none. */
static size_t first_operand(const struct sluice_simple_command *sc, bool chmod,
                            const char *const *with_value)
{
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--") == 0)
			return i + 1 < sluice_argc(sc) ? i + 1 : 0;
		if (a[0] != '-' || !a[1] || (chmod && option_like_mode(a)))
			return i;
		if (option_takes_next(a, with_value))
			i++;
	}
	return 0;
}

/* Judge operand a of sc by access_rule(ch), change being the mode,
 * owner or attributes as written. */
static int judge_access(const struct sluice_simple_command *sc, const char *change, const char *a,
                        const struct access_change *ch, struct sluice_verdict *v)
{
	char doing[128];
	snprintf(doing, sizeof(doing), "%s %s", sluice_name(sc), change);
	ch->how->doing = doing;
	ch->how->suggestion = "change only the files of the project, by name; keys stay 600 "
	                      "(chmod 600 ~/.ssh/id_ed25519) in a 700 folder";
	return judge_by(sc, a, access_rule, ch, ch->how, v);
}

/* chattr [-RVf] [-v VERSION] [-p PROJECT] [+-=]ATTRS... FILE...: a word
 * that begins with + or = is attributes, one with - is an option or
 * attributes taken away (which freeze nothing); the rest are files. */
static int check_chattr(struct access_change *ch, const struct sluice_simple_command *sc,
                        struct sluice_verdict *v)
{
	static const char *const with_value[] = { "-v", "-p", NULL };
	const char *change = NULL;
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (attributes_freeze(a))
			change = a;
		if (option_takes_next(a, with_value))
			i++;
	}
	if (!change)
		return SLUICE_ALLOW;
	ch->immutable = true;
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (option_takes_next(a, with_value)) {
			i++;
			continue;
		}
		if (strchr("+-=", a[0]))
			continue;
		int verdict = judge_access(sc, change, a, ch, v);
		if (verdict != SLUICE_ALLOW)
			return verdict;
	}
	return SLUICE_ALLOW;
}

/* What the file of sc's --reference=FILE (or --reference FILE) is: its
 * access_kind, 10 + its system_file_kind, or -1 when it is not read. */
static int reference_kind(const struct sluice_simple_command *sc)
{
	for (size_t i = 1; i < sluice_argc(sc); i++) {
		const char *a = sluice_arg(sc, i);
		if (strcmp(a, "--") == 0)
			break;
		if (!long_option_spells(a, "reference", 3))
			continue;
		const char *file = strchr(a, '=')            ? strchr(a, '=') + 1
		                   : i + 1 < sluice_argc(sc) ? sluice_arg(sc, i + 1)
		                                             : NULL;
		char t[PATH_CAP];
		const char *what;
		bool entered;
		if (!file || !path_normalise(file, t, sizeof(t)))
			return -1;
		path_collapse(t);
		enum access_kind k = access_path(t, &entered, &what);
		return k != ACCESS_NONE ? (int)k : 10 + (int)system_file(t);
	}
	return -1;
}

/* chmod MODE FILE..., chown OWNER[:GROUP] FILE..., chattr ATTRS FILE...:
 * every file, by access_rule(). */
/* setfacl -m/--modify/--set ACL FILE... judged as chmod of the mode the
 * entries give (acl_spec_mode()); -x, -b, -k take access away from others
 * and pass; -M/--set-file read entries from a file, not known here. */
static int check_setfacl(struct access_change *ch, const struct sluice_simple_command *sc,
                         struct sluice_verdict *v)
{
	const char *spec = NULL;
	size_t n = sluice_argc(sc);
	bool dashdash = false;
	size_t files[64], n_files = 0;
	for (size_t i = 1; i < n; i++) {
		const char *a = sluice_arg(sc, i);
		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = true;
		} else if (!dashdash &&
		           (strncmp(a, "--modify=", 9) == 0 || strncmp(a, "--set=", 6) == 0)) {
			spec = strchr(a, '=') + 1;
		} else if (!dashdash && (strcmp(a, "--modify") == 0 || strcmp(a, "--set") == 0)) {
			spec = i + 1 < n ? sluice_arg(sc, ++i) : NULL;
		} else if (!dashdash && a[0] == '-' && a[1] && a[1] != '-') {
			/* a cluster: -Rm SPEC, -m SPEC; -x SPEC removes entries */
			char last = a[strlen(a) - 1];
			if (strchr(a + 1, 'R'))
				ch->recursive = true;
			if (last == 'm')
				spec = i + 1 < n ? sluice_arg(sc, ++i) : NULL;
			else if (last == 'x' || last == 'M' || last == 'X')
				i++;
		} else if (!dashdash && a[0] == '-' && a[1]) {
			if (strcmp(a, "--recursive") == 0)
				ch->recursive = true;
		} else if (n_files < sizeof(files) / sizeof(files[0])) {
			files[n_files++] = i;
		}
	}
	char mode_text[256];
	struct mode_effect mode;
	if (!spec || !acl_spec_mode(spec, mode_text, sizeof(mode_text)) ||
	    !mode_effect_read(mode_text, &mode))
		return SLUICE_ALLOW;
	ch->mode = &mode;
	int verdict = SLUICE_ALLOW;
	for (size_t k = 0; k < n_files && verdict == SLUICE_ALLOW; k++)
		verdict = judge_access(sc, spec, sluice_arg(sc, files[k]), ch, v);
	ch->mode = NULL; /* mode ends here */
	return verdict;
}

static int check_access(const struct rule_state *st, const struct sluice_simple_command *sc,
                        struct sluice_verdict *v)
{
	static const char *const tools[] = { "chmod", "chown", "chgrp", "chattr", "setfacl", NULL };
	static const char *const chown_values[] = { "--from", "--reference", NULL };
	const char *name = sluice_name(sc);
	if (!str_in(name, tools))
		return SLUICE_ALLOW;
	struct refusal how = { NULL, NULL, NULL, NULL };
	struct access_change ch = {
		.recursive = sluice_has_short_flag(sc, 1, 'R') ||
		             long_option_prefix(sc, 1, "recursive", 3),
		.verdict = { st->verdict[RULE_PERMISSIONS], st->verdict[RULE_HOME_PERMISSIONS],
		             st->verdict[RULE_KEY_PERMISSIONS] },
		.how = &how,
	};
	if (strcmp(name, "chattr") == 0)
		return check_chattr(&ch, sc, v);
	if (strcmp(name, "setfacl") == 0)
		return check_setfacl(&ch, sc, v);
	bool chmod = strcmp(name, "chmod") == 0;
	/* --reference=FILE copies another file's mode or owner: what it gives
	 * is not known, so every operand is a file and a guarded one asks */
	ch.reference = long_option_prefix(sc, 1, "reference", 3);
	if (ch.reference)
		ch.ref_kind = reference_kind(sc);
	size_t first = ch.reference ? 1 : first_operand(sc, chmod, chmod ? NULL : chown_values);
	if (first == 0)
		return SLUICE_ALLOW;
	const char *change = ch.reference ? "--reference" : sluice_arg(sc, first);
	struct mode_effect mode;
	if (chmod && !ch.reference && !mode_effect_read(change, &mode))
		return SLUICE_ALLOW;
	ch.mode = chmod && !ch.reference ? &mode : NULL;
	bool chgrp = strcmp(name, "chgrp") == 0;
	ch.other_owner = !chmod && !chgrp && !ch.reference && change[0] != ':' &&
	                 change[0] != '.' && !owner_is_self(change);
	ch.other_group = !chmod && !ch.reference && !group_is_self(change, chgrp);
	ch.root_owner = owner_is_root(change);
	bool dashdash = false;
	for (size_t k = ch.reference ? first : first + 1; k < sluice_argc(sc); k++) {
		const char *a = sluice_arg(sc, k);
		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = true;
			continue;
		}
		/* --reference RFILE: the next word is the file read, not changed */
		if (!dashdash && long_option_spells(a, "reference", 3) && !strchr(a, '='))
			k++;
		if (!dashdash && a[0] == '-' && a[1])
			continue;
		int verdict = judge_access(sc, change, a, &ch, v);
		if (verdict != SLUICE_ALLOW)
			return verdict;
	}
	return SLUICE_ALLOW;
}

/* mv SOURCE... DEST, mv -t DEST SOURCE...: the sources. */
static int check_move(const struct rule_state *st, const struct sluice_simple_command *sc,
                      struct sluice_verdict *v)
{
	static const char *const with_value[] = { "-t", "--target-directory", "-S", "--suffix",
		                                  NULL };
	if (strcmp(sluice_name(sc), "mv") != 0)
		return SLUICE_ALLOW;
	const struct tree_rule r = { st->verdict[RULE_MOVE], st->verdict[RULE_MOVE], SLUICE_ALLOW };
	bool target_given = false, dashdash = false;
	size_t operands[64], n = 0;
	for (size_t i = 1; i < sluice_argc(sc) && n < sizeof(operands) / sizeof(operands[0]); i++) {
		const char *a = sluice_arg(sc, i);
		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = true;
			continue;
		}
		if (!dashdash && a[0] == '-' && a[1]) {
			if (strncmp(a, "-t", 2) == 0 ||
			    long_option_spells(a, "target-directory", 3))
				target_given = true;
			if (str_in(a, with_value))
				i++;
			continue;
		}
		operands[n++] = i;
	}
	size_t sources = target_given ? n : (n > 0 ? n - 1 : 0);
	static const struct refusal how = {
		"moving", "takes", " away from where the system and its programs look for it",
		"move the specific files by name, never a whole tree"
	};
	for (size_t k = 0; k < sources; k++) {
		int verdict = judge(sc, sluice_arg(sc, operands[k]), &r, &how, v);
		if (verdict != SLUICE_ALLOW)
			return verdict;
	}
	return SLUICE_ALLOW;
}

/* Words of a find command line: the command's own argv, or the words of
 * the find wrapper around an -exec'd command. */
struct find_words {
	const struct sluice_simple_command *sc;
	long wrapper; /* -1: sc's argv; else the index of the find wrapper */
};

static size_t find_count(const struct find_words *w)
{
	return w->wrapper < 0 ? sluice_argc(w->sc) : sluice_wrapper_argc(w->sc, (size_t)w->wrapper);
}

static const char *find_word(const struct find_words *w, size_t i)
{
	return w->wrapper < 0 ? sluice_arg(w->sc, i)
	                      : sluice_wrapper_arg(w->sc, (size_t)w->wrapper, i);
}

/* Judge find's start points (the words after find and its -H, -L, -P,
 * -D X, -OLEVEL, up to the first expression word; none is "."). */
static int check_find_roots(const struct find_words *w, const struct tree_rule *r,
                            const char *what_runs, struct sluice_verdict *v)
{
	char effect[96];
	snprintf(effect, sizeof(effect), "with %s changes files all over", what_runs);
	const struct refusal how = { "find in", effect, "",
		                     "start find in the project's own directory (find ./build "
		                     "-name '*.o' -delete)" };
	size_t i = 1, n = find_count(w);
	for (; i < n; i++) {
		const char *a = find_word(w, i);
		if (strcmp(a, "-D") == 0)
			i++;
		else if (!(strcmp(a, "-H") == 0 || strcmp(a, "-L") == 0 || strcmp(a, "-P") == 0 ||
		           strncmp(a, "-O", 2) == 0))
			break;
	}
	for (; i < n; i++) {
		const char *a = find_word(w, i);
		if ((a[0] == '-' && a[1]) || strcmp(a, "(") == 0 || strcmp(a, "!") == 0 ||
		    strcmp(a, ",") == 0)
			break;
		int verdict = judge(w->sc, a, r, &how, v);
		if (verdict != SLUICE_ALLOW)
			return verdict;
	}
	return SLUICE_ALLOW;
}

/* find -delete, and a command find runs on what it finds. */
static int check_find(const struct rule_state *st, const struct sluice_simple_command *sc,
                      struct sluice_verdict *v)
{
	const struct tree_rule deleting = { st->verdict[RULE_FIND], st->verdict[RULE_FIND],
		                            SLUICE_ALLOW };
	const char *name = sluice_name(sc);
	if (strcmp(name, "find") == 0) {
		bool deletes = false;
		for (size_t i = 1; i < sluice_argc(sc) && !deletes; i++)
			deletes = strcmp(sluice_arg(sc, i), "-delete") == 0;
		const struct find_words w = { sc, -1 };
		return deletes ? check_find_roots(&w, &deleting, "-delete", v) : SLUICE_ALLOW;
	}
	bool deleter = str_in(name, deleters), owner = str_in(name, owners);
	if (!deleter && !owner)
		return SLUICE_ALLOW;
	for (size_t k = 0; k < sluice_wrapper_count(sc); k++) {
		if (strcmp(sluice_wrapper_name(sc, k), "find") != 0)
			continue;
		const struct tree_rule permissions = { st->verdict[RULE_PERMISSIONS],
			                               st->verdict[RULE_HOME_PERMISSIONS],
			                               SLUICE_ALLOW };
		const struct find_words w = { sc, (long)k };
		char what_runs[64];
		snprintf(what_runs, sizeof(what_runs), "-exec %s", name);
		return check_find_roots(&w, deleter ? &deleting : &permissions, what_runs, v);
	}
	return SLUICE_ALLOW;
}

/* The find that writes what sc reads, when sc runs under xargs and the
 * pipeline's part before it holds a find: `find ROOT -print0 | xargs -0
 * rm -rf` removes what find finds in ROOT. NULL when there is none. */
static const struct sluice_simple_command *find_feeding(const struct sluice_command *cmd,
                                                        const struct sluice_simple_command *sc)
{
	return under_xargs(sc) ? pipeline_writer(cmd, sc, "find") : NULL;
}

/* A deleter under xargs fed by find: find's start points, as -exec; keys
 * and credentials too (`find ~/.ssh -type f | xargs shred -u`: what find
 * selects there is not known, and destroyers judges -exec's, not these). */
static int check_find_pipe(const struct rule_state *st, const struct sluice_command *cmd,
                           const struct sluice_simple_command *sc, struct sluice_verdict *v)
{
	if (!str_in(sluice_name(sc), deleters))
		return SLUICE_ALLOW;
	const struct sluice_simple_command *find = find_feeding(cmd, sc);
	if (!find)
		return SLUICE_ALLOW;
	const struct tree_rule deleting = { st->verdict[RULE_FIND], st->verdict[RULE_FIND],
		                            st->verdict[RULE_FIND] };
	const struct find_words w = { find, -1 };
	char what_runs[64];
	snprintf(what_runs, sizeof(what_runs), "| xargs %s", sluice_name(sc));
	return check_find_roots(&w, &deleting, what_runs, v);
}

static int check_one(const void *state, const struct sluice_command *cmd, size_t at,
                     struct sluice_verdict *v)
{
	const struct rule_state *st = state;
	const struct sluice_simple_command *sc = sluice_command_get(cmd, at);
	int verdict = SLUICE_ALLOW;
	int (*const checks[])(const struct rule_state *, const struct sluice_simple_command *,
	                      struct sluice_verdict *) = { check_owner, check_access, check_move,
		                                           check_find };
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		int r = checks[i](st, sc, v);
		if (r < 0)
			return r;
		if (r > verdict)
			verdict = r;
	}
	int r = check_find_pipe(st, cmd, sc, v);
	return r < 0 || r > verdict ? r : verdict;
}

static int st_open(const struct sluice_host *host, const struct sluice_settings *settings,
                   void **ret_state)
{
	return rule_state_open(host, settings, tree_rules, N_TREE_RULES, ret_state);
}

static int st_check(void *state, const struct sluice_command *cmd, struct sluice_verdict *v)
{
	return check_each_at(state, cmd, v, check_one);
}

static const struct sluice_key keys[] = {
	TREE_RULES(RULE_KEY){ NULL, 0 },
};

SLUICE_PLUGIN_EXPORT const struct sluice_policy_plugin SLUICE_BUILTIN_DESCRIPTOR = {
	.abi_version = SLUICE_POLICY_ABI_VERSION,
	.struct_size = sizeof(struct sluice_policy_plugin),
	.name = "system_trees",
	.description = "refuses recursive chmod/chown/chgrp, mv and find -delete of /, system "
	               "directories and home directories, recursive chmod/chown/chgrp of keys "
	               "and credentials, and any chmod/chown/chattr that locks the user's "
	               "tools out of what they need or lets others change or read it",
	.keys = keys,
	.open = st_open,
	.check = st_check,
	.close = rule_state_close,
};
