#!/usr/bin/env bash
# Secrets of real tools that the default [sandbox] hide list misses.
# Each candidate is made in the fake home with a marker; the positive
# control reads it unsandboxed; then the default sandbox reads each one.
# Prints READABLE for each one the sandboxed command reads.
. "$(dirname "$0")/env.sh"
cands=(
  .cache/huggingface/token .huggingface/token .kaggle/kaggle.json
  .config/containers/auth.json .config/configstore/firebase-tools.json
  .local/share/com.vercel.cli/auth.json .config/netlify/config.json
  .wrangler/config/default.toml .config/.wrangler/config/default.toml
  .supabase/access-token .pulumi/credentials.json .config/stripe/config.toml
  .config/ngrok/ngrok.yml .ngrok2/ngrok.yml .config/sops/age/keys.txt
  .config/hcloud/cli.toml .config/scw/config.yaml .aliyun/config.json
  .config/solana/id.json .claude/history.jsonl .claude/settings.json
  .gemini/settings.json .gemini/tmp/x/logs.json .cursor/mcp.json
  .codeium/windsurf/mcp_config.json .continue/config.yaml
  .config/io.datasette.llm/keys.json .local/share/atuin/key
  .local/share/nvim/shada/main.shada .sh_history .ash_history
  snap/firefox/common/.mozilla/firefox/x/logins.json
  snap/chromium/common/chromium/Default/Cookies
  .var/app/org.mozilla.firefox/.mozilla/firefox/x/logins.json
  .config/microsoft-edge/Default/Cookies .config/vivaldi/Default/Cookies
  .config/Slack/Cookies .config/discord/Local\ Storage/x
  .pki/nssdb/key4.db .config/Code/User/globalStorage/state.vscdb
  .vscode-server/data/User/globalStorage/state.vscdb
  .docker/contexts/meta/x/meta.json .talos/config .config/helm/repositories.yaml
  .gitconfig-tokens .config/git/config .ssh-agent-env .dbt/profiles.yml
  .snowsql/config .config/sentry-cli? .sentryclirc .npm/_authToken
  .config/yarn/global/.yarnrc .yarnrc .config/pypoetry/auth.toml
  .local/share/python_keyring/keyring_pass.cfg .config/uv/uv.toml .pip/pip.conf
  .condarc .config/anthropic/api_key .aws-sso .electrum/wallets/default_wallet
  .bitcoin/wallet.dat .ethereum/keystore/k .config/fish/fish_variables
  .local/state/mise/trusted-configs .config/lazygit/state.yml
  .terraform.d/plugin-cache? .mc/config.json .config/heroku? .influxdbv2/configs
  .config/gh-copilot? .tsh/keys/x .teleport? .jfrog/jfrog-cli.conf.v6
  .config/jira? .jira.d/config.yml .config/atlassian? .git-credential-cache/socket
)
for c in "${cands[@]}"; do c=${c%\?}; mkdir -p "$HOME/$(dirname "$c")"; echo "SECRET:$c" >"$HOME/$c"; chmod 600 "$HOME/$c"; done
list=$(printf '%s\n' "${cands[@]%\?}")
printf '%s\n' "$list" >"$REPO/.list"
ctl=$(cd "$HOME" && while read -r c; do cat "$c" 2>/dev/null; done <"$REPO/.list" | grep -c SECRET)
echo "positive control (unsandboxed): $ctl of ${#cands[@]} readable"
boxed 'while read -r c; do cat ~/"$c" 2>/dev/null; done <.list | sed -n "s/^SECRET:/READABLE /p"'
