/* SPDX-License-Identifier: MIT */
/*
 * Audit lines: formatted with jansson, appended with one write(2) to a file
 * opened O_APPEND | O_NOFOLLOW and checked with fstat(), and optionally
 * copied to syslog (LOG_AUTHPRIV).
 * Not for: what the line says about a policy (the verdict renders itself).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "policy/audit.h"
#include "cleanup.h"
#include "fd-util.h"

struct audit {
	int fd; /* -1: no file */
	bool syslog;
	char *path;
	uid_t uid;  /* who runs the commands: looked up once, in audit_open() */
	char *user; /* its name, or NULL when it has none */
};

/* Open a->path into a->fd and check it: 0, or -errno with reterr. */
static int open_file(struct audit *a, struct sluice_error *reterr)
{
	a->fd = open(a->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY,
	             0600);
	struct stat st;
	if (a->fd < 0)
		return sluice_error_set(reterr, neg_errno(), "audit log '%s'", a->path);
	if (fstat(a->fd, &st) < 0)
		return sluice_error_set(reterr, neg_errno(), "audit log '%s'", a->path);
	if (!S_ISREG(st.st_mode))
		return sluice_error_set(reterr, -EINVAL, "audit log '%s' is not a regular file",
		                        a->path);
	return 0;
}

int audit_open(const struct broker_config *cfg, struct audit **ret, struct sluice_error *reterr)
{
	*ret = NULL;
	const char *path = cfg->audit_file;
	if ((!path || !*path) && !cfg->audit_syslog)
		return 0;
	struct audit *a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->fd = -1;
	a->syslog = cfg->audit_syslog;
	a->uid = getuid();
	struct passwd *pw = getpwuid(a->uid);
	if ((pw && !(a->user = strdup(pw->pw_name))) ||
	    (path && *path && !(a->path = strdup(path)))) {
		audit_close(a);
		return -ENOMEM;
	}
	int r = a->path ? open_file(a, reterr) : 0;
	if (r < 0) {
		audit_close(a);
		return r;
	}
	if (a->syslog)
		openlog("sluice", LOG_PID, LOG_AUTHPRIV);
	*ret = a;
	return 0;
}

int audit_reopen(struct audit *a, struct sluice_error *reterr)
{
	if (!a || !a->path)
		return 0;
	a->fd = -1; /* forgotten, not closed: its number may hold another file now */
	int r = open_file(a, reterr);
	if (r < 0)
		a->fd = safe_close(a->fd);
	return r;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* The line for rec (new string, without newline). */
static char *audit_format(const struct audit *a, const struct audit_record *rec)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct tm tm;
	gmtime_r(&ts.tv_sec, &tm);
	char when[64];
	size_t n = strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(when + n, sizeof(when) - n, ".%03ldZ", ts.tv_nsec / 1000000);

	json_t *o = rec->verdict ? verdict_to_json(rec->verdict) : json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "time", json_string(when));
	if (rec->phase) {
		json_object_set_new(o, "phase", json_string(rec->phase));
		json_object_set_new(o, "id", str_or_null(rec->id));
	}
	json_object_set_new(o, "user", str_or_null(a->user));
	json_object_set_new(o, "uid", json_integer(a->uid));
	json_object_set_new(o, "cwd", str_or_null(rec->cwd));
	json_object_set_new(o, "command", str_or_null(rec->command));
	json_object_set_new(o, "description", str_or_null(rec->description));
	json_object_set_new(o, "approval", str_or_null(rec->approval));
	json_object_set_new(o, "answeredBy", str_or_null(rec->approval_by));
	json_object_set_new(o, "approvalNote", str_or_null(rec->approval_note));
	json_object_set_new(o, "exitCode",
	                    rec->exit_code >= 0 ? json_integer(rec->exit_code) : json_null());
	json_object_set_new(o, "signal", rec->signal ? json_integer(rec->signal) : json_null());
	json_object_set_new(o, "durationMs", json_integer((json_int_t)rec->duration_ms));
	json_object_set_new(o, "error", str_or_null(rec->error_kind));
	if (rec->via)
		json_object_set_new(o, "via", json_string(rec->via));
	if (rec->swept > 0) {
		json_object_set_new(o, "swept", json_integer((json_int_t)rec->swept));
		json_object_set_new(o, "quarantine", str_or_null(rec->quarantine));
	}
	if (rec->network)
		(void)json_object_update(o, rec->network);
	/* ASCII only: the log must stay one line of valid text whatever the
	 * command held */
	char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	return s;
}

int audit_write(struct audit *a, const struct audit_record *rec, struct sluice_error *reterr)
{
	if (!a)
		return 0;
	_cleanup_free_ char *line = audit_format(a, rec);
	if (!line)
		return sluice_error_set(reterr, -ENOMEM, "formatting the audit line");
	if (a->syslog)
		syslog(LOG_INFO, "%s", line);
	if (a->fd < 0)
		return 0;
	size_t n = strlen(line);
	line[n] = '\n'; /* one write(2): O_APPEND keeps concurrent lines whole */
	int r = write_full(a->fd, line, n + 1);
	line[n] = '\0';
	if (r < 0)
		return sluice_error_set(reterr, r, "audit log '%s'", a->path);
	return 0;
}

struct audit *audit_close(struct audit *a)
{
	if (!a)
		return NULL;
	safe_close(a->fd);
	if (a->syslog)
		closelog();
	free(a->path);
	free(a->user);
	free(a);
	return NULL;
}
