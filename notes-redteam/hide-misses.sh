#!/usr/bin/env bash
# Secrets of real tools that the default [sandbox] hide list misses.
# Each candidate is made in the fake home with a marker; the positive
# control reads it unsandboxed; then the default sandbox reads each one.
# Prints READABLE for each one the sandboxed command reads.
. "$(dirname "$0")/env.sh"
cands=(
  # tokens and keys of real command-line tools, at their default places
  .cache/huggingface/token .kaggle/kaggle.json .config/containers/auth.json
  .config/configstore/firebase-tools.json .local/share/com.vercel.cli/auth.json
  .config/netlify/config.json .wrangler/config/default.toml .supabase/access-token
  .pulumi/credentials.json .config/stripe/config.toml .config/ngrok/ngrok.yml
  .config/sops/age/keys.txt .config/hcloud/cli.toml .config/scw/config.yaml
  .aliyun/config.json .config/solana/id.json .mc/config.json .jfrog/jfrog-cli.conf.v6
  .tsh/keys/x .talos/config .config/helm/repositories.yaml .influxdbv2/configs
  .dbt/profiles.yml .snowsql/config .sentryclirc .config/io.datasette.llm/keys.json
  ".config/Bitwarden CLI/data.json"
  # package managers' credentials at places the list misses
  .pip/pip.conf .config/pypoetry/auth.toml .local/share/python_keyring/keyring_pass.cfg
  .config/uv/uv.toml .condarc .yarnrc
  # agents' and editors' settings with MCP servers' keys, transcripts, prompts
  .claude/history.jsonl .claude/settings.json .gemini/settings.json .gemini/tmp/x/logs.json
  .cursor/mcp.json .codeium/windsurf/mcp_config.json .continue/config.yaml
  .config/Code/User/globalStorage/state.vscdb .vscode-server/data/User/globalStorage/state.vscdb
  # histories and editors' registers
  .sh_history .ash_history .local/share/atuin/key .local/share/nvim/shada/main.shada
  .config/fish/fish_variables
  # browsers and chat apps at the places snap, flatpak and other browsers use
  snap/firefox/common/.mozilla/firefox/x/logins.json snap/chromium/common/chromium/Default/Cookies
  .var/app/org.mozilla.firefox/.mozilla/firefox/x/logins.json .config/microsoft-edge/Default/Cookies
  .config/vivaldi/Default/Cookies .config/Slack/Cookies ".config/discord/Local Storage/x" .pki/nssdb/key4.db
  # wallets
  .electrum/wallets/default_wallet .bitcoin/wallet.dat .ethereum/keystore/k
)
for c in "${cands[@]}"; do mkdir -p "$HOME/$(dirname "$c")"; echo "SECRET:$c" >"$HOME/$c"; chmod 600 "$HOME/$c"; done
list=$(printf '%s\n' "${cands[@]}")
printf '%s\n' "$list" >"$REPO/.list"
ctl=$(cd "$HOME" && while read -r c; do cat "$c" 2>/dev/null; done <"$REPO/.list" | grep -c SECRET)
echo "positive control (unsandboxed): $ctl of ${#cands[@]} readable"
boxed 'while read -r c; do cat ~/"$c" 2>/dev/null; done <.list | sed -n "s/^SECRET:/READABLE /p"'
