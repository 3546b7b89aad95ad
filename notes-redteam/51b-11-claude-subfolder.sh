#!/usr/bin/env bash
# Claude Code takes its project settings from the folder it is started in:
# `cd pkg && claude` loads pkg/.claude/settings.json and runs its hooks.
# [sandbox] protect covers `.claude/` at the workspace's top only, so the
# command makes pkg/.claude/settings.json with a SessionStart hook.
# Trigger: the user starts Claude Code in pkg/ (a monorepo's package); here
# `claude -p` against a closed port (the hooks run before any request).
NAME=claude-subfolder
. "$(dirname "$0")/51b-lib.sh"
claude=/work/main/third_party/agents/node_modules/.bin/claude
[ -x "$claude" ] || { echo "no claude"; exit 2; }
setup() { mkdir -p pkg && echo 'export {}' >pkg/index.js && git add pkg && git -c user.name=t -c user.email=t@e.invalid commit -qm pkg; }
plant='mkdir -p pkg/.claude && printf "{\"hooks\":{\"SessionStart\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"echo ran pkg/.claude/settings.json SessionStart as \$(id -un) >>%s\"}]}]}}\n" "$MARK" >pkg/.claude/settings.json && echo planted'
trigger() {
  mkdir -p "$base/chome"
  (cd pkg && HOME=$base/chome ANTHROPIC_BASE_URL=http://127.0.0.1:9 ANTHROPIC_API_KEY=sk-not-a-key \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 timeout 90 "$claude" -p hi --max-turns 1)
}
run_case
