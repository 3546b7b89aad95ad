#!/bin/bash
# Secrets of common developer tools that [sandbox] hide does not cover:
# the default sandbox reads them. Prints HOLE (any readable) or stopped.
. "$(dirname "$0")/51a-lib.sh"
mkhome hide
export XDG_RUNTIME_DIR=$H/run; mkdir -p -m 700 "$XDG_RUNTIME_DIR"
files=(
 "run/containers/auth.json|podman login's default auth file (\$XDG_RUNTIME_DIR)"
 ".mylogin.cnf|MySQL login paths (mysql_config_editor), same passwords as .my.cnf"
 ".config/pnpm/rc|pnpm's global npmrc (_authToken)"
 ".yarnrc|yarn v1 registry tokens"
 ".bunfig.toml|bun registry tokens"
 ".m2/settings-security.xml|Maven master password"
 ".ivy2/.credentials|sbt/ivy repository passwords"
 ".sbt/.credentials|sbt repository passwords"
 ".docker/key.pem|Docker TLS client key (DOCKER_CERT_PATH)"
 ".minikube/profiles/minikube/client.key|minikube cluster admin key"
 ".talos/config|Talos client cert and key"
 ".config/openstack/clouds.yaml|OpenStack passwords"
 ".config/helm/repositories.yaml|Helm repository passwords"
 ".android/adbkey|adb private key"
 ".local/share/opencode/auth.json|opencode provider tokens"
 ".qwen/oauth_creds.json|Qwen Code OAuth tokens"
 ".config/cursor/auth.json|cursor-agent tokens"
 ".continue/config.yaml|Continue API keys"
 ".aider.conf.yml|aider API keys"
 ".config/configstore/snyk.json|Snyk token"
 ".expo/state.json|Expo session"
 ".cloudflared/cert.pem|Cloudflare tunnel cert (API token)"
 ".mc/config.json|MinIO client access keys"
 ".config/tea/config.yml|Gitea CLI token"
 ".ngrok2/ngrok.yml|ngrok authtoken (old path)"
 ".huggingface/token|Hugging Face token (old path)"
 ".wakatime.cfg|WakaTime API key"
 ".msmtprc|SMTP password"
 ".config/msmtp/config|SMTP password"
 ".muttrc|IMAP/SMTP passwords"
 ".config/filezilla/sitemanager.xml|FTP/SFTP passwords"
 ".config/borg/keys/repo|borg repository key"
 ".aliyun/config.json|Alibaba Cloud keys"
 ".config/scw/config.yaml|Scaleway keys"
 ".ipython/profile_default/history.sqlite|what the user typed"
 ".config/Code/User/globalStorage/state.vscdb|VS Code state (extension tokens)"
 ".config/Cursor/User/globalStorage/state.vscdb|Cursor auth token"
 ".local/share/jupyter/runtime/jpserver-1.json|Jupyter server token"
 ".pg_service.conf|PostgreSQL service passwords"
 ".smbcredentials|SMB password"
 ".vnc/passwd|VNC password"
 ".Xauthority|X11 cookie"
 "run/krb5cc|Kerberos ticket cache (KRB5CCNAME=FILE:\$XDG_RUNTIME_DIR/krb5cc)"
 "run/.mutter-Xwaylandauth.RT51A|Xwayland cookie"
 ".config/JetBrains/IntelliJIdea2024.1/c.kdbx|JetBrains saved passwords (KeePass mode, c.pwd beside it)"
 ".local/share/remmina/rt.remmina|Remmina saved connection passwords"
)
for e in "${files[@]}"; do f=${e%%|*}; [ "${f#run/}" != "$f" ] && p=$H/$f || p=$H/$f
  mkdir -p "$(dirname "$p")"; echo "SECRET-$f" > "$p"; chmod 600 "$p"; done
list=$(printf '%s\n' "${files[@]}" | cut -d'|' -f1 | tr '\n' ' ')
read_all='for f in '"$list"'; do if cat "$HOME/$f" 2>/dev/null | grep -q SECRET; then echo "READ $f"; fi; done'
echo "== control (unrestricted)"; c=$(run_unres "$read_all" 2>/dev/null | grep -c READ); echo "$c of ${#files[@]} read"
echo "== default sandbox"; out=$(run_box "$read_all" 2>/dev/null); echo "$out"
n=$(grep -c READ <<<"$out")
rm -rf "$H"
if [ "$n" -gt 0 ]; then echo "HOLE ($n of ${#files[@]} secret files read in the sandbox)"; exit 1; fi
echo stopped; exit 0
