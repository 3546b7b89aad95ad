/* SPDX-License-Identifier: MIT */
/*
 * The settings `sluice run` and the job verbs work from: the [broker],
 * [sandbox] and [env] keys of the configuration, with the built-in defaults.
 * Filled once (defaults, then the configuration) and passed down explicitly.
 * Not for: reading INI files (the configuration module fills this struct).
 */
#ifndef SLUICE_RUN_SETTINGS_H
#define SLUICE_RUN_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sandbox-mode.h"

/*
 * The variables that usually hold credentials, dropped from the command's
 * environment unless the configuration says otherwise: fnmatch(3) patterns
 * on the name, matched ignoring case. The words are looked for anywhere in
 * the name, not only after an underscore (PGPASSWORD, SECRET_KEY, TOKEN),
 * but with care for look-alikes: *_PWD is MYSQL_PWD and never PWD or
 * OLDPWD; *TOKEN and *TOKEN_* leave TOKENIZERS_PARALLELISM alone; *_PAT is
 * GITHUB_PAT and never PATH. Also the keys, sessions and URLs that carry
 * a secret whole: *_KEY (RAILS_MASTER_KEY, KAGGLE_KEY, JWT_SIGNING_KEY),
 * a password manager's unlocked session (BW_SESSION, OP_SESSION_*), a CI
 * job's token (CI_JOB_JWT), an error tracker's DSN and a chat webhook's
 * URL (their key is the URL), a connection string, DOCKER_AUTH_CONFIG. X(pattern) for each, written once here: the
 * built-in defaults and the [env] drop key's default both come from it.
 */
/* clang-format off */
#define RUN_SETTINGS_ENV_DROP(X) \
	X("*API_KEY*") \
	X("*APIKEY*") \
	X("*TOKEN") \
	X("*TOKEN_*") \
	X("*SECRET*") \
	X("*PASSWORD*") \
	X("*PASSWD*") \
	X("*PASSPHRASE*") \
	X("*_PASS") \
	X("SSHPASS") \
	X("*_PWD") \
	X("*_PW") \
	X("*CREDENTIAL*") \
	X("*_CREDS") \
	X("*AUTHKEY*") \
	X("*SERVICE_ACCOUNT*") \
	X("KUBE_CONFIG*") \
	X("ID_RSA*") \
	X("ID_ED25519*") \
	X("*_PEM") \
	X("*SIGNINGKEY*") \
	X("*INMEMORYKEY*") \
	X("*_COOKIE") \
	X("*_PAT") \
	X("*ACCESS_KEY*") \
	X("*PRIVATE_KEY*") \
	X("*_AUTH") \
	X("*_KEY") \
	X("*_SESSION") \
	X("OP_SESSION_*") \
	X("*_JWT") \
	X("*_JWT_*") \
	X("*_DSN") \
	X("*WEBHOOK*") \
	X("*CONNECTION_STRING*") \
	X("*AUTH_CONFIG*") \
	X("ANTHROPIC_*") \
	X("OPENAI_*") \
	X("GEMINI_*")
/* clang-format on */

/*
 * Files and folders that hold credentials or what is not the command's to
 * read, made unreadable in the sandboxed modes ("~/" is the home of the
 * user commands run as). X(path, why) for each, written once here: the
 * built-in defaults, the [sandbox] hide key's default and the list in
 * docs/configuration.md all come from it (a test checks the last).
 */
/* clang-format off */
#define RUN_SETTINGS_SANDBOX_HIDE(X) \
	X("~/.ssh", "SSH private keys") \
	X("~/.gnupg", "GnuPG private keys") \
	X("~/.aws", "AWS access keys") \
	X("~/.azure", "Azure tokens") \
	X("~/.config/gcloud", "Google Cloud tokens") \
	X("~/.config/gh", "GitHub CLI tokens (hosts.yml)") \
	X("~/.config/hub", "hub's GitHub token") \
	X("~/.config/glab-cli", "GitLab CLI tokens") \
	X("~/.config/github-copilot", "Copilot tokens") \
	X("~/.kube", "Kubernetes credentials") \
	X("~/.docker/config.json", "registry credentials") \
	X("~/.netrc", "passwords for any host") \
	X("~/.git-credentials", "git's stored passwords") \
	X("~/.config/git/credentials", "git's stored passwords") \
	X("~/.npmrc", "npm tokens") \
	X("~/.yarnrc.yml", "yarn tokens") \
	X("~/.pypirc", "package index passwords") \
	X("~/.config/pip/pip.conf", "index URLs with passwords") \
	X("~/.cargo/credentials.toml", "crates tokens") \
	X("~/.cargo/credentials", "crates tokens (old name)") \
	X("~/.gem/credentials", "gem tokens") \
	X("~/.bundle/config", "gem server passwords") \
	X("~/.m2/settings.xml", "Maven server passwords") \
	X("~/.gradle/gradle.properties", "Gradle signing and repository passwords") \
	X("~/.nuget/NuGet/NuGet.Config", "NuGet feed passwords") \
	X("~/.composer/auth.json", "Composer tokens") \
	X("~/.config/composer/auth.json", "Composer tokens") \
	X("~/.terraform.d/credentials.tfrc.json", "Terraform Cloud tokens") \
	X("~/.terraformrc", "Terraform Cloud tokens") \
	X("~/.vault-token", "Vault token") \
	X("~/.config/op", "1Password CLI sessions") \
	X("~/.password-store", "pass's store") \
	X("~/.local/share/keyrings", "desktop keyrings") \
	X("~/.config/rclone", "cloud storage passwords") \
	X("~/.s3cfg", "S3 keys") \
	X("~/.boto", "Google Storage and S3 keys") \
	X("~/.databrickscfg", "Databricks tokens") \
	X("~/.config/doctl", "DigitalOcean tokens") \
	X("~/.oci", "Oracle Cloud keys") \
	X("~/.fly", "Fly.io tokens") \
	X("~/.pgpass", "PostgreSQL passwords") \
	X("~/.my.cnf", "MySQL passwords") \
	X("~/.env", "environment files of secrets") \
	X("~/.claude/.credentials.json", "Claude Code tokens") \
	X("~/.claude.json", "Claude Code account and MCP servers' secrets") \
	X("~/.claude/projects", "Claude Code transcripts") \
	X("~/.codex/auth.json", "Codex tokens") \
	X("~/.codex/sessions", "Codex transcripts") \
	X("~/.codex/history.jsonl", "Codex prompts") \
	X("~/.gemini/oauth_creds.json", "Gemini CLI tokens") \
	X("~/.bash_history", "what the user typed") \
	X("~/.zsh_history", "what the user typed") \
	X("~/.zhistory", "what the user typed") \
	X("~/.histfile", "what the user typed") \
	X("~/.local/share/fish/fish_history", "what the user typed") \
	X("~/.python_history", "what the user typed") \
	X("~/.node_repl_history", "what the user typed") \
	X("~/.psql_history", "what the user typed, passwords too") \
	X("~/.mysql_history", "what the user typed, passwords too") \
	X("~/.sqlite_history", "what the user typed") \
	X("~/.rediscli_history", "what the user typed, AUTH too") \
	X("~/.irb_history", "what the user typed") \
	X("~/.lesshst", "what the user searched") \
	X("~/.viminfo", "registers and searches") \
	X("~/.mozilla", "Firefox profiles: cookies, saved passwords") \
	X("~/.thunderbird", "mail") \
	X("~/.config/google-chrome", "Chrome profiles: cookies, saved passwords") \
	X("~/.config/chromium", "Chromium profiles: cookies, saved passwords") \
	X("~/.config/BraveSoftware", "Brave profiles: cookies, saved passwords") \
	X("~/.cache/huggingface/token", "Hugging Face token") \
	X("~/.kaggle/kaggle.json", "Kaggle API key") \
	X("~/.config/containers/auth.json", "Podman, Buildah and Skopeo registry credentials") \
	X("~/.config/configstore/firebase-tools.json", "Firebase CLI tokens") \
	X("~/.local/share/com.vercel.cli", "Vercel CLI token") \
	X("~/.config/netlify/config.json", "Netlify CLI token") \
	X("~/.config/.wrangler/config", "Cloudflare Wrangler tokens") \
	X("~/.supabase/access-token", "Supabase CLI token") \
	X("~/.pulumi/credentials.json", "Pulumi tokens") \
	X("~/.config/ngrok/ngrok.yml", "ngrok authtoken") \
	X("~/.config/sops/age/keys.txt", "age private keys for sops") \
	X("~/.jfrog", "JFrog CLI tokens") \
	X("~/.dbt/profiles.yml", "dbt database passwords") \
	X("~/.sentryclirc", "Sentry CLI token") \
	X("~/.pip/pip.conf", "index URLs with passwords (pip's old place)") \
	X("~/.config/pypoetry/auth.toml", "Poetry repository passwords") \
	X("~/.claude/history.jsonl", "Claude Code prompts") \
	X("~/.gemini/tmp", "Gemini CLI chats and logs") \
	X("~/.cursor/mcp.json", "Cursor's MCP servers' secrets") \
	X("~/.codeium/windsurf/mcp_config.json", "Windsurf's MCP servers' secrets") \
	X("~/.local/share/atuin", "what the user typed, and its sync key") \
	X("~/.local/share/nvim/shada", "Neovim's registers and searches") \
	X("~/.pki/nssdb", "client certificates and keys of Chrome") \
	X("~/snap/firefox/common/.mozilla", "Firefox profiles (snap): cookies, saved passwords") \
	X("~/.var/app/org.mozilla.firefox/.mozilla", "Firefox profiles (flatpak): cookies, saved passwords") \
	X("~/.config/microsoft-edge", "Edge profiles: cookies, saved passwords") \
	X("~/.config/Slack", "Slack session cookies") \
	X("~/.config/discord", "Discord session token") \
	X("~/.config/stripe/config.toml", "Stripe CLI API keys") \
	X("~/.circleci/cli.yml", "CircleCI CLI token") \
	X("~/.config/hcloud/cli.toml", "Hetzner Cloud CLI tokens") \
	X("~/.config/linode-cli", "Linode CLI token") \
	X("~/.railway/config.json", "Railway CLI token") \
	X("~/.tsh", "Teleport certificates and keys") \
	X("~/.config/solana/id.json", "Solana wallet keypair") \
	X("~/.ethereum/keystore", "Ethereum account keys") \
	X("~/.mylogin.cnf", "MySQL login paths (the same passwords as .my.cnf)") \
	X("~/.pg_service.conf", "PostgreSQL service passwords") \
	X("~/.config/pnpm/rc", "pnpm registry tokens") \
	X("~/.yarnrc", "yarn 1 registry tokens") \
	X("~/.bunfig.toml", "bun registry tokens") \
	X("~/.m2/settings-security.xml", "Maven's master password") \
	X("~/.ivy2/.credentials", "Ivy and sbt repository passwords") \
	X("~/.sbt/.credentials", "sbt repository passwords") \
	X("~/.docker/key.pem", "Docker's TLS client key") \
	X("~/.minikube/profiles", "minikube clusters' admin keys") \
	X("~/.talos", "Talos client certificates and keys") \
	X("~/.config/openstack", "OpenStack passwords (clouds.yaml, secure.yaml)") \
	X("~/.config/helm/repositories.yaml", "Helm repository passwords") \
	X("~/.android/adbkey", "adb's private key") \
	X("~/.local/share/opencode/auth.json", "opencode provider tokens") \
	X("~/.qwen/oauth_creds.json", "Qwen Code tokens") \
	X("~/.config/cursor/auth.json", "Cursor agent tokens") \
	X("~/.continue/config.yaml", "Continue API keys") \
	X("~/.continue/config.json", "Continue API keys") \
	X("~/.aider.conf.yml", "aider API keys") \
	X("~/.config/configstore/snyk.json", "Snyk token") \
	X("~/.expo/state.json", "Expo session") \
	X("~/.cloudflared", "Cloudflare tunnel credentials") \
	X("~/.mc/config.json", "MinIO client access keys") \
	X("~/.config/tea/config.yml", "Gitea CLI token") \
	X("~/.ngrok2/ngrok.yml", "ngrok token (older path)") \
	X("~/.huggingface/token", "Hugging Face token (older path)") \
	X("~/.wakatime.cfg", "WakaTime API key") \
	X("~/.msmtprc", "SMTP password") \
	X("~/.config/msmtp/config", "SMTP password") \
	X("~/.muttrc", "mail passwords") \
	X("~/.config/filezilla", "FTP and SFTP passwords") \
	X("~/.config/borg/keys", "borg repository keys") \
	X("~/.aliyun/config.json", "Alibaba Cloud keys") \
	X("~/.config/scw/config.yaml", "Scaleway keys") \
	X("~/.ipython/profile_default/history.sqlite", "what the user typed into IPython") \
	X("~/.config/Code/User/globalStorage/state.vscdb", "VS Code's state (extensions' tokens)") \
	X("~/.config/Cursor/User/globalStorage/state.vscdb", "Cursor's state (its token)") \
	X("~/.local/share/jupyter/runtime", "Jupyter servers' tokens") \
	X("~/.smbcredentials", "SMB password") \
	X("~/.vnc/passwd", "VNC password") \
	X("~/.Xauthority", "the X display's cookie") \
	X("~/.local/share/remmina", "Remmina's saved passwords") \
	X("~/.local/share/kwalletd", "KDE wallets") \
	X("~/.config/JetBrains/*/c.kdbx", "JetBrains IDEs' saved passwords (one folder per version)") \
	X("~/.config/JetBrains/*/c.pwd", "the key of JetBrains IDEs' saved passwords") \
	X("~/.vscode-server/data/User/globalStorage/state.vscdb", "VS Code's state on a remote machine (extensions' tokens)") \
	X("~/.cursor-server/data/User/globalStorage/state.vscdb", "Cursor's state on a remote machine") \
	X("$XDG_RUNTIME_DIR/containers", "podman's and buildah's registry logins (auth.json)") \
	X("$XDG_RUNTIME_DIR/krb5cc", "a Kerberos ticket cache kept in the runtime folder") \
	X("$XDG_RUNTIME_DIR/.mutter-Xwaylandauth.*", "the Xwayland display's cookie (GNOME; a random name)") \
	X("$XDG_RUNTIME_DIR/xauth_*", "the X display's cookie (SDDM; a random name)")
/* clang-format on */

/*
 * The system's secrets that only their owner, root, may read. A sandboxed
 * command that runs as uid 0 (sluice run by root, no [sandbox] user) has
 * lost every capability but is still their owner, so their modes do not
 * stop it: they are covered then (the launcher's --cover: a mount, since
 * Landlock's way around a path in /etc costs a rule for each of its
 * entries), and only then. X(path, why); a "*" in the last component is
 * matched when the run starts. Fixed, not a key: [sandbox] hide adds more.
 */
/* clang-format off */
#define RUN_SETTINGS_ROOT_COVER(X) \
	X("/etc/shadow", "password hashes") \
	X("/etc/shadow-", "password hashes, the backup") \
	X("/etc/gshadow", "group password hashes") \
	X("/etc/gshadow-", "group password hashes, the backup") \
	X("/etc/ssh/ssh_host_*_key", "the machine's SSH host keys") \
	X("/etc/ssl/private", "TLS private keys") \
	X("/etc/letsencrypt/archive", "certificates' private keys") \
	X("/etc/letsencrypt/keys", "certificates' private keys") \
	X("/etc/NetworkManager/system-connections", "Wi-Fi and VPN passwords") \
	X("/etc/wireguard", "WireGuard private keys") \
	X("/etc/krb5.keytab", "Kerberos keys") \
	X("/etc/krb5kdc", "a Kerberos KDC's master key stash") \
	X("/var/lib/krb5kdc", "a Kerberos KDC's database and stash") \
	X("/var/lib/sss/secrets", "SSSD's stored secrets") \
	X("/etc/sssd", "SSSD's LDAP bind passwords") \
	X("/etc/security/opasswd", "old password hashes") \
	X("/var/backups/*shadow*", "Debian's daily copies of the password hashes") \
	X("/etc/pki/tls/private", "TLS private keys (Red Hat's /etc/ssl/private)") \
	X("/etc/pki/CA/private", "a local CA's private key") \
	X("/etc/letsencrypt/accounts", "ACME account keys") \
	X("/etc/kubernetes/*.conf", "Kubernetes admin and component kubeconfigs (client keys)") \
	X("/etc/kubernetes/pki", "the cluster's CA and service keys") \
	X("/var/lib/etcd", "the cluster's etcd data: every Secret") \
	X("/etc/rancher", "k3s and RKE2 admin kubeconfigs and tokens") \
	X("/var/lib/rancher/k3s/server", "k3s's join token, CA keys and datastore") \
	X("/var/lib/rancher/rke2/server", "RKE2's join token, CA keys and datastore") \
	X("/etc/mysql/debian.cnf", "Debian's MySQL maintenance password") \
	X("/var/lib/tailscale", "Tailscale node keys") \
	X("/etc/wpa_supplicant", "Wi-Fi passwords") \
	X("/etc/netplan", "Wi-Fi passwords and VPN keys in netplan's files") \
	X("/etc/openvpn", "OpenVPN keys and passwords") \
	X("/etc/ipsec.secrets", "IPsec pre-shared keys and private keys") \
	X("/etc/ipsec.d/private", "IPsec private keys") \
	X("/etc/swanctl", "strongSwan private keys and secrets") \
	X("/etc/ppp/chap-secrets", "PPP passwords") \
	X("/etc/ppp/pap-secrets", "PPP passwords") \
	X("/etc/postfix/sasl_passwd*", "mail relay passwords") \
	X("/var/lib/samba/private", "Samba's password database and keys") \
	X("/etc/libvirt/secrets", "libvirt's stored secrets") \
	X("/etc/ceph/*.keyring", "Ceph keys") \
	X("/etc/gitlab-runner/config.toml", "GitLab runner tokens") \
	X("/etc/gitlab/gitlab-secrets.json", "GitLab's secrets") \
	X("/etc/gitlab/initial_root_password", "GitLab's first root password") \
	X("/etc/cloudflared", "Cloudflare tunnel credentials") \
	X("/var/lib/systemd/credential.secret", "the key of systemd's encrypted credentials") \
	X("/etc/credstore", "systemd's credentials") \
	X("/etc/credstore.encrypted", "systemd's credentials") \
	X("/var/lib/cloud/instance/user-data.txt*", "cloud-init's user data (often holds secrets)") \
	X("/var/lib/cloud/instances/*/user-data.txt*", "cloud-init's user data (often holds secrets)")
/* clang-format on */

/*
 * Paths inside the workspace that other programs run later with the
 * user's full rights, kept read-only in workspace-write (a trailing "/": a
 * folder, made empty when missing so that it cannot be made, and removed
 * again once no run covers it (run/protect-folders.h); wildcards in
 * the last component). X(path, why) for each, written once here: the
 * built-in defaults, the [sandbox] protect key's default and the list in
 * docs/configuration.md all come from it.
 */
/* clang-format off */
#define RUN_SETTINGS_SANDBOX_PROTECT(X) \
	X(".claude/", "Claude Code runs its hooks, commands, agents and settings") \
	X(".mcp.json", "agents start the MCP servers it names") \
	X(".gemini/", "Gemini CLI runs its hooks and MCP servers") \
	X(".qwen/", "Qwen Code runs its hooks and MCP servers") \
	X(".codex/", "Codex runs its hooks and MCP servers") \
	X(".cursor/", "Cursor runs its hooks and MCP servers") \
	X(".kiro/", "Kiro runs its hooks") \
	X(".opencode/", "opencode loads its plugins") \
	X("opencode.json*", "opencode starts the MCP servers it names") \
	X(".vscode/", "VS Code runs its tasks and settings' programs") \
	X(".idea/", "JetBrains IDEs run its run configurations and tools") \
	X(".zed/", "Zed runs its tasks and language servers") \
	X(".devcontainer/", "the container's commands run on the user's next open") \
	X(".devcontainer.json", "the container's commands run on the user's next open") \
	X(".envrc*", "direnv runs it, what it sources and loads (.envrc.local, dotenv's .env), on the user's next cd") \
	X("mise*.toml", "mise runs its hooks and tasks, and loads the files its [env] names") \
	X(".mise*.toml", "mise runs its hooks and tasks, and loads the files its [env] names") \
	X(".husky/", "husky's hooks source the scripts beside them") \
	X("lefthook*", "lefthook runs what it says on the next git commit") \
	X(".lefthook*", "lefthook runs what it says, and its scripts") \
	X(".config/lefthook*", "lefthook runs what it says on the next git commit") \
	X(".pre-commit-config.y*ml", "pre-commit runs what it says on the next git commit") \
	X(".config/mise*.toml", "mise reads it as the project's own configuration (hooks, tasks, [env] templates that run programs)") \
	X(".config/mise/config*.toml", "mise reads it as the project's own configuration") \
	X(".config/mise/conf.d/*.toml", "mise reads it as the project's own configuration") \
	X("mise/config*.toml", "mise reads it as the project's own configuration") \
	X(".mise/config*.toml", "mise reads it as the project's own configuration") \
	X(".tool-versions", "mise and asdf put the bin folder of a path: version first on the PATH, on the user's next cd") \
	X("rust-toolchain.toml", "rustup runs the toolchain its path names for any rustc or cargo there (a prompt's rustc --version, an editor's cargo metadata)") \
	X("rust-toolchain", "rustup runs the toolchain its path names (the older name)") \
	X(".cargo/config.toml", "cargo runs the rustc-wrapper, rustc and runners it names, for cargo metadata (an editor's first call) too") \
	X(".cargo/config", "cargo runs the rustc-wrapper, rustc and runners it names (the older name)") \
	X(".yarnrc.yml", "yarn runs the file its yarnPath names in place of itself, for any yarn command") \
	X(".yarnrc", "yarn 1 runs the file its yarn-path names in place of itself") \
	X(".npmrc", "npm and pnpm take its settings over the user's own (ignore-scripts, script-shell, node-options, pnpmfile)") \
	X(".pnpmfile.cjs", "pnpm loads it in every command, pnpm ls too") \
	X(".pnpmfile.mjs", "pnpm loads it in every command, pnpm ls too") \
	X(".pylintrc", "pylint runs its init-hook, and editors run pylint on open") \
	X("pylintrc", "pylint runs its init-hook, and editors run pylint on open")
/* clang-format on */

enum background_survivors {
	SURVIVORS_LEAVE = 0, /* leave them running */
	SURVIVORS_KILL,      /* kill them with the rest of the tree (the default) */
};

/* The most patterns in [env] drop and entries in [env] set. */
#define RUN_SETTINGS_ENV_MAX 64
/* The most [network] allow patterns (the launcher's cap). */
#define RUN_SETTINGS_EGRESS_MAX 64

/* The most [sandbox] writable paths and rlimit_* keys. */
#define RUN_SETTINGS_PATHS_MAX 32
#define RUN_SETTINGS_RLIMITS_MAX 8
/* The most [sandbox] hide paths and [sandbox] protect paths (the
 * launcher's own caps). */
#define RUN_SETTINGS_HIDE_MAX 224
#define RUN_SETTINGS_PROTECT_MAX 64

/* The limits a command gets unless the configuration says otherwise: what
 * a build or a test suite does not reach and a runaway command does
 * (docs/configuration.md argues each). A file of 16 GiB; 4096 tasks
 * (processes and threads) at once, in the run's PID namespace. As the
 * launcher reads them, and as [sandbox] rlimit_fsize and rlimit_pids
 * default to. */
#define RUN_SETTINGS_DEFAULT_FSIZE "16GiB"
#define RUN_SETTINGS_DEFAULT_FSIZE_BYTES "17179869184"
#define RUN_SETTINGS_DEFAULT_PIDS "4096"

struct run_rlimit {
	const char *name;  /* the launcher's name: as, cpu, nproc, fsize, nofile, core, pids */
	const char *value; /* as the launcher reads it: "512MiB", "30s", "64" */
};

/*
 * Every string is borrowed: from static defaults or from the configuration,
 * which outlives the run. Sizes are bytes, durations milliseconds.
 */
struct run_settings {
	/* [broker] */
	const char *shell;              /* "/bin/bash" */
	uint64_t timeout_ms;            /* default mode: 30s */
	uint64_t slow_timeout_ms;       /* slow mode: 15m */
	uint64_t max_timeout_ms;        /* the most timeout_ms / --timeout may ask: 15m */
	uint64_t background_timeout_ms; /* 0: background jobs have no timeout */
	uint64_t kill_grace_ms;         /* SIGTERM .. SIGKILL: 2s */
	uint64_t output_cap;            /* combined output kept whole up to this: 128KiB */
	uint64_t output_head;           /* kept from the start when cut: 4KiB */
	uint64_t output_tail;           /* kept from the end when cut: 4KiB */
	uint64_t output_file_cap;       /* the full-output file stops here: 64MiB */
	uint64_t max_command_size;      /* 64KiB */
	uint64_t drain_window_ms;       /* reading on after the shell exits: 250ms */
	enum background_survivors background_survivors; /* kill */
	const char *jobs_dir;     /* NULL: $XDG_RUNTIME_DIR/sluice/jobs or /tmp/sluice-UID/jobs */
	uint64_t jobs_max_age_ms; /* finished jobs' files removed after this: 24h */

	/* [sandbox] */
	enum sandbox_mode sandbox_mode; /* SANDBOX_MODE_DEFAULT: workspace-write */
	/* No layer and no caller chose the mode: where this kernel has no
	 * Landlock it falls back to unrestricted (config_to_run_settings()) */
	bool sandbox_mode_is_default;
	const char *sandbox_fallback;                 /* why it fell back, or NULL */
	const char *writable[RUN_SETTINGS_PATHS_MAX]; /* extra --rw paths */
	size_t n_writable;
	bool network; /* allow network in sandboxed modes: false */
	/* [network] allow: with the network denied, the hosts reached through
	 * the launcher's egress proxy (--egress-allow); none: no proxy */
	const char *egress_allow[RUN_SETTINGS_EGRESS_MAX];
	size_t n_egress_allow;
	/* [network] allow_internal: the names of egress_allow that may also
	 * lead to an internal address, link-local and the clouds' metadata
	 * addresses excepted (--egress-allow-internal) */
	const char *egress_allow_internal[RUN_SETTINGS_EGRESS_MAX];
	size_t n_egress_allow_internal;
	/* [network] ask with an approver ([approval] method not deny): the
	 * proxy asks about a host not in egress_allow (--egress-ask-fd), and
	 * waits egress_ask_wait_ms for the answer ([approval] timeout) */
	bool egress_ask;
	uint64_t egress_ask_wait_ms;
	/* [network] ask_internal: an IP literal of an internal address is
	 * asked about too (--egress-ask-internal); else refused at once */
	bool egress_ask_internal;
	bool best_effort;
	bool git_writable; /* workspace-write: the workspace's .git is writable too */
	bool git_sweep;    /* sandboxed: the repository is swept after each run (git-sweep.h) */
	const char *hide[RUN_SETTINGS_HIDE_MAX]; /* unreadable when sandboxed; "~/" unexpanded */
	size_t n_hide;
	/* workspace-write: read-only, relative to the workspace */
	const char *protect[RUN_SETTINGS_PROTECT_MAX];
	size_t n_protect;
	/* for each protect entry a run added because a protected direnv or
	 * mise configuration loads it (run/protect-loaded.h): that
	 * configuration's name; NULL for a configured entry */
	const char *protect_loader[RUN_SETTINGS_PROTECT_MAX];
	/* ms the empty folders made for missing protect folders stay after
	 * the workspace's last run (run/protect-folders.h): 60 s; 0: removed
	 * as each run ends */
	uint64_t protect_folders_idle;
	uint64_t tmpdir_size; /* the private TMPDIR's cap: 1GiB */
	/* sandboxed: the tools' caches in the workspace's folder (tool-caches.h) */
	bool tool_caches;
	uint64_t tool_caches_size; /* the total kept of every workspace's: 2GiB */
	/* ms a workspace's shared network namespace outlives its last user
	 * (workspace-network.h): 60 s; 0: a network namespace per run */
	uint64_t workspace_network_idle;
	bool namespace_off; /* no private mount and IPC namespace: false */
	const char *user;   /* run commands as this user (the broker must be root), or NULL */
	/* sluice's own configuration directories: never writable, never
	 * inside a sandboxed command's workspace */
	const char *config_dirs[RUN_SETTINGS_PATHS_MAX];
	size_t n_config_dirs;
	/* [audit] file, hidden from sandboxed commands, or NULL */
	const char *audit_file;
	/* the configuration files read (--config's too), kept read-only should
	 * a sandboxed command's writable paths hold one */
	const char *config_files[RUN_SETTINGS_PATHS_MAX];
	size_t n_config_files;
	struct run_rlimit rlimits[RUN_SETTINGS_RLIMITS_MAX];
	size_t n_rlimits;

	/* [env] */
	const char *env_drop[RUN_SETTINGS_ENV_MAX]; /* fnmatch(3) patterns on the name */
	size_t n_env_drop;
	const char *env_set[RUN_SETTINGS_ENV_MAX]; /* "NAME=VALUE", applied last */
	size_t n_env_set;
};

/* The built-in defaults, including the default secret patterns of [env]. */
void run_settings_init_defaults(struct run_settings *s);

/* Switch s to the sandbox mode a caller asked for (--sandbox). Returns 0,
 * or -EPERM with reterr saying why for a mode looser than a configured one
 * (the configuration is the floor). A built-in default that fell back for
 * want of Landlock is no one's choice: any mode replaces it. */
int run_settings_choose_sandbox(struct run_settings *s, enum sandbox_mode mode,
                                struct sluice_error *reterr);

/* The timeout of a mode before any request override (0: none). */
uint64_t run_settings_mode_timeout(const struct run_settings *s, int run_mode);

#endif
